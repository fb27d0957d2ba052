//! Many threads on shared queues: putters and getters in and out of syncpoint (getters that back
//! out and try again, putters that back out and put again), waiting getters with short and long
//! waits, poison messages moving to a backout queue, and request/reply over temporary dynamic
//! and shared reply queues with gets by correl id.
//!
//! Every message carries a unique u64 tag in its body; the checks are that every tag is delivered
//! (committed) exactly once and that nothing is left on any queue. Waits with a timeout are only
//! used to re-check a loop's exit condition, never to decide an outcome; every loop is bounded by
//! a deadline so a lost message fails the test instead of hanging it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ferry_core::{
    object_name, CloseOptions, ConnectOptions, CorrelId, GetOptions, Got, LocalQueueAttrs, Message,
    MessageType, MsgId, ObjectDescriptor, OpenOptions, PutOptions, QueueDefinition, QueueManager,
    Reason, Session,
};

/// Far above what any of these tests needs on a loaded two-core machine in debug mode.
const DEADLINE: Duration = Duration::from_secs(60);

fn od(name: &str) -> ObjectDescriptor {
    ObjectDescriptor::queue(object_name(name).unwrap())
}

fn define(qm: &QueueManager, name: &str, f: impl FnOnce(&mut LocalQueueAttrs)) {
    let mut a = LocalQueueAttrs {
        max_depth: 1_000_000,
        ..Default::default()
    };
    f(&mut a);
    qm.define_queue(name, QueueDefinition::Local(a), false)
        .unwrap();
}

fn connect(qm: &QueueManager, app: &str) -> Session {
    qm.connect(&ConnectOptions::app(app)).unwrap()
}

fn tagged(tag: u64) -> Message {
    Message::new(tag.to_le_bytes().to_vec())
        .with_correl_id(CorrelId::from_slice(&[(tag % 3) as u8 + 1]))
}

fn tag_of(g: &Got) -> u64 {
    u64::from_le_bytes(g.message.body.as_ref().try_into().expect("8-byte body"))
}

/// xorshift64*: a deterministic per-thread source of choices.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn check_deadline(started: Instant, what: &str) {
    assert!(
        started.elapsed() < DEADLINE,
        "{what} did not finish in {DEADLINE:?}"
    );
}

// ----- putters and getters -----------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
enum PutterKind {
    /// One put at a time, outside syncpoint.
    Plain,
    /// Batches in syncpoint, committed.
    Batches(usize),
    /// Batches in syncpoint; some are first put and backed out, then put again and committed.
    BatchesWithBackout(usize),
}

fn putter(qm: QueueManager, queues: Vec<String>, id: u64, count: u64, kind: PutterKind) {
    let started = Instant::now();
    let mut s = connect(&qm, &format!("putter-{id}"));
    let hs: Vec<_> = queues
        .iter()
        .map(|q| s.open(&od(q), OpenOptions::output()).unwrap())
        .collect();
    let mut rng = Rng::new(id + 1000);
    let tag = |i: u64| (id << 32) | i;
    let mut i = 0;
    while i < count {
        check_deadline(started, "putter");
        match kind {
            PutterKind::Plain => {
                s.put(
                    hs[i as usize % hs.len()],
                    tagged(tag(i)),
                    &PutOptions::default(),
                )
                .unwrap();
                i += 1;
            }
            PutterKind::Batches(n) | PutterKind::BatchesWithBackout(n) => {
                let end = (i + n as u64).min(count);
                if matches!(kind, PutterKind::BatchesWithBackout(_)) && rng.chance(30) {
                    for j in i..end {
                        s.put(
                            hs[j as usize % hs.len()],
                            tagged(tag(j)),
                            &PutOptions::syncpoint(),
                        )
                        .unwrap();
                    }
                    s.backout().unwrap();
                }
                for j in i..end {
                    s.put(
                        hs[j as usize % hs.len()],
                        tagged(tag(j)),
                        &PutOptions::syncpoint(),
                    )
                    .unwrap();
                }
                s.commit().unwrap();
                i = end;
            }
        }
    }
    s.disconnect().unwrap();
}

#[derive(Debug, Clone, Copy)]
enum GetterKind {
    /// Outside syncpoint, waiting up to this many milliseconds per get.
    Plain(u64),
    /// In syncpoint, committing batches of `batch`, backing out `backout_percent` of them.
    Syncpoint {
        batch: usize,
        backout_percent: u64,
        wait_ms: u64,
    },
    /// Outside syncpoint, only messages with this correl id (1-3).
    ByCorrel(u8),
}

struct Getter {
    qm: QueueManager,
    queues: Vec<String>,
    kind: GetterKind,
    seed: u64,
    delivered: Arc<AtomicU64>,
    total: u64,
}

/// Gets until `total` messages have been delivered (committed) by all getters together; returns
/// the tags this getter delivered.
fn run_getter(g: Getter) -> Vec<u64> {
    let started = Instant::now();
    let mut s = connect(&g.qm, "getter");
    let hs: Vec<_> = g
        .queues
        .iter()
        .map(|q| s.open(&od(q), OpenOptions::input()).unwrap())
        .collect();
    let mut rng = Rng::new(g.seed);
    let mut mine = Vec::new();
    let mut batch: Vec<u64> = Vec::new();
    let mut backouts_left = 40;
    let mut turn = 0usize;
    let (sync, batch_size, backout_percent) = match g.kind {
        GetterKind::Syncpoint {
            batch,
            backout_percent,
            ..
        } => (true, batch, backout_percent),
        _ => (false, 1, 0),
    };
    let mut end_batch =
        |s: &mut Session, batch: &mut Vec<u64>, mine: &mut Vec<u64>, rng: &mut Rng| {
            if backouts_left > 0 && rng.chance(backout_percent) {
                backouts_left -= 1;
                s.backout().unwrap();
                batch.clear();
            } else {
                s.commit().unwrap();
                g.delivered.fetch_add(batch.len() as u64, Ordering::SeqCst);
                mine.append(batch);
            }
        };
    while g.delivered.load(Ordering::SeqCst) < g.total {
        check_deadline(started, "getter");
        let h = hs[turn % hs.len()];
        turn += 1;
        let mut opts = match g.kind {
            GetterKind::Plain(ms) => GetOptions::new().wait(Duration::from_millis(ms)),
            GetterKind::Syncpoint { wait_ms, .. } => GetOptions::new()
                .syncpoint()
                .wait(Duration::from_millis(wait_ms)),
            GetterKind::ByCorrel(k) => GetOptions::new()
                .correl_id(CorrelId::from_slice(&[k]))
                .wait(Duration::from_millis(5)),
        };
        if rng.chance(10) {
            opts.wait = ferry_core::Wait::No;
        }
        match s.get(h, &opts) {
            Ok(got) => {
                let tag = tag_of(&got);
                if let GetterKind::ByCorrel(k) = g.kind {
                    assert_eq!(got.message.descriptor.correl_id, CorrelId::from_slice(&[k]));
                }
                if sync {
                    batch.push(tag);
                    if batch.len() >= batch_size {
                        end_batch(&mut s, &mut batch, &mut mine, &mut rng);
                    }
                } else {
                    mine.push(tag);
                    g.delivered.fetch_add(1, Ordering::SeqCst);
                }
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {
                if !batch.is_empty() {
                    end_batch(&mut s, &mut batch, &mut mine, &mut rng);
                }
            }
            Err(e) => panic!("unexpected get failure: {e}"),
        }
    }
    // Only reachable with a batch open if some message was delivered twice: keep it so the
    // final check reports it.
    mine.append(&mut batch);
    s.disconnect().unwrap();
    mine
}

/// Checks every tag of `putters` x `per_putter` was delivered exactly once.
fn assert_exactly_once(mut all: Vec<u64>, putters: u64, per_putter: u64) {
    all.sort_unstable();
    let dups: Vec<_> = all
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    assert!(
        dups.is_empty(),
        "{} tags delivered more than once, e.g. {:x?}",
        dups.len(),
        &dups[..dups.len().min(5)]
    );
    let expected: Vec<u64> = (0..putters)
        .flat_map(|p| (0..per_putter).map(move |i| (p << 32) | i))
        .collect();
    let missing = expected
        .iter()
        .filter(|t| all.binary_search(t).is_err())
        .count();
    assert_eq!(missing, 0, "{missing} tags never delivered");
    assert_eq!(all, expected);
}

fn assert_empty(qm: &QueueManager, queues: &[&str]) {
    for q in queues {
        let st = qm.queue_status(q).unwrap();
        assert_eq!(
            (st.depth, st.uncommitted),
            (0, 0),
            "{q} is not empty: {st:?}"
        );
    }
}

#[test]
fn every_message_is_delivered_exactly_once_with_mixed_putters_and_getters() {
    let qm = QueueManager::with_name("QMC").unwrap();
    let queues = ["C.Q1", "C.Q2"];
    for q in queues {
        define(&qm, q, |_| {});
    }
    let queues: Vec<String> = queues.iter().map(|q| q.to_string()).collect();
    const PER_PUTTER: u64 = 1000;
    let putter_kinds = [
        PutterKind::Plain,
        PutterKind::Batches(7),
        PutterKind::BatchesWithBackout(5),
        PutterKind::Plain,
    ];
    let total = PER_PUTTER * putter_kinds.len() as u64;
    let delivered = Arc::new(AtomicU64::new(0));
    let getter_kinds = [
        GetterKind::Plain(50),
        GetterKind::Plain(1),
        GetterKind::Syncpoint {
            batch: 3,
            backout_percent: 0,
            wait_ms: 20,
        },
        GetterKind::Syncpoint {
            batch: 4,
            backout_percent: 40,
            wait_ms: 2,
        },
        GetterKind::ByCorrel(2),
    ];
    let getters: Vec<_> = getter_kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let g = Getter {
                qm: qm.clone(),
                queues: queues.clone(),
                kind: *kind,
                seed: i as u64,
                delivered: delivered.clone(),
                total,
            };
            thread::spawn(move || run_getter(g))
        })
        .collect();
    let putters: Vec<_> = putter_kinds
        .iter()
        .enumerate()
        .map(|(p, kind)| {
            let (qm, queues, kind) = (qm.clone(), queues.clone(), *kind);
            thread::spawn(move || putter(qm, queues, p as u64, PER_PUTTER, kind))
        })
        .collect();
    for p in putters {
        p.join().unwrap();
    }
    let per_getter: Vec<Vec<u64>> = getters.into_iter().map(|g| g.join().unwrap()).collect();
    let by_correl = &per_getter[4];
    assert!(
        by_correl.iter().all(|t| t % 3 == 1),
        "the correl getter took only correl 2 (tag % 3 == 1)"
    );
    assert_exactly_once(per_getter.concat(), putter_kinds.len() as u64, PER_PUTTER);
    assert_empty(&qm, &["C.Q1", "C.Q2"]);
    for q in ["C.Q1", "C.Q2"] {
        let st = qm.queue_status(q).unwrap();
        assert_eq!(st.open_input + st.open_output, 0);
        assert!(st.stats.puts >= PER_PUTTER * 2, "{q}: {:?}", st.stats);
    }
}

#[test]
fn poison_messages_moved_to_the_backout_queue_are_still_delivered_exactly_once() {
    // Whether a message is backed out twice before another getter takes it is the
    // scheduler's choice: each round checks exactly-once, and some round must move messages
    // (one in ~30 did not, with the other tests running beside it).
    let moved: Vec<u64> = (0..5).map(poison_round).take_while(|m| *m == 0).collect();
    assert!(
        moved.len() < 5,
        "in five rounds no message reached the backout threshold, so nothing was tested"
    );
}

/// One round of the poison-message test: returns how many messages moved to the backout
/// queue, every message having been delivered exactly once.
fn poison_round(round: u64) -> u64 {
    let qm = QueueManager::with_name(&format!("QMP{round}")).unwrap();
    define(&qm, "P.BOQ", |_| {});
    define(&qm, "P.Q", |a| {
        a.backout_threshold = 2;
        a.backout_requeue_name = object_name("P.BOQ").unwrap();
    });
    const PER_PUTTER: u64 = 500;
    let putter_kinds = [PutterKind::Plain, PutterKind::Batches(4)];
    let total = PER_PUTTER * putter_kinds.len() as u64;
    let delivered = Arc::new(AtomicU64::new(0));
    let getter = |queue: &str, kind: GetterKind, seed: u64| {
        let g = Getter {
            qm: qm.clone(),
            queues: vec![queue.to_owned()],
            kind,
            seed,
            delivered: delivered.clone(),
            total,
        };
        thread::spawn(move || run_getter(g))
    };
    let getters = vec![
        // Backs out each of its first 40 batches: those messages reach BOTHRESH and move.
        getter(
            "P.Q",
            GetterKind::Syncpoint {
                batch: 2,
                backout_percent: 100,
                wait_ms: 10,
            },
            1,
        ),
        getter(
            "P.Q",
            GetterKind::Syncpoint {
                batch: 3,
                backout_percent: 30,
                wait_ms: 1,
            },
            2,
        ),
        getter("P.Q", GetterKind::Plain(10), 3),
        getter("P.BOQ", GetterKind::Plain(10), 4),
    ];
    let putters: Vec<_> = putter_kinds
        .iter()
        .enumerate()
        .map(|(p, kind)| {
            let (qm, kind) = (qm.clone(), *kind);
            thread::spawn(move || putter(qm, vec!["P.Q".into()], p as u64, PER_PUTTER, kind))
        })
        .collect();
    for p in putters {
        p.join().unwrap();
    }
    let per_getter: Vec<Vec<u64>> = getters.into_iter().map(|g| g.join().unwrap()).collect();
    let moved = qm.queue_status("P.BOQ").unwrap().stats.puts;
    assert_eq!(
        per_getter[3].len() as u64,
        moved,
        "the BOQ getter delivered every moved message"
    );
    assert_exactly_once(per_getter.concat(), putter_kinds.len() as u64, PER_PUTTER);
    assert_empty(
        &qm,
        &["P.Q", "P.BOQ", ferry_model::system::DEAD_LETTER_QUEUE],
    );
    moved
}

#[test]
fn concurrent_syncpoint_getters_that_always_back_out_lose_nothing() {
    // Two getters repeatedly take messages in syncpoint and back them out while a third waits
    // for them: every backout passes messages through the waiter lists.
    let qm = QueueManager::with_name("QMB").unwrap();
    define(&qm, "B.Q", |_| {});
    const COUNT: u64 = 200;
    let mut s = connect(&qm, "loader");
    let h = s.open(&od("B.Q"), OpenOptions::output()).unwrap();
    for i in 0..COUNT {
        s.put(h, tagged(i), &PutOptions::default()).unwrap();
    }
    let churners: Vec<_> = (0..2)
        .map(|c| {
            let qm = qm.clone();
            thread::spawn(move || {
                let mut s = connect(&qm, "churner");
                let h = s.open(&od("B.Q"), OpenOptions::input()).unwrap();
                let mut rng = Rng::new(c);
                for _ in 0..150 {
                    for _ in 0..(rng.next() % 4 + 1) {
                        if s.get(h, &GetOptions::new().syncpoint()).is_err() {
                            break;
                        }
                    }
                    s.backout().unwrap();
                }
            })
        })
        .collect();
    let delivered = Arc::new(AtomicU64::new(0));
    let collector = {
        let g = Getter {
            qm: qm.clone(),
            queues: vec!["B.Q".into()],
            kind: GetterKind::Syncpoint {
                batch: 5,
                backout_percent: 20,
                wait_ms: 5,
            },
            seed: 7,
            delivered: delivered.clone(),
            total: COUNT,
        };
        thread::spawn(move || run_getter(g))
    };
    for c in churners {
        c.join().unwrap();
    }
    assert_exactly_once(collector.join().unwrap(), 1, COUNT);
    assert_empty(&qm, &["B.Q"]);
}

// ----- request / reply ---------------------------------------------------------------------------

const STOP: &[u8] = b"STOP";

/// Serves requests from `REQ` until a STOP message: each reply goes to the request's reply-to
/// queue with the request's msg id as correl id, put and got in one unit of work.
fn server(qm: QueueManager, id: usize) -> u64 {
    let started = Instant::now();
    let mut s = connect(&qm, &format!("server-{id}"));
    let h = s.open(&od("REQ"), OpenOptions::input()).unwrap();
    let mut served = 0;
    loop {
        check_deadline(started, "server");
        let g = match s.get(
            h,
            &GetOptions::new()
                .syncpoint()
                .wait(Duration::from_millis(100)),
        ) {
            Ok(g) => g,
            Err(e) if e.reason == Reason::NoMsgAvailable => continue,
            Err(e) => panic!("server get failed: {e}"),
        };
        if g.message.body.as_ref() == STOP {
            s.commit().unwrap();
            break;
        }
        let req = &g.message.descriptor;
        assert_eq!(req.message_type, MessageType::Request);
        let mut reply = Message::new([b"re:".as_slice(), g.message.body.as_ref()].concat());
        reply.descriptor.message_type = MessageType::Reply;
        reply.descriptor.correl_id = CorrelId::from(req.msg_id);
        s.put1(
            &ObjectDescriptor::queue(req.reply_to_queue),
            reply,
            &PutOptions::syncpoint(),
        )
        .unwrap();
        s.commit().unwrap();
        served += 1;
    }
    s.disconnect().unwrap();
    served
}

/// Sends `rounds` batches of `batch` requests, collecting each batch's replies by correl id in
/// reverse order. With `shared_reply`, replies come to one queue shared by every client;
/// otherwise to a temporary dynamic queue of the client's own.
fn client(qm: QueueManager, id: usize, rounds: usize, batch: usize, shared_reply: Option<&str>) {
    let mut s = connect(&qm, &format!("client-{id}"));
    let (reply_h, reply_q) = match shared_reply {
        Some(q) => (
            s.open(&od(q), OpenOptions::input()).unwrap(),
            object_name(q).unwrap(),
        ),
        None => {
            let model = ObjectDescriptor::model(
                object_name(ferry_model::system::DEFAULT_MODEL_QUEUE).unwrap(),
                "REPLY.*",
            );
            let h = s.open(&model, OpenOptions::input()).unwrap();
            let name = s.queue_name(h).unwrap();
            assert!(name.as_str().starts_with("REPLY."), "{name}");
            (h, name)
        }
    };
    let req_h = s.open(&od("REQ"), OpenOptions::output()).unwrap();
    for round in 0..rounds {
        let sent: Vec<(MsgId, String)> = (0..batch)
            .map(|j| {
                let body = format!("c{id}-r{round}-{j}");
                let m = Message::new(body.clone().into_bytes()).with_reply_to(reply_q);
                (
                    s.put(req_h, m, &PutOptions::default()).unwrap().msg_id,
                    body,
                )
            })
            .collect();
        for (msg_id, body) in sent.iter().rev() {
            let opts = GetOptions::new()
                .correl_id(CorrelId::from(*msg_id))
                .wait(Duration::from_secs(30));
            let g = s
                .get(reply_h, &opts)
                .unwrap_or_else(|e| panic!("client {id}: no reply to {body}: {e}"));
            assert_eq!(g.message.body.as_ref(), format!("re:{body}").as_bytes());
            assert_eq!(g.message.descriptor.message_type, MessageType::Reply);
        }
    }
    if shared_reply.is_none() {
        assert_eq!(qm.queue_status(reply_q.as_str()).unwrap().depth, 0);
        s.close(reply_h, CloseOptions::None).unwrap();
        let e = s
            .open(&ObjectDescriptor::queue(reply_q), OpenOptions::output())
            .unwrap_err();
        assert_eq!(e.reason, Reason::UnknownObjectName);
    }
    s.disconnect().unwrap();
}

fn request_reply(shared_reply: Option<&'static str>) {
    const SERVERS: usize = 2;
    const CLIENTS: usize = 4;
    const ROUNDS: usize = 10;
    const BATCH: usize = 5;
    let qm = QueueManager::with_name("QMR").unwrap();
    define(&qm, "REQ", |_| {});
    if let Some(q) = shared_reply {
        define(&qm, q, |_| {});
    }
    let servers: Vec<_> = (0..SERVERS)
        .map(|i| {
            let qm = qm.clone();
            thread::spawn(move || server(qm, i))
        })
        .collect();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let qm = qm.clone();
            thread::spawn(move || client(qm, i, ROUNDS, BATCH, shared_reply))
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    let mut s = connect(&qm, "stopper");
    for _ in 0..SERVERS {
        s.put1(&od("REQ"), Message::new(STOP), &PutOptions::default())
            .unwrap();
    }
    let served: u64 = servers.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(served, (CLIENTS * ROUNDS * BATCH) as u64);
    assert_empty(&qm, &["REQ"]);
    if let Some(q) = shared_reply {
        assert_empty(&qm, &[q]);
    }
    assert!(
        !qm.queue_names()
            .iter()
            .any(|(n, _)| n.as_str().starts_with("REPLY.")),
        "temporary reply queues were left behind"
    );
}

#[test]
fn request_reply_over_temporary_dynamic_reply_queues() {
    request_reply(None);
}

#[test]
fn request_reply_over_a_shared_reply_queue_with_gets_by_correl_id() {
    request_reply(Some("SHARED.REPLY"));
}

#[test]
fn waiters_for_distinct_correl_ids_each_get_their_own_message() {
    // Many threads wait at once on one queue, each for its own correl id; messages arrive in
    // reverse order of the waiters, mixed with messages nobody waits for.
    let qm = QueueManager::with_name("QMW").unwrap();
    define(&qm, "W.Q", |_| {});
    const WAITERS: u64 = 8;
    let waiters: Vec<_> = (0..WAITERS)
        .map(|i| {
            let qm = qm.clone();
            thread::spawn(move || {
                let mut s = connect(&qm, "waiter");
                let h = s.open(&od("W.Q"), OpenOptions::input()).unwrap();
                let correl = CorrelId::from_slice(format!("W{i}").as_bytes());
                let opts = GetOptions::new()
                    .correl_id(correl)
                    .wait(Duration::from_secs(60));
                let opts = if i % 2 == 0 { opts.syncpoint() } else { opts };
                let g = s.get(h, &opts).unwrap();
                s.commit().unwrap();
                (i, tag_of(&g))
            })
        })
        .collect();
    let mut s = connect(&qm, "sender");
    let h = s.open(&od("W.Q"), OpenOptions::output()).unwrap();
    for i in (0..WAITERS).rev() {
        s.put(h, tagged(1000 + i), &PutOptions::default()).unwrap();
        let m = Message::new((i).to_le_bytes().to_vec())
            .with_correl_id(CorrelId::from_slice(format!("W{i}").as_bytes()));
        s.put(h, m, &PutOptions::default()).unwrap();
    }
    for w in waiters {
        let (i, tag) = w.join().unwrap();
        assert_eq!(tag, i);
    }
    let st = qm.queue_status("W.Q").unwrap();
    assert_eq!(
        (st.depth, st.uncommitted),
        (WAITERS as usize, 0),
        "only the unclaimed messages remain"
    );
}
