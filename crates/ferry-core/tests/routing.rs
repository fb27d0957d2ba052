//! Routing to other queue managers: remote queue definitions, queue manager aliases,
//! transmission queues named after a queue manager, DEFXMITQ, reply-to fill-in and reply-to
//! aliases; what lands on the transmission queue, and the errors when no route exists.

use ferry_core::{
    object_name, ConnectOptions, GetOptions, LocalQueueAttrs, Message, ObjectDescriptor,
    OpenOptions, Persistence, PutOptions, QueueDefinition, QueueManager, Reason, Session,
};
use ferry_model::message::TransmissionHeader;
use ferry_model::objects::{RemoteQueueAttrs, Usage};

fn qm() -> QueueManager {
    let qm = QueueManager::with_name("QM1").unwrap();
    qm.define_queue(
        "APP.REPLY",
        QueueDefinition::Local(Default::default()),
        false,
    )
    .unwrap();
    qm
}

fn xmitq(qm: &QueueManager, name: &str) {
    let attrs = LocalQueueAttrs {
        usage: Usage::Transmission,
        max_depth: 100_000,
        ..Default::default()
    };
    qm.define_queue(name, QueueDefinition::Local(attrs), false)
        .unwrap();
}

fn remote(qm: &QueueManager, name: &str, rname: &str, rqmname: &str, xmitq: &str) {
    let attrs = RemoteQueueAttrs {
        remote_name: blank_or(rname),
        remote_qmgr: blank_or(rqmname),
        xmit_queue: blank_or(xmitq),
        ..Default::default()
    };
    qm.define_queue(name, QueueDefinition::Remote(attrs), false)
        .unwrap();
}

/// `s` as a name, blank when empty.
fn blank_or(s: &str) -> ferry_core::ObjectName {
    if s.is_empty() {
        ferry_core::ObjectName::EMPTY
    } else {
        object_name(s).unwrap()
    }
}

fn session(qm: &QueueManager) -> Session {
    qm.connect(&ConnectOptions::app("routing")).unwrap()
}

fn at(queue: &str, qmgr: &str) -> ObjectDescriptor {
    ObjectDescriptor::QueueAt {
        name: object_name(queue).unwrap(),
        qmgr: object_name(qmgr).unwrap(),
    }
}

fn queue(name: &str) -> ObjectDescriptor {
    ObjectDescriptor::queue(object_name(name).unwrap())
}

/// Takes the next message from `q`.
fn take(s: &mut Session, q: &str) -> Message {
    let h = s.open(&queue(q), OpenOptions::input()).unwrap();
    let m = s.get(h, &GetOptions::new()).unwrap().message;
    s.close(h, Default::default()).unwrap();
    m
}

fn header(m: &Message) -> &TransmissionHeader {
    m.transmission.as_deref().expect("a transmission header")
}

#[test]
fn a_remote_queue_definition_puts_to_its_transmission_queue_with_a_header() {
    let qm = qm();
    xmitq(&qm, "QM2.XMIT");
    remote(&qm, "APP.TO.QM2", "APP.IN", "QM2", "QM2.XMIT");
    let mut s = session(&qm);
    let h = s.open(&queue("APP.TO.QM2"), OpenOptions::output()).unwrap();
    let request = Message::text("hello")
        .with_persistence(Persistence::Persistent)
        .with_reply_to(object_name("APP.REPLY").unwrap());
    let out = s.put(h, request, &PutOptions::default()).unwrap();
    // Output only: a remote queue cannot be read here.
    let e = s
        .open(&queue("APP.TO.QM2"), OpenOptions::input())
        .unwrap_err();
    assert_eq!(e.reason, Reason::OptionNotValidForType);
    let m = take(&mut s, "QM2.XMIT");
    let h = header(&m);
    assert_eq!(
        (h.remote_queue.as_str(), h.remote_qmgr.as_str()),
        ("APP.IN", "QM2")
    );
    // The original descriptor travels: its ids, persistence, and the reply-to queue manager
    // filled in with this one's name so the reply can find its way back.
    assert_eq!(m.descriptor.msg_id, out.msg_id);
    assert_eq!(m.descriptor.persistence, Persistence::Persistent);
    assert_eq!(&m.body[..], b"hello");
    assert_eq!(m.descriptor.reply_to_queue.as_str(), "APP.REPLY");
    assert_eq!(m.descriptor.reply_to_qmgr.as_str(), "QM1");
    // Every transmission gets its own id.
    let h2 = s.open(&queue("APP.TO.QM2"), OpenOptions::output()).unwrap();
    s.put(h2, Message::text("a"), &PutOptions::default())
        .unwrap();
    s.put(h2, Message::text("b"), &PutOptions::default())
        .unwrap();
    let (a, b) = (take(&mut s, "QM2.XMIT"), take(&mut s, "QM2.XMIT"));
    assert_ne!(header(&a).xmit_id, header(&b).xmit_id);
}

#[test]
fn a_queue_at_another_queue_manager_finds_its_route() {
    let qm = qm();
    let mut s = session(&qm);
    // No route yet.
    let e = s
        .open(&at("APP.IN", "QM2"), OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, Reason::UnknownRemoteQMgr);
    assert!(e.detail.contains("DEFINE QLOCAL(QM2) USAGE(XMITQ)"), "{e}");
    // A transmission queue named after the queue manager.
    xmitq(&qm, "QM2");
    s.put1(
        &at("APP.IN", "QM2"),
        Message::text("x"),
        &PutOptions::default(),
    )
    .unwrap();
    let m = take(&mut s, "QM2");
    assert_eq!(header(&m).remote_queue.as_str(), "APP.IN");
    // A queue manager alias: QM3 is reached through QM2's transmission queue.
    remote(&qm, "QM3", "", "QM3", "QM2");
    s.put1(
        &at("APP.IN", "QM3"),
        Message::text("y"),
        &PutOptions::default(),
    )
    .unwrap();
    assert_eq!(header(&take(&mut s, "QM2")).remote_qmgr.as_str(), "QM3");
    // An alias that renames: QMX means QM2.
    remote(&qm, "QMX", "", "QM2", "");
    s.put1(
        &at("APP.IN", "QMX"),
        Message::text("z"),
        &PutOptions::default(),
    )
    .unwrap();
    assert_eq!(header(&take(&mut s, "QM2")).remote_qmgr.as_str(), "QM2");
    // DEFXMITQ for everything else.
    xmitq(&qm, "SYSTEM.DEFAULT.XMIT");
    qm.alter_qmgr(|a| a.default_xmit_queue = object_name("SYSTEM.DEFAULT.XMIT").unwrap())
        .unwrap();
    s.put1(
        &at("APP.IN", "QM9"),
        Message::text("d"),
        &PutOptions::default(),
    )
    .unwrap();
    assert_eq!(
        header(&take(&mut s, "SYSTEM.DEFAULT.XMIT"))
            .remote_qmgr
            .as_str(),
        "QM9"
    );
    // This queue manager's own name means a local queue.
    s.put1(
        &at("APP.REPLY", "QM1"),
        Message::text("home"),
        &PutOptions::default(),
    )
    .unwrap();
    let m = take(&mut s, "APP.REPLY");
    assert!(m.transmission.is_none());
}

#[test]
fn routes_that_name_the_wrong_kind_of_queue_say_so() {
    let qm = qm();
    let mut s = session(&qm);
    // A local queue named after the queue manager, but not a transmission queue.
    qm.define_queue("QM2", QueueDefinition::Local(Default::default()), false)
        .unwrap();
    let e = s
        .open(&at("APP.IN", "QM2"), OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, Reason::XmitQUsageError);
    assert!(e.detail.contains("USAGE(XMITQ)"), "{e}");
    // A remote queue whose XMITQ is not defined.
    remote(&qm, "APP.R", "APP.IN", "QM4", "NO.SUCH.XMIT");
    let e = s.open(&queue("APP.R"), OpenOptions::output()).unwrap_err();
    assert_eq!(e.reason, Reason::XmitQTypeError);
    // A queue manager alias cannot be opened as a queue.
    remote(&qm, "QM5", "", "QM2", "");
    let e = s.open(&queue("QM5"), OpenOptions::output()).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownObjectName);
    // PUT(DISABLED) on the remote definition.
    xmitq(&qm, "QM6.XMIT");
    let attrs = RemoteQueueAttrs {
        remote_name: object_name("APP.IN").unwrap(),
        remote_qmgr: object_name("QM6").unwrap(),
        xmit_queue: object_name("QM6.XMIT").unwrap(),
        put_inhibited: true,
        ..Default::default()
    };
    qm.define_queue("APP.INHIBITED", QueueDefinition::Remote(attrs), false)
        .unwrap();
    let h = s
        .open(&queue("APP.INHIBITED"), OpenOptions::output())
        .unwrap();
    let e = s
        .put(h, Message::text("no"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::PutInhibited);
}

#[test]
fn a_reply_to_alias_rewrites_where_replies_go() {
    let qm = qm();
    xmitq(&qm, "QM2");
    // Replies to "APP.MY.REPLIES" should come back to APP.REPLY at queue manager QMGW.
    remote(&qm, "APP.MY.REPLIES", "APP.REPLY", "QMGW", "");
    let mut s = session(&qm);
    let request = Message::text("req").with_reply_to(object_name("APP.MY.REPLIES").unwrap());
    s.put1(&at("APP.IN", "QM2"), request, &PutOptions::default())
        .unwrap();
    let m = take(&mut s, "QM2");
    assert_eq!(m.descriptor.reply_to_queue.as_str(), "APP.REPLY");
    assert_eq!(m.descriptor.reply_to_qmgr.as_str(), "QMGW");
}

/// MQINQ and MQSET reach a local definition of a remote queue (its own attributes, as MQ
/// answers them); a queue named by its queue manager cannot be opened to inquire.
#[test]
fn a_remote_definition_is_inquired_and_set() {
    use ferry_core::{AttrValue, Selector};
    let qm = qm();
    xmitq(&qm, "QM2.XMIT");
    remote(&qm, "APP.OUT", "APP.IN", "QM2", "QM2.XMIT");
    let mut s = session(&qm);
    let h = s
        .open(&queue("APP.OUT"), OpenOptions::inquire().with_set())
        .unwrap();
    let sels = [
        Selector::QueueName,
        Selector::QueueType,
        Selector::RemoteQName,
        Selector::RemoteQMgrName,
        Selector::XmitQName,
        Selector::InhibitPut,
    ];
    let text = |v: &AttrValue| match v {
        AttrValue::Str(s) => s.clone(),
        AttrValue::Int(n) => n.to_string(),
    };
    let got: Vec<String> = s.inquire(h, &sels).unwrap().iter().map(text).collect();
    assert_eq!(got, ["APP.OUT", "6", "APP.IN", "QM2", "QM2.XMIT", "0"]);
    // A remote queue has no depth.
    let e = s.inquire(h, &[Selector::CurrentDepth]).unwrap_err();
    assert_eq!(e.reason, Reason::SelectorError);
    let e = s
        .set(h, &[(Selector::InhibitGet, AttrValue::Int(1))])
        .unwrap_err();
    assert_eq!(e.reason, Reason::SelectorError);
    s.set(h, &[(Selector::InhibitPut, AttrValue::Int(1))])
        .unwrap();
    let out = s.open(&queue("APP.OUT"), OpenOptions::output()).unwrap();
    let e = s
        .put(out, Message::text("x"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::PutInhibited);
    // The transmission queue itself was not touched.
    assert!(!qm.local_attrs("QM2.XMIT").unwrap().put_inhibited);
    xmitq(&qm, "QM2");
    let e = s
        .open(&at("APP.IN", "QM2"), OpenOptions::inquire())
        .unwrap_err();
    assert_eq!(e.reason, Reason::OptionNotValidForType);
}
