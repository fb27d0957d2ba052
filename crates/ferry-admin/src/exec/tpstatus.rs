//! DISPLAY TPSTATUS: the live topic tree — every topic that has a topic object, a
//! subscription, a retained publication, a publisher or publications counted since start —
//! matched by a topic string that may hold `#` and `+`; and CLEAR TOPICSTR, which removes a
//! topic's retained publication.

use std::sync::atomic::Ordering;

use ferry_core::QueueManager;
use ferry_model::topic::{Filter, Wildcards};
use ferry_model::topicobj::ResolvedTopic;

use super::{fail, field, info, object, reply, Failure, Outcome};
use crate::attrs::{Field, Kind};
use crate::parse::Command;

fn topic_pattern(c: &Command) -> Result<Filter, Failure> {
    let v = c.name.as_ref().ok_or_else(|| {
        fail(
            "AMQ8405E",
            format!("{} needs a topic string, such as '#'", c.object.keyword()),
        )
    })?;
    Ok(Filter::parse(&v.text, Wildcards::Topic)?)
}

/// Every node of the live tree `pattern` matches, sorted.
fn nodes(qm: &QueueManager, pattern: &Filter) -> Vec<String> {
    let mut all: Vec<String> = qm
        .topic_objects()
        .into_iter()
        .map(|(_, a)| a.topic_string)
        .filter(|t| !t.is_empty())
        .chain(qm.retained_topics())
        .chain(qm.topic_stats().into_iter().map(|(t, _)| t))
        .chain(qm.publishers().iter().map(|p| p.topic.to_string()))
        .chain(
            qm.subscriptions()
                .iter()
                .map(|s| s.filter.text().to_owned()),
        )
        .filter(|t| pattern.matches(t))
        .collect();
    all.sort();
    all.dedup();
    all
}

fn date_time_ms(ms: u64) -> (String, String) {
    if ms == 0 {
        return (String::new(), String::new());
    }
    ferry_model::clock::date_time(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
}

fn yes(b: bool) -> &'static str {
    if b {
        "YES"
    } else {
        "NO"
    }
}

fn enabled(b: bool) -> &'static str {
    if b {
        "ENABLED"
    } else {
        "DISABLED"
    }
}

/// TYPE(TOPIC): the node's resolved attributes and what hangs on it.
fn topic_fields(qm: &QueueManager, t: &str) -> Vec<Field> {
    let r: ResolvedTopic = qm.resolve_topic(t);
    let admin = qm
        .topic_objects()
        .into_iter()
        .find(|(_, a)| a.topic_string == t)
        .map(|(n, _)| n.to_string())
        .unwrap_or_default();
    let subs = qm.subscriptions();
    let stats = qm
        .topic_stats()
        .into_iter()
        .find(|(s, _)| s == t)
        .map(|(_, c)| c)
        .unwrap_or_default();
    vec![
        field("TOPICSTR", t, Kind::Text),
        field("ADMIN", admin, Kind::Status),
        field("DEFPSIST", yes(r.def_persistent), Kind::Status),
        field("DEFPRTY", r.def_priority, Kind::Status),
        field("DURSUB", yes(r.durable_subs), Kind::Status),
        field("PUB", enabled(r.publish), Kind::Status),
        field("SUB", enabled(r.subscribe), Kind::Status),
        field("PMSGDLV", r.persistent_delivery.word(), Kind::Status),
        field("NPMSGDLV", r.nonpersistent_delivery.word(), Kind::Status),
        field("MDURMDL", r.durable_model, Kind::Status),
        field("MNDURMDL", r.nondurable_model, Kind::Status),
        field("USEDLQ", yes(r.use_dlq), Kind::Status),
        field("RETAINED", yes(qm.retained(t).is_some()), Kind::Status),
        field(
            "PUBCOUNT",
            qm.publishers().iter().filter(|p| &*p.topic == t).count(),
            Kind::Status,
        ),
        field(
            "SUBCOUNT",
            subs.iter().filter(|s| s.filter.text() == t).count(),
            Kind::Status,
        ),
        field("NUMPUBS", stats.publications, Kind::Status),
        field("NUMMSGS", stats.deliveries, Kind::Status),
    ]
}

/// DISPLAY TPSTATUS(topic string) [TYPE(TOPIC | SUB | PUB)].
pub(super) fn display_tpstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = topic_pattern(c)?;
    let kind = c
        .value("TYPE")
        .map_or("TOPIC".to_owned(), |v| v.text.to_ascii_uppercase());
    let mut out = Vec::new();
    for t in nodes(qm, &pattern) {
        let entries = match kind.as_str() {
            "TOPIC" => vec![(
                "AMQ8754I",
                "Display topic status details.",
                topic_fields(qm, &t),
            )],
            "SUB" => sub_entries(qm, &t),
            "PUB" => pub_entries(qm, &t),
            other => {
                return Err(fail(
                    "AMQ8405E",
                    format!("TYPE is TOPIC, SUB or PUB, not {other}"),
                ))
            }
        };
        for (code, text, fields) in entries {
            if let Some(fields) = super::display::shown(c, fields, &["TOPICSTR"])? {
                out.push(object(code, text, fields));
            }
        }
    }
    if out.is_empty() && !pattern.is_wildcard() && c.filter.is_none() && kind == "TOPIC" {
        return Err(fail(
            "AMQ8147E",
            format!("TPSTATUS {} not found.", pattern.text()),
        ));
    }
    reply(c, out)
}

/// TYPE(SUB): the subscriptions made on exactly this topic string.
fn sub_entries(qm: &QueueManager, t: &str) -> Vec<(&'static str, &'static str, Vec<Field>)> {
    qm.subscriptions()
        .iter()
        .filter(|s| s.filter.text() == t)
        .map(|s| {
            let (date, time) = date_time_ms(s.last_delivery_ms.load(Ordering::Relaxed));
            let fields = vec![
                field("TOPICSTR", t, Kind::Text),
                field("SUBID", format!("{:048x}", s.id), Kind::Status),
                field("SUBUSER", &s.owner, Kind::Status),
                field(
                    "ACTCONN",
                    format!("{:048x}", s.attached.load(Ordering::Relaxed)),
                    Kind::Status,
                ),
                field("DURABLE", yes(s.durable), Kind::Status),
                field(
                    "SUBTYPE",
                    if s.owner.is_empty() { "ADMIN" } else { "API" },
                    Kind::Status,
                ),
                field("NUMMSGS", s.delivered.load(Ordering::Relaxed), Kind::Status),
                field("LMSGDATE", date, Kind::Status),
                field("LMSGTIME", time, Kind::Status),
            ];
            ("AMQ8755I", "Display topic status details.", fields)
        })
        .collect()
}

/// TYPE(PUB): the handles open to publish on exactly this topic string.
fn pub_entries(qm: &QueueManager, t: &str) -> Vec<(&'static str, &'static str, Vec<Field>)> {
    qm.publishers()
        .iter()
        .filter(|p| &*p.topic == t)
        .map(|p| {
            let (date, time) = date_time_ms(p.last_ms.load(Ordering::Relaxed));
            let fields = vec![
                field("TOPICSTR", t, Kind::Text),
                field("ACTCONN", format!("{:048x}", p.conn), Kind::Status),
                field("USERID", &p.user, Kind::Status),
                field("NUMPUBS", p.count.load(Ordering::Relaxed), Kind::Status),
                field("LPUBDATE", date, Kind::Status),
                field("LPUBTIME", time, Kind::Status),
            ];
            ("AMQ8756I", "Display topic status details.", fields)
        })
        .collect()
}

/// CLEAR TOPICSTR(topic string) CLRTYPE(RETAINED) [CLRSCOPE(LOCAL)].
pub(super) fn clear_topicstr(qm: &QueueManager, c: &Command) -> Outcome {
    let v = c
        .name
        .as_ref()
        .ok_or_else(|| fail("AMQ8405E", "CLEAR TOPICSTR needs a topic string"))?;
    match c.value("CLRTYPE").map(|v| v.text.to_ascii_uppercase()) {
        Some(t) if t == "RETAINED" => {}
        _ => return Err(fail(
            "AMQ8405E",
            "CLEAR TOPICSTR needs CLRTYPE(RETAINED): the retained publication is what it clears",
        )),
    }
    if qm.clear_retained(&v.text)? {
        reply(
            c,
            vec![info(
                "AMQ8897I",
                format!("Retained publication on topic string {} cleared.", v.text),
            )],
        )
    } else {
        Err(fail(
            "AMQ8898E",
            format!(
                "Topic string {} has no retained publication (MQRC_NO_RETAINED_MSG 2437).",
                v.text
            ),
        ))
    }
}
