//! The recovery log as the layers below see it: [`Persist`] is each queue's [`Journal`] (puts,
//! gets, reading content back) and the queue manager's [`Durability`] (definitions, units of
//! work, the gate, waits, checkpoints, status).

use parking_lot::RwLockReadGuard;

use ferry_model::message::Message;
use ferry_model::name::ObjectName;
use ferry_model::objects::{ObjectKind, QueueDefinition};
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::durable::checkpoint;
use crate::durable::persist::{log_error, Persist};
use crate::durable::record::{self, kind};
use crate::engine::journal::CopyTarget;
use crate::engine::{Append, Journal, Logged, OnDisk};
use crate::qmgr::journal::{CheckpointReport, Durability, LogStatus, QueueEvent};
use crate::qmgr::QueueManager;

impl Persist {
    /// A message's absolute expiry as its record holds it (Unix ms, 0 none).
    fn expiry_ms(&self, msg: &Message) -> i64 {
        msg.descriptor
            .expiry
            .map_or(0, |d| ferry_model::clock::unix_ms(self.clock().wall() + d))
    }

    /// Appends a record holding message content (PUT, PUBLISH), bounded by the log's extents,
    /// without waiting: where it went, or the room it needs.
    fn append_message(&self, k: u8, payload: &[u8]) -> MqResult<Append<Logged>> {
        let appended = self.log().try_append(k, payload, true).map_err(log_error)?;
        Ok(match appended {
            Some(a) => Append::Done(Logged {
                lsn: a.lsn,
                pos: a.pos,
            }),
            None => Append::NoRoom(payload.len()),
        })
    }
}

impl Journal for Persist {
    fn put(
        &self,
        queue: &ObjectName,
        seq: u64,
        uow: u64,
        msg: &Message,
    ) -> MqResult<Append<Logged>> {
        let payload = record::put(queue, seq, uow, self.expiry_ms(msg), msg);
        self.append_message(kind::PUT, &payload)
    }

    fn publish(&self, uow: u64, msg: &Message, targets: &[CopyTarget]) -> MqResult<Append<Logged>> {
        let payload = record::publish(uow, self.expiry_ms(msg), msg, targets);
        self.append_message(kind::PUBLISH, &payload)
    }

    fn get(&self, queue: &ObjectName, seq: u64, uow: u64) -> MqResult<Append<u64>> {
        let payload = record::get(queue, seq, uow);
        let appended = self
            .log()
            .try_append(kind::GET, &payload, false)
            .map_err(log_error)?;
        Ok(match appended {
            Some(a) => Append::Done(a.lsn),
            None => Append::NoRoom(payload.len()),
        })
    }

    fn wait_room(&self, bytes: usize) -> MqResult<()> {
        self.log().wait_room(bytes).map_err(log_error)
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
        self.gate_shared()
    }

    fn wait(&self, lsn: u64) -> MqResult<()> {
        self.wait_lsn(lsn)
    }

    fn durable_lsn(&self) -> u64 {
        self.log().durable_lsn()
    }

    fn poll_durable(&self, lsn: u64, waker: &std::task::Waker) -> std::task::Poll<MqResult<()>> {
        self.log().poll_durable(lsn, waker).map_err(log_error)
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
        self.settings().queue_buffer
    }

    fn checkpoint(&self, qm: &QueueManager) -> MqResult<Option<CheckpointReport>> {
        checkpoint::take(qm, self)
    }

    fn status(&self) -> LogStatus {
        let s = self.log().stats();
        LogStatus {
            circular: self.settings().log.log_type == ferry_log::LogType::Circular,
            current_extent: s.current_extent,
            oldest_extent: s.oldest_extent,
            syncs: s.syncs,
            records: s.records,
            checkpoints: self.checkpoints.lock().taken,
            bytes_appended: s.bytes_appended,
            durable_lsn: s.durable_lsn,
            disk_full: s.disk_full,
            write_seconds: s.write_seconds,
            sync_seconds: s.sync_seconds,
            batch_records: s.batch_records,
        }
    }
}
