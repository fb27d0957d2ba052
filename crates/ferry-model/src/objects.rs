//! Object definitions: the queue manager's own attributes and those of local, alias and model
//! queues, with MQ's attribute names in the docs so an MQ administrator finds their way.
//!
//! These are plain values: the engine copies the attributes it needs on the hot path into the
//! queue's state under its lock, so reading a definition never races with ALTER.

use crate::message::Persistence;
use crate::name::ObjectName;
use crate::reason::{MqError, MqResult, Reason};

/// Queue manager attributes (MQ's QMGR object).
#[derive(Debug, Clone, PartialEq)]
pub struct QueueManagerAttrs {
    /// The queue manager's name.
    pub name: ObjectName,
    /// DESCR.
    pub description: String,
    /// DEADQ: where undeliverable messages go (empty: none, undeliverable messages are discarded
    /// where MQ would discard them, kept where MQ would keep them).
    pub dead_letter_queue: ObjectName,
    /// MAXMSGL: longest message any queue accepts, in bytes.
    pub max_msg_length: usize,
    /// MAXUMSGS: most uncommitted messages (puts plus gets) in one unit of work.
    pub max_uncommitted_msgs: usize,
    /// MAXHANDS: most object handles one connection may hold open.
    pub max_handles: usize,
    /// Most connections at once (MQ's MaxChannels for clients, here for every mode).
    pub max_connections: usize,
    /// MAXDYNQ: most dynamic queues (temporary and permanent) the queue manager holds at once.
    pub max_dynamic_queues: usize,
    /// MAXDYNQC: most dynamic queues one connection may have created and not deleted.
    pub max_dynamic_per_conn: usize,
    /// DEFXMITQ: the transmission queue for remote queue managers no other definition routes
    /// (empty: none).
    pub default_xmit_queue: ObjectName,
    /// CONNAUTH: the authentication information object that says how connections prove who
    /// they are (blank: passwords are not checked).
    pub connauth: ObjectName,
    /// CHLAUTH(ENABLED|DISABLED): whether channel authentication records are applied.
    pub chlauth: bool,
    /// AUTHOREV: authority events on SYSTEM.ADMIN.QMGR.EVENT.
    pub authority_events: bool,
    /// CHLEV: channel events on SYSTEM.ADMIN.CHANNEL.EVENT.
    pub channel_events: bool,
    /// PERFMEV: performance events (queue depth high, low and full) on
    /// SYSTEM.ADMIN.PERFM.EVENT.
    pub performance_events: bool,
    /// CMDEV: command events on SYSTEM.ADMIN.COMMAND.EVENT.
    pub command_events: CommandEvents,
    /// STATMQI(ON|OFF): MQI statistics messages on SYSTEM.ADMIN.STATISTICS.QUEUE.
    pub statistics_mqi: bool,
    /// STATQ(ON|OFF|NONE): queue statistics for the queues whose STATQ is QMGR (ON), for none
    /// of them (OFF), or for no queue at all whatever its own STATQ says (NONE).
    pub statistics_queues: Monitoring,
    /// STATINT: seconds between statistics messages (1 to 604,800).
    pub statistics_interval: u32,
    /// ACCTMQI(ON|OFF): MQI accounting messages for connections made while it is ON.
    pub accounting_mqi: bool,
    /// ACCTQ(ON|OFF|NONE): queue accounting, as STATQ chooses queues.
    pub accounting_queues: Monitoring,
    /// ACCTINT: seconds after which a long-running connection writes an intermediate record.
    pub accounting_interval: u32,
    /// SCMDSERV(MANUAL): the PCF command server waits for START CMDSERV instead of starting
    /// with the queue manager (SCMDSERV(QMGR)).
    pub command_server_manual: bool,
    /// When the queue manager was created (Unix seconds; CRDATE, CRTIME): 0 when not known.
    pub created_unix_s: u64,
    /// When ALTER QMGR last changed it (Unix seconds; ALTDATE, ALTTIME): its creation until then.
    pub altered_unix_s: u64,
}

/// A statistics switch as MQ's MQMON_* values: a queue manager's STATQ is ON, OFF or NONE; a
/// queue's is QMGR (the queue manager decides), ON or OFF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Monitoring {
    /// MQMON_OFF (0).
    #[default]
    Off,
    /// MQMON_ON (1).
    On,
    /// MQMON_NONE (-1): a queue manager's "none at all".
    None,
    /// MQMON_Q_MGR (-3): a queue's "as the queue manager says".
    QMgr,
}

impl Monitoring {
    /// The MQSC word.
    pub fn word(self) -> &'static str {
        match self {
            Monitoring::Off => "OFF",
            Monitoring::On => "ON",
            Monitoring::None => "NONE",
            Monitoring::QMgr => "QMGR",
        }
    }

    /// From the MQSC word (any case).
    pub fn from_word(w: &str) -> Option<Self> {
        [Self::Off, Self::On, Self::None, Self::QMgr]
            .into_iter()
            .find(|m| m.word().eq_ignore_ascii_case(w))
    }

    /// The MQMON_* value (MQINQ, PCF).
    pub fn value(self) -> i64 {
        match self {
            Monitoring::Off => 0,
            Monitoring::On => 1,
            Monitoring::None => -1,
            Monitoring::QMgr => -3,
        }
    }

    /// Whether a queue whose STATQ is `queue` is collected under a queue manager's `qmgr`.
    pub fn collects(qmgr: Monitoring, queue: Monitoring) -> bool {
        match (qmgr, queue) {
            (Monitoring::None, _) | (_, Monitoring::Off) => false,
            (_, Monitoring::On) => true,
            (q, _) => q == Monitoring::On,
        }
    }
}

/// STATINT's default: 1,800 seconds.
pub const DEFAULT_STATISTICS_INTERVAL: u32 = 1800;

/// CMDEV: which successful commands make a command event (MQ's MQEVR_* values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CommandEvents {
    /// DISABLED (MQEVR_DISABLED, 0): none.
    #[default]
    Disabled,
    /// ENABLED (MQEVR_ENABLED, 1): every one.
    Enabled,
    /// NODISPLAY (MQEVR_NO_DISPLAY, 2): all but DISPLAY (and PCF inquire) commands.
    NoDisplay,
}

impl CommandEvents {
    /// The MQSC word.
    pub fn word(self) -> &'static str {
        match self {
            CommandEvents::Disabled => "DISABLED",
            CommandEvents::Enabled => "ENABLED",
            CommandEvents::NoDisplay => "NODISPLAY",
        }
    }

    /// From the MQSC word (any case).
    pub fn from_word(w: &str) -> Option<Self> {
        [Self::Disabled, Self::Enabled, Self::NoDisplay]
            .into_iter()
            .find(|c| c.word().eq_ignore_ascii_case(w))
    }

    /// The MQEVR_* value (MQINQ, PCF).
    pub fn value(self) -> i64 {
        self as i64
    }
}

/// Default MAXMSGL for the queue manager and queues: 4 MiB (MQ's default).
pub const DEFAULT_MAX_MSG_LENGTH: usize = 4 * 1024 * 1024;
/// Hard ceiling for any MAXMSGL: 100 MiB (MQ's maximum).
pub const MAX_MAX_MSG_LENGTH: usize = 100 * 1024 * 1024;
/// Hard ceiling for MAXDEPTH (MQ's maximum).
pub const MAX_MAX_DEPTH: usize = 999_999_999;

impl QueueManagerAttrs {
    /// Defaults for a new queue manager called `name`.
    pub fn new(name: ObjectName) -> Self {
        QueueManagerAttrs {
            name,
            description: String::new(),
            dead_letter_queue: ObjectName::new(crate::system::DEAD_LETTER_QUEUE)
                .unwrap_or_default(),
            max_msg_length: DEFAULT_MAX_MSG_LENGTH,
            max_uncommitted_msgs: 10_000,
            max_handles: 256,
            max_connections: 10_000,
            max_dynamic_queues: 10_000,
            max_dynamic_per_conn: 1_000,
            default_xmit_queue: ObjectName::EMPTY,
            connauth: ObjectName::new(crate::system::DEFAULT_CONNAUTH).unwrap_or_default(),
            chlauth: true,
            authority_events: false,
            channel_events: false,
            performance_events: false,
            command_events: CommandEvents::Disabled,
            statistics_mqi: false,
            statistics_queues: Monitoring::Off,
            statistics_interval: DEFAULT_STATISTICS_INTERVAL,
            accounting_mqi: false,
            accounting_queues: Monitoring::Off,
            accounting_interval: DEFAULT_STATISTICS_INTERVAL,
            command_server_manual: false,
            created_unix_s: 0,
            altered_unix_s: 0,
        }
    }

    /// Checks every value is in range.
    pub fn validate(&self) -> MqResult<()> {
        check_range("MAXMSGL", self.max_msg_length, 32, MAX_MAX_MSG_LENGTH)?;
        check_range("MAXUMSGS", self.max_uncommitted_msgs, 1, 999_999_999)?;
        check_range("MAXHANDS", self.max_handles, 1, 999_999_999)?;
        check_range("MAXCONNS", self.max_connections, 1, 1_000_000)?;
        check_range("MAXDYNQ", self.max_dynamic_queues, 1, 999_999_999)?;
        check_range("MAXDYNQC", self.max_dynamic_per_conn, 1, 999_999_999)?;
        check_range("STATINT", self.statistics_interval as usize, 1, 604_800)?;
        check_range("ACCTINT", self.accounting_interval as usize, 1, 604_800)?;
        if self.statistics_queues == Monitoring::QMgr || self.accounting_queues == Monitoring::QMgr
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "a queue manager's STATQ and ACCTQ are ON, OFF or NONE",
            ));
        }
        Ok(())
    }
}

/// DESCR is at most 64 characters, as in MQ.
fn check_descr(descr: &str) -> MqResult<()> {
    if descr.len() > 64 {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!("DESCR is {} characters; the limit is 64", descr.len()),
        ));
    }
    Ok(())
}

fn check_range(attr: &str, value: usize, min: usize, max: usize) -> MqResult<()> {
    if value < min || value > max {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!("{attr}({value}) is out of range; it must be {min} to {max}"),
        ));
    }
    Ok(())
}

/// DEFPRESP: whether puts wait for the queue manager's answer by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum PutResponse {
    /// Wait for the outcome (MQ's SYNC).
    #[default]
    Sync,
    /// Return at once; failures are reported by the status call (MQ's ASYNC).
    Async,
}

/// DEFREADA: whether non-persistent messages are streamed to clients ahead of their gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ReadAhead {
    /// Not unless the application asks.
    #[default]
    No,
    /// Yes unless the application says otherwise.
    Yes,
    /// Never, even when the application asks.
    Disabled,
}

/// MSGDLVSQ: the order generic gets see messages in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum DeliverySequence {
    /// Highest priority first, FIFO within a priority.
    #[default]
    Priority,
    /// Strictly first in, first out, whatever the priority.
    Fifo,
}

/// DEFSOPT: what "input as queue default" means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum DefaultInputOpen {
    /// Shared input.
    #[default]
    Shared,
    /// Exclusive input.
    Exclusive,
}

/// DEFTYPE: how a queue came to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum DefinitionType {
    /// Defined by an administrator.
    #[default]
    Predefined,
    /// Created from a model; deleted when the creating handle closes; non-persistent only.
    TemporaryDynamic,
    /// Created from a model; lives until deleted.
    PermanentDynamic,
}

/// USAGE: an ordinary queue or a transmission queue (channels use the latter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Usage {
    /// An ordinary queue.
    #[default]
    Normal,
    /// Holds messages for a channel to move to another queue manager.
    Transmission,
}

/// QSVCIEV: which queue service interval event is armed (MQ switches between HIGH and OK as
/// each is raised).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ServiceIntervalEvent {
    /// No service interval events (MQQSIE_NONE).
    #[default]
    None,
    /// Queue Service Interval High is armed (MQQSIE_HIGH).
    High,
    /// Queue Service Interval OK is armed (MQQSIE_OK).
    Ok,
}

impl ServiceIntervalEvent {
    /// MQ's MQQSIE_* value.
    pub fn mq_value(self) -> i64 {
        match self {
            ServiceIntervalEvent::None => 0,
            ServiceIntervalEvent::High => 1,
            ServiceIntervalEvent::Ok => 2,
        }
    }
}

/// QSVCINT's largest value (and its default): 999,999,999 ms.
pub const MAX_SERVICE_INTERVAL_MS: u32 = 999_999_999;

/// Attributes of a local queue (QLOCAL). Model queues carry the same set as a template.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LocalQueueAttrs {
    /// DESCR.
    pub description: String,
    /// MAXDEPTH: most messages (committed or not) the queue holds.
    pub max_depth: usize,
    /// MAXMSGL: longest message accepted, in bytes (body plus properties).
    pub max_msg_length: usize,
    /// DEFPSIST: persistence of messages put "as queue default".
    pub def_persistence: Persistence,
    /// DEFPRTY: priority of messages put "as queue default".
    pub def_priority: u8,
    /// DEFPRESP.
    pub def_put_response: PutResponse,
    /// DEFREADA.
    pub def_read_ahead: ReadAhead,
    /// PUT(ENABLED|DISABLED), stored as "inhibited".
    pub put_inhibited: bool,
    /// GET(ENABLED|DISABLED), stored as "inhibited".
    pub get_inhibited: bool,
    /// SHARE (true) / NOSHARE (false): whether several handles may open it for input at once.
    pub shareable: bool,
    /// DEFSOPT.
    pub def_input_open: DefaultInputOpen,
    /// MSGDLVSQ.
    pub delivery_sequence: DeliverySequence,
    /// BOTHRESH: backout count at which the queue manager moves a message away (0: never).
    pub backout_threshold: u32,
    /// BOQNAME: where such messages go (empty: the dead-letter queue).
    pub backout_requeue_name: ObjectName,
    /// HARDENBO (true) / NOHARDENBO: a get of a persistent message in syncpoint waits until its
    /// record is on disk, so the backout count is exact after a crash (without it, a crash
    /// before the commit may return the message with its count not raised).
    #[serde(default)]
    pub harden_backout: bool,
    /// DEFTYPE (for model queues: what opening the model creates).
    pub definition_type: DefinitionType,
    /// USAGE.
    pub usage: Usage,
    /// QDEPTHHI: the depth, in per cent of MAXDEPTH, at which a put raises Queue Depth High.
    #[serde(default = "default_depth_high")]
    pub depth_high_limit: u32,
    /// QDEPTHLO: the depth, in per cent of MAXDEPTH, at which a get raises Queue Depth Low.
    #[serde(default = "default_depth_low")]
    pub depth_low_limit: u32,
    /// QDPHIEV: Queue Depth High events (switched off when one is raised, on by a Low one).
    #[serde(default)]
    pub depth_high_event: bool,
    /// QDPLOEV: Queue Depth Low events (switched on by a High or Full event, off when raised).
    #[serde(default)]
    pub depth_low_event: bool,
    /// QDPMAXEV: Queue Full events (switched off when one is raised, on by High and Low).
    #[serde(default = "default_true")]
    pub depth_max_event: bool,
    /// QSVCIEV: the armed service interval event.
    #[serde(default)]
    pub service_interval_event: ServiceIntervalEvent,
    /// QSVCINT: the service interval, milliseconds.
    #[serde(default = "default_service_interval")]
    pub service_interval_ms: u32,
    /// STATQ(QMGR|ON|OFF): whether the queue's statistics are collected (with the queue
    /// manager's STATQ: `Monitoring::collects`).
    #[serde(default = "default_queue_statistics")]
    pub statistics: Monitoring,
    /// ACCTQ(QMGR|ON|OFF): whether connections account for their use of the queue (with the
    /// queue manager's ACCTQ as they connected).
    #[serde(default = "default_queue_statistics")]
    pub accounting: Monitoring,
    /// TRIGGER, TRIGTYPE, TRIGDPTH, TRIGMPRI, TRIGDATA, INITQ, PROCESS: kept and shown for
    /// MQ's scripts and programs; FerryMQ writes no trigger messages (sender channels start by
    /// themselves).
    #[serde(default, skip_serializing_if = "Triggering::is_default")]
    pub triggering: Triggering,
    /// When it was defined (Unix seconds; CRDATE, CRTIME): 0 before FerryMQ kept it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub created_unix_s: u64,
    /// When it was last defined or altered (Unix seconds; ALTDATE, ALTTIME).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub altered_unix_s: u64,
}

fn default_queue_statistics() -> Monitoring {
    Monitoring::QMgr
}

fn default_service_interval() -> u32 {
    MAX_SERVICE_INTERVAL_MS
}

fn default_depth_high() -> u32 {
    80
}

fn default_depth_low() -> u32 {
    20
}

fn default_true() -> bool {
    true
}

impl Default for LocalQueueAttrs {
    fn default() -> Self {
        LocalQueueAttrs {
            description: String::new(),
            max_depth: 5000,
            max_msg_length: DEFAULT_MAX_MSG_LENGTH,
            def_persistence: Persistence::NotPersistent,
            def_priority: 0,
            def_put_response: PutResponse::Sync,
            def_read_ahead: ReadAhead::No,
            put_inhibited: false,
            get_inhibited: false,
            shareable: true,
            def_input_open: DefaultInputOpen::Shared,
            delivery_sequence: DeliverySequence::Priority,
            backout_threshold: 0,
            backout_requeue_name: ObjectName::EMPTY,
            harden_backout: false,
            definition_type: DefinitionType::Predefined,
            usage: Usage::Normal,
            depth_high_limit: default_depth_high(),
            depth_low_limit: default_depth_low(),
            depth_high_event: false,
            depth_low_event: false,
            depth_max_event: true,
            service_interval_event: ServiceIntervalEvent::None,
            service_interval_ms: MAX_SERVICE_INTERVAL_MS,
            statistics: Monitoring::QMgr,
            accounting: Monitoring::QMgr,
            triggering: Triggering::default(),
            created_unix_s: 0,
            altered_unix_s: 0,
        }
    }
}

/// TRIGTYPE: when a trigger message would be written (MQTT_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum TriggerType {
    /// NONE.
    None,
    /// FIRST: when the depth goes from 0 to 1 (MQ's default).
    #[default]
    First,
    /// EVERY: every message.
    Every,
    /// DEPTH: when the depth reaches TRIGDPTH.
    Depth,
}

impl TriggerType {
    /// The MQTT_* value.
    pub fn value(self) -> i64 {
        match self {
            TriggerType::None => 0,
            TriggerType::First => 1,
            TriggerType::Every => 2,
            TriggerType::Depth => 3,
        }
    }

    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            TriggerType::None => "NONE",
            TriggerType::First => "FIRST",
            TriggerType::Every => "EVERY",
            TriggerType::Depth => "DEPTH",
        }
    }

    /// The type an MQSC keyword names.
    pub fn from_keyword(w: &str) -> Option<TriggerType> {
        [
            TriggerType::None,
            TriggerType::First,
            TriggerType::Every,
            TriggerType::Depth,
        ]
        .into_iter()
        .find(|t| t.keyword().eq_ignore_ascii_case(w))
    }
}

/// A local queue's trigger attributes (MQ's defaults: NOTRIGGER, FIRST, depth 1).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Triggering {
    /// TRIGGER (true) / NOTRIGGER.
    pub control: bool,
    /// TRIGTYPE.
    pub trigger_type: TriggerType,
    /// TRIGDPTH (1–999,999,999).
    pub depth: u32,
    /// TRIGMPRI (0–9).
    pub msg_priority: u8,
    /// TRIGDATA (up to 64 characters).
    pub data: String,
    /// INITQ: the initiation queue.
    pub initiation_queue: ObjectName,
    /// PROCESS: the process definition.
    pub process: ObjectName,
}

impl Default for Triggering {
    fn default() -> Self {
        Triggering {
            control: false,
            trigger_type: TriggerType::First,
            depth: 1,
            msg_priority: 0,
            data: String::new(),
            initiation_queue: ObjectName::EMPTY,
            process: ObjectName::EMPTY,
        }
    }
}

impl Triggering {
    /// Whether these are the defaults (then left out of the stored definition).
    pub fn is_default(&self) -> bool {
        *self == Triggering::default()
    }
}

impl LocalQueueAttrs {
    /// Checks every value is in range.
    pub fn validate(&self) -> MqResult<()> {
        check_range("MAXDEPTH", self.max_depth, 0, MAX_MAX_DEPTH)?;
        check_range("MAXMSGL", self.max_msg_length, 0, MAX_MAX_MSG_LENGTH)?;
        check_range("DEFPRTY", self.def_priority as usize, 0, 9)?;
        check_range("BOTHRESH", self.backout_threshold as usize, 0, 999_999_999)?;
        check_range("QDEPTHHI", self.depth_high_limit as usize, 0, 100)?;
        check_range("TRIGDPTH", self.triggering.depth as usize, 1, 999_999_999)?;
        check_range("TRIGMPRI", self.triggering.msg_priority as usize, 0, 9)?;
        if self.triggering.data.len() > 64 {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "TRIGDATA is {} characters; the limit is 64",
                    self.triggering.data.len()
                ),
            ));
        }
        check_range("QDEPTHLO", self.depth_low_limit as usize, 0, 100)?;
        check_range(
            "QSVCINT",
            self.service_interval_ms as usize,
            0,
            MAX_SERVICE_INTERVAL_MS as usize,
        )?;
        if self.def_persistence == Persistence::AsQueueDef {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "DEFPSIST must be YES or NO, not 'as queue default'",
            ));
        }
        check_descr(&self.description)
    }
}

/// Attributes of an alias queue (QALIAS): another name for a queue, with its own inhibit flags
/// and defaults, which apply to puts and gets made through the alias.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AliasQueueAttrs {
    /// TARGET: the queue this alias resolves to (resolved at open, so it may be defined later).
    pub target: ObjectName,
    /// DESCR.
    pub description: String,
    /// PUT(DISABLED) on the alias.
    pub put_inhibited: bool,
    /// GET(DISABLED) on the alias.
    pub get_inhibited: bool,
    /// DEFPSIST for puts through the alias.
    pub def_persistence: Persistence,
    /// DEFPRTY for puts through the alias.
    pub def_priority: u8,
    /// DEFPRESP for puts through the alias.
    pub def_put_response: PutResponse,
    /// DEFREADA for gets through the alias.
    pub def_read_ahead: ReadAhead,
    /// When it was defined (Unix seconds; CRDATE, CRTIME): 0 before FerryMQ kept it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub created_unix_s: u64,
    /// When it was last defined or altered (Unix seconds; ALTDATE, ALTTIME).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub altered_unix_s: u64,
}

impl AliasQueueAttrs {
    /// An alias for `target` with default attributes.
    pub fn new(target: ObjectName) -> Self {
        AliasQueueAttrs {
            target,
            description: String::new(),
            put_inhibited: false,
            get_inhibited: false,
            def_persistence: Persistence::NotPersistent,
            def_priority: 0,
            def_put_response: PutResponse::Sync,
            def_read_ahead: ReadAhead::No,
            created_unix_s: 0,
            altered_unix_s: 0,
        }
    }
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl QueueDefinition {
    /// (CRDATE/CRTIME, ALTDATE/ALTTIME) of the definition, in Unix seconds.
    pub fn stamps(&self) -> (u64, u64) {
        match self {
            QueueDefinition::Local(a) | QueueDefinition::Model(a) => {
                (a.created_unix_s, a.altered_unix_s)
            }
            QueueDefinition::Alias(a) => (a.created_unix_s, a.altered_unix_s),
            QueueDefinition::Remote(a) => (a.created_unix_s, a.altered_unix_s),
        }
    }

    /// Sets when the definition was made and last changed.
    pub fn set_stamps(&mut self, created_unix_s: u64, altered_unix_s: u64) {
        let (c, a) = match self {
            QueueDefinition::Local(x) | QueueDefinition::Model(x) => {
                (&mut x.created_unix_s, &mut x.altered_unix_s)
            }
            QueueDefinition::Alias(x) => (&mut x.created_unix_s, &mut x.altered_unix_s),
            QueueDefinition::Remote(x) => (&mut x.created_unix_s, &mut x.altered_unix_s),
        };
        *c = created_unix_s;
        *a = altered_unix_s;
    }
}

/// A queue definition of any kind, as stored in the object catalogue.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum QueueDefinition {
    /// QLOCAL.
    Local(LocalQueueAttrs),
    /// QALIAS.
    Alias(AliasQueueAttrs),
    /// QMODEL: a template for dynamic queues. `definition_type` says temporary or permanent.
    Model(LocalQueueAttrs),
    /// QREMOTE: a queue on another queue manager.
    Remote(RemoteQueueAttrs),
}

/// Object types, numbered as MQ's MQQT_* queue types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QueueType {
    /// MQQT_LOCAL.
    Local = 1,
    /// MQQT_MODEL.
    Model = 2,
    /// MQQT_ALIAS.
    Alias = 3,
    /// MQQT_REMOTE.
    Remote = 6,
}

impl QueueDefinition {
    /// The queue type.
    pub fn queue_type(&self) -> QueueType {
        match self {
            QueueDefinition::Local(_) => QueueType::Local,
            QueueDefinition::Alias(_) => QueueType::Alias,
            QueueDefinition::Model(_) => QueueType::Model,
            QueueDefinition::Remote(_) => QueueType::Remote,
        }
    }
}

/// A remote queue definition (QREMOTE): a local name for a queue on another queue manager,
/// reached through a transmission queue. Channels (their own issue) move the messages.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RemoteQueueAttrs {
    /// RNAME: the queue's name on the remote queue manager.
    pub remote_name: ObjectName,
    /// RQMNAME: the remote queue manager.
    pub remote_qmgr: ObjectName,
    /// XMITQ: the transmission queue (blank: the one named after RQMNAME).
    pub xmit_queue: ObjectName,
    /// DESCR.
    pub description: String,
    /// PUT(DISABLED).
    pub put_inhibited: bool,
    /// DEFPSIST.
    pub def_persistence: Persistence,
    /// DEFPRTY.
    pub def_priority: u8,
    /// DEFPRESP.
    pub def_put_response: PutResponse,
    /// When it was defined (Unix seconds; CRDATE, CRTIME): 0 before FerryMQ kept it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub created_unix_s: u64,
    /// When it was last defined or altered (Unix seconds; ALTDATE, ALTTIME).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub altered_unix_s: u64,
}

impl Default for RemoteQueueAttrs {
    fn default() -> Self {
        RemoteQueueAttrs {
            remote_name: ObjectName::EMPTY,
            remote_qmgr: ObjectName::EMPTY,
            xmit_queue: ObjectName::EMPTY,
            description: String::new(),
            put_inhibited: false,
            def_persistence: Persistence::NotPersistent,
            def_priority: 0,
            def_put_response: PutResponse::Sync,
            created_unix_s: 0,
            altered_unix_s: 0,
        }
    }
}

/// How a channel reaches its partner (TRPTYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum TransportType {
    /// TCP (TLS over TCP with SSLCIPH), with CONGCTL's congestion control.
    #[default]
    Tcp,
    /// QUIC over UDP (FerryMQ's): TLS 1.3 always, the congestion control in user space (BBR by
    /// default), for long and lossy links. A sender falls back to TCP, logged, when the partner
    /// does not answer over QUIC.
    Quic,
}

impl TransportType {
    /// The MQSC word.
    pub fn word(self) -> &'static str {
        match self {
            TransportType::Tcp => "TCP",
            TransportType::Quic => "QUIC",
        }
    }
}

/// Channel types (CHLTYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ChannelType {
    /// SDR: sends messages from a transmission queue to a receiver.
    #[default]
    Sender,
    /// RCVR: receives from a sender.
    Receiver,
    /// SVRCONN: serves client connections.
    ServerConn,
    /// CLNTCONN: a client's definition of how to reach a server connection channel.
    ClientConn,
    /// MQTT: a telemetry channel — a port MQTT clients connect to (MQ's MQXR channels).
    Mqtt,
}

/// SSLCAUTH of an MQTT channel: whether a TLS client must present a certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum SslClientAuth {
    /// NEVER: no certificate is asked for.
    Never,
    /// OPTIONAL: one is asked for; a client without one authenticates by password.
    Optional,
    /// REQUIRED (MQ's default): a client without a certificate signed by the server's client
    /// CA is refused in the handshake.
    #[default]
    Required,
}

impl SslClientAuth {
    /// The MQSC word.
    pub fn word(self) -> &'static str {
        match self {
            SslClientAuth::Never => "NEVER",
            SslClientAuth::Optional => "OPTIONAL",
            SslClientAuth::Required => "REQUIRED",
        }
    }
}

/// The words of an MQTT channel's PROTOCOL list, in the order DISPLAY shows them.
pub const MQTT_PROTOCOLS: [&str; 4] = ["MQTTV311", "MQTTV3", "MQTTV5", "HTTP"];

/// The SSLCIPH values a channel accepts (TLS 1.3; the suite is negotiated among these).
pub const TLS13_CIPHERS: &[&str] = &[
    "ANY_TLS13",
    "ANY_TLS13_OR_HIGHER",
    "TLS_AES_128_GCM_SHA256",
    "TLS_AES_256_GCM_SHA384",
    "TLS_CHACHA20_POLY1305_SHA256",
];

/// The CN an SSLPEER value (`CN=name, O=...`) names.
pub fn ssl_peer_name(peer: &str) -> Option<String> {
    peer.split(',')
        .filter_map(|part| part.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("CN"))
        .map(|(_, v)| v.trim().trim_matches('"').to_owned())
        .filter(|v| !v.is_empty())
}

/// A channel definition (DEFINE CHANNEL).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ChannelAttrs {
    /// CHLTYPE.
    pub channel_type: ChannelType,
    /// CONNAME: host(port) of the partner (senders and client connections).
    pub conn_name: String,
    /// XMITQ: the transmission queue a sender serves.
    pub xmit_queue: ObjectName,
    /// DESCR.
    pub description: String,
    /// HBINT, seconds.
    pub heartbeat_secs: u32,
    /// MAXMSGL.
    pub max_msg_length: usize,
    /// BATCHSZ: messages per batch (sender/receiver).
    pub batch_size: u32,
    /// SHARECNV: conversations per socket (server connections).
    pub share_conversations: u32,
    /// MAXINST: most instances (sockets) of a server-connection channel at once.
    pub max_instances: u32,
    /// MAXINSTC: most instances of a server-connection channel from one client address.
    pub max_instances_client: u32,
    /// DISCINT, seconds: a sender whose transmission queue stays empty this long disconnects
    /// (and starts again when a message arrives); 0 never.
    pub disc_interval_secs: u32,
    /// SHORTRTY: quick retries after a failure, every SHORTTMR seconds.
    pub short_retry: u32,
    /// SHORTTMR, seconds.
    pub short_timer_secs: u32,
    /// LONGRTY: slow retries once the quick ones are used up, every LONGTMR seconds; then the
    /// channel stops.
    pub long_retry: u32,
    /// LONGTMR, seconds.
    pub long_timer_secs: u32,
    /// BATCHINT, milliseconds: how long a sender waits for more messages before ending a batch
    /// that is not full (0: end it as soon as the transmission queue is empty).
    pub batch_interval_ms: u32,
    /// BATCHLIM, KiB: a batch ends once it holds this much (at least one message).
    pub batch_limit_kib: u32,
    /// NPMSPEED(FAST) (true) / NORMAL: a batch of only non-persistent messages is taken off
    /// the transmission queue before it is sent and recorded nowhere — no disk writes at either
    /// end; if the connection fails on the way those messages are lost (never duplicated). With
    /// NORMAL they travel under the same protocol as persistent ones.
    pub np_speed_fast: bool,
    /// SSLCIPH: empty for plain TCP; a TLS 1.3 CipherSpec name (ANY_TLS13,
    /// TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256) makes the
    /// sender connect with TLS 1.3 to the receiver's TLS listener.
    pub ssl_cipher: String,
    /// SSLPEER: the distinguished name the partner's certificate must match (`CN=QM2,O=Ferry`,
    /// `*` wildcards; see `dn`). A sender also checks the receiver's certificate for the CN as
    /// its host name (empty: the host of CONNAME).
    pub ssl_peer: String,
    /// COMPMSG: message compression the sender offers, most preferred first (NONE, LZ4FAST,
    /// LZ4HIGH, ZLIBFAST, ZLIBHIGH); the receiving server picks the first it accepts.
    pub compression: Vec<String>,
    /// USERID (senders): the user the sender's connection authenticates as at its partner,
    /// when the channel does not use TLS.
    pub user_id: String,
    /// PASSWORD (senders): that user's password at the partner. Never displayed.
    pub password: String,
    /// MCAUSER (receivers): the user the receiving end runs as; a partner without TLS must
    /// have authenticated as this user to start the channel.
    pub mca_user: String,
    /// RQMNAME (receivers): the partner queue manager's name; a start claiming another name is
    /// refused. Blank: a TLS partner's certificate CN is its name.
    pub remote_qmgr: String,
    /// CONGCTL (senders, FerryMQ's): the TCP congestion control of the channel's socket, as
    /// the kernel names it (`bbr`, `cubic`, `reno`…); empty (DEFAULT) for the kernel's default.
    /// Over QUIC: `bbr` (also DEFAULT), `cubic` or `newreno`, run by the QUIC stack.
    pub congestion: String,
    /// TRPTYPE (senders): TCP, or QUIC (FerryMQ's).
    pub transport: TransportType,
    /// PORT (MQTT channels): the TCP port clients connect to; 0 picks a free one (DISPLAY
    /// CHSTATUS shows which).
    pub port: u16,
    /// LOCLADDR (MQTT channels): the IP address to listen on; blank for every interface when
    /// clients must authenticate, loopback otherwise.
    pub local_addr: String,
    /// BACKLOG (MQTT channels): connection requests the port queues before they are accepted.
    pub backlog: u32,
    /// PROTOCOL (MQTT channels): what clients may speak — MQTTV3 (3.1), MQTTV311, MQTTV5
    /// (FerryMQ's) and HTTP (MQTT over WebSocket on the same port). The versions listed are
    /// accepted over TCP and, with HTTP, over WebSocket; HTTP alone takes WebSocket clients of
    /// any version.
    pub protocols: Vec<String>,
    /// SSLCAUTH (MQTT channels with SSLCIPH): whether clients must present a certificate.
    pub ssl_client_auth: SslClientAuth,
    /// USECLTID (MQTT channels): the client identifier is the user a client authenticates as
    /// (a CONNECT naming another user is refused).
    pub use_client_id: bool,
}

impl Default for ChannelAttrs {
    fn default() -> Self {
        ChannelAttrs {
            channel_type: ChannelType::Sender,
            conn_name: String::new(),
            xmit_queue: ObjectName::EMPTY,
            description: String::new(),
            heartbeat_secs: 300,
            max_msg_length: DEFAULT_MAX_MSG_LENGTH,
            batch_size: 50,
            share_conversations: 10,
            max_instances: 999_999_999,
            max_instances_client: 999_999_999,
            disc_interval_secs: 6000,
            short_retry: 10,
            short_timer_secs: 60,
            long_retry: 999_999_999,
            long_timer_secs: 1200,
            batch_interval_ms: 0,
            batch_limit_kib: 5000,
            np_speed_fast: true,
            ssl_cipher: String::new(),
            ssl_peer: String::new(),
            compression: Vec::new(),
            user_id: String::new(),
            password: String::new(),
            mca_user: String::new(),
            remote_qmgr: String::new(),
            congestion: String::new(),
            transport: TransportType::Tcp,
            port: 1883,
            local_addr: String::new(),
            backlog: 4096,
            protocols: MQTT_PROTOCOLS.iter().map(|w| (*w).to_owned()).collect(),
            ssl_client_auth: SslClientAuth::Required,
            use_client_id: false,
        }
    }
}

impl ChannelAttrs {
    /// Checks ranges.
    pub fn validate(&self) -> MqResult<()> {
        check_range("HBINT", self.heartbeat_secs as usize, 0, 999_999)?;
        let cc = &self.congestion;
        if cc.len() > 15
            || !cc
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!("CONGCTL({cc}) is not a congestion control name such as bbr or cubic (DEFAULT for the kernel's)"),
            ));
        }
        if self.transport == TransportType::Quic
            && !["", "bbr", "cubic", "newreno", "reno"].contains(&cc.as_str())
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!("CONGCTL({cc}) is not one QUIC runs: TRPTYPE(QUIC) takes BBR (DEFAULT), CUBIC or NEWRENO"),
            ));
        }
        check_range("MAXMSGL", self.max_msg_length, 0, MAX_MAX_MSG_LENGTH)?;
        check_range("BATCHSZ", self.batch_size as usize, 1, 9999)?;
        check_range(
            "SHARECNV",
            self.share_conversations as usize,
            0,
            999_999_999,
        )?;
        check_range("MAXINST", self.max_instances as usize, 0, 999_999_999)?;
        check_range("DISCINT", self.disc_interval_secs as usize, 0, 999_999)?;
        check_range("SHORTRTY", self.short_retry as usize, 0, 999_999_999)?;
        check_range("SHORTTMR", self.short_timer_secs as usize, 0, 999_999_999)?;
        check_range("LONGRTY", self.long_retry as usize, 0, 999_999_999)?;
        check_range("LONGTMR", self.long_timer_secs as usize, 0, 999_999_999)?;
        check_range("BATCHINT", self.batch_interval_ms as usize, 0, 999_999_999)?;
        check_range("BATCHLIM", self.batch_limit_kib as usize, 0, 999_999)?;
        if self.channel_type == ChannelType::Mqtt {
            self.validate_mqtt()?;
        }
        if !self.ssl_cipher.is_empty() && !TLS13_CIPHERS.contains(&self.ssl_cipher.as_str()) {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "SSLCIPH({}) is not a TLS 1.3 CipherSpec FerryMQ speaks: {}",
                    self.ssl_cipher,
                    TLS13_CIPHERS.join(", ")
                ),
            ));
        }
        if !self.ssl_peer.is_empty() {
            crate::dn::DistinguishedName::parse(&self.ssl_peer)
                .map_err(|e| MqError::new(Reason::AttributeValueError, format!("SSLPEER: {e}")))?;
            if self.channel_type == ChannelType::Sender && ssl_peer_name(&self.ssl_peer).is_none() {
                return Err(MqError::new(
                    Reason::AttributeValueError,
                    format!(
                        "SSLPEER('{}') of a sender names no CN; write SSLPEER('CN=host.example')",
                        self.ssl_peer
                    ),
                ));
            }
        }
        check_descr(&self.description)
    }

    /// An MQTT channel's own attributes.
    fn validate_mqtt(&self) -> MqResult<()> {
        check_range("BACKLOG", self.backlog as usize, 0, 999_999_999)?;
        if self.transport != TransportType::Tcp {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "an MQTT channel runs over TCP only: TRPTYPE(TCP)",
            ));
        }
        if self.protocols.is_empty()
            || self
                .protocols
                .iter()
                .any(|p| !MQTT_PROTOCOLS.contains(&p.as_str()))
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "PROTOCOL({}) must list one or more of {}",
                    self.protocols.join(","),
                    MQTT_PROTOCOLS.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// The MQTT versions an MQTT channel accepts (3.1, 3.1.1, 5.0): those its PROTOCOL lists,
    /// or all three when it lists only HTTP.
    pub fn mqtt_versions(&self) -> [bool; 3] {
        let has = |w: &str| self.protocols.iter().any(|p| p == w);
        let v = [has("MQTTV3"), has("MQTTV311"), has("MQTTV5")];
        if v.iter().any(|b| *b) {
            v
        } else {
            [true; 3]
        }
    }

    /// Whether an MQTT channel takes clients over TCP (some version is listed) and over
    /// WebSocket (HTTP is listed).
    pub fn mqtt_transports(&self) -> (bool, bool) {
        let has = |w: &str| self.protocols.iter().any(|p| p == w);
        (
            has("MQTTV3") || has("MQTTV311") || has("MQTTV5"),
            has("HTTP"),
        )
    }
}

/// How a listener is started (CONTROL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum ListenerControl {
    /// MANUAL: by START LISTENER.
    #[default]
    Manual,
    /// QMGR: with the queue manager.
    QueueManager,
}

/// A listener definition (DEFINE LISTENER): a TCP port the server accepts connections on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ListenerAttrs {
    /// PORT.
    pub port: u16,
    /// IPADDR: the address to bind (blank: 127.0.0.1 unless authentication is configured).
    pub ip_address: String,
    /// CONTROL.
    pub control: ListenerControl,
    /// BACKLOG.
    pub backlog: u32,
    /// DESCR.
    pub description: String,
}

impl Default for ListenerAttrs {
    fn default() -> Self {
        ListenerAttrs {
            port: 1414,
            ip_address: String::new(),
            control: ListenerControl::Manual,
            backlog: 1024,
            description: String::new(),
        }
    }
}

/// NLTYPE: what a namelist's names are (MQNT_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum NamelistType {
    /// NONE: no particular type.
    #[default]
    None,
    /// QUEUE: queue names.
    Queue,
    /// CLUSTER: cluster names.
    Cluster,
    /// AUTHINFO: authentication information object names.
    AuthInfo,
}

impl NamelistType {
    /// The MQNT_* value.
    pub fn value(self) -> i64 {
        match self {
            NamelistType::None => 0,
            NamelistType::Queue => 1,
            NamelistType::Cluster => 2,
            NamelistType::AuthInfo => 4,
        }
    }

    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            NamelistType::None => "NONE",
            NamelistType::Queue => "QUEUE",
            NamelistType::Cluster => "CLUSTER",
            NamelistType::AuthInfo => "AUTHINFO",
        }
    }

    /// The type an MQSC keyword names (Q is QUEUE's short form).
    pub fn from_keyword(w: &str) -> Option<NamelistType> {
        match w.to_ascii_uppercase().as_str() {
            "NONE" => Some(NamelistType::None),
            "QUEUE" | "Q" => Some(NamelistType::Queue),
            "CLUSTER" => Some(NamelistType::Cluster),
            "AUTHINFO" => Some(NamelistType::AuthInfo),
            _ => None,
        }
    }
}

/// The most names a namelist holds (MQ's limit).
pub const MAX_NAMELIST_NAMES: usize = 256;

/// A namelist (DEFINE NAMELIST): a list of object names that other objects refer to.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct NamelistAttrs {
    /// NAMES: up to 256 names of up to 48 characters.
    pub names: Vec<String>,
    /// NLTYPE.
    #[serde(default)]
    pub nl_type: NamelistType,
    /// DESCR.
    pub description: String,
    /// When it was defined or last altered (Unix seconds; ALTDATE, ALTTIME).
    #[serde(default)]
    pub altered_unix_s: u64,
}

impl NamelistAttrs {
    /// Checks the names and the description.
    pub fn validate(&self) -> MqResult<()> {
        if self.names.len() > MAX_NAMELIST_NAMES {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "NAMES has {} names; a namelist holds at most {MAX_NAMELIST_NAMES}",
                    self.names.len()
                ),
            ));
        }
        for n in &self.names {
            if n.is_empty() || n.len() > 48 {
                return Err(MqError::new(
                    Reason::AttributeValueError,
                    format!("NAMES holds '{n}'; each name is 1 to 48 characters"),
                ));
            }
        }
        check_descr(&self.description)
    }
}

/// APPLTYPE of a process definition: MQAT_* (UNIX 6, the default here).
pub const APPL_TYPES: &[(i32, &str)] = &[
    (-1, "DEF"),
    (1, "CICS"),
    (2, "MVS"),
    (3, "IMS"),
    (4, "OS2"),
    (5, "DOS"),
    (6, "UNIX"),
    (7, "QMGR"),
    (8, "OS400"),
    (9, "WINDOWS"),
    (10, "CICS_VSE"),
    (11, "WINDOWS_NT"),
    (12, "VMS"),
    (13, "NSK"),
    (14, "VOS"),
    (21, "CICS_BRIDGE"),
    (25, "NOTES_AGENT"),
    (28, "JAVA"),
];

/// A process definition (DEFINE PROCESS): the application a trigger monitor starts.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProcessAttrs {
    /// APPLTYPE (MQAT_*).
    pub appl_type: i64,
    /// APPLICID: the application to start (up to 256 characters).
    pub appl_id: String,
    /// ENVRDATA (up to 128 characters).
    pub env_data: String,
    /// USERDATA (up to 128 characters).
    pub user_data: String,
    /// DESCR.
    pub description: String,
    /// When it was defined or last altered (Unix seconds; ALTDATE, ALTTIME).
    #[serde(default)]
    pub altered_unix_s: u64,
}

impl Default for ProcessAttrs {
    fn default() -> Self {
        ProcessAttrs {
            appl_type: 6,
            appl_id: String::new(),
            env_data: String::new(),
            user_data: String::new(),
            description: String::new(),
            altered_unix_s: 0,
        }
    }
}

impl ProcessAttrs {
    /// Checks each field's length and the application type.
    pub fn validate(&self) -> MqResult<()> {
        check_len("APPLICID", &self.appl_id, 256)?;
        check_len("ENVRDATA", &self.env_data, 128)?;
        check_len("USERDATA", &self.user_data, 128)?;
        if !(-1..=999_999_999).contains(&self.appl_type) {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!("APPLTYPE {} is not an application type", self.appl_type),
            ));
        }
        check_descr(&self.description)
    }
}

fn check_len(key: &str, v: &str, max: usize) -> MqResult<()> {
    if v.len() > max {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!("{key} is {} characters; the limit is {max}", v.len()),
        ));
    }
    Ok(())
}

/// AUTHTYPE of an authentication information object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AuthType {
    /// IDPWOS: user ids and passwords checked against this machine's accounts (PAM); the
    /// user's groups are its operating-system groups.
    IdpwOs,
    /// IDPWFILE (FerryMQ's own): user ids and salted password hashes in the queue manager's
    /// user file (`users.toml`, made with `ferry qm user add`), with groups declared there, for
    /// users who have no account on this machine.
    IdpwFile,
}

impl AuthType {
    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            AuthType::IdpwOs => "IDPWOS",
            AuthType::IdpwFile => "IDPWFILE",
        }
    }
}

/// CHCKLOCL and CHCKCLNT: whether a connection must give a user id and password.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ConnCheck {
    /// NONE: passwords are not checked; a client's asserted user id is taken as it is (never
    /// with the owner's authority).
    None,
    /// OPTIONAL: a password given must be right; none given is accepted.
    Optional,
    /// REQUIRED: every connection gives a right password.
    Required,
    /// REQDADM: administrators (the owner and its group) must give one, others as OPTIONAL.
    ReqdAdm,
}

impl ConnCheck {
    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            ConnCheck::None => "NONE",
            ConnCheck::Optional => "OPTIONAL",
            ConnCheck::Required => "REQUIRED",
            ConnCheck::ReqdAdm => "REQDADM",
        }
    }

    /// The value an MQSC keyword names.
    pub fn from_keyword(w: &str) -> Option<ConnCheck> {
        [
            ConnCheck::None,
            ConnCheck::Optional,
            ConnCheck::Required,
            ConnCheck::ReqdAdm,
        ]
        .into_iter()
        .find(|c| c.keyword().eq_ignore_ascii_case(w))
    }
}

/// An authentication information object (DEFINE AUTHINFO) of a connection-authentication
/// type: QMGR CONNAUTH names the one in force.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AuthInfoAttrs {
    /// AUTHTYPE.
    pub auth_type: AuthType,
    /// CHCKLOCL: local (Unix socket) connections.
    pub check_local: ConnCheck,
    /// CHCKCLNT: client (TCP and TLS) connections, loopback included.
    pub check_client: ConnCheck,
    /// FAILDLAY: seconds a failed authentication waits before it is answered (0–60).
    pub fail_delay: u32,
    /// ADOPTCTX: a verified user id becomes the connection's identity (YES), or the
    /// connection keeps its operating-system identity (NO, local connections only).
    pub adopt_context: bool,
    /// DESCR.
    pub description: String,
}

impl AuthInfoAttrs {
    /// The defaults of a type (MQ's, with CHCKCLNT REQUIRED: nobody reaches the queue manager
    /// over the network without a password unless an administrator says so).
    pub fn new(auth_type: AuthType) -> Self {
        AuthInfoAttrs {
            auth_type,
            check_local: ConnCheck::Optional,
            check_client: ConnCheck::Required,
            fail_delay: 1,
            adopt_context: true,
            description: String::new(),
        }
    }

    /// Checks every value is in range.
    pub fn validate(&self) -> MqResult<()> {
        check_range("FAILDLAY", self.fail_delay as usize, 0, 60)?;
        check_descr(&self.description)
    }
}

/// The kinds of administrative object besides queues, as the log and checkpoints name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ObjectKind {
    /// DEFINE CHANNEL.
    Channel,
    /// DEFINE LISTENER.
    Listener,
    /// The object authority records (SET / DELETE AUTHREC), kept as one table.
    AuthRecs,
    /// DEFINE AUTHINFO.
    AuthInfo,
    /// The channel authentication records (SET CHLAUTH), kept as one table.
    ChlAuth,
    /// A durable subscription (DEFINE SUB, MQSUB with MQSO_DURABLE), one record each, named
    /// `SUB.<id>`.
    Sub,
    /// DEFINE TOPIC.
    Topic,
    /// DEFINE NAMELIST.
    Namelist,
    /// DEFINE PROCESS.
    Process,
}

impl ObjectKind {
    /// The name used in records.
    pub fn tag(self) -> &'static str {
        match self {
            ObjectKind::Channel => "CHANNEL",
            ObjectKind::Listener => "LISTENER",
            ObjectKind::AuthRecs => "AUTHRECS",
            ObjectKind::AuthInfo => "AUTHINFO",
            ObjectKind::ChlAuth => "CHLAUTH",
            ObjectKind::Sub => "SUB",
            ObjectKind::Topic => "TOPIC",
            ObjectKind::Namelist => "NAMELIST",
            ObjectKind::Process => "PROCESS",
        }
    }

    /// The kind a record names.
    pub fn from_tag(t: &str) -> Option<ObjectKind> {
        match t {
            "CHANNEL" => Some(ObjectKind::Channel),
            "LISTENER" => Some(ObjectKind::Listener),
            "AUTHRECS" => Some(ObjectKind::AuthRecs),
            "SUB" => Some(ObjectKind::Sub),
            "TOPIC" => Some(ObjectKind::Topic),
            "AUTHINFO" => Some(ObjectKind::AuthInfo),
            "CHLAUTH" => Some(ObjectKind::ChlAuth),
            "NAMELIST" => Some(ObjectKind::Namelist),
            "PROCESS" => Some(ObjectKind::Process),
            _ => None,
        }
    }
}
