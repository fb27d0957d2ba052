//! Report messages over real sockets to a real `ferry qm start`: confirm on arrival and on
//! delivery (with and without data, in and out of units of work), the id options, and the
//! checks on a put's report options. Exception reports from a channel: channels.rs.

mod common;

use std::time::Duration;

use common::Server;
use ferry_client::report::{self, feedback};
use ferry_client::{
    Connection, GetOptions, Message, MessageType, MqError, MsgId, OpenOptions, PutOptions, Reason,
};

fn asking(body: &str, report: u32) -> Message {
    let mut m = Message::text(body);
    m.descriptor.report = report;
    m.descriptor.reply_to_queue = ferry_client::object_name("REPORTS").unwrap();
    m
}

/// The next message on `queue`, waiting up to a second; `None` when there is none.
fn next(c: &mut Connection, queue: &str) -> Option<Message> {
    let h = c.open_queue(queue, OpenOptions::input()).unwrap();
    let got = c.get(h, &GetOptions::new().wait(Duration::from_secs(1)));
    c.close(h, Default::default()).unwrap();
    match got {
        Ok(g) => Some(g.message),
        Err(MqError {
            reason: Reason::NoMsgAvailable,
            ..
        }) => None,
        Err(e) => panic!("get from {queue}: {e}"),
    }
}

fn server(tag: &str) -> (Server, Connection) {
    let s = Server::start(tag, &[]);
    common::admin_in(
        &s.root,
        "QM1",
        "DEFINE QLOCAL(REPORTS)\nDEFINE QLOCAL(APP.IN)",
    );
    let c = Connection::connect(&s.unix, "reports").unwrap();
    (s, c)
}

#[test]
fn arrival_and_delivery_are_confirmed_to_the_reply_to_queue() {
    let (_s, mut c) = server("reports-coa");
    let body = "x".repeat(300);
    let m = asking(&body, report::COA | report::COD_WITH_DATA);
    let out = c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    let coa = next(&mut c, "REPORTS").expect("a confirmation of arrival");
    let d = &coa.descriptor;
    assert_eq!(
        (d.message_type, d.feedback),
        (MessageType::Report, feedback::COA)
    );
    assert_eq!(
        d.correl_id.0, out.msg_id.0,
        "the original's msg id as correl id"
    );
    assert_ne!(d.msg_id, out.msg_id, "a new msg id");
    assert!(coa.body.is_empty(), "COA without data");
    assert!(next(&mut c, "REPORTS").is_none(), "no COD before the get");
    let got = next(&mut c, "APP.IN").unwrap();
    assert_eq!(
        got.descriptor.report,
        report::COA | report::COD_WITH_DATA,
        "the options travel with the message"
    );
    let cod = next(&mut c, "REPORTS").expect("a confirmation of delivery");
    assert_eq!(cod.descriptor.feedback, feedback::COD);
    assert_eq!(
        cod.body.len(),
        report::WITH_DATA_BYTES,
        "COD_WITH_DATA: the first 100 bytes"
    );
    assert_eq!(cod.descriptor.format.as_str().trim(), "MQSTR");
    // Full data, and the ids passed rather than made.
    let mut m = asking(
        &body,
        report::COA_WITH_FULL_DATA | report::PASS_MSG_ID | report::PASS_CORREL_ID,
    );
    m.descriptor.msg_id = MsgId::from_slice(b"order-42");
    m.descriptor.correl_id = ferry_client::CorrelId::from_slice(b"conversation-7");
    c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    let coa = next(&mut c, "REPORTS").unwrap();
    assert_eq!(coa.descriptor.msg_id, MsgId::from_slice(b"order-42"));
    assert_eq!(
        coa.descriptor.correl_id,
        ferry_client::CorrelId::from_slice(b"conversation-7")
    );
    assert_eq!(coa.body.len(), 300);
}

#[test]
fn reports_belong_to_the_unit_of_work_that_caused_them() {
    let (_s, mut c) = server("reports-uow");
    let sync = PutOptions {
        syncpoint: true,
        ..PutOptions::default()
    };
    c.put1("APP.IN", asking("a", report::COA | report::COD), &sync)
        .unwrap();
    let mut other = Connection::connect(&_s.unix, "watcher").unwrap();
    assert!(
        next(&mut other, "REPORTS").is_none(),
        "no COA before the commit"
    );
    c.backout().unwrap();
    assert!(
        next(&mut other, "REPORTS").is_none(),
        "none after a backout"
    );
    c.put1("APP.IN", asking("b", report::COA | report::COD), &sync)
        .unwrap();
    c.commit().unwrap();
    assert_eq!(
        next(&mut other, "REPORTS").unwrap().descriptor.feedback,
        feedback::COA
    );
    // A get in a unit of work backed out delivers nothing; the one committed confirms.
    let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
    c.get(h, &GetOptions::new().syncpoint()).unwrap();
    c.backout().unwrap();
    assert!(
        next(&mut other, "REPORTS").is_none(),
        "no COD for a backed-out get"
    );
    c.get(h, &GetOptions::new().syncpoint()).unwrap();
    c.commit().unwrap();
    assert_eq!(
        next(&mut other, "REPORTS").unwrap().descriptor.feedback,
        feedback::COD
    );
    assert!(next(&mut other, "REPORTS").is_none(), "exactly one COD");
}

#[test]
fn report_options_are_checked_on_the_put() {
    let (_s, mut c) = server("reports-check");
    let mut m = Message::text("no reply-to");
    m.descriptor.report = report::COD;
    let e = c.put1("APP.IN", m, &PutOptions::default()).unwrap_err();
    assert_eq!(e.reason, Reason::MissingReplyToQ, "{e}");
    let e = c
        .put1(
            "APP.IN",
            asking("reserved", 0x0004_0000),
            &PutOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::ReportOptionsError, "{e}");
    let out = c
        .put1(
            "APP.IN",
            asking("unknown", report::PAN | 0x0000_0008),
            &PutOptions::default(),
        )
        .unwrap();
    assert_eq!(out.warning, Some(Reason::UnknownReportOption));
    // PAN and NAN are the applications' own: the queue manager sends nothing for them.
    assert!(next(&mut c, "REPORTS").is_none());
    // A reply-to queue that does not exist: the report goes to the dead-letter queue.
    let mut m = asking("lost", report::COA);
    m.descriptor.reply_to_queue = ferry_client::object_name("NO.SUCH.QUEUE").unwrap();
    c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    let dead = next(&mut c, "SYSTEM.DEAD.LETTER.QUEUE").expect("the report, dead-lettered");
    assert_eq!(dead.descriptor.feedback, feedback::COA);
    assert_eq!(
        dead.dead_letter.as_ref().unwrap().reason,
        Reason::UnknownObjectName
    );
}

#[test]
fn reports_outlive_a_restart_when_the_original_was_persistent() {
    let (mut s, mut c) = server("reports-restart");
    let m = asking("kept", report::COA).with_persistence(ferry_client::Persistence::Persistent);
    c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    drop(c);
    let _ = s.child.kill();
    let _ = s.child.wait();
    s.restart(&[]);
    s.wait_ready();
    let mut c = Connection::connect(&s.unix, "after").unwrap();
    let coa = next(&mut c, "REPORTS").expect("the persistent COA survived");
    assert_eq!(coa.descriptor.feedback, feedback::COA);
    let got = next(&mut c, "APP.IN").unwrap();
    assert_eq!(
        got.descriptor.report,
        report::COA,
        "report options recovered from the log"
    );
}

#[test]
fn an_expired_message_is_reported_to_its_sender_when_found_and_when_swept() {
    let (s, mut c) = server("reports-expiry");
    // Found by a get: the get passes over it (2033), its sender hears it expired.
    let mut m = asking(
        "short-lived",
        report::EXPIRATION_WITH_DATA | report::PASS_CORREL_ID,
    );
    m.descriptor.expiry = Some(Duration::from_millis(100));
    m.descriptor.correl_id = ferry_client::CorrelId::from_slice(b"ttl-1");
    let out = c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    // Another that asks for nothing expires silently.
    let mut quiet = Message::text("quiet");
    quiet.descriptor.expiry = Some(Duration::from_millis(100));
    c.put1("APP.IN", quiet, &PutOptions::default()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        next(&mut c, "APP.IN").is_none(),
        "expired messages are not got"
    );
    let r = next(&mut c, "REPORTS").expect("an expiration report");
    let d = &r.descriptor;
    assert_eq!(
        (d.message_type, d.feedback),
        (MessageType::Report, feedback::EXPIRATION)
    );
    assert_eq!(d.correl_id, ferry_client::CorrelId::from_slice(b"ttl-1"));
    assert_ne!(d.msg_id, out.msg_id);
    assert_eq!(
        &r.body[..],
        b"short-lived",
        "EXPIRATION_WITH_DATA: the first bytes"
    );
    assert!(
        next(&mut c, "REPORTS").is_none(),
        "one report, none for the quiet one"
    );
    // Found by an expiry scan with nobody getting: REFRESH QMGR TYPE(EXPIRY) asks for one now
    // (the queue manager's own runs every 5 s).
    let mut m = asking("swept", report::EXPIRATION);
    m.descriptor.expiry = Some(Duration::from_millis(100));
    c.put1("APP.IN", m, &PutOptions::default()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let r = c.admin("REFRESH QMGR TYPE(EXPIRY) NAME(APP.*)").unwrap();
    assert!(r[0].ok, "{r:?}");
    assert!(
        r[0].messages[0]
            .text
            .contains("1 expired message discarded"),
        "{r:?}"
    );
    let bad = c.admin("REFRESH QMGR TYPE(EARLY)").unwrap();
    assert!(!bad[0].ok, "{bad:?}");
    let r = next(&mut c, "REPORTS").expect("an expiration report from the scan");
    assert_eq!(r.descriptor.feedback, feedback::EXPIRATION);
    assert!(r.body.is_empty(), "EXPIRATION without data");
    drop(s);
}
