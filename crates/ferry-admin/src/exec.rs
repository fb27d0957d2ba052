//! Running commands against a queue manager, producing replies made of messages and, for
//! DISPLAY, the objects' fields.

use std::time::{Duration, SystemTime};

use ferry_core::{ConnMode, MqError, ObjectName, QueueManager, Reason};
pub use ferry_model::admin::{Message, Reply};
use ferry_model::objects::{
    AliasQueueAttrs, ChannelAttrs, ListenerAttrs, LocalQueueAttrs, QueueDefinition, QueueType,
    RemoteQueueAttrs,
};

use crate::attrs::{self, Field, Kind};
use crate::parse::{self, Command, Filter, Object, Op, Param, ParseError, Verb};

fn info(code: &str, text: impl Into<String>) -> Message {
    Message {
        code: code.to_owned(),
        text: text.into(),
        fields: Vec::new(),
    }
}

fn object(code: &str, text: &str, fields: Vec<Field>) -> Message {
    Message {
        code: code.to_owned(),
        text: text.to_owned(),
        fields,
    }
}

/// A failure: a message id and a sentence.
#[derive(Debug, Clone)]
struct Failure(Message);

impl From<ParseError> for Failure {
    fn from(e: ParseError) -> Self {
        Failure(info("AMQ8405E", format!("syntax error: {e}")))
    }
}

impl From<MqError> for Failure {
    fn from(e: MqError) -> Self {
        let code = match e.reason {
            Reason::UnknownObjectName => "AMQ8147E",
            Reason::ObjectAlreadyExists => "AMQ8150E",
            Reason::ObjectInUse => "AMQ8148E",
            Reason::QNotEmpty => "AMQ8143E",
            Reason::AttributeValueError => "AMQ8152E",
            Reason::QTypeError | Reason::ObjectTypeError => "AMQ8141E",
            Reason::FunctionNotSupported => "AMQ8154E",
            _ => "AMQ8101E",
        };
        Failure(info(
            code,
            format!("{} ({} {})", e.detail, e.reason.name(), e.reason.code()),
        ))
    }
}

fn fail(code: &str, text: impl Into<String>) -> Failure {
    Failure(info(code, text))
}

type Outcome = Result<Reply, Failure>;

fn reply(c: &Command, messages: Vec<Message>) -> Outcome {
    Ok(Reply {
        number: 0,
        command: c.text.clone(),
        ok: true,
        messages,
        script: Vec::new(),
    })
}

/// Runs one command's text.
pub fn run(qm: &QueueManager, text: &str, number: usize) -> Reply {
    let result = parse::parse_command(text)
        .map_err(Failure::from)
        .and_then(|c| execute(qm, &c));
    match result {
        Ok(mut r) => {
            r.number = number;
            r
        }
        Err(Failure(m)) => Reply {
            number,
            command: text.trim().to_owned(),
            ok: false,
            messages: vec![m],
            script: Vec::new(),
        },
    }
}

/// Runs every command of a script and waits once, at the end, for what they logged to be
/// durable (one sync for the whole script).
pub fn run_script_durably(qm: &QueueManager, script: &str) -> Vec<Reply> {
    let (replies, lsn) = ferry_core::qmgr::journal::deferring(|| run_script(qm, script));
    if let (Some(p), Some(lsn)) = (qm.durability(), lsn) {
        if let Err(e) = p.wait(lsn) {
            let mut replies = replies;
            for r in &mut replies {
                r.ok = false;
                r.messages
                    .push(info("AMQ8101E", format!("the recovery log failed: {e}")));
            }
            return replies;
        }
    }
    replies
}

/// Runs every command of a script (durability waits as the caller's scope decides).
pub fn run_script(qm: &QueueManager, script: &str) -> Vec<Reply> {
    parse::split_script(script)
        .into_iter()
        .enumerate()
        .map(|(i, (_, text))| run(qm, &text, i + 1))
        .collect()
}

fn execute(qm: &QueueManager, c: &Command) -> Outcome {
    match (c.verb, c.object) {
        (Verb::Define, Object::QLocal | Object::QAlias | Object::QRemote | Object::QModel) => {
            define_queue(qm, c)
        }
        (Verb::Alter, Object::QLocal | Object::QAlias | Object::QRemote | Object::QModel) => {
            alter_queue(qm, c)
        }
        (Verb::Delete, Object::QLocal | Object::QAlias | Object::QRemote | Object::QModel) => {
            delete_queue(qm, c)
        }
        (
            Verb::Display,
            Object::QLocal | Object::QAlias | Object::QRemote | Object::QModel | Object::Queue,
        ) => display_queues(qm, c),
        (Verb::Clear, Object::QLocal) => {
            let n = specific(c)?;
            let count = qm.clear_queue(n.as_str())?;
            reply(
                c,
                vec![info(
                    "AMQ8022I",
                    format!("Queue {n} cleared ({count} messages removed)."),
                )],
            )
        }
        (Verb::Display, Object::QStatus) => display_qstatus(qm, c),
        (Verb::Display, Object::Conn) => display_conn(qm, c),
        (Verb::Display, Object::QmStatus) => display_qmstatus(qm, c),
        (Verb::Display, Object::QMgr) => {
            let fields = select(c, attrs::qmgr_fields(&qm.attrs()), &["QMNAME"])?;
            reply(
                c,
                vec![object("AMQ8408I", "Display Queue Manager details.", fields)],
            )
        }
        (Verb::Alter, Object::QMgr) => {
            let mut a = qm.attrs();
            for p in attribute_params(c) {
                attrs::set_qmgr(&mut a, p)?;
            }
            qm.alter_qmgr(|x| *x = a)?;
            reply(c, vec![info("AMQ8005I", "Queue manager changed.")])
        }
        (Verb::Define, Object::Channel) => define_channel(qm, c),
        (Verb::Alter, Object::Channel) => {
            let n = specific(c)?;
            let mut a = qm.channel(n.as_str())?;
            if let Some(p) = c.params.iter().find(|p| p.key == "CHLTYPE") {
                if attrs::channel_type(p)? != a.channel_type {
                    return Err(fail(
                        "AMQ8141E",
                        format!(
                            "channel {n} is of type {}; CHLTYPE cannot change",
                            attrs::channel_type_word(a.channel_type)
                        ),
                    ));
                }
            }
            for p in attribute_params(c) {
                attrs::set_channel(&mut a, p)?;
            }
            qm.define_channel(n.as_str(), a, true)?;
            reply(c, vec![info("AMQ8016I", format!("Channel {n} changed."))])
        }
        (Verb::Delete, Object::Channel) => {
            let n = specific(c)?;
            qm.delete_channel(n.as_str())?;
            reply(c, vec![info("AMQ8015I", format!("Channel {n} deleted."))])
        }
        (Verb::Display, Object::Channel) => {
            let pattern = generic(c)?;
            let mut out = Vec::new();
            for (n, a) in qm.channels().iter().filter(|(n, _)| matches(&pattern, n)) {
                if let Some(fields) =
                    shown(c, attrs::channel_fields(n, a), &["CHANNEL", "CHLTYPE"])?
                {
                    out.push(object("AMQ8414I", "Display Channel details.", fields));
                }
            }
            none_found(c, &pattern, out)
        }
        (Verb::Define, Object::Listener) => {
            let n = specific(c)?;
            let exists = qm.listener(n.as_str()).ok();
            let replace = check_replace(c, exists.is_some(), "listener", &n)?;
            let mut a = match c.value("LIKE") {
                Some(v) => qm.listener(&v.text)?,
                None => ListenerAttrs::default(),
            };
            for p in attribute_params(c) {
                attrs::set_listener(&mut a, p)?;
            }
            qm.define_listener(n.as_str(), a, replace)?;
            reply(c, vec![info("AMQ8626I", format!("Listener {n} created."))])
        }
        (Verb::Alter, Object::Listener) => {
            let n = specific(c)?;
            let mut a = qm.listener(n.as_str())?;
            for p in attribute_params(c) {
                attrs::set_listener(&mut a, p)?;
            }
            qm.define_listener(n.as_str(), a, true)?;
            reply(c, vec![info("AMQ8627I", format!("Listener {n} changed."))])
        }
        (Verb::Delete, Object::Listener) => {
            let n = specific(c)?;
            qm.delete_listener(n.as_str())?;
            reply(c, vec![info("AMQ8628I", format!("Listener {n} deleted."))])
        }
        (Verb::Display, Object::Listener) => {
            let pattern = generic(c)?;
            let mut out = Vec::new();
            for (n, a) in qm.listeners().iter().filter(|(n, _)| matches(&pattern, n)) {
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
        (Verb::Start, Object::Listener) => {
            let n = specific(c)?;
            qm.start_listener(n.as_str())?;
            reply(
                c,
                vec![info(
                    "AMQ8021I",
                    format!("Request to start listener {n} accepted."),
                )],
            )
        }
        (Verb::Stop, Object::Listener) => {
            let n = specific(c)?;
            qm.stop_listener(n.as_str())?;
            reply(
                c,
                vec![info(
                    "AMQ8706I",
                    format!("Request to stop listener {n} accepted."),
                )],
            )
        }
        (Verb::Display, Object::LsStatus) => {
            let pattern = generic(c)?;
            let mut out = Vec::new();
            for s in qm
                .listener_status()
                .iter()
                .filter(|s| matches(&pattern, &s.name))
            {
                let (date, time) =
                    date_time(SystemTime::UNIX_EPOCH + Duration::from_secs(s.started_unix_s));
                let fields = vec![
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
                ];
                if let Some(fields) = shown(c, fields, &["LISTENER", "STATUS"])? {
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
        (Verb::Start, Object::Channel) => {
            let n = specific(c)?;
            qm.start_channel(n.as_str())?;
            reply(
                c,
                vec![info(
                    "AMQ8018I",
                    format!("Start IBM MQ channel accepted: {n}."),
                )],
            )
        }
        (Verb::Stop, Object::Channel) => {
            let n = specific(c)?;
            qm.stop_channel(n.as_str())?;
            reply(
                c,
                vec![info(
                    "AMQ8019I",
                    format!("Stop IBM MQ channel accepted: {n}."),
                )],
            )
        }
        (Verb::Display, Object::ChStatus) => display_chstatus(qm, c),
        (Verb::Dump, Object::QMgr) => dump(qm, c),
        (Verb::Resolve, Object::Channel) => {
            let n = specific(c)?;
            let commit = match c.value("ACTION").map(|v| v.text.to_ascii_uppercase()) {
                Some(a) if a == "COMMIT" => true,
                Some(a) if a == "BACKOUT" => false,
                _ => {
                    return Err(fail(
                        "AMQ8405E",
                        "syntax error: RESOLVE CHANNEL needs ACTION(COMMIT) or ACTION(BACKOUT)",
                    ))
                }
            };
            let removed = qm.resolve_channel(n.as_str(), commit)?;
            reply(
                c,
                vec![info(
                    "AMQ8024I",
                    format!(
                        "IBM MQ channel resolved: {n} ({}).",
                        if commit {
                            format!(
                                "committed: {removed} messages taken off the transmission queue"
                            )
                        } else {
                            "backed out: the messages will be sent again".to_owned()
                        }
                    ),
                )],
            )
        }
        (Verb::Reset, Object::Channel) => {
            let n = specific(c)?;
            let mut seq = 0u64;
            for p in &c.params {
                match p.key.as_str() {
                    "SEQNUM" => {
                        let v = p.value.as_ref().map(|v| v.text.as_str()).unwrap_or("");
                        seq = v.parse().map_err(|_| {
                            fail(
                                "AMQ8405E",
                                format!(
                                    "syntax error: SEQNUM({v}) at position {} is not a number",
                                    p.pos
                                ),
                            )
                        })?;
                    }
                    other => {
                        return Err(fail(
                            "AMQ8405E",
                            format!(
                            "syntax error: RESET CHANNEL has no attribute {other} (at position {})",
                            p.pos
                        ),
                        ))
                    }
                }
            }
            qm.reset_channel(n.as_str(), seq)?;
            reply(
                c,
                vec![info(
                    "AMQ8023I",
                    format!("IBM MQ channel reset: {n} (sequence number {seq})."),
                )],
            )
        }
        (v, o) => Err(fail(
            "AMQ8405E",
            format!("{} {} is not a command", verb_word(v), o.keyword()),
        )),
    }
}

fn display_chstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (name, st) in qm
        .channel_statuses()
        .into_iter()
        .filter(|(n, _)| matches(&pattern, n))
    {
        let (sdate, stime) = st.started.map(date_time).unwrap_or_default();
        let (ldate, ltime) = st.last_msg.map(date_time).unwrap_or_default();
        let fields = vec![
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
        ];
        if let Some(fields) = shown(
            c,
            fields,
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

fn verb_word(v: Verb) -> &'static str {
    match v {
        Verb::Define => "DEFINE",
        Verb::Alter => "ALTER",
        Verb::Delete => "DELETE",
        Verb::Display => "DISPLAY",
        Verb::Clear => "CLEAR",
        Verb::Start => "START",
        Verb::Stop => "STOP",
        Verb::Dump => "DUMP",
        Verb::Reset => "RESET",
        Verb::Resolve => "RESOLVE",
    }
}

fn field(key: &str, value: impl ToString, kind: Kind) -> Field {
    Field {
        key: key.to_owned(),
        value: Some(value.to_string()),
        kind,
    }
}

/// The keywords that set attributes (not LIKE, REPLACE, ALL ...).
fn attribute_params(c: &Command) -> impl Iterator<Item = &Param> {
    c.params
        .iter()
        .filter(|p| !attrs::CONTROL.contains(&p.key.as_str()))
}

/// The object's name, which must not be generic.
fn specific(c: &Command) -> Result<ObjectName, Failure> {
    let v = c
        .name
        .as_ref()
        .ok_or_else(|| fail("AMQ8405E", format!("{} needs a name", c.object.keyword())))?;
    if v.text.contains('*') {
        return Err(Failure::from(ParseError {
            message: format!(
                "{} takes one object, not a generic name like {}",
                verb_word(c.verb),
                v.text
            ),
            position: v.pos,
        }));
    }
    ferry_core::object_name(&v.text).map_err(|e| {
        Failure::from(ParseError {
            message: format!("'{}' is not a valid name: {}", v.text, e.detail),
            position: v.pos,
        })
    })
}

/// A name pattern: `*`, `APP.*` or a name.
#[derive(Debug, Clone)]
struct Pattern {
    text: String,
    generic: bool,
}

fn generic(c: &Command) -> Result<Pattern, Failure> {
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

fn matches(p: &Pattern, n: &ObjectName) -> bool {
    if p.generic {
        n.as_str().starts_with(&p.text)
    } else {
        n.as_str() == p.text
    }
}

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
    }
}

/// The fields a DISPLAY shows: all with ALL, else the identifying ones plus those asked for
/// (and the WHERE attribute). An attribute the object does not have is an error.
fn select(c: &Command, fields: Vec<Field>, always: &[&str]) -> Result<Vec<Field>, Failure> {
    let known = |k: &str| fields.iter().any(|f| f.key == k);
    for p in &c.params {
        if attrs::CONTROL.contains(&p.key.as_str()) {
            continue;
        }
        if !known(&p.key) {
            return Err(Failure::from(ParseError {
                message: format!("{} has no attribute {}", c.object.keyword(), p.key),
                position: p.pos,
            }));
        }
    }
    if c.has("ALL") {
        return Ok(fields);
    }
    let wanted = |k: &str| {
        always.contains(&k)
            || c.has(k)
            || c.filter.as_ref().is_some_and(|f| f.attribute == k)
            || (k == "SHARE" && c.has("NOSHARE"))
            || (k == "NOSHARE" && c.has("SHARE"))
    };
    Ok(fields.into_iter().filter(|f| wanted(&f.key)).collect())
}

/// `select`, after the WHERE filter: `None` when the object does not pass.
fn shown(c: &Command, fields: Vec<Field>, always: &[&str]) -> Result<Option<Vec<Field>>, Failure> {
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

fn none_found(c: &Command, p: &Pattern, out: Vec<Message>) -> Outcome {
    if out.is_empty() && !p.generic && c.filter.is_none() {
        return Err(fail(
            "AMQ8147E",
            format!("{} {} not found.", c.object.keyword(), p.text),
        ));
    }
    reply(c, out)
}

fn check_replace(c: &Command, exists: bool, what: &str, n: &ObjectName) -> Result<bool, Failure> {
    let replace = c.has("REPLACE");
    if exists && !replace {
        return Err(fail(
            "AMQ8150E",
            format!("{what} {n} already exists; add REPLACE to redefine it"),
        ));
    }
    Ok(replace)
}

fn queue_kind(o: Object) -> QueueType {
    match o {
        Object::QAlias => QueueType::Alias,
        Object::QRemote => QueueType::Remote,
        Object::QModel => QueueType::Model,
        _ => QueueType::Local,
    }
}

fn type_word(t: QueueType) -> &'static str {
    match t {
        QueueType::Local => "QLOCAL",
        QueueType::Alias => "QALIAS",
        QueueType::Remote => "QREMOTE",
        QueueType::Model => "QMODEL",
    }
}

/// A queue's definition, checked to be of the type the command names.
fn definition_of(
    qm: &QueueManager,
    c: &Command,
    n: &ObjectName,
) -> Result<Option<QueueDefinition>, Failure> {
    match qm.definition(n.as_str()) {
        Ok(d) if d.queue_type() == queue_kind(c.object) => Ok(Some(d)),
        Ok(d) => Err(fail(
            "AMQ8141E",
            format!(
                "{n} is a {}, not a {}",
                type_word(d.queue_type()),
                c.object.keyword()
            ),
        )),
        Err(e) if e.reason == Reason::UnknownObjectName => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn apply(def: &mut QueueDefinition, c: &Command) -> Result<(), Failure> {
    for p in attribute_params(c) {
        match def {
            QueueDefinition::Local(a) => attrs::set_local(a, p, false)?,
            QueueDefinition::Model(a) => attrs::set_local(a, p, true)?,
            QueueDefinition::Alias(a) => attrs::set_alias(a, p)?,
            QueueDefinition::Remote(a) => attrs::set_remote(a, p)?,
        }
    }
    Ok(())
}

fn define_queue(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = definition_of(qm, c, &n)?.is_some();
    let replace = check_replace(c, exists, "queue", &n)?;
    let mut def = match c.value("LIKE") {
        Some(v) => {
            let like = ferry_core::object_name(&v.text).map_err(|e| fail("AMQ8405E", e.detail))?;
            definition_of(qm, c, &like)?
                .ok_or_else(|| fail("AMQ8147E", format!("LIKE({like}): queue {like} not found")))?
        }
        None => match c.object {
            // New local and model queues start from the system defaults, as in MQ.
            Object::QLocal => QueueDefinition::Local(
                qm.local_attrs(ferry_model::system::DEFAULT_LOCAL_QUEUE)
                    .map(|mut a| {
                        a.description.clear();
                        a
                    })
                    .unwrap_or_default(),
            ),
            Object::QModel => match qm.definition(ferry_model::system::DEFAULT_MODEL_QUEUE) {
                Ok(QueueDefinition::Model(mut a)) => {
                    a.description.clear();
                    QueueDefinition::Model(a)
                }
                _ => QueueDefinition::Model(LocalQueueAttrs {
                    definition_type: ferry_model::objects::DefinitionType::TemporaryDynamic,
                    ..Default::default()
                }),
            },
            Object::QAlias => QueueDefinition::Alias(AliasQueueAttrs::new(ObjectName::EMPTY)),
            _ => QueueDefinition::Remote(RemoteQueueAttrs::default()),
        },
    };
    apply(&mut def, c)?;
    qm.define_queue(n.as_str(), def, replace)?;
    reply(c, vec![info("AMQ8006I", format!("Queue {n} created."))])
}

fn alter_queue(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut def = definition_of(qm, c, &n)?
        .ok_or_else(|| fail("AMQ8147E", format!("{} {n} not found.", c.object.keyword())))?;
    apply(&mut def, c)?;
    match def {
        QueueDefinition::Local(a) => qm.alter_local(n.as_str(), |x| *x = a)?,
        QueueDefinition::Alias(a) => qm.alter_alias(n.as_str(), |x| *x = a)?,
        other => qm.define_queue(n.as_str(), other, true)?,
    }
    reply(c, vec![info("AMQ8008I", format!("Queue {n} changed."))])
}

fn delete_queue(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    if definition_of(qm, c, &n)?.is_none() {
        return Err(fail(
            "AMQ8147E",
            format!("{} {n} not found.", c.object.keyword()),
        ));
    }
    qm.delete_queue(n.as_str(), c.has("PURGE"))?;
    reply(c, vec![info("AMQ8007I", format!("Queue {n} deleted."))])
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

fn display_queues(qm: &QueueManager, c: &Command) -> Outcome {
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
        if !matches(&pattern, &n) || want.is_some_and(|w| w != t) {
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

pub use ferry_model::clock::date_time;

fn mode_word(m: ConnMode) -> &'static str {
    match m {
        ConnMode::Embedded => "EMBEDDED",
        ConnMode::Local => "LOCAL",
        ConnMode::Tcp => "TCP",
        ConnMode::Tls => "TLS",
    }
}

fn handle_opts(h: &ferry_core::qmgr::catalog::HandleInfo) -> String {
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

fn display_qstatus(qm: &QueueManager, c: &Command) -> Outcome {
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
        .filter(|(n, t)| *t == QueueType::Local && matches(&pattern, n))
        .map(|(n, _)| n)
        .collect();
    if handles {
        let conns = qm.connections();
        for n in &names {
            for ci in &conns {
                for h in ci
                    .counters
                    .handles
                    .lock()
                    .values()
                    .filter(|h| h.object == *n)
                {
                    let fields = vec![
                        field("QUEUE", n, Kind::Name),
                        field("TYPE", "HANDLE", Kind::Status),
                        field("CONN", format!("{:016X}", ci.id), Kind::Status),
                        field("APPLTAG", &ci.app_name, Kind::Status),
                        field("CONNOPTS", mode_word(ci.mode), Kind::Status),
                        field("USERID", &ci.user_id, Kind::Status),
                        field("INPUT", if h.input { "SHARED" } else { "NO" }, Kind::Status),
                        field("OUTPUT", if h.output { "YES" } else { "NO" }, Kind::Status),
                        field("BROWSE", if h.browse { "YES" } else { "NO" }, Kind::Status),
                        field(
                            "INQUIRE",
                            if h.inquire { "YES" } else { "NO" },
                            Kind::Status,
                        ),
                        field("SET", if h.set { "YES" } else { "NO" }, Kind::Status),
                    ];
                    if let Some(f) = shown(c, fields, &["QUEUE", "TYPE", "CONN", "APPLTAG"])? {
                        out.push(object("AMQ8450I", "Display queue status details.", f));
                    }
                }
            }
        }
        return reply(c, out);
    }
    for n in &names {
        let Ok(s) = qm.queue_status(n.as_str()) else {
            continue;
        };
        let (lpd, lpt) = s.stats.last_put.map(date_time).unwrap_or_default();
        let (lgd, lgt) = s.stats.last_get.map(date_time).unwrap_or_default();
        let fields = vec![
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
        ];
        if let Some(f) = shown(c, fields, &["QUEUE", "TYPE", "CURDEPTH"])? {
            out.push(object("AMQ8450I", "Display queue status details.", f));
        }
    }
    none_found(c, &pattern, out)
}

fn display_conn(qm: &QueueManager, c: &Command) -> Outcome {
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
        let (date, time) = date_time(ci.connected_at);
        let uow = ci
            .counters
            .uow_messages
            .load(std::sync::atomic::Ordering::Relaxed);
        let base = vec![
            field("CONN", &id, Kind::Status),
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
        ];
        // The WHERE filter applies to the connection; its handles follow it.
        let passes_filter = match &c.filter {
            Some(f) => {
                if !base.iter().any(|x| x.key == f.attribute) {
                    return Err(Failure::from(ParseError {
                        message: format!("CONN has no attribute {} to filter on", f.attribute),
                        position: f.value.pos,
                    }));
                }
                passes(f, &base)
            }
            None => true,
        };
        if !passes_filter {
            continue;
        }
        if show_conn {
            out.push(object(
                "AMQ8276I",
                "Display Connection details.",
                select(c, base, &["CONN", "TYPE", "APPLTAG", "CONNOPTS"])?,
            ));
        }
        if show_handles {
            for h in ci.counters.handles.lock().values() {
                let fields = vec![
                    field("CONN", &id, Kind::Status),
                    field("TYPE", "HANDLE", Kind::Status),
                    field("OBJNAME", h.object, Kind::Status),
                    field(
                        "OBJTYPE",
                        if h.object == qm.name() {
                            "QMGR"
                        } else {
                            "QUEUE"
                        },
                        Kind::Status,
                    ),
                    field("OPENOPTS", handle_opts(h), Kind::Status),
                ];
                out.push(object("AMQ8276I", "Display Connection details.", fields));
            }
        }
    }
    none_found(c, &pattern, out)
}

fn display_qmstatus(qm: &QueueManager, c: &Command) -> Outcome {
    let mut fields = vec![
        field("QMNAME", qm.name(), Kind::Status),
        field("STATUS", "RUNNING", Kind::Status),
        field("CONNS", qm.connections().len(), Kind::Status),
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

fn define_channel(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.channel(n.as_str()).ok();
    let replace = check_replace(c, exists.is_some(), "channel", &n)?;
    let mut a = match c.value("LIKE") {
        Some(v) => qm.channel(&v.text)?,
        None => ChannelAttrs::default(),
    };
    match c.params.iter().find(|p| p.key == "CHLTYPE") {
        Some(p) => a.channel_type = attrs::channel_type(p)?,
        None if c.value("LIKE").is_none() => {
            return Err(fail(
                "AMQ8405E",
                format!("DEFINE CHANNEL({n}) needs CHLTYPE (SDR, RCVR, SVRCONN or CLNTCONN)"),
            ))
        }
        None => {}
    }
    for p in attribute_params(c) {
        attrs::set_channel(&mut a, p)?;
    }
    qm.define_channel(n.as_str(), a, replace)?;
    reply(c, vec![info("AMQ8014I", format!("Channel {n} created."))])
}

fn dump(qm: &QueueManager, c: &Command) -> Outcome {
    let mut lines = vec![
        format!(
            "* FerryMQ definitions of queue manager {} — replay with 'ferry admin QM -f FILE'",
            qm.name()
        ),
        format!(
            "ALTER QMGR {}",
            attrs::as_keywords(&attrs::qmgr_fields(&qm.attrs()), &[])
        ),
    ];
    let mut names = qm.queue_names();
    // Local and model queues first, so aliases follow their targets.
    names.sort_by_key(|(n, t)| (matches!(t, QueueType::Alias | QueueType::Remote), *n));
    for (n, _) in names {
        let Ok(def) = qm.definition(n.as_str()) else {
            continue;
        };
        let (kind, fields) = match &def {
            QueueDefinition::Local(a) => {
                if a.definition_type == ferry_model::objects::DefinitionType::TemporaryDynamic {
                    continue;
                }
                ("QLOCAL", attrs::local_fields(&n, a, false, None))
            }
            QueueDefinition::Model(a) => ("QMODEL", attrs::local_fields(&n, a, true, None)),
            QueueDefinition::Alias(a) => ("QALIAS", attrs::alias_fields(&n, a)),
            QueueDefinition::Remote(a) => ("QREMOTE", attrs::remote_fields(&n, a)),
        };
        lines.push(format!(
            "DEFINE {kind}('{n}') {} REPLACE",
            attrs::as_keywords(&fields, &["QUEUE", "TYPE", "TARGTYPE"])
        ));
    }
    for (n, a) in qm.channels() {
        lines.push(format!(
            "DEFINE CHANNEL('{n}') {} REPLACE",
            attrs::as_keywords(&attrs::channel_fields(&n, &a), &["CHANNEL"])
        ));
    }
    for (n, a) in qm.listeners() {
        lines.push(format!(
            "DEFINE LISTENER('{n}') {} REPLACE",
            attrs::as_keywords(&attrs::listener_fields(&n, &a), &["LISTENER"])
        ));
    }
    let count = lines.len() - 1;
    Ok(Reply {
        number: 0,
        command: c.text.clone(),
        ok: true,
        messages: vec![info("AMQ8500I", format!("{count} definitions dumped."))],
        script: lines,
    })
}
