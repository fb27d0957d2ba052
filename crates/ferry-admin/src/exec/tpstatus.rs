//! DISPLAY TPSTATUS: the live topic tree — every topic that has a topic object, a
//! subscription, a retained publication, a publisher or publications counted since start —
//! matched by a topic string that may hold `#` and `+`; and CLEAR TOPICSTR, which removes a
//! topic's retained publication.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use ferry_core::qmgr::pubsub::status::{Publisher, TopicCounts};
use ferry_core::qmgr::pubsub::Subscription;
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

/// The live tree as one command sees it, taken once: each node's fields are then lookups
/// (the command stays linear in the tree's size, not quadratic).
struct Tree {
    admin: HashMap<String, String>,
    retained: HashSet<String>,
    stats: HashMap<String, TopicCounts>,
    subs: HashMap<String, Vec<Arc<Subscription>>>,
    pubs: HashMap<String, Vec<Arc<Publisher>>>,
}

impl Tree {
    fn take(qm: &QueueManager) -> Tree {
        let mut subs: HashMap<String, Vec<Arc<Subscription>>> = HashMap::new();
        for s in qm.subscriptions() {
            subs.entry(s.filter.text().to_owned()).or_default().push(s);
        }
        let mut pubs: HashMap<String, Vec<Arc<Publisher>>> = HashMap::new();
        for p in qm.publishers() {
            pubs.entry(p.topic.to_string()).or_default().push(p);
        }
        Tree {
            admin: qm
                .topic_objects()
                .into_iter()
                .filter(|(_, a)| !a.topic_string.is_empty())
                .map(|(n, a)| (a.topic_string, n.to_string()))
                .collect(),
            retained: qm.retained_topics().into_iter().collect(),
            stats: qm.topic_stats().into_iter().collect(),
            subs,
            pubs,
        }
    }

    /// Every node `pattern` matches, sorted.
    fn nodes(&self, pattern: &Filter) -> Vec<String> {
        let mut all: Vec<String> = self
            .admin
            .keys()
            .chain(self.retained.iter())
            .chain(self.stats.keys())
            .chain(self.pubs.keys())
            .chain(self.subs.keys())
            .filter(|t| pattern.matches(t))
            .cloned()
            .collect();
        all.sort();
        all.dedup();
        all
    }
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
fn topic_fields(qm: &QueueManager, tree: &Tree, t: &str) -> Vec<Field> {
    let r: ResolvedTopic = qm.resolve_topic(t);
    let admin = tree.admin.get(t).cloned().unwrap_or_default();
    let stats = tree.stats.get(t).copied().unwrap_or_default();
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
        field("RETAINED", yes(tree.retained.contains(t)), Kind::Status),
        field(
            "PUBCOUNT",
            tree.pubs.get(t).map_or(0, Vec::len),
            Kind::Status,
        ),
        field(
            "SUBCOUNT",
            tree.subs.get(t).map_or(0, Vec::len),
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
    let tree = Tree::take(qm);
    for t in tree.nodes(&pattern) {
        let entries = match kind.as_str() {
            "TOPIC" => vec![(
                "AMQ8754I",
                "Display topic status details.",
                topic_fields(qm, &tree, &t),
            )],
            "SUB" => sub_entries(&tree, &t),
            "PUB" => pub_entries(&tree, &t),
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
fn sub_entries(tree: &Tree, t: &str) -> Vec<(&'static str, &'static str, Vec<Field>)> {
    tree.subs
        .get(t)
        .into_iter()
        .flatten()
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
fn pub_entries(tree: &Tree, t: &str) -> Vec<(&'static str, &'static str, Vec<Field>)> {
    tree.pubs
        .get(t)
        .into_iter()
        .flatten()
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
