//! Attribute selectors for inquire and set (MQ's MQINQ/MQSET), numbered as MQ's MQIA_*/MQCA_*
//! so the MQI-compatible layer passes selectors straight through.

use crate::message::Persistence;
use crate::name::ObjectName;
use crate::objects::{
    AliasQueueAttrs, DefaultInputOpen, DefinitionType, DeliverySequence, LocalQueueAttrs,
    NamelistAttrs, ProcessAttrs, PutResponse, QueueManagerAttrs, ReadAhead, RemoteQueueAttrs,
    Usage,
};
use crate::topicobj::TopicAttrs;

/// An attribute selector. Integer attributes are below 2000, character attributes 2000 and up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Selector {
    /// MQIA_CODED_CHAR_SET_ID (queue manager: UTF-8, 1208).
    CodedCharSetId = 2,
    /// MQIA_CURRENT_Q_DEPTH.
    CurrentDepth = 3,
    /// MQIA_DEF_INPUT_OPEN_OPTION.
    DefInputOpenOption = 4,
    /// MQIA_DEF_PERSISTENCE.
    DefPersistence = 5,
    /// MQIA_DEF_PRIORITY.
    DefPriority = 6,
    /// MQIA_DEFINITION_TYPE.
    DefinitionType = 7,
    /// MQIA_INHIBIT_GET.
    InhibitGet = 9,
    /// MQIA_INHIBIT_PUT.
    InhibitPut = 10,
    /// MQIA_USAGE.
    Usage = 12,
    /// MQIA_MAX_MSG_LENGTH (queue or queue manager).
    MaxMsgLength = 13,
    /// MQIA_MAX_Q_DEPTH.
    MaxDepth = 15,
    /// MQIA_MSG_DELIVERY_SEQUENCE.
    MsgDeliverySequence = 16,
    /// MQIA_OPEN_INPUT_COUNT.
    OpenInputCount = 17,
    /// MQIA_OPEN_OUTPUT_COUNT.
    OpenOutputCount = 18,
    /// MQIA_Q_TYPE.
    QueueType = 20,
    /// MQIA_BACKOUT_THRESHOLD.
    BackoutThreshold = 22,
    /// MQIA_SHAREABILITY.
    Shareability = 23,
    /// MQIA_COMMAND_LEVEL (queue manager): the MQI level FerryMQ's headers provide.
    CommandLevel = 31,
    /// MQIA_PLATFORM (queue manager): MQPL_UNIX.
    Platform = 32,
    /// MQIA_MAX_UNCOMMITTED_MSGS.
    MaxUncommittedMsgs = 33,
    /// MQIA_DEF_PUT_RESPONSE_TYPE.
    DefPutResponse = 184,
    /// MQIA_DEF_READ_AHEAD.
    DefReadAhead = 188,
    /// MQCA_BASE_Q_NAME (alias target).
    BaseQueueName = 2002,
    /// MQCA_COMMAND_INPUT_Q_NAME (queue manager).
    CommandInputQueueName = 2003,
    /// MQCA_DEAD_LETTER_Q_NAME.
    DeadLetterQueueName = 2006,
    /// MQCA_Q_DESC.
    QueueDesc = 2013,
    /// MQCA_Q_MGR_NAME.
    QueueManagerName = 2015,
    /// MQCA_Q_NAME.
    QueueName = 2016,
    /// MQCA_BACKOUT_REQ_Q_NAME.
    BackoutRequeueName = 2019,
    /// MQCA_Q_MGR_DESC.
    QueueManagerDesc = 2014,
    /// MQIA_HARDEN_GET_BACKOUT.
    HardenGetBackout = 8,
    /// MQIA_MAX_HANDLES (queue manager).
    MaxHandles = 11,
    /// MQIA_MAX_PRIORITY (queue manager): 9.
    MaxPriority = 14,
    /// MQIA_TRIGGER_CONTROL: triggering is not offered, so off (MQTC_OFF).
    TriggerControl = 24,
    /// MQIA_SYNCPOINT (queue manager): units of work are available (MQSP_AVAILABLE).
    Syncpoint = 30,
    /// MQIA_AUTHORITY_EVENT (queue manager).
    AuthorityEvent = 47,
    /// MQIA_PERFORMANCE_EVENT (queue manager).
    PerformanceEvent = 53,
    /// MQIA_COMMAND_EVENT (queue manager): MQEVR_DISABLED, ENABLED or NO_DISPLAY.
    CommandEvent = 99,
    /// MQIA_Q_DEPTH_HIGH_LIMIT.
    QDepthHighLimit = 40,
    /// MQIA_Q_DEPTH_LOW_LIMIT.
    QDepthLowLimit = 41,
    /// MQIA_Q_DEPTH_MAX_EVENT.
    QDepthMaxEvent = 42,
    /// MQIA_Q_DEPTH_HIGH_EVENT.
    QDepthHighEvent = 43,
    /// MQIA_Q_DEPTH_LOW_EVENT.
    QDepthLowEvent = 44,
    /// MQIA_Q_SERVICE_INTERVAL_EVENT (MQQSIE_NONE 0, HIGH 1, OK 2).
    QServiceIntervalEvent = 46,
    /// MQIA_Q_SERVICE_INTERVAL (milliseconds).
    QServiceInterval = 54,
    /// MQIA_STATISTICS_MQI (queue manager): MQMON_ON or MQMON_OFF.
    StatisticsMqi = 127,
    /// MQIA_STATISTICS_Q (queue manager: MQMON_ON, OFF, NONE; queue: MQMON_Q_MGR, ON, OFF).
    StatisticsQ = 128,
    /// MQIA_STATISTICS_INTERVAL (queue manager): seconds.
    StatisticsInterval = 131,
    /// MQIA_ACCOUNTING_MQI (queue manager): MQMON_ON or MQMON_OFF.
    AccountingMqi = 133,
    /// MQIA_ACCOUNTING_Q (queue manager: MQMON_ON, OFF, NONE; queue: MQMON_Q_MGR, ON, OFF).
    AccountingQ = 134,
    /// MQIA_ACCOUNTING_INTERVAL (queue manager): seconds.
    AccountingInterval = 135,
    /// MQIA_CHANNEL_EVENT (queue manager).
    ChannelEvent = 73,
    /// MQIA_CHLAUTH_RECORDS (queue manager).
    ChlauthRecords = 248,
    /// MQCA_DEF_XMIT_Q_NAME (queue manager).
    DefXmitQueueName = 2025,
    /// MQCA_VERSION (queue manager): the MQ version whose interface FerryMQ offers, VVRRMMFF.
    Version = 2120,
    /// MQCA_CONN_AUTH (queue manager).
    ConnAuth = 2125,
    /// MQIA_APPL_TYPE (a process definition's APPLTYPE).
    ApplType = 1,
    /// MQIA_NAME_COUNT (how many names a namelist holds).
    NameCount = 19,
    /// MQIA_NAMELIST_TYPE (NLTYPE).
    NamelistType = 72,
    /// MQCA_APPL_ID (APPLICID).
    ApplId = 2001,
    /// MQCA_ENV_DATA (ENVRDATA).
    EnvData = 2007,
    /// MQCA_NAMELIST_DESC.
    NamelistDesc = 2009,
    /// MQCA_NAMELIST_NAME.
    NamelistName = 2010,
    /// MQCA_PROCESS_DESC.
    ProcessDesc = 2011,
    /// MQCA_NAMES: a namelist's names, each padded to 48 characters.
    Names = 2020,
    /// MQCA_USER_DATA (USERDATA).
    UserData = 2021,
    /// MQCA_CREATION_DATE (yyyy-mm-dd).
    CreationDate = 2004,
    /// MQCA_CREATION_TIME (hh.mm.ss).
    CreationTime = 2005,
    /// MQCA_ALTERATION_DATE (yyyy-mm-dd).
    AlterationDate = 2027,
    /// MQCA_ALTERATION_TIME (hh.mm.ss).
    AlterationTime = 2028,
    /// MQCA_REMOTE_Q_MGR_NAME (RQMNAME of a remote queue definition).
    RemoteQMgrName = 2017,
    /// MQCA_REMOTE_Q_NAME (RNAME).
    RemoteQName = 2018,
    /// MQCA_XMIT_Q_NAME (XMITQ).
    XmitQName = 2024,
    /// MQCA_TOPIC_NAME.
    TopicName = 2092,
    /// MQCA_TOPIC_DESC.
    TopicDesc = 2093,
    /// MQCA_TOPIC_STRING.
    TopicString = 2094,
    /// MQCA_MODEL_DURABLE_Q (MDURMDL).
    ModelDurableQ = 2096,
    /// MQCA_MODEL_NON_DURABLE_Q (MNDURMDL).
    ModelNonDurableQ = 2097,
    /// MQIA_TOPIC_TYPE (MQTOPT_LOCAL).
    TopicType = 208,
    /// MQIA_DURABLE_SUB (DURSUB).
    DurableSub = 175,
    /// MQIA_INHIBIT_PUB (PUB).
    InhibitPub = 181,
    /// MQIA_INHIBIT_SUB (SUB).
    InhibitSub = 182,
    /// MQIA_PM_DELIVERY (PMSGDLV).
    PmDelivery = 195,
    /// MQIA_NPM_DELIVERY (NPMSGDLV).
    NpmDelivery = 196,
    /// MQIA_PROXY_SUB (PROXYSUB: FIRSTUSE here).
    ProxySub = 199,
    /// MQIA_WILDCARD_OPERATION (WILDCARD).
    WildcardOperation = 216,
    /// MQIA_SUB_SCOPE (SUBSCOPE: this queue manager's).
    SubScope = 218,
    /// MQIA_PUB_SCOPE (PUBSCOPE: this queue manager's).
    PubScope = 219,
    /// MQIA_USE_DEAD_LETTER_Q (USEDLQ).
    UseDeadLetterQ = 234,
    // Attributes of features FerryMQ does not offer, answered with what they are here (so a
    // program that asks for them works): triggering, distribution lists, clustering, indexes,
    // the events it does not raise.
    /// MQIA_RETENTION_INTERVAL: 999,999,999 hours.
    RetentionInterval = 21,
    /// MQIA_TRIGGER_INTERVAL (queue manager): 999,999,999.
    TriggerInterval = 25,
    /// MQIA_TRIGGER_MSG_PRIORITY: 0.
    TriggerMsgPriority = 26,
    /// MQIA_TRIGGER_TYPE: MQTT_FIRST.
    TriggerType = 28,
    /// MQIA_TRIGGER_DEPTH: 1.
    TriggerDepth = 29,
    /// MQIA_DIST_LISTS: MQDL_NOT_SUPPORTED.
    DistLists = 34,
    /// MQIA_SCOPE: MQSCO_Q_MGR.
    Scope = 45,
    /// MQIA_INHIBIT_EVENT (queue manager): not raised, MQEVR_DISABLED.
    InhibitEvent = 48,
    /// MQIA_LOCAL_EVENT (queue manager): not raised.
    LocalEvent = 49,
    /// MQIA_REMOTE_EVENT (queue manager): not raised.
    RemoteEvent = 50,
    /// MQIA_CONFIGURATION_EVENT (queue manager): not raised.
    ConfigurationEvent = 51,
    /// MQIA_START_STOP_EVENT (queue manager): not raised.
    StartStopEvent = 52,
    /// MQIA_CHANNEL_AUTO_DEF (queue manager): MQCHAD_DISABLED.
    ChannelAutoDef = 55,
    /// MQIA_CHANNEL_AUTO_DEF_EVENT (queue manager): not raised.
    ChannelAutoDefEvent = 56,
    /// MQIA_INDEX_TYPE: MQIT_NONE.
    IndexType = 57,
    /// MQIA_DEF_BIND: MQBND_BIND_ON_OPEN.
    DefBind = 61,
    /// MQIA_QSG_DISP: MQQSGD_Q_MGR.
    QsgDisp = 63,
    /// MQIA_BRIDGE_EVENT (queue manager): not raised.
    BridgeEvent = 74,
    /// MQIA_SSL_EVENT (queue manager): not raised.
    SslEvent = 75,
    /// MQIA_NPM_CLASS: MQNPM_CLASS_NORMAL.
    NpmClass = 78,
    /// MQIA_LOGGER_EVENT (queue manager): not raised.
    LoggerEvent = 94,
    /// MQIA_CLWL_Q_RANK: 0.
    ClwlQueueRank = 95,
    /// MQIA_CLWL_Q_PRIORITY: 0.
    ClwlQueuePriority = 96,
    /// MQIA_CLWL_USEQ: MQCLWL_USEQ_AS_Q_MGR.
    ClwlUseQ = 98,
    /// MQIA_MONITORING_CHANNEL (queue manager): MQMON_OFF.
    MonitoringChannel = 122,
    /// MQIA_MONITORING_Q (queue manager: MQMON_OFF; queue: MQMON_Q_MGR).
    MonitoringQ = 123,
    /// MQIA_TRACE_ROUTE_RECORDING (queue manager): MQRECORDING_DISABLED.
    TraceRouteRecording = 137,
    /// MQIA_ACTIVITY_RECORDING (queue manager): MQRECORDING_DISABLED.
    ActivityRecording = 138,
    /// MQIA_PUBSUB_MODE (queue manager): MQPSM_ENABLED.
    PubSubMode = 187,
    /// MQIA_PROPERTY_CONTROL: MQPROP_COMPATIBILITY.
    PropertyControl = 190,
    /// MQIA_MAX_PROPERTIES_LENGTH (queue manager): MQPROP_UNRESTRICTED_LENGTH.
    MaxPropertiesLength = 192,
    /// MQCA_INITIATION_Q_NAME: blank.
    InitiationQueueName = 2008,
    /// MQCA_PROCESS_NAME: blank.
    ProcessName = 2012,
    /// MQCA_TRIGGER_DATA: blank.
    TriggerData = 2023,
    /// MQCA_CLUSTER_NAME: blank.
    ClusterName = 2029,
    /// MQCA_CLUSTER_NAMELIST: blank.
    ClusterNamelist = 2030,
    /// MQCA_CUSTOM: blank.
    Custom = 2119,
    /// MQIA_ACCOUNTING_CONN_OVERRIDE (the queue manager's; not a feature here).
    AccountingConnOverride = 136,
    /// MQIA_ACTIVITY_CONN_OVERRIDE (the queue manager's; not a feature here).
    ActivityConnOverride = 239,
    /// MQIA_ACTIVITY_TRACE (the queue manager's; not a feature here).
    ActivityTrace = 240,
    /// MQIA_ADOPTNEWMCA_CHECK (the queue manager's; not a feature here).
    AdoptNewMcaCheck = 102,
    /// MQIA_ADOPTNEWMCA_TYPE (the queue manager's; not a feature here).
    AdoptNewMcaType = 103,
    /// MQIA_CERT_VAL_POLICY (the queue manager's; not a feature here).
    CertValPolicy = 252,
    /// MQIA_STATISTICS_CHANNEL (the queue manager's; not a feature here).
    StatisticsChannel = 129,
    /// MQIA_MONITORING_AUTO_CLUSSDR (the queue manager's; not a feature here).
    MonitoringAutoClussdr = 124,
    /// MQIA_STATISTICS_AUTO_CLUSSDR (the queue manager's; not a feature here).
    StatisticsAutoClussdr = 130,
    /// MQIA_CLUSTER_WORKLOAD_LENGTH (the queue manager's; not a feature here).
    ClusterWorkloadLength = 58,
    /// MQIA_CLWL_MRU_CHANNELS (the queue manager's; not a feature here).
    ClwlMruChannels = 97,
    /// MQIA_DEF_CLUSTER_XMIT_Q_TYPE (the queue manager's; not a feature here).
    DefClusterXmitQType = 250,
    /// MQIA_SUITE_B_STRENGTH (the queue manager's; not a feature here).
    SuiteBStrength = 247,
    /// MQIA_EXPIRY_INTERVAL (the queue manager's; not a feature here).
    ExpiryInterval = 39,
    /// MQIA_IP_ADDRESS_VERSION (the queue manager's; not a feature here).
    IpAddressVersion = 93,
    /// MQIA_LISTENER_TIMER (the queue manager's; not a feature here).
    ListenerTimer = 107,
    /// MQIA_MSG_MARK_BROWSE_INTERVAL (the queue manager's; not a feature here).
    MsgMarkBrowseInterval = 68,
    /// MQIA_OUTBOUND_PORT_MAX (the queue manager's; not a feature here).
    OutboundPortMax = 140,
    /// MQIA_OUTBOUND_PORT_MIN (the queue manager's; not a feature here).
    OutboundPortMin = 110,
    /// MQIA_PUBSUB_MAXMSG_RETRY_COUNT (the queue manager's; not a feature here).
    PubsubMaxmsgRetryCount = 206,
    /// MQIA_PUBSUB_NP_MSG (the queue manager's; not a feature here).
    PubsubNpMsg = 203,
    /// MQIA_PUBSUB_NP_RESP (the queue manager's; not a feature here).
    PubsubNpResp = 205,
    /// MQIA_PUBSUB_SYNC_PT (the queue manager's; not a feature here).
    PubsubSyncPt = 207,
    /// MQIA_RECEIVE_TIMEOUT (the queue manager's; not a feature here).
    ReceiveTimeout = 111,
    /// MQIA_RECEIVE_TIMEOUT_TYPE (the queue manager's; not a feature here).
    ReceiveTimeoutType = 112,
    /// MQIA_RECEIVE_TIMEOUT_MIN (the queue manager's; not a feature here).
    ReceiveTimeoutMin = 113,
    /// MQIA_SSL_FIPS_REQUIRED (the queue manager's; not a feature here).
    SslFipsRequired = 92,
    /// MQIA_SSL_RESET_COUNT (the queue manager's; not a feature here).
    SslResetCount = 76,
    /// MQIA_TREE_LIFE_TIME (the queue manager's; not a feature here).
    TreeLifeTime = 183,
    /// MQIA_REVERSE_DNS_LOOKUP (the queue manager's; not a feature here).
    ReverseDnsLookup = 254,
    /// MQIA_CMD_SERVER_CONTROL (SCMDSERV: MQSVC_CONTROL_Q_MGR 0, MQSVC_CONTROL_MANUAL 1).
    CmdServerControl = 120,
    /// MQIA_CHINIT_CONTROL (the queue manager's; not a feature here).
    ChinitControl = 119,
    /// MQCA_CERT_LABEL (the queue manager's; not a feature here).
    CertLabel = 2121,
    /// MQCA_CHANNEL_AUTO_DEF_EXIT (the queue manager's; not a feature here).
    ChannelAutoDefExit = 2026,
    /// MQCA_CLUSTER_WORKLOAD_DATA (the queue manager's; not a feature here).
    ClusterWorkloadData = 2034,
    /// MQCA_CLUSTER_WORKLOAD_EXIT (the queue manager's; not a feature here).
    ClusterWorkloadExit = 2033,
    /// MQCA_PARENT (the queue manager's; not a feature here).
    Parent = 2102,
    /// MQCA_REPOSITORY_NAME (the queue manager's; not a feature here).
    RepositoryName = 2035,
    /// MQCA_REPOSITORY_NAMELIST (the queue manager's; not a feature here).
    RepositoryNamelist = 2036,
    /// MQCA_SSL_CRL_NAMELIST (the queue manager's; not a feature here).
    SslCrlNamelist = 2050,
    /// MQCA_SSL_CRYPTO_HARDWARE (the queue manager's; not a feature here).
    SslCryptoHardware = 2051,
    /// MQCA_SSL_KEY_REPOSITORY (the queue manager's; not a feature here).
    SslKeyRepository = 2049,
    /// MQCA_Q_MGR_IDENTIFIER (the queue manager's name).
    QMgrIdentifier = 2032,
}

/// The selectors of features not offered and their fixed answers, for a local queue (`true`)
/// or the queue manager.
/// The selectors some object answers from what it is.
const ANSWERED: &[Selector] = &[
    Selector::CodedCharSetId,
    Selector::CommandLevel,
    Selector::Platform,
    Selector::CommandInputQueueName,
    Selector::CurrentDepth,
    Selector::DefInputOpenOption,
    Selector::DefPersistence,
    Selector::DefPriority,
    Selector::DefinitionType,
    Selector::InhibitGet,
    Selector::InhibitPut,
    Selector::Usage,
    Selector::MaxMsgLength,
    Selector::MaxDepth,
    Selector::MsgDeliverySequence,
    Selector::OpenInputCount,
    Selector::OpenOutputCount,
    Selector::QueueType,
    Selector::BackoutThreshold,
    Selector::Shareability,
    Selector::MaxUncommittedMsgs,
    Selector::DefPutResponse,
    Selector::DefReadAhead,
    Selector::BaseQueueName,
    Selector::DeadLetterQueueName,
    Selector::QueueDesc,
    Selector::QueueManagerName,
    Selector::QueueName,
    Selector::BackoutRequeueName,
    Selector::QueueManagerDesc,
    Selector::HardenGetBackout,
    Selector::MaxHandles,
    Selector::MaxPriority,
    Selector::TriggerControl,
    Selector::Syncpoint,
    Selector::AuthorityEvent,
    Selector::PerformanceEvent,
    Selector::CommandEvent,
    Selector::QDepthHighLimit,
    Selector::QDepthLowLimit,
    Selector::QDepthMaxEvent,
    Selector::QDepthHighEvent,
    Selector::QDepthLowEvent,
    Selector::QServiceIntervalEvent,
    Selector::QServiceInterval,
    Selector::StatisticsMqi,
    Selector::StatisticsQ,
    Selector::StatisticsInterval,
    Selector::AccountingMqi,
    Selector::AccountingQ,
    Selector::AccountingInterval,
    Selector::ChannelEvent,
    Selector::ChlauthRecords,
    Selector::DefXmitQueueName,
    Selector::Version,
    Selector::ConnAuth,
    Selector::ApplType,
    Selector::NameCount,
    Selector::NamelistType,
    Selector::ApplId,
    Selector::EnvData,
    Selector::NamelistDesc,
    Selector::NamelistName,
    Selector::ProcessDesc,
    Selector::Names,
    Selector::UserData,
    Selector::AlterationDate,
    Selector::AlterationTime,
    Selector::CreationDate,
    Selector::CreationTime,
    Selector::TopicName,
    Selector::TopicDesc,
    Selector::TopicString,
    Selector::ModelDurableQ,
    Selector::ModelNonDurableQ,
    Selector::TopicType,
    Selector::DurableSub,
    Selector::InhibitPub,
    Selector::InhibitSub,
    Selector::PmDelivery,
    Selector::NpmDelivery,
    Selector::ProxySub,
    Selector::WildcardOperation,
    Selector::SubScope,
    Selector::PubScope,
    Selector::UseDeadLetterQ,
    Selector::QMgrIdentifier,
    Selector::TriggerType,
    Selector::TriggerDepth,
    Selector::TriggerMsgPriority,
    Selector::TriggerData,
    Selector::InitiationQueueName,
    Selector::ProcessName,
    Selector::RemoteQMgrName,
    Selector::RemoteQName,
    Selector::XmitQName,
    Selector::CmdServerControl,
];

const NOT_OFFERED: &[(Selector, bool, i64)] = &[
    (Selector::RetentionInterval, true, 999_999_999),
    (Selector::DistLists, true, 0),
    (Selector::Scope, true, 1),
    (Selector::IndexType, true, 0),
    (Selector::DefBind, true, 0),
    (Selector::QsgDisp, true, 0),
    (Selector::NpmClass, true, 0),
    (Selector::ClwlQueueRank, true, 0),
    (Selector::ClwlQueuePriority, true, 0),
    (Selector::ClwlUseQ, true, -3),
    (Selector::MonitoringQ, true, -3),
    (Selector::PropertyControl, true, 0),
    (Selector::TriggerInterval, false, 999_999_999),
    (Selector::DistLists, false, 0),
    (Selector::InhibitEvent, false, 0),
    (Selector::LocalEvent, false, 0),
    (Selector::RemoteEvent, false, 0),
    (Selector::ConfigurationEvent, false, 0),
    (Selector::StartStopEvent, false, 0),
    (Selector::ChannelAutoDef, false, 0),
    (Selector::ChannelAutoDefEvent, false, 0),
    (Selector::BridgeEvent, false, 0),
    (Selector::SslEvent, false, 0),
    (Selector::LoggerEvent, false, 0),
    (Selector::MonitoringChannel, false, 0),
    (Selector::MonitoringQ, false, 0),
    (Selector::TraceRouteRecording, false, 0),
    (Selector::ActivityRecording, false, 0),
    (Selector::PubSubMode, false, 2),
    (Selector::MaxPropertiesLength, false, -1),
    (Selector::AccountingConnOverride, false, 0),
    (Selector::ActivityConnOverride, false, 0),
    (Selector::ActivityTrace, false, 0),
    (Selector::AdoptNewMcaCheck, false, 1),
    (Selector::AdoptNewMcaType, false, 1),
    (Selector::CertValPolicy, false, 0),
    (Selector::StatisticsChannel, false, 0),
    (Selector::MonitoringAutoClussdr, false, -3),
    (Selector::StatisticsAutoClussdr, false, -3),
    (Selector::ClusterWorkloadLength, false, 100),
    (Selector::ClwlMruChannels, false, 999_999_999),
    (Selector::DefClusterXmitQType, false, 0),
    (Selector::SuiteBStrength, false, 1),
    (Selector::ExpiryInterval, false, 0),
    (Selector::IpAddressVersion, false, 0),
    (Selector::ListenerTimer, false, 60),
    (Selector::MsgMarkBrowseInterval, false, 5_000),
    (Selector::OutboundPortMax, false, 0),
    (Selector::OutboundPortMin, false, 0),
    (Selector::PubsubMaxmsgRetryCount, false, 5),
    (Selector::PubsubNpMsg, false, 0),
    (Selector::PubsubNpResp, false, 0),
    (Selector::PubsubSyncPt, false, 1),
    (Selector::ReceiveTimeout, false, 0),
    (Selector::ReceiveTimeoutType, false, 0),
    (Selector::ReceiveTimeoutMin, false, 0),
    (Selector::SslFipsRequired, false, 0),
    (Selector::SslResetCount, false, 0),
    (Selector::TreeLifeTime, false, 1_800),
    (Selector::ReverseDnsLookup, false, 0),
    (Selector::ChinitControl, false, 0),
];

/// The blank character attributes of features not offered, for a local queue.
const NOT_OFFERED_TEXT: &[Selector] = &[
    Selector::ClusterName,
    Selector::ClusterNamelist,
    Selector::Custom,
];

/// A fixed answer for a feature not offered, if `sel` is one (`queue`: a local queue's).
/// The queue manager's character attributes of features FerryMQ does not offer: blank.
const NOT_OFFERED_QMGR_TEXT: &[Selector] = &[
    Selector::CertLabel,
    Selector::ChannelAutoDefExit,
    Selector::ClusterWorkloadData,
    Selector::ClusterWorkloadExit,
    Selector::Parent,
    Selector::RepositoryName,
    Selector::RepositoryNamelist,
    Selector::SslCrlNamelist,
    Selector::SslCryptoHardware,
    Selector::SslKeyRepository,
];

fn not_offered(sel: Selector, queue: bool) -> Option<AttrValue> {
    if let Some((_, _, v)) = NOT_OFFERED
        .iter()
        .find(|(s, q, _)| *s == sel && *q == queue)
    {
        return Some(AttrValue::Int(*v));
    }
    let text = if queue {
        NOT_OFFERED_TEXT
    } else {
        NOT_OFFERED_QMGR_TEXT
    };
    text.contains(&sel).then(|| AttrValue::Str(String::new()))
}

impl Selector {
    /// The MQ selector number.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The selector with this MQ number, if supported.
    pub fn from_code(code: i32) -> Option<Selector> {
        ANSWERED
            .iter()
            .copied()
            .chain(NOT_OFFERED.iter().map(|(s, _, _)| *s))
            .chain(NOT_OFFERED_TEXT.iter().copied())
            .chain(NOT_OFFERED_QMGR_TEXT.iter().copied())
            .find(|s| s.code() == code)
    }

    /// Whether the value is a string (MQCA_*) rather than an integer (MQIA_*).
    pub fn is_string(self) -> bool {
        self.code() >= 2000
    }

    /// How many characters MQINQ gives a string attribute (MQ's MQ_*_LENGTH); MQCA_NAMES is
    /// 48 per name the namelist holds.
    pub fn char_length(self) -> usize {
        match self {
            Selector::QueueDesc
            | Selector::QueueManagerDesc
            | Selector::NamelistDesc
            | Selector::ProcessDesc
            | Selector::TopicDesc
            | Selector::TriggerData => 64,
            Selector::Version => 8,
            Selector::AlterationDate | Selector::CreationDate => 12,
            Selector::AlterationTime | Selector::CreationTime => 8,
            Selector::ApplId => 256,
            Selector::TopicString => 10240,
            Selector::CertLabel => 64,
            Selector::ChannelAutoDefExit | Selector::ClusterWorkloadExit => 128,
            Selector::ClusterWorkloadData => 32,
            Selector::SslCryptoHardware | Selector::SslKeyRepository => 256,
            Selector::EnvData | Selector::UserData | Selector::Custom => 128,
            _ => 48,
        }
    }
}

/// An attribute value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrValue {
    /// An integer attribute, with MQ's constant values (e.g. MQQA_GET_INHIBITED = 1).
    Int(i64),
    /// A character attribute.
    Str(String),
}

/// Live counts of a local queue, for inquire and status.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueueCounts {
    /// CURDEPTH.
    pub depth: usize,
    /// IPPROCS.
    pub open_input: usize,
    /// OPPROCS.
    pub open_output: usize,
}

/// The value of `sel` for a local (or model) queue, or `None` if it does not apply.
pub fn local_queue_attr(
    sel: Selector,
    name: &str,
    q_type: i64,
    a: &LocalQueueAttrs,
    c: QueueCounts,
) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::CurrentDepth => Int(c.depth as i64),
        Selector::DefInputOpenOption => Int(match a.def_input_open {
            DefaultInputOpen::Shared => 2,
            DefaultInputOpen::Exclusive => 4,
        }),
        Selector::DefPersistence => Int(persistence_value(a.def_persistence)),
        Selector::DefPriority => Int(a.def_priority as i64),
        Selector::DefinitionType => Int(match a.definition_type {
            DefinitionType::Predefined => 1,
            DefinitionType::PermanentDynamic => 2,
            DefinitionType::TemporaryDynamic => 3,
        }),
        Selector::InhibitGet => Int(a.get_inhibited as i64),
        Selector::InhibitPut => Int(a.put_inhibited as i64),
        Selector::Usage => Int(match a.usage {
            Usage::Normal => 0,
            Usage::Transmission => 1,
        }),
        Selector::MaxMsgLength => Int(a.max_msg_length as i64),
        Selector::MaxDepth => Int(a.max_depth as i64),
        Selector::MsgDeliverySequence => Int(match a.delivery_sequence {
            DeliverySequence::Priority => 0,
            DeliverySequence::Fifo => 1,
        }),
        Selector::OpenInputCount => Int(c.open_input as i64),
        Selector::OpenOutputCount => Int(c.open_output as i64),
        Selector::QueueType => Int(q_type),
        Selector::BackoutThreshold => Int(a.backout_threshold as i64),
        Selector::Shareability => Int(if a.shareable { 1 } else { 0 }),
        Selector::DefPutResponse => Int(put_response_value(a.def_put_response)),
        Selector::DefReadAhead => Int(read_ahead_value(a.def_read_ahead)),
        Selector::QueueDesc => Str(a.description.clone()),
        Selector::QueueName => Str(name.to_owned()),
        Selector::BackoutRequeueName => Str(a.backout_requeue_name.to_string()),
        Selector::HardenGetBackout => Int(i64::from(a.harden_backout)),
        Selector::TriggerControl => Int(i64::from(a.triggering.control)),
        Selector::TriggerType => Int(a.triggering.trigger_type.value()),
        Selector::TriggerDepth => Int(i64::from(a.triggering.depth)),
        Selector::TriggerMsgPriority => Int(i64::from(a.triggering.msg_priority)),
        Selector::TriggerData => Str(a.triggering.data.clone()),
        Selector::InitiationQueueName => Str(a.triggering.initiation_queue.to_string()),
        Selector::ProcessName => Str(a.triggering.process.to_string()),
        Selector::QDepthHighLimit => Int(i64::from(a.depth_high_limit)),
        Selector::QDepthLowLimit => Int(i64::from(a.depth_low_limit)),
        Selector::QDepthMaxEvent => Int(i64::from(a.depth_max_event)),
        Selector::QDepthHighEvent => Int(i64::from(a.depth_high_event)),
        Selector::QDepthLowEvent => Int(i64::from(a.depth_low_event)),
        Selector::QServiceIntervalEvent => Int(a.service_interval_event.mq_value()),
        Selector::QServiceInterval => Int(i64::from(a.service_interval_ms)),
        Selector::StatisticsQ => Int(a.statistics.value()),
        Selector::AccountingQ => Int(a.accounting.value()),
        Selector::CreationDate => Str(stamp_text(a.created_unix_s).0),
        Selector::CreationTime => Str(stamp_text(a.created_unix_s).1),
        Selector::AlterationDate => Str(stamp_text(a.altered_unix_s).0),
        Selector::AlterationTime => Str(stamp_text(a.altered_unix_s).1),
        other => return not_offered(other, true),
    })
}

/// The value of `sel` an alias queue answers itself (its name, type, target, inhibits and
/// dates), or `None` for the attributes its target answers.
pub fn alias_queue_attr(sel: Selector, name: &str, a: &AliasQueueAttrs) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::BaseQueueName => Str(a.target.to_string()),
        Selector::QueueType => Int(3),
        Selector::QueueName => Str(name.to_owned()),
        Selector::QueueDesc => Str(a.description.clone()),
        Selector::InhibitGet => Int(i64::from(a.get_inhibited)),
        Selector::InhibitPut => Int(i64::from(a.put_inhibited)),
        Selector::DefPersistence => Int(persistence_value(a.def_persistence)),
        Selector::DefPriority => Int(i64::from(a.def_priority)),
        Selector::DefPutResponse => Int(put_response_value(a.def_put_response)),
        Selector::DefReadAhead => Int(read_ahead_value(a.def_read_ahead)),
        Selector::CreationDate => Str(stamp_text(a.created_unix_s).0),
        Selector::CreationTime => Str(stamp_text(a.created_unix_s).1),
        Selector::AlterationDate => Str(stamp_text(a.altered_unix_s).0),
        Selector::AlterationTime => Str(stamp_text(a.altered_unix_s).1),
        _ => return None,
    })
}

/// The value of `sel` for a local definition of a remote queue (MQ answers these and no
/// others: a remote queue has no depth, no open counts, no triggering).
pub fn remote_queue_attr(sel: Selector, name: &str, a: &RemoteQueueAttrs) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::QueueName => Str(name.to_owned()),
        Selector::QueueType => Int(6),
        Selector::QueueDesc => Str(a.description.clone()),
        Selector::InhibitPut => Int(i64::from(a.put_inhibited)),
        Selector::DefPersistence => Int(persistence_value(a.def_persistence)),
        Selector::DefPriority => Int(i64::from(a.def_priority)),
        Selector::DefPutResponse => Int(put_response_value(a.def_put_response)),
        Selector::RemoteQName => Str(a.remote_name.to_string()),
        Selector::RemoteQMgrName => Str(a.remote_qmgr.to_string()),
        Selector::XmitQName => Str(a.xmit_queue.to_string()),
        Selector::CreationDate => Str(stamp_text(a.created_unix_s).0),
        Selector::CreationTime => Str(stamp_text(a.created_unix_s).1),
        Selector::AlterationDate => Str(stamp_text(a.altered_unix_s).0),
        Selector::AlterationTime => Str(stamp_text(a.altered_unix_s).1),
        Selector::Scope
        | Selector::DefBind
        | Selector::QsgDisp
        | Selector::ClwlQueueRank
        | Selector::ClwlQueuePriority
        | Selector::ClusterName
        | Selector::ClusterNamelist
        | Selector::Custom => return not_offered(sel, true),
        _ => return None,
    })
}

/// The value of `sel` for the queue manager object.
pub fn qmgr_attr(sel: Selector, a: &QueueManagerAttrs) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::MaxMsgLength => Int(a.max_msg_length as i64),
        Selector::MaxUncommittedMsgs => Int(a.max_uncommitted_msgs as i64),
        Selector::CodedCharSetId => Int(1208),
        Selector::CommandLevel => Int(COMMAND_LEVEL),
        Selector::Platform => Int(3),
        Selector::CommandInputQueueName => Str("SYSTEM.ADMIN.COMMAND.QUEUE".to_owned()),
        Selector::DeadLetterQueueName => Str(a.dead_letter_queue.to_string()),
        Selector::QueueManagerName => Str(a.name.to_string()),
        Selector::QueueManagerDesc => Str(a.description.clone()),
        Selector::MaxHandles => Int(a.max_handles as i64),
        Selector::MaxPriority => Int(9),
        Selector::Syncpoint => Int(1),
        Selector::AuthorityEvent => Int(i64::from(a.authority_events)),
        Selector::PerformanceEvent => Int(i64::from(a.performance_events)),
        Selector::CommandEvent => Int(a.command_events.value()),
        Selector::ChannelEvent => Int(i64::from(a.channel_events)),
        Selector::ChlauthRecords => Int(i64::from(a.chlauth)),
        Selector::DefXmitQueueName => Str(a.default_xmit_queue.to_string()),
        Selector::Version => Str(VERSION.to_owned()),
        Selector::ConnAuth => Str(a.connauth.to_string()),
        Selector::QMgrIdentifier => Str(a.name.to_string()),
        Selector::CreationDate => Str(stamp_text(a.created_unix_s).0),
        Selector::CreationTime => Str(stamp_text(a.created_unix_s).1),
        Selector::AlterationDate => Str(stamp_text(a.altered_unix_s).0),
        Selector::AlterationTime => Str(stamp_text(a.altered_unix_s).1),
        Selector::StatisticsMqi => Int(i64::from(a.statistics_mqi)),
        Selector::StatisticsQ => Int(a.statistics_queues.value()),
        Selector::StatisticsInterval => Int(i64::from(a.statistics_interval)),
        Selector::AccountingMqi => Int(i64::from(a.accounting_mqi)),
        Selector::AccountingQ => Int(a.accounting_queues.value()),
        Selector::AccountingInterval => Int(i64::from(a.accounting_interval)),
        Selector::CmdServerControl => Int(i64::from(a.command_server_manual)),
        other => return not_offered(other, false),
    })
}

/// The value of `sel` for namelist `name`, or `None` if a namelist has no such attribute.
pub fn namelist_attr(sel: Selector, name: &str, a: &NamelistAttrs) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::NamelistName => Str(name.to_owned()),
        Selector::NamelistDesc => Str(a.description.clone()),
        Selector::NameCount => Int(a.names.len() as i64),
        Selector::NamelistType => Int(a.nl_type.value()),
        Selector::Names => Str(a.names.iter().map(|n| format!("{n:<48}")).collect()),
        Selector::AlterationDate => Str(unix_date_time(a.altered_unix_s).0),
        Selector::AlterationTime => Str(unix_date_time(a.altered_unix_s).1),
        _ => return None,
    })
}

/// The value of `sel` for process definition `name`, or `None` if a process has no such
/// attribute.
pub fn process_attr(sel: Selector, name: &str, a: &ProcessAttrs) -> Option<AttrValue> {
    use AttrValue::{Int, Str};
    Some(match sel {
        Selector::ProcessName => Str(name.to_owned()),
        Selector::ProcessDesc => Str(a.description.clone()),
        Selector::ApplType => Int(a.appl_type),
        Selector::ApplId => Str(a.appl_id.clone()),
        Selector::EnvData => Str(a.env_data.clone()),
        Selector::UserData => Str(a.user_data.clone()),
        Selector::AlterationDate => Str(unix_date_time(a.altered_unix_s).0),
        Selector::AlterationTime => Str(unix_date_time(a.altered_unix_s).1),
        _ => return None,
    })
}

/// The value of `sel` for topic object `name` as it is defined: an attribute it leaves ASPARENT
/// answers MQ's AS_PARENT value (MQPER_PERSISTENCE_AS_PARENT, MQTA_PUB_AS_PARENT, ...).
pub fn topic_attr(sel: Selector, name: &str, a: &TopicAttrs) -> Option<AttrValue> {
    use crate::topicobj::{DeliveryRule, WildcardOperation};
    use AttrValue::{Int, Str};
    let allowed = |v: Option<bool>, yes: i64, no: i64| v.map_or(0, |b| if b { yes } else { no });
    let rule = |r: Option<DeliveryRule>| match r {
        None => 0,
        Some(DeliveryRule::All) => 1,
        Some(DeliveryRule::AllDurable) => 2,
        Some(DeliveryRule::AllAvailable) => 3,
    };
    let model = |m: Option<ObjectName>| m.map(|n| n.to_string()).unwrap_or_default();
    Some(match sel {
        Selector::TopicName => Str(name.to_owned()),
        Selector::TopicDesc => Str(a.description.clone()),
        Selector::TopicString => Str(a.topic_string.clone()),
        Selector::TopicType => Int(0),
        Selector::DefPersistence => Int(a.def_persistent.map_or(-1, i64::from)),
        Selector::DefPriority => Int(a.def_priority.map_or(-2, i64::from)),
        Selector::DurableSub => Int(allowed(a.durable_subs, 1, 2)),
        Selector::InhibitPub => Int(allowed(a.publish, 2, 1)),
        Selector::InhibitSub => Int(allowed(a.subscribe, 2, 1)),
        Selector::PmDelivery => Int(rule(a.persistent_delivery)),
        Selector::NpmDelivery => Int(rule(a.nonpersistent_delivery)),
        Selector::ModelDurableQ => Str(model(a.durable_model)),
        Selector::ModelNonDurableQ => Str(model(a.nondurable_model)),
        Selector::UseDeadLetterQ => Int(allowed(a.use_dlq, 2, 1)),
        Selector::WildcardOperation => Int(match a.wildcard {
            WildcardOperation::Passthru => 2,
            WildcardOperation::Block => 1,
        }),
        Selector::ProxySub => Int(2),
        Selector::PubScope | Selector::SubScope => Int(4),
        Selector::ClusterName => Str(String::new()),
        _ => return None,
    })
}

/// MQCA_VERSION: the MQ version whose interface FerryMQ offers (VVRRMMFF), in step with
/// [`COMMAND_LEVEL`].
pub const VERSION: &str = "09040000";

/// The command level a queue manager reports (MQIA_COMMAND_LEVEL): MQCMDL_LEVEL_940, the level
/// whose structure versions FerryMQ's MQI headers provide.
pub const COMMAND_LEVEL: i64 = 940;

/// MQPER_* value.
pub fn persistence_value(p: Persistence) -> i64 {
    match p {
        Persistence::NotPersistent => 0,
        Persistence::Persistent => 1,
        Persistence::AsQueueDef => 2,
    }
}

/// MQPRT_* value.
pub fn put_response_value(p: PutResponse) -> i64 {
    match p {
        PutResponse::Sync => 1,
        PutResponse::Async => 2,
    }
}

/// MQREADA_* value.
pub fn read_ahead_value(r: ReadAhead) -> i64 {
    match r {
        ReadAhead::No => 0,
        ReadAhead::Yes => 1,
        ReadAhead::Disabled => 2,
    }
}

/// A definition's date and time as [`unix_date_time`] writes them, blank for 0 (a definition
/// made before FerryMQ kept the time).
pub fn stamp_text(unix_s: u64) -> (String, String) {
    if unix_s == 0 {
        return (String::new(), String::new());
    }
    unix_date_time(unix_s)
}

/// A time in Unix seconds as MQ shows dates and times (yyyy-mm-dd, hh.mm.ss).
pub fn unix_date_time(unix_s: u64) -> (String, String) {
    crate::clock::date_time(std::time::UNIX_EPOCH + std::time::Duration::from_secs(unix_s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::ObjectName;

    #[test]
    fn attributes_of_features_not_offered_answer_what_they_are_here() {
        for (sel, _, _) in NOT_OFFERED {
            assert_eq!(Selector::from_code(sel.code()), Some(*sel));
        }
        let q = LocalQueueAttrs::default();
        let c = QueueCounts::default();
        let local = |code| local_queue_attr(Selector::from_code(code).unwrap(), "Q", 1, &q, c);
        assert_eq!(local(61), Some(AttrValue::Int(0)), "MQBND_BIND_ON_OPEN");
        assert_eq!(local(28), Some(AttrValue::Int(1)), "MQTT_FIRST");
        assert_eq!(local(123), Some(AttrValue::Int(-3)), "MONQ(QMGR)");
        assert_eq!(local(2008), Some(AttrValue::Str(String::new())), "no INITQ");
        let qm = QueueManagerAttrs::new(ObjectName::new("QM1").unwrap());
        let qmgr = |code| qmgr_attr(Selector::from_code(code).unwrap(), &qm);
        assert_eq!(qmgr(187), Some(AttrValue::Int(2)), "MQPSM_ENABLED");
        assert_eq!(
            qmgr(52),
            Some(AttrValue::Int(0)),
            "start/stop events not raised"
        );
        assert_eq!(
            qmgr(2008),
            None,
            "a queue's attribute, not the queue manager's"
        );
    }
}
