//! Report messages (MQMD Report and Feedback): the MQRO_* options a sender sets in
//! [`MessageDescriptor::report`](crate::message::MessageDescriptor::report), the MQFB_*
//! feedback a report carries, and how a report is made from the message it reports on. Plain
//! data; the engine decides when one is due (docs/semantics.md, "Report messages").
//!
//! A report of any kind goes to the original's reply-to queue at its reply-to queue manager,
//! with message type REPORT and the kind's feedback. Its ids: a new msg id unless
//! [`PASS_MSG_ID`]; the original's msg id as its correl id unless [`PASS_CORREL_ID`] (then
//! the original's correl id). Persistence and priority are the original's; it does not expire
//! and asks for no reports, unless [`PASS_DISCARD_AND_EXPIRY`] (then the original's remaining
//! expiry and its [`DISCARD_MSG`] pass on). Its body is none, the first 100 bytes
//! (`*_WITH_DATA`, with the original's format) or all of it (`*_WITH_FULL_DATA`).

use std::time::SystemTime;

use crate::message::{format, CorrelId, Message, MessageType, MsgId};
use crate::name::{ApplName, ObjectName};

/// No reports (MQRO_NONE).
pub const NONE: u32 = 0;
/// Positive action notification: the application may send one (MQRO_PAN).
pub const PAN: u32 = 0x0000_0001;
/// Negative action notification (MQRO_NAN).
pub const NAN: u32 = 0x0000_0002;
/// Activity reports (MQRO_ACTIVITY): accepted, none generated.
pub const ACTIVITY: u32 = 0x0000_0004;
/// The report's correl id is the original's correl id (MQRO_PASS_CORREL_ID).
pub const PASS_CORREL_ID: u32 = 0x0000_0040;
/// The report's msg id is the original's msg id (MQRO_PASS_MSG_ID).
pub const PASS_MSG_ID: u32 = 0x0000_0080;
/// Confirm on arrival (MQRO_COA).
pub const COA: u32 = 0x0000_0100;
/// Confirm on arrival with the first 100 bytes (MQRO_COA_WITH_DATA).
pub const COA_WITH_DATA: u32 = 0x0000_0300;
/// Confirm on arrival with the whole body (MQRO_COA_WITH_FULL_DATA).
pub const COA_WITH_FULL_DATA: u32 = 0x0000_0700;
/// Confirm on delivery (MQRO_COD).
pub const COD: u32 = 0x0000_0800;
/// Confirm on delivery with the first 100 bytes (MQRO_COD_WITH_DATA).
pub const COD_WITH_DATA: u32 = 0x0000_1800;
/// Confirm on delivery with the whole body (MQRO_COD_WITH_FULL_DATA).
pub const COD_WITH_FULL_DATA: u32 = 0x0000_3800;
/// Reports keep the original's DISCARD_MSG and remaining expiry (MQRO_PASS_DISCARD_AND_EXPIRY).
pub const PASS_DISCARD_AND_EXPIRY: u32 = 0x0000_4000;
/// Expiration report (MQRO_EXPIRATION).
pub const EXPIRATION: u32 = 0x0020_0000;
/// Expiration report with the first 100 bytes (MQRO_EXPIRATION_WITH_DATA).
pub const EXPIRATION_WITH_DATA: u32 = 0x0060_0000;
/// Expiration report with the whole body (MQRO_EXPIRATION_WITH_FULL_DATA).
pub const EXPIRATION_WITH_FULL_DATA: u32 = 0x00E0_0000;
/// Exception report (MQRO_EXCEPTION).
pub const EXCEPTION: u32 = 0x0100_0000;
/// Exception report with the first 100 bytes (MQRO_EXCEPTION_WITH_DATA).
pub const EXCEPTION_WITH_DATA: u32 = 0x0300_0000;
/// Exception report with the whole body (MQRO_EXCEPTION_WITH_FULL_DATA).
pub const EXCEPTION_WITH_FULL_DATA: u32 = 0x0700_0000;
/// A message that cannot be delivered is discarded rather than dead-lettered
/// (MQRO_DISCARD_MSG).
pub const DISCARD_MSG: u32 = 0x0800_0000;

/// Every option this queue manager knows; others are accepted with the warning
/// MQRC_UNKNOWN_REPORT_OPTION (2104).
pub const KNOWN: u32 = PAN
    | NAN
    | ACTIVITY
    | PASS_CORREL_ID
    | PASS_MSG_ID
    | COA_WITH_FULL_DATA
    | COD_WITH_FULL_DATA
    | PASS_DISCARD_AND_EXPIRY
    | EXPIRATION_WITH_FULL_DATA
    | EXCEPTION_WITH_FULL_DATA
    | DISCARD_MSG;

/// MQFB_* feedback codes a report carries (an exception report carries the reason code).
pub mod feedback {
    /// MQFB_NONE.
    pub const NONE: u32 = 0;
    /// MQFB_EXPIRATION.
    pub const EXPIRATION: u32 = 258;
    /// MQFB_COA.
    pub const COA: u32 = 259;
    /// MQFB_COD.
    pub const COD: u32 = 260;
    /// MQFB_PAN.
    pub const PAN: u32 = 275;
    /// MQFB_NAN.
    pub const NAN: u32 = 276;
}

/// Bytes of the body a `*_WITH_DATA` report carries.
pub const WITH_DATA_BYTES: usize = 100;

/// A kind of report the queue manager makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The message arrived on its destination queue.
    Coa,
    /// The message was got (destructively) by an application.
    Cod,
    /// The message expired and was discarded.
    Expiration,
    /// The message could not be delivered, for this MQRC reason.
    Exception(u32),
}

/// How much of the body a report carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// None.
    None,
    /// The first [`WITH_DATA_BYTES`].
    First,
    /// All of it.
    Full,
}

impl Kind {
    /// (the option, with data, with full data) of this kind.
    fn options(self) -> (u32, u32, u32) {
        match self {
            Kind::Coa => (COA, COA_WITH_DATA, COA_WITH_FULL_DATA),
            Kind::Cod => (COD, COD_WITH_DATA, COD_WITH_FULL_DATA),
            Kind::Expiration => (EXPIRATION, EXPIRATION_WITH_DATA, EXPIRATION_WITH_FULL_DATA),
            Kind::Exception(_) => (EXCEPTION, EXCEPTION_WITH_DATA, EXCEPTION_WITH_FULL_DATA),
        }
    }

    /// The feedback the report carries.
    pub fn feedback(self) -> u32 {
        match self {
            Kind::Coa => feedback::COA,
            Kind::Cod => feedback::COD,
            Kind::Expiration => feedback::EXPIRATION,
            Kind::Exception(reason) => reason,
        }
    }
}

/// Whether `report` asks for a report of `kind`, and with how much of the body.
pub fn wanted(report: u32, kind: Kind) -> Option<Data> {
    let (plain, data, full) = kind.options();
    match report & full {
        0 => None,
        b if b == full => Some(Data::Full),
        b if b == data => Some(Data::First),
        b if b == plain => Some(Data::None),
        // A bit pattern MQ does not define (WITH_DATA's bit without the plain one): the most
        // data the set bits could mean.
        _ => Some(Data::First),
    }
}

/// Whether `report` asks for a report the queue manager sends to the reply-to queue (so a
/// message carrying it must name one: MQRC_MISSING_REPLY_TO_Q otherwise).
pub fn needs_reply_to(report: u32) -> bool {
    report
        & (COA_WITH_FULL_DATA
            | COD_WITH_FULL_DATA
            | EXPIRATION_WITH_FULL_DATA
            | EXCEPTION_WITH_FULL_DATA)
        != 0
}

/// The report of `kind` on `original` (whose options asked for it with `data`), made by the
/// queue manager `qmgr` at `now`; `new_id` is its msg id unless the original passes its own.
/// Its destination is the original's reply-to queue and queue manager.
pub fn make(
    original: &Message,
    kind: Kind,
    data: Data,
    new_id: MsgId,
    qmgr: ObjectName,
    now: SystemTime,
) -> Message {
    let o = &original.descriptor;
    let mut r = Message::new(match data {
        Data::None => bytes::Bytes::new(),
        Data::First => original
            .body
            .slice(..original.body.len().min(WITH_DATA_BYTES)),
        Data::Full => original.body.clone(),
    });
    let d = &mut r.descriptor;
    d.message_type = MessageType::Report;
    d.feedback = kind.feedback();
    d.msg_id = if o.report & PASS_MSG_ID != 0 {
        o.msg_id
    } else {
        new_id
    };
    d.correl_id = if o.report & PASS_CORREL_ID != 0 {
        o.correl_id
    } else {
        CorrelId(o.msg_id.0)
    };
    d.persistence = o.persistence;
    d.priority = o.priority;
    if o.report & PASS_DISCARD_AND_EXPIRY != 0 {
        d.expiry = o.expiry;
        d.report = o.report & DISCARD_MSG;
    }
    if data != Data::None {
        (d.format, d.ccsid, d.encoding) = (o.format, o.ccsid, o.encoding);
    } else {
        d.format = format::name(format::NONE);
    }
    d.reply_to_qmgr = qmgr;
    d.user_id = o.user_id;
    d.put_appl_name = ApplName::truncating("ferry queue manager");
    d.put_time = now;
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Persistence;

    fn original(report: u32) -> Message {
        let mut m = Message::new(vec![7u8; 300]);
        m.descriptor.report = report;
        m.descriptor.msg_id = MsgId([1; 24]);
        m.descriptor.correl_id = CorrelId([2; 24]);
        m.descriptor.persistence = Persistence::Persistent;
        m.descriptor.format = format::name(format::STRING);
        m
    }

    #[test]
    fn options_say_which_report_and_how_much_data() {
        assert_eq!(wanted(COA, Kind::Coa), Some(Data::None));
        assert_eq!(wanted(COA_WITH_DATA | COD, Kind::Coa), Some(Data::First));
        assert_eq!(wanted(COA_WITH_DATA | COD, Kind::Cod), Some(Data::None));
        assert_eq!(wanted(COD_WITH_FULL_DATA, Kind::Cod), Some(Data::Full));
        assert_eq!(
            wanted(EXCEPTION_WITH_DATA, Kind::Exception(2053)),
            Some(Data::First)
        );
        assert_eq!(wanted(EXPIRATION, Kind::Coa), None);
        assert_eq!(wanted(PAN | NAN | PASS_MSG_ID, Kind::Cod), None);
        assert!(needs_reply_to(EXPIRATION) && !needs_reply_to(PAN | NAN | PASS_MSG_ID));
    }

    #[test]
    fn a_report_copies_ids_as_the_options_say() {
        let qm = crate::name::object_name("QM1").unwrap();
        let now = SystemTime::UNIX_EPOCH;
        let r = make(
            &original(COA),
            Kind::Coa,
            Data::None,
            MsgId([9; 24]),
            qm,
            now,
        );
        assert_eq!(r.descriptor.message_type, MessageType::Report);
        assert_eq!(r.descriptor.feedback, feedback::COA);
        assert_eq!(
            (r.descriptor.msg_id, r.descriptor.correl_id),
            (MsgId([9; 24]), CorrelId([1; 24]))
        );
        assert_eq!(r.descriptor.persistence, Persistence::Persistent);
        assert!(r.body.is_empty() && r.descriptor.format.as_str().trim().is_empty());
        assert_eq!(r.descriptor.report, NONE);
        let o = original(
            COD_WITH_DATA | PASS_MSG_ID | PASS_CORREL_ID | PASS_DISCARD_AND_EXPIRY | DISCARD_MSG,
        );
        let r = make(&o, Kind::Cod, Data::First, MsgId([9; 24]), qm, now);
        assert_eq!(
            (r.descriptor.msg_id, r.descriptor.correl_id),
            (MsgId([1; 24]), CorrelId([2; 24]))
        );
        assert_eq!(r.body.len(), WITH_DATA_BYTES);
        assert_eq!(r.descriptor.format.as_str().trim(), "MQSTR");
        assert_eq!(r.descriptor.report, DISCARD_MSG);
        let r = make(
            &original(EXCEPTION_WITH_FULL_DATA),
            Kind::Exception(2053),
            Data::Full,
            MsgId([9; 24]),
            qm,
            now,
        );
        assert_eq!((r.descriptor.feedback, r.body.len()), (2053, 300));
    }
}
