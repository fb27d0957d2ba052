//! Edge cases found in review: attribute changes under load, browse rules, deleting shared
//! dynamic queues, and MAXDEPTH after it is lowered.

use ferry_core::{
    object_name, BrowseMode, CloseOptions, ConnectOptions, DeliverySequence, GetOptions,
    LocalQueueAttrs, Message, ObjectDescriptor, OpenOptions, PutOptions, QueueDefinition,
    QueueManager, Reason,
};

fn qm_with(q: &str) -> QueueManager {
    let qm = QueueManager::with_name("QM1").unwrap();
    qm.define_queue(q, QueueDefinition::Local(LocalQueueAttrs::default()), false)
        .unwrap();
    qm
}

#[test]
fn msgdlvsq_cannot_change_while_a_unit_of_work_holds_messages() {
    let qm = qm_with("Q");
    let mut s = qm.connect(&ConnectOptions::app("t")).unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("Q").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    s.put(h, Message::text("pending"), &PutOptions::syncpoint())
        .unwrap();
    let e = qm
        .alter_local("Q", |a| a.delivery_sequence = DeliverySequence::Fifo)
        .unwrap_err();
    assert_eq!(e.reason, Reason::ObjectInUse, "{e}");
    s.commit().unwrap();
    qm.alter_local("Q", |a| a.delivery_sequence = DeliverySequence::Fifo)
        .unwrap();
    assert_eq!(qm.queue_status("Q").unwrap().available, 1);
}

#[test]
fn browsing_a_get_inhibited_queue_is_refused_like_a_get() {
    let qm = qm_with("Q");
    let mut s = qm.connect(&ConnectOptions::app("t")).unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("Q").unwrap()),
            OpenOptions::browse().with_output(),
        )
        .unwrap();
    s.put(h, Message::text("x"), &PutOptions::default())
        .unwrap();
    s.get(h, &GetOptions::new().browse(BrowseMode::First))
        .unwrap();
    qm.alter_local("Q", |a| a.get_inhibited = true).unwrap();
    for mode in [BrowseMode::First, BrowseMode::Next, BrowseMode::UnderCursor] {
        let e = s.get(h, &GetOptions::new().browse(mode)).unwrap_err();
        assert_eq!(e.reason, Reason::GetInhibited, "{mode:?}: {e}");
    }
}

#[test]
fn a_permanent_dynamic_queue_open_elsewhere_is_not_deleted_under_its_users() {
    let qm = QueueManager::with_name("QM1").unwrap();
    let mut a = qm.connect(&ConnectOptions::app("a")).unwrap();
    let od = ObjectDescriptor::model(object_name("SYSTEM.DURABLE.MODEL.QUEUE").unwrap(), "PERM.*");
    let h = a.open(&od, OpenOptions::input()).unwrap();
    let name = a.queue_name(h).unwrap();
    let mut b = qm.connect(&ConnectOptions::app("b")).unwrap();
    let hb = b
        .open(&ObjectDescriptor::queue(name), OpenOptions::output())
        .unwrap();
    let e = a.close(h, CloseOptions::DeletePurge).unwrap_err();
    assert_eq!(e.reason, Reason::ObjectInUse, "{e}");
    b.close(hb, CloseOptions::None).unwrap();
    a.close(h, CloseOptions::DeletePurge).unwrap();
    assert_eq!(
        qm.local_queue(&name).unwrap_err().reason,
        Reason::UnknownObjectName
    );
}

#[test]
fn lowering_maxdepth_below_the_depth_refuses_puts_even_after_an_expiry() {
    let qm = qm_with("Q");
    let mut s = qm.connect(&ConnectOptions::app("t")).unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("Q").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    for _ in 0..3 {
        s.put(h, Message::text("keep"), &PutOptions::default())
            .unwrap();
    }
    s.put(
        h,
        Message::text("brief").with_expiry(std::time::Duration::from_millis(1)),
        &PutOptions::default(),
    )
    .unwrap();
    qm.alter_local("Q", |a| a.max_depth = 2).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let e = s
        .put(h, Message::text("one more"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::QFull, "{e}");
    assert_eq!(
        qm.queue_status("Q").unwrap().depth,
        3,
        "the expired message was swept"
    );
}

#[test]
fn a_getter_arriving_after_stop_does_not_wait() {
    let qm = qm_with("Q");
    let mut s = qm.connect(&ConnectOptions::app("t")).unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("Q").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    qm.stop();
    let t = std::time::Instant::now();
    let e = s.get(h, &GetOptions::new().wait_unlimited()).unwrap_err();
    assert_eq!(e.reason, Reason::QMgrStopping);
    assert!(t.elapsed() < std::time::Duration::from_secs(1));
}
