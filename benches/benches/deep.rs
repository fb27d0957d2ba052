//! Deep persistent queues and restart time, against the real `ferry` server process:
//!
//! 1. fill a queue with FERRY_DEEP_MESSAGES persistent 2 KB messages (default 4,000,000 = 8 GB)
//!    from 4 putters over Unix sockets, committing every 50 puts, sampling the server's resident
//!    memory every second;
//! 2. when FERRY_DEEP_RESTART_AT messages are queued (default 1,000,000), kill the server with
//!    SIGKILL and restart it, timing recovery (the server's own "recovery complete" line) and the
//!    time until it accepts a connection; then stop it cleanly and start it again (a clean stop
//!    takes a checkpoint, so that start replays nothing);
//! 3. get 100 messages by correl id from the full queue (every 40,000th message carries one);
//! 4. drain the queue with 4 getters in syncpoint, 50 a commit, sampling memory again.
//!
//! Beside it, the raw limits of the same run: the disk's sequential write rate (1 MB writes,
//! then `fdatasync`) and its sync rate (4 KB append + `fdatasync`).
//!
//! Run: `cargo build --release -p ferry && cargo bench -p ferry-benches --bench deep`
//! (FERRY_BIN overrides the binary; FERRY_BENCH_DIR the directory, default the system temp
//! directory; it needs about 9 GB free at the default size.)

use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{fmt_rate, payload};
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};
use ferry_core::{CorrelId, LocalQueueAttrs, QueueDefinition};

const MSG_LEN: usize = 2048;
const QUEUE: &str = "BENCH.DEEP";
const BATCH: u64 = 50;
const CORREL_EVERY: u64 = 40_000;

/// The correl id of message `n` (never all zeros, which means "none").
fn correl(n: u64) -> CorrelId {
    let mut id = [0xC0u8; 24];
    id[..8].copy_from_slice(&n.to_le_bytes());
    CorrelId::from_slice(&id)
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn ferry_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("FERRY_BIN") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bin = root.join("target/release/ferry");
    if !bin.exists() {
        eprintln!("building the ferry binary (cargo build --release -p ferry) ...");
        let ok = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "-p", "ferry"])
            .current_dir(&root)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "could not build the ferry binary");
    }
    bin
}

/// The running server process and where its log goes.
struct ServerProc {
    child: Child,
    log: PathBuf,
    endpoint: String,
}

fn start_server(home: &Path, run: usize) -> (ServerProc, Duration, Option<u64>) {
    let log = home.join(format!("server-{run}.log"));
    let started = Instant::now();
    let child = Command::new(ferry_bin())
        .args([
            "qm",
            "start",
            "--foreground",
            "DEEP",
            "--listen",
            "127.0.0.1:0",
        ])
        .env("FERRY_HOME", home)
        .env("FERRY_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("start ferry");
    let endpoint = format!("unix:{}", home.join("qmgrs/DEEP/ferry.sock").display());
    // The server is up when a connection succeeds.
    loop {
        if Connection::connect(&endpoint, "probe").is_ok_and(|c| c.disconnect().is_ok()) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the server did not start: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let up = started.elapsed();
    let recovery_ms = std::fs::read_to_string(&log).ok().and_then(|text| {
        text.lines()
            .find(|l| l.contains("recovery complete"))
            .and_then(|l| l.split("took_ms=").nth(1))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    });
    (
        ServerProc {
            child,
            log,
            endpoint,
        },
        up,
        recovery_ms,
    )
}

fn rss_kb(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn dir_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Samples the server's memory every second while `running`.
fn sampler(
    pid: u32,
    running: Arc<AtomicBool>,
    progress: Arc<AtomicU64>,
    what: &'static str,
) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut peak = 0;
        let mut last = Instant::now();
        while running.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(100));
            let (rss, _) = rss_kb(pid);
            peak = peak.max(rss);
            if last.elapsed() >= Duration::from_secs(5) {
                last = Instant::now();
                eprintln!(
                    "  {what}: {} messages, server RSS {} MB",
                    fmt_rate(progress.load(Ordering::Relaxed) as f64),
                    rss / 1024
                );
            }
        }
        peak
    })
}

/// Puts messages `from..to` with 4 putters (each takes every 4th), committing every BATCH.
fn fill(endpoint: &str, from: u64, to: u64, progress: &Arc<AtomicU64>) {
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            let (ep, progress) = (endpoint.to_owned(), progress.clone());
            std::thread::spawn(move || {
                let mut c = ferry_benches::connect(&ep, "deep-putter");
                let h = c.open_queue(QUEUE, OpenOptions::output()).unwrap();
                let mut in_batch = 0;
                let mut n = from + t;
                while n < to {
                    let mut m = Message::new(Bytes::from(payload(MSG_LEN, n)))
                        .with_persistence(Persistence::Persistent);
                    if n.is_multiple_of(CORREL_EVERY) {
                        m = m.with_correl_id(correl(n));
                    }
                    c.put(h, m, &PutOptions::syncpoint()).unwrap();
                    in_batch += 1;
                    if in_batch == BATCH {
                        c.commit().unwrap();
                        progress.fetch_add(in_batch, Ordering::Relaxed);
                        in_batch = 0;
                    }
                    n += 4;
                }
                c.commit().unwrap();
                progress.fetch_add(in_batch, Ordering::Relaxed);
                c.disconnect().unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

fn drain(endpoint: &str, progress: &Arc<AtomicU64>) {
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (ep, progress) = (endpoint.to_owned(), progress.clone());
            std::thread::spawn(move || {
                let mut c = ferry_benches::connect(&ep, "deep-getter");
                let h = c.open_queue(QUEUE, OpenOptions::input()).unwrap();
                let opts = GetOptions::new().syncpoint();
                let mut in_batch = 0;
                loop {
                    match c.get(h, &opts) {
                        Ok(g) => {
                            assert_eq!(g.message.body.len(), MSG_LEN);
                            in_batch += 1;
                            if in_batch == BATCH {
                                c.commit().unwrap();
                                progress.fetch_add(in_batch, Ordering::Relaxed);
                                in_batch = 0;
                            }
                        }
                        Err(e) if e.reason == Reason::NoMsgAvailable => break,
                        Err(e) => panic!("get: {e}"),
                    }
                }
                c.commit().unwrap();
                progress.fetch_add(in_batch, Ordering::Relaxed);
                c.disconnect().unwrap();
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

fn raw_disk(dir: &Path) -> (f64, f64) {
    let path = dir.join("raw.dat");
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .read(true)
        .open(&path)
        .unwrap();
    let block = vec![7u8; 1 << 20];
    let start = Instant::now();
    for i in 0..512u64 {
        f.write_all_at(&block, i << 20).unwrap();
    }
    f.sync_data().unwrap();
    let mb_s = 512.0 / start.elapsed().as_secs_f64();
    let small = vec![7u8; 4096];
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < Duration::from_secs(3) {
        f.write_all_at(&small, (512 << 20) + n * 4096).unwrap();
        f.sync_data().unwrap();
        n += 1;
    }
    let syncs = n as f64 / start.elapsed().as_secs_f64();
    drop(f);
    let _ = std::fs::remove_file(&path);
    (mb_s, syncs)
}

fn stop(mut s: ServerProc) {
    let _ = Command::new("kill")
        .args(["-TERM", &s.child.id().to_string()])
        .status();
    let _ = s.child.wait();
}

fn main() {
    let total = env_u64("FERRY_DEEP_MESSAGES", 4_000_000);
    let restart_at = env_u64("FERRY_DEEP_RESTART_AT", 1_000_000).min(total);
    let base = std::env::var_os("FERRY_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let home = base.join(format!("ferry-bench-deep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    println!(
        "# FerryMQ deep queue: {} persistent 2 KB messages, restart at {}; home {}",
        fmt_rate(total as f64),
        fmt_rate(restart_at as f64),
        home.display()
    );
    let (disk_mb_s, sync_rate) = raw_disk(&home);
    println!(
        "raw limits: sequential write {disk_mb_s:.0} MB/s (1 MB writes + fdatasync); {} syncs/s (4 KB append + fdatasync)",
        fmt_rate(sync_rate)
    );
    // Define the deep queue before the server starts, through an embedded queue manager.
    {
        ferry_host::home::create(&home, "DEEP").unwrap();
        let qm = ferry_client::open_embedded(&home.join("qmgrs/DEEP")).unwrap();
        let attrs = LocalQueueAttrs {
            max_depth: 10_000_000,
            ..LocalQueueAttrs::default()
        };
        qm.queue_manager()
            .define_queue(QUEUE, QueueDefinition::Local(attrs), false)
            .unwrap();
    }
    let mut run = 0;
    let (mut server, _, _) = start_server(&home, run);
    let progress = Arc::new(AtomicU64::new(0));

    // 1. Fill to the restart point.
    let running = Arc::new(AtomicBool::new(true));
    let samp = sampler(server.child.id(), running.clone(), progress.clone(), "fill");
    let t = Instant::now();
    fill(&server.endpoint, 0, restart_at, &progress);
    let first_fill = t.elapsed();

    // 2. Restarts at the restart point.
    running.store(false, Ordering::Release);
    let mut peak_fill = samp.join().unwrap();
    let log_bytes = dir_size(&home.join("qmgrs/DEEP/log"));
    let _ = server.child.kill();
    let _ = server.child.wait();
    run += 1;
    let (s, up_kill, rec_kill) = start_server(&home, run);
    stop(s);
    run += 1;
    let (s, up_clean, rec_clean) = start_server(&home, run);
    server = s;
    println!(
        "restart with {} messages queued ({:.1} GB of log): after SIGKILL {:.2} s to accept connections (recovery {} ms); after a clean stop {:.2} s (recovery {} ms)",
        fmt_rate(restart_at as f64),
        log_bytes as f64 / 1e9,
        up_kill.as_secs_f64(),
        rec_kill.map_or("?".into(), |v| v.to_string()),
        up_clean.as_secs_f64(),
        rec_clean.map_or("?".into(), |v| v.to_string()),
    );

    // 1 (continued). Fill to the total.
    let running = Arc::new(AtomicBool::new(true));
    let samp = sampler(server.child.id(), running.clone(), progress.clone(), "fill");
    let t = Instant::now();
    fill(&server.endpoint, restart_at, total, &progress);
    let fill_time = first_fill + t.elapsed();
    running.store(false, Ordering::Release);
    peak_fill = peak_fill.max(samp.join().unwrap());
    let full_log = dir_size(&home.join("qmgrs/DEEP/log"));
    println!(
        "fill: {} messages in {:.1} s = {} msg/s ({:.0} MB/s of messages); log {:.1} GB; server peak RSS while filling {} MB",
        fmt_rate(total as f64),
        fill_time.as_secs_f64(),
        fmt_rate(total as f64 / fill_time.as_secs_f64()),
        total as f64 * MSG_LEN as f64 / 1e6 / fill_time.as_secs_f64(),
        full_log as f64 / 1e9,
        peak_fill / 1024
    );

    // 3. Gets by correl id on the full queue.
    {
        let mut c = ferry_benches::connect(&server.endpoint, "correl");
        let h = c.open_queue(QUEUE, OpenOptions::input()).unwrap();
        let picks: Vec<u64> = (0..100u64)
            .map(|i| (i * 7919 % (total / CORREL_EVERY).max(1)) * CORREL_EVERY)
            .collect();
        let mut times = Vec::new();
        for n in &picks {
            let t = Instant::now();
            let g = c
                .get(h, &GetOptions::new().syncpoint().correl_id(correl(*n)))
                .unwrap();
            times.push(t.elapsed());
            assert_eq!(&g.message.body[..8], &n.to_le_bytes());
            c.backout().unwrap();
        }
        times.sort();
        println!(
            "get by correl id on the full queue (then backed out): median {} µs, max {} µs over {}",
            times[times.len() / 2].as_micros(),
            times.last().unwrap().as_micros(),
            times.len()
        );
        c.disconnect().unwrap();
    }

    // 4. Drain.
    progress.store(0, Ordering::Relaxed);
    let running = Arc::new(AtomicBool::new(true));
    let samp = sampler(
        server.child.id(),
        running.clone(),
        progress.clone(),
        "drain",
    );
    let t = Instant::now();
    drain(&server.endpoint, &progress);
    let drain_time = t.elapsed();
    running.store(false, Ordering::Release);
    let peak_drain = samp.join().unwrap();
    let got = progress.load(Ordering::Relaxed);
    assert_eq!(got, total, "every message put was got");
    let (_, hwm) = rss_kb(server.child.id());
    // Let a checkpoint release the drained extents.
    std::thread::sleep(Duration::from_secs(2));
    let after_log = dir_size(&home.join("qmgrs/DEEP/log"));
    println!(
        "drain: {} messages in {:.1} s = {} msg/s; server peak RSS while draining {} MB; peak RSS of the whole run (VmHWM) {} MB; log after draining {:.2} GB",
        fmt_rate(got as f64),
        drain_time.as_secs_f64(),
        fmt_rate(got as f64 / drain_time.as_secs_f64()),
        peak_drain / 1024,
        hwm / 1024,
        after_log as f64 / 1e9
    );
    std::io::stdout().flush().ok();
    let log = server.log.clone();
    stop(server);
    if std::env::var_os("FERRY_BENCH_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&home);
    } else {
        println!("kept {} (server log {})", home.display(), log.display());
    }
}
