//! Administration at scale (issue 6; 001 measured MQ Explorer taking 4–8 s to list 1,000
//! queues): define 10,000 local queues from one script, then DISPLAY QLOCAL(*) and
//! DISPLAY QSTATUS(*) over them — names only, and ALL — each timed from sending the command to
//! holding the formatted answer (runmqsc text, and JSON), over the local socket to a persistent
//! queue manager served in this process (its definitions go through the recovery log on disk).
//!
//! Beside each figure, the raw limits of the same run: how long the answer's bytes take to
//! stream over a bare Unix socket, and one disk sync (a script's definitions are made durable
//! with one).
//!
//! Run: `cargo bench -p ferry-benches --bench admin -- --runs 5` (FERRY_BENCH_QUEUES=n to
//! change the 10,000).

use std::time::{Duration, Instant};

use ferry_benches::{median, BenchArgs, InProcessServer};
use ferry_client::Connection;
use ferry_perf::limits::{disk_sync_rate, streaming, unix_pair};

/// One run's timings, seconds, and the size of the largest answer.
#[derive(Debug, Default, Clone, Copy)]
struct Run {
    define: f64,
    qlocal: f64,
    qlocal_all: f64,
    qlocal_all_json: f64,
    qstatus: f64,
    qstatus_all: f64,
    delete: f64,
    answer_bytes: usize,
}

/// Sends `script`, formats the answer as text (or JSON); seconds, and the answer's size.
fn timed(c: &mut Connection, script: &str, json: bool) -> (f64, usize) {
    let start = Instant::now();
    let replies = c.admin(script).expect("admin");
    let size = if json {
        serde_json::to_vec_pretty(&ferry_admin::format::Json(&replies))
            .expect("json")
            .len()
    } else {
        ferry_admin::format::text(&replies).len()
    };
    let took = start.elapsed().as_secs_f64();
    assert!(replies.iter().all(|r| r.ok), "a command failed");
    (took, size)
}

fn one_run(queues: usize) -> Run {
    let dir = std::env::temp_dir().join(format!("ferry-bench-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let qm_dir = ferry_host::home::create(&dir, "BENCH").expect("create");
    let (qm, _) = ferry_host::home::open_queue_manager(&qm_dir, false).expect("open");
    let server = InProcessServer::start(qm, &qm_dir);
    let mut c = Connection::connect(&server.unix, "admin-bench").expect("connect");
    let define: String = (0..queues)
        .map(|i| format!("DEFINE QLOCAL(APP.Q{i:05}) MAXDEPTH(50000) DESCR('queue {i}')\n"))
        .collect();
    let delete: String = (0..queues)
        .map(|i| format!("DELETE QLOCAL(APP.Q{i:05})\n"))
        .collect();
    let mut r = Run {
        define: timed(&mut c, &define, false).0,
        ..Run::default()
    };
    r.qlocal = timed(&mut c, "DISPLAY QLOCAL(*)", false).0;
    let (t, size) = timed(&mut c, "DISPLAY QLOCAL(*) ALL", false);
    r.qlocal_all = t;
    r.answer_bytes = size;
    r.qlocal_all_json = timed(&mut c, "DISPLAY QLOCAL(*) ALL", true).0;
    r.qstatus = timed(&mut c, "DISPLAY QSTATUS(*)", false).0;
    r.qstatus_all = timed(&mut c, "DISPLAY QSTATUS(*) ALL", false).0;
    r.delete = timed(&mut c, &delete, false).0;
    drop(c);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn ms(s: f64) -> String {
    format!("{:8.1} ms", s * 1e3)
}

fn main() {
    let args = BenchArgs::from_env();
    let queues: usize = std::env::var("FERRY_BENCH_QUEUES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let runs: Vec<Run> = (0..args.runs).map(|_| one_run(queues)).collect();
    let med = |f: fn(&Run) -> f64| median(&runs.iter().map(f).collect::<Vec<_>>());

    // Raw limits, same run.
    let tmp = std::env::temp_dir();
    let (a, b) = unix_pair(&tmp).expect("unix pair");
    let frames = streaming(Box::new(a), Box::new(b), Duration::from_secs(1)).expect("stream");
    let unix_bytes_per_s = frames * 2048.0;
    let syncs = disk_sync_rate(&tmp, Duration::from_secs(1)).expect("sync rate");
    let answer = runs.iter().map(|r| r.answer_bytes).max().unwrap_or(0);

    println!(
        "admin at scale: {queues} local queues, median of {} runs, local socket, persistent queue manager",
        args.runs
    );
    println!(
        "  define {queues} (one script)         {}   (one disk sync: {})",
        ms(med(|r| r.define)),
        ms(1.0 / syncs)
    );
    println!(
        "  DISPLAY QLOCAL(*)                  {}",
        ms(med(|r| r.qlocal))
    );
    println!(
        "  DISPLAY QLOCAL(*) ALL              {}   (its {answer} bytes over a bare Unix socket: {})",
        ms(med(|r| r.qlocal_all)),
        ms(answer as f64 / unix_bytes_per_s)
    );
    println!(
        "  DISPLAY QLOCAL(*) ALL, JSON        {}",
        ms(med(|r| r.qlocal_all_json))
    );
    println!(
        "  DISPLAY QSTATUS(*)                 {}",
        ms(med(|r| r.qstatus))
    );
    println!(
        "  DISPLAY QSTATUS(*) ALL             {}",
        ms(med(|r| r.qstatus_all))
    );
    println!(
        "  delete {queues} (one script)         {}",
        ms(med(|r| r.delete))
    );
    println!(
        "  raw: unix socket {:.0} MB/s, disk {:.0} syncs/s",
        unix_bytes_per_s / 1e6,
        syncs
    );
}
