//! Triggering by MQ's rules: trigger messages (MQTM, format MQTRIG) on the initiation queue for
//! FIRST, EVERY and DEPTH, only while a trigger monitor reads the initiation queue, with
//! TRIGMPRI, the application queue's readers, units of work and a monitor starting late.

use ferry_core::{
    object_name, ConnectOptions, GetOptions, Hobj, LocalQueueAttrs, Message, ObjectDescriptor,
    OpenOptions, PutOptions, QueueDefinition, QueueManager, Session,
};
use ferry_model::objects::{ProcessAttrs, TriggerType, Usage};

fn qm() -> QueueManager {
    let qm = QueueManager::with_name("QM1").unwrap();
    let local = QueueDefinition::Local(LocalQueueAttrs::default());
    qm.define_queue("APP.INITQ", local, false).unwrap();
    let process = ProcessAttrs {
        appl_id: "/opt/app/serve".into(),
        user_data: "--fast".into(),
        ..ProcessAttrs::default()
    };
    qm.define_process("APP.PROC", process, false).unwrap();
    qm
}

/// Defines APP.Q triggered as `ty` (TRIGDPTH `depth`, TRIGMPRI `prio`).
fn app_queue(qm: &QueueManager, name: &str, ty: TriggerType, depth: u32, prio: u8) {
    let mut a = LocalQueueAttrs::default();
    a.triggering.control = true;
    a.triggering.trigger_type = ty;
    a.triggering.depth = depth;
    a.triggering.msg_priority = prio;
    a.triggering.data = "trigger data".into();
    a.triggering.initiation_queue = object_name("APP.INITQ").unwrap();
    a.triggering.process = object_name("APP.PROC").unwrap();
    qm.define_queue(name, QueueDefinition::Local(a), false)
        .unwrap();
}

fn session(qm: &QueueManager) -> Session {
    qm.connect(&ConnectOptions::app("triggers")).unwrap()
}

fn open(s: &mut Session, q: &str, opts: OpenOptions) -> Hobj {
    s.open(&ObjectDescriptor::queue(object_name(q).unwrap()), opts)
        .unwrap()
}

fn put(s: &mut Session, h: Hobj, prio: u8) {
    let m = Message::text("work").with_priority(prio);
    s.put(h, m, &PutOptions::default()).unwrap();
}

/// The trigger messages waiting on the initiation queue, as (queue, trigger data) of each MQTM.
fn triggers(s: &mut Session, initq: Hobj) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while let Ok(g) = s.get(initq, &GetOptions::new()) {
        let d = &g.message.descriptor;
        assert_eq!(d.format.as_str().trim_end(), "MQTRIG");
        assert_eq!(d.persistence, ferry_core::Persistence::NotPersistent);
        let b = &g.message.body;
        assert_eq!(b.len(), 684, "MQTM version 1");
        assert_eq!(&b[..4], b"TM  ");
        let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(&b[r]).trim_end().to_owned();
        assert_eq!(text(56..104), "APP.PROC");
        assert_eq!(text(172..428), "/opt/app/serve");
        assert_eq!(text(556..684), "--fast");
        out.push((text(8..56), text(104..168)));
    }
    out
}

fn one(q: &str) -> Vec<(String, String)> {
    vec![(q.to_owned(), "trigger data".to_owned())]
}

#[test]
fn first_triggers_when_the_queue_stops_being_empty_and_only_with_a_monitor() {
    let qm = qm();
    app_queue(&qm, "APP.Q", TriggerType::First, 1, 0);
    let mut app = session(&qm);
    let q = open(&mut app, "APP.Q", OpenOptions::output());
    put(&mut app, q, 0);
    // No trigger monitor: no trigger message; when one starts, the waiting queue is triggered.
    let mut monitor = session(&qm);
    let initq = open(&mut monitor, "APP.INITQ", OpenOptions::input());
    assert_eq!(triggers(&mut monitor, initq), one("APP.Q"));
    put(&mut app, q, 0);
    assert_eq!(
        triggers(&mut monitor, initq),
        [],
        "not empty before: no event"
    );
    let mut server = session(&qm);
    let qin = open(&mut server, "APP.Q", OpenOptions::input());
    while server.get(qin, &GetOptions::new()).is_ok() {}
    put(&mut app, q, 0);
    assert_eq!(triggers(&mut monitor, initq), [], "a reader has it open");
    server.get(qin, &GetOptions::new()).unwrap();
    server.close(qin, Default::default()).unwrap();
    put(&mut app, q, 0);
    assert_eq!(triggers(&mut monitor, initq), one("APP.Q"));
}

#[test]
fn every_triggers_each_message_at_or_above_the_trigger_priority() {
    let qm = qm();
    app_queue(&qm, "APP.EVERY", TriggerType::Every, 1, 5);
    let mut monitor = session(&qm);
    let initq = open(&mut monitor, "APP.INITQ", OpenOptions::input());
    let mut app = session(&qm);
    let q = open(&mut app, "APP.EVERY", OpenOptions::output());
    put(&mut app, q, 4);
    assert_eq!(triggers(&mut monitor, initq), []);
    put(&mut app, q, 5);
    put(&mut app, q, 9);
    let both = [one("APP.EVERY"), one("APP.EVERY")].concat();
    assert_eq!(triggers(&mut monitor, initq), both);
}

#[test]
fn depth_triggers_at_the_depth_and_turns_triggering_off() {
    let qm = qm();
    app_queue(&qm, "APP.DEPTH", TriggerType::Depth, 3, 0);
    let mut monitor = session(&qm);
    let initq = open(&mut monitor, "APP.INITQ", OpenOptions::input());
    let mut app = session(&qm);
    let q = open(&mut app, "APP.DEPTH", OpenOptions::output());
    put(&mut app, q, 0);
    put(&mut app, q, 0);
    assert_eq!(triggers(&mut monitor, initq), []);
    put(&mut app, q, 0);
    assert_eq!(triggers(&mut monitor, initq), one("APP.DEPTH"));
    assert!(!qm.local_attrs("APP.DEPTH").unwrap().triggering.control);
    put(&mut app, q, 0);
    assert_eq!(triggers(&mut monitor, initq), []);
}

#[test]
fn a_put_in_a_unit_of_work_triggers_when_it_ends_either_way() {
    let qm = qm();
    app_queue(&qm, "APP.UOW", TriggerType::Every, 1, 0);
    let mut monitor = session(&qm);
    let initq = open(&mut monitor, "APP.INITQ", OpenOptions::input());
    let mut app = session(&qm);
    let q = open(&mut app, "APP.UOW", OpenOptions::output());
    let in_uow = PutOptions {
        syncpoint: true,
        ..PutOptions::default()
    };
    app.put(q, Message::text("a"), &in_uow).unwrap();
    assert_eq!(
        triggers(&mut monitor, initq),
        [],
        "held until the unit of work ends"
    );
    app.commit().unwrap();
    assert_eq!(triggers(&mut monitor, initq), one("APP.UOW"));
    app.put(q, Message::text("b"), &in_uow).unwrap();
    app.backout().unwrap();
    assert_eq!(
        triggers(&mut monitor, initq),
        one("APP.UOW"),
        "backed out: still sent"
    );
}

#[test]
fn no_trigger_without_its_process_unless_a_transmission_queue() {
    let qm = qm();
    let mut a = LocalQueueAttrs::default();
    a.triggering.control = true;
    a.triggering.trigger_type = TriggerType::Every;
    a.triggering.initiation_queue = object_name("APP.INITQ").unwrap();
    a.triggering.process = object_name("NO.SUCH.PROC").unwrap();
    qm.define_queue("APP.NOPROC", QueueDefinition::Local(a.clone()), false)
        .unwrap();
    a.triggering.process = ferry_core::ObjectName::EMPTY;
    a.triggering.data = "TO.QM2".into();
    a.usage = Usage::Transmission;
    qm.define_queue("QM2", QueueDefinition::Local(a), false)
        .unwrap();
    let mut monitor = session(&qm);
    let initq = open(&mut monitor, "APP.INITQ", OpenOptions::input());
    let mut app = session(&qm);
    let q = open(&mut app, "APP.NOPROC", OpenOptions::output());
    put(&mut app, q, 0);
    assert!(monitor.get(initq, &GetOptions::new()).is_err());
    let x = open(&mut app, "QM2", OpenOptions::output());
    put(&mut app, x, 0);
    let g = monitor.get(initq, &GetOptions::new()).unwrap();
    let b = &g.message.body;
    assert_eq!(String::from_utf8_lossy(&b[8..56]).trim_end(), "QM2");
    assert_eq!(String::from_utf8_lossy(&b[104..168]).trim_end(), "TO.QM2");
}
