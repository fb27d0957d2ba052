//! All a queue knows of the spill area: where a non-persistent message goes when the memory
//! budget has no room for it (MQ writes such messages to the queue file; FerryMQ to a spill
//! area beside the recovery log, never into it). The durable layer implements [`Spill`] over
//! `ferry_log::SpillArea`.
//!
//! A spilled message keeps its slot, so it comes back in order; only its compact entry
//! ([`OnDisk`] with `spilled` set) stays in memory. Writing and reading are I/O and are done
//! with no queue lock held; freeing is bookkeeping and may be done under one.

use ferry_log::{RecordPos, SpillStats};
use ferry_model::message::Message;
use ferry_model::reason::MqResult;

use crate::engine::store::OnDisk;

/// The spill area as a queue sees it.
pub trait Spill: Send + Sync + std::fmt::Debug {
    /// Writes `msg` to the area and returns where it is. Refused with STORAGE_NOT_AVAILABLE
    /// when the area holds its limit or its disk is full. Never called with a queue's lock held.
    fn write(&self, msg: &Message) -> MqResult<RecordPos>;

    /// Reads back the message at `d.pos` (with the backout count `d` holds now); a damaged one
    /// is QMGR_DATA_ERROR. Never called with a queue's lock held.
    fn read(&self, d: &OnDisk) -> MqResult<Message>;

    /// Frees the message at `at` (it left its queue).
    fn free(&self, at: RecordPos);

    /// What the area holds now.
    fn stats(&self) -> SpillStats;
}
