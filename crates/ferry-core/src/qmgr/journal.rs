//! What the queue manager knows of durability: the [`Durability`] trait the durable layer
//! implements, and [`deferring`], which lets a script of definitions wait for the disk once.
//!
//! The queue manager logs through this trait and never sees the log itself: definitions and
//! deletions, clears, channel and listener definitions, the end of a unit of work; it holds the
//! checkpoint gate (shared) from such a record to its in-memory effect, so a checkpoint never
//! sees a unit of work or a definition half done; it asks for a checkpoint when it stops. A
//! queue manager without a recovery log has no `Durability` and logs nothing.

use std::time::Duration;

use parking_lot::RwLockReadGuard;

use ferry_model::name::ObjectName;
use ferry_model::objects::QueueDefinition;
use ferry_model::reason::MqResult;

use crate::engine::Journal;
use crate::qmgr::QueueManager;
use ferry_model::objects::ObjectKind;

/// A queue-level event the log records (besides puts and gets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueEvent {
    /// The queue was deleted.
    Delete,
    /// Every available message was removed (CLEAR QLOCAL).
    Clear,
}

/// What a checkpoint did.
#[derive(Debug, Clone)]
pub struct CheckpointReport {
    /// Its file.
    pub file: String,
    /// Messages recorded.
    pub messages: u64,
    /// File size.
    pub bytes: u64,
    /// The longest time any one queue was held still while its messages were recorded (and
    /// the persistence gate, held exclusively only while the cut's start is taken).
    pub paused: Duration,
    /// How long the whole checkpoint took.
    pub took: Duration,
    /// Extents released (circular log).
    pub extents_released: u64,
}

/// What DISPLAY QMSTATUS shows of the recovery log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogStatus {
    /// Circular or linear.
    pub circular: bool,
    /// The extent being appended to.
    pub current_extent: u64,
    /// The oldest extent still needed.
    pub oldest_extent: u64,
    /// Syncs so far.
    pub syncs: u64,
    /// Records made durable so far.
    pub records: u64,
    /// Checkpoints taken since start.
    pub checkpoints: u64,
    /// Record bytes appended since start.
    pub bytes_appended: u64,
    /// Highest LSN on disk.
    pub durable_lsn: u64,
    /// Why the disk holding the log is full, while it is (persistent puts are refused).
    pub disk_full: Option<String>,
    /// Seconds each batch took to write.
    pub write_seconds: ferry_log::Histogram,
    /// Seconds each batch's sync took.
    pub sync_seconds: ferry_log::Histogram,
    /// Records per sync (group-commit batch size).
    pub batch_records: ferry_log::Histogram,
}

/// The queue manager's side of the recovery log. Implemented by the durable layer.
pub trait Durability: Journal {
    /// Held (shared) from a commit's, backout's or definition's record to its in-memory
    /// effect. Never take it twice on one thread, nor while holding a queue lock.
    fn gate(&self) -> RwLockReadGuard<'_, ()>;

    /// Waits until `lsn` is on disk (or, inside [`deferring`], notes it for the caller).
    fn wait(&self, lsn: u64) -> MqResult<()>;

    /// The highest LSN on disk.
    fn durable_lsn(&self) -> u64;

    /// Whether `lsn` is on disk, registering `waker` to be woken when it is (async callers:
    /// the server's sockets, the async embedded client).
    fn poll_durable(&self, lsn: u64, waker: &std::task::Waker) -> std::task::Poll<MqResult<()>>;

    /// Logs a queue definition (create or replace) and waits for it.
    fn define(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()>;

    /// Logs a queue event; the caller waits for the returned LSN. A CLEAR is logged under
    /// the queue's lock, like puts and gets.
    fn queue_event(&self, event: QueueEvent, name: &ObjectName) -> MqResult<u64>;

    /// Logs a channel or listener definition (`Some(toml)`) or deletion (`None`) and waits.
    fn object_event(&self, kind: ObjectKind, name: &ObjectName, toml: Option<&str>)
        -> MqResult<()>;

    /// Logs the end of unit of work `uow` (commit or backout); the caller waits for the LSN.
    fn end_uow(&self, commit: bool, uow: u64) -> MqResult<u64>;

    /// Bytes of persistent messages each queue keeps in memory besides the log.
    fn queue_buffer(&self) -> usize;

    /// Takes a checkpoint of `qm` now. `None` when nothing was logged since the last.
    fn checkpoint(&self, qm: &QueueManager) -> MqResult<Option<CheckpointReport>>;

    /// The log's status (DISPLAY QMSTATUS, metrics).
    fn status(&self) -> LogStatus;
}

thread_local! {
    /// Set inside [`deferring`]: the highest LSN a wait was asked for.
    static DEFERRED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with every durability wait on this thread deferred, and returns the highest LSN
/// it would have waited for: a script of administrative commands then costs one sync, not one
/// per definition. The caller must wait for (or hold its answer until) that LSN before telling
/// anyone the work is done.
pub fn deferring<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let outer = DEFERRED.with(|d| d.replace(Some(0)));
    let out = f();
    let max = DEFERRED.with(|d| d.replace(outer));
    // A nested scope hands its LSN to the outer one.
    if let (Some(o), Some(m)) = (outer, max) {
        DEFERRED.with(|d| d.set(Some(o.max(m))));
    }
    (out, max.filter(|m| *m > 0))
}

/// Inside [`deferring`], notes `lsn` as waited for and returns true; outside, false (the
/// caller must wait itself).
pub fn defer_wait(lsn: u64) -> bool {
    DEFERRED.with(|d| match d.get() {
        Some(max) => {
            d.set(Some(max.max(lsn)));
            true
        }
        None => false,
    })
}
