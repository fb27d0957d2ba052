//! The engine side of channels without a network: a sender queue manager and a receiver queue
//! manager in one process, batches moved by hand, and the failure between the receiver's commit
//! and the sender's resolved from the receiver's synchronisation record.

use std::time::Duration;

use ferry_core::channel::{self, SyncRecord};
use ferry_core::{
    object_name, ConnectOptions, GetOptions, LocalQueueAttrs, Message, ObjectDescriptor,
    ObjectName, OpenOptions, PutOptions, QueueDefinition, QueueManager, Reason, Session,
};
use ferry_model::objects::{ChannelAttrs, ChannelType, RemoteQueueAttrs, Usage};

fn name(s: &str) -> ObjectName {
    object_name(s).unwrap()
}

/// QM1 with a transmission queue QM2 and a remote queue APP.R → APP.IN at QM2; QM2 with a
/// receiver channel C and APP.IN.
fn pair() -> (QueueManager, QueueManager) {
    let qm1 = QueueManager::with_name("QM1").unwrap();
    qm1.define_queue(
        "QM2",
        QueueDefinition::Local(LocalQueueAttrs {
            usage: Usage::Transmission,
            ..Default::default()
        }),
        false,
    )
    .unwrap();
    qm1.define_queue(
        "APP.R",
        QueueDefinition::Remote(RemoteQueueAttrs {
            remote_name: name("APP.IN"),
            remote_qmgr: name("QM2"),
            ..Default::default()
        }),
        false,
    )
    .unwrap();
    let qm2 = QueueManager::with_name("QM2").unwrap();
    qm2.define_queue("APP.IN", QueueDefinition::Local(Default::default()), false)
        .unwrap();
    qm2.define_channel(
        "C",
        ChannelAttrs {
            channel_type: ChannelType::Receiver,
            ..Default::default()
        },
        false,
    )
    .unwrap();
    (qm1, qm2)
}

/// What a sender that waits for each batch says when it starts afresh.
fn fresh_sender(batch_size: u32, max_msg_length: u32) -> channel::SenderOffer {
    channel::SenderOffer::waiting_for_each(batch_size, max_msg_length, 0)
}

/// QM1 of [`pair`] with sender channel `channel` defined on its transmission queue QM2 (never
/// started: its partner's address goes nowhere).
fn with_sender(channel: &str) -> QueueManager {
    let (qm1, _qm2) = pair();
    qm1.define_channel(
        channel,
        ChannelAttrs {
            channel_type: ChannelType::Sender,
            conn_name: "127.0.0.1(1)".into(),
            xmit_queue: name("QM2"),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    qm1
}

fn session(qm: &QueueManager) -> Session {
    qm.connect_internal("channel-test").unwrap()
}

fn put_remote(s: &mut Session, bodies: &[&str]) {
    for b in bodies {
        s.put1(
            &ObjectDescriptor::queue(name("APP.R")),
            Message::text(b),
            &PutOptions::default(),
        )
        .unwrap();
    }
}

fn bodies(s: &mut Session, queue: &str) -> Vec<String> {
    let h = s
        .open(&ObjectDescriptor::queue(name(queue)), OpenOptions::input())
        .unwrap();
    let mut out = Vec::new();
    while let Ok(g) = s.get(h, &GetOptions::new()) {
        out.push(String::from_utf8(g.message.body.to_vec()).unwrap());
    }
    s.close(h, Default::default()).unwrap();
    out
}

#[test]
fn batches_move_and_an_in_doubt_batch_is_resolved_from_the_receiver() {
    let (qm1, qm2) = pair();
    let (mut app, mut sender, mut receiver) = (session(&qm1), session(&qm1), session(&qm2));
    let c = name("C");
    put_remote(&mut app, &["a", "b", "c"]);
    let start = channel::receiver_start(&mut receiver, &c, fresh_sender(50, 4 << 20)).unwrap();
    assert_eq!(start.committed, SyncRecord::default());
    assert_eq!(start.batch_size, 50);

    // Batch 1, confirmed normally.
    let xq = sender
        .open(
            &ObjectDescriptor::queue(name("QM2")),
            OpenOptions::input_exclusive().with_browse(),
        )
        .unwrap();
    let b1 =
        channel::next_batch(&mut sender, xq, 2, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(b1.messages.len(), 2);
    let out = channel::receive_batch(&mut receiver, &c, 1, [1; 16], b1.messages, 1).unwrap();
    assert_eq!((out.delivered, out.dead_lettered), (2, 0));
    channel::sender_commit(&mut sender, &c, 1, None).unwrap();
    assert_eq!(bodies(&mut session(&qm2), "APP.IN"), vec!["a", "b"]);

    // Batch 2: the receiver commits, then the sender fails before its own commit.
    put_remote(&mut app, &["d"]);
    let b2 =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(b2.messages.len(), 2);
    channel::receive_batch(&mut receiver, &c, 2, [2; 16], b2.messages, 1).unwrap();
    sender.backout().unwrap(); // c and d are back on the transmission queue
                               // Restart of the channel: the receiver is one batch ahead, with the ids of batch 2.
    let mine = channel::read_sync(&mut sender, &c).unwrap();
    assert_eq!(mine.seq, 1);
    let peer = channel::receiver_start(&mut receiver, &c, fresh_sender(50, 4 << 20)).unwrap();
    assert_eq!(peer.committed.seq, 2);
    assert_eq!(peer.committed.ids.len(), 2);
    let removed = channel::resolve_committed_batch(&mut sender, &c, xq, &peer.committed).unwrap();
    assert_eq!(removed, 2);
    assert_eq!(channel::read_sync(&mut sender, &c).unwrap().seq, 2);
    // Nothing is sent twice: the transmission queue is empty, QM2 has c and d once.
    let left =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert!(left.messages.is_empty());
    assert_eq!(bodies(&mut session(&qm2), "APP.IN"), vec!["c", "d"]);

    // A batch out of sequence is refused and changes nothing.
    put_remote(&mut app, &["e"]);
    let b =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    let e = channel::receive_batch(&mut receiver, &c, 7, [7; 16], b.messages, 1).unwrap_err();
    assert_eq!(e.reason, Reason::ChannelSeqNumError);
    assert!(e.detail.contains("RESET CHANNEL(C)"), "{e}");
    assert!(bodies(&mut session(&qm2), "APP.IN").is_empty());
    sender.backout().unwrap();
}

#[test]
fn undeliverable_messages_are_dead_lettered_in_the_batch() {
    let (qm1, qm2) = pair();
    let (mut app, mut sender, mut receiver) = (session(&qm1), session(&qm1), session(&qm2));
    let c = name("C");
    qm1.define_queue(
        "APP.BAD",
        QueueDefinition::Remote(RemoteQueueAttrs {
            remote_name: name("NO.SUCH.Q"),
            remote_qmgr: name("QM2"),
            ..Default::default()
        }),
        false,
    )
    .unwrap();
    app.put1(
        &ObjectDescriptor::queue(name("APP.BAD")),
        Message::text("x"),
        &PutOptions::default(),
    )
    .unwrap();
    put_remote(&mut app, &["ok"]);
    channel::receiver_start(&mut receiver, &c, fresh_sender(50, 4 << 20)).unwrap();
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    let b =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    let out = channel::receive_batch(&mut receiver, &c, 1, [1; 16], b.messages, 1).unwrap();
    assert_eq!((out.delivered, out.dead_lettered), (1, 1));
    let mut s2 = session(&qm2);
    let h = s2
        .open(
            &ObjectDescriptor::queue(name("SYSTEM.DEAD.LETTER.QUEUE")),
            OpenOptions::input(),
        )
        .unwrap();
    let dead = s2.get(h, &GetOptions::new()).unwrap().message;
    let dlh = dead.dead_letter.unwrap();
    assert_eq!(dlh.reason, Reason::UnknownObjectName);
    assert_eq!(dlh.dest_queue.as_str(), "NO.SUCH.Q");
    assert_eq!(dlh.put_appl_name.as_str(), "C");
    // A receiver without a dead-letter queue backs the whole batch out instead.
    qm2.alter_qmgr(|a| a.dead_letter_queue = ObjectName::EMPTY)
        .unwrap();
    sender.commit().unwrap();
    app.put1(
        &ObjectDescriptor::queue(name("APP.BAD")),
        Message::text("y"),
        &PutOptions::default(),
    )
    .unwrap();
    let b =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    let e = channel::receive_batch(&mut receiver, &c, 2, [2; 16], b.messages, 1).unwrap_err();
    assert!(e.detail.contains("no dead-letter queue"), "{e}");
    assert_eq!(channel::read_sync(&mut receiver, &c).unwrap().seq, 1);
}

#[test]
fn the_receiving_end_must_be_defined_as_a_receiver() {
    let (_qm1, qm2) = pair();
    let mut r = session(&qm2);
    let e = channel::receiver_start(&mut r, &name("NOPE"), fresh_sender(50, 1000)).unwrap_err();
    assert_eq!(e.reason, Reason::UnknownObjectName);
    assert!(e.detail.contains("CHLTYPE(RCVR)"), "{e}");
    let e = qm2
        .define_channel("A.VERY.LONG.CHANNEL.NAME", ChannelAttrs::default(), false)
        .unwrap_err();
    assert_eq!(e.reason, Reason::AttributeValueError);
    // RESET CHANNEL sets the record a sequence error names.
    qm2.reset_channel("C", 5).unwrap();
    assert_eq!(channel::read_sync(&mut r, &name("C")).unwrap().seq, 5);
    let start = channel::receiver_start(&mut r, &name("C"), fresh_sender(50, 1000)).unwrap();
    assert_eq!(start.committed.seq, 5);
    assert_eq!(
        qm2.reset_channel("NOPE", 1).unwrap_err().reason,
        Reason::UnknownObjectName
    );
}

#[test]
fn a_batch_left_in_doubt_at_the_sender_is_settled_by_resolve_channel() {
    let qm1 = with_sender("C");
    let (mut app, mut sender) = (session(&qm1), session(&qm1));
    let c = name("C");
    put_remote(&mut app, &["a", "b", "c"]);
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    // Batch 1 of two messages is sent; no answer comes.
    let b =
        channel::next_batch(&mut sender, xq, 2, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    channel::sender_in_doubt(&mut sender, &c, 0, &b.messages, [9; 16], None).unwrap();
    sender.close(xq, Default::default()).unwrap();
    let rec = channel::read_sync(&mut sender, &c).unwrap();
    assert_eq!((rec.seq, rec.ids.len()), (0, 2));
    // BACKOUT: nothing leaves the transmission queue; the record is clear.
    assert_eq!(qm1.resolve_channel("C", false).unwrap(), 0);
    assert!(channel::read_sync(&mut sender, &c).unwrap().ids.is_empty());
    let e = qm1.resolve_channel("C", true).unwrap_err();
    assert!(e.detail.contains("no batch in doubt"), "{e}");
    // In doubt again, and this time the operator knows the receiver has it: COMMIT.
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    let b =
        channel::next_batch(&mut sender, xq, 2, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    channel::sender_in_doubt(&mut sender, &c, 0, &b.messages, [9; 16], None).unwrap();
    sender.close(xq, Default::default()).unwrap();
    assert_eq!(qm1.resolve_channel("C", true).unwrap(), 2);
    let rec = channel::read_sync(&mut sender, &c).unwrap();
    assert_eq!((rec.seq, rec.ids.len()), (1, 0));
    // Only "c" is left to send.
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    let left =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(left.messages.len(), 1);
    assert_eq!(&left.messages[0].body[..], b"c");
}

#[test]
fn applications_cannot_open_the_channels_sync_queue_by_any_name() {
    let qm = QueueManager::with_name("QMS").unwrap();
    qm.define_queue(
        "SYNC.ALIAS",
        ferry_core::model::objects::QueueDefinition::Alias(
            ferry_core::model::objects::AliasQueueAttrs::new(name(
                ferry_core::model::system::CHANNEL_SYNC_QUEUE,
            )),
        ),
        false,
    )
    .unwrap();
    let mut app = qm.connect(&ConnectOptions::app("app")).unwrap();
    for q in [ferry_core::model::system::CHANNEL_SYNC_QUEUE, "SYNC.ALIAS"] {
        for opts in [
            OpenOptions::input(),
            OpenOptions::output(),
            OpenOptions::browse(),
        ] {
            let e = app
                .open(&ObjectDescriptor::queue(name(q)), opts)
                .unwrap_err();
            assert_eq!(e.reason, Reason::NotAuthorized, "{q}: {e}");
        }
        let e = app
            .put1(
                &ObjectDescriptor::queue(name(q)),
                Message::text("forged"),
                &PutOptions::default(),
            )
            .unwrap_err();
        assert_eq!(e.reason, Reason::NotAuthorized, "put1 to {q}: {e}");
    }
    // The queue manager's own channel agents may.
    let mut agent = qm.connect_internal("agent").unwrap();
    let h = agent
        .open(
            &ObjectDescriptor::queue(name(ferry_core::model::system::CHANNEL_SYNC_QUEUE)),
            OpenOptions::browse(),
        )
        .unwrap();
    agent.close(h, Default::default()).unwrap();
}

/// Gets the next batch of up to `n` from `xq` in its own unit of work and sets it aside, as a
/// sender with a window does: (its record, its unit of work, its messages).
fn detached_batch(
    sender: &mut Session,
    xq: ferry_core::Hobj,
    n: u32,
    seq: u64,
) -> (
    channel::BatchRecord,
    ferry_core::DetachedUow,
    Vec<ferry_core::Message>,
) {
    let b = channel::next_batch(sender, xq, n, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(b.messages.len(), n as usize);
    let record = channel::BatchRecord {
        seq,
        ids: channel::transmission_ids(&b.messages),
        luwid: [seq as u8; 16],
    };
    (record, sender.detach_uow(), b.messages)
}

#[test]
fn a_window_of_recoverable_batches_is_settled_after_the_sender_fails() {
    let (qm1, qm2) = pair();
    let (mut app, mut sender, mut receiver) = (session(&qm1), session(&qm1), session(&qm2));
    let c = name("C");
    put_remote(&mut app, &["a", "b", "c", "d", "e", "f", "g"]);
    let offer = channel::SenderOffer {
        window: 16,
        ..fresh_sender(50, 4 << 20)
    };
    let start = channel::receiver_start(&mut receiver, &c, offer).unwrap();
    assert_eq!(start.window, 16);
    let big = channel::SenderOffer {
        window: 99,
        ..offer
    };
    assert_eq!(
        channel::receiver_start(&mut receiver, &c, big)
            .unwrap()
            .window,
        channel::RECOVERABLE_WINDOW,
        "the window is at most RECOVERABLE_WINDOW"
    );
    let xq = sender
        .open(
            &ObjectDescriptor::queue(name("QM2")),
            OpenOptions::input_exclusive().with_browse(),
        )
        .unwrap();
    // Three batches sent, none confirmed: each unit of work set aside; their messages are
    // invisible on the transmission queue meanwhile.
    let (r1, u1, m1) = detached_batch(&mut sender, xq, 2, 1);
    let (r2, u2, m2) = detached_batch(&mut sender, xq, 2, 2);
    let (_r3, u3, _m3) = detached_batch(&mut sender, xq, 2, 3);
    assert_eq!((u1.len(), u2.len(), u3.len()), (2, 2, 2));
    let rest =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(rest.messages.len(), 1, "only g is left to get");
    sender.backout().unwrap();
    // The receiver commits the first two, keeping them in its window.
    channel::receive_batch(&mut receiver, &c, 1, r1.luwid, m1, 16).unwrap();
    channel::receive_batch(&mut receiver, &c, 2, r2.luwid, m2, 16).unwrap();
    // A session cannot take a set-aside unit of work while its own holds messages.
    channel::next_batch(&mut sender, xq, 1, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    let e = sender.attach_uow(u3).unwrap_err();
    assert_eq!(e.reason, Reason::UnexpectedError);
    sender.backout().unwrap();
    // The sender fails: its set-aside units of work are backed out (dropped), all six messages
    // are back on the transmission queue.
    drop((u1, u2));
    // It starts again at sequence 0: the receiver is two ahead and says what both carried.
    let peer = channel::receiver_start(&mut receiver, &c, offer).unwrap();
    assert_eq!(peer.committed.seq, 2);
    assert_eq!(peer.committed.ids, r2.ids);
    assert_eq!(peer.committed.more, vec![r1.clone()]);
    // Removing exactly those leaves e, f and g to send; nothing reaches APP.IN twice.
    let both = SyncRecord {
        seq: 2,
        ids: r1.ids.iter().chain(&r2.ids).copied().collect(),
        ..SyncRecord::default()
    };
    let removed = channel::resolve_committed_batch(&mut sender, &c, xq, &both).unwrap();
    assert_eq!(removed, 4);
    let left =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    let left: Vec<_> = left.messages.iter().map(|m| m.body.to_vec()).collect();
    assert_eq!(left, vec![b"e".to_vec(), b"f".to_vec(), b"g".to_vec()]);
    sender.backout().unwrap();
    assert_eq!(
        bodies(&mut session(&qm2), "APP.IN"),
        vec!["a", "b", "c", "d"]
    );
    // A sender that starts one behind the receiver is told of no earlier batch.
    let one_behind = channel::SenderOffer { seq: 1, ..offer };
    let peer = channel::receiver_start(&mut receiver, &c, one_behind).unwrap();
    assert!(peer.committed.more.is_empty());
}

#[test]
fn a_window_left_in_doubt_is_recorded_and_settled_by_resolve_channel() {
    let qm1 = with_sender("C");
    let (mut app, mut sender) = (session(&qm1), session(&qm1));
    let c = name("C");
    put_remote(&mut app, &["a", "b", "c", "d", "e"]);
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    let (r1, u1, _) = detached_batch(&mut sender, xq, 2, 1);
    let (r2, u2, _) = detached_batch(&mut sender, xq, 2, 2);
    drop((u1, u2));
    channel::sender_in_doubt_window(&mut sender, &c, 0, vec![r1.clone(), r2.clone()], None)
        .unwrap();
    sender.close(xq, Default::default()).unwrap();
    // The record keeps both batches (the first in `ids`, the second in `more`).
    let rec = channel::read_sync(&mut sender, &c).unwrap();
    assert_eq!((rec.seq, &rec.ids, &rec.luwid), (0, &r1.ids, &r1.luwid));
    assert_eq!(rec.more, vec![r2]);
    // COMMIT: the receiver is known to have both — four messages leave, sequence 2.
    assert_eq!(qm1.resolve_channel("C", true).unwrap(), 4);
    let rec = channel::read_sync(&mut sender, &c).unwrap();
    assert_eq!((rec.seq, rec.ids.len(), rec.more.len()), (2, 0, 0));
    let xq = sender
        .open(&ObjectDescriptor::queue(name("QM2")), OpenOptions::input())
        .unwrap();
    let left =
        channel::next_batch(&mut sender, xq, 50, 1 << 20, Duration::ZERO, Duration::ZERO).unwrap();
    assert_eq!(left.messages.len(), 1);
    assert_eq!(&left.messages[0].body[..], b"e");
}
