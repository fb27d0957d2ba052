//! The MQI verbs: the one table of every request a connection can make ([`Verb`]: its wire
//! opcode and the MQI call it is), the trait every connection mode implements ([`Mqi`]), and
//! what the verbs return (object handles, the outcome of a put, a message got).
//!
//! Adding a verb: a line in the `verbs!` table below (its opcode), a method on [`Mqi`] with
//! its options and result types here, the engine's implementation (`ferry-core`'s session), the
//! wire codec of its request and reply (`ferry-proto`), one arm in the server's dispatch, the
//! remote client's implementation, and the C entry point (`ferry-mqi`). The connection types
//! of `ferry-client` reach every mode through [`Mqi`], so they need no edit of their own
//! beyond a one-line method.

use std::time::SystemTime;

use crate::inquire::{AttrValue, Selector};
use crate::message::{CorrelId, Message, MsgId, Persistence};
use crate::name::ObjectName;
use crate::options::{
    CloseOptions, GetOptions, ObjectDescriptor, OpenOptions, PutOptions, SubDescriptor,
};
use crate::reason::{MqResult, Reason};

macro_rules! verbs {
    ($( $(#[$doc:meta])* $name:ident = $code:literal, $mqi:literal; )*) => {
        /// Every request a connection can make: its wire opcode (the discriminant) and the
        /// MQI call it carries out.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Verb {
            $( $(#[$doc])* $name = $code, )*
        }

        impl Verb {
            /// Every verb, in opcode order.
            pub const ALL: &'static [Verb] = &[$(Verb::$name),*];

            /// The wire opcode.
            pub fn code(self) -> u8 {
                self as u8
            }

            /// The verb with opcode `code`.
            pub fn from_code(code: u8) -> Option<Verb> {
                match code {
                    $( $code => Some(Verb::$name), )*
                    _ => None,
                }
            }

            /// The MQI call (or FerryMQ's own request) it is, for logs and errors.
            pub fn mqi_name(self) -> &'static str {
                match self {
                    $( Verb::$name => $mqi, )*
                }
            }
        }
    };
}

verbs! {
    /// Open a conversation (MQCONN).
    Connect = 1, "MQCONN";
    /// End a conversation (MQDISC).
    Disconnect = 2, "MQDISC";
    /// MQOPEN.
    Open = 3, "MQOPEN";
    /// MQCLOSE.
    Close = 4, "MQCLOSE";
    /// MQPUT.
    Put = 5, "MQPUT";
    /// MQPUT1.
    Put1 = 6, "MQPUT1";
    /// MQGET.
    Get = 7, "MQGET";
    /// MQINQ.
    Inquire = 8, "MQINQ";
    /// MQSET.
    Set = 9, "MQSET";
    /// MQCMIT.
    Commit = 10, "MQCMIT";
    /// MQBACK.
    Backout = 11, "MQBACK";
    /// MQSTAT (async put status).
    Status = 12, "MQSTAT";
    /// Heartbeat, both ways.
    Heartbeat = 13, "heartbeat";
    /// Read-ahead flow control: credit for more streamed messages, and how many were consumed.
    Stream = 14, "read-ahead";
    /// Run MQSC-style administrative commands (a script); the answer may come in parts.
    Admin = 15, "MQSC";
    /// The next part of an administrative answer.
    AdminMore = 16, "MQSC (more)";
    /// A sender channel introduces itself to the receiving queue manager and learns the
    /// receiver's last committed batch (docs/channels.md).
    ChannelStart = 17, "channel start";
    /// A batch of messages from a sender channel: one unit of work at the receiver.
    ChannelBatch = 18, "channel batch";
    /// MQSUB.
    Subscribe = 19, "MQSUB";
    /// MQSUBRQ: the retained publications a subscription matches, sent again.
    SubRequest = 20, "MQSUBRQ";
}

/// The MQI verbs on one connection, as every mode implements them: the engine's session
/// (embedded, and the server for each remote conversation) and the remote clients. The
/// blocking connection of `ferry-client` reaches whichever it holds through this trait.
pub trait Mqi {
    /// MQOPEN.
    fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj>;
    /// The resolved name of the queue behind a handle (a dynamic queue's generated name).
    fn queue_name(&self, h: Hobj) -> MqResult<ObjectName>;
    /// MQCLOSE.
    fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()>;
    /// MQPUT.
    fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome>;
    /// MQPUT1.
    fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome>;
    /// MQGET (waiting as the options say).
    fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got>;
    /// MQINQ.
    fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>>;
    /// MQSET.
    fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()>;
    /// MQCMIT.
    fn commit(&mut self) -> MqResult<()>;
    /// MQBACK.
    fn backout(&mut self) -> MqResult<()>;
    /// MQSUB: subscribes, returning the handle of the queue publications go to (the caller's
    /// `queue` for a provided subscription, a new one for a managed) and the subscription's
    /// handle (closed with MQCLOSE).
    fn subscribe(&mut self, sd: &SubDescriptor, queue: Option<Hobj>) -> MqResult<(Hobj, Hobj)>;
    /// MQSUBRQ (MQSR_ACTION_PUBLISH): sends the subscription the retained publications it
    /// matches; how many (NO_RETAINED_MSG when none).
    fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize>;
}

/// Implements [`Mqi`] for a type whose inherent methods have the trait's names and
/// signatures (the engine's session, the remote clients).
#[macro_export]
macro_rules! impl_mqi_by_inherent {
    ($t:ty) => {
        impl $crate::verbs::Mqi for $t {
            fn open(
                &mut self,
                od: &$crate::options::ObjectDescriptor,
                opts: $crate::options::OpenOptions,
            ) -> $crate::reason::MqResult<$crate::verbs::Hobj> {
                <$t>::open(self, od, opts)
            }
            fn queue_name(
                &self,
                h: $crate::verbs::Hobj,
            ) -> $crate::reason::MqResult<$crate::name::ObjectName> {
                <$t>::queue_name(self, h)
            }
            fn close(
                &mut self,
                h: $crate::verbs::Hobj,
                opts: $crate::options::CloseOptions,
            ) -> $crate::reason::MqResult<()> {
                <$t>::close(self, h, opts)
            }
            fn put(
                &mut self,
                h: $crate::verbs::Hobj,
                msg: $crate::message::Message,
                opts: &$crate::options::PutOptions,
            ) -> $crate::reason::MqResult<$crate::verbs::PutOutcome> {
                <$t>::put(self, h, msg, opts)
            }
            fn put1(
                &mut self,
                od: &$crate::options::ObjectDescriptor,
                msg: $crate::message::Message,
                opts: &$crate::options::PutOptions,
            ) -> $crate::reason::MqResult<$crate::verbs::PutOutcome> {
                <$t>::put1(self, od, msg, opts)
            }
            fn get(
                &mut self,
                h: $crate::verbs::Hobj,
                opts: &$crate::options::GetOptions,
            ) -> $crate::reason::MqResult<$crate::verbs::Got> {
                <$t>::get(self, h, opts)
            }
            fn inquire(
                &mut self,
                h: $crate::verbs::Hobj,
                selectors: &[$crate::inquire::Selector],
            ) -> $crate::reason::MqResult<Vec<$crate::inquire::AttrValue>> {
                <$t>::inquire(self, h, selectors)
            }
            fn set(
                &mut self,
                h: $crate::verbs::Hobj,
                values: &[($crate::inquire::Selector, $crate::inquire::AttrValue)],
            ) -> $crate::reason::MqResult<()> {
                <$t>::set(self, h, values)
            }
            fn commit(&mut self) -> $crate::reason::MqResult<()> {
                <$t>::commit(self)
            }
            fn backout(&mut self) -> $crate::reason::MqResult<()> {
                <$t>::backout(self)
            }
            fn subscribe(
                &mut self,
                sd: &$crate::options::SubDescriptor,
                queue: Option<$crate::verbs::Hobj>,
            ) -> $crate::reason::MqResult<($crate::verbs::Hobj, $crate::verbs::Hobj)> {
                <$t>::subscribe(self, sd, queue)
            }
            fn sub_request(
                &mut self,
                hsub: $crate::verbs::Hobj,
            ) -> $crate::reason::MqResult<usize> {
                <$t>::sub_request(self, hsub)
            }
        }
    };
}

/// An object handle, valid on the connection that opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hobj(pub u32);

/// What a put returns: the descriptor fields the queue manager filled in or resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PutOutcome {
    /// The message's id (generated unless supplied).
    pub msg_id: MsgId,
    /// The message's correl id (generated when asked).
    pub correl_id: CorrelId,
    /// The put time the queue manager recorded.
    pub put_time: SystemTime,
    /// The persistence it was put with.
    pub persistence: Persistence,
    /// The priority it was put with.
    pub priority: u8,
    /// A warning, e.g. PRIORITY_EXCEEDS_MAXIMUM.
    pub warning: Option<Reason>,
}

/// What a get returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Got {
    /// The message (body cut to the buffer limit if truncation was accepted). The descriptor's
    /// expiry is the time that was left.
    pub message: Message,
    /// The full body length before any truncation (MQ's DataLength).
    pub data_length: usize,
    /// TRUNCATED_MSG_ACCEPTED when the body was cut.
    pub warning: Option<Reason>,
}
