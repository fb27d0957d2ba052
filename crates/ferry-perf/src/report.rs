//! The JSON reports (documented field by field in docs/perf.md) and the printed summary.

use serde::{Deserialize, Serialize};

use crate::args::{Workload, WorkloadArgs};
use crate::limits::Limits;
use crate::stats::Latency;
use crate::sys::Hardware;

/// Report format version.
pub const FORMAT: u32 = 1;

/// One statistics interval (also written as a JSON line with --json-lines).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntervalReport {
    /// Seconds since measuring began (end of the interval).
    pub t_s: f64,
    /// Operations per second over the interval.
    pub rate_per_s: f64,
    /// Worker threads still running.
    pub threads: usize,
    /// Latency over the interval.
    pub latency: Latency,
    /// Queue manager CPU over the interval, % of one core (absent when its process is unknown).
    pub qm_cpu_pct: Option<f64>,
    /// This harness's CPU over the interval, % of one core.
    pub harness_cpu_pct: Option<f64>,
    /// Queue manager resident memory at the end of the interval, bytes.
    pub qm_rss_bytes: Option<u64>,
}

/// What a run measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// Operations measured (after the warm-up): puts, gets, put-get pairs, round trips or forwards.
    pub operations: u64,
    /// Average operations per second over the measured time.
    pub rate_per_s: f64,
    /// Measured seconds.
    pub seconds: f64,
    /// Messages put over the whole run, warm-up included (requests for rr; fed for forward).
    pub messages_put: u64,
    /// Messages got over the whole run, warm-up included (replies for rr; drained for forward).
    pub messages_got: u64,
    /// Tolerated failures (a full queue waited out).
    pub errors: u64,
    /// Latency of the measured operations.
    pub latency: Latency,
    /// Queue manager CPU, % of one core, averaged over the measured time.
    pub qm_cpu_pct: Option<f64>,
    /// This harness's CPU, % of one core, averaged over the measured time.
    pub harness_cpu_pct: Option<f64>,
    /// Largest queue manager resident memory seen, bytes.
    pub qm_rss_peak_bytes: Option<u64>,
    /// Each interval.
    pub intervals: Vec<IntervalReport>,
    /// For publish: copies the subscribers got per second over the measured time.
    #[serde(default)]
    pub deliveries_per_s: Option<f64>,
}

/// The queue manager a run used.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QmReport {
    /// embedded, unix, tcp or tls.
    pub mode: String,
    /// The connection string (or "hosted" for a temporary embedded one).
    pub endpoint: String,
    /// Its process id, when known.
    pub pid: Option<u32>,
    /// Its qm.toml, when visible.
    pub config: Option<serde_json::Value>,
}

/// A run's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// Report format version.
    pub format: u32,
    /// What was run.
    pub workload: Workload,
    /// Every parameter.
    pub parameters: WorkloadArgs,
    /// The machine.
    pub hardware: Hardware,
    /// The git commit of the harness.
    pub git_commit: String,
    /// Unix seconds when the run started.
    pub started_unix_s: u64,
    /// The queue manager.
    pub queue_manager: QmReport,
    /// The raw limits, when measured in the same run.
    pub limits: Option<Limits>,
    /// The figures.
    pub results: Results,
}

/// Formats a rate like `1,234,567`.
pub fn fmt_rate(x: f64) -> String {
    let n = x.round() as u64;
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Formats microseconds as µs or ms.
pub fn fmt_us(us: u64) -> String {
    if us >= 10_000 {
        format!("{:.1} ms", us as f64 / 1000.0)
    } else if us >= 1000 {
        format!("{:.2} ms", us as f64 / 1000.0)
    } else {
        format!("{us} µs")
    }
}

fn fmt_pct(p: Option<f64>) -> String {
    p.map_or("–".into(), |p| format!("{p:.0}%"))
}

fn fmt_mb(b: Option<u64>) -> String {
    b.map_or("–".into(), |b| format!("{} MB", b / (1024 * 1024)))
}

/// The live line for one interval.
pub fn interval_line(i: &IntervalReport) -> String {
    format!(
        "{:>6.1}s  {:>11}/s  threads {:>3}  p50 {:>9}  p99 {:>9}  cpu qm {:>5} harness {:>5}  qm rss {}",
        i.t_s,
        fmt_rate(i.rate_per_s),
        i.threads,
        fmt_us(i.latency.p50_us),
        fmt_us(i.latency.p99_us),
        fmt_pct(i.qm_cpu_pct),
        fmt_pct(i.harness_cpu_pct),
        fmt_mb(i.qm_rss_bytes)
    )
}

impl RunReport {
    /// CPU an operation (µs of one core), when the run measured it: the queue manager's and
    /// the harness's, or the one process's when the queue manager is embedded.
    fn cpu_per_operation(&self, unit: &str) -> String {
        let r = &self.results;
        let per = |pct: f64| pct / 100.0 * 1e6 / r.rate_per_s.max(1e-9);
        let one = unit.strip_suffix('s').unwrap_or(unit);
        match (r.qm_cpu_pct, r.harness_cpu_pct) {
            _ if r.rate_per_s <= 0.0 => String::new(),
            (Some(q), _) if self.queue_manager.mode == "embedded" => {
                format!(
                    "cpu a {one}: {:.2} µs (queue manager and harness)\n",
                    per(q)
                )
            }
            (Some(q), Some(h)) => format!(
                "cpu a {one}: queue manager {:.2} µs, harness {:.2} µs\n",
                per(q),
                per(h)
            ),
            (None, Some(h)) => format!("cpu a {one}: harness {:.2} µs\n", per(h)),
            _ => String::new(),
        }
    }

    /// The printed summary.
    pub fn summary(&self) -> String {
        let r = &self.results;
        let mut s = self.headline();
        let unit = match self.workload {
            Workload::Rr => "round trips",
            Workload::Putget => "put-get pairs",
            Workload::Forward => "forwards",
            Workload::Put => "puts",
            Workload::Get => "gets",
            Workload::Publish => "publications",
        };
        s.push_str(&format!(
            "{} {unit}: {} per second\n",
            fmt_rate(r.operations as f64),
            fmt_rate(r.rate_per_s)
        ));
        let l = &r.latency;
        s.push_str(&format!(
            "latency: p50 {}  p90 {}  p99 {}  p99.9 {}  max {}  (mean {})\n",
            fmt_us(l.p50_us),
            fmt_us(l.p90_us),
            fmt_us(l.p99_us),
            fmt_us(l.p999_us),
            fmt_us(l.max_us),
            fmt_us(l.mean_us.round() as u64)
        ));
        s.push_str(&format!(
            "cpu (% of one core): queue manager {}, harness {}{}; queue manager rss peak {}\n",
            fmt_pct(r.qm_cpu_pct),
            fmt_pct(r.harness_cpu_pct),
            if self.queue_manager.mode == "embedded" {
                " (one process: the figures are the same process)"
            } else {
                ""
            },
            fmt_mb(r.qm_rss_peak_bytes)
        ));
        s.push_str(&self.cpu_per_operation(unit));
        if let Some(d) = r.deliveries_per_s {
            let per = r
                .qm_cpu_pct
                .filter(|_| d > 0.0)
                .map_or(String::new(), |cpu| {
                    format!(
                        "; queue manager CPU {:.2} µs a delivery",
                        cpu / 100.0 * 1e6 / d.max(1e-9)
                    )
                });
            s.push_str(&format!(
                "deliveries to subscribers: {} per second{per}\n",
                fmt_rate(d)
            ));
        }
        s.push_str(&format!(
            "messages put {}, got {}, full-queue waits {}\n",
            fmt_rate(r.messages_put as f64),
            fmt_rate(r.messages_got as f64),
            r.errors
        ));
        if let Some(lim) = &self.limits {
            let (name, limit) = self.relevant_limit(lim);
            s.push_str(&format!(
                "raw limit of this run: {name} {} per second — this run reached {:.0}% of it\n",
                fmt_rate(limit),
                100.0 * r.rate_per_s / limit.max(1e-9)
            ));
        }
        s
    }

    /// The summary's first line: what ran, how, and for how long.
    fn headline(&self) -> String {
        let p = &self.parameters;
        format!(
            "{} · {} thread(s) · {} B {} · {}{}{} · {} · {:.1} s measured after {:.1} s warm-up\n",
            self.workload.name(),
            p.threads,
            p.size,
            if p.persistent {
                "persistent"
            } else {
                "non-persistent"
            },
            if p.syncpoint {
                format!("syncpoint, commit every {}", p.commit_count)
            } else {
                "no syncpoint".into()
            },
            [
                (p.async_put, " · async put"),
                (p.read_ahead, " · read-ahead"),
                (p.async_client, " · async client"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, s)| *s)
            .collect::<String>(),
            if p.put1 { " · put1" } else { "" },
            self.queue_manager.mode,
            self.results.seconds,
            p.warmup.as_secs_f64(),
        )
    }

    /// The raw limit a workload's rate is best compared with.
    pub fn relevant_limit(&self, lim: &Limits) -> (&'static str, f64) {
        let p = &self.parameters;
        let mode = self.queue_manager.mode.as_str();
        if p.persistent {
            return (
                "disk sync rate (4 KB append + fdatasync)",
                lim.disk_syncs_per_s,
            );
        }
        // Synchronous calls are round trips; asynchronous puts and read-ahead gets stream, and
        // when the messages go on to another connection (put's drainers, get's feeders,
        // forward) they cross two hops, as the relay does.
        let streaming = p.async_put || (self.workload == Workload::Get && p.read_ahead);
        let relayed = streaming
            && (p.helpers > 0 || matches!(self.workload, Workload::Forward | Workload::Publish));
        match (mode, streaming, relayed) {
            ("embedded", _, _) => ("in-process hand-off of 2 KB buffers", lim.handoff_per_s),
            ("unix", false, _) => ("unix ping-pong", lim.unix_pingpong_per_s),
            ("unix", true, true) => ("unix two-hop relay", lim.unix_relay_per_s),
            ("unix", true, false) => ("unix streaming", lim.unix_stream_per_s),
            (_, false, _) => ("tcp ping-pong", lim.tcp_pingpong_per_s),
            (_, true, true) => ("tcp two-hop relay", lim.tcp_relay_per_s),
            (_, true, false) => ("tcp streaming", lim.tcp_stream_per_s),
        }
    }
}
