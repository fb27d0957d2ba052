//! The engine's monotonic clock, injectable so expiry is testable without sleeping.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Monotonic nanoseconds since the clock was made. Real by default; manual in tests.
#[derive(Debug, Clone)]
pub enum Clock {
    /// Real time, counted from `start`.
    System {
        /// When the clock started.
        start: Instant,
    },
    /// Time that moves only when the test says so.
    Manual(Arc<AtomicU64>),
}

impl Default for Clock {
    fn default() -> Self {
        Clock::System {
            start: Instant::now(),
        }
    }
}

impl Clock {
    /// A manual clock at zero, plus the handle that moves it.
    pub fn manual() -> (Clock, Arc<AtomicU64>) {
        let t = Arc::new(AtomicU64::new(1));
        (Clock::Manual(t.clone()), t)
    }

    /// Nanoseconds now (never 0, which means "never expires" in deadlines).
    pub fn now(&self) -> u64 {
        match self {
            Clock::System { start } => start.elapsed().as_nanos() as u64 + 1,
            Clock::Manual(t) => t.load(Ordering::Relaxed),
        }
    }

    /// The deadline `d` from now, in clock nanoseconds.
    pub fn deadline(&self, d: Duration) -> u64 {
        self.now()
            .saturating_add(d.as_nanos().min(u64::MAX as u128) as u64)
            .max(1)
    }
}
