//! The queue manager's memory budget for message bodies: one count, shared by every queue's
//! store, of the bodies held in memory — available messages, messages put or got inside a unit
//! of work (they stay in their slots until it ends) and messages streamed ahead to a client
//! (held the same way until it reports them consumed) — and by the server's sockets, of the
//! answers waiting to be written (a socket reads no more requests while the budget is full and
//! it has 64 KiB of them).
//!
//! What it bounds: a non-persistent message that would take the budget past its limit is
//! refused (MQRC_STORAGE_NOT_AVAILABLE) before anything changes; a persistent one is kept only
//! in the recovery log (its store entry, not its body) and read back when it is got. Messages
//! coming back to a queue (a backout, a restart) are always taken, so the count may pass the
//! limit for a moment; new puts then wait for it to fall.
//!
//! Invariant: `used` is the sum, over every live store, of the cost of its in-memory bodies.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The shared count and its limit.
#[derive(Debug)]
pub struct MemoryBudget {
    limit: AtomicUsize,
    used: AtomicUsize,
}

impl MemoryBudget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> MemoryBudget {
        MemoryBudget {
            limit: AtomicUsize::new(limit),
            used: AtomicUsize::new(0),
        }
    }

    /// Whether `bytes` more fit.
    #[inline]
    pub fn has_room(&self, bytes: usize) -> bool {
        self.used.load(Ordering::Relaxed).saturating_add(bytes)
            <= self.limit.load(Ordering::Relaxed)
    }

    /// Counts `bytes` more held.
    #[inline]
    pub fn charge(&self, bytes: usize) {
        self.used.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Counts `bytes` no longer held.
    #[inline]
    pub fn release(&self, bytes: usize) {
        let before = self.used.fetch_sub(bytes, Ordering::Relaxed);
        debug_assert!(before >= bytes, "released {bytes} of {before} bytes held");
    }

    /// Bytes held now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// The limit, bytes.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Changes the limit (bodies already held stay).
    pub fn set_limit(&self, bytes: usize) {
        self.limit.store(bytes, Ordering::Relaxed);
    }
}

impl Default for MemoryBudget {
    fn default() -> Self {
        MemoryBudget::new(default_limit())
    }
}

/// The default budget: a quarter of what this process may use — the machine's memory, its
/// address-space limit (`ulimit -v`, `prlimit --as`) and its cgroup's memory limit, whichever
/// is least — and 1 GiB when none can be read.
pub fn default_limit() -> usize {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let total = meminfo.as_deref().and_then(mem_total);
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let address_space = limits.as_deref().and_then(address_space_limit);
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok());
    [total, address_space, cgroup]
        .into_iter()
        .flatten()
        .min()
        .map_or(1 << 30, |least| least / 4)
}

/// MemTotal from /proc/meminfo, bytes.
fn mem_total(meminfo: &str) -> Option<usize> {
    let kib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<usize>()
        .ok()?;
    Some(kib << 10)
}

/// The soft "Max address space" from /proc/self/limits, bytes (None when unlimited).
fn address_space_limit(limits: &str) -> Option<usize> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse::<usize>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_reads_the_least_of_the_machines_limits() {
        assert_eq!(
            mem_total("MemTotal:       24000000 kB\nMemFree: 1 kB\n"),
            Some(24_000_000 << 10)
        );
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         3221225472           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(3 << 30));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert!(default_limit() >= 1 << 20);
    }

    #[test]
    fn room_is_what_the_limit_leaves() {
        let b = MemoryBudget::new(100);
        assert!(b.has_room(100));
        b.charge(60);
        assert!(!b.has_room(41) && b.has_room(40));
        b.release(60);
        assert_eq!(b.used(), 0);
    }
}
