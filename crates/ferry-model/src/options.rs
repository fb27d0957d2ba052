//! Options of the MQI verbs in Rust shape: what to open and how, how to put, how to get.
//!
//! Each mirrors an MQ structure (MQOD/MQOO, MQPMO, MQGMO/MQMO, MQCO) with the same defaults
//! where MQ has one, and builder methods so typical calls read as one line.

use std::time::Duration;

use crate::message::{CorrelId, MsgId};
use crate::name::ObjectName;

/// What to open (MQ's MQOD).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectDescriptor {
    /// A queue: local, alias or model. Opening a model creates a dynamic queue named from
    /// `dynamic_name` (a prefix ending in `*` gets a unique suffix; default `AMQ.*`).
    Queue {
        /// The queue (or model) name.
        name: ObjectName,
        /// Name pattern for a dynamic queue, used only when `name` is a model.
        dynamic_name: Option<String>,
        /// MQOD's SelectionString: an SQL-92 message selector (docs/pubsub.md, Selectors);
        /// gets and browses through the handle see only messages that satisfy it.
        selector: Option<String>,
    },
    /// A queue at a named queue manager (MQOD's ObjectQMgrName): the local queue manager's
    /// own name means a local queue; another name is resolved to a transmission queue (a queue
    /// manager alias, a transmission queue named after it, or DEFXMITQ). Output only.
    QueueAt {
        /// The queue's name at that queue manager.
        name: ObjectName,
        /// The queue manager.
        qmgr: ObjectName,
    },
    /// The queue manager object itself (for inquire).
    QueueManager,
    /// A namelist (MQOT_NAMELIST), for inquire.
    Namelist(ObjectName),
    /// A process definition (MQOT_PROCESS), for inquire.
    Process(ObjectName),
    /// A topic, for publishing (MQOT_TOPIC): `string` (MQOD's ObjectString) joined below the
    /// TOPICSTR of the administrative topic object `object` when one is named.
    Topic {
        /// The topic object (ObjectName), if any.
        object: Option<ObjectName>,
        /// The topic string (ObjectString).
        string: String,
    },
}

impl ObjectDescriptor {
    /// A queue by name.
    pub fn queue(name: ObjectName) -> Self {
        ObjectDescriptor::Queue {
            name,
            dynamic_name: None,
            selector: None,
        }
    }

    /// A queue by name, with a message selector (MQOD's SelectionString).
    pub fn queue_selecting(name: ObjectName, selector: &str) -> Self {
        ObjectDescriptor::Queue {
            name,
            dynamic_name: None,
            selector: Some(selector.to_owned()),
        }
    }

    /// A topic string, for publishing.
    pub fn topic(string: &str) -> Self {
        ObjectDescriptor::Topic {
            object: None,
            string: string.to_owned(),
        }
    }

    /// A model queue, creating a dynamic queue named from `pattern` (e.g. `APP.REPLY.*`).
    pub fn model(name: ObjectName, pattern: &str) -> Self {
        ObjectDescriptor::Queue {
            name,
            dynamic_name: Some(pattern.to_owned()),
            selector: None,
        }
    }
}

/// Input access requested at open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputMode {
    /// Not open for input.
    #[default]
    None,
    /// MQOO_INPUT_SHARED.
    Shared,
    /// MQOO_INPUT_EXCLUSIVE.
    Exclusive,
    /// MQOO_INPUT_AS_Q_DEF (the queue's DEFSOPT).
    AsQueueDef,
}

/// How to open (MQ's MQOO_* options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpenOptions {
    /// Destructive gets.
    pub input: InputMode,
    /// Puts.
    pub output: bool,
    /// Browses.
    pub browse: bool,
    /// Inquire attributes.
    pub inquire: bool,
    /// Set attributes.
    pub set: bool,
    /// Read-ahead for non-persistent gets outside syncpoint: `Some(true)` asks for it,
    /// `Some(false)` refuses it, `None` takes the queue's DEFREADA. Meaningful on local and tcp
    /// connections; embedded connections have no network to read ahead over.
    pub read_ahead: Option<bool>,
    /// Fail (rather than succeed) if the queue manager is quiescing (MQOO_FAIL_IF_QUIESCING).
    pub fail_if_quiescing: bool,
    /// Puts through this handle may set identity context (MQOO_SET_IDENTITY_CONTEXT).
    pub set_identity_context: bool,
    /// Puts through this handle may set all context (MQOO_SET_ALL_CONTEXT; implies identity).
    pub set_all_context: bool,
    /// Puts through this handle may pass identity context from a saved get
    /// (MQOO_PASS_IDENTITY_CONTEXT; needs PASSID).
    pub pass_identity_context: bool,
    /// Puts through this handle may pass all context from a saved get (MQOO_PASS_ALL_CONTEXT;
    /// implies identity; needs PASSALL).
    pub pass_all_context: bool,
    /// Each destructive get through this handle keeps the message's context for a later put
    /// to pass on (MQOO_SAVE_ALL_CONTEXT). Such a handle does not read ahead.
    pub save_all_context: bool,
    /// Open with this user's authority instead of the connection's
    /// (MQOO_ALTERNATE_USER_AUTHORITY with MQOD AlternateUserId): the connection needs ALTUSR
    /// on the queue manager, and the alternate user what the open asks.
    pub alternate_user: Option<crate::name::UserId>,
}

impl OpenOptions {
    /// Open for output.
    pub fn output() -> Self {
        OpenOptions {
            output: true,
            ..Default::default()
        }
    }
    /// Open for shared input.
    pub fn input() -> Self {
        OpenOptions {
            input: InputMode::Shared,
            ..Default::default()
        }
    }
    /// Open for exclusive input.
    pub fn input_exclusive() -> Self {
        OpenOptions {
            input: InputMode::Exclusive,
            ..Default::default()
        }
    }
    /// Open for browse.
    pub fn browse() -> Self {
        OpenOptions {
            browse: true,
            ..Default::default()
        }
    }
    /// Open for inquire.
    pub fn inquire() -> Self {
        OpenOptions {
            inquire: true,
            ..Default::default()
        }
    }
    /// Adds output.
    pub fn with_output(mut self) -> Self {
        self.output = true;
        self
    }
    /// Adds shared input.
    pub fn with_input(mut self) -> Self {
        self.input = InputMode::Shared;
        self
    }
    /// Adds browse.
    pub fn with_browse(mut self) -> Self {
        self.browse = true;
        self
    }
    /// Adds inquire.
    pub fn with_inquire(mut self) -> Self {
        self.inquire = true;
        self
    }
    /// Adds set.
    pub fn with_set(mut self) -> Self {
        self.set = true;
        self
    }
}

/// Whether a put waits for the queue manager's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PutResponseMode {
    /// Take the queue's DEFPRESP.
    #[default]
    AsQueueDef,
    /// Wait for the answer.
    Sync,
    /// Return at once (local and tcp connections; embedded puts are always synchronous because
    /// they cost no round trip).
    Async,
}

/// How to put (MQ's MQPMO).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PutOptions {
    /// Inside the connection's unit of work (MQPMO_SYNCPOINT); default outside.
    pub syncpoint: bool,
    /// Generate a new msg id even if the descriptor carries one (MQPMO_NEW_MSG_ID). A descriptor
    /// whose msg id is all zeros always gets a new one.
    pub new_msg_id: bool,
    /// Generate a new correl id (MQPMO_NEW_CORREL_ID).
    pub new_correl_id: bool,
    /// Sync or async response.
    pub response: PutResponseMode,
    /// Fail if the queue manager is quiescing.
    pub fail_if_quiescing: bool,
    /// Whose context the message carries (MQPMO_DEFAULT_CONTEXT, _NO_CONTEXT,
    /// _SET_IDENTITY_CONTEXT, _SET_ALL_CONTEXT, _PASS_IDENTITY_CONTEXT, _PASS_ALL_CONTEXT).
    /// Setting or passing context needs a handle opened to do so (put1 opens one itself); a
    /// channel delivers with `SetAll`.
    pub context: PutContext,
    /// MQPUT1 only (MQPMO_ALTERNATE_USER_AUTHORITY with MQOD AlternateUserId): the put is
    /// checked against this user's authority; the connection needs ALTUSR.
    pub alternate_user: Option<crate::name::UserId>,
    /// MQPMO_RETAIN: a publication is kept as the topic's retained publication (replacing the
    /// one before), for subscriptions made later and MQSUBRQ. Only for topics.
    pub retain: bool,
    /// MQPMO_NOT_OWN_SUBS: a publication is not sent to the publishing connection's own
    /// subscriptions.
    pub not_own_subs: bool,
    /// MQPMO PubLevel (0–9; `None` is MQ's initial value, 9): a publication goes only to the
    /// matching subscriptions of the highest SubLevel not above it (an intercepting
    /// subscriber republishes below its own level).
    pub pub_level: Option<u8>,
}

/// Context handling on a put (MQ's MQPMO context options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PutContext {
    /// The queue manager fills in identity (user) and origin (application, put time).
    #[default]
    Default,
    /// No context: user and application left blank.
    None,
    /// The caller's identity (user id) is kept; the queue manager fills in the origin.
    SetIdentity,
    /// The caller's identity and origin (user, application, put time) are kept, and the
    /// reply-to fields are taken as given.
    SetAll,
    /// The identity context (user) of the message last got through this input handle, opened
    /// with `save_all_context`; the queue manager fills in the origin.
    PassIdentity(crate::verbs::Hobj),
    /// The identity and origin context (user, application, put time) of the message last got
    /// through this input handle, opened with `save_all_context`.
    PassAll(crate::verbs::Hobj),
}

impl PutOptions {
    /// Inside the unit of work.
    pub fn syncpoint() -> Self {
        PutOptions {
            syncpoint: true,
            ..Default::default()
        }
    }
    /// With a new correl id.
    pub fn with_new_correl_id(mut self) -> Self {
        self.new_correl_id = true;
        self
    }
    /// With a new msg id.
    pub fn with_new_msg_id(mut self) -> Self {
        self.new_msg_id = true;
        self
    }
    /// Asking for an async response.
    pub fn with_async(mut self) -> Self {
        self.response = PutResponseMode::Async;
        self
    }
}

/// Browse positioning (MQ's MQGMO_BROWSE_* and MSG_UNDER_CURSOR).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BrowseMode {
    /// A destructive get.
    #[default]
    None,
    /// Browse from the start of the queue.
    First,
    /// Browse the next message after the cursor (the first, if no cursor yet).
    Next,
    /// Browse the message under the cursor again.
    UnderCursor,
    /// Destructively get the message under the cursor.
    GetUnderCursor,
}

/// Wait behaviour of a get.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wait {
    /// Answer at once (MQGMO_NO_WAIT).
    #[default]
    No,
    /// Wait up to this long.
    For(Duration),
    /// Wait until a message arrives or the wait is ended (MQWI_UNLIMITED).
    Unlimited,
}

/// How to get (MQ's MQGMO with its match options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GetOptions {
    /// Waiting.
    pub wait: Wait,
    /// Inside the connection's unit of work (MQGMO_SYNCPOINT).
    pub syncpoint: bool,
    /// Only the message with this msg id (MQMO_MATCH_MSG_ID).
    pub msg_id: Option<MsgId>,
    /// Only the message with this correl id (MQMO_MATCH_CORREL_ID).
    pub correl_id: Option<CorrelId>,
    /// Browse positioning.
    pub browse: BrowseMode,
    /// The caller's buffer: a longer body is refused (left on the queue) unless
    /// `accept_truncated`, in which case it is cut and the rest discarded.
    pub max_len: Option<usize>,
    /// MQGMO_ACCEPT_TRUNCATED_MSG.
    pub accept_truncated: bool,
    /// Fail if the queue manager is quiescing.
    pub fail_if_quiescing: bool,
}

impl GetOptions {
    /// No wait, outside syncpoint, any message.
    pub fn new() -> Self {
        GetOptions::default()
    }
    /// Wait up to `d`.
    pub fn wait(mut self, d: Duration) -> Self {
        self.wait = Wait::For(d);
        self
    }
    /// Wait without limit.
    pub fn wait_unlimited(mut self) -> Self {
        self.wait = Wait::Unlimited;
        self
    }
    /// Inside the unit of work.
    pub fn syncpoint(mut self) -> Self {
        self.syncpoint = true;
        self
    }
    /// Match this correl id.
    pub fn correl_id(mut self, id: CorrelId) -> Self {
        self.correl_id = Some(id);
        self
    }
    /// Match this msg id.
    pub fn msg_id(mut self, id: MsgId) -> Self {
        self.msg_id = Some(id);
        self
    }
    /// Browse positioning.
    pub fn browse(mut self, mode: BrowseMode) -> Self {
        self.browse = mode;
        self
    }
    /// The buffer limit, and whether truncation is accepted.
    pub fn max_len(mut self, len: usize, accept_truncated: bool) -> Self {
        self.max_len = Some(len);
        self.accept_truncated = accept_truncated;
        self
    }
}

/// How to close (MQ's MQCO).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CloseOptions {
    /// Just close.
    #[default]
    None,
    /// Delete a permanent dynamic queue if it is empty (MQCO_DELETE).
    Delete,
    /// Delete a permanent dynamic queue, discarding its messages (MQCO_DELETE_PURGE).
    DeletePurge,
    /// On a subscription handle: end a durable subscription too (MQCO_REMOVE_SUB); a
    /// non-durable one ends at close anyway.
    RemoveSub,
    /// MQCO_QUIESCE: on a read-ahead handle whose client buffer still holds messages the close
    /// is refused with warning 2458 (MQRC_READ_AHEAD_MSGS) and the handle stays open, so the
    /// application can get them first; otherwise an ordinary close.
    Quiesce,
}

/// What MQSUB does with the subscription it names (MQSO_CREATE, MQSO_RESUME, or both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SubAction {
    /// Make a new subscription; 2432 if a durable one of this name exists.
    #[default]
    Create,
    /// Resume an existing durable subscription; 2428 if there is none.
    Resume,
    /// Resume it if it exists, make it otherwise.
    CreateOrResume,
    /// MQSO_ALTER: resume it and change what may change (user data, correlation id,
    /// MQSO_ANY_USERID, MQSO_PUBLICATIONS_ON_REQUEST, a provided queue); its topic, wildcard
    /// scheme, durability and selector cannot (2510, 2509, 2524).
    Alter,
}

/// A subscription request: MQ's MQSD and its MQSO_* options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SubDescriptor {
    /// The topic object (MQSD ObjectName), if any.
    pub topic_object: Option<ObjectName>,
    /// The topic string or filter (MQSD ObjectString), joined below the object's.
    pub topic: String,
    /// The subscription's name (SubName): needed for a durable one.
    pub name: Option<String>,
    /// SubUserData, delivered as MQSubUserData with every publication.
    pub user_data: Option<String>,
    /// The correlation id of every publication (MQSO_SET_CORREL_ID); otherwise the queue
    /// manager chooses one.
    pub correl_id: Option<crate::message::CorrelId>,
    /// Create, resume or either.
    pub action: SubAction,
    /// MQSO_DURABLE: it outlives the connection and restarts.
    pub durable: bool,
    /// MQSO_MANAGED: the queue manager makes the queue publications go to (from
    /// SYSTEM.NDURABLE.MODEL.QUEUE or SYSTEM.DURABLE.MODEL.QUEUE); otherwise the caller
    /// names one by handle.
    pub managed: bool,
    /// MQSO_WILDCARD_CHAR: character-based wildcards.
    pub char_wildcards: bool,
    /// MQSO_ANY_USERID: any user may resume it (otherwise only the one who made it).
    pub any_user: bool,
    /// MQSO_NEW_PUBLICATIONS_ONLY: no retained publication is sent when it is made.
    pub new_publications_only: bool,
    /// MQSO_PUBLICATIONS_ON_REQUEST: publications come only when asked for with MQSUBRQ.
    pub on_request: bool,
    /// MQSO_READ_AHEAD (`Some(true)`), MQSO_NO_READ_AHEAD (`Some(false)`) or the managed
    /// queue's DEFREADA (`None`): read-ahead on the queue handle MQSUB returns for a managed
    /// subscription.
    pub read_ahead: Option<bool>,
    /// SelectionString: a message selector (SQL-92, `ferry_model::selector`) a publication
    /// must satisfy to be sent; blank is none.
    pub selector: Option<String>,
    /// MQSD SubLevel (0–9; `None` is MQ's initial value, 1): publications reach the matching
    /// subscriptions of the highest level not above the publication's PubLevel, so one at a
    /// higher level intercepts them; level 0 gets only what no other subscription does.
    pub sub_level: Option<u8>,
}

impl SubDescriptor {
    /// A non-durable managed subscription to `topic` (the commonest: "give me what is
    /// published there while I am connected").
    pub fn managed(topic: &str) -> Self {
        SubDescriptor {
            topic: topic.to_owned(),
            managed: true,
            ..Default::default()
        }
    }

    /// A durable managed subscription named `name` to `topic`, made or resumed.
    pub fn durable(name: &str, topic: &str) -> Self {
        SubDescriptor {
            topic: topic.to_owned(),
            name: Some(name.to_owned()),
            action: SubAction::CreateOrResume,
            durable: true,
            managed: true,
            ..Default::default()
        }
    }
}

/// The highest publication and subscription level (MQ's levels are 0–9).
pub const MAX_LEVEL: u8 = 9;
/// A subscription's level when MQSD SubLevel is left as initialised.
pub const DEFAULT_SUB_LEVEL: u8 = 1;

/// Identity a connection presents (MQ's MQCNO/MQCSP subset that matters here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectOptions {
    /// Application name, shown in connection status and put into messages' context.
    pub app_name: String,
    /// User id; defaults to the process's user.
    pub user_id: Option<String>,
}

impl ConnectOptions {
    /// Connect as application `app_name`.
    pub fn app(app_name: &str) -> Self {
        ConnectOptions {
            app_name: app_name.to_owned(),
            user_id: None,
        }
    }
}

/// Name of queue object to open, checked: helper for callers with `&str`.
pub fn queue(name: &str) -> Result<ObjectDescriptor, crate::reason::MqError> {
    Ok(ObjectDescriptor::queue(crate::name::object_name(name)?))
}
