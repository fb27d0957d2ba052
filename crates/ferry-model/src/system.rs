//! Names of the system objects every queue manager has from the moment it is created (MQ's).

/// The default dead-letter queue.
pub const DEAD_LETTER_QUEUE: &str = "SYSTEM.DEAD.LETTER.QUEUE";
/// Template for local queues defined without LIKE.
pub const DEFAULT_LOCAL_QUEUE: &str = "SYSTEM.DEFAULT.LOCAL.QUEUE";
/// Default model for temporary dynamic queues (reply queues).
pub const DEFAULT_MODEL_QUEUE: &str = "SYSTEM.DEFAULT.MODEL.QUEUE";
/// Model for permanent dynamic queues (and the queues of managed durable subscriptions).
pub const DURABLE_MODEL_QUEUE: &str = "SYSTEM.DURABLE.MODEL.QUEUE";
/// Model for the queues of managed non-durable subscriptions.
pub const NDURABLE_MODEL_QUEUE: &str = "SYSTEM.NDURABLE.MODEL.QUEUE";
/// Where administrative command messages arrive (used by the admin issue).
pub const ADMIN_COMMAND_QUEUE: &str = "SYSTEM.ADMIN.COMMAND.QUEUE";
/// Channel synchronisation records: one persistent message per channel holding its last
/// committed batch (sequence number and transmission ids), as MQ's queue of the same name.
pub const CHANNEL_SYNC_QUEUE: &str = "SYSTEM.CHANNEL.SYNCQ";
/// Where persistent retained publications are kept (one message each, carrying its topic), as
/// in MQ; read back at the first use of retained publications after a start.
pub const RETAINED_PUB_QUEUE: &str = "SYSTEM.RETAINED.PUB.QUEUE";
/// The template of initiation queues (DEFINE QLOCAL(...) LIKE(SYSTEM.DEFAULT.INITIATION.QUEUE)).
pub const DEFAULT_INITIATION_QUEUE: &str = "SYSTEM.DEFAULT.INITIATION.QUEUE";
/// The initiation queue MQ's channel transmission queues name (INITQ); FerryMQ's sender channels
/// start by themselves, so nothing reads it.
pub const CHANNEL_INITQ: &str = "SYSTEM.CHANNEL.INITQ";
/// The root of the topic tree's administrative objects: authority to publish and subscribe is
/// checked on it for topics no other topic object covers.
pub const BASE_TOPIC: &str = "SYSTEM.BASE.TOPIC";
/// The template of alias queues (DEFINE QALIAS without LIKE; TARGET blank).
pub const DEFAULT_ALIAS_QUEUE: &str = "SYSTEM.DEFAULT.ALIAS.QUEUE";
/// The template of remote queue definitions (DEFINE QREMOTE without LIKE; RNAME, RQMNAME and
/// XMITQ blank).
pub const DEFAULT_REMOTE_QUEUE: &str = "SYSTEM.DEFAULT.REMOTE.QUEUE";
/// Models MQ's tools name for their reply queues: MQ Explorer's, JMS's temporary queues' and
/// runmqsc's in client mode (temporary dynamic, like SYSTEM.DEFAULT.MODEL.QUEUE).
pub const TOOL_MODEL_QUEUES: [&str; 3] = [
    "SYSTEM.MQEXPLORER.REPLY.MODEL",
    "SYSTEM.JMS.TEMPQ.MODEL",
    "SYSTEM.MQSC.REPLY.QUEUE",
];
/// Queues MQ has for monitoring FerryMQ does not write (activity and trace-route reports,
/// configuration, logger and publish/subscribe events): there so that tools which open them
/// find them.
pub const QUIET_ADMIN_QUEUES: [&str; 6] = [
    "SYSTEM.ADMIN.ACTIVITY.QUEUE",
    "SYSTEM.ADMIN.TRACE.ROUTE.QUEUE",
    "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE",
    "SYSTEM.ADMIN.CONFIG.EVENT",
    "SYSTEM.ADMIN.LOGGER.EVENT",
    "SYSTEM.ADMIN.PUBSUB.EVENT",
];
/// Whether `name` is one of the system templates whose names may stay blank (an alias without a
/// TARGET, a remote definition without RQMNAME): opening them fails as MQ's do.
pub fn is_blank_template(name: &str) -> bool {
    name == DEFAULT_ALIAS_QUEUE || name == DEFAULT_REMOTE_QUEUE
}
/// The listener DEFINE LISTENER starts from without LIKE (TCP, port 1414, started by hand).
pub const DEFAULT_LISTENER: &str = "SYSTEM.DEFAULT.LISTENER.TCP";

/// The channel DEFINE CHANNEL of a type starts from without LIKE: SYSTEM.DEF.SENDER,
/// SYSTEM.DEF.RECEIVER, SYSTEM.DEF.SVRCONN, SYSTEM.DEF.CLNTCONN.
pub fn default_channel(t: crate::objects::ChannelType) -> &'static str {
    use crate::objects::ChannelType;
    match t {
        ChannelType::Sender => "SYSTEM.DEF.SENDER",
        ChannelType::Receiver => "SYSTEM.DEF.RECEIVER",
        ChannelType::ServerConn => "SYSTEM.DEF.SVRCONN",
        ChannelType::ClientConn => "SYSTEM.DEF.CLNTCONN",
        ChannelType::Mqtt => "SYSTEM.DEF.MQTT",
    }
}

/// The namelist whose attributes DEFINE NAMELIST starts from without LIKE.
pub const DEFAULT_NAMELIST: &str = "SYSTEM.DEFAULT.NAMELIST";
/// The process definition whose attributes DEFINE PROCESS starts from without LIKE.
pub const DEFAULT_PROCESS: &str = "SYSTEM.DEFAULT.PROCESS";
/// Developer queues defined by default, as in MQ's developer configuration.
pub const DEV_QUEUES: [&str; 3] = ["DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"];
/// The authentication information object for passwords checked against this machine's accounts.
pub const AUTHINFO_IDPWOS: &str = "SYSTEM.DEFAULT.AUTHINFO.IDPWOS";
/// The authentication information object for the queue manager's user file.
pub const AUTHINFO_IDPWFILE: &str = "SYSTEM.DEFAULT.AUTHINFO.IDPWFILE";
/// QMGR CONNAUTH on a new queue manager.
pub const DEFAULT_CONNAUTH: &str = AUTHINFO_IDPWFILE;
/// Where authority (and other queue manager) event messages go, when QMGR AUTHOREV is ENABLED.
pub const QMGR_EVENT_QUEUE: &str = "SYSTEM.ADMIN.QMGR.EVENT";
/// Where channel event messages go, when QMGR CHLEV is ENABLED.
pub const CHANNEL_EVENT_QUEUE: &str = "SYSTEM.ADMIN.CHANNEL.EVENT";
/// Where performance event messages (queue depth high, low, full) go, when QMGR PERFMEV is
/// ENABLED.
pub const PERFM_EVENT_QUEUE: &str = "SYSTEM.ADMIN.PERFM.EVENT";
/// Where command event messages go, when QMGR CMDEV is ENABLED or NODISPLAY.
pub const COMMAND_EVENT_QUEUE: &str = "SYSTEM.ADMIN.COMMAND.EVENT";
/// Where statistics messages go (QMGR STATMQI, STATQ).
pub const STATISTICS_QUEUE: &str = "SYSTEM.ADMIN.STATISTICS.QUEUE";
/// Where accounting messages go (QMGR ACCTMQI, ACCTQ).
pub const ACCOUNTING_QUEUE: &str = "SYSTEM.ADMIN.ACCOUNTING.QUEUE";
