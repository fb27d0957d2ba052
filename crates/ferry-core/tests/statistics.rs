//! Statistics messages (STATMQI, STATQ) through the engine: what an interval's MQI and queue
//! statistics messages hold, decoded as a PCF reader (amqsmon, pymqi) walks them.

use ferry_core::{
    object_name, CloseOptions, ConnectOptions, GetOptions, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PutOptions, QueueDefinition, QueueManager, Session,
};
use ferry_model::objects::Monitoring;
use ferry_model::pcf::{self, Param};

fn stats_queue(s: &mut Session) -> Vec<(pcf::Header, Vec<Param>, Message)> {
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("SYSTEM.ADMIN.STATISTICS.QUEUE").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let mut out = Vec::new();
    while let Ok(g) = s.get(h, &GetOptions::new()) {
        let (head, params) = pcf::decode(&g.message.body, false).expect("a PCF message");
        out.push((head, params, g.message));
    }
    s.close(h, CloseOptions::None).unwrap();
    out
}

fn find(params: &[Param], id: i32) -> &Param {
    params
        .iter()
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("parameter {id} in {params:?}"))
}

fn int(params: &[Param], id: i32) -> i32 {
    match find(params, id) {
        Param::Int(_, v) => *v,
        p => panic!("{id} is not an MQCFIN: {p:?}"),
    }
}

fn ints(params: &[Param], id: i32) -> Vec<i32> {
    match find(params, id) {
        Param::IntList(_, v) => v.clone(),
        p => panic!("{id} is not an MQCFIL: {p:?}"),
    }
}

fn int64s(params: &[Param], id: i32) -> Vec<i64> {
    match find(params, id) {
        Param::Int64List(_, v) => v.clone(),
        p => panic!("{id} is not an MQCFIL64: {p:?}"),
    }
}

fn qm_with_queues() -> QueueManager {
    let qm = QueueManager::with_name("QM1").unwrap();
    for (q, statq) in [
        ("APP.ON", Monitoring::On),
        ("APP.QMGR", Monitoring::QMgr),
        ("APP.OFF", Monitoring::Off),
    ] {
        let a = LocalQueueAttrs {
            statistics: statq,
            accounting: statq,
            ..Default::default()
        };
        qm.define_queue(q, QueueDefinition::Local(a), false)
            .unwrap();
    }
    qm
}

fn work(s: &mut Session, queue: &str, puts: usize, persistent: usize, gets: usize) {
    let od = ObjectDescriptor::queue(object_name(queue).unwrap());
    let h = s.open(&od, OpenOptions::output()).unwrap();
    for i in 0..puts {
        let p = if i < persistent {
            Persistence::Persistent
        } else {
            Persistence::NotPersistent
        };
        let m = Message::new(vec![b'x'; 100]).with_persistence(p);
        s.put(h, m, &PutOptions::default()).unwrap();
    }
    s.close(h, CloseOptions::None).unwrap();
    let h = s.open(&od, OpenOptions::input()).unwrap();
    for _ in 0..gets {
        s.get(h, &GetOptions::new()).unwrap();
    }
    s.close(h, CloseOptions::None).unwrap();
}

#[test]
fn an_interval_writes_mqi_and_queue_statistics_as_mq_readers_expect() {
    let qm = qm_with_queues();
    qm.alter_qmgr(|a| {
        a.statistics_mqi = true;
        a.statistics_queues = Monitoring::On;
    })
    .unwrap();
    let mut s = qm.connect(&ConnectOptions::app("stats")).unwrap();
    assert_eq!(
        qm.write_statistics().unwrap(),
        1,
        "MQI only: no queue did anything"
    );
    stats_queue(&mut s);
    let mut other = qm.connect(&ConnectOptions::app("other")).unwrap();
    work(&mut s, "APP.ON", 3, 1, 2);
    work(&mut other, "APP.QMGR", 2, 0, 0);
    work(&mut s, "APP.OFF", 1, 0, 1);
    other
        .put1(
            &ObjectDescriptor::queue(object_name("APP.QMGR").unwrap()),
            Message::text("one"),
            &PutOptions::default(),
        )
        .unwrap();
    drop(other); // an implicit disconnect
    assert_eq!(qm.write_statistics().unwrap(), 2);
    let msgs = stats_queue(&mut s);
    let (mqi_head, mqi, md) = &msgs[0];
    assert_eq!(md.descriptor.format.as_str(), "MQADMIN");
    assert_eq!(
        (
            mqi_head.kind,
            mqi_head.version,
            mqi_head.command,
            mqi_head.control
        ),
        (21, 3, 164, 1)
    );
    assert_eq!(int(mqi, 712), 1, "one MQCONN in the interval");
    assert_eq!(ints(mqi, 714), [0, 1, 0], "one implicit disconnect");
    let opens = ints(mqi, 733);
    // Six by `work`, and the reader's own open of the statistics queue after the first write.
    assert_eq!((opens.len(), opens[1]), (13, 7), "queue opens: {opens:?}");
    assert_eq!(ints(mqi, 735), [5, 1], "MQPUTs by persistence");
    assert_eq!(ints(mqi, 734), [1, 0], "one MQPUT1");
    assert_eq!(
        int64s(mqi, 748),
        [503, 100],
        "bytes put (the MQPUT1's 3 included)"
    );
    // Three by `work`, and the reader's get of the first statistics message.
    assert_eq!(ints(mqi, 722), [3, 1], "destructive gets by persistence");
    assert_eq!(
        int(mqi, 725),
        1,
        "the reader's get that found the queue empty"
    );
    assert_eq!(mqi.len(), 59, "IBM's 59 MQI statistics parameters");
    // Queues: APP.ON (ON) and APP.QMGR (QMGR, under STATQ(ON)); never APP.OFF.
    let (q_head, q, _) = &msgs[1];
    assert_eq!((q_head.command, q_head.control), (165, 1));
    assert_eq!(int(q, 732), 2);
    let groups: Vec<&Vec<Param>> = q
        .iter()
        .filter_map(|p| match p {
            Param::Group(8011, g) => Some(g),
            _ => None,
        })
        .collect();
    let name = |g: &Vec<Param>| match find(g, pcf::CA_Q_NAME) {
        Param::Str(_, n) => n.trim().to_owned(),
        p => panic!("{p:?}"),
    };
    let on = groups.iter().find(|g| name(g) == "APP.ON").unwrap();
    assert_eq!(on.len(), 22, "IBM's 22 QStatisticsData parameters");
    assert_eq!(ints(on, 735), [2, 1]);
    assert_eq!(
        ints(on, 722),
        [1, 1],
        "the persistent one first (priority order), then one"
    );
    assert_eq!((int(on, 740), int(on, 739)), (0, 3), "min and max depth");
    assert_eq!(
        int64s(on, 703).len(),
        2,
        "average time on queue by persistence"
    );
    let qmgr = groups.iter().find(|g| name(g) == "APP.QMGR").unwrap();
    assert_eq!(
        ints(qmgr, 735),
        [3, 0],
        "MQPUT and MQPUT1 counted together here"
    );
    assert!(groups.iter().all(|g| name(g) != "APP.OFF"));
}

#[test]
fn statq_none_and_off_collect_no_queue_and_statmqi_off_writes_no_mqi_message() {
    let qm = qm_with_queues();
    let mut s = qm.connect(&ConnectOptions::app("stats")).unwrap();
    qm.alter_qmgr(|a| a.statistics_queues = Monitoring::Off)
        .unwrap();
    work(&mut s, "APP.QMGR", 1, 0, 0);
    work(&mut s, "APP.ON", 1, 0, 0);
    assert_eq!(
        qm.write_statistics().unwrap(),
        1,
        "STATQ(OFF): only the ON queue"
    );
    let msgs = stats_queue(&mut s);
    assert_eq!(int(&msgs[0].1, 732), 1);
    qm.alter_qmgr(|a| a.statistics_queues = Monitoring::None)
        .unwrap();
    work(&mut s, "APP.ON", 1, 0, 0);
    assert_eq!(
        qm.write_statistics().unwrap(),
        0,
        "STATQ(NONE): none at all"
    );
    assert!(qm
        .alter_qmgr(|a| a.statistics_queues = Monitoring::QMgr)
        .is_err());
}

// ----- accounting ------------------------------------------------------------------------------

fn accounting_queue(s: &mut Session) -> Vec<(pcf::Header, Vec<Param>)> {
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("SYSTEM.ADMIN.ACCOUNTING.QUEUE").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let mut out = Vec::new();
    while let Ok(g) = s.get(h, &GetOptions::new()) {
        assert_eq!(g.message.descriptor.format.as_str(), "MQADMIN");
        out.push(pcf::decode(&g.message.body, false).expect("a PCF message"));
    }
    s.close(h, CloseOptions::None).unwrap();
    out
}

fn text(params: &[Param], id: i32) -> String {
    match find(params, id) {
        Param::Str(_, v) => v.trim().to_owned(),
        p => panic!("{id} is not an MQCFST: {p:?}"),
    }
}

#[test]
fn a_connection_accounts_for_its_calls_and_its_queues_when_it_ends() {
    let qm = qm_with_queues();
    qm.alter_qmgr(|a| {
        a.accounting_mqi = true;
        a.accounting_queues = Monitoring::On;
    })
    .unwrap();
    let mut app = qm.connect(&ConnectOptions::app("acct-app")).unwrap();
    work(&mut app, "APP.ON", 3, 1, 2);
    work(&mut app, "APP.OFF", 1, 0, 1);
    app.disconnect().unwrap();
    let mut reader = qm.connect(&ConnectOptions::app("reader")).unwrap();
    let records = accounting_queue(&mut reader);
    let (mqi_head, mqi) = records
        .iter()
        .find(|(h, _)| h.command == 167)
        .expect("an MQI accounting record");
    assert_eq!((mqi_head.kind, mqi_head.version), (22, 3));
    assert_eq!(text(mqi, 3024), "acct-app");
    assert_eq!(
        (int(mqi, 1079), int(mqi, 716)),
        (0, 0),
        "first record, MQDISC"
    );
    assert_eq!(ints(mqi, 735), [3, 1], "MQPUTs by persistence");
    assert_eq!(ints(mqi, 733)[1], 4, "four queue opens");
    match find(mqi, 7006) {
        Param::Bytes(_, id) => assert!(id.len() == 24 && id.starts_with(b"AMQCQM1")),
        p => panic!("{p:?}"),
    }
    let (_, q) = records
        .iter()
        .find(|(h, _)| h.command == 168)
        .expect("a queue accounting record");
    assert_eq!(int(q, 732), 1, "APP.ON only: APP.OFF has ACCTQ(OFF)");
    let g = match q.iter().find(|p| p.id() == 8010) {
        Some(Param::Group(_, g)) => g,
        p => panic!("{p:?}"),
    };
    assert_eq!(text(g, pcf::CA_Q_NAME), "APP.ON");
    assert_eq!(
        (int(g, 733), ints(g, 735), ints(g, 722)),
        (2, vec![2, 1], vec![1, 1])
    );
    assert_eq!(
        (ints(g, 737), ints(g, 736)),
        (vec![100, 100], vec![100, 100])
    );
    assert_eq!(int64s(g, 741).len(), 2, "time on queue by persistence");
    // An application that ends without MQDISC: DiscType implicit.
    let mut gone = qm.connect(&ConnectOptions::app("vanished")).unwrap();
    work(&mut gone, "APP.ON", 1, 0, 1);
    drop(gone);
    let records = accounting_queue(&mut reader);
    let (_, mqi) = records.iter().find(|(h, _)| h.command == 167).unwrap();
    assert_eq!((text(mqi, 3024).as_str(), int(mqi, 716)), ("vanished", 1));
}

#[test]
fn a_long_running_connection_writes_a_record_every_acctint_and_switches_bind_at_connect() {
    let qm = qm_with_queues();
    let mut before = qm.connect(&ConnectOptions::app("before")).unwrap();
    qm.alter_qmgr(|a| {
        a.accounting_mqi = true;
        a.accounting_interval = 1;
    })
    .unwrap();
    let mut app = qm.connect(&ConnectOptions::app("long")).unwrap();
    work(&mut app, "APP.ON", 1, 0, 1);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    work(&mut app, "APP.ON", 1, 0, 1); // its first call after ACCTINT writes a record
    work(&mut before, "APP.ON", 1, 0, 1); // connected before ACCTMQI(ON): no record
    app.disconnect().unwrap();
    before.disconnect().unwrap();
    let mut reader = qm.connect(&ConnectOptions::app("reader")).unwrap();
    let records = accounting_queue(&mut reader);
    let long: Vec<&Vec<Param>> = records
        .iter()
        .filter(|(h, p)| h.command == 167 && text(p, 3024) == "long")
        .map(|(_, p)| p)
        .collect();
    assert_eq!(long.len(), 2, "an intermediate record and the final one");
    assert_eq!(int(long[0], 1079), 0);
    assert!(
        long[0].iter().all(|p| p.id() != 716),
        "no DiscType before the end"
    );
    assert_eq!((int(long[1], 1079), int(long[1], 716)), (1, 0));
    assert!(records.iter().all(|(_, p)| text(p, 3024) != "before"));
}
