//! One run: set up the queue manager, start the workers, print a line per interval, stop, and
//! build the report.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::args::{Workload, WorkloadArgs};
use crate::limits::Limits;
use crate::report::{interval_line, IntervalReport, QmReport, Results, RunReport, FORMAT};
use crate::stats::{Collector, Recorder};
use crate::sys::{self, CpuMeter, Hardware};
use crate::workload::{self, Shared, Target, WorkerResult, PAIRS};

/// Where a run's live output goes.
pub trait Output {
    /// A line for the reader.
    fn line(&mut self, s: &str);
    /// A JSON line for --json-lines (called once per interval).
    fn interval(&mut self, _i: &IntervalReport) {}
}

/// Prints lines to standard output (with a progress bar when standard error is a terminal)
/// and interval JSON lines to a file.
#[derive(Debug)]
pub struct Console {
    /// Interval JSON lines go here when set.
    pub json_lines: Option<std::fs::File>,
    /// Print nothing but errors (sweeps print their own table).
    pub quiet: bool,
}

impl Output for Console {
    fn line(&mut self, s: &str) {
        if !self.quiet {
            println!("{s}");
        }
    }
    fn interval(&mut self, i: &IntervalReport) {
        if let Some(f) = &mut self.json_lines {
            if let Ok(text) = serde_json::to_string(i) {
                let _ = writeln!(f, "{text}");
            }
        }
    }
}

/// An unmeasured helper thread.
#[derive(Debug, Clone, Copy)]
enum Helper {
    /// Keeps a queue supplied.
    Feed,
    /// Keeps a queue empty.
    Drain,
}

fn spawn_helper(
    target: &Target,
    a: &WorkloadArgs,
    shared: &Arc<Shared>,
    stop: &Arc<AtomicBool>,
    helper: Helper,
    queue: String,
) -> std::thread::JoinHandle<WorkerResult> {
    let (ep, args, sh, stop) = (
        a.helper_connect
            .clone()
            .unwrap_or_else(|| target.endpoint.clone()),
        a.clone(),
        shared.clone(),
        stop.clone(),
    );
    std::thread::spawn(move || match helper {
        Helper::Feed => workload::feeder(&ep, &args, &queue, &sh, &stop),
        Helper::Drain => workload::drainer(&ep, &args, &queue, &sh, &stop),
    })
}

/// Runs `w` with `a`, measuring `limits` first when asked (or using those given).
pub fn run(
    w: Workload,
    a: &WorkloadArgs,
    limits: Option<Limits>,
    out: &mut dyn Output,
) -> Result<RunReport, String> {
    if a.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let started_unix_s = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let target = Target::prepare(w, a).map_err(|e| format!("preparing the queue manager: {e}"))?;
    let shared = Shared::new(a.rate, a.threads);
    let recorders: Vec<Arc<Recorder>> = (0..a.threads).map(|_| Arc::default()).collect();
    let aux_stop = Arc::new(AtomicBool::new(false));

    // Helpers first (responders, feeder, drainer), so the workers find them there.
    let mut aux: Vec<std::thread::JoinHandle<WorkerResult>> = Vec::new();
    match w {
        Workload::Rr => {
            // At least one responder per request queue, or requests to the others go unanswered.
            let n = a
                .responders
                .unwrap_or((2 * PAIRS).max(a.threads))
                .max(PAIRS);
            for i in 0..n {
                let ep = a
                    .responder_connect
                    .clone()
                    .unwrap_or_else(|| target.endpoint.clone());
                let (args, stop) = (a.clone(), aux_stop.clone());
                aux.push(std::thread::spawn(move || {
                    workload::responder_worker(&ep, &args, &stop, i % PAIRS)
                }));
            }
        }
        Workload::Forward => {
            let feed = format!("{}.IN", a.prefix);
            let drain = format!("{}.OUT", a.prefix);
            aux.push(spawn_helper(
                &target,
                a,
                &shared,
                &aux_stop,
                Helper::Feed,
                feed,
            ));
            aux.push(spawn_helper(
                &target,
                a,
                &shared,
                &aux_stop,
                Helper::Drain,
                drain,
            ));
        }
        Workload::Put | Workload::Get => {
            let helper = if w == Workload::Put {
                Helper::Drain
            } else {
                Helper::Feed
            };
            for _ in 0..a.helpers {
                aux.push(spawn_helper(
                    &target,
                    a,
                    &shared,
                    &aux_stop,
                    helper,
                    a.queue.clone(),
                ));
            }
        }
        Workload::Putget => {}
    }
    let workers: Vec<std::thread::JoinHandle<WorkerResult>> = (0..a.threads)
        .map(|i| {
            let (ep, args, sh, rec) = (
                target.endpoint.clone(),
                a.clone(),
                shared.clone(),
                recorders[i].clone(),
            );
            std::thread::spawn(move || {
                let f = match w {
                    Workload::Put => workload::put_worker,
                    Workload::Get => workload::get_worker,
                    Workload::Putget => workload::putget_worker,
                    Workload::Rr => workload::requester_worker,
                    Workload::Forward => workload::forward_worker,
                };
                f(&ep, &args, &sh, &rec, i)
            })
        })
        .collect();

    let mut collector = Collector::new(recorders);
    let harness_pid = std::process::id();
    let mut qm_meter = target.qm_pid.map(CpuMeter::new);
    let mut harness_meter = CpuMeter::new(harness_pid);
    std::thread::sleep(a.warmup);
    collector.reset();
    let _ = qm_meter.as_mut().map(|m| m.sample());
    let _ = harness_meter.sample();
    let qm_cpu_start = target.qm_pid.and_then(sys::cpu_time);
    let harness_cpu_start = sys::cpu_time(harness_pid);
    let measure_start = Instant::now();
    let mut intervals = Vec::new();
    let mut rss_peak: Option<u64> = None;
    let terminal = sys::stderr_is_terminal();
    let mut last = measure_start;
    let mut failed: Option<String> = None;
    while measure_start.elapsed() < a.duration {
        let left = a.duration.saturating_sub(measure_start.elapsed());
        std::thread::sleep(a.interval.min(left).max(Duration::from_millis(1)));
        let now = Instant::now();
        let iv = collector.interval();
        let running = workers.iter().filter(|h| !h.is_finished()).count();
        let qm_rss = target.qm_pid.and_then(sys::rss_bytes);
        if let Some(r) = qm_rss {
            rss_peak = Some(rss_peak.map_or(r, |p| p.max(r)));
        }
        let report = IntervalReport {
            t_s: now.duration_since(measure_start).as_secs_f64(),
            rate_per_s: iv.ops as f64 / now.duration_since(last).as_secs_f64().max(1e-9),
            threads: running,
            latency: iv.latency,
            qm_cpu_pct: qm_meter.as_mut().and_then(|m| m.sample()),
            harness_cpu_pct: harness_meter.sample(),
            qm_rss_bytes: qm_rss,
        };
        last = now;
        let mut line = interval_line(&report);
        if terminal {
            let done = (report.t_s / a.duration.as_secs_f64()).clamp(0.0, 1.0);
            let filled = (done * 20.0).round() as usize;
            line = format!("[{}{}] {line}", "#".repeat(filled), "-".repeat(20 - filled));
        }
        out.line(&line);
        out.interval(&report);
        intervals.push(report);
        if running < workers.len() {
            // A worker ended early: it failed. Stop and report why.
            failed = Some("a worker stopped early".into());
            break;
        }
    }
    let seconds = measure_start.elapsed().as_secs_f64();
    let operations = collector.total_ops();
    let latency = collector.total_latency();
    let errors = collector.total_errors();
    let qm_cpu_pct = match (target.qm_pid.and_then(sys::cpu_time), qm_cpu_start) {
        (Some(end), Some(start)) => Some(100.0 * end.saturating_sub(start).as_secs_f64() / seconds),
        _ => None,
    };
    let harness_cpu_pct = match (sys::cpu_time(harness_pid), harness_cpu_start) {
        (Some(end), Some(start)) => Some(100.0 * end.saturating_sub(start).as_secs_f64() / seconds),
        _ => None,
    };
    shared.stop.store(true, Ordering::Release);
    let mut errors_seen = Vec::new();
    for h in workers {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => errors_seen.push(e),
            Err(_) => errors_seen.push("a worker panicked".into()),
        }
    }
    aux_stop.store(true, Ordering::Release);
    for h in aux {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => errors_seen.push(e),
            Err(_) => errors_seen.push("a helper thread panicked".into()),
        }
    }
    if let Some(e) = errors_seen.into_iter().next().or(failed) {
        return Err(e);
    }
    let report = RunReport {
        format: FORMAT,
        workload: w,
        parameters: a.clone(),
        hardware: Hardware::detect(),
        git_commit: sys::git_commit().to_owned(),
        started_unix_s,
        queue_manager: QmReport {
            mode: target.mode.to_owned(),
            endpoint: if a.connect.is_some() {
                target.endpoint.clone()
            } else {
                "hosted in a temporary directory".into()
            },
            pid: target.qm_pid,
            config: target.qm_config.clone(),
        },
        limits,
        results: Results {
            operations,
            rate_per_s: operations as f64 / seconds.max(1e-9),
            seconds,
            messages_put: shared.put.load(Ordering::Relaxed),
            messages_got: shared.got.load(Ordering::Relaxed),
            errors,
            latency,
            qm_cpu_pct,
            harness_cpu_pct,
            qm_rss_peak_bytes: rss_peak,
            intervals,
        },
    };
    drop(target);
    Ok(report)
}
