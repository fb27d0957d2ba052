//! Embedded-mode benchmarks, each printed beside the raw in-process limit measured in the same
//! run:
//!
//! - the reference single-thread workload (IBM's "fastpath bindings" rung of 000): one putting
//!   thread, 2 KB non-persistent messages, two getting threads draining the queue;
//! - in-process request/reply round trips, replies got by correl id = request msg id, at several
//!   requester counts.
//!
//! Run: `cargo bench -p ferry-benches --bench embedded -- --secs 3 --runs 3`

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{fmt_rate, median, payload, raw_handoff_rate, BenchArgs};
use ferry_client::{
    Connection, GetOptions, Message, MessageType, MqError, ObjectName, OpenOptions, PutOptions,
    QueueManager, Reason,
};
use ferry_core::{CorrelId, LocalQueueAttrs, QueueDefinition};

const MSG_LEN: usize = 2048;

fn define(qm: &QueueManager, name: &str, max_depth: usize) {
    let attrs = LocalQueueAttrs {
        max_depth,
        ..LocalQueueAttrs::default()
    };
    qm.define_queue(name, QueueDefinition::Local(attrs), true)
        .expect("define queue");
}

/// One putter, two getters, 2 KB non-persistent. Returns messages per second delivered.
fn put_get_ladder(d: Duration) -> f64 {
    let qm = QueueManager::with_name("BENCH").expect("qm");
    define(&qm, "BENCH.Q", 50_000);
    let done = Arc::new(AtomicBool::new(false));
    let got = Arc::new(AtomicU64::new(0));
    let mut getters = Vec::new();
    for g in 0..2 {
        let (qm, done, got) = (qm.clone(), done.clone(), got.clone());
        getters.push(std::thread::spawn(move || {
            let mut conn = Connection::embedded(&qm, &format!("getter{g}")).expect("connect");
            let h = conn
                .open_queue("BENCH.Q", OpenOptions::input())
                .expect("open");
            let opts = GetOptions::new().wait(Duration::from_millis(50));
            let mut n = 0u64;
            loop {
                match conn.get(h, &opts) {
                    Ok(m) => {
                        debug_assert_eq!(m.data_length, MSG_LEN);
                        n += 1;
                    }
                    Err(e) if e.reason == Reason::NoMsgAvailable => {
                        if done.load(Ordering::Acquire) {
                            break;
                        }
                    }
                    Err(e) => panic!("get failed: {e}"),
                }
            }
            got.fetch_add(n, Ordering::Relaxed);
        }));
    }
    let mut conn = Connection::embedded(&qm, "putter").expect("connect");
    let h = conn
        .open_queue("BENCH.Q", OpenOptions::output())
        .expect("open");
    let opts = PutOptions::default();
    let start = Instant::now();
    let mut i = 0u64;
    while start.elapsed() < d {
        for _ in 0..64 {
            let msg = Message::new(Bytes::from(payload(MSG_LEN, i)));
            match conn.put(h, msg, &opts) {
                Ok(_) => i += 1,
                Err(e) if e.reason == Reason::QFull => std::thread::yield_now(),
                Err(e) => panic!("put failed: {e}"),
            }
        }
    }
    done.store(true, Ordering::Release);
    for g in getters {
        g.join().expect("getter");
    }
    let elapsed = start.elapsed().as_secs_f64();
    let n = got.load(Ordering::Relaxed);
    assert_eq!(n, i, "every message put was got exactly once");
    n as f64 / elapsed
}

/// Request/reply with `requesters` requesters over `min(requesters, 10)` request/reply queue
/// pairs, one responder per request queue. Returns round trips per second.
fn request_reply(requesters: usize, d: Duration) -> f64 {
    let qm = QueueManager::with_name("BENCH").expect("qm");
    let pairs = requesters.clamp(1, 10);
    for k in 0..pairs {
        define(&qm, &format!("BENCH.REQ.{k}"), 50_000);
        define(&qm, &format!("BENCH.REPLY.{k}"), 50_000);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut responders = Vec::new();
    for k in 0..pairs {
        let (qm, stop) = (qm.clone(), stop.clone());
        responders.push(std::thread::spawn(move || {
            let mut conn = Connection::embedded(&qm, "responder").expect("connect");
            let h = conn
                .open_queue(&format!("BENCH.REQ.{k}"), OpenOptions::input())
                .expect("open");
            let opts = GetOptions::new().wait(Duration::from_millis(50));
            while !stop.load(Ordering::Acquire) {
                match conn.get(h, &opts) {
                    Ok(req) => {
                        let d = &req.message.descriptor;
                        let mut reply = Message::new(req.message.body.clone());
                        reply.descriptor.correl_id = CorrelId::from(d.msg_id);
                        reply.descriptor.message_type = MessageType::Reply;
                        conn.put1(d.reply_to_queue.as_str(), reply, &PutOptions::default())
                            .expect("reply");
                    }
                    Err(e) if e.reason == Reason::NoMsgAvailable => {}
                    Err(e) if e.reason == Reason::QMgrStopping => break,
                    Err(e) => panic!("responder get: {e}"),
                }
            }
        }));
    }
    let trips = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut reqs = Vec::new();
    for r in 0..requesters {
        let (qm, trips) = (qm.clone(), trips.clone());
        reqs.push(std::thread::spawn(move || -> Result<(), MqError> {
            let k = r % pairs;
            let mut conn = Connection::embedded(&qm, "requester")?;
            let req_q = conn.open_queue(&format!("BENCH.REQ.{k}"), OpenOptions::output())?;
            let reply_name = format!("BENCH.REPLY.{k}");
            let reply_q = conn.open_queue(&reply_name, OpenOptions::input())?;
            let reply_to = ObjectName::new(&reply_name).expect("name");
            let wait = GetOptions::new().wait(Duration::from_secs(5));
            let mut n = 0u64;
            let mut i = 0u64;
            while start.elapsed() < d {
                let msg = Message::new(Bytes::from(payload(MSG_LEN, i))).with_reply_to(reply_to);
                let out = conn.put(req_q, msg, &PutOptions::default())?;
                let reply = conn.get(reply_q, &wait.correl_id(CorrelId::from(out.msg_id)))?;
                debug_assert_eq!(
                    reply.message.descriptor.correl_id,
                    CorrelId::from(out.msg_id)
                );
                n += 1;
                i += 1;
            }
            trips.fetch_add(n, Ordering::Relaxed);
            Ok(())
        }));
    }
    for r in reqs {
        r.join().expect("requester").expect("requester failed");
    }
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Release);
    qm.stop();
    for r in responders {
        r.join().expect("responder");
    }
    trips.load(Ordering::Relaxed) as f64 / elapsed
}

/// One thread: MQPUT1 of a 2 KB message then a get of it, as `who` (an administrator reads no
/// authority record; an ordinary user's MQPUT1 is checked against its group's generic record,
/// from its connection's cache). Messages per second.
fn put1_get(who: ferry_model::security::Principal, d: Duration) -> (f64, u64) {
    let qm = QueueManager::with_name("BENCH").expect("qm");
    define(&qm, "BENCH.Q", 50_000);
    ferry_benches::grant_app(&qm);
    let opts = ferry_core::ConnectOptions::app("put1-get");
    let mut s = qm
        .connect_with(&opts, ferry_core::ConnMode::Embedded, "bench".into(), who)
        .expect("connect");
    let od = ferry_core::ObjectDescriptor::queue(ferry_core::object_name("BENCH.Q").expect("name"));
    let h = s.open(&od, OpenOptions::input()).expect("open");
    let body = Bytes::from(payload(MSG_LEN, 0));
    // FERRY_BENCH_COUNT=N: exactly N messages whatever the time (for callgrind, whose counts
    // of the two variants then differ only by what differs per message).
    let count: Option<u64> = std::env::var("FERRY_BENCH_COUNT")
        .ok()
        .and_then(|v| v.parse().ok());
    let start = Instant::now();
    let mut n = 0u64;
    while count.map_or(start.elapsed() < d, |c| n < c) {
        for _ in 0..256 {
            s.put1(&od, Message::new(body.clone()), &PutOptions::default())
                .expect("put1");
            s.get(h, &GetOptions::new()).expect("get");
            n += 1;
        }
    }
    (n as f64 / start.elapsed().as_secs_f64(), n)
}

/// [`put1_get`] as the administrator (its own symbol, so callgrind counts it apart).
#[inline(never)]
fn put1_get_administrator(d: Duration) -> (f64, u64) {
    put1_get(ferry_model::security::Principal::owner("bench"), d)
}

/// [`put1_get`] as an ordinary user in group `benchapps`.
#[inline(never)]
fn put1_get_checked_user(d: Duration) -> (f64, u64) {
    let group = vec!["benchapps".to_owned()];
    put1_get(ferry_model::security::Principal::user("benchapp", group), d)
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    println!(
        "# FerryMQ embedded benchmarks: {} run(s) of {:.1} s each, medians; {} cores",
        args.runs,
        args.secs,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let mut raw = Vec::new();
    let mut ladder = Vec::new();
    for _ in 0..args.runs {
        raw.push(raw_handoff_rate(MSG_LEN, d));
        ladder.push(put_get_ladder(d));
    }
    let (raw_m, ladder_m) = (median(&raw), median(&ladder));
    println!(
        "raw limit: thread-to-thread hand-off of fresh 2 KB buffers  {:>12} msg/s",
        fmt_rate(raw_m)
    );
    println!(
        "put/get:   1 putter, 2 getters, 2 KB non-persistent          {:>12} msg/s  ({:.0}% of raw)",
        fmt_rate(ladder_m),
        100.0 * ladder_m / raw_m
    );
    let (mut admin, mut checked, mut counts) = (Vec::new(), Vec::new(), (0, 0));
    for _ in 0..args.runs {
        let (a, na) = put1_get_administrator(d);
        let (c, nc) = put1_get_checked_user(d);
        admin.push(a);
        checked.push(c);
        counts = (counts.0 + na, counts.1 + nc);
    }
    let (a, c) = (median(&admin), median(&checked));
    println!(
        "put1 + get, 1 thread, administrator (no authority check)   {:>12} msg/s",
        fmt_rate(a)
    );
    println!(
        "put1 + get, 1 thread, ordinary user (checked each put1)     {:>12} msg/s  ({:+.1}%)",
        fmt_rate(c),
        100.0 * (c - a) / a
    );
    let ratios: Vec<f64> = admin.iter().zip(&checked).map(|(a, c)| c / a).collect();
    println!(
        "  runs: administrator {:?}; ordinary user {:?}; median of the runs' ratios {:+.1}%; messages {} / {} (for callgrind's counts per message)",
        admin.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>(),
        checked.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>(),
        100.0 * (median(&ratios) - 1.0),
        counts.0,
        counts.1
    );
    for requesters in [1usize, 4, 16] {
        let mut rr = Vec::new();
        for _ in 0..args.runs {
            rr.push(request_reply(requesters, d));
        }
        println!(
            "request/reply, {requesters:>2} requester(s), reply by correl id     {:>12} round trips/s",
            fmt_rate(median(&rr))
        );
    }
    println!(
        "runs: raw {:?}",
        raw.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>()
    );
    println!(
        "runs: put/get {:?}",
        ladder.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>()
    );
}
