//! FerryMQ's vocabulary: the values every other crate speaks.
//!
//! Owns: messages and their descriptors, ids, properties and headers (`message`); inline names
//! (`name`); object definitions and attributes (`objects`); the options of the MQI verbs
//! (`options`) and what they return (`verbs`); MQINQ/MQSET selectors (`inquire`); reason codes
//! and errors (`reason`); status values (`status`, `channel`); administrative replies
//! (`admin`); system object names (`system`); time (`clock`); the id hasher (`hash`);
//! distinguished names and SSLPEER patterns (`dn`); object authority records and profiles
//! (`security`); SQL-92 message selectors (`selector`); topic strings and subscription filters (`topic`); topic objects and the
//! attributes a topic inherits from them (`topicobj`).
//!
//! Plain data: no I/O, no locks, no threads. The one exception to "no system calls" is `clock`,
//! the single place that reads the system clock. The engine (`ferry-core`), the wire protocol
//! (`ferry-proto`), the clients, the server and the tools all build on these types, so a value
//! means the same thing in every mode and on both ends of a connection.

pub mod admin;
pub mod channel;
pub mod chlauth;
pub mod clock;
pub mod dn;
pub mod hash;
pub mod inquire;
pub mod message;
pub mod monitor;
pub mod name;
pub mod objects;
pub mod options;
pub mod pcf;
pub mod reason;
pub mod report;
pub mod security;
pub mod selector;
pub mod status;
pub mod system;
pub mod topic;
pub mod topicobj;
pub mod verbs;

pub use clock::Clock;
pub use hash::{IdHasher, IdKeyed};
pub use inquire::{AttrValue, Selector};
pub use message::{
    CorrelId, DeadLetterHeader, Message, MessageDescriptor, MessageType, MsgId, Persistence,
    Priority, Properties, PropertyValue, TransmissionHeader,
};
pub use name::{object_name, ObjectName};
pub use objects::{
    AliasQueueAttrs, DefinitionType, DeliverySequence, LocalQueueAttrs, PutResponse,
    QueueDefinition, QueueManagerAttrs, QueueType, ReadAhead,
};
pub use options::{
    BrowseMode, CloseOptions, ConnectOptions, GetOptions, InputMode, ObjectDescriptor, OpenOptions,
    PutOptions, PutResponseMode, SubAction, SubDescriptor, Wait,
};
pub use reason::{CompletionCode, MqError, MqResult, Reason};
pub use status::{ConnMode, QueueStats, QueueStatus, RunState};
pub use verbs::{Got, Hobj, Mqi, PutOutcome, Verb};
