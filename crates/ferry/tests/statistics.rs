//! Statistics messages over real sockets to a real `ferry qm start`: STATMQI and STATQ switched
//! on with MQSC, an application's work over TCP, and the MQI and queue statistics messages that
//! appear on SYSTEM.ADMIN.STATISTICS.QUEUE every STATINT seconds and at RESET QMGR
//! TYPE(STATISTICS), read and decoded as MQ's readers decode them.

mod common;

use std::time::{Duration, Instant};

use common::Server;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, PutOptions, Reason};
use ferry_model::pcf::{self, Param};

/// Every statistics message waiting now, decoded: (command, parameters).
fn statistics(c: &mut Connection) -> Vec<(i32, Vec<Param>)> {
    let h = c
        .open_queue("SYSTEM.ADMIN.STATISTICS.QUEUE", OpenOptions::input())
        .unwrap();
    let mut out = Vec::new();
    loop {
        match c.get(h, &GetOptions::new()) {
            Ok(g) => {
                assert_eq!(g.message.descriptor.format.as_str().trim(), "MQADMIN");
                let (head, params) = pcf::decode(&g.message.body, false).expect("PCF");
                assert_eq!((head.kind, head.version, head.comp_code), (21, 3, 0));
                out.push((head.command, params));
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => panic!("{e}"),
        }
    }
    c.close(h, Default::default()).unwrap();
    out
}

fn list(params: &[Param], id: i32) -> Vec<i32> {
    match params.iter().find(|p| p.id() == id) {
        Some(Param::IntList(_, v)) => v.clone(),
        p => panic!("{id}: {p:?}"),
    }
}

/// The QStatisticsData group of `queue`, if the message has one.
fn queue_group(params: &[Param], queue: &str) -> Option<Vec<Param>> {
    params.iter().find_map(|p| match p {
        Param::Group(8011, g) => g
            .iter()
            .any(|x| matches!(x, Param::Str(pcf::CA_Q_NAME, n) if n.trim() == queue))
            .then(|| g.clone()),
        _ => None,
    })
}

#[test]
fn statistics_messages_arrive_every_statint_and_at_reset_qmgr() {
    let mut server = Server::start("statistics", &[]);
    common::admin_in(
        &server.root,
        "QM1",
        "ALTER QMGR STATMQI(ON) STATQ(ON) STATINT(2)
         DEFINE QLOCAL(APP.STATS)
         DEFINE QLOCAL(APP.QUIET) STATQ(OFF)",
    );
    let shown = |key| common::display(&server, "DISPLAY QMGR STATMQI STATQ STATINT", key);
    assert_eq!(shown("STATMQI").as_deref(), Some("ON"));
    assert_eq!(shown("STATINT").as_deref(), Some("2"));
    let mut app = Connection::connect(&server.tcp, "stats-app").unwrap();
    for q in ["APP.STATS", "APP.QUIET"] {
        let h = app.open_queue(q, OpenOptions::output()).unwrap();
        for _ in 0..5 {
            app.put(h, Message::new(vec![7; 64]), &PutOptions::default())
                .unwrap();
        }
        app.close(h, Default::default()).unwrap();
    }
    let h = app.open_queue("APP.STATS", OpenOptions::input()).unwrap();
    for _ in 0..3 {
        app.get(h, &GetOptions::new()).unwrap();
    }
    // The interval ends by itself within STATINT (and a second for the writer's tick).
    let mut reader = Connection::connect(&server.unix, "stats-reader").unwrap();
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        seen.extend(statistics(&mut reader));
        if seen
            .iter()
            .any(|(cmd, p)| *cmd == 165 && queue_group(p, "APP.STATS").is_some())
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let mqi = seen
        .iter()
        .find(|(cmd, _)| *cmd == 164)
        .expect("an MQI statistics message");
    assert!(
        list(&mqi.1, 735)[0] >= 10,
        "ten non-persistent MQPUTs: {:?}",
        mqi.1
    );
    let (_, q) = seen
        .iter()
        .find(|(cmd, p)| *cmd == 165 && queue_group(p, "APP.STATS").is_some())
        .expect("a queue statistics message for APP.STATS");
    let g = queue_group(q, "APP.STATS").unwrap();
    assert_eq!((list(&g, 735), list(&g, 722)), (vec![5, 0], vec![3, 0]));
    assert!(
        queue_group(q, "APP.QUIET").is_none(),
        "STATQ(OFF) on the queue"
    );
    // RESET QMGR TYPE(STATISTICS) ends the interval now.
    let r = reader.admin("RESET QMGR TYPE(STATISTICS)").unwrap();
    assert!(
        r[0].ok && r[0].messages[0].text.contains("statistics message"),
        "{r:?}"
    );
    assert!(statistics(&mut reader).iter().any(|(cmd, _)| *cmd == 164));
    // The switches are kept across a restart (qm.toml).
    drop((app, reader));
    server.restart(&[]);
    server.wait_ready();
    let shown = |key| common::display(&server, "DISPLAY QMGR STATMQI STATQ STATINT", key);
    assert_eq!(
        (shown("STATMQI").as_deref(), shown("STATQ").as_deref()),
        (Some("ON"), Some("ON"))
    );
}

#[test]
fn accounting_records_name_the_connection_over_tcp_and_the_local_socket() {
    let server = Server::start("accounting", &[]);
    common::admin_in(
        &server.root,
        "QM1",
        "ALTER QMGR ACCTMQI(ON) ACCTQ(ON)
         DEFINE QLOCAL(APP.ACCT)",
    );
    for (endpoint, app) in [(&server.tcp, "acct-tcp"), (&server.unix, "acct-local")] {
        let mut c = Connection::connect(endpoint, app).unwrap();
        let h = c.open_queue("APP.ACCT", OpenOptions::output()).unwrap();
        c.put(h, Message::text("charged"), &PutOptions::default())
            .unwrap();
        c.close(h, Default::default()).unwrap();
        c.disconnect().unwrap();
    }
    let mut reader = Connection::connect(&server.unix, "acct-reader").unwrap();
    let h = reader
        .open_queue("SYSTEM.ADMIN.ACCOUNTING.QUEUE", OpenOptions::input())
        .unwrap();
    let mut records = Vec::new();
    while let Ok(g) = reader.get(h, &GetOptions::new()) {
        let (head, params) = pcf::decode(&g.message.body, false).expect("PCF");
        assert_eq!((head.kind, head.version), (22, 3));
        records.push((head.command, params));
    }
    let text = |p: &[Param], id: i32| {
        p.iter().find_map(|x| match x {
            Param::Str(i, v) if *i == id => Some(v.trim().to_owned()),
            _ => None,
        })
    };
    let int = |p: &[Param], id: i32| {
        p.iter().find_map(|x| match x {
            Param::Int(i, v) if *i == id => Some(*v),
            _ => None,
        })
    };
    let mqi = |app: &str| {
        records
            .iter()
            .find(|(cmd, p)| *cmd == 167 && text(p, 3024).as_deref() == Some(app))
            .map(|(_, p)| p.clone())
            .unwrap_or_else(|| panic!("no MQI accounting record for {app}: {records:?}"))
    };
    let tcp = mqi("acct-tcp");
    assert!(
        text(&tcp, 3506).is_some_and(|n| n.contains("127.0.0.1")),
        "{tcp:?}"
    );
    assert_eq!(int(&tcp, 716), Some(0), "MQDISC");
    assert_eq!(list(&tcp, 735), [1, 0]);
    let local = mqi("acct-local");
    assert_eq!(
        int(&local, 1024),
        Some(std::process::id() as i32),
        "{local:?}"
    );
    let queue_records = records
        .iter()
        .filter(|(cmd, p)| *cmd == 168 && p.iter().any(|x| matches!(x, Param::Group(8010, _))));
    assert_eq!(
        queue_records.count(),
        2,
        "one per connection that used APP.ACCT"
    );
}
