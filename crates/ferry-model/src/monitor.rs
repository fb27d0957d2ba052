//! MQ's resource-monitoring publications (`$SYS/MQ/INFO/QMGR/<qmgr>/Monitor/...`), as IBM's
//! amqsrua sample and the mq-golang collectors (mq_prometheus) discover and read them
//! (docs/sysmon-research.md has the sources).
//!
//! Three levels of retained metadata — `METADATA/CLASSES`, `METADATA/<CLASS>/TYPES`,
//! `METADATA/<CLASS>/<TYPE>` — each naming the next topic in an MQCA_TOPIC_STRING, and the
//! last naming the data topic (`Monitor/<CLASS>/<TYPE>`, or `Monitor/STATQ/%s/<TYPE>` for a
//! queue). Every message is a PCF body (MQCFH, then MQCFIN / MQCFIN64 / MQCFST / MQCFGR
//! structures, native encoding, strings in CCSID 1208), format MQADMIN. Data values are
//! MQCFIN64 whose parameter is the element id. The groups hold exactly the parameters MQ's
//! consumers accept (mq-golang refuses any other inside a group).
//!
//! FerryMQ publishes the classes, types and elements it measures, with MQ's ids and
//! descriptions (so dashboards keyed on them work): STATMQI CONNDISC, OPENCLOSE, INQSET, PUT,
//! GET, SYNCPOINT, SUBSCRIBE and PUBLISH, and STATQ
//! PUT, GET and GENERAL; and, where the host can measure them ([`HOST_CLASSES`]), CPU
//! SystemSummary and QMgrSummary and DISK QMgrSummary and Log.

/// MQIAMO_MONITOR_CLASS.
pub const IAMO_MONITOR_CLASS: i32 = 839;
/// MQIAMO_MONITOR_TYPE.
pub const IAMO_MONITOR_TYPE: i32 = 840;
/// MQIAMO_MONITOR_ELEMENT.
pub const IAMO_MONITOR_ELEMENT: i32 = 841;
/// MQIAMO_MONITOR_DATATYPE.
pub const IAMO_MONITOR_DATATYPE: i32 = 842;
/// MQIAMO_MONITOR_FLAGS.
pub const IAMO_MONITOR_FLAGS: i32 = 843;
/// MQIAMO64_MONITOR_INTERVAL (microseconds).
pub const IAMO64_MONITOR_INTERVAL: i32 = 845;
/// MQCAMO_MONITOR_CLASS.
pub const CAMO_MONITOR_CLASS: i32 = 2713;
/// MQCAMO_MONITOR_TYPE.
pub const CAMO_MONITOR_TYPE: i32 = 2714;
/// MQCAMO_MONITOR_DESC.
pub const CAMO_MONITOR_DESC: i32 = 2715;
/// MQGACF_MONITOR_CLASS.
pub const GACF_MONITOR_CLASS: i32 = 8015;
/// MQGACF_MONITOR_TYPE.
pub const GACF_MONITOR_TYPE: i32 = 8016;
/// MQGACF_MONITOR_ELEMENT.
pub const GACF_MONITOR_ELEMENT: i32 = 8017;
/// MQCA_TOPIC_STRING.
pub const CA_TOPIC_STRING: i32 = 2094;
/// MQIAMO_MONITOR_FLAGS_OBJNAME: the class's data topics carry an object name.
pub const FLAGS_OBJNAME: i32 = 1;
/// MQCFT_STATISTICS, the header type of the publications.
pub const CFT_STATISTICS: i32 = 21;

/// How a value is to be read (MQIAMO_MONITOR_DATATYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataType {
    /// A value at the time of capture (MQIAMO_MONITOR_UNIT).
    Unit = 1,
    /// The change over the interval (MQIAMO_MONITOR_DELTA).
    Delta = 2,
    /// Hundredths (MQIAMO_MONITOR_HUNDREDTHS): the value is 100 times the figure.
    Hundredths = 100,
    /// A percentage in hundredths (MQIAMO_MONITOR_PERCENT): 10,000 is 100 %.
    Percent = 10_000,
    /// Microseconds (MQIAMO_MONITOR_MICROSEC).
    Microsec = 1_000_000,
    /// Megabytes (MQIAMO_MONITOR_MB).
    Mb = 1_048_576,
}

/// One element: its id within its type, how to read it, MQ's description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    /// Element id (the data parameter's id).
    pub id: i32,
    /// How to read it.
    pub datatype: DataType,
    /// MQ's description (the metric name collectors derive).
    pub desc: &'static str,
}

/// One type of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonType {
    /// Type id.
    pub id: i32,
    /// Its name in topics (PUT, GET, ...).
    pub name: &'static str,
    /// MQ's description.
    pub desc: &'static str,
    /// Its elements.
    pub elements: &'static [Element],
}

/// One class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonClass {
    /// Class id.
    pub id: i32,
    /// Its name in topics.
    pub name: &'static str,
    /// MQ's description.
    pub desc: &'static str,
    /// Whether its data topics carry an object (queue) name.
    pub per_object: bool,
    /// Its types.
    pub types: &'static [MonType],
}

const fn el(id: i32, datatype: DataType, desc: &'static str) -> Element {
    Element { id, datatype, desc }
}

/// STATMQI CONNDISC: MQCONN/MQCONNX count (and 1: failed); 2: connections' high-water mark;
/// 3: MQDISC count.
pub const MQI_CONN: i32 = 0;
/// STATMQI CONNDISC: failed MQCONN/MQCONNX.
pub const MQI_CONN_FAILED: i32 = 1;
/// STATMQI CONNDISC: concurrent connections, high-water mark in the interval.
pub const MQI_CONN_HWM: i32 = 2;
/// STATMQI CONNDISC: MQDISC count.
pub const MQI_DISC: i32 = 3;
/// STATMQI SYNCPOINT: commits (0) and rollbacks (2; MQ has no element 1).
pub const MQI_COMMIT: i32 = 0;
/// STATMQI SYNCPOINT: rollbacks.
pub const MQI_BACKOUT: i32 = 2;
/// STATMQI SUBSCRIBE: failed create/alter/resume.
pub const MQI_SUB_FAILED: i32 = 6;
/// STATMQI SUBSCRIBE: subscription delete failures.
pub const MQI_UNSUB_FAILED: i32 = 9;

/// STATMQI PUT element ids FerryMQ fills.
pub const MQI_PUT_TOTAL: i32 = 0;
/// STATMQI GET: destructive gets.
pub const MQI_GET_TOTAL: i32 = 0;
/// STATMQI GET: expired messages.
pub const MQI_GET_EXPIRED: i32 = 12;
/// STATMQI PUBLISH: publications.
pub const MQI_PUB_TOTAL: i32 = 0;
/// STATMQI PUBLISH: copies delivered.
pub const MQI_PUB_DELIVERED: i32 = 2;
/// STATQ PUT: puts.
pub const Q_PUT_COUNT: i32 = 0;
/// STATQ GET: gets.
pub const Q_GET_COUNT: i32 = 0;
/// STATQ GENERAL: expired.
pub const Q_EXPIRED: i32 = 0;
/// STATQ GENERAL: average queue time.
pub const Q_QTIME: i32 = 2;
/// STATQ GENERAL: depth.
pub const Q_DEPTH: i32 = 3;

/// CPU SystemSummary / QMgrSummary: user CPU (percent of the machine).
pub const CPU_USER: i32 = 0;
/// CPU: system CPU.
pub const CPU_SYSTEM: i32 = 1;
/// CPU SystemSummary: the load averages (1, 5, 15 minutes).
pub const CPU_LOAD: [i32; 3] = [2, 3, 4];
/// CPU SystemSummary: RAM free.
pub const RAM_FREE: i32 = 5;
/// CPU SystemSummary: RAM total.
pub const RAM_TOTAL: i32 = 6;
/// CPU QMgrSummary: the queue manager's memory.
pub const QM_RAM: i32 = 2;
/// DISK QMgrSummary: the queue manager's file system, in use.
pub const QM_FS_USED: i32 = 0;
/// DISK QMgrSummary: the queue manager's file system, free.
pub const QM_FS_FREE: i32 = 1;
/// DISK Log: the log's files.
pub const LOG_IN_USE: i32 = 0;
/// DISK Log: the most the log may take.
pub const LOG_MAX: i32 = 1;
/// DISK Log: the log's file system, in use.
pub const LOG_FS_USED: i32 = 2;
/// DISK Log: the log's file system, size.
pub const LOG_FS_MAX: i32 = 3;
/// DISK Log: record bytes written.
pub const LOG_WRITTEN: i32 = 5;

/// The classes of the host's figures (published when the queue manager runs with a host that
/// measures them: `ferry qm start`).
pub const HOST_CLASSES: &[MonClass] = &[
    MonClass {
        id: 0,
        name: "CPU",
        desc: "Platform central processing units",
        per_object: false,
        types: &[
            MonType {
                id: 0,
                name: "SystemSummary",
                desc: "CPU performance - platform wide",
                elements: &[
                    el(CPU_USER, DataType::Percent, "User CPU time percentage"),
                    el(CPU_SYSTEM, DataType::Percent, "System CPU time percentage"),
                    el(
                        CPU_LOAD[0],
                        DataType::Hundredths,
                        "CPU load - one minute average",
                    ),
                    el(
                        CPU_LOAD[1],
                        DataType::Hundredths,
                        "CPU load - five minute average",
                    ),
                    el(
                        CPU_LOAD[2],
                        DataType::Hundredths,
                        "CPU load - fifteen minute average",
                    ),
                    el(RAM_FREE, DataType::Percent, "RAM free percentage"),
                    el(RAM_TOTAL, DataType::Mb, "RAM total bytes"),
                ],
            },
            MonType {
                id: 1,
                name: "QMgrSummary",
                desc: "CPU performance - running queue manager",
                elements: &[
                    el(
                        CPU_USER,
                        DataType::Percent,
                        "User CPU time - percentage estimate for queue manager",
                    ),
                    el(
                        CPU_SYSTEM,
                        DataType::Percent,
                        "System CPU time - percentage estimate for queue manager",
                    ),
                    el(
                        QM_RAM,
                        DataType::Mb,
                        "RAM total bytes - estimate for queue manager",
                    ),
                ],
            },
        ],
    },
    MonClass {
        id: 1,
        name: "DISK",
        desc: "Platform persistent data stores",
        per_object: false,
        types: &[
            MonType {
                id: 1,
                name: "QMgrSummary",
                desc: "Disk usage - running queue managers",
                elements: &[
                    el(
                        QM_FS_USED,
                        DataType::Mb,
                        "Queue Manager file system - bytes in use",
                    ),
                    el(
                        QM_FS_FREE,
                        DataType::Percent,
                        "Queue Manager file system - free space",
                    ),
                ],
            },
            MonType {
                id: 2,
                name: "Log",
                desc: "Disk usage - queue manager recovery log",
                elements: &[
                    el(LOG_IN_USE, DataType::Unit, "Log - bytes in use"),
                    el(LOG_MAX, DataType::Unit, "Log - bytes max"),
                    el(
                        LOG_FS_USED,
                        DataType::Unit,
                        "Log file system - bytes in use",
                    ),
                    el(LOG_FS_MAX, DataType::Unit, "Log file system - bytes max"),
                    el(LOG_WRITTEN, DataType::Delta, "Log - logical bytes written"),
                ],
            },
        ],
    },
];

/// The classes published: the host's (when it measures them) first, as MQ lists them, then
/// the queue manager's own.
pub fn classes(host: bool) -> Vec<&'static MonClass> {
    let host = if host { HOST_CLASSES } else { &[] };
    host.iter().chain(CLASSES.iter()).collect()
}

/// The classes FerryMQ publishes from its own counters.
pub const CLASSES: &[MonClass] = &[
    MonClass {
        id: 2,
        name: "STATMQI",
        desc: "API usage statistics",
        per_object: false,
        types: &[
            MonType {
                id: 0,
                name: "CONNDISC",
                desc: "MQCONN and MQDISC",
                elements: &[
                    el(MQI_CONN, DataType::Delta, "MQCONN/MQCONNX count"),
                    el(
                        MQI_CONN_FAILED,
                        DataType::Delta,
                        "Failed MQCONN/MQCONNX count",
                    ),
                    el(
                        MQI_CONN_HWM,
                        DataType::Unit,
                        "Concurrent connections - high water mark",
                    ),
                    el(MQI_DISC, DataType::Delta, "MQDISC count"),
                ],
            },
            MonType {
                id: 1,
                name: "OPENCLOSE",
                desc: "MQOPEN and MQCLOSE",
                elements: &[
                    el(0, DataType::Delta, "MQOPEN count"),
                    el(1, DataType::Delta, "Failed MQOPEN count"),
                    el(2, DataType::Delta, "MQCLOSE count"),
                    el(3, DataType::Delta, "Failed MQCLOSE count"),
                ],
            },
            MonType {
                id: 2,
                name: "INQSET",
                desc: "MQINQ and MQSET",
                elements: &[
                    el(0, DataType::Delta, "MQINQ count"),
                    el(1, DataType::Delta, "Failed MQINQ count"),
                    el(2, DataType::Delta, "MQSET count"),
                    el(3, DataType::Delta, "Failed MQSET count"),
                ],
            },
            MonType {
                id: 3,
                name: "PUT",
                desc: "MQPUT",
                elements: &[el(
                    MQI_PUT_TOTAL,
                    DataType::Delta,
                    "Interval total MQPUT/MQPUT1 count",
                )],
            },
            MonType {
                id: 4,
                name: "GET",
                desc: "MQGET",
                elements: &[
                    el(
                        MQI_GET_TOTAL,
                        DataType::Delta,
                        "Interval total destructive get- count",
                    ),
                    el(MQI_GET_EXPIRED, DataType::Delta, "Expired message count"),
                ],
            },
            MonType {
                id: 5,
                name: "SYNCPOINT",
                desc: "Commit and rollback",
                elements: &[
                    el(MQI_COMMIT, DataType::Delta, "Commit count"),
                    el(MQI_BACKOUT, DataType::Delta, "Rollback count"),
                ],
            },
            MonType {
                id: 6,
                name: "SUBSCRIBE",
                desc: "Subscribe",
                elements: &[
                    el(0, DataType::Delta, "Create durable subscription count"),
                    el(1, DataType::Delta, "Alter durable subscription count"),
                    el(2, DataType::Delta, "Resume durable subscription count"),
                    el(3, DataType::Delta, "Create non-durable subscription count"),
                    el(
                        MQI_SUB_FAILED,
                        DataType::Delta,
                        "Failed create/alter/resume subscription count",
                    ),
                    el(7, DataType::Delta, "Delete durable subscription count"),
                    el(8, DataType::Delta, "Delete non-durable subscription count"),
                    el(
                        MQI_UNSUB_FAILED,
                        DataType::Delta,
                        "Subscription delete failure count",
                    ),
                    el(10, DataType::Delta, "MQSUBRQ count"),
                    el(11, DataType::Delta, "Failed MQSUBRQ count"),
                ],
            },
            MonType {
                id: 7,
                name: "PUBLISH",
                desc: "Publish",
                elements: &[
                    el(
                        MQI_PUB_TOTAL,
                        DataType::Delta,
                        "Topic MQPUT/MQPUT1 interval total",
                    ),
                    el(
                        MQI_PUB_DELIVERED,
                        DataType::Delta,
                        "Published to subscribers - message count",
                    ),
                ],
            },
        ],
    },
    MonClass {
        id: 3,
        name: "STATQ",
        desc: "API per-queue usage statistics",
        per_object: true,
        types: &[
            MonType {
                id: 2,
                name: "PUT",
                desc: "MQPUT and MQPUT1",
                elements: &[el(Q_PUT_COUNT, DataType::Delta, "MQPUT/MQPUT1 count")],
            },
            MonType {
                id: 3,
                name: "GET",
                desc: "MQGET",
                elements: &[el(Q_GET_COUNT, DataType::Delta, "MQGET count")],
            },
            MonType {
                id: 4,
                name: "GENERAL",
                desc: "General queue metrics",
                elements: &[
                    el(Q_EXPIRED, DataType::Delta, "messages expired"),
                    el(Q_QTIME, DataType::Microsec, "average queue time"),
                    el(Q_DEPTH, DataType::Unit, "Queue depth"),
                ],
            },
        ],
    },
];

/// A PCF parameter of these messages.
pub use crate::pcf::Param as Pcf;

/// A PCF body: MQCFH (MQCFT_STATISTICS, version 3, MQCMD_NONE, MQCFC_LAST) and `params`
/// (a group counts as one top-level parameter).
pub fn body(params: &[Pcf]) -> Vec<u8> {
    let header = crate::pcf::Header {
        kind: CFT_STATISTICS,
        version: 3,
        command: 0,
        seq: 1,
        control: 1,
        comp_code: 0,
        reason: 0,
    };
    crate::pcf::encode(&header, params)
}

/// The monitoring root of a queue manager: `$SYS/MQ/INFO/QMGR/<qmgr>/Monitor`.
pub fn root(qmgr: &str) -> String {
    format!("$SYS/MQ/INFO/QMGR/{qmgr}/Monitor")
}

/// The data topic of a type; for a per-object class, with `%s` where the object goes.
pub fn data_topic(qmgr: &str, class: &MonClass, ty: &MonType) -> String {
    if class.per_object {
        format!("{}/{}/%s/{}", root(qmgr), class.name, ty.name)
    } else {
        format!("{}/{}/{}", root(qmgr), class.name, ty.name)
    }
}

/// A queue's name as it stands in a topic (`/` written `&`, as MQ does).
pub fn object_in_topic(name: &str) -> String {
    name.replace('/', "&")
}

/// The metadata publications: (topic, body) for CLASSES, each class's TYPES, each type's
/// elements.
pub fn metadata(qmgr: &str, published: &[&'static MonClass]) -> Vec<(String, Vec<u8>)> {
    let meta = format!("{}/METADATA", root(qmgr));
    let flags = |c: &MonClass| if c.per_object { FLAGS_OBJNAME } else { 0 };
    let mut out = Vec::new();
    let classes: Vec<Pcf> = published
        .iter()
        .map(|c| {
            Pcf::Group(
                GACF_MONITOR_CLASS,
                vec![
                    Pcf::Int(IAMO_MONITOR_CLASS, c.id),
                    Pcf::Int(IAMO_MONITOR_FLAGS, flags(c)),
                    Pcf::Str(CAMO_MONITOR_CLASS, c.name.into()),
                    Pcf::Str(CAMO_MONITOR_DESC, c.desc.into()),
                    Pcf::Str(CA_TOPIC_STRING, format!("{meta}/{}/TYPES", c.name)),
                ],
            )
        })
        .collect();
    out.push((format!("{meta}/CLASSES"), body(&classes)));
    for c in published {
        let mut types = vec![
            Pcf::Int(IAMO_MONITOR_CLASS, c.id),
            Pcf::Int(IAMO_MONITOR_FLAGS, flags(c)),
        ];
        for t in c.types {
            types.push(Pcf::Group(
                GACF_MONITOR_TYPE,
                vec![
                    Pcf::Int(IAMO_MONITOR_TYPE, t.id),
                    Pcf::Str(CAMO_MONITOR_TYPE, t.name.into()),
                    Pcf::Str(CAMO_MONITOR_DESC, t.desc.into()),
                    Pcf::Str(CA_TOPIC_STRING, format!("{meta}/{}/{}", c.name, t.name)),
                ],
            ));
            out.push((
                format!("{meta}/{}/{}", c.name, t.name),
                elements(qmgr, c, t),
            ));
        }
        out.push((format!("{meta}/{}/TYPES", c.name), body(&types)));
    }
    out
}

fn elements(qmgr: &str, c: &MonClass, t: &MonType) -> Vec<u8> {
    let mut params = vec![
        Pcf::Int(IAMO_MONITOR_CLASS, c.id),
        Pcf::Int(IAMO_MONITOR_TYPE, t.id),
        Pcf::Str(CA_TOPIC_STRING, data_topic(qmgr, c, t)),
    ];
    for e in t.elements {
        params.push(Pcf::Group(
            GACF_MONITOR_ELEMENT,
            vec![
                Pcf::Int(IAMO_MONITOR_ELEMENT, e.id),
                Pcf::Int(IAMO_MONITOR_DATATYPE, e.datatype as i32),
                Pcf::Str(CAMO_MONITOR_DESC, e.desc.into()),
            ],
        ));
    }
    body(&params)
}

/// A data publication: the queue manager, class, type, interval (µs), the queue for a
/// per-object class, and each (element id, value).
pub fn data(
    qmgr: &str,
    class: &MonClass,
    ty: &MonType,
    interval_us: i64,
    queue: Option<&str>,
    values: &[(i32, i64)],
) -> Vec<u8> {
    let mut params = vec![
        Pcf::Str(crate::pcf::CA_Q_MGR_NAME, qmgr.into()),
        Pcf::Int(IAMO_MONITOR_CLASS, class.id),
        Pcf::Int(IAMO_MONITOR_TYPE, ty.id),
        Pcf::Int64(IAMO64_MONITOR_INTERVAL, interval_us),
    ];
    if let Some(q) = queue {
        params.push(Pcf::Str(crate::pcf::CA_Q_NAME, q.into()));
    }
    params.extend(values.iter().map(|(id, v)| Pcf::Int64(*id, *v)));
    body(&params)
}

/// The MQCFIN64 parameters at the top level of a PCF body in native encoding — a data
/// publication's values and interval: (parameter id, value). A body too short for what it
/// declares gives what was read before the end.
pub fn int64_params(body: &[u8]) -> Vec<(i32, i64)> {
    let word = |at: usize| {
        body.get(at..at + 4)
            .map(|w| i32::from_ne_bytes(w.try_into().unwrap_or([0; 4])))
    };
    let mut out = Vec::new();
    let (Some(count), mut at) = (word(32), 36) else {
        return out;
    };
    for _ in 0..count {
        let (Some(ty), Some(len)) = (word(at), word(at + 4)) else {
            break;
        };
        if ty == 23 {
            let (Some(id), Some(v)) = (word(at + 8), body.get(at + 16..at + 24)) else {
                break;
            };
            out.push((id, i64::from_ne_bytes(v.try_into().unwrap_or([0; 8]))));
        }
        if len < 8 {
            break;
        }
        at += len as usize;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metadata_message_fits_amqsruas_buffer_and_names_the_next_topic() {
        let published = classes(true);
        let all = metadata("QM1", &published);
        // CLASSES, then per class its TYPES and per type its elements.
        let types: usize = published.iter().map(|c| c.types.len()).sum();
        assert_eq!(all.len(), 1 + published.len() + types);
        for (topic, body) in &all {
            assert!(body.len() <= 4096, "{topic}: {} bytes", body.len());
            assert!(topic.starts_with("$SYS/MQ/INFO/QMGR/QM1/Monitor/METADATA/"));
        }
        let classes = &all[0].1;
        let text = String::from_utf8_lossy(classes);
        assert!(text.contains("$SYS/MQ/INFO/QMGR/QM1/Monitor/METADATA/STATQ/TYPES"));
        let q_put = all
            .iter()
            .find(|(t, _)| t.ends_with("METADATA/STATQ/PUT"))
            .unwrap();
        assert!(String::from_utf8_lossy(&q_put.1)
            .contains("$SYS/MQ/INFO/QMGR/QM1/Monitor/STATQ/%s/PUT"));
    }

    #[test]
    fn data_values_read_back() {
        let c = &CLASSES[0];
        let b = data("QM1", c, &c.types[0], 10_000_000, None, &[(0, 42), (12, 7)]);
        assert_eq!(
            int64_params(&b),
            vec![(IAMO64_MONITOR_INTERVAL, 10_000_000), (0, 42), (12, 7)]
        );
        assert!(int64_params(&b[..20]).is_empty());
        assert_eq!(int64_params(&b[..b.len() - 4]).len(), 2, "cut short");
    }

    #[test]
    fn descriptions_are_unique_within_qmgr_and_per_object_classes() {
        for per_object in [false, true] {
            let mut seen = std::collections::HashSet::new();
            for c in classes(true).iter().filter(|c| c.per_object == per_object) {
                for t in c.types {
                    for e in t.elements {
                        assert!(seen.insert(e.desc), "{} twice", e.desc);
                    }
                }
            }
        }
    }
}
