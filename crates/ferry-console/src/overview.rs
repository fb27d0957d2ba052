//! `GET /api/v1/qmgr`: the overview page's data — status, uptime, connections, the log, the
//! rates of the last minutes, the deepest and fastest-growing queues, channels not running,
//! the MQTT listeners' clients and totals, and the alerts (queue full, depth high, disk full or
//! low, authority failures).

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ferry_core::model::security::{AuthObjType, Authority};
use serde_json::{json, Value};

use crate::api::run_mqsc;
use crate::auth::Who;
use crate::{ApiError, Console};

/// A queue this full (per cent of MAXDEPTH) is "depth high".
pub(crate) const DEPTH_HIGH_PCT: f64 = 80.0;
/// Free disk below this share of the log's disk is "disk low".
pub(crate) const DISK_LOW_PCT: f64 = 10.0;

pub(crate) async fn overview(
    State(c): State<Arc<Console>>,
    who: Who,
) -> Result<Response, ApiError> {
    let qm = &c.qm;
    qm.check_authority(
        &who.0,
        AuthObjType::QMgr,
        qm.name().as_str(),
        Authority::DSP,
    )?;
    let totals = c.history.totals();
    let rates: Vec<Value> = totals
        .iter()
        .skip(1)
        .map(|t| {
            let per = |v: u64| if t.secs > 0.0 { v as f64 / t.secs } else { 0.0 };
            json!({"t": t.t_ms, "puts_per_sec": per(t.puts), "gets_per_sec": per(t.gets),
                   "depth": t.depth, "connections": t.connections})
        })
        .collect();
    let queues = visible_queues(&c, &who);
    let mut alerts = queue_alerts(&queues);
    let failures: u64 = totals.iter().map(|t| t.auth_failures).sum();
    if failures > 0 {
        let mins = (totals.len() as f64 * c.settings.sample_every.as_secs_f64() / 60.0).ceil();
        alerts.push(alert("warning", "security", format!(
            "{failures} authentication or authority failures in the last {mins} min: see the queue manager's log (and SYSTEM.ADMIN.QMGR.EVENT when AUTHOREV is on)"
        )));
    }
    let log = log_json(&c, &mut alerts);
    let not_running = channels_not_running(&c, &who, &mut alerts).await;
    let (deepest, growing) = (
        top(&c, &queues, |q| q.depth as i64),
        top(&c, &queues, |q| q.growth),
    );
    let budget = qm.memory_budget();
    let body = json!({
        "qmgr": qm.name().as_str(),
        "status": format!("{:?}", qm.run_state()).to_ascii_uppercase(),
        "uptime_secs": c.started.elapsed().as_secs(),
        "connections": qm.connections().len(),
        "console_logins": c.logins.count(),
        "queues": queues.len(),
        "memory": {"used": budget.used(), "limit": budget.limit()},
        "log": log,
        "sample_secs": c.settings.sample_every.as_secs_f64(),
        "rates": rates,
        "deepest": deepest,
        "growing": growing,
        "channels_not_running": not_running,
        "mqtt": mqtt_listeners(qm),
        "alerts": alerts,
    });
    Ok(Json(body).into_response())
}

/// Channel instances whose status is not RUNNING (retrying, stopped, binding…), each an alert.
async fn channels_not_running(c: &Arc<Console>, who: &Who, alerts: &mut Vec<Value>) -> Vec<Value> {
    let channels =
        crate::api::rows_of(&run_mqsc(c, who, "DISPLAY CHSTATUS(*) STATUS".into()).await);
    let not_running: Vec<Value> = channels
        .into_iter()
        .filter(|r| r.get("STATUS").and_then(Value::as_str) != Some("RUNNING"))
        .map(Value::Object)
        .collect();
    for ch in &not_running {
        let (name, status) = (
            ch["CHANNEL"].as_str().unwrap_or("?"),
            ch["STATUS"].as_str().unwrap_or("?"),
        );
        alerts.push(alert(
            "warning",
            "channel",
            format!("channel {name} is {status}"),
        ));
    }
    not_running
}

/// The MQTT service's listener channels: clients now, and CONNECTs and PUBLISH packets each
/// way since start (the page turns the totals into rates between its refreshes).
fn mqtt_listeners(qm: &ferry_core::QueueManager) -> Vec<Value> {
    qm.mqtt_service()
        .listeners
        .into_iter()
        .map(|t| {
            json!({"channel": t.channel, "clients": t.clients, "connects": t.connects,
                   "msgs_sent": t.msgs_sent, "msgs_received": t.msgs_received})
        })
        .collect()
}

fn alert(level: &str, kind: &str, text: String) -> Value {
    json!({"level": level, "kind": kind, "text": text})
}

/// What the overview needs of one local queue.
struct Brief {
    name: ferry_core::ObjectName,
    depth: usize,
    max_depth: usize,
    growth: i64,
}

/// The local queues `who` may display: name, depth, MAXDEPTH and growth over the last minute,
/// from the sampler's counters and one look at each queue (no rows built for all of them).
fn visible_queues(c: &Console, who: &Who) -> Vec<Brief> {
    let (_, latest) = c.history.latest(c.growth_window());
    c.qm.queue_counters()
        .into_iter()
        .filter(|(n, ..)| {
            c.qm.authority(AuthObjType::Queue, n.as_str(), &who.0)
                .contains(Authority::DSP)
        })
        .filter_map(|(name, depth, ..)| {
            let max_depth = c.qm.local_queue(&name).ok()?.lock().attrs.max_depth;
            let growth = latest
                .get(&name)
                .map_or(0, |(s, before)| i64::from(s.depth) - i64::from(*before));
            Some(Brief {
                name,
                depth,
                max_depth,
                growth,
            })
        })
        .collect()
}

/// The five queues highest by `key` (above 0), as the queue list's rows.
fn top(c: &Console, queues: &[Brief], key: impl Fn(&Brief) -> i64) -> Vec<Value> {
    let mut v: Vec<&Brief> = queues.iter().filter(|q| key(q) > 0).collect();
    v.sort_by(|a, b| key(b).cmp(&key(a)).then(a.name.cmp(&b.name)));
    let rates = c.history.latest(c.growth_window());
    v.into_iter()
        .take(5)
        .map(|q| crate::api::queue_row(c, q.name, ferry_core::QueueType::Local, &rates))
        .collect()
}

/// Alerts shown at most; beyond, one line counts the rest.
pub(crate) const MAX_QUEUE_ALERTS: usize = 50;

fn queue_alerts(queues: &[Brief]) -> Vec<Value> {
    let mut alerts = Vec::new();
    let mut more = 0;
    for q in queues {
        let full = if q.max_depth == 0 {
            100.0
        } else {
            q.depth as f64 * 100.0 / q.max_depth as f64
        };
        if full < DEPTH_HIGH_PCT {
            continue;
        }
        if alerts.len() >= MAX_QUEUE_ALERTS {
            more += 1;
            continue;
        }
        let (name, depth, max) = (q.name.as_str(), q.depth, q.max_depth);
        alerts.push(if full >= 100.0 {
            alert("error", "queue full", format!("queue {name} is full ({depth} of MAXDEPTH {max}): puts get MQRC_Q_FULL (2053) until messages are got or MAXDEPTH is raised"))
        } else {
            alert("warning", "depth high", format!("queue {name} is {full:.0}% full ({depth} of MAXDEPTH {max})"))
        });
    }
    if more > 0 {
        alerts.push(alert("warning", "depth high", format!("{more} more queues are at least {DEPTH_HIGH_PCT:.0}% full: sort the Queues page by Full")));
    }
    alerts
}

/// The recovery log's figures, and its alerts (disk full; disk low when the server told how
/// to measure the disk).
fn log_json(c: &Console, alerts: &mut Vec<Value>) -> Value {
    let disk = c.disk.as_ref().and_then(|f| f());
    if let Some((free, total)) = disk {
        let pct = if total == 0 {
            100.0
        } else {
            free as f64 * 100.0 / total as f64
        };
        if pct < DISK_LOW_PCT {
            alerts.push(alert("warning", "disk low", format!("the recovery log's disk has {} MiB free ({pct:.1}%): persistent puts are refused (2102) when it fills", free >> 20)));
        }
    }
    let Some(l) = c.qm.log_status() else {
        return json!(null);
    };
    if let Some(why) = &l.disk_full {
        alerts.push(alert(
            "error",
            "disk full",
            format!("the recovery log cannot grow: {why}"),
        ));
    }
    json!({
        "circular": l.circular, "current_extent": l.current_extent, "oldest_extent": l.oldest_extent,
        "extents": l.current_extent.saturating_sub(l.oldest_extent) + 1,
        "syncs": l.syncs, "records": l.records, "bytes_appended": l.bytes_appended,
        "disk_full": l.disk_full, "disk_free": disk.map(|d| d.0), "disk_total": disk.map(|d| d.1),
    })
}
