//! Publish/subscribe fan-out, embedded: one publishing thread, 2 KB non-persistent publications
//! to N subscriptions (each with a queue of its own), beside the point-to-point put rate of the
//! same thread and the raw in-process hand-off, all measured in the same run.
//!
//! The publisher does all the work of a fan-out (matching, one copy per subscription, the puts),
//! so its rate is its CPU: per publication it costs `1 / rate`, and the marginal cost of a
//! subscriber is the slope between N = 1 and the larger N. Queues are cleared between bursts
//! (not timed) so memory stays bounded; nobody gets, so these are the publisher's costs alone.
//!
//! Then the same for persistent publications to durable subscriptions on a queue manager with
//! its recovery log on disk: the publisher commits every [`COMMIT_EVERY`] publications (the
//! disk's sync rate, measured in the same run, would otherwise be all there is to see), beside
//! point-to-point persistent puts committed the same way. A publication to N durable
//! subscriptions is one log record holding the body once, so a subscriber adds its entry and a
//! few dozen bytes of log, not a 2 KB record.
//!
//! Run: `cargo bench -p ferry-benches --bench pubsub -- --secs 2 --runs 3`

use std::time::{Duration, Instant};

use ferry_benches::{fmt_rate, median, payload, raw_handoff_rate, BenchArgs};
use ferry_client::{Message, ObjectDescriptor, OpenOptions, PutOptions, QueueManager};
use ferry_core::{object_name, ConnectOptions, LocalQueueAttrs, QueueDefinition, SubRequest};

const MSG_LEN: usize = 2048;
/// Copies delivered per burst, before the queues are cleared.
const BURST: usize = 100_000;
/// Persistent publications (and point-to-point puts) per commit.
const COMMIT_EVERY: usize = 100;
/// Copies delivered per burst of persistent publications, before the queues are cleared.
const PERSISTENT_BURST: usize = 20_000;

/// `n` queues SUB.Q.i of `depth` (at least one), each with a subscription to the bench's
/// topic — durable (named BENCH.SUB.i) when `durable`.
fn subscribe_queues(qm: &QueueManager, n: usize, depth: usize, durable: bool) {
    let attrs = LocalQueueAttrs {
        max_depth: depth,
        ..LocalQueueAttrs::default()
    };
    for i in 0..n.max(1) {
        qm.define_queue(
            &format!("SUB.Q.{i}"),
            QueueDefinition::Local(attrs.clone()),
            true,
        )
        .expect("define");
    }
    for i in 0..n {
        let queue = object_name(&format!("SUB.Q.{i}")).unwrap();
        qm.subscribe(&SubRequest {
            name: durable.then(|| format!("BENCH.SUB.{i}")),
            ..SubRequest::to_queue("Price/Fruit/Apples", queue)
        })
        .expect("subscribe");
    }
}

fn qm_with_subscribers(n: usize) -> QueueManager {
    let qm = QueueManager::with_name("BENCH").expect("qm");
    subscribe_queues(&qm, n, BURST + 1, false);
    qm
}

fn clear(qm: &QueueManager, n: usize) {
    for i in 0..n.max(1) {
        qm.clear_queue(&format!("SUB.Q.{i}")).expect("clear");
    }
}

/// Publications per second to `n` subscribers (n = 0: publications nobody receives).
fn fan_out(n: usize, d: Duration) -> f64 {
    let qm = qm_with_subscribers(n);
    let mut s = qm
        .connect(&ConnectOptions::app("publisher"))
        .expect("connect");
    let h = s
        .open(
            &ObjectDescriptor::topic("Price/Fruit/Apples"),
            OpenOptions::output(),
        )
        .expect("open topic");
    let per_burst = (BURST / n.max(1)).max(1);
    let (mut published, mut busy) = (0u64, Duration::ZERO);
    let mut i = 0u64;
    while busy < d {
        let start = Instant::now();
        for _ in 0..per_burst {
            let m = Message::new(payload(MSG_LEN, i));
            s.put(h, m, &PutOptions::default()).expect("publish");
            i += 1;
        }
        busy += start.elapsed();
        published += per_burst as u64;
        clear(&qm, n);
    }
    published as f64 / busy.as_secs_f64()
}

/// Point-to-point puts per second from the same kind of thread, to one queue.
fn point_to_point(d: Duration) -> f64 {
    let qm = qm_with_subscribers(0);
    let mut s = qm.connect(&ConnectOptions::app("putter")).expect("connect");
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("SUB.Q.0").unwrap()),
            OpenOptions::output(),
        )
        .expect("open");
    let (mut put, mut busy, mut i) = (0u64, Duration::ZERO, 0u64);
    while busy < d {
        let start = Instant::now();
        for _ in 0..BURST {
            s.put(h, Message::new(payload(MSG_LEN, i)), &PutOptions::default())
                .expect("put");
            i += 1;
        }
        busy += start.elapsed();
        put += BURST as u64;
        clear(&qm, 0);
    }
    put as f64 / busy.as_secs_f64()
}

/// A queue manager with its log in `dir`, `n` queues and `n` durable subscriptions.
fn persistent_qm(dir: &std::path::Path, n: usize) -> QueueManager {
    let _ = std::fs::remove_dir_all(dir);
    let storage =
        std::sync::Arc::new(ferry_log::FileStorage::new(&dir.join("log")).expect("log directory"));
    let mut config = ferry_core::QmConfig::new("BENCHPS").expect("config");
    config.dev_queues = false;
    let (qm, _) = QueueManager::open_persistent(
        config,
        storage,
        ferry_core::durable::PersistSettings::default(),
        ferry_log::RecoveryMode::Strict,
    )
    .expect("persistent queue manager");
    subscribe_queues(&qm, n, PERSISTENT_BURST + 1, true);
    qm
}

/// Persistent publications per second to `n` durable subscriptions (n = 0: persistent
/// point-to-point puts to one queue), committed every [`COMMIT_EVERY`].
fn persistent_fan_out(dir: &std::path::Path, n: usize, d: Duration) -> f64 {
    let qm = persistent_qm(dir, n);
    let mut s = qm
        .connect(&ConnectOptions::app("publisher"))
        .expect("connect");
    let target = match n {
        0 => ObjectDescriptor::queue(object_name("SUB.Q.0").unwrap()),
        _ => ObjectDescriptor::topic("Price/Fruit/Apples"),
    };
    let h = s.open(&target, OpenOptions::output()).expect("open");
    let per_burst = (PERSISTENT_BURST / n.max(1)).max(COMMIT_EVERY);
    let (mut published, mut busy, mut i) = (0u64, Duration::ZERO, 0u64);
    let opts = PutOptions::syncpoint();
    while busy < d {
        let start = Instant::now();
        for k in 0..per_burst {
            let m = Message::new(payload(MSG_LEN, i))
                .with_persistence(ferry_client::Persistence::Persistent);
            s.put(h, m, &opts).expect("publish");
            i += 1;
            if (k + 1) % COMMIT_EVERY == 0 {
                s.commit().expect("commit");
            }
        }
        s.commit().expect("commit");
        busy += start.elapsed();
        published += per_burst as u64;
        clear(&qm, n);
    }
    drop(s);
    drop(qm);
    let _ = std::fs::remove_dir_all(dir);
    published as f64 / busy.as_secs_f64()
}

fn persistent_section(args: &BenchArgs, d: Duration) {
    let dir = std::env::temp_dir().join(format!("ferry-bench-pubsub-{}", std::process::id()));
    println!(
        "# persistent publications to durable subscriptions, log on disk, one publishing thread committing every {COMMIT_EVERY}"
    );
    let counts = [0usize, 1, 10, 50];
    let mut syncs = Vec::new();
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); counts.len()];
    for _ in 0..args.runs {
        std::fs::create_dir_all(&dir).expect("bench directory");
        syncs.push(ferry_perf::limits::disk_sync_rate(&dir, d).expect("disk sync rate"));
        for (k, n) in counts.iter().enumerate() {
            rates[k].push(persistent_fan_out(&dir, *n, d));
        }
    }
    println!(
        "raw limit: 4 KB append + fdatasync                          {:>12} syncs/s",
        fmt_rate(median(&syncs))
    );
    let one = median(&rates[1]);
    for (k, n) in counts.iter().enumerate() {
        let r = median(&rates[k]);
        let what = match n {
            0 => "point-to-point persistent put, same thread ".to_owned(),
            _ => format!("persistent publish to {n:>3} durable subscriber(s)"),
        };
        let marginal = match *n > 1 {
            true => format!(
                "; {:.2} µs each subscriber past the first",
                (1e6 / r - 1e6 / one) / (*n - 1) as f64
            ),
            false => String::new(),
        };
        println!(
            "{what}: {:>10}/s, {:>10} deliveries/s  ({:.2} µs each{marginal})",
            fmt_rate(r),
            fmt_rate(r * (*n).max(1) as f64),
            1e6 / r
        );
    }
    for (k, n) in counts.iter().enumerate() {
        println!(
            "runs, persistent, {n} subscribers: {:?}",
            rates[k].iter().map(|r| fmt_rate(*r)).collect::<Vec<_>>()
        );
    }
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    println!(
        "# FerryMQ publish/subscribe, embedded: {} run(s) of {:.1} s each, medians; one publishing thread, 2 KB non-persistent",
        args.runs, args.secs
    );
    let counts = [0usize, 1, 10, 50, 200];
    let mut raw = Vec::new();
    let mut p2p = Vec::new();
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); counts.len()];
    for _ in 0..args.runs {
        raw.push(raw_handoff_rate(MSG_LEN, d));
        p2p.push(point_to_point(d));
        for (k, n) in counts.iter().enumerate() {
            rates[k].push(fan_out(*n, d));
        }
    }
    let (raw_m, p2p_m) = (median(&raw), median(&p2p));
    println!(
        "raw limit: thread-to-thread hand-off of fresh 2 KB buffers  {:>12} msg/s",
        fmt_rate(raw_m)
    );
    println!(
        "point-to-point put, same thread                             {:>12} msg/s  ({:.2} µs a put)",
        fmt_rate(p2p_m),
        1e6 / p2p_m
    );
    let one = median(&rates[1]);
    for (k, n) in counts.iter().enumerate() {
        let r = median(&rates[k]);
        let deliveries = r * (*n).max(1) as f64;
        let marginal = if *n > 1 {
            format!(
                "; {:.2} µs each subscriber past the first",
                (1e6 / r - 1e6 / one) / (*n - 1) as f64
            )
        } else {
            String::new()
        };
        println!(
            "publish to {n:>3} subscriber(s): {:>10} publications/s, {:>10} deliveries/s  ({:.2} µs a publication{marginal})",
            fmt_rate(r),
            fmt_rate(if *n == 0 { 0.0 } else { deliveries }),
            1e6 / r
        );
    }
    for (k, n) in counts.iter().enumerate() {
        println!(
            "runs, {n} subscribers: {:?}",
            rates[k].iter().map(|r| fmt_rate(*r)).collect::<Vec<_>>()
        );
    }
    persistent_section(&args, d);
}
