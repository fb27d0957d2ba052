//! Messages moved between queues and files, and requests that wait for their replies: `ferry
//! move` and `copy` (as MQ's dmpmqmsg does between queues), `unload` and `load` (to and from a
//! file of JSON lines, one message each, every descriptor field and property kept), and
//! `request` (amqsreq).
//!
//! Context: moved, copied and loaded messages keep their identity and origin (msg id, user,
//! application, put time): the target is opened with MQOO_SET_ALL_CONTEXT, so the user needs
//! SETALL on it. A move gets and puts each message in one unit of work: a failed put leaves the
//! message where it was.

use std::io::{BufRead, Write};
use std::time::{Duration, SystemTime};

use ferry_client::{
    BrowseMode, CloseOptions, Connection, CorrelId, GetOptions, Got, Message, MessageType, MsgId,
    ObjectDescriptor, OpenOptions, Persistence, Priority, PropertyValue, PutOptions, Reason,
    Selector,
};
use ferry_model::name::{object_name, ApplName, FormatName, UserId};
use ferry_model::options::PutContext;
use serde_json::{json, Value};

use super::{connect, dump, spec, Resolved};
use crate::CliError;

/// Takes up to `limit` messages from `h` — browsed (`browse`), or got in a unit of work each —
/// and hands each to `each`; a got message is committed once `each` has done with it, and
/// backed out (left where it was) if `each` fails. How many were handled.
fn each_message(
    conn: &mut Connection,
    h: ferry_client::Hobj,
    browse: bool,
    limit: Option<usize>,
    mut each: impl FnMut(&mut Connection, Got, usize) -> Result<(), CliError>,
) -> Result<usize, CliError> {
    let mut get = if browse {
        GetOptions::new().browse(BrowseMode::First)
    } else {
        GetOptions::new().syncpoint()
    };
    let mut n = 0;
    while limit.is_none_or(|l| n < l) {
        let got = match conn.get(h, &get) {
            Ok(g) => g,
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(e.into()),
        };
        if browse {
            get = GetOptions::new().browse(BrowseMode::Next);
        }
        if let Err(e) = each(conn, got, n) {
            if !browse {
                conn.backout()?;
            }
            return Err(e);
        }
        if !browse {
            conn.commit()?;
        }
        n += 1;
    }
    Ok(n)
}

fn input_or_browse(browse: bool) -> OpenOptions {
    if browse {
        OpenOptions::browse()
    } else {
        OpenOptions::input()
    }
}

/// Moves (`keep` false) or copies up to `limit` messages from `t.queue` to `to`; how many.
pub fn transfer(
    t: &Resolved,
    to: &str,
    limit: Option<usize>,
    keep: bool,
) -> Result<usize, CliError> {
    let mut conn = connect(t, if keep { "ferry copy" } else { "ferry move" })?;
    let from = conn.open_queue(&t.queue, input_or_browse(keep))?;
    let mut out_opts = OpenOptions::output();
    out_opts.set_all_context = true;
    let dest = conn.open_queue(to, out_opts)?;
    let put = PutOptions {
        syncpoint: !keep,
        context: PutContext::SetAll,
        ..Default::default()
    };
    let n = each_message(&mut conn, from, keep, limit, |c, got, n| {
        c.put(dest, got.message, &put).map(|_| ()).map_err(|e| {
            CliError::from(e).with_hint(format!(
                "{n} message(s) had been done before this one; it stays on {}",
                t.queue
            ))
        })
    })?;
    conn.close(from, CloseOptions::None)?;
    conn.close(dest, CloseOptions::None)?;
    conn.disconnect()?;
    Ok(n)
}

/// Writes up to `limit` messages of `t.queue` to `out` as JSON lines: browsed (`browse`) or
/// got, each got committed only once its line is written. How many.
pub fn unload(
    t: &Resolved,
    out: &mut impl Write,
    browse: bool,
    limit: Option<usize>,
) -> Result<usize, CliError> {
    let mut conn = connect(t, "ferry unload")?;
    let h = conn.open_queue(&t.queue, input_or_browse(browse))?;
    let n = each_message(&mut conn, h, browse, limit, |_, got, _| {
        let line = to_json(&got).to_string();
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| {
                CliError::output(
                    &e,
                    format!(
                        "cannot write the messages: {e}; the message was left on {}",
                        t.queue
                    ),
                )
            })
    })?;
    conn.close(h, CloseOptions::None)?;
    conn.disconnect()?;
    Ok(n)
}

/// Puts every JSON line of `input` on `t.queue`, keeping each message's context. How many.
pub fn load(t: &Resolved, input: impl BufRead) -> Result<usize, CliError> {
    let mut conn = connect(t, "ferry load")?;
    let mut opts = OpenOptions::output();
    opts.set_all_context = true;
    let h = conn.open_queue(&t.queue, opts)?;
    let put = PutOptions {
        context: PutContext::SetAll,
        ..Default::default()
    };
    let mut n = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| CliError::other(format!("cannot read the messages: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let m = from_json(&line).map_err(|e| CliError::other(format!("line {}: {e}", i + 1)))?;
        conn.put(h, m, &put)?;
        n += 1;
    }
    conn.close(h, CloseOptions::None)?;
    conn.disconnect()?;
    Ok(n)
}

/// One message as a JSON object.
fn to_json(got: &Got) -> Value {
    let m = &got.message;
    let d = &m.descriptor;
    let props: Vec<Value> = m
        .properties
        .iter()
        .map(|(n, v)| property_json(n, v))
        .collect();
    let millis = d
        .put_time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |t| t.as_millis() as u64);
    json!({
        "msg_id": d.msg_id.to_hex(),
        "correl_id": d.correl_id.to_hex(),
        "format": d.format.as_str(),
        "type": d.message_type as u32,
        "priority": match d.priority { Priority::Value(p) => p as i64, Priority::AsQueueDef => -1 },
        "persistent": d.persistence == Persistence::Persistent,
        "expiry_ms": d.expiry.map(|e| e.as_millis() as u64),
        "feedback": d.feedback,
        "report": d.report,
        "reply_to_q": d.reply_to_queue.as_str(),
        "reply_to_qmgr": d.reply_to_qmgr.as_str(),
        "user_id": d.user_id.as_str(),
        "appl_name": d.put_appl_name.as_str(),
        "put_time_ms": millis,
        "encoding": d.encoding,
        "ccsid": d.ccsid,
        "properties": props,
        "body": dump::hex(&m.body),
    })
}

fn property_json(name: &str, v: &PropertyValue) -> Value {
    let (kind, value) = match v {
        PropertyValue::Bool(b) => ("bool", json!(b)),
        PropertyValue::I8(x) => ("i8", json!(x)),
        PropertyValue::I16(x) => ("i16", json!(x)),
        PropertyValue::I32(x) => ("i32", json!(x)),
        PropertyValue::I64(x) => ("i64", json!(x)),
        PropertyValue::F32(x) => ("f32", json!(x)),
        PropertyValue::F64(x) => ("f64", json!(x)),
        PropertyValue::String(s) => ("string", json!(s)),
        PropertyValue::Bytes(b) => ("bytes", json!(dump::hex(b))),
        PropertyValue::Null => ("null", Value::Null),
    };
    json!({"name": name, "type": kind, "value": value})
}

/// A message from its JSON line.
fn from_json(line: &str) -> Result<Message, String> {
    let j: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let s = |k: &str| j.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let u = |k: &str| j.get(k).and_then(Value::as_u64);
    let body = spec::hex(&s("body")).ok_or("body: not hex")?;
    let mut m = Message::new(body);
    let d = &mut m.descriptor;
    d.msg_id = MsgId::from_hex(&s("msg_id")).ok_or("msg_id: not 48 hex digits")?;
    d.correl_id = CorrelId::from_hex(&s("correl_id")).ok_or("correl_id: not 48 hex digits")?;
    d.format = FormatName::truncating(&s("format"));
    d.message_type = match u("type") {
        Some(1) => MessageType::Request,
        Some(2) => MessageType::Reply,
        Some(4) => MessageType::Report,
        _ => MessageType::Datagram,
    };
    d.priority = match j.get("priority").and_then(Value::as_i64) {
        Some(p @ 0..=9) => Priority::Value(p as u8),
        _ => Priority::AsQueueDef,
    };
    d.persistence = match j.get("persistent").and_then(Value::as_bool) {
        Some(true) => Persistence::Persistent,
        _ => Persistence::NotPersistent,
    };
    d.expiry = u("expiry_ms").map(Duration::from_millis);
    d.feedback = u("feedback").unwrap_or(0) as u32;
    d.report = u("report").unwrap_or(0) as u32;
    let name = |k: &str| match s(k).trim() {
        "" => Ok(ferry_client::ObjectName::default()),
        n => object_name(n).map_err(|e| format!("{k}: {e}")),
    };
    d.reply_to_queue = name("reply_to_q")?;
    d.reply_to_qmgr = name("reply_to_qmgr")?;
    d.user_id = UserId::truncating(&s("user_id"));
    d.put_appl_name = ApplName::truncating(&s("appl_name"));
    d.put_time = SystemTime::UNIX_EPOCH + Duration::from_millis(u("put_time_ms").unwrap_or(0));
    d.encoding = u("encoding").unwrap_or(546) as u32;
    d.ccsid = u("ccsid").unwrap_or(1208) as u32;
    for p in j
        .get("properties")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (name, v) = property_from_json(p)?;
        m.properties.set(&name, v).map_err(|e| e.to_string())?;
    }
    Ok(m)
}

fn property_from_json(p: &Value) -> Result<(String, PropertyValue), String> {
    let name = p
        .get("name")
        .and_then(Value::as_str)
        .ok_or("a property without a name")?;
    let kind = p.get("type").and_then(Value::as_str).unwrap_or("string");
    let v = p.get("value").cloned().unwrap_or(Value::Null);
    let text = match (&v, kind) {
        (_, "null") => String::new(),
        (Value::String(s), _) => s.clone(),
        (other, _) => other.to_string(),
    };
    let arg = format!("{name}:{kind}={text}");
    spec::property(&arg).map_err(|e| format!("property {name}: {e:?}"))
}

/// `ferry request`: each line of `input` as a request on `t.queue` whose reply comes to a
/// temporary dynamic queue (or `reply_to`); each reply's body printed. How many were answered.
pub fn request(
    t: &Resolved,
    s: &spec::Spec,
    reply_to: Option<&str>,
    wait: Duration,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<usize, CliError> {
    let mut conn = connect(t, "ferry request")?;
    let (replies, reply_name) = reply_queue(&mut conn, reply_to)?;
    let h = conn.open_queue(&t.queue, OpenOptions::output())?;
    let mut n = 0;
    for line in input.lines() {
        let line = line.map_err(|e| CliError::other(format!("cannot read standard input: {e}")))?;
        let mut m = Message::new(line.into_bytes());
        s.apply(&mut m, false)?;
        m.descriptor.message_type = MessageType::Request;
        m.descriptor.reply_to_queue = object_name(&reply_name)?;
        let sent = conn.put(h, m, &PutOptions::default())?;
        let opts = GetOptions::new()
            .wait(wait)
            .correl_id(CorrelId(sent.msg_id.0));
        let got = conn.get(replies, &opts).map_err(|e| {
            let no_reply = e.reason == Reason::NoMsgAvailable;
            let err = CliError::from(e);
            if no_reply {
                err.with_hint(format!(
                    "no reply came to {reply_name} within {wait:?}; is something serving {}?",
                    t.queue
                ))
            } else {
                err
            }
        })?;
        out.write_all(&got.message.body)
            .and_then(|()| out.write_all(b"\n"))
            .map_err(|e| CliError::output(&e, format!("cannot write to standard output: {e}")))?;
        n += 1;
    }
    conn.close(h, CloseOptions::None)?;
    conn.close(replies, CloseOptions::None)?;
    conn.disconnect()?;
    Ok(n)
}

/// The queue replies come to: `named`, or a temporary dynamic queue made from
/// SYSTEM.DEFAULT.MODEL.QUEUE (gone when closed). Its handle and name.
fn reply_queue(
    conn: &mut Connection,
    named: Option<&str>,
) -> Result<(ferry_client::Hobj, String), CliError> {
    if let Some(q) = named {
        return Ok((conn.open_queue(q, OpenOptions::input())?, q.to_owned()));
    }
    let model = object_name(ferry_model::system::DEFAULT_MODEL_QUEUE)?;
    let od = ObjectDescriptor::model(model, "FERRY.REPLY.*");
    let h = conn.open(&od, OpenOptions::input_exclusive().with_inquire())?;
    let name = match conn.inquire(h, &[Selector::QueueName])?.first() {
        Some(ferry_client::AttrValue::Str(s)) => s.trim().to_owned(),
        _ => return Err(CliError::other("the reply queue did not say its name")),
    };
    Ok((h, name))
}
