//! Sweeps to an SLA (vary one parameter, stop at the first step that breaks a service level,
//! report the best step within it) and comparison of a report with a baseline.

use serde::{Deserialize, Serialize};

use crate::args::{parse_duration, parse_size, WorkloadArgs};
use crate::report::{fmt_rate, RunReport};

/// The parameters a sweep can vary.
pub const PARAMETERS: [&str; 5] = ["threads", "responders", "size", "rate", "commit-count"];

/// Parses `NAME=V1,V2,...` into the parameter and its values (kept as written).
pub fn parse_vary(s: &str) -> Result<(String, Vec<String>), String> {
    let (name, values) = s
        .split_once('=')
        .ok_or_else(|| format!("--vary '{s}' must look like threads=1,2,4,8"))?;
    let name = name.trim().to_ascii_lowercase();
    if !PARAMETERS.contains(&name.as_str()) && !name.starts_with("qm.") {
        return Err(format!(
            "--vary: unknown parameter '{name}'; use one of {}, or qm.KEY for a queue manager setting",
            PARAMETERS.join(", ")
        ));
    }
    let values: Vec<String> = values
        .split(',')
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return Err(format!("--vary '{s}' lists no values"));
    }
    let probe = WorkloadArgs::defaults();
    for v in &values {
        apply(&probe, &name, v)?;
    }
    Ok((name, values))
}

/// `a` with parameter `name` set to `value`.
pub fn apply(a: &WorkloadArgs, name: &str, value: &str) -> Result<WorkloadArgs, String> {
    let mut b = a.clone();
    let int = |v: &str| {
        v.parse::<usize>()
            .map_err(|_| format!("'{v}' is not a whole number for {name}"))
    };
    match name {
        "threads" => b.threads = int(value)?.max(1),
        "responders" => b.responders = Some(int(value)?.max(1)),
        "size" => b.size = parse_size(value)?,
        "rate" => {
            b.rate = Some(
                value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a rate"))?,
            )
        }
        "commit-count" => {
            b.commit_count = int(value)?.max(1) as u32;
            b.syncpoint = true;
        }
        q if q.starts_with("qm.") => {
            let key = &q[3..];
            b.qm_set.retain(|kv| kv.split('=').next() != Some(key));
            b.qm_set.push(format!("{key}={value}"));
        }
        other => return Err(format!("unknown parameter '{other}'")),
    }
    Ok(b)
}

/// A metric an SLA can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Metric {
    /// Queue manager CPU, % of one core.
    Cpu,
    /// Harness CPU, % of one core.
    HarnessCpu,
    /// Median latency, µs.
    P50,
    /// 99th percentile latency, µs.
    P99,
    /// 99.9th percentile latency, µs.
    P999,
    /// Operations per second.
    Rate,
    /// Queue manager peak resident memory, bytes.
    Rss,
}

/// `metric <= value` or `metric >= value`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sla {
    /// What is measured.
    pub metric: Metric,
    /// `true` for `<=`, `false` for `>=`.
    pub at_most: bool,
    /// The bound, in the metric's unit (µs for latencies, bytes for memory).
    pub bound: f64,
}

impl Sla {
    /// Parses `cpu<=80`, `p99<=5ms`, `rate>=10000`, `rss<=1GB`.
    pub fn parse(s: &str) -> Result<Sla, String> {
        let (name, at_most, value) = if let Some((n, v)) = s.split_once("<=") {
            (n, true, v)
        } else if let Some((n, v)) = s.split_once(">=") {
            (n, false, v)
        } else {
            return Err(format!(
                "--sla '{s}' must look like cpu<=80, p99<=5ms or rate>=10000"
            ));
        };
        let metric = match name.trim().to_ascii_lowercase().as_str() {
            "cpu" | "qm-cpu" => Metric::Cpu,
            "harness-cpu" => Metric::HarnessCpu,
            "p50" => Metric::P50,
            "p99" => Metric::P99,
            "p999" | "p99.9" => Metric::P999,
            "rate" => Metric::Rate,
            "rss" => Metric::Rss,
            other => {
                return Err(format!(
                    "--sla: unknown metric '{other}'; use cpu, harness-cpu, p50, p99, p999, rate or rss"
                ))
            }
        };
        let v = value.trim();
        let bound = match metric {
            Metric::P50 | Metric::P99 | Metric::P999 => parse_duration(v)?.as_secs_f64() * 1e6,
            Metric::Rss => parse_size(v)? as f64,
            _ => v
                .trim_end_matches('%')
                .parse()
                .map_err(|_| format!("--sla '{s}': '{v}' is not a number"))?,
        };
        Ok(Sla {
            metric,
            at_most,
            bound,
        })
    }

    /// The metric's value in a report (`None` when the run could not measure it).
    pub fn value(&self, r: &RunReport) -> Option<f64> {
        let x = &r.results;
        match self.metric {
            Metric::Cpu => x.qm_cpu_pct,
            Metric::HarnessCpu => x.harness_cpu_pct,
            Metric::P50 => Some(x.latency.p50_us as f64),
            Metric::P99 => Some(x.latency.p99_us as f64),
            Metric::P999 => Some(x.latency.p999_us as f64),
            Metric::Rate => Some(x.rate_per_s),
            Metric::Rss => x.qm_rss_peak_bytes.map(|b| b as f64),
        }
    }

    /// Whether `r` keeps this service level (an unmeasurable metric breaks it).
    pub fn holds(&self, r: &RunReport) -> bool {
        match self.value(r) {
            Some(v) if self.at_most => v <= self.bound,
            Some(v) => v >= self.bound,
            None => false,
        }
    }
}

/// One step of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The parameter's value.
    pub value: String,
    /// The median run of the step (by rate).
    pub report: RunReport,
    /// Every run's rate.
    pub rates: Vec<f64>,
    /// The SLAs it broke.
    pub broke: Vec<String>,
}

/// A sweep's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    /// The parameter varied.
    pub parameter: String,
    /// The SLAs, as written.
    pub slas: Vec<String>,
    /// The steps run (the last one broke an SLA when the sweep stopped early).
    pub steps: Vec<Step>,
    /// The value of the best step within every SLA (highest rate).
    pub best: Option<String>,
}

/// Picks the median of a step's runs by rate.
pub fn median_run(mut runs: Vec<RunReport>) -> (RunReport, Vec<f64>) {
    let rates: Vec<f64> = runs.iter().map(|r| r.results.rate_per_s).collect();
    runs.sort_by(|a, b| a.results.rate_per_s.total_cmp(&b.results.rate_per_s));
    let mid = runs.len() / 2;
    (runs.swap_remove(mid), rates)
}

/// The SLAs `r` breaks, as written.
pub fn broken(slas: &[(String, Sla)], r: &RunReport) -> Vec<String> {
    slas.iter()
        .filter(|(_, s)| !s.holds(r))
        .map(|(t, _)| t.clone())
        .collect()
}

/// The best step within the SLAs: the highest rate among the steps that broke none.
pub fn best_step(steps: &[Step]) -> Option<&Step> {
    steps.iter().filter(|s| s.broke.is_empty()).max_by(|a, b| {
        a.report
            .results
            .rate_per_s
            .total_cmp(&b.report.results.rate_per_s)
    })
}

/// One metric compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The metric.
    pub metric: String,
    /// Baseline value.
    pub baseline: f64,
    /// New value.
    pub now: f64,
    /// Change, % of the baseline.
    pub change_pct: f64,
    /// The run-to-run noise, % of the baseline (two standard errors of the interval values of
    /// both runs combined).
    pub noise_pct: f64,
    /// Whether the change is beyond the noise.
    pub significant: bool,
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    if xs.len() < 2 {
        return (m, 0.0);
    }
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
    (m, var.sqrt())
}

/// Compares `now` with `base` on rate, latency percentiles and CPU. Noise comes from the
/// spread of each run's interval values: a change smaller than two standard errors of the
/// difference is within the noise.
pub fn compare(base: &RunReport, now: &RunReport) -> Vec<Change> {
    type Pick = fn(&crate::report::IntervalReport) -> Option<f64>;
    let metrics: [(&str, Pick, f64, f64); 5] = [
        (
            "rate per s",
            |i| Some(i.rate_per_s),
            base.results.rate_per_s,
            now.results.rate_per_s,
        ),
        (
            "p50 µs",
            |i| Some(i.latency.p50_us as f64),
            base.results.latency.p50_us as f64,
            now.results.latency.p50_us as f64,
        ),
        (
            "p99 µs",
            |i| Some(i.latency.p99_us as f64),
            base.results.latency.p99_us as f64,
            now.results.latency.p99_us as f64,
        ),
        (
            "queue manager cpu %",
            |i| i.qm_cpu_pct,
            base.results.qm_cpu_pct.unwrap_or(0.0),
            now.results.qm_cpu_pct.unwrap_or(0.0),
        ),
        (
            "harness cpu %",
            |i| i.harness_cpu_pct,
            base.results.harness_cpu_pct.unwrap_or(0.0),
            now.results.harness_cpu_pct.unwrap_or(0.0),
        ),
    ];
    metrics
        .iter()
        .map(|(name, pick, b, n)| {
            let bs: Vec<f64> = base.results.intervals.iter().filter_map(pick).collect();
            let ns: Vec<f64> = now.results.intervals.iter().filter_map(pick).collect();
            let (_, sb) = mean_sd(&bs);
            let (_, sn) = mean_sd(&ns);
            let se = (sb * sb / bs.len().max(1) as f64 + sn * sn / ns.len().max(1) as f64).sqrt();
            let noise = 2.0 * se;
            let denom = b.abs().max(1e-9);
            Change {
                metric: (*name).to_owned(),
                baseline: *b,
                now: *n,
                change_pct: 100.0 * (n - b) / denom,
                noise_pct: 100.0 * noise / denom,
                significant: (n - b).abs() > noise,
            }
        })
        .collect()
}

/// The comparison as a table.
pub fn comparison_table(changes: &[Change]) -> String {
    let mut s = format!(
        "{:<22} {:>14} {:>14} {:>9} {:>9}  verdict\n",
        "metric", "baseline", "now", "change", "noise ±"
    );
    for c in changes {
        s.push_str(&format!(
            "{:<22} {:>14} {:>14} {:>8.1}% {:>8.1}%  {}\n",
            c.metric,
            fmt_rate(c.baseline),
            fmt_rate(c.now),
            c.change_pct,
            c.noise_pct,
            if c.significant {
                "beyond the noise"
            } else {
                "within the noise"
            }
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{IntervalReport, Results};
    use crate::stats::Latency;

    fn report(rate: f64, p99: u64, cpu: f64, intervals: &[f64]) -> RunReport {
        RunReport {
            format: 1,
            workload: crate::args::Workload::Put,
            parameters: WorkloadArgs::defaults(),
            hardware: Default::default(),
            git_commit: String::new(),
            started_unix_s: 0,
            queue_manager: Default::default(),
            limits: None,
            results: Results {
                rate_per_s: rate,
                latency: Latency {
                    p99_us: p99,
                    ..Default::default()
                },
                qm_cpu_pct: Some(cpu),
                intervals: intervals
                    .iter()
                    .map(|r| IntervalReport {
                        rate_per_s: *r,
                        qm_cpu_pct: Some(cpu),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn slas_parse_and_judge() {
        let cpu = Sla::parse("cpu<=80").unwrap();
        let p99 = Sla::parse("p99<=5ms").unwrap();
        let rate = Sla::parse("rate>=1000").unwrap();
        assert_eq!(p99.bound, 5000.0);
        assert_eq!(Sla::parse("rss<=1GB").unwrap().bound, (1u64 << 30) as f64);
        let ok = report(2000.0, 4000, 70.0, &[]);
        let slow = report(2000.0, 6000, 70.0, &[]);
        let hot = report(2000.0, 1000, 90.0, &[]);
        assert!(cpu.holds(&ok) && p99.holds(&ok) && rate.holds(&ok));
        assert!(!p99.holds(&slow));
        assert!(!cpu.holds(&hot));
        assert!(Sla::parse("cpu=80").is_err());
        assert!(Sla::parse("speed<=3").is_err());
    }

    #[test]
    fn the_best_step_is_the_fastest_within_the_slas() {
        let slas = vec![("p99<=5ms".to_owned(), Sla::parse("p99<=5ms").unwrap())];
        let mk = |v: &str, rate: f64, p99: u64| {
            let r = report(rate, p99, 50.0, &[]);
            Step {
                value: v.into(),
                broke: broken(&slas, &r),
                rates: vec![rate],
                report: r,
            }
        };
        let steps = vec![
            mk("1", 100.0, 1000),
            mk("2", 300.0, 3000),
            mk("4", 500.0, 9000),
        ];
        assert_eq!(steps[2].broke, vec!["p99<=5ms".to_owned()]);
        assert_eq!(best_step(&steps).map(|s| s.value.as_str()), Some("2"));
    }

    #[test]
    fn vary_lists_are_checked() {
        assert_eq!(
            parse_vary("threads=1,2,4").unwrap(),
            ("threads".into(), vec!["1".into(), "2".into(), "4".into()])
        );
        assert!(parse_vary("size=2KB,20KB").is_ok());
        assert!(parse_vary("colour=red").is_err());
        assert!(parse_vary("threads=one").is_err());
        let a = apply(&WorkloadArgs::defaults(), "commit-count", "10").unwrap();
        assert!(a.syncpoint && a.commit_count == 10);
        let a = apply(&a, "qm.log.buffer_kib", "64").unwrap();
        let a = apply(&a, "qm.log.buffer_kib", "128").unwrap();
        assert_eq!(a.qm_set, vec!["log.buffer_kib=128".to_owned()]);
    }

    #[test]
    fn a_change_within_the_interval_spread_is_noise_and_beyond_it_is_not() {
        let base = report(1000.0, 100, 50.0, &[900.0, 1100.0, 1000.0, 950.0, 1050.0]);
        let same = report(1020.0, 100, 50.0, &[980.0, 1060.0, 1010.0, 990.0, 1060.0]);
        let faster = report(2000.0, 100, 50.0, &[1990.0, 2010.0, 2000.0, 1995.0, 2005.0]);
        let rate = |c: &[Change]| {
            c.iter()
                .find(|c| c.metric == "rate per s")
                .cloned()
                .unwrap()
        };
        assert!(!rate(&compare(&base, &same)).significant);
        let f = rate(&compare(&base, &faster));
        assert!(f.significant);
        assert!((f.change_pct - 100.0).abs() < 1e-9);
    }
}
