//! Running commands against a queue manager, producing replies made of messages and, for
//! DISPLAY, the objects' fields: here the dispatch from verb and object type to a handler, and
//! the handlers that define, alter, delete, clear, start, stop, reset, resolve and dump;
//! `display` has DISPLAY (name patterns, WHERE, field selection and the status fields).

mod chlauth;
pub(crate) mod definitions;
mod display;
mod mqttstatus;
mod security;
mod subs;
mod topics;
mod tpstatus;

use std::sync::Arc;

use ferry_core::{MqError, ObjectName, QueueManager, Reason};
pub use ferry_model::admin::{Message, Reply};
use ferry_model::objects::{
    AliasQueueAttrs, ChannelAttrs, ChannelType, LocalQueueAttrs, QueueDefinition, QueueType,
    RemoteQueueAttrs,
};
use ferry_model::security::Principal;

use crate::attrs::{self, Field, Kind};
use crate::parse::{self, Command, Object, Param, ParseError, Verb};
use display::{
    display_channels, display_chstatus, display_conn, display_listeners, display_lsstatus,
    display_qmgr, display_qmstatus, display_qstatus, display_queues,
};

fn info(code: &str, text: impl Into<String>) -> Message {
    Message {
        code: code.to_owned(),
        text: text.into(),
        fields: Vec::new(),
        reason: None,
    }
}

fn object(code: &str, text: &str, fields: Vec<Field>) -> Message {
    Message {
        code: code.to_owned(),
        text: text.to_owned(),
        fields,
        reason: None,
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
            Reason::NotAuthorized => "AMQ8135E",
            _ => "AMQ8101E",
        };
        let mut m = info(
            code,
            format!("{} ({} {})", e.detail, e.reason.name(), e.reason.code()),
        );
        m.reason = Some(e.reason.code() as i32);
        Failure(m)
    }
}

fn fail(code: &str, text: impl Into<String>) -> Failure {
    let mut m = info(code, text);
    m.reason = reason_of(code);
    Failure(m)
}

/// The MQRC_ code a failure's message id stands for (what PCF answers with).
fn reason_of(code: &str) -> Option<i32> {
    let r = match code {
        "AMQ8147E" => Reason::UnknownObjectName,
        "AMQ8150E" => Reason::ObjectAlreadyExists,
        "AMQ8148E" => Reason::ObjectInUse,
        "AMQ8143E" => Reason::QNotEmpty,
        "AMQ8135E" => Reason::NotAuthorized,
        "AMQ8141E" => Reason::ObjectTypeError,
        "AMQ8154E" => Reason::FunctionNotSupported,
        _ => return None,
    };
    Some(r.code() as i32)
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

/// Runs one command's text as the queue manager's owner.
pub fn run(qm: &QueueManager, text: &str, number: usize) -> Reply {
    run_as(qm, None, text, number)
}

/// Runs one command's text for `who` (`None`: the owner), within `who`'s authority.
pub fn run_as(qm: &QueueManager, who: Option<&Arc<Principal>>, text: &str, number: usize) -> Reply {
    run_from(qm, who, text, number, None)
}

/// [`run_as`] for a PCF request whose MQCMD code is `pcf` (`None`: MQSC), which its command
/// event names.
pub(crate) fn run_from(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    text: &str,
    number: usize,
    pcf: Option<i32>,
) -> Reply {
    let result = parse::parse_command(text)
        .map_err(Failure::from)
        .and_then(|mut c| {
            c.issuer = who.cloned();
            security::check_command(qm, &c)?;
            let before = qm.attrs().command_events;
            let reply = execute(qm, &c)?;
            command_event(qm, &c, pcf, before);
            Ok(reply)
        });
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
    run_script_as(qm, None, script)
}

/// Runs every command of a script for `who` (`None`: the owner).
pub fn run_script_as(qm: &QueueManager, who: Option<&Arc<Principal>>, script: &str) -> Vec<Reply> {
    run_script_from(qm, who, script, None)
}

/// [`run_script_as`] for a PCF request (MQCMD_ESCAPE) when `pcf` names it.
pub(crate) fn run_script_from(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    script: &str,
    pcf: Option<i32>,
) -> Vec<Reply> {
    parse::split_script(script)
        .into_iter()
        .enumerate()
        .map(|(i, (_, text))| run_from(qm, who, &text, i + 1, pcf))
        .collect()
}

/// The command event of `c`, which ran successfully (the queue manager decides by CMDEV, and
/// by `before`, what it was when `c` began).
fn command_event(
    qm: &QueueManager,
    c: &Command,
    pcf: Option<i32>,
    before: ferry_model::objects::CommandEvents,
) {
    let user = c
        .issuer
        .as_ref()
        .map_or_else(|| qm.owner().to_owned(), |p| p.user.clone());
    qm.command_event(&ferry_core::qmgr::IssuedCommand {
        user: &user,
        origin: if pcf.is_some() {
            ferry_model::pcf::EVO_MSG
        } else {
            ferry_model::pcf::EVO_CONSOLE
        },
        pcf_command: pcf,
        display: c.verb == Verb::Display,
        text: &c.text,
        before,
    });
}

/// Runs a parsed command: the handler for its verb and object type.
fn execute(qm: &QueueManager, c: &Command) -> Outcome {
    use Object::{QAlias, QLocal, QModel, QRemote};
    match (c.verb, c.object) {
        (Verb::Define, QLocal | QAlias | QRemote | QModel) => define_queue(qm, c),
        (Verb::Alter, QLocal | QAlias | QRemote | QModel) => alter_queue(qm, c),
        (Verb::Delete, QLocal | QAlias | QRemote | QModel) => delete_queue(qm, c),
        (Verb::Display, QLocal | QAlias | QRemote | QModel | Object::Queue) => {
            display_queues(qm, c)
        }
        (Verb::Clear, QLocal) => clear_queue(qm, c),
        (Verb::Display, Object::QStatus) => display_qstatus(qm, c),
        (Verb::Display, Object::Conn) => display_conn(qm, c),
        (Verb::Stop, Object::Conn) => stop_conn(qm, c),
        (Verb::Start | Verb::Stop, Object::CmdServ) => command_server(qm, c),
        (Verb::Display, Object::QmStatus) => display_qmstatus(qm, c),
        (Verb::Display, Object::QMgr) => display_qmgr(qm, c),
        (Verb::Alter, Object::QMgr) => alter_qmgr(qm, c),
        (Verb::Define, Object::Channel) => define_channel(qm, c),
        (Verb::Alter, Object::Channel) => alter_channel(qm, c),
        (Verb::Delete, Object::Channel) => delete_channel(qm, c),
        (Verb::Display, Object::Channel) => display_channels(qm, c),
        (Verb::Define, Object::Sub) => subs::define_sub(qm, c),
        (Verb::Delete, Object::Sub) => subs::delete_sub(qm, c),
        (Verb::Alter, Object::Sub) => subs::alter_sub(qm, c),
        (Verb::Display, Object::Sub) => subs::display_subs(qm, c),
        (Verb::Display, Object::SbStatus) => subs::display_sbstatus(qm, c),
        (Verb::Define, Object::Topic) => topics::define_topic(qm, c),
        (Verb::Alter, Object::Topic) => topics::alter_topic(qm, c),
        (Verb::Delete, Object::Topic) => topics::delete_topic(qm, c),
        (Verb::Display, Object::Topic) => topics::display_topics(qm, c),
        (Verb::Display, Object::TpStatus) => tpstatus::display_tpstatus(qm, c),
        (Verb::Clear, Object::TopicStr) => tpstatus::clear_topicstr(qm, c),
        (Verb::Define | Verb::Alter | Verb::Delete | Verb::Display, Object::Namelist)
        | (Verb::Define | Verb::Alter | Verb::Delete | Verb::Display, Object::Process) => {
            definitions::execute(qm, c)
        }
        (Verb::Define, Object::Listener) => define_listener(qm, c),
        (Verb::Alter, Object::Listener) => alter_listener(qm, c),
        (Verb::Delete, Object::Listener) => delete_listener(qm, c),
        (Verb::Display, Object::Listener) => display_listeners(qm, c),
        (Verb::Start, Object::Listener) => start_listener(qm, c),
        (Verb::Stop, Object::Listener) => stop_listener(qm, c),
        (Verb::Display, Object::LsStatus) => display_lsstatus(qm, c),
        (Verb::Start, Object::Channel) => start_channel(qm, c),
        (Verb::Stop, Object::Channel) => stop_channel(qm, c),
        (Verb::Display, Object::ChStatus) => display_chstatus(qm, c),
        (Verb::Dump, Object::QMgr) => dump(qm, c),
        (Verb::Resolve, Object::Channel) => resolve_channel(qm, c),
        (Verb::Reset, Object::Channel) => reset_channel(qm, c),
        (Verb::Reset, Object::QStats) => reset_qstats(qm, c),
        (Verb::Reset, Object::QMgr) => reset_qmgr(qm, c),
        (Verb::Define, Object::AuthInfo) => security::define_authinfo(qm, c),
        (Verb::Alter, Object::AuthInfo) => security::alter_authinfo(qm, c),
        (Verb::Delete, Object::AuthInfo) => security::delete_authinfo(qm, c),
        (Verb::Display, Object::AuthInfo) => security::display_authinfo(qm, c),
        (Verb::Set, Object::AuthRec) => security::set_authrec(qm, c),
        (Verb::Delete, Object::AuthRec) => security::delete_authrec(qm, c),
        (Verb::Display, Object::AuthRec) => security::display_authrec(qm, c),
        (Verb::Display, Object::EntAuth) => security::display_entauth(qm, c),
        (Verb::Refresh, Object::Security) => security::refresh_security(qm, c),
        (Verb::Refresh, Object::QMgr) => refresh_qmgr(qm, c),
        (Verb::Set, Object::ChlAuth) => chlauth::set_chlauth(qm, c),
        (Verb::Display, Object::ChlAuth) => chlauth::display_chlauth(qm, c),
        (v, o) => Err(fail(
            "AMQ8405E",
            format!("{} {} is not a command", verb_word(v), o.keyword()),
        )),
    }
}

/// CLEAR QLOCAL: removes every message from the queue.
fn clear_queue(qm: &QueueManager, c: &Command) -> Outcome {
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

/// ALTER QMGR.
fn alter_qmgr(qm: &QueueManager, c: &Command) -> Outcome {
    let mut a = qm.attrs();
    for p in attribute_params(c) {
        attrs::set_qmgr(&mut a, p)?;
    }
    qm.alter_qmgr(|x| *x = a)?;
    reply(c, vec![info("AMQ8005I", "Queue manager changed.")])
}

/// ALTER CHANNEL (its CHLTYPE cannot change).
fn alter_channel(qm: &QueueManager, c: &Command) -> Outcome {
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
    let mqtt = a.channel_type == ChannelType::Mqtt;
    qm.define_channel(n.as_str(), a, true)?;
    let mut lines = vec![info("AMQ8016I", format!("Channel {n} changed."))];
    if mqtt {
        lines.extend(mqtt_listening(qm, &n)?);
    }
    reply(c, lines)
}

/// After DEFINE or ALTER of an MQTT channel: it listens with its attributes (ALTER restarts
/// it, ending its connections). A failure leaves the definition in place and says what to do.
fn mqtt_listening(qm: &QueueManager, n: &ObjectName) -> Result<Vec<Message>, Failure> {
    match qm.mqtt_channel_changed(n.as_str()) {
        Ok(true) => {
            let at = qm
                .mqtt_channel_runs()
                .into_iter()
                .find(|r| r.name == *n)
                .map(|r| r.address)
                .unwrap_or_default();
            Ok(vec![info(
                "AMQ8018I",
                format!("MQTT channel {n} is listening on {at}."),
            )])
        }
        Ok(false) => Ok(Vec::new()),
        Err(mut e) => {
            e.detail = format!(
                "channel {n} is defined but not listening: {}; correct it with ALTER CHANNEL({n}) CHLTYPE(MQTT), or START CHANNEL({n}) once the cause is gone",
                e.detail
            );
            Err(e.into())
        }
    }
}

/// DELETE CHANNEL.
fn delete_channel(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_channel(n.as_str())?;
    reply(c, vec![info("AMQ8015I", format!("Channel {n} deleted."))])
}

/// DEFINE LISTENER (from LIKE's definition or SYSTEM.DEFAULT.LISTENER.TCP).
fn define_listener(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.listener(n.as_str()).ok();
    let replace = check_replace(c, exists.is_some(), "listener", &n)?;
    let mut a = match c.value("LIKE") {
        Some(v) => qm.listener(&v.text)?,
        None => qm
            .listener(ferry_model::system::DEFAULT_LISTENER)
            .unwrap_or_default(),
    };
    for p in attribute_params(c) {
        attrs::set_listener(&mut a, p)?;
    }
    qm.define_listener(n.as_str(), a, replace)?;
    reply(c, vec![info("AMQ8626I", format!("Listener {n} created."))])
}

/// ALTER LISTENER.
fn alter_listener(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut a = qm.listener(n.as_str())?;
    for p in attribute_params(c) {
        attrs::set_listener(&mut a, p)?;
    }
    qm.define_listener(n.as_str(), a, true)?;
    reply(c, vec![info("AMQ8627I", format!("Listener {n} changed."))])
}

/// DELETE LISTENER.
fn delete_listener(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_listener(n.as_str())?;
    reply(c, vec![info("AMQ8628I", format!("Listener {n} deleted."))])
}

/// START CMDSERV / STOP CMDSERV: the PCF command server begins or ends serving
/// SYSTEM.ADMIN.COMMAND.QUEUE (a request it has begun, it finishes; requests put while it is
/// stopped wait on the queue). Starting a running server, or stopping a stopped one, is refused
/// as MQ refuses it. SCMDSERV says what happens at the next start.
fn command_server(qm: &QueueManager, c: &Command) -> Outcome {
    let start = c.verb == Verb::Start;
    if qm.command_server_wanted() == start {
        let state = if start { "running" } else { "stopped" };
        return Err(fail(
            "AMQ8028E",
            format!("The command server is already {state}."),
        ));
    }
    qm.set_command_server_wanted(start);
    let (code, text) = if start {
        ("AMQ8027I", "Command server start request accepted.")
    } else {
        ("AMQ8029I", "Command server stop request accepted.")
    };
    reply(c, vec![info(code, text)])
}

/// STOP CONN(conn) [EXTCONN(ext)]: ends a connection (the 16 hexadecimal digits DISPLAY CONN
/// shows; EXTCONN, if given, must be this queue manager's).
fn stop_conn(qm: &QueueManager, c: &Command) -> Outcome {
    let v = c
        .name
        .as_ref()
        .ok_or_else(|| fail("AMQ8405E", "STOP CONN needs the connection: STOP CONN(id)"))?;
    let id = u64::from_str_radix(v.text.trim(), 16)
        .ok()
        .filter(|_| v.text.trim().len() == 16)
        .ok_or_else(|| {
            fail(
                "AMQ8405E",
                format!(
                    "CONN({}) is not 16 hexadecimal digits as DISPLAY CONN shows",
                    v.text
                ),
            )
        })?;
    if let Some(ext) = c.value("EXTCONN") {
        let ours = display::ext_conn(qm);
        if !ext.text.eq_ignore_ascii_case(&ours) {
            return Err(fail(
                "AMQ8405E",
                format!("EXTCONN({}) is not this queue manager's ({ours})", ext.text),
            ));
        }
    }
    qm.stop_connection(id)?;
    reply(
        c,
        vec![info(
            "AMQ8455I",
            format!("Connection {id:016X} stop request accepted."),
        )],
    )
}

/// START LISTENER.
fn start_listener(qm: &QueueManager, c: &Command) -> Outcome {
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

/// STOP LISTENER.
fn stop_listener(qm: &QueueManager, c: &Command) -> Outcome {
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

/// START CHANNEL.
fn start_channel(qm: &QueueManager, c: &Command) -> Outcome {
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

/// STOP CHANNEL.
fn stop_channel(qm: &QueueManager, c: &Command) -> Outcome {
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

/// RESOLVE CHANNEL ACTION(COMMIT | BACKOUT): settles a batch in doubt.
fn resolve_channel(qm: &QueueManager, c: &Command) -> Outcome {
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
                    format!("committed: {removed} messages taken off the transmission queue")
                } else {
                    "backed out: the messages will be sent again".to_owned()
                }
            ),
        )],
    )
}

/// RESET CHANNEL [SEQNUM(n)]: sets the channel's sequence number (0 without SEQNUM).
fn reset_channel(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let seq = reset_seqnum(c)?;
    qm.reset_channel(n.as_str(), seq)?;
    reply(
        c,
        vec![info(
            "AMQ8023I",
            format!("IBM MQ channel reset: {n} (sequence number {seq})."),
        )],
    )
}

/// RESET QSTATS(q): each matching local queue's statistics since they were last reset —
/// MSGSIN, MSGSOUT, HIQDEPTH, TIMESINCE — which start again (MQ's Reset Queue Statistics; a
/// performance event resets them too). A generic name covers the queues the issuer may change.
/// RESET QMGR TYPE(STATISTICS): ends the statistics interval now — its MQI and queue
/// statistics messages are written (as STATMQI and STATQ say) and the next interval begins.
fn reset_qmgr(qm: &QueueManager, c: &Command) -> Outcome {
    match c.value("TYPE").map(|v| v.text.to_ascii_uppercase()) {
        Some(t) if t == "STATISTICS" => {}
        other => {
            return Err(fail(
                "AMQ8405E",
                match other {
                    Some(t) => format!("RESET QMGR TYPE({t}) is not offered; TYPE(STATISTICS) is"),
                    None => "RESET QMGR needs TYPE(STATISTICS) (write the statistics messages now)"
                        .into(),
                },
            ))
        }
    }
    let n = qm.write_statistics()?;
    reply(
        c,
        vec![info(
            "AMQ8559I",
            format!(
                "Reset Queue Manager accepted: {n} statistics message{} written to SYSTEM.ADMIN.STATISTICS.QUEUE.",
                if n == 1 { "" } else { "s" }
            ),
        )],
    )
}

/// REFRESH QMGR TYPE(EXPIRY) [NAME(generic)]: an expiry scan now of the local queues NAME
/// matches (all without it), as MQ's; expiration reports go as the scan finds their messages.
fn refresh_qmgr(qm: &QueueManager, c: &Command) -> Outcome {
    match c
        .value("TYPE")
        .map(|v| v.text.to_ascii_uppercase())
        .as_deref()
    {
        Some("EXPIRY") => {}
        Some(t) => {
            return Err(fail(
                "AMQ8405E",
                format!(
                    "REFRESH QMGR TYPE({t}) is not offered; TYPE(EXPIRY) [NAME(generic name)] is"
                ),
            ))
        }
        None => {
            return Err(fail(
                "AMQ8405E",
                "REFRESH QMGR needs TYPE(EXPIRY) (an expiry scan; NAME(generic name) limits it)",
            ))
        }
    }
    let name = c.value("NAME").map_or("*", |v| v.text.as_str());
    let (prefix, generic) = match name.strip_suffix('*') {
        Some(p) => (p, true),
        None => (name, false),
    };
    let discarded = qm.sweep_expired_where(|n| {
        if generic {
            n.as_str().starts_with(prefix)
        } else {
            n.as_str() == prefix
        }
    });
    reply(
        c,
        vec![info(
            "AMQ8593I",
            format!(
                "Refresh Queue Manager accepted: {discarded} expired message{} discarded.",
                if discarded == 1 { "" } else { "s" }
            ),
        )],
    )
}

fn reset_qstats(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = display::generic(c)?;
    let may = |n: &ObjectName| {
        c.issuer.as_deref().is_none_or(|who| {
            let auth = qm.authority(ferry_model::security::AuthObjType::Queue, n.as_str(), who);
            auth.contains(ferry_model::security::Authority::CHG)
        })
    };
    let mut out = Vec::new();
    for (name, t) in qm.queue_names() {
        if t != QueueType::Local || !display::matches(&pattern, &name) || !may(&name) {
            continue;
        }
        let (secs, high, enq, deq) = qm.reset_queue_stats(&name)?;
        out.push(object(
            "AMQ8450I",
            "Reset queue statistics.",
            vec![
                field("QUEUE", name, Kind::Name),
                field("MSGSIN", enq, Kind::Status),
                field("MSGSOUT", deq, Kind::Status),
                field("HIQDEPTH", high, Kind::Status),
                field("TIMESINCE", secs, Kind::Status),
            ],
        ));
    }
    display::none_found(c, &pattern, out)
}

/// RESET CHANNEL's SEQNUM (0 when not given); any other keyword is an error.
fn reset_seqnum(c: &Command) -> Result<u64, Failure> {
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
    Ok(seq)
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
        Verb::Set => "SET",
        Verb::Refresh => "REFRESH",
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
            Object::QAlias => match qm.definition(ferry_model::system::DEFAULT_ALIAS_QUEUE) {
                Ok(QueueDefinition::Alias(mut a)) => {
                    a.description.clear();
                    QueueDefinition::Alias(a)
                }
                _ => QueueDefinition::Alias(AliasQueueAttrs::new(ObjectName::EMPTY)),
            },
            _ => match qm.definition(ferry_model::system::DEFAULT_REMOTE_QUEUE) {
                Ok(QueueDefinition::Remote(mut a)) => {
                    a.description.clear();
                    QueueDefinition::Remote(a)
                }
                _ => QueueDefinition::Remote(RemoteQueueAttrs::default()),
            },
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

pub use ferry_model::clock::date_time;

fn define_channel(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.channel(n.as_str()).ok();
    let replace = check_replace(c, exists.is_some(), "channel", &n)?;
    let mut a = match c.value("LIKE") {
        Some(v) => qm.channel(&v.text)?,
        None => ChannelAttrs::default(),
    };
    match c.params.iter().find(|p| p.key == "CHLTYPE") {
        // Without LIKE, the type's SYSTEM.DEF channel is the template (MQ's rule).
        Some(p) if c.value("LIKE").is_none() => {
            let t = attrs::channel_type(p)?;
            a = qm
                .channel(ferry_model::system::default_channel(t))
                .unwrap_or_default();
            a.channel_type = t;
        }
        Some(p) => a.channel_type = attrs::channel_type(p)?,
        None if c.value("LIKE").is_none() => {
            return Err(fail(
                "AMQ8405E",
                format!("DEFINE CHANNEL({n}) needs CHLTYPE (SDR, RCVR, SVRCONN, CLNTCONN or MQTT)"),
            ))
        }
        None => {}
    }
    for p in attribute_params(c) {
        attrs::set_channel(&mut a, p)?;
    }
    let mqtt = a.channel_type == ChannelType::Mqtt;
    qm.define_channel(n.as_str(), a, replace)?;
    let mut lines = vec![info("AMQ8014I", format!("Channel {n} created."))];
    if mqtt {
        lines.extend(mqtt_listening(qm, &n)?);
    }
    reply(c, lines)
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
    definitions::dump(qm, &mut lines);
    security::dump(qm, &mut lines);
    chlauth::dump(qm, &mut lines);
    topics::dump(qm, &mut lines);
    subs::dump(qm, &mut lines);
    let count = lines.len() - 1;
    Ok(Reply {
        number: 0,
        command: c.text.clone(),
        ok: true,
        messages: vec![info("AMQ8500I", format!("{count} definitions dumped."))],
        script: lines,
    })
}
