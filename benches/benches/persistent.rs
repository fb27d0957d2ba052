//! Persistent-message benchmarks over local (Unix socket) connections, each beside the raw disk
//! sync rate measured in the same run (a 4 KB append followed by `fdatasync`, in the same
//! directory as the recovery log):
//!
//! - one synchronous putter of 2 KB persistent messages outside syncpoint (each put is durable
//!   before it returns, so this is bounded by the sync rate), embedded and over a local socket;
//! - 16 concurrent synchronous putters (group commit shares each sync among them);
//! - persistent request/reply in syncpoint (IBM's reference RR workload): the requester puts a
//!   request and commits, then gets the reply by correl id and commits; the responder gets the
//!   request, puts the reply and commits both together. 1, 4, 16 and 64 requesters.
//!
//! The server runs in this process on its own runtime, as `ferry qm start` runs it, with the
//! recovery log in a fresh directory (FERRY_BENCH_DIR, default the system temp directory).
//!
//! Run: `cargo bench -p ferry-benches --bench persistent -- --secs 3 --runs 3`

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{define_bench_queues, fmt_rate, median, payload, BenchArgs, InProcessServer};
use ferry_client::{
    Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, QueueManager, Reason,
};
use ferry_core::durable::PersistSettings;

const MSG_LEN: usize = 2048;

fn bench_dir() -> PathBuf {
    let base = std::env::var_os("FERRY_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("ferry-bench-persistent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench directory");
    dir
}

fn persistent_server(dir: &Path) -> InProcessServer {
    let storage = Arc::new(ferry_log::FileStorage::new(&dir.join("log")).expect("log directory"));
    let mut config = ferry_core::QmConfig::new("BENCHP").expect("config");
    config.dev_queues = false;
    let mut settings = PersistSettings::default();
    // FERRY_BENCH_PREALLOCATE=0 appends to extents instead of overwriting prepared ones.
    settings.log.preallocate = std::env::var("FERRY_BENCH_PREALLOCATE").map_or(true, |v| v != "0");
    let (qm, _) =
        QueueManager::open_persistent(config, storage, settings, ferry_log::RecoveryMode::Strict)
            .expect("persistent queue manager");
    define_bench_queues(&qm);
    InProcessServer::start(qm, dir)
}

fn persistent(n: u64) -> Message {
    // FERRY_BENCH_NONPERSISTENT=1: the same workloads without the log, to see its cost.
    static PERSISTENCE: std::sync::OnceLock<Persistence> = std::sync::OnceLock::new();
    let p = *PERSISTENCE.get_or_init(|| {
        if std::env::var_os("FERRY_BENCH_NONPERSISTENT").is_some() {
            Persistence::NotPersistent
        } else {
            Persistence::Persistent
        }
    });
    Message::new(Bytes::from(payload(MSG_LEN, n))).with_persistence(p)
}

/// `putters` synchronous putters as tasks of the async client on one thread (the way an async
/// application runs them), each its own local connection and socket, each waiting for its put
/// before the next. Puts/s.
fn putters_async(endpoint: &str, putters: usize, d: Duration) -> f64 {
    use ferry_client::{AsyncConnection, ClientOptions};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut conns = Vec::new();
        for p in 0..putters {
            let c = AsyncConnection::connect(
                endpoint,
                &format!("putter{p}"),
                &ClientOptions::default(),
            )
            .await
            .unwrap();
            conns.push(c);
        }
        let start = Instant::now();
        let tasks: Vec<_> = conns
            .into_iter()
            .map(|mut c| {
                tokio::spawn(async move {
                    let h = c
                        .open_queue("BENCH.Q", OpenOptions::output())
                        .await
                        .unwrap();
                    let mut n = 0u64;
                    while start.elapsed() < d {
                        c.put(h, persistent(n), &PutOptions::default())
                            .await
                            .unwrap();
                        n += 1;
                    }
                    c.disconnect().await.unwrap();
                    n
                })
            })
            .collect();
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        total as f64 / start.elapsed().as_secs_f64()
    })
}

/// `putters` synchronous putters of 2 KB persistent messages outside syncpoint. Puts/s.
fn putters(endpoint: &str, putters: usize, d: Duration) -> f64 {
    let total = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let threads: Vec<_> = (0..putters)
        .map(|p| {
            let (ep, total) = (endpoint.to_owned(), total.clone());
            std::thread::spawn(move || {
                let mut c = ferry_benches::connect(&ep, &format!("putter{p}"));
                let h = c.open_queue("BENCH.Q", OpenOptions::output()).unwrap();
                let mut n = 0u64;
                while start.elapsed() < d {
                    c.put(h, persistent(n), &PutOptions::default()).unwrap();
                    n += 1;
                }
                c.disconnect().unwrap();
                total.fetch_add(n, Ordering::Relaxed);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    total.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

/// One synchronous putter in the queue manager's own process (embedded). Puts/s.
fn embedded_putter(qm: &QueueManager, d: Duration) -> f64 {
    let mut c = Connection::embedded(qm, "embedded-putter").unwrap();
    let h = c.open_queue("BENCH.Q", OpenOptions::output()).unwrap();
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < d {
        c.put(h, persistent(n), &PutOptions::default()).unwrap();
        n += 1;
    }
    c.disconnect().unwrap();
    n as f64 / start.elapsed().as_secs_f64()
}

/// Persistent request/reply in syncpoint. Round trips/s.
fn request_reply(endpoint: &str, requesters: usize, d: Duration) -> f64 {
    const PAIRS: usize = 10;
    let stop = Arc::new(AtomicBool::new(false));
    let responders: Vec<_> = (0..PAIRS * 2)
        .map(|k| {
            let (ep, stop) = (endpoint.to_owned(), stop.clone());
            std::thread::spawn(move || {
                let mut c = ferry_benches::connect(&ep, "responder");
                let h = c
                    .open_queue(&format!("BENCH.REQ.{}", k % PAIRS), OpenOptions::input())
                    .unwrap();
                let opts = GetOptions::new()
                    .wait(Duration::from_millis(100))
                    .syncpoint();
                while !stop.load(Ordering::Acquire) {
                    match c.get(h, &opts) {
                        Ok(req) => {
                            let d = &req.message.descriptor;
                            let mut reply = Message::new(req.message.body.clone())
                                .with_persistence(Persistence::Persistent);
                            reply.descriptor.correl_id = ferry_core::CorrelId::from(d.msg_id);
                            reply.descriptor.message_type = ferry_core::MessageType::Reply;
                            c.put1(d.reply_to_queue.as_str(), reply, &PutOptions::syncpoint())
                                .unwrap();
                            c.commit().unwrap();
                        }
                        Err(e) if e.reason == Reason::NoMsgAvailable => {}
                        Err(e) => panic!("responder: {e}"),
                    }
                }
                c.disconnect().unwrap();
            })
        })
        .collect();
    let trips = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let reqs: Vec<_> = (0..requesters)
        .map(|r| {
            let (ep, trips) = (endpoint.to_owned(), trips.clone());
            std::thread::spawn(move || {
                let k = r % PAIRS;
                let mut c = ferry_benches::connect(&ep, "requester");
                let rq = c
                    .open_queue(&format!("BENCH.REQ.{k}"), OpenOptions::output())
                    .unwrap();
                let reply_name = format!("BENCH.REPLY.{k}");
                let pq = c.open_queue(&reply_name, OpenOptions::input()).unwrap();
                let reply_to = ferry_core::object_name(&reply_name).unwrap();
                let wait = GetOptions::new().wait(Duration::from_secs(30)).syncpoint();
                let mut n = 0u64;
                while start.elapsed() < d {
                    let out = c
                        .put(
                            rq,
                            persistent(n).with_reply_to(reply_to),
                            &PutOptions::syncpoint(),
                        )
                        .unwrap();
                    c.commit().unwrap();
                    c.get(pq, &wait.correl_id(ferry_core::CorrelId::from(out.msg_id)))
                        .unwrap();
                    c.commit().unwrap();
                    n += 1;
                }
                c.disconnect().unwrap();
                trips.fetch_add(n, Ordering::Relaxed);
            })
        })
        .collect();
    for r in reqs {
        r.join().unwrap();
    }
    let rate = trips.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Release);
    for r in responders {
        r.join().unwrap();
    }
    rate
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    let dir = bench_dir();
    let only = std::env::var("FERRY_BENCH_ONLY").unwrap_or_default();
    let wants = |name: &str| only.is_empty() || only.split(',').any(|o| o == name);
    println!(
        "# FerryMQ persistent benchmarks: {} run(s) of {:.1} s each, medians; 2 KB persistent messages over unix sockets; log in {}",
        args.runs,
        args.secs,
        dir.display()
    );
    let server = persistent_server(&dir);
    let ep = server.unix.clone();
    let mut raw = Vec::new();
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    let add = |rows: &mut Vec<(String, Vec<f64>)>, name: String, v: f64| match rows
        .iter_mut()
        .find(|(n, _)| *n == name)
    {
        Some((_, vs)) => vs.push(v),
        None => rows.push((name, vec![v])),
    };
    for _ in 0..args.runs {
        raw.push(ferry_perf::limits::disk_sync_rate(&dir, d).expect("disk sync rate"));
        if wants("put1e") {
            add(
                &mut rows,
                "put: 1 synchronous putter, embedded".into(),
                embedded_putter(&server.qm, d),
            );
            server.qm.clear_queue("BENCH.Q").unwrap();
        }
        if wants("put1") {
            add(
                &mut rows,
                "put: 1 synchronous putter".into(),
                putters(&ep, 1, d),
            );
            server.qm.clear_queue("BENCH.Q").unwrap();
        }
        if wants("put16") {
            let before = server.qm.log_status().unwrap();
            add(
                &mut rows,
                "put: 16 synchronous putters".into(),
                putters(&ep, 16, d),
            );
            let after = server.qm.log_status().unwrap();
            let syncs = (after.syncs - before.syncs).max(1) as f64;
            let mean_us = |a: &ferry_log::Histogram, b: &ferry_log::Histogram| {
                1e6 * (a.sum - b.sum) / (a.count - b.count).max(1) as f64
            };
            eprintln!(
                "  16 putters: {:.1} records per sync; a batch every {:.0} µs: written in {:.0} µs, synced in {:.0} µs",
                (after.records - before.records) as f64 / syncs,
                1e6 * d.as_secs_f64() / syncs,
                mean_us(&after.write_seconds, &before.write_seconds),
                mean_us(&after.sync_seconds, &before.sync_seconds),
            );
            server.qm.clear_queue("BENCH.Q").unwrap();
        }
        if wants("put16a") {
            add(
                &mut rows,
                "put: 16 synchronous putters, async client on one thread".into(),
                putters_async(&ep, 16, d),
            );
            server.qm.clear_queue("BENCH.Q").unwrap();
        }
        if wants("rr") {
            for n in [1, 4, 16, 64] {
                add(
                    &mut rows,
                    format!("request/reply in syncpoint, {n:2} requesters (round trips/s)"),
                    request_reply(&ep, n, d),
                );
            }
        }
    }
    let raw_m = median(&raw);
    println!(
        "raw limit: 4 KB append + fdatasync                           {:>10} syncs/s",
        fmt_rate(raw_m)
    );
    for (name, vs) in &rows {
        let m = median(vs);
        // The disk's sync rate moves from run to run: compare each run with its own raw run.
        let ratios: Vec<f64> = vs.iter().zip(&raw).map(|(v, r)| v / r).collect();
        println!(
            "{name:<60} {:>10}  ({:.0}% of the raw sync rate; per-run median {:.0}%)",
            fmt_rate(m),
            100.0 * m / raw_m,
            100.0 * median(&ratios)
        );
    }
    let stats = server.qm.log_status();
    if let Some(s) = stats {
        println!(
            "log: {} syncs for {} records ({:.1} records per sync)",
            s.syncs,
            s.records,
            s.records as f64 / s.syncs.max(1) as f64
        );
    }
    let fmt = |v: &[f64]| v.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>();
    println!("runs: raw {:?}", fmt(&raw));
    for (name, vs) in &rows {
        println!("runs: {name}: {:?}", fmt(vs));
    }
    std::io::stdout().flush().ok();
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
