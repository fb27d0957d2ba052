//! The durability contract against the real server process: concurrent putters and getters, in
//! and out of syncpoint, while the server is killed with SIGKILL at arbitrary moments and
//! restarted; after every restart a checker verifies that every acknowledged persistent put is
//! there exactly once unless its get was acknowledged. FERRY_KILL_CYCLES=n runs more cycles.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::Server;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};

#[derive(Default, Debug)]
struct Model {
    /// Acknowledged put, no acknowledged get: must be there.
    present: BTreeSet<u64>,
    /// Acknowledged get: must not come back.
    gone: BTreeSet<u64>,
    /// A put in flight at the kill: either way is right.
    maybe: BTreeSet<u64>,
    /// Got inside a unit of work whose commit was in flight at the kill: either way is right.
    /// Kept apart from `maybe` because the putter of the same message may still be waiting for
    /// its own acknowledgement (a get in a unit of work is answered before the put it found is
    /// durable) and would clear the mark when it arrives.
    got_in_doubt: BTreeSet<u64>,
    /// Gets outside syncpoint in flight at the kill: each may have consumed one unknown message
    /// (the contract covers gets that returned; MQ advises syncpoint for exactly this reason).
    inflight_gets: usize,
    /// Messages the checkers found after restarts (the test proves something only if some).
    survived: usize,
}

fn tag(m: &ferry_client::Got) -> u64 {
    u64::from_le_bytes(m.message.body[..8].try_into().unwrap())
}

fn putter(ep: String, model: Arc<Mutex<Model>>, first: u64, syncpoint: bool) {
    let Ok(mut c) = Connection::connect(&ep, "putter") else {
        return;
    };
    let Ok(h) = c.open_queue("DEV.QUEUE.1", OpenOptions::output()) else {
        return;
    };
    for t in first..first + 100_000 {
        let msg = Message::new(t.to_le_bytes().to_vec()).with_persistence(Persistence::Persistent);
        model.lock().unwrap().maybe.insert(t);
        let ok = if syncpoint {
            c.put(h, msg, &PutOptions::syncpoint()).is_ok() && c.commit().is_ok()
        } else {
            c.put(h, msg, &PutOptions::default()).is_ok()
        };
        if !ok {
            return;
        }
        let mut m = model.lock().unwrap();
        m.maybe.remove(&t);
        // A getter may have taken it (and said so) before this putter heard back.
        if !m.gone.contains(&t) {
            m.present.insert(t);
        }
    }
}

fn getter(ep: String, model: Arc<Mutex<Model>>, syncpoint: bool) {
    let Ok(mut c) = Connection::connect(&ep, "getter") else {
        return;
    };
    let Ok(h) = c.open_queue("DEV.QUEUE.1", OpenOptions::input()) else {
        return;
    };
    loop {
        let opts = GetOptions::new().wait(Duration::from_millis(200));
        let got = if syncpoint {
            c.get(h, &opts.syncpoint())
        } else {
            c.get(h, &opts)
        };
        match got {
            Ok(g) => {
                let t = tag(&g);
                if syncpoint {
                    model.lock().unwrap().got_in_doubt.insert(t);
                    if c.commit().is_err() {
                        return;
                    }
                }
                let mut m = model.lock().unwrap();
                m.got_in_doubt.remove(&t);
                m.maybe.remove(&t);
                m.present.remove(&t);
                m.gone.insert(t);
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(_) => {
                if !syncpoint {
                    model.lock().unwrap().inflight_gets += 1;
                }
                return;
            }
        }
    }
}

/// Drains the queue and checks it against the model; what was found stays found.
fn check(ep: &str, model: &Mutex<Model>, cycle: u32) {
    let mut c = Connection::connect(ep, "checker").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    let mut found = Vec::new();
    loop {
        match c.get(h, &GetOptions::new().syncpoint()) {
            Ok(g) => found.push(tag(&g)),
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => panic!("cycle {cycle}: {e}"),
        }
    }
    // Put them all back: the checker only looks (its unit of work is backed out).
    c.backout().unwrap();
    c.disconnect().ok();
    let set: BTreeSet<u64> = found.iter().copied().collect();
    let mut m = model.lock().unwrap();
    m.survived += set.len();
    assert_eq!(
        set.len(),
        found.len(),
        "cycle {cycle}: a message came back twice"
    );
    let missing: Vec<u64> = m
        .present
        .iter()
        .filter(|t| !set.contains(t) && !m.maybe.contains(t) && !m.got_in_doubt.contains(t))
        .copied()
        .collect();
    assert!(
        missing.len() <= m.inflight_gets,
        "cycle {cycle}: acknowledged messages lost: {missing:?} ({} gets were in flight)",
        m.inflight_gets
    );
    for t in missing {
        m.present.remove(&t);
        m.gone.insert(t);
    }
    m.inflight_gets = 0;
    for t in &set {
        assert!(
            !m.gone.contains(t),
            "cycle {cycle}: message {t} was got but came back"
        );
        assert!(
            m.present.contains(t) || m.maybe.contains(t) || m.got_in_doubt.contains(t),
            "cycle {cycle}: message {t} appeared from nowhere"
        );
    }
    // Settle the in-doubt ones by what the restart found.
    let maybe: Vec<u64> = m.maybe.union(&m.got_in_doubt).copied().collect();
    for t in maybe {
        if set.contains(&t) {
            m.present.insert(t);
            m.gone.remove(&t);
        } else {
            m.present.remove(&t);
            m.gone.insert(t);
        }
    }
    m.maybe.clear();
    m.got_in_doubt.clear();
}

#[test]
fn sigkill_at_any_moment_loses_and_duplicates_nothing_acknowledged() {
    let cycles: u32 = std::env::var("FERRY_KILL_CYCLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut server = Server::start("crash", &[]);
    let model = Arc::new(Mutex::new(Model::default()));
    for cycle in 0..cycles {
        let ep = server.unix.clone();
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let (ep, model) = (ep.clone(), model.clone());
                let first = (cycle as u64 * 4 + w) * 1_000_000;
                std::thread::spawn(move || match w {
                    0 => putter(ep, model, first, false),
                    1 => putter(ep, model, first, true),
                    2 => getter(ep, model, false),
                    _ => getter(ep, model, true),
                })
            })
            .collect();
        // Kill at a moment that differs from cycle to cycle.
        std::thread::sleep(Duration::from_millis(300 + 173 * (cycle as u64 % 5)));
        let _ = server.child.kill();
        let _ = server.child.wait();
        for w in workers {
            w.join().unwrap();
        }
        server.restart(&[]);
        // The restarted server rewrites its endpoints; wait until it answers.
        let deadline = std::time::Instant::now() + common::DEADLINE;
        while Connection::connect(&ep, "probe").is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not come back: {}",
                server.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        check(&ep, &model, cycle);
    }
    let m = model.lock().unwrap();
    assert!(
        m.survived > 0 && !m.gone.is_empty(),
        "the workload did too little to prove anything: {} messages survived restarts, {} were got",
        m.survived,
        m.gone.len()
    );
}
