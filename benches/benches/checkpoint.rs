//! How long puts stall while a checkpoint is taken of a deep queue (in process, on a real log).
//!
//! 1. fill BENCH.DEEP with FERRY_CKPT_MESSAGES persistent 2 KB messages (default 500,000 =
//!    1 GB of message data) in units of work of 1,000;
//! 2. start two putters that run until the end, each timing every call:
//!    - `np`: non-persistent 2 KB puts to the deep queue itself (they need its lock);
//!    - `p`: persistent 2 KB puts to BENCH.Q in a unit of work, one commit each (the commit
//!      needs the persistence gate), with a getter draining BENCH.Q so it never fills;
//! 3. for each of `--runs` rounds: a quiet window of one second (the longest call seen in it is
//!    the baseline), then a checkpoint taken by this thread, during which the longest call is
//!    the stall.
//!
//! Printed per round: the checkpoint's own figures (how long it held the queues still, how
//! long it took in all, its size) and the longest call of each putter during it, beside the
//! longest in the quiet window before it. The medians over the rounds are the figures quoted in
//! docs/perf.md.
//!
//! Run: `cargo bench -p ferry-benches --bench checkpoint -- --runs 3`
//! (FERRY_BENCH_DIR sets the directory, default the system temp directory; ~1.2 GB free needed.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{median, payload, BenchArgs};
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions};
use ferry_core::{LocalQueueAttrs, QueueDefinition, QueueManager};

const MSG_LEN: usize = 2048;
const DEEP: &str = "BENCH.DEEP";
const SIDE: &str = "BENCH.Q";

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// A queue manager with its log in a fresh directory.
fn open_qm(dir: &std::path::Path) -> QueueManager {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("bench directory");
    let qm_dir = ferry_host::home::create(dir, "CKPT").expect("create CKPT");
    let (qm, _) = ferry_host::home::open_queue_manager(&qm_dir, false).expect("open CKPT");
    let attrs = LocalQueueAttrs {
        max_depth: 100_000_000,
        ..LocalQueueAttrs::default()
    };
    for q in [DEEP, SIDE] {
        qm.define_queue(q, QueueDefinition::Local(attrs.clone()), true)
            .expect("define");
    }
    qm
}

fn fill(qm: &QueueManager, n: u64) -> Duration {
    let started = Instant::now();
    let mut c = Connection::embedded(qm, "ckpt-fill").expect("connect");
    let h = c.open_queue(DEEP, OpenOptions::output()).expect("open");
    let body = Bytes::from(payload(MSG_LEN, 7));
    for i in 0..n {
        let m = Message::new(body.clone()).with_persistence(Persistence::Persistent);
        c.put(h, m, &PutOptions::syncpoint()).expect("put");
        if i % 1000 == 999 {
            c.commit().expect("commit");
        }
    }
    c.commit().expect("commit");
    started.elapsed()
}

/// The longest call since the last reset, in nanoseconds.
#[derive(Default)]
struct Longest {
    ns: AtomicU64,
    calls: AtomicU64,
}

impl Longest {
    fn note(&self, d: Duration) {
        self.ns.fetch_max(d.as_nanos() as u64, Ordering::Relaxed);
        self.calls.fetch_add(1, Ordering::Relaxed);
    }
    fn take(&self) -> (Duration, u64) {
        (
            Duration::from_nanos(self.ns.swap(0, Ordering::Relaxed)),
            self.calls.swap(0, Ordering::Relaxed),
        )
    }
}

fn putters(
    qm: &QueueManager,
    stop: &Arc<AtomicBool>,
) -> (Arc<Longest>, Arc<Longest>, Vec<std::thread::JoinHandle<()>>) {
    let (np, p) = (Arc::new(Longest::default()), Arc::new(Longest::default()));
    let body = Bytes::from(payload(MSG_LEN, 9));
    let mut threads = Vec::new();
    {
        let (qm, stop, np, body) = (qm.clone(), stop.clone(), np.clone(), body.clone());
        threads.push(std::thread::spawn(move || {
            let mut c = Connection::embedded(&qm, "ckpt-np").expect("connect");
            let h = c.open_queue(DEEP, OpenOptions::output()).expect("open");
            while !stop.load(Ordering::Relaxed) {
                let m = Message::new(body.clone()).with_persistence(Persistence::NotPersistent);
                let t = Instant::now();
                c.put(h, m, &PutOptions::default()).expect("np put");
                np.note(t.elapsed());
                // About 20,000 a second: enough to see a stall, not enough to fill memory.
                std::thread::sleep(Duration::from_micros(50));
            }
        }));
    }
    {
        let (qm, stop, p, body) = (qm.clone(), stop.clone(), p.clone(), body.clone());
        threads.push(std::thread::spawn(move || {
            let mut c = Connection::embedded(&qm, "ckpt-p").expect("connect");
            let h = c.open_queue(SIDE, OpenOptions::output()).expect("open");
            while !stop.load(Ordering::Relaxed) {
                let m = Message::new(body.clone()).with_persistence(Persistence::Persistent);
                let t = Instant::now();
                c.put(h, m, &PutOptions::syncpoint()).expect("p put");
                c.commit().expect("commit");
                p.note(t.elapsed());
            }
        }));
    }
    {
        let (qm, stop) = (qm.clone(), stop.clone());
        threads.push(std::thread::spawn(move || {
            let mut c = Connection::embedded(&qm, "ckpt-get").expect("connect");
            let h = c.open_queue(SIDE, OpenOptions::input()).expect("open");
            let opts = GetOptions::new().wait(Duration::from_millis(100));
            while !stop.load(Ordering::Relaxed) {
                let _ = c.get(h, &opts);
            }
        }));
    }
    (np, p, threads)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let args = BenchArgs::from_env();
    let n = env_u64("FERRY_CKPT_MESSAGES", 500_000);
    let dir = std::env::var_os("FERRY_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("ferry-bench-ckpt-{}", std::process::id()));
    let qm = open_qm(&dir);
    let took = fill(&qm, n);
    println!(
        "filled {DEEP} with {n} persistent {MSG_LEN}-byte messages ({:.2} GB) in {:.1} s",
        (n * MSG_LEN as u64) as f64 / 1e9,
        took.as_secs_f64()
    );
    // A first checkpoint after the fill, so every round starts from the same state.
    qm.checkpoint().expect("checkpoint");
    let stop = Arc::new(AtomicBool::new(false));
    let (np, p, threads) = putters(&qm, &stop);
    let mut rows: Vec<[f64; 7]> = Vec::new();
    for round in 0..args.runs {
        np.take();
        p.take();
        std::thread::sleep(Duration::from_secs(1));
        let (np_quiet, _) = np.take();
        let (p_quiet, _) = p.take();
        let report = qm
            .checkpoint()
            .expect("checkpoint")
            .expect("a checkpoint was taken");
        let (np_stall, np_calls) = np.take();
        let (p_stall, p_calls) = p.take();
        println!(
            "round {}: checkpoint of {} messages, {:.1} MB: held the queues still {}, took {}; \
             longest non-persistent put {} ({np_calls} calls; quiet window {}); longest \
             persistent put+commit {} ({p_calls} calls; quiet window {})",
            round + 1,
            report.messages,
            report.bytes as f64 / 1e6,
            ms(report.paused),
            ms(report.took),
            ms(np_stall),
            ms(np_quiet),
            ms(p_stall),
            ms(p_quiet),
        );
        rows.push([
            report.paused.as_secs_f64(),
            report.took.as_secs_f64(),
            np_stall.as_secs_f64(),
            np_quiet.as_secs_f64(),
            p_stall.as_secs_f64(),
            p_quiet.as_secs_f64(),
            report.bytes as f64,
        ]);
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let col =
        |i: usize| Duration::from_secs_f64(median(&rows.iter().map(|r| r[i]).collect::<Vec<_>>()));
    println!(
        "median of {} rounds, {n} messages deep: checkpoint held still {}, took {}; longest \
         non-persistent put {} (quiet {}); longest persistent put+commit {} (quiet {})",
        rows.len(),
        ms(col(0)),
        ms(col(1)),
        ms(col(2)),
        ms(col(3)),
        ms(col(4)),
        ms(col(5)),
    );
    qm.stop();
    drop(qm);
    let _ = std::fs::remove_dir_all(&dir);
}
