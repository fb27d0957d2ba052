//! The HTTP/JSON admin API, version 1 (docs/console.md lists every route): logins, the
//! overview, queues (native, paged and filtered on the server), other objects through MQSC
//! DISPLAY, channel actions, MQSC scripts, the audit entries. Messages: messages.rs.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ferry_admin::Reply;
use ferry_core::model::security::{AuthObjType, Authority};
use ferry_core::{object_name, QueueType, Reason};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::auth::{self, Who};
use crate::{ApiError, Console, Peer};

type Api = Result<Response, ApiError>;

pub(crate) fn router(c: Arc<Console>) -> Router {
    Router::new()
        .route("/api/v1/login", post(login))
        .route("/api/v1/logout", post(logout))
        .route("/api/v1/whoami", get(whoami))
        .route("/api/v1/qmgr", get(crate::overview::overview))
        .route("/api/v1/queues", get(list_queues))
        .route(
            "/api/v1/queues/{name}",
            get(queue_detail).patch(crate::alter::alter_queue),
        )
        .route(
            "/api/v1/queues/{name}/messages",
            get(crate::messages::browse).post(crate::messages::put),
        )
        .route(
            "/api/v1/queues/{name}/messages/{action}",
            post(crate::messages::act),
        )
        .route("/api/v1/objects/{kind}", get(list_objects))
        .route(
            "/api/v1/objects/{kind}/{name}",
            get(object_detail).patch(crate::alter::alter_object),
        )
        .route("/api/v1/channels/{name}/{action}", post(channel_action))
        .route("/api/v1/mqsc", post(mqsc))
        .route("/api/v1/audit", get(audit))
        .route("/api/{*rest}", axum::routing::any(unknown_route))
        .with_state(c)
}

async fn unknown_route(Path(rest): Path<String>) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("there is no API route /api/{rest}; the routes are listed in docs/console.md (version 1: /api/v1/…)"),
    )
}

#[derive(Deserialize)]
struct Credentials {
    user: String,
    password: String,
}

async fn login(
    State(c): State<Arc<Console>>,
    axum::Extension(peer): axum::Extension<Peer>,
    axum::Extension(tls): axum::Extension<crate::OverTls>,
    body: Result<Json<Credentials>, axum::extract::rejection::JsonRejection>,
) -> Api {
    let Json(cred) = body.map_err(|e| {
        crate::error::bad_json(e, "the login needs JSON {\"user\": …, \"password\": …}")
    })?;
    let who = auth::admit(&c, cred.user, cred.password, peer.0).await?;
    let token = c.logins.create((*who).clone());
    let secure = if tls.0 { "; Secure" } else { "" };
    let cookie = format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        auth::COOKIE,
        c.settings.login_idle.as_secs()
    );
    tracing::info!(target: "ferry::audit", user = who.user, peer = %peer.0, "console login");
    let mut res = Json(whoami_body(&c, &who)).into_response();
    res.headers_mut()
        .insert(header::SET_COOKIE, cookie.parse().expect("a cookie header"));
    Ok(res)
}

async fn logout(State(c): State<Arc<Console>>, headers: HeaderMap) -> Response {
    if let Some(t) = auth::cookie(&headers, auth::COOKIE) {
        c.logins.remove(t);
    }
    let gone = format!(
        "{}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
        auth::COOKIE
    );
    ([(header::SET_COOKIE, gone)], Json(json!({"ok": true}))).into_response()
}

fn whoami_body(c: &Console, who: &ferry_core::model::security::Principal) -> Value {
    json!({
        "user": who.user,
        "groups": who.groups,
        "admin": who.admin,
        "qmgr": c.qm.name().as_str(),
    })
}

async fn whoami(State(c): State<Arc<Console>>, who: Who) -> Json<Value> {
    Json(whoami_body(&c, &who.0))
}

/// Runs an MQSC script as `who` on a blocking thread.
pub(crate) async fn run_mqsc(c: &Arc<Console>, who: &Who, script: String) -> Vec<Reply> {
    let (qm, p) = (c.qm.clone(), who.0.clone());
    tokio::task::spawn_blocking(move || ferry_admin::run_script_as(&qm, Some(&p), &script))
        .await
        .unwrap_or_default()
}

/// A failed reply as an API error (its first message's reason and sentence).
pub(crate) fn failure(r: &Reply) -> ApiError {
    let m = r
        .messages
        .iter()
        .find(|m| m.reason.is_some())
        .or(r.messages.first());
    let text = m.map_or_else(
        || format!("{} failed", r.command),
        |m| format!("{}: {}", m.code, m.text),
    );
    match m
        .and_then(|m| m.reason)
        .and_then(|c| Reason::from_code(c as u32))
    {
        Some(reason) => ApiError::reason(reason, text),
        None => ApiError::bad(text),
    }
}

/// The attribute maps of DISPLAY replies; an unknown generic name is no rows, not an error.
pub(crate) fn rows(replies: &[Reply]) -> Result<Vec<Map<String, Value>>, ApiError> {
    let mut out = Vec::new();
    for r in replies {
        if !r.ok {
            let none = r
                .messages
                .iter()
                .any(|m| m.reason == Some(Reason::UnknownObjectName.code() as i32));
            if none && r.command.contains('*') {
                continue;
            }
            return Err(failure(r));
        }
    }
    for reply in ferry_admin::format::json(replies)
        .as_array()
        .into_iter()
        .flatten()
    {
        for m in reply["messages"].as_array().into_iter().flatten() {
            if let Some(a) = m.get("attributes").and_then(Value::as_object) {
                out.push(a.clone());
            }
        }
    }
    Ok(out)
}

/// The attribute maps of whichever DISPLAY replies succeeded.
pub(crate) fn rows_of(replies: &[Reply]) -> Vec<Map<String, Value>> {
    let good: Vec<Reply> = replies.iter().filter(|r| r.ok).cloned().collect();
    rows(&good).unwrap_or_default()
}

/// An MQSC quoted string.
pub(crate) fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// An object name from a path, checked as MQ names are (48 characters of A-Z a-z 0-9 . / _ %).
pub(crate) fn name_of(s: &str) -> Result<ferry_core::ObjectName, ApiError> {
    object_name(s).map_err(ApiError::from)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct ListQuery {
    /// Names containing this (case-insensitive); a trailing `*` makes it a prefix as in MQSC.
    name: Option<String>,
    /// QLOCAL, QALIAS, QREMOTE, QMODEL.
    r#type: Option<String>,
    /// name, depth, full, puts, gets.
    sort: Option<String>,
    desc: bool,
    page: usize,
    size: Option<usize>,
    /// Include SYSTEM.* objects.
    system: bool,
}

/// Most rows a page holds.
pub(crate) const MAX_PAGE: usize = 500;

fn name_matches(name: &str, filter: Option<&str>, system: bool) -> bool {
    if !system && name.starts_with("SYSTEM.") {
        return false;
    }
    match filter.map(str::trim).filter(|f| !f.is_empty()) {
        None => true,
        Some(f) => match f.strip_suffix('*') {
            Some(prefix) => name
                .to_ascii_uppercase()
                .starts_with(&prefix.to_ascii_uppercase()),
            None => name.to_ascii_uppercase().contains(&f.to_ascii_uppercase()),
        },
    }
}

fn type_name(t: QueueType) -> &'static str {
    match t {
        QueueType::Local => "QLOCAL",
        QueueType::Alias => "QALIAS",
        QueueType::Remote => "QREMOTE",
        QueueType::Model => "QMODEL",
    }
}

/// One row of the queue list: definition, status and rates.
pub(crate) fn queue_row(
    c: &Console,
    name: ferry_core::ObjectName,
    t: QueueType,
    rates: &(
        f64,
        HashMap<ferry_core::ObjectName, (crate::history::QSample, u32)>,
    ),
) -> Value {
    let mut row = json!({ "name": name.as_str(), "type": type_name(t) });
    if t != QueueType::Local {
        return row;
    }
    let Ok(q) = c.qm.local_queue(&name) else {
        return row;
    };
    let (depth, max_depth, uncom, ipprocs, opprocs) = {
        let st = q.lock();
        let depth = st.store.depth();
        (
            depth,
            st.attrs.max_depth,
            depth - st.store.available(),
            st.open_input,
            st.open_output,
        )
    };
    let (secs, latest) = rates;
    let (puts, gets, growth) = latest.get(&name).map_or((0.0, 0.0, 0i64), |(s, before)| {
        let per = |n: u32| {
            if *secs > 0.0 {
                f64::from(n) / secs
            } else {
                0.0
            }
        };
        (
            per(s.puts),
            per(s.gets),
            i64::from(s.depth) - i64::from(*before),
        )
    });
    row["depth"] = depth.into();
    row["max_depth"] = max_depth.into();
    row["full"] = (if max_depth == 0 {
        100.0
    } else {
        depth as f64 * 100.0 / max_depth as f64
    })
    .into();
    row["uncommitted"] = uncom.into();
    row["ipprocs"] = ipprocs.into();
    row["opprocs"] = opprocs.into();
    row["puts_per_sec"] = ((puts * 10.0).round() / 10.0).into();
    row["gets_per_sec"] = ((gets * 10.0).round() / 10.0).into();
    row["growth"] = growth.into();
    row
}

/// The queues `who` may display, filtered, sorted and paged on the server.
async fn list_queues(State(c): State<Arc<Console>>, who: Who, Query(q): Query<ListQuery>) -> Api {
    let size = q.size.unwrap_or(50).clamp(1, MAX_PAGE);
    let wanted = q.r#type.as_deref().map(str::to_ascii_uppercase);
    let visible: Vec<_> =
        c.qm.queue_names()
            .into_iter()
            .filter(|(n, t)| {
                name_matches(n.as_str(), q.name.as_deref(), q.system)
                    && wanted
                        .as_deref()
                        .is_none_or(|w| w == type_name(*t) || w == "QUEUE")
            })
            .filter(|(n, _)| {
                c.qm.authority(AuthObjType::Queue, n.as_str(), &who.0)
                    .contains(Authority::DSP)
            })
            .collect();
    let rates = c.history.latest(c.growth_window());
    let mut items: Vec<Value> = match q.sort.as_deref().unwrap_or("name") {
        "name" => {
            // Only the page needs its status when the order is the name's.
            let mut v = visible;
            if q.desc {
                v.reverse();
            }
            let total = v.len();
            let page: Vec<_> = v.into_iter().skip(q.page * size).take(size).map(|(n, t)| queue_row(&c, n, t, &rates)).collect();
            return Ok(Json(json!({"total": total, "page": q.page, "size": size, "items": page})).into_response());
        }
        key @ ("depth" | "full" | "puts_per_sec" | "gets_per_sec" | "growth" | "type") => {
            let mut v: Vec<Value> = visible.into_iter().map(|(n, t)| queue_row(&c, n, t, &rates)).collect();
            v.sort_by(|a, b| compare(&a[key], &b[key]).then_with(|| compare(&a["name"], &b["name"])));
            v
        }
        other => return Err(ApiError::bad(format!("cannot sort by {other:?}: sort by name, type, depth, full, puts_per_sec, gets_per_sec or growth"))),
    };
    if q.desc {
        items.reverse();
    }
    let total = items.len();
    let page: Vec<Value> = items.into_iter().skip(q.page * size).take(size).collect();
    Ok(Json(json!({"total": total, "page": q.page, "size": size, "items": page})).into_response())
}

/// Orders JSON numbers numerically and everything else as text (missing values first).
pub(crate) fn compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (None, None) => a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")),
    }
}

async fn queue_detail(State(c): State<Arc<Console>>, who: Who, Path(name): Path<String>) -> Api {
    let attrs = crate::alter::definition(&c, &who, "queues", &name).await?;
    let n = name_of(&name)?;
    let qtype = crate::alter::type_of("queues", &attrs);
    let t = match qtype.as_str() {
        "QLOCAL" => QueueType::Local,
        "QALIAS" => QueueType::Alias,
        "QREMOTE" => QueueType::Remote,
        _ => QueueType::Model,
    };
    let status = queue_row(&c, n, t, &c.history.latest(c.growth_window()));
    let history: Vec<Value> = c
        .history
        .queue(&n)
        .iter()
        .map(|(t, s)| {
            let per = |v: u32| if t.secs > 0.0 { f64::from(v) / t.secs } else { 0.0 };
            json!({"t": t.t_ms, "depth": s.depth, "puts_per_sec": per(s.puts), "gets_per_sec": per(s.gets)})
        })
        .collect();
    let settable = crate::alter::settable_json("queues", &qtype);
    let etag = crate::alter::version(&attrs);
    let body = json!({
        "name": n.as_str(), "type": qtype, "version": etag, "attributes": attrs,
        "settable": settable, "status": status, "history": history,
        "sample_secs": c.settings.sample_every.as_secs_f64(),
    });
    Ok(([(header::ETAG, etag)], Json(body)).into_response())
}

/// The object lists served through MQSC DISPLAY: (kind in the path, the DISPLAY of one object
/// with `{}` for its name, the attribute that names a row).
const KINDS: &[(&str, &str, &str)] = &[
    ("channels", "DISPLAY CHANNEL({}) ALL", "CHANNEL"),
    ("chstatus", "DISPLAY CHSTATUS({}) ALL", "CHANNEL"),
    ("topics", "DISPLAY TOPIC({}) ALL", "TOPIC"),
    ("subs", "DISPLAY SUB({}) ALL", "SUB"),
    ("listeners", "DISPLAY LISTENER({}) ALL", "LISTENER"),
    ("lsstatus", "DISPLAY LSSTATUS({}) ALL", "LISTENER"),
    ("connections", "DISPLAY CONN({}) ALL", "CONN"),
];

pub(crate) fn kind(
    k: &str,
) -> Result<&'static (&'static str, &'static str, &'static str), ApiError> {
    KINDS.iter().find(|(name, _, _)| *name == k).ok_or_else(|| {
        let known: Vec<_> = KINDS.iter().map(|k| k.0).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no object kind {k:?}: the kinds are queues, {}",
                known.join(", ")
            ),
        )
    })
}

/// Channels with their status beside their definition (INACTIVE when no instance runs).
async fn channel_rows(c: &Arc<Console>, who: &Who) -> Result<Vec<Map<String, Value>>, ApiError> {
    let defs = rows(&run_mqsc(c, who, "DISPLAY CHANNEL(*) ALL".into()).await)?;
    let status = rows(&run_mqsc(c, who, "DISPLAY CHSTATUS(*) ALL".into()).await)?;
    Ok(defs
        .into_iter()
        .map(|mut d| {
            let s = status.iter().find(|s| s.get("CHANNEL") == d.get("CHANNEL"));
            d.insert(
                "STATUS".into(),
                s.and_then(|s| s.get("STATUS"))
                    .cloned()
                    .unwrap_or_else(|| "INACTIVE".into()),
            );
            d
        })
        .collect())
}

async fn list_objects(
    State(c): State<Arc<Console>>,
    who: Who,
    Path(k): Path<String>,
    Query(q): Query<ListQuery>,
) -> Api {
    let (k, display, key) = kind(&k)?;
    let all = if *k == "channels" {
        channel_rows(&c, &who).await?
    } else {
        rows(&run_mqsc(&c, &who, display.replace("{}", "*")).await)?
    };
    let size = q.size.unwrap_or(50).clamp(1, MAX_PAGE);
    let mut items: Vec<Value> = all
        .into_iter()
        .filter(|r| {
            let name = r
                .get(*key)
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .unwrap_or_default();
            name_matches(&name, q.name.as_deref(), q.system || *k == "connections")
        })
        .map(Value::Object)
        .collect();
    let sort = q.sort.clone().unwrap_or_else(|| (*key).to_owned());
    items.sort_by(|a, b| compare(&a[&sort], &b[&sort]));
    if q.desc {
        items.reverse();
    }
    let total = items.len();
    let page: Vec<Value> = items.into_iter().skip(q.page * size).take(size).collect();
    Ok(Json(
        json!({"kind": k, "key": key, "total": total, "page": q.page, "size": size, "items": page}),
    )
    .into_response())
}

async fn object_detail(
    State(c): State<Arc<Console>>,
    who: Who,
    Path((k, name)): Path<(String, String)>,
) -> Api {
    let (k, display, _) = kind(&k)?;
    if name.is_empty() || name.len() > 256 || name.contains('*') {
        return Err(ApiError::bad(format!("{name:?} is not one object's name")));
    }
    let found = rows(&run_mqsc(&c, &who, display.replace("{}", &quoted(&name))).await)?;
    let Some(attrs) = found.first() else {
        return Err(ApiError::reason(
            Reason::UnknownObjectName,
            format!("{k} {name} is not defined"),
        ));
    };
    let otype = crate::alter::type_of(k, attrs);
    let mut body = json!({
        "kind": k, "name": name, "attributes": attrs,
        "settable": crate::alter::settable_json(k, &otype),
        "version": crate::alter::version(attrs),
    });
    let status = match *k {
        "channels" => Some(format!("DISPLAY CHSTATUS({}) ALL", quoted(&name))),
        "subs" => Some(format!("DISPLAY SBSTATUS({}) ALL", quoted(&name))),
        "listeners" => Some(format!("DISPLAY LSSTATUS({}) ALL", quoted(&name))),
        _ => None,
    };
    if let Some(command) = status {
        body["status"] = json!(rows_of(&run_mqsc(&c, &who, command).await));
    }
    body["history"] = object_history(&c, k, &name, attrs);
    Ok(Json(body).into_response())
}

/// The charts of an object's page: a channel's messages moved per second and (a sender's)
/// transmission queue's depth; a subscription's destination queue's depth and rates.
fn object_history(c: &Console, kind: &str, name: &str, attrs: &Map<String, Value>) -> Value {
    let queue_of = |key: &str| {
        attrs
            .get(key)
            .and_then(Value::as_str)
            .and_then(|q| object_name(q).ok())
    };
    let (rate, depth_of) = match kind {
        "channels" => {
            let rate = object_name(name)
                .map(|n| c.history.channel(&n))
                .unwrap_or_default();
            (rate, queue_of("XMITQ"))
        }
        "subs" => (Vec::new(), queue_of("DEST")),
        _ => return Value::Null,
    };
    let per = |t: &crate::history::Totals, v: u32| {
        if t.secs > 0.0 {
            f64::from(v) / t.secs
        } else {
            0.0
        }
    };
    let depth = depth_of.map(|q| c.history.queue(&q)).unwrap_or_default();
    json!({
        "sample_secs": c.settings.sample_every.as_secs_f64(),
        "rate": rate.iter().map(|(t, s)| json!({"t": t.t_ms, "per_sec": per(t, s.puts)})).collect::<Vec<_>>(),
        "depth_of": depth_of.map(|q| q.as_str().to_owned()),
        "depth": depth.iter().map(|(t, s)| json!({"t": t.t_ms, "depth": s.depth, "puts_per_sec": per(t, s.puts), "gets_per_sec": per(t, s.gets)})).collect::<Vec<_>>(),
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ChannelAsk {
    /// RESOLVE: COMMIT or BACKOUT.
    action: Option<String>,
    /// RESET: the sequence number.
    seqnum: Option<u32>,
    /// STOP: QUIESCE (the default), FORCE or TERMINATE.
    mode: Option<String>,
}

/// START, STOP, PING, RESOLVE and RESET CHANNEL, as MQSC with the caller's authority.
async fn channel_action(
    State(c): State<Arc<Console>>,
    who: Who,
    Path((name, action)): Path<(String, String)>,
    body: Option<Json<ChannelAsk>>,
) -> Api {
    let ask = body.map(|b| b.0).unwrap_or_default();
    let n = name_of(&name)?;
    let ch = quoted(n.as_str());
    let command = match action.as_str() {
        "start" => format!("START CHANNEL({ch})"),
        "ping" => format!("PING CHANNEL({ch})"),
        "stop" => match ask.mode.as_deref().map(str::to_ascii_uppercase) {
            None => format!("STOP CHANNEL({ch})"),
            Some(m) if ["QUIESCE", "FORCE", "TERMINATE"].contains(&m.as_str()) => format!("STOP CHANNEL({ch}) MODE({m})"),
            Some(m) => return Err(ApiError::reason(Reason::AttributeValueError, format!("MODE({m}) is not QUIESCE, FORCE or TERMINATE"))),
        },
        "resolve" => match ask.action.as_deref().map(str::to_ascii_uppercase) {
            Some(a) if a == "COMMIT" || a == "BACKOUT" => format!("RESOLVE CHANNEL({ch}) ACTION({a})"),
            _ => return Err(ApiError::reason(Reason::AttributeValueError, "RESOLVE CHANNEL needs {\"action\": \"COMMIT\"} or {\"action\": \"BACKOUT\"}: what to do with the batch in doubt")),
        },
        "reset" => match ask.seqnum {
            Some(s) => format!("RESET CHANNEL({ch}) SEQNUM({s})"),
            None => format!("RESET CHANNEL({ch})"),
        },
        other => return Err(ApiError::new(StatusCode::NOT_FOUND, format!("no channel action {other:?}: start, stop, ping, resolve or reset"))),
    };
    let replies = run_mqsc(&c, &who, command.clone()).await;
    if let Some(r) = replies.iter().find(|r| !r.ok) {
        return Err(failure(r));
    }
    c.audit(
        who.user(),
        &action,
        &format!("CHANNEL({n})"),
        json!({"command": command}),
    );
    Ok(Json(ferry_admin::format::json(&replies)).into_response())
}

#[derive(Deserialize)]
struct Script {
    script: String,
}

/// Runs an MQSC script with the executor `ferry admin` uses, as the caller; the replies as
/// `ferry admin --json` prints them (a failed command is a reply with `"ok": false`, not an
/// HTTP error).
async fn mqsc(
    State(c): State<Arc<Console>>,
    who: Who,
    body: Result<Json<Script>, axum::extract::rejection::JsonRejection>,
) -> Api {
    let Json(s) =
        body.map_err(|e| crate::error::bad_json(e, "an MQSC request is JSON {\"script\": \"…\"}"))?;
    if s.script.trim().is_empty() {
        return Err(ApiError::bad(
            "the script is empty: give one or more MQSC commands",
        ));
    }
    let replies = run_mqsc(&c, &who, s.script.clone()).await;
    let changed = replies
        .iter()
        .filter(|r| !r.command.to_ascii_uppercase().starts_with("DIS"))
        .count();
    if changed > 0 {
        let commands: Vec<_> = replies.iter().map(|r| r.command.clone()).collect();
        c.audit(who.user(), "mqsc", "", json!({"commands": commands}));
    }
    Ok(Json(ferry_admin::format::json(&replies)).into_response())
}

async fn audit(State(c): State<Arc<Console>>, who: Who) -> Api {
    c.qm.check_authority(
        &who.0,
        AuthObjType::QMgr,
        c.qm.name().as_str(),
        Authority::DSP,
    )?;
    let kept: Vec<Value> = c.audit.lock().iter().rev().cloned().collect();
    Ok(Json(json!({"items": kept})).into_response())
}
