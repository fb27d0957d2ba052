//! DISPLAY: which objects a command's name or generic name picks (`APP.*`), the WHERE filter,
//! which fields are shown (ALL, the identifying ones, those asked for), and the fields of each
//! object and status kind — queues, the queue manager, channels, listeners, queue, connection,
//! queue manager, listener and channel status.

use ferry_model::security::AuthObjType;
use std::time::{Duration, SystemTime};

use ferry_core::qmgr::catalog::{HandleInfo, ListenerStatus};
use ferry_core::{ConnMode, ConnectionInfo, ObjectName, QueueManager};
use ferry_model::channel::ChannelStatus;
use ferry_model::objects::{QueueDefinition, QueueType};
use ferry_model::status::QueueStatus;

use super::{date_time, fail, field, info, object, queue_kind, reply, Failure, Message, Outcome};
use crate::attrs::{self, Field, Kind};
use crate::parse::{Command, Filter, Object, Op, ParseError};

/// A name pattern: `*`, `APP.*` or a name.
#[derive(Debug, Clone)]
pub(super) struct Pattern {
    text: String,
    generic: bool,
}

/// The command's name as a pattern: a name, or a generic name ending in `*`.
pub(super) fn generic(c: &Command) -> Result<Pattern, Failure> {
    let v = c.name.as_ref().ok_or_else(|| {
        fail(
            "AMQ8405E",
            format!("{} needs a name or a generic name", c.object.keyword()),
        )
    })?;
    let star = v.text.find('*');
    if let Some(i) = star {
        if i != v.text.len() - 1 {
            return Err(Failure::from(ParseError {
                message: format!("a generic name ends in '*' ('{}')", v.text),
                position: v.pos + i,
            }));
        }
    }
    Ok(Pattern {
        text: v.text.trim_end_matches('*').to_owned(),
        generic: star.is_some(),
    })
}

/// Whether the object name `n` matches the pattern.
pub(super) fn matches(p: &Pattern, n: &ObjectName) -> bool {
    if p.generic {
        n.as_str().starts_with(&p.text)
    } else {
        n.as_str() == p.text
    }
}

/// Whether the object `n` matches the pattern and the command's issuer may display it.
pub(super) fn seen(
    qm: &QueueManager,
    c: &Command,
    p: &Pattern,
    t: AuthObjType,
    n: &ObjectName,
) -> bool {
    matches(p, n) && super::security::visible(qm, c, t, n.as_str())
}

/// Whether `value` matches a WHERE value that may end in `*` (LK, NL).
fn like(pattern: &str, value: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => value.starts_with(prefix),
        None => value == pattern,
    }
}

/// Whether `fields` pass the filter (a missing attribute does not).
fn passes(filter: &Filter, fields: &[Field]) -> bool {
    let Some(fl) = fields.iter().find(|f| f.key == filter.attribute) else {
        return false;
    };
    let have = fl.value.clone().unwrap_or_else(|| fl.key.clone());
    let want = &filter.value.text;
    let ord = match (have.trim().parse::<f64>(), want.trim().parse::<f64>()) {
        (Ok(a), Ok(b)) => a.partial_cmp(&b),
        _ => Some(have.as_str().cmp(want.as_str())),
    };
    use std::cmp::Ordering::*;
    match filter.op {
        Op::Eq => ord == Some(Equal),
        Op::Ne => ord != Some(Equal),
        Op::Lt => ord == Some(Less),
        Op::Gt => ord == Some(Greater),
        Op::Le => matches!(ord, Some(Less | Equal)),
        Op::Ge => matches!(ord, Some(Greater | Equal)),
        Op::Like => like(want, &have),
        Op::NotLike => !like(want, &have),
        Op::Contains => items(&have).any(|x| x == want.as_str()),
        Op::Excludes => !items(&have).any(|x| x == want.as_str()),
        Op::ContainsGeneric => items(&have).any(|x| like(want, x)),
        Op::ExcludesGeneric => !items(&have).any(|x| like(want, x)),
    }
}

/// The items of a list attribute as DISPLAY shows it (`A, B, C`); a single value is one item.
fn items(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|x| !x.is_empty())
}

/// The fields a DISPLAY shows: all with ALL, else the identifying ones plus those asked for
/// (and the WHERE attribute). An attribute the object does not have is an error.
fn select(c: &Command, fields: Vec<Field>, always: &[&str]) -> Result<Vec<Field>, Failure> {
    // A bare keyword asks for its attribute whichever way it is set (SHARE shows NOSHARE).
    fn pair(k: &str) -> &str {
        match k {
            "SHARE" => "NOSHARE",
            "NOSHARE" => "SHARE",
            "TRIGGER" => "NOTRIGGER",
            "NOTRIGGER" => "TRIGGER",
            other => other,
        }
    }
    let known = |k: &str| fields.iter().any(|f| f.key == k || f.key == pair(k));
    for p in &c.params {
        if attrs::CONTROL.contains(&p.key.as_str()) {
            continue;
        }
        if !known(&p.key) {
            return Err(Failure::from(ParseError {
                message: format!(
                    "{} has no attribute {}{}",
                    c.object.keyword(),
                    p.key,
                    crate::suggest::hint(&p.key, fields.iter().map(|f| f.key.as_str()))
                ),
                position: p.pos,
            }));
        }
    }
    if c.has("ALL") || all_by_default(c) {
        return Ok(fields);
    }
    let wanted = |k: &str| {
        always.contains(&k)
            || c.has(k)
            || c.filter.as_ref().is_some_and(|f| f.attribute == k)
            || c.has(pair(k))
    };
    Ok(fields.into_iter().filter(|f| wanted(&f.key)).collect())
}

/// MQ's default for an object's definition: every attribute when the command names one object
/// (not a generic name) and asks for no attribute.
fn all_by_default(c: &Command) -> bool {
    let definition = matches!(
        c.object,
        Object::QLocal
            | Object::QAlias
            | Object::QRemote
            | Object::QModel
            | Object::Queue
            | Object::QMgr
            | Object::Channel
            | Object::Listener
            | Object::AuthInfo
            | Object::Topic
            | Object::Sub
            | Object::Namelist
            | Object::Process
    );
    let generic = c.name.as_ref().is_some_and(|n| n.text.contains('*'));
    let asked = (c.params.iter()).any(|p| !attrs::CONTROL.contains(&p.key.as_str()));
    definition && !generic && !asked && c.filter.is_none()
}

/// `select`, after the WHERE filter: `None` when the object does not pass.
pub(super) fn shown(
    c: &Command,
    fields: Vec<Field>,
    always: &[&str],
) -> Result<Option<Vec<Field>>, Failure> {
    if let Some(f) = &c.filter {
        if !fields.iter().any(|x| x.key == f.attribute) {
            return Err(Failure::from(ParseError {
                message: format!(
                    "{} has no attribute {} to filter on",
                    c.object.keyword(),
                    f.attribute
                ),
                position: f.value.pos,
            }));
        }
        if !passes(f, &fields) {
            return Ok(None);
        }
    }
    select(c, fields, always).map(Some)
}

/// The reply to a DISPLAY: what was found, or "not found" for a specific name without WHERE.
pub(super) fn none_found(c: &Command, p: &Pattern, out: Vec<Message>) -> Outcome {
    if out.is_empty() && !p.generic && c.filter.is_none() {
        return Err(fail(
            "AMQ8147E",
            format!("{} {} not found.", c.object.keyword(), p.text),
        ));
    }
    reply(c, out)
}

/// A queue's fields (status included for local queues).
fn queue_fields(qm: &QueueManager, n: &ObjectName) -> Option<Vec<Field>> {
    Some(match qm.definition(n.as_str()).ok()? {
        QueueDefinition::Local(a) => {
            let st = qm.queue_status(n.as_str()).ok();
            attrs::local_fields(
                n,
                &a,
                false,
                st.map(|s| (s.depth, s.open_input, s.open_output)),
            )
        }
        QueueDefinition::Model(a) => attrs::local_fields(n, &a, true, None),
        QueueDefinition::Alias(a) => attrs::alias_fields(n, &a),
        QueueDefinition::Remote(a) => attrs::remote_fields(n, &a),
    })
}

/// DISPLAY QLOCAL / QALIAS / QREMOTE / QMODEL / QUEUE (TYPE picks the kind for QUEUE).
pub(super) fn display_queues(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let want: Option<QueueType> = match c.object {
        Object::Queue => match c.value("TYPE").map(|v| v.text.as_str()) {
            None | Some("ALL") => None,
            Some("QLOCAL") => Some(QueueType::Local),
            Some("QALIAS") => Some(QueueType::Alias),
            Some("QREMOTE") => Some(QueueType::Remote),
            Some("QMODEL") => Some(QueueType::Model),
            Some(other) => {
                return Err(fail(
                    "AMQ8405E",
                    format!("TYPE({other}) is not QLOCAL, QALIAS, QREMOTE, QMODEL or ALL"),
                ))
            }
        },
        o => Some(queue_kind(o)),
    };
    let mut out = Vec::new();
    for (n, t) in qm.queue_names() {
        if !seen(qm, c, &pattern, AuthObjType::Queue, &n) || want.is_some_and(|w| w != t) {
            continue;
        }
        let Some(fields) = queue_fields(qm, &n) else {
            continue;
        };
        if let Some(fields) = shown(c, fields, &["QUEUE", "TYPE"])? {
            out.push(object("AMQ8409I", "Display Queue details.", fields));
        }
    }
    none_found(c, &pattern, out)
}

/// DISPLAY QMGR.
pub(super) fn display_qmgr(qm: &QueueManager, c: &Command) -> Outcome {
    let fields = select(c, attrs::qmgr_fields(&qm.attrs()), &["QMNAME"])?;
    reply(
        c,
        vec![object("AMQ8408I", "Display Queue Manager details.", fields)],
    )
}

/// DISPLAY CHANNEL.
pub(super) fn display_channels(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm
        .channels()
        .iter()
        .filter(|(n, _)| seen(qm, c, &pattern, AuthObjType::Channel, n))
    {
        if let Some(fields) = shown(c, attrs::channel_fields(n, a), &["CHANNEL", "CHLTYPE"])? {
            out.push(object("AMQ8414I", "Display Channel details.", fields));
        }
    }
    none_found(c, &pattern, out)
}

/// DISPLAY LISTENER.
pub(super) fn display_listeners(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm
        .listeners()
        .iter()
        .filter(|(n, _)| seen(qm, c, &pattern, AuthObjType::Listener, n))
    {
        if let Some(fields) = shown(c, attrs::listener_fields(n, a), &["LISTENER"])? {
            out.push(object(
                "AMQ8630I",
                "Display listener information details.",
                fields,
            ));
        }
    }
    none_found(c, &pattern, out)
}

/// A running listener's status fields.
fn lsstatus_fields(s: &ListenerStatus) -> Vec<Field> {
    let (date, time) = date_time(SystemTime::UNIX_EPOCH + Duration::from_secs(s.started_unix_s));
    vec![
        field("LISTENER", s.name, Kind::Name),
        field("STATUS", "RUNNING", Kind::Status),
        field(
            "IPADDR",
            s.address
                .parse::<std::net::SocketAddr>()
                .map_or_else(|_| s.address.clone(), |a| a.ip().to_string()),
            Kind::Status,
        ),
        field(
            "PORT",
            s.address
                .parse::<std::net::SocketAddr>()
                .map_or(0, |a| a.port()),
            Kind::Status,
        ),
        field("STARTDA", date, Kind::Status),
        field("STARTTI", time, Kind::Status),
    ]
}

/// DISPLAY LSSTATUS: the running listeners.
pub(super) fn display_lsstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for s in qm
        .listener_status()
        .iter()
        .filter(|s| seen(qm, c, &pattern, AuthObjType::Listener, &s.name))
    {
        if let Some(fields) = shown(c, lsstatus_fields(s), &["LISTENER", "STATUS"])? {
            out.push(object(
                "AMQ8631I",
                "Display listener status details.",
                fields,
            ));
        }
    }
    if out.is_empty() {
        return reply(
            c,
            vec![info("AMQ8426I", "No listener is running that matches.")],
        );
    }
    reply(c, out)
}

/// A channel instance's status fields.
fn chstatus_fields(name: ObjectName, st: &ChannelStatus) -> Vec<Field> {
    let (sdate, stime) = st.started.map(date_time).unwrap_or_default();
    let (ldate, ltime) = st.last_msg.map(date_time).unwrap_or_default();
    vec![
        field("CHANNEL", name, Kind::Name),
        field(
            "CHLTYPE",
            if st.sender { "SDR" } else { "RCVR" },
            Kind::Status,
        ),
        field("STATUS", st.state.word(), Kind::Status),
        field("CONNAME", &st.conname, Kind::Status),
        field("RQMNAME", &st.remote_qmgr, Kind::Status),
        field("XMITQ", &st.xmit_queue, Kind::Status),
        field("MSGS", st.msgs, Kind::Status),
        field(
            if st.sender { "BYTSSENT" } else { "BYTSRCVD" },
            st.bytes,
            Kind::Status,
        ),
        field("BATCHES", st.batches, Kind::Status),
        field("BATCHSZ", st.batch_size, Kind::Status),
        field(
            "AVGBATSZ",
            st.msgs.checked_div(st.batches).unwrap_or(0),
            Kind::Status,
        ),
        field("CURSEQNO", st.seq, Kind::Status),
        field(
            "INDOUBT",
            if st.in_doubt { "YES" } else { "NO" },
            Kind::Status,
        ),
        field("COMPRESS", &st.compression, Kind::Status),
        field(
            "COMPTIME",
            (st.compression_time.as_micros() as u64)
                .checked_div(st.msgs)
                .unwrap_or(0),
            Kind::Status,
        ),
        field(
            "COMPRATE",
            st.compression_saved
                .map_or(0, |r| (r * 100.0).round() as i64),
            Kind::Status,
        ),
        field("NETTIME", st.net_time_us, Kind::Status),
        field("XQTIME", st.xmitq_time_us, Kind::Status),
        field("DLQMSGS", st.dead_lettered, Kind::Status),
        field("CHSTADA", sdate, Kind::Status),
        field("CHSTATI", stime, Kind::Status),
        field("LSTMSGDA", ldate, Kind::Status),
        field("LSTMSGTI", ltime, Kind::Status),
        field("LASTERR", &st.last_error, Kind::Status),
        field("TRANSPORT", &st.transport, Kind::Status),
        field("CONGCTL", st.congestion.to_ascii_uppercase(), Kind::Status),
        field("STREAMS", st.streams, Kind::Status),
        field("TCPRTT", st.tcp.map_or(0, |t| t.rtt_us), Kind::Status),
        field("RETRANS", st.tcp.map_or(0, |t| t.retransmits), Kind::Status),
        field("INFLIGHT", st.tcp.map_or(0, |t| t.in_flight), Kind::Status),
        field(
            "TCPRATE",
            st.tcp.map_or(0, |t| t.delivery_rate),
            Kind::Status,
        ),
        field("LOSSRATE", loss_rate(st.tcp), Kind::Status),
    ]
}

/// LOSSRATE: the percentage of segments (QUIC: packets) lost over the sender's last interval
/// of at least a second, to two decimals.
fn loss_rate(tcp: Option<ferry_model::channel::TcpFigures>) -> String {
    let bp = tcp.map_or(0, |t| t.loss_bp);
    format!("{}.{:02}", bp / 100, bp % 100)
}

/// DISPLAY CHSTATUS: the channel instances running or known here.
pub(super) fn display_chstatus(qm: &QueueManager, c: &Command) -> Outcome {
    if c.value("CHLTYPE").is_some_and(|v| v.text == "MQTT") {
        return super::mqttstatus::display(qm, c);
    }
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (name, st) in qm
        .channel_statuses()
        .into_iter()
        .filter(|(n, _)| seen(qm, c, &pattern, AuthObjType::Channel, n))
    {
        if let Some(fields) = shown(
            c,
            chstatus_fields(name, &st),
            &[
                "CHANNEL", "CHLTYPE", "STATUS", "CONNAME", "RQMNAME", "XMITQ",
            ],
        )? {
            out.push(object(
                "AMQ8417I",
                "Display Channel Status details.",
                fields,
            ));
        }
    }
    if out.is_empty() {
        return reply(c, vec![info("AMQ8420I", "Channel Status not found.")]);
    }
    reply(c, out)
}

/// The CONNOPTS word for a connection mode.
fn mode_word(m: ConnMode) -> &'static str {
    match m {
        ConnMode::Embedded => "EMBEDDED",
        ConnMode::Local => "LOCAL",
        ConnMode::Tcp => "TCP",
        ConnMode::Tls => "TLS",
        ConnMode::Quic => "QUIC",
    }
}

/// A handle's open options as OPENOPTS text (`INPUT,BROWSE`).
fn handle_opts(h: &HandleInfo) -> String {
    let mut v = Vec::new();
    if h.input {
        v.push("INPUT");
    }
    if h.output {
        v.push("OUTPUT");
    }
    if h.browse {
        v.push("BROWSE");
    }
    if h.inquire {
        v.push("INQUIRE");
    }
    if h.set {
        v.push("SET");
    }
    v.join(",")
}

/// `YES` or `NO`.
fn yes_no(b: bool) -> &'static str {
    if b {
        "YES"
    } else {
        "NO"
    }
}

/// DISPLAY QSTATUS: each local queue's status or, with TYPE(HANDLE), the handles open on it.
pub(super) fn display_qstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let handles = match c.value("TYPE").map(|v| v.text.as_str()) {
        None | Some("QUEUE") => false,
        Some("HANDLE") => true,
        Some(other) => {
            return Err(fail(
                "AMQ8405E",
                format!("TYPE({other}) is not QUEUE or HANDLE"),
            ))
        }
    };
    let mut out = Vec::new();
    let names: Vec<ObjectName> = qm
        .queue_names()
        .into_iter()
        .filter(|(n, t)| *t == QueueType::Local && seen(qm, c, &pattern, AuthObjType::Queue, n))
        .map(|(n, _)| n)
        .collect();
    if handles {
        let (conns, ext) = (qm.connections(), ext_conn(qm));
        for n in &names {
            for ci in &conns {
                queue_handles(c, (n, &ext), ci, &mut out)?;
            }
        }
        return reply(c, out);
    }
    for n in &names {
        let Ok(s) = qm.queue_status(n.as_str()) else {
            continue;
        };
        if let Some(f) = shown(c, qstatus_fields(n, &s), &["QUEUE", "TYPE", "CURDEPTH"])? {
            out.push(object("AMQ8450I", "Display queue status details.", f));
        }
    }
    none_found(c, &pattern, out)
}

/// QSTATUS TYPE(HANDLE): the handles connection `ci` has open on queue `n`, added to `out`.
fn queue_handles(
    c: &Command,
    (n, ext): (&ObjectName, &str),
    ci: &ConnectionInfo,
    out: &mut Vec<Message>,
) -> Result<(), Failure> {
    for h in ci
        .counters
        .handles
        .lock()
        .iter()
        .map(|(_, h)| h)
        .filter(|h| h.object == *n)
    {
        let fields = vec![
            field("QUEUE", n, Kind::Name),
            field("TYPE", "HANDLE", Kind::Status),
            field("CONN", format!("{:016X}", ci.id), Kind::Status),
            field("EXTCONN", ext, Kind::Status),
            field("APPLTAG", &ci.app_name, Kind::Status),
            field("CONNOPTS", mode_word(ci.mode), Kind::Status),
            field("USERID", &ci.user_id, Kind::Status),
            field("INPUT", if h.input { "SHARED" } else { "NO" }, Kind::Status),
            field("OUTPUT", yes_no(h.output), Kind::Status),
            field("BROWSE", yes_no(h.browse), Kind::Status),
            field("INQUIRE", yes_no(h.inquire), Kind::Status),
            field("SET", yes_no(h.set), Kind::Status),
        ];
        if let Some(f) = shown(c, fields, &["QUEUE", "TYPE", "CONN", "APPLTAG"])? {
            out.push(object("AMQ8450I", "Display queue status details.", f));
        }
    }
    Ok(())
}

/// QSTATUS TYPE(QUEUE): a local queue's status fields.
fn qstatus_fields(n: &ObjectName, s: &QueueStatus) -> Vec<Field> {
    let (lpd, lpt) = s.stats.last_put.map(date_time).unwrap_or_default();
    let (lgd, lgt) = s.stats.last_get.map(date_time).unwrap_or_default();
    vec![
        field("QUEUE", n, Kind::Name),
        field("TYPE", "QUEUE", Kind::Status),
        field("CURDEPTH", s.depth, Kind::Status),
        field("IPPROCS", s.open_input, Kind::Status),
        field("OPPROCS", s.open_output, Kind::Status),
        field("UNCOM", s.uncommitted, Kind::Status),
        field("LPUTDATE", lpd, Kind::Status),
        field("LPUTTIME", lpt, Kind::Status),
        field("LGETDATE", lgd, Kind::Status),
        field("LGETTIME", lgt, Kind::Status),
        field(
            "MSGAGE",
            s.oldest_msg_age
                .map_or(String::new(), |d| d.as_secs().to_string()),
            Kind::Status,
        ),
        field(
            "QTIME",
            if s.stats.gets == 0 {
                ",".to_owned()
            } else {
                format!("{}, {}", s.stats.qtime_us, s.stats.qtime_us)
            },
            Kind::Status,
        ),
        field("PUTS", s.stats.puts, Kind::Status),
        field("GETS", s.stats.gets, Kind::Status),
        field("DAMAGED", s.stats.damaged, Kind::Status),
    ]
}

/// DISPLAY CONN: connections (TYPE(CONN), the default), their handles (TYPE(HANDLE)) or both
/// (TYPE(ALL)), picked by the connection id's hexadecimal text.
pub(super) fn display_conn(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let (show_conn, show_handles) = match c.value("TYPE").map(|v| v.text.as_str()) {
        None | Some("CONN") => (true, false),
        Some("HANDLE") => (false, true),
        Some("ALL") => (true, true),
        Some(other) => {
            return Err(fail(
                "AMQ8405E",
                format!("TYPE({other}) is not CONN, HANDLE or ALL"),
            ))
        }
    };
    let mut out = Vec::new();
    let ext = ext_conn(qm);
    for ci in qm.connections() {
        let id = format!("{:016X}", ci.id);
        let matched = if pattern.generic {
            id.starts_with(&pattern.text)
        } else {
            id == pattern.text
        };
        if !matched {
            continue;
        }
        let base = conn_fields(&ext, &id, &ci);
        // The WHERE filter applies to the connection; its handles follow it.
        if !conn_passes(c, &base)? {
            continue;
        }
        if show_conn {
            out.push(object(
                "AMQ8276I",
                "Display Connection details.",
                select(c, base, &["CONN", "EXTCONN", "TYPE", "APPLTAG", "CONNOPTS"])?,
            ));
        }
        if show_handles {
            conn_handles(&ext, &id, &ci, &mut out);
        }
    }
    none_found(c, &pattern, out)
}

/// A connection's fields (`id` is its id as CONN shows it, `ext` the rest of MQ's connection
/// id, EXTCONN).
fn conn_fields(ext: &str, id: &str, ci: &ConnectionInfo) -> Vec<Field> {
    let (date, time) = date_time(ci.connected_at);
    let uow = ci
        .counters
        .uow_messages
        .load(std::sync::atomic::Ordering::Relaxed);
    vec![
        field("CONN", id, Kind::Status),
        field("EXTCONN", ext, Kind::Status),
        field("TYPE", "CONN", Kind::Status),
        field("APPLTAG", &ci.app_name, Kind::Status),
        field("APPLTYPE", "USER", Kind::Status),
        field("CONNOPTS", mode_word(ci.mode), Kind::Status),
        field("CONNAME", &ci.peer, Kind::Status),
        field("USERID", &ci.user_id, Kind::Status),
        field("CONNDATE", date, Kind::Status),
        field("CONNTIME", time, Kind::Status),
        field(
            "UOWSTATE",
            if uow > 0 { "ACTIVE" } else { "NONE" },
            Kind::Status,
        ),
        field("UOWMSGS", uow, Kind::Status),
        field(
            "HANDLES",
            ci.counters
                .open_handles
                .load(std::sync::atomic::Ordering::Relaxed),
            Kind::Status,
        ),
    ]
}

/// Whether a connection's fields pass the command's WHERE filter (all do without one); an
/// attribute a connection does not have is an error.
fn conn_passes(c: &Command, base: &[Field]) -> Result<bool, Failure> {
    match &c.filter {
        Some(f) => {
            if !base.iter().any(|x| x.key == f.attribute) {
                return Err(Failure::from(ParseError {
                    message: format!("CONN has no attribute {} to filter on", f.attribute),
                    position: f.value.pos,
                }));
            }
            Ok(passes(f, base))
        }
        None => Ok(true),
    }
}

/// EXTCONN: the first 16 bytes of MQ's 24-byte connection id, in hexadecimal — "AMQC" and the
/// queue manager's name (12 characters); CONN's 8 bytes follow.
pub(super) fn ext_conn(qm: &QueueManager) -> String {
    format!("AMQC{:<12.12}", qm.name().as_str())
        .bytes()
        .map(|b| format!("{b:02X}"))
        .collect()
}

/// CONN TYPE(HANDLE): the handles connection `ci` has open, added to `out`.
fn conn_handles(ext: &str, id: &str, ci: &ConnectionInfo, out: &mut Vec<Message>) {
    for (_, h) in ci.counters.handles.lock().iter() {
        let fields = vec![
            field("CONN", id, Kind::Status),
            field("EXTCONN", ext, Kind::Status),
            field("TYPE", "HANDLE", Kind::Status),
            field("OBJNAME", h.object, Kind::Status),
            field("OBJTYPE", h.objtype, Kind::Status),
            field("OPENOPTS", handle_opts(h), Kind::Status),
        ];
        out.push(object("AMQ8276I", "Display Connection details.", fields));
    }
}

/// DISPLAY QMSTATUS: the queue manager and its recovery log.
pub(super) fn display_qmstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let mut fields = vec![
        field("QMNAME", qm.name(), Kind::Status),
        field("STATUS", "RUNNING", Kind::Status),
        field("CONNS", qm.connections().len(), Kind::Status),
        field(
            "CMDSERV",
            match (qm.command_server_running(), qm.command_server_wanted()) {
                (true, true) => "RUNNING",
                (true, false) => "STOPPING",
                (false, true) => "STARTING",
                (false, false) => "STOPPED",
            },
            Kind::Status,
        ),
    ];
    match qm.log_status() {
        Some(l) => {
            fields.push(field(
                "LOGTYPE",
                if l.circular { "CIRCULAR" } else { "LINEAR" },
                Kind::Status,
            ));
            fields.push(field(
                "CURRLOG",
                format!("L{:010}.flog", l.current_extent),
                Kind::Status,
            ));
            fields.push(field(
                "RECLOG",
                format!("L{:010}.flog", l.oldest_extent),
                Kind::Status,
            ));
            fields.push(field("LOGSYNCS", l.syncs, Kind::Status));
            fields.push(field("LOGRECS", l.records, Kind::Status));
            fields.push(field("CHKPTS", l.checkpoints, Kind::Status));
            let space = if l.disk_full.is_some() { "FULL" } else { "OK" };
            fields.push(field("LOGSPACE", space, Kind::Status));
            if let Some(why) = &l.disk_full {
                fields.push(field("LOGERR", why, Kind::Text));
            }
        }
        None => fields.push(field("LOGTYPE", "NONE", Kind::Status)),
    }
    let fields = select(c, fields, &["QMNAME", "STATUS"])?;
    reply(
        c,
        vec![object(
            "AMQ8705I",
            "Display Queue Manager Status Details.",
            fields,
        )],
    )
}
