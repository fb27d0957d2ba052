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
