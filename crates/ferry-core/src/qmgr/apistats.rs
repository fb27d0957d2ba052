//! The queue manager's MQI call counts since start: what MQ's STATMQI monitoring class
//! publishes (CONNDISC, OPENCLOSE, INQSET, SYNCPOINT, SUBSCRIBE; PUT, GET and PUBLISH come
//! from the queues' and the topics' own counters) and `ferry_mqi_calls_total` shows.
//!
//! Counted where an application's call is answered, through every connection mode (a
//! connection's session, whatever carries it): MQOPEN and MQCLOSE as the application makes
//! them (not the opens an MQPUT1 or a publication makes inside the queue manager), MQCMIT
//! and MQBACK (not the units of work the queue manager opens and ends for a publication of its
//! own, nor the commit of a normal MQDISC). Each count is one relaxed atomic add, on a cache
//! line of its own family's.

use std::sync::atomic::{AtomicU64, Ordering};

/// An MQI call (or what it did) that STATMQI counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiCall {
    /// MQCONN / MQCONNX.
    Connect,
    /// MQDISC (however the connection ends).
    Disconnect,
    /// MQOPEN.
    Open,
    /// MQCLOSE.
    Close,
    /// MQINQ.
    Inquire,
    /// MQSET.
    Set,
    /// MQCMIT.
    Commit,
    /// MQBACK.
    Backout,
    /// MQSUB that made a durable subscription.
    SubCreateDurable,
    /// MQSUB with MQSO_ALTER of a durable subscription.
    SubAlterDurable,
    /// MQSUB that resumed a durable subscription.
    SubResumeDurable,
    /// MQSUB that made a non-durable subscription.
    SubCreateNonDurable,
    /// A durable subscription removed by MQCLOSE (MQCO_REMOVE_SUB).
    SubDeleteDurable,
    /// A non-durable subscription ended by MQCLOSE or the connection's end.
    SubDeleteNonDurable,
    /// MQSUBRQ.
    SubRequest,
}

/// How many kinds of call are counted.
const CALLS: usize = 15;

/// Counts since start, by call and outcome (a failed MQSUB under the kind it tried), and the most connections at once since the
/// high-water mark was last taken.
#[derive(Debug, Default)]
pub struct ApiStats {
    ok: [AtomicU64; CALLS],
    failed: [AtomicU64; CALLS],
    connections_hwm: AtomicU64,
}

/// A copy of the counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApiTotals {
    ok: [u64; CALLS],
    failed: [u64; CALLS],
}

impl ApiTotals {
    /// The counts since `earlier`.
    pub fn minus(&self, earlier: &ApiTotals) -> ApiTotals {
        ApiTotals {
            ok: std::array::from_fn(|i| self.ok[i].saturating_sub(earlier.ok[i])),
            failed: std::array::from_fn(|i| self.failed[i].saturating_sub(earlier.failed[i])),
        }
    }

    /// Calls of `call` that succeeded.
    pub fn ok(&self, call: ApiCall) -> u64 {
        self.ok[call as usize]
    }
    /// Calls of `call` that failed.
    pub fn failed(&self, call: ApiCall) -> u64 {
        self.failed[call as usize]
    }
}

impl ApiStats {
    /// Counts one call of `call`, successful or not.
    pub fn count(&self, call: ApiCall, ok: bool) {
        let at = if ok { &self.ok } else { &self.failed };
        at[call as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a call by its result.
    pub fn count_result<T, E>(&self, call: ApiCall, r: &Result<T, E>) {
        self.count(call, r.is_ok());
    }

    /// Notes that `now` connections are open (the high-water mark rises to it).
    pub fn note_connections(&self, now: usize) {
        self.connections_hwm
            .fetch_max(now as u64, Ordering::Relaxed);
    }

    /// The high-water mark of connections since the last call, which starts the next interval
    /// at `now` (MQ's "Concurrent connections - high water mark" is per interval).
    pub fn take_connections_hwm(&self, now: usize) -> u64 {
        self.connections_hwm
            .swap(now as u64, Ordering::Relaxed)
            .max(now as u64)
    }

    /// The counts now.
    pub fn totals(&self) -> ApiTotals {
        let load = |a: &[AtomicU64; CALLS]| std::array::from_fn(|i| a[i].load(Ordering::Relaxed));
        ApiTotals {
            ok: load(&self.ok),
            failed: load(&self.failed),
        }
    }
}

/// Every call, with the name `ferry_mqi_calls_total` labels it with.
pub const NAMES: [(ApiCall, &str); CALLS] = [
    (ApiCall::Connect, "MQCONN"),
    (ApiCall::Disconnect, "MQDISC"),
    (ApiCall::Open, "MQOPEN"),
    (ApiCall::Close, "MQCLOSE"),
    (ApiCall::Inquire, "MQINQ"),
    (ApiCall::Set, "MQSET"),
    (ApiCall::Commit, "MQCMIT"),
    (ApiCall::Backout, "MQBACK"),
    (ApiCall::SubCreateDurable, "MQSUB_CREATE_DURABLE"),
    (ApiCall::SubAlterDurable, "MQSUB_ALTER_DURABLE"),
    (ApiCall::SubResumeDurable, "MQSUB_RESUME_DURABLE"),
    (ApiCall::SubCreateNonDurable, "MQSUB_CREATE_NONDURABLE"),
    (ApiCall::SubDeleteDurable, "UNSUB_DURABLE"),
    (ApiCall::SubDeleteNonDurable, "UNSUB_NONDURABLE"),
    (ApiCall::SubRequest, "MQSUBRQ"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_has_one_name_and_counts_apart() {
        for (i, (call, _)) in NAMES.iter().enumerate() {
            assert_eq!(*call as usize, i);
        }
        let s = ApiStats::default();
        s.count(ApiCall::Open, true);
        s.count(ApiCall::Open, false);
        s.count_result::<(), ()>(ApiCall::Commit, &Ok(()));
        let t = s.totals();
        assert_eq!((t.ok(ApiCall::Open), t.failed(ApiCall::Open)), (1, 1));
        assert_eq!(t.ok(ApiCall::Commit), 1);
        s.note_connections(5);
        s.note_connections(3);
        assert_eq!(s.take_connections_hwm(2), 5);
        assert_eq!(s.take_connections_hwm(2), 2);
    }
}

/// MQ's object types (MQOT_*) that index the MQI statistics' per-type counts.
pub const OBJECT_TYPES: usize = 13;
/// MQOT_Q.
pub const OT_Q: usize = 1;
/// MQOT_NAMELIST.
pub const OT_NAMELIST: usize = 2;
/// MQOT_PROCESS.
pub const OT_PROCESS: usize = 3;
/// MQOT_Q_MGR.
pub const OT_Q_MGR: usize = 5;
/// MQOT_TOPIC (subscription handles are counted here too).
pub const OT_TOPIC: usize = 8;

/// What STATMQI counts beyond [`ApiCall`] — kept only while STATMQI is ON, since some are
/// counted on every put and get: slots of one flat array (the offsets below; a pair is
/// [non-persistent, persistent], a run of [`OBJECT_TYPES`] is by MQOT_* value).
pub mod slot {
    use super::OBJECT_TYPES as T;
    /// MQOPEN by object type, then failed MQOPEN, MQCLOSE, failed MQCLOSE, MQINQ, failed
    /// MQINQ, MQSET, failed MQSET: eight runs.
    pub const OPENS: usize = 0;
    /// Failed MQOPEN by type.
    pub const OPENS_FAILED: usize = T;
    /// MQCLOSE by type.
    pub const CLOSES: usize = 2 * T;
    /// Failed MQCLOSE by type.
    pub const CLOSES_FAILED: usize = 3 * T;
    /// MQINQ by type.
    pub const INQS: usize = 4 * T;
    /// Failed MQINQ by type.
    pub const INQS_FAILED: usize = 5 * T;
    /// MQSET by type.
    pub const SETS: usize = 6 * T;
    /// Failed MQSET by type.
    pub const SETS_FAILED: usize = 7 * T;
    /// MQPUT to queues, by persistence.
    pub const PUTS: usize = 8 * T;
    /// Failed MQPUT.
    pub const PUTS_FAILED: usize = PUTS + 2;
    /// MQPUT1 to queues, by persistence.
    pub const PUT1S: usize = PUTS_FAILED + 1;
    /// Failed MQPUT1.
    pub const PUT1S_FAILED: usize = PUT1S + 2;
    /// Bytes put (MQPUT and MQPUT1) to queues, by persistence.
    pub const PUT_BYTES: usize = PUT1S_FAILED + 1;
    /// Destructive gets, by persistence.
    pub const GETS: usize = PUT_BYTES + 2;
    /// Bytes got, by persistence.
    pub const GET_BYTES: usize = GETS + 2;
    /// Failed destructive gets (no message available included).
    pub const GETS_FAILED: usize = GET_BYTES + 2;
    /// Browses, by persistence.
    pub const BROWSES: usize = GETS_FAILED + 1;
    /// Bytes browsed, by persistence.
    pub const BROWSE_BYTES: usize = BROWSES + 2;
    /// Failed browses.
    pub const BROWSES_FAILED: usize = BROWSE_BYTES + 2;
    /// Failed MQCMIT.
    pub const COMMITS_FAILED: usize = BROWSES_FAILED + 1;
    /// MQPUT to topics, by persistence.
    pub const TOPIC_PUTS: usize = COMMITS_FAILED + 1;
    /// Failed MQPUT to topics.
    pub const TOPIC_PUTS_FAILED: usize = TOPIC_PUTS + 2;
    /// MQPUT1 to topics, by persistence.
    pub const TOPIC_PUT1S: usize = TOPIC_PUTS_FAILED + 1;
    /// Failed MQPUT1 to topics.
    pub const TOPIC_PUT1S_FAILED: usize = TOPIC_PUT1S + 2;
    /// Bytes published, by persistence.
    pub const TOPIC_PUT_BYTES: usize = TOPIC_PUT1S_FAILED + 1;
    /// Copies delivered to subscribers, by persistence.
    pub const PUBLISHED: usize = TOPIC_PUT_BYTES + 2;
    /// Their bytes, by persistence.
    pub const PUBLISHED_BYTES: usize = PUBLISHED + 2;
    /// Queues cleared (CLEAR QLOCAL).
    pub const PURGES: usize = PUBLISHED_BYTES + 2;
    /// Connections ended without MQDISC (implicit disconnects).
    pub const DISCS_IMPLICIT: usize = PURGES + 1;
    /// How many slots.
    pub const SLOTS: usize = DISCS_IMPLICIT + 1;
}

/// The STATMQI counts (see [`slot`]), switched by STATMQI.
#[derive(Debug)]
pub struct MqiStats {
    on: std::sync::atomic::AtomicBool,
    slots: [AtomicU64; slot::SLOTS],
}

impl Default for MqiStats {
    fn default() -> Self {
        MqiStats {
            on: std::sync::atomic::AtomicBool::new(false),
            slots: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl MqiStats {
    /// Whether STATMQI is ON (one relaxed load: the hot paths ask before counting).
    #[inline]
    pub fn on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    /// STATMQI switched.
    pub fn set_on(&self, on: bool) {
        self.on.store(on, Ordering::Relaxed);
    }

    /// Adds `n` to slot `at`.
    #[inline]
    pub fn add(&self, at: usize, n: u64) {
        debug_assert!(at < slot::SLOTS);
        self.slots[at].fetch_add(n, Ordering::Relaxed);
    }

    /// A message of `len` bytes put, got or browsed: its count at `counts` and bytes at
    /// `bytes`, each by persistence.
    #[inline]
    pub fn add_message(&self, counts: usize, bytes: usize, persistent: bool, len: usize) {
        let p = usize::from(persistent);
        self.add(counts + p, 1);
        self.add(bytes + p, len as u64);
    }

    /// Every slot now.
    pub fn snapshot(&self) -> [u64; slot::SLOTS] {
        std::array::from_fn(|i| self.slots[i].load(Ordering::Relaxed))
    }
}
