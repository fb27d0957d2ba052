//! Behaviour of the queue manager engine through its public API: ordering, matching, browsing,
//! units of work, backout handling, expiry, limits, inhibits, alias/model/dynamic queues,
//! handles, waiting getters, inquire and message context.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use ferry_core::{
    object_name, AliasQueueAttrs, AttrValue, BrowseMode, CloseOptions, ConnectOptions, CorrelId,
    DefinitionType, DeliverySequence, GetOptions, Got, Hobj, LocalQueueAttrs, Message, MqResult,
    MsgId, ObjectDescriptor, OpenOptions, Persistence, Priority, PropertyValue, PutOptions,
    QmConfig, QueueDefinition, QueueManager, Reason, Selector, Session,
};
use ferry_model::clock::Clock;
use ferry_model::message::format;
use ferry_model::name::ObjectName;

// ----- helpers ---------------------------------------------------------------------------------

fn new_qm() -> QueueManager {
    QueueManager::with_name("QM1").unwrap()
}

/// A queue manager whose clock only moves when the test advances the returned counter.
fn manual_qm() -> (QueueManager, Arc<AtomicU64>) {
    let (clock, t) = Clock::manual();
    let mut cfg = QmConfig::new("QM1").unwrap();
    cfg.clock = clock;
    cfg.dev_queues = false;
    (QueueManager::new(cfg).unwrap(), t)
}

fn advance(t: &AtomicU64, nanos: u64) {
    t.fetch_add(nanos, Ordering::Relaxed);
}

fn name(s: &str) -> ObjectName {
    object_name(s).unwrap()
}

fn od(s: &str) -> ObjectDescriptor {
    ObjectDescriptor::queue(name(s))
}

fn connect(qm: &QueueManager) -> Session {
    qm.connect(&ConnectOptions::app("semantics")).unwrap()
}

fn define_local(qm: &QueueManager, q: &str, f: impl FnOnce(&mut LocalQueueAttrs)) {
    let mut a = LocalQueueAttrs::default();
    f(&mut a);
    qm.define_queue(q, QueueDefinition::Local(a), false)
        .unwrap();
}

fn define_alias(
    qm: &QueueManager,
    alias: &str,
    target: &str,
    f: impl FnOnce(&mut AliasQueueAttrs),
) {
    let mut a = AliasQueueAttrs::new(name(target));
    f(&mut a);
    qm.define_queue(alias, QueueDefinition::Alias(a), false)
        .unwrap();
}

fn all_access() -> OpenOptions {
    OpenOptions::input()
        .with_output()
        .with_browse()
        .with_inquire()
}

fn open_all(s: &mut Session, q: &str) -> Hobj {
    s.open(&od(q), all_access()).unwrap()
}

fn put_text(s: &mut Session, h: Hobj, text: &str) -> MsgId {
    s.put(h, Message::text(text), &PutOptions::default())
        .unwrap()
        .msg_id
}

fn put_prio(s: &mut Session, h: Hobj, text: &str, prio: u8) -> MsgId {
    s.put(
        h,
        Message::text(text).with_priority(prio),
        &PutOptions::default(),
    )
    .unwrap()
    .msg_id
}

fn put_correl(s: &mut Session, h: Hobj, text: &str, correl: &[u8]) -> MsgId {
    let m = Message::text(text).with_correl_id(CorrelId::from_slice(correl));
    s.put(h, m, &PutOptions::default()).unwrap().msg_id
}

fn text(g: &Got) -> String {
    String::from_utf8(g.message.body.to_vec()).unwrap()
}

fn get_text(s: &mut Session, h: Hobj, opts: &GetOptions) -> MqResult<String> {
    s.get(h, opts).map(|g| text(&g))
}

fn reason<T: std::fmt::Debug>(r: MqResult<T>) -> Reason {
    r.expect_err("expected the call to fail").reason
}

/// Gets everything left on the handle's queue, in delivery order.
fn drain(s: &mut Session, h: Hobj) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        match s.get(h, &GetOptions::new()) {
            Ok(g) => out.push(text(&g)),
            Err(e) => {
                assert_eq!(e.reason, Reason::NoMsgAvailable, "{e}");
                return out;
            }
        }
        assert!(out.len() < 10_000, "queue never drained");
    }
}

fn depth(qm: &QueueManager, q: &str) -> usize {
    qm.queue_status(q).unwrap().depth
}

/// Waits (bounded) until `n` getters are registered as waiting on `q`.
fn wait_for_waiters(qm: &QueueManager, q: &str, n: usize) {
    let until = Instant::now() + Duration::from_secs(20);
    while qm.queue_status(q).unwrap().waiting_getters < n {
        assert!(
            Instant::now() < until,
            "{n} getters never started waiting on {q}"
        );
        thread::sleep(Duration::from_millis(1));
    }
}

fn int(v: i64) -> AttrValue {
    AttrValue::Int(v)
}

fn string(v: &str) -> AttrValue {
    AttrValue::Str(v.to_owned())
}

// ----- ordering and matching -------------------------------------------------------------------

#[test]
fn priority_order_with_fifo_within_a_priority() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_prio(&mut s, h, "p1-a", 1);
    put_prio(&mut s, h, "p5-a", 5);
    put_prio(&mut s, h, "p1-b", 1);
    put_prio(&mut s, h, "p9-a", 9);
    put_prio(&mut s, h, "p5-b", 5);
    put_prio(&mut s, h, "p0-a", 0);
    put_prio(&mut s, h, "p5-c", 5);
    assert_eq!(
        drain(&mut s, h),
        ["p9-a", "p5-a", "p5-b", "p5-c", "p1-a", "p1-b", "p0-a"]
    );
}

#[test]
fn default_priority_comes_from_the_queue() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.def_priority = 4);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let out = s
        .put(h, Message::text("default"), &PutOptions::default())
        .unwrap();
    assert_eq!(out.priority, 4);
    put_prio(&mut s, h, "three", 3);
    put_prio(&mut s, h, "five", 5);
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "five");
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "default");
    assert_eq!(g.message.descriptor.priority, Priority::Value(4));
}

#[test]
fn fifo_delivery_sequence_ignores_priority() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.delivery_sequence = DeliverySequence::Fifo);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_prio(&mut s, h, "a", 1);
    put_prio(&mut s, h, "b", 9);
    put_prio(&mut s, h, "c", 0);
    put_prio(&mut s, h, "d", 5);
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "a");
    assert_eq!(
        g.message.descriptor.priority,
        Priority::Value(1),
        "priority is kept on the message"
    );
    assert_eq!(drain(&mut s, h), ["b", "c", "d"]);
}

#[test]
fn altering_delivery_sequence_reorders_stored_messages() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_prio(&mut s, h, "a", 1);
    put_prio(&mut s, h, "b", 9);
    put_prio(&mut s, h, "c", 5);
    qm.alter_local("Q", |a| a.delivery_sequence = DeliverySequence::Fifo)
        .unwrap();
    assert_eq!(get_text(&mut s, h, &GetOptions::new()).unwrap(), "a");
    qm.alter_local("Q", |a| a.delivery_sequence = DeliverySequence::Priority)
        .unwrap();
    assert_eq!(drain(&mut s, h), ["b", "c"]);
}

#[test]
fn get_by_correl_id_skips_older_messages() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_correl(&mut s, h, "x1", b"X");
    put_correl(&mut s, h, "y1", b"Y");
    put_correl(&mut s, h, "x2", b"X");
    put_text(&mut s, h, "none");
    let y = GetOptions::new().correl_id(CorrelId::from_slice(b"Y"));
    let g = s.get(h, &y).unwrap();
    assert_eq!(text(&g), "y1");
    assert_eq!(g.message.descriptor.correl_id, CorrelId::from_slice(b"Y"));
    assert_eq!(reason(s.get(h, &y)), Reason::NoMsgAvailable);
    let x = GetOptions::new().correl_id(CorrelId::from_slice(b"X"));
    assert_eq!(get_text(&mut s, h, &x).unwrap(), "x1");
    // Matching "no correl id" finds only messages without one.
    let none = GetOptions::new().correl_id(CorrelId::NONE);
    assert_eq!(get_text(&mut s, h, &none).unwrap(), "none");
    assert_eq!(reason(s.get(h, &none)), Reason::NoMsgAvailable);
    assert_eq!(drain(&mut s, h), ["x2"]);
}

#[test]
fn get_by_correl_id_takes_the_highest_priority_match() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    for (t, p) in [("x-low", 1), ("x-high", 7), ("x-high-2", 7)] {
        let m = Message::text(t)
            .with_priority(p)
            .with_correl_id(CorrelId::from_slice(b"X"));
        s.put(h, m, &PutOptions::default()).unwrap();
    }
    let x = GetOptions::new().correl_id(CorrelId::from_slice(b"X"));
    assert_eq!(get_text(&mut s, h, &x).unwrap(), "x-high");
    assert_eq!(get_text(&mut s, h, &x).unwrap(), "x-high-2");
    assert_eq!(get_text(&mut s, h, &x).unwrap(), "x-low");
}

#[test]
fn get_by_msg_id_finds_only_that_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let _a = put_text(&mut s, h, "a");
    let b = put_text(&mut s, h, "b");
    let _c = put_text(&mut s, h, "c");
    let by_b = GetOptions::new().msg_id(b);
    let g = s.get(h, &by_b).unwrap();
    assert_eq!(text(&g), "b");
    assert_eq!(g.message.descriptor.msg_id, b);
    assert_eq!(reason(s.get(h, &by_b)), Reason::NoMsgAvailable);
    let unknown = GetOptions::new().msg_id(MsgId::from_slice(b"no such id"));
    assert_eq!(reason(s.get(h, &unknown)), Reason::NoMsgAvailable);
    assert_eq!(drain(&mut s, h), ["a", "c"]);
}

#[test]
fn get_by_msg_id_and_correl_id_needs_both_to_match() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let a = put_correl(&mut s, h, "a", b"X");
    let b = put_correl(&mut s, h, "b", b"Y");
    let x = CorrelId::from_slice(b"X");
    let y = CorrelId::from_slice(b"Y");
    assert_eq!(
        reason(s.get(h, &GetOptions::new().msg_id(a).correl_id(y))),
        Reason::NoMsgAvailable
    );
    assert_eq!(
        reason(s.get(h, &GetOptions::new().msg_id(b).correl_id(x))),
        Reason::NoMsgAvailable
    );
    assert_eq!(
        get_text(&mut s, h, &GetOptions::new().msg_id(b).correl_id(y)).unwrap(),
        "b"
    );
    assert_eq!(
        get_text(&mut s, h, &GetOptions::new().msg_id(a).correl_id(x)).unwrap(),
        "a"
    );
    assert_eq!(depth(&qm, "Q"), 0);
}

#[test]
fn new_msg_id_and_new_correl_id_generate_unique_ids() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let mut msg_ids = std::collections::HashSet::new();
    let mut correl_ids = std::collections::HashSet::new();
    for i in 0..50 {
        let out = s
            .put(
                h,
                Message::text(&i.to_string()),
                &PutOptions::default().with_new_correl_id(),
            )
            .unwrap();
        assert!(!out.msg_id.is_none());
        assert!(!out.correl_id.is_none());
        assert!(msg_ids.insert(out.msg_id), "msg id repeated");
        assert!(correl_ids.insert(out.correl_id), "correl id repeated");
    }
    // A supplied msg id is kept unless NEW_MSG_ID is asked for.
    let mine = MsgId::from_slice(b"my-own-id");
    let mut m = Message::text("mine");
    m.descriptor.msg_id = mine;
    assert_eq!(
        s.put(h, m.clone(), &PutOptions::default()).unwrap().msg_id,
        mine
    );
    let fresh = s
        .put(h, m, &PutOptions::default().with_new_msg_id())
        .unwrap()
        .msg_id;
    assert_ne!(fresh, mine);
    assert!(msg_ids.insert(fresh));
    // Without NEW_CORREL_ID the correl id stays as given (none).
    assert!(s
        .put(h, Message::text("plain"), &PutOptions::default())
        .unwrap()
        .correl_id
        .is_none());
    // The ids the put reported are the ids the getter sees.
    let first = s.get(h, &GetOptions::new()).unwrap();
    assert!(msg_ids.contains(&first.message.descriptor.msg_id));
    assert!(correl_ids.contains(&first.message.descriptor.correl_id));
}

// ----- browsing ----------------------------------------------------------------------------------

#[test]
fn browse_first_and_next_walk_the_queue_without_removing() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_prio(&mut s, h, "low", 1);
    put_prio(&mut s, h, "high", 8);
    put_prio(&mut s, h, "mid", 4);
    let first = GetOptions::new().browse(BrowseMode::First);
    let next = GetOptions::new().browse(BrowseMode::Next);
    assert_eq!(get_text(&mut s, h, &first).unwrap(), "high");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "mid");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "low");
    assert_eq!(reason(s.get(h, &next)), Reason::NoMsgAvailable);
    assert_eq!(depth(&qm, "Q"), 3);
    // Browse first starts over.
    assert_eq!(get_text(&mut s, h, &first).unwrap(), "high");
    // A message put behind the cursor in delivery order is seen; one ahead of it is not.
    put_prio(&mut s, h, "mid-2", 4);
    put_prio(&mut s, h, "top", 9);
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "mid");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "mid-2");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "low");
    assert_eq!(reason(s.get(h, &next)), Reason::NoMsgAvailable);
    assert_eq!(drain(&mut s, h), ["top", "high", "mid", "mid-2", "low"]);
}

#[test]
fn browse_next_without_a_cursor_starts_at_the_first_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    let next = GetOptions::new().browse(BrowseMode::Next);
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "a");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "b");
}

#[test]
fn browse_cursors_are_per_handle() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h1 = open_all(&mut s, "Q");
    let h2 = s.open(&od("Q"), OpenOptions::browse()).unwrap();
    put_text(&mut s, h1, "a");
    put_text(&mut s, h1, "b");
    let next = GetOptions::new().browse(BrowseMode::Next);
    assert_eq!(get_text(&mut s, h1, &next).unwrap(), "a");
    assert_eq!(get_text(&mut s, h1, &next).unwrap(), "b");
    assert_eq!(get_text(&mut s, h2, &next).unwrap(), "a");
}

#[test]
fn browse_with_match_only_sees_matching_messages() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_correl(&mut s, h, "x1", b"X");
    put_correl(&mut s, h, "y1", b"Y");
    put_correl(&mut s, h, "x2", b"X");
    let x = CorrelId::from_slice(b"X");
    let first = GetOptions::new().browse(BrowseMode::First).correl_id(x);
    let next = GetOptions::new().browse(BrowseMode::Next).correl_id(x);
    assert_eq!(get_text(&mut s, h, &first).unwrap(), "x1");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "x2");
    assert_eq!(reason(s.get(h, &next)), Reason::NoMsgAvailable);
}

#[test]
fn get_under_cursor_removes_the_browsed_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    put_text(&mut s, h, "c");
    let next = GetOptions::new().browse(BrowseMode::Next);
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "a");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "b");
    let under = GetOptions::new().browse(BrowseMode::GetUnderCursor);
    assert_eq!(get_text(&mut s, h, &under).unwrap(), "b");
    // The message is gone: a second get under the cursor fails, browsing continues after it.
    assert_eq!(reason(s.get(h, &under)), Reason::NoMsgUnderCursor);
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "c");
    assert_eq!(drain(&mut s, h), ["a", "c"]);
}

#[test]
fn get_under_cursor_in_syncpoint_is_restored_on_backout() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    let next = GetOptions::new().browse(BrowseMode::Next);
    get_text(&mut s, h, &next).unwrap();
    get_text(&mut s, h, &next).unwrap();
    let under = GetOptions::new()
        .browse(BrowseMode::GetUnderCursor)
        .syncpoint();
    assert_eq!(get_text(&mut s, h, &under).unwrap(), "b");
    assert_eq!(s.uow_len(), 1);
    s.backout().unwrap();
    let g = s
        .get(h, &GetOptions::new().browse(BrowseMode::UnderCursor))
        .unwrap();
    assert_eq!(text(&g), "b");
    assert_eq!(g.message.descriptor.backout_count, 1);
    assert_eq!(drain(&mut s, h), ["a", "b"]);
}

#[test]
fn browse_under_cursor_rereads_the_same_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let under = GetOptions::new().browse(BrowseMode::UnderCursor);
    assert_eq!(reason(s.get(h, &under)), Reason::NoMsgUnderCursor);
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    let next = GetOptions::new().browse(BrowseMode::Next);
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "a");
    assert_eq!(get_text(&mut s, h, &under).unwrap(), "a");
    assert_eq!(get_text(&mut s, h, &under).unwrap(), "a");
    assert_eq!(get_text(&mut s, h, &next).unwrap(), "b");
    // Once someone else takes it, the cursor's message is no longer there to browse.
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    let g = other.get(h2, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "a");
    let g = other.get(h2, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "b");
    assert_eq!(reason(s.get(h, &under)), Reason::NoMsgUnderCursor);
}

#[test]
fn get_under_cursor_without_a_cursor_fails() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    let under = GetOptions::new().browse(BrowseMode::GetUnderCursor);
    assert_eq!(reason(s.get(h, &under)), Reason::NoMsgUnderCursor);
    assert_eq!(depth(&qm, "Q"), 1);
}

#[test]
fn browse_does_not_see_uncommitted_puts_or_gets() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "committed");
    s.put(h, Message::text("pending"), &PutOptions::syncpoint())
        .unwrap();
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    let first = GetOptions::new().browse(BrowseMode::First);
    assert_eq!(get_text(&mut other, h2, &first).unwrap(), "committed");
    assert_eq!(
        reason(other.get(h2, &GetOptions::new().browse(BrowseMode::Next))),
        Reason::NoMsgAvailable
    );
    get_text(&mut other, h2, &GetOptions::new().syncpoint()).unwrap();
    assert_eq!(reason(s.get(h, &first)), Reason::NoMsgAvailable);
}

#[test]
fn waiting_browse_is_woken_by_a_put_and_leaves_the_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let browser = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::browse()).unwrap();
        let opts = GetOptions::new()
            .browse(BrowseMode::First)
            .wait(Duration::from_secs(20));
        get_text(&mut s, h, &opts)
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "seen");
    assert_eq!(browser.join().unwrap().unwrap(), "seen");
    assert_eq!(drain(&mut s, h), ["seen"]);
}

// ----- units of work -----------------------------------------------------------------------------

#[test]
fn syncpoint_puts_are_invisible_until_commit() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    s.put(h, Message::text("a"), &PutOptions::syncpoint())
        .unwrap();
    s.put(h, Message::text("b"), &PutOptions::syncpoint())
        .unwrap();
    assert_eq!(s.uow_len(), 2);
    let st = qm.queue_status("Q").unwrap();
    assert_eq!((st.depth, st.available, st.uncommitted), (2, 0, 2));
    assert_eq!(
        reason(other.get(h2, &GetOptions::new())),
        Reason::NoMsgAvailable
    );
    assert_eq!(reason(s.get(h, &GetOptions::new())), Reason::NoMsgAvailable);
    s.commit().unwrap();
    assert_eq!(s.uow_len(), 0);
    assert_eq!(drain(&mut other, h2), ["a", "b"]);
}

#[test]
fn syncpoint_puts_are_discarded_on_backout() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "outside");
    s.put(h, Message::text("inside"), &PutOptions::syncpoint())
        .unwrap();
    s.backout().unwrap();
    assert_eq!(depth(&qm, "Q"), 1);
    assert_eq!(drain(&mut s, h), ["outside"]);
}

#[test]
fn syncpoint_gets_are_restored_in_original_position_on_backout() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    for t in ["a", "b", "c", "d"] {
        put_text(&mut s, h, t);
    }
    let sp = GetOptions::new().syncpoint();
    let g = s.get(h, &sp).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("a", 0)
    );
    let b = s.get(h, &sp).unwrap();
    assert_eq!(text(&b), "b");
    // Another connection sees only what is not in the unit of work.
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    let first = GetOptions::new().browse(BrowseMode::First);
    assert_eq!(get_text(&mut other, h2, &first).unwrap(), "c");
    assert_eq!(depth(&qm, "Q"), 4);
    s.backout().unwrap();
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("a", 1)
    );
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("b", 1)
    );
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("c", 0)
    );
}

#[test]
fn backout_count_grows_with_each_backout() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    for expected in 0..5 {
        let g = s.get(h, &GetOptions::new().syncpoint()).unwrap();
        assert_eq!(g.message.descriptor.backout_count, expected);
        s.backout().unwrap();
    }
    let g = s.get(h, &GetOptions::new().syncpoint()).unwrap();
    assert_eq!(g.message.descriptor.backout_count, 5);
    s.commit().unwrap();
    assert_eq!(depth(&qm, "Q"), 0);
}

#[test]
fn committed_syncpoint_get_removes_the_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    assert_eq!(
        get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap(),
        "a"
    );
    s.commit().unwrap();
    s.backout().unwrap();
    assert_eq!(drain(&mut s, h), ["b"]);
}

#[test]
fn backed_out_get_stays_gettable_while_another_getter_waits() {
    // A getter waiting for a correl id that is not on the queue makes the queue pass every
    // restored or committed message through the waiter lists; each must stay gettable, in its
    // place, wherever it sits in the queue.
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let qm2 = qm.clone();
    let waiter = thread::spawn(move || {
        let mut w = connect(&qm2);
        let wh = w.open(&od("Q"), OpenOptions::input()).unwrap();
        let opts = GetOptions::new()
            .correl_id(CorrelId::from_slice(b"LATER"))
            .wait(Duration::from_secs(30));
        get_text(&mut w, wh, &opts)
    });
    wait_for_waiters(&qm, "Q", 1);
    let names = ["a", "b", "c", "d", "e"];
    for k in 0..names.len() {
        // A get in syncpoint, backed out.
        let ids: Vec<MsgId> = names.iter().map(|t| put_text(&mut s, h, t)).collect();
        assert_eq!(
            get_text(&mut s, h, &GetOptions::new().msg_id(ids[k]).syncpoint()).unwrap(),
            names[k]
        );
        s.backout().unwrap();
        let g = s.get(h, &GetOptions::new().msg_id(ids[k])).unwrap();
        assert_eq!(
            (text(&g).as_str(), g.message.descriptor.backout_count),
            (names[k], 1),
            "k={k}"
        );
        let mut rest: Vec<&str> = names.to_vec();
        rest.remove(k);
        assert_eq!(drain(&mut s, h), rest, "k={k}");
        // A put in syncpoint, committed between others.
        for (i, t) in names.iter().enumerate() {
            let opts = if i == k {
                PutOptions::syncpoint()
            } else {
                PutOptions::default()
            };
            s.put(h, Message::text(t), &opts).unwrap();
        }
        s.commit().unwrap();
        assert_eq!(drain(&mut s, h), names, "k={k}");
        assert_eq!(depth(&qm, "Q"), 0, "k={k}");
    }
    put_correl(&mut s, h, "later", b"LATER");
    assert_eq!(waiter.join().unwrap().unwrap(), "later");
}

#[test]
fn backout_hands_a_restored_message_to_a_waiting_getter() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "only");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    let qm2 = qm.clone();
    let waiter = thread::spawn(move || {
        let mut w = connect(&qm2);
        let wh = w.open(&od("Q"), OpenOptions::input()).unwrap();
        w.get(wh, &GetOptions::new().wait(Duration::from_secs(20)))
            .map(|g| (text(&g), g.message.descriptor.backout_count))
    });
    wait_for_waiters(&qm, "Q", 1);
    s.backout().unwrap();
    assert_eq!(waiter.join().unwrap().unwrap(), ("only".to_owned(), 1));
    assert_eq!(depth(&qm, "Q"), 0);
}

#[test]
fn maxumsgs_limits_the_unit_of_work() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    qm.alter_attrs(|a| a.max_uncommitted_msgs = 3).unwrap();
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "committed");
    s.get(h, &GetOptions::new().syncpoint()).unwrap();
    s.put(h, Message::text("a"), &PutOptions::syncpoint())
        .unwrap();
    s.put(h, Message::text("b"), &PutOptions::syncpoint())
        .unwrap();
    let e = s
        .put(h, Message::text("c"), &PutOptions::syncpoint())
        .unwrap_err();
    assert_eq!(e.reason, Reason::SyncpointLimitReached);
    assert_eq!(e.reason.code(), 2024);
    assert!(e.detail.contains('3'), "{e}");
    // Outside syncpoint is not limited.
    put_text(&mut s, h, "outside");
    assert_eq!(
        reason(s.get(h, &GetOptions::new().syncpoint())),
        Reason::SyncpointLimitReached
    );
    s.commit().unwrap();
    s.put(h, Message::text("c"), &PutOptions::syncpoint())
        .unwrap();
    s.commit().unwrap();
    assert_eq!(drain(&mut s, h), ["a", "b", "outside", "c"]);
}

#[test]
fn disconnect_commits_the_unit_of_work() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "to-get");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    s.put(h, Message::text("to-put"), &PutOptions::syncpoint())
        .unwrap();
    s.disconnect().unwrap();
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    assert_eq!(drain(&mut other, h2), ["to-put"]);
}

#[test]
fn dropping_a_session_backs_out_its_unit_of_work() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "to-get");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    s.put(h, Message::text("to-put"), &PutOptions::syncpoint())
        .unwrap();
    drop(s);
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    let g = other.get(h2, &GetOptions::new()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("to-get", 1)
    );
    assert_eq!(
        reason(other.get(h2, &GetOptions::new())),
        Reason::NoMsgAvailable
    );
}

#[test]
fn abandoning_a_session_backs_out_its_unit_of_work() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "x");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    s.abandon();
    let mut other = connect(&qm);
    let h2 = open_all(&mut other, "Q");
    assert_eq!(drain(&mut other, h2), ["x"]);
}

#[test]
fn disconnect_releases_handles_and_the_connection() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let id = s.connection_id();
    s.open(&od("Q"), OpenOptions::input_exclusive().with_output())
        .unwrap();
    assert!(qm.connections().iter().any(|c| c.id == id));
    let st = qm.queue_status("Q").unwrap();
    assert_eq!((st.open_input, st.open_output), (1, 1));
    s.disconnect().unwrap();
    assert!(!qm.connections().iter().any(|c| c.id == id));
    let st = qm.queue_status("Q").unwrap();
    assert_eq!((st.open_input, st.open_output), (0, 0));
    // The exclusive hold ended with the connection.
    let mut other = connect(&qm);
    other
        .open(&od("Q"), OpenOptions::input_exclusive())
        .unwrap();
}

// ----- backout threshold -------------------------------------------------------------------------

#[test]
fn backout_threshold_moves_the_message_to_boqname() {
    let qm = new_qm();
    define_local(&qm, "Q.BOQ", |_| {});
    define_local(&qm, "Q", |a| {
        a.backout_threshold = 2;
        a.backout_requeue_name = name("Q.BOQ");
    });
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let id = s
        .put(
            h,
            Message::text("poison").with_priority(6),
            &PutOptions::default(),
        )
        .unwrap()
        .msg_id;
    put_text(&mut s, h, "fine");
    let g = s.get(h, &GetOptions::new().syncpoint()).unwrap();
    assert_eq!(text(&g), "poison");
    s.backout().unwrap();
    let g = s.get(h, &GetOptions::new().syncpoint()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("poison", 1)
    );
    s.backout().unwrap();
    assert_eq!(drain(&mut s, h), ["fine"]);
    let boq = open_all(&mut s, "Q.BOQ");
    let g = s.get(boq, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "poison");
    assert_eq!(g.message.descriptor.backout_count, 2);
    assert_eq!(g.message.descriptor.msg_id, id);
    assert_eq!(g.message.descriptor.priority, Priority::Value(6));
    assert!(g.message.dead_letter.is_none());
    assert_eq!(depth(&qm, system_dlq()), 0);
}

fn system_dlq() -> &'static str {
    ferry_model::system::DEAD_LETTER_QUEUE
}

#[test]
fn backout_threshold_without_boqname_dead_letters_with_a_header() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.backout_threshold = 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "poison");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    s.backout().unwrap();
    assert_eq!(depth(&qm, "Q"), 0);
    let dlq = open_all(&mut s, system_dlq());
    let g = s.get(dlq, &GetOptions::new()).unwrap();
    assert_eq!(text(&g), "poison");
    let dlh = g
        .message
        .dead_letter
        .as_deref()
        .expect("dead-letter header");
    assert_eq!(dlh.reason, Reason::BackoutThresholdReached);
    assert_eq!(dlh.dest_queue, name("Q"));
    assert_eq!(dlh.dest_qmgr, name("QM1"));
    assert_eq!(dlh.original_format, format::name(format::STRING));
    assert_eq!(
        g.message.descriptor.format,
        format::name(format::DEAD_LETTER)
    );
    assert_eq!(g.message.descriptor.backout_count, 1);
}

#[test]
fn backout_threshold_with_an_unusable_boqname_falls_back_to_the_dead_letter_queue() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| {
        a.backout_threshold = 1;
        a.backout_requeue_name = name("NO.SUCH.QUEUE");
    });
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "poison");
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    s.backout().unwrap();
    let dlq = open_all(&mut s, system_dlq());
    let g = s.get(dlq, &GetOptions::new()).unwrap();
    assert_eq!(
        g.message.dead_letter.as_deref().unwrap().dest_queue,
        name("Q")
    );
}

#[test]
fn poison_message_stays_in_place_when_no_queue_accepts_it() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.backout_threshold = 1);
    qm.alter_attrs(|a| a.dead_letter_queue = ObjectName::EMPTY)
        .unwrap();
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let names = ["a", "b", "c", "d", "e"];
    for k in 0..names.len() {
        let ids: Vec<MsgId> = names.iter().map(|t| put_text(&mut s, h, t)).collect();
        assert_eq!(
            get_text(&mut s, h, &GetOptions::new().msg_id(ids[k]).syncpoint()).unwrap(),
            names[k]
        );
        s.backout().unwrap();
        assert_eq!(depth(&qm, "Q"), names.len(), "k={k}");
        let first = GetOptions::new().browse(BrowseMode::First);
        assert_eq!(get_text(&mut s, h, &first).unwrap(), "a", "k={k}");
        let g = s.get(h, &GetOptions::new().msg_id(ids[k])).unwrap();
        assert_eq!(g.message.descriptor.backout_count, 1, "k={k}");
        let mut rest: Vec<&str> = names.to_vec();
        rest.remove(k);
        assert_eq!(drain(&mut s, h), rest, "k={k}");
    }
}

// ----- expiry ------------------------------------------------------------------------------------

#[test]
fn expired_messages_are_never_delivered() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let short = Message::text("short").with_expiry(Duration::from_nanos(100));
    let short_id = s
        .put(
            h,
            short.with_correl_id(CorrelId::from_slice(b"X")),
            &PutOptions::default(),
        )
        .unwrap()
        .msg_id;
    s.put(
        h,
        Message::text("long").with_expiry(Duration::from_nanos(1000)),
        &PutOptions::default(),
    )
    .unwrap();
    put_text(&mut s, h, "forever");
    advance(&t, 99);
    assert_eq!(
        get_text(&mut s, h, &GetOptions::new().browse(BrowseMode::First)).unwrap(),
        "short"
    );
    advance(&t, 1);
    assert_eq!(
        get_text(&mut s, h, &GetOptions::new().browse(BrowseMode::First)).unwrap(),
        "long"
    );
    assert_eq!(
        reason(s.get(h, &GetOptions::new().msg_id(short_id))),
        Reason::NoMsgAvailable
    );
    let x = GetOptions::new().correl_id(CorrelId::from_slice(b"X"));
    assert_eq!(reason(s.get(h, &x)), Reason::NoMsgAvailable);
    advance(&t, 1000);
    assert_eq!(drain(&mut s, h), ["forever"]);
    let st = qm.queue_status("Q").unwrap();
    assert_eq!(st.depth, 0);
    assert_eq!(st.expired, 2);
}

#[test]
fn got_message_reports_the_expiry_left() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    s.put(
        h,
        Message::text("a").with_expiry(Duration::from_nanos(1000)),
        &PutOptions::default(),
    )
    .unwrap();
    put_text(&mut s, h, "b");
    advance(&t, 400);
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(g.message.descriptor.expiry, Some(Duration::from_nanos(600)));
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(g.message.descriptor.expiry, None);
}

#[test]
fn expired_messages_do_not_block_maxdepth() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |a| a.max_depth = 2);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    for i in 0..2 {
        let m = Message::text(&format!("old{i}")).with_expiry(Duration::from_nanos(10));
        s.put(h, m, &PutOptions::default()).unwrap();
    }
    assert_eq!(
        reason(s.put(h, Message::text("early"), &PutOptions::default())),
        Reason::QFull
    );
    advance(&t, 10);
    put_text(&mut s, h, "new1");
    put_text(&mut s, h, "new2");
    assert_eq!(
        reason(s.put(h, Message::text("too many"), &PutOptions::default())),
        Reason::QFull
    );
    assert_eq!(drain(&mut s, h), ["new1", "new2"]);
}

#[test]
fn zero_expiry_is_refused() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let m = Message::text("x").with_expiry(Duration::ZERO);
    assert_eq!(
        reason(s.put(h, m, &PutOptions::default())),
        Reason::ExpiryError
    );
}

#[test]
fn expired_message_got_in_syncpoint_is_discarded_on_backout() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |a| {
        a.backout_threshold = 1;
    });
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    s.put(
        h,
        Message::text("a").with_expiry(Duration::from_nanos(50)),
        &PutOptions::default(),
    )
    .unwrap();
    get_text(&mut s, h, &GetOptions::new().syncpoint()).unwrap();
    advance(&t, 50);
    s.backout().unwrap();
    assert_eq!(depth(&qm, "Q"), 0);
    assert_eq!(
        depth(&qm, system_dlq()),
        0,
        "an expired message is discarded, not dead-lettered"
    );
}

#[test]
fn moving_a_poison_message_does_not_restart_its_expiry() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q.BOQ", |_| {});
    define_local(&qm, "TO.BOQ", |a| {
        a.backout_threshold = 1;
        a.backout_requeue_name = name("Q.BOQ");
    });
    define_local(&qm, "TO.DLQ", |a| a.backout_threshold = 1);
    let mut s = connect(&qm);
    for q in ["TO.BOQ", "TO.DLQ"] {
        let h = open_all(&mut s, q);
        s.put(
            h,
            Message::text(q).with_expiry(Duration::from_nanos(100)),
            &PutOptions::default(),
        )
        .unwrap();
    }
    let hb = open_all(&mut s, "TO.BOQ");
    let hd = open_all(&mut s, "TO.DLQ");
    advance(&t, 60);
    get_text(&mut s, hb, &GetOptions::new().syncpoint()).unwrap();
    get_text(&mut s, hd, &GetOptions::new().syncpoint()).unwrap();
    s.backout().unwrap();
    let boq = open_all(&mut s, "Q.BOQ");
    let dlq = open_all(&mut s, system_dlq());
    let browse = GetOptions::new().browse(BrowseMode::First);
    assert_eq!(
        s.get(boq, &browse).unwrap().message.descriptor.expiry,
        Some(Duration::from_nanos(40))
    );
    assert_eq!(
        s.get(dlq, &browse).unwrap().message.descriptor.expiry,
        Some(Duration::from_nanos(40))
    );
    advance(&t, 40);
    assert_eq!(
        reason(s.get(boq, &GetOptions::new())),
        Reason::NoMsgAvailable
    );
    assert_eq!(
        reason(s.get(dlq, &GetOptions::new())),
        Reason::NoMsgAvailable
    );
}

#[test]
fn committed_put_that_expired_is_not_handed_to_a_waiting_getter() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    s.put(
        h,
        Message::text("stale").with_expiry(Duration::from_nanos(10)),
        &PutOptions::syncpoint(),
    )
    .unwrap();
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut g = connect(&qm2);
        let gh = g.open(&od("Q"), OpenOptions::input()).unwrap();
        get_text(&mut g, gh, &GetOptions::new().wait(Duration::from_secs(20)))
    });
    wait_for_waiters(&qm, "Q", 1);
    advance(&t, 10);
    s.commit().unwrap();
    put_text(&mut s, h, "fresh");
    assert_eq!(getter.join().unwrap().unwrap(), "fresh");
    assert_eq!(depth(&qm, "Q"), 0);
}

#[test]
fn sweep_discards_expired_messages() {
    let (qm, t) = manual_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    for _ in 0..3 {
        s.put(
            h,
            Message::text("e").with_expiry(Duration::from_nanos(5)),
            &PutOptions::default(),
        )
        .unwrap();
    }
    put_text(&mut s, h, "keep");
    assert_eq!(qm.sweep_expired(), 0);
    advance(&t, 5);
    assert_eq!(qm.sweep_expired(), 3);
    assert_eq!(depth(&qm, "Q"), 1);
}

// ----- limits ------------------------------------------------------------------------------------

#[test]
fn queue_full_names_the_queue_and_maxdepth() {
    let qm = new_qm();
    define_local(&qm, "APP.IN", |a| a.max_depth = 3);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "APP.IN");
    put_text(&mut s, h, "1");
    s.put(h, Message::text("2"), &PutOptions::syncpoint())
        .unwrap();
    put_text(&mut s, h, "3");
    let e = s
        .put(h, Message::text("4"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::QFull);
    assert_eq!(e.reason.code(), 2053);
    assert!(e.detail.contains("APP.IN"), "{e}");
    assert!(e.detail.contains("MAXDEPTH 3"), "{e}");
    // A message got in syncpoint still counts until commit.
    s.get(h, &GetOptions::new().syncpoint()).unwrap();
    assert_eq!(
        reason(s.put(h, Message::text("4"), &PutOptions::default())),
        Reason::QFull
    );
    s.commit().unwrap();
    put_text(&mut s, h, "4");
}

#[test]
fn message_too_big_for_queue_is_refused() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.max_msg_length = 10);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "0123456789");
    let e = s
        .put(h, Message::text("0123456789A"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::MsgTooBigForQ);
    assert_eq!(e.reason.code(), 2030);
    assert!(e.detail.contains("MAXMSGL(10)"), "{e}");
    // Properties count against MAXMSGL too.
    let mut m = Message::text("01234");
    m.properties
        .set("colour", PropertyValue::String("blue".into()))
        .unwrap();
    assert_eq!(
        reason(s.put(h, m, &PutOptions::default())),
        Reason::MsgTooBigForQ
    );
    assert_eq!(depth(&qm, "Q"), 1);
}

#[test]
fn message_too_big_for_queue_manager_is_refused() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    qm.alter_attrs(|a| a.max_msg_length = 100).unwrap();
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    s.put(h, Message::new(vec![0u8; 100]), &PutOptions::default())
        .unwrap();
    let e = s
        .put(h, Message::new(vec![0u8; 101]), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::MsgTooBigForQMgr);
    assert_eq!(e.reason.code(), 2031);
    let e = s
        .put1(
            &od("Q"),
            Message::new(vec![0u8; 101]),
            &PutOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::MsgTooBigForQMgr);
}

#[test]
fn priority_above_nine_is_put_as_nine_with_a_warning() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_prio(&mut s, h, "nine", 9);
    let out = s
        .put(
            h,
            Message::text("too-high").with_priority(42),
            &PutOptions::default(),
        )
        .unwrap();
    assert_eq!(out.priority, 9);
    assert_eq!(out.warning, Some(Reason::PriorityExceedsMaximum));
    assert_eq!(Reason::PriorityExceedsMaximum.code(), 2049);
    let ok = s
        .put(
            h,
            Message::text("fine").with_priority(9),
            &PutOptions::default(),
        )
        .unwrap();
    assert_eq!(ok.warning, None);
    let g = s.get(h, &GetOptions::new().msg_id(out.msg_id)).unwrap();
    assert_eq!(g.message.descriptor.priority, Priority::Value(9));
    assert_eq!(drain(&mut s, h), ["nine", "fine"]);
}

#[test]
fn request_without_reply_to_queue_is_refused() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let mut m = Message::text("req");
    m.descriptor.message_type = ferry_core::MessageType::Request;
    let e = s.put(h, m, &PutOptions::default()).unwrap_err();
    assert_eq!(e.reason, Reason::MissingReplyToQ);
    assert_eq!(e.reason.code(), 2027);
    let ok = Message::text("req").with_reply_to(name("Q"));
    s.put(h, ok, &PutOptions::default()).unwrap();
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        g.message.descriptor.message_type,
        ferry_core::MessageType::Request
    );
    assert_eq!(g.message.descriptor.reply_to_queue, name("Q"));
}

// ----- inhibits ----------------------------------------------------------------------------------

#[test]
fn put_and_get_inhibited_via_alter() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    qm.alter_local("Q", |a| a.put_inhibited = true).unwrap();
    let e = s
        .put(h, Message::text("b"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::PutInhibited);
    assert_eq!(e.reason.code(), 2051);
    assert_eq!(
        reason(s.put1(&od("Q"), Message::text("b"), &PutOptions::default())),
        Reason::PutInhibited
    );
    qm.alter_local("Q", |a| a.get_inhibited = true).unwrap();
    let e = s.get(h, &GetOptions::new()).unwrap_err();
    assert_eq!(e.reason, Reason::GetInhibited);
    assert_eq!(e.reason.code(), 2016);
    qm.alter_local("Q", |a| {
        a.get_inhibited = false;
        a.put_inhibited = false;
    })
    .unwrap();
    put_text(&mut s, h, "b");
    assert_eq!(drain(&mut s, h), ["a", "b"]);
}

#[test]
fn put_and_get_inhibited_via_set() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let hs = s.open(&od("Q"), OpenOptions::inquire().with_set()).unwrap();
    put_text(&mut s, h, "a");
    s.set(
        hs,
        &[
            (Selector::InhibitPut, int(1)),
            (Selector::InhibitGet, int(1)),
        ],
    )
    .unwrap();
    assert_eq!(
        s.inquire(hs, &[Selector::InhibitPut, Selector::InhibitGet])
            .unwrap(),
        [int(1), int(1)]
    );
    assert!(qm.local_attrs("Q").unwrap().put_inhibited);
    assert_eq!(
        reason(s.put(h, Message::text("b"), &PutOptions::default())),
        Reason::PutInhibited
    );
    assert_eq!(reason(s.get(h, &GetOptions::new())), Reason::GetInhibited);
    s.set(
        hs,
        &[
            (Selector::InhibitPut, int(0)),
            (Selector::InhibitGet, int(0)),
        ],
    )
    .unwrap();
    put_text(&mut s, h, "b");
    assert_eq!(drain(&mut s, h), ["a", "b"]);
}

#[test]
fn set_checks_handle_selector_and_value() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = s.open(&od("Q"), OpenOptions::inquire()).unwrap();
    assert_eq!(
        reason(s.set(h, &[(Selector::InhibitPut, int(1))])),
        Reason::NotOpenForSet
    );
    let hs = s.open(&od("Q"), OpenOptions::inquire().with_set()).unwrap();
    assert_eq!(
        reason(s.set(hs, &[(Selector::InhibitPut, int(2))])),
        Reason::InhibitValueError
    );
    assert_eq!(
        reason(s.set(hs, &[(Selector::InhibitGet, string("yes"))])),
        Reason::InhibitValueError
    );
    assert_eq!(
        reason(s.set(hs, &[(Selector::MaxDepth, int(1))])),
        Reason::SelectorError
    );
    // A refused set changes nothing, not even the valid entries before the bad one.
    assert_eq!(
        reason(s.set(
            hs,
            &[(Selector::InhibitPut, int(1)), (Selector::MaxDepth, int(1))]
        )),
        Reason::SelectorError
    );
    assert!(!qm.local_attrs("Q").unwrap().put_inhibited);
}

#[test]
fn alias_inhibit_flags_apply_only_through_the_alias() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    define_alias(&qm, "Q.ALIAS", "Q", |a| {
        a.put_inhibited = true;
        a.get_inhibited = true;
    });
    let mut s = connect(&qm);
    let ha = open_all(&mut s, "Q.ALIAS");
    let hq = open_all(&mut s, "Q");
    assert_eq!(
        reason(s.put(ha, Message::text("x"), &PutOptions::default())),
        Reason::PutInhibited
    );
    assert_eq!(
        reason(s.put1(&od("Q.ALIAS"), Message::text("x"), &PutOptions::default())),
        Reason::PutInhibited
    );
    put_text(&mut s, hq, "direct");
    assert_eq!(reason(s.get(ha, &GetOptions::new())), Reason::GetInhibited);
    // Browsing through the alias is still allowed.
    assert_eq!(
        get_text(&mut s, ha, &GetOptions::new().browse(BrowseMode::First)).unwrap(),
        "direct"
    );
    // Enable through the alias with set(); the alias's flags change, the target's do not.
    let hs = s
        .open(&od("Q.ALIAS"), OpenOptions::inquire().with_set())
        .unwrap();
    s.set(
        hs,
        &[
            (Selector::InhibitPut, int(0)),
            (Selector::InhibitGet, int(0)),
        ],
    )
    .unwrap();
    put_text(&mut s, ha, "via-alias");
    assert_eq!(drain(&mut s, ha), ["direct", "via-alias"]);
    s.set(hs, &[(Selector::InhibitGet, int(1))]).unwrap();
    assert_eq!(reason(s.get(ha, &GetOptions::new())), Reason::GetInhibited);
    let local = qm.local_attrs("Q").unwrap();
    assert!(!local.get_inhibited && !local.put_inhibited);
    // ALTER QALIAS reaches handles already open through it.
    qm.alter_alias("Q.ALIAS", |a| a.put_inhibited = true)
        .unwrap();
    assert_eq!(
        reason(s.put(ha, Message::text("x"), &PutOptions::default())),
        Reason::PutInhibited
    );
    // The target's own flags also apply through the alias.
    qm.alter_alias("Q.ALIAS", |a| {
        a.put_inhibited = false;
        a.get_inhibited = false;
    })
    .unwrap();
    qm.alter_local("Q", |a| a.put_inhibited = true).unwrap();
    assert_eq!(
        reason(s.put(ha, Message::text("x"), &PutOptions::default())),
        Reason::PutInhibited
    );
}

#[test]
fn waiting_get_ends_at_once_when_gets_are_inhibited_with_set() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        s.get(h, &GetOptions::new().wait_unlimited())
            .map(|g| text(&g))
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let hs = s.open(&od("Q"), OpenOptions::inquire().with_set()).unwrap();
    s.set(hs, &[(Selector::InhibitGet, int(1))]).unwrap();
    assert_eq!(
        getter.join().unwrap().unwrap_err().reason,
        Reason::GetInhibited
    );
}

#[test]
fn waiting_get_ends_at_once_when_gets_are_inhibited_with_alter() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        s.get(
            h,
            &GetOptions::new()
                .correl_id(CorrelId::from_slice(b"C"))
                .wait(Duration::from_secs(60)),
        )
        .map(|g| text(&g))
    });
    wait_for_waiters(&qm, "Q", 1);
    let started = Instant::now();
    qm.alter_local("Q", |a| a.get_inhibited = true).unwrap();
    assert_eq!(
        getter.join().unwrap().unwrap_err().reason,
        Reason::GetInhibited
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the wait should end at once, not time out"
    );
}

#[test]
fn waiting_get_ends_with_q_mgr_stopping_when_the_queue_manager_stops() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        let r = s
            .get(h, &GetOptions::new().wait_unlimited())
            .map(|g| text(&g));
        let after = s.get(h, &GetOptions::new()).map(|g| text(&g));
        (r, after)
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    qm.stop();
    let (r, after) = getter.join().unwrap();
    assert_eq!(r.unwrap_err().reason, Reason::QMgrStopping);
    assert_eq!(after.unwrap_err().reason, Reason::QMgrStopping);
    assert_eq!(
        reason(s.put(h, Message::text("x"), &PutOptions::default())),
        Reason::QMgrStopping
    );
    assert_eq!(
        reason(s.open(&od("Q"), OpenOptions::output())),
        Reason::QMgrStopping
    );
    let e = qm.connect(&ConnectOptions::app("late")).unwrap_err();
    assert_eq!(e.reason, Reason::QMgrStopping);
    assert_eq!(e.reason.code(), 2162);
}

#[test]
fn quiescing_refuses_new_connections_and_fail_if_quiescing_calls() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    qm.quiesce();
    assert_eq!(
        qm.connect(&ConnectOptions::app("late")).unwrap_err().reason,
        Reason::QMgrQuiescing
    );
    put_text(&mut s, h, "still-ok");
    let opts = PutOptions {
        fail_if_quiescing: true,
        ..Default::default()
    };
    assert_eq!(
        reason(s.put(h, Message::text("x"), &opts)),
        Reason::QMgrQuiescing
    );
    assert_eq!(drain(&mut s, h), ["still-ok"]);
}

#[test]
fn wait_with_timeout_returns_no_msg_available_after_the_timeout() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let started = Instant::now();
    let e = s
        .get(h, &GetOptions::new().wait(Duration::from_millis(200)))
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(e.reason, Reason::NoMsgAvailable);
    assert_eq!(e.reason.code(), 2033);
    assert!(
        took >= Duration::from_millis(200),
        "returned after {took:?}"
    );
    assert!(took < Duration::from_secs(10), "returned after {took:?}");
    // The timed-out waiter does not swallow a later message.
    put_text(&mut s, h, "later");
    assert_eq!(drain(&mut s, h), ["later"]);
}

#[test]
fn no_wait_get_on_an_empty_queue_returns_at_once() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let e = s.get(h, &GetOptions::new()).unwrap_err();
    assert_eq!(e.reason, Reason::NoMsgAvailable);
    assert!(e.detail.contains('Q'), "{e}");
    assert_eq!(qm.queue_status("Q").unwrap().waiting_getters, 0);
}

// ----- truncation --------------------------------------------------------------------------------

#[test]
fn truncation_refused_leaves_the_message_and_reports_its_length() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "0123456789");
    let e = s.get(h, &GetOptions::new().max_len(4, false)).unwrap_err();
    assert_eq!(e.reason, Reason::TruncatedMsgFailed);
    assert_eq!(e.reason.code(), 2080);
    assert_eq!(e.data_length, 10);
    // Also in syncpoint: nothing joins the unit of work.
    let e = s
        .get(h, &GetOptions::new().max_len(4, false).syncpoint())
        .unwrap_err();
    assert_eq!((e.reason, e.data_length), (Reason::TruncatedMsgFailed, 10));
    assert_eq!(s.uow_len(), 0);
    // A buffer that is big enough takes it whole.
    let g = s.get(h, &GetOptions::new().max_len(10, false)).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.data_length, g.warning),
        ("0123456789", 10, None)
    );
}

#[test]
fn truncation_accepted_cuts_the_body_and_reports_the_full_length() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "0123456789");
    put_text(&mut s, h, "next");
    let g = s.get(h, &GetOptions::new().max_len(4, true)).unwrap();
    assert_eq!(text(&g), "0123");
    assert_eq!(g.data_length, 10);
    assert_eq!(g.warning, Some(Reason::TruncatedMsgAccepted));
    assert_eq!(g.warning.unwrap().code(), 2079);
    // The rest is discarded: the message is gone.
    assert_eq!(drain(&mut s, h), ["next"]);
}

#[test]
fn truncated_browse_reports_the_full_length_and_keeps_the_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "0123456789");
    let g = s
        .get(
            h,
            &GetOptions::new().browse(BrowseMode::First).max_len(3, true),
        )
        .unwrap();
    assert_eq!((text(&g).as_str(), g.data_length), ("012", 10));
    assert_eq!(drain(&mut s, h), ["0123456789"]);
}

#[test]
fn waiting_getter_with_a_small_buffer_is_not_handed_a_long_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        s.get(
            h,
            &GetOptions::new()
                .wait(Duration::from_secs(20))
                .max_len(4, false),
        )
        .map(|g| text(&g))
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "much too long");
    let e = getter.join().unwrap().unwrap_err();
    assert_eq!((e.reason, e.data_length), (Reason::TruncatedMsgFailed, 13));
    assert_eq!(drain(&mut s, h), ["much too long"]);
}

// ----- alias, model and dynamic queues -----------------------------------------------------------

#[test]
fn alias_put_and_get_reach_the_target() {
    let qm = new_qm();
    define_local(&qm, "TARGET", |_| {});
    define_alias(&qm, "ALIAS", "TARGET", |a| a.def_priority = 7);
    let mut s = connect(&qm);
    let ha = open_all(&mut s, "ALIAS");
    let ht = open_all(&mut s, "TARGET");
    let out = s
        .put(ha, Message::text("via-alias"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        out.priority, 7,
        "DEFPRTY of the alias applies to puts through it"
    );
    s.put1(
        &od("ALIAS"),
        Message::text("via-put1"),
        &PutOptions::default(),
    )
    .unwrap();
    put_text(&mut s, ht, "direct");
    assert_eq!(depth(&qm, "TARGET"), 3);
    assert_eq!(s.queue_name(ha).unwrap(), name("TARGET"));
    assert_eq!(
        get_text(&mut s, ha, &GetOptions::new()).unwrap(),
        "via-alias"
    );
    assert_eq!(drain(&mut s, ht), ["via-put1", "direct"]);
}

#[test]
fn alias_with_an_unknown_target_gives_unknown_alias_base_q() {
    let qm = new_qm();
    define_alias(&qm, "ALIAS", "NOT.DEFINED", |_| {});
    let mut s = connect(&qm);
    let e = s.open(&od("ALIAS"), OpenOptions::output()).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownAliasBaseQ);
    assert_eq!(e.reason.code(), 2082);
    assert!(e.detail.contains("NOT.DEFINED"), "{e}");
    assert_eq!(
        reason(s.put1(&od("ALIAS"), Message::text("x"), &PutOptions::default())),
        Reason::UnknownAliasBaseQ
    );
    // The target may be defined later: the alias resolves at open.
    define_local(&qm, "NOT.DEFINED", |_| {});
    s.open(&od("ALIAS"), OpenOptions::output()).unwrap();
}

#[test]
fn temporary_dynamic_queue_from_a_model_is_deleted_when_its_handle_closes() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let model = ObjectDescriptor::model(name(ferry_model::system::DEFAULT_MODEL_QUEUE), "REPLY.*");
    let h = s.open(&model, OpenOptions::input().with_inquire()).unwrap();
    let qname = s.queue_name(h).unwrap();
    assert!(qname.as_str().starts_with("REPLY."), "{qname}");
    assert!(qname.as_str().len() > "REPLY.".len());
    assert_eq!(s.inquire(h, &[Selector::DefinitionType]).unwrap(), [int(3)]);
    assert_eq!(
        s.inquire(h, &[Selector::QueueName]).unwrap(),
        [string(qname.as_str())]
    );
    // Others can put to it by name; it refuses persistent messages.
    let mut other = connect(&qm);
    let qod = ObjectDescriptor::queue(qname);
    other
        .put1(&qod, Message::text("reply"), &PutOptions::default())
        .unwrap();
    let e = other
        .put1(
            &qod,
            Message::text("p").with_persistence(Persistence::Persistent),
            &PutOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::PersistentNotAllowed);
    assert_eq!(e.reason.code(), 2048);
    assert_eq!(get_text(&mut s, h, &GetOptions::new()).unwrap(), "reply");
    // Each open of the model makes a new queue.
    let h2 = s.open(&model, OpenOptions::input()).unwrap();
    assert_ne!(s.queue_name(h2).unwrap(), qname);
    s.close(h, CloseOptions::None).unwrap();
    assert_eq!(
        reason(other.open(&qod, OpenOptions::output())),
        Reason::UnknownObjectName
    );
    assert_eq!(
        reason(other.put1(&qod, Message::text("late"), &PutOptions::default())),
        Reason::UnknownObjectName
    );
    assert!(!qm.queue_names().iter().any(|(n, _)| *n == qname));
}

#[test]
fn handles_on_a_deleted_temporary_queue_report_q_deleted() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let model = ObjectDescriptor::model(name(ferry_model::system::DEFAULT_MODEL_QUEUE), "TMP.*");
    let h = s.open(&model, OpenOptions::input()).unwrap();
    let qname = s.queue_name(h).unwrap();
    let mut other = connect(&qm);
    let ho = other
        .open(&ObjectDescriptor::queue(qname), OpenOptions::output())
        .unwrap();
    s.close(h, CloseOptions::None).unwrap();
    let e = other
        .put(ho, Message::text("x"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::QDeleted);
    assert_eq!(e.reason.code(), 2052);
}

#[test]
fn temporary_dynamic_queue_is_deleted_when_its_connection_ends() {
    let qm = new_qm();
    let model = ObjectDescriptor::model(name(ferry_model::system::DEFAULT_MODEL_QUEUE), "REPLY.*");
    let mut s = connect(&qm);
    let h = s.open(&model, OpenOptions::input()).unwrap();
    let dropped = s.queue_name(h).unwrap();
    drop(s);
    let mut s = connect(&qm);
    let h = s.open(&model, OpenOptions::input()).unwrap();
    let disconnected = s.queue_name(h).unwrap();
    s.disconnect().unwrap();
    let mut other = connect(&qm);
    for n in [dropped, disconnected] {
        assert_eq!(
            reason(other.open(&ObjectDescriptor::queue(n), OpenOptions::output())),
            Reason::UnknownObjectName
        );
    }
}

#[test]
fn dynamic_name_without_a_star_is_used_as_is() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let model = ObjectDescriptor::model(
        name(ferry_model::system::DEFAULT_MODEL_QUEUE),
        "MY.EXACT.NAME",
    );
    let h = s.open(&model, OpenOptions::input()).unwrap();
    assert_eq!(s.queue_name(h).unwrap(), name("MY.EXACT.NAME"));
    let mut other = connect(&qm);
    assert_eq!(
        reason(other.open(&model, OpenOptions::input())),
        Reason::ObjectAlreadyExists
    );
    let bad = ObjectDescriptor::model(name(ferry_model::system::DEFAULT_MODEL_QUEUE), "BAD*NAME*");
    assert_eq!(
        reason(other.open(&bad, OpenOptions::input())),
        Reason::DynamicQNameError
    );
}

#[test]
fn permanent_dynamic_queue_survives_close_and_delete_purge_removes_it() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let model =
        ObjectDescriptor::model(name(ferry_model::system::DURABLE_MODEL_QUEUE), "DURABLE.*");
    let h = s
        .open(&model, OpenOptions::output().with_inquire())
        .unwrap();
    let qname = s.queue_name(h).unwrap();
    assert!(qname.as_str().starts_with("DURABLE."));
    assert_eq!(s.inquire(h, &[Selector::DefinitionType]).unwrap(), [int(2)]);
    let out = s
        .put(h, Message::text("kept"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        out.persistence,
        Persistence::Persistent,
        "DEFPSIST(YES) comes from the durable model"
    );
    s.close(h, CloseOptions::None).unwrap();
    // Still there, with its message, for another connection.
    let mut other = connect(&qm);
    let qod = ObjectDescriptor::queue(qname);
    let h2 = other.open(&qod, OpenOptions::input()).unwrap();
    assert_eq!(depth(&qm, qname.as_str()), 1);
    // Delete refuses while messages remain; delete-purge removes it.
    let e = other.close(h2, CloseOptions::Delete).unwrap_err();
    assert_eq!(e.reason, Reason::QNotEmpty);
    other.close(h2, CloseOptions::DeletePurge).unwrap();
    assert_eq!(
        reason(other.open(&qod, OpenOptions::input())),
        Reason::UnknownObjectName
    );
}

#[test]
fn close_with_delete_refuses_predefined_queues() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
    assert_eq!(
        reason(s.close(h, CloseOptions::DeletePurge)),
        Reason::OptionNotValidForType
    );
    // The handle is still open after the refused close.
    s.close(h, CloseOptions::None).unwrap();
    s.open(&od("Q"), OpenOptions::input()).unwrap();
}

// ----- open modes and handles --------------------------------------------------------------------

#[test]
fn exclusive_input_refuses_a_second_input_opener() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut a = connect(&qm);
    let mut b = connect(&qm);
    let ha = a.open(&od("Q"), OpenOptions::input_exclusive()).unwrap();
    let e = b.open(&od("Q"), OpenOptions::input()).unwrap_err();
    assert_eq!(e.reason, Reason::ObjectInUse);
    assert_eq!(e.reason.code(), 2042);
    assert_eq!(
        reason(b.open(&od("Q"), OpenOptions::input_exclusive())),
        Reason::ObjectInUse
    );
    // Output and browse are not affected.
    b.open(&od("Q"), OpenOptions::output().with_browse())
        .unwrap();
    a.close(ha, CloseOptions::None).unwrap();
    b.open(&od("Q"), OpenOptions::input()).unwrap();
    // Exclusive is refused while a shared input handle is open.
    assert_eq!(
        reason(a.open(&od("Q"), OpenOptions::input_exclusive())),
        Reason::ObjectInUse
    );
}

#[test]
fn noshare_queue_allows_only_one_input_handle() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.shareable = false);
    let mut a = connect(&qm);
    let mut b = connect(&qm);
    let ha = a.open(&od("Q"), OpenOptions::input()).unwrap();
    assert_eq!(
        reason(b.open(&od("Q"), OpenOptions::input())),
        Reason::ObjectInUse
    );
    assert_eq!(
        reason(a.open(&od("Q"), OpenOptions::input())),
        Reason::ObjectInUse
    );
    a.close(ha, CloseOptions::None).unwrap();
    b.open(&od("Q"), OpenOptions::input()).unwrap();
}

#[test]
fn input_as_queue_default_follows_defsopt() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| {
        a.def_input_open = ferry_model::objects::DefaultInputOpen::Exclusive
    });
    let mut a = connect(&qm);
    let opts = OpenOptions {
        input: ferry_core::InputMode::AsQueueDef,
        ..Default::default()
    };
    a.open(&od("Q"), opts).unwrap();
    assert_eq!(
        reason(a.open(&od("Q"), OpenOptions::input())),
        Reason::ObjectInUse
    );
}

#[test]
fn unknown_queue_gives_unknown_object_name() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let e = s.open(&od("NOPE"), OpenOptions::output()).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownObjectName);
    assert_eq!(e.reason.code(), 2085);
    assert!(e.detail.contains("NOPE"), "{e}");
    assert_eq!(
        reason(s.put1(&od("NOPE"), Message::text("x"), &PutOptions::default())),
        Reason::UnknownObjectName
    );
    assert_eq!(reason(qm.queue_status("NOPE")), Reason::UnknownObjectName);
}

#[test]
fn open_needs_an_access_option() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    assert_eq!(
        reason(s.open(&od("Q"), OpenOptions::default())),
        Reason::OptionsError
    );
    assert_eq!(
        reason(s.open(&ObjectDescriptor::QueueManager, OpenOptions::output())),
        Reason::OptionNotValidForType
    );
}

#[test]
fn verbs_need_the_matching_open_option() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let out = s.open(&od("Q"), OpenOptions::output()).unwrap();
    let inp = s.open(&od("Q"), OpenOptions::input()).unwrap();
    put_text(&mut s, out, "x");
    assert_eq!(
        reason(s.put(inp, Message::text("x"), &PutOptions::default())),
        Reason::NotOpenForOutput
    );
    assert_eq!(
        reason(s.get(out, &GetOptions::new())),
        Reason::NotOpenForInput
    );
    assert_eq!(
        reason(s.get(inp, &GetOptions::new().browse(BrowseMode::First))),
        Reason::NotOpenForBrowse
    );
    assert_eq!(
        reason(s.inquire(inp, &[Selector::CurrentDepth])),
        Reason::NotOpenForInquire
    );
    assert_eq!(
        reason(s.set(inp, &[(Selector::InhibitGet, int(1))])),
        Reason::NotOpenForSet
    );
    let qmh = s
        .open(&ObjectDescriptor::QueueManager, OpenOptions::inquire())
        .unwrap();
    assert_eq!(
        reason(s.put(qmh, Message::text("x"), &PutOptions::default())),
        Reason::ObjectTypeError
    );
    assert_eq!(
        reason(s.put1(
            &ObjectDescriptor::QueueManager,
            Message::text("x"),
            &PutOptions::default()
        )),
        Reason::ObjectTypeError
    );
    assert_eq!(drain(&mut s, inp), ["x"]);
}

#[test]
fn closed_handles_give_hobj_error() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "x");
    s.close(h, CloseOptions::None).unwrap();
    let e = s
        .put(h, Message::text("y"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::HobjError);
    assert_eq!(e.reason.code(), 2019);
    assert_eq!(reason(s.get(h, &GetOptions::new())), Reason::HobjError);
    assert_eq!(
        reason(s.inquire(h, &[Selector::CurrentDepth])),
        Reason::HobjError
    );
    assert_eq!(
        reason(s.set(h, &[(Selector::InhibitGet, int(1))])),
        Reason::HobjError
    );
    assert_eq!(reason(s.close(h, CloseOptions::None)), Reason::HobjError);
    assert_eq!(reason(s.queue_name(h)), Reason::HobjError);
    // A handle from another connection is not valid here either.
    let mut other = connect(&qm);
    let ho = open_all(&mut other, "Q");
    let ho2 = open_all(&mut other, "Q");
    assert_ne!(ho, ho2);
    assert_eq!(
        reason(s.get(Hobj(9999), &GetOptions::new())),
        Reason::HobjError
    );
    let st = qm.queue_status("Q").unwrap();
    assert_eq!((st.open_input, st.open_output, st.depth), (2, 2, 1));
}

#[test]
fn maxhands_limits_open_handles() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    qm.alter_attrs(|a| a.max_handles = 2).unwrap();
    let mut s = connect(&qm);
    let h = s.open(&od("Q"), OpenOptions::output()).unwrap();
    s.open(&od("Q"), OpenOptions::output()).unwrap();
    assert_eq!(
        reason(s.open(&od("Q"), OpenOptions::output())),
        Reason::HandleNotAvailable
    );
    s.close(h, CloseOptions::None).unwrap();
    s.open(&od("Q"), OpenOptions::output()).unwrap();
}

// ----- waiting getters ---------------------------------------------------------------------------

#[test]
fn put_hands_the_message_straight_to_a_waiting_getter() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        s.get(h, &GetOptions::new().wait(Duration::from_secs(20)))
            .map(|g| text(&g))
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "handed");
    assert_eq!(getter.join().unwrap().unwrap(), "handed");
    let st = qm.queue_status("Q").unwrap();
    assert_eq!(st.stats.handovers, 1);
    assert_eq!((st.stats.puts, st.stats.gets, st.depth), (1, 1, 0));
    // Without a waiter, a put is stored and a get takes it: no hand-over.
    put_text(&mut s, h, "stored");
    get_text(&mut s, h, &GetOptions::new()).unwrap();
    let st = qm.queue_status("Q").unwrap();
    assert_eq!(
        (st.stats.handovers, st.stats.puts, st.stats.gets),
        (1, 2, 2)
    );
}

#[test]
fn waiting_getter_in_syncpoint_can_back_out_a_handed_message() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        let g = s
            .get(
                h,
                &GetOptions::new().syncpoint().wait(Duration::from_secs(20)),
            )
            .map(|g| text(&g));
        let uow = s.uow_len();
        s.backout().unwrap();
        (g, uow)
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "x");
    let (g, uow) = getter.join().unwrap();
    assert_eq!(g.unwrap(), "x");
    assert_eq!(uow, 1);
    let g = s.get(h, &GetOptions::new()).unwrap();
    assert_eq!(
        (text(&g).as_str(), g.message.descriptor.backout_count),
        ("x", 1)
    );
}

#[test]
fn specific_correl_waiter_is_served_before_an_older_generic_waiter() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let spawn_getter = |opts: GetOptions| {
        let qm2 = qm.clone();
        thread::spawn(move || {
            let mut s = connect(&qm2);
            let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
            s.get(h, &opts).map(|g| text(&g))
        })
    };
    let generic = spawn_getter(GetOptions::new().wait(Duration::from_secs(20)));
    wait_for_waiters(&qm, "Q", 1);
    let specific = spawn_getter(
        GetOptions::new()
            .correl_id(CorrelId::from_slice(b"C"))
            .wait(Duration::from_secs(20)),
    );
    wait_for_waiters(&qm, "Q", 2);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_correl(&mut s, h, "for-specific", b"C");
    assert_eq!(specific.join().unwrap().unwrap(), "for-specific");
    assert_eq!(qm.queue_status("Q").unwrap().depth, 0);
    put_correl(&mut s, h, "for-generic", b"C");
    assert_eq!(generic.join().unwrap().unwrap(), "for-generic");
}

#[test]
fn generic_waiters_are_served_longest_waiting_first() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut getters = Vec::new();
    for i in 0..3 {
        let qm2 = qm.clone();
        getters.push(thread::spawn(move || {
            let mut s = connect(&qm2);
            let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
            s.get(h, &GetOptions::new().wait(Duration::from_secs(20)))
                .map(|g| text(&g))
        }));
        wait_for_waiters(&qm, "Q", i + 1);
    }
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    for (i, g) in getters.into_iter().enumerate() {
        put_text(&mut s, h, &format!("m{i}"));
        assert_eq!(g.join().unwrap().unwrap(), format!("m{i}"));
    }
}

#[test]
fn waiting_getter_for_a_correl_id_ignores_other_messages() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let qm2 = qm.clone();
    let getter = thread::spawn(move || {
        let mut s = connect(&qm2);
        let h = s.open(&od("Q"), OpenOptions::input()).unwrap();
        s.get(
            h,
            &GetOptions::new()
                .correl_id(CorrelId::from_slice(b"MINE"))
                .wait(Duration::from_secs(20)),
        )
        .map(|g| text(&g))
    });
    wait_for_waiters(&qm, "Q", 1);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_correl(&mut s, h, "not-mine", b"OTHER");
    put_text(&mut s, h, "plain");
    put_correl(&mut s, h, "mine", b"MINE");
    assert_eq!(getter.join().unwrap().unwrap(), "mine");
    assert_eq!(drain(&mut s, h), ["not-mine", "plain"]);
}

// ----- inquire -----------------------------------------------------------------------------------

#[test]
fn inquire_reports_queue_attributes_and_counts() {
    let qm = new_qm();
    define_local(&qm, "APP.Q", |a| {
        a.max_depth = 77;
        a.max_msg_length = 1234;
        a.def_priority = 3;
        a.backout_threshold = 5;
        a.backout_requeue_name = name("APP.BOQ");
        a.description = "an app queue".into();
        a.delivery_sequence = DeliverySequence::Fifo;
    });
    let mut s = connect(&qm);
    let h = s
        .open(&od("APP.Q"), OpenOptions::inquire().with_output())
        .unwrap();
    s.open(&od("APP.Q"), OpenOptions::input()).unwrap();
    put_text(&mut s, h, "1");
    put_text(&mut s, h, "2");
    let sels = [
        Selector::CurrentDepth,
        Selector::MaxDepth,
        Selector::MaxMsgLength,
        Selector::QueueName,
        Selector::QueueType,
        Selector::InhibitGet,
        Selector::InhibitPut,
        Selector::DefPriority,
        Selector::DefPersistence,
        Selector::BackoutThreshold,
        Selector::BackoutRequeueName,
        Selector::QueueDesc,
        Selector::MsgDeliverySequence,
        Selector::OpenInputCount,
        Selector::OpenOutputCount,
        Selector::Shareability,
        Selector::DefinitionType,
    ];
    let values = s.inquire(h, &sels).unwrap();
    assert_eq!(
        values,
        [
            int(2),
            int(77),
            int(1234),
            string("APP.Q"),
            int(1),
            int(0),
            int(0),
            int(3),
            int(0),
            int(5),
            string("APP.BOQ"),
            string("an app queue"),
            int(1),
            int(1),
            int(1),
            int(1),
            int(1),
        ]
    );
    qm.alter_local("APP.Q", |a| a.get_inhibited = true).unwrap();
    assert_eq!(s.inquire(h, &[Selector::InhibitGet]).unwrap(), [int(1)]);
    let e = s
        .inquire(h, &[Selector::CurrentDepth, Selector::QueueManagerName])
        .unwrap_err();
    assert_eq!(e.reason, Reason::SelectorError);
    assert_eq!(e.reason.code(), 2067);
}

#[test]
fn inquire_through_an_alias_reports_the_alias() {
    let qm = new_qm();
    define_local(&qm, "TARGET", |a| a.max_depth = 12);
    define_alias(&qm, "ALIAS", "TARGET", |a| a.get_inhibited = true);
    let mut s = connect(&qm);
    let h = s.open(&od("ALIAS"), OpenOptions::inquire()).unwrap();
    let v = s
        .inquire(
            h,
            &[
                Selector::QueueName,
                Selector::QueueType,
                Selector::BaseQueueName,
                Selector::InhibitGet,
                Selector::MaxDepth,
            ],
        )
        .unwrap();
    assert_eq!(
        v,
        [string("ALIAS"), int(3), string("TARGET"), int(1), int(12)]
    );
}

#[test]
fn inquire_reports_queue_manager_attributes() {
    let qm = new_qm();
    qm.alter_attrs(|a| {
        a.description = "test qm".into();
        a.max_uncommitted_msgs = 42;
    })
    .unwrap();
    let mut s = connect(&qm);
    let h = s
        .open(&ObjectDescriptor::QueueManager, OpenOptions::inquire())
        .unwrap();
    assert_eq!(s.queue_name(h).unwrap(), name("QM1"));
    let v = s
        .inquire(
            h,
            &[
                Selector::QueueManagerName,
                Selector::QueueManagerDesc,
                Selector::DeadLetterQueueName,
                Selector::MaxMsgLength,
                Selector::MaxUncommittedMsgs,
            ],
        )
        .unwrap();
    assert_eq!(
        v,
        [
            string("QM1"),
            string("test qm"),
            string("SYSTEM.DEAD.LETTER.QUEUE"),
            int(4 * 1024 * 1024),
            int(42),
        ]
    );
    // What client libraries ask a queue manager for first (mq-golang's mqmetric, test suites).
    let v = s
        .inquire(
            h,
            &[
                Selector::Version,
                Selector::MaxHandles,
                Selector::PerformanceEvent,
                Selector::MaxPriority,
                Selector::Syncpoint,
                Selector::ConnAuth,
            ],
        )
        .unwrap();
    assert_eq!(v[0], string(ferry_model::inquire::VERSION));
    assert_eq!(
        (v[2].clone(), v[3].clone(), v[4].clone()),
        (int(0), int(9), int(1))
    );
    assert!(matches!(v[1], AttrValue::Int(n) if n > 0), "{v:?}");
    assert_eq!(
        reason(s.inquire(h, &[Selector::CurrentDepth])),
        Reason::SelectorError
    );
    assert_eq!(
        reason(s.get(h, &GetOptions::new())),
        Reason::ObjectTypeError
    );
}

// ----- message content and context ---------------------------------------------------------------

#[test]
fn user_properties_round_trip() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let mut m = Message::text("with props");
    let props = [
        ("b", PropertyValue::Bool(true)),
        ("i8", PropertyValue::I8(-8)),
        ("i16", PropertyValue::I16(-1600)),
        ("i32", PropertyValue::I32(32)),
        ("i64", PropertyValue::I64(i64::MIN)),
        ("f32", PropertyValue::F32(1.5)),
        ("f64", PropertyValue::F64(-2.25)),
        ("s", PropertyValue::String("héllo".into())),
        (
            "bytes",
            PropertyValue::Bytes(bytes::Bytes::from_static(b"\x00\x01\xff")),
        ),
        ("null", PropertyValue::Null),
    ];
    for (n, v) in &props {
        m.properties.set(n, v.clone()).unwrap();
    }
    s.put(h, m, &PutOptions::default()).unwrap();
    let g = s.get(h, &GetOptions::new()).unwrap();
    let got: Vec<_> = g
        .message
        .properties
        .iter()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    let want: Vec<_> = props
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(text(&g), "with props");
}

#[test]
fn descriptor_fields_round_trip() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    let mut m = Message::new(vec![1u8, 2, 3]);
    m.descriptor.message_type = ferry_core::MessageType::Report;
    m.descriptor.feedback = 259;
    m.descriptor.ccsid = 819;
    m.descriptor.encoding = 273;
    m.descriptor.format = format::name("MYFMT");
    m.descriptor.reply_to_qmgr = name("OTHER.QM");
    m.descriptor.backout_count = 9;
    s.put(h, m, &PutOptions::default()).unwrap();
    let d = s.get(h, &GetOptions::new()).unwrap().message.descriptor;
    assert_eq!(d.message_type, ferry_core::MessageType::Report);
    assert_eq!((d.feedback, d.ccsid, d.encoding), (259, 819, 273));
    assert_eq!(d.format, format::name("MYFMT"));
    assert_eq!(d.reply_to_qmgr, name("OTHER.QM"));
    assert_eq!(
        d.backout_count, 0,
        "the queue manager resets the backout count on put"
    );
    assert_eq!(d.persistence, Persistence::NotPersistent);
}

#[test]
fn put_context_is_filled_in() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let opts = ConnectOptions {
        app_name: "payments-service-with-a-long-name".into(),
        user_id: Some("alice".into()),
    };
    let mut s = qm.connect(&opts).unwrap();
    let h = open_all(&mut s, "Q");
    let before = std::time::SystemTime::now();
    let mut m = Message::text("ctx");
    m.descriptor.put_appl_name = ferry_model::name::ApplName::truncating("forged");
    m.descriptor.user_id = ferry_model::name::UserId::truncating("mallory");
    let out = s.put(h, m, &PutOptions::default()).unwrap();
    let after = std::time::SystemTime::now();
    let d = s.get(h, &GetOptions::new()).unwrap().message.descriptor;
    assert_eq!(
        d.put_appl_name.as_str(),
        "payments-service-with-a-long",
        "cut to MQ's 28 bytes"
    );
    assert_eq!(d.user_id.as_str(), "alice");
    assert!(
        d.put_time >= before && d.put_time <= after,
        "{:?}",
        d.put_time
    );
    assert_eq!(d.put_time, out.put_time);
    assert_eq!(out.persistence, Persistence::NotPersistent);
}

#[test]
fn system_objects_exist_on_a_new_queue_manager() {
    let qm = new_qm();
    let names: Vec<_> = qm.queue_names();
    let has =
        |n: &str, t: ferry_core::QueueType| names.iter().any(|(x, y)| x.as_str() == n && *y == t);
    assert!(has(
        "SYSTEM.DEAD.LETTER.QUEUE",
        ferry_core::QueueType::Local
    ));
    assert!(has(
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        ferry_core::QueueType::Local
    ));
    assert!(has(
        "SYSTEM.ADMIN.COMMAND.QUEUE",
        ferry_core::QueueType::Local
    ));
    assert!(has(
        "SYSTEM.DEFAULT.MODEL.QUEUE",
        ferry_core::QueueType::Model
    ));
    assert!(has(
        "SYSTEM.DURABLE.MODEL.QUEUE",
        ferry_core::QueueType::Model
    ));
    assert!(has("DEV.QUEUE.1", ferry_core::QueueType::Local));
    assert_eq!(
        qm.attrs().dead_letter_queue,
        name("SYSTEM.DEAD.LETTER.QUEUE")
    );
    match qm.definition("SYSTEM.DEFAULT.MODEL.QUEUE").unwrap() {
        QueueDefinition::Model(a) => {
            assert_eq!(a.definition_type, DefinitionType::TemporaryDynamic)
        }
        other => panic!("not a model: {other:?}"),
    }
    match qm.definition("SYSTEM.DURABLE.MODEL.QUEUE").unwrap() {
        QueueDefinition::Model(a) => {
            assert_eq!(a.definition_type, DefinitionType::PermanentDynamic)
        }
        other => panic!("not a model: {other:?}"),
    }
    // Usable straight away.
    let mut s = connect(&qm);
    for q in [
        "SYSTEM.DEAD.LETTER.QUEUE",
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        "SYSTEM.ADMIN.COMMAND.QUEUE",
    ] {
        s.put1(&od(q), Message::text("x"), &PutOptions::default())
            .unwrap();
        assert_eq!(depth(&qm, q), 1);
    }
    // Without dev queues, only the system objects.
    let (bare, _) = manual_qm();
    assert!(!bare
        .queue_names()
        .iter()
        .any(|(n, _)| n.as_str().starts_with("DEV.")));
    assert!(bare
        .queue_names()
        .iter()
        .any(|(n, _)| n.as_str() == "SYSTEM.DEAD.LETTER.QUEUE"));
}

// ----- administration ----------------------------------------------------------------------------

#[test]
fn define_queue_refuses_duplicates_unless_replacing_and_keeps_messages() {
    let qm = new_qm();
    define_local(&qm, "Q", |a| a.max_depth = 5);
    let e = qm
        .define_queue(
            "Q",
            QueueDefinition::Local(LocalQueueAttrs::default()),
            false,
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::ObjectAlreadyExists);
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "kept");
    let a = LocalQueueAttrs {
        max_depth: 9,
        ..Default::default()
    };
    qm.define_queue("Q", QueueDefinition::Local(a), true)
        .unwrap();
    assert_eq!(qm.local_attrs("Q").unwrap().max_depth, 9);
    assert_eq!(drain(&mut s, h), ["kept"]);
    let alias = QueueDefinition::Alias(AliasQueueAttrs::new(name("X")));
    assert_eq!(
        qm.define_queue("Q", alias, true).unwrap_err().reason,
        Reason::QTypeError
    );
}

#[test]
fn delete_queue_refuses_open_or_non_empty_queues() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "x");
    assert_eq!(
        qm.delete_queue("Q", true).unwrap_err().reason,
        Reason::ObjectInUse
    );
    s.close(h, CloseOptions::None).unwrap();
    assert_eq!(
        qm.delete_queue("Q", false).unwrap_err().reason,
        Reason::QNotEmpty
    );
    qm.delete_queue("Q", true).unwrap();
    assert_eq!(
        reason(s.open(&od("Q"), OpenOptions::output())),
        Reason::UnknownObjectName
    );
}

#[test]
fn clear_queue_removes_committed_messages_only_when_no_work_is_pending() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    let mut s = connect(&qm);
    let h = open_all(&mut s, "Q");
    put_text(&mut s, h, "a");
    put_text(&mut s, h, "b");
    s.put(h, Message::text("c"), &PutOptions::syncpoint())
        .unwrap();
    assert_eq!(qm.clear_queue("Q").unwrap_err().reason, Reason::ObjectInUse);
    s.backout().unwrap();
    assert_eq!(qm.clear_queue("Q").unwrap(), 2);
    assert_eq!(depth(&qm, "Q"), 0);
}

#[test]
fn attribute_values_are_validated() {
    let qm = new_qm();
    define_local(&qm, "Q", |_| {});
    assert_eq!(
        qm.alter_local("Q", |a| a.def_priority = 10)
            .unwrap_err()
            .reason,
        Reason::AttributeValueError
    );
    assert_eq!(
        qm.alter_local("Q", |a| a.def_persistence = Persistence::AsQueueDef)
            .unwrap_err()
            .reason,
        Reason::AttributeValueError
    );
    assert_eq!(
        qm.alter_attrs(|a| a.max_uncommitted_msgs = 0)
            .unwrap_err()
            .reason,
        Reason::AttributeValueError
    );
    assert_eq!(
        qm.alter_attrs(|a| a.name = name("OTHER"))
            .unwrap_err()
            .reason,
        Reason::AttributeValueError
    );
    assert_eq!(qm.local_attrs("Q").unwrap().def_priority, 0);
}

#[test]
fn context_is_set_only_through_a_handle_opened_to_set_it() {
    use ferry_model::name::{ApplName, UserId};
    use ferry_model::options::PutContext;
    let qm = new_qm();
    let mut s = connect(&qm);
    let mut msg = Message::text("restored");
    msg.descriptor.user_id = UserId::truncating("someone");
    msg.descriptor.put_appl_name = ApplName::truncating("original app");
    let when = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_600_000_000);
    msg.descriptor.put_time = when;
    let set_all = PutOptions {
        context: PutContext::SetAll,
        ..PutOptions::default()
    };
    let plain = s
        .open(
            &ObjectDescriptor::queue(name("DEV.QUEUE.1")),
            OpenOptions::output(),
        )
        .unwrap();
    let e = s.put(plain, msg.clone(), &set_all).unwrap_err();
    assert_eq!(e.reason, Reason::NotOpenForSetAll);
    let e = s
        .put(
            plain,
            msg.clone(),
            &PutOptions {
                context: PutContext::SetIdentity,
                ..PutOptions::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotOpenForSetIdent);
    let setter = s
        .open(
            &ObjectDescriptor::queue(name("DEV.QUEUE.1")),
            OpenOptions {
                set_all_context: true,
                ..OpenOptions::output()
            },
        )
        .unwrap();
    s.put(setter, msg.clone(), &set_all).unwrap();
    // Identity kept, origin made here.
    s.put(
        setter,
        msg.clone(),
        &PutOptions {
            context: PutContext::SetIdentity,
            ..PutOptions::default()
        },
    )
    .unwrap();
    s.put(
        setter,
        msg,
        &PutOptions {
            context: PutContext::None,
            ..PutOptions::default()
        },
    )
    .unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(name("DEV.QUEUE.1")),
            OpenOptions::input(),
        )
        .unwrap();
    let all = s.get(h, &GetOptions::new()).unwrap().message.descriptor;
    assert_eq!(all.user_id.as_str(), "someone");
    assert_eq!(all.put_appl_name.as_str(), "original app");
    assert_eq!(all.put_time, when);
    let ident = s.get(h, &GetOptions::new()).unwrap().message.descriptor;
    assert_eq!(ident.user_id.as_str(), "someone");
    assert_ne!(ident.put_appl_name.as_str(), "original app");
    assert_ne!(ident.put_time, when);
    let none = s.get(h, &GetOptions::new()).unwrap().message.descriptor;
    assert!(none.user_id.as_str().is_empty() && none.put_appl_name.as_str().is_empty());
}

/// Namelists, process definitions and topic objects open for inquire only and answer their
/// attributes; a topic's ASPARENT attributes answer MQ's AS_PARENT values, and an inquire-only
/// open of a topic string reads the closest topic object above it.
#[test]
fn namelists_processes_and_topic_objects_are_inquired() {
    use ferry_model::objects::{NamelistAttrs, ProcessAttrs};
    use ferry_model::topicobj::TopicAttrs;
    let qm = new_qm();
    let nl = NamelistAttrs {
        names: vec!["A.Q".into(), "B.Q".into()],
        ..Default::default()
    };
    qm.define_namelist("APP.NL", nl, false).unwrap();
    let process = ProcessAttrs {
        appl_id: "/bin/run".into(),
        ..Default::default()
    };
    qm.define_process("APP.PROC", process, false).unwrap();
    let topic = TopicAttrs {
        topic_string: "prices".into(),
        publish: Some(false),
        ..Default::default()
    };
    qm.define_topic("PRICES", topic, false).unwrap();
    let mut s = connect(&qm);
    let h = s
        .open(
            &ObjectDescriptor::Namelist(name("APP.NL")),
            OpenOptions::inquire(),
        )
        .unwrap();
    let v = s
        .inquire(h, &[Selector::NameCount, Selector::Names])
        .unwrap();
    assert_eq!(v[0], AttrValue::Int(2));
    assert_eq!(v[1], AttrValue::Str(format!("{:<48}{:<48}", "A.Q", "B.Q")));
    let e = s
        .open(
            &ObjectDescriptor::Namelist(name("APP.NL")),
            OpenOptions::output(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::OptionNotValidForType);
    let h = s
        .open(
            &ObjectDescriptor::Process(name("APP.PROC")),
            OpenOptions::inquire(),
        )
        .unwrap();
    let v = s
        .inquire(h, &[Selector::ApplType, Selector::ApplId])
        .unwrap();
    assert_eq!(v, [AttrValue::Int(6), AttrValue::Str("/bin/run".into())]);
    let by_string = ObjectDescriptor::Topic {
        object: None,
        string: "prices/fruit".into(),
    };
    let h = s.open(&by_string, OpenOptions::inquire()).unwrap();
    let v = s
        .inquire(
            h,
            &[
                Selector::TopicName,
                Selector::TopicString,
                Selector::InhibitPub,
                Selector::DefPersistence,
                Selector::DefPriority,
            ],
        )
        .unwrap();
    assert_eq!(
        v,
        [
            AttrValue::Str("PRICES".into()),
            AttrValue::Str("prices".into()),
            AttrValue::Int(1),
            AttrValue::Int(-1),
            AttrValue::Int(-2),
        ]
    );
    let e = s.inquire(h, &[Selector::MaxDepth]).unwrap_err();
    assert_eq!(e.reason, Reason::SelectorError);
    let gone = s.open(
        &ObjectDescriptor::Process(name("NO.SUCH")),
        OpenOptions::inquire(),
    );
    assert_eq!(gone.unwrap_err().reason, Reason::UnknownObjectName);
}

/// A queue's CRDATE/CRTIME stay when it is altered or replaced; ALTDATE/ALTTIME move (MQINQ
/// MQCA_CREATION_* and MQCA_ALTERATION_*, through an alias its own).
#[test]
fn a_queue_keeps_its_creation_time_and_shows_when_it_was_altered() {
    let (qm, t) = manual_qm();
    define_local(&qm, "DATED.Q", |_| {});
    qm.define_queue(
        "DATED.ALIAS",
        QueueDefinition::Alias(AliasQueueAttrs::new(name("DATED.Q"))),
        false,
    )
    .unwrap();
    let mut s = connect(&qm);
    let sels = [
        Selector::CreationDate,
        Selector::CreationTime,
        Selector::AlterationDate,
        Selector::AlterationTime,
    ];
    let h = s.open(&od("DATED.Q"), OpenOptions::inquire()).unwrap();
    let before = s.inquire(h, &sels).unwrap();
    let AttrValue::Str(date) = &before[0] else {
        panic!("{before:?}")
    };
    assert_eq!(date.len(), 10, "yyyy-mm-dd: {before:?}");
    assert_eq!(before[0], before[2], "{before:?}");
    advance(&t, 3_600_000_000_000);
    qm.alter_local("DATED.Q", |a| a.max_depth = 7).unwrap();
    let after = s.inquire(h, &sels).unwrap();
    assert_eq!(after[..2], before[..2], "CRDATE/CRTIME stay");
    assert_ne!(after[3], before[3], "ALTTIME moves an hour: {after:?}");
    let QueueDefinition::Local(a) = qm.definition("DATED.Q").unwrap() else {
        panic!()
    };
    qm.define_queue("DATED.Q", QueueDefinition::Local(a), true)
        .unwrap();
    let replaced = s.inquire(h, &sels).unwrap();
    assert_eq!(replaced[..2], before[..2], "REPLACE keeps CRDATE/CRTIME");
    let ha = s.open(&od("DATED.ALIAS"), OpenOptions::inquire()).unwrap();
    let alias = s.inquire(ha, &sels).unwrap();
    assert_eq!(alias[0], before[0], "the alias was made at the same time");
}

/// The queue manager object answers when it was created and when ALTER QMGR last changed it.
#[test]
fn the_queue_manager_shows_when_it_was_created_and_altered() {
    let (qm, t) = manual_qm();
    let mut s = connect(&qm);
    let sels = [
        Selector::CreationDate,
        Selector::CreationTime,
        Selector::AlterationDate,
        Selector::AlterationTime,
    ];
    let h = s
        .open(&ObjectDescriptor::QueueManager, OpenOptions::inquire())
        .unwrap();
    let before = s.inquire(h, &sels).unwrap();
    assert_eq!(before[..2], before[2..], "altered when created: {before:?}");
    advance(&t, 3_600_000_000_000);
    qm.alter_qmgr(|a| a.description = "dated".into()).unwrap();
    let after = s.inquire(h, &sels).unwrap();
    assert_eq!(after[..2], before[..2], "CRDATE/CRTIME stay");
    assert_ne!(after[3], before[3], "ALTTIME moves an hour: {after:?}");
}

/// STOP CONN of an application's own (embedded) connection: its next call fails with
/// MQRC_CONNECTION_STOPPED; an unknown connection is named as such.
#[test]
fn a_stopped_connection_is_told_so_at_its_next_call() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let id = s.connection_id();
    qm.stop_connection(id).unwrap();
    let e = s
        .open(&od("DEV.QUEUE.1"), OpenOptions::input())
        .unwrap_err();
    assert_eq!(e.reason, Reason::ConnectionStopped);
    let e = qm.stop_connection(u64::MAX).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownObjectName);
}

/// The queue manager answers MQINQ of the attributes of features FerryMQ does not offer (TLS
/// key repositories, clusters, receive timeouts, channel adoption, ...) with what they are here,
/// as client libraries' test suites ask for them; its identifier is its name.
#[test]
fn the_queue_manager_answers_the_attributes_of_features_it_does_not_offer() {
    let qm = new_qm();
    let mut s = connect(&qm);
    let h = s
        .open(&ObjectDescriptor::QueueManager, OpenOptions::inquire())
        .unwrap();
    let sels = [
        Selector::QMgrIdentifier,
        Selector::SslKeyRepository,
        Selector::RepositoryName,
        Selector::ListenerTimer,
        Selector::AdoptNewMcaCheck,
        Selector::ReceiveTimeoutType,
        Selector::ClwlMruChannels,
        Selector::MonitoringAutoClussdr,
    ];
    let v = s.inquire(h, &sels).unwrap();
    assert_eq!(v[0], AttrValue::Str("QM1".into()));
    assert_eq!(v[1], AttrValue::Str(String::new()));
    assert_eq!(v[2], AttrValue::Str(String::new()));
    assert_eq!(
        v[3..],
        [
            AttrValue::Int(60),
            AttrValue::Int(1),
            AttrValue::Int(0),
            AttrValue::Int(999_999_999),
            AttrValue::Int(-3),
        ]
    );
    assert_eq!(Selector::from_code(2049), Some(Selector::SslKeyRepository));
}

/// A queue's trigger attributes are answered by MQINQ as they are defined.
#[test]
fn inquire_answers_a_queues_trigger_attributes() {
    let qm = new_qm();
    define_local(&qm, "TRIGGERED.Q", |a| {
        a.triggering.control = true;
        a.triggering.depth = 3;
        a.triggering.data = "start it".into();
        a.triggering.initiation_queue = name("SYSTEM.DEFAULT.INITIATION.QUEUE");
    });
    let mut s = connect(&qm);
    let h = s.open(&od("TRIGGERED.Q"), OpenOptions::inquire()).unwrap();
    let v = s
        .inquire(
            h,
            &[
                Selector::TriggerControl,
                Selector::TriggerType,
                Selector::TriggerDepth,
                Selector::TriggerData,
                Selector::InitiationQueueName,
            ],
        )
        .unwrap();
    assert_eq!(
        v,
        [
            AttrValue::Int(1),
            AttrValue::Int(1),
            AttrValue::Int(3),
            AttrValue::Str("start it".into()),
            AttrValue::Str("SYSTEM.DEFAULT.INITIATION.QUEUE".into()),
        ]
    );
}
