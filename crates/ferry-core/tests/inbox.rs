//! Puts made without the queue's lock (the queue's inbox, `engine/inbox.rs`): getters that
//! wait with no limit while a putter streams messages must get every one (a put that races a
//! getter starting to wait is never left in the inbox); MAXDEPTH holds exactly with several
//! putters; messages put through the inbox and under the lock (persistent, in a unit of work)
//! keep their order; CURDEPTH counts what the inbox holds.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use ferry_core::{
    object_name, AttrValue, ConnectOptions, CorrelId, GetOptions, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PutOptions, QueueDefinition, QueueManager, Reason,
    Selector, Session,
};

/// Far above what these tests need on a loaded two-core machine in debug mode.
const DEADLINE: Duration = Duration::from_secs(120);

fn od(name: &str) -> ObjectDescriptor {
    ObjectDescriptor::queue(object_name(name).unwrap())
}

fn define(qm: &QueueManager, name: &str, max_depth: usize) {
    let a = LocalQueueAttrs {
        max_depth,
        ..Default::default()
    };
    qm.define_queue(name, QueueDefinition::Local(a), false)
        .unwrap();
}

fn connect(qm: &QueueManager, app: &str) -> Session {
    qm.connect(&ConnectOptions::app(app)).unwrap()
}

fn wanted() -> CorrelId {
    CorrelId::from_slice(b"wanted")
}

fn tag(m: &Message) -> u64 {
    u64::from_le_bytes(m.body.as_ref().try_into().expect("8-byte body"))
}

/// Runs `f` on a thread and fails the test if it has not finished by the deadline (a lost
/// wake-up shows as a getter waiting for ever).
fn within_deadline<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(DEADLINE)
        .expect("a getter waited for a message that was put (lost in the inbox?)")
}

#[test]
fn getters_waiting_without_a_limit_get_every_message_put_while_they_wait() {
    const N: u64 = 200_000;
    const STOP: u64 = u64::MAX;
    let qm = QueueManager::with_name("QMI1").unwrap();
    define(&qm, "Q", 1_000_000);
    let got = within_deadline(move || {
        let getters: Vec<_> = (0..2)
            .map(|g| {
                let qm = qm.clone();
                thread::spawn(move || {
                    let mut s = connect(&qm, &format!("getter-{g}"));
                    let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
                    let wait = GetOptions::new().wait_unlimited();
                    let mut tags = Vec::new();
                    loop {
                        let t = tag(&s.get(h, &wait).unwrap().message);
                        if t == STOP {
                            return tags;
                        }
                        // Now and then fall behind, so the putter meets both an empty queue
                        // with a waiter and a queue with messages.
                        if t.is_multiple_of(4096) {
                            thread::sleep(Duration::from_micros(200));
                        }
                        tags.push(t);
                    }
                })
            })
            .collect();
        let mut s = connect(&qm, "putter");
        let h = s.open(&od("Q"), OpenOptions::output()).unwrap();
        for i in 0..N {
            let m = Message::new(i.to_le_bytes().to_vec());
            s.put(h, m, &PutOptions::default()).unwrap();
            if i.is_multiple_of(50_000) {
                // Let both getters settle into a parked wait.
                thread::sleep(Duration::from_millis(5));
            }
        }
        for _ in 0..2 {
            let m = Message::new(STOP.to_le_bytes().to_vec());
            s.put(h, m, &PutOptions::default()).unwrap();
        }
        let mut all: Vec<u64> = getters
            .into_iter()
            .flat_map(|g| g.join().unwrap())
            .collect();
        all.sort_unstable();
        all
    });
    assert_eq!(got.len() as u64, N, "every message got exactly once");
    assert!(got.iter().enumerate().all(|(i, t)| *t == i as u64));
}

/// Each put is the last until the getter has it: a put left in the inbox while the getter
/// waits would never arrive. A message the getter does not want (another correl id) stays on
/// the queue throughout, so the inbox is open whenever the getter is not waiting.
#[test]
fn a_getter_starting_to_wait_as_each_message_is_put_gets_every_one() {
    const ROUNDS: u64 = 20_000;
    let qm = QueueManager::with_name("QMI4").unwrap();
    define(&qm, "Q", 1_000_000);
    within_deadline(move || {
        let (ack, acks) = mpsc::channel();
        let getter = {
            let qm = qm.clone();
            thread::spawn(move || {
                let mut s = connect(&qm, "getter");
                let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
                let wait = GetOptions::new().wait_unlimited().correl_id(wanted());
                for i in 0..ROUNDS {
                    assert_eq!(tag(&s.get(h, &wait).unwrap().message), i);
                    ack.send(()).unwrap();
                }
            })
        };
        let mut s = connect(&qm, "putter");
        let h = s.open(&od("Q"), OpenOptions::output()).unwrap();
        let ballast = Message::new(u64::MAX.to_le_bytes().to_vec())
            .with_correl_id(CorrelId::from_slice(b"ballast"));
        s.put(h, ballast, &PutOptions::default()).unwrap();
        for i in 0..ROUNDS {
            if i.is_multiple_of(3) {
                // Sometimes let the getter reach its wait (and sometimes its park) first.
                thread::sleep(Duration::from_micros(i % 50));
            }
            let m = Message::new(i.to_le_bytes().to_vec()).with_correl_id(wanted());
            s.put(h, m, &PutOptions::default()).unwrap();
            acks.recv().unwrap();
        }
        getter.join().unwrap();
    });
}

#[test]
fn maxdepth_holds_exactly_with_putters_racing_through_the_inbox() {
    const MAX: usize = 2_000;
    let qm = QueueManager::with_name("QMI2").unwrap();
    define(&qm, "Q", MAX);
    let putters: Vec<_> = (0..3)
        .map(|p| {
            let qm = qm.clone();
            thread::spawn(move || {
                let mut s = connect(&qm, &format!("putter-{p}"));
                let h = s.open(&od("Q"), OpenOptions::output()).unwrap();
                let mut put = 0usize;
                loop {
                    match s.put(h, Message::new(vec![p as u8; 64]), &PutOptions::default()) {
                        Ok(_) => put += 1,
                        Err(e) => {
                            assert_eq!(e.reason, Reason::QFull, "{e}");
                            return put;
                        }
                    }
                }
            })
        })
        .collect();
    let total: usize = putters.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(total, MAX, "puts accepted up to MAXDEPTH, no more");
    let mut s = connect(&qm, "checker");
    let h = s.open(&od("Q"), OpenOptions::inquire()).unwrap();
    let depth = s.inquire(h, &[Selector::CurrentDepth]).unwrap();
    assert_eq!(depth, vec![AttrValue::Int(MAX as i64)]);
}

#[test]
fn puts_through_the_inbox_and_under_the_lock_keep_their_order_and_are_counted() {
    let qm = QueueManager::with_name("QMI3").unwrap();
    define(&qm, "Q", 100_000);
    let mut s = connect(&qm, "app");
    let out = s.open(&od("Q"), OpenOptions::output()).unwrap();
    for i in 0u64..1_000 {
        let mut m = Message::new(i.to_le_bytes().to_vec());
        if i % 7 == 3 {
            m = m.with_persistence(Persistence::Persistent);
        }
        if i % 11 == 5 {
            s.put(out, m, &PutOptions::syncpoint()).unwrap();
            s.commit().unwrap();
        } else {
            s.put(out, m, &PutOptions::default()).unwrap();
        }
    }
    let inq = s.open(&od("Q"), OpenOptions::inquire()).unwrap();
    let depth = s.inquire(inq, &[Selector::CurrentDepth]).unwrap();
    assert_eq!(depth, vec![AttrValue::Int(1_000)]);
    let inp = s.open(&od("Q"), OpenOptions::input()).unwrap();
    for i in 0u64..1_000 {
        let g = s.get(inp, &GetOptions::new()).unwrap();
        assert_eq!(
            tag(&g.message),
            i,
            "messages come off in the order they were put"
        );
    }
    let e = s.get(inp, &GetOptions::new()).unwrap_err();
    assert_eq!(e.reason, Reason::NoMsgAvailable);
}
