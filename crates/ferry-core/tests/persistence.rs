//! Persistent messages and definitions through the recovery log: what a restart after a crash
//! must find, checked on memory storage (whose `crash` keeps only synced writes) and swept over
//! every crash point with fault-injecting storage. Queue buffers are tiny here, so most gets read
//! message content back from the log, and checkpoints are taken mid-workload. Fixed seeds run by
//! default; FERRY_CRASH_SEEDS=n runs n seeds (the failing seed and crash point are printed).

use std::collections::BTreeSet;
use std::sync::Arc;

use ferry_core::durable::PersistSettings;
use ferry_core::{
    object_name, CloseOptions, ConnectOptions, CorrelId, GetOptions, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PropertyValue, PutOptions, QmConfig,
    QueueDefinition, QueueManager, Reason, Session, SubRequest,
};
use ferry_log::{Fault, FaultStorage, LogConfig, LogType, MemStorage, RecoveryMode, Storage};

fn config() -> QmConfig {
    let mut c = QmConfig::new("QMP").unwrap();
    c.dev_queues = true;
    c
}

/// Small extents, a circular log, a queue buffer of about three messages, and checkpoints only
/// when a test asks for one.
fn settings() -> PersistSettings {
    PersistSettings {
        log: LogConfig {
            extent_size: 8 * 1024,
            buffer_size: 1 << 20,
            log_type: LogType::Circular,
            max_extents: 0,
            preallocate: false,
        },
        queue_buffer: 2000,
        checkpoint_bytes: 1 << 40,
    }
}

/// One process's view of a simulated disk. A test "kills" a queue manager by forgetting it, which
/// leaves its logger and checkpoint threads running; a killed process's threads can no longer
/// write, so after [`ProcessView::kill`] every call fails, and the disk then loses whatever was
/// not synced. Without it a forgotten logger could still land its last records in the next
/// run's log.
#[derive(Debug)]
struct ProcessView {
    disk: Arc<MemStorage>,
    dead: std::sync::RwLock<bool>,
}

impl ProcessView {
    fn new(disk: &Arc<MemStorage>) -> Arc<ProcessView> {
        Arc::new(ProcessView {
            disk: disk.clone(),
            dead: std::sync::RwLock::new(false),
        })
    }

    /// The process dies: its threads are cut off from the disk, then unsynced writes are lost.
    fn kill(&self) {
        *self.dead.write().unwrap() = true;
        self.disk.crash();
    }

    fn alive<T>(&self, op: impl FnOnce(&MemStorage) -> std::io::Result<T>) -> std::io::Result<T> {
        let dead = self.dead.read().unwrap();
        if *dead {
            return Err(std::io::Error::other("the process is dead"));
        }
        op(&self.disk)
    }
}

impl Storage for ProcessView {
    fn list(&self) -> std::io::Result<Vec<String>> {
        self.alive(|d| d.list())
    }
    fn len(&self, name: &str) -> std::io::Result<u64> {
        self.alive(|d| d.len(name))
    }
    fn create(&self, name: &str) -> std::io::Result<()> {
        self.alive(|d| d.create(name))
    }
    fn write_at(&self, name: &str, offset: u64, data: &[u8]) -> std::io::Result<()> {
        self.alive(|d| d.write_at(name, offset, data))
    }
    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        self.alive(|d| d.read_at(name, offset, buf))
    }
    fn sync(&self, name: &str) -> std::io::Result<()> {
        self.alive(|d| d.sync(name))
    }
    fn remove(&self, name: &str) -> std::io::Result<()> {
        self.alive(|d| d.remove(name))
    }
    fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        self.alive(|d| d.rename(from, to))
    }
}

fn open(storage: Arc<dyn Storage>) -> QueueManager {
    QueueManager::open_persistent(config(), storage, settings(), RecoveryMode::Strict)
        .unwrap()
        .0
}

fn session(qm: &QueueManager) -> Session {
    qm.connect(&ConnectOptions::app("persist")).unwrap()
}

fn persistent(text: &str) -> Message {
    Message::text(text).with_persistence(Persistence::Persistent)
}

fn drain(qm: &QueueManager, queue: &str) -> Vec<(String, u32)> {
    let mut s = session(qm);
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name(queue).unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let mut out = Vec::new();
    loop {
        match s.get(h, &GetOptions::new()) {
            Ok(g) => out.push((
                String::from_utf8(g.message.body.to_vec()).unwrap(),
                g.message.descriptor.backout_count,
            )),
            Err(e) if e.reason == Reason::NoMsgAvailable => return out,
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn acknowledged_persistent_work_survives_a_crash_and_nothing_else_does() {
    let storage = Arc::new(MemStorage::new());
    {
        let qm = open(storage.clone());
        // HARDENBO: the backout count of "b" below is exact across the crash.
        let QueueDefinition::Local(mut attrs) = qm.definition("DEV.QUEUE.1").unwrap() else {
            panic!("DEV.QUEUE.1 is a local queue")
        };
        attrs.harden_backout = true;
        qm.define_queue("DEV.QUEUE.1", QueueDefinition::Local(attrs), true)
            .unwrap();
        let mut s = session(&qm);
        let h = s
            .open(
                &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
                OpenOptions::output().with_input(),
            )
            .unwrap();
        for t in ["a", "b", "c"] {
            s.put(h, persistent(t), &PutOptions::default()).unwrap();
        }
        s.put(h, Message::text("not persistent"), &PutOptions::default())
            .unwrap();
        s.put(h, persistent("uncommitted"), &PutOptions::syncpoint())
            .unwrap();
        // A destructive get of "a" returned: it must never come back.
        assert_eq!(
            &s.get(h, &GetOptions::new()).unwrap().message.body[..],
            b"a"
        );
        // "b" is got inside a unit of work that never commits.
        let mut other = session(&qm);
        let oh = other
            .open(
                &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
                OpenOptions::input(),
            )
            .unwrap();
        assert_eq!(
            &other
                .get(oh, &GetOptions::new().syncpoint())
                .unwrap()
                .message
                .body[..],
            b"b"
        );
        std::mem::forget(other); // the application dies mid-unit-of-work
        std::mem::forget(s);
        drop(qm);
    }
    storage.crash();
    let qm = open(storage);
    // b returns (its get was never committed) with its backout count raised; c is intact; the
    // non-persistent and the uncommitted messages are gone.
    assert_eq!(
        drain(&qm, "DEV.QUEUE.1"),
        vec![("b".to_owned(), 1), ("c".to_owned(), 0)]
    );
}

#[test]
fn committed_units_of_work_and_definitions_survive_restarts() {
    let storage = Arc::new(MemStorage::new());
    {
        let qm = open(storage.clone());
        let attrs = LocalQueueAttrs {
            max_depth: 7,
            def_persistence: Persistence::Persistent,
            ..Default::default()
        };
        qm.define_queue("APP.ORDERS", QueueDefinition::Local(attrs), false)
            .unwrap();
        qm.define_queue(
            "APP.GONE",
            QueueDefinition::Local(LocalQueueAttrs::default()),
            false,
        )
        .unwrap();
        qm.delete_queue("APP.GONE", false).unwrap();
        qm.alter_local("APP.ORDERS", |a| a.description = "orders".into())
            .unwrap();
        let mut s = session(&qm);
        let h = s
            .open(
                &ObjectDescriptor::queue(object_name("APP.ORDERS").unwrap()),
                OpenOptions::output(),
            )
            .unwrap();
        for i in 0..5 {
            // DEFPSIST(YES): "as queue default" is persistent.
            s.put(
                h,
                Message::text(&format!("order {i}")),
                &PutOptions::syncpoint(),
            )
            .unwrap();
        }
        s.commit().unwrap();
        std::mem::forget(s);
    }
    storage.crash();
    let qm = open(storage.clone());
    let a = qm.local_attrs("APP.ORDERS").unwrap();
    assert_eq!((a.max_depth, a.description.as_str()), (7, "orders"));
    assert_eq!(
        qm.local_attrs("APP.GONE").unwrap_err().reason,
        Reason::UnknownObjectName
    );
    // Order is kept, and new messages after the restart queue behind the old ones.
    let mut s = session(&qm);
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("APP.ORDERS").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    s.put(h, Message::text("order 5"), &PutOptions::default())
        .unwrap();
    s.disconnect().unwrap();
    let got: Vec<String> = drain(&qm, "APP.ORDERS")
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(
        got,
        (0..6).map(|i| format!("order {i}")).collect::<Vec<_>>()
    );
    drop(qm);
    // Gets are durable too: a third start finds the queue empty.
    storage.crash();
    let qm = open(storage);
    assert!(drain(&qm, "APP.ORDERS").is_empty());
}

#[test]
fn a_unit_of_work_backed_out_at_one_restart_stays_backed_out_at_the_next() {
    // Units of work after a restart must not reuse the ids of those in the log: the second
    // replay would otherwise join the new unit's commit to the old unit's records.
    let disk = Arc::new(MemStorage::new());
    let queue = || ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap());
    {
        let run = ProcessView::new(&disk);
        let qm = open(run.clone());
        let mut s = session(&qm);
        let h = s
            .open(&queue(), OpenOptions::output().with_input())
            .unwrap();
        s.put(h, persistent("kept"), &PutOptions::default())
            .unwrap();
        // Unit of work 1 gets "kept" and puts "phantom", then the process dies.
        s.get(h, &GetOptions::new().syncpoint()).unwrap();
        s.put(h, persistent("phantom"), &PutOptions::syncpoint())
            .unwrap();
        // The process dies: nothing runs on the way out.
        std::mem::forget(s);
        std::mem::forget(qm);
        run.kill();
    }
    {
        let run = ProcessView::new(&disk);
        let qm = open(run.clone());
        let mut s = session(&qm);
        let h = s.open(&queue(), OpenOptions::output()).unwrap();
        s.put(h, persistent("new"), &PutOptions::syncpoint())
            .unwrap();
        s.commit().unwrap();
        // The process dies: nothing runs on the way out.
        std::mem::forget(s);
        std::mem::forget(qm);
        run.kill();
    }
    let qm = open(disk);
    let got: Vec<String> = drain(&qm, "DEV.QUEUE.1")
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(got, vec!["kept".to_owned(), "new".to_owned()]);
}

/// A workload chosen by `seed`: puts in and out of syncpoint, gets, gets backed out, puts
/// backed out, and checkpoints. Records in `acked` what the queue manager acknowledged.
fn run_workload(storage: Arc<dyn Storage>, seed: u64, acked: &mut Model) {
    let qm =
        match QueueManager::open_persistent(config(), storage, settings(), RecoveryMode::Strict) {
            Ok((qm, _)) => qm,
            Err(e) => {
                eprintln!("DEBUG open {e}");
                return;
            }
        };
    let mut s = session(&qm);
    let Ok(h) = s.open(
        &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
        OpenOptions::output().with_input(),
    ) else {
        return;
    };
    let mut rng = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as u32
    };
    // Bodies of a few hundred bytes: the log spans several extents and the queue buffer holds
    // only a few messages.
    let body = |text: &str| format!("{text}|{}", "x".repeat(400));
    let name = |got: &ferry_core::Got| {
        let b = String::from_utf8(got.message.body.to_vec()).unwrap();
        b.split('|').next().unwrap().to_owned()
    };
    for i in 0..40u32 {
        let text = format!("m{i}");
        match next() % 10 {
            0..=3 => {
                acked.maybe.insert(text.clone());
                if s.put(h, persistent(&body(&text)), &PutOptions::default())
                    .is_err()
                {
                    break;
                }
                acked.maybe.remove(&text);
                acked.present.insert(text);
            }
            4 => {
                // A put and a get in one unit of work.
                acked.maybe.insert(text.clone());
                if s.put(h, persistent(&body(&text)), &PutOptions::syncpoint())
                    .is_err()
                {
                    break;
                }
                // (On an empty queue the get finds nothing: its own put is not yet visible.)
                let got = match s.get(h, &GetOptions::new().syncpoint()) {
                    Ok(g) => Some(name(&g)),
                    Err(e) if e.reason == Reason::NoMsgAvailable => None,
                    Err(_) => break,
                };
                if let Some(got) = &got {
                    // Until the commit returns, the crash may land before or after it.
                    acked.present.remove(got);
                    acked.maybe.insert(got.clone());
                }
                if s.commit().is_err() {
                    if let Some(got) = got {
                        acked.unit_in_doubt = Some((text, got));
                    }
                    break;
                }
                acked.maybe.remove(&text);
                acked.present.insert(text);
                if let Some(got) = got {
                    acked.maybe.remove(&got);
                    acked.present.remove(&got);
                    acked.gone.insert(got);
                }
            }
            5 | 6 => {
                let g = match s.get(h, &GetOptions::new()) {
                    Ok(g) => g,
                    Err(e) if e.reason == Reason::NoMsgAvailable => continue,
                    Err(_) => {
                        // The crash came during a get outside syncpoint: its record may have
                        // reached the disk though the get never returned, so the message it
                        // was taking (the oldest: the queue is FIFO and backed-out gets keep
                        // their place) may be gone. The contract covers gets that returned.
                        let index = |m: &String| m[1..].parse::<u32>().unwrap();
                        if let Some(head) = acked.present.iter().min_by_key(|m| index(m)).cloned() {
                            acked.present.remove(&head);
                            acked.maybe.insert(head);
                        }
                        break;
                    }
                };
                let got = name(&g);
                acked.present.remove(&got);
                acked.gone.insert(got);
            }
            7 => {
                // A get backed out: the message stays.
                match s.get(h, &GetOptions::new().syncpoint()) {
                    Ok(_) => {}
                    Err(e) if e.reason == Reason::NoMsgAvailable => continue,
                    Err(_) => break,
                }
                if s.backout().is_err() {
                    break;
                }
            }
            8 => {
                // A put backed out: it never existed.
                if s.put(h, persistent(&body(&text)), &PutOptions::syncpoint())
                    .is_err()
                    || s.backout().is_err()
                {
                    break;
                }
                acked.gone.insert(text);
            }
            _ => {
                if qm.checkpoint().is_err() {
                    break;
                }
            }
        }
    }
    std::mem::forget(s);
    drop(qm);
}

#[derive(Default, Debug)]
struct Model {
    /// Acknowledged and not (acknowledged) got: must be there exactly once.
    present: BTreeSet<String>,
    /// Acknowledged got: must not be there.
    gone: BTreeSet<String>,
    /// Interrupted by the crash: may or may not be there.
    maybe: BTreeSet<String>,
    /// A unit of work (the message it put, the message it got) whose commit the crash
    /// interrupted: all of it or none of it, so exactly one of the two is there.
    unit_in_doubt: Option<(String, String)>,
}

fn sweep(seed: u64) {
    let dry = Arc::new(FaultStorage::new(u64::MAX, Fault::Lost));
    run_workload(dry.clone(), seed, &mut Model::default());
    let writes = dry.writes();
    assert!(
        writes > 20,
        "seed {seed}: the workload made only {writes} writes"
    );
    for k in 0..writes {
        for fault in [Fault::Lost, Fault::Partial, Fault::ZeroedTail] {
            let at = format!("seed {seed}, crash at write {k} ({fault:?})");
            let storage = Arc::new(FaultStorage::new(k, fault));
            let mut model = Model::default();
            run_workload(storage.clone(), seed, &mut model);
            let after: Arc<dyn Storage> = Arc::new(storage.after_crash());
            let (qm, _) =
                QueueManager::open_persistent(config(), after, settings(), RecoveryMode::Strict)
                    .unwrap_or_else(|e| panic!("{at}: restart refused: {e}"));
            let found: Vec<String> = drain(&qm, "DEV.QUEUE.1")
                .into_iter()
                .map(|(t, _)| t.split('|').next().unwrap().to_owned())
                .collect();
            let set: BTreeSet<String> = found.iter().cloned().collect();
            assert_eq!(
                set.len(),
                found.len(),
                "{at}: a message came back twice: {found:?}"
            );
            for m in &model.present {
                assert!(
                    set.contains(m),
                    "{at}: acknowledged {m} lost; found {found:?}"
                );
            }
            if let Some((put, got)) = &model.unit_in_doubt {
                assert!(
                    set.contains(put) != set.contains(got),
                    "{at}: half a unit of work survived (put {put}, got {got}): {found:?}"
                );
            }
            for m in &model.gone {
                assert!(!set.contains(m), "{at}: {m} was got but came back");
            }
            for m in &set {
                assert!(
                    model.present.contains(m) || model.maybe.contains(m),
                    "{at}: {m} appeared from nowhere"
                );
            }
        }
    }
}

#[test]
fn every_crash_point_of_a_persistent_workload_keeps_the_contract() {
    let seeds: u64 = std::env::var("FERRY_CRASH_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    for seed in 0..seeds {
        sweep(seed);
    }
}

#[test]
fn channels_listeners_and_remote_queues_survive_restarts_and_checkpoints() {
    use ferry_model::objects::{ChannelAttrs, ChannelType, ListenerAttrs, RemoteQueueAttrs};
    let storage = Arc::new(MemStorage::new());
    {
        let run = ProcessView::new(&storage);
        let qm = open(run.clone());
        let ch = ChannelAttrs {
            channel_type: ChannelType::Sender,
            conn_name: "host(1414)".into(),
            xmit_queue: object_name("QM2").unwrap(),
            ..Default::default()
        };
        qm.define_channel("TO.QM2", ch, false).unwrap();
        qm.define_listener("L1", ListenerAttrs::default(), false)
            .unwrap();
        let rq = RemoteQueueAttrs {
            remote_name: object_name("APP.IN").unwrap(),
            remote_qmgr: object_name("QM2").unwrap(),
            ..Default::default()
        };
        qm.define_queue("APP.REMOTE", QueueDefinition::Remote(rq), false)
            .unwrap();
        let nl = ferry_model::objects::NamelistAttrs {
            names: vec!["APP.IN".into()],
            ..Default::default()
        };
        qm.define_namelist("APP.NL", nl, false).unwrap();
        let pr = ferry_model::objects::ProcessAttrs {
            appl_id: "/opt/app".into(),
            ..Default::default()
        };
        qm.define_process("APP.PROC", pr, false).unwrap();
        qm.checkpoint().unwrap();
        // After the checkpoint: one more, one gone.
        qm.define_listener(
            "L2",
            ListenerAttrs {
                port: 1515,
                ..Default::default()
            },
            false,
        )
        .unwrap();
        qm.delete_listener("L1").unwrap();
        std::mem::forget(qm);
        run.kill();
    }
    let qm = open(storage);
    assert_eq!(qm.channel("TO.QM2").unwrap().conn_name, "host(1414)");
    assert_eq!(qm.listener("L2").unwrap().port, 1515);
    assert_eq!(qm.namelist("APP.NL").unwrap().names.len(), 1);
    assert_eq!(qm.process("APP.PROC").unwrap().appl_id, "/opt/app");
    assert_eq!(
        qm.listener("L1").unwrap_err().reason,
        Reason::UnknownObjectName
    );
    match qm.definition("APP.REMOTE").unwrap() {
        QueueDefinition::Remote(r) => assert_eq!(r.remote_name.as_str(), "APP.IN"),
        other => panic!("{other:?}"),
    }
    // Without a transmission queue there is no route to its queue manager: said clearly.
    let mut s = session(&qm);
    let e = s
        .open(
            &ObjectDescriptor::queue(object_name("APP.REMOTE").unwrap()),
            OpenOptions::output(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::UnknownRemoteQMgr);
    assert!(e.detail.contains("no route"), "{e}");
}

/// Every message on `queue`, browsed in delivery order: body and backout count.
fn browse_all(qm: &QueueManager, queue: &str) -> Vec<(String, u32)> {
    let mut s = session(qm);
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name(queue).unwrap()),
            OpenOptions::browse(),
        )
        .unwrap();
    let mut out = Vec::new();
    let mut opts = GetOptions::new().browse(ferry_core::BrowseMode::First);
    loop {
        match s.get(h, &opts) {
            Ok(g) => out.push((
                String::from_utf8(g.message.body.to_vec()).unwrap(),
                g.message.descriptor.backout_count,
            )),
            Err(e) if e.reason == Reason::NoMsgAvailable => return out,
            Err(e) => panic!("{e}"),
        }
        opts = GetOptions::new().browse(ferry_core::BrowseMode::Next);
    }
}

/// One worker's units of work: each puts to both queues and gets from one, then commits or
/// backs out, so commits and backouts take effect on two queues while checkpoints run.
fn uow_worker(qm: QueueManager, id: usize, rounds: usize) {
    let mut s = session(&qm);
    let open = |s: &mut Session, q: &str| {
        s.open(
            &ObjectDescriptor::queue(object_name(q).unwrap()),
            OpenOptions::output().with_input(),
        )
        .unwrap()
    };
    let (a, b) = (open(&mut s, "CK.A"), open(&mut s, "CK.B"));
    for i in 0..rounds {
        let body = |q: &str| persistent(&format!("{q}-{id}-{i}"));
        s.put(a, body("a"), &PutOptions::syncpoint()).unwrap();
        s.put(b, body("b"), &PutOptions::syncpoint()).unwrap();
        let from = if i % 2 == 0 { a } else { b };
        match s.get(from, &GetOptions::new().syncpoint()) {
            Ok(_) => {}
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) => panic!("{e}"),
        }
        if i % 3 == 2 {
            s.backout().unwrap();
        } else {
            s.commit().unwrap();
        }
    }
    s.disconnect().unwrap();
}

/// Runs three workers (`work(qm, id)`) while another thread takes checkpoints back to back,
/// and checks that some were taken meanwhile: the workers run again (as many rounds more)
/// until three were, so a fast build on a busy machine still overlaps them (up to 30 s).
fn under_checkpoints(qm: &QueueManager, work: fn(QueueManager, usize)) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let taken = Arc::new(AtomicUsize::new(0));
    let checkpointer = {
        let (qm, stop, taken) = (qm.clone(), stop.clone(), taken.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if qm.checkpoint().unwrap().is_some() {
                    taken.fetch_add(1, Ordering::Relaxed);
                }
            }
        })
    };
    let start = std::time::Instant::now();
    loop {
        let workers: Vec<_> = (0..3)
            .map(|id| {
                let qm = qm.clone();
                std::thread::spawn(move || work(qm, id))
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        if taken.load(Ordering::Relaxed) >= 3
            || start.elapsed() > std::time::Duration::from_secs(30)
        {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    checkpointer.join().unwrap();
    let taken = taken.load(Ordering::Relaxed);
    assert!(
        taken >= 3,
        "only {taken} checkpoints were taken during the workload"
    );
}

#[test]
fn checkpoints_taken_while_units_of_work_span_queues_recover_exactly() {
    let storage = Arc::new(MemStorage::new());
    let before;
    {
        let qm = open(storage.clone());
        for q in ["CK.A", "CK.B"] {
            let attrs = LocalQueueAttrs {
                max_depth: 100_000,
                ..LocalQueueAttrs::default()
            };
            qm.define_queue(q, QueueDefinition::Local(attrs), false)
                .unwrap();
        }
        under_checkpoints(&qm, |qm, id| uow_worker(qm, id, 300));
        before = (browse_all(&qm, "CK.A"), browse_all(&qm, "CK.B"));
        assert!(!before.0.is_empty() && !before.1.is_empty());
        drop(qm);
    }
    // Everything was acknowledged, so the crash loses nothing: the restart reads the last
    // checkpoint taken mid-workload and replays the records after it.
    storage.crash();
    let qm = open(storage);
    assert_eq!((browse_all(&qm, "CK.A"), browse_all(&qm, "CK.B")), before);
}

/// One worker's definitions: queues DEF.<id>.<0..4> defined (replacing, with a new MAXDEPTH
/// each time), given a persistent message, altered, and every third round deleted, while
/// checkpoints copy the definitions with the gate released.
fn definition_worker(qm: QueueManager, id: usize, rounds: usize) {
    let mut s = session(&qm);
    for i in 0..rounds {
        let name = format!("DEF.{id}.{}", i % 5);
        let attrs = LocalQueueAttrs {
            max_depth: 1_000 + i,
            ..LocalQueueAttrs::default()
        };
        qm.define_queue(&name, QueueDefinition::Local(attrs), true)
            .unwrap();
        let h = s
            .open(
                &ObjectDescriptor::queue(object_name(&name).unwrap()),
                OpenOptions::output(),
            )
            .unwrap();
        s.put(h, persistent(&format!("{id}.{i}")), &PutOptions::default())
            .unwrap();
        s.close(h, CloseOptions::default()).unwrap();
        qm.alter_local(&name, |a| a.description = format!("round {i}"))
            .unwrap();
        if i % 3 == 2 {
            qm.delete_queue(&name, true).unwrap();
        }
    }
    s.disconnect().unwrap();
}

/// A queue as the definitions test compares it: name, MAXDEPTH, description, messages.
type DefQueue = (String, usize, String, Vec<(String, u32)>);

/// Every DEF.* queue.
fn def_queues(qm: &QueueManager) -> Vec<DefQueue> {
    let mut out: Vec<_> = qm
        .queue_names()
        .into_iter()
        .map(|(n, _)| n.to_string())
        .filter(|n| n.starts_with("DEF."))
        .map(|n| {
            let a = qm.local_attrs(&n).unwrap();
            let msgs = browse_all(qm, &n);
            (n, a.max_depth, a.description, msgs)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn checkpoints_taken_while_queues_are_defined_altered_and_deleted_recover_exactly() {
    let storage = Arc::new(MemStorage::new());
    let before;
    {
        let qm = open(storage.clone());
        under_checkpoints(&qm, |qm, id| definition_worker(qm, id, 200));
        before = def_queues(&qm);
        assert!(before.len() >= 3 && before.iter().any(|q| !q.3.is_empty()));
        drop(qm);
    }
    storage.crash();
    let qm = open(storage);
    assert_eq!(def_queues(&qm), before);
}

// ----- publications to several durable subscriptions: one record --------------------------

/// Three durable subscriptions of `Prices/#`, one on each DEV queue; the second with user data.
fn subscribe_three(qm: &QueueManager) -> ferry_core::MqResult<()> {
    for (i, q) in ["DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"]
        .iter()
        .enumerate()
    {
        qm.subscribe(&SubRequest {
            name: Some(format!("PRICES.{i}")),
            user_data: (i == 1).then(|| "second".to_owned()),
            correl_id: Some(CorrelId::from_slice(format!("CORREL-{i}").as_bytes())),
            ..SubRequest::to_queue("Prices/#", object_name(q).unwrap())
        })?;
    }
    Ok(())
}

fn messages(qm: &QueueManager, queue: &str) -> Vec<Message> {
    let mut s = session(qm);
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name(queue).unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    std::iter::from_fn(|| s.get(h, &GetOptions::new()).ok().map(|g| g.message)).collect()
}

fn label(m: &Message) -> String {
    let b = String::from_utf8(m.body.to_vec()).unwrap();
    b.split('|').next().unwrap().to_owned()
}

#[test]
fn a_persistent_publication_to_several_queues_is_one_record_and_comes_back_whole() {
    let disk = Arc::new(MemStorage::new());
    let body = |t: &str| format!("{t}|{}", "y".repeat(400));
    {
        let run = ProcessView::new(&disk);
        let qm = open(run.clone());
        subscribe_three(&qm).unwrap();
        let mut s = session(&qm);
        let records = || qm.log_status().unwrap().records;
        let before = records();
        let p = s
            .publish(
                "Prices/Fruit/Apple",
                persistent(&body("p0")),
                &PutOptions::default(),
            )
            .unwrap();
        assert_eq!(p.delivered, 3);
        assert_eq!(
            records() - before,
            2,
            "one PUBLISH record and its COMMIT, not a PUT a subscriber"
        );
        s.publish(
            "Prices/Fruit/Pear",
            persistent(&body("p1")),
            &PutOptions::default(),
        )
        .unwrap();
        qm.checkpoint().unwrap();
        s.publish(
            "Prices/Veg",
            persistent(&body("p2")),
            &PutOptions::syncpoint(),
        )
        .unwrap();
        s.commit().unwrap();
        s.publish(
            "Prices/Veg",
            persistent(&body("gone")),
            &PutOptions::syncpoint(),
        )
        .unwrap();
        s.backout().unwrap();
        s.publish(
            "Prices/Veg",
            persistent(&body("p3")),
            &PutOptions::default(),
        )
        .unwrap();
        // One copy got: the others stay.
        let got = messages(&qm, "DEV.QUEUE.2");
        assert_eq!(
            got.iter().map(label).collect::<Vec<_>>(),
            ["p0", "p1", "p2", "p3"]
        );
        std::mem::forget(s);
        std::mem::forget(qm);
        run.kill();
    }
    let qm = open(disk);
    assert!(
        messages(&qm, "DEV.QUEUE.2").is_empty(),
        "its gets were logged"
    );
    for (i, q) in ["DEV.QUEUE.1", "DEV.QUEUE.3"].iter().enumerate() {
        let i = i * 2;
        let got = messages(&qm, q);
        assert_eq!(
            got.iter().map(label).collect::<Vec<_>>(),
            ["p0", "p1", "p2", "p3"],
            "{q}"
        );
        for m in &got {
            assert_eq!(
                m.descriptor.correl_id,
                CorrelId::from_slice(format!("CORREL-{i}").as_bytes())
            );
            assert_eq!(m.descriptor.persistence, Persistence::Persistent);
            assert_eq!(m.properties.get("MQSubUserData"), None);
            assert!(m.properties.get("MQTopicString").is_some());
        }
    }
}

#[test]
fn a_publication_read_back_from_the_log_is_its_subscribers_copy() {
    let disk = Arc::new(MemStorage::new());
    let qm = open(disk.clone());
    subscribe_three(&qm).unwrap();
    let mut s = session(&qm);
    for i in 0..5 {
        s.publish(
            "Prices/Metal",
            persistent(&format!("m{i}|{}", "z".repeat(900))),
            &PutOptions::default(),
        )
        .unwrap();
    }
    drop(s);
    drop(qm);
    // After a restart every copy is read back from the shared record.
    let qm = open(disk);
    let all: Vec<Vec<Message>> = ["DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"]
        .iter()
        .map(|q| messages(&qm, q))
        .collect();
    for (i, got) in all.iter().enumerate() {
        assert_eq!(got.len(), 5);
        for m in got {
            assert_eq!(
                m.descriptor.correl_id,
                CorrelId::from_slice(format!("CORREL-{i}").as_bytes())
            );
            let data = m.properties.get("MQSubUserData");
            match i {
                1 => assert_eq!(data, Some(&PropertyValue::String("second".into()))),
                _ => assert_eq!(data, None),
            }
        }
    }
    let mut ids = BTreeSet::new();
    for m in all.iter().flatten() {
        assert!(ids.insert(m.descriptor.msg_id), "each copy its own msg id");
    }
}

/// Publications in and out of syncpoint, backed out, and checkpoints; `acked` records what
/// was acknowledged.
fn run_pub_workload(storage: Arc<dyn Storage>, seed: u64, acked: &mut Model) {
    let Ok((qm, _)) =
        QueueManager::open_persistent(config(), storage, settings(), RecoveryMode::Strict)
    else {
        return;
    };
    if subscribe_three(&qm).is_err() {
        return;
    }
    acked.present.insert("subscribed".into());
    let mut s = session(&qm);
    let mut rng = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    for i in 0..16u32 {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let text = format!("m{i}");
        let msg = persistent(&format!("{text}|{}", "x".repeat(300)));
        acked.maybe.insert(text.clone());
        let ok = match (rng >> 33) % 4 {
            0 => s.publish("Prices/A", msg, &PutOptions::default()).is_ok(),
            1 => s.publish("Prices/B", msg, &PutOptions::syncpoint()).is_ok() && s.commit().is_ok(),
            2 => {
                if s.publish("Prices/C", msg, &PutOptions::syncpoint())
                    .is_err()
                    || s.backout().is_err()
                {
                    break;
                }
                acked.maybe.remove(&text);
                acked.gone.insert(text);
                continue;
            }
            _ => {
                acked.maybe.remove(&text);
                if qm.checkpoint().is_err() {
                    break;
                }
                continue;
            }
        };
        if !ok {
            break;
        }
        acked.maybe.remove(&text);
        acked.present.insert(text);
    }
    std::mem::forget(s);
    drop(qm);
}

#[test]
fn every_crash_point_of_a_publishing_workload_delivers_to_all_durable_subscriptions_or_none() {
    let seed = 7;
    let dry = Arc::new(FaultStorage::new(u64::MAX, Fault::Lost));
    run_pub_workload(dry.clone(), seed, &mut Model::default());
    let writes = dry.writes();
    assert!(writes > 20, "the workload made only {writes} writes");
    for k in 0..writes {
        for fault in [Fault::Lost, Fault::Partial, Fault::ZeroedTail] {
            let at = format!("crash at write {k} ({fault:?})");
            let storage = Arc::new(FaultStorage::new(k, fault));
            let mut model = Model::default();
            run_pub_workload(storage.clone(), seed, &mut model);
            let after: Arc<dyn Storage> = Arc::new(storage.after_crash());
            let (qm, _) =
                QueueManager::open_persistent(config(), after, settings(), RecoveryMode::Strict)
                    .unwrap_or_else(|e| panic!("{at}: restart refused: {e}"));
            if !model.present.remove("subscribed") {
                continue; // the crash came before the subscriptions were all made
            }
            let found: Vec<Vec<String>> = ["DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"]
                .iter()
                .map(|q| messages(&qm, q).iter().map(label).collect())
                .collect();
            assert!(
                found.iter().all(|f| *f == found[0]),
                "{at}: the subscriptions disagree (every publication goes to all or none): {found:?}"
            );
            let set: BTreeSet<String> = found[0].iter().cloned().collect();
            assert_eq!(
                set.len(),
                found[0].len(),
                "{at}: a copy came back twice: {found:?}"
            );
            for m in &model.present {
                assert!(set.contains(m), "{at}: acknowledged {m} lost: {found:?}");
            }
            for m in &set {
                assert!(
                    model.present.contains(m) || model.maybe.contains(m),
                    "{at}: {m} appeared from nowhere"
                );
            }
            for m in &model.gone {
                assert!(!set.contains(m), "{at}: {m} was backed out but came back");
            }
        }
    }
}

#[test]
fn a_persistent_publication_refused_in_the_callers_unit_of_work_is_logged_nowhere() {
    use ferry_model::topicobj::{DeliveryRule, TopicAttrs};
    let disk = Arc::new(MemStorage::new());
    {
        let run = ProcessView::new(&disk);
        let qm = open(run.clone());
        for (q, depth) in [("ROOMY", 100), ("TINY", 1)] {
            let a = LocalQueueAttrs {
                max_depth: depth,
                ..Default::default()
            };
            qm.define_queue(q, QueueDefinition::Local(a), false)
                .unwrap();
            qm.subscribe(&SubRequest {
                name: Some(format!("S.{q}")),
                ..SubRequest::to_queue("t", object_name(q).unwrap())
            })
            .unwrap();
        }
        let attrs = TopicAttrs {
            topic_string: "t".into(),
            persistent_delivery: Some(DeliveryRule::All),
            use_dlq: Some(false),
            ..TopicAttrs::default()
        };
        qm.define_topic("T", attrs, false).unwrap();
        let mut s = session(&qm);
        s.publish("t", persistent("p0"), &PutOptions::default())
            .unwrap();
        let e = s
            .publish("t", persistent("p1"), &PutOptions::syncpoint())
            .unwrap_err();
        assert_eq!(e.reason, Reason::QFull, "{e}");
        s.commit().unwrap();
        let roomy: Vec<String> = messages(&qm, "ROOMY").iter().map(label).collect();
        assert_eq!(roomy, ["p0"]);
        std::mem::forget(s);
        std::mem::forget(qm);
        run.kill();
    }
    let qm = open(disk);
    let roomy: Vec<String> = messages(&qm, "ROOMY").iter().map(label).collect();
    assert_eq!(roomy, Vec::<String>::new(), "p0 was got; p1 never logged");
    assert_eq!(
        messages(&qm, "TINY").iter().map(label).collect::<Vec<_>>(),
        ["p0"]
    );
}

/// MQSET is kept like ALTER: inhibit flags and trigger attributes set through a handle are
/// there after a restart; an invalid value sets nothing and names its reason.
#[test]
fn mqset_changes_survive_a_restart() {
    let storage = Arc::new(MemStorage::new());
    {
        let run = ProcessView::new(&storage);
        let qm = open(run.clone());
        let mut s = session(&qm);
        let h = s
            .open(
                &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
                OpenOptions::inquire().with_set(),
            )
            .unwrap();
        use ferry_core::{AttrValue, Reason, Selector};
        let e = s
            .set(
                h,
                &[
                    (Selector::InhibitPut, AttrValue::Int(1)),
                    (Selector::TriggerDepth, AttrValue::Int(0)),
                ],
            )
            .unwrap_err();
        assert_eq!(e.reason, Reason::TriggerDepthError);
        assert!(
            !qm.local_attrs("DEV.QUEUE.1").unwrap().put_inhibited,
            "nothing was set"
        );
        s.set(
            h,
            &[
                (Selector::InhibitPut, AttrValue::Int(1)),
                (Selector::TriggerControl, AttrValue::Int(1)),
                (Selector::TriggerDepth, AttrValue::Int(7)),
                (Selector::TriggerType, AttrValue::Int(3)),
            ],
        )
        .unwrap();
        run.kill();
    }
    let qm = open(ProcessView::new(&storage));
    let a = qm.local_attrs("DEV.QUEUE.1").unwrap();
    assert!(a.put_inhibited);
    assert!(a.triggering.control);
    assert_eq!(a.triggering.depth, 7);
    assert_eq!(
        a.triggering.trigger_type,
        ferry_model::objects::TriggerType::Depth
    );
}

/// An unlogged queue (`create_unlogged_queue`, an MQTT clean session's): its definition,
/// its persistent messages (which keep their persistence), their gets, a checkpoint with it in
/// and its deletion add no byte to the log; after a crash it is gone, and the logged work done
/// beside it is all there.
#[test]
fn an_unlogged_queue_writes_nothing_to_the_log_and_is_gone_after_a_crash() {
    let storage = Arc::new(MemStorage::new());
    {
        let qm = open(storage.clone());
        let model = ferry_core::model::system::DURABLE_MODEL_QUEUE;
        let bytes = |qm: &QueueManager| qm.log_status().unwrap().bytes_appended;
        let before = bytes(&qm);
        qm.create_unlogged_queue(model, "SESSION.Q", 7).unwrap();
        let QueueDefinition::Local(a) = qm.definition("SESSION.Q").unwrap() else {
            panic!("SESSION.Q is a local queue")
        };
        assert_eq!(a.max_depth, 7);
        let mut s = session(&qm);
        let h = s
            .open(
                &ObjectDescriptor::queue(object_name("SESSION.Q").unwrap()),
                OpenOptions::output().with_input(),
            )
            .unwrap();
        for t in ["a", "b", "c"] {
            s.put(h, persistent(t), &PutOptions::syncpoint()).unwrap();
        }
        s.commit().unwrap();
        let got = s.get(h, &GetOptions::new().syncpoint()).unwrap();
        assert_eq!(got.message.descriptor.persistence, Persistence::Persistent);
        s.commit().unwrap();
        qm.checkpoint().unwrap();
        let after_checkpoint = bytes(&qm);
        assert_eq!(
            after_checkpoint, before,
            "definition, puts, gets, commits, a checkpoint"
        );
        let mut logged = session(&qm);
        let lh = logged
            .open(
                &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
                OpenOptions::output(),
            )
            .unwrap();
        logged
            .put(lh, persistent("kept"), &PutOptions::default())
            .unwrap();
        assert!(bytes(&qm) > after_checkpoint, "a logged put is logged");
        let mid = bytes(&qm);
        s.put(h, persistent("d"), &PutOptions::default()).unwrap();
        s.close(h, CloseOptions::DeletePurge).unwrap();
        assert_eq!(bytes(&qm), mid, "the unlogged queue's put and deletion");
        qm.create_unlogged_queue(model, "SESSION.Q2", 7).unwrap();
        let h2 = s
            .open(
                &ObjectDescriptor::queue(object_name("SESSION.Q2").unwrap()),
                OpenOptions::output(),
            )
            .unwrap();
        s.put(h2, persistent("e"), &PutOptions::default()).unwrap();
        // Replaced in place it stays unlogged; a durable subscription may not deliver to it.
        let QueueDefinition::Local(mut a2) = qm.definition("SESSION.Q2").unwrap() else {
            panic!("SESSION.Q2 is a local queue")
        };
        a2.max_depth = 9;
        qm.define_queue("SESSION.Q2", QueueDefinition::Local(a2), true)
            .unwrap();
        let sd = ferry_core::SubDescriptor {
            topic: "unlogged/t".into(),
            name: Some("DURABLE.TO.UNLOGGED".into()),
            durable: true,
            ..Default::default()
        };
        let refused = s.subscribe(&sd, Some(h2)).unwrap_err();
        assert_eq!(refused.reason, Reason::InvalidDestination, "{refused}");
        assert_eq!(
            bytes(&qm),
            mid,
            "a second one's definition, put and redefinition"
        );
        std::mem::forget(s);
        std::mem::forget(logged);
        drop(qm);
    }
    storage.crash();
    let qm = open(storage);
    for q in ["SESSION.Q", "SESSION.Q2"] {
        assert_eq!(
            qm.definition(q).unwrap_err().reason,
            Reason::UnknownObjectName,
            "{q}"
        );
    }
    assert_eq!(drain(&qm, "DEV.QUEUE.1"), vec![("kept".to_owned(), 0)]);
}
