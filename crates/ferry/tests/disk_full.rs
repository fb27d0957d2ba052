//! A full disk is an ordinary condition: a real server whose queue manager lives on a small
//! file system (a tmpfs, and ext4 on a loop device) fills it with persistent messages. The put that finds the disk full is answered at
//! once (2102); gets, commits and definitions go on; DISPLAY QMSTATUS says why; when space is
//! freed, puts resume without a restart; SIGKILL while full loses nothing acknowledged; and a
//! stop while full ends within its grace period.
//!
//! Mounting a file system needs root (and `mkfs.ext4` for the second): the test is ignored by a plain `cargo test`, and
//! `.ci/run` (which runs as root on this kind of machine) runs it with `--ignored`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::Server;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};

/// A small file system mounted for one test — a tmpfs, or ext4 on a loop device — unmounted
/// (and its directory and image removed) after it.
struct Mount {
    dir: PathBuf,
    image: Option<PathBuf>,
}

impl Mount {
    fn dir_for(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ferry-full-{tag}-{}", std::process::id()));
        let _ = Command::new("umount").arg(&dir).status();
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn tmpfs(tag: &str, mib: u32) -> Mount {
        let dir = Mount::dir_for(tag);
        let ok = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={mib}m,mode=0700"),
                "tmpfs",
            ])
            .arg(&dir)
            .status()
            .unwrap();
        assert!(ok.success(), "mount a tmpfs at {}", dir.display());
        Mount { dir, image: None }
    }

    fn ext4(tag: &str, mib: u32) -> Mount {
        let dir = Mount::dir_for(tag);
        let image = dir.with_extension("img");
        let f = std::fs::File::create(&image).unwrap();
        f.set_len(u64::from(mib) << 20).unwrap();
        let made = Command::new("mkfs.ext4")
            .args(["-q", "-F", "-m", "0"])
            .arg(&image)
            .status()
            .unwrap();
        assert!(made.success(), "mkfs.ext4 {}", image.display());
        let ok = Command::new("mount")
            .args(["-o", "loop"])
            .arg(&image)
            .arg(&dir)
            .status()
            .unwrap();
        assert!(
            ok.success(),
            "mount {} at {}",
            image.display(),
            dir.display()
        );
        Mount {
            dir,
            image: Some(image),
        }
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        let _ = std::fs::remove_dir(&self.dir);
        if let Some(image) = &self.image {
            let _ = std::fs::remove_file(image);
        }
    }
}

const BODY: usize = 64 * 1024;

/// Puts persistent messages until one is refused; how many were acknowledged, the refusal,
/// and how long the refused put took.
fn fill(c: &mut Connection) -> (usize, ferry_client::MqError, Duration) {
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    let mut acked = 0;
    loop {
        let m = Message::new(vec![9u8; BODY]).with_persistence(Persistence::Persistent);
        let t = Instant::now();
        match c.put(h, m, &PutOptions::default()) {
            Ok(_) => acked += 1,
            Err(e) => return (acked, e, t.elapsed()),
        }
        assert!(acked < 10_000, "the disk never filled");
    }
}

/// Small extents, a short stop, and a memory budget of 1 MiB so non-persistent messages spill
/// to the same disk.
const SETTINGS: [&str; 6] = [
    "--set",
    "log.extent_mib=2",
    "--set",
    "server.stop_grace_secs=3",
    "--set",
    "qmgr.memory_budget_mib=1",
];

fn start(fs: &Mount, log: &Path) -> Server {
    Server::start_in(&fs.dir, log, &SETTINGS)
}

/// A non-persistent put to DEV.QUEUE.2 (beyond the memory budget, so it goes to the spill area).
fn put_np(c: &mut Connection) -> Result<(), ferry_client::MqError> {
    let m = Message::new(vec![7u8; BODY]).with_persistence(Persistence::NotPersistent);
    c.put1("DEV.QUEUE.2", m, &PutOptions::default()).map(|_| ())
}

fn depth(server: &Server) -> usize {
    common::display(server, "DISPLAY QLOCAL(DEV.QUEUE.1) CURDEPTH", "CURDEPTH")
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "needs root to mount a tmpfs; .ci/run runs it with --ignored"]
fn a_full_tmpfs_refuses_puts_at_once_drains_resumes_and_loses_nothing() {
    full_disk(&Mount::tmpfs("tmpfs", 48));
}

#[test]
#[ignore = "needs root to mount a loop device; .ci/run runs it with --ignored"]
fn a_full_ext4_refuses_puts_at_once_drains_resumes_and_loses_nothing() {
    full_disk(&Mount::ext4("ext4", 48));
}

/// The suite on one file system.
fn full_disk(fs: &Mount) {
    common::create_qm(&fs.dir, "QM1");
    let log = fs.dir.with_extension("log");
    let mut server = start(fs, &log);
    let filler = fs.dir.join("filler");
    std::fs::write(&filler, vec![1u8; 8 << 20]).unwrap();
    let mut c = Connection::connect(&server.unix, "filler").unwrap();
    let (acked, e, took) = fill(&mut c);
    assert_eq!(e.reason, Reason::ResourceProblem, "{e}");
    assert!(
        e.detail.contains("disk holding the recovery log is full"),
        "{e}"
    );
    assert!(
        took < Duration::from_secs(5),
        "the refused put took {took:?}"
    );
    assert!(acked > 100, "only {acked} messages fitted");
    let space = common::display(&server, "DISPLAY QMSTATUS ALL", "LOGSPACE");
    assert_eq!(space.as_deref(), Some("FULL"));

    // Consumers drain while it is full; definitions go on.
    let g = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    for _ in 0..20 {
        c.get(g, &GetOptions::new().syncpoint()).unwrap();
    }
    c.commit().unwrap();
    for _ in 0..20 {
        c.get(g, &GetOptions::new()).unwrap();
    }
    let r = c.admin("DEFINE QLOCAL(DEFINED.WHILE.FULL)").unwrap();
    assert!(r[0].ok, "{r:?}");
    // Non-persistent messages beyond the memory budget find no room in the spill area either.
    let mut np_held = 0;
    let e = loop {
        match put_np(&mut c) {
            Ok(()) => np_held += 1,
            Err(e) => break e,
        }
        assert!(np_held < 100, "a 1 MiB budget took {np_held} messages");
    };
    assert_eq!(e.reason, Reason::StorageNotAvailable, "{e}");
    assert!(
        e.detail.contains("disk holding the spill area is full"),
        "{e}"
    );

    // Space comes back: puts resume by themselves.
    std::fs::remove_file(&filler).unwrap();
    let t = Instant::now();
    common::eventually("persistent puts to resume", || {
        let m = Message::new(vec![9u8; BODY]).with_persistence(Persistence::Persistent);
        c.put1("DEV.QUEUE.1", m, &PutOptions::default()).is_ok()
    });
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let mut held = acked - 40 + 1;
    // Now the spill area takes them, and every one comes back.
    for _ in 0..10 {
        put_np(&mut c).unwrap();
    }
    let np = c.open_queue("DEV.QUEUE.2", OpenOptions::input()).unwrap();
    for _ in 0..np_held + 10 {
        let got = c.get(np, &GetOptions::new()).unwrap();
        assert_eq!(got.message.body, vec![7u8; BODY]);
    }

    // Full again, then SIGKILL: everything acknowledged is there after the restart.
    let (more, e, _) = fill(&mut c);
    assert_eq!(e.reason, Reason::ResourceProblem, "{e}");
    held += more;
    assert_eq!(depth(&server), held);
    server.restart(&SETTINGS);
    server.wait_ready();
    assert_eq!(
        depth(&server),
        held,
        "SIGKILL while full lost or added messages"
    );
    assert!(
        server.log().contains("AMQ7463E"),
        "the full disk was not logged"
    );

    // A stop while full ends within its grace period.
    let t = Instant::now();
    let term = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = server.child.wait().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "stop took {:?}",
        t.elapsed()
    );
    assert!(status.success(), "{status}: {}", server.log());
    let _ = std::fs::remove_file(&log);
}
