//! Changing objects from their pages: which attributes each kind (and type) of object may
//! change there, the version a change names, and the MQSC ALTER it becomes — run as the user,
//! so +chg decides.
//!
//! A definition's version is a hash of its attributes as DISPLAY shows them (status fields
//! left out), given as the ETag. A change names the version it was made against; when the
//! object changed meanwhile (from another page, `ferry admin`, PCF), the change is refused with
//! 412 and nothing is written: a stale page never overwrites a newer change.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ferry_core::Reason;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::api::{failure, quoted, rows, run_mqsc};
use crate::auth::Who;
use crate::{ApiError, Console};

/// Attribute keywords and the values each takes (none listed: free text or a number, checked
/// by the command executor).
type Settable = &'static [(&'static str, &'static [&'static str])];

const ENABLED: &[&str] = &["ENABLED", "DISABLED"];
const YESNO: &[&str] = &["YES", "NO"];
const INHERIT: &[&str] = &["ENABLED", "DISABLED", "ASPARENT"];
const NUMBER: &[&str] = &[];

/// What a kind's page may change, by the object's type.
pub(crate) fn settable(kind: &str, otype: &str) -> Settable {
    match (kind, otype) {
        ("queues", "QLOCAL") => &[
            ("DESCR", NUMBER),
            ("PUT", ENABLED),
            ("GET", ENABLED),
            ("MAXDEPTH", NUMBER),
            ("MAXMSGL", NUMBER),
            ("DEFPSIST", YESNO),
            ("DEFPRTY", NUMBER),
            ("MSGDLVSQ", &["PRIORITY", "FIFO"]),
            ("BOTHRESH", NUMBER),
            ("BOQNAME", NUMBER),
        ],
        ("queues", "QALIAS") => &[
            ("DESCR", NUMBER),
            ("TARGET", NUMBER),
            ("PUT", ENABLED),
            ("GET", ENABLED),
            ("DEFPSIST", YESNO),
            ("DEFPRTY", NUMBER),
        ],
        ("queues", "QREMOTE") => &[
            ("DESCR", NUMBER),
            ("RNAME", NUMBER),
            ("RQMNAME", NUMBER),
            ("XMITQ", NUMBER),
            ("PUT", ENABLED),
            ("DEFPSIST", YESNO),
            ("DEFPRTY", NUMBER),
        ],
        ("channels", t) => channel_settable(t),
        ("topics", _) => &[
            ("DESCR", NUMBER),
            ("PUB", INHERIT),
            ("SUB", INHERIT),
            ("DEFPSIST", &["YES", "NO", "ASPARENT"]),
            ("DEFPRTY", NUMBER),
        ],
        ("subs", _) => &[
            ("DEST", NUMBER),
            ("USERDATA", NUMBER),
            ("VARUSER", &["ANY", "FIXED"]),
            ("REQONLY", YESNO),
        ],
        ("listeners", _) => &[
            ("DESCR", NUMBER),
            ("PORT", NUMBER),
            ("IPADDR", NUMBER),
            ("BACKLOG", NUMBER),
            ("CONTROL", &["MANUAL", "QMGR", "STARTONLY"]),
        ],
        _ => &[],
    }
}

/// What a channel's page may change, by CHLTYPE.
fn channel_settable(chltype: &str) -> Settable {
    match chltype {
        "SDR" => &[
            ("DESCR", NUMBER),
            ("CONNAME", NUMBER),
            ("XMITQ", NUMBER),
            ("BATCHSZ", NUMBER),
            ("BATCHINT", NUMBER),
            ("DISCINT", NUMBER),
            ("HBINT", NUMBER),
            ("SHORTRTY", NUMBER),
            ("SHORTTMR", NUMBER),
            ("LONGRTY", NUMBER),
            ("LONGTMR", NUMBER),
            ("MAXMSGL", NUMBER),
            ("NPMSPEED", &["FAST", "NORMAL"]),
            ("CONGCTL", NUMBER),
        ],
        "RCVR" => &[
            ("DESCR", NUMBER),
            ("BATCHSZ", NUMBER),
            ("HBINT", NUMBER),
            ("MAXMSGL", NUMBER),
            ("NPMSPEED", &["FAST", "NORMAL"]),
        ],
        "SVRCONN" => &[("DESCR", NUMBER), ("HBINT", NUMBER), ("MAXMSGL", NUMBER)],
        _ => &[("DESCR", NUMBER)],
    }
}

/// The settable attributes as the page takes them: `[{"name", "values"}]`.
pub(crate) fn settable_json(kind: &str, otype: &str) -> Value {
    settable(kind, otype)
        .iter()
        .map(|(k, vals)| json!({"name": k, "values": vals}))
        .collect()
}

/// The object's type among its attributes: a queue's TYPE, a channel's CHLTYPE, a listener's
/// TRPTYPE (a topic has one kind).
pub(crate) fn type_of(kind: &str, attrs: &Map<String, Value>) -> String {
    let key = match kind {
        "queues" => "TYPE",
        "channels" => "CHLTYPE",
        "listeners" => "TRPTYPE",
        "subs" => return "SUB".into(),
        _ => return "TOPIC".into(),
    };
    attrs
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

/// The ALTER that changes the object (with the type MQSC requires beside the name).
fn alter_command(kind: &str, otype: &str, name: &str) -> Option<String> {
    let n = quoted(name);
    Some(match kind {
        "queues" => format!("ALTER {otype}({n})"),
        "channels" => format!("ALTER CHANNEL({n}) CHLTYPE({otype})"),
        "topics" => format!("ALTER TOPIC({n})"),
        "subs" => format!("ALTER SUB({n})"),
        "listeners" => format!("ALTER LISTENER({n}) TRPTYPE({otype})"),
        _ => return None,
    })
}

/// Attributes that are status, not definition: a change in them is not a change of the object.
const STATUS_KEYS: &[&str] = &["CURDEPTH", "IPPROCS", "OPPROCS"];

/// The definition's version (an ETag).
pub(crate) fn version(attrs: &Map<String, Value>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, v) in attrs
        .iter()
        .filter(|(k, _)| !STATUS_KEYS.contains(&k.as_str()))
    {
        for b in k.bytes().chain(v.to_string().bytes()).chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("\"{h:016x}\"")
}

/// One object's definition as MQSC DISPLAY shows it to `who`.
pub(crate) async fn definition(
    c: &Arc<Console>,
    who: &Who,
    kind: &str,
    name: &str,
) -> Result<Map<String, Value>, ApiError> {
    let display = if kind == "queues" {
        let n = crate::api::name_of(name)?;
        format!("DISPLAY QUEUE({}) ALL", quoted(n.as_str()))
    } else {
        let (_, display, _) = crate::api::kind(kind)?;
        display.replace("{}", &quoted(name))
    };
    rows(&run_mqsc(c, who, display).await)?
        .into_iter()
        .next()
        .ok_or_else(|| {
            ApiError::reason(
                Reason::UnknownObjectName,
                format!("{kind} {name} is not defined"),
            )
        })
}

#[derive(Deserialize)]
pub(crate) struct Alteration {
    /// The version the change was made against (or the If-Match header).
    version: Option<String>,
    attributes: Map<String, Value>,
}

/// One `KEY(value)` of an ALTER, checked against what the page may change.
fn alter_param(settable: Settable, what: &str, key: &str, v: &Value) -> Result<String, ApiError> {
    let Some((_, values)) = settable.iter().find(|(k, _)| *k == key) else {
        return Err(ApiError::reason(
            Reason::AttributeValueError,
            format!("{key} cannot be changed from the console on {what}; use an MQSC ALTER"),
        ));
    };
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => {
            return Err(ApiError::reason(
                Reason::AttributeValueError,
                format!("{key} needs a string or a number"),
            ))
        }
    };
    if values.is_empty() {
        return Ok(format!("{key}({})", quoted(&text)));
    }
    let up = text.to_ascii_uppercase();
    if !values.contains(&up.as_str()) {
        return Err(ApiError::reason(
            Reason::AttributeValueError,
            format!(
                "{key}({text}) is not a value it takes: one of {}",
                values.join(", ")
            ),
        ));
    }
    Ok(format!("{key}({up})"))
}

type AlterBody = Result<Json<Alteration>, axum::extract::rejection::JsonRejection>;

/// `PATCH /api/v1/queues/{name}`.
pub(crate) async fn alter_queue(
    State(c): State<Arc<Console>>,
    who: Who,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: AlterBody,
) -> Result<Response, ApiError> {
    alter(&c, &who, "queues", &name, &headers, body).await
}

/// `PATCH /api/v1/objects/{kind}/{name}` (channels, topics, listeners).
pub(crate) async fn alter_object(
    State(c): State<Arc<Console>>,
    who: Who,
    Path((kind, name)): Path<(String, String)>,
    headers: HeaderMap,
    body: AlterBody,
) -> Result<Response, ApiError> {
    alter(&c, &who, &kind, &name, &headers, body).await
}

async fn alter(
    c: &Arc<Console>,
    who: &Who,
    kind: &str,
    name: &str,
    headers: &HeaderMap,
    body: AlterBody,
) -> Result<Response, ApiError> {
    let Json(a) = body.map_err(|e| {
        crate::error::bad_json(
            e,
            "an alteration is JSON {\"version\": …, \"attributes\": {…}}",
        )
    })?;
    let asked = headers
        .get(header::IF_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or(a.version);
    let Some(asked) = asked else {
        return Err(ApiError::new(StatusCode::PRECONDITION_REQUIRED, "say which version of the object the change was made against: the \"version\" its GET gave, or an If-Match header with its ETag"));
    };
    let attrs = definition(c, who, kind, name).await?;
    let now = version(&attrs);
    if asked != now {
        return Err(ApiError::new(
            StatusCode::PRECONDITION_FAILED,
            format!("{name} was changed after the page read it (version {asked}, now {now}); reload it and make the change again"),
        ));
    }
    let otype = type_of(kind, &attrs);
    let Some(command) = alter_command(kind, &otype, name) else {
        return Err(ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{kind} are not changed from the console; use MQSC"),
        ));
    };
    if a.attributes.is_empty() {
        return Err(ApiError::bad("no attributes to change"));
    }
    let what = format!("a {otype} ({kind})");
    let params = a
        .attributes
        .iter()
        .map(|(k, v)| alter_param(settable(kind, &otype), &what, &k.to_ascii_uppercase(), v))
        .collect::<Result<Vec<_>, _>>()?;
    let command = format!("{command} {}", params.join(" "));
    let replies = run_mqsc(c, who, command.clone()).await;
    if let Some(r) = replies.iter().find(|r| !r.ok) {
        return Err(failure(r));
    }
    c.audit(
        who.user(),
        "alter",
        &format!("{otype}({name})"),
        json!({"command": command}),
    );
    let attrs = definition(c, who, kind, name).await?;
    let etag = version(&attrs);
    Ok((
        [(header::ETAG, etag.clone())],
        Json(json!({"version": etag, "attributes": attrs})),
    )
        .into_response())
}
