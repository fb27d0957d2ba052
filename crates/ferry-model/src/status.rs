//! Status values the queue manager reports: its run state, how a connection is attached, a
//! queue's status and counters (DISPLAY QMSTATUS, CONN, QSTATUS; metrics).

use std::time::{Duration, SystemTime};

use crate::name::ObjectName;

/// Run state of the queue manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunState {
    /// Accepting work.
    Running = 0,
    /// Finishing: no new connections; waits end with Q_MGR_QUIESCING.
    Quiescing = 1,
    /// Stopped or stopping: every call answers Q_MGR_STOPPING.
    Stopping = 2,
}

/// How a connection reaches the queue manager (DISPLAY CONN's CONNOPTS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnMode {
    /// In the queue manager's own process.
    Embedded,
    /// Over the local Unix socket.
    Local,
    /// Over TCP.
    Tcp,
    /// Over TLS.
    Tls,
    /// Over QUIC (TLS 1.3 inside, over UDP).
    Quic,
}

/// Counters and times reported by queue status (DISPLAY QSTATUS) and metrics.
#[derive(Debug, Clone, Default)]
pub struct QueueStats {
    /// Messages put (committed or not) since the queue manager started.
    pub puts: u64,
    /// Messages got destructively since the queue manager started.
    pub gets: u64,
    /// Time of the last put.
    pub last_put: Option<SystemTime>,
    /// Time of the last destructive get.
    pub last_get: Option<SystemTime>,
    /// Messages handed straight to a waiting getter.
    pub handovers: u64,
    /// QTIME: how long got messages had waited on the queue, microseconds, as a moving average
    /// over the last few hundred gets (0 until a message is got).
    pub qtime_us: u64,
    /// Messages set aside since the queue manager started because their content could not be
    /// read back from the recovery log (damaged on disk).
    pub damaged: u64,
    /// Puts, gets and browses by persistence ([non-persistent, persistent]), for queue
    /// statistics messages (STATQ).
    pub by_persistence: [PersistenceCounts; 2],
    /// The lowest and highest depth since the statistics interval began (STATQ's QMinDepth
    /// and QMaxDepth; the statistics writer starts each interval at the depth then).
    pub interval_depth: (usize, usize),
    /// Times the queue was cleared (CLEAR QLOCAL).
    pub purged: u64,
}

/// A queue's counts for one persistence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PersistenceCounts {
    /// Messages put.
    pub puts: u64,
    /// Their bytes.
    pub put_bytes: u64,
    /// Messages got destructively.
    pub gets: u64,
    /// Their bytes.
    pub get_bytes: u64,
    /// Microseconds they had waited on the queue, summed (average time on queue).
    pub waited_us: u64,
    /// Messages browsed.
    pub browses: u64,
    /// Their bytes.
    pub browse_bytes: u64,
}

impl QueueStats {
    /// Counts a put of `len` bytes that left the queue `depth` deep.
    #[inline]
    pub fn note_put(&mut self, persistent: bool, len: usize, depth: usize) {
        let c = &mut self.by_persistence[usize::from(persistent)];
        c.puts += 1;
        c.put_bytes += len as u64;
        self.note_depth(depth);
    }

    /// Counts a destructive get of `len` bytes put at `put_time`, got at `now`, and its wait
    /// into QTIME (one reading of the time between them serves both).
    #[inline]
    pub fn note_got(
        &mut self,
        persistent: bool,
        len: usize,
        put_time: SystemTime,
        now: SystemTime,
    ) {
        let waited = now
            .duration_since(put_time)
            .map_or(0, |d| d.as_micros() as u64);
        self.note_waited(waited);
        self.note_handed(persistent, len, waited);
    }

    /// Counts a destructive get of `len` bytes that waited `waited` µs (QTIME left alone: a
    /// message handed straight to a waiting getter does not count there).
    #[inline]
    pub fn note_handed(&mut self, persistent: bool, len: usize, waited: u64) {
        let c = &mut self.by_persistence[usize::from(persistent)];
        c.gets += 1;
        c.get_bytes += len as u64;
        c.waited_us += waited;
    }

    /// Counts a browse of `len` bytes.
    #[inline]
    pub fn note_browse(&mut self, persistent: bool, len: usize) {
        let c = &mut self.by_persistence[usize::from(persistent)];
        c.browses += 1;
        c.browse_bytes += len as u64;
    }

    /// The queue is `depth` deep now: the interval's lowest and highest depths follow it.
    #[inline]
    pub fn note_depth(&mut self, depth: usize) {
        let (lo, hi) = &mut self.interval_depth;
        *lo = (*lo).min(depth);
        *hi = (*hi).max(depth);
    }

    /// Counts a message that waited `waited` µs on the queue into QTIME.
    #[inline]
    fn note_waited(&mut self, waited: u64) {
        // An exponential moving average with weight 1/256.
        self.qtime_us = if self.qtime_us == 0 {
            waited
        } else {
            (self.qtime_us * 255 + waited) / 256
        };
    }
}

/// Status of a local queue (DISPLAY QSTATUS).
#[derive(Debug, Clone)]
pub struct QueueStatus {
    /// Queue name.
    pub name: ObjectName,
    /// CURDEPTH: messages held, committed or not.
    pub depth: usize,
    /// Messages a get could take now.
    pub available: usize,
    /// UNCOM: messages put or got in units of work not yet ended.
    pub uncommitted: usize,
    /// IPPROCS.
    pub open_input: usize,
    /// OPPROCS.
    pub open_output: usize,
    /// Getters waiting now.
    pub waiting_getters: usize,
    /// Age of the oldest message (MSGAGE).
    pub oldest_msg_age: Option<Duration>,
    /// Counters.
    pub stats: QueueStats,
    /// Expired messages discarded.
    pub expired: u64,
}
