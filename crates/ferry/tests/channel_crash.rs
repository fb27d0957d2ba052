//! Exactly once across crashes of either end of a channel: persistent messages flow both ways
//! (QM1 → QM2 and QM2 → QM1) while one queue manager or the other is killed with SIGKILL at
//! random moments and restarted. At the end every acknowledged put has arrived exactly once,
//! and nothing has arrived twice. FERRY_CHANNEL_KILL_CYCLES=n runs more cycles.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{free_port, Server};
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};

/// Queue manager `qm` listening on `listen`, its user file holding `partner`'s channel user.
fn start(tag: &str, qm: &str, partner: &str, listen: &str) -> Server {
    let (u, p) = common::channel_user(partner);
    let s = Server::start_with_users(tag, qm, &[(&u, &p)], &["--listen", listen]);
    common::grant_channel_user(&s, partner);
    s
}

fn admin(server: &Server, script: &str) {
    let mut c = Connection::connect(&server.unix, "setup").unwrap();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

/// What the putters know: tags acknowledged (must arrive exactly once), tags in flight at a
/// kill (may arrive, at most once).
#[derive(Default)]
struct Model {
    acked: BTreeSet<u64>,
    maybe: BTreeSet<u64>,
}

/// Puts tagged persistent messages to `queue` on the server at `endpoint` (the file it is
/// read from may change across restarts) until `stop`.
fn putter(
    dir: std::path::PathBuf,
    queue: &str,
    first: u64,
    model: Arc<Mutex<Model>>,
    stop: Arc<AtomicBool>,
) {
    let mut tag = first;
    while !stop.load(Ordering::Relaxed) {
        let ep = format!("unix:{}", dir.join("ferry.sock").display());
        let Ok(mut c) = Connection::connect(&ep, "crash-putter") else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let Ok(h) = c.open_queue(queue, OpenOptions::output()) else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        while !stop.load(Ordering::Relaxed) {
            let m =
                Message::new(tag.to_le_bytes().to_vec()).with_persistence(Persistence::Persistent);
            model.lock().unwrap().maybe.insert(tag);
            let ok = c.put(h, m, &PutOptions::default()).is_ok();
            if ok {
                let mut md = model.lock().unwrap();
                md.maybe.remove(&tag);
                md.acked.insert(tag);
            }
            tag += 1;
            if !ok {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Takes everything on APP.IN at `server`, counting each tag.
fn drain(server: &Server, counts: &mut BTreeMap<u64, u32>) {
    let mut c = Connection::connect(&server.unix, "checker").unwrap();
    let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
    loop {
        match c.get(h, &GetOptions::new()) {
            Ok(g) => {
                let tag = u64::from_le_bytes(g.message.body[..8].try_into().unwrap());
                *counts.entry(tag).or_default() += 1;
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => return,
            Err(e) => panic!("drain: {e}"),
        }
    }
}

/// A small xorshift: kill timing and victim, seeded from the clock (printed, to replay).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn persistent_messages_cross_channels_exactly_once_while_either_end_is_killed() {
    let cycles: usize = std::env::var("FERRY_CHANNEL_KILL_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let seed = std::env::var("FERRY_CHANNEL_KILL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("FERRY_CHANNEL_KILL_SEED={seed}");
    let mut rng = Rng(seed);
    let ports = [free_port(), free_port()];
    let listen = |i: usize| format!("127.0.0.1:{}", ports[i]);
    let mut servers = [
        start("chcrash-1", "QM1", "QM2", &listen(0)),
        start("chcrash-2", "QM2", "QM1", &listen(1)),
    ];
    for (i, (me, other)) in [("QM1", "QM2"), ("QM2", "QM1")].into_iter().enumerate() {
        let port = ports[1 - i];
        let (sdr, rcvr) = (common::sdr_auth(me), common::rcvr_auth(other));
        admin(
            &servers[i],
            &format!(
                "DEFINE QLOCAL({other}) USAGE(XMITQ) MAXDEPTH(1000000)
                 DEFINE CHANNEL({me}.TO.{other}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ({other}) SHORTTMR(1) DISCINT(0) BATCHSZ(20) {sdr}
                 DEFINE CHANNEL({other}.TO.{me}) CHLTYPE(RCVR) {rcvr}
                 DEFINE QLOCAL(APP.IN) MAXDEPTH(1000000)
                 DEFINE QREMOTE(APP.TO.{other}) RNAME(APP.IN) RQMNAME({other})"
            ),
        );
    }
    let models = [
        Arc::new(Mutex::new(Model::default())),
        Arc::new(Mutex::new(Model::default())),
    ];
    let stop = Arc::new(AtomicBool::new(false));
    let putters: Vec<_> = [("APP.TO.QM2", 0u64), ("APP.TO.QM1", 1u64 << 40)]
        .into_iter()
        .enumerate()
        .map(|(i, (queue, first))| {
            let (dir, model, stop) = (servers[i].dir(), models[i].clone(), stop.clone());
            std::thread::spawn(move || putter(dir, queue, first, model, stop))
        })
        .collect();
    for cycle in 0..cycles {
        std::thread::sleep(Duration::from_millis(300 + rng.next() % 700));
        let victim = (rng.next() % 2) as usize;
        eprintln!("cycle {cycle}: killing QM{}", victim + 1);
        servers[victim].restart(&["--listen", &listen(victim)]);
        servers[victim].wait_ready();
    }
    std::thread::sleep(Duration::from_millis(500));
    stop.store(true, Ordering::Relaxed);
    for p in putters {
        p.join().unwrap();
    }
    // Let the channels deliver what is left, then check each direction.
    for (i, model) in models.iter().enumerate() {
        let dest = &servers[1 - i];
        let model = model.lock().unwrap();
        let mut counts = BTreeMap::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            drain(dest, &mut counts);
            if model.acked.iter().all(|t| counts.contains_key(t)) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "QM{} → QM{}: {} acknowledged messages never arrived (first {:?}); server logs:\n{}\n{}",
                i + 1,
                2 - i,
                model.acked.iter().filter(|t| !counts.contains_key(t)).count(),
                model.acked.iter().find(|t| !counts.contains_key(t)),
                servers[0].log(),
                servers[1].log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        // A last look after the channel has had time to send anything still in doubt.
        std::thread::sleep(Duration::from_millis(500));
        drain(dest, &mut counts);
        let duplicated: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
        assert!(
            duplicated.is_empty(),
            "QM{} → QM{}: duplicates {duplicated:?}",
            i + 1,
            2 - i
        );
        let unknown: Vec<_> = counts
            .keys()
            .filter(|t| !model.acked.contains(t) && !model.maybe.contains(t))
            .collect();
        assert!(unknown.is_empty(), "messages nobody put: {unknown:?}");
        assert!(
            model.acked.len() > 50,
            "too little traffic to prove anything: {}",
            model.acked.len()
        );
        eprintln!(
            "QM{} → QM{}: {} acknowledged, all arrived once; {} in doubt at kills, {} of them arrived",
            i + 1,
            2 - i,
            model.acked.len(),
            model.maybe.len(),
            model.maybe.iter().filter(|t| counts.contains_key(t)).count()
        );
    }
}
