//! Measurement: per-worker latency histograms (HDR, microseconds), operation counters, the
//! per-interval view the live lines print, and the summary a run ends with.
//!
//! Owns: recording an operation, taking an interval (a worker's histogram since the last
//! interval is swapped out under its own uncontended lock), percentiles, rates.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Latencies are recorded in microseconds, from 1 µs to 1 hour, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

/// One worker's recorder (on cache lines of its own: its worker writes it at every
/// operation).
#[derive(Debug)]
#[repr(align(128))]
pub struct Recorder {
    interval: Mutex<Histogram<u64>>,
    ops: AtomicU64,
    errors: AtomicU64,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder {
            interval: Mutex::new(new_histogram()),
            ops: AtomicU64::new(0),
            errors: AtomicU64::new(0),
        }
    }
}

impl Recorder {
    /// Records one completed operation that took `latency`.
    pub fn record(&self, latency: Duration) {
        let us = (latency.as_micros() as u64).clamp(1, 3_600_000_000);
        if let Ok(mut h) = self.interval.lock() {
            let _ = h.record(us);
        }
        self.ops.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an operation that failed in a way the workload tolerates (e.g. queue full).
    pub fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    /// Operations completed so far.
    pub fn ops(&self) -> u64 {
        self.ops.load(Ordering::Relaxed)
    }

    /// Tolerated failures so far.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    /// Takes the histogram of the interval since the last take.
    pub fn take_interval(&self) -> Histogram<u64> {
        match self.interval.lock() {
            Ok(mut h) => std::mem::replace(&mut *h, new_histogram()),
            Err(_) => new_histogram(),
        }
    }
}

/// Percentiles of a histogram, in microseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Samples.
    pub count: u64,
    /// Mean.
    pub mean_us: f64,
    /// Median.
    pub p50_us: u64,
    /// 90th percentile.
    pub p90_us: u64,
    /// 99th percentile.
    pub p99_us: u64,
    /// 99.9th percentile.
    pub p999_us: u64,
    /// Largest.
    pub max_us: u64,
}

impl Latency {
    /// The percentiles of `h`.
    pub fn of(h: &Histogram<u64>) -> Latency {
        if h.is_empty() {
            return Latency::default();
        }
        Latency {
            count: h.len(),
            mean_us: h.mean(),
            p50_us: h.value_at_quantile(0.50),
            p90_us: h.value_at_quantile(0.90),
            p99_us: h.value_at_quantile(0.99),
            p999_us: h.value_at_quantile(0.999),
            max_us: h.max(),
        }
    }
}

/// All the workers' recorders, and the running totals the statistics thread keeps.
#[derive(Debug)]
pub struct Collector {
    recorders: Vec<Arc<Recorder>>,
    total: Histogram<u64>,
    base_errors: u64,
}

/// One interval's view.
#[derive(Debug, Clone, Copy)]
pub struct IntervalStats {
    /// Operations completed in the interval.
    pub ops: u64,
    /// Latency over the interval.
    pub latency: Latency,
}

impl Collector {
    /// A collector over `recorders`.
    pub fn new(recorders: Vec<Arc<Recorder>>) -> Self {
        Collector {
            recorders,
            total: new_histogram(),
            base_errors: 0,
        }
    }

    /// Forgets everything so far (the end of the warm-up).
    pub fn reset(&mut self) {
        for r in &self.recorders {
            r.take_interval();
        }
        self.total = new_histogram();
        self.base_errors = self.recorders.iter().map(|r| r.errors()).sum();
    }

    /// Takes the interval since the last call (and adds it to the total). Operations are
    /// counted from the histograms, so counts and latencies always cover the same samples.
    pub fn interval(&mut self) -> IntervalStats {
        let mut h = new_histogram();
        for r in &self.recorders {
            let _ = h.add(r.take_interval());
        }
        let _ = self.total.add(&h);
        IntervalStats {
            ops: h.len(),
            latency: Latency::of(&h),
        }
    }

    /// Operations in every interval taken since the last reset.
    pub fn total_ops(&self) -> u64 {
        self.total.len()
    }

    /// Tolerated failures since the last reset.
    pub fn total_errors(&self) -> u64 {
        self.recorders.iter().map(|r| r.errors()).sum::<u64>() - self.base_errors
    }

    /// Latency over every interval taken since the last reset.
    pub fn total_latency(&self) -> Latency {
        Latency::of(&self.total)
    }
}

/// A rate over a window of the last `n` intervals (for the live line's smoothed rate).
#[derive(Debug, Clone)]
pub struct RateWindow {
    samples: std::collections::VecDeque<(u64, Duration)>,
    n: usize,
}

impl RateWindow {
    /// A window of the last `n` samples.
    pub fn new(n: usize) -> Self {
        RateWindow {
            samples: std::collections::VecDeque::new(),
            n: n.max(1),
        }
    }

    /// Adds `ops` done over `over`; returns the rate over the window.
    pub fn push(&mut self, ops: u64, over: Duration) -> f64 {
        self.samples.push_back((ops, over));
        while self.samples.len() > self.n {
            self.samples.pop_front();
        }
        let (o, t) = self
            .samples
            .iter()
            .fold((0u64, Duration::ZERO), |(o, t), (a, b)| (o + a, t + *b));
        if t.is_zero() {
            0.0
        } else {
            o as f64 / t.as_secs_f64()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_known_latencies() {
        let r = Recorder::default();
        for us in 1..=1000u64 {
            r.record(Duration::from_micros(us));
        }
        let l = Latency::of(&r.take_interval());
        assert_eq!(l.count, 1000);
        // HDR keeps 3 significant digits: within 0.1 %.
        let near = |a: u64, b: u64| (a as f64 - b as f64).abs() <= b as f64 * 0.001 + 1.0;
        assert!(near(l.p50_us, 500), "{l:?}");
        assert!(near(l.p90_us, 900), "{l:?}");
        assert!(near(l.p99_us, 990), "{l:?}");
        assert!(near(l.p999_us, 999), "{l:?}");
        assert!(near(l.max_us, 1000), "{l:?}");
        assert!((l.mean_us - 500.5).abs() < 1.0, "{l:?}");
    }

    #[test]
    fn intervals_add_up_to_the_total_and_reset_forgets_the_warmup() {
        let a = Arc::new(Recorder::default());
        let b = Arc::new(Recorder::default());
        let mut c = Collector::new(vec![a.clone(), b.clone()]);
        a.record(Duration::from_millis(100)); // warm-up, forgotten
        c.reset();
        for _ in 0..10 {
            a.record(Duration::from_micros(10));
        }
        let i1 = c.interval();
        for _ in 0..30 {
            b.record(Duration::from_micros(20));
        }
        b.error();
        let i2 = c.interval();
        assert_eq!((i1.ops, i2.ops), (10, 30));
        assert_eq!(c.total_ops(), 40);
        assert_eq!(c.total_errors(), 1);
        let t = c.total_latency();
        assert_eq!(t.count, 40);
        assert!(t.max_us < 1000, "the warm-up sample is gone: {t:?}");
        assert_eq!(t.p50_us, 20);
    }

    #[test]
    fn the_rate_window_smooths_over_its_samples() {
        let mut w = RateWindow::new(2);
        assert_eq!(w.push(100, Duration::from_secs(1)), 100.0);
        assert_eq!(w.push(300, Duration::from_secs(1)), 200.0);
        // The first sample falls out of the window.
        assert_eq!(w.push(500, Duration::from_secs(1)), 400.0);
    }
}
