//! `ferry perf`: FerryMQ's performance harness, in the spirit of IBM's mq-cph — the reference
//! workloads over any connection mode, a live line per interval, a summary with HDR latency
//! percentiles, JSON reports, the machine's raw limits measured in the same run, sweeps to an
//! SLA with charts, and comparison with a baseline. docs/perf.md documents every field.
//!
//! Owns: the command line (`args`), measurement (`stats`), `/proc` readings (`sys`), raw limits
//! (`limits`), workloads (`workload`), a run (`run`), reports (`report`), sweeps and comparison
//! (`sweep`), charts (`chart`). It talks to queue managers only through `ferry-client`.

pub mod args;
pub mod asyncput;
pub mod asyncrr;
pub mod chart;
pub mod limits;
pub mod linkem;
pub mod mqtt;
pub mod mqttclients;
pub mod mqttmqi;
pub mod pubsub;
pub mod report;
pub mod run;
pub mod stats;
pub mod sweep;
pub mod sys;
pub mod wan;
pub mod wanrr;
pub mod workload;

use std::path::Path;

pub use args::{PerfCommand, Workload, WorkloadArgs};
use report::{fmt_rate, RunReport};
use sweep::{Sla, Step, SweepReport};

fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("writing {}: {e}", path.display()))
}

fn limits_for(a: &WorkloadArgs) -> Result<Option<limits::Limits>, String> {
    if !a.with_limits {
        return Ok(None);
    }
    ferry_host::outln!(
        "measuring the raw limits of this machine (each the median of {} runs) ...",
        limits::RUNS
    );
    let mut progress = limits_progress();
    let temp = std::env::temp_dir();
    limits::Limits::measure_with(&temp, std::time::Duration::from_secs(1), &mut progress)
        .map(Some)
        .map_err(|e| format!("measuring the raw limits: {e}"))
}

/// Progress of the raw limits' runs on standard error ("run 2 of 5 done (9.8 s)"); Ctrl-C ends
/// the measuring between runs (it makes nothing to remove).
fn limits_progress() -> impl FnMut(usize) {
    let began = std::time::Instant::now();
    move |k| {
        let s = began.elapsed().as_secs_f64();
        eprintln!("  run {k} of {} done ({s:.1} s)", limits::RUNS);
        if ferry_host::stdout::interrupted() {
            eprintln!("ferry perf: interrupted");
            std::process::exit(130);
        }
    }
}

fn console(a: &WorkloadArgs, quiet: bool) -> Result<run::Console, String> {
    let json_lines = match &a.json_lines {
        Some(p) => {
            Some(std::fs::File::create(p).map_err(|e| format!("creating {}: {e}", p.display()))?)
        }
        None => None,
    };
    Ok(run::Console { json_lines, quiet })
}

/// A queue manager named rather than given by URL (`ferry perf put QM1`, or `-c QM1`): the
/// running one's local socket, as the other commands reach it.
pub fn resolve_qm(a: &WorkloadArgs) -> Result<WorkloadArgs, String> {
    let name = match (&a.qm, &a.connect) {
        (Some(_), Some(_)) => {
            return Err("give a queue manager name or --connect URL, not both".into())
        }
        (Some(q), None) => q.clone(),
        (None, Some(c)) if !c.contains(':') => c.clone(),
        _ => return Ok(a.clone()),
    };
    let home = ferry_host::home::default_home();
    let dir = ferry_host::home::qm_dir(&home, &name);
    if !dir.join(ferry_host::home::CONFIG_FILE).exists() {
        return Err(format!(
            "there is no queue manager {name} in {}; create it with 'ferry qm create {name}'",
            home.join("qmgrs").display()
        ));
    }
    if ferry_host::home::running_pid(&dir).is_none() {
        return Err(format!(
            "queue manager {name} is not running; start it with 'ferry qm start {name}', or name \
             none to host a queue manager in this process"
        ));
    }
    let mut b = a.clone();
    b.qm = None;
    b.connect = Some(format!(
        "unix:{}",
        dir.join(ferry_host::home::SOCKET_FILE).display()
    ));
    Ok(b)
}

/// How a run reaches the queue manager at `url`, in the banner's words.
fn mode_words(url: &str) -> &'static str {
    match url.split_once(':').map_or("", |(scheme, _)| scheme) {
        "unix" => "over the local socket",
        "tcp" => "over TCP",
        "tls" => "over TLS",
        "embedded" => "embedded, in this process",
        _ => "connected",
    }
}

/// Runs one workload and prints its summary.
pub fn run_workload(w: Workload, a: &WorkloadArgs) -> Result<RunReport, String> {
    let a = &resolve_qm(a)?;
    let limits = limits_for(a)?;
    let mut out = console(a, false)?;
    ferry_host::outln!(
        "ferry perf {}: {} thread(s), {} B, {} s after a {} s warm-up{}",
        w.name(),
        a.threads,
        a.size,
        a.duration.as_secs_f64(),
        a.warmup.as_secs_f64(),
        a.connect.as_deref().map_or(
            ", embedded: hosting a queue manager in this process, in a temporary directory".into(),
            |c| format!(", {} against {}", mode_words(c), run::redact_credentials(c))
        )
    );
    let report = run::run(w, a, limits, &mut out)?;
    if ferry_host::stdout::interrupted() {
        return Err(interrupted());
    }
    ferry_host::out!("{}", report.summary());
    if let Some(p) = &a.json {
        write_json(p, &report)?;
        ferry_host::outln!("report written to {}", p.display());
    }
    Ok(report)
}

/// `ferry perf limits`.
pub fn run_limits(a: &args::LimitsArgs) -> Result<limits::Limits, String> {
    let dir = a.dir.clone().unwrap_or_else(std::env::temp_dir);
    ferry_host::outln!(
        "measuring this machine's raw limits, {:.1} s each in {} runs taken in turns (disk: {}) ...",
        a.duration.as_secs_f64(),
        limits::RUNS,
        dir.display()
    );
    let mut progress = limits_progress();
    let l =
        limits::Limits::measure_with(&dir, a.duration, &mut progress).map_err(|e| e.to_string())?;
    ferry_host::outln!(
        "{:<56} {:>12} {:<13}  {}",
        "",
        "median",
        "",
        format_args!("lowest – highest of {}", limits::RUNS)
    );
    let rows = limits::NAMES.iter().zip(limits::UNITS).zip(l.values());
    for (((name, unit), v), (lo, hi)) in rows.zip(l.spread.runs) {
        ferry_host::outln!(
            "{name:<56} {:>12} {unit:<13}  {} – {}",
            fmt_rate(v),
            fmt_rate(lo),
            fmt_rate(hi)
        );
    }
    if let Some(p) = &a.json {
        write_json(p, &l)?;
    }
    Ok(l)
}

/// A line of a long run's progress, as it happens.
pub fn progress(line: &str) {
    ferry_host::outln!("{line}");
}

/// `ferry perf link`: the emulated link until Ctrl-C or SIGTERM, then what it carried.
pub fn run_link(a: &args::LinkArgs) -> Result<(), String> {
    let mut profile = linkem::Profile::named(&a.profile)?;
    if let Some(r) = a.rate_mbit {
        profile.rate_bps = r.max(1) * 1_000_000;
        profile.name = "custom";
    }
    if let Some(d) = a.delay_ms {
        profile.delay = std::time::Duration::from_secs_f64(d.max(0.0) / 1000.0);
        profile.name = "custom";
    }
    if let Some(l) = a.loss_pct {
        profile.loss = (l / 100.0).clamp(0.0, 1.0);
        profile.name = "custom";
    }
    let spec = linkem::LinkSpec {
        ns: [a.ns[0].clone(), a.ns[1].clone()],
        addr: [a.addr[0].clone(), a.addr[1].clone()],
        profile,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let counters = std::thread::scope(|s| {
        s.spawn(|| {
            while !ferry_host::stdout::interrupted() {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let r = linkem::run(&spec, &stop, || {
            ferry_host::outln!(
                "link up: {} ({}) <-> {} ({}), {}: {} ms each way, {} % loss, {} Mbit/s",
                spec.ns[0],
                spec.addr[0],
                spec.ns[1],
                spec.addr[1],
                profile.name,
                profile.delay.as_secs_f64() * 1000.0,
                profile.loss * 100.0,
                profile.rate_bps / 1_000_000
            );
        });
        // On a failure to start, the watcher above still waits for an interrupt: give it one.
        if r.is_err() {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            ferry_host::stdout::interrupt();
        }
        r
    })
    .map_err(|e| format!("the link emulator: {e}"))?;
    for (way, c) in ["a -> b", "b -> a"].iter().zip(counters.iter()) {
        let n = |x: &std::sync::atomic::AtomicU64| x.load(std::sync::atomic::Ordering::Relaxed);
        ferry_host::outln!(
            "{way}: {} packets ({} bytes) delivered, {} lost, {} dropped at the full queue, {} while cut",
            n(&c.delivered),
            n(&c.bytes),
            n(&c.lost),
            n(&c.overflowed),
            n(&c.cut)
        );
    }
    Ok(())
}

/// `ferry perf sweep`.
pub fn run_sweep(a: &args::SweepArgs) -> Result<SweepReport, String> {
    let (param, values) = sweep::parse_vary(&a.vary)?;
    let slas: Vec<(String, Sla)> = a
        .sla
        .iter()
        .map(|s| Sla::parse(s).map(|p| (s.clone(), p)))
        .collect::<Result<_, _>>()?;
    let limits = limits_for(&a.run)?;
    print_sweep_head(a, &param, &values, &slas);
    let mut steps: Vec<Step> = Vec::new();
    for v in &values {
        let step = sweep_step(a, &param, v, &slas, limits)?;
        if ferry_host::stdout::interrupted() {
            return Err(interrupted());
        }
        if ferry_host::stdout::closed() {
            break;
        }
        let stop = !step.broke.is_empty();
        steps.push(step);
        if stop {
            ferry_host::outln!("stopping: this step broke the SLA");
            break;
        }
    }
    let best = sweep::best_step(&steps).map(|s| s.value.clone());
    print_best(&param, best.as_deref(), &steps);
    let report = SweepReport {
        parameter: param,
        slas: a.sla.clone(),
        steps,
        best,
    };
    if let Some(dir) = &a.charts {
        write_charts(&report, dir)?;
    }
    if let Some(p) = &a.run.json {
        write_json(p, &report)?;
        ferry_host::outln!("report written to {}", p.display());
    }
    Ok(report)
}

/// A sweep's opening lines: what it varies and when it stops, and the table's heading.
fn print_sweep_head(a: &args::SweepArgs, param: &str, values: &[String], slas: &[(String, Sla)]) {
    ferry_host::outln!(
        "ferry perf sweep {}: {param} over {} ({} run(s) a step){}",
        a.workload.name(),
        values.join(", "),
        a.repeat.max(1),
        if slas.is_empty() {
            String::new()
        } else {
            format!("; stop at the first step breaking {}", a.sla.join(" or "))
        }
    );
    ferry_host::outln!(
        "{:>12} {:>14} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9}  SLA",
        param,
        "ops/s",
        "p50",
        "p90",
        "p99",
        "p99.9",
        "qm cpu",
        "harness"
    );
}

/// One step of a sweep: `--repeat` runs with `param` at `v`, the median run kept and its row
/// printed, with the SLAs it broke.
fn sweep_step(
    a: &args::SweepArgs,
    param: &str,
    v: &str,
    slas: &[(String, Sla)],
    limits: Option<limits::Limits>,
) -> Result<Step, String> {
    let run_args = sweep::apply(&a.run, param, v)?;
    let mut runs = Vec::new();
    for _ in 0..a.repeat.max(1) {
        let mut out = console(&run_args, true)?;
        runs.push(run::run(a.workload, &run_args, limits, &mut out)?);
    }
    let (report, rates) = sweep::median_run(runs);
    let broke = sweep::broken(slas, &report);
    let r = &report.results;
    let pct = |p: Option<f64>| p.map_or("–".into(), |p| format!("{p:.0}%"));
    ferry_host::outln!(
        "{:>12} {:>14} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9}  {}",
        v,
        fmt_rate(r.rate_per_s),
        report::fmt_us(r.latency.p50_us),
        report::fmt_us(r.latency.p90_us),
        report::fmt_us(r.latency.p99_us),
        report::fmt_us(r.latency.p999_us),
        pct(r.qm_cpu_pct),
        pct(r.harness_cpu_pct),
        if broke.is_empty() {
            "ok".to_owned()
        } else {
            format!("broke {}", broke.join(", "))
        }
    );
    Ok(Step {
        value: v.to_owned(),
        report,
        rates,
        broke,
    })
}

/// The sweep's verdict: the best step within the SLA, or that none kept it.
fn print_best(param: &str, best: Option<&str>, steps: &[Step]) {
    match best {
        Some(b) => {
            let s = steps
                .iter()
                .find(|s| s.value == b)
                .map(|s| &s.report.results);
            ferry_host::outln!(
                "best within the SLA: {param} = {b} ({} ops/s)",
                s.map_or("?".into(), |r| fmt_rate(r.rate_per_s))
            );
        }
        None => ferry_host::outln!("no step kept the SLA"),
    }
}

fn write_charts(report: &SweepReport, dir: &Path) -> Result<(), String> {
    for c in chart::sweep_charts(report) {
        for f in chart::write(dir, &c)? {
            ferry_host::outln!("chart written to {}", f.display());
        }
    }
    Ok(())
}

/// A report file: a run, or a sweep (whose best step, else last step, stands for it).
fn load_run(path: &Path) -> Result<RunReport, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    if let Ok(r) = serde_json::from_str::<RunReport>(&text) {
        return Ok(r);
    }
    let s: SweepReport = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a ferry perf report: {e}", path.display()))?;
    let step = s
        .best
        .as_ref()
        .and_then(|b| s.steps.iter().find(|st| &st.value == b))
        .or(s.steps.last())
        .ok_or_else(|| format!("{} holds no steps", path.display()))?;
    Ok(step.report.clone())
}

/// `ferry perf compare`.
pub fn run_compare(baseline: &Path, report: &Path) -> Result<Vec<sweep::Change>, String> {
    let b = load_run(baseline)?;
    let n = load_run(report)?;
    if b.workload != n.workload {
        ferry_host::outln!(
            "note: comparing different workloads ({} and {})",
            b.workload.name(),
            n.workload.name()
        );
    }
    let changes = sweep::compare(&b, &n);
    ferry_host::out!("{}", sweep::comparison_table(&changes));
    Ok(changes)
}

/// The error of a run Ctrl-C (or SIGTERM) stopped.
fn interrupted() -> String {
    "interrupted: the run stopped early, and removed what it had made".into()
}

/// Runs a `ferry perf` command. A closed standard output or Ctrl-C stops a run early, still
/// removing the queues it made and its temporary queue manager (a second Ctrl-C ends at once).
pub fn main(cmd: &PerfCommand) -> Result<(), String> {
    ferry_host::stdout::defer_exit_on_close();
    ferry_host::stdout::catch_interrupts();
    match cmd {
        PerfCommand::Put(a) => run_workload(Workload::Put, a).map(|_| ()),
        PerfCommand::Get(a) => run_workload(Workload::Get, a).map(|_| ()),
        PerfCommand::Putget(a) => run_workload(Workload::Putget, a).map(|_| ()),
        PerfCommand::Rr(a) => run_workload(Workload::Rr, a).map(|_| ()),
        PerfCommand::Forward(a) => run_workload(Workload::Forward, a).map(|_| ()),
        PerfCommand::Publish(a) => run_workload(Workload::Publish, a).map(|_| ()),
        PerfCommand::Mqtt(a) => {
            let r = mqtt::run(a)?;
            ferry_host::outln!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            Ok(())
        }
        PerfCommand::MqttClients(a) => mqttclients::run(a),
        PerfCommand::Limits(a) => run_limits(a).map(|_| ()),
        PerfCommand::Link(a) => run_link(a),
        PerfCommand::Wan(a) => {
            ferry_host::outln!(
                "ferry perf wan: {} profile(s) x {} congestion control(s) x {} size(s) x {} channel count(s) x {} compression(s), {} s a cell after {} s, bottleneck {} Mbit/s each way",
                a.profiles.len(),
                a.congctl.len(),
                a.sizes.len(),
                a.channels.len(),
                a.compress.len(),
                a.duration.as_secs_f64(),
                a.warmup.as_secs_f64(),
                a.rate_mbit.unwrap_or(linkem::DEFAULT_RATE_MBIT)
            );
            let r = wan::run(a)?;
            if let Some(p) = &a.json {
                write_json(p, &r)?;
                ferry_host::outln!("report written to {}", p.display());
            }
            Ok(())
        }
        PerfCommand::Sweep(a) => run_sweep(a).map(|_| ()),
        PerfCommand::Compare { baseline, report } => run_compare(baseline, report).map(|_| ()),
        PerfCommand::Chart { report, charts } => {
            let text = std::fs::read_to_string(report)
                .map_err(|e| format!("reading {}: {e}", report.display()))?;
            if let Ok(w) = serde_json::from_str::<wan::WanReport>(&text) {
                for c in wan::charts(&w) {
                    for f in chart::write(charts, &c)? {
                        ferry_host::outln!("chart written to {}", f.display());
                    }
                }
                return Ok(());
            }
            let s: SweepReport = serde_json::from_str(&text)
                .map_err(|e| format!("{} is not a sweep or wan report: {e}", report.display()))?;
            write_charts(&s, charts)
        }
    }
}
