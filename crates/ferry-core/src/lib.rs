//! FerryMQ's queue manager engine.
//!
//! Owns: messages and descriptors, object definitions (queue manager, local, alias and model
//! queues), the put/get/browse/match semantics, units of work, waiting getters, expiry, backout
//! and dead-letter handling, and the stable reason codes. It has no sockets and no async
//! runtime; the clock is injected (see [`clock::Clock`]) so tests are deterministic.
//!
//! Entry points: [`QueueManager`] (create, define objects, connect) and [`Session`] (one
//! connection's MQI verbs). The embedded client in `ferry-client` is a thin layer over these;
//! the server drives a `Session` per remote connection.

pub mod catalog;
pub mod channel;
pub mod checkpoint;
pub mod clock;
pub mod config;
pub mod home;
pub mod inquire;
pub mod message;
pub mod name;
pub mod objects;
pub mod options;
pub mod persist;
pub mod qmgr;
pub mod queue;
pub mod reason;
mod routing;
pub mod session;
pub mod store;
pub mod system;
pub mod waiter;
pub mod wire;

pub use ferry_log::Histogram;
pub use inquire::{AttrValue, Selector};
pub use message::{
    CorrelId, DeadLetterHeader, Message, MessageDescriptor, MessageType, MsgId, Persistence,
    Priority, Properties, PropertyValue,
};
pub use name::{object_name, ObjectName};
pub use objects::{
    AliasQueueAttrs, DefinitionType, DeliverySequence, LocalQueueAttrs, PutResponse,
    QueueDefinition, QueueManagerAttrs, QueueType, ReadAhead,
};
pub use options::{
    BrowseMode, CloseOptions, ConnectOptions, GetOptions, InputMode, ObjectDescriptor, OpenOptions,
    PutOptions, PutResponseMode, Wait,
};
pub use qmgr::{ConnMode, ConnectionInfo, QmConfig, QueueManager, QueueStatus, RunState};
pub use reason::{CompletionCode, MqError, MqResult, Reason};
pub use session::{GetAttempt, Got, Hobj, PendingGet, PutOutcome, Session};
pub use store::IdHasher;

/// A map keyed by handles, conversation ids or other small numbers, hashed with [`IdHasher`]
/// (SipHash's DoS resistance buys nothing for tables bounded by limits, and costs on every
/// message).
pub type IdKeyed<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;
