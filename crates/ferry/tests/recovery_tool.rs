//! `ferry qm start --recover-to-last-good` against a real server whose log was damaged on disk:
//! the ordinary start refuses and says what to do; the recovery starts, reports exactly the
//! messages, gets and commits it dropped (in the log and in a report file) and moves the stale
//! extents aside; the queue manager keeps working, and a later crash recovers normally. A log
//! missing a middle extent recovers the same way when asked.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions};

const EXTRA: [&str; 2] = ["--set", "log.extent_mib=1"];

/// Puts `n` persistent 1 KiB messages; their msg ids.
fn put_many(c: &mut Connection, n: usize, syncpoint: bool) -> Vec<String> {
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    let opts = if syncpoint {
        PutOptions::syncpoint()
    } else {
        PutOptions::default()
    };
    (0..n)
        .map(|i| {
            let m = Message::new(vec![i as u8; 1024]).with_persistence(Persistence::Persistent);
            c.put(h, m, &opts).unwrap().msg_id.to_hex()
        })
        .collect()
}

/// The msg ids on DEV.QUEUE.1, browsed.
fn present(server: &Server) -> BTreeSet<String> {
    let mut c = Connection::connect(&server.unix, "browser").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::browse()).unwrap();
    let mut ids = BTreeSet::new();
    let first = GetOptions::new().browse(ferry_model::options::BrowseMode::First);
    let next = GetOptions::new().browse(ferry_model::options::BrowseMode::Next);
    let mut opts = first;
    while let Ok(g) = c.get(h, &opts) {
        ids.insert(g.message.descriptor.msg_id.to_hex());
        opts = next;
    }
    ids
}

fn extent(server: &Server, n: u64) -> PathBuf {
    server.dir().join("log").join(format!("L{n:010}.flog"))
}

/// Flips bytes in the middle of a record payload of `path`, 100 KiB in.
fn damage(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    for b in &mut bytes[100 * 1024..100 * 1024 + 16] {
        *b ^= 0x5A;
    }
    std::fs::write(path, bytes).unwrap();
}

/// `ferry qm start` in `root` without the recovery flag: it must refuse, saying what to do.
fn ordinary_start_refuses(root: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "start", "--foreground", "QM1", "--data-dir"])
        .arg(root)
        .args(["--listen", "127.0.0.1:0"])
        .args(EXTRA)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a damaged log started: {text}");
    assert!(text.contains("--recover-to-last-good"), "{text}");
}

/// The report file the recovery wrote: its PUT msg ids, GET and COMMIT line counts.
fn report(server: &Server) -> (BTreeSet<String>, usize, usize) {
    let file = std::fs::read_dir(server.dir())
        .unwrap()
        .flatten()
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("recovery-dropped-")
        })
        .expect("a dropped-records report")
        .path();
    let text = std::fs::read_to_string(file).unwrap();
    let puts = text
        .lines()
        .filter_map(|l| {
            l.split_once("msgid=")
                .map(|(_, r)| r.split(' ').next().unwrap().to_owned())
        })
        .collect();
    let count = |p: &str| text.lines().filter(|l| l.starts_with(p)).count();
    (puts, count("GET "), count("COMMIT "))
}

#[test]
fn recovery_to_the_last_good_record_reports_the_truth_and_leaves_a_log_as_good_as_new() {
    let mut server = Server::start("recover-tool", &EXTRA);
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    let mut all: BTreeSet<String> = put_many(&mut c, 3000, false).into_iter().collect();
    all.extend(put_many(&mut c, 10, true));
    c.commit().unwrap();
    drop(c);
    let _ = server.child.kill();
    let _ = server.child.wait();
    damage(&extent(&server, 2));
    ordinary_start_refuses(&server.root);

    server.restart(&["--recover-to-last-good", EXTRA[0], EXTRA[1]]);
    server.wait_ready();
    let kept = present(&server);
    let (dropped, _gets, commits) = report(&server);
    let lost: BTreeSet<String> = all.difference(&kept).cloned().collect();
    assert!(
        !lost.is_empty() && kept.len() > 500,
        "kept {} of {}",
        kept.len(),
        all.len()
    );
    // The report names every message that is gone but the one in the damaged record itself,
    // which cannot be read (the report counts it as unreadable).
    let unnamed: Vec<_> = lost.difference(&dropped).collect();
    let wrong: Vec<_> = dropped.difference(&lost).collect();
    assert!(
        wrong.is_empty() && unnamed.len() == 1,
        "{} lost, {} reported; reported but not lost: {:?}; lost but not reported: {:?}",
        lost.len(),
        dropped.len(),
        wrong.iter().take(3).collect::<Vec<_>>(),
        unnamed.iter().take(3).collect::<Vec<_>>()
    );
    assert_eq!(commits, 1, "the unit of work's COMMIT was dropped with it");
    let log = server.log();
    assert!(log.contains("later records were dropped"), "{log}");
    assert!(extent(&server, 3).with_extension("flog.dropped").exists());

    // It keeps working, and the next crash recovers without help.
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    let more = put_many(&mut c, 100, false);
    drop(c);
    server.restart(&EXTRA);
    server.wait_ready();
    let after = present(&server);
    assert_eq!(after.len(), kept.len() + 100);
    assert!(more.iter().all(|id| after.contains(id)));
}

#[test]
fn a_missing_middle_extent_is_recovered_around_when_asked() {
    let mut server = Server::start("recover-gap", &EXTRA);
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    let all: BTreeSet<String> = put_many(&mut c, 3000, false).into_iter().collect();
    drop(c);
    let _ = server.child.kill();
    let _ = server.child.wait();
    std::fs::remove_file(extent(&server, 2)).unwrap();
    ordinary_start_refuses(&server.root);
    server.restart(&["--recover-to-last-good", EXTRA[0], EXTRA[1]]);
    server.wait_ready();
    let kept = present(&server);
    let (dropped, _, _) = report(&server);
    assert!(
        kept.len() > 500 && kept.len() < all.len(),
        "kept {}",
        kept.len()
    );
    // Messages in the missing extent cannot be named; those after it can.
    assert!(dropped
        .iter()
        .all(|id| all.contains(id) && !kept.contains(id)));
    assert!(!dropped.is_empty());
    server.restart(&EXTRA);
    server.wait_ready();
    assert_eq!(present(&server).len(), kept.len());
}

/// Stops the server cleanly (SIGTERM): the queue manager takes a last checkpoint.
fn stop_cleanly(server: &mut Server) {
    let ok = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert!(server.child.wait().unwrap().success(), "{}", server.log());
}

/// Flips bytes of the first occurrence of `marker` in the log's extents.
fn damage_marker(server: &Server, marker: &[u8]) {
    for e in std::fs::read_dir(server.dir().join("log"))
        .unwrap()
        .flatten()
    {
        let mut bytes = std::fs::read(e.path()).unwrap();
        if let Some(at) = bytes.windows(marker.len()).position(|w| w == marker) {
            bytes[at + 4] ^= 0xFF;
            std::fs::write(e.path(), bytes).unwrap();
            return;
        }
    }
    panic!("the marker is not in the log");
}

#[test]
fn a_damaged_message_is_set_aside_and_its_queue_stays_available() {
    let mut server = Server::start("recover-damaged", &[]);
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    let marker = b"DAMAGE-ME-0123456789-abcdefghijklmnopqrstuvwxyz";
    for body in [&b"first"[..], marker, b"third"] {
        let m = Message::new(body.to_vec()).with_persistence(Persistence::Persistent);
        c.put1("DEV.QUEUE.1", m, &PutOptions::default()).unwrap();
    }
    drop(c);
    // After a clean stop the messages come back from the checkpoint, their content read from
    // the log only when got: the damage is found then, not at the start.
    stop_cleanly(&mut server);
    damage_marker(&server, marker);
    server.restart(&[]);
    server.wait_ready();
    let mut c = Connection::connect(&server.unix, "getter").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    let first = c.get(h, &GetOptions::new()).unwrap();
    assert_eq!(&first.message.body[..], b"first");
    let next = c.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        &next.message.body[..],
        b"third",
        "the damaged message is passed over"
    );
    let damaged = common::display(&server, "DISPLAY QSTATUS(DEV.QUEUE.1) ALL", "DAMAGED");
    assert_eq!(damaged.as_deref(), Some("1"));
    assert!(server.log().contains("AMQ6174E"), "{}", server.log());
    drop(c);
    // Its removal was logged: it does not come back.
    server.restart(&[]);
    server.wait_ready();
    assert!(present(&server).is_empty());
}

#[test]
fn a_tail_cut_that_took_acknowledged_records_is_an_error_with_their_count() {
    let mut server = Server::start("recover-cut", &[]);
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    for i in 0..200 {
        let body = format!("CUT-MSG-{i:05}-").into_bytes();
        let m = Message::new(body).with_persistence(Persistence::Persistent);
        c.put1("DEV.QUEUE.1", m, &PutOptions::default()).unwrap();
    }
    drop(c);
    // Every put was acknowledged; the durable mark follows within a second.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let _ = server.child.kill();
    let _ = server.child.wait();
    // The disk "loses" the last 100 acknowledged records: their bytes become zeros.
    let path = extent(&server, 1);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes
        .windows(14)
        .position(|w| w == b"CUT-MSG-00100-")
        .expect("message 100 is in the first extent");
    for b in &mut bytes[at - 64..] {
        *b = 0;
    }
    std::fs::write(&path, bytes).unwrap();
    server.restart(&[]);
    server.wait_ready();
    assert_eq!(present(&server).len(), 100);
    let log = server.log();
    assert!(log.contains("AMQ7472E"), "{log}");
    assert!(
        log.contains("100 acknowledged records are missing from its tail"),
        "{log}"
    );
    // The mark now trails what this start found: the next start has nothing to report.
    server.restart(&[]);
    server.wait_ready();
    assert_eq!(server.log().matches("AMQ7472E").count(), 1);
    assert_eq!(present(&server).len(), 100);
}
