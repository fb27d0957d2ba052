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
//! descriptions (so dashboards keyed on them work): STATMQI PUT, GET and PUBLISH, and STATQ
//! PUT, GET and GENERAL.

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
    /// Microseconds (MQIAMO_MONITOR_MICROSEC).
    Microsec = 1_000_000,
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

/// The classes FerryMQ publishes.
pub const CLASSES: &[MonClass] = &[
    MonClass {
        id: 2,
        name: "STATMQI",
        desc: "API usage statistics",
        per_object: false,
        types: &[
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pcf {
    /// MQCFIN.
    Int(i32, i32),
    /// MQCFIN64.
    Int64(i32, i64),
    /// MQCFST (CCSID 1208).
    Str(i32, String),
    /// MQCFGR: a group of parameters.
    Group(i32, Vec<Pcf>),
}

fn put(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_ne_bytes());
}

fn encode(p: &Pcf, out: &mut Vec<u8>) {
    match p {
        Pcf::Int(id, v) => [3, 16, *id, *v].iter().for_each(|x| put(out, *x)),
        Pcf::Int64(id, v) => {
            [23, 24, *id, 0].iter().for_each(|x| put(out, *x));
            out.extend_from_slice(&v.to_ne_bytes());
        }
        Pcf::Str(id, text) => {
            let len = text.len();
            let padded = len.div_ceil(4) * 4;
            for v in [4, (20 + padded) as i32, *id, 1208, len as i32] {
                put(out, v);
            }
            out.extend_from_slice(text.as_bytes());
            out.resize(out.len() + padded - len, b' ');
        }
        Pcf::Group(id, members) => {
            [20, 16, *id, members.len() as i32]
                .iter()
                .for_each(|x| put(out, *x));
            members.iter().for_each(|m| encode(m, out));
        }
    }
}

/// A PCF body: MQCFH (MQCFT_STATISTICS, version 3, MQCMD_NONE, MQCFC_LAST) and `params`
/// (a group counts as one top-level parameter).
pub fn body(params: &[Pcf]) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    for v in [CFT_STATISTICS, 36, 3, 0, 1, 1, 0, 0, params.len() as i32] {
        put(&mut out, v);
    }
    params.iter().for_each(|p| encode(p, &mut out));
    out
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
pub fn metadata(qmgr: &str) -> Vec<(String, Vec<u8>)> {
    let meta = format!("{}/METADATA", root(qmgr));
    let flags = |c: &MonClass| if c.per_object { FLAGS_OBJNAME } else { 0 };
    let mut out = Vec::new();
    let classes: Vec<Pcf> = CLASSES
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
    for c in CLASSES {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metadata_message_fits_amqsruas_buffer_and_names_the_next_topic() {
        let all = metadata("QM1");
        // CLASSES, then per class its TYPES and per type its elements.
        let types: usize = CLASSES.iter().map(|c| c.types.len()).sum();
        assert_eq!(all.len(), 1 + CLASSES.len() + types);
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
    fn descriptions_are_unique_within_qmgr_and_per_object_classes() {
        for per_object in [false, true] {
            let mut seen = std::collections::HashSet::new();
            for c in CLASSES.iter().filter(|c| c.per_object == per_object) {
                for t in c.types {
                    for e in t.elements {
                        assert!(seen.insert(e.desc), "{} twice", e.desc);
                    }
                }
            }
        }
    }
}
