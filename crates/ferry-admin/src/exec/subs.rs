//! DEFINE, DELETE and DISPLAY SUB: administrative (durable) subscriptions. A subscription's
//! name is free text of up to 10,240 bytes (quote it to keep its case and spaces), not an
//! object name; DISPLAY takes a name or a generic name ending in `*`.

use ferry_core::{object_name, QueueManager, SubRequest};
use ferry_model::message::CorrelId;
use ferry_model::topic::Wildcards;

use super::{fail, field, info, object, reply, Failure, Outcome};
use crate::attrs::{Field, Kind};
use crate::parse::Command;
use ferry_core::qmgr::pubsub::Subscription;

/// The subscription's name as given.
fn sub_name(c: &Command) -> Result<String, Failure> {
    let v = c
        .name
        .as_ref()
        .ok_or_else(|| fail("AMQ8405E", "SUB needs a name"))?;
    Ok(v.text.clone())
}

fn required<'a>(c: &'a Command, key: &str) -> Result<&'a str, Failure> {
    c.value(key)
        .map(|v| v.text.as_str())
        .ok_or_else(|| fail("AMQ8405E", format!("DEFINE SUB needs {key}(...)")))
}

/// SUBLEVEL(0–9) as given, or `current` (1 for a new subscription).
fn sub_level(c: &Command, current: u8) -> Result<u8, Failure> {
    let Some(v) = c.value("SUBLEVEL") else {
        return Ok(current);
    };
    match v.text.parse::<u8>() {
        Ok(n) if n <= ferry_model::options::MAX_LEVEL => Ok(n),
        _ => Err(fail(
            "AMQ8405E",
            format!("SUBLEVEL is 0 to 9, not {}", v.text),
        )),
    }
}

/// A refusal to change a subscription's level (ALTER SUB, DEFINE SUB ... REPLACE).
fn level_fixed(name: &str, sub: &Subscription, asked: u8) -> Result<(), Failure> {
    if asked == sub.level {
        return Ok(());
    }
    Err(fail(
        "AMQ8405E",
        format!(
            "subscription {name} is at SUBLEVEL({}), which cannot be altered (MQRC_SUBLEVEL_NOT_ALTERABLE 2512); delete it and define it again",
            sub.level
        ),
    ))
}

/// DEFINE SUB(name) TOPICSTR(...) DEST(queue) [WSCHEMA(TOPIC|CHAR)] [USERDATA(...)]
/// [DESTCORL(48 hex digits)] [SELECTOR('...')] [SUBLEVEL(0–9)].
pub(super) fn define_sub(qm: &QueueManager, c: &Command) -> Outcome {
    let name = sub_name(c)?;
    // LIKE(sub): what is not given is the other subscription's (MQ's Copy Subscription).
    let like = match c.value("LIKE") {
        None => None,
        Some(v) => Some(qm.subscription_named(&v.text).ok_or_else(|| {
            fail(
                "AMQ8147E",
                format!("LIKE('{}'): subscription {} not found", v.text, v.text),
            )
        })?),
    };
    let wildcards = match c.value("WSCHEMA").map(|v| v.text.to_ascii_uppercase()) {
        None if like.is_some() => like
            .as_ref()
            .map_or(Wildcards::Topic, |s| s.filter.schema()),
        None => Wildcards::Topic,
        Some(w) if w == "TOPIC" => Wildcards::Topic,
        Some(w) if w == "CHAR" => Wildcards::Char,
        Some(w) => {
            return Err(fail(
                "AMQ8405E",
                format!("WSCHEMA is TOPIC or CHAR, not {w}"),
            ))
        }
    };
    let correl_id = match c.value("DESTCORL") {
        None => like.as_ref().map(|s| s.correl_id),
        Some(v) => Some(
            CorrelId::from_hex(&v.text.to_ascii_lowercase())
                .ok_or_else(|| fail("AMQ8405E", "DESTCORL is 48 hexadecimal digits (24 bytes)"))?,
        ),
    };
    if c.has("REPLACE") {
        if let Some(existing) = qm.subscription_named(&name) {
            return replace_sub(qm, c, &name, &existing, wildcards, correl_id);
        }
    }
    // An administrative subscription: any user with the authority may resume it.
    let given = |k: &str| c.value(k).map(|v| v.text.clone());
    let from = |f: fn(&Subscription) -> Option<String>| like.as_deref().and_then(f);
    let topic = given("TOPICSTR").or_else(|| from(|s| Some(s.filter.text().to_owned())));
    let dest = given("DEST").or_else(|| from(|s| Some(s.queue.name.to_string())));
    let missing = |k: &str| fail("AMQ8405E", format!("DEFINE SUB needs {k}"));
    let req = SubRequest {
        wildcards,
        name: Some(name.clone()),
        correl_id,
        user_data: given("USERDATA").or_else(|| from(|s| s.user_data.clone())),
        selector: given("SELECTOR")
            .or_else(|| from(|s| s.selector.as_ref().map(|x| x.text().to_owned()))),
        level: sub_level(
            c,
            like.as_ref()
                .map_or(ferry_model::options::DEFAULT_SUB_LEVEL, |s| s.level),
        )?,
        ..SubRequest::to_queue(
            &topic.ok_or_else(|| missing("TOPICSTR"))?,
            object_name(&dest.ok_or_else(|| missing("DEST"))?)?,
        )
    };
    qm.define_sub(&req)?;
    reply(
        c,
        vec![info("AMQ8094I", format!("Subscription {name} created."))],
    )
}

/// DEFINE SUB ... REPLACE of an existing subscription: the same topic, wildcard scheme and
/// selector (they cannot change, as with ALTER SUB), its destination, user data and correl id
/// as given.
fn replace_sub(
    qm: &QueueManager,
    c: &Command,
    name: &str,
    sub: &Subscription,
    wildcards: Wildcards,
    correl_id: Option<CorrelId>,
) -> Outcome {
    let selector = c.value("SELECTOR").map(|v| v.text.as_str());
    if required(c, "TOPICSTR")? != sub.filter.text()
        || wildcards != sub.filter.schema()
        || selector != sub.selector.as_ref().map(|s| s.text())
    {
        return Err(fail(
            "AMQ8405E",
            format!(
                "subscription {name} exists with another TOPICSTR, WSCHEMA or SELECTOR, which REPLACE cannot change (MQRC_TOPIC_NOT_ALTERABLE 2510); delete it first"
            ),
        ));
    }
    level_fixed(
        name,
        sub,
        sub_level(c, ferry_model::options::DEFAULT_SUB_LEVEL)?,
    )?;
    let alt = ferry_core::qmgr::pubsub::SubAlteration {
        user_data: c.value("USERDATA").map(|v| v.text.clone()),
        correl_id,
        any_user: sub.any_user,
        on_request: sub.on_request,
        queue: Some(object_name(required(c, "DEST")?)?).filter(|q| *q != sub.queue.name),
    };
    qm.alter_subscription(sub.id, &alt)?;
    reply(
        c,
        vec![info("AMQ8094I", format!("Subscription {name} created."))],
    )
}

/// ALTER SUB(name) [USERDATA(...)] [DESTCORL(48 hex digits)] [DEST(queue)] [REQONLY(YES|NO)]
/// [VARUSER(ANY|FIXED)]: what is not given stays; TOPICSTR, WSCHEMA, SELECTOR and TOPICOBJ
/// cannot change.
pub(super) fn alter_sub(qm: &QueueManager, c: &Command) -> Outcome {
    let name = sub_name(c)?;
    let sub = qm.subscription_named(&name).ok_or_else(|| {
        fail(
            "AMQ8147E",
            format!("SUB {name} not found (MQRC_NO_SUBSCRIPTION 2428)."),
        )
    })?;
    if let Some(k) = ["TOPICSTR", "WSCHEMA", "SELECTOR", "TOPICOBJ"]
        .into_iter()
        .find(|k| c.has(k))
    {
        return Err(fail(
            "AMQ8405E",
            format!("{k} of a subscription cannot be altered; delete it and define it again"),
        ));
    }
    level_fixed(&name, &sub, sub_level(c, sub.level)?)?;
    let yes_no = |key: &str, yes: &str, no: &str, current: bool| -> Result<bool, Failure> {
        match c.value(key).map(|v| v.text.to_ascii_uppercase()) {
            None => Ok(current),
            Some(w) if w == yes => Ok(true),
            Some(w) if w == no => Ok(false),
            Some(w) => Err(fail("AMQ8405E", format!("{key} is {yes} or {no}, not {w}"))),
        }
    };
    let alt =
        ferry_core::qmgr::pubsub::SubAlteration {
            user_data: c
                .value("USERDATA")
                .map_or_else(|| sub.user_data.clone(), |v| Some(v.text.clone()))
                .filter(|u| !u.is_empty()),
            correl_id: match c.value("DESTCORL") {
                None => None,
                Some(v) => Some(CorrelId::from_hex(&v.text.to_ascii_lowercase()).ok_or_else(
                    || fail("AMQ8405E", "DESTCORL is 48 hexadecimal digits (24 bytes)"),
                )?),
            },
            any_user: yes_no("VARUSER", "ANY", "FIXED", sub.any_user)?,
            on_request: yes_no("REQONLY", "YES", "NO", sub.on_request)?,
            queue: match c.value("DEST") {
                None => None,
                Some(v) => Some(object_name(&v.text)?),
            },
        };
    qm.alter_subscription(sub.id, &alt)?;
    reply(
        c,
        vec![info("AMQ8097I", format!("Subscription {name} changed."))],
    )
}

/// DELETE SUB(name).
pub(super) fn delete_sub(qm: &QueueManager, c: &Command) -> Outcome {
    let name = sub_name(c)?;
    qm.delete_sub(&name)?;
    reply(
        c,
        vec![info("AMQ8095I", format!("Subscription {name} deleted."))],
    )
}

/// DISPLAY SUB(name or generic name).
pub(super) fn display_subs(qm: &QueueManager, c: &Command) -> Outcome {
    display_named(qm, c, |s| {
        let mut fields = identity_fields(s);
        fields.extend([
            field("TOPICSTR", s.filter.text(), Kind::Text),
            field("DEST", s.queue.name, Kind::Name),
            field("WSCHEMA", schema_word(s), Kind::Word),
            field(
                "DESTCORL",
                s.correl_id.to_hex().to_ascii_uppercase(),
                Kind::Word,
            ),
        ]);
        if let Some(u) = &s.user_data {
            fields.push(field("USERDATA", u, Kind::Text));
        }
        fields.push(field(
            "REQONLY",
            if s.on_request { "YES" } else { "NO" },
            Kind::Word,
        ));
        fields.push(field(
            "VARUSER",
            if s.any_user { "ANY" } else { "FIXED" },
            Kind::Word,
        ));
        fields.push(field(
            "SELECTOR",
            s.selector.as_ref().map_or("", |x| x.text()),
            Kind::Text,
        ));
        fields.push(field("SUBLEVEL", s.level, Kind::Int));
        ("AMQ8096I", "Display subscription details.", fields)
    })
}

/// DISPLAY SBSTATUS(name or generic name): who holds each subscription and what it received.
pub(super) fn display_sbstatus(qm: &QueueManager, c: &Command) -> Outcome {
    use std::sync::atomic::Ordering;
    display_named(qm, c, |s| {
        let last = s.last_delivery_ms.load(Ordering::Relaxed);
        let (date, time) = if last == 0 {
            (String::new(), String::new())
        } else {
            ferry_model::clock::date_time(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(last),
            )
        };
        let mut fields = identity_fields(s);
        fields.extend([
            field("SUBUSER", &s.owner, Kind::Status),
            field(
                "ACTCONN",
                format!("{:048x}", s.attached.load(Ordering::Relaxed)),
                Kind::Status,
            ),
            field("NUMMSGS", s.delivered.load(Ordering::Relaxed), Kind::Status),
            field("FAILED", s.failed.load(Ordering::Relaxed), Kind::Status),
            field("LMSGDATE", date, Kind::Status),
            field("LMSGTIME", time, Kind::Status),
        ]);
        ("AMQ8099I", "Display subscription status details.", fields)
    })
}

/// A DISPLAY of the named subscriptions matching the command's name or generic name (`x*`),
/// each described by `describe` as (message code, text, fields).
fn display_named(
    qm: &QueueManager,
    c: &Command,
    describe: impl Fn(&Subscription) -> (&'static str, &'static str, Vec<Field>),
) -> Outcome {
    let pattern = sub_name(c)?;
    let (prefix, generic) = match pattern.strip_suffix('*') {
        Some(p) => (p, true),
        None => (pattern.as_str(), false),
    };
    let mut out = Vec::new();
    for s in qm.subscriptions() {
        let Some(name) = s.name.as_deref() else {
            continue;
        };
        if (generic && !name.starts_with(prefix)) || (!generic && name != prefix) {
            continue;
        }
        let (code, text, fields) = describe(&s);
        if let Some(fields) = super::display::shown(c, fields, &["SUB"])? {
            out.push(object(code, text, fields));
        }
    }
    if out.is_empty() && !generic && c.filter.is_none() {
        return Err(fail(
            "AMQ8147E",
            format!("{} {pattern} not found.", c.object.keyword()),
        ));
    }
    reply(c, out)
}

/// SUB, SUBID, DURABLE and SUBTYPE (ADMIN: defined by command; API: made by MQSUB).
fn identity_fields(s: &Subscription) -> Vec<Field> {
    vec![
        field("SUB", s.name.as_deref().unwrap_or_default(), Kind::Text),
        field("SUBID", format!("{:048x}", s.id), Kind::Status),
        field(
            "DURABLE",
            if s.durable { "YES" } else { "NO" },
            Kind::Status,
        ),
        field(
            "SUBTYPE",
            if s.owner.is_empty() { "ADMIN" } else { "API" },
            Kind::Status,
        ),
    ]
}

/// WSCHEMA's word for the subscription's wildcard scheme.
fn schema_word(s: &Subscription) -> &'static str {
    match s.filter.schema() {
        Wildcards::Topic => "TOPIC",
        Wildcards::Char => "CHAR",
    }
}

/// MQSC quoting: in single quotes, a quote doubled.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// DUMP QMGR's lines for the durable subscriptions.
pub(super) fn dump(qm: &QueueManager, lines: &mut Vec<String>) {
    for s in qm.subscriptions().iter().filter(|s| s.durable) {
        let Some(name) = s.name.as_deref() else {
            continue;
        };
        let schema = schema_word(s);
        let mut line = format!(
            "DEFINE SUB({}) TOPICSTR({}) DEST('{}') WSCHEMA({schema}) DESTCORL({})",
            quoted(name),
            quoted(s.filter.text()),
            s.queue.name,
            s.correl_id.to_hex().to_ascii_uppercase()
        );
        if let Some(u) = &s.user_data {
            line.push_str(&format!(" USERDATA({})", quoted(u)));
        }
        if let Some(sel) = &s.selector {
            line.push_str(&format!(" SELECTOR({})", quoted(sel.text())));
        }
        if s.level != ferry_model::options::DEFAULT_SUB_LEVEL {
            line.push_str(&format!(" SUBLEVEL({})", s.level));
        }
        line.push_str(" REPLACE");
        lines.push(line);
    }
}
