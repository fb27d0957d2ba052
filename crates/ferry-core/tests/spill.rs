//! Non-persistent messages beyond the memory budget go to the spill area and come back in
//! order: through a queue manager with a tiny budget and a spill area on in-memory storage.

use std::sync::Arc;

use ferry_core::durable::spill::MessageSpill;
use ferry_core::{
    object_name, BrowseMode, ConnectOptions, CorrelId, GetOptions, Hobj, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PutOptions, QmConfig, QueueDefinition,
    QueueManager, Reason, Session,
};
use ferry_log::{MemStorage, SpillArea};

const BODY: usize = 10_000;

/// A queue manager whose budget holds a few messages of [`BODY`] bytes, with a spill area of
/// `spill_bytes`, and queue Q (MAXDEPTH 100,000).
fn spilling_qm(spill_bytes: u64) -> (QueueManager, Session, Hobj) {
    let mut cfg = QmConfig::new("QM1").unwrap();
    cfg.memory_budget = 4 * (BODY + 1024);
    cfg.dev_queues = false;
    let qm = QueueManager::new(cfg).unwrap();
    let area = SpillArea::open(Arc::new(MemStorage::new()), spill_bytes).unwrap();
    qm.set_spill(Arc::new(MessageSpill::new(area)));
    let a = LocalQueueAttrs {
        max_depth: 100_000,
        ..Default::default()
    };
    qm.define_queue("Q", QueueDefinition::Local(a), false)
        .unwrap();
    let mut s = qm.connect(&ConnectOptions::app("spill")).unwrap();
    let od = ObjectDescriptor::queue(object_name("Q").unwrap());
    let h = s
        .open(
            &od,
            OpenOptions::input()
                .with_output()
                .with_browse()
                .with_inquire(),
        )
        .unwrap();
    (qm, s, h)
}

fn np(i: u32) -> Message {
    let mut body = vec![0u8; BODY];
    body[..4].copy_from_slice(&i.to_le_bytes());
    let mut m = Message::new(body);
    m.descriptor.persistence = Persistence::NotPersistent;
    m
}

fn number(m: &Message) -> u32 {
    u32::from_le_bytes(m.body[..4].try_into().unwrap())
}

fn spilled(qm: &QueueManager) -> u64 {
    qm.spill().unwrap().stats().messages
}

#[test]
fn messages_beyond_the_budget_are_spilled_and_come_back_in_order() {
    let (qm, mut s, h) = spilling_qm(64 << 20);
    for i in 0..200 {
        s.put(h, np(i), &PutOptions::default()).unwrap();
    }
    assert!(spilled(&qm) >= 190, "{} spilled", spilled(&qm));
    assert!(qm.memory_budget().used() <= qm.memory_budget().limit());
    // A browse sees them in order without taking them.
    let first = s
        .get(h, &GetOptions::new().browse(BrowseMode::First))
        .unwrap();
    assert_eq!(number(&first.message), 0);
    for i in 0..200 {
        let g = s.get(h, &GetOptions::new()).unwrap();
        assert_eq!(number(&g.message), i, "delivery order");
        assert_eq!(g.message.body.len(), BODY);
        assert_eq!(g.message.descriptor.persistence, Persistence::NotPersistent);
    }
    assert_eq!(spilled(&qm), 0);
    assert_eq!(
        qm.spill().unwrap().stats().bytes,
        0,
        "an empty area keeps no segment"
    );
}

#[test]
fn a_spilled_message_is_found_by_correl_id_and_priority_still_orders() {
    let (_qm, mut s, h) = spilling_qm(64 << 20);
    for i in 0..20 {
        s.put(h, np(i), &PutOptions::default()).unwrap();
    }
    let mut m = np(100).with_correl_id(CorrelId::from_slice(b"FIND-ME"));
    m.descriptor.priority = ferry_core::Priority::Value(9);
    s.put(h, m, &PutOptions::default()).unwrap();
    let g = s
        .get(
            h,
            &GetOptions::new().correl_id(CorrelId::from_slice(b"FIND-ME")),
        )
        .unwrap();
    assert_eq!(number(&g.message), 100);
    let mut m = np(101);
    m.descriptor.priority = ferry_core::Priority::Value(9);
    s.put(h, m, &PutOptions::default()).unwrap();
    assert_eq!(
        number(&s.get(h, &GetOptions::new()).unwrap().message),
        101,
        "the high-priority spilled message first"
    );
}

#[test]
fn units_of_work_spill_too_and_a_backout_frees_the_area() {
    let (qm, mut s, h) = spilling_qm(64 << 20);
    for i in 0..50 {
        s.put(h, np(i), &PutOptions::syncpoint()).unwrap();
    }
    assert!(spilled(&qm) > 40);
    assert_eq!(
        s.get(h, &GetOptions::new()).unwrap_err().reason,
        Reason::NoMsgAvailable,
        "uncommitted puts are invisible"
    );
    s.backout().unwrap();
    assert_eq!(spilled(&qm), 0, "backed-out puts leave the area");
    for i in 0..50 {
        s.put(h, np(i), &PutOptions::syncpoint()).unwrap();
    }
    s.commit().unwrap();
    // Got in a unit of work and backed out: back in place, backout count raised.
    for i in 0..50 {
        let g = s.get(h, &GetOptions::new().syncpoint()).unwrap();
        assert_eq!(number(&g.message), i);
    }
    s.backout().unwrap();
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        (number(&g.message), g.message.descriptor.backout_count),
        (0, 1)
    );
}

#[test]
fn a_full_spill_area_refuses_with_storage_not_available_and_draining_makes_room() {
    let (qm, mut s, h) = spilling_qm(20 * (BODY as u64 + 512));
    let mut put = 0;
    let e = loop {
        match s.put(h, np(put), &PutOptions::default()) {
            Ok(_) => put += 1,
            Err(e) => break e,
        }
        assert!(put < 1000);
    };
    assert_eq!(e.reason, Reason::StorageNotAvailable, "{e}");
    assert!(e.detail.contains("spill area is full"), "{e}");
    assert!((20..=30).contains(&put), "{put} fitted");
    for i in 0..5 {
        assert_eq!(number(&s.get(h, &GetOptions::new()).unwrap().message), i);
    }
    // The first gets took messages held in memory: room in the budget, not the area.
    s.put(h, np(put), &PutOptions::default()).unwrap();
    let left = (1..)
        .map_while(|_| s.get(h, &GetOptions::new()).ok())
        .map(|g| number(&g.message))
        .collect::<Vec<_>>();
    assert_eq!(left, (5..=put).collect::<Vec<_>>());
    assert_eq!(spilled(&qm), 0);
}

#[test]
fn deleting_or_clearing_a_queue_frees_its_spilled_messages() {
    let (qm, mut s, h) = spilling_qm(64 << 20);
    for i in 0..30 {
        s.put(h, np(i), &PutOptions::default()).unwrap();
    }
    assert!(spilled(&qm) > 20);
    qm.clear_queue("Q").unwrap();
    assert_eq!(spilled(&qm), 0);
    for i in 0..30 {
        s.put(h, np(i), &PutOptions::default()).unwrap();
    }
    s.close(h, ferry_core::CloseOptions::default()).unwrap();
    qm.delete_queue("Q", true).unwrap();
    assert_eq!(spilled(&qm), 0);
}
