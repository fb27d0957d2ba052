//! All a queue knows of persistence: a [`Journal`] it logs its persistent messages' puts and
//! gets through, and reads a message back from when only the log holds it.
//!
//! The queue calls these under its own lock, so the log's order is the order its state changed
//! in; they never block on the disk (the caller waits for durability outside the lock, with the
//! LSN they return) and never wait for room in the log's buffer (they fail with
//! [`errors only when the log has failed or is full). Reading a message
//! back is I/O and is done outside the queue's lock (see `queue.rs`).

use ferry_log::RecordPos;
use ferry_model::message::{CorrelId, Message, MsgId, PropertyValue};
use ferry_model::name::ObjectName;
use ferry_model::reason::MqResult;

use crate::engine::store::OnDisk;

/// Where a logged record went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Logged {
    /// Its LSN: durable once the log says so.
    pub lsn: u64,
    /// Where it is (a PUT record's place is where the message's content lives).
    pub pos: RecordPos,
}

/// What an append that may not wait did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Append<T> {
    /// Appended.
    Done(T),
    /// The log's buffer has no room for a payload of this many bytes now; nothing was appended.
    /// The caller releases its lock, calls [`Journal::wait_room`] and tries again.
    NoRoom(usize),
}

/// The recovery log as a queue sees it. Implemented by the durable layer.
pub trait Journal: Send + Sync + std::fmt::Debug {
    /// Appends the PUT of `msg` as message `seq` of `queue`, inside unit of work `uow` (0 for
    /// none), without waiting. Refused with RESOURCE_PROBLEM when the log is full.
    fn put(
        &self,
        queue: &ObjectName,
        seq: u64,
        uow: u64,
        msg: &Message,
    ) -> MqResult<Append<Logged>>;

    /// Appends one PUBLISH record: the persistent publication `msg` (its descriptor resolved)
    /// and the copies `targets` name, inside unit of work `uow`, without waiting (see
    /// `fanout.rs`). Refused with RESOURCE_PROBLEM when the log is full.
    fn publish(&self, uow: u64, msg: &Message, targets: &[CopyTarget]) -> MqResult<Append<Logged>>;

    /// Appends the GET of message `seq` of `queue`, inside unit of work `uow` (0 for none),
    /// without waiting.
    fn get(&self, queue: &ObjectName, seq: u64, uow: u64) -> MqResult<Append<u64>>;

    /// Waits until the log's buffer has room for a `bytes`-byte payload. Never called with a
    /// queue's lock held.
    fn wait_room(&self, bytes: usize) -> MqResult<()>;

    /// Reads back message `seq` of `queue` from its PUT record at `d.pos` (with the backout
    /// count `d` holds now). I/O: never called with a queue's lock held.
    fn read(&self, queue: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Message>;
}

/// What distinguishes one copy of a publication from the publication as logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyTarget {
    /// The copy's queue.
    pub queue: ObjectName,
    /// Its sequence number there.
    pub seq: u64,
    /// Its msg id.
    pub msg_id: MsgId,
    /// Its correl id (the subscription's).
    pub correl_id: CorrelId,
    /// The subscription's user data (the copy's MQSubUserData property).
    pub user_data: Option<String>,
}

/// The copy of `common` with its own msg id, correl id and subscription user data: how the
/// publisher builds each copy and how a PUBLISH record is read back, so the two agree.
pub fn copy_of(
    common: &Message,
    msg_id: MsgId,
    correl_id: CorrelId,
    user_data: Option<&str>,
) -> MqResult<Message> {
    let mut copy = common.clone();
    copy.descriptor.msg_id = msg_id;
    copy.descriptor.correl_id = correl_id;
    if let Some(u) = user_data {
        copy.properties
            .set("MQSubUserData", PropertyValue::String(u.to_owned()))?;
    }
    Ok(copy)
}
