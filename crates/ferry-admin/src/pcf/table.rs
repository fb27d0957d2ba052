//! One table between the two encodings of an object's attributes: the MQSC keyword DISPLAY
//! shows and DEFINE/ALTER take, and the PCF parameter (MQIA_*/MQCA_*/MQIACF_*/MQIACH_*/MQCACH_*
//! identifier, integer or string, and for integers the number of each MQSC word). Written from
//! MQ's public reference (the PCF command and response pages, the constants pages).
//!
//! Invariant: within one object kind, a keyword appears once, and an identifier once except
//! for the bare keywords of one attribute (SHARE/NOSHARE), whose rows differ in value.

/// The object kinds whose attributes PCF carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Obj {
    Queue,
    QMgr,
    QmStatus,
    QStatus,
    Channel,
    ChStatus,
    Topic,
    Sub,
    QStats,
    Listener,
    LsStatus,
    Namelist,
    Process,
    AuthRec,
    EntAuth,
    Conn,
}

/// How a parameter is carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    /// MQCFST, blank-padded to this length in responses (MQ's field length).
    Str(usize),
    /// MQCFIN, a number.
    Int,
    /// MQCFIN, one of these MQSC words.
    Enum(&'static [(i32, &'static str)]),
    /// MQCFIN with this value, shown in MQSC as the bare keyword of the row.
    Flag(i32),
    /// MQCFSL, each string blank-padded to this length (MQSC: a comma-separated list).
    StrList(usize),
    /// MQCFIL of these words' numbers (MQSC: a comma-separated list of the words).
    EnumList(&'static [(i32, &'static str)]),
    /// MQCFBS from MQSC's hexadecimal text (a connection id: EXTCONN then CONN).
    Hex,
}

/// MQQSO_NO and MQQSO_YES (handle status).
const YES_NO: &[(i32, &str)] = &[(0, "NO"), (1, "YES")];

/// MQAUTH_* and the MQSC words of AUTHADD, AUTHRMV and AUTHLIST.
pub(crate) const AUTHS: &[(i32, &str)] = &[
    (0, "NONE"),
    (1, "ALTUSR"),
    (2, "BROWSE"),
    (3, "CHG"),
    (4, "CLR"),
    (5, "CONNECT"),
    (6, "CRT"),
    (7, "DLT"),
    (8, "DSP"),
    (9, "GET"),
    (10, "INQ"),
    (11, "PUT"),
    (12, "PASSALL"),
    (13, "PASSID"),
    (14, "SET"),
    (15, "SETALL"),
    (16, "SETID"),
    (17, "CTRL"),
    (18, "CTRLX"),
    (19, "PUB"),
    (20, "SUB"),
    (21, "RESUME"),
    (22, "SYSTEM"),
    (-1, "ALL"),
    (-2, "ALLADM"),
    (-3, "ALLMQI"),
];

/// MQOT_* and the MQSC words of an authority record's OBJTYPE.
pub(crate) const OBJ_TYPES: &[(i32, &str)] = &[
    (1, "QUEUE"),
    (2, "NAMELIST"),
    (3, "PROCESS"),
    (5, "QMGR"),
    (6, "CHANNEL"),
    (7, "AUTHINFO"),
    (8, "TOPIC"),
    (9, "COMMINFO"),
    (11, "LISTENER"),
    (12, "SERVICE"),
    (1014, "CLNTCONN"),
    (1017, "RQMNAME"),
];

/// Enumerations that also take numbers outside their words (APPLTYPE: user-defined types).
pub(crate) const OPEN_ENUMS: &[&str] = &["APPLTYPE"];

#[derive(Debug)]
pub(crate) struct Row {
    pub obj: Obj,
    pub key: &'static str,
    pub id: i32,
    pub ty: Ty,
}

const fn row(obj: Obj, key: &'static str, id: i32, ty: Ty) -> Row {
    Row { obj, key, id, ty }
}

use Obj::*;
use Ty::*;

const ENABLED_INHIBIT: &[(i32, &str)] = &[(0, "ENABLED"), (1, "DISABLED")];
const NO_YES: &[(i32, &str)] = &[(0, "NO"), (1, "YES")];
const DISABLED_ENABLED: &[(i32, &str)] = &[(0, "DISABLED"), (1, "ENABLED")];
/// MQEVR_*, with MQEVR_NO_DISPLAY (CMDEV).
const DISABLED_ENABLED_NODISPLAY: &[(i32, &str)] =
    &[(0, "DISABLED"), (1, "ENABLED"), (2, "NODISPLAY")];
pub(crate) const Q_TYPES: &[(i32, &str)] = &[
    (1, "QLOCAL"),
    (2, "QMODEL"),
    (3, "QALIAS"),
    (6, "QREMOTE"),
    (7, "QCLUSTER"),
];
pub(crate) const CHANNEL_TYPES: &[(i32, &str)] = &[
    (1, "SDR"),
    (2, "SVR"),
    (3, "RCVR"),
    (4, "RQSTR"),
    (6, "CLNTCONN"),
    (7, "SVRCONN"),
    (8, "CLUSRCVR"),
    (9, "CLUSSDR"),
    (10, "MQTT"),
];
const CHANNEL_STATUS: &[(i32, &str)] = &[
    (0, "INACTIVE"),
    (1, "BINDING"),
    (2, "STARTING"),
    (3, "RUNNING"),
    (4, "STOPPING"),
    (5, "RETRYING"),
    (6, "STOPPED"),
    (7, "REQUESTING"),
    (8, "PAUSED"),
    (9, "DISCONNECTED"),
    (13, "INITIALIZING"),
    (14, "SWITCHING"),
];
const DELIVERY: &[(i32, &str)] = &[(0, "ASPARENT"), (1, "ALL"), (2, "ALLDUR"), (3, "ALLAVAIL")];

pub(crate) static ROWS: &[Row] = &[
    // Queues (Inquire Queue, Create/Change/Copy Queue).
    row(Queue, "QUEUE", 2016, Str(48)),
    row(Queue, "TYPE", 20, Enum(Q_TYPES)),
    row(Queue, "DESCR", 2013, Str(64)),
    row(Queue, "PUT", 10, Enum(ENABLED_INHIBIT)),
    row(Queue, "GET", 9, Enum(ENABLED_INHIBIT)),
    row(Queue, "DEFPRTY", 6, Int),
    row(Queue, "DEFPSIST", 5, Enum(NO_YES)),
    row(Queue, "DEFPRESP", 184, Enum(&[(1, "SYNC"), (2, "ASYNC")])),
    row(
        Queue,
        "DEFREADA",
        188,
        Enum(&[(0, "NO"), (1, "YES"), (2, "DISABLED")]),
    ),
    row(Queue, "MAXDEPTH", 15, Int),
    row(Queue, "MAXMSGL", 13, Int),
    row(Queue, "SHARE", 23, Flag(1)),
    row(Queue, "NOSHARE", 23, Flag(0)),
    row(Queue, "TRIGGER", 24, Flag(1)),
    row(Queue, "NOTRIGGER", 24, Flag(0)),
    row(
        Queue,
        "TRIGTYPE",
        28,
        Enum(&[(0, "NONE"), (1, "FIRST"), (2, "EVERY"), (3, "DEPTH")]),
    ),
    row(Queue, "TRIGDPTH", 29, Int),
    row(Queue, "TRIGMPRI", 26, Int),
    row(Queue, "TRIGDATA", 2023, Str(64)),
    row(Queue, "INITQ", 2008, Str(48)),
    row(Queue, "PROCESS", 2012, Str(48)),
    row(Queue, "DEFSOPT", 4, Enum(&[(2, "SHARED"), (4, "EXCL")])),
    row(Queue, "MSGDLVSQ", 16, Enum(&[(0, "PRIORITY"), (1, "FIFO")])),
    row(Queue, "BOTHRESH", 22, Int),
    row(Queue, "BOQNAME", 2019, Str(48)),
    row(Queue, "HARDENBO", 8, Flag(1)),
    row(Queue, "NOHARDENBO", 8, Flag(0)),
    row(Queue, "USAGE", 12, Enum(&[(0, "NORMAL"), (1, "XMITQ")])),
    row(Queue, "QDEPTHHI", 40, Int),
    row(Queue, "QDEPTHLO", 41, Int),
    row(Queue, "QDPMAXEV", 42, Enum(DISABLED_ENABLED)),
    row(Queue, "QDPHIEV", 43, Enum(DISABLED_ENABLED)),
    row(Queue, "QDPLOEV", 44, Enum(DISABLED_ENABLED)),
    row(
        Queue,
        "QSVCIEV",
        46,
        Enum(&[(0, "NONE"), (1, "HIGH"), (2, "OK")]),
    ),
    row(Queue, "QSVCINT", 54, Int),
    row(
        Queue,
        "STATQ",
        128,
        Enum(&[(-3, "QMGR"), (0, "OFF"), (1, "ON")]),
    ),
    row(
        Queue,
        "ACCTQ",
        134,
        Enum(&[(-3, "QMGR"), (0, "OFF"), (1, "ON")]),
    ),
    row(
        Queue,
        "DEFTYPE",
        7,
        Enum(&[
            (1, "PREDEFINED"),
            (2, "PERMDYN"),
            (3, "TEMPDYN"),
            (4, "SHAREDYN"),
        ]),
    ),
    row(Queue, "CURDEPTH", 3, Int),
    row(Queue, "IPPROCS", 17, Int),
    row(Queue, "OPPROCS", 18, Int),
    row(Queue, "TARGET", 2002, Str(48)),
    row(Queue, "TARGTYPE", 193, Enum(&[(1, "QUEUE"), (8, "TOPIC")])),
    row(Queue, "RNAME", 2018, Str(48)),
    row(Queue, "RQMNAME", 2017, Str(48)),
    row(Queue, "XMITQ", 2024, Str(48)),
    row(Queue, "CRDATE", 2004, Str(12)),
    row(Queue, "CRTIME", 2005, Str(8)),
    row(Queue, "ALTDATE", 2027, Str(12)),
    row(Queue, "ALTTIME", 2028, Str(8)),
    // The queue manager (Inquire Queue Manager, Change Queue Manager).
    row(QMgr, "QMNAME", 2015, Str(48)),
    row(QMgr, "DESCR", 2014, Str(64)),
    row(QMgr, "DEADQ", 2006, Str(48)),
    row(QMgr, "MAXMSGL", 13, Int),
    row(QMgr, "MAXUMSGS", 33, Int),
    row(QMgr, "MAXHANDS", 11, Int),
    row(QMgr, "DEFXMITQ", 2025, Str(48)),
    row(QMgr, "CONNAUTH", 2125, Str(48)),
    row(QMgr, "CHLAUTH", 248, Enum(DISABLED_ENABLED)),
    row(QMgr, "AUTHOREV", 47, Enum(DISABLED_ENABLED)),
    row(QMgr, "PERFMEV", 53, Enum(DISABLED_ENABLED)),
    row(QMgr, "CMDEV", 99, Enum(DISABLED_ENABLED_NODISPLAY)),
    row(QMgr, "STATMQI", 127, Enum(&[(0, "OFF"), (1, "ON")])),
    row(
        QMgr,
        "STATQ",
        128,
        Enum(&[(0, "OFF"), (1, "ON"), (-1, "NONE")]),
    ),
    row(QMgr, "STATINT", 131, Int),
    row(QMgr, "ACCTMQI", 133, Enum(&[(0, "OFF"), (1, "ON")])),
    row(
        QMgr,
        "ACCTQ",
        134,
        Enum(&[(0, "OFF"), (1, "ON"), (-1, "NONE")]),
    ),
    row(QMgr, "ACCTINT", 135, Int),
    row(QMgr, "SCMDSERV", 120, Enum(&[(0, "QMGR"), (1, "MANUAL")])),
    row(
        QMgr,
        "CHLEV",
        73,
        Enum(&[(0, "DISABLED"), (1, "ENABLED"), (2, "EXCEPTION")]),
    ),
    row(QMgr, "PLATFORM", 32, Enum(&[(3, "UNIX")])),
    row(QMgr, "CMDLEVEL", 31, Int),
    row(QMgr, "CCSID", 2, Int),
    row(QMgr, "COMMANDQ", 2003, Str(48)),
    row(QMgr, "MAXPRTY", 14, Int),
    row(QMgr, "CRDATE", 2004, Str(12)),
    row(QMgr, "CRTIME", 2005, Str(8)),
    row(QMgr, "ALTDATE", 2027, Str(12)),
    row(QMgr, "ALTTIME", 2028, Str(8)),
    // Queue manager status (Inquire Queue Manager Status).
    row(QmStatus, "QMNAME", 2015, Str(48)),
    row(
        QmStatus,
        "STATUS",
        1149,
        Enum(&[(1, "STARTING"), (2, "RUNNING"), (3, "QUIESCING")]),
    ),
    row(QmStatus, "STARTDA", 3175, Str(12)),
    row(QmStatus, "STARTTI", 3176, Str(8)),
    row(QmStatus, "CONNS", 1230, Int),
    row(
        QmStatus,
        "CMDSERV",
        1233,
        Enum(&[
            (0, "STOPPED"),
            (1, "STARTING"),
            (2, "RUNNING"),
            (3, "STOPPING"),
        ]),
    ),
    // Reset Queue Statistics' answer.
    row(QStats, "QUEUE", 2016, Str(48)),
    row(QStats, "MSGSIN", 37, Int),
    row(QStats, "MSGSOUT", 38, Int),
    row(QStats, "HIQDEPTH", 36, Int),
    row(QStats, "TIMESINCE", 35, Int),
    // Queue status (Inquire Queue Status, MQIACF_Q_STATUS).
    row(QStatus, "QUEUE", 2016, Str(48)),
    row(QStatus, "CURDEPTH", 3, Int),
    row(QStatus, "IPPROCS", 17, Int),
    row(QStatus, "OPPROCS", 18, Int),
    row(QStatus, "UNCOM", 1027, Int),
    row(QStatus, "LGETDATE", 3130, Str(12)),
    row(QStatus, "LGETTIME", 3131, Str(8)),
    row(QStatus, "LPUTDATE", 3128, Str(12)),
    row(QStatus, "LPUTTIME", 3129, Str(8)),
    row(QStatus, "MSGAGE", 1227, Int),
    // Handle status (Inquire Queue Status with MQIACF_Q_STATUS_TYPE MQIACF_Q_HANDLE).
    row(
        QStatus,
        "TYPE",
        1103,
        Enum(&[(1105, "QUEUE"), (1104, "HANDLE")]),
    ),
    row(QStatus, "CONN", 7006, Hex),
    row(QStatus, "APPLTAG", 3058, Str(28)),
    row(QStatus, "USERID", 3025, Str(12)),
    row(
        QStatus,
        "INPUT",
        1098,
        Enum(&[(0, "NO"), (1, "SHARED"), (2, "EXCLUSIVE")]),
    ),
    row(QStatus, "OUTPUT", 1099, Enum(YES_NO)),
    row(QStatus, "SET", 1100, Enum(YES_NO)),
    row(QStatus, "INQUIRE", 1101, Enum(YES_NO)),
    row(QStatus, "BROWSE", 1102, Enum(YES_NO)),
    // Channels (Inquire Channel, Create/Change Channel).
    row(Channel, "CHANNEL", 3501, Str(20)),
    row(Channel, "CHLTYPE", 1511, Enum(CHANNEL_TYPES)),
    row(Channel, "DESCR", 3502, Str(64)),
    row(Channel, "CONNAME", 3506, Str(264)),
    row(Channel, "XMITQ", 3505, Str(48)),
    row(Channel, "BATCHSZ", 1502, Int),
    row(Channel, "BATCHINT", 1564, Int),
    row(Channel, "BATCHLIM", 1624, Int),
    row(Channel, "DISCINT", 1503, Int),
    row(Channel, "HBINT", 1563, Int),
    row(Channel, "SHORTRTY", 1505, Int),
    row(Channel, "SHORTTMR", 1504, Int),
    row(Channel, "LONGRTY", 1507, Int),
    row(Channel, "LONGTMR", 1506, Int),
    row(Channel, "MCAUSER", 3527, Str(64)),
    row(Channel, "MAXMSGL", 1510, Int),
    row(Channel, "MAXINST", 1618, Int),
    row(Channel, "MAXINSTC", 1619, Int),
    row(Channel, "SHARECNV", 1615, Int),
    row(Channel, "SSLCIPH", 3544, Str(32)),
    row(Channel, "SSLPEER", 3545, Str(1024)),
    row(Channel, "TRPTYPE", 1501, Enum(&[(2, "TCP"), (100, "QUIC")])),
    // MQTT channels (MQCHT_MQTT); MQTTV5 (5) is FerryMQ's.
    row(Channel, "PORT", 1522, Int),
    row(Channel, "LOCLADDR", 3520, Str(48)),
    row(Channel, "BACKLOG", 1602, Int),
    row(
        Channel,
        "PROTOCOL",
        1643,
        EnumList(&[(1, "MQTTV3"), (2, "HTTP"), (4, "MQTTV311"), (5, "MQTTV5")]),
    ),
    row(
        Channel,
        "SSLCAUTH",
        1568,
        Enum(&[(0, "REQUIRED"), (1, "OPTIONAL"), (2, "NEVER")]),
    ),
    row(Channel, "USECLTID", 1629, Enum(NO_YES)),
    // Channel status (Inquire Channel Status).
    row(ChStatus, "CHANNEL", 3501, Str(20)),
    row(ChStatus, "CHLTYPE", 1511, Enum(CHANNEL_TYPES)),
    row(ChStatus, "CONNAME", 3506, Str(264)),
    row(ChStatus, "XMITQ", 3505, Str(48)),
    row(ChStatus, "LOCLADDR", 3520, Str(48)),
    row(ChStatus, "STATUS", 1527, Enum(CHANNEL_STATUS)),
    row(ChStatus, "MSGS", 1534, Int),
    row(ChStatus, "BATCHES", 1537, Int),
    row(ChStatus, "STARTDA", 3529, Str(12)),
    row(ChStatus, "STARTTI", 3528, Str(8)),
    row(ChStatus, "LSTMSGDA", 3525, Str(12)),
    row(ChStatus, "LSTMSGTI", 3524, Str(8)),
    row(ChStatus, "RQMNAME", 2017, Str(48)),
    row(ChStatus, "MCAUSER", 3527, Str(64)),
    // MQTT clients (Inquire Channel Status, ChannelType MQCHT_MQTT).
    row(ChStatus, "CONNECTIONS", 1230, Int),
    row(ChStatus, "CLIENTID", 3564, Str(256)),
    row(ChStatus, "CLNTUSER", 3567, Str(64)),
    row(ChStatus, "KAINT", 1630, Int),
    row(ChStatus, "MSGSNT", 1633, Int),
    row(ChStatus, "MSGRCVD", 1634, Int),
    row(ChStatus, "INDOUBTIN", 1631, Int),
    row(ChStatus, "INDOUBTOUT", 1632, Int),
    row(ChStatus, "PENDING", 1635, Int),
    // MQPROTO_MQTTV3 and MQTTV311 are MQ's; MQTTV5 (5, its protocol level) is FerryMQ's.
    row(
        ChStatus,
        "PROTOCOL",
        1643,
        Enum(&[(1, "MQTTV3"), (4, "MQTTV311"), (5, "MQTTV5")]),
    ),
    // (CHLSDATE/CHLSTIME and LMSGDATE/LMSGTIME, the MQTT form's names for the ids of
    // STARTDA/STARTTI and LSTMSGDA/LSTMSGTI above, have no rows: an identifier has one row,
    // so PCF's MQTT responses leave them out.)
    // Topics (Inquire Topic).
    row(Topic, "TOPIC", 2092, Str(48)),
    row(Topic, "TOPICSTR", 2094, Str(10240)),
    row(Topic, "DESCR", 2093, Str(64)),
    row(
        Topic,
        "DURSUB",
        175,
        Enum(&[(0, "ASPARENT"), (1, "YES"), (2, "NO")]),
    ),
    row(
        Topic,
        "PUB",
        181,
        Enum(&[(0, "ASPARENT"), (1, "DISABLED"), (2, "ENABLED")]),
    ),
    row(
        Topic,
        "SUB",
        182,
        Enum(&[(0, "ASPARENT"), (1, "DISABLED"), (2, "ENABLED")]),
    ),
    row(
        Topic,
        "DEFPSIST",
        185,
        Enum(&[(-1, "ASPARENT"), (0, "NO"), (1, "YES")]),
    ),
    row(Topic, "PMSGDLV", 195, Enum(DELIVERY)),
    row(Topic, "NPMSGDLV", 196, Enum(DELIVERY)),
    row(Topic, "MDURMDL", 2096, Str(48)),
    row(
        Topic,
        "WILDCARD",
        216,
        Enum(&[(1, "BLOCK"), (2, "PASSTHRU")]),
    ),
    row(Topic, "MNDURMDL", 2097, Str(48)),
    row(
        Topic,
        "USEDLQ",
        234,
        Enum(&[(0, "ASPARENT"), (1, "NO"), (2, "YES")]),
    ),
    // Subscriptions (Inquire Subscription).
    row(Sub, "SUB", 3152, Str(10240)),
    row(Sub, "TOPICSTR", 2094, Str(10240)),
    row(Sub, "DEST", 3154, Str(48)),
    row(Sub, "DURABLE", 1274, Enum(&[(1, "YES"), (2, "NO")])),
    row(Sub, "SUBUSER", 3156, Str(12)),
    row(Sub, "USERDATA", 3159, Str(10240)),
    row(Sub, "SELECTOR", 3160, Str(10240)),
    row(Sub, "WSCHEMA", 1288, Enum(&[(1, "CHAR"), (2, "TOPIC")])),
    // Namelists (Inquire/Create/Change/Copy/Delete Namelist).
    row(Namelist, "NAMELIST", 2010, Str(48)),
    row(Namelist, "NAMCOUNT", 19, Int),
    row(Namelist, "NAMES", 2020, StrList(48)),
    row(
        Namelist,
        "NLTYPE",
        72,
        Enum(&[(0, "NONE"), (1, "QUEUE"), (2, "CLUSTER"), (4, "AUTHINFO")]),
    ),
    row(Namelist, "DESCR", 2009, Str(64)),
    row(Namelist, "ALTDATE", 2027, Str(12)),
    row(Namelist, "ALTTIME", 2028, Str(8)),
    // Process definitions (Inquire/Create/Change/Copy/Delete Process).
    row(Process, "PROCESS", 2012, Str(48)),
    row(
        Process,
        "APPLTYPE",
        1,
        Enum(ferry_model::objects::APPL_TYPES),
    ),
    row(Process, "APPLICID", 2001, Str(256)),
    row(Process, "ENVRDATA", 2007, Str(128)),
    row(Process, "USERDATA", 2021, Str(128)),
    row(Process, "DESCR", 2011, Str(64)),
    row(Process, "ALTDATE", 2027, Str(12)),
    row(Process, "ALTTIME", 2028, Str(8)),
    // Authority records (Inquire Authority Records, Inquire Entity Authority).
    row(AuthRec, "PROFILE", 3067, Str(48)),
    row(AuthRec, "ENTITY", 3068, Str(1024)),
    row(
        AuthRec,
        "ENTTYPE",
        1118,
        Enum(&[(1, "PRINCIPAL"), (2, "GROUP")]),
    ),
    row(AuthRec, "OBJTYPE", 1016, Enum(OBJ_TYPES)),
    row(AuthRec, "AUTHLIST", 1115, EnumList(AUTHS)),
    row(EntAuth, "ENTITY", 3068, Str(1024)),
    row(
        EntAuth,
        "ENTTYPE",
        1118,
        Enum(&[(1, "PRINCIPAL"), (2, "GROUP")]),
    ),
    row(EntAuth, "OBJNAME", 3046, Str(48)),
    row(EntAuth, "OBJTYPE", 1016, Enum(OBJ_TYPES)),
    row(EntAuth, "AUTHLIST", 1115, EnumList(AUTHS)),
    // Connections (Inquire Connection): the connection and, with TYPE(HANDLE), its handles.
    row(Conn, "CONN", 7006, Hex),
    row(
        Conn,
        "TYPE",
        1110,
        Enum(&[(1111, "CONN"), (1112, "HANDLE")]),
    ),
    row(Conn, "APPLTAG", 3058, Str(28)),
    row(Conn, "CONNAME", 3506, Str(264)),
    row(Conn, "USERID", 3025, Str(12)),
    row(Conn, "UOWSTATE", 1128, Enum(&[(0, "NONE"), (1, "ACTIVE")])),
    row(Conn, "OBJNAME", 3046, Str(48)),
    row(Conn, "OBJTYPE", 1016, Enum(OBJ_TYPES)),
    // Listeners (Inquire/Create/Change/Copy/Delete Listener) and their status.
    row(Listener, "LISTENER", 3554, Str(48)),
    row(Listener, "TRPTYPE", 1501, Enum(&[(2, "TCP")])),
    row(Listener, "PORT", 1522, Int),
    row(Listener, "IPADDR", 3552, Str(48)),
    row(
        Listener,
        "CONTROL",
        1601,
        Enum(&[(2, "MANUAL"), (0, "QMGR")]),
    ),
    row(Listener, "BACKLOG", 1602, Int),
    row(Listener, "DESCR", 3555, Str(64)),
    row(LsStatus, "LISTENER", 3554, Str(48)),
    row(
        LsStatus,
        "STATUS",
        1599,
        Enum(&[(2, "RUNNING"), (0, "STOPPED")]),
    ),
    row(LsStatus, "IPADDR", 3552, Str(48)),
    row(LsStatus, "PORT", 1522, Int),
    row(LsStatus, "STARTDA", 3556, Str(12)),
    row(LsStatus, "STARTTI", 3557, Str(8)),
];

/// The row for an MQSC keyword of an object kind.
pub(crate) fn by_key(obj: Obj, key: &str) -> Option<&'static Row> {
    ROWS.iter().find(|r| r.obj == obj && r.key == key)
}

/// The row for a PCF parameter of an object kind, with `value` choosing among bare keywords.
pub(crate) fn by_id(obj: Obj, id: i32, value: Option<i32>) -> Option<&'static Row> {
    let mut rows = ROWS.iter().filter(|r| r.obj == obj && r.id == id);
    rows.find(|r| match (r.ty, value) {
        (Flag(v), Some(x)) => v == x,
        _ => true,
    })
}

/// The number of an MQSC word in an enumeration.
pub(crate) fn number(words: &[(i32, &str)], word: &str) -> Option<i32> {
    words.iter().find(|(_, w)| *w == word).map(|(n, _)| *n)
}

/// The MQSC word of a number in an enumeration.
pub(crate) fn word(words: &[(i32, &'static str)], n: i32) -> Option<&'static str> {
    words.iter().find(|(v, _)| *v == n).map(|(_, w)| *w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyword_is_in_an_object_kinds_rows_once_and_an_identifier_once_but_for_flags() {
        for (i, a) in ROWS.iter().enumerate() {
            for b in &ROWS[i + 1..] {
                if a.obj != b.obj {
                    continue;
                }
                assert_ne!(a.key, b.key, "{:?} {} twice", a.obj, a.key);
                if a.id == b.id {
                    assert!(
                        matches!((a.ty, b.ty), (Flag(x), Flag(y)) if x != y),
                        "{:?}: {} and {} share {}",
                        a.obj,
                        a.key,
                        b.key,
                        a.id
                    );
                }
            }
        }
    }
}
