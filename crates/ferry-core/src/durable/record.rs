//! The log-record codec: what each record the engine writes to the recovery log holds, byte by
//! byte, and its format version. The wire protocol has its own codec; the two share no code, so
//! the on-disk format changes only when this file does.
//!
//! Records (the `ferry-log` record header carries the kind; this is the payload):
//!
//! | kind | record | payload |
//! |---|---|---|
//! | 1 | DEFINE | str8 queue name, bytes32 TOML of the definition |
//! | 2 | DELETE | str8 queue name |
//! | 3 | CLEAR | str8 queue name (every available message removed) |
//! | 4 | OBJECT | str8 kind (CHANNEL, LISTENER), str8 name, bytes32 TOML of the definition |
//! | 5 | OBJECT DELETE | str8 kind, str8 name |
//! | 10 | PUT | str8 queue, u64 sequence number, u64 unit of work (0 none), i64 expiry (Unix ms, 0 none), message |
//! | 11 | GET | str8 queue, u64 sequence number, u64 unit of work (0 none) |
//! | 12 | COMMIT | u64 unit of work |
//! | 13 | BACKOUT | u64 unit of work |
//! | 14 | PUBLISH | u64 unit of work, i64 expiry (Unix ms, 0 none), u16 copies, each: str8 queue, u64 sequence number, msg id 24, correl id 24, u8 flags (bit 0: user data follows), str16 subscription user data; then the message (format 2) |
//!
//! Integers are little-endian; `str8` is a u8 length and UTF-8 bytes, `str16` a u16 length,
//! `bytes32` a u32 length and the bytes. A message is its descriptor (msg id 24, correl id 24,
//! u8 persistence 0/1/2, u8 priority (255: as queue default), u64 expiry ms left (0 none), u8
//! message type, u32 feedback, str8 reply-to queue, str8 reply-to queue manager, str8 format,
//! u32 CCSID, u32 encoding, u32 backout count, u64 put time (Unix ms), str8 putting
//! application, str8 user id), u32 property count and each property (str16 name, u8 type tag
//! 0 null 1 bool 2 i8 3 i16 4 i32 5 i64 6 f32 7 f64 8 string (bytes32) 9 bytes (bytes32), then
//! the value), u8 header flags (bit 0 dead-letter header, bit 1 transmission header, bit 2
//! report options), the
//! dead-letter header (u32 reason, str8 destination queue, str8 destination queue manager, str8
//! original format, str8 application, u64 time), the transmission header (str8 remote queue,
//! str8 remote queue manager, transmission id 24), the report options (u32 MQRO_*), bytes32
//! body.
//!
//! Version: [`FORMAT`] 1 is this layout without PUBLISH, which had not changed since the log
//! began (it was first written by the wire protocol's message encoder; the golden bytes below
//! were taken from that encoder); format 2 adds the PUBLISH record and changes nothing else, so
//! a format 1 log is a format 2 log; format 3 adds the report options (header flags bit 2,
//! present only when they are not 0), so a format 2 log is a format 3 log. Records carry no version of their own: each checkpoint names the record format
//! of the log after it (bytes 12..16 of its header, 0 in checkpoints written before the field
//! existed, meaning 1), and a build refuses a log whose format it does not know. A new format
//! starts with a checkpoint that names it.
//!
//! Decoding checks every length against the bytes present and refuses values the engine cannot
//! hold (a name over 48 bytes, an unknown message type), with the record kind in the error.

use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};

use ferry_model::clock::{from_unix_ms, unix_ms};
use ferry_model::message::{
    CorrelId, DeadLetterHeader, Message, MessageDescriptor, MessageType, MsgId, Persistence,
    Priority, Properties, PropertyValue, TransmissionHeader,
};
use ferry_model::name::{object_name, ApplName, FormatName, ObjectName, UserId};
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::engine::journal::{copy_of, CopyTarget};

/// The record format this build writes (it reads every format up to this one).
pub const FORMAT: u32 = 3;

/// Record kinds.
pub mod kind {
    /// A queue definition (create or replace).
    pub const DEFINE: u8 = 1;
    /// A queue deleted.
    pub const DELETE: u8 = 2;
    /// A queue cleared.
    pub const CLEAR: u8 = 3;
    /// A channel or listener defined or altered.
    pub const OBJECT: u8 = 4;
    /// A channel or listener deleted.
    pub const OBJECT_DELETE: u8 = 5;
    /// A persistent message put.
    pub const PUT: u8 = 10;
    /// A persistent message got.
    pub const GET: u8 = 11;
    /// A unit of work committed.
    pub const COMMIT: u8 = 12;
    /// A unit of work backed out.
    pub const BACKOUT: u8 = 13;
    /// A persistent publication's copies to several queues (format 2).
    pub const PUBLISH: u8 = 14;
}

/// Longest name in a descriptor or header (MQ's object-name length).
const SHORT_MAX: usize = 48;

/// A record this build cannot read.
pub fn bad(what: &str, e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::QMgrDataError,
        format!("the recovery log holds a {what} record this build cannot read: {e}"),
    )
}

/// Parses a definition's TOML (as DEFINE records and checkpoints hold it).
pub fn parse_definition(toml_text: &[u8]) -> MqResult<ferry_model::objects::QueueDefinition> {
    let text = std::str::from_utf8(toml_text).map_err(|e| bad("DEFINE", e))?;
    toml::from_str(text).map_err(|e| bad("DEFINE", e))
}

// ----- writing --------------------------------------------------------------------------------

fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn put_str8(b: &mut BytesMut, s: &str) {
    let s = cut(s, u8::MAX as usize);
    b.put_u8(s.len() as u8);
    b.put_slice(s.as_bytes());
}

fn put_str16(b: &mut BytesMut, s: &str) {
    let s = cut(s, u16::MAX as usize);
    b.put_u16_le(s.len() as u16);
    b.put_slice(s.as_bytes());
}

fn put_bytes32(b: &mut BytesMut, v: &[u8]) {
    b.put_u32_le(v.len() as u32);
    b.put_slice(v);
}

/// A name as a descriptor field holds it (at most 48 bytes).
fn put_short(b: &mut BytesMut, s: &str) {
    put_str8(b, cut(s, SHORT_MAX));
}

/// The payload of a PUT record.
pub fn put(queue: &ObjectName, seq: u64, uow: u64, expiry_ms: i64, msg: &Message) -> BytesMut {
    let mut b = BytesMut::with_capacity(msg.body.len() + 256);
    put_str8(&mut b, queue.as_str());
    b.put_u64_le(seq);
    b.put_u64_le(uow);
    b.put_i64_le(expiry_ms);
    encode_message(&mut b, msg);
    b
}

/// The payload of a PUBLISH record: `msg` once, and what makes each copy its own.
pub fn publish(uow: u64, expiry_ms: i64, msg: &Message, targets: &[CopyTarget]) -> BytesMut {
    debug_assert!(targets.len() <= u16::MAX as usize);
    let mut b = BytesMut::with_capacity(msg.body.len() + 256 + targets.len() * 80);
    b.put_u64_le(uow);
    b.put_i64_le(expiry_ms);
    b.put_u16_le(targets.len() as u16);
    for t in targets {
        put_str8(&mut b, t.queue.as_str());
        b.put_u64_le(t.seq);
        b.put_slice(&t.msg_id.0);
        b.put_slice(&t.correl_id.0);
        match &t.user_data {
            Some(u) => {
                b.put_u8(1);
                put_str16(&mut b, u);
            }
            None => b.put_u8(0),
        }
    }
    encode_message(&mut b, msg);
    b
}

/// The payload of a GET record.
pub fn get(queue: &ObjectName, seq: u64, uow: u64) -> BytesMut {
    let mut b = BytesMut::with_capacity(17 + queue.as_str().len());
    put_str8(&mut b, queue.as_str());
    b.put_u64_le(seq);
    b.put_u64_le(uow);
    b
}

/// The payload of a COMMIT or BACKOUT record.
pub fn end_uow(uow: u64) -> [u8; 8] {
    uow.to_le_bytes()
}

/// The payload of a DELETE or CLEAR record.
pub fn queue_event(name: &ObjectName) -> BytesMut {
    let mut b = BytesMut::new();
    put_str8(&mut b, name.as_str());
    b
}

/// The payload of a DEFINE record: the definition as TOML.
pub fn define(name: &ObjectName, toml: &str) -> BytesMut {
    let mut b = BytesMut::new();
    put_str8(&mut b, name.as_str());
    put_bytes32(&mut b, toml.as_bytes());
    b
}

/// The payload of an OBJECT (`Some(toml)`) or OBJECT DELETE (`None`) record.
pub fn object(tag: &str, name: &ObjectName, toml: Option<&str>) -> BytesMut {
    let mut b = BytesMut::new();
    put_str8(&mut b, tag);
    put_str8(&mut b, name.as_str());
    if let Some(t) = toml {
        put_bytes32(&mut b, t.as_bytes());
    }
    b
}

fn persistence_byte(p: Persistence) -> u8 {
    match p {
        Persistence::NotPersistent => 0,
        Persistence::Persistent => 1,
        Persistence::AsQueueDef => 2,
    }
}

fn encode_descriptor(b: &mut BytesMut, d: &MessageDescriptor) {
    b.put_slice(&d.msg_id.0);
    b.put_slice(&d.correl_id.0);
    b.put_u8(persistence_byte(d.persistence));
    b.put_u8(match d.priority {
        Priority::Value(p) => p,
        Priority::AsQueueDef => 255,
    });
    b.put_u64_le(d.expiry.map_or(0, |e| (e.as_millis() as u64).max(1)));
    b.put_u8(d.message_type.mq_value() as u8);
    b.put_u32_le(d.feedback);
    put_short(b, d.reply_to_queue.as_str());
    put_short(b, d.reply_to_qmgr.as_str());
    put_short(b, d.format.as_str());
    b.put_u32_le(d.ccsid);
    b.put_u32_le(d.encoding);
    b.put_u32_le(d.backout_count);
    b.put_u64_le(unix_ms(d.put_time).max(0) as u64);
    put_short(b, d.put_appl_name.as_str());
    put_short(b, d.user_id.as_str());
}

fn encode_value(b: &mut BytesMut, v: &PropertyValue) {
    match v {
        PropertyValue::Null => b.put_u8(0),
        PropertyValue::Bool(x) => {
            b.put_u8(1);
            b.put_u8(*x as u8);
        }
        PropertyValue::I8(x) => {
            b.put_u8(2);
            b.put_i8(*x);
        }
        PropertyValue::I16(x) => {
            b.put_u8(3);
            b.put_i16_le(*x);
        }
        PropertyValue::I32(x) => {
            b.put_u8(4);
            b.put_i32_le(*x);
        }
        PropertyValue::I64(x) => {
            b.put_u8(5);
            b.put_i64_le(*x);
        }
        PropertyValue::F32(x) => {
            b.put_u8(6);
            b.put_f32_le(*x);
        }
        PropertyValue::F64(x) => {
            b.put_u8(7);
            b.put_f64_le(*x);
        }
        PropertyValue::String(s) => {
            b.put_u8(8);
            put_bytes32(b, s.as_bytes());
        }
        PropertyValue::Bytes(v) => {
            b.put_u8(9);
            put_bytes32(b, v);
        }
    }
}

fn encode_headers(b: &mut BytesMut, m: &Message) {
    let report = m.descriptor.report;
    b.put_u8(
        u8::from(m.dead_letter.is_some())
            | (u8::from(m.transmission.is_some()) << 1)
            | (u8::from(report != 0) << 2),
    );
    if let Some(d) = &m.dead_letter {
        b.put_u32_le(d.reason.code());
        put_short(b, d.dest_queue.as_str());
        put_short(b, d.dest_qmgr.as_str());
        put_short(b, d.original_format.as_str());
        put_short(b, d.put_appl_name.as_str());
        b.put_u64_le(unix_ms(d.put_time).max(0) as u64);
    }
    if let Some(t) = &m.transmission {
        put_short(b, t.remote_queue.as_str());
        put_short(b, t.remote_qmgr.as_str());
        b.put_slice(&t.xmit_id.0);
    }
    if report != 0 {
        b.put_u32_le(report);
    }
}

/// Appends a message in the record layout.
pub fn encode_message(b: &mut BytesMut, m: &Message) {
    encode_descriptor(b, &m.descriptor);
    b.put_u32_le(m.properties.len() as u32);
    for (n, v) in m.properties.iter() {
        put_str16(b, n);
        encode_value(b, v);
    }
    encode_headers(b, m);
    put_bytes32(b, &m.body);
}

// ----- reading --------------------------------------------------------------------------------

/// Reads a record payload; byte strings come back as zero-copy slices of it.
#[derive(Debug)]
pub struct Reader {
    buf: Bytes,
    at: usize,
    what: &'static str,
}

impl Reader {
    /// A reader over the payload of a `what` record (named in errors).
    pub fn new(buf: Bytes, what: &'static str) -> Reader {
        Reader { buf, at: 0, what }
    }

    fn take(&mut self, n: usize, field: &str) -> MqResult<&[u8]> {
        if self.buf.len() - self.at < n {
            return Err(bad(
                self.what,
                format!(
                    "{field} needs {n} bytes, {} remain",
                    self.buf.len() - self.at
                ),
            ));
        }
        let s = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, field: &str) -> MqResult<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, field)?);
        Ok(a)
    }

    /// A u8.
    pub fn u8(&mut self, field: &str) -> MqResult<u8> {
        Ok(self.take(1, field)?[0])
    }

    /// A u16.
    pub fn u16(&mut self, field: &str) -> MqResult<u16> {
        Ok(u16::from_le_bytes(self.array(field)?))
    }

    /// A u32.
    pub fn u32(&mut self, field: &str) -> MqResult<u32> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    /// A u64.
    pub fn u64(&mut self, field: &str) -> MqResult<u64> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }

    /// An i64.
    pub fn i64(&mut self, field: &str) -> MqResult<i64> {
        Ok(self.u64(field)? as i64)
    }

    fn text(&mut self, n: usize, field: &str) -> MqResult<String> {
        let what = self.what;
        let b = self.take(n, field)?;
        std::str::from_utf8(b)
            .map(str::to_owned)
            .map_err(|_| bad(what, format!("{field} is not UTF-8")))
    }

    /// A str8.
    pub fn str8(&mut self, field: &str) -> MqResult<String> {
        let n = self.u8(field)? as usize;
        self.text(n, field)
    }

    /// A str16.
    pub fn str16(&mut self, field: &str) -> MqResult<String> {
        let n = self.u16(field)? as usize;
        self.text(n, field)
    }

    /// A str8 of at most 48 bytes (a descriptor's name field).
    fn short(&mut self, field: &str) -> MqResult<String> {
        let n = self.u8(field)? as usize;
        if n > SHORT_MAX {
            return Err(bad(self.what, format!("{field} is {n} bytes (at most 48)")));
        }
        self.text(n, field)
    }

    /// A bytes32, as a slice of the payload.
    pub fn bytes32(&mut self, field: &str) -> MqResult<Bytes> {
        let n = self.u32(field)? as usize;
        if self.buf.len() - self.at < n {
            return Err(bad(
                self.what,
                format!(
                    "{field} needs {n} bytes, {} remain",
                    self.buf.len() - self.at
                ),
            ));
        }
        let b = self.buf.slice(self.at..self.at + n);
        self.at += n;
        Ok(b)
    }

    /// A queue or object name.
    pub fn name(&mut self, field: &str) -> MqResult<ObjectName> {
        let s = self.str8(field)?;
        object_name(&s).map_err(|e| bad(self.what, e.detail))
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> MqResult<()> {
        if self.at != self.buf.len() {
            return Err(bad(
                self.what,
                format!("{} bytes follow its end", self.buf.len() - self.at),
            ));
        }
        Ok(())
    }
}

/// A PUT record, decoded.
#[derive(Debug)]
pub struct Put {
    /// The queue.
    pub queue: ObjectName,
    /// The message's sequence number there.
    pub seq: u64,
    /// Its unit of work (0 none).
    pub uow: u64,
    /// Absolute expiry, Unix ms (0 none).
    pub expiry_ms: i64,
    /// The message.
    pub msg: Message,
}

/// Decodes a PUT record's payload.
pub fn decode_put(payload: Bytes) -> MqResult<Put> {
    let mut r = Reader::new(payload, "PUT");
    let queue = r.name("queue name")?;
    let seq = r.u64("sequence number")?;
    let uow = r.u64("unit of work")?;
    let expiry_ms = r.i64("expiry")?;
    let msg = decode_message(&mut r)?;
    Ok(Put {
        queue,
        seq,
        uow,
        expiry_ms,
        msg,
    })
}

/// A PUBLISH record, decoded.
#[derive(Debug)]
pub struct Publish {
    /// Its unit of work (0 none).
    pub uow: u64,
    /// Absolute expiry, Unix ms (0 none).
    pub expiry_ms: i64,
    /// The copies.
    pub targets: Vec<CopyTarget>,
    /// The publication as logged (each copy is [`Publish::copy`]).
    pub msg: Message,
}

impl Publish {
    /// The copy `targets[i]` names, as its queue holds it.
    pub fn copy(&self, i: usize) -> MqResult<Message> {
        let t = &self.targets[i];
        copy_of(&self.msg, t.msg_id, t.correl_id, t.user_data.as_deref())
    }
}

/// Decodes a PUBLISH record's payload.
pub fn decode_publish(payload: Bytes) -> MqResult<Publish> {
    let mut r = Reader::new(payload, "PUBLISH");
    let uow = r.u64("unit of work")?;
    let expiry_ms = r.i64("expiry")?;
    let n = r.u16("copies")? as usize;
    let mut targets = Vec::with_capacity(n);
    for _ in 0..n {
        targets.push(CopyTarget {
            queue: r.name("queue name")?,
            seq: r.u64("sequence number")?,
            msg_id: MsgId(r.array("msg id")?),
            correl_id: CorrelId(r.array("correl id")?),
            user_data: match r.u8("flags")? {
                0 => None,
                1 => Some(r.str16("user data")?),
                f => return Err(bad("PUBLISH", format!("copy flags {f} unknown"))),
            },
        });
    }
    let msg = decode_message(&mut r)?;
    Ok(Publish {
        uow,
        expiry_ms,
        targets,
        msg,
    })
}

/// A GET record, decoded: (queue, sequence number, unit of work).
pub fn decode_get(payload: Bytes) -> MqResult<(ObjectName, u64, u64)> {
    let mut r = Reader::new(payload, "GET");
    Ok((
        r.name("queue name")?,
        r.u64("sequence number")?,
        r.u64("unit of work")?,
    ))
}

/// A COMMIT or BACKOUT record's unit of work.
pub fn decode_end_uow(payload: &[u8]) -> MqResult<u64> {
    <[u8; 8]>::try_from(payload)
        .map(u64::from_le_bytes)
        .map_err(|_| bad("COMMIT/BACKOUT", "wrong length"))
}

fn optional_name(s: &str, what: &'static str, field: &str) -> MqResult<ObjectName> {
    if s.is_empty() {
        return Ok(ObjectName::EMPTY);
    }
    object_name(s).map_err(|e| bad(what, format!("{field}: {}", e.detail)))
}

fn decode_descriptor(r: &mut Reader) -> MqResult<MessageDescriptor> {
    let msg_id = MsgId(r.array("msg id")?);
    let correl_id = CorrelId(r.array("correl id")?);
    let persistence = match r.u8("persistence")? {
        0 => Persistence::NotPersistent,
        1 => Persistence::Persistent,
        2 => Persistence::AsQueueDef,
        p => {
            return Err(MqError::new(
                Reason::PersistenceError,
                format!("persistence value {p} is not valid"),
            ))
        }
    };
    let priority = match r.u8("priority")? {
        255 => Priority::AsQueueDef,
        p => Priority::Value(p),
    };
    let expiry_ms = r.u64("expiry")?;
    let message_type = match r.u8("message type")? {
        1 => MessageType::Request,
        2 => MessageType::Reply,
        4 => MessageType::Report,
        8 => MessageType::Datagram,
        t => return Err(bad(r.what, format!("message type {t} is not known"))),
    };
    Ok(MessageDescriptor {
        msg_id,
        correl_id,
        persistence,
        priority,
        expiry: (expiry_ms != 0).then(|| Duration::from_millis(expiry_ms)),
        message_type,
        feedback: r.u32("feedback")?,
        report: 0,
        reply_to_queue: optional_name(&r.short("reply-to queue")?, r.what, "reply-to queue")?,
        reply_to_qmgr: optional_name(&r.short("reply-to qmgr")?, r.what, "reply-to qmgr")?,
        format: FormatName::truncating(&r.short("format")?),
        ccsid: r.u32("ccsid")?,
        encoding: r.u32("encoding")?,
        backout_count: r.u32("backout count")?,
        put_time: from_unix_ms(r.u64("put time")?),
        put_appl_name: ApplName::truncating(&r.short("put application")?),
        user_id: UserId::truncating(&r.short("user id")?),
    })
}

fn decode_value(r: &mut Reader) -> MqResult<PropertyValue> {
    Ok(match r.u8("property type")? {
        0 => PropertyValue::Null,
        1 => PropertyValue::Bool(r.u8("bool property")? != 0),
        2 => PropertyValue::I8(r.u8("i8 property")? as i8),
        3 => PropertyValue::I16(r.u16("i16 property")? as i16),
        4 => PropertyValue::I32(r.u32("i32 property")? as i32),
        5 => PropertyValue::I64(r.i64("i64 property")?),
        6 => PropertyValue::F32(f32::from_bits(r.u32("f32 property")?)),
        7 => PropertyValue::F64(f64::from_bits(r.u64("f64 property")?)),
        8 => {
            let b = r.bytes32("string property")?;
            PropertyValue::String(
                String::from_utf8(b.to_vec())
                    .map_err(|_| bad(r.what, "a string property is not UTF-8"))?,
            )
        }
        9 => PropertyValue::Bytes(r.bytes32("bytes property")?),
        t => return Err(bad(r.what, format!("property type {t} is not known"))),
    })
}

fn decode_properties(r: &mut Reader) -> MqResult<Properties> {
    let n = r.u32("property count")? as usize;
    // Each property takes at least 3 bytes: a count beyond the payload is damage, not a
    // reason to allocate.
    if n.saturating_mul(3) > r.buf.len() - r.at {
        return Err(bad(r.what, format!("{n} properties cannot fit")));
    }
    let mut pairs = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.str16("property name")?;
        pairs.push((name, decode_value(r)?));
    }
    Properties::from_pairs(pairs)
}

fn decode_dead_letter(r: &mut Reader) -> MqResult<DeadLetterHeader> {
    let code = r.u32("dead-letter reason")?;
    Ok(DeadLetterHeader {
        reason: Reason::from_code(code).unwrap_or(Reason::UnexpectedError),
        dest_queue: optional_name(&r.short("dead-letter queue")?, r.what, "dead-letter queue")?,
        dest_qmgr: optional_name(&r.short("dead-letter qmgr")?, r.what, "dead-letter qmgr")?,
        original_format: FormatName::truncating(&r.short("dead-letter format")?),
        put_appl_name: ApplName::truncating(&r.short("dead-letter application")?),
        put_time: from_unix_ms(r.u64("dead-letter time")?),
    })
}

fn decode_transmission(r: &mut Reader) -> MqResult<TransmissionHeader> {
    let what = r.what;
    let named = |s: String| object_name(&s).map_err(|e| bad(what, e.detail));
    Ok(TransmissionHeader {
        remote_queue: named(r.short("transmission queue")?)?,
        remote_qmgr: named(r.short("transmission qmgr")?)?,
        xmit_id: MsgId(r.array("transmission id")?),
    })
}

/// Decodes a message in the record layout.
pub fn decode_message(r: &mut Reader) -> MqResult<Message> {
    let mut descriptor = decode_descriptor(r)?;
    let properties = decode_properties(r)?;
    let flags = r.u8("header flags")?;
    if flags > 7 {
        return Err(bad(r.what, format!("header flags {flags} are not known")));
    }
    let dead_letter = match flags & 1 {
        0 => None,
        _ => Some(Box::new(decode_dead_letter(r)?)),
    };
    let transmission = match flags & 2 {
        0 => None,
        _ => Some(Box::new(decode_transmission(r)?)),
    };
    if flags & 4 != 0 {
        descriptor.report = r.u32("report options")?;
    }
    let body = r.bytes32("body")?;
    Ok(Message {
        descriptor: Box::new(descriptor),
        properties,
        dead_letter,
        transmission,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// A message with every field, property type and header set.
    fn golden_message() -> Message {
        let mut m = Message::new(&b"golden body \x00\x01\x02"[..]);
        let d = &mut m.descriptor;
        d.msg_id = MsgId::from_slice(b"golden-msg-id-0123456789");
        d.correl_id = CorrelId::from_slice(b"golden-correl");
        d.persistence = Persistence::Persistent;
        d.priority = Priority::Value(7);
        d.expiry = Some(Duration::from_millis(123_456));
        d.message_type = MessageType::Request;
        d.feedback = 77;
        d.reply_to_queue = object_name("REPLY.Q").unwrap();
        d.reply_to_qmgr = object_name("QMR").unwrap();
        d.format = FormatName::truncating("MQSTR");
        d.ccsid = 1208;
        d.encoding = 546;
        d.backout_count = 2;
        d.put_time = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        d.put_appl_name = ApplName::truncating("golden-app");
        d.user_id = UserId::truncating("alice");
        for (n, v) in [
            ("b", PropertyValue::Bool(true)),
            ("i8", PropertyValue::I8(-8)),
            ("i16", PropertyValue::I16(-16)),
            ("i32", PropertyValue::I32(-32)),
            ("i64", PropertyValue::I64(-64)),
            ("f32", PropertyValue::F32(1.5)),
            ("f64", PropertyValue::F64(-2.25)),
            ("s", PropertyValue::String("text".into())),
            ("y", PropertyValue::Bytes(vec![1, 2, 3].into())),
            ("n", PropertyValue::Null),
        ] {
            m.properties.set(n, v).unwrap();
        }
        m.dead_letter = Some(Box::new(DeadLetterHeader {
            reason: Reason::UnknownObjectName,
            dest_queue: object_name("DEST.Q").unwrap(),
            dest_qmgr: object_name("DESTQM").unwrap(),
            original_format: FormatName::truncating("MQSTR"),
            put_appl_name: ApplName::truncating("dlq-app"),
            put_time: UNIX_EPOCH + Duration::from_millis(1_700_000_000_999),
        }));
        m.transmission = Some(Box::new(TransmissionHeader {
            remote_queue: object_name("FAR.Q").unwrap(),
            remote_qmgr: object_name("FARQM").unwrap(),
            xmit_id: MsgId::from_slice(b"xmit-id"),
        }));
        m
    }

    /// The PUT payload of [`golden_message`] as queue GOLDEN.Q, seq 42, unit of work 7,
    /// expiry 1,800,000,000,000 — as the wire protocol's encoder wrote it before this codec
    /// existed (commit 4c099ef). Every persistent message in a log written by that build is in
    /// this layout, so these bytes may never change.
    const GOLDEN_PUT_FULL: &str = "08474f4c44454e2e512a00000000000000070000000000000000505c18a3010000676f6c64656e2d6d73672d69642d30313233343536373839676f6c64656e2d636f7272656c0000000000000000000000010740e2010000000000014d000000075245504c592e5103514d52054d51535452b804000022020000020000007b68e5cf8b0100000a676f6c64656e2d61707005616c6963650a00000001006201010200693802f8030069313603f0ff030069333204e0ffffff030069363405c0ffffffffffffff0300663332060000c03f03006636340700000000000002c0010073080400000074657874010079090300000001020301006e00032508000006444553542e510644455354514d054d5153545207646c712d617070e76be5cf8b010000054641522e5105464152514d786d69742d696400000000000000000000000000000000000f000000676f6c64656e20626f647920000102";

    /// A plain text message ("plain", defaults, put time 0) as queue Q, seq 1, no unit of
    /// work, no expiry — from the same encoder.
    const GOLDEN_PUT_PLAIN: &str = "015101000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002ff000000000000000008000000000000054d51535452b8040000220200000000000000000000000000000000000000000005000000706c61696e";

    #[test]
    fn put_records_keep_the_bytes_of_the_first_format() {
        let q = object_name("GOLDEN.Q").unwrap();
        let b = put(&q, 42, 7, 1_800_000_000_000, &golden_message());
        assert_eq!(hex(&b), GOLDEN_PUT_FULL);
        let mut plain = Message::text("plain");
        plain.descriptor.put_time = UNIX_EPOCH;
        let b = put(&object_name("Q").unwrap(), 1, 0, 0, &plain);
        assert_eq!(hex(&b), GOLDEN_PUT_PLAIN);
    }

    #[test]
    fn put_records_decode_to_the_message_they_hold() {
        let q = object_name("GOLDEN.Q").unwrap();
        let m = golden_message();
        let p = decode_put(put(&q, 42, 7, 1_800_000_000_000, &m).freeze()).unwrap();
        assert_eq!(
            (p.queue, p.seq, p.uow, p.expiry_ms),
            (q, 42, 7, 1_800_000_000_000)
        );
        assert_eq!(p.msg, m);
    }

    #[test]
    fn other_records_keep_their_layout() {
        let q = object_name("Q.1").unwrap();
        assert_eq!(
            hex(&get(&q, 5, 9)),
            "03512e3105000000000000000900000000000000"
        );
        assert_eq!(decode_get(get(&q, 5, 9).freeze()).unwrap(), (q, 5, 9));
        assert_eq!(hex(&end_uow(258)), "0201000000000000");
        assert_eq!(decode_end_uow(&end_uow(258)).unwrap(), 258);
        assert_eq!(hex(&queue_event(&q)), "03512e31");
        assert_eq!(hex(&define(&q, "a = 1")), "03512e310500000061203d2031");
        assert_eq!(
            hex(&object("CHANNEL", &q, Some("x"))),
            "074348414e4e454c03512e310100000078"
        );
        assert_eq!(
            hex(&object("CHANNEL", &q, None)),
            "074348414e4e454c03512e31"
        );
    }

    #[test]
    fn publish_records_hold_the_message_once_and_each_copy_s_own_fields() {
        let m = golden_message();
        let targets = [
            CopyTarget {
                queue: object_name("Q.1").unwrap(),
                seq: 5,
                msg_id: MsgId::from_slice(b"copy-1"),
                correl_id: CorrelId::from_slice(b"sub-1"),
                user_data: None,
            },
            CopyTarget {
                queue: object_name("Q.2").unwrap(),
                seq: 9,
                msg_id: MsgId::from_slice(b"copy-2"),
                correl_id: CorrelId::from_slice(b"sub-2"),
                user_data: Some("data".into()),
            },
        ];
        let b = publish(7, 1_800_000_000_000, &m, &targets).freeze();
        // uow, expiry, count; then the first copy: queue, seq, msg id, correl id, no user data.
        let head = hex(&b[..8 + 8 + 2 + 4 + 8]);
        assert_eq!(
            head,
            "0700000000000000\
             00505c18a3010000\
             0200\
             03512e31\
             0500000000000000"
                .replace(' ', "")
        );
        // The message follows the copies exactly as a PUT record holds it.
        let mut alone = BytesMut::new();
        encode_message(&mut alone, &m);
        assert!(b.ends_with(&alone), "the message once, at the end");
        let p = decode_publish(b.clone()).unwrap();
        assert_eq!((p.uow, p.expiry_ms), (7, 1_800_000_000_000));
        assert_eq!(p.targets, targets);
        for (i, t) in targets.iter().enumerate() {
            let copy = p.copy(i).unwrap();
            assert_eq!(
                copy,
                copy_of(&m, t.msg_id, t.correl_id, t.user_data.as_deref()).unwrap()
            );
        }
        assert_eq!(
            p.copy(1).unwrap().properties.get("MQSubUserData"),
            Some(&PropertyValue::String("data".into()))
        );
        for cut in [0, 10, 40, 120, b.len() - 1] {
            let e = decode_publish(b.slice(..cut)).unwrap_err();
            assert!(e.detail.contains("PUBLISH"), "cut at {cut}: {e}");
        }
    }

    #[test]
    fn damaged_records_are_refused_with_their_kind() {
        let q = object_name("GOLDEN.Q").unwrap();
        let full = put(&q, 42, 7, 0, &golden_message()).freeze();
        for cut in [0, 5, 30, 100, full.len() - 1] {
            let e = decode_put(full.slice(..cut)).unwrap_err();
            assert_eq!(e.reason, Reason::QMgrDataError, "cut at {cut}: {e}");
            assert!(e.detail.contains("PUT"), "{e}");
        }
        let mut huge_count = put(&q, 1, 0, 0, &Message::text("x"));
        // With no properties and no headers the count is followed by the flags byte, the
        // body's length and the 1-byte body.
        let at = huge_count.len() - (4 + 1 + 4 + 1);
        assert_eq!(&huge_count[at..at + 4], &[0, 0, 0, 0]);
        huge_count[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode_put(huge_count.freeze()).is_err());
    }
}
