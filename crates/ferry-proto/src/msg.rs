//! Requests and responses: the payloads carried by frames, with their own wire types.
//!
//! The protocol types are independent of the engine's domain types (the server and client
//! convert), so the codec can be fuzzed alone and the engine can change without breaking the wire.
//!
//! Every response payload opens with a status block: `u8 completion` (0 ok, 1 warning, 2 failed),
//! `u32 reason`, `str16 detail`, `u64 data_length`. The operation's result follows unless the
//! completion is "failed".

use bytes::{BufMut, Bytes, BytesMut};

use crate::codec::{Reader, ShortStr, WriteExt, SHORT_STR_MAX};
use crate::WireError;

/// What a frame asks for (requests) or answers (responses carry the request's opcode): the
/// verb table of `ferry-model`, whose discriminants are the opcodes.
pub use ferry_model::verbs::Verb as Opcode;

/// The opcode with number `b`.
pub fn opcode(b: u8) -> Result<Opcode, WireError> {
    Opcode::from_code(b).ok_or(WireError::UnknownOpcode { opcode: b })
}

/// Length of msg and correl ids.
pub const ID_LEN: usize = 24;

/// Length of a channel batch's logical unit of work id.
pub const LUWID_LEN: usize = 16;

/// The message descriptor on the wire. Its strings are `S`: inline [`ShortStr`]s when decoded,
/// borrowed `&str`s when the queue manager encodes one straight from the engine's descriptor
/// ([`DescriptorRef`], no copies).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WireDescriptor<S = ShortStr> {
    /// Msg id.
    pub msg_id: [u8; ID_LEN],
    /// Correl id.
    pub correl_id: [u8; ID_LEN],
    /// 0 not persistent, 1 persistent, 2 as queue default.
    pub persistence: u8,
    /// 0–9, or 255 for "as queue default".
    pub priority: u8,
    /// Remaining expiry in milliseconds; 0 = unlimited.
    pub expiry_ms: u64,
    /// MQMT_* message type.
    pub message_type: u8,
    /// MQFB_* feedback.
    pub feedback: u32,
    /// MQRO_* report options; on the wire after the message's headers (header flags bit 2),
    /// so a message without them is encoded as before.
    pub report: u32,
    /// Reply-to queue.
    pub reply_to_queue: S,
    /// Reply-to queue manager.
    pub reply_to_qmgr: S,
    /// Format name.
    pub format: S,
    /// Coded character set id.
    pub ccsid: u32,
    /// Encoding.
    pub encoding: u32,
    /// Backout count.
    pub backout_count: u32,
    /// Put time, milliseconds since the Unix epoch.
    pub put_time_ms: u64,
    /// Putting application.
    pub put_appl_name: S,
    /// Putting user.
    pub user_id: S,
}

/// Longest encoded descriptor: the fixed fields and five short strings at their longest.
const DESCRIPTOR_MAX: usize = 2 * ID_LEN + 1 + 1 + 8 + 1 + 4 + 4 * 4 + 8 + 5 * (1 + SHORT_STR_MAX);

/// Fills a stack buffer field by field: a descriptor is assembled there and appended with one
/// copy, rather than with a capacity check and a small copy per field (every pushed message
/// pays for this).
struct Fill {
    buf: [u8; DESCRIPTOR_MAX],
    at: usize,
}

impl Fill {
    fn bytes(&mut self, b: &[u8]) {
        self.buf[self.at..self.at + b.len()].copy_from_slice(b);
        self.at += b.len();
    }
}

/// A descriptor as it is encoded, its strings borrowed (each at most 48 bytes).
pub type DescriptorRef<'a> = WireDescriptor<&'a str>;

impl Fill {
    fn short_ref(&mut self, s: &str) {
        // A longer string would not be a name; cut as ShortStr::new cuts, at a character.
        let mut end = s.len().min(SHORT_STR_MAX);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.bytes(&[end as u8]);
        self.bytes(&s.as_bytes()[..end]);
    }
}

impl<S: AsRef<str>> WireDescriptor<S> {
    fn encode(&self, out: &mut BytesMut) {
        let mut f = Fill {
            buf: [0; DESCRIPTOR_MAX],
            at: 0,
        };
        f.bytes(&self.msg_id);
        f.bytes(&self.correl_id);
        f.bytes(&[self.persistence, self.priority]);
        f.bytes(&self.expiry_ms.to_le_bytes());
        f.bytes(&[self.message_type]);
        f.bytes(&self.feedback.to_le_bytes());
        f.short_ref(self.reply_to_queue.as_ref());
        f.short_ref(self.reply_to_qmgr.as_ref());
        f.short_ref(self.format.as_ref());
        f.bytes(&self.ccsid.to_le_bytes());
        f.bytes(&self.encoding.to_le_bytes());
        f.bytes(&self.backout_count.to_le_bytes());
        f.bytes(&self.put_time_ms.to_le_bytes());
        f.short_ref(self.put_appl_name.as_ref());
        f.short_ref(self.user_id.as_ref());
        out.put_slice(&f.buf[..f.at]);
    }
}

impl WireDescriptor {
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        Ok(WireDescriptor {
            msg_id: r.array("msg id")?,
            correl_id: r.array("correl id")?,
            persistence: r.u8("persistence")?,
            priority: r.u8("priority")?,
            expiry_ms: r.u64("expiry")?,
            message_type: r.u8("message type")?,
            feedback: r.u32("feedback")?,
            report: 0,
            reply_to_queue: r.short_str("reply-to queue")?,
            reply_to_qmgr: r.short_str("reply-to queue manager")?,
            format: r.short_str("format")?,
            ccsid: r.u32("ccsid")?,
            encoding: r.u32("encoding")?,
            backout_count: r.u32("backout count")?,
            put_time_ms: r.u64("put time")?,
            put_appl_name: r.short_str("put application name")?,
            user_id: r.short_str("user id")?,
        })
    }
}

/// A typed property value on the wire.
#[derive(Debug, Clone, PartialEq)]
pub enum WireValue {
    /// Tag 0.
    Null,
    /// Tag 1.
    Bool(bool),
    /// Tag 2.
    I8(i8),
    /// Tag 3.
    I16(i16),
    /// Tag 4.
    I32(i32),
    /// Tag 5.
    I64(i64),
    /// Tag 6.
    F32(f32),
    /// Tag 7.
    F64(f64),
    /// Tag 8.
    String(String),
    /// Tag 9.
    Bytes(Bytes),
}

/// A property value to encode, borrowed from wherever it lives (an engine message encodes
/// through it without building a [`WireValue`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WireValueRef<'a> {
    /// Tag 0.
    Null,
    /// Tag 1.
    Bool(bool),
    /// Tag 2.
    I8(i8),
    /// Tag 3.
    I16(i16),
    /// Tag 4.
    I32(i32),
    /// Tag 5.
    I64(i64),
    /// Tag 6.
    F32(f32),
    /// Tag 7.
    F64(f64),
    /// Tag 8.
    String(&'a str),
    /// Tag 9.
    Bytes(&'a [u8]),
}

impl WireValueRef<'_> {
    /// Encodes the value: its tag, then its bytes.
    pub fn encode(&self, out: &mut BytesMut) {
        match *self {
            WireValueRef::Null => out.put_u8(0),
            WireValueRef::Bool(b) => {
                out.put_u8(1);
                out.put_u8(b as u8);
            }
            WireValueRef::I8(v) => {
                out.put_u8(2);
                out.put_i8(v);
            }
            WireValueRef::I16(v) => {
                out.put_u8(3);
                out.put_i16_le(v);
            }
            WireValueRef::I32(v) => {
                out.put_u8(4);
                out.put_i32_le(v);
            }
            WireValueRef::I64(v) => {
                out.put_u8(5);
                out.put_i64_le(v);
            }
            WireValueRef::F32(v) => {
                out.put_u8(6);
                out.put_f32_le(v);
            }
            WireValueRef::F64(v) => {
                out.put_u8(7);
                out.put_f64_le(v);
            }
            WireValueRef::String(s) => {
                out.put_u8(8);
                out.put_bytes32(s.as_bytes());
            }
            WireValueRef::Bytes(b) => {
                out.put_u8(9);
                out.put_bytes32(b);
            }
        }
    }
}

impl WireValue {
    /// The value, borrowed.
    pub fn as_ref(&self) -> WireValueRef<'_> {
        match self {
            WireValue::Null => WireValueRef::Null,
            WireValue::Bool(b) => WireValueRef::Bool(*b),
            WireValue::I8(v) => WireValueRef::I8(*v),
            WireValue::I16(v) => WireValueRef::I16(*v),
            WireValue::I32(v) => WireValueRef::I32(*v),
            WireValue::I64(v) => WireValueRef::I64(*v),
            WireValue::F32(v) => WireValueRef::F32(*v),
            WireValue::F64(v) => WireValueRef::F64(*v),
            WireValue::String(s) => WireValueRef::String(s),
            WireValue::Bytes(b) => WireValueRef::Bytes(b),
        }
    }

    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        Ok(match r.u8("property type")? {
            0 => WireValue::Null,
            1 => WireValue::Bool(r.u8("bool property")? != 0),
            2 => WireValue::I8(r.u8("i8 property")? as i8),
            3 => WireValue::I16(r.u16("i16 property")? as i16),
            4 => WireValue::I32(r.i32("i32 property")?),
            5 => WireValue::I64(r.i64("i64 property")?),
            6 => WireValue::F32(f32::from_bits(r.u32("f32 property")?)),
            7 => WireValue::F64(f64::from_bits(r.u64("f64 property")?)),
            8 => {
                let b = r.bytes32("string property")?;
                WireValue::String(String::from_utf8(b.to_vec()).map_err(|_| {
                    WireError::BadUtf8 {
                        what: "string property",
                    }
                })?)
            }
            9 => WireValue::Bytes(r.bytes32("bytes property")?),
            t => {
                return Err(WireError::BadValue {
                    what: "property type",
                    value: t as u64,
                })
            }
        })
    }
}

/// A dead-letter header on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireDeadLetter {
    /// Reason code.
    pub reason: u32,
    /// Destination queue.
    pub dest_queue: ShortStr,
    /// Destination queue manager.
    pub dest_qmgr: ShortStr,
    /// Original format.
    pub original_format: ShortStr,
    /// Who dead-lettered it.
    pub put_appl_name: ShortStr,
    /// When, milliseconds since the epoch.
    pub put_time_ms: u64,
}

/// A transmission header on the wire (a message on its way to another queue manager).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireTransmission {
    /// Destination queue at the remote queue manager.
    pub remote_queue: ShortStr,
    /// Destination queue manager.
    pub remote_qmgr: ShortStr,
    /// The unique transmission id.
    pub xmit_id: [u8; ID_LEN],
}

/// A message on the wire: descriptor, properties, optional dead-letter and transmission
/// headers, body.
#[derive(Debug, Clone, PartialEq)]
pub struct WireMessage {
    /// Descriptor.
    pub descriptor: WireDescriptor,
    /// Properties in order.
    pub properties: Vec<(String, WireValue)>,
    /// Dead-letter header (boxed: rare, and a message is moved whole through decoding).
    pub dead_letter: Option<Box<WireDeadLetter>>,
    /// Transmission header (boxed, as the dead-letter one).
    pub transmission: Option<Box<WireTransmission>>,
    /// Body (zero-copy slice of the frame when decoded).
    pub body: Bytes,
}

/// Encodes a response's status; whether a reply body follows it (not after a failure).
pub fn encode_status(out: &mut BytesMut, status: &Status) -> bool {
    out.put_u8(status.completion);
    out.put_u32_le(status.reason);
    out.put_str16(&status.detail);
    out.put_u64_le(status.data_length);
    !status.failed()
}

/// Encodes a message from its parts, borrowed: the one encoding of a message, used by
/// [`WireMessage::encode`] and by servers encoding an engine message without building a
/// `WireMessage` first.
pub fn encode_message_parts<'a, S: AsRef<str>>(
    descriptor: &WireDescriptor<S>,
    properties: impl ExactSizeIterator<Item = (&'a str, WireValueRef<'a>)>,
    dead_letter: Option<&WireDeadLetter>,
    transmission: Option<&WireTransmission>,
    body: &[u8],
    out: &mut BytesMut,
) {
    descriptor.encode(out);
    out.put_u32_le(properties.len() as u32);
    for (n, v) in properties {
        out.put_str16(n);
        v.encode(out);
    }
    // Header flags: bit 0 a dead-letter header follows, bit 1 a transmission header, bit 2
    // report options (u32, after the headers).
    let report = descriptor.report != 0;
    out.put_u8(
        u8::from(dead_letter.is_some())
            | (u8::from(transmission.is_some()) << 1)
            | (u8::from(report) << 2),
    );
    if let Some(d) = dead_letter {
        out.put_u32_le(d.reason);
        out.put_str8(d.dest_queue.as_str());
        out.put_str8(d.dest_qmgr.as_str());
        out.put_str8(d.original_format.as_str());
        out.put_str8(d.put_appl_name.as_str());
        out.put_u64_le(d.put_time_ms);
    }
    if let Some(t) = transmission {
        out.put_str8(t.remote_queue.as_str());
        out.put_str8(t.remote_qmgr.as_str());
        out.put_slice(&t.xmit_id);
    }
    if report {
        out.put_u32_le(descriptor.report);
    }
    out.put_bytes32(body);
}

/// Encodes a message as [`encode_message_parts`] does, up to and including its body's length
/// but not the body: the caller sends the `body_len` bytes of the body straight after.
pub fn encode_message_head<'a, S: AsRef<str>>(
    descriptor: &WireDescriptor<S>,
    properties: impl ExactSizeIterator<Item = (&'a str, WireValueRef<'a>)>,
    dead_letter: Option<&WireDeadLetter>,
    transmission: Option<&WireTransmission>,
    body_len: usize,
    out: &mut BytesMut,
) {
    encode_message_parts(descriptor, properties, dead_letter, transmission, &[], out);
    let end = out.len();
    debug_assert_eq!(
        &out[end - 4..],
        &[0; 4],
        "the empty body's length ends the head"
    );
    out[end - 4..].copy_from_slice(&(body_len as u32).to_le_bytes());
}

impl WireMessage {
    /// Encodes the message.
    pub fn encode(&self, out: &mut BytesMut) {
        encode_message_parts(
            &self.descriptor,
            self.properties
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_ref())),
            self.dead_letter.as_deref(),
            self.transmission.as_deref(),
            &self.body,
            out,
        );
    }

    /// Decodes a message.
    pub fn decode(r: &mut Reader) -> Result<Self, WireError> {
        Ok(Self::decode_after(r, None)?.0)
    }

    /// Decodes a message whose properties section may repeat `last` byte for byte (a
    /// subscription's publications all carry the same MQTopicString): then the section is
    /// skipped, `properties` is left empty and the answer's second part is `None`; otherwise it
    /// is decoded and its bytes returned. (A complete section is self-delimiting, so bytes that
    /// start with one decode to exactly it.)
    pub fn decode_after(
        r: &mut Reader,
        last: Option<&[u8]>,
    ) -> Result<(Self, Option<Bytes>), WireError> {
        let mut descriptor = WireDescriptor::decode(r)?;
        let (properties, section) = match last {
            Some(last) if !last.is_empty() && r.skip_if_next(last) => (Vec::new(), None),
            _ => {
                let from = r.position();
                let properties = decode_properties(r)?;
                (properties, Some(r.read_since(from)))
            }
        };
        let tail = decode_tail(r)?;
        if let Some(report) = tail.report {
            descriptor.report = report;
        }
        let msg = WireMessage {
            descriptor,
            properties,
            dead_letter: tail.dead_letter,
            transmission: tail.transmission,
            body: tail.body,
        };
        Ok((msg, section))
    }
}

/// What follows a message's properties section on the wire: its headers, report options and
/// body.
pub(crate) struct Tail {
    pub dead_letter: Option<Box<WireDeadLetter>>,
    pub transmission: Option<Box<WireTransmission>>,
    /// The descriptor's report options, when not 0 (header flags bit 2).
    pub report: Option<u32>,
    pub body: Bytes,
}

/// Decodes a message's [`Tail`].
pub(crate) fn decode_tail(r: &mut Reader) -> Result<Tail, WireError> {
    let flags = r.u8_at_most("header flags", 7)?;
    let dead_letter = match flags & 1 {
        0 => None,
        _ => Some(Box::new(WireDeadLetter {
            reason: r.u32("dead-letter reason")?,
            dest_queue: r.short_str("dead-letter queue")?,
            dest_qmgr: r.short_str("dead-letter queue manager")?,
            original_format: r.short_str("dead-letter format")?,
            put_appl_name: r.short_str("dead-letter application")?,
            put_time_ms: r.u64("dead-letter time")?,
        })),
    };
    let transmission = match flags & 2 {
        0 => None,
        _ => Some(Box::new(WireTransmission {
            remote_queue: r.short_str("transmission queue")?,
            remote_qmgr: r.short_str("transmission queue manager")?,
            xmit_id: r.array("transmission id")?,
        })),
    };
    let report = match flags & 4 {
        0 => None,
        _ => Some(r.u32("report options")?),
    };
    let body = r.bytes32("body")?;
    Ok(Tail {
        dead_letter,
        transmission,
        report,
        body,
    })
}

pub(crate) fn decode_properties(r: &mut Reader) -> Result<Vec<(String, WireValue)>, WireError> {
    let n = r.count("property count", 3)?;
    let mut properties = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.str16("property name")?;
        properties.push((name, WireValue::decode(r)?));
    }
    Ok(properties)
}

/// What to open: 0 = queue (name, dynamic name pattern), 1 = the queue manager object,
/// 2 = a queue at a named queue manager (name, queue manager name in `dynamic_name`'s place),
/// 3 = a topic (the topic object's name or empty, an empty `dynamic_name`, then — for this
/// kind only — the topic string as a str16), 4 = a namelist, 5 = a process definition (by name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WireObject {
    /// 0 queue, 1 queue manager, 2 queue at a queue manager, 3 topic, 4 namelist, 5 process.
    pub kind: u8,
    /// Queue (or model, or topic object) name.
    pub name: String,
    /// Kind 0: dynamic queue pattern (empty for none); kind 2: the queue manager's name.
    pub dynamic_name: String,
    /// Kind 3: the topic string (up to 10,240 bytes).
    pub topic: String,
}

impl WireObject {
    fn encode(&self, out: &mut BytesMut) {
        out.put_u8(self.kind);
        out.put_str8(&self.name);
        out.put_str8(&self.dynamic_name);
        if self.kind == 3 {
            out.put_str16(&self.topic);
        }
    }
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        let kind = r.u8("object kind")?;
        if kind > 5 {
            return Err(WireError::BadValue {
                what: "object kind",
                value: kind as u64,
            });
        }
        Ok(WireObject {
            kind,
            name: r.str8("object name")?,
            dynamic_name: r.str8("dynamic name")?,
            topic: if kind == 3 {
                r.str16("topic string")?
            } else {
                String::new()
            },
        })
    }
}

/// A subscription descriptor (MQSD with its MQSO_* options): str8 topic object, str16 topic
/// string, str16 name, str16 user data, opt correl id, u32 `sub_flags`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WireSub {
    /// The topic object (empty: none).
    pub topic_object: String,
    /// The topic string or filter.
    pub topic: String,
    /// The subscription's name (empty: none).
    pub name: String,
    /// SubUserData (empty: none).
    pub user_data: String,
    /// MQSO_SET_CORREL_ID's correlation id.
    pub correl_id: Option<[u8; ID_LEN]>,
    /// `sub_flags` bits.
    pub flags: u32,
    /// The selection string (empty: none).
    pub selector: String,
}

/// Subscription option bits.
pub mod sub_flags {
    /// MQSO_DURABLE.
    pub const DURABLE: u32 = 1;
    /// MQSO_MANAGED.
    pub const MANAGED: u32 = 1 << 1;
    /// MQSO_WILDCARD_CHAR.
    pub const CHAR_WILDCARDS: u32 = 1 << 2;
    /// MQSO_ANY_USERID.
    pub const ANY_USER: u32 = 1 << 3;
    /// MQSO_RESUME.
    pub const RESUME: u32 = 1 << 4;
    /// MQSO_CREATE (with RESUME: create or resume; neither: create).
    pub const CREATE: u32 = 1 << 5;
    /// MQSO_NEW_PUBLICATIONS_ONLY.
    pub const NEW_PUBLICATIONS_ONLY: u32 = 1 << 6;
    /// MQSO_PUBLICATIONS_ON_REQUEST.
    pub const ON_REQUEST: u32 = 1 << 7;
    /// A selection string (str16) follows the options; set and cleared by the codec.
    pub const SELECTOR: u32 = 1 << 8;
    /// MQSO_READ_AHEAD.
    pub const READ_AHEAD: u32 = 1 << 9;
    /// MQSO_NO_READ_AHEAD.
    pub const NO_READ_AHEAD: u32 = 1 << 10;
    /// MQSO_ALTER.
    pub const ALTER: u32 = 1 << 11;
    /// Where MQSD SubLevel sits: these four bits hold the level plus one (0: not given, 1).
    pub const SUB_LEVEL_SHIFT: u32 = 12;
    /// The four SubLevel bits.
    pub const SUB_LEVEL: u32 = 0xF << SUB_LEVEL_SHIFT;
    /// Every defined bit.
    pub const ALL: u32 = (1 << 16) - 1;
}

impl WireSub {
    fn encode(&self, out: &mut BytesMut) {
        out.put_str8(&self.topic_object);
        out.put_str16(&self.topic);
        out.put_str16(&self.name);
        out.put_str16(&self.user_data);
        put_opt_id(out, self.correl_id);
        let with_selector = !self.selector.is_empty();
        out.put_u32_le(if with_selector {
            self.flags | sub_flags::SELECTOR
        } else {
            self.flags & !sub_flags::SELECTOR
        });
        if with_selector {
            out.put_str16(&self.selector);
        }
    }
    fn decode(r: &mut Reader) -> Result<Self, WireError> {
        let sub = WireSub {
            topic_object: r.str8("topic object")?,
            topic: r.str16("topic string")?,
            name: r.str16("subscription name")?,
            user_data: r.str16("subscription user data")?,
            correl_id: get_opt_id(r, "subscription correl id")?,
            flags: r.u32("subscription options")?,
            selector: String::new(),
        };
        if sub.flags & !sub_flags::ALL != 0 {
            return Err(WireError::BadValue {
                what: "subscription options",
                value: sub.flags as u64,
            });
        }
        let mut sub = sub;
        if sub.flags & sub_flags::SELECTOR != 0 {
            sub.selector = r.str16("selection string")?;
            sub.flags &= !sub_flags::SELECTOR;
        }
        Ok(sub)
    }
}

/// Open option bits.
pub mod open_flags {
    /// Input shared.
    pub const INPUT_SHARED: u32 = 1 << 0;
    /// Input exclusive.
    pub const INPUT_EXCLUSIVE: u32 = 1 << 1;
    /// Input as queue default.
    pub const INPUT_AS_Q_DEF: u32 = 1 << 2;
    /// Output.
    pub const OUTPUT: u32 = 1 << 3;
    /// Browse.
    pub const BROWSE: u32 = 1 << 4;
    /// Inquire.
    pub const INQUIRE: u32 = 1 << 5;
    /// Set.
    pub const SET: u32 = 1 << 6;
    /// Read ahead: yes.
    pub const READ_AHEAD: u32 = 1 << 7;
    /// Read ahead: no.
    pub const NO_READ_AHEAD: u32 = 1 << 8;
    /// Fail if quiescing.
    pub const FAIL_IF_QUIESCING: u32 = 1 << 9;
    /// Puts may set identity context.
    pub const SET_IDENTITY_CONTEXT: u32 = 1 << 10;
    /// Puts may set all context.
    pub const SET_ALL_CONTEXT: u32 = 1 << 11;
    /// An alternate user id follows the options (set and cleared by the codec).
    pub const ALTERNATE_USER: u32 = 1 << 12;
    /// Puts may pass identity context from a saved get.
    pub const PASS_IDENTITY_CONTEXT: u32 = 1 << 13;
    /// Puts may pass all context from a saved get.
    pub const PASS_ALL_CONTEXT: u32 = 1 << 14;
    /// Destructive gets save the message's context for a put to pass.
    pub const SAVE_ALL_CONTEXT: u32 = 1 << 15;
    /// A selection string (str16) follows the alternate user (set and cleared by the codec).
    pub const SELECTOR: u32 = 1 << 16;
    /// Every defined bit.
    pub const ALL: u32 = (1 << 17) - 1;
}

/// Bits of a Connect request's `flags`.
pub mod connect_flags {
    /// The client sends heartbeats while idle, so the server may presume it dead after two
    /// missed intervals.
    pub const HEARTBEATS: u32 = 1 << 0;
    /// A queue manager's message channel, not an application: the conversation carries only
    /// ChannelStart and ChannelBatch, and the partner proves who it is when the channel starts
    /// (by its TLS certificate, or the user and password given here, checked then).
    pub const CHANNEL: u32 = 1 << 1;
    /// The Connect names the server-connection channel the application uses (a string after
    /// the compression list): channel authentication records are matched against it.
    pub const SVRCONN: u32 = 1 << 2;
}

/// Bits of an Open reply's `flags`.
pub mod opened_flags {
    /// Read-ahead is in effect: the client should send Stream credit and serve gets from its
    /// buffer.
    pub const READ_AHEAD: u32 = 1 << 0;
    /// The queue's DEFPRESP is ASYNC: puts "as queue default" need not wait for an answer.
    pub const ASYNC_PUT_DEFAULT: u32 = 1 << 1;
}

/// Put option bits.
pub mod put_flags {
    /// In syncpoint.
    pub const SYNCPOINT: u32 = 1 << 0;
    /// New msg id.
    pub const NEW_MSG_ID: u32 = 1 << 1;
    /// New correl id.
    pub const NEW_CORREL_ID: u32 = 1 << 2;
    /// Async response requested.
    pub const ASYNC: u32 = 1 << 3;
    /// Sync response requested.
    pub const SYNC: u32 = 1 << 4;
    /// Fail if quiescing.
    pub const FAIL_IF_QUIESCING: u32 = 1 << 5;
    /// No context.
    pub const NO_CONTEXT: u32 = 1 << 6;
    /// The caller sets identity context (the descriptor's user id is kept).
    pub const SET_IDENTITY_CONTEXT: u32 = 1 << 7;
    /// The caller sets all context (user id, application, put time, reply-to kept).
    pub const SET_ALL_CONTEXT: u32 = 1 << 8;
    /// Identity context passed from the input handle that follows the options (a u32).
    pub const PASS_IDENTITY_CONTEXT: u32 = 1 << 9;
    /// All context passed from the input handle that follows the options (a u32).
    pub const PASS_ALL_CONTEXT: u32 = 1 << 10;
    /// An alternate user id follows (after the context handle, if any); set and cleared by the
    /// codec. Only put1 takes one.
    pub const ALTERNATE_USER: u32 = 1 << 11;
    /// MQPMO_RETAIN: keep the publication as its topic's retained one.
    pub const RETAIN: u32 = 1 << 12;
    /// MQPMO_NOT_OWN_SUBS: not to the publisher's own subscriptions.
    pub const NOT_OWN_SUBS: u32 = 1 << 13;
    /// Where MQPMO PubLevel sits: these four bits hold the level plus one (0: not given, 9).
    pub const PUB_LEVEL_SHIFT: u32 = 14;
    /// The four PubLevel bits.
    pub const PUB_LEVEL: u32 = 0xF << PUB_LEVEL_SHIFT;
    /// Every defined bit.
    pub const ALL: u32 = (1 << 18) - 1;
    /// Either pass-context bit: a context handle follows the options.
    pub const PASS: u32 = PASS_IDENTITY_CONTEXT | PASS_ALL_CONTEXT;
}

/// Put options on the wire: the `put_flags` bits and what some of them bring with them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WirePutOptions {
    /// `put_flags` bits (the codec sets and clears ALTERNATE_USER from `alternate_user`).
    pub flags: u32,
    /// The input handle whose saved context a pass-context put takes; sent only with a
    /// `put_flags::PASS` bit (0 otherwise).
    pub context: u32,
    /// MQPMO_ALTERNATE_USER_AUTHORITY's user (empty: none).
    pub alternate_user: String,
}

impl WirePutOptions {
    /// Its flags, then its context handle when a pass bit is set, then its alternate user when
    /// one is given.
    fn encode(&self, out: &mut BytesMut) {
        let mut f = self.flags & !put_flags::ALTERNATE_USER;
        if !self.alternate_user.is_empty() {
            f |= put_flags::ALTERNATE_USER;
        }
        out.put_u32_le(f);
        if f & put_flags::PASS != 0 {
            out.put_u32_le(self.context);
        }
        if !self.alternate_user.is_empty() {
            out.put_str8(&self.alternate_user);
        }
    }

    fn decode(r: &mut Reader) -> Result<WirePutOptions, WireError> {
        let f = r.u32("put options")?;
        if f & !put_flags::ALL != 0 || f & put_flags::PASS == put_flags::PASS {
            return Err(WireError::BadValue {
                what: "put options",
                value: f as u64,
            });
        }
        let context = match f & put_flags::PASS {
            0 => 0,
            _ => r.u32("context handle")?,
        };
        let alternate_user = match f & put_flags::ALTERNATE_USER {
            0 => String::new(),
            _ => r.str8("alternate user")?,
        };
        Ok(WirePutOptions {
            flags: f & !put_flags::ALTERNATE_USER,
            context,
            alternate_user,
        })
    }
}

/// Get options on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WireGetOptions {
    /// Bit 0 syncpoint, bit 1 accept truncated, bit 2 fail if quiescing, bits 4–6 browse mode
    /// (0 none, 1 first, 2 next, 3 under cursor, 4 get under cursor).
    pub flags: u32,
    /// 0 no wait, `u32::MAX` unlimited, else milliseconds.
    pub wait_ms: u32,
    /// Match this msg id.
    pub msg_id: Option<[u8; ID_LEN]>,
    /// Match this correl id.
    pub correl_id: Option<[u8; ID_LEN]>,
    /// Buffer limit; `u32::MAX` none.
    pub max_len: u32,
    /// A batch get: how many more messages the client takes after the first, if they are
    /// there now (each its own response frame, `FLAG_MORE` on all but the last). Sent only
    /// when not zero, so a single get reads as before.
    pub more: u32,
}

/// A request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Open a conversation.
    Connect {
        /// Application name.
        app_name: String,
        /// User id (checked when authentication is configured).
        user: String,
        /// Password, when the server requires one.
        password: String,
        /// Reserved option bits.
        flags: u32,
        /// Compression algorithms the client accepts, most preferred first (wire numbers).
        compression: Vec<u8>,
        /// The server-connection channel it comes over (empty: none named); sent with the
        /// SVRCONN flag, which the codec sets and clears.
        channel: String,
    },
    /// End the conversation (commits its unit of work).
    Disconnect,
    /// Open an object.
    Open {
        /// What.
        object: WireObject,
        /// `open_flags` bits.
        options: u32,
        /// MQOO_ALTERNATE_USER_AUTHORITY's user (empty: none); sent with the ALTERNATE_USER
        /// bit, which the codec sets and clears.
        alternate_user: String,
        /// A queue's selection string (MQOD SelectionString; empty: none); sent with the
        /// SELECTOR bit, which the codec sets and clears.
        selector: String,
    },
    /// Close a handle (0 none, 1 delete, 2 delete purge).
    Close {
        /// Handle.
        hobj: u32,
        /// Close option.
        options: u8,
    },
    /// Put on a handle.
    Put {
        /// Handle.
        hobj: u32,
        /// Options (an alternate user is for put1: the server refuses it here with
        /// MQRC_OPTIONS_ERROR).
        options: WirePutOptions,
        /// The message.
        msg: WireMessage,
    },
    /// Open, put, close.
    Put1 {
        /// What.
        object: WireObject,
        /// Options.
        options: WirePutOptions,
        /// The message.
        msg: WireMessage,
    },
    /// Get or browse.
    Get {
        /// Handle.
        hobj: u32,
        /// Options.
        options: WireGetOptions,
    },
    /// Inquire by selectors.
    Inquire {
        /// Handle.
        hobj: u32,
        /// MQIA_/MQCA_ selectors.
        selectors: Vec<i32>,
    },
    /// Set integer attributes.
    Set {
        /// Handle.
        hobj: u32,
        /// (selector, value) pairs of integer attributes.
        values: Vec<(i32, i64)>,
        /// (selector, text) pairs of character attributes (sent after the integers, only when
        /// there are any, so a request without them reads as before).
        texts: Vec<(i32, String)>,
    },
    /// Commit.
    Commit,
    /// Backout.
    Backout,
    /// Async put status.
    Status,
    /// Heartbeat.
    Heartbeat,
    /// Read-ahead flow control for a handle. The server answers nothing; it pushes messages
    /// (Get responses with the PUSH flag, request id = handle) while the client has credit.
    Stream {
        /// Handle opened with read-ahead in effect.
        hobj: u32,
        /// How many more messages the client can buffer.
        credit: u32,
        /// How many streamed messages the application has consumed since the last report.
        consumed: u32,
    },
    /// Run administrative commands.
    Admin {
        /// The commands, one per line (runmqsc script rules).
        script: String,
    },
    /// The next part of the last administrative answer.
    AdminMore,
    /// A sender channel starts (the conversation becomes the receiving end of `channel`).
    ChannelStart {
        /// The channel's name (defined as RCVR at the receiver).
        channel: String,
        /// The sending queue manager.
        sender_qmgr: String,
        /// The sender's BATCHSZ.
        batch_size: u32,
        /// The sender's MAXMSGL.
        max_msg_length: u32,
        /// The sender's last committed batch sequence number.
        seq: u64,
        /// Recoverable batches the sender would keep unconfirmed at once (1 when the field
        /// is absent: a sender that waits for each).
        window: u32,
        /// Streams the sender can spread fast batches over (QUIC: the connection's first
        /// stream and `lanes - 1` more; 1 when absent, or over TCP).
        lanes: u32,
    },
    /// MQSUB: a subscription descriptor, and the queue handle publications go to (0 for a
    /// managed subscription).
    Subscribe {
        /// The descriptor.
        sub: WireSub,
        /// The queue handle (0: none).
        hobj: u32,
    },
    /// MQSUBRQ: the subscription handle.
    SubRequest {
        /// The subscription handle.
        hsub: u32,
    },
    /// One batch: the receiver delivers every message (or dead-letters it) and records `seq`
    /// as committed, in one unit of work, before it answers.
    ChannelBatch {
        /// This batch's sequence number.
        seq: u64,
        /// The batch's logical unit of work id: made by the sender from a key only it holds,
        /// recorded by the receiver with the batch, and how the sender recognises its own batch
        /// when it resolves one left in doubt.
        luwid: [u8; LUWID_LEN],
        /// The messages, each with its transmission header.
        messages: Vec<WireMessage>,
    },
}

impl Request {
    /// The opcode this request travels under.
    pub fn opcode(&self) -> Opcode {
        match self {
            Request::Connect { .. } => Opcode::Connect,
            Request::Disconnect => Opcode::Disconnect,
            Request::Open { .. } => Opcode::Open,
            Request::Close { .. } => Opcode::Close,
            Request::Put { .. } => Opcode::Put,
            Request::Put1 { .. } => Opcode::Put1,
            Request::Get { .. } => Opcode::Get,
            Request::Inquire { .. } => Opcode::Inquire,
            Request::Set { .. } => Opcode::Set,
            Request::Commit => Opcode::Commit,
            Request::Backout => Opcode::Backout,
            Request::Status => Opcode::Status,
            Request::Heartbeat => Opcode::Heartbeat,
            Request::Stream { .. } => Opcode::Stream,
            Request::Admin { .. } => Opcode::Admin,
            Request::AdminMore => Opcode::AdminMore,
            Request::ChannelStart { .. } => Opcode::ChannelStart,
            Request::ChannelBatch { .. } => Opcode::ChannelBatch,
            Request::Subscribe { .. } => Opcode::Subscribe,
            Request::SubRequest { .. } => Opcode::SubRequest,
        }
    }

    /// Appends the payload.
    pub fn encode(&self, out: &mut BytesMut) {
        match self {
            Request::Connect {
                app_name,
                user,
                password,
                flags,
                compression,
                channel,
            } => {
                out.put_str8(app_name);
                out.put_str8(user);
                out.put_str8(password);
                encode_connect_tail(out, *flags, compression, channel);
            }
            Request::Open {
                object,
                options,
                alternate_user,
                selector,
            } => encode_open(out, object, *options, alternate_user, selector),
            Request::Close { hobj, options } => {
                out.put_u32_le(*hobj);
                out.put_u8(*options);
            }
            Request::Put { hobj, options, msg } => {
                out.put_u32_le(*hobj);
                options.encode(out);
                msg.encode(out);
            }
            Request::Put1 {
                object,
                options,
                msg,
            } => {
                object.encode(out);
                options.encode(out);
                msg.encode(out);
            }
            Request::Get { hobj, options } => {
                out.put_u32_le(*hobj);
                out.put_u32_le(options.flags);
                out.put_u32_le(options.wait_ms);
                put_opt_id(out, options.msg_id);
                put_opt_id(out, options.correl_id);
                out.put_u32_le(options.max_len);
                if options.more > 0 {
                    out.put_u32_le(options.more);
                }
            }
            Request::Inquire { hobj, selectors } => {
                out.put_u32_le(*hobj);
                out.put_u32_le(selectors.len() as u32);
                for s in selectors {
                    out.put_i32_le(*s);
                }
            }
            Request::Set {
                hobj,
                values,
                texts,
            } => encode_set(out, *hobj, values, texts),
            Request::Stream {
                hobj,
                credit,
                consumed,
            } => {
                out.put_u32_le(*hobj);
                out.put_u32_le(*credit);
                out.put_u32_le(*consumed);
            }
            Request::Admin { script } => out.put_bytes32(script.as_bytes()),
            Request::Subscribe { sub, hobj } => {
                sub.encode(out);
                out.put_u32_le(*hobj);
            }
            Request::SubRequest { hsub } => out.put_u32_le(*hsub),
            Request::ChannelStart { .. } | Request::ChannelBatch { .. } => self.encode_channel(out),
            Request::Disconnect
            | Request::Commit
            | Request::Backout
            | Request::Status
            | Request::Heartbeat
            | Request::AdminMore => {}
        }
    }

    /// Decodes the payload of a request frame with `opcode`.
    pub fn decode(opcode: u8, payload: Bytes) -> Result<Request, WireError> {
        let mut r = Reader::new(payload);
        let req = match self::opcode(opcode)? {
            Opcode::Connect => {
                let app_name = r.str8("application name")?;
                let user = r.str8("user")?;
                let password = r.str8("password")?;
                let flags = r.u32("connect flags")?;
                let n = r.u8("compression count")? as usize;
                let compression = (0..n)
                    .map(|_| r.u8("compression"))
                    .collect::<Result<_, _>>()?;
                let channel = if flags & connect_flags::SVRCONN != 0 {
                    r.str8("channel name")?
                } else {
                    String::new()
                };
                Request::Connect {
                    app_name,
                    user,
                    password,
                    flags: flags & !connect_flags::SVRCONN,
                    compression,
                    channel,
                }
            }
            Opcode::Disconnect => Request::Disconnect,
            Opcode::Open => decode_open(&mut r)?,
            Opcode::Subscribe => Request::Subscribe {
                sub: WireSub::decode(&mut r)?,
                hobj: r.u32("queue handle")?,
            },
            Opcode::SubRequest => Request::SubRequest {
                hsub: r.u32("subscription handle")?,
            },
            Opcode::Close => Request::Close {
                hobj: r.u32("handle")?,
                options: r.u8("close options")?,
            },
            Opcode::Put => Request::Put {
                hobj: r.u32("handle")?,
                options: WirePutOptions::decode(&mut r)?,
                msg: WireMessage::decode(&mut r)?,
            },
            Opcode::Put1 => Request::Put1 {
                object: WireObject::decode(&mut r)?,
                options: WirePutOptions::decode(&mut r)?,
                msg: WireMessage::decode(&mut r)?,
            },
            Opcode::Get => Request::Get {
                hobj: r.u32("handle")?,
                options: WireGetOptions {
                    flags: r.u32("get options")?,
                    wait_ms: r.u32("wait interval")?,
                    msg_id: get_opt_id(&mut r, "match msg id")?,
                    correl_id: get_opt_id(&mut r, "match correl id")?,
                    max_len: r.u32("buffer length")?,
                    more: match r.remaining() {
                        0 => 0,
                        _ => r.u32("batch size")?,
                    },
                },
            },
            Opcode::Inquire => {
                let hobj = r.u32("handle")?;
                let n = r.count("selector count", 4)?;
                let selectors = (0..n)
                    .map(|_| r.i32("selector"))
                    .collect::<Result<_, _>>()?;
                Request::Inquire { hobj, selectors }
            }
            Opcode::Set => {
                let hobj = r.u32("handle")?;
                let n = r.count("attribute count", 12)?;
                let mut values = Vec::with_capacity(n);
                for _ in 0..n {
                    values.push((r.i32("selector")?, r.i64("value")?));
                }
                let mut texts = Vec::new();
                if r.remaining() > 0 {
                    let n = r.count("character attribute count", 6)?;
                    for _ in 0..n {
                        texts.push((r.i32("selector")?, r.str16("value")?));
                    }
                }
                Request::Set {
                    hobj,
                    values,
                    texts,
                }
            }
            Opcode::Commit => Request::Commit,
            Opcode::Backout => Request::Backout,
            Opcode::Status => Request::Status,
            Opcode::Heartbeat => Request::Heartbeat,
            Opcode::Stream => Request::Stream {
                hobj: r.u32("handle")?,
                credit: r.u32("credit")?,
                consumed: r.u32("consumed")?,
            },
            Opcode::Admin => {
                let b = r.bytes32("admin script")?;
                Request::Admin {
                    script: String::from_utf8(b.to_vec()).map_err(|_| WireError::BadValue {
                        what: "admin script (not UTF-8)",
                        value: 0,
                    })?,
                }
            }
            Opcode::AdminMore => Request::AdminMore,
            op @ (Opcode::ChannelStart | Opcode::ChannelBatch) => decode_channel(op, &mut r)?,
        };
        r.finish("request")?;
        Ok(req)
    }
}

impl Request {
    /// The payload of ChannelStart and ChannelBatch.
    fn encode_channel(&self, out: &mut BytesMut) {
        match self {
            Request::ChannelStart {
                channel,
                sender_qmgr,
                batch_size,
                max_msg_length,
                seq,
                window,
                lanes,
            } => {
                out.put_str8(channel);
                out.put_str8(sender_qmgr);
                out.put_u32_le(*batch_size);
                out.put_u32_le(*max_msg_length);
                out.put_u64_le(*seq);
                out.put_u32_le(*window);
                out.put_u32_le(*lanes);
            }
            Request::ChannelBatch {
                seq,
                luwid,
                messages,
            } => {
                out.put_u64_le(*seq);
                out.put_slice(luwid);
                out.put_u32_le(messages.len() as u32);
                for m in messages {
                    m.encode(out);
                }
            }
            _ => unreachable!("encode passes only channel requests"),
        }
    }
}

/// Decodes ChannelStart and ChannelBatch.
fn decode_channel(op: Opcode, r: &mut Reader) -> Result<Request, WireError> {
    Ok(match op {
        Opcode::ChannelStart => Request::ChannelStart {
            channel: r.str8("channel name")?,
            sender_qmgr: r.str8("sender queue manager")?,
            batch_size: r.u32("batch size")?,
            max_msg_length: r.u32("max message length")?,
            seq: r.u64("sequence number")?,
            window: if r.remaining() > 0 {
                r.u32("window")?
            } else {
                1
            },
            lanes: if r.remaining() > 0 {
                r.u32("lanes")?
            } else {
                1
            },
        },
        Opcode::ChannelBatch => {
            let seq = r.u64("sequence number")?;
            let luwid = r.array("logical unit of work id")?;
            // The smallest message is well over 32 bytes, so the count is checked against
            // what the frame can hold before anything is allocated.
            let n = r.count("message count", 32)?;
            let mut messages = Vec::with_capacity(n);
            for _ in 0..n {
                messages.push(WireMessage::decode(r)?);
            }
            Request::ChannelBatch {
                seq,
                luwid,
                messages,
            }
        }
        _ => unreachable!("decode passes only channel opcodes"),
    })
}

fn put_opt_id(out: &mut BytesMut, id: Option<[u8; ID_LEN]>) {
    match id {
        None => out.put_u8(0),
        Some(id) => {
            out.put_u8(1);
            out.put_slice(&id);
        }
    }
}

fn get_opt_id(r: &mut Reader, what: &'static str) -> Result<Option<[u8; ID_LEN]>, WireError> {
    match r.u8(what)? {
        0 => Ok(None),
        1 => Ok(Some(r.array(what)?)),
        v => Err(WireError::BadValue {
            what,
            value: v as u64,
        }),
    }
}

/// The status block that opens every response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Status {
    /// 0 ok, 1 warning, 2 failed.
    pub completion: u8,
    /// Reason code.
    pub reason: u32,
    /// Specific sentence.
    pub detail: String,
    /// Full message length for truncation reasons.
    pub data_length: u64,
}

impl Status {
    /// Success.
    pub const OK: Status = Status {
        completion: 0,
        reason: 0,
        detail: String::new(),
        data_length: 0,
    };

    /// Whether the call failed (no result follows).
    pub fn failed(&self) -> bool {
        self.completion >= 2
    }
}

/// A response's result, by opcode.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Nothing beyond the status (close, commit, backout, set, disconnect, heartbeat, failures).
    Empty,
    /// Connect succeeded.
    Connected {
        /// Connection id.
        conn_id: u64,
        /// Queue manager name.
        qmgr: String,
        /// Heartbeat interval the server will keep, ms.
        heartbeat_ms: u32,
        /// The compression chosen for this connection's payloads (0: none).
        compression: u8,
    },
    /// MQSUBRQ succeeded: how many publications were sent.
    SubRequested {
        /// Publications sent.
        count: u32,
    },
    /// MQSUB succeeded.
    Subscribed {
        /// The queue handle publications arrive on.
        hobj: u32,
        /// The subscription handle.
        hsub: u32,
        /// That queue's name (a managed queue's generated name).
        queue: String,
        /// `opened_flags` of the queue handle (read-ahead in effect).
        flags: u32,
    },
    /// Open succeeded.
    Opened {
        /// Handle.
        hobj: u32,
        /// Resolved queue name (the dynamic queue's generated name).
        name: String,
        /// `opened_flags` bits: what the client must know about the handle.
        flags: u32,
    },
    /// Put succeeded.
    Put {
        /// Msg id.
        msg_id: [u8; ID_LEN],
        /// Correl id.
        correl_id: [u8; ID_LEN],
        /// Put time ms.
        put_time_ms: u64,
        /// Persistence used.
        persistence: u8,
        /// Priority used.
        priority: u8,
    },
    /// Get succeeded.
    Got {
        /// The message.
        msg: WireMessage,
        /// Full length.
        data_length: u64,
    },
    /// Inquire succeeded: per selector, an integer or a string.
    Inquired {
        /// Values in selector order.
        values: Vec<WireAttr>,
    },
    /// Async put status since the last call.
    Status {
        /// Succeeded.
        succeeded: u64,
        /// Warned.
        warned: u64,
        /// Failed.
        failed: u64,
        /// First failure's reason (0 none).
        first_reason: u32,
        /// First failure's detail.
        first_detail: String,
    },
    /// The receiving end of a channel is ready.
    ChannelStarted {
        /// The receiving queue manager.
        qmgr: String,
        /// The batch size both ends use (the lower of the two BATCHSZ).
        batch_size: u32,
        /// The message length both ends accept (the lower of the two MAXMSGL).
        max_msg_length: u32,
        /// The receiver's last committed batch.
        seq: u64,
        /// The transmission ids of that batch (for resolving a batch the sender is in doubt
        /// about).
        ids: Vec<[u8; ID_LEN]>,
        /// That batch's logical unit of work id, as its sender made it.
        luwid: [u8; LUWID_LEN],
        /// Recoverable batches the sender may keep unconfirmed (absent: 1).
        window: u32,
        /// The batches the receiver committed after the sender's last and before its own
        /// last, in order (absent: none).
        more: Vec<WireBatchRecord>,
        /// Streams the sender may spread fast batches over (absent: 1, its first only).
        lanes: u32,
    },
    /// A batch is committed at the receiver.
    ChannelBatchDone {
        /// Its sequence number.
        seq: u64,
        /// Messages put to their destination queues.
        delivered: u32,
        /// Messages put to the dead-letter queue instead.
        dead_lettered: u32,
    },
    /// A part of an administrative answer (JSON, docs/admin.md), with whether more follows.
    Admin {
        /// This part's bytes.
        data: Bytes,
        /// More parts follow (ask with AdminMore).
        more: bool,
    },
}

/// An inquired attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireAttr {
    /// Integer.
    Int(i64),
    /// String.
    Str(String),
}

/// Appends a response payload: status, then the reply unless the status is a failure.
pub fn encode_response(out: &mut BytesMut, status: &Status, reply: &Reply) {
    if !encode_status(out, status) {
        return;
    }
    match reply {
        Reply::Empty => {}
        Reply::Connected {
            conn_id,
            qmgr,
            heartbeat_ms,
            compression,
        } => {
            out.put_u64_le(*conn_id);
            out.put_str8(qmgr);
            out.put_u32_le(*heartbeat_ms);
            out.put_u8(*compression);
        }
        Reply::SubRequested { count } => out.put_u32_le(*count),
        Reply::Subscribed {
            hobj,
            hsub,
            queue,
            flags,
        } => {
            out.put_u32_le(*hobj);
            out.put_u32_le(*hsub);
            out.put_str8(queue);
            out.put_u32_le(*flags);
        }
        Reply::Opened { hobj, name, flags } => {
            out.put_u32_le(*hobj);
            out.put_str8(name);
            out.put_u32_le(*flags);
        }
        Reply::Put {
            msg_id,
            correl_id,
            put_time_ms,
            persistence,
            priority,
        } => {
            out.put_slice(msg_id);
            out.put_slice(correl_id);
            out.put_u64_le(*put_time_ms);
            out.put_u8(*persistence);
            out.put_u8(*priority);
        }
        Reply::Got { msg, data_length } => {
            out.put_u64_le(*data_length);
            msg.encode(out);
        }
        Reply::Inquired { values } => {
            out.put_u32_le(values.len() as u32);
            for v in values {
                match v {
                    WireAttr::Int(i) => {
                        out.put_u8(0);
                        out.put_i64_le(*i);
                    }
                    WireAttr::Str(s) => {
                        out.put_u8(1);
                        out.put_str16(s);
                    }
                }
            }
        }
        Reply::Status {
            succeeded,
            warned,
            failed,
            first_reason,
            first_detail,
        } => {
            out.put_u64_le(*succeeded);
            out.put_u64_le(*warned);
            out.put_u64_le(*failed);
            out.put_u32_le(*first_reason);
            out.put_str16(first_detail);
        }
        Reply::Admin { data, more } => {
            out.put_u8(u8::from(*more));
            out.put_bytes32(data);
        }
        Reply::ChannelStarted { .. } | Reply::ChannelBatchDone { .. } => {
            encode_channel_reply(out, reply)
        }
    }
}

/// The payload of ChannelStarted and ChannelBatchDone.
fn encode_channel_reply(out: &mut BytesMut, reply: &Reply) {
    match reply {
        Reply::ChannelStarted {
            qmgr,
            batch_size,
            max_msg_length,
            seq,
            ids,
            luwid,
            window,
            more,
            lanes,
        } => {
            out.put_str8(qmgr);
            out.put_u32_le(*batch_size);
            out.put_u32_le(*max_msg_length);
            out.put_u64_le(*seq);
            put_ids(out, ids);
            out.put_slice(luwid);
            out.put_u32_le(*window);
            out.put_u32_le(more.len() as u32);
            for b in more {
                out.put_u64_le(b.seq);
                out.put_slice(&b.luwid);
                put_ids(out, &b.ids);
            }
            out.put_u32_le(*lanes);
        }
        Reply::ChannelBatchDone {
            seq,
            delivered,
            dead_lettered,
        } => {
            out.put_u64_le(*seq);
            out.put_u32_le(*delivered);
            out.put_u32_le(*dead_lettered);
        }
        _ => unreachable!("encode_response passes only channel replies"),
    }
}

/// A batch a receiver committed, as ChannelStarted reports it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WireBatchRecord {
    /// Its sequence number.
    pub seq: u64,
    /// Its logical unit of work id.
    pub luwid: [u8; LUWID_LEN],
    /// Its messages' transmission ids.
    pub ids: Vec<[u8; ID_LEN]>,
}

fn put_ids(out: &mut BytesMut, ids: &[[u8; ID_LEN]]) {
    out.put_u32_le(ids.len() as u32);
    for id in ids {
        out.put_slice(id);
    }
}

/// A u32 count of transmission ids (checked against what the frame holds) and the ids.
fn read_ids(r: &mut Reader) -> Result<Vec<[u8; ID_LEN]>, WireError> {
    let n = r.count("id count", ID_LEN)?;
    (0..n).map(|_| r.array("transmission id")).collect()
}

/// Decodes ChannelStarted and ChannelBatchDone.
fn decode_channel_reply(op: Opcode, r: &mut Reader) -> Result<Reply, WireError> {
    Ok(match op {
        Opcode::ChannelStart => Reply::ChannelStarted {
            qmgr: r.str8("queue manager")?,
            batch_size: r.u32("batch size")?,
            max_msg_length: r.u32("max message length")?,
            seq: r.u64("sequence number")?,
            ids: read_ids(r)?,
            luwid: r.array("logical unit of work id")?,
            window: if r.remaining() > 0 {
                r.u32("window")?
            } else {
                1
            },
            more: if r.remaining() > 0 {
                let n = r.count("batch count", 8 + LUWID_LEN + 4)?;
                (0..n)
                    .map(|_| {
                        Ok(WireBatchRecord {
                            seq: r.u64("sequence number")?,
                            luwid: r.array("logical unit of work id")?,
                            ids: read_ids(r)?,
                        })
                    })
                    .collect::<Result<_, WireError>>()?
            } else {
                Vec::new()
            },
            lanes: if r.remaining() > 0 {
                r.u32("lanes")?
            } else {
                1
            },
        },
        Opcode::ChannelBatch => Reply::ChannelBatchDone {
            seq: r.u64("sequence number")?,
            delivered: r.u32("delivered")?,
            dead_lettered: r.u32("dead-lettered")?,
        },
        _ => unreachable!("decode_response passes only channel opcodes"),
    })
}

/// A response's status block.
pub(crate) fn decode_status(r: &mut Reader) -> Result<Status, WireError> {
    let completion = r.u8_at_most("completion code", 2)?;
    Ok(Status {
        completion,
        reason: r.u32("reason")?,
        detail: r.str16("detail")?,
        data_length: r.u64("data length")?,
    })
}

/// Decodes a response payload for a request sent with `opcode`.
pub fn decode_response(opcode: u8, payload: Bytes) -> Result<(Status, Reply), WireError> {
    let mut r = Reader::new(payload);
    let status = decode_status(&mut r)?;
    if status.failed() {
        r.finish("response")?;
        return Ok((status, Reply::Empty));
    }
    let reply = match self::opcode(opcode)? {
        Opcode::Connect => Reply::Connected {
            conn_id: r.u64("connection id")?,
            qmgr: r.str8("queue manager")?,
            heartbeat_ms: r.u32("heartbeat")?,
            compression: r.u8("compression")?,
        },
        Opcode::Open => Reply::Opened {
            hobj: r.u32("handle")?,
            name: r.str8("queue name")?,
            flags: r.u32("open result flags")?,
        },
        Opcode::SubRequest => Reply::SubRequested {
            count: r.u32("publications sent")?,
        },
        Opcode::Subscribe => Reply::Subscribed {
            hobj: r.u32("queue handle")?,
            hsub: r.u32("subscription handle")?,
            queue: r.str8("queue name")?,
            flags: r.u32("subscribed flags")?,
        },
        Opcode::Put | Opcode::Put1 => Reply::Put {
            msg_id: r.array("msg id")?,
            correl_id: r.array("correl id")?,
            put_time_ms: r.u64("put time")?,
            persistence: r.u8("persistence")?,
            priority: r.u8("priority")?,
        },
        Opcode::Get => {
            let data_length = r.u64("data length")?;
            Reply::Got {
                msg: WireMessage::decode(&mut r)?,
                data_length,
            }
        }
        Opcode::Inquire => {
            let n = r.count("value count", 2)?;
            let mut values = Vec::with_capacity(n);
            for _ in 0..n {
                values.push(match r.u8("value type")? {
                    0 => WireAttr::Int(r.i64("integer value")?),
                    1 => WireAttr::Str(r.str16("string value")?),
                    v => {
                        return Err(WireError::BadValue {
                            what: "value type",
                            value: v as u64,
                        })
                    }
                });
            }
            Reply::Inquired { values }
        }
        Opcode::Status => Reply::Status {
            succeeded: r.u64("succeeded")?,
            warned: r.u64("warned")?,
            failed: r.u64("failed")?,
            first_reason: r.u32("first reason")?,
            first_detail: r.str16("first detail")?,
        },
        Opcode::Admin | Opcode::AdminMore => {
            let more = r.u8("more")? != 0;
            Reply::Admin {
                more,
                data: r.bytes32("admin answer")?,
            }
        }
        op @ (Opcode::ChannelStart | Opcode::ChannelBatch) => decode_channel_reply(op, &mut r)?,
        Opcode::Stream => return Err(WireError::UnknownOpcode { opcode }),
        Opcode::Disconnect
        | Opcode::Close
        | Opcode::Set
        | Opcode::Commit
        | Opcode::Backout
        | Opcode::Heartbeat => Reply::Empty,
    };
    r.finish("response")?;
    Ok((status, reply))
}

/// An Open's body: the object, the options, and the alternate user after them when there is
/// one (the ALTERNATE_USER bit says so).
fn encode_open(
    out: &mut BytesMut,
    object: &WireObject,
    options: u32,
    alternate_user: &str,
    selector: &str,
) {
    object.encode(out);
    let mut flags = options & !(open_flags::ALTERNATE_USER | open_flags::SELECTOR);
    if !alternate_user.is_empty() {
        flags |= open_flags::ALTERNATE_USER;
    }
    if !selector.is_empty() {
        flags |= open_flags::SELECTOR;
    }
    out.put_u32_le(flags);
    if !alternate_user.is_empty() {
        out.put_str8(alternate_user);
    }
    if !selector.is_empty() {
        out.put_str16(selector);
    }
}

/// The Open [`encode_open`] wrote.
fn decode_open(r: &mut Reader) -> Result<Request, WireError> {
    let object = WireObject::decode(r)?;
    let options = r.u32("open options")?;
    if options & !open_flags::ALL != 0 {
        return Err(WireError::BadValue {
            what: "open options",
            value: options as u64,
        });
    }
    let alternate_user = if options & open_flags::ALTERNATE_USER != 0 {
        r.str8("alternate user")?
    } else {
        String::new()
    };
    let selector = if options & open_flags::SELECTOR != 0 {
        r.str16("selection string")?
    } else {
        String::new()
    };
    Ok(Request::Open {
        object,
        options: options & !(open_flags::ALTERNATE_USER | open_flags::SELECTOR),
        alternate_user,
        selector,
    })
}

/// MQSET's values: the integers, then (only when there are any) the character attributes.
fn encode_set(out: &mut BytesMut, hobj: u32, values: &[(i32, i64)], texts: &[(i32, String)]) {
    out.put_u32_le(hobj);
    out.put_u32_le(values.len() as u32);
    for (s, v) in values {
        out.put_i32_le(*s);
        out.put_i64_le(*v);
    }
    if !texts.is_empty() {
        out.put_u32_le(texts.len() as u32);
        for (s, t) in texts {
            out.put_i32_le(*s);
            out.put_str16(t);
        }
    }
}

/// A connect request's flags, compression offers and the SVRCONN channel it names, if any.
fn encode_connect_tail(out: &mut BytesMut, flags: u32, compression: &[u8], channel: &str) {
    let named = if channel.is_empty() {
        0
    } else {
        connect_flags::SVRCONN
    };
    out.put_u32_le((flags & !connect_flags::SVRCONN) | named);
    out.put_u8(compression.len().min(255) as u8);
    out.put_slice(&compression[..compression.len().min(255)]);
    if named != 0 {
        out.put_str8(channel);
    }
}
