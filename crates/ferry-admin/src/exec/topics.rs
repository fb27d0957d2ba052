//! DEFINE, ALTER, DELETE and DISPLAY TOPIC: the administrative topic objects, whose attributes
//! the topics below them inherit (ASPARENT), and their lines in DUMP QMGR.

use ferry_core::{ObjectName, QueueManager};
use ferry_model::security::AuthObjType;
use ferry_model::topicobj::{DeliveryRule, TopicAttrs, WildcardOperation};

use super::display::{generic, none_found, seen, shown};
use super::{attribute_params, check_replace, fail, info, object, reply, specific, Outcome};
use crate::attrs::{self, Field, Kind};
use crate::parse::{Command, Param, ParseError};

fn f(key: &str, value: impl ToString, kind: Kind) -> Field {
    super::field(key, value, kind)
}

fn inherited<T>(v: Option<T>, word: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "ASPARENT".to_owned(), word)
}

fn yes_no(b: bool) -> String {
    if b { "YES" } else { "NO" }.to_owned()
}

fn enabled(b: bool) -> String {
    if b { "ENABLED" } else { "DISABLED" }.to_owned()
}

/// A topic object's fields, as DISPLAY TOPIC shows them and DUMP writes them.
pub(super) fn topic_fields(name: &ObjectName, a: &TopicAttrs) -> Vec<Field> {
    vec![
        f("TOPIC", name, Kind::Name),
        f("TYPE", "LOCAL", Kind::Status),
        f("TOPICSTR", &a.topic_string, Kind::Text),
        f("DESCR", &a.description, Kind::Text),
        f("DEFPSIST", inherited(a.def_persistent, yes_no), Kind::Word),
        f(
            "DEFPRTY",
            inherited(a.def_priority, |p| p.to_string()),
            Kind::Word,
        ),
        f("DURSUB", inherited(a.durable_subs, yes_no), Kind::Word),
        f("PUB", inherited(a.publish, enabled), Kind::Word),
        f("SUB", inherited(a.subscribe, enabled), Kind::Word),
        f(
            "PMSGDLV",
            inherited(a.persistent_delivery, |r| r.word().to_owned()),
            Kind::Word,
        ),
        f(
            "NPMSGDLV",
            inherited(a.nonpersistent_delivery, |r| r.word().to_owned()),
            Kind::Word,
        ),
        f(
            "MDURMDL",
            a.durable_model.map(|m| m.to_string()).unwrap_or_default(),
            Kind::Text,
        ),
        f(
            "MNDURMDL",
            a.nondurable_model
                .map(|m| m.to_string())
                .unwrap_or_default(),
            Kind::Text,
        ),
        f("USEDLQ", inherited(a.use_dlq, yes_no), Kind::Word),
        f(
            "WILDCARD",
            match a.wildcard {
                WildcardOperation::Passthru => "PASSTHRU",
                WildcardOperation::Block => "BLOCK",
            },
            Kind::Word,
        ),
    ]
}

/// ASPARENT (None) or the value `parse` reads from the word.
fn asparent<T>(
    p: &Param,
    allowed: &[&str],
    parse: impl Fn(&str) -> T,
) -> Result<Option<T>, ParseError> {
    let w = attrs::word(p, allowed)?;
    Ok((w != "ASPARENT").then(|| parse(w)))
}

/// Sets a TOPIC attribute.
fn set_topic(a: &mut TopicAttrs, p: &Param) -> Result<(), ParseError> {
    let yn = ["YES", "NO", "ASPARENT"];
    let en = ["ENABLED", "DISABLED", "ASPARENT"];
    let rules = ["ALL", "ALLDUR", "ALLAVAIL", "ASPARENT"];
    let rule = |w: &str| DeliveryRule::from_word(w).unwrap_or(DeliveryRule::AllAvailable);
    match p.key.as_str() {
        "TOPICSTR" => a.topic_string = attrs::text(p)?,
        "DESCR" => a.description = attrs::descr(p)?,
        "DEFPSIST" => a.def_persistent = asparent(p, &yn, |w| w == "YES")?,
        "DEFPRTY" => {
            a.def_priority = if attrs::text(p)?.eq_ignore_ascii_case("ASPARENT") {
                None
            } else {
                Some(attrs::int(p, 9)?)
            }
        }
        "DURSUB" => a.durable_subs = asparent(p, &yn, |w| w == "YES")?,
        "PUB" => a.publish = asparent(p, &en, |w| w == "ENABLED")?,
        "SUB" => a.subscribe = asparent(p, &en, |w| w == "ENABLED")?,
        "PMSGDLV" => a.persistent_delivery = asparent(p, &rules, rule)?,
        "NPMSGDLV" => a.nonpersistent_delivery = asparent(p, &rules, rule)?,
        "MDURMDL" => a.durable_model = Some(attrs::name(p)?).filter(|n| !n.is_empty()),
        "MNDURMDL" => a.nondurable_model = Some(attrs::name(p)?).filter(|n| !n.is_empty()),
        "USEDLQ" => a.use_dlq = asparent(p, &yn, |w| w == "YES")?,
        "WILDCARD" => {
            a.wildcard = match attrs::word(p, &["PASSTHRU", "BLOCK"])? {
                "BLOCK" => WildcardOperation::Block,
                _ => WildcardOperation::Passthru,
            }
        }
        // Topics are local to this queue manager: no cluster or proxy propagation to set.
        "TYPE" => {
            attrs::word(p, &["LOCAL"])?;
        }
        _ => return Err(attrs::unknown(p, "TOPIC")),
    }
    Ok(())
}

fn apply(a: &mut TopicAttrs, c: &Command) -> Result<(), ParseError> {
    for p in attribute_params(c) {
        set_topic(a, p)?;
    }
    Ok(())
}

/// DEFINE TOPIC(name) TOPICSTR(string) [attributes] [LIKE(object)] [REPLACE]. Attributes not
/// given are ASPARENT.
pub(super) fn define_topic(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.topic_object(n.as_str()).is_ok();
    let replace = check_replace(c, exists, "topic", &n)?;
    let mut a = match c.value("LIKE") {
        Some(v) => TopicAttrs {
            topic_string: String::new(),
            ..qm.topic_object(&v.text)?
        },
        None => TopicAttrs::default(),
    };
    apply(&mut a, c)?;
    if c.value("TOPICSTR").is_none() {
        return Err(fail(
            "AMQ8405E",
            format!("DEFINE TOPIC({n}) needs TOPICSTR('...'): where in the topic tree it stands"),
        ));
    }
    qm.define_topic(n.as_str(), a, replace)?;
    reply(
        c,
        vec![info("AMQ8690I", format!("WebSphere MQ topic {n} created."))],
    )
}

/// ALTER TOPIC(name) [attributes] (TOPICSTR cannot change).
pub(super) fn alter_topic(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut a = qm.topic_object(n.as_str())?;
    apply(&mut a, c)?;
    qm.define_topic(n.as_str(), a, true)?;
    reply(
        c,
        vec![info("AMQ8691I", format!("WebSphere MQ topic {n} changed."))],
    )
}

/// DELETE TOPIC(name).
pub(super) fn delete_topic(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_topic(n.as_str())?;
    reply(
        c,
        vec![info("AMQ8692I", format!("WebSphere MQ topic {n} deleted."))],
    )
}

/// DISPLAY TOPIC(name or generic name) [TYPE(LOCAL|ALL)] [attributes | ALL].
pub(super) fn display_topics(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm
        .topic_objects()
        .iter()
        .filter(|(n, _)| seen(qm, c, &pattern, AuthObjType::Topic, n))
    {
        if let Some(fields) = shown(c, topic_fields(n, a), &["TOPIC", "TYPE"])? {
            out.push(object("AMQ8633I", "Display topic details.", fields));
        }
    }
    none_found(c, &pattern, out)
}

/// DUMP QMGR's lines for the topic objects.
pub(super) fn dump(qm: &QueueManager, lines: &mut Vec<String>) {
    for (n, a) in qm.topic_objects() {
        lines.push(format!(
            "DEFINE TOPIC('{n}') {} REPLACE",
            attrs::as_keywords(&topic_fields(&n, &a), &["TOPIC", "TYPE"])
        ));
    }
}
