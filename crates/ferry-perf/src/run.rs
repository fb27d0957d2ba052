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
            ferry_host::outln!("{s}");
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
    let a = &crate::asyncput::settle(w, a)?;
    let started_unix_s = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let target = Target::prepare(w, a).map_err(|e| format!("preparing the queue manager: {e}"))?;
    if w == Workload::Publish {
        let mut c = workload::connect(&target.endpoint, a).map_err(|e| format!("connect: {e}"))?;
        crate::pubsub::prepare(&mut c, a)?;
        let _ = c.disconnect();
    }
    let shared = Shared::new(a.rate, a.threads);
    let recorders: Vec<Arc<Recorder>> = (0..a.threads).map(|_| Arc::default()).collect();
    let aux_stop = Arc::new(AtomicBool::new(false));
    // Helpers first (responders, feeder, drainer), so the workers find them there.
    let aux = spawn_aux(w, a, &target, &shared, &aux_stop);
    let workers = spawn_workers(w, a, &target, &shared, &recorders);
    let (mut results, failed) = measure(a, target.qm_pid, recorders, &workers, &shared, out);
    if w != Workload::Publish {
        results.deliveries_per_s = None;
    }
    shared.stop.store(true, Ordering::Release);
    let mut errors_seen = join_all(workers, "a worker panicked");
    aux_stop.store(true, Ordering::Release);
    errors_seen.extend(join_all(aux, "a helper thread panicked"));
    if let Some(e) = errors_seen.into_iter().next().or(failed) {
        return Err(e);
    }
    results.messages_put = shared.put.load(Ordering::Relaxed);
    results.messages_got = shared.got.load(Ordering::Relaxed);
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
                // Never the password a connection string may carry.
                redact_credentials(&target.endpoint)
            } else {
                "hosted in a temporary directory".into()
            },
            pid: target.qm_pid,
            config: target.qm_config.clone(),
        },
        limits,
        results,
    };
    drop(target);
    Ok(report)
}

/// Starts the unmeasured threads `w` needs: responders for rr, a feeder and a drainer for
/// forward, `--helpers` drainers for put or feeders for get.
fn spawn_aux(
    w: Workload,
    a: &WorkloadArgs,
    target: &Target,
    shared: &Arc<Shared>,
    aux_stop: &Arc<AtomicBool>,
) -> Vec<std::thread::JoinHandle<WorkerResult>> {
    let mut aux: Vec<std::thread::JoinHandle<WorkerResult>> = Vec::new();
    match w {
        // With the async client the responders are tasks beside the requesters.
        Workload::Rr if a.async_client => {}
        Workload::Rr => spawn_responders(a, target, aux_stop, &mut aux),
        Workload::Forward => {
            let feed = format!("{}.IN", a.prefix);
            let drain = format!("{}.OUT", a.prefix);
            aux.push(spawn_helper(
                target,
                a,
                shared,
                aux_stop,
                Helper::Feed,
                feed,
            ));
            aux.push(spawn_helper(
                target,
                a,
                shared,
                aux_stop,
                Helper::Drain,
                drain,
            ));
        }
        // The putters and getters are tasks of one thread (spawn_workers).
        Workload::Put if a.async_client => {}
        Workload::Put | Workload::Get => {
            let helper = if w == Workload::Put {
                Helper::Drain
            } else {
                Helper::Feed
            };
            for _ in 0..a.helpers {
                let queue = a.queue.clone();
                aux.push(spawn_helper(target, a, shared, aux_stop, helper, queue));
            }
        }
        Workload::Putget => {}
        Workload::Publish => spawn_subscribers(a, target, shared, aux_stop, &mut aux),
    }
    aux
}

/// Starts publish's subscribers, added to `aux`: --subscribers on the topic, or with
/// --triplets that many on each publisher's own topic.
fn spawn_subscribers(
    a: &WorkloadArgs,
    target: &Target,
    shared: &Arc<Shared>,
    aux_stop: &Arc<AtomicBool>,
    aux: &mut Vec<std::thread::JoinHandle<WorkerResult>>,
) {
    let topics = if a.triplets { a.threads } else { 1 };
    if a.async_client {
        let subs: Vec<(String, usize)> = (0..topics)
            .flat_map(|t| (0..a.subscribers).map(move |j| (t, t * a.subscribers + j)))
            .map(|(t, index)| (crate::pubsub::topic_of(a, t), index))
            .collect();
        let (ep, args, sh, stop) = (
            target.endpoint.clone(),
            a.clone(),
            shared.clone(),
            aux_stop.clone(),
        );
        aux.push(std::thread::spawn(move || {
            crate::pubsub::async_subscribers(&ep, &args, subs, sh, stop)
        }));
        return;
    }
    for t in 0..topics {
        for j in 0..a.subscribers {
            let index = t * a.subscribers + j;
            let topic = crate::pubsub::topic_of(a, t);
            let (ep, args, sh, stop) = (
                target.endpoint.clone(),
                a.clone(),
                shared.clone(),
                aux_stop.clone(),
            );
            aux.push(std::thread::spawn(move || {
                crate::pubsub::subscriber(&ep, &args, &topic, index, &sh, &stop)
            }));
        }
    }
}

/// Starts rr's [`responder_count`] responders, added to `aux`.
fn spawn_responders(
    a: &WorkloadArgs,
    target: &Target,
    aux_stop: &Arc<AtomicBool>,
    aux: &mut Vec<std::thread::JoinHandle<WorkerResult>>,
) {
    for i in 0..responder_count(a) {
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

/// rr's responders: `--responders`, by default two per request queue or one per requester,
/// whichever is more — and at least one per request queue, or requests to the others go
/// unanswered.
fn responder_count(a: &WorkloadArgs) -> usize {
    a.responders
        .unwrap_or((2 * PAIRS).max(a.threads))
        .max(PAIRS)
}

/// Starts the `--threads` measured workers of `w`, each with its recorder.
fn spawn_workers(
    w: Workload,
    a: &WorkloadArgs,
    target: &Target,
    shared: &Arc<Shared>,
    recorders: &[Arc<Recorder>],
) -> Vec<std::thread::JoinHandle<WorkerResult>> {
    if w == Workload::Put && a.async_client {
        let (ep, args, sh) = (target.endpoint.clone(), a.clone(), shared.clone());
        let recs = recorders.to_vec();
        return vec![std::thread::spawn(move || {
            crate::asyncput::ladder(&ep, &args, sh, recs)
        })];
    }
    if w == Workload::Rr && a.async_client {
        let (ep, args, sh) = (target.endpoint.clone(), a.clone(), shared.clone());
        let (recs, responders) = (recorders.to_vec(), responder_count(a));
        return vec![std::thread::spawn(move || {
            crate::asyncrr::run(&ep, &args, responders, sh, recs)
        })];
    }
    (0..a.threads)
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
                    Workload::Publish => crate::pubsub::publish_worker,
                };
                f(&ep, &args, &sh, &rec, i)
            })
        })
        .collect()
}

/// Joins `threads`, returning their errors in order (a panic reads `panicked`).
fn join_all(threads: Vec<std::thread::JoinHandle<WorkerResult>>, panicked: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for h in threads {
        match h.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => errors.push(e),
            Err(_) => errors.push(panicked.into()),
        }
    }
    errors
}

/// Whether the run must end before its time: its output's reader has gone (`| head -1`) or
/// Ctrl-C came. Either way it stops as at its end, removing what it made.
pub fn stop_asked() -> bool {
    ferry_host::stdout::closed() || ferry_host::stdout::interrupted()
}

/// Sleeps `d` in short steps, returning early when [`stop_asked`].
fn sleep_unless_stopped(d: Duration) {
    let end = Instant::now() + d;
    while !stop_asked() {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(100)));
    }
}

/// CPU used between two readings over `seconds`, as % of one core.
fn cpu_pct(end: Option<Duration>, start: Option<Duration>, seconds: f64) -> Option<f64> {
    match (end, start) {
        (Some(end), Some(start)) => Some(100.0 * end.saturating_sub(start).as_secs_f64() / seconds),
        _ => None,
    }
}

/// Waits out the warm-up, then measures for `a.duration` with a line per interval. The results
/// lack the message counts (read once the threads have stopped); the reason a worker stopped
/// early, if one did, comes with them.
fn measure(
    a: &WorkloadArgs,
    qm_pid: Option<u32>,
    recorders: Vec<Arc<Recorder>>,
    workers: &[std::thread::JoinHandle<WorkerResult>],
    shared: &Shared,
    out: &mut dyn Output,
) -> (Results, Option<String>) {
    let mut collector = Collector::new(recorders);
    let harness_pid = std::process::id();
    let mut qm_meter = qm_pid.map(CpuMeter::new);
    let mut harness_meter = CpuMeter::new(harness_pid);
    sleep_unless_stopped(a.warmup);
    collector.reset();
    let _ = qm_meter.as_mut().map(|m| m.sample());
    let _ = harness_meter.sample();
    let qm_cpu_start = qm_pid.and_then(sys::cpu_time);
    let harness_cpu_start = sys::cpu_time(harness_pid);
    let measure_start = Instant::now();
    let got_start = shared.got.load(Ordering::Relaxed);
    let mut sampler = Sampler {
        collector,
        qm_pid,
        qm_meter,
        harness_meter,
        rss_peak: None,
    };
    let (intervals, failed) = sampler.intervals(a, measure_start, workers, out);
    let seconds = measure_start.elapsed().as_secs_f64();
    let got = shared.got.load(Ordering::Relaxed) - got_start;
    let operations = sampler.collector.total_ops();
    let latency = sampler.collector.total_latency();
    let errors = sampler.collector.total_errors();
    let qm_cpu_pct = cpu_pct(qm_pid.and_then(sys::cpu_time), qm_cpu_start, seconds);
    let harness_cpu_pct = cpu_pct(sys::cpu_time(harness_pid), harness_cpu_start, seconds);
    let results = Results {
        operations,
        rate_per_s: operations as f64 / seconds.max(1e-9),
        seconds,
        messages_put: 0,
        messages_got: 0,
        errors,
        latency,
        qm_cpu_pct,
        harness_cpu_pct,
        qm_rss_peak_bytes: sampler.rss_peak,
        intervals,
        deliveries_per_s: Some(got as f64 / seconds.max(1e-9)),
    };
    (results, failed)
}

/// What the measuring reads each interval: the workers' statistics, the queue manager's and
/// the harness's CPU, and the queue manager's memory (with its peak).
struct Sampler {
    collector: Collector,
    qm_pid: Option<u32>,
    qm_meter: Option<CpuMeter>,
    harness_meter: CpuMeter,
    rss_peak: Option<u64>,
}

impl Sampler {
    /// A report per interval until `a.duration` has passed since `measure_start`, each printed
    /// to `out`; a worker that ends early stops it, with the reason.
    fn intervals(
        &mut self,
        a: &WorkloadArgs,
        measure_start: Instant,
        workers: &[std::thread::JoinHandle<WorkerResult>],
        out: &mut dyn Output,
    ) -> (Vec<IntervalReport>, Option<String>) {
        let mut intervals = Vec::new();
        let terminal = sys::stderr_is_terminal();
        let mut last = measure_start;
        while measure_start.elapsed() < a.duration && !stop_asked() {
            let left = a.duration.saturating_sub(measure_start.elapsed());
            std::thread::sleep(a.interval.min(left).max(Duration::from_millis(1)));
            let now = Instant::now();
            let report = self.sample(measure_start, last, now, workers);
            last = now;
            out.line(&live_line(&report, a.duration, terminal));
            out.interval(&report);
            let stopped_early = report.threads < workers.len();
            intervals.push(report);
            if stopped_early {
                // A worker ended early: it failed. Stop and report why.
                return (intervals, Some("a worker stopped early".into()));
            }
        }
        (intervals, None)
    }

    /// The interval from `last` to `now`.
    fn sample(
        &mut self,
        measure_start: Instant,
        last: Instant,
        now: Instant,
        workers: &[std::thread::JoinHandle<WorkerResult>],
    ) -> IntervalReport {
        let iv = self.collector.interval();
        let running = workers.iter().filter(|h| !h.is_finished()).count();
        let qm_rss = self.qm_pid.and_then(sys::rss_bytes);
        if let Some(r) = qm_rss {
            self.rss_peak = Some(self.rss_peak.map_or(r, |p| p.max(r)));
        }
        IntervalReport {
            t_s: now.duration_since(measure_start).as_secs_f64(),
            rate_per_s: iv.ops as f64 / now.duration_since(last).as_secs_f64().max(1e-9),
            threads: running,
            latency: iv.latency,
            qm_cpu_pct: self.qm_meter.as_mut().and_then(|m| m.sample()),
            harness_cpu_pct: self.harness_meter.sample(),
            qm_rss_bytes: qm_rss,
        }
    }
}

/// An interval's live line, behind a progress bar when standard error is a terminal.
fn live_line(report: &IntervalReport, duration: Duration, terminal: bool) -> String {
    let mut line = interval_line(report);
    if terminal {
        let done = (report.t_s / duration.as_secs_f64()).clamp(0.0, 1.0);
        let filled = (done * 20.0).round() as usize;
        line = format!("[{}{}] {line}", "#".repeat(filled), "-".repeat(20 - filled));
    }
    line
}

/// `tcp://USER:PASSWORD@HOST:PORT` as `tcp://USER@HOST:PORT`: reports never carry passwords.
pub(crate) fn redact_credentials(endpoint: &str) -> String {
    match ferry_client::split_credentials(endpoint) {
        (bare, Some((user, _))) => bare.replacen("://", &format!("://{user}@"), 1),
        (bare, None) => bare,
    }
}
