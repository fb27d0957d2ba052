//! Dead-lettering and poison messages: a message that cannot be delivered goes to the
//! dead-letter queue with a header saying why; one that reached its backout threshold goes to
//! BOQNAME, else to the dead-letter queue, else stays where it is.

use std::sync::Arc;
use std::time::Duration;

use ferry_model::message::{format, DeadLetterHeader, Message};
use ferry_model::name::{ApplName, ObjectName};
use ferry_model::reason::{MqError, Reason};

use crate::engine::Queue;
use crate::qmgr::QueueManager;

impl QueueManager {
    /// Puts `msg` on the dead-letter queue with a header saying why and where it was going.
    /// On failure (no dead-letter queue, or it refused the message) the message comes back
    /// unchanged with the reason, so the caller can keep it.
    pub fn dead_letter(
        &self,
        msg: Message,
        reason: Reason,
        dest_queue: ObjectName,
        dest_qmgr: ObjectName,
    ) -> Result<(), (MqError, Message)> {
        let dlq = match self.dead_letter_queue() {
            Ok(q) => q,
            Err(e) => return Err((e, msg)),
        };
        let original_format = msg.descriptor.format;
        let msg = self.with_dead_letter_header(msg, reason, dest_queue, dest_qmgr);
        let expires_at = match msg.descriptor.expiry {
            Some(d) => self.shared.clock.deadline(d),
            None => 0,
        };
        dlq.try_put(msg, expires_at, None, self.shared.clock.now())
            .map(|_| ())
            .map_err(|(e, mut m)| {
                m.dead_letter = None;
                m.descriptor.format = original_format;
                (e, m)
            })
    }

    /// The dead-letter queue (DEADQ); UNKNOWN_OBJECT_NAME when there is none.
    pub(crate) fn dead_letter_queue(&self) -> Result<Arc<Queue>, MqError> {
        let dlq_name = self.shared.attrs.read().dead_letter_queue;
        if dlq_name.is_empty() {
            return Err(MqError::new(
                Reason::UnknownObjectName,
                "no dead-letter queue is defined (DEADQ is blank)",
            ));
        }
        self.local_queue(&dlq_name)
    }

    /// `msg` with a dead-letter header saying why and where it was going.
    pub(crate) fn with_dead_letter_header(
        &self,
        mut msg: Message,
        reason: Reason,
        dest_queue: ObjectName,
        dest_qmgr: ObjectName,
    ) -> Message {
        let header = DeadLetterHeader {
            reason,
            dest_queue,
            dest_qmgr: if dest_qmgr.is_empty() {
                self.name()
            } else {
                dest_qmgr
            },
            original_format: msg.descriptor.format,
            put_appl_name: ApplName::truncating("ferry queue manager"),
            put_time: self.shared.clock.wall(),
        };
        msg.dead_letter = Some(Box::new(header));
        msg.descriptor.format = format::name(format::DEAD_LETTER);
        msg
    }

    /// Moves a message that reached its backout threshold to BOQNAME, or else to the dead-letter
    /// queue. If neither accepts it, it is restored to its queue and a warning logged: a poison
    /// message then stays visible rather than being lost.
    pub(crate) fn requeue_poison(
        &self,
        source: &Arc<Queue>,
        msg: Message,
        seq: u64,
        expires_at: u64,
    ) {
        let boq = source.lock().attrs.backout_requeue_name;
        let now = self.shared.clock.now();
        let mut msg = msg;
        if !boq.is_empty() {
            match self.resolve_local(&boq) {
                Ok(q) => match q.try_put(msg, expires_at, None, now) {
                    Ok(_) => return,
                    Err((e, m)) => {
                        tracing::warn!(queue = %source.name, boqname = %boq, error = %e,
                            "backout queue refused a poison message; trying the dead-letter queue");
                        msg = m;
                    }
                },
                Err(e) => {
                    tracing::warn!(queue = %source.name, boqname = %boq, error = %e,
                        "backout queue is not usable; trying the dead-letter queue");
                }
            }
        }
        if expires_at != 0 {
            // dead_letter() takes the deadline from the descriptor's expiry: give it the time
            // left, so moving the message does not restart its expiry.
            msg.descriptor.expiry =
                Some(Duration::from_nanos(expires_at.saturating_sub(now).max(1)));
        }
        if let Err((e, m)) = self.dead_letter(
            msg,
            Reason::BackoutThresholdReached,
            source.name,
            ObjectName::EMPTY,
        ) {
            tracing::warn!(queue = %source.name, error = %e,
                "no backout or dead-letter queue accepted a poison message; it stays on its queue");
            source.restore(m, seq, expires_at);
        }
    }
}
