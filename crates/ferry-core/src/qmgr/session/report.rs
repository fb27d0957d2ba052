//! Report messages the queue manager sends about an application's message (MQMD Report,
//! `ferry_model::report`): confirm on arrival when the message is put on its destination queue
//! (by an application here, or by the receiving end of a channel), confirm on delivery when an
//! application gets it, exception when a channel's receiving end cannot deliver it. Each is
//! put in the unit of work of the operation that caused it, so a backed-out put or get sends
//! none; it goes to the original's reply-to queue at its reply-to queue manager (through a
//! transmission queue when that is another). A report that cannot be put goes to the
//! dead-letter queue (outside the unit of work), or is dropped with a log line.

use super::*;
use ferry_model::report::{self, Kind};

impl Session {
    /// MQRO_COA: the confirmation of arrival `msg` asks for, about to be put on `queue`, its
    /// destination (not a transmission queue); `None` when none is due.
    pub(super) fn arrival_report(&self, queue: &Queue, msg: &Message) -> Option<Message> {
        if msg.descriptor.report & report::COA_WITH_FULL_DATA == 0 || msg.transmission.is_some() {
            return None;
        }
        if queue.lock().attrs.usage == ferry_model::objects::Usage::Transmission {
            return None;
        }
        let data = report::wanted(msg.descriptor.report, Kind::Coa)?;
        Some(self.make_report(msg, Kind::Coa, data))
    }

    fn make_report(&self, msg: &Message, kind: Kind, data: report::Data) -> Message {
        let id = MsgId(self.qm.shared.ids.next());
        report::make(msg, kind, data, id, self.qm.name(), self.qm.clock().wall())
    }

    /// MQRO_COD: `msg` was got destructively by an application (in the unit of work when
    /// `in_uow`): its sender gets the confirmation of delivery it asked for. A channel's
    /// sending end taking a message off a transmission queue delivers nothing.
    pub(super) fn confirm_delivery(&mut self, msg: &Message, in_uow: bool) {
        if msg.descriptor.report & report::COD_WITH_FULL_DATA == 0
            || self.channel_agent
            || msg.transmission.is_some()
        {
            return;
        }
        if let Some(data) = report::wanted(msg.descriptor.report, Kind::Cod) {
            let r = self.make_report(msg, Kind::Cod, data);
            let d = &msg.descriptor;
            self.send_report(r, d.reply_to_queue, d.reply_to_qmgr, in_uow);
        }
    }

    /// MQRO_EXPIRATION: the expired messages `queue` discarded whose senders asked for an
    /// expiration report get one (not in a unit of work: the discard was in none). Called
    /// after a get; costs one atomic load when there are none.
    pub(super) fn report_expired(&mut self, queue: &Queue) {
        self.send_expiration_reports(queue.take_expired_reports());
    }

    /// The expiration reports of `expired`, each to its sender's reply-to queue.
    pub(crate) fn send_expiration_reports(&mut self, expired: Vec<Message>) {
        for msg in expired {
            if let Some(data) = report::wanted(msg.descriptor.report, Kind::Expiration) {
                let r = self.make_report(&msg, Kind::Expiration, data);
                let d = &msg.descriptor;
                self.send_report(r, d.reply_to_queue, d.reply_to_qmgr, false);
            }
        }
    }

    /// MQRO_EXCEPTION: `msg` could not be delivered for `reason` (a channel's receiving end,
    /// in its batch's unit of work when `in_uow`): its sender gets the exception report it
    /// asked for. Whether the message itself is then dead-lettered or discarded
    /// (MQRO_DISCARD_MSG) is the caller's.
    pub fn report_exception(&mut self, msg: &Message, reason: Reason, in_uow: bool) {
        let kind = Kind::Exception(reason.code());
        if let Some(data) = report::wanted(msg.descriptor.report, kind) {
            let r = self.make_report(msg, kind, data);
            let d = &msg.descriptor;
            self.send_report(r, d.reply_to_queue, d.reply_to_qmgr, in_uow);
        }
    }

    /// Puts `report` on `to_q` at `to_qmgr` as the queue manager (no authority of the
    /// application's is asked), in the unit of work when `in_uow`.
    pub(super) fn send_report(
        &mut self,
        mut report: Message,
        to_q: ObjectName,
        to_qmgr: ObjectName,
        in_uow: bool,
    ) {
        debug_assert_eq!(report.descriptor.message_type, MessageType::Report);
        let target = match self.qm.route(to_q, to_qmgr) {
            Ok(crate::qmgr::routing::Route::Local(q)) => self.qm.resolve_local(&q),
            Ok(crate::qmgr::routing::Route::Remote { xmitq, queue, qmgr }) => {
                report.transmission = Some(Box::new(ferry_model::message::TransmissionHeader {
                    remote_queue: queue,
                    remote_qmgr: qmgr,
                    xmit_id: MsgId(self.qm.shared.ids.transmission_id(self.conn_id)),
                }));
                Ok(xmitq)
            }
            Err(e) => Err(e),
        };
        let mut kept = report.clone();
        let put = target.and_then(|q| {
            let expires_at = report
                .descriptor
                .expiry
                .map_or(0, |d| self.qm.clock().deadline(d));
            let opts = PutOptions {
                syncpoint: in_uow,
                ..PutOptions::default()
            };
            self.put_resolved_to(&q, report, (expires_at, self.qm.clock().now()), None, &opts)
        });
        let Err(e) = put else { return };
        tracing::warn!(queue = %to_q, qmgr = %to_qmgr, reason = %e.reason, detail = %e.detail,
            feedback = kept.descriptor.feedback, "a report message could not be put on its reply-to queue");
        kept.transmission = None;
        if let Err((e, _)) = self.qm.dead_letter(kept, e.reason, to_q, to_qmgr) {
            tracing::warn!(reason = %e.reason, detail = %e.detail,
                "the report message could not be dead-lettered either: it is discarded");
        }
    }
}

/// The report options' checks on a put: options MQ reserves are refused (2061), reports that
/// go to the reply-to queue need one (2027), options this queue manager does not know are
/// ignored with the warning 2104.
pub(super) fn check_report_options(
    d: &ferry_model::message::MessageDescriptor,
) -> MqResult<Option<Reason>> {
    const REJECT_UNSUPPORTED: u32 = 0x101C_0000;
    let unknown = d.report & !report::KNOWN;
    if unknown & REJECT_UNSUPPORTED != 0 {
        return Err(MqError::new(
            Reason::ReportOptionsError,
            format!(
                "report options {:#010x} hold {:#010x}, which MQ reserves (MQRO_REJECT_UNSUP_MASK)",
                d.report,
                unknown & REJECT_UNSUPPORTED
            ),
        ));
    }
    if report::needs_reply_to(d.report) && d.reply_to_queue.is_empty() {
        return Err(MqError::new(
            Reason::MissingReplyToQ,
            "the report options ask for reports (COA, COD, exception or expiration), which go to the reply-to queue; set reply_to_queue",
        ));
    }
    Ok((unknown != 0).then_some(Reason::UnknownReportOption))
}
