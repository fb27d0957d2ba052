//! Performance events (queue depth high, low and full) on SYSTEM.ADMIN.PERFM.EVENT, and RESET
//! QSTATS, over real sockets to a real `ferry qm start`: the events a monitoring tool reads, in
//! MQ's PCF event format, switched on and off as MQ switches them.

mod common;

use std::time::Duration;

use common::Server;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, PutOptions, Reason};
use ferry_model::pcf::{self, Param};

/// The next event on SYSTEM.ADMIN.PERFM.EVENT: (reason, the queue it names, its parameters).
fn next_event(c: &mut Connection) -> Option<(i32, String, Vec<Param>)> {
    let h = c
        .open_queue("SYSTEM.ADMIN.PERFM.EVENT", OpenOptions::input())
        .unwrap();
    let got = c.get(h, &GetOptions::new().wait(Duration::from_millis(300)));
    c.close(h, Default::default()).unwrap();
    let g = match got {
        Ok(g) => g,
        Err(e) if e.reason == Reason::NoMsgAvailable => return None,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(g.message.descriptor.format.as_str().trim(), "MQEVENT");
    let (head, params) = pcf::decode(&g.message.body, false).expect("a PCF event");
    assert_eq!(head.command, pcf::CMD_PERFM_EVENT);
    let queue = params
        .iter()
        .find_map(|p| match p {
            Param::Str(pcf::CA_BASE_Q_NAME, q) => Some(q.clone()),
            _ => None,
        })
        .expect("MQCA_BASE_Q_NAME");
    Some((head.reason, queue, params))
}

fn int(params: &[Param], id: i32) -> i32 {
    params
        .iter()
        .find_map(|p| match p {
            Param::Int(k, v) if *k == id => Some(*v),
            _ => None,
        })
        .unwrap_or_else(|| panic!("parameter {id} in {params:?}"))
}

fn put(c: &mut Connection, n: usize) -> Result<(), ferry_client::MqError> {
    for _ in 0..n {
        c.put1("EVQ", Message::text("x"), &PutOptions::default())?;
    }
    Ok(())
}

fn get(c: &mut Connection, n: usize, opts: &GetOptions) {
    let h = c.open_queue("EVQ", OpenOptions::input()).unwrap();
    for _ in 0..n {
        c.get(h, opts).unwrap();
    }
    c.close(h, Default::default()).unwrap();
}

#[test]
fn queue_depth_events_are_raised_and_switched_as_mq_does() {
    let s = Server::start("perfev", &[]);
    common::admin_in(
        &s.root,
        "QM1",
        "ALTER QMGR PERFMEV(ENABLED)
         DEFINE QLOCAL(EVQ) MAXDEPTH(10) QDEPTHHI(50) QDEPTHLO(20) QDPHIEV(ENABLED)",
    );
    let mut c = Connection::connect(&s.unix, "events").unwrap();
    put(&mut c, 4).unwrap();
    assert!(
        next_event(&mut c).is_none(),
        "4 of 10 is below QDEPTHHI(50)"
    );
    put(&mut c, 1).unwrap();
    let (reason, queue, params) = next_event(&mut c).expect("Queue Depth High");
    assert_eq!((reason, queue.as_str()), (pcf::RC_Q_DEPTH_HIGH, "EVQ"));
    assert_eq!(int(&params, pcf::IA_HIGH_Q_DEPTH), 5);
    assert_eq!(int(&params, pcf::IA_MSG_ENQ_COUNT), 5);
    assert_eq!(int(&params, pcf::IA_MSG_DEQ_COUNT), 0);
    let show = |key: &str| common::display(&s, &format!("DISPLAY QLOCAL(EVQ) {key}"), key);
    assert_eq!(
        show("QDPHIEV").as_deref(),
        Some("DISABLED"),
        "High switches itself off"
    );
    assert_eq!(show("QDPLOEV").as_deref(), Some("ENABLED"), "and Low on");
    put(&mut c, 1).unwrap();
    assert!(next_event(&mut c).is_none(), "no second High until a Low");
    // Gets down to 2 (20 % of 10): Queue Depth Low, with the statistics since the High.
    get(&mut c, 4, &GetOptions::new());
    let (reason, _, params) = next_event(&mut c).expect("Queue Depth Low");
    assert_eq!(reason, pcf::RC_Q_DEPTH_LOW);
    assert_eq!(
        (
            int(&params, pcf::IA_MSG_ENQ_COUNT),
            int(&params, pcf::IA_MSG_DEQ_COUNT)
        ),
        (1, 4)
    );
    // Up to full: High again at 5, then the 11th put is refused and raises Queue Full once.
    put(&mut c, 8).unwrap();
    assert_eq!(next_event(&mut c).map(|e| e.0), Some(pcf::RC_Q_DEPTH_HIGH));
    let e = put(&mut c, 1).unwrap_err();
    assert_eq!(e.reason, Reason::QFull);
    assert_eq!(next_event(&mut c).map(|e| e.0), Some(pcf::RC_Q_FULL));
    assert!(put(&mut c, 1).is_err());
    assert!(
        next_event(&mut c).is_none(),
        "Queue Full switched itself off"
    );
    // Gets in a unit of work count at the commit.
    get(&mut c, 9, &GetOptions::new().syncpoint());
    assert!(next_event(&mut c).is_none(), "nothing before the commit");
    c.commit().unwrap();
    assert_eq!(next_event(&mut c).map(|e| e.0), Some(pcf::RC_Q_DEPTH_LOW));
    // RESET QSTATS: the statistics since the last reset (the Low event), then from zero.
    put(&mut c, 3).unwrap();
    let r = c.admin("RESET QSTATS(EVQ)").unwrap();
    let field = |key: &str| {
        r[0].messages[0]
            .fields
            .iter()
            .find(|f| f.key == key)
            .and_then(|f| f.value.clone())
    };
    assert_eq!(
        (field("MSGSIN").as_deref(), field("MSGSOUT").as_deref()),
        (Some("3"), Some("0")),
        "{r:?}"
    );
    assert_eq!(field("HIQDEPTH").as_deref(), Some("4"), "{r:?}");
    let r = c.admin("RESET QSTATS(EVQ)").unwrap();
    assert!(
        r[0].messages[0]
            .fields
            .iter()
            .any(|f| f.key == "MSGSIN" && f.value.as_deref() == Some("0")),
        "{r:?}"
    );
    // PERFMEV(DISABLED): no events at all.
    common::admin_in(
        &s.root,
        "QM1",
        "ALTER QMGR PERFMEV(DISABLED)\nALTER QLOCAL(EVQ) QDPHIEV(ENABLED)",
    );
    put(&mut c, 6).unwrap();
    assert!(next_event(&mut c).is_none(), "PERFMEV(DISABLED)");
    let e = c.admin("RESET QSTATS(NO.SUCH.QUEUE)").unwrap();
    assert!(!e[0].ok, "{e:?}");
}

#[test]
fn queue_service_interval_events_follow_the_service_timer_as_mq_does() {
    let s = Server::start("svcev", &[]);
    common::admin_in(
        &s.root,
        "QM1",
        "ALTER QMGR PERFMEV(ENABLED)
         DEFINE QLOCAL(EVQ) QSVCIEV(HIGH) QSVCINT(400)",
    );
    let shown = |key| common::display(&s, "DISPLAY QLOCAL(EVQ) QSVCIEV QSVCINT", key);
    assert_eq!(shown("QSVCINT").as_deref(), Some("400"));
    let mut c = Connection::connect(&s.unix, "events").unwrap();
    // A put to the empty queue starts the timer; a get within the interval: nothing (HIGH armed).
    put(&mut c, 1).unwrap();
    get(&mut c, 1, &GetOptions::new());
    assert!(next_event(&mut c).is_none(), "served within QSVCINT");
    // Served late: Queue Service Interval High at the get, and OK is armed.
    put(&mut c, 2).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    get(&mut c, 1, &GetOptions::new());
    let (reason, queue, params) = next_event(&mut c).expect("Queue Service Interval High");
    assert_eq!(
        (reason, queue.as_str()),
        (pcf::RC_Q_SERVICE_INTERVAL_HIGH, "EVQ")
    );
    assert_eq!(int(&params, pcf::IA_MSG_ENQ_COUNT), 3, "{params:?}");
    assert_eq!(shown("QSVCIEV").as_deref(), Some("OK"));
    // The get left a message: the timer restarted; the next get comes within the interval.
    get(&mut c, 1, &GetOptions::new());
    let (reason, _, params) = next_event(&mut c).expect("Queue Service Interval OK");
    assert_eq!(reason, pcf::RC_Q_SERVICE_INTERVAL_OK);
    assert_eq!(
        int(&params, pcf::IA_MSG_DEQ_COUNT),
        1,
        "reset by the High event"
    );
    assert_eq!(shown("QSVCIEV").as_deref(), Some("HIGH"));
    // A put to a queue whose timer ran out raises High too (the queue was left with a message).
    put(&mut c, 1).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    put(&mut c, 1).unwrap();
    let (reason, _, _) = next_event(&mut c).expect("High at a put");
    assert_eq!(reason, pcf::RC_Q_SERVICE_INTERVAL_HIGH);
    // Out of range: refused with the attribute named.
    let mut admin = Connection::connect(&s.unix, "admin").unwrap();
    let r = admin
        .admin("ALTER QLOCAL(EVQ) QSVCINT(1000000000)")
        .unwrap();
    assert!(!r[0].ok, "{r:?}");
}
