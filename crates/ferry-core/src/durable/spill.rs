//! The spill area as the engine's [`Spill`]: a non-persistent message beyond the memory budget
//! is written to `ferry_log::SpillArea` in the log-record message layout (`record.rs`), and
//! read back and checked against the entry its queue kept.

use bytes::{Bytes, BytesMut};

use ferry_log::{RecordPos, SpillArea, SpillError, SpillStats};
use ferry_model::message::Message;
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::durable::record;
use crate::engine::{OnDisk, Spill};

/// The queue manager's spill area.
#[derive(Debug)]
pub struct MessageSpill {
    area: SpillArea,
}

impl MessageSpill {
    /// Spills into `area`.
    pub fn new(area: SpillArea) -> MessageSpill {
        MessageSpill { area }
    }
}

fn refused(e: SpillError) -> MqError {
    match e {
        SpillError::Damaged(why) => MqError::new(Reason::QMgrDataError, why),
        e @ (SpillError::Full { .. } | SpillError::NoSpace(_)) => MqError::new(
            Reason::StorageNotAvailable,
            format!("the memory budget for non-persistent messages is full and {e}; consumers must get messages before more non-persistent ones can be put (or raise memory_budget_mib or spill_mib)"),
        ),
        e @ SpillError::Io(_) => MqError::new(
            Reason::StorageNotAvailable,
            format!("{e}; the non-persistent message was not put"),
        ),
    }
}

impl Spill for MessageSpill {
    fn write(&self, msg: &Message) -> MqResult<RecordPos> {
        let mut b = BytesMut::with_capacity(msg.body.len() + 256);
        record::encode_message(&mut b, msg);
        self.area.write(&b).map_err(refused)
    }

    fn read(&self, d: &OnDisk) -> MqResult<Message> {
        let payload = self.area.read(d.pos).map_err(refused)?;
        let mut r = record::Reader::new(Bytes::from(payload), "spilled message");
        let mut msg = record::decode_message(&mut r)?;
        if msg.descriptor.msg_id != d.msg_id {
            return Err(MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the spill area holds message {} where {} should be (segment {}, offset {})",
                    msg.descriptor.msg_id.to_hex(),
                    d.msg_id.to_hex(),
                    d.pos.extent,
                    d.pos.offset
                ),
            ));
        }
        msg.descriptor.backout_count = d.backout_count;
        Ok(msg)
    }

    fn free(&self, at: RecordPos) {
        self.area.free(at);
    }

    fn stats(&self) -> SpillStats {
        self.area.stats()
    }
}
