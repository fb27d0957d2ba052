//! Messages from the page: browse a queue a page at a time, put a test message, and delete,
//! move or copy the messages picked by id. Each runs in an engine session connected as the
//! caller, so the queue's authority records decide (+browse, +put, +get), on a blocking
//! thread. Delete, move and copy run in one unit of work: all the picked messages or none,
//! each recorded in the audit log.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use ferry_core::{
    BrowseMode, ConnMode, ConnectOptions, GetOptions, Message, MqError, MsgId, ObjectDescriptor,
    OpenOptions, Persistence, PropertyValue, PutOptions, Reason, Session,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::name_of;
use crate::auth::Who;
use crate::{ApiError, Console, Peer};

/// Most messages a browse page holds.
pub(crate) const MAX_BROWSE_PAGE: usize = 100;
/// How far into a queue a browse page may start.
pub(crate) const MAX_BROWSE_START: usize = 100_000;
/// Most body bytes a browsed message shows (its length is always given).
pub(crate) const SHOWN_BODY: usize = 64 * 1024;
/// Most messages one delete, move or copy picks.
pub(crate) const MAX_PICKED: usize = 1_000;

fn session(c: &Console, who: &Who, peer: Peer) -> Result<Session, ApiError> {
    let opts = ConnectOptions::app("ferry console");
    Ok(c.qm.connect_with(
        &opts,
        ConnMode::Tcp,
        format!("console {}", peer.0),
        (*who.0).clone(),
    )?)
}

/// Runs `f` with a session as the caller on a blocking thread; the session ends after it.
async fn with_session<T: Send + 'static>(
    c: &Arc<Console>,
    who: &Who,
    peer: Peer,
    f: impl FnOnce(&mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let (c, who) = (c.clone(), who.clone());
    tokio::task::spawn_blocking(move || {
        let mut s = session(&c, &who, peer)?;
        let out = f(&mut s);
        if out.is_err() {
            let _ = s.backout();
        }
        let _ = s.disconnect();
        out
    })
    .await
    .map_err(|e| ApiError::bad(format!("the request's work ended abnormally: {e}")))?
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct Page {
    start: usize,
    count: Option<usize>,
}

fn property_json(v: &PropertyValue) -> Value {
    match v {
        PropertyValue::Bool(b) => json!(b),
        PropertyValue::I8(n) => json!(n),
        PropertyValue::I16(n) => json!(n),
        PropertyValue::I32(n) => json!(n),
        PropertyValue::I64(n) => json!(n),
        PropertyValue::F32(n) => json!(n),
        PropertyValue::F64(n) => json!(n),
        PropertyValue::String(s) => json!(s),
        PropertyValue::Bytes(b) => json!({"bytes": hex(b)}),
        PropertyValue::Null => Value::Null,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A browsed message as the page shows it: descriptor, properties, body as text (when it is
/// UTF-8), as JSON (when it parses) and as hex, the first [`SHOWN_BODY`] bytes.
fn message_json(position: usize, m: &Message) -> Value {
    let d = &m.descriptor;
    let shown = &m.body[..m.body.len().min(SHOWN_BODY)];
    let text = std::str::from_utf8(shown).ok();
    let parsed = text
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .filter(|_| shown.len() == m.body.len());
    let props: serde_json::Map<String, Value> = m
        .properties
        .iter()
        .map(|(k, v)| (k.to_owned(), property_json(v)))
        .collect();
    let (date, time) = ferry_core::model::clock::date_time(d.put_time);
    json!({
        "position": position,
        "msg_id": d.msg_id.to_hex(),
        "correl_id": d.correl_id.to_hex(),
        "persistent": d.persistence == Persistence::Persistent,
        "priority": match d.priority { ferry_core::Priority::Value(p) => json!(p), _ => Value::Null },
        "type": format!("{:?}", d.message_type).to_ascii_uppercase(),
        "format": d.format.as_str().trim(),
        "reply_to_queue": d.reply_to_queue.as_str(),
        "reply_to_qmgr": d.reply_to_qmgr.as_str(),
        "user_id": d.user_id.as_str().trim(),
        "put_appl_name": d.put_appl_name.as_str().trim(),
        "put_time": format!("{date} {time}"),
        "backout_count": d.backout_count,
        "expiry_ms": d.expiry.map(|e| e.as_millis() as u64),
        "length": m.body.len(),
        "properties": props,
        "body_text": text,
        "body_json": parsed,
        "body_hex": hex(shown),
        "truncated": shown.len() < m.body.len(),
    })
}

fn browse_page(
    s: &mut Session,
    name: ferry_core::ObjectName,
    start: usize,
    count: usize,
) -> Result<Vec<Value>, ApiError> {
    let opts = OpenOptions {
        browse: true,
        ..OpenOptions::default()
    };
    let h = s.open(&ObjectDescriptor::queue(name), opts)?;
    let mut out = Vec::with_capacity(count);
    let mut position = 0;
    while out.len() < count {
        let mode = if position == 0 {
            BrowseMode::First
        } else {
            BrowseMode::Next
        };
        let got = match s.get(
            h,
            &GetOptions {
                browse: mode,
                ..GetOptions::new()
            },
        ) {
            Ok(g) => g,
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(e.into()),
        };
        if position >= start {
            out.push(message_json(position, &got.message));
        }
        position += 1;
    }
    Ok(out)
}

/// `GET /api/v1/queues/{name}/messages?start=&count=`: a page of the queue, oldest first in
/// the order a get would take them.
pub(crate) async fn browse(
    State(c): State<Arc<Console>>,
    who: Who,
    axum::Extension(peer): axum::Extension<Peer>,
    Path(name): Path<String>,
    Query(p): Query<Page>,
) -> Result<Response, ApiError> {
    let n = name_of(&name)?;
    let count = p.count.unwrap_or(20).clamp(1, MAX_BROWSE_PAGE);
    if p.start > MAX_BROWSE_START {
        return Err(ApiError::bad(format!("a browse page starts within the first {MAX_BROWSE_START} messages; use ferry browse or unload for deeper ones")));
    }
    let start = p.start;
    let items = with_session(&c, &who, peer, move |s| browse_page(s, n, start, count)).await?;
    let depth = c.qm.queue_status(n.as_str()).map(|s| s.depth).ok();
    Ok(Json(json!({"queue": n.as_str(), "start": start, "count": count, "depth": depth, "items": items})).into_response())
}

#[derive(Deserialize)]
pub(crate) struct NewMessage {
    /// The body: text, or hex with `"encoding": "hex"`.
    body: String,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    persistent: Option<bool>,
    #[serde(default)]
    priority: Option<u8>,
    /// Properties: name to a string, number or boolean.
    #[serde(default)]
    properties: serde_json::Map<String, Value>,
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

fn build_message(m: NewMessage) -> Result<Message, ApiError> {
    let body = match m.encoding.as_deref() {
        None | Some("text") => m.body.into_bytes(),
        Some("hex") => {
            unhex(&m.body).ok_or_else(|| ApiError::bad("the body is not hex: pairs of 0-9 a-f"))?
        }
        Some(other) => {
            return Err(ApiError::bad(format!(
                "encoding {other:?} is not text or hex"
            )))
        }
    };
    let text = matches!(m.encoding.as_deref(), None | Some("text"));
    let mut msg = Message::new(body);
    if text {
        // As amqsput and `ferry put` do: a text body is a string (MQFMT_STRING).
        msg.descriptor.format = ferry_core::model::name::FormatName::truncating("MQSTR");
    }
    match m.persistent {
        Some(true) => msg = msg.with_persistence(Persistence::Persistent),
        Some(false) => msg = msg.with_persistence(Persistence::NotPersistent),
        None => {}
    }
    if let Some(p) = m.priority {
        if p > 9 {
            return Err(ApiError::reason(
                Reason::PriorityError,
                format!("priority {p} is not 0 to 9"),
            ));
        }
        msg = msg.with_priority(p);
    }
    for (k, v) in m.properties {
        let value = match v {
            Value::String(s) => PropertyValue::String(s),
            Value::Bool(b) => PropertyValue::Bool(b),
            Value::Number(n) if n.is_i64() => PropertyValue::I64(n.as_i64().unwrap_or(0)),
            Value::Number(n) => PropertyValue::F64(n.as_f64().unwrap_or(0.0)),
            _ => {
                return Err(ApiError::reason(
                    Reason::PropertyNameError,
                    format!("property {k} must be a string, number or boolean"),
                ))
            }
        };
        msg.properties.set(&k, value)?;
    }
    Ok(msg)
}

/// `POST /api/v1/queues/{name}/messages`: puts one message; its id.
pub(crate) async fn put(
    State(c): State<Arc<Console>>,
    who: Who,
    axum::Extension(peer): axum::Extension<Peer>,
    Path(name): Path<String>,
    body: Result<Json<NewMessage>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(m) =
        body.map_err(|e| crate::error::bad_json(e, "a message is JSON {\"body\": \"…\"}"))?;
    let n = name_of(&name)?;
    let msg = build_message(m)?;
    let len = msg.body.len();
    let out = with_session(&c, &who, peer, move |s| {
        Ok(s.put1(&ObjectDescriptor::queue(n), msg, &PutOptions::default())?)
    })
    .await?;
    c.audit(
        who.user(),
        "put",
        &format!("QUEUE({n})"),
        json!({"msg_id": out.msg_id.to_hex(), "length": len}),
    );
    Ok(Json(json!({"msg_id": out.msg_id.to_hex()})).into_response())
}

#[derive(Deserialize)]
pub(crate) struct Picked {
    msg_ids: Vec<String>,
    /// Move and copy: the queue they go to.
    #[serde(default)]
    to: Option<String>,
}

/// Gets (or, for a copy, browses) each picked message and puts it to `to`, in one unit of
/// work; a message no longer there fails the whole request (2033) and nothing changes.
fn transfer(
    s: &mut Session,
    from: ferry_core::ObjectName,
    ids: &[MsgId],
    to: Option<ferry_core::ObjectName>,
    copy: bool,
) -> Result<usize, ApiError> {
    let opts = if copy {
        OpenOptions {
            browse: true,
            ..OpenOptions::default()
        }
    } else {
        OpenOptions {
            input: ferry_core::InputMode::AsQueueDef,
            ..OpenOptions::default()
        }
    };
    let h = s.open(&ObjectDescriptor::queue(from), opts)?;
    let target = to
        .map(|t| {
            s.open(
                &ObjectDescriptor::queue(t),
                OpenOptions {
                    output: true,
                    ..OpenOptions::default()
                },
            )
        })
        .transpose()?;
    for id in ids {
        let browse = if copy {
            BrowseMode::First
        } else {
            BrowseMode::None
        };
        let gmo = GetOptions {
            msg_id: Some(*id),
            syncpoint: !copy,
            browse,
            ..GetOptions::new()
        };
        let got = s.get(h, &gmo).map_err(|e| match e.reason {
            Reason::NoMsgAvailable => ApiError::reason(Reason::NoMsgAvailable, format!("message {} is no longer on queue {from} (another application got it, or it expired); nothing was changed", id.to_hex())),
            _ => e.into(),
        })?;
        if let Some(t) = target {
            let pmo = PutOptions {
                syncpoint: true,
                ..PutOptions::default()
            };
            s.put(t, got.message, &pmo)
                .map_err(|e: MqError| ApiError::from(e))?;
        }
    }
    s.commit()?;
    Ok(ids.len())
}

/// `POST /api/v1/queues/{name}/messages/{delete|move|copy}` with `{"msg_ids": […], "to": …}`.
pub(crate) async fn act(
    State(c): State<Arc<Console>>,
    who: Who,
    axum::Extension(peer): axum::Extension<Peer>,
    Path((name, action)): Path<(String, String)>,
    body: Result<Json<Picked>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(p) = body.map_err(|e| {
        crate::error::bad_json(
            e,
            "pick messages with JSON {\"msg_ids\": [\"…\"], \"to\": \"QUEUE\"}",
        )
    })?;
    let from = name_of(&name)?;
    if p.msg_ids.is_empty() || p.msg_ids.len() > MAX_PICKED {
        return Err(ApiError::bad(format!(
            "pick 1 to {MAX_PICKED} messages by msg_id"
        )));
    }
    let ids = p
        .msg_ids
        .iter()
        .map(|h| {
            MsgId::from_hex(h)
                .ok_or_else(|| ApiError::bad(format!("{h:?} is not a message id: 48 hex digits")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (copy, to) = match (action.as_str(), p.to.as_deref()) {
        ("delete", None) => (false, None),
        ("delete", Some(_)) => return Err(ApiError::bad("a delete takes no \"to\"")),
        ("move" | "copy", Some(t)) => (action == "copy", Some(name_of(t)?)),
        ("move" | "copy", None) => {
            return Err(ApiError::bad(format!(
                "a {action} needs \"to\": the queue the messages go to"
            )))
        }
        (other, _) => {
            return Err(ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                format!("no message action {other:?}: delete, move or copy"),
            ))
        }
    };
    if to == Some(from) {
        return Err(ApiError::bad("the messages are already on that queue"));
    }
    let done = with_session(&c, &who, peer, move |s| transfer(s, from, &ids, to, copy)).await?;
    let detail = json!({"msg_ids": p.msg_ids, "to": to.map(|t| t.as_str().to_owned())});
    c.audit(who.user(), &action, &format!("QUEUE({from})"), detail);
    Ok(Json(json!({"action": action, "count": done})).into_response())
}
