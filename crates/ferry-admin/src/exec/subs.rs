//! DEFINE, DELETE and DISPLAY SUB: administrative (durable) subscriptions. A subscription's
//! name is free text of up to 10,240 bytes (quote it to keep its case and spaces), not an
//! object name; DISPLAY takes a name or a generic name ending in `*`.

use ferry_core::{object_name, QueueManager, SubRequest};
use ferry_model::message::CorrelId;
use ferry_model::topic::Wildcards;

use super::{fail, field, info, object, reply, Failure, Outcome};
use crate::attrs::Kind;
use crate::parse::Command;

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

/// DEFINE SUB(name) TOPICSTR(...) DEST(queue) [WSCHEMA(TOPIC|CHAR)] [USERDATA(...)]
/// [DESTCORL(48 hex digits)].
pub(super) fn define_sub(qm: &QueueManager, c: &Command) -> Outcome {
    let name = sub_name(c)?;
    let wildcards = match c.value("WSCHEMA").map(|v| v.text.to_ascii_uppercase()) {
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
        None => None,
        Some(v) => Some(
            CorrelId::from_hex(&v.text.to_ascii_lowercase())
                .ok_or_else(|| fail("AMQ8405E", "DESTCORL is 48 hexadecimal digits (24 bytes)"))?,
        ),
    };
    let req = SubRequest {
        topic: required(c, "TOPICSTR")?.to_owned(),
        wildcards,
        queue: object_name(required(c, "DEST")?)?,
        name: Some(name.clone()),
        correl_id,
        user_data: c.value("USERDATA").map(|v| v.text.clone()),
        managed: false,
        owner: String::new(),
        // An administrative subscription may be resumed by any user with the authority.
        any_user: true,
    };
    qm.define_sub(&req)?;
    reply(
        c,
        vec![info("AMQ8094I", format!("Subscription {name} created."))],
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
    let pattern = sub_name(c)?;
    let (prefix, generic) = match pattern.strip_suffix('*') {
        Some(p) => (p.to_owned(), true),
        None => (pattern.clone(), false),
    };
    let mut out = Vec::new();
    for s in qm.subscriptions() {
        let Some(name) = s.name.as_deref() else {
            continue;
        };
        if (generic && !name.starts_with(&prefix)) || (!generic && name != prefix) {
            continue;
        }
        let mut fields = vec![
            field("SUB", name, Kind::Text),
            field("SUBID", format!("{:048x}", s.id), Kind::Status),
            field("TOPICSTR", s.filter.text(), Kind::Text),
            field("DEST", s.queue.name, Kind::Name),
            field(
                "WSCHEMA",
                match s.filter.schema() {
                    Wildcards::Topic => "TOPIC",
                    Wildcards::Char => "CHAR",
                },
                Kind::Word,
            ),
            field(
                "DESTCORL",
                s.correl_id.to_hex().to_ascii_uppercase(),
                Kind::Word,
            ),
            field(
                "DURABLE",
                if s.durable { "YES" } else { "NO" },
                Kind::Status,
            ),
            field(
                "SUBTYPE",
                if s.durable { "ADMIN" } else { "API" },
                Kind::Status,
            ),
        ];
        if let Some(u) = &s.user_data {
            fields.push(field("USERDATA", u, Kind::Text));
        }
        if let Some(fields) = super::display::shown(c, fields, &["SUB"])? {
            out.push(object("AMQ8096I", "Display subscription details.", fields));
        }
    }
    if out.is_empty() && !generic && c.filter.is_none() {
        return Err(fail("AMQ8147E", format!("SUB {pattern} not found.")));
    }
    reply(c, out)
}

/// DISPLAY SBSTATUS(name or generic name): who holds each subscription and what it received.
pub(super) fn display_sbstatus(qm: &QueueManager, c: &Command) -> Outcome {
    use std::sync::atomic::Ordering;
    let pattern = sub_name(c)?;
    let (prefix, generic) = match pattern.strip_suffix('*') {
        Some(p) => (p.to_owned(), true),
        None => (pattern.clone(), false),
    };
    let mut out = Vec::new();
    for s in qm.subscriptions() {
        let Some(name) = s.name.as_deref() else {
            continue;
        };
        if (generic && !name.starts_with(&prefix)) || (!generic && name != prefix) {
            continue;
        }
        let last = s.last_delivery_ms.load(Ordering::Relaxed);
        let (date, time) = if last == 0 {
            (String::new(), String::new())
        } else {
            ferry_model::clock::date_time(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(last),
            )
        };
        let fields = vec![
            field("SUB", name, Kind::Text),
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
        ];
        if let Some(fields) = super::display::shown(c, fields, &["SUB"])? {
            out.push(object(
                "AMQ8099I",
                "Display subscription status details.",
                fields,
            ));
        }
    }
    if out.is_empty() && !generic && c.filter.is_none() {
        return Err(fail("AMQ8147E", format!("SBSTATUS {pattern} not found.")));
    }
    reply(c, out)
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
        let schema = match s.filter.schema() {
            Wildcards::Topic => "TOPIC",
            Wildcards::Char => "CHAR",
        };
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
        lines.push(line);
    }
}
