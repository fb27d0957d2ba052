//! Conversions between FerryMQ's vocabulary (`ferry-model`) and the wire protocol's types.
//!
//! Both ends of a remote connection use these — the server to turn requests into engine calls,
//! the client to turn replies back into the same types the embedded mode returns — so one
//! mapping serves both and the modes cannot drift apart.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::{BufMut, Bytes, BytesMut};

use crate::codec::Reader;
use crate::msg::{open_flags, put_flags, sub_flags, WireSub};
use crate::msg::{DescriptorRef, WirePutOptions, WireValueRef};
use crate::{
    ShortStr, Status, WireDeadLetter, WireDescriptor, WireError, WireGetOptions, WireMessage,
    WireObject, WireTransmission, WireValue,
};

use ferry_model::message::{
    CorrelId, DeadLetterHeader, Message, MessageDescriptor, MessageType, MsgId, Persistence,
    Priority, Properties, PropertyValue, TransmissionHeader,
};
use ferry_model::name::{object_name, ApplName, FormatName, ObjectName, UserId};
use ferry_model::options::{
    BrowseMode, GetOptions, InputMode, ObjectDescriptor, OpenOptions, PutContext, PutOptions,
    PutResponseMode, SubAction, SubDescriptor, Wait,
};
use ferry_model::reason::{MqError, Reason};
use ferry_model::verbs::Hobj;

fn ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, whole_ms)
}

/// `d` in whole milliseconds, without `as_millis`'s 128-bit division (every pushed message's
/// put time and expiry go through this).
#[inline]
fn whole_ms(d: Duration) -> u64 {
    d.as_secs()
        .saturating_mul(1000)
        .saturating_add(u64::from(d.subsec_millis()))
}

fn time(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

fn wire_err(what: &str) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("the peer sent an invalid {what}"),
    )
}

/// Engine descriptor to wire.
pub fn descriptor_to_wire(d: &MessageDescriptor) -> WireDescriptor {
    descriptor_as(d)
}

/// The engine's descriptor as it is encoded (what [`descriptor_to_wire`] makes, its strings
/// borrowed rather than copied).
pub fn descriptor_encoded(d: &MessageDescriptor) -> DescriptorRef<'_> {
    descriptor_as(d)
}

/// The engine's descriptor on the wire, its strings made `S`.
fn descriptor_as<'a, S: From<&'a str>>(d: &'a MessageDescriptor) -> WireDescriptor<S> {
    WireDescriptor {
        msg_id: d.msg_id.0,
        correl_id: d.correl_id.0,
        persistence: persistence_to_wire(d.persistence),
        priority: priority_to_wire(d.priority),
        expiry_ms: expiry_to_wire(d.expiry),
        message_type: d.message_type.mq_value() as u8,
        feedback: d.feedback,
        report: d.report,
        reply_to_queue: S::from(d.reply_to_queue.as_str()),
        reply_to_qmgr: S::from(d.reply_to_qmgr.as_str()),
        format: S::from(d.format.as_str()),
        ccsid: d.ccsid,
        encoding: d.encoding,
        backout_count: d.backout_count,
        put_time_ms: ms(d.put_time),
        put_appl_name: S::from(d.put_appl_name.as_str()),
        user_id: S::from(d.user_id.as_str()),
    }
}

fn persistence_to_wire(p: Persistence) -> u8 {
    match p {
        Persistence::NotPersistent => 0,
        Persistence::Persistent => 1,
        Persistence::AsQueueDef => 2,
    }
}

fn priority_to_wire(p: Priority) -> u8 {
    match p {
        Priority::Value(p) => p,
        Priority::AsQueueDef => 255,
    }
}

fn expiry_to_wire(e: Option<Duration>) -> u64 {
    e.map_or(0, |e| whole_ms(e).max(1))
}

fn opt_name(s: &str, what: &str) -> Result<ObjectName, MqError> {
    if s.is_empty() {
        Ok(ObjectName::EMPTY)
    } else {
        object_name(s).map_err(|e| MqError::new(e.reason, format!("{what}: {}", e.detail)))
    }
}

/// Wire descriptor to engine.
pub fn descriptor_from_wire(w: &WireDescriptor) -> Result<MessageDescriptor, MqError> {
    Ok(MessageDescriptor {
        msg_id: MsgId(w.msg_id),
        correl_id: CorrelId(w.correl_id),
        persistence: persistence_from_wire(w.persistence)?,
        priority: priority_from_wire(w.priority),
        expiry: expiry_from_wire(w.expiry_ms),
        message_type: message_type_from_wire(w.message_type)?,
        feedback: w.feedback,
        report: w.report,
        reply_to_queue: opt_name(w.reply_to_queue.as_str(), "reply-to queue")?,
        reply_to_qmgr: opt_name(w.reply_to_qmgr.as_str(), "reply-to queue manager")?,
        format: FormatName::truncating(w.format.as_str()),
        ccsid: w.ccsid,
        encoding: w.encoding,
        backout_count: w.backout_count,
        put_time: time(w.put_time_ms),
        put_appl_name: ApplName::truncating(w.put_appl_name.as_str()),
        user_id: UserId::truncating(w.user_id.as_str()),
    })
}

fn persistence_from_wire(p: u8) -> Result<Persistence, MqError> {
    match p {
        0 => Ok(Persistence::NotPersistent),
        1 => Ok(Persistence::Persistent),
        2 => Ok(Persistence::AsQueueDef),
        _ => Err(MqError::new(
            Reason::PersistenceError,
            format!("persistence value {p} is not valid"),
        )),
    }
}

fn priority_from_wire(p: u8) -> Priority {
    match p {
        255 => Priority::AsQueueDef,
        p => Priority::Value(p),
    }
}

fn expiry_from_wire(ms: u64) -> Option<Duration> {
    (ms != 0).then(|| Duration::from_millis(ms))
}

fn message_type_from_wire(t: u8) -> Result<MessageType, MqError> {
    match t {
        1 => Ok(MessageType::Request),
        2 => Ok(MessageType::Reply),
        4 => Ok(MessageType::Report),
        8 => Ok(MessageType::Datagram),
        _ => Err(wire_err("message type")),
    }
}

/// Where [`decode_descriptor`] found the descriptor's parts: after the correl id, the
/// priority, the expiry, the encoding, the put time and the last field. Between them lie the
/// parts a publisher's messages repeat: `[0]..[1]`, `[2]..[3]` and `[4]..[5]`.
type Marks = [usize; 6];

/// A descriptor decoded straight into the engine's (the wire's layout as
/// [`WireDescriptor`]'s), in its box: each string converted where it lies. The outer error is
/// a broken frame; the inner one a value the engine refuses (the frame itself was whole).
fn decode_descriptor(
    r: &mut Reader,
    marks: &mut Marks,
) -> Result<Result<Box<MessageDescriptor>, MqError>, WireError> {
    let mut d = Box::<MessageDescriptor>::default();
    d.msg_id = MsgId(r.array("msg id")?);
    d.correl_id = CorrelId(r.array("correl id")?);
    marks[0] = r.position();
    let persistence = r.u8("persistence")?;
    d.priority = priority_from_wire(r.u8("priority")?);
    marks[1] = r.position();
    d.expiry = expiry_from_wire(r.u64("expiry")?);
    marks[2] = r.position();
    let message_type = r.u8("message type")?;
    d.feedback = r.u32("feedback")?;
    let reply_q = r.short_str_with("reply-to queue", |s| opt_name(s, "reply-to queue"))?;
    let reply_qm = r.short_str_with("reply-to queue manager", |s| {
        opt_name(s, "reply-to queue manager")
    })?;
    d.format = r.short_str_with("format", FormatName::truncating)?;
    (d.ccsid, d.encoding) = (r.u32("ccsid")?, r.u32("encoding")?);
    marks[3] = r.position();
    d.backout_count = r.u32("backout count")?;
    d.put_time = time(r.u64("put time")?);
    marks[4] = r.position();
    d.put_appl_name = r.short_str_with("put application name", ApplName::truncating)?;
    d.user_id = r.short_str_with("user id", UserId::truncating)?;
    marks[5] = r.position();
    // Refused in the order `descriptor_from_wire` refuses.
    let checked = (|| {
        d.persistence = persistence_from_wire(persistence)?;
        d.message_type = message_type_from_wire(message_type)?;
        d.reply_to_queue = reply_q?;
        d.reply_to_qmgr = reply_qm?;
        Ok(())
    })();
    Ok(checked.map(|()| d))
}

/// What the last pushed message of a connection decoded into, so that the next one repeating
/// parts of it byte for byte shares them instead of decoding them again: a subscription's
/// publications repeat one properties section (MQTopicString), and one publisher's messages
/// every descriptor field but the ids, expiry, backout count and put time. Only what decoded
/// without refusal is remembered; bytes are compared, never assumed, so a memo can only save
/// work, not change a result.
#[derive(Debug, Default)]
pub struct PushMemo {
    /// The last properties section's bytes and what they decoded into.
    section: Vec<u8>,
    properties: Properties,
    /// The last descriptor's repeated parts, one after another, and where the second and third
    /// begin in it.
    parts: Vec<u8>,
    cuts: [usize; 2],
    descriptor: Option<Box<MessageDescriptor>>,
}

impl PushMemo {
    /// The next descriptor, when its repeated parts are the last one's (the reader is then
    /// past it); `None` (the reader where it was) when not.
    fn repeat(&self, r: &mut Reader) -> Option<Box<MessageDescriptor>> {
        let last = self.descriptor.as_ref()?;
        let from = r.position();
        let [a, b] = self.cuts;
        let mut same = || -> Result<Option<_>, WireError> {
            let ids = (r.array("msg id")?, r.array("correl id")?);
            if !r.skip_if_next(&self.parts[..a]) {
                return Ok(None);
            }
            let expiry = r.u64("expiry")?;
            if !r.skip_if_next(&self.parts[a..b]) {
                return Ok(None);
            }
            let (backout, put_time) = (r.u32("backout count")?, r.u64("put time")?);
            Ok(r.skip_if_next(&self.parts[b..])
                .then_some((ids, expiry, backout, put_time)))
        };
        let Ok(Some(((msg_id, correl_id), expiry, backout, put_time))) = same() else {
            r.rewind(from);
            return None;
        };
        let mut d = last.clone();
        d.msg_id = MsgId(msg_id);
        d.correl_id = CorrelId(correl_id);
        d.expiry = expiry_from_wire(expiry);
        d.backout_count = backout;
        d.put_time = time(put_time);
        Some(d)
    }

    /// The next descriptor: repeated from the last, or decoded in full (and remembered when
    /// the engine accepts it).
    fn descriptor(
        &mut self,
        r: &mut Reader,
    ) -> Result<Result<Box<MessageDescriptor>, MqError>, WireError> {
        if let Some(d) = self.repeat(r) {
            return Ok(Ok(d));
        }
        let mut m = Marks::default();
        let d = decode_descriptor(r, &mut m)?;
        if let Ok(d) = &d {
            self.parts.clear();
            for (from, to) in [(m[0], m[1]), (m[2], m[3]), (m[4], m[5])] {
                self.parts.extend_from_slice(r.between(from, to));
            }
            self.cuts = [m[1] - m[0], m[1] - m[0] + m[3] - m[2]];
            self.descriptor = Some(d.clone());
        }
        Ok(d)
    }

    /// The next properties section: shared with the last when its bytes are the last's, else
    /// decoded (the outer error a broken frame, the inner a value the engine refuses).
    fn properties(&mut self, r: &mut Reader) -> Result<Result<Properties, MqError>, WireError> {
        if !self.section.is_empty() && r.skip_if_next(&self.section) {
            return Ok(Ok(self.properties.clone()));
        }
        let from = r.position();
        let pairs = crate::msg::decode_properties(r)?;
        let props = Properties::from_pairs(pairs.into_iter().map(|(n, v)| (n, value_from_wire(v))));
        if let Ok(p) = &props {
            self.section.clear();
            self.section
                .extend_from_slice(r.between(from, r.position()));
            self.properties = p.clone();
        }
        Ok(props)
    }
}

/// A Get response decoded by [`decode_got_message`].
#[derive(Debug)]
pub struct GotMessage {
    /// The message's full length.
    pub data_length: u64,
    /// The message, or why the engine's types refuse it (the frame itself was whole).
    pub message: Result<Message, MqError>,
}

/// Decodes a Get response (a read-ahead push) straight into the engine's message, with no
/// wire message between (every pushed message pays for this), sharing what repeats the last
/// push through `memo` (one per connection, fed every push in order).
pub fn decode_got_message(
    payload: Bytes,
    memo: &mut PushMemo,
) -> Result<(Status, Option<GotMessage>), WireError> {
    let mut r = Reader::new(payload);
    let status = crate::msg::decode_status(&mut r)?;
    if status.failed() {
        r.finish("response")?;
        return Ok((status, None));
    }
    let data_length = r.u64("data length")?;
    let descriptor = memo.descriptor(&mut r)?;
    let properties = memo.properties(&mut r)?;
    let tail = crate::msg::decode_tail(&mut r)?;
    r.finish("response")?;
    // Refused in the order `message_from_wire` refuses: properties, then the descriptor.
    let message = properties.and_then(|properties| {
        let mut descriptor = descriptor?;
        descriptor.report = tail.report.unwrap_or(0);
        Ok(Message {
            descriptor,
            properties,
            dead_letter: tail
                .dead_letter
                .as_deref()
                .map(dead_letter_from_wire)
                .transpose()?,
            transmission: (tail.transmission.as_deref().map(transmission_from_wire)).transpose()?,
            body: tail.body,
        })
    });
    Ok((
        status,
        Some(GotMessage {
            data_length,
            message,
        }),
    ))
}

fn value_to_wire(v: &PropertyValue) -> WireValue {
    match v {
        PropertyValue::Bool(b) => WireValue::Bool(*b),
        PropertyValue::I8(x) => WireValue::I8(*x),
        PropertyValue::I16(x) => WireValue::I16(*x),
        PropertyValue::I32(x) => WireValue::I32(*x),
        PropertyValue::I64(x) => WireValue::I64(*x),
        PropertyValue::F32(x) => WireValue::F32(*x),
        PropertyValue::F64(x) => WireValue::F64(*x),
        PropertyValue::String(s) => WireValue::String(s.clone()),
        PropertyValue::Bytes(b) => WireValue::Bytes(b.clone()),
        PropertyValue::Null => WireValue::Null,
    }
}

fn value_from_wire(v: WireValue) -> PropertyValue {
    match v {
        WireValue::Bool(b) => PropertyValue::Bool(b),
        WireValue::I8(x) => PropertyValue::I8(x),
        WireValue::I16(x) => PropertyValue::I16(x),
        WireValue::I32(x) => PropertyValue::I32(x),
        WireValue::I64(x) => PropertyValue::I64(x),
        WireValue::F32(x) => PropertyValue::F32(x),
        WireValue::F64(x) => PropertyValue::F64(x),
        WireValue::String(s) => PropertyValue::String(s),
        WireValue::Bytes(b) => PropertyValue::Bytes(b),
        WireValue::Null => PropertyValue::Null,
    }
}

/// Engine message to wire (the body is shared, not copied).
pub fn message_to_wire(m: &Message) -> WireMessage {
    WireMessage {
        descriptor: descriptor_to_wire(&m.descriptor),
        properties: m
            .properties
            .iter()
            .map(|(n, v)| (n.to_owned(), value_to_wire(v)))
            .collect(),
        dead_letter: m
            .dead_letter
            .as_deref()
            .map(|d| Box::new(dead_letter_to_wire(d))),
        transmission: m
            .transmission
            .as_deref()
            .map(|t| Box::new(transmission_to_wire(t))),
        body: m.body.clone(),
    }
}

fn dead_letter_to_wire(d: &DeadLetterHeader) -> WireDeadLetter {
    WireDeadLetter {
        reason: d.reason.code(),
        dest_queue: ShortStr::new(d.dest_queue.as_str()),
        dest_qmgr: ShortStr::new(d.dest_qmgr.as_str()),
        original_format: ShortStr::new(d.original_format.as_str()),
        put_appl_name: ShortStr::new(d.put_appl_name.as_str()),
        put_time_ms: ms(d.put_time),
    }
}

fn transmission_to_wire(t: &TransmissionHeader) -> WireTransmission {
    WireTransmission {
        remote_queue: ShortStr::new(t.remote_queue.as_str()),
        remote_qmgr: ShortStr::new(t.remote_qmgr.as_str()),
        xmit_id: t.xmit_id.0,
    }
}

fn value_ref(v: &PropertyValue) -> WireValueRef<'_> {
    match v {
        PropertyValue::Bool(b) => WireValueRef::Bool(*b),
        PropertyValue::I8(x) => WireValueRef::I8(*x),
        PropertyValue::I16(x) => WireValueRef::I16(*x),
        PropertyValue::I32(x) => WireValueRef::I32(*x),
        PropertyValue::I64(x) => WireValueRef::I64(*x),
        PropertyValue::F32(x) => WireValueRef::F32(*x),
        PropertyValue::F64(x) => WireValueRef::F64(*x),
        PropertyValue::String(s) => WireValueRef::String(s),
        PropertyValue::Bytes(b) => WireValueRef::Bytes(b),
        PropertyValue::Null => WireValueRef::Null,
    }
}

/// Encodes `m` as [`message_to_wire`] and [`WireMessage::encode`] would, without building
/// the wire message (no copy of its properties): the server's path for every message it sends.
pub fn encode_message(m: &Message, out: &mut BytesMut) {
    crate::msg::encode_message_parts(
        &descriptor_encoded(&m.descriptor),
        m.properties.iter().map(|(n, v)| (n, value_ref(v))),
        m.dead_letter.as_deref().map(dead_letter_to_wire).as_ref(),
        m.transmission.as_deref().map(transmission_to_wire).as_ref(),
        &m.body,
        out,
    );
}

/// Encodes a Get response carrying `m` as [`encode_got`] does, all but the body's bytes: the
/// caller sends `m.body` straight after (the frame's length must count it). Returns whether
/// the body follows (not after a failed status).
pub fn encode_got_head(out: &mut BytesMut, status: &Status, data_length: u64, m: &Message) -> bool {
    if !crate::msg::encode_status(out, status) {
        return false;
    }
    out.put_u64_le(data_length);
    crate::msg::encode_message_head(
        &descriptor_encoded(&m.descriptor),
        m.properties.iter().map(|(n, v)| (n, value_ref(v))),
        m.dead_letter.as_deref().map(dead_letter_to_wire).as_ref(),
        m.transmission.as_deref().map(transmission_to_wire).as_ref(),
        m.body.len(),
        out,
    );
    true
}

/// Encodes a Get response carrying `m` (the status, the data length, the message) as
/// `encode_response` with `Reply::Got` would.
pub fn encode_got(out: &mut BytesMut, status: &Status, data_length: u64, m: &Message) {
    if crate::msg::encode_status(out, status) {
        out.put_u64_le(data_length);
        encode_message(m, out);
    }
}

/// Wire message to engine.
pub fn message_from_wire(mut w: WireMessage) -> Result<Message, MqError> {
    // Taken, not copied: the wire message is ours.
    let pairs = std::mem::take(&mut w.properties);
    let properties =
        Properties::from_pairs(pairs.into_iter().map(|(n, v)| (n, value_from_wire(v))))?;
    Ok(Message {
        descriptor: Box::new(descriptor_from_wire(&w.descriptor)?),
        properties,
        dead_letter: w
            .dead_letter
            .as_deref()
            .map(dead_letter_from_wire)
            .transpose()?,
        transmission: w
            .transmission
            .as_deref()
            .map(transmission_from_wire)
            .transpose()?,
        body: w.body,
    })
}

fn dead_letter_from_wire(d: &WireDeadLetter) -> Result<Box<DeadLetterHeader>, MqError> {
    Ok(Box::new(DeadLetterHeader {
        reason: Reason::from_code(d.reason).unwrap_or(Reason::UnexpectedError),
        dest_queue: opt_name(d.dest_queue.as_str(), "dead-letter queue")?,
        dest_qmgr: opt_name(d.dest_qmgr.as_str(), "dead-letter queue manager")?,
        original_format: FormatName::truncating(d.original_format.as_str()),
        put_appl_name: ApplName::truncating(d.put_appl_name.as_str()),
        put_time: time(d.put_time_ms),
    }))
}

fn transmission_from_wire(t: &WireTransmission) -> Result<Box<TransmissionHeader>, MqError> {
    Ok(Box::new(TransmissionHeader {
        remote_queue: object_name(t.remote_queue.as_str())?,
        remote_qmgr: object_name(t.remote_qmgr.as_str())?,
        xmit_id: MsgId(t.xmit_id),
    }))
}

/// Object descriptor to wire.
pub fn object_to_wire(od: &ObjectDescriptor) -> WireObject {
    match od {
        ObjectDescriptor::QueueManager => WireObject {
            kind: 1,
            ..Default::default()
        },
        ObjectDescriptor::Queue {
            name, dynamic_name, ..
        } => WireObject {
            kind: 0,
            name: name.to_string(),
            dynamic_name: dynamic_name.clone().unwrap_or_default(),
            ..Default::default()
        },
        ObjectDescriptor::QueueAt { name, qmgr } => WireObject {
            kind: 2,
            name: name.to_string(),
            dynamic_name: qmgr.to_string(),
            ..Default::default()
        },
        ObjectDescriptor::Namelist(name) => WireObject {
            kind: 4,
            name: name.to_string(),
            ..Default::default()
        },
        ObjectDescriptor::Process(name) => WireObject {
            kind: 5,
            name: name.to_string(),
            ..Default::default()
        },
        ObjectDescriptor::Topic { object, string } => WireObject {
            kind: 3,
            name: object.map(|o| o.to_string()).unwrap_or_default(),
            topic: string.clone(),
            ..Default::default()
        },
    }
}

/// Wire object to engine.
pub fn object_from_wire(w: &WireObject) -> Result<ObjectDescriptor, MqError> {
    Ok(match w.kind {
        1 => ObjectDescriptor::QueueManager,
        4 => ObjectDescriptor::Namelist(object_name(&w.name)?),
        5 => ObjectDescriptor::Process(object_name(&w.name)?),
        3 => ObjectDescriptor::Topic {
            object: if w.name.is_empty() {
                None
            } else {
                Some(object_name(&w.name)?)
            },
            string: w.topic.clone(),
        },
        2 => ObjectDescriptor::QueueAt {
            name: object_name(&w.name)?,
            qmgr: object_name(&w.dynamic_name)?,
        },
        _ => ObjectDescriptor::Queue {
            name: object_name(&w.name)?,
            dynamic_name: (!w.dynamic_name.is_empty()).then(|| w.dynamic_name.clone()),
            selector: None, // carried by the Open request, beside the object
        },
    })
}

/// Open options to wire bits.
pub fn open_to_wire(o: &OpenOptions) -> u32 {
    let mut f = match o.input {
        InputMode::None => 0,
        InputMode::Shared => open_flags::INPUT_SHARED,
        InputMode::Exclusive => open_flags::INPUT_EXCLUSIVE,
        InputMode::AsQueueDef => open_flags::INPUT_AS_Q_DEF,
    };
    let bits = [
        (o.output, open_flags::OUTPUT),
        (o.browse, open_flags::BROWSE),
        (o.inquire, open_flags::INQUIRE),
        (o.set, open_flags::SET),
        (o.read_ahead == Some(true), open_flags::READ_AHEAD),
        (o.read_ahead == Some(false), open_flags::NO_READ_AHEAD),
        (o.fail_if_quiescing, open_flags::FAIL_IF_QUIESCING),
        (o.set_identity_context, open_flags::SET_IDENTITY_CONTEXT),
        (o.set_all_context, open_flags::SET_ALL_CONTEXT),
        (o.pass_identity_context, open_flags::PASS_IDENTITY_CONTEXT),
        (o.pass_all_context, open_flags::PASS_ALL_CONTEXT),
        (o.save_all_context, open_flags::SAVE_ALL_CONTEXT),
    ];
    for (on, bit) in bits {
        if on {
            f |= bit;
        }
    }
    f
}

/// Wire bits to open options.
pub fn open_from_wire(f: u32) -> Result<OpenOptions, MqError> {
    let inputs = [
        open_flags::INPUT_SHARED,
        open_flags::INPUT_EXCLUSIVE,
        open_flags::INPUT_AS_Q_DEF,
    ]
    .iter()
    .filter(|b| f & **b != 0)
    .count();
    if inputs > 1 || (f & open_flags::READ_AHEAD != 0 && f & open_flags::NO_READ_AHEAD != 0) {
        return Err(MqError::new(
            Reason::OptionsError,
            "contradictory open options",
        ));
    }
    Ok(OpenOptions {
        input: if f & open_flags::INPUT_SHARED != 0 {
            InputMode::Shared
        } else if f & open_flags::INPUT_EXCLUSIVE != 0 {
            InputMode::Exclusive
        } else if f & open_flags::INPUT_AS_Q_DEF != 0 {
            InputMode::AsQueueDef
        } else {
            InputMode::None
        },
        output: f & open_flags::OUTPUT != 0,
        browse: f & open_flags::BROWSE != 0,
        inquire: f & open_flags::INQUIRE != 0,
        set: f & open_flags::SET != 0,
        read_ahead: if f & open_flags::READ_AHEAD != 0 {
            Some(true)
        } else if f & open_flags::NO_READ_AHEAD != 0 {
            Some(false)
        } else {
            None
        },
        fail_if_quiescing: f & open_flags::FAIL_IF_QUIESCING != 0,
        set_identity_context: f & open_flags::SET_IDENTITY_CONTEXT != 0,
        set_all_context: f & open_flags::SET_ALL_CONTEXT != 0,
        pass_identity_context: f & open_flags::PASS_IDENTITY_CONTEXT != 0,
        pass_all_context: f & open_flags::PASS_ALL_CONTEXT != 0,
        save_all_context: f & open_flags::SAVE_ALL_CONTEXT != 0,
        // Carried beside the options (Request::Open's alternate_user).
        alternate_user: None,
    })
}

/// Put options to the wire: their bits, the context handle a pass-context put takes, the
/// alternate user a put1 names.
pub fn put_to_wire(o: &PutOptions) -> WirePutOptions {
    let mut f = 0;
    for (on, bit) in [
        (o.syncpoint, put_flags::SYNCPOINT),
        (o.new_msg_id, put_flags::NEW_MSG_ID),
        (o.new_correl_id, put_flags::NEW_CORREL_ID),
        (o.response == PutResponseMode::Async, put_flags::ASYNC),
        (o.response == PutResponseMode::Sync, put_flags::SYNC),
        (o.fail_if_quiescing, put_flags::FAIL_IF_QUIESCING),
        (o.context == PutContext::None, put_flags::NO_CONTEXT),
        (
            o.context == PutContext::SetIdentity,
            put_flags::SET_IDENTITY_CONTEXT,
        ),
        (o.context == PutContext::SetAll, put_flags::SET_ALL_CONTEXT),
        (
            matches!(o.context, PutContext::PassIdentity(_)),
            put_flags::PASS_IDENTITY_CONTEXT,
        ),
        (
            matches!(o.context, PutContext::PassAll(_)),
            put_flags::PASS_ALL_CONTEXT,
        ),
        (o.retain, put_flags::RETAIN),
        (o.not_own_subs, put_flags::NOT_OWN_SUBS),
    ] {
        if on {
            f |= bit;
        }
    }
    if let Some(level) = o.pub_level {
        f |= level_bits(level, put_flags::PUB_LEVEL_SHIFT);
    }
    WirePutOptions {
        flags: f,
        context: match o.context {
            PutContext::PassIdentity(h) | PutContext::PassAll(h) => h.0,
            _ => 0,
        },
        alternate_user: o
            .alternate_user
            .map(|u| u.as_str().to_owned())
            .unwrap_or_default(),
    }
}

/// Put options from the wire.
pub fn put_from_wire(w: &WirePutOptions) -> Result<PutOptions, MqError> {
    let (f, context, alternate_user) = (w.flags, w.context, w.alternate_user.as_str());
    if f & put_flags::ASYNC != 0 && f & put_flags::SYNC != 0 {
        return Err(MqError::new(
            Reason::OptionsError,
            "a put cannot be both sync and async",
        ));
    }
    Ok(PutOptions {
        syncpoint: f & put_flags::SYNCPOINT != 0,
        new_msg_id: f & put_flags::NEW_MSG_ID != 0,
        new_correl_id: f & put_flags::NEW_CORREL_ID != 0,
        response: if f & put_flags::ASYNC != 0 {
            PutResponseMode::Async
        } else if f & put_flags::SYNC != 0 {
            PutResponseMode::Sync
        } else {
            PutResponseMode::AsQueueDef
        },
        fail_if_quiescing: f & put_flags::FAIL_IF_QUIESCING != 0,
        context: if f & put_flags::PASS_ALL_CONTEXT != 0 {
            PutContext::PassAll(Hobj(context))
        } else if f & put_flags::PASS_IDENTITY_CONTEXT != 0 {
            PutContext::PassIdentity(Hobj(context))
        } else if f & put_flags::SET_ALL_CONTEXT != 0 {
            PutContext::SetAll
        } else if f & put_flags::SET_IDENTITY_CONTEXT != 0 {
            PutContext::SetIdentity
        } else if f & put_flags::NO_CONTEXT != 0 {
            PutContext::None
        } else {
            PutContext::Default
        },
        alternate_user: (!alternate_user.is_empty()).then(|| UserId::truncating(alternate_user)),
        retain: f & put_flags::RETAIN != 0,
        not_own_subs: f & put_flags::NOT_OWN_SUBS != 0,
        pub_level: level_of(f, put_flags::PUB_LEVEL_SHIFT)
            .map_err(|v| MqError::new(Reason::PmoError, format!("PubLevel is 0 to 9, not {v}")))?,
    })
}

/// A publication or subscription level as four option bits at `shift`: the level plus one,
/// so that 0 says "not given" (a level above 15 cannot be sent; the receiver refuses 10–14).
fn level_bits(level: u8, shift: u32) -> u32 {
    (u32::from(level.min(14)) + 1) << shift
}

/// The level in the four option bits at `shift` (`None`: not given); `Err(level)` above 9.
fn level_of(flags: u32, shift: u32) -> Result<Option<u8>, u32> {
    match (flags >> shift) & 0xF {
        0 => Ok(None),
        n if n - 1 <= u32::from(ferry_model::options::MAX_LEVEL) => Ok(Some((n - 1) as u8)),
        n => Err(n - 1),
    }
}

const GET_SYNCPOINT: u32 = 1;
const GET_ACCEPT_TRUNCATED: u32 = 1 << 1;
const GET_FAIL_IF_QUIESCING: u32 = 1 << 2;
const GET_BROWSE_SHIFT: u32 = 4;
const GET_KNOWN: u32 =
    GET_SYNCPOINT | GET_ACCEPT_TRUNCATED | GET_FAIL_IF_QUIESCING | (7 << GET_BROWSE_SHIFT);

/// Get options to wire.
pub fn get_to_wire(o: &GetOptions) -> WireGetOptions {
    let browse = match o.browse {
        BrowseMode::None => 0,
        BrowseMode::First => 1,
        BrowseMode::Next => 2,
        BrowseMode::UnderCursor => 3,
        BrowseMode::GetUnderCursor => 4,
    };
    let mut flags = browse << GET_BROWSE_SHIFT;
    if o.syncpoint {
        flags |= GET_SYNCPOINT;
    }
    if o.accept_truncated {
        flags |= GET_ACCEPT_TRUNCATED;
    }
    if o.fail_if_quiescing {
        flags |= GET_FAIL_IF_QUIESCING;
    }
    WireGetOptions {
        flags,
        wait_ms: match o.wait {
            Wait::No => 0,
            Wait::Unlimited => u32::MAX,
            Wait::For(d) => (d.as_millis().min(u32::MAX as u128 - 1) as u32).max(1),
        },
        msg_id: o.msg_id.map(|m| m.0),
        correl_id: o.correl_id.map(|c| c.0),
        max_len: o
            .max_len
            .map_or(u32::MAX, |m| m.min(u32::MAX as usize - 1) as u32),
        more: 0,
    }
}

/// Wire to get options.
pub fn get_from_wire(w: &WireGetOptions) -> Result<GetOptions, MqError> {
    if w.flags & !GET_KNOWN != 0 {
        return Err(MqError::new(
            Reason::OptionsError,
            format!("get option bits {:#x} are not known", w.flags),
        ));
    }
    let browse = match (w.flags >> GET_BROWSE_SHIFT) & 7 {
        0 => BrowseMode::None,
        1 => BrowseMode::First,
        2 => BrowseMode::Next,
        3 => BrowseMode::UnderCursor,
        4 => BrowseMode::GetUnderCursor,
        _ => return Err(MqError::new(Reason::OptionsError, "unknown browse mode")),
    };
    Ok(GetOptions {
        wait: match w.wait_ms {
            0 => Wait::No,
            u32::MAX => Wait::Unlimited,
            n => Wait::For(Duration::from_millis(n as u64)),
        },
        syncpoint: w.flags & GET_SYNCPOINT != 0,
        msg_id: w.msg_id.map(MsgId),
        correl_id: w.correl_id.map(CorrelId),
        browse,
        max_len: (w.max_len != u32::MAX).then_some(w.max_len as usize),
        accept_truncated: w.flags & GET_ACCEPT_TRUNCATED != 0,
        fail_if_quiescing: w.flags & GET_FAIL_IF_QUIESCING != 0,
    })
}

/// The status block for a failed (or warned) call.
///
/// On the wire every error is a failure (no reply follows), even one MQ classes as a warning:
/// MQRC_TRUNCATED_MSG_FAILED (2080) leaves the message on the queue and returns nothing but
/// its length. The receiver rebuilds the error from its reason, which carries MQ's own
/// completion code.
pub fn status_of(e: &MqError) -> Status {
    Status {
        completion: 2,
        reason: e.reason.code(),
        detail: e.detail.clone(),
        data_length: e.data_length as u64,
    }
}

/// The status block for a success, with an optional warning reason.
pub fn status_ok(warning: Option<Reason>) -> Status {
    match warning {
        None => Status::OK,
        Some(r) => Status {
            completion: 1,
            reason: r.code(),
            detail: String::new(),
            data_length: 0,
        },
    }
}

/// The error a failed status block describes (for the client). A reason this build does not know
/// becomes UNEXPECTED_ERROR with the number in the sentence.
pub fn error_of(s: &Status) -> MqError {
    let reason = Reason::from_code(s.reason).unwrap_or(Reason::UnexpectedError);
    let detail = if reason.code() == s.reason {
        s.detail.clone()
    } else {
        format!("reason {} from the queue manager: {}", s.reason, s.detail)
    };
    MqError {
        reason,
        detail,
        data_length: s.data_length as usize,
    }
}

/// A subscription descriptor to wire.
pub fn sub_to_wire(sd: &SubDescriptor) -> WireSub {
    let bits = [
        (sd.durable, sub_flags::DURABLE),
        (sd.managed, sub_flags::MANAGED),
        (sd.char_wildcards, sub_flags::CHAR_WILDCARDS),
        (sd.any_user, sub_flags::ANY_USER),
        (sd.action != SubAction::Create, sub_flags::RESUME),
        (
            matches!(sd.action, SubAction::Create | SubAction::CreateOrResume),
            sub_flags::CREATE,
        ),
        (sd.action == SubAction::Alter, sub_flags::ALTER),
        (sd.new_publications_only, sub_flags::NEW_PUBLICATIONS_ONLY),
        (sd.on_request, sub_flags::ON_REQUEST),
        (sd.read_ahead == Some(true), sub_flags::READ_AHEAD),
        (sd.read_ahead == Some(false), sub_flags::NO_READ_AHEAD),
    ];
    let level = sd
        .sub_level
        .map_or(0, |l| level_bits(l, sub_flags::SUB_LEVEL_SHIFT));
    WireSub {
        topic_object: sd.topic_object.map(|o| o.to_string()).unwrap_or_default(),
        topic: sd.topic.clone(),
        name: sd.name.clone().unwrap_or_default(),
        user_data: sd.user_data.clone().unwrap_or_default(),
        correl_id: sd.correl_id.map(|c| c.0),
        flags: bits
            .iter()
            .filter(|(on, _)| *on)
            .fold(level, |f, (_, b)| f | b),
        selector: sd.selector.clone().unwrap_or_default(),
    }
}

/// Wire subscription descriptor to engine.
pub fn sub_from_wire(w: &WireSub) -> Result<SubDescriptor, MqError> {
    let on = |b: u32| w.flags & b != 0;
    Ok(SubDescriptor {
        topic_object: if w.topic_object.is_empty() {
            None
        } else {
            Some(object_name(&w.topic_object)?)
        },
        topic: w.topic.clone(),
        name: (!w.name.is_empty()).then(|| w.name.clone()),
        user_data: (!w.user_data.is_empty()).then(|| w.user_data.clone()),
        correl_id: w.correl_id.map(CorrelId),
        action: match (on(sub_flags::CREATE), on(sub_flags::RESUME)) {
            _ if on(sub_flags::ALTER) => SubAction::Alter,
            (true, true) => SubAction::CreateOrResume,
            (false, true) => SubAction::Resume,
            _ => SubAction::Create,
        },
        durable: on(sub_flags::DURABLE),
        managed: on(sub_flags::MANAGED),
        char_wildcards: on(sub_flags::CHAR_WILDCARDS),
        any_user: on(sub_flags::ANY_USER),
        new_publications_only: on(sub_flags::NEW_PUBLICATIONS_ONLY),
        on_request: on(sub_flags::ON_REQUEST),
        read_ahead: match (on(sub_flags::READ_AHEAD), on(sub_flags::NO_READ_AHEAD)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            (false, false) => None,
            (true, true) => {
                return Err(MqError::new(
                    Reason::OptionsError,
                    "a subscription cannot ask for read-ahead and refuse it",
                ))
            }
        },
        selector: (!w.selector.trim().is_empty()).then(|| w.selector.clone()),
        sub_level: level_of(w.flags, sub_flags::SUB_LEVEL_SHIFT)
            .map_err(|v| MqError::new(Reason::SdError, format!("SubLevel is 0 to 9, not {v}")))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pub_and_sub_levels_round_trip_and_out_of_range_ones_are_refused() {
        for level in [None, Some(0), Some(1), Some(9)] {
            let o = PutOptions {
                pub_level: level,
                ..PutOptions::default()
            };
            assert_eq!(put_from_wire(&put_to_wire(&o)).unwrap().pub_level, level);
            let sd = SubDescriptor {
                sub_level: level,
                ..SubDescriptor::managed("a/b")
            };
            assert_eq!(sub_from_wire(&sub_to_wire(&sd)).unwrap().sub_level, level);
        }
        let o = PutOptions {
            pub_level: Some(12),
            ..PutOptions::default()
        };
        let e = put_from_wire(&put_to_wire(&o)).unwrap_err();
        assert_eq!(e.reason, Reason::PmoError);
        let sd = SubDescriptor {
            sub_level: Some(200),
            ..SubDescriptor::managed("a/b")
        };
        let e = sub_from_wire(&sub_to_wire(&sd)).unwrap_err();
        assert_eq!(e.reason, Reason::SdError);
    }

    #[test]
    fn messages_round_trip_through_the_wire_types() {
        let mut m = Message::text("hello")
            .with_priority(7)
            .with_expiry(Duration::from_secs(9));
        m.descriptor.msg_id = MsgId::from_slice(b"abc");
        m.descriptor.reply_to_queue = object_name("REPLY.Q").unwrap();
        m.descriptor.message_type = MessageType::Request;
        m.descriptor.put_time = time(1_700_000_000_123);
        m.properties.set("n", PropertyValue::I64(5)).unwrap();
        let back = message_from_wire(message_to_wire(&m)).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn options_round_trip_through_the_wire_bits() {
        let o = OpenOptions {
            read_ahead: Some(false),
            ..OpenOptions::input_exclusive().with_browse().with_inquire()
        };
        assert_eq!(open_from_wire(open_to_wire(&o)).unwrap(), o);
        let p = PutOptions::syncpoint().with_new_correl_id().with_async();
        assert_eq!(put_from_wire(&put_to_wire(&p)).unwrap(), p);
        let p = PutOptions {
            context: PutContext::PassAll(Hobj(7)),
            alternate_user: Some(UserId::truncating("bob")),
            ..PutOptions::default()
        };
        let back = put_from_wire(&put_to_wire(&p));
        assert_eq!(back.unwrap(), p);
        let g = GetOptions::new()
            .wait(Duration::from_millis(250))
            .syncpoint()
            .correl_id(CorrelId::from_slice(b"x"))
            .browse(BrowseMode::Next)
            .max_len(10, true);
        assert_eq!(get_from_wire(&get_to_wire(&g)).unwrap(), g);
    }

    #[test]
    fn errors_round_trip_through_status_blocks() {
        let e = MqError::new(Reason::QFull, "queue A is full (MAXDEPTH 1)");
        assert_eq!(error_of(&status_of(&e)), e);
    }
}
