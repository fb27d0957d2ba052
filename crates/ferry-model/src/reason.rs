//! Reason codes: the one enum every layer (engine, wire, client, MQI library) reports through.
//!
//! Invariants worth naming:
//! - Numbers are stable forever. Where the concept is the same as IBM MQ's, the number is IBM MQ's
//!   (2033 no message available, 2053 queue full, ...) so the MQI-compatible layer maps one to one.
//!   FerryMQ-only reasons live at 6000 and above. A gap is a retired code, not free space.
//! - Every reason has a symbolic name (`MQRC_*` style) and a generic sentence a person can act on;
//!   [`MqError`] adds the specifics (which queue, which limit).

use std::fmt;

/// Whether a reason is a warning (the call did its job, with a remark) or a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionCode {
    /// MQCC_OK: nothing to report.
    Ok = 0,
    /// MQCC_WARNING: the call completed partially or with a remark (e.g. a truncated message).
    Warning = 1,
    /// MQCC_FAILED: the call did nothing.
    Failed = 2,
}

macro_rules! reasons {
    ($( $(#[$doc:meta])* $variant:ident = $num:literal, $name:literal, $cc:ident, $text:literal; )*) => {
        /// A stable reason code. See the module documentation for the numbering rules.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u32)]
        #[non_exhaustive]
        pub enum Reason {
            $( $(#[$doc])* $variant = $num, )*
        }

        impl Reason {
            /// Every reason, in numeric order of declaration.
            pub const ALL: &'static [Reason] = &[ $( Reason::$variant, )* ];

            /// The stable number (IBM MQ's where the concept is the same).
            pub const fn code(self) -> u32 {
                self as u32
            }

            /// The symbolic name, e.g. `MQRC_Q_FULL`.
            pub const fn name(self) -> &'static str {
                match self { $( Reason::$variant => $name, )* }
            }

            /// Whether the call that returned this reason completed (warning) or failed.
            pub const fn completion(self) -> CompletionCode {
                match self { $( Reason::$variant => CompletionCode::$cc, )* }
            }

            /// A generic sentence describing the reason and what to do about it.
            pub const fn sentence(self) -> &'static str {
                match self { $( Reason::$variant => $text, )* }
            }

            /// The reason with this number, if it is one FerryMQ knows.
            pub fn from_code(code: u32) -> Option<Reason> {
                match code { $( $num => Some(Reason::$variant), )* _ => None }
            }
        }
    };
}

reasons! {
    /// Nothing to report.
    None = 0, "MQRC_NONE", Ok, "completed successfully";
    /// A unit of work was backed out (e.g. because its connection ended abnormally).
    BackedOut = 2003, "MQRC_BACKED_OUT", Failed,
        "the unit of work was backed out; repeat the work in a new unit of work";
    /// The caller's buffer is unusable (negative or absurd length).
    BufferLengthError = 2005, "MQRC_BUFFER_LENGTH_ERROR", Failed,
        "the buffer length is not valid; pass a length of zero or more";
    /// MQSET: a character attribute is longer than the attribute (or CharAttrLength is too
    /// short for the ones selected).
    CharAttrLengthError = 2006, "MQRC_CHAR_ATTR_LENGTH_ERROR", Failed,
        "the character attributes do not fit: pass each at its full length (MQ_TRIGGER_DATA_LENGTH is 64)";
    /// The connection to the queue manager has been lost.
    ConnectionBroken = 2009, "MQRC_CONNECTION_BROKEN", Failed,
        "the connection to the queue manager is broken; reconnect and reopen your handles";
    /// The dynamic queue name pattern is not valid.
    DynamicQNameError = 2011, "MQRC_DYNAMIC_Q_NAME_ERROR", Failed,
        "the dynamic queue name is not valid; use up to 48 characters, optionally ending in '*'";
    /// The expiry is not valid.
    ExpiryError = 2013, "MQRC_EXPIRY_ERROR", Failed,
        "the expiry is not valid; give a positive interval or unlimited";
    /// Gets are inhibited on the queue.
    GetInhibited = 2016, "MQRC_GET_INHIBITED", Failed,
        "gets are inhibited on this queue; an administrator must enable GET";
    /// No more handles can be opened on this connection.
    HandleNotAvailable = 2017, "MQRC_HANDLE_NOT_AVAILABLE", Failed,
        "this connection has reached its limit of open handles; close handles you no longer use";
    /// The connection handle is not valid (already disconnected).
    HconnError = 2018, "MQRC_HCONN_ERROR", Failed,
        "the connection handle is not valid; it was disconnected or never connected";
    /// The object handle is not valid (closed or never opened).
    HobjError = 2019, "MQRC_HOBJ_ERROR", Failed,
        "the object handle is not valid; it was closed or belongs to another connection";
    /// The value given for an inhibit attribute is not valid.
    InhibitValueError = 2020, "MQRC_INHIBIT_VALUE_ERROR", Failed,
        "the value for the inhibit attribute is not valid";
    /// Too many uncommitted messages in one unit of work.
    SyncpointLimitReached = 2024, "MQRC_SYNCPOINT_LIMIT_REACHED", Failed,
        "the unit of work holds the maximum number of uncommitted messages (MAXUMSGS); commit sooner or raise MAXUMSGS";
    /// The queue manager has reached its connection limit.
    MaxConnsLimitReached = 2025, "MQRC_MAX_CONNS_LIMIT_REACHED", Failed,
        "the queue manager has reached its connection limit; try later or raise the limit";
    /// A request message was put without a reply-to queue.
    MissingReplyToQ = 2027, "MQRC_MISSING_REPLY_TO_Q", Failed,
        "a request message needs a reply-to queue; set reply_to_queue";
    /// The message is longer than the queue's MAXMSGL.
    MsgTooBigForQ = 2030, "MQRC_MSG_TOO_BIG_FOR_Q", Failed,
        "the message is longer than the queue's MAXMSGL; send a smaller message or raise MAXMSGL";
    /// The message is longer than the queue manager's MAXMSGL.
    MsgTooBigForQMgr = 2031, "MQRC_MSG_TOO_BIG_FOR_Q_MGR", Failed,
        "the message is longer than the queue manager's MAXMSGL; send a smaller message or raise MAXMSGL";
    /// No message matched the get.
    NoMsgAvailable = 2033, "MQRC_NO_MSG_AVAILABLE", Failed,
        "no message is available that matches the request; wait longer or check the match criteria";
    /// Get under cursor, but the browse cursor is not on a message (any longer).
    NoMsgUnderCursor = 2034, "MQRC_NO_MSG_UNDER_CURSOR", Failed,
        "the browse cursor is not positioned on an available message; browse first";
    /// The user is not authorised for this operation.
    NotAuthorized = 2035, "MQRC_NOT_AUTHORIZED", Failed,
        "you are not authorised for this operation; ask an administrator for access";
    /// Browse on a handle not opened for browse.
    NotOpenForBrowse = 2036, "MQRC_NOT_OPEN_FOR_BROWSE", Failed,
        "the queue was not opened for browse; open it with browse";
    /// Get on a handle not opened for input.
    NotOpenForInput = 2037, "MQRC_NOT_OPEN_FOR_INPUT", Failed,
        "the queue was not opened for input; open it with input shared or exclusive";
    /// Inquire on a handle not opened for inquire.
    NotOpenForInquire = 2038, "MQRC_NOT_OPEN_FOR_INQUIRE", Failed,
        "the object was not opened for inquire; open it with inquire";
    /// Put on a handle not opened for output.
    NotOpenForOutput = 2039, "MQRC_NOT_OPEN_FOR_OUTPUT", Failed,
        "the queue was not opened for output; open it with output";
    /// Set on a handle not opened for set.
    NotOpenForSet = 2040, "MQRC_NOT_OPEN_FOR_SET", Failed,
        "the object was not opened for set; open it with set";
    /// Exclusive access conflicts with another handle.
    ObjectInUse = 2042, "MQRC_OBJECT_IN_USE", Failed,
        "the object is in use by another handle in a way that conflicts with this request";
    /// The object type is not valid for this call.
    ObjectTypeError = 2043, "MQRC_OBJECT_TYPE_ERROR", Failed,
        "the object type is not valid for this call";
    /// An option is not valid for this object type.
    OptionNotValidForType = 2045, "MQRC_OPTION_NOT_VALID_FOR_TYPE", Failed,
        "an option is not valid for this type of object";
    /// The options are not valid or are contradictory.
    OptionsError = 2046, "MQRC_OPTIONS_ERROR", Failed,
        "the options are not valid or contradict each other";
    /// The persistence value is not valid.
    PersistenceError = 2047, "MQRC_PERSISTENCE_ERROR", Failed,
        "the persistence value is not valid";
    /// A persistent message cannot be put to this queue (temporary dynamic queue).
    PersistentNotAllowed = 2048, "MQRC_PERSISTENT_NOT_ALLOWED", Failed,
        "temporary dynamic queues do not accept persistent messages; send it non-persistent or use a permanent queue";
    /// The priority is above 9 (the message is put with priority 9).
    PriorityExceedsMaximum = 2049, "MQRC_PRIORITY_EXCEEDS_MAXIMUM", Warning,
        "the priority is above the maximum of 9; the message was put with priority 9";
    /// The priority is not valid (negative).
    PriorityError = 2050, "MQRC_PRIORITY_ERROR", Failed,
        "the priority is not valid; use 0 to 9 or the queue default";
    /// Puts are inhibited on the queue.
    PutInhibited = 2051, "MQRC_PUT_INHIBITED", Failed,
        "puts are inhibited on this queue; an administrator must enable PUT";
    /// The queue was deleted after it was opened.
    QDeleted = 2052, "MQRC_Q_DELETED", Failed,
        "the queue was deleted after this handle opened it; close the handle";
    /// The queue holds MAXDEPTH messages.
    QFull = 2053, "MQRC_Q_FULL", Failed,
        "the queue is full; wait for consumers to catch up or raise MAXDEPTH";
    /// The queue still holds messages or uncommitted work.
    QNotEmpty = 2055, "MQRC_Q_NOT_EMPTY", Failed,
        "the queue still holds messages or uncommitted work; clear it first";
    /// The queue type is wrong for this request.
    QTypeError = 2057, "MQRC_Q_TYPE_ERROR", Failed,
        "the queue type is not valid for this request";
    /// The queue manager name is not valid or not known.
    QMgrNameError = 2058, "MQRC_Q_MGR_NAME_ERROR", Failed,
        "the queue manager name is not valid or not known";
    /// The queue manager is not available.
    QMgrNotAvailable = 2059, "MQRC_Q_MGR_NOT_AVAILABLE", Failed,
        "the queue manager is not available; check that it is running and reachable";
    /// The report options ask for something MQ reserves or cannot be combined.
    ReportOptionsError = 2061, "MQRC_REPORT_OPTIONS_ERROR", Failed,
        "the report options are not valid: use the MQRO_* values (one of each kind: MQRO_COA, MQRO_COA_WITH_DATA or MQRO_COA_WITH_FULL_DATA)";
    /// A selector is not valid for this object.
    SelectorError = 2067, "MQRC_SELECTOR_ERROR", Failed,
        "an attribute selector is not valid for this object";
    /// The queue manager cannot allocate what the call needs.
    StorageNotAvailable = 2071, "MQRC_STORAGE_NOT_AVAILABLE", Failed,
        "the queue manager is out of a bounded resource; retry later";
    /// MQSET of TriggerControl with a value other than MQTC_OFF or MQTC_ON.
    TriggerControlError = 2075, "MQRC_TRIGGER_CONTROL_ERROR", Failed,
        "TriggerControl is MQTC_OFF (0) or MQTC_ON (1)";
    /// MQSET of TriggerDepth outside 1–999,999,999.
    TriggerDepthError = 2076, "MQRC_TRIGGER_DEPTH_ERROR", Failed,
        "TriggerDepth is 1 to 999,999,999";
    /// MQSET of TriggerMsgPriority outside 0–9.
    TriggerMsgPriorityErr = 2077, "MQRC_TRIGGER_MSG_PRIORITY_ERR", Failed,
        "TriggerMsgPriority is 0 to 9";
    /// MQSET of TriggerType with a value that is not an MQTT_* type.
    TriggerTypeError = 2078, "MQRC_TRIGGER_TYPE_ERROR", Failed,
        "TriggerType is MQTT_NONE, MQTT_FIRST, MQTT_EVERY or MQTT_DEPTH (0 to 3)";
    /// The message was truncated to the caller's limit and removed from the queue.
    TruncatedMsgAccepted = 2079, "MQRC_TRUNCATED_MSG_ACCEPTED", Warning,
        "the message was longer than the buffer and was truncated; the rest is discarded";
    /// The message is longer than the caller's limit and stays on the queue.
    TruncatedMsgFailed = 2080, "MQRC_TRUNCATED_MSG_FAILED", Warning,
        "the message is longer than the buffer and stays on the queue; get it with a larger buffer or accept truncation";
    /// The alias queue's target does not exist.
    UnknownAliasBaseQ = 2082, "MQRC_UNKNOWN_ALIAS_BASE_Q", Failed,
        "the alias queue's target queue does not exist; define it or fix TARGET";
    /// No such object.
    UnknownObjectName = 2085, "MQRC_UNKNOWN_OBJECT_NAME", Failed,
        "no object with this name exists; check the spelling or define it";
    /// The object is on a queue manager this one does not know.
    UnknownObjectQMgr = 2086, "MQRC_UNKNOWN_OBJECT_Q_MGR", Failed,
        "the queue manager named for this object is not known here; define a route to it";
    /// No route to the remote queue manager: no transmission queue named after it, no queue
    /// manager alias for it, and no default transmission queue.
    UnknownRemoteQMgr = 2087, "MQRC_UNKNOWN_REMOTE_Q_MGR", Failed,
        "there is no route to this queue manager: define a transmission queue named after it, a queue manager alias (QREMOTE with blank RNAME), or DEFXMITQ";
    /// The wait interval is not valid.
    WaitIntervalError = 2090, "MQRC_WAIT_INTERVAL_ERROR", Failed,
        "the wait interval is not valid";
    /// The transmission queue a route names is not a local queue.
    XmitQTypeError = 2091, "MQRC_XMIT_Q_TYPE_ERROR", Failed,
        "the transmission queue this route names is not a local queue";
    /// The transmission queue a route names does not have USAGE(XMITQ).
    XmitQUsageError = 2092, "MQRC_XMIT_Q_USAGE_ERROR", Failed,
        "the transmission queue this route names is not defined with USAGE(XMITQ)";
    /// A put passed all context through a handle not opened to pass it.
    NotOpenForPassAll = 2093, "MQRC_NOT_OPEN_FOR_PASS_ALL", Failed,
        "the queue was not opened to pass all context; open it with pass-all-context (MQOO_PASS_ALL_CONTEXT)";
    /// A put passed identity context through a handle not opened to pass it.
    NotOpenForPassIdent = 2094, "MQRC_NOT_OPEN_FOR_PASS_IDENT", Failed,
        "the queue was not opened to pass identity context; open it with pass-identity-context (MQOO_PASS_IDENTITY_CONTEXT)";
    /// A put set all context through a handle not opened to set it.
    NotOpenForSetAll = 2095, "MQRC_NOT_OPEN_FOR_SET_ALL", Failed,
        "the queue was not opened to set all context; open it with set-all-context (MQOO_SET_ALL_CONTEXT)";
    /// A put set identity context through a handle not opened to set it.
    NotOpenForSetIdent = 2096, "MQRC_NOT_OPEN_FOR_SET_IDENT", Failed,
        "the queue was not opened to set identity context; open it with set-identity-context (MQOO_SET_IDENTITY_CONTEXT)";
    /// The context handle of a pass-context put is not an input handle opened to save context.
    ContextHandleError = 2097, "MQRC_CONTEXT_HANDLE_ERROR", Failed,
        "the context handle is not a queue handle opened with save-all-context (MQOO_SAVE_ALL_CONTEXT); open the input queue with it";
    /// The context handle of a pass-context put has no saved context yet.
    ContextNotAvailable = 2098, "MQRC_CONTEXT_NOT_AVAILABLE", Failed,
        "the context handle has no saved context: get a message (not a browse) through it first";
    /// An object with this name already exists.
    ObjectAlreadyExists = 2100, "MQRC_OBJECT_ALREADY_EXISTS", Failed,
        "an object with this name already exists; pick another name or replace it";
    /// A resource the queue manager cannot wait for ran out (the recovery log is full).
    ResourceProblem = 2102, "MQRC_RESOURCE_PROBLEM", Failed,
        "the queue manager ran out of a resource (for persistent messages: the recovery log is full); get messages off its queues or give the log more extents";
    /// The report options hold an option this queue manager does not know (the message was
    /// put; the option is ignored).
    UnknownReportOption = 2104, "MQRC_UNKNOWN_REPORT_OPTION", Warning,
        "the report options hold an option this queue manager does not know; the message was put and that option is ignored";
    /// The queue manager is quiescing.
    QMgrQuiescing = 2161, "MQRC_Q_MGR_QUIESCING", Failed,
        "the queue manager is quiescing; finish your work and disconnect";
    /// The queue manager is stopping.
    QMgrStopping = 2162, "MQRC_Q_MGR_STOPPING", Failed,
        "the queue manager is stopping; reconnect once it has restarted";
    /// The put-message options (MQPMO) are not valid.
    PmoError = 2173, "MQRC_PMO_ERROR", Failed,
        "the put-message options are not valid: check StrucId, Version and PubLevel (0 to 9)";
    /// The object name is not valid.
    ObjectNameError = 2152, "MQRC_OBJECT_NAME_ERROR", Failed,
        "the object name is not valid; use 1 to 48 characters from A-Z a-z 0-9 . / _ %";
    /// The name is not valid for this object type (e.g. a dynamic name for a local queue).
    NameNotValidForType = 2194, "MQRC_NAME_NOT_VALID_FOR_TYPE", Failed,
        "the name is not valid for this type of object";
    /// Something unexpected went wrong inside the queue manager.
    UnexpectedError = 2195, "MQRC_UNEXPECTED_ERROR", Failed,
        "an unexpected error occurred; the queue manager log has details";
    /// The message id given is not valid for this call.
    MsgIdError = 2206, "MQRC_MSG_ID_ERROR", Failed,
        "the message id is not valid for this call";
    /// The correlation id given is not valid for this call.
    CorrelIdError = 2207, "MQRC_CORREL_ID_ERROR", Failed,
        "the correlation id is not valid for this call";
    /// A call is already in progress on this connection.
    CallInProgress = 2219, "MQRC_CALL_IN_PROGRESS", Failed,
        "another call is already in progress on this connection handle; wait for it";
    /// The function is not supported (yet).
    FunctionNotSupported = 2298, "MQRC_FUNCTION_NOT_SUPPORTED", Failed,
        "this function is not supported by FerryMQ yet";
    /// The message was moved because it reached its backout threshold.
    BackoutThresholdReached = 2362, "MQRC_BACKOUT_THRESHOLD_REACHED", Failed,
        "the message was backed out BOTHRESH times and moved to the backout queue";
    /// The subscription descriptor (MQSD) is not valid.
    SdError = 2424, "MQRC_SD_ERROR", Failed,
        "the subscription descriptor is not valid: check its options, its topic and its names";
    /// The topic string is not valid.
    TopicStringError = 2425, "MQRC_TOPIC_STRING_ERROR", Failed,
        "the topic string is not valid: it must not be empty or longer than 10,240 bytes, and in a character-based wildcard subscription '%' must escape '*', '?' or '%'";
    /// No subscription has the name given (MQSO_RESUME, MQSO_ALTER).
    NoSubscription = 2428, "MQRC_NO_SUBSCRIPTION", Failed,
        "no subscription has this name; create it (MQSO_CREATE) or check the name";
    /// The subscription is in use by another handle.
    SubscriptionInUse = 2429, "MQRC_SUBSCRIPTION_IN_USE", Failed,
        "the subscription is in use by another handle; wait for it to be closed, or share it (MQSO_SHARED)";
    /// A subscription with this name exists already (MQSO_CREATE without MQSO_RESUME).
    SubAlreadyExists = 2432, "MQRC_SUB_ALREADY_EXISTS", Failed,
        "a subscription with this name exists already; resume it (MQSO_RESUME) or choose another name";
    /// The subscription belongs to another user.
    IdentityMismatch = 2434, "MQRC_IDENTITY_MISMATCH", Failed,
        "the subscription belongs to another user; it can be resumed by that user, or with MQSO_ANY_USERID when it was created with it";
    /// Durable subscriptions are not allowed on this topic (DURSUB(NO)), or on this queue.
    DurabilityNotAllowed = 2436, "MQRC_DURABILITY_NOT_ALLOWED", Failed,
        "durable subscriptions are not allowed here: the topic says DURSUB(NO), or the destination is a temporary dynamic queue";
    /// No retained publication for the topic (MQSUBRQ).
    NoRetainedMsg = 2437, "MQRC_NO_RETAINED_MSG", Failed,
        "the topic has no retained publication to send";
    /// The subscription request options (MQSRO) are not valid.
    SroError = 2438, "MQRC_SRO_ERROR", Failed,
        "the subscription request options (MQSRO) are not valid: StrucId 'SRO ', Version 1";
    /// The subscription name is not valid.
    SubNameError = 2440, "MQRC_SUB_NAME_ERROR", Failed,
        "the subscription name is not valid: a durable subscription needs a name of up to 10,240 bytes";
    /// The object string is not valid.
    ObjectStringError = 2441, "MQRC_OBJECT_STRING_ERROR", Failed,
        "the object string is not valid for this object type";
    /// The property name is not valid.
    PropertyNameError = 2442, "MQRC_PROPERTY_NAME_ERROR", Failed,
        "the property name is not valid; use a non-empty name of up to 4095 characters";
    /// The property does not exist.
    PropertyNotAvailable = 2471, "MQRC_PROPERTY_NOT_AVAILABLE", Failed,
        "the message has no property with this name";
    /// MQCLOSE with MQCO_QUIESCE: messages streamed ahead (read-ahead) are still in the
    /// client's buffer; the handle stays open.
    ReadAheadMsgs = 2458, "MQRC_READ_AHEAD_MSGS", Warning,
        "messages read ahead are still buffered for this handle: get them first, or close without MQCO_QUIESCE to discard them";
    /// The selection string is not a valid selector.
    SelectorSyntaxError = 2459, "MQRC_SELECTOR_SYNTAX_ERROR", Failed,
        "the selection string is not a valid message selector; check its syntax";
    /// Subscriptions are inhibited on this topic (SUB(DISABLED)).
    SubInhibited = 2503, "MQRC_SUB_INHIBITED", Failed,
        "subscriptions are inhibited on this topic (SUB(DISABLED)); try later";
    /// A selection string where none may be given (not a queue, or not opened to get or browse).
    SelectorInvalidForType = 2516, "MQRC_SELECTOR_INVALID_FOR_TYPE", Failed,
        "a selection string is only for a queue opened to get or browse (MQOO_INPUT_* or MQOO_BROWSE); remove it or open the queue for input";
    /// The selection string's MQCHARV is not usable or too long.
    SelectionStringError = 2519, "MQRC_SELECTION_STRING_ERROR", Failed,
        "the selection string is not usable (its MQCHARV is inconsistent or it is longer than MQ_SELECTOR_LENGTH, 10240); correct it";
    /// MQSO_ALTER would change a subscription's durability.
    DurabilityNotAlterable = 2509, "MQRC_DURABILITY_NOT_ALTERABLE", Failed,
        "a subscription's durability cannot be altered; remove it and subscribe again";
    /// MQSO_ALTER would change the topic subscribed to (ObjectName, ObjectString, wildcards).
    TopicNotAlterable = 2510, "MQRC_TOPIC_NOT_ALTERABLE", Failed,
        "the topic of a subscription (topic object, topic string, wildcard scheme) cannot be altered; remove it and subscribe again";
    /// MQSO_ALTER (or ALTER SUB) would change a subscription's level.
    SublevelNotAlterable = 2512, "MQRC_SUBLEVEL_NOT_ALTERABLE", Failed,
        "a subscription's level (SubLevel) cannot be altered; remove it and subscribe again at the new level";
    /// MQSO_ALTER with a selection string.
    SelectorNotAlterable = 2524, "MQRC_SELECTOR_NOT_ALTERABLE", Failed,
        "a subscription's selector cannot be altered; leave SelectionString empty with MQSO_ALTER";
    /// The subscription's destination cannot be used (a missing model or queue).
    InvalidDestination = 2522, "MQRC_INVALID_DESTINATION", Failed,
        "the subscription's destination cannot be used: the model queue (MNDURMDL/MDURMDL) or the named queue is missing, or a durable subscription names a temporary queue";
    /// An administrator ended this connection (STOP CONN).
    ConnectionStopped = 2528, "MQRC_CONNECTION_STOPPED", Failed,
        "an administrator stopped this connection (STOP CONN); reconnect to carry on";
    /// The channel is not available: stopped, not defined at the partner, or already running.
    ChannelNotAvailable = 2537, "MQRC_CHANNEL_NOT_AVAILABLE", Failed,
        "the channel is not available: it is stopped, not defined at its partner, or already running";
    /// The partner queue manager could not be reached.
    HostNotAvailable = 2538, "MQRC_HOST_NOT_AVAILABLE", Failed,
        "the partner queue manager could not be reached at the channel's CONNAME; the channel retries";
    /// Reconnection failed (automatic reconnect gave up).
    ReconnectFailed = 2548, "MQRC_RECONNECT_FAILED", Failed,
        "automatic reconnection gave up; reconnect by hand when the queue manager is back";
    /// A call was cut short by a lost connection that was then re-established.
    CallInterrupted = 2549, "MQRC_CALL_INTERRUPTED", Failed,
        "the connection was lost during this call and re-established; the call may or may not have taken effect, so check before repeating it";
    /// START LISTENER for a listener already running (PCF's MQRCCF_LISTENER_STARTED).
    ListenerStarted = 3233, "MQRCCF_LISTENER_STARTED", Failed,
        "the listener is already running; stop it first to start it with new attributes";
    /// STOP LISTENER for a listener not running (PCF's MQRCCF_LISTENER_STOPPED).
    ListenerStopped = 3234, "MQRCCF_LISTENER_STOPPED", Failed,
        "the listener is not running";
    /// The operation needs the listener stopped (PCF's MQRCCF_LISTENER_RUNNING).
    ListenerRunning = 3249, "MQRCCF_LISTENER_RUNNING", Failed,
        "the listener is running; stop it first (STOP LISTENER)";
    /// START CHANNEL for an MQTT channel already running (PCF's MQRCCF_CHANNEL_IN_USE).
    ChannelInUse = 4031, "MQRCCF_CHANNEL_IN_USE", Failed,
        "the channel is already running; stop it first (STOP CHANNEL) to start it again";
    /// STOP CHANNEL for an MQTT channel not running (PCF's MQRCCF_CHANNEL_NOT_ACTIVE).
    ChannelNotActive = 4064, "MQRCCF_CHANNEL_NOT_ACTIVE", Failed,
        "the channel is not running; nothing to stop";
    /// The message expired while the queue manager held it.
    MsgExpired = 6001, "FERRY_RC_MSG_EXPIRED", Failed,
        "the message expired before it could be delivered";
    /// A queue manager name or data directory problem.
    QMgrDataError = 6002, "FERRY_RC_QMGR_DATA_ERROR", Failed,
        "the queue manager's data directory is missing, damaged or in use by another process";
    /// An attribute value is out of range.
    AttributeValueError = 6003, "FERRY_RC_ATTRIBUTE_VALUE_ERROR", Failed,
        "an attribute value is out of its allowed range";
    /// The configuration has an unknown key or a bad value.
    ConfigError = 6004, "FERRY_RC_CONFIG_ERROR", Failed,
        "the configuration (qm.toml, FERRY_<SECTION>_<KEY> environment variables or --set) has an unknown key or a bad value; 'ferry qm check' shows it";
    /// Channel sequence numbers differ by more than one in-doubt batch.
    ChannelSeqNumError = 6005, "FERRY_RC_CHANNEL_SEQUENCE_ERROR", Failed,
        "the two ends of the channel disagree about the last batch; RESET CHANNEL at the sender (the message says to which number)";
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.code())
    }
}

/// A failed (or warned) call: a stable reason plus the specifics a person needs to act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqError {
    /// The stable reason code.
    pub reason: Reason,
    /// The specific sentence, e.g. "queue APP.IN is full (MAXDEPTH 5000)".
    pub detail: String,
    /// For `TruncatedMsgFailed`: the full length of the message left on the queue (MQ's
    /// DataLength on that reason); otherwise 0.
    pub data_length: usize,
}

impl MqError {
    /// A reason with a specific sentence.
    pub fn new(reason: Reason, detail: impl Into<String>) -> Self {
        MqError {
            reason,
            detail: detail.into(),
            data_length: 0,
        }
    }

    /// A reason with its generic sentence only.
    pub fn bare(reason: Reason) -> Self {
        MqError {
            reason,
            detail: String::new(),
            data_length: 0,
        }
    }

    /// The completion code that goes with the reason.
    pub fn completion(&self) -> CompletionCode {
        self.reason.completion()
    }
}

impl From<Reason> for MqError {
    fn from(reason: Reason) -> Self {
        MqError::bare(reason)
    }
}

impl fmt::Display for MqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() {
            write!(f, "{}: {}", self.reason, self.reason.sentence())
        } else {
            write!(
                f,
                "{}: {} ({})",
                self.reason,
                self.detail,
                self.reason.sentence()
            )
        }
    }
}

impl std::error::Error for MqError {}

/// Result alias used across the engine.
pub type MqResult<T> = Result<T, MqError>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn numbers_and_names_are_unique_and_round_trip() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for r in Reason::ALL {
            assert!(codes.insert(r.code()), "duplicate code {}", r.code());
            assert!(names.insert(r.name()), "duplicate name {}", r.name());
            assert_eq!(Reason::from_code(r.code()), Some(*r));
            assert!(!r.sentence().is_empty());
        }
    }

    #[test]
    fn ibm_numbers_are_kept_where_the_concept_is_the_same() {
        assert_eq!(Reason::NoMsgAvailable.code(), 2033);
        assert_eq!(Reason::QFull.code(), 2053);
        assert_eq!(Reason::UnknownObjectName.code(), 2085);
        assert_eq!(Reason::MsgTooBigForQ.code(), 2030);
        assert_eq!(Reason::TruncatedMsgFailed.code(), 2080);
    }

    #[test]
    fn error_display_names_reason_detail_and_advice() {
        let e = MqError::new(Reason::QFull, "queue APP.IN is full (MAXDEPTH 5000)");
        let s = e.to_string();
        assert!(s.contains("MQRC_Q_FULL (2053)"));
        assert!(s.contains("APP.IN"));
        assert!(s.contains("raise MAXDEPTH"));
    }
}
