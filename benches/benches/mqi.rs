//! What the MQI C layer costs: the single-thread ladder of 000 (one putting connection, two
//! getting connections, 2 KB non-persistent, synchronous puts, gets waiting) through the C
//! interface (benches/c/mqi_ladder.c, linked with libmqm_r.so over the local socket and with
//! libmqic_r.so over tcp) beside the same ladder through the Rust API, against the same
//! server in the same run, with the raw socket ping-pong of the run for scale. Then the
//! asynchronous shape: the C ladder with MQPMO_ASYNC_RESPONSE puts and MQOO_READ_AHEAD gets
//! beside the Rust async client's ladder (`ferry perf put --async-put --read-ahead`, one
//! putter and the same getters), local and tcp.
//!
//! Run: `cargo bench -p ferry-benches --bench mqi -- --secs 3 --runs 3` (needs a C compiler).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{define_bench_queues, fmt_rate, median, payload, BenchArgs, InProcessServer};
use ferry_client::{GetOptions, Message, OpenOptions, PutOptions, QueueManager, Reason};
use ferry_perf::limits::{ping_pong, tcp_pair, unix_pair};

const GETTERS: usize = 2;
/// Request/reply: requesters, and responders (as `ferry perf rr` has them by default).
const REQUESTERS: usize = 16;
const RESPONDERS: usize = 20;

/// The ladder through the Rust API: delivered messages per second.
fn rust_ladder(endpoint: &str, d: Duration) -> f64 {
    let done = Arc::new(AtomicBool::new(false));
    let got = Arc::new(AtomicU64::new(0));
    let getters: Vec<_> = (0..GETTERS)
        .map(|_| {
            let (ep, done, got) = (endpoint.to_owned(), done.clone(), got.clone());
            std::thread::spawn(move || {
                let mut c = ferry_benches::connect(&ep, "getter");
                let h = c.open_queue("BENCH.Q", OpenOptions::input()).unwrap();
                let opts = GetOptions::new().wait(Duration::from_millis(100));
                let mut n = 0u64;
                loop {
                    match c.get(h, &opts) {
                        Ok(_) => n += 1,
                        Err(e) if e.reason == Reason::NoMsgAvailable => {
                            if done.load(Ordering::Acquire) {
                                break;
                            }
                        }
                        Err(e) => panic!("get: {e}"),
                    }
                }
                got.fetch_add(n, Ordering::Relaxed);
            })
        })
        .collect();
    let mut c = ferry_benches::connect(endpoint, "putter");
    let h = c.open_queue("BENCH.Q", OpenOptions::output()).unwrap();
    let start = Instant::now();
    let mut put = 0u64;
    while start.elapsed() < d {
        for _ in 0..64 {
            c.put(
                h,
                Message::new(Bytes::from(payload(2048, put))),
                &PutOptions::default(),
            )
            .unwrap();
            put += 1;
        }
    }
    done.store(true, Ordering::Release);
    for g in getters {
        g.join().unwrap();
    }
    assert_eq!(got.load(Ordering::Relaxed), put);
    put as f64 / start.elapsed().as_secs_f64()
}

/// Where cargo put the MQI libraries (this crate's dependencies).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_owned()
}

/// Compiles the C program `benches/c/{source}.c` against library `lib`.
fn compile(source: &str, lib: &str, out: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = out.join(format!("{source}_{lib}"));
    let libs = lib_dir();
    let o = Command::new("cc")
        .args([
            "-O2",
            "-std=c11",
            "-D_POSIX_C_SOURCE=200809L",
            "-Wall",
            "-Werror",
            "-I",
        ])
        .arg(root.join("../crates/ferry-mqi/include"))
        .arg(root.join(format!("c/{source}.c")))
        .arg("-L")
        .arg(&libs)
        .arg(format!("-l{lib}"))
        .arg(format!("-Wl,-rpath,{}", libs.display()))
        .arg("-pthread")
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("a C compiler (cc)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    exe
}

/// Request/reply through the blocking Rust client (`ferry perf rr`: ten queue pairs,
/// `requesters` requesters, 20 responders): round trips per second.
fn rust_rr(endpoint: &str, requesters: usize, d: Duration) -> f64 {
    let mut a = ferry_perf::args::WorkloadArgs::defaults();
    a.connect = Some(endpoint.to_owned());
    a.prefix = "BENCH".into();
    a.size = 2048;
    a.threads = requesters;
    a.responders = Some(RESPONDERS);
    a.blocking_client = true;
    a.duration = d;
    a.warmup = Duration::from_millis(500);
    let report = ferry_perf::run_workload(ferry_perf::args::Workload::Rr, &a)
        .expect("the Rust request/reply run");
    report.results.rate_per_s
}

/// Request/reply through the C interface (benches/c/mqi_rr.c, the same shape): round trips
/// per second.
fn c_rr(exe: &Path, env: (&str, String), requesters: usize, d: Duration) -> f64 {
    let o = Command::new(exe)
        .args([
            "BENCH",
            &d.as_secs_f64().to_string(),
            &requesters.to_string(),
            &RESPONDERS.to_string(),
        ])
        .env(env.0, env.1)
        .env("FERRY_USER", ferry_benches::BENCH_USER)
        .env("FERRY_PASSWORD", ferry_benches::BENCH_PASSWORD)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
}

/// The ladder through the Rust async client (async puts, read-ahead getters, one thread, as
/// `ferry perf put --async-put --read-ahead` runs it): delivered messages per second.
fn rust_async_ladder(endpoint: &str, d: Duration) -> f64 {
    let mut a = ferry_perf::args::WorkloadArgs::defaults();
    a.connect = Some(endpoint.to_owned());
    a.queue = "BENCH.Q".into();
    a.size = 2048;
    a.threads = 1;
    a.helpers = GETTERS;
    a.async_put = true;
    a.read_ahead = true;
    a.async_client = true;
    a.duration = d;
    a.warmup = Duration::from_millis(500);
    let report = ferry_perf::run_workload(ferry_perf::args::Workload::Put, &a)
        .expect("the Rust async ladder");
    report.results.rate_per_s
}

/// The ladder through the C interface (`mode` "async": async puts and read-ahead gets):
/// delivered messages per second.
fn c_ladder(exe: &Path, env: (&str, String), d: Duration, mode: &str) -> f64 {
    let o = Command::new(exe)
        .args([
            "BENCH.Q",
            &d.as_secs_f64().to_string(),
            &GETTERS.to_string(),
            mode,
        ])
        .env(env.0, env.1)
        .env("FERRY_USER", ferry_benches::BENCH_USER)
        .env("FERRY_PASSWORD", ferry_benches::BENCH_PASSWORD)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    let dir = std::env::temp_dir().join(format!("ferry-bench-mqi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (local_c, client_c) = (
        compile("mqi_ladder", "mqm_r", &dir),
        compile("mqi_ladder", "mqic_r", &dir),
    );
    let (local_rr, client_rr) = (
        compile("mqi_rr", "mqm_r", &dir),
        compile("mqi_rr", "mqic_r", &dir),
    );
    let mut rows: Vec<(&str, Vec<f64>)> = vec![
        ("raw unix ping-pong (round trips/s)", vec![]),
        ("raw tcp ping-pong (round trips/s)", vec![]),
        ("ladder, local, Rust API (msg/s)", vec![]),
        ("ladder, local, C MQI libmqm_r (msg/s)", vec![]),
        ("ladder, tcp, Rust API (msg/s)", vec![]),
        ("ladder, tcp, C MQI libmqic_r (msg/s)", vec![]),
        ("async ladder, local, Rust async client", vec![]),
        ("async ladder, local, C MQI libmqm_r", vec![]),
        ("async ladder, tcp, Rust async client", vec![]),
        ("async ladder, tcp, C MQI libmqic_r", vec![]),
        ("rr 16 requesters, local, Rust API (rt/s)", vec![]),
        ("rr 16 requesters, local, C MQI libmqm_r", vec![]),
        ("rr 16 requesters, tcp, Rust API (rt/s)", vec![]),
        ("rr 16 requesters, tcp, C MQI libmqic_r", vec![]),
    ];
    for _ in 0..args.runs {
        let (c, s) = unix_pair(&dir).unwrap();
        rows[0]
            .1
            .push(ping_pong(Box::new(c), Box::new(s), Duration::from_secs(1)).unwrap());
        let (c, s) = tcp_pair().unwrap();
        rows[1]
            .1
            .push(ping_pong(Box::new(c), Box::new(s), Duration::from_secs(1)).unwrap());
        let qm = QueueManager::with_name("BENCH").unwrap();
        define_bench_queues(&qm);
        let server = InProcessServer::start(qm, &dir);
        let port = server.tcp.rsplit(':').next().unwrap().to_owned();
        rows[2].1.push(rust_ladder(&server.unix, d));
        let local = ("FERRY_CONNECT", server.unix.clone());
        let tcp = ("MQSERVER", format!("DEV.APP.SVRCONN/TCP/127.0.0.1({port})"));
        rows[3].1.push(c_ladder(&local_c, local.clone(), d, "sync"));
        rows[4].1.push(rust_ladder(&server.tcp, d));
        rows[5].1.push(c_ladder(&client_c, tcp.clone(), d, "sync"));
        rows[6].1.push(rust_async_ladder(&server.unix, d));
        rows[7]
            .1
            .push(c_ladder(&local_c, local.clone(), d, "async"));
        rows[8].1.push(rust_async_ladder(&server.tcp, d));
        rows[9].1.push(c_ladder(&client_c, tcp.clone(), d, "async"));
        rows[10].1.push(rust_rr(&server.unix, REQUESTERS, d));
        rows[11].1.push(c_rr(&local_rr, local, REQUESTERS, d));
        rows[12].1.push(rust_rr(&server.tcp, REQUESTERS, d));
        rows[13].1.push(c_rr(&client_rr, tcp, REQUESTERS, d));
        drop(server);
    }
    println!(
        "# the MQI C layer beside the Rust API: {} run(s) of {:.1} s, medians; 2 KB non-persistent, 1 putter, {GETTERS} getters",
        args.runs, args.secs
    );
    for (name, v) in &rows {
        println!("{name:<44} {:>12}", fmt_rate(median(v)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
