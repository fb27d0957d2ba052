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

use bytes::Bytes;
use ferry_log::{Log, LogError};
use parking_lot::{RwLock, RwLockReadGuard};

use ferry_model::clock::Clock;
use ferry_model::message::Message;
use ferry_model::name::ObjectName;
use ferry_model::objects::QueueDefinition;
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::durable::checkpoint;
use crate::durable::record::{self, kind};
use crate::engine::{Journal, Logged, OnDisk};
use crate::qmgr::catalog::ObjectKind;
use crate::qmgr::journal::{defer_wait, CheckpointReport, Durability, LogStatus, QueueEvent};
use crate::qmgr::QueueManager;

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
    pub(crate) checkpoints: parking_lot::Mutex<checkpoint::Progress>,
}

pub(crate) fn log_error(e: LogError) -> MqError {
    match e {
        LogError::Full { .. } => MqError::new(Reason::ResourceProblem, e.to_string()),
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
        progress: checkpoint::Progress,
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
        if rec.kind != kind::PUT {
            return Err(record::bad(
                "PUT",
                format!("kind {} where a PUT should be", rec.kind),
            ));
        }
        let put = record::decode_put(Bytes::from(rec.payload))?;
        if put.queue != *queue || put.seq != seq {
            return Err(MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the recovery log holds {} #{} where message {queue} #{seq} should be (extent {}, offset {})",
                    put.queue, put.seq, d.pos.extent, d.pos.offset
                ),
            ));
        }
        let mut msg = put.msg;
        msg.descriptor.backout_count = d.backout_count;
        Ok(msg)
    }
}

impl Journal for Persist {
    fn put(&self, queue: &ObjectName, seq: u64, uow: u64, msg: &Message) -> MqResult<Logged> {
        let expiry_ms = msg
            .descriptor
            .expiry
            .map_or(0, |d| ferry_model::clock::unix_ms(self.clock.wall() + d));
        let payload = record::put(queue, seq, uow, expiry_ms, msg);
        self.log
            .append_bounded(kind::PUT, &payload)
            .map(|a| Logged {
                lsn: a.lsn,
                pos: a.pos,
            })
            .map_err(log_error)
    }

    fn get(&self, queue: &ObjectName, seq: u64, uow: u64) -> MqResult<u64> {
        self.append(kind::GET, &record::get(queue, seq, uow))
    }

    fn read(&self, queue: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Message> {
        self.read_message(queue, seq, d)
    }
}

fn encode_definition(name: &ObjectName, def: &QueueDefinition) -> MqResult<String> {
    toml::to_string(def).map_err(|e| {
        MqError::new(
            Reason::UnexpectedError,
            format!("cannot encode the definition of {name}: {e}"),
        )
    })
}

impl Durability for Persist {
    fn gate(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read()
    }

    fn wait(&self, lsn: u64) -> MqResult<()> {
        self.wait_lsn(lsn)
    }

    fn durable_lsn(&self) -> u64 {
        self.log.durable_lsn()
    }

    fn poll_durable(&self, lsn: u64, waker: &std::task::Waker) -> std::task::Poll<MqResult<()>> {
        self.log.poll_durable(lsn, waker).map_err(log_error)
    }

    fn define(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()> {
        let toml = encode_definition(name, def)?;
        let lsn = self.append(kind::DEFINE, &record::define(name, &toml))?;
        self.wait_lsn(lsn)
    }

    fn queue_event(&self, event: QueueEvent, name: &ObjectName) -> MqResult<u64> {
        let k = match event {
            QueueEvent::Delete => kind::DELETE,
            QueueEvent::Clear => kind::CLEAR,
        };
        self.append(k, &record::queue_event(name))
    }

    fn object_event(
        &self,
        object: ObjectKind,
        name: &ObjectName,
        toml: Option<&str>,
    ) -> MqResult<()> {
        let k = match toml {
            Some(_) => kind::OBJECT,
            None => kind::OBJECT_DELETE,
        };
        let lsn = self.append(k, &record::object(object.tag(), name, toml))?;
        self.wait_lsn(lsn)
    }

    fn end_uow(&self, commit: bool, uow: u64) -> MqResult<u64> {
        let k = if commit { kind::COMMIT } else { kind::BACKOUT };
        self.append(k, &record::end_uow(uow))
    }

    fn queue_buffer(&self) -> usize {
        self.settings.queue_buffer
    }

    fn checkpoint(&self, qm: &QueueManager) -> MqResult<Option<CheckpointReport>> {
        checkpoint::take(qm, self)
    }

    fn status(&self) -> LogStatus {
        let s = self.log.stats();
        LogStatus {
            circular: self.settings.log.log_type == ferry_log::LogType::Circular,
            current_extent: s.current_extent,
            oldest_extent: s.oldest_extent,
            syncs: s.syncs,
            records: s.records,
            checkpoints: self.checkpoints.lock().taken,
            bytes_appended: s.bytes_appended,
            durable_lsn: s.durable_lsn,
            write_seconds: s.write_seconds,
            sync_seconds: s.sync_seconds,
            batch_records: s.batch_records,
        }
    }
}

/// Parses a definition's TOML (as DEFINE records and checkpoints hold it).
pub(crate) fn parse_definition(toml_text: &[u8]) -> MqResult<QueueDefinition> {
    let text = std::str::from_utf8(toml_text).map_err(|e| record::bad("DEFINE", e))?;
    toml::from_str(text).map_err(|e| record::bad("DEFINE", e))
}
