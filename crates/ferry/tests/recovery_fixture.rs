//! A data directory written by an earlier build starts and recovers every message.
//!
//! `tests/fixtures/recovery-v1/` holds a queue manager directory made by the build named in its
//! README (before the log-record codec left the wire protocol): definitions of every kind, a
//! checkpoint, then records after it — puts, gets, commits, backouts, a clear, a delete, channel
//! batches with dead-lettering, and a unit of work open when the server was killed with SIGKILL.
//! Its extents are stored with their trailing zeros cut (`sizes.txt` gives each file's length).
//!
//! The test copies it, starts today's real server on it, and compares what every queue holds
//! (browsed over the local socket) and the definitions (`DUMP QMGR`) with `expected.txt`, which
//! the earlier build wrote from the same directory. `make_recovery_fixture` (ignored) is how
//! the fixture was made; it is kept to show what the directory holds, not to be re-run: a
//! fixture written by today's build would prove nothing about yesterday's bytes.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::Server;
use ferry_client::{
    Connection, CorrelId, GetOptions, Message, MessageType, MsgId, ObjectName, OpenOptions,
    Persistence, PropertyValue, PutOptions,
};

const QM: &str = "FIX";

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recovery-v1")
}

fn admin(c: &mut Connection, script: &str) -> String {
    let mut out = String::new();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{script}: {r:?}");
        for m in &r.messages {
            let _ = writeln!(out, "{} {}", m.code, m.text);
            for f in &m.fields {
                let _ = writeln!(out, "  {}={}", f.key, f.value.clone().unwrap_or_default());
            }
        }
        for l in &r.script {
            let _ = writeln!(out, "{l}");
        }
    }
    out
}

/// The channels' synchronisation queue: applications may not open it, so the test reads it
/// through the queue manager's own internal connection, embedded, once the server is gone.
const SYNCQ: &str = "SYSTEM.CHANNEL.SYNCQ";

/// The definitions (`DUMP QMGR`, without the tokens for channel attributes added since the
/// fixture was made, all at their empty defaults) and every local queue but [`SYNCQ`], its
/// messages browsed in delivery order.
fn dump(ep: &str) -> (String, std::collections::BTreeMap<String, String>) {
    let mut c = Connection::connect(ep, "fixture-dump").unwrap();
    let mut defs = String::new();
    // The dump's first lines name the build and the time; the definitions follow.
    // The system AUTHINFO objects, the back-stop CHLAUTH records and the event queues came with
    // security, after the fixture (and the count of definitions dumped with them).
    let text = admin(&mut c, "DUMP QMGR");
    let added_later = |l: &str| {
        l.starts_with("DEFINE AUTHINFO('SYSTEM.DEFAULT.")
            || l.starts_with("SET CHLAUTH(")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.QMGR.EVENT')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.CHANNEL.EVENT')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.PERFM.EVENT')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.COMMAND.EVENT')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.STATISTICS.QUEUE')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.ADMIN.ACCOUNTING.QUEUE')")
            || l.starts_with("DEFINE NAMELIST('SYSTEM.DEFAULT.NAMELIST')")
            || l.starts_with("DEFINE PROCESS('SYSTEM.DEFAULT.PROCESS')")
            || l.starts_with("DEFINE CHANNEL('SYSTEM.DEF.")
            || l.starts_with("DEFINE LISTENER('SYSTEM.DEFAULT.LISTENER.TCP')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.DEFAULT.INITIATION.QUEUE')")
            || l.starts_with("DEFINE QLOCAL('SYSTEM.CHANNEL.INITQ')")
            || l.starts_with("DEFINE QALIAS('SYSTEM.DEFAULT.ALIAS.QUEUE')")
            || l.starts_with("DEFINE QREMOTE('SYSTEM.DEFAULT.REMOTE.QUEUE')")
            || ferry_model::system::TOOL_MODEL_QUEUES
                .iter()
                .any(|q| l.starts_with(&format!("DEFINE QMODEL('{q}')")))
            || ferry_model::system::QUIET_ADMIN_QUEUES
                .iter()
                .any(|q| l.starts_with(&format!("DEFINE QLOCAL('{q}')")))
    };
    let system_authinfos = text.lines().filter(|l| added_later(l)).count();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('*') && !added_later(l))
    {
        let l = match l.strip_prefix("AMQ8500I ").and_then(|r| r.split_once(' ')) {
            Some((n, rest)) => format!(
                "AMQ8500I {} {rest}",
                n.parse::<usize>().unwrap() - system_authinfos
            ),
            None => l.to_owned(),
        };
        let _ = writeln!(defs, "{}", without_new_defaults(&l));
    }
    let list = admin(&mut c, "DISPLAY QLOCAL(*) CURDEPTH");
    let mut queues = std::collections::BTreeMap::new();
    for q in list.lines().filter_map(|l| l.strip_prefix("  QUEUE=")) {
        if q == SYNCQ {
            let e = c.open_queue(q, OpenOptions::browse()).unwrap_err();
            assert_eq!(e.reason, ferry_client::Reason::NotAuthorized, "{e}");
            continue;
        }
        let h = c
            .open_queue(q, OpenOptions::browse().with_inquire())
            .unwrap();
        let mut out = String::new();
        let mut mode = ferry_client::BrowseMode::First;
        loop {
            match c.get(h, &GetOptions::new().browse(mode)) {
                Ok(g) => describe(&mut out, q, &g.message),
                Err(e) if e.reason == ferry_client::Reason::NoMsgAvailable => break,
                Err(e) => panic!("browse {q}: {e}"),
            }
            mode = ferry_client::BrowseMode::Next;
        }
        c.close(h, Default::default()).unwrap();
        queues.insert(q.to_owned(), out);
    }
    c.disconnect().unwrap();
    (defs, queues)
}

/// A definition line without the attributes added after the fixture was made (USERID,
/// PASSWORD, MCAUSER, RQMNAME, and SSLCIPH/SSLPEER on receivers, QMGR CONNAUTH, CHLAUTH,
/// AUTHOREV, CHLEV, MAXDYNQ and MAXDYNQC; PERFMEV and the queue depth event attributes), when they
/// hold their defaults: the line the earlier build wrote.
fn without_new_defaults(line: &str) -> String {
    let mut l = line.to_owned();
    for empty in [
        " USERID('')",
        " PASSWORD('')",
        " MCAUSER('')",
        " RQMNAME('')",
    ] {
        l = l.replace(empty, "");
    }
    if l.contains("CHLTYPE(RCVR)") {
        l = l.replace(" SSLCIPH()", "").replace(" SSLPEER('')", "");
    }
    // QMGR CONNAUTH came with connection authentication, after the fixture; its default.
    l.replace(" CONNAUTH('SYSTEM.DEFAULT.AUTHINFO.IDPWFILE')", "")
        .replace(" CHLAUTH(ENABLED)", "")
        .replace(" AUTHOREV(DISABLED)", "")
        .replace(" CHLEV(DISABLED)", "")
        .replace(" MAXDYNQ(10000) MAXDYNQC(1000)", "")
        .replace(" PERFMEV(DISABLED)", "")
        .replace(" CMDEV(DISABLED)", "")
        .replace(" SCMDSERV(QMGR)", "")
        .replace(" CONGCTL(DEFAULT)", "")
        .replace(
            " NOTRIGGER TRIGTYPE(FIRST) TRIGDPTH(1) TRIGMPRI(0) TRIGDATA('') INITQ(' ') PROCESS(' ')",
            "",
        )
        .replace(
            " QDEPTHHI(80) QDEPTHLO(20) QDPHIEV(DISABLED) QDPLOEV(DISABLED) QDPMAXEV(ENABLED)",
            "",
        )
        .replace(
            " QSVCIEV(NONE) QSVCINT(999999999) STATQ(QMGR) ACCTQ(QMGR)",
            "",
        )
        .replace(
            " STATMQI(OFF) STATQ(OFF) STATINT(1800) ACCTMQI(OFF) ACCTQ(OFF) ACCTINT(1800)",
            "",
        )
}

/// [`SYNCQ`]'s messages, read embedded through the queue manager's internal connection.
fn dump_syncq(qm_dir: &Path) -> String {
    use ferry_core::{GetOptions as G, ObjectDescriptor, OpenOptions as O};
    let (qm, _) = ferry_host::home::open_queue_manager(qm_dir, false).unwrap();
    let mut s = qm.connect_internal("fixture-dump").unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(ObjectName::new(SYNCQ).unwrap()),
            O::browse(),
        )
        .unwrap();
    let mut out = String::new();
    let mut mode = ferry_core::BrowseMode::First;
    loop {
        match s.get(h, &G::new().browse(mode)) {
            Ok(g) => describe(&mut out, SYNCQ, &g.message),
            Err(e) if e.reason == ferry_core::Reason::NoMsgAvailable => break,
            Err(e) => panic!("browse {SYNCQ}: {e}"),
        }
        mode = ferry_core::BrowseMode::Next;
    }
    drop(s);
    qm.stop();
    out
}

fn describe(out: &mut String, q: &str, m: &Message) {
    let d = &m.descriptor;
    let put_ms = d
        .put_time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_millis());
    let _ = writeln!(
        out,
        "{q}: msgid={} correlid={} {:?} {:?} expiry={} type={:?} feedback={} replyto={}@{} \
         format={} ccsid={} encoding={} backout={} put={put_ms} appl={} user={}",
        d.msg_id.to_hex(),
        d.correl_id.to_hex(),
        d.persistence,
        d.priority,
        d.expiry.is_some(),
        d.message_type,
        d.feedback,
        d.reply_to_queue,
        d.reply_to_qmgr,
        d.format.as_str(),
        d.ccsid,
        d.encoding,
        d.backout_count,
        d.put_appl_name.as_str(),
        d.user_id.as_str(),
    );
    for (n, v) in m.properties.iter() {
        let _ = writeln!(out, "    property {n} = {v:?}");
    }
    if let Some(dl) = &m.dead_letter {
        let t = dl
            .put_time
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_millis());
        let _ = writeln!(
            out,
            "    dead letter {:?} {}@{} format={} appl={} time={t}",
            dl.reason,
            dl.dest_queue,
            dl.dest_qmgr,
            dl.original_format.as_str(),
            dl.put_appl_name.as_str()
        );
    }
    if let Some(x) = &m.transmission {
        let _ = writeln!(
            out,
            "    transmission {}@{} id={}",
            x.remote_queue,
            x.remote_qmgr,
            x.xmit_id.to_hex()
        );
    }
    let _ = writeln!(out, "    body {}", hex(&m.body));
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Copies the fixture into `root`, restoring each file's length.
fn unpack(root: &Path) {
    let from = fixture_dir().join("home");
    let sizes = std::fs::read_to_string(fixture_dir().join("sizes.txt")).unwrap();
    for line in sizes.lines() {
        let (rel, len) = line.rsplit_once(' ').unwrap();
        let to = root.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from.join(rel), &to).unwrap();
        let f = std::fs::OpenOptions::new().write(true).open(&to).unwrap();
        f.set_len(len.parse().unwrap()).unwrap();
    }
}

/// Starts the real server on the queue manager under `root` and describes what it recovered.
/// Applications may not open the sync queue: the server is asked for every other queue, and the
/// sync queue is read embedded afterwards, from the same directory.
fn recover_and_dump(root: &Path) -> String {
    let s = Server::start_qm_in(root, QM, &root.join("server.log"), &[]);
    let (mut got, mut queues) = dump(&s.endpoint("unix:"));
    let qm_dir = s.dir();
    drop(s);
    queues.insert(SYNCQ.to_owned(), dump_syncq(&qm_dir));
    for q in queues.values() {
        got.push_str(q);
    }
    got
}

/// System objects today's build defines that the fixture's did not (a queue manager gains them
/// when it starts, as MQ's do on migration): left out of the comparison, count included.
const NEWER_SYSTEM_OBJECTS: &[&str] = &[
    "SYSTEM.NDURABLE.MODEL.QUEUE",
    "SYSTEM.RETAINED.PUB.QUEUE",
    "SYSTEM.BASE.TOPIC",
];

fn without_newer_system_objects(got: &str) -> String {
    let newer = |l: &str| {
        NEWER_SYSTEM_OBJECTS
            .iter()
            .any(|n| l.contains(&format!("('{n}')")))
    };
    let dropped = got.lines().filter(|l| newer(l)).count();
    assert_eq!(
        dropped,
        NEWER_SYSTEM_OBJECTS.len(),
        "today's system objects are all there"
    );
    got.lines()
        .filter(|l| !newer(l))
        .map(|l| match l.strip_prefix("AMQ8500I ") {
            Some(rest) => {
                let (n, tail) = rest.split_once(' ').unwrap();
                let n: usize = n.parse().unwrap();
                format!("AMQ8500I {} {tail}\n", n - dropped)
            }
            None => format!("{l}\n"),
        })
        .collect()
}

#[test]
fn recovers_a_data_directory_written_by_an_earlier_build() {
    let root = std::env::temp_dir().join(format!("ferry-it-fixture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    unpack(&root);
    let got = without_newer_system_objects(&recover_and_dump(&root));
    let want = std::fs::read_to_string(fixture_dir().join("expected.txt")).unwrap();
    if got != want {
        let path = root.join("got.txt");
        std::fs::write(&path, &got).unwrap();
        panic!(
            "the recovered queue manager differs from what the earlier build recovered; \
             compare {} with {}",
            path.display(),
            fixture_dir().join("expected.txt").display()
        );
    }
    assert!(want.contains("FIX.A: "), "the fixture holds messages");
    let _ = std::fs::remove_dir_all(&root);
}

// ----- how the fixture was made ---------------------------------------------------------------

fn rich(i: u32) -> Message {
    let mut m = Message::new(format!(
        "fixture message {i} {}",
        "x".repeat(i as usize * 7)
    ))
    .with_persistence(Persistence::Persistent)
    .with_priority((i % 10) as u8);
    let d = &mut m.descriptor;
    if i.is_multiple_of(3) {
        d.correl_id = CorrelId::from_slice(format!("correl-{i}").as_bytes());
    }
    if i % 4 == 1 {
        d.message_type = MessageType::Request;
        d.reply_to_queue = ObjectName::new("FIX.REPLY").unwrap();
        d.reply_to_qmgr = ObjectName::new("FIX").unwrap();
    }
    if i % 5 == 2 {
        d.expiry = Some(Duration::from_secs(3600 * 24 * 365 * 5));
    }
    d.feedback = i * 3;
    d.format = ferry_model::name::FormatName::truncating("MQSTR");
    d.ccsid = 1208;
    let p = &mut m.properties;
    p.set("i", PropertyValue::I32(i as i32)).unwrap();
    if i.is_multiple_of(2) {
        p.set("name", PropertyValue::String(format!("n{i}")))
            .unwrap();
        p.set("flag", PropertyValue::Bool(i.is_multiple_of(4)))
            .unwrap();
        p.set("big", PropertyValue::I64(-(i as i64) << 40)).unwrap();
        p.set("f", PropertyValue::F64(i as f64 / 3.0)).unwrap();
        p.set("raw", PropertyValue::Bytes(vec![i as u8; 5].into()))
            .unwrap();
        p.set("nothing", PropertyValue::Null).unwrap();
    }
    m
}

fn put_all(c: &mut Connection, q: &str, msgs: impl IntoIterator<Item = Message>, sync: bool) {
    let h = c.open_queue(q, OpenOptions::output()).unwrap();
    for m in msgs {
        let o = if sync {
            PutOptions::syncpoint()
        } else {
            PutOptions::default()
        };
        c.put(h, m, &o).unwrap();
    }
    if sync {
        c.commit().unwrap();
    }
    c.close(h, Default::default()).unwrap();
}

fn channel_message(queue: &str, n: u8) -> Message {
    let mut m =
        Message::text(&format!("over the channel {n}")).with_persistence(Persistence::Persistent);
    m.descriptor.msg_id = MsgId::from_slice(&[0xC7, n]);
    m.transmission = Some(Box::new(ferry_model::message::TransmissionHeader {
        remote_queue: ObjectName::new(queue).unwrap(),
        remote_qmgr: ObjectName::new(QM).unwrap(),
        xmit_id: MsgId::from_slice(&[0xAA, n, 1, 2, 3]),
    }));
    m
}

const DEFINITIONS: &str = "\
DEFINE QLOCAL(FIX.A) MAXDEPTH(1000) DESCR('fixture queue A') BOTHRESH(3) BOQNAME(FIX.BACKOUT)
DEFINE QLOCAL(FIX.B) DEFPSIST(YES) DEFPRTY(3)
DEFINE QLOCAL(FIX.BACKOUT)
DEFINE QLOCAL(FIX.CLEARED)
DEFINE QLOCAL(FIX.DOOMED)
DEFINE QLOCAL(FIX.FIFO) MSGDLVSQ(FIFO)
DEFINE QALIAS(FIX.ALIAS) TARGET(FIX.A)
DEFINE QMODEL(FIX.MODEL) DEFTYPE(PERMDYN)
DEFINE QLOCAL(FIX.XMITQ) USAGE(XMITQ)
DEFINE QREMOTE(FIX.REMOTE) RNAME(FAR.Q) RQMNAME(FAR) XMITQ(FIX.XMITQ)
DEFINE CHANNEL(FIX.TO.FAR) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(FIX.XMITQ)
DEFINE CHANNEL(FAR.TO.FIX) CHLTYPE(RCVR)
DEFINE CHANNEL(FIX.GONE) CHLTYPE(RCVR)
DEFINE LISTENER(FIX.LSR) TRPTYPE(TCP) PORT(1) CONTROL(MANUAL)
";

fn stop(s: &mut Server) {
    let ok = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "stop", QM, "--data-dir"])
        .arg(&s.root)
        .status()
        .unwrap()
        .success();
    assert!(ok, "qm stop");
    let _ = s.child.wait();
}

/// Before the checkpoint: definitions and messages of every shape.
fn phase_one(ep: &str) {
    let mut c = Connection::connect(ep, "fixture-maker").unwrap();
    admin(&mut c, DEFINITIONS);
    put_all(&mut c, "FIX.A", (0..24).map(rich), false);
    put_all(&mut c, "FIX.FIFO", (30..36).map(rich), true);
    put_all(&mut c, "FIX.CLEARED", (40..43).map(rich), false);
    put_all(&mut c, "FIX.DOOMED", (50..52).map(rich), false);
    put_all(&mut c, "FIX.REMOTE", (60..63).map(rich), false);
    put_all(&mut c, "FIX.ALIAS", (70..72).map(rich), true);
    // A get backed out (backout count 1), and one got destructively.
    let h = c.open_queue("FIX.A", OpenOptions::input()).unwrap();
    c.get(h, &GetOptions::new().syncpoint()).unwrap();
    c.backout().unwrap();
    c.get(h, &GetOptions::new()).unwrap();
    c.close(h, Default::default()).unwrap();
    // A channel batch: one delivered, one dead-lettered (no such queue).
    let mut ch = Connection::connect(ep, "fixture-channel").unwrap();
    ch.channel_start(
        "FAR.TO.FIX",
        "FAR",
        ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, 0),
    )
    .unwrap();
    ch.channel_batch(
        1,
        [0; 16],
        &[channel_message("FIX.B", 1), channel_message("NO.SUCH.Q", 2)],
    )
    .unwrap();
    ch.disconnect().unwrap();
    c.disconnect().unwrap();
}

/// After the checkpoint: records to replay, ending with a unit of work in flight.
fn phase_two(ep: &str) -> Connection {
    let mut c = Connection::connect(ep, "fixture-maker-2").unwrap();
    put_all(&mut c, "FIX.B", (100..110).map(rich), true);
    put_all(&mut c, "FIX.A", (110..114).map(rich), false);
    let np = Message::text("not persistent").with_persistence(Persistence::NotPersistent);
    put_all(&mut c, "FIX.B", [np], false);
    let h = c.open_queue("FIX.A", OpenOptions::input()).unwrap();
    c.get(h, &GetOptions::new()).unwrap();
    c.get(h, &GetOptions::new().syncpoint()).unwrap();
    c.commit().unwrap();
    // Backed out to its threshold: moved to FIX.BACKOUT.
    for _ in 0..3 {
        c.get(h, &GetOptions::new().syncpoint()).unwrap();
        c.backout().unwrap();
    }
    c.close(h, Default::default()).unwrap();
    admin(
        &mut c,
        "CLEAR QLOCAL(FIX.CLEARED)\nDELETE QLOCAL(FIX.DOOMED) PURGE\n\
         ALTER QLOCAL(FIX.B) DESCR('altered after the checkpoint') MAXDEPTH(777)\n\
         DEFINE QLOCAL(FIX.NEW) DESCR('defined after the checkpoint')\n\
         DELETE CHANNEL(FIX.GONE)\n\
         DEFINE CHANNEL(FIX.LATE) CHLTYPE(RCVR) DESCR('late')",
    );
    put_all(&mut c, "FIX.NEW", (120..123).map(rich), true);
    let mut ch = Connection::connect(ep, "fixture-channel").unwrap();
    let peer = ch
        .channel_start(
            "FAR.TO.FIX",
            "FAR",
            ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, 1),
        )
        .unwrap();
    assert_eq!(peer.committed.seq, 1);
    ch.channel_batch(2, [0; 16], &[channel_message("FIX.NEW", 3)])
        .unwrap();
    ch.disconnect().unwrap();
    // In flight at the kill: a put and a get in one unit of work.
    let h = c.open_queue("FIX.NEW", OpenOptions::output()).unwrap();
    c.put(h, rich(130), &PutOptions::syncpoint()).unwrap();
    let g = c.open_queue("FIX.B", OpenOptions::input()).unwrap();
    c.get(g, &GetOptions::new().syncpoint()).unwrap();
    c
}

#[test]
#[ignore = "made the fixture once, with the build its README names"]
fn make_recovery_fixture() {
    let root = std::env::temp_dir().join(format!("ferry-make-fixture-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let ok = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "create", QM, "--data-dir"])
        .arg(&root)
        .status()
        .unwrap()
        .success();
    assert!(ok, "qm create");
    let toml = root.join("qmgrs/FIX/qm.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("extent_mib = 64", "extent_mib = 1");
    std::fs::write(&toml, text).unwrap();
    let log = root.join("server.log");
    let mut s = Server::start_qm_in(&root, QM, &log, &[]);
    phase_one(&s.endpoint("unix:"));
    stop(&mut s);
    let mut s = Server::start_qm_in(&root, QM, &log, &[]);
    let open = phase_two(&s.endpoint("unix:"));
    // Let the logger settle, then kill with the unit of work open.
    std::thread::sleep(Duration::from_millis(200));
    let _ = s.child.kill();
    let _ = s.child.wait();
    drop(open);
    // Keep the directory as the kill left it, with trailing zeros cut.
    let out = fixture_dir();
    let _ = std::fs::remove_dir_all(&out);
    let qm_dir = root.join("qmgrs/FIX");
    let mut sizes = String::new();
    let mut files = Vec::new();
    walk(&qm_dir, &mut files);
    files.sort();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap();
        let name = rel.to_string_lossy();
        if name.ends_with("ferry.lock") || name.ends_with("endpoints") || name.ends_with(".sock") {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        let keep = bytes.iter().rposition(|b| *b != 0).map_or(0, |p| p + 1);
        let to = out.join("home").join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(&to, &bytes[..keep]).unwrap();
        let _ = writeln!(sizes, "{} {}", rel.display(), bytes.len());
    }
    std::fs::write(out.join("sizes.txt"), sizes).unwrap();
    // What this build recovers from it.
    let check = root.join("check");
    unpack(&check);
    let want = recover_and_dump(&check);
    std::fs::write(out.join("expected.txt"), want).unwrap();
    let _ = std::fs::remove_dir_all(&root);
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}
