//! Time, in one place: the engine's monotonic clock, injectable so expiry is testable without
//! sleeping, and the wall clock that put times, expiry deadlines and status times come from.
//!
//! This module is the only place in the model and the engine that reads the system clock (the
//! tidy test enforces it). Code that stamps a message or computes a deadline asks a [`Clock`];
//! code that must block for a real duration (a waiting get parked on a condition variable) asks
//! [`monotonic_now`] for the instant to wait until.
//!
//! A manual clock moves both readings together: its wall time is the real time when it was made
//! plus the nanoseconds the test has moved it, so put times stay plausible and expiry follows
//! the test's hand.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Monotonic nanoseconds since the clock was made, and wall time. Real by default; manual in
/// tests.
#[derive(Debug, Clone)]
pub enum Clock {
    /// Real time, counted from `start`.
    System {
        /// When the clock started.
        start: Instant,
    },
    /// Time that moves only when the test says so.
    Manual {
        /// Nanoseconds since the clock was made (starts at 1).
        ticks: Arc<AtomicU64>,
        /// Wall time when it was made.
        base: SystemTime,
    },
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
        (
            Clock::Manual {
                ticks: t.clone(),
                base: SystemTime::now(),
            },
            t,
        )
    }

    /// Nanoseconds now (never 0, which means "never expires" in deadlines).
    #[inline]
    pub fn now(&self) -> u64 {
        match self {
            Clock::System { start } => start.elapsed().as_nanos() as u64 + 1,
            Clock::Manual { ticks, .. } => ticks.load(Ordering::Relaxed),
        }
    }

    /// The wall time now (put times, expiry deadlines in the log, status times).
    #[inline]
    pub fn wall(&self) -> SystemTime {
        match self {
            Clock::System { .. } => SystemTime::now(),
            Clock::Manual { ticks, base } => {
                *base + Duration::from_nanos(ticks.load(Ordering::Relaxed))
            }
        }
    }

    /// The wall time now as Unix milliseconds.
    #[inline]
    pub fn unix_ms(&self) -> i64 {
        unix_ms(self.wall())
    }

    /// The deadline `d` from now, in clock nanoseconds.
    #[inline]
    pub fn deadline(&self, d: Duration) -> u64 {
        self.now()
            .saturating_add(d.as_nanos().min(u64::MAX as u128) as u64)
            .max(1)
    }
}

/// Unix milliseconds of `t` (0 before the epoch).
#[inline]
pub fn unix_ms(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The time `ms` Unix milliseconds name.
#[inline]
pub fn from_unix_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

/// The real wall time now, for what no queue manager's clock governs (seeding id generators,
/// the time a report was made).
#[inline]
pub fn wall_now() -> SystemTime {
    SystemTime::now()
}

/// The real monotonic instant now, for blocking waits that the operating system times (a
/// parked getter's deadline, a thread's sleep). Not for anything stored or compared with a
/// [`Clock`]'s readings.
#[inline]
pub fn monotonic_now() -> Instant {
    Instant::now()
}

/// The proleptic Gregorian (year, month, day) of a count of days since 1970-01-01 (Howard
/// Hinnant's algorithm).
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// UTC date and time as MQ shows them: `2026-11-20` and `14.05.09`.
pub fn date_time(t: SystemTime) -> (String, String) {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_date(secs.div_euclid(86_400));
    (
        format!("{y:04}-{m:02}-{d:02}"),
        format!("{:02}.{:02}.{:02}", rem / 3600, rem / 60 % 60, rem % 60),
    )
}
