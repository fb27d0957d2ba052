//! Messages: the descriptor (MQ's MQMD in Rust shape), typed user properties, the dead-letter header
//! and the body.
//!
//! The body is [`Bytes`]: reference-counted, so a message moves from putter to queue to getter
//! (or is handed to a waiting getter) without its payload ever being copied. The descriptor holds
//! only inline fixed-size fields, so building one never allocates.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use crate::name::{ApplName, FormatName, ObjectName, UserId};

/// Length of message and correlation ids.
pub const ID_LEN: usize = 24;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub [u8; ID_LEN]);

        impl $name {
            /// The all-zero id (MQ's `MQMI_NONE` / `MQCI_NONE`): "no id".
            pub const NONE: Self = $name([0; ID_LEN]);

            /// Whether this is the all-zero id.
            #[inline]
            pub fn is_none(&self) -> bool {
                self.0 == [0; ID_LEN]
            }

            /// Builds an id from up to 24 bytes, padding with zeros (as MQ pads short ids).
            #[inline]
            pub fn from_slice(bytes: &[u8]) -> Self {
                let mut id = [0u8; ID_LEN];
                let n = bytes.len().min(ID_LEN);
                id[..n].copy_from_slice(&bytes[..n]);
                $name(id)
            }

            /// Lower-case hex, 48 characters.
            pub fn to_hex(&self) -> String {
                use std::fmt::Write;
                let mut s = String::with_capacity(ID_LEN * 2);
                for b in self.0 {
                    let _ = write!(s, "{b:02x}");
                }
                s
            }

            /// The id written by [`Self::to_hex`] (48 hex digits), if `hex` is one.
            pub fn from_hex(hex: &str) -> Option<Self> {
                if hex.len() != ID_LEN * 2 || !hex.is_ascii() {
                    return None;
                }
                let mut id = [0u8; ID_LEN];
                for (i, b) in id.iter_mut().enumerate() {
                    *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
                }
                Some($name(id))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.to_hex())
            }
        }
    };
}

id_type!(
    /// A message id. Unique per message unless the application supplies its own.
    MsgId
);
id_type!(
    /// A correlation id, used to tie a reply to its request.
    CorrelId
);

impl From<MsgId> for CorrelId {
    /// The usual reply pattern: the reply's correl id is the request's msg id.
    fn from(m: MsgId) -> Self {
        CorrelId(m.0)
    }
}

/// Generates unique 24-byte ids: `FMQ1` + 12 bytes naming the queue manager + a 64-bit counter
/// seeded from the clock at start, so ids stay unique across restarts of one queue manager.
#[derive(Debug)]
pub struct IdGenerator {
    prefix: [u8; 16],
    counter: AtomicU64,
}

impl IdGenerator {
    /// A generator for the queue manager called `qmgr`.
    pub fn new(qmgr: &str) -> Self {
        let mut prefix = [b' '; 16];
        prefix[..4].copy_from_slice(b"FMQ1");
        let n = qmgr.len().min(12);
        prefix[4..4 + n].copy_from_slice(&qmgr.as_bytes()[..n]);
        let seed = crate::clock::wall_now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        IdGenerator {
            prefix,
            counter: AtomicU64::new(seed),
        }
    }

    /// The next unique 24 bytes.
    #[inline]
    pub fn next(&self) -> [u8; ID_LEN] {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut id = [0u8; ID_LEN];
        id[..16].copy_from_slice(&self.prefix);
        id[16..].copy_from_slice(&n.to_be_bytes());
        id
    }

    /// The next unique transmission id for a message put by connection `conn`: as
    /// [`IdGenerator::next`], with bytes 12..16 (the end of the queue manager's name, unique
    /// already through the counter) replaced by a tag of the connection
    /// ([`TransmissionHeader::origin`]), which a channel keeps a putter's messages together by.
    #[inline]
    pub fn transmission_id(&self, conn: u64) -> [u8; ID_LEN] {
        let mut id = self.next();
        // Folded, so connections numbered far apart still differ in the tag.
        let tag = (conn ^ (conn >> 32)) as u32;
        id[ORIGIN].copy_from_slice(&tag.to_be_bytes());
        id
    }
}

/// Where a transmission id carries its putter's tag ([`IdGenerator::transmission_id`]).
const ORIGIN: std::ops::Range<usize> = 12..16;

/// Whether a message survives a queue manager restart.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Persistence {
    /// Lost at restart; memory speed.
    NotPersistent,
    /// Written through the recovery log; survives restarts and crashes.
    Persistent,
    /// Take the queue's DEFPSIST.
    #[default]
    AsQueueDef,
}

/// The message's priority: 0 (lowest) to 9, or the queue's DEFPRTY.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Priority {
    /// An explicit priority. Above 9 is put as 9 with a warning.
    Value(u8),
    /// Take the queue's DEFPRTY.
    #[default]
    AsQueueDef,
}

/// Highest priority.
pub const MAX_PRIORITY: u8 = 9;

/// What kind of message this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MessageType {
    /// No reply expected.
    #[default]
    Datagram,
    /// A reply is expected on the reply-to queue.
    Request,
    /// A reply to a request.
    Reply,
    /// A report (confirmation, exception, expiry).
    Report,
}

impl MessageType {
    /// MQ's MQMT_* number.
    #[inline]
    pub fn mq_value(self) -> i32 {
        match self {
            MessageType::Request => 1,
            MessageType::Reply => 2,
            MessageType::Report => 4,
            MessageType::Datagram => 8,
        }
    }
}

/// Well-known format names.
pub mod format {
    use super::FormatName;
    /// No format: the body is bytes the application understands.
    pub const NONE: &str = "";
    /// The body is character data.
    pub const STRING: &str = "MQSTR";
    /// The message carries a dead-letter header ([`super::DeadLetterHeader`]).
    pub const DEAD_LETTER: &str = "MQDEAD";

    /// The format name `s` (cut to 8 bytes).
    pub fn name(s: &str) -> FormatName {
        FormatName::truncating(s)
    }
}

/// The message descriptor: everything about a message but its properties and body.
///
/// On put, the application fills in what it wants; the queue manager fills in the msg id (unless
/// supplied), the context (put time, application name, user id) and resolves the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageDescriptor {
    /// Unique id; all zeros on put asks the queue manager to generate one.
    pub msg_id: MsgId,
    /// Correlation id; copied from the request's msg id for replies, by convention.
    pub correl_id: CorrelId,
    /// Persistent, non-persistent or as the queue's default.
    pub persistence: Persistence,
    /// 0–9 or as the queue's default.
    pub priority: Priority,
    /// How long the message may wait before it expires; `None` is unlimited. On get it is the time
    /// that was left.
    pub expiry: Option<Duration>,
    /// Datagram, request, reply or report.
    pub message_type: MessageType,
    /// Report feedback code (MQFB_*), 0 if none.
    pub feedback: u32,
    /// Report options (MQRO_*, [`crate::report`]): which reports the sender asks for and how
    /// their ids are set; 0 (MQRO_NONE) for none.
    pub report: u32,
    /// Where a reply should go.
    pub reply_to_queue: ObjectName,
    /// The queue manager owning the reply-to queue (empty: this one).
    pub reply_to_qmgr: ObjectName,
    /// Format of the body (e.g. `MQSTR`).
    pub format: FormatName,
    /// Coded character set of character data in the body (MQ's CodedCharSetId), 1208 = UTF-8.
    pub ccsid: u32,
    /// Numeric encoding of the body (MQ's Encoding); 546 is little-endian x86.
    pub encoding: u32,
    /// How many times a get of this message has been backed out.
    pub backout_count: u32,
    /// When the message was put (set by the queue manager).
    pub put_time: SystemTime,
    /// The putting application's name (set by the queue manager from the connection).
    pub put_appl_name: ApplName,
    /// The putting user (set by the queue manager from the connection).
    pub user_id: UserId,
}

impl Default for MessageDescriptor {
    fn default() -> Self {
        MessageDescriptor {
            msg_id: MsgId::NONE,
            correl_id: CorrelId::NONE,
            persistence: Persistence::AsQueueDef,
            priority: Priority::AsQueueDef,
            expiry: None,
            message_type: MessageType::Datagram,
            feedback: 0,
            report: 0,
            reply_to_queue: ObjectName::EMPTY,
            reply_to_qmgr: ObjectName::EMPTY,
            format: FormatName::EMPTY,
            ccsid: 1208,
            encoding: 546,
            backout_count: 0,
            put_time: SystemTime::UNIX_EPOCH,
            put_appl_name: ApplName::EMPTY,
            user_id: UserId::EMPTY,
        }
    }
}

/// A typed user property value.
#[derive(Debug, Clone, PartialEq)]
pub enum PropertyValue {
    /// A boolean.
    Bool(bool),
    /// A signed 8-bit integer.
    I8(i8),
    /// A signed 16-bit integer.
    I16(i16),
    /// A signed 32-bit integer.
    I32(i32),
    /// A signed 64-bit integer.
    I64(i64),
    /// A 32-bit float.
    F32(f32),
    /// A 64-bit float.
    F64(f64),
    /// A string.
    String(String),
    /// A byte string.
    Bytes(Bytes),
    /// An explicit null.
    Null,
}

/// Typed user properties, in the order they were set. Empty costs nothing (no allocation);
/// a copy shares them until one side changes them (copy-on-write), so the copies a
/// publication makes for its subscribers, and the messages a get hands on, do not copy them.
#[derive(Debug, Clone, Default)]
pub struct Properties {
    entries: Option<std::sync::Arc<Vec<(String, PropertyValue)>>>,
}

impl PartialEq for Properties {
    fn eq(&self, other: &Self) -> bool {
        self.slice() == other.slice()
    }
}

/// Longest property name accepted.
pub const MAX_PROPERTY_NAME_LEN: usize = 4095;

impl Properties {
    /// No properties.
    pub const fn new() -> Self {
        Properties { entries: None }
    }

    fn slice(&self) -> &[(String, PropertyValue)] {
        self.entries.as_deref().map_or(&[], Vec::as_slice)
    }

    fn entries_mut(&mut self) -> &mut Vec<(String, PropertyValue)> {
        std::sync::Arc::make_mut(self.entries.get_or_insert_with(Default::default))
    }

    /// Properties from (name, value) pairs as decoded from outside bytes, in time linear in
    /// their number: as if each were [`set`](Self::set) in turn (a repeated name keeps its
    /// first place and takes its last value).
    pub fn from_pairs(
        pairs: impl IntoIterator<Item = (String, PropertyValue)>,
    ) -> Result<Properties, crate::reason::MqError> {
        // Most messages carry a handful of properties: a repeated name is found by looking
        // along the list; past `INDEXED` an index takes over.
        const INDEXED: usize = 16;
        let mut entries: Vec<(String, PropertyValue)> = Vec::new();
        let mut at: Option<std::collections::HashMap<String, usize>> = None;
        for (name, value) in pairs {
            check_property_name(&name)?;
            let found = match &at {
                Some(ix) => ix.get(&name).copied(),
                None => entries.iter().position(|(n, _)| *n == name),
            };
            match found {
                Some(i) => entries[i].1 = value,
                None => {
                    if let Some(ix) = &mut at {
                        ix.insert(name.clone(), entries.len());
                    }
                    entries.push((name, value));
                    if at.is_none() && entries.len() > INDEXED {
                        let ix = entries.iter().enumerate().map(|(i, (n, _))| (n.clone(), i));
                        at = Some(ix.collect());
                    }
                }
            }
        }
        Ok(Properties {
            entries: (!entries.is_empty()).then(|| std::sync::Arc::new(entries)),
        })
    }

    /// Sets (or replaces) a property.
    pub fn set(&mut self, name: &str, value: PropertyValue) -> Result<(), crate::reason::MqError> {
        check_property_name(name)?;
        let entries = self.entries_mut();
        match entries.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => entries.push((name.to_owned(), value)),
        }
        Ok(())
    }

    /// The value of a property.
    pub fn get(&self, name: &str) -> Option<&PropertyValue> {
        self.slice().iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Removes a property, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<PropertyValue> {
        let pos = self.slice().iter().position(|(n, _)| n == name)?;
        Some(self.entries_mut().remove(pos).1)
    }

    /// All properties in the order set.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &PropertyValue)> {
        self.slice().iter().map(|(n, v)| (n.as_str(), v))
    }

    /// How many properties there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.slice().len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slice().is_empty()
    }

    /// Approximate bytes the properties add to a message (names plus values), counted against
    /// MAXMSGL together with the body.
    #[inline]
    pub fn encoded_len(&self) -> usize {
        self.slice()
            .iter()
            .map(|(n, v)| {
                n.len()
                    + match v {
                        PropertyValue::String(s) => s.len(),
                        PropertyValue::Bytes(b) => b.len(),
                        _ => 8,
                    }
            })
            .sum()
    }
}

/// PROPERTY_NAME_ERROR unless 1 to [`MAX_PROPERTY_NAME_LEN`] bytes.
fn check_property_name(name: &str) -> Result<(), crate::reason::MqError> {
    if name.is_empty() || name.len() > MAX_PROPERTY_NAME_LEN {
        return Err(crate::reason::MqError::new(
            crate::reason::Reason::PropertyNameError,
            format!("property name of {} characters is not valid", name.len()),
        ));
    }
    Ok(())
}

/// Why a message is on the dead-letter queue and where it was going (MQ's MQDLH).
#[derive(Debug, Clone, PartialEq)]
pub struct DeadLetterHeader {
    /// Why it could not be delivered.
    pub reason: crate::reason::Reason,
    /// The queue it was meant for.
    pub dest_queue: ObjectName,
    /// The queue manager it was meant for.
    pub dest_qmgr: ObjectName,
    /// The message's format before the header was added.
    pub original_format: FormatName,
    /// Who moved it to the dead-letter queue.
    pub put_appl_name: ApplName,
    /// When it was moved.
    pub put_time: SystemTime,
}

/// Where a message on a transmission queue is going (MQ's MQXQH). The message's descriptor is
/// the original one; a channel delivers it to `remote_queue` at `remote_qmgr`.
#[derive(Debug, Clone, PartialEq)]
pub struct TransmissionHeader {
    /// The destination queue's name at the remote queue manager.
    pub remote_queue: ObjectName,
    /// The destination queue manager.
    pub remote_qmgr: ObjectName,
    /// Unique id the putting queue manager gave this transmission: how a channel recognises the
    /// messages of a batch the receiver committed but the sender did not (exactly once). Its
    /// bytes 12..16 tag the connection that put it ([`TransmissionHeader::origin`]).
    pub xmit_id: MsgId,
}

impl TransmissionHeader {
    /// A tag of the connection that put the message (the same for all its messages; from
    /// [`IdGenerator::transmission_id`]). MQ keeps in order the messages one application puts
    /// to one queue, not those of different applications: a channel may carry messages with
    /// different origins on different streams (QUIC lanes) and keep every putter's order.
    #[inline]
    pub fn origin(&self) -> u32 {
        let mut tag = [0; 4];
        tag.copy_from_slice(&self.xmit_id.0[ORIGIN]);
        u32::from_be_bytes(tag)
    }
}

/// A message: descriptor, properties, optional dead-letter header and body.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Message {
    /// The descriptor.
    pub descriptor: Box<MessageDescriptor>,
    /// Typed user properties.
    pub properties: Properties,
    /// Present when the message sits on a dead-letter queue (format `MQDEAD`).
    pub dead_letter: Option<Box<DeadLetterHeader>>,
    /// Present when the message sits on a transmission queue (on its way to another queue
    /// manager).
    pub transmission: Option<Box<TransmissionHeader>>,
    /// The body, shared rather than copied.
    pub body: Bytes,
}

impl Message {
    /// A datagram with this body and default descriptor.
    pub fn new(body: impl Into<Bytes>) -> Self {
        Message {
            body: body.into(),
            ..Default::default()
        }
    }

    /// A string message (format `MQSTR`).
    pub fn text(body: &str) -> Self {
        let mut m = Message::new(Bytes::copy_from_slice(body.as_bytes()));
        m.descriptor.format = format::name(format::STRING);
        m
    }

    /// Sets the correlation id (builder style).
    pub fn with_correl_id(mut self, id: CorrelId) -> Self {
        self.descriptor.correl_id = id;
        self
    }

    /// Sets the persistence (builder style).
    pub fn with_persistence(mut self, p: Persistence) -> Self {
        self.descriptor.persistence = p;
        self
    }

    /// Sets the priority (builder style).
    pub fn with_priority(mut self, p: u8) -> Self {
        self.descriptor.priority = Priority::Value(p);
        self
    }

    /// Sets the expiry (builder style).
    pub fn with_expiry(mut self, d: Duration) -> Self {
        self.descriptor.expiry = Some(d);
        self
    }

    /// Makes this a request whose reply goes to `queue` (builder style).
    pub fn with_reply_to(mut self, queue: ObjectName) -> Self {
        self.descriptor.message_type = MessageType::Request;
        self.descriptor.reply_to_queue = queue;
        self
    }

    /// Bytes counted against MAXMSGL: body plus properties.
    #[inline]
    pub fn counted_len(&self) -> usize {
        self.body.len() + self.properties.encoded_len()
    }
}

/// Bytes from hexadecimal text, two digits a byte (either case); `None` unless `s` is exactly
/// that.
pub fn bytes_from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_are_unique_and_name_the_queue_manager() {
        let g = IdGenerator::new("QM1");
        let a = g.next();
        let b = g.next();
        assert_ne!(a, b);
        assert_eq!(&a[..7], b"FMQ1QM1");
    }

    #[test]
    fn properties_replace_by_name_and_keep_order() {
        let mut p = Properties::new();
        p.set("a", PropertyValue::I32(1)).unwrap();
        p.set("b", PropertyValue::Bool(true)).unwrap();
        p.set("a", PropertyValue::String("x".into())).unwrap();
        let names: Vec<_> = p.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(p.get("a"), Some(&PropertyValue::String("x".into())));
        assert!(p.set("", PropertyValue::Null).is_err());
    }
}
