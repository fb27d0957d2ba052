//! Object attributes by their MQSC keywords: reading a definition as an ordered list of fields
//! (for DISPLAY and DUMP) and setting one from a keyword (for DEFINE and ALTER).

use ferry_core::{ObjectName, Persistence};
pub use ferry_model::admin::{Field, Kind};
use ferry_model::objects::{
    AliasQueueAttrs, AuthInfoAttrs, AuthType, ChannelAttrs, ChannelType, CommandEvents, ConnCheck,
    DefaultInputOpen, DefinitionType, DeliverySequence, ListenerAttrs, ListenerControl,
    LocalQueueAttrs, Monitoring, PutResponse, QueueManagerAttrs, ReadAhead, RemoteQueueAttrs,
    ServiceIntervalEvent, TransportType, Usage, MAX_SERVICE_INTERVAL_MS,
};

use crate::parse::{Param, ParseError};

fn f(key: &str, value: impl ToString, kind: Kind) -> Field {
    Field {
        key: key.to_owned(),
        value: Some(value.to_string()),
        kind,
    }
}

fn flag(key: &str) -> Field {
    Field {
        key: key.to_owned(),
        value: None,
        kind: Kind::Flag,
    }
}

fn enabled(inhibited: bool) -> &'static str {
    if inhibited {
        "DISABLED"
    } else {
        "ENABLED"
    }
}

fn persistence(p: Persistence) -> &'static str {
    match p {
        Persistence::Persistent => "YES",
        _ => "NO",
    }
}

fn presp(p: PutResponse) -> &'static str {
    match p {
        PutResponse::Sync => "SYNC",
        PutResponse::Async => "ASYNC",
    }
}

fn reada(r: ReadAhead) -> &'static str {
    match r {
        ReadAhead::No => "NO",
        ReadAhead::Yes => "YES",
        ReadAhead::Disabled => "DISABLED",
    }
}

/// DEFSOPT's word.
fn defsopt(d: DefaultInputOpen) -> &'static str {
    match d {
        DefaultInputOpen::Shared => "SHARED",
        DefaultInputOpen::Exclusive => "EXCL",
    }
}

/// MSGDLVSQ's word.
fn msgdlvsq(d: DeliverySequence) -> &'static str {
    match d {
        DeliverySequence::Priority => "PRIORITY",
        DeliverySequence::Fifo => "FIFO",
    }
}

/// USAGE's word.
fn usage(u: Usage) -> &'static str {
    match u {
        Usage::Normal => "NORMAL",
        Usage::Transmission => "XMITQ",
    }
}

/// DEFTYPE's word.
fn deftype(d: DefinitionType) -> &'static str {
    match d {
        DefinitionType::Predefined => "PREDEFINED",
        DefinitionType::TemporaryDynamic => "TEMPDYN",
        DefinitionType::PermanentDynamic => "PERMDYN",
    }
}

/// An error about `p`'s value.
pub(crate) fn bad(p: &Param, why: impl std::fmt::Display) -> ParseError {
    ParseError {
        message: format!("{}: {why}", p.key),
        position: p.value.as_ref().map_or(p.pos, |v| v.pos),
    }
}

pub(crate) fn text(p: &Param) -> Result<String, ParseError> {
    p.value
        .as_ref()
        .map(|v| v.text.clone())
        .ok_or_else(|| bad(p, "needs a value in parentheses"))
}

pub(crate) fn word<'a>(p: &Param, allowed: &[&'a str]) -> Result<&'a str, ParseError> {
    let t = text(p)?.to_ascii_uppercase();
    allowed
        .iter()
        .find(|a| **a == t)
        .copied()
        .ok_or_else(|| bad(p, format!("'{t}' is not one of {}", allowed.join(", "))))
}

pub(crate) fn int<T: TryFrom<u64>>(p: &Param, max: u64) -> Result<T, ParseError> {
    let t = text(p)?;
    let n: u64 = t
        .parse()
        .map_err(|_| bad(p, format!("'{t}' is not a whole number")))?;
    if n > max {
        return Err(bad(
            p,
            format!("{n} is more than the largest allowed, {max}"),
        ));
    }
    T::try_from(n).map_err(|_| bad(p, "out of range"))
}

pub(crate) fn name(p: &Param) -> Result<ObjectName, ParseError> {
    let t = text(p)?;
    let t = t.trim();
    if t.is_empty() {
        return Ok(ObjectName::EMPTY);
    }
    ferry_core::object_name(t).map_err(|e| bad(p, e.detail))
}

pub(crate) fn descr(p: &Param) -> Result<String, ParseError> {
    let t = text(p)?;
    if t.len() > 64 {
        return Err(bad(p, format!("{} characters; the limit is 64", t.len())));
    }
    Ok(t)
}

pub(crate) fn unknown(p: &Param, what: &str) -> ParseError {
    ParseError {
        message: format!(
            "keyword {} is not valid for {what}{}",
            p.key,
            crate::suggest::hint(&p.key, crate::suggest::KEYWORDS.iter().copied())
        ),
        position: p.pos,
    }
}

/// Keywords that steer a command rather than set an attribute.
pub const CONTROL: [&str; 9] = [
    "LIKE",
    "REPLACE",
    "NOREPLACE",
    "PURGE",
    "NOPURGE",
    "ALL",
    "TYPE",
    "CHLTYPE",
    "FORCE",
];

/// QLOCAL (or QMODEL with `model`) fields, status fields included when given.
pub fn local_fields(
    name: &ObjectName,
    a: &LocalQueueAttrs,
    model: bool,
    status: Option<(usize, usize, usize)>,
) -> Vec<Field> {
    let mut v = vec![
        f("QUEUE", name, Kind::Name),
        f("TYPE", if model { "QMODEL" } else { "QLOCAL" }, Kind::Word),
        f("DESCR", &a.description, Kind::Text),
        f("PUT", enabled(a.put_inhibited), Kind::Word),
        f("GET", enabled(a.get_inhibited), Kind::Word),
        f("DEFPRTY", a.def_priority, Kind::Int),
        f("DEFPSIST", persistence(a.def_persistence), Kind::Word),
        f("DEFPRESP", presp(a.def_put_response), Kind::Word),
        f("DEFREADA", reada(a.def_read_ahead), Kind::Word),
        f("MAXDEPTH", a.max_depth, Kind::Int),
        f("MAXMSGL", a.max_msg_length, Kind::Int),
        if a.shareable {
            flag("SHARE")
        } else {
            flag("NOSHARE")
        },
        f("DEFSOPT", defsopt(a.def_input_open), Kind::Word),
        f("MSGDLVSQ", msgdlvsq(a.delivery_sequence), Kind::Word),
        f("BOTHRESH", a.backout_threshold, Kind::Int),
        f("BOQNAME", a.backout_requeue_name, Kind::Name),
        if a.harden_backout {
            flag("HARDENBO")
        } else {
            flag("NOHARDENBO")
        },
        f("USAGE", usage(a.usage), Kind::Word),
        f("QDEPTHHI", a.depth_high_limit, Kind::Int),
        f("QDEPTHLO", a.depth_low_limit, Kind::Int),
        f("QDPHIEV", switch(a.depth_high_event), Kind::Word),
        f("QDPLOEV", switch(a.depth_low_event), Kind::Word),
        f("QDPMAXEV", switch(a.depth_max_event), Kind::Word),
        f(
            "QSVCIEV",
            match a.service_interval_event {
                ServiceIntervalEvent::None => "NONE",
                ServiceIntervalEvent::High => "HIGH",
                ServiceIntervalEvent::Ok => "OK",
            },
            Kind::Word,
        ),
        f("QSVCINT", a.service_interval_ms, Kind::Int),
        f("STATQ", a.statistics.word(), Kind::Word),
        f("ACCTQ", a.accounting.word(), Kind::Word),
    ];
    v.extend(trigger_fields(&a.triggering));
    if model || a.definition_type != DefinitionType::Predefined {
        v.push(f(
            "DEFTYPE",
            deftype(a.definition_type),
            if model { Kind::Word } else { Kind::Status },
        ));
    }
    if let Some((depth, ipprocs, opprocs)) = status {
        v.push(f("CURDEPTH", depth, Kind::Status));
        v.push(f("IPPROCS", ipprocs, Kind::Status));
        v.push(f("OPPROCS", opprocs, Kind::Status));
    }
    v.extend(stamps(a.created_unix_s, a.altered_unix_s));
    v
}

/// TRIGGER/NOTRIGGER, TRIGTYPE, TRIGDPTH, TRIGMPRI, TRIGDATA, INITQ and PROCESS.
fn trigger_fields(t: &ferry_model::objects::Triggering) -> [Field; 7] {
    [
        if t.control {
            flag("TRIGGER")
        } else {
            flag("NOTRIGGER")
        },
        f("TRIGTYPE", t.trigger_type.keyword(), Kind::Word),
        f("TRIGDPTH", t.depth, Kind::Int),
        f("TRIGMPRI", t.msg_priority, Kind::Int),
        f("TRIGDATA", &t.data, Kind::Text),
        f("INITQ", t.initiation_queue, Kind::Name),
        f("PROCESS", t.process, Kind::Name),
    ]
}

/// CRDATE, CRTIME, ALTDATE and ALTTIME of a queue definition (blank when not known).
fn stamps(created: u64, altered: u64) -> [Field; 4] {
    let (cd, ct) = ferry_model::inquire::stamp_text(created);
    let (ad, at) = ferry_model::inquire::stamp_text(altered);
    [
        f("CRDATE", cd, Kind::Status),
        f("CRTIME", ct, Kind::Status),
        f("ALTDATE", ad, Kind::Status),
        f("ALTTIME", at, Kind::Status),
    ]
}

/// Sets a QLOCAL / QMODEL attribute.
pub fn set_local(a: &mut LocalQueueAttrs, p: &Param, model: bool) -> Result<(), ParseError> {
    match p.key.as_str() {
        "DESCR" => a.description = descr(p)?,
        "PUT" => a.put_inhibited = word(p, &["ENABLED", "DISABLED"])? == "DISABLED",
        "GET" => a.get_inhibited = word(p, &["ENABLED", "DISABLED"])? == "DISABLED",
        "DEFPRTY" => a.def_priority = int(p, 9)?,
        "DEFPSIST" => {
            a.def_persistence = if word(p, &["YES", "NO"])? == "YES" {
                Persistence::Persistent
            } else {
                Persistence::NotPersistent
            }
        }
        "DEFPRESP" => {
            a.def_put_response = match word(p, &["SYNC", "ASYNC"])? {
                "ASYNC" => PutResponse::Async,
                _ => PutResponse::Sync,
            }
        }
        "DEFREADA" => {
            a.def_read_ahead = match word(p, &["NO", "YES", "DISABLED"])? {
                "YES" => ReadAhead::Yes,
                "DISABLED" => ReadAhead::Disabled,
                _ => ReadAhead::No,
            }
        }
        "MAXDEPTH" => a.max_depth = int(p, ferry_model::objects::MAX_MAX_DEPTH as u64)?,
        "MAXMSGL" => a.max_msg_length = int(p, ferry_model::objects::MAX_MAX_MSG_LENGTH as u64)?,
        "SHARE" => a.shareable = true,
        "NOSHARE" => a.shareable = false,
        "DEFSOPT" => {
            a.def_input_open = match word(p, &["SHARED", "EXCL"])? {
                "EXCL" => DefaultInputOpen::Exclusive,
                _ => DefaultInputOpen::Shared,
            }
        }
        "MSGDLVSQ" => {
            a.delivery_sequence = match word(p, &["PRIORITY", "FIFO"])? {
                "FIFO" => DeliverySequence::Fifo,
                _ => DeliverySequence::Priority,
            }
        }
        "BOTHRESH" => a.backout_threshold = int(p, 999_999_999)?,
        "BOQNAME" => a.backout_requeue_name = name(p)?,
        "HARDENBO" => a.harden_backout = true,
        "NOHARDENBO" => a.harden_backout = false,
        "QDEPTHHI" | "QDEPTHLO" | "QDPHIEV" | "QDPLOEV" | "QDPMAXEV" | "QSVCIEV" | "QSVCINT"
        | "STATQ" | "ACCTQ" => set_local_monitoring(a, p)?,
        "TRIGGER" | "NOTRIGGER" | "TRIGTYPE" | "TRIGDPTH" | "TRIGMPRI" | "TRIGDATA" | "INITQ"
        | "PROCESS" => set_triggering(&mut a.triggering, p)?,
        "USAGE" => {
            a.usage = match word(p, &["NORMAL", "XMITQ"])? {
                "XMITQ" => Usage::Transmission,
                _ => Usage::Normal,
            }
        }
        "DEFTYPE" if model => {
            a.definition_type = match word(p, &["TEMPDYN", "PERMDYN"])? {
                "PERMDYN" => DefinitionType::PermanentDynamic,
                _ => DefinitionType::TemporaryDynamic,
            }
        }
        _ => return Err(unknown(p, if model { "QMODEL" } else { "QLOCAL" })),
    }
    Ok(())
}

/// Sets a QLOCAL / QMODEL trigger attribute.
fn set_triggering(t: &mut ferry_model::objects::Triggering, p: &Param) -> Result<(), ParseError> {
    use ferry_model::objects::TriggerType;
    match p.key.as_str() {
        "TRIGGER" => t.control = true,
        "NOTRIGGER" => t.control = false,
        "TRIGTYPE" => {
            let w = word(p, &["NONE", "FIRST", "EVERY", "DEPTH"])?;
            t.trigger_type = TriggerType::from_keyword(w).unwrap_or_default();
        }
        "TRIGDPTH" => t.depth = int(p, 999_999_999)?,
        "TRIGMPRI" => t.msg_priority = int(p, 9)?,
        "TRIGDATA" => {
            let d = text(p)?;
            if d.len() > 64 {
                return Err(bad(p, format!("{} characters; the limit is 64", d.len())));
            }
            t.data = d;
        }
        "INITQ" => t.initiation_queue = name(p)?,
        _ => t.process = name(p)?,
    }
    Ok(())
}

/// Sets a QLOCAL / QMODEL monitoring attribute: depth and service interval events,
/// statistics and accounting.
fn set_local_monitoring(a: &mut LocalQueueAttrs, p: &Param) -> Result<(), ParseError> {
    let enabled = |p: &Param| Ok::<_, ParseError>(word(p, &["ENABLED", "DISABLED"])? == "ENABLED");
    let queue_switch = |p: &Param| {
        let w = word(p, &["QMGR", "ON", "OFF"])?;
        Ok::<_, ParseError>(Monitoring::from_word(w).unwrap_or(Monitoring::QMgr))
    };
    match p.key.as_str() {
        "STATQ" => a.statistics = queue_switch(p)?,
        "ACCTQ" => a.accounting = queue_switch(p)?,
        "QDEPTHHI" => a.depth_high_limit = int(p, 100)?,
        "QDEPTHLO" => a.depth_low_limit = int(p, 100)?,
        "QDPHIEV" => a.depth_high_event = enabled(p)?,
        "QDPLOEV" => a.depth_low_event = enabled(p)?,
        "QDPMAXEV" => a.depth_max_event = enabled(p)?,
        "QSVCIEV" => {
            a.service_interval_event = match word(p, &["NONE", "HIGH", "OK"])? {
                "HIGH" => ServiceIntervalEvent::High,
                "OK" => ServiceIntervalEvent::Ok,
                _ => ServiceIntervalEvent::None,
            }
        }
        _ => a.service_interval_ms = int(p, u64::from(MAX_SERVICE_INTERVAL_MS))?,
    }
    Ok(())
}

/// QALIAS fields.
pub fn alias_fields(name: &ObjectName, a: &AliasQueueAttrs) -> Vec<Field> {
    vec![
        f("QUEUE", name, Kind::Name),
        f("TYPE", "QALIAS", Kind::Word),
        f("TARGET", a.target, Kind::Name),
        f("TARGTYPE", "QUEUE", Kind::Word),
        f("DESCR", &a.description, Kind::Text),
        f("PUT", enabled(a.put_inhibited), Kind::Word),
        f("GET", enabled(a.get_inhibited), Kind::Word),
        f("DEFPRTY", a.def_priority, Kind::Int),
        f("DEFPSIST", persistence(a.def_persistence), Kind::Word),
        f("DEFPRESP", presp(a.def_put_response), Kind::Word),
        f("DEFREADA", reada(a.def_read_ahead), Kind::Word),
    ]
    .into_iter()
    .chain(stamps(a.created_unix_s, a.altered_unix_s))
    .collect()
}

/// Sets a QALIAS attribute.
pub fn set_alias(a: &mut AliasQueueAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "TARGET" | "TARGQ" => a.target = name(p)?,
        "TARGTYPE" => {
            word(p, &["QUEUE"])?;
        }
        "DESCR" => a.description = descr(p)?,
        "PUT" => a.put_inhibited = word(p, &["ENABLED", "DISABLED"])? == "DISABLED",
        "GET" => a.get_inhibited = word(p, &["ENABLED", "DISABLED"])? == "DISABLED",
        "DEFPRTY" => a.def_priority = int(p, 9)?,
        "DEFPSIST" => {
            a.def_persistence = if word(p, &["YES", "NO"])? == "YES" {
                Persistence::Persistent
            } else {
                Persistence::NotPersistent
            }
        }
        "DEFPRESP" => {
            a.def_put_response = match word(p, &["SYNC", "ASYNC"])? {
                "ASYNC" => PutResponse::Async,
                _ => PutResponse::Sync,
            }
        }
        "DEFREADA" => {
            a.def_read_ahead = match word(p, &["NO", "YES", "DISABLED"])? {
                "YES" => ReadAhead::Yes,
                "DISABLED" => ReadAhead::Disabled,
                _ => ReadAhead::No,
            }
        }
        _ => return Err(unknown(p, "QALIAS")),
    }
    Ok(())
}

/// QREMOTE fields.
pub fn remote_fields(name: &ObjectName, a: &RemoteQueueAttrs) -> Vec<Field> {
    vec![
        f("QUEUE", name, Kind::Name),
        f("TYPE", "QREMOTE", Kind::Word),
        f("RNAME", a.remote_name, Kind::Name),
        f("RQMNAME", a.remote_qmgr, Kind::Name),
        f("XMITQ", a.xmit_queue, Kind::Name),
        f("DESCR", &a.description, Kind::Text),
        f("PUT", enabled(a.put_inhibited), Kind::Word),
        f("DEFPRTY", a.def_priority, Kind::Int),
        f("DEFPSIST", persistence(a.def_persistence), Kind::Word),
        f("DEFPRESP", presp(a.def_put_response), Kind::Word),
    ]
    .into_iter()
    .chain(stamps(a.created_unix_s, a.altered_unix_s))
    .collect()
}

/// Sets a QREMOTE attribute.
pub fn set_remote(a: &mut RemoteQueueAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "RNAME" => a.remote_name = name(p)?,
        "RQMNAME" => a.remote_qmgr = name(p)?,
        "XMITQ" => a.xmit_queue = name(p)?,
        "DESCR" => a.description = descr(p)?,
        "PUT" => a.put_inhibited = word(p, &["ENABLED", "DISABLED"])? == "DISABLED",
        "DEFPRTY" => a.def_priority = int(p, 9)?,
        "DEFPSIST" => {
            a.def_persistence = if word(p, &["YES", "NO"])? == "YES" {
                Persistence::Persistent
            } else {
                Persistence::NotPersistent
            }
        }
        "DEFPRESP" => {
            a.def_put_response = match word(p, &["SYNC", "ASYNC"])? {
                "ASYNC" => PutResponse::Async,
                _ => PutResponse::Sync,
            }
        }
        _ => return Err(unknown(p, "QREMOTE")),
    }
    Ok(())
}

/// The CHLTYPE keyword value.
pub fn channel_type_word(t: ChannelType) -> &'static str {
    match t {
        ChannelType::Sender => "SDR",
        ChannelType::Receiver => "RCVR",
        ChannelType::ServerConn => "SVRCONN",
        ChannelType::ClientConn => "CLNTCONN",
        ChannelType::Mqtt => "MQTT",
    }
}

/// Parses CHLTYPE.
pub fn channel_type(p: &Param) -> Result<ChannelType, ParseError> {
    Ok(
        match word(p, &["SDR", "RCVR", "SVRCONN", "CLNTCONN", "MQTT"])? {
            "SDR" => ChannelType::Sender,
            "RCVR" => ChannelType::Receiver,
            "SVRCONN" => ChannelType::ServerConn,
            "MQTT" => ChannelType::Mqtt,
            _ => ChannelType::ClientConn,
        },
    )
}

/// CHANNEL fields.
pub fn channel_fields(name: &ObjectName, a: &ChannelAttrs) -> Vec<Field> {
    let mut v = vec![
        f("CHANNEL", name, Kind::Name),
        f("CHLTYPE", channel_type_word(a.channel_type), Kind::Word),
        f("TRPTYPE", a.transport.word(), Kind::Word),
        f("DESCR", &a.description, Kind::Text),
    ];
    match a.channel_type {
        ChannelType::Sender => v.extend(sender_fields(a)),
        ChannelType::Receiver => {
            v.push(f("BATCHSZ", a.batch_size, Kind::Int));
            v.push(f("SSLCIPH", &a.ssl_cipher, Kind::Word));
            v.push(f("SSLPEER", &a.ssl_peer, Kind::Text));
            v.push(f("MCAUSER", &a.mca_user, Kind::Text));
            v.push(f("RQMNAME", &a.remote_qmgr, Kind::Text));
        }
        ChannelType::ServerConn => {
            v.push(f("SHARECNV", a.share_conversations, Kind::Int));
            v.push(f("MAXINST", a.max_instances, Kind::Int));
            v.push(f("MAXINSTC", a.max_instances_client, Kind::Int));
        }
        ChannelType::ClientConn => {
            v.push(f("CONNAME", &a.conn_name, Kind::Text));
            v.push(f("SHARECNV", a.share_conversations, Kind::Int));
        }
        ChannelType::Mqtt => {
            v.extend(mqtt_channel_fields(a));
            return v;
        }
    }
    v.push(f("HBINT", a.heartbeat_secs, Kind::Int));
    v.push(f("MAXMSGL", a.max_msg_length, Kind::Int));
    v
}

/// A sender channel's own fields.
fn sender_fields(a: &ChannelAttrs) -> Vec<Field> {
    let mut v = Vec::new();
    v.push(f("CONNAME", &a.conn_name, Kind::Text));
    v.push(f("XMITQ", a.xmit_queue, Kind::Name));
    v.push(f("BATCHSZ", a.batch_size, Kind::Int));
    v.push(f("BATCHINT", a.batch_interval_ms, Kind::Int));
    v.push(f("BATCHLIM", a.batch_limit_kib, Kind::Int));
    v.push(f("DISCINT", a.disc_interval_secs, Kind::Int));
    v.push(f("SHORTRTY", a.short_retry, Kind::Int));
    v.push(f("SHORTTMR", a.short_timer_secs, Kind::Int));
    v.push(f("LONGRTY", a.long_retry, Kind::Int));
    v.push(f("LONGTMR", a.long_timer_secs, Kind::Int));
    v.push(f("SSLCIPH", &a.ssl_cipher, Kind::Word));
    v.push(f("SSLPEER", &a.ssl_peer, Kind::Text));
    v.push(f(
        "NPMSPEED",
        if a.np_speed_fast { "FAST" } else { "NORMAL" },
        Kind::Word,
    ));
    v.push(f(
        "COMPMSG",
        if a.compression.is_empty() {
            "NONE".to_owned()
        } else {
            a.compression.join(" ")
        },
        Kind::Word,
    ));
    v.push(f("USERID", &a.user_id, Kind::Text));
    v.push(f("PASSWORD", masked(&a.password), Kind::Text));
    v.push(f(
        "CONGCTL",
        if a.congestion.is_empty() {
            "DEFAULT".to_owned()
        } else {
            a.congestion.to_ascii_uppercase()
        },
        Kind::Word,
    ));
    v
}

/// An MQTT channel's own fields (MQ's DISPLAY CHANNEL CHLTYPE(MQTT) shows no HBINT or MAXMSGL).
fn mqtt_channel_fields(a: &ChannelAttrs) -> Vec<Field> {
    vec![
        f("PORT", a.port, Kind::Int),
        f("LOCLADDR", &a.local_addr, Kind::Text),
        f("BACKLOG", a.backlog, Kind::Int),
        f("PROTOCOL", a.protocols.join(","), Kind::Word),
        f("SSLCIPH", &a.ssl_cipher, Kind::Word),
        f("SSLCAUTH", a.ssl_client_auth.word(), Kind::Word),
        f("MCAUSER", &a.mca_user, Kind::Text),
        f(
            "USECLTID",
            if a.use_client_id { "YES" } else { "NO" },
            Kind::Word,
        ),
    ]
}

/// PROTOCOL of an MQTT channel: a list of MQTTV3, MQTTV311, MQTTV5 and HTTP.
fn mqtt_protocols(p: &Param) -> Result<Vec<String>, ParseError> {
    let mut list: Vec<String> = Vec::new();
    for w in text(p)?.split([' ', ',']).filter(|w| !w.is_empty()) {
        let w = w.to_ascii_uppercase();
        if !ferry_model::objects::MQTT_PROTOCOLS.contains(&w.as_str()) {
            return Err(bad(
                p,
                format!("PROTOCOL value {w} is not MQTTV3, MQTTV311, MQTTV5 or HTTP"),
            ));
        }
        if !list.contains(&w) {
            list.push(w);
        }
    }
    if list.is_empty() {
        return Err(bad(
            p,
            "PROTOCOL needs one or more of MQTTV3, MQTTV311, MQTTV5, HTTP",
        ));
    }
    // Kept in DISPLAY's order, so an ALTER that lists them differently changes nothing.
    list.sort_by_key(|w| {
        ferry_model::objects::MQTT_PROTOCOLS
            .iter()
            .position(|p| p == w)
    });
    Ok(list)
}

/// A password as DISPLAY and DUMP show it: never the password itself.
fn masked(password: &str) -> &'static str {
    if password.is_empty() {
        ""
    } else {
        "********"
    }
}

/// Sets a CHANNEL attribute.
pub fn set_channel(a: &mut ChannelAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "CONNAME" => a.conn_name = text(p)?,
        "XMITQ" => a.xmit_queue = name(p)?,
        "DESCR" => a.description = descr(p)?,
        "TRPTYPE" => {
            a.transport = match word(p, &["TCP", "QUIC"])? {
                "QUIC" => TransportType::Quic,
                _ => TransportType::Tcp,
            }
        }
        "HBINT" => a.heartbeat_secs = int(p, 999_999)?,
        "MAXMSGL" => a.max_msg_length = int(p, ferry_model::objects::MAX_MAX_MSG_LENGTH as u64)?,
        "BATCHSZ" => a.batch_size = int(p, 9999)?,
        "SHARECNV" => a.share_conversations = int(p, 999_999_999)?,
        "MAXINST" => a.max_instances = int(p, 999_999_999)?,
        "MAXINSTC" => a.max_instances_client = int(p, 999_999_999)?,
        "DISCINT" => a.disc_interval_secs = int(p, 999_999)?,
        "SHORTRTY" => a.short_retry = int(p, 999_999_999)?,
        "SHORTTMR" => a.short_timer_secs = int(p, 999_999_999)?,
        "LONGRTY" => a.long_retry = int(p, 999_999_999)?,
        "LONGTMR" => a.long_timer_secs = int(p, 999_999_999)?,
        "BATCHINT" => a.batch_interval_ms = int(p, 999_999_999)?,
        "BATCHLIM" => a.batch_limit_kib = int(p, 999_999)?,
        "NPMSPEED" => a.np_speed_fast = word(p, &["FAST", "NORMAL"])? == "FAST",
        "SSLCIPH" => a.ssl_cipher = text(p)?.to_ascii_uppercase(),
        "SSLPEER" => a.ssl_peer = text(p)?,
        "USERID" => a.user_id = text(p)?,
        // A DUMP's masked password replayed keeps the one already set.
        "PASSWORD" => {
            let v = text(p)?;
            if v != "********" {
                a.password = v;
            }
        }
        "MCAUSER" => a.mca_user = text(p)?,
        "CONGCTL" => {
            let v = text(p)?.to_ascii_lowercase();
            a.congestion = if v == "default" { String::new() } else { v };
        }
        "RQMNAME" => a.remote_qmgr = text(p)?,
        "COMPMSG" => {
            let mut list = Vec::new();
            for w in text(p)?.split([' ', ',']).filter(|w| !w.is_empty()) {
                let w = w.to_ascii_uppercase();
                match w.as_str() {
                    "NONE" => {}
                    "LZ4FAST" | "LZ4HIGH" | "ZLIBFAST" | "ZLIBHIGH" => list.push(w),
                    other => {
                        return Err(bad(
                            p,
                            format!("COMPMSG value {other} is not NONE, LZ4FAST, LZ4HIGH, ZLIBFAST or ZLIBHIGH"),
                        ))
                    }
                }
            }
            a.compression = list;
        }
        _ => return set_mqtt_channel(a, p),
    }
    Ok(())
}

/// Sets an MQTT channel's own attribute (the rest of CHANNEL's keywords).
fn set_mqtt_channel(a: &mut ChannelAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "PORT" => a.port = int(p, 65535)?,
        "LOCLADDR" => a.local_addr = text(p)?,
        "BACKLOG" => a.backlog = int(p, 999_999_999)?,
        "PROTOCOL" => a.protocols = mqtt_protocols(p)?,
        "SSLCAUTH" => {
            use ferry_model::objects::SslClientAuth;
            a.ssl_client_auth = match word(p, &["NEVER", "OPTIONAL", "REQUIRED"])? {
                "NEVER" => SslClientAuth::Never,
                "OPTIONAL" => SslClientAuth::Optional,
                _ => SslClientAuth::Required,
            }
        }
        "USECLTID" => a.use_client_id = word(p, &["YES", "NO"])? == "YES",
        "SSLKEYR" | "SSLKEYP" | "JAASCFG" => {
            return Err(bad(
                p,
                format!(
                    "{} is not used: FerryMQ's MQTT channels present the queue manager's certificate ([server] tls_cert, tls_key) and authenticate clients as its other clients",
                    p.key
                ),
            ))
        }
        _ => return Err(unknown(p, "CHANNEL")),
    }
    Ok(())
}

/// LISTENER fields.
pub fn listener_fields(name: &ObjectName, a: &ListenerAttrs) -> Vec<Field> {
    vec![
        f("LISTENER", name, Kind::Name),
        f("TRPTYPE", "TCP", Kind::Word),
        f("PORT", a.port, Kind::Int),
        f("IPADDR", &a.ip_address, Kind::Text),
        f(
            "CONTROL",
            match a.control {
                ListenerControl::Manual => "MANUAL",
                ListenerControl::QueueManager => "QMGR",
            },
            Kind::Word,
        ),
        f("BACKLOG", a.backlog, Kind::Int),
        f("DESCR", &a.description, Kind::Text),
    ]
}

/// Sets a LISTENER attribute.
pub fn set_listener(a: &mut ListenerAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "TRPTYPE" => {
            word(p, &["TCP"])?;
        }
        "PORT" => a.port = int(p, 65535)?,
        "IPADDR" => a.ip_address = text(p)?,
        "CONTROL" => {
            a.control = match word(p, &["MANUAL", "QMGR"])? {
                "QMGR" => ListenerControl::QueueManager,
                _ => ListenerControl::Manual,
            }
        }
        "BACKLOG" => a.backlog = int(p, 999_999_999)?,
        "DESCR" => a.description = descr(p)?,
        _ => return Err(unknown(p, "LISTENER")),
    }
    Ok(())
}

fn switch(on: bool) -> &'static str {
    if on {
        "ENABLED"
    } else {
        "DISABLED"
    }
}

/// QMGR fields.
pub fn qmgr_fields(a: &QueueManagerAttrs) -> Vec<Field> {
    [
        f("QMNAME", a.name, Kind::Status),
        f("DESCR", &a.description, Kind::Text),
        f("DEADQ", a.dead_letter_queue, Kind::Name),
        f("MAXMSGL", a.max_msg_length, Kind::Int),
        f("MAXUMSGS", a.max_uncommitted_msgs, Kind::Int),
        f("MAXHANDS", a.max_handles, Kind::Int),
        f("MAXCONNS", a.max_connections, Kind::Int),
        f("MAXDYNQ", a.max_dynamic_queues, Kind::Int),
        f("MAXDYNQC", a.max_dynamic_per_conn, Kind::Int),
        f("DEFXMITQ", a.default_xmit_queue, Kind::Name),
        f("CONNAUTH", a.connauth, Kind::Name),
        f("CHLAUTH", switch(a.chlauth), Kind::Word),
        f("AUTHOREV", switch(a.authority_events), Kind::Word),
        f("CHLEV", switch(a.channel_events), Kind::Word),
        f("PERFMEV", switch(a.performance_events), Kind::Word),
        f("CMDEV", a.command_events.word(), Kind::Word),
        f(
            "STATMQI",
            if a.statistics_mqi { "ON" } else { "OFF" },
            Kind::Word,
        ),
        f("STATQ", a.statistics_queues.word(), Kind::Word),
        f("STATINT", a.statistics_interval, Kind::Int),
        f(
            "ACCTMQI",
            if a.accounting_mqi { "ON" } else { "OFF" },
            Kind::Word,
        ),
        f("ACCTQ", a.accounting_queues.word(), Kind::Word),
        f("ACCTINT", a.accounting_interval, Kind::Int),
        f(
            "SCMDSERV",
            if a.command_server_manual {
                "MANUAL"
            } else {
                "QMGR"
            },
            Kind::Word,
        ),
        f("PLATFORM", "UNIX", Kind::Status),
        f("CCSID", 1208, Kind::Status),
        f(
            "CMDLEVEL",
            ferry_model::inquire::COMMAND_LEVEL,
            Kind::Status,
        ),
    ]
    .into_iter()
    .chain(stamps(a.created_unix_s, a.altered_unix_s))
    .collect()
}

/// Sets a QMGR attribute.
pub fn set_qmgr(a: &mut QueueManagerAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "DESCR" => a.description = descr(p)?,
        "DEADQ" => a.dead_letter_queue = name(p)?,
        "MAXMSGL" => a.max_msg_length = int(p, ferry_model::objects::MAX_MAX_MSG_LENGTH as u64)?,
        "MAXUMSGS" => a.max_uncommitted_msgs = int(p, 999_999_999)?,
        "MAXHANDS" => a.max_handles = int(p, 999_999_999)?,
        "MAXCONNS" => a.max_connections = int(p, 1_000_000)?,
        "MAXDYNQ" => a.max_dynamic_queues = int(p, 999_999_999)?,
        "MAXDYNQC" => a.max_dynamic_per_conn = int(p, 999_999_999)?,
        "DEFXMITQ" => a.default_xmit_queue = name(p)?,
        "CONNAUTH" => a.connauth = name(p)?,
        "CHLAUTH" => a.chlauth = word(p, &["ENABLED", "DISABLED"])? == "ENABLED",
        "AUTHOREV" => a.authority_events = word(p, &["ENABLED", "DISABLED"])? == "ENABLED",
        "CHLEV" => a.channel_events = word(p, &["ENABLED", "DISABLED"])? == "ENABLED",
        "PERFMEV" => a.performance_events = word(p, &["ENABLED", "DISABLED"])? == "ENABLED",
        "CMDEV" => {
            let w = word(p, &["ENABLED", "DISABLED", "NODISPLAY"])?;
            a.command_events = CommandEvents::from_word(w).unwrap_or_default();
        }
        "STATMQI" => a.statistics_mqi = word(p, &["ON", "OFF"])? == "ON",
        "STATQ" => {
            let w = word(p, &["ON", "OFF", "NONE"])?;
            a.statistics_queues = Monitoring::from_word(w).unwrap_or_default();
        }
        "STATINT" => a.statistics_interval = int(p, 604_800)?,
        "ACCTMQI" => a.accounting_mqi = word(p, &["ON", "OFF"])? == "ON",
        "ACCTQ" => {
            let w = word(p, &["ON", "OFF", "NONE"])?;
            a.accounting_queues = Monitoring::from_word(w).unwrap_or_default();
        }
        "ACCTINT" => a.accounting_interval = int(p, 604_800)?,
        "SCMDSERV" => a.command_server_manual = word(p, &["QMGR", "MANUAL"])? == "MANUAL",
        _ => return Err(unknown(p, "QMGR")),
    }
    Ok(())
}

/// Writes fields back as MQSC keywords (for DUMP): status fields left out, text quoted.
pub fn as_keywords(fields: &[Field], skip: &[&str]) -> String {
    let mut out = Vec::new();
    for fl in fields {
        if fl.kind == Kind::Status || skip.contains(&fl.key.as_str()) {
            continue;
        }
        match (&fl.value, fl.kind) {
            (None, _) => out.push(fl.key.clone()),
            (Some(v), Kind::Text) => out.push(format!("{}('{}')", fl.key, v.replace('\'', "''"))),
            (Some(v), Kind::Name) if v.is_empty() => out.push(format!("{}(' ')", fl.key)),
            (Some(v), Kind::Name) => out.push(format!("{}('{}')", fl.key, v)),
            (Some(v), _) => out.push(format!("{}({v})", fl.key)),
        }
    }
    out.join(" ")
}

/// AUTHINFO fields.
pub fn authinfo_fields(name: &ObjectName, a: &AuthInfoAttrs) -> Vec<Field> {
    vec![
        f("AUTHINFO", name, Kind::Name),
        f("AUTHTYPE", a.auth_type.keyword(), Kind::Word),
        f("DESCR", &a.description, Kind::Text),
        f("CHCKLOCL", a.check_local.keyword(), Kind::Word),
        f("CHCKCLNT", a.check_client.keyword(), Kind::Word),
        f("FAILDLAY", a.fail_delay, Kind::Int),
        f(
            "ADOPTCTX",
            if a.adopt_context { "YES" } else { "NO" },
            Kind::Word,
        ),
    ]
}

/// The AUTHTYPE a DEFINE AUTHINFO names.
pub fn auth_type(p: &Param) -> Result<AuthType, ParseError> {
    Ok(match word(p, &["IDPWOS", "IDPWFILE"])? {
        "IDPWOS" => AuthType::IdpwOs,
        _ => AuthType::IdpwFile,
    })
}

/// Sets an AUTHINFO attribute (AUTHTYPE is taken when the object is made).
pub fn set_authinfo(a: &mut AuthInfoAttrs, p: &Param) -> Result<(), ParseError> {
    let check = |p: &Param| {
        let w = word(p, &["NONE", "OPTIONAL", "REQUIRED", "REQDADM"])?;
        Ok::<_, ParseError>(ConnCheck::from_keyword(w).unwrap_or(ConnCheck::Required))
    };
    match p.key.as_str() {
        "AUTHTYPE" => {
            if auth_type(p)? != a.auth_type {
                return Err(bad(p, "the AUTHTYPE of an authinfo object cannot change"));
            }
        }
        "CHCKLOCL" => a.check_local = check(p)?,
        "CHCKCLNT" => a.check_client = check(p)?,
        "FAILDLAY" => a.fail_delay = int(p, 60)?,
        "ADOPTCTX" => a.adopt_context = word(p, &["YES", "NO"])? == "YES",
        "DESCR" => a.description = descr(p)?,
        _ => return Err(unknown(p, "AUTHINFO")),
    }
    Ok(())
}
