//! FerryMQ's queue manager engine, in four layers, each a folder that imports only the layers
//! below it (the tidy test checks):
//!
//! 1. [`engine`] — one queue: its store of messages, its waiting getters, its lock and the
//!    put/get steps, and the [`engine::Journal`] trait that is all a queue knows of persistence.
//! 2. [`qmgr`] — the queue manager: the catalogue, sessions (the MQI verbs, one file per verb
//!    group), dynamic queues, dead-lettering, routing, system objects, channels and listeners
//!    as objects, and the [`qmgr::journal::Durability`] trait it logs through.
//! 3. [`durable`] — durability over `ferry-log`: the log-record codec with its own format
//!    version, the log handle that implements both journals, replay, checkpoints, and opening
//!    a queue manager from its log.
//! 4. [`channel`] — the engine side of message channels: batches as units of work at both ends,
//!    synchronisation records, in-doubt resolution.
//!
//! It speaks the vocabulary of `ferry-model` and has no sockets, no async runtime and no
//! knowledge of files other than its recovery log: the host (`ferry-host`) opens queue
//! managers from their directories and configuration files; the server and the clients drive
//! [`Session`]s. Time comes from an injected [`ferry_model::Clock`].

pub mod channel;
pub mod durable;
pub mod engine;
pub mod qmgr;

pub use ferry_model as model;

pub use durable::{PersistSettings, RecoveryReport};
pub use engine::waiter::WaitPolicy;
pub use ferry_log::Histogram;
pub use ferry_model::{
    object_name, AliasQueueAttrs, AttrValue, BrowseMode, CloseOptions, CompletionCode, ConnMode,
    ConnectOptions, CorrelId, DeadLetterHeader, DefinitionType, DeliverySequence, GetOptions, Got,
    Hobj, IdHasher, IdKeyed, InputMode, LocalQueueAttrs, Message, MessageDescriptor, MessageType,
    MqError, MqResult, MsgId, ObjectDescriptor, ObjectName, OpenOptions, Persistence, Priority,
    Properties, PropertyValue, PutOptions, PutOutcome, PutResponse, PutResponseMode,
    QueueDefinition, QueueManagerAttrs, QueueStatus, QueueType, ReadAhead, Reason, RunState,
    Selector, SubAction, SubDescriptor, Wait,
};
pub use qmgr::pubsub::{SubId, SubRequest};
pub use qmgr::session::{DetachedUow, GetAttempt, PendingGet, Published, Session};
pub use qmgr::{ConnectionInfo, QmConfig, QueueManager};
