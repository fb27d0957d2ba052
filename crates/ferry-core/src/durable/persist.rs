//! The engine's handle on the recovery log (`ferry-log`): appending the records `record.rs`
//! encodes, waiting for them to be durable, reading message content back, and the checkpoint
//! gate. [`Persist`] is the queues' [`Journal`] and the queue manager's [`Durability`].
//!
//! A message is known by its queue and its sequence number there, which never changes and is
//! never reused (a restart resumes numbering after the highest seen). PUT, GET and CLEAR records
//! are appended under the queue's lock, so the log's order is the order the queue's state
//! changed in; the caller then waits for durability outside the lock. Only persistent messages
//! are logged. A message's PUT record is also where its content lives once the queue's buffer is
//! full, and after a restart (see `engine/store.rs`).
//!
//! Commits, backouts and definition changes hold the checkpoint gate (shared) from their record
//! to their in-memory effect; a checkpoint holds it exclusively only while it takes the start of
//! its cut, so a snapshot never sees a unit of work half ended (see `checkpoint.rs`).

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use ferry_log::{Log, LogError};
use parking_lot::{RwLock, RwLockReadGuard};

use ferry_model::clock::Clock;
use ferry_model::message::Message;
use ferry_model::name::ObjectName;
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::durable::record::{self, kind};
use crate::engine::OnDisk;
use crate::qmgr::journal::{defer_wait, CheckpointReport};

/// Tuning of persistence (qm.toml `[log]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PersistSettings {
    /// The log's settings.
    pub log: ferry_log::LogConfig,
    /// Bytes of persistent messages each queue keeps in memory besides the log (MQ's
    /// DefaultPQBufferSize); beyond it only a compact entry per message stays in memory.
    pub queue_buffer: usize,
    /// Log bytes between checkpoints (at least; a checkpoint larger than a quarter of this
    /// stretches the interval to four times its size, so checkpoints never dominate the I/O).
    pub checkpoint_bytes: u64,
}

impl Default for PersistSettings {
    fn default() -> Self {
        PersistSettings {
            log: ferry_log::LogConfig::default(),
            queue_buffer: 32 * 1024 * 1024,
            checkpoint_bytes: 128 * 1024 * 1024,
        }
    }
}

/// Checkpoint bookkeeping.
#[derive(Debug, Default, Clone)]
pub struct Progress {
    /// The log's appended-bytes count when the last checkpoint was taken.
    pub at_bytes: u64,
    /// Size of the last checkpoint file.
    pub last_size: u64,
    /// Checkpoints taken since start.
    pub taken: u64,
    /// What the last one did.
    pub last: Option<CheckpointReport>,
    /// When the last one was taken (or the queue manager started).
    pub at_time: Option<Instant>,
    /// The durable mark last written (see `ferry_log::mark`), and when.
    pub mark: ferry_log::Mark,
    /// When `mark` was written (`None`: at start).
    pub mark_at: Option<Instant>,
}

/// The engine's handle on the recovery log.
#[derive(Debug)]
pub struct Persist {
    log: Log,
    storage: Arc<dyn ferry_log::Storage>,
    gate: RwLock<()>,
    settings: PersistSettings,
    /// Expiry deadlines in PUT records are wall-clock times from this clock.
    clock: Clock,
    /// Checkpoint bookkeeping (taken one at a time).
    pub(crate) checkpoints: parking_lot::Mutex<Progress>,
}

pub(crate) fn log_error(e: LogError) -> MqError {
    match e {
        LogError::Full { .. } | LogError::NoSpace(_) => {
            MqError::new(Reason::ResourceProblem, e.to_string())
        }
        LogError::Corrupt { .. } => MqError::new(
            Reason::QMgrDataError,
            format!("{e}; the message cannot be read back and is not served"),
        ),
        LogError::Io(_) => MqError::new(
            Reason::UnexpectedError,
            format!("the recovery log failed: {e}; the queue manager cannot promise durability"),
        ),
    }
}

impl Persist {
    /// Wraps an open log on `storage`.
    pub fn new(
        log: Log,
        storage: Arc<dyn ferry_log::Storage>,
        settings: PersistSettings,
        clock: Clock,
        progress: Progress,
    ) -> Arc<Persist> {
        Arc::new(Persist {
            log,
            storage,
            gate: RwLock::new(()),
            settings,
            clock,
            checkpoints: parking_lot::Mutex::new(progress),
        })
    }

    /// The log (statistics, waiting).
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The storage the log and checkpoints live on.
    pub fn storage(&self) -> &Arc<dyn ferry_log::Storage> {
        &self.storage
    }

    /// The settings.
    pub fn settings(&self) -> &PersistSettings {
        &self.settings
    }

    /// The clock expiry deadlines come from.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The checkpoint gate, shared (see [`crate::qmgr::journal::Durability::gate`]).
    pub fn gate_shared(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read()
    }

    pub(crate) fn gate_exclusive(&self) -> parking_lot::RwLockWriteGuard<'_, ()> {
        self.gate.write()
    }

    /// Appends a record; durable once [`Persist::wait_lsn`] returns for the LSN.
    pub fn append(&self, kind: u8, payload: &[u8]) -> MqResult<u64> {
        self.log
            .append(kind, payload)
            .map(|a| a.lsn)
            .map_err(log_error)
    }

    /// Waits until `lsn` is on disk — or, inside [`crate::qmgr::journal::deferring`], notes it
    /// for the caller to wait for once.
    pub fn wait_lsn(&self, lsn: u64) -> MqResult<()> {
        if defer_wait(lsn) {
            return Ok(());
        }
        self.log.wait_durable(lsn).map_err(log_error)
    }

    /// Reads back the message whose PUT record is at `d.pos` (its backout count as `d` says).
    pub fn read_message(&self, queue: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Message> {
        let rec = self.log.read(d.pos).map_err(log_error)?;
        let payload = Bytes::from(rec.payload);
        let found = match rec.kind {
            kind::PUT => {
                let put = record::decode_put(payload)?;
                (put.queue == *queue && put.seq == seq).then_some(put.msg)
            }
            kind::PUBLISH => {
                let p = record::decode_publish(payload)?;
                match p
                    .targets
                    .iter()
                    .position(|t| t.queue == *queue && t.seq == seq)
                {
                    Some(i) => Some(p.copy(i)?),
                    None => None,
                }
            }
            other => {
                return Err(record::bad(
                    "PUT",
                    format!("kind {other} where a PUT or PUBLISH should be"),
                ))
            }
        };
        let Some(mut msg) = found else {
            return Err(MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the recovery log's record at extent {}, offset {} does not hold message {queue} #{seq}",
                    d.pos.extent, d.pos.offset
                ),
            ));
        };
        msg.descriptor.backout_count = d.backout_count;
        Ok(msg)
    }
}
