//! The queue-manager side of message channels (docs/channels.md): what each end of a
//! sender/receiver pair does inside the engine, with no networking — the server drives it.
//!
//! A batch is a unit of work at both ends. The sender gets the batch's messages from its
//! transmission queue in syncpoint and sends them; the receiver puts each to its destination
//! (or, if it cannot be delivered, to the dead-letter queue with a header saying why) and, in
//! the same unit of work, replaces its channel synchronisation record — the batch's sequence
//! number and the transmission ids it carried — then commits and answers. Only then does the
//! sender commit its gets, with its own record. So:
//!
//! - receiver fails before its commit: nothing happened there; the sender backs out and sends
//!   the same messages again under the same sequence number;
//! - receiver committed, sender did not (the answer was lost, or the sender died): at the next
//!   start the receiver reports sequence n+1 and its transmission ids; the sender removes those
//!   messages from the transmission queue (they were delivered) and moves on — exactly once;
//! - any other difference in sequence numbers is reported, with the RESET CHANNEL to use.
//!
//! Synchronisation records are persistent messages on SYSTEM.CHANNEL.SYNCQ, one per channel,
//! keyed by correl id (the channel name).

use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};

use crate::qmgr::session::Session;
use crate::qmgr::system::CHANNEL_SYNC_QUEUE;
use ferry_model::channel::ChannelState;
pub use ferry_model::channel::{
    BatchRecord, ChannelStatus, SenderOffer, SyncRecord, LUWID_KEY_LEN, LUWID_LEN,
    MAX_CHANNEL_NAME, RECOVERABLE_WINDOW,
};
use ferry_model::message::{
    CorrelId, DeadLetterHeader, Message, MsgId, Persistence, TransmissionHeader,
};
use ferry_model::name::{ApplName, ObjectName};
use ferry_model::objects::ChannelType;
use ferry_model::options::{BrowseMode, GetOptions, ObjectDescriptor, OpenOptions, PutOptions};
use ferry_model::reason::{MqError, MqResult, Reason};

/// The body of a synchronisation record on SYSTEM.CHANNEL.SYNCQ: u64 sequence number, u32 count
/// and that many 24-byte transmission ids; then (written since logical unit of work ids exist;
/// older records end before it) a u8 tag 1, the 16-byte id, a u8 (1 if a key follows) and the
/// sender's 32-byte key; then (only when there are further batches, see [`SyncRecord::more`])
/// a u8 tag 2, a u32 count and for each batch its u64 sequence number, 16-byte id, u32 count
/// and ids.
struct SyncBody;

/// Tag of the record's tail.
const TAIL: u8 = 1;
/// Tag of the further batches after the tail.
const MORE: u8 = 2;

impl SyncBody {
    fn encode(r: &SyncRecord) -> Bytes {
        let more: usize = r.more.iter().map(|b| 28 + b.ids.len() * 24).sum();
        let mut b = BytesMut::with_capacity(
            12 + r.ids.len() * 24 + 2 + LUWID_LEN + LUWID_KEY_LEN + 5 + more,
        );
        b.put_u64_le(r.seq);
        b.put_u32_le(r.ids.len() as u32);
        for id in &r.ids {
            b.put_slice(&id.0);
        }
        b.put_u8(TAIL);
        b.put_slice(&r.luwid);
        match &r.key {
            Some(k) => {
                b.put_u8(1);
                b.put_slice(k);
            }
            None => b.put_u8(0),
        }
        if !r.more.is_empty() {
            b.put_u8(MORE);
            b.put_u32_le(r.more.len() as u32);
            for m in &r.more {
                b.put_u64_le(m.seq);
                b.put_slice(&m.luwid);
                b.put_u32_le(m.ids.len() as u32);
                for id in &m.ids {
                    b.put_slice(&id.0);
                }
            }
        }
        b.freeze()
    }

    fn decode(body: &[u8]) -> MqResult<SyncRecord> {
        let mut c = Cursor(body);
        let seq = c.u64()?;
        let ids = c.ids()?;
        let mut r = SyncRecord {
            seq,
            ids,
            ..SyncRecord::default()
        };
        match c.0.first() {
            None => return Ok(r),
            Some(&TAIL) => c.take(1)?,
            Some(_) => return Err(damaged()),
        };
        r.luwid.copy_from_slice(c.take(LUWID_LEN)?);
        if c.take(1)?[0] == 1 {
            let mut key = [0u8; LUWID_KEY_LEN];
            key.copy_from_slice(c.take(LUWID_KEY_LEN)?);
            r.key = Some(key);
        }
        match c.0.first() {
            None => return Ok(r),
            Some(&MORE) => c.take(1)?,
            Some(_) => return Err(damaged()),
        };
        let n = c.u32()? as usize;
        for _ in 0..n {
            let seq = c.u64()?;
            let mut luwid = [0u8; LUWID_LEN];
            luwid.copy_from_slice(c.take(LUWID_LEN)?);
            let ids = c.ids()?;
            r.more.push(BatchRecord { seq, ids, luwid });
        }
        if c.0.is_empty() {
            Ok(r)
        } else {
            Err(damaged())
        }
    }
}

fn damaged() -> MqError {
    MqError::new(
        Reason::QMgrDataError,
        "a channel synchronisation record on SYSTEM.CHANNEL.SYNCQ is damaged",
    )
}

/// Reads a synchronisation record's body, refusing what runs past its end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> MqResult<&'a [u8]> {
        if self.0.len() < n {
            return Err(damaged());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> MqResult<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().map_err(|_| damaged())?,
        ))
    }

    fn u64(&mut self) -> MqResult<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().map_err(|_| damaged())?,
        ))
    }

    /// A u32 count and that many 24-byte ids (the count checked against what is left first).
    fn ids(&mut self) -> MqResult<Vec<MsgId>> {
        let n = self.u32()? as usize;
        let len = n.checked_mul(24).ok_or_else(damaged)?;
        Ok(self
            .take(len)?
            .chunks_exact(24)
            .map(MsgId::from_slice)
            .collect())
    }
}

/// The correl id that keys a channel's record: its name, blank-padded.
fn sync_key(channel: &ObjectName) -> CorrelId {
    let mut id = [b' '; 24];
    let n = channel.as_str().as_bytes();
    id[..n.len().min(24)].copy_from_slice(&n[..n.len().min(24)]);
    CorrelId(id)
}

/// The correl id of slot `slot` of a receiver's window of committed batches (see
/// [`receive_batch`]): the channel's name, blank-padded, then 0xFF, 0 and the slot in its last
/// three bytes (a name is at most 20 printable characters: no clash with a channel's key).
fn slot_key(channel: &ObjectName, seq: u64) -> CorrelId {
    debug_assert!(channel.as_str().len() <= MAX_CHANNEL_NAME);
    let mut id = sync_key(channel);
    id.0[21] = 0xFF;
    id.0[22] = 0;
    id.0[23] = (seq % u64::from(RECOVERABLE_WINDOW)) as u8;
    id
}

fn sync_queue() -> ObjectDescriptor {
    ObjectDescriptor::queue(
        ferry_model::name::object_name(CHANNEL_SYNC_QUEUE).expect("a valid system queue name"),
    )
}

/// Reads `channel`'s synchronisation record (a browse: nothing changes).
pub fn read_sync(s: &mut Session, channel: &ObjectName) -> MqResult<SyncRecord> {
    read_record(s, sync_key(channel))
}

/// Reads the record keyed `key` (a default one when there is none).
fn read_record(s: &mut Session, key: CorrelId) -> MqResult<SyncRecord> {
    let h = s.open(&sync_queue(), OpenOptions::browse())?;
    let got = s.get(
        h,
        &GetOptions::new().correl_id(key).browse(BrowseMode::First),
    );
    s.close(h, Default::default())?;
    match got {
        Ok(g) => SyncBody::decode(&g.message.body),
        Err(e) if e.reason == Reason::NoMsgAvailable => Ok(SyncRecord::default()),
        Err(e) => Err(e),
    }
}

/// Replaces `channel`'s synchronisation record inside the session's unit of work; returns the
/// record it replaced.
pub fn replace_sync(
    s: &mut Session,
    channel: &ObjectName,
    record: &SyncRecord,
) -> MqResult<SyncRecord> {
    replace_record(s, sync_key(channel), record)
}

/// Replaces the record keyed `key` inside the session's unit of work; returns the one it
/// replaced.
fn replace_record(s: &mut Session, key: CorrelId, record: &SyncRecord) -> MqResult<SyncRecord> {
    let h = s.open(&sync_queue(), OpenOptions::input().with_output())?;
    let old = match s.get(h, &GetOptions::new().correl_id(key).syncpoint()) {
        Ok(g) => SyncBody::decode(&g.message.body)?,
        Err(e) if e.reason == Reason::NoMsgAvailable => SyncRecord::default(),
        Err(e) => {
            let _ = s.close(h, Default::default());
            return Err(e);
        }
    };
    let mut msg = Message::new(SyncBody::encode(record)).with_persistence(Persistence::Persistent);
    msg.descriptor.correl_id = key;
    let put = s.put(h, msg, &PutOptions::syncpoint());
    s.close(h, Default::default())?;
    put?;
    Ok(old)
}

/// Replaces `channel`'s record with `record` and commits the session's unit of work with it;
/// on failure the unit of work is backed out.
fn commit_with_record(s: &mut Session, channel: &ObjectName, record: &SyncRecord) -> MqResult<()> {
    match replace_sync(s, channel, record) {
        Ok(_) => s.commit(),
        Err(e) => {
            let _ = s.backout();
            Err(e)
        }
    }
}

/// What the receiving end answers when a sender starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiverStart {
    /// The receiving queue manager.
    pub qmgr: ObjectName,
    /// Batch size both ends use: the lower of the two BATCHSZ (and within MAXUMSGS).
    pub batch_size: u32,
    /// Message length both ends accept: the lower of the two MAXMSGL.
    pub max_msg_length: u32,
    /// The receiver's last committed batch, with (in `more`) those it committed after the
    /// sender's last before it, when the sender keeps a window of them.
    pub committed: SyncRecord,
    /// Recoverable batches the sender may keep unconfirmed at once: the lower of what it asked
    /// for and [`RECOVERABLE_WINDOW`].
    pub window: u32,
}

/// How a batch went at the receiver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchOutcome {
    /// Messages put to their destination queues.
    pub delivered: u32,
    /// Messages put to the dead-letter queue instead.
    pub dead_lettered: u32,
}

/// The receiving end of a channel starts: `channel` must be defined here as RCVR.
pub fn receiver_start(
    s: &mut Session,
    channel: &ObjectName,
    sender: SenderOffer,
) -> MqResult<ReceiverStart> {
    let SenderOffer {
        batch_size,
        max_msg_length,
        seq: sender_seq,
        window,
    } = sender;
    let qm = s.queue_manager().clone();
    let def = qm.channel(channel.as_str()).map_err(|_| {
        MqError::new(
            Reason::UnknownObjectName,
            format!(
                "channel {channel} is not defined on queue manager {}; define its receiving end with DEFINE CHANNEL({channel}) CHLTYPE(RCVR)",
                qm.name()
            ),
        )
    })?;
    if def.channel_type != ChannelType::Receiver {
        return Err(MqError::new(
            Reason::ObjectTypeError,
            format!(
                "channel {channel} on queue manager {} is not a receiver (CHLTYPE(RCVR))",
                qm.name()
            ),
        ));
    }
    let max_uow = qm.attrs().max_uncommitted_msgs.saturating_sub(2).max(1) as u32;
    let mut committed = read_sync(s, channel)?;
    committed.more = committed_since(s, channel, sender_seq, committed.seq)?;
    Ok(ReceiverStart {
        qmgr: qm.name(),
        batch_size: batch_size.min(def.batch_size).min(max_uow).max(1),
        max_msg_length: max_msg_length
            .min(def.max_msg_length as u32)
            .min(qm.attrs().max_msg_length as u32),
        committed,
        window: window.clamp(1, RECOVERABLE_WINDOW),
    })
}

/// The batches a receiver committed after the sender's last (`sender_seq`) and before its own
/// last (`last`), from its window's slots, in order; it stops at the first it no longer has
/// (the sender then finds the gap and says so).
fn committed_since(
    s: &mut Session,
    channel: &ObjectName,
    sender_seq: u64,
    last: u64,
) -> MqResult<Vec<BatchRecord>> {
    let mut out = Vec::new();
    if last <= sender_seq.saturating_add(1) || last - sender_seq > u64::from(RECOVERABLE_WINDOW) {
        return Ok(out);
    }
    for seq in sender_seq + 1..last {
        let r = read_record(s, slot_key(channel, seq))?;
        if r.seq != seq {
            break;
        }
        out.push(BatchRecord {
            seq,
            ids: r.ids,
            luwid: r.luwid,
        });
    }
    Ok(out)
}

/// Whether a put failed because of the message or its destination (it goes to the dead-letter
/// queue and the channel carries on) rather than because of the queue manager itself.
fn undeliverable(r: Reason) -> bool {
    matches!(
        r,
        Reason::UnknownObjectName
            | Reason::QFull
            | Reason::MsgTooBigForQ
            | Reason::MsgTooBigForQMgr
            | Reason::PutInhibited
            | Reason::UnknownRemoteQMgr
            | Reason::XmitQTypeError
            | Reason::XmitQUsageError
            | Reason::PersistentNotAllowed
            | Reason::QTypeError
            | Reason::UnknownAliasBaseQ
            | Reason::ObjectTypeError
            | Reason::OptionNotValidForType
            | Reason::MissingReplyToQ
    )
}

/// One batch at the receiving end: every message delivered (or dead-lettered) and `seq`
/// recorded (sequence 0: a non-persistent batch sent NPMSPEED(FAST), not recorded), in one
/// unit of work, committed before this returns (over a socket, the answer is
/// held until the commit is on disk). On failure the unit of work is backed out.
///
/// With a sender that keeps a `window` of recoverable batches unconfirmed, the batch is also
/// recorded in slot `seq` mod [`RECOVERABLE_WINDOW`] of the receiver's window, in the same unit
/// of work, so that all the batches a failed sender is in doubt about can be settled when it
/// starts again ([`receiver_start`]).
pub fn receive_batch(
    s: &mut Session,
    channel: &ObjectName,
    seq: u64,
    luwid: [u8; LUWID_LEN],
    messages: Vec<Message>,
    window: u32,
) -> MqResult<BatchOutcome> {
    let r = receive_batch_in_uow(s, channel, seq, luwid, messages, window);
    match r {
        Ok(outcome) => {
            s.commit()?;
            Ok(outcome)
        }
        Err(e) => {
            let _ = s.backout();
            Err(e)
        }
    }
}

fn receive_batch_in_uow(
    s: &mut Session,
    channel: &ObjectName,
    seq: u64,
    luwid: [u8; LUWID_LEN],
    messages: Vec<Message>,
    window: u32,
) -> MqResult<BatchOutcome> {
    let qm = s.queue_manager().clone();
    let mut outcome = BatchOutcome::default();
    let mut ids = Vec::with_capacity(messages.len());
    let deliver = PutOptions {
        syncpoint: true,
        context: ferry_model::options::PutContext::SetAll,
        ..PutOptions::default()
    };
    for mut msg in messages {
        let Some(th) = msg.transmission.take() else {
            return Err(MqError::new(
                Reason::UnexpectedError,
                format!("channel {channel} sent a message without a transmission header"),
            ));
        };
        ids.push(th.xmit_id);
        let dest = ObjectDescriptor::QueueAt {
            name: th.remote_queue,
            qmgr: th.remote_qmgr,
        };
        match s.put1(&dest, msg.clone(), &deliver) {
            Ok(_) => outcome.delivered += 1,
            Err(e) if undeliverable(e.reason) => {
                s.report_exception(&msg, e.reason, true);
                if msg.descriptor.report & ferry_model::report::DISCARD_MSG != 0 {
                    tracing::warn!(channel = %channel, queue = %th.remote_queue, reason = %e.reason,
                        detail = %e.detail, "undeliverable message discarded, as its sender asked (MQRO_DISCARD_MSG)");
                } else {
                    dead_letter(s, channel, msg, &th, e)?;
                }
                outcome.dead_lettered += 1;
            }
            Err(e) => return Err(e),
        }
    }
    // Sequence 0: a batch of non-persistent messages sent NPMSPEED(FAST) — not recorded.
    if seq != 0 {
        let record = SyncRecord {
            seq,
            ids,
            luwid,
            ..SyncRecord::default()
        };
        let old = replace_sync(s, channel, &record)?;
        if old.seq + 1 != seq {
            return Err(sequence_mismatch(channel, &qm.name(), old.seq, seq - 1));
        }
        if window > 1 {
            replace_record(s, slot_key(channel, seq), &record)?;
        }
    }
    Ok(outcome)
}

/// Puts an undeliverable message on the dead-letter queue, in the batch's unit of work, with a
/// header saying why and where it was going.
fn dead_letter(
    s: &mut Session,
    channel: &ObjectName,
    mut msg: Message,
    th: &TransmissionHeader,
    why: MqError,
) -> MqResult<()> {
    let qm = s.queue_manager().clone();
    let dlq = qm.attrs().dead_letter_queue;
    if dlq.is_empty() {
        return Err(MqError::new(
            why.reason,
            format!(
                "channel {channel} cannot deliver a message to {} ({}) and queue manager {} has no dead-letter queue (DEADQ); the batch is backed out",
                th.remote_queue,
                why.detail,
                qm.name()
            ),
        ));
    }
    tracing::warn!(channel = %channel, queue = %th.remote_queue, reason = %why.reason,
        detail = %why.detail, "undeliverable message put to the dead-letter queue");
    msg.dead_letter = Some(Box::new(DeadLetterHeader {
        reason: why.reason,
        dest_queue: th.remote_queue,
        dest_qmgr: th.remote_qmgr,
        original_format: msg.descriptor.format,
        put_appl_name: ApplName::truncating(channel.as_str()),
        put_time: qm.clock().wall(),
    }));
    msg.descriptor.format =
        ferry_model::name::FormatName::truncating(ferry_model::message::format::DEAD_LETTER);
    let opts = PutOptions {
        syncpoint: true,
        context: ferry_model::options::PutContext::SetAll,
        ..PutOptions::default()
    };
    s.put1(&ObjectDescriptor::queue(dlq), msg, &opts)
        .map(|_| ())
        .map_err(|e| {
            MqError::new(
                e.reason,
                format!(
                    "channel {channel} cannot deliver a message to {} ({}) nor put it on the dead-letter queue {dlq} ({}); the batch is backed out",
                    th.remote_queue, why.detail, e.detail
                ),
            )
        })
}

/// The error for sequence numbers that differ by more than one in-doubt batch.
pub fn sequence_mismatch(
    channel: &ObjectName,
    qmgr: &ObjectName,
    receiver: u64,
    sender: u64,
) -> MqError {
    MqError::new(
        Reason::ChannelSeqNumError,
        format!(
            "channel {channel}: sequence numbers differ — the receiver ({qmgr}) last committed batch {receiver}, the sender {sender}; \
             if messages were lost or restored by hand, RESET CHANNEL({channel}) SEQNUM({receiver}) at the sender"
        ),
    )
}

/// A batch the sending end has got (in syncpoint) from its transmission queue.
#[derive(Debug, Default)]
pub struct SenderBatch {
    /// The messages, each with its transmission header.
    pub messages: Vec<Message>,
    /// Their bytes (bodies), for BATCHLIM and statistics.
    pub bytes: usize,
    /// How long the oldest message had waited on the transmission queue.
    pub oldest_wait: Duration,
}

/// Gets the next batch from `xmitq` (a handle open for input) in syncpoint: up to
/// `batch_size` messages and `batch_limit_bytes` (at least one message), waiting up to
/// `first_wait` for the first and `batch_interval` for more while the batch is not full.
pub fn next_batch(
    s: &mut Session,
    xmitq: ferry_model::Hobj,
    batch_size: u32,
    batch_limit_bytes: usize,
    first_wait: Duration,
    batch_interval: Duration,
) -> MqResult<SenderBatch> {
    let mut batch = SenderBatch::default();
    let started = ferry_model::clock::monotonic_now();
    while batch.messages.len() < batch_size as usize && batch.bytes < batch_limit_bytes {
        let wait = if batch.messages.is_empty() {
            first_wait
        } else {
            batch_interval.saturating_sub(started.elapsed())
        };
        let opts = GetOptions::new().syncpoint();
        let opts = if wait.is_zero() {
            opts
        } else {
            opts.wait(wait)
        };
        match s.get(xmitq, &opts) {
            Ok(g) => {
                if g.message.transmission.is_none() {
                    // Not something a channel can send: set it aside, as MQ does.
                    let qm = s.queue_manager().clone();
                    tracing::warn!("a message without a transmission header on a transmission queue: dead-lettered");
                    let dest = g.message.descriptor.reply_to_queue;
                    if let Err((e, _)) =
                        qm.dead_letter(g.message, Reason::UnexpectedError, dest, ObjectName::EMPTY)
                    {
                        return Err(e);
                    }
                    continue;
                }
                let waited = s
                    .queue_manager()
                    .clock()
                    .wall()
                    .duration_since(g.message.descriptor.put_time)
                    .unwrap_or_default();
                batch.oldest_wait = batch.oldest_wait.max(waited);
                batch.bytes += g.message.body.len();
                batch.messages.push(g.message);
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(e),
        }
    }
    Ok(batch)
}

/// The sender's key for logical unit of work ids: the one its record holds, or `fresh`, recorded
/// (and committed) now if it has none.
pub fn sender_key(
    s: &mut Session,
    channel: &ObjectName,
    fresh: [u8; LUWID_KEY_LEN],
) -> MqResult<[u8; LUWID_KEY_LEN]> {
    let mine = read_sync(s, channel)?;
    if let Some(k) = mine.key {
        return Ok(k);
    }
    let record = SyncRecord {
        key: Some(fresh),
        ..mine
    };
    commit_with_record(s, channel, &record)?;
    Ok(fresh)
}

/// The sender's side of a confirmed batch: records `seq` (keeping the sender's key) and
/// commits the batch's gets.
pub fn sender_commit(
    s: &mut Session,
    channel: &ObjectName,
    seq: u64,
    key: Option<[u8; LUWID_KEY_LEN]>,
) -> MqResult<()> {
    commit_with_record(
        s,
        channel,
        &SyncRecord {
            seq,
            key,
            ..SyncRecord::default()
        },
    )
}

/// The transmission ids of a batch's messages, in order (what a synchronisation record and a
/// logical unit of work id cover).
pub fn transmission_ids(batch: &[Message]) -> Vec<MsgId> {
    batch
        .iter()
        .filter_map(|m| m.transmission.as_ref().map(|t| t.xmit_id))
        .collect()
}

/// The sender lost its answer for the batch after `last_confirmed` (sent, not confirmed):
/// backs its gets out (the messages return to the transmission queue) and records the batch
/// as in doubt — its transmission ids and logical unit of work id in the sender's own
/// synchronisation record — so that the next start, or RESOLVE CHANNEL, settles it from what
/// the sender knows it sent, even if the sender restarts meanwhile.
pub fn sender_in_doubt(
    s: &mut Session,
    channel: &ObjectName,
    last_confirmed: u64,
    batch: &[Message],
    luwid: [u8; LUWID_LEN],
    key: Option<[u8; LUWID_KEY_LEN]>,
) -> MqResult<()> {
    s.backout()?;
    let batch = BatchRecord {
        seq: last_confirmed + 1,
        ids: transmission_ids(batch),
        luwid,
    };
    sender_in_doubt_window(s, channel, last_confirmed, vec![batch], key)
}

/// The sender lost its answers for `batches` (sent after `last_confirmed`, in order; their
/// units of work already backed out, so their messages are back on the transmission queue):
/// records them all as in doubt, as [`sender_in_doubt`] records one.
pub fn sender_in_doubt_window(
    s: &mut Session,
    channel: &ObjectName,
    last_confirmed: u64,
    batches: Vec<BatchRecord>,
    key: Option<[u8; LUWID_KEY_LEN]>,
) -> MqResult<()> {
    debug_assert!(batches
        .iter()
        .enumerate()
        .all(|(i, b)| b.seq == last_confirmed + 1 + i as u64));
    let mut it = batches.into_iter();
    let first = it.next().unwrap_or_default();
    commit_with_record(
        s,
        channel,
        &SyncRecord {
            seq: last_confirmed,
            ids: first.ids,
            luwid: first.luwid,
            key,
            more: it.collect(),
        },
    )
}

/// RESOLVE CHANNEL at the sender: settles the batch its record holds in doubt. `commit`:
/// the receiver is known to have it — its messages are removed from the transmission queue
/// `xmitq` and the sequence number advances; otherwise they stay to be sent again. Returns how
/// many messages were removed.
pub fn resolve_in_doubt(
    s: &mut Session,
    channel: &ObjectName,
    xmitq: ObjectName,
    commit: bool,
) -> MqResult<usize> {
    let mine = read_sync(s, channel)?;
    if mine.ids.is_empty() {
        return Err(MqError::new(
            Reason::ChannelNotAvailable,
            format!(
                "channel {channel} has no batch in doubt (sequence number {})",
                mine.seq
            ),
        ));
    }
    if !commit {
        return sender_commit(s, channel, mine.seq, mine.key).map(|_| 0);
    }
    let h = s.open(
        &ObjectDescriptor::queue(xmitq),
        OpenOptions::input().with_browse(),
    )?;
    // Every batch it holds in doubt: the first, and those of a window after it.
    let committed = SyncRecord {
        seq: mine.seq + 1 + mine.more.len() as u64,
        ids: mine
            .ids
            .iter()
            .chain(mine.more.iter().flat_map(|b| b.ids.iter()))
            .copied()
            .collect(),
        more: Vec::new(),
        ..mine
    };
    let removed = resolve_committed_batch(s, channel, h, &committed);
    let _ = s.close(h, Default::default());
    removed
}

/// Resolves a batch the receiver committed but the sender did not (the receiver is at
/// `committed.seq` = the sender's + 1): removes those messages from the transmission queue
/// (they were delivered) and records the sequence number, keeping `committed.key`. The caller
/// has checked that the batch is one the sender sent (its own record, or a logical unit of
/// work id only its key could make). Returns how many were removed.
pub fn resolve_committed_batch(
    s: &mut Session,
    channel: &ObjectName,
    xmitq: ferry_model::Hobj,
    committed: &SyncRecord,
) -> MqResult<usize> {
    let mut wanted: std::collections::HashSet<MsgId> = committed.ids.iter().copied().collect();
    let mut removed = 0;
    let mut mode = BrowseMode::First;
    while !wanted.is_empty() {
        match s.get(xmitq, &GetOptions::new().browse(mode)) {
            Ok(g) => {
                mode = BrowseMode::Next;
                let id = g.message.transmission.as_ref().map(|t| t.xmit_id);
                if let Some(id) = id.filter(|id| wanted.contains(id)) {
                    s.get(
                        xmitq,
                        &GetOptions::new()
                            .browse(BrowseMode::GetUnderCursor)
                            .syncpoint(),
                    )?;
                    wanted.remove(&id);
                    removed += 1;
                }
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => {
                let _ = s.backout();
                return Err(e);
            }
        }
    }
    sender_commit(s, channel, committed.seq, committed.key)?;
    Ok(removed)
}

impl crate::QueueManager {
    /// CHANNEL_NOT_AVAILABLE while channel `n` is running or binding (`doing`: what the command
    /// would do to it).
    fn refuse_if_running(&self, n: &ObjectName, doing: &str) -> MqResult<()> {
        let running = self.channel_status_cell(n).is_some_and(|cell| {
            matches!(
                cell.lock().state,
                ChannelState::Running | ChannelState::Binding
            )
        });
        if running {
            return Err(MqError::new(
                Reason::ChannelNotAvailable,
                format!("channel {n} is running; STOP CHANNEL({n}) before {doing} it"),
            ));
        }
        Ok(())
    }

    /// RESET CHANNEL: sets the channel's last committed sequence number (its synchronisation
    /// record) to `seq`, after messages were lost or restored by hand. Not while it runs.
    pub fn reset_channel(&self, name: &str, seq: u64) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        self.channel(name)?;
        self.refuse_if_running(&n, "resetting")?;
        let mut s = self.connect_internal("RESET CHANNEL")?;
        // A sender keeps its key for logical unit of work ids; a receiver has none.
        let key = read_sync(&mut s, &n)?.key;
        sender_commit(&mut s, &n, seq, key)?;
        if let Some(cell) = self.channel_status_cell(&n) {
            cell.lock().seq = seq;
        }
        tracing::info!(channel = %n, seq, "channel sequence number reset");
        Ok(())
    }

    /// RESOLVE CHANNEL(name) ACTION(COMMIT|BACKOUT): settles a sender's batch left in doubt
    /// (sent, never confirmed) by hand, when its receiver cannot say. Not while it runs.
    pub fn resolve_channel(&self, name: &str, commit: bool) -> MqResult<usize> {
        let n = ferry_model::name::object_name(name)?;
        let def = self.channel(name)?;
        if def.channel_type != ferry_model::objects::ChannelType::Sender {
            return Err(MqError::new(
                Reason::ObjectTypeError,
                format!("channel {n} is not a sender; RESOLVE CHANNEL acts at the sending end"),
            ));
        }
        self.refuse_if_running(&n, "resolving")?;
        let mut s = self.connect_internal("RESOLVE CHANNEL")?;
        let removed = resolve_in_doubt(&mut s, &n, def.xmit_queue, commit)?;
        if let Some(cell) = self.channel_status_cell(&n) {
            cell.lock().in_doubt = false;
        }
        tracing::info!(channel = %n, commit, removed, "in-doubt batch resolved by hand");
        Ok(removed)
    }
}
