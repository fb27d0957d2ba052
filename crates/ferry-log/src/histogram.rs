//! Fixed-bucket histograms for the logger's statistics (write and sync latency, group-commit
//! batch size), shaped for Prometheus: upper bounds, a count per bucket, a sum and a count.

/// Upper bounds, in seconds, of the latency buckets: 50 µs to 1 s.
pub const SECONDS_BUCKETS: &[f64] = &[
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];
/// Upper bounds of the batch-size buckets, in records per sync.
pub const BATCH_BUCKETS: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0,
];

/// A histogram with fixed bucket bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Upper bounds of the buckets, ascending; a last bucket (+Inf) follows them.
    pub bounds: &'static [f64],
    /// Observations per bucket (not cumulative), `bounds.len() + 1` of them.
    pub counts: Vec<u64>,
    /// Sum of the observations.
    pub sum: f64,
    /// Number of observations.
    pub count: u64,
}

impl Histogram {
    /// An empty histogram over `bounds`.
    pub fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            counts: vec![0; bounds.len() + 1],
            sum: 0.0,
            count: 0,
        }
    }

    /// Records one observation.
    pub fn observe(&mut self, v: f64) {
        let i = self.bounds.partition_point(|b| *b < v);
        self.counts[i] += 1;
        self.sum += v;
        self.count += 1;
    }

    /// Cumulative counts per upper bound, the last for +Inf (Prometheus `_bucket` series).
    pub fn cumulative(&self) -> Vec<u64> {
        self.counts
            .iter()
            .scan(0, |acc, c| {
                *acc += c;
                Some(*acc)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_upper_bounds_inclusive() {
        let mut h = Histogram::new(BATCH_BUCKETS);
        for v in [1.0, 1.0, 2.0, 3.0, 5000.0] {
            h.observe(v);
        }
        assert_eq!(&h.counts[..3], &[2, 1, 1]);
        assert_eq!(*h.counts.last().unwrap(), 1);
        assert_eq!(*h.cumulative().last().unwrap(), 5);
        assert_eq!(h.count, 5);
        assert_eq!(h.sum, 5007.0);
    }
}
