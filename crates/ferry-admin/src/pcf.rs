//! The PCF command server's logic: a request in programmable command format (an MQCFH and its
//! parameters, as MQ's own tools, pymqi's PCFExecute and mq-golang's monitoring send to
//! SYSTEM.ADMIN.COMMAND.QUEUE) becomes one MQSC command, run by the same executor and with the
//! same authority checks as `ferry admin`; its reply becomes PCF responses. One executor, two
//! encodings: an attribute is translated by one table (`pcf/table.rs`), never handled twice.
//!
//! Shape of an exchange: the request's MQCFH Type is MQCFT_COMMAND or MQCFT_COMMAND_XR; the
//! answer is one or more messages, each an MQCFH of Type MQCFT_RESPONSE for the same Command,
//! MsgSeqNumber from 1, Control MQCFC_NOT_LAST on all but the last (MQCFC_LAST). An inquiry
//! answers one message per object; a failure answers one message whose CompCode is
//! MQCC_FAILED and Reason the MQRC_/MQRCCF_ code, with MQIACF_PARAMETER_ID naming a parameter
//! at fault when one is. No I/O here: `pcf/server.rs` moves the messages.

mod authority;
mod definitions;
mod server;
mod table;

use std::sync::Arc;

use ferry_core::QueueManager;
use ferry_model::admin::Reply;
use ferry_model::pcf::{self, cft, Header, Param, PcfError};
use ferry_model::security::Principal;

pub use server::{start, CommandServer};
use table::{Obj, Ty};

/// The MQCMD_* codes served.
pub mod cmd {
    /// MQCMD_CHANGE_Q_MGR.
    pub const CHANGE_Q_MGR: i32 = 1;
    /// MQCMD_INQUIRE_Q_MGR.
    pub const INQUIRE_Q_MGR: i32 = 2;
    /// MQCMD_CHANGE_Q.
    pub const CHANGE_Q: i32 = 8;
    /// MQCMD_CLEAR_Q.
    pub const CLEAR_Q: i32 = 9;
    /// MQCMD_COPY_Q.
    pub const COPY_Q: i32 = 10;
    /// MQCMD_CREATE_Q.
    pub const CREATE_Q: i32 = 11;
    /// MQCMD_DELETE_Q.
    pub const DELETE_Q: i32 = 12;
    /// MQCMD_INQUIRE_Q.
    pub const INQUIRE_Q: i32 = 13;
    /// MQCMD_INQUIRE_Q_NAMES.
    pub const INQUIRE_Q_NAMES: i32 = 18;
    /// MQCMD_INQUIRE_CHANNEL_NAMES.
    pub const INQUIRE_CHANNEL_NAMES: i32 = 20;
    /// MQCMD_CHANGE_CHANNEL.
    pub const CHANGE_CHANNEL: i32 = 21;
    /// MQCMD_CREATE_CHANNEL.
    pub const CREATE_CHANNEL: i32 = 23;
    /// MQCMD_DELETE_CHANNEL.
    pub const DELETE_CHANNEL: i32 = 24;
    /// MQCMD_INQUIRE_CHANNEL.
    pub const INQUIRE_CHANNEL: i32 = 25;
    /// MQCMD_START_CHANNEL.
    pub const START_CHANNEL: i32 = 28;
    /// MQCMD_STOP_CHANNEL.
    pub const STOP_CHANNEL: i32 = 29;
    /// MQCMD_ESCAPE.
    pub const ESCAPE: i32 = 38;
    /// MQCMD_RESET_Q_STATS.
    pub const RESET_Q_STATS: i32 = 17;
    /// MQCMD_RESET_Q_MGR (with MQIACF_ACTION MQACT_COLLECT_STATISTICS).
    pub const RESET_Q_MGR: i32 = 92;
    /// MQCMD_PING_Q_MGR.
    pub const PING_Q_MGR: i32 = 40;
    /// MQCMD_INQUIRE_Q_STATUS.
    pub const INQUIRE_Q_STATUS: i32 = 41;
    /// MQCMD_INQUIRE_CHANNEL_STATUS.
    pub const INQUIRE_CHANNEL_STATUS: i32 = 42;
    /// MQCMD_INQUIRE_Q_MGR_STATUS.
    pub const INQUIRE_Q_MGR_STATUS: i32 = 161;
    /// MQCMD_CHANGE_TOPIC.
    pub const CHANGE_TOPIC: i32 = 170;
    /// MQCMD_CREATE_TOPIC.
    pub const CREATE_TOPIC: i32 = 172;
    /// MQCMD_DELETE_TOPIC.
    pub const DELETE_TOPIC: i32 = 173;
    /// MQCMD_INQUIRE_TOPIC.
    pub const INQUIRE_TOPIC: i32 = 174;
    /// MQCMD_INQUIRE_TOPIC_NAMES.
    pub const INQUIRE_TOPIC_NAMES: i32 = 175;
    /// MQCMD_INQUIRE_SUBSCRIPTION.
    pub const INQUIRE_SUBSCRIPTION: i32 = 176;
    /// MQCMD_CREATE_SUBSCRIPTION.
    pub const CREATE_SUBSCRIPTION: i32 = 177;
    /// MQCMD_DELETE_SUBSCRIPTION.
    pub const DELETE_SUBSCRIPTION: i32 = 179;
    /// MQCMD_CHANGE_SUBSCRIPTION.
    pub const CHANGE_SUBSCRIPTION: i32 = 178;
    /// MQCMD_COPY_SUBSCRIPTION.
    pub const COPY_SUBSCRIPTION: i32 = 181;
    /// MQCMD_COPY_CHANNEL.
    pub const COPY_CHANNEL: i32 = 22;
    /// MQCMD_COPY_TOPIC.
    pub const COPY_TOPIC: i32 = 171;
    /// MQCMD_CHANGE_LISTENER.
    pub const CHANGE_LISTENER: i32 = 93;
    /// MQCMD_COPY_LISTENER.
    pub const COPY_LISTENER: i32 = 94;
    /// MQCMD_CREATE_LISTENER.
    pub const CREATE_LISTENER: i32 = 95;
    /// MQCMD_DELETE_LISTENER.
    pub const DELETE_LISTENER: i32 = 96;
    /// MQCMD_INQUIRE_LISTENER.
    pub const INQUIRE_LISTENER: i32 = 97;
    /// MQCMD_INQUIRE_LISTENER_STATUS.
    pub const INQUIRE_LISTENER_STATUS: i32 = 98;
    /// MQCMD_START_CHANNEL_LISTENER.
    pub const START_CHANNEL_LISTENER: i32 = 31;
    /// MQCMD_STOP_CHANNEL_LISTENER.
    pub const STOP_CHANNEL_LISTENER: i32 = 142;
    /// The listener commands.
    pub const LISTENER_COMMANDS: [i32; 8] = [
        CREATE_LISTENER,
        CHANGE_LISTENER,
        COPY_LISTENER,
        DELETE_LISTENER,
        INQUIRE_LISTENER,
        INQUIRE_LISTENER_STATUS,
        START_CHANNEL_LISTENER,
        STOP_CHANNEL_LISTENER,
    ];
}

/// Parameter identifiers the commands themselves use (not object attributes).
pub mod id {
    /// MQCA_Q_NAME.
    pub const Q_NAME: i32 = 2016;
    /// MQIA_Q_TYPE.
    pub const Q_TYPE: i32 = 20;
    /// MQIACF_Q_MGR_ATTRS.
    pub const Q_MGR_ATTRS: i32 = 1001;
    /// MQIACF_Q_ATTRS.
    pub const Q_ATTRS: i32 = 1002;
    /// MQIACF_REPLACE.
    pub const REPLACE: i32 = 1006;
    /// MQIACF_PURGE.
    pub const PURGE: i32 = 1007;
    /// MQIACF_ALL.
    pub const ALL: i32 = 1009;
    /// MQIACF_PARAMETER_ID.
    pub const PARAMETER_ID: i32 = 1012;
    /// MQIACF_CHANNEL_ATTRS.
    pub const CHANNEL_ATTRS: i32 = 1015;
    /// MQIACF_ESCAPE_TYPE.
    pub const ESCAPE_TYPE: i32 = 1017;
    /// MQIACF_Q_STATUS_ATTRS.
    pub const Q_STATUS_ATTRS: i32 = 1026;
    /// MQIACF_Q_STATUS_TYPE.
    pub const Q_STATUS_TYPE: i32 = 1103;
    /// MQIACF_Q_HANDLE.
    pub const Q_HANDLE: i32 = 1104;
    /// MQIACF_Q_TYPES.
    pub const Q_TYPES: i32 = 1261;
    /// MQCACF_FROM_Q_NAME.
    pub const FROM_Q_NAME: i32 = 3001;
    /// MQCACF_TO_Q_NAME.
    pub const TO_Q_NAME: i32 = 3002;
    /// MQCACF_Q_NAMES.
    pub const Q_NAMES: i32 = 3011;
    /// MQCACF_ESCAPE_TEXT.
    pub const ESCAPE_TEXT: i32 = 3014;
    /// MQCACH_CHANNEL_NAME.
    pub const CHANNEL_NAME: i32 = 3501;
    /// MQCACH_CHANNEL_NAMES.
    pub const CHANNEL_NAMES: i32 = 3512;
    /// MQIACH_CHANNEL_TYPE.
    pub const CHANNEL_TYPE: i32 = 1511;
    /// MQCACH_CLIENT_ID: an MQTT client id (Inquire Channel Status of MQTT channels).
    pub const CLIENT_ID: i32 = 3564;
    /// MQIACH_CHANNEL_TYPES.
    pub const CHANNEL_TYPES: i32 = 1582;
    /// MQIACF_Q_MGR_STATUS_ATTRS.
    pub const Q_MGR_STATUS_ATTRS: i32 = 1229;
    /// MQIACF_TOPIC_ATTRS.
    pub const TOPIC_ATTRS: i32 = 1269;
    /// MQIACF_SUB_ATTRS.
    pub const SUB_ATTRS: i32 = 1287;
    /// MQCA_TOPIC_NAME.
    pub const TOPIC_NAME: i32 = 2092;
    /// MQCACF_SUB_NAME.
    pub const SUB_NAME: i32 = 3152;
    /// MQCACF_TOPIC_NAMES.
    pub const TOPIC_NAMES: i32 = 3151;
    /// MQCACH_LISTENER_NAME.
    pub const LISTENER_NAME: i32 = 3554;
    /// MQIACF_LISTENER_ATTRS.
    pub const LISTENER_ATTRS: i32 = 1222;
    /// MQIACF_LISTENER_STATUS_ATTRS.
    pub const LISTENER_STATUS_ATTRS: i32 = 1223;
    /// MQCACF_FROM_CHANNEL_NAME.
    pub const FROM_CHANNEL_NAME: i32 = 3007;
    /// MQCACF_TO_CHANNEL_NAME.
    pub const TO_CHANNEL_NAME: i32 = 3008;
    /// MQCACF_FROM_TOPIC_NAME.
    pub const FROM_TOPIC_NAME: i32 = 3150;
    /// MQCACF_TO_TOPIC_NAME.
    pub const TO_TOPIC_NAME: i32 = 3149;
    /// MQCACF_FROM_SUB_NAME.
    pub const FROM_SUB_NAME: i32 = 3163;
    /// MQCACF_TO_SUB_NAME.
    pub const TO_SUB_NAME: i32 = 3164;
    /// MQCACF_FROM_LISTENER_NAME.
    pub const FROM_LISTENER_NAME: i32 = 3124;
    /// MQCACF_TO_LISTENER_NAME.
    pub const TO_LISTENER_NAME: i32 = 3125;
}

/// Reasons the server answers with (MQRC_*, MQRCCF_*).
pub mod rc {
    /// MQRC_NOT_AUTHORIZED.
    pub const NOT_AUTHORIZED: i32 = 2035;
    /// MQRC_UNKNOWN_OBJECT_NAME.
    pub const UNKNOWN_OBJECT_NAME: i32 = 2085;
    /// MQRCCF_CFH_TYPE_ERROR.
    pub const CFH_TYPE_ERROR: i32 = 3001;
    /// MQRCCF_MD_FORMAT_ERROR: the request's MQMD Format is not MQADMIN.
    pub const MD_FORMAT_ERROR: i32 = 3023;
    /// MQRCCF_CFH_COMMAND_ERROR: the command is not one this server runs.
    pub const CFH_COMMAND_ERROR: i32 = 3007;
    /// MQRCCF_COMMAND_FAILED.
    pub const COMMAND_FAILED: i32 = 3008;
    /// MQRCCF_CFIN_PARM_ID_ERROR: an integer parameter the command does not take.
    pub const CFIN_PARM_ID_ERROR: i32 = 3014;
    /// MQRCCF_CFST_PARM_ID_ERROR: a string parameter the command does not take.
    pub const CFST_PARM_ID_ERROR: i32 = 3015;
    /// MQRCCF_PARM_COUNT_TOO_SMALL: a required parameter is missing.
    pub const PARM_COUNT_TOO_SMALL: i32 = 3019;
    /// MQRCCF_PARM_VALUE_ERROR.
    pub const PARM_VALUE_ERROR: i32 = 3229;
    /// MQRCCF_OBJECT_ALREADY_EXISTS.
    pub const OBJECT_ALREADY_EXISTS: i32 = 4001;
    /// MQRCCF_SUB_ALREADY_EXISTS.
    pub const SUB_ALREADY_EXISTS: i32 = 3311;
    /// MQRCCF_FILTER_ERROR.
    pub const FILTER_ERROR: i32 = 3150;
    /// MQRCCF_ESCAPE_TYPE_ERROR.
    pub const ESCAPE_TYPE_ERROR: i32 = 3054;
}

/// MQCC_FAILED.
const CC_FAILED: i32 = 2;

/// Why a request gets no answer but a failure: reason, parameter at fault (0: none), sentence.
#[derive(Debug)]
struct Refusal(i32, i32, String);

impl From<PcfError> for Refusal {
    fn from(e: PcfError) -> Self {
        Refusal(e.reason, e.parameter, e.text)
    }
}

/// What a request runs, and how its reply is shaped.
enum Plan {
    /// No command: an empty answer (MQCMD_PING_Q_MGR).
    Nothing,
    /// An MQSC script whose output is the answer's text (MQCMD_ESCAPE).
    Escape(String),
    /// One MQSC command; its objects' fields answer as `shape` says.
    Mqsc(String, Shape),
    /// Several MQSC commands run in turn until one fails (a request naming several entities);
    /// their objects answer as `shape` says.
    Several(Vec<String>, Shape),
}

/// A names answer's types: the DISPLAY keyword, the list's parameter, the words' numbers.
type Types = (&'static str, i32, &'static [(i32, &'static str)]);

enum Shape {
    /// No fields: one empty answer.
    Done,
    /// One answer per object, its fields as `Obj`'s parameters, only those the `u32`-listed
    /// attribute selector names (or all).
    Objects(Obj, Option<Vec<i32>>),
    /// One answer listing the names (keyword, parameter) and, if asked, the types.
    Names((&'static str, i32), Option<Types>),
}

/// Runs one request's body for `who` (`None`: the owner); the responses' bodies, in order.
/// `big_endian` as the request's MQMD Encoding says.
pub fn execute(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    body: &[u8],
    big_endian: bool,
) -> Vec<Vec<u8>> {
    let (header, params) = match pcf::decode(body, big_endian) {
        Ok(d) => d,
        Err(e) => return failure(command_of(body, big_endian), e.into()),
    };
    if header.kind != cft::COMMAND && header.kind != cft::COMMAND_XR {
        let why = format!("MQCFH Type {} is not a command", header.kind);
        return failure(header.command, Refusal(rc::CFH_TYPE_ERROR, 0, why));
    }
    let plan = match plan(qm, who, header.command, &params) {
        Ok(p) => p,
        Err(r) => return failure(header.command, r),
    };
    match plan {
        Plan::Nothing => vec![response(header.command, 1, true, &[])],
        Plan::Escape(script) => escape(qm, who, &script),
        Plan::Mqsc(text, shape) => {
            let reply = crate::exec::run_from(qm, who, &text, 1, Some(header.command));
            answer(header.command, &reply, &shape)
        }
        Plan::Several(texts, shape) => {
            let mut all: Option<Reply> = None;
            for text in texts {
                let reply = crate::exec::run_from(qm, who, &text, 1, Some(header.command));
                if !reply.ok {
                    return answer(header.command, &reply, &shape);
                }
                match &mut all {
                    Some(a) => a.messages.extend(reply.messages),
                    None => all = Some(reply),
                }
            }
            answer(header.command, &all.expect("at least one command"), &shape)
        }
    }
}

/// The Command of a request too broken to decode, if its MQCFH is there.
fn command_of(body: &[u8], big_endian: bool) -> i32 {
    let w: [u8; 4] = body
        .get(12..16)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; 4]);
    if big_endian {
        i32::from_be_bytes(w)
    } else {
        i32::from_le_bytes(w)
    }
}

fn header(command: i32, seq: i32, last: bool) -> Header {
    Header {
        kind: cft::RESPONSE,
        version: 1,
        command,
        seq,
        control: i32::from(last),
        comp_code: 0,
        reason: 0,
    }
}

fn response(command: i32, seq: i32, last: bool, params: &[Param]) -> Vec<u8> {
    pcf::encode(&header(command, seq, last), params)
}

/// A request that is not a PCF message at all (its MQMD Format is not MQADMIN).
pub(crate) fn not_pcf() -> Vec<Vec<u8>> {
    let why = "the request's Format is not MQADMIN".to_owned();
    failure(0, Refusal(rc::MD_FORMAT_ERROR, 0, why))
}

/// A refusal as MQ's command server answers one: a message with the reason (and the parameter
/// at fault), then the summary MQRCCF_COMMAND_FAILED, which alone is MQCFC_LAST.
fn failure(command: i32, Refusal(reason, parameter, text): Refusal) -> Vec<Vec<u8>> {
    tracing::debug!(command, reason, parameter, %text, "PCF request refused");
    let failed = |seq: i32, last: bool, reason: i32| Header {
        comp_code: CC_FAILED,
        reason,
        ..header(command, seq, last)
    };
    let params: Vec<Param> = match parameter {
        0 => Vec::new(),
        p => vec![Param::Int(id::PARAMETER_ID, p)],
    };
    if reason == rc::COMMAND_FAILED {
        return vec![pcf::encode(&failed(1, true, reason), &params)];
    }
    vec![
        pcf::encode(&failed(1, false, reason), &params),
        pcf::encode(&failed(2, true, rc::COMMAND_FAILED), &[]),
    ]
}

/// MQCMD_RESET_Q_MGR (MQACT_COLLECT_STATISTICS, the only action offered) and
/// MQCMD_RESET_Q_STATS.
fn plan_reset(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    if command == cmd::RESET_Q_STATS {
        let name = required(params, id::Q_NAME, "MQCA_Q_NAME")?;
        return Ok(Plan::Mqsc(
            format!("RESET QSTATS({})", quoted(name)),
            Shape::Objects(Obj::QStats, None),
        ));
    }
    match int_param(params, MQIACF_ACTION) {
        Some(MQACT_COLLECT_STATISTICS) => Ok(Plan::Mqsc(
            "RESET QMGR TYPE(STATISTICS)".into(),
            Shape::Done,
        )),
        _ => Err(Refusal(
            rc::PARM_VALUE_ERROR,
            MQIACF_ACTION,
            "MQCMD_RESET_Q_MGR needs MQIACF_ACTION MQACT_COLLECT_STATISTICS (3): the only reset offered".into(),
        )),
    }
}

/// MQIACF_ACTION.
const MQIACF_ACTION: i32 = 1086;
/// MQACT_COLLECT_STATISTICS.
const MQACT_COLLECT_STATISTICS: i32 = 3;

/// MQCMD_ESCAPE: the script's replies as runmqsc prints them.
fn escape(qm: &QueueManager, who: Option<&Arc<Principal>>, script: &str) -> Vec<Vec<u8>> {
    let replies = crate::exec::run_script_from(qm, who, script, Some(cmd::ESCAPE));
    let text = crate::format::text(&replies);
    let params = [
        Param::Int(id::ESCAPE_TYPE, 1),
        Param::Str(id::ESCAPE_TEXT, text),
    ];
    let mut h = header(cmd::ESCAPE, 1, true);
    if replies.iter().any(|r| !r.ok) {
        (h.comp_code, h.reason) = (CC_FAILED, rc::COMMAND_FAILED);
    }
    vec![pcf::encode(&h, &params)]
}

/// The responses to an MQSC reply.
fn answer(command: i32, reply: &Reply, shape: &Shape) -> Vec<Vec<u8>> {
    if !reply.ok {
        let m = reply.messages.first();
        let reason = m
            .and_then(|m| m.reason)
            .map_or(rc::COMMAND_FAILED, pcf_reason);
        let text = m.map_or_else(String::new, |m| m.text.clone());
        return failure(command, Refusal(reason, 0, text));
    }
    let objects: Vec<_> = (reply.messages.iter())
        .filter(|m| !m.fields.is_empty())
        .collect();
    match shape {
        Shape::Done => vec![response(command, 1, true, &[])],
        Shape::Names(names, types) => {
            let params = names_of(&objects, *names, *types);
            vec![response(command, 1, true, &params)]
        }
        Shape::Objects(obj, only) => {
            if objects.is_empty() {
                let why = "no object matches".to_owned();
                return failure(command, Refusal(rc::UNKNOWN_OBJECT_NAME, 0, why));
            }
            let n = objects.len();
            let each = objects.iter().enumerate().map(|(i, m)| {
                let params = params_of(*obj, &m.fields, only.as_deref());
                response(command, i as i32 + 1, i + 1 == n, &params)
            });
            each.collect()
        }
    }
}

/// The reason PCF answers for a queue manager's MQRC_: where MQ's command server has an
/// MQRCCF_ code of its own for the case, that one.
fn pcf_reason(mqrc: i32) -> i32 {
    match mqrc {
        2100 => rc::OBJECT_ALREADY_EXISTS,
        2432 => rc::SUB_ALREADY_EXISTS,
        r => r,
    }
}

/// An object's DISPLAY fields as PCF parameters (those the table knows), only the `only` ones
/// when the request listed attributes (its first field, the name, always).
fn params_of(obj: Obj, fields: &[ferry_model::admin::Field], only: Option<&[i32]>) -> Vec<Param> {
    let mut out = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        let Some(row) = table::by_key(obj, &f.key) else {
            continue;
        };
        if i > 0 && only.is_some_and(|ids| !ids.contains(&row.id)) {
            continue;
        }
        let value = f.value.as_deref().unwrap_or("");
        let p = match row.ty {
            Ty::Str(len) => Param::Str(row.id, padded(value, len)),
            Ty::Int => match value.trim().parse() {
                Ok(n) => Param::Int(row.id, n),
                Err(_) => continue,
            },
            Ty::Enum(words) => match table::number(words, value).or(value.trim().parse().ok()) {
                Some(n) => Param::Int(row.id, n),
                None => continue,
            },
            Ty::Flag(n) => Param::Int(row.id, n),
            Ty::StrList(len) => Param::StrList(
                row.id,
                value
                    .split(',')
                    .filter(|n| !n.is_empty())
                    .map(|n| padded(n, len))
                    .collect(),
            ),
            Ty::EnumList(words) => Param::IntList(
                row.id,
                value
                    .split(',')
                    .filter_map(|w| table::number(words, w.trim()))
                    .collect(),
            ),
            Ty::Hex => {
                let ext_key = format!("EXT{}", row.key);
                let ext = fields.iter().find(|f| f.key == ext_key);
                let ext = ext.and_then(|f| f.value.as_deref()).unwrap_or("");
                Param::Bytes(row.id, unhex(&format!("{ext}{value}")))
            }
        };
        out.push(p);
    }
    out
}

/// Bytes from hexadecimal text (pairs of digits; anything else ends it).
fn unhex(text: &str) -> Vec<u8> {
    (0..text.len() / 2)
        .map_while(|i| u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// MQ's responses blank-pad fixed-length fields (names, descriptions) to their length.
fn padded(value: &str, len: usize) -> String {
    if len > 264 || value.len() >= len {
        return value.to_owned();
    }
    format!("{value:<len$}")
}

fn names_of(
    objects: &[&ferry_model::admin::Message],
    (key, names_id): (&str, i32),
    types: Option<Types>,
) -> Vec<Param> {
    let value = |m: &ferry_model::admin::Message, k: &str| {
        let f = m.fields.iter().find(|f| f.key == k);
        f.and_then(|f| f.value.clone()).unwrap_or_default()
    };
    // MQ lists names at their full length (48 for queues, 20 for channels).
    let width = if names_id == id::CHANNEL_NAMES {
        20
    } else {
        48
    };
    let names = objects
        .iter()
        .map(|m| padded(&value(m, key), width))
        .collect();
    let mut out = vec![Param::StrList(names_id, names)];
    if let Some((tkey, tid, words)) = types {
        let each = objects
            .iter()
            .map(|m| table::number(words, &value(m, tkey)).unwrap_or(0));
        out.push(Param::IntList(tid, each.collect()));
    }
    out
}

/// An MQSC quoted string.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn str_param(params: &[Param], id: i32) -> Option<&str> {
    params.iter().find_map(|p| match p {
        Param::Str(i, s) if *i == id => Some(s.as_str()),
        _ => None,
    })
}

fn int_param(params: &[Param], id: i32) -> Option<i32> {
    params.iter().find_map(|p| match p {
        Param::Int(i, v) if *i == id => Some(*v),
        _ => None,
    })
}

fn required<'a>(params: &'a [Param], id: i32, what: &str) -> Result<&'a str, Refusal> {
    match str_param(params, id) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(Refusal(
            rc::PARM_COUNT_TOO_SMALL,
            id,
            format!("{what} ({id}) is required"),
        )),
    }
}

/// The attribute selector's identifiers, `None` when it asks for all (or is absent).
fn selector(params: &[Param], id: i32) -> Option<Vec<i32>> {
    params.iter().find_map(|p| match p {
        Param::IntList(i, ids) if *i == id && !ids.contains(&id::ALL) => Some(ids.clone()),
        Param::Int(i, v) if *i == id && *v != id::ALL => Some(vec![*v]),
        _ => None,
    })
}

/// A queue type's MQSC object word (MQQT_ALL and none: QUEUE).
fn queue_word(t: Option<i32>) -> Result<&'static str, Refusal> {
    match t {
        None | Some(1001) => Ok("QUEUE"),
        Some(n) => table::word(table::Q_TYPES, n)
            .filter(|w| *w != "QCLUSTER")
            .ok_or_else(|| Refusal(rc::PARM_VALUE_ERROR, id::Q_TYPE, format!("queue type {n}"))),
    }
}

/// The MQSC command (and reply shape) for a request.
fn plan(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    command: i32,
    params: &[Param],
) -> Result<Plan, Refusal> {
    match command {
        cmd::PING_Q_MGR => Ok(Plan::Nothing),
        cmd::ESCAPE => plan_escape(params),
        cmd::INQUIRE_Q_MGR => display("QMGR ALL".into(), Obj::QMgr, params, id::Q_MGR_ATTRS),
        cmd::INQUIRE_Q_MGR_STATUS => display(
            "QMSTATUS ALL".into(),
            Obj::QmStatus,
            params,
            id::Q_MGR_STATUS_ATTRS,
        ),
        cmd::CHANGE_Q_MGR => Ok(Plan::Mqsc(
            format!("ALTER QMGR {}", attributes(Obj::QMgr, params, &[])?),
            Shape::Done,
        )),
        cmd::INQUIRE_Q | cmd::INQUIRE_Q_NAMES | cmd::INQUIRE_Q_STATUS => {
            plan_queue_inquiry(command, params)
        }
        cmd::CREATE_Q | cmd::COPY_Q | cmd::CHANGE_Q | cmd::DELETE_Q | cmd::CLEAR_Q => {
            plan_queue_change(qm, who, command, params)
        }
        cmd::INQUIRE_CHANNEL | cmd::INQUIRE_CHANNEL_NAMES | cmd::INQUIRE_CHANNEL_STATUS => {
            plan_channel_inquiry(command, params)
        }
        cmd::CREATE_CHANNEL
        | cmd::CHANGE_CHANNEL
        | cmd::DELETE_CHANNEL
        | cmd::START_CHANNEL
        | cmd::STOP_CHANNEL => plan_channel_change(command, params),
        cmd::CREATE_TOPIC
        | cmd::CHANGE_TOPIC
        | cmd::DELETE_TOPIC
        | cmd::INQUIRE_TOPIC
        | cmd::INQUIRE_TOPIC_NAMES => plan_topic(command, params),
        cmd::CREATE_SUBSCRIPTION | cmd::CHANGE_SUBSCRIPTION | cmd::DELETE_SUBSCRIPTION => {
            plan_sub(command, params)
        }
        cmd::COPY_CHANNEL | cmd::COPY_TOPIC | cmd::COPY_SUBSCRIPTION => plan_copy(command, params),
        cmd::RESET_Q_MGR | cmd::RESET_Q_STATS => plan_reset(command, params),
        c if cmd::LISTENER_COMMANDS.contains(&c) => plan_listener(command, params),
        c if authority::COMMANDS.contains(&c) => authority::plan(c, params),
        c if definitions::NAMELIST.serves(c) => {
            definitions::plan(&definitions::NAMELIST, c, params)
        }
        c if definitions::PROCESS.serves(c) => definitions::plan(&definitions::PROCESS, c, params),
        cmd::INQUIRE_SUBSCRIPTION => {
            let name = str_param(params, id::SUB_NAME).unwrap_or("*");
            display(
                format!("SUB({}) ALL", quoted(name)),
                Obj::Sub,
                params,
                id::SUB_ATTRS,
            )
        }
        c => Err(Refusal(
            rc::CFH_COMMAND_ERROR,
            0,
            format!("command {c} is not served"),
        )),
    }
}

fn display(what: String, obj: Obj, params: &[Param], attrs_id: i32) -> Result<Plan, Refusal> {
    let filter = filter(obj, params)?;
    let text = format!("DISPLAY {what}{filter}");
    Ok(Plan::Mqsc(
        text,
        Shape::Objects(obj, selector(params, attrs_id)),
    ))
}

/// An inquiry's MQCFIF or MQCFSF filter as MQSC's WHERE (at most one, as MQ allows).
fn filter(obj: Obj, params: &[Param]) -> Result<String, Refusal> {
    let mut filters = params
        .iter()
        .filter(|p| matches!(p, Param::IntFilter(..) | Param::StrFilter(..)));
    let Some(f) = filters.next() else {
        return Ok(String::new());
    };
    let (id, op) = match f {
        Param::IntFilter(id, op, _) | Param::StrFilter(id, op, _) => (*id, *op),
        _ => unreachable!("filtered to filters"),
    };
    let refuse = |why: String| Refusal(rc::FILTER_ERROR, id, why);
    if filters.next().is_some() {
        return Err(refuse("only one filter may be given".into()));
    }
    let op = match op {
        1 => "LT",
        2 => "EQ",
        3 => "LE",
        4 => "GT",
        5 => "NE",
        6 => "GE",
        18 => "LK",
        21 => "NL",
        10 => "CT",
        13 => "EX",
        26 => "CTG",
        29 => "EXG",
        o => return Err(refuse(format!("filter operator {o} is not served"))),
    };
    let row = table::by_id(obj, id, None)
        .ok_or_else(|| refuse(format!("parameter {id} cannot be filtered on")))?;
    let value = match (row.ty, f) {
        (Ty::Str(_) | Ty::StrList(_), Param::StrFilter(_, _, v)) => quoted(v),
        (Ty::Int, Param::IntFilter(_, _, v)) => v.to_string(),
        (Ty::Enum(words) | Ty::EnumList(words), Param::IntFilter(_, _, v)) => {
            table::word(words, *v)
                .ok_or_else(|| refuse(format!("value {v} of parameter {id}")))?
                .to_owned()
        }
        _ => {
            return Err(refuse(format!(
                "parameter {id} cannot be filtered that way"
            )))
        }
    };
    Ok(format!(" WHERE({} {op} {value})", row.key))
}

fn plan_escape(params: &[Param]) -> Result<Plan, Refusal> {
    match int_param(params, id::ESCAPE_TYPE) {
        Some(1) => Ok(Plan::Escape(
            required(params, id::ESCAPE_TEXT, "MQCACF_ESCAPE_TEXT")?.to_owned(),
        )),
        t => Err(Refusal(
            rc::ESCAPE_TYPE_ERROR,
            id::ESCAPE_TYPE,
            format!("escape type {t:?} is not MQET_MQSC"),
        )),
    }
}

fn plan_queue_inquiry(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let name = quoted(required(params, id::Q_NAME, "MQCA_Q_NAME")?);
    let typed = match int_param(params, id::Q_TYPE) {
        None | Some(1001) => String::new(),
        t => format!(" TYPE({})", queue_word(t)?),
    };
    Ok(match command {
        cmd::INQUIRE_Q => {
            let what = format!("QUEUE({name}){typed} ALL");
            display(what, Obj::Queue, params, id::Q_ATTRS)?
        }
        cmd::INQUIRE_Q_NAMES => {
            let types = Some(("TYPE", id::Q_TYPES, table::Q_TYPES));
            Plan::Mqsc(
                format!("DISPLAY QUEUE({name}){typed}"),
                Shape::Names(("QUEUE", id::Q_NAMES), types),
            )
        }
        _ => {
            let kind = match int_param(params, id::Q_STATUS_TYPE) {
                Some(id::Q_HANDLE) => "HANDLE",
                _ => "QUEUE",
            };
            let what = format!("QSTATUS({name}) TYPE({kind}) ALL");
            display(what, Obj::QStatus, params, id::Q_STATUS_ATTRS)?
        }
    })
}

fn plan_queue_change(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    command: i32,
    params: &[Param],
) -> Result<Plan, Refusal> {
    let (name_id, what) = match command {
        cmd::COPY_Q => (id::TO_Q_NAME, "MQCACF_TO_Q_NAME"),
        _ => (id::Q_NAME, "MQCA_Q_NAME"),
    };
    let name = required(params, name_id, what)?;
    let word = match int_param(params, id::Q_TYPE) {
        Some(t) => queue_word(Some(t))?,
        None if matches!(command, cmd::DELETE_Q | cmd::CLEAR_Q) => "QUEUE",
        None => {
            return Err(Refusal(
                rc::PARM_COUNT_TOO_SMALL,
                id::Q_TYPE,
                "MQIA_Q_TYPE is required".into(),
            ))
        }
    };
    let word = match word {
        "QUEUE" if command == cmd::DELETE_Q => queue_type_of(qm, who, name)?,
        "QUEUE" if command == cmd::CLEAR_Q => "QLOCAL",
        w => w,
    };
    let skip = [
        id::Q_NAME,
        id::Q_TYPE,
        id::REPLACE,
        id::PURGE,
        id::FROM_Q_NAME,
        id::TO_Q_NAME,
    ];
    let text = match command {
        cmd::DELETE_Q => {
            let purge = if int_param(params, id::PURGE) == Some(1) {
                " PURGE"
            } else {
                ""
            };
            format!("DELETE {word}({}){purge}", quoted(name))
        }
        cmd::CLEAR_Q => format!("CLEAR {word}({})", quoted(name)),
        cmd::CHANGE_Q => format!(
            "ALTER {word}({}) {}",
            quoted(name),
            attributes(Obj::Queue, params, &skip)?
        ),
        _ => {
            let like = match command {
                cmd::COPY_Q => format!(
                    " LIKE({})",
                    quoted(required(params, id::FROM_Q_NAME, "MQCACF_FROM_Q_NAME")?)
                ),
                _ => String::new(),
            };
            let replace = if int_param(params, id::REPLACE) == Some(1) {
                " REPLACE"
            } else {
                ""
            };
            let attrs = attributes(Obj::Queue, params, &skip)?;
            format!("DEFINE {word}({}){like} {attrs}{replace}", quoted(name))
        }
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// A queue's MQSC type word, for a delete that did not say.
fn queue_type_of(
    qm: &QueueManager,
    who: Option<&Arc<Principal>>,
    name: &str,
) -> Result<&'static str, Refusal> {
    let reply = crate::run_as(qm, who, &format!("DISPLAY QUEUE({})", quoted(name)), 1);
    let t = reply
        .messages
        .iter()
        .flat_map(|m| &m.fields)
        .find(|f| f.key == "TYPE");
    let t = t
        .and_then(|f| f.value.as_deref())
        .and_then(|w| table::Q_TYPES.iter().find(|(_, x)| *x == w));
    match t {
        Some((_, w)) => Ok(w),
        None => Err(Refusal(
            rc::UNKNOWN_OBJECT_NAME,
            id::Q_NAME,
            format!("queue {name} not found"),
        )),
    }
}

fn plan_channel_inquiry(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let name = quoted(required(params, id::CHANNEL_NAME, "MQCACH_CHANNEL_NAME")?);
    let typed = match int_param(params, id::CHANNEL_TYPE) {
        None | Some(5) => String::new(),
        Some(t) => match table::word(table::CHANNEL_TYPES, t) {
            Some(w) => format!(" CHLTYPE({w})"),
            None => {
                return Err(Refusal(
                    rc::PARM_VALUE_ERROR,
                    id::CHANNEL_TYPE,
                    format!("channel type {t}"),
                ))
            }
        },
    };
    Ok(match command {
        cmd::INQUIRE_CHANNEL => {
            let what = format!("CHANNEL({name}){typed} ALL");
            display(what, Obj::Channel, params, id::CHANNEL_ATTRS)?
        }
        cmd::INQUIRE_CHANNEL_NAMES => {
            let types = Some(("CHLTYPE", id::CHANNEL_TYPES, table::CHANNEL_TYPES));
            let shape = Shape::Names(("CHANNEL", id::CHANNEL_NAMES), types);
            Plan::Mqsc(format!("DISPLAY CHANNEL({name}){typed} CHLTYPE"), shape)
        }
        _ => Plan::Mqsc(
            chstatus_command(&name, &typed, params),
            Shape::Objects(Obj::ChStatus, None),
        ),
    })
}

/// Inquire Channel Status as MQSC: MQTT's form takes the channel type and, for a row per
/// client, MQCACH_CLIENT_ID (generic).
fn chstatus_command(name: &str, typed: &str, params: &[Param]) -> String {
    if typed != " CHLTYPE(MQTT)" {
        return format!("DISPLAY CHSTATUS({name}) ALL");
    }
    match str_param(params, id::CLIENT_ID) {
        Some(c) => format!(
            "DISPLAY CHSTATUS({name}) CHLTYPE(MQTT) CLIENTID({}) ALL",
            quoted(c)
        ),
        None => format!("DISPLAY CHSTATUS({name}) CHLTYPE(MQTT)"),
    }
}

fn plan_channel_change(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let name = quoted(required(params, id::CHANNEL_NAME, "MQCACH_CHANNEL_NAME")?);
    let skip = [id::CHANNEL_NAME, id::CHANNEL_TYPE, id::REPLACE];
    let text = match command {
        cmd::START_CHANNEL => format!("START CHANNEL({name})"),
        cmd::STOP_CHANNEL => format!("STOP CHANNEL({name})"),
        cmd::DELETE_CHANNEL => format!("DELETE CHANNEL({name})"),
        _ => {
            let t = int_param(params, id::CHANNEL_TYPE)
                .and_then(|t| table::word(table::CHANNEL_TYPES, t));
            let Some(t) = t else {
                return Err(Refusal(
                    rc::PARM_COUNT_TOO_SMALL,
                    id::CHANNEL_TYPE,
                    "MQIACH_CHANNEL_TYPE is required".into(),
                ));
            };
            let attrs = attributes(Obj::Channel, params, &skip)?;
            let verb = if command == cmd::CREATE_CHANNEL {
                "DEFINE"
            } else {
                "ALTER"
            };
            let replace = if int_param(params, id::REPLACE) == Some(1) {
                " REPLACE"
            } else {
                ""
            };
            format!("{verb} CHANNEL({name}) CHLTYPE({t}) {attrs}{replace}")
        }
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// Topic objects: create (with MQIACF_REPLACE), change, delete, and their names.
fn plan_topic(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let name = quoted(required(params, id::TOPIC_NAME, "MQCA_TOPIC_NAME")?);
    let skip = [id::TOPIC_NAME, id::REPLACE];
    let replace = if int_param(params, id::REPLACE) == Some(1) {
        " REPLACE"
    } else {
        ""
    };
    let text = match command {
        cmd::INQUIRE_TOPIC => {
            let what = format!("TOPIC({name}) ALL");
            return display(what, Obj::Topic, params, id::TOPIC_ATTRS);
        }
        cmd::INQUIRE_TOPIC_NAMES => {
            let shape = Shape::Names(("TOPIC", id::TOPIC_NAMES), None);
            return Ok(Plan::Mqsc(format!("DISPLAY TOPIC({name})"), shape));
        }
        cmd::DELETE_TOPIC => format!("DELETE TOPIC({name})"),
        cmd::CHANGE_TOPIC => format!(
            "ALTER TOPIC({name}) {}",
            attributes(Obj::Topic, params, &skip)?
        ),
        _ => format!(
            "DEFINE TOPIC({name}) {}{replace}",
            attributes(Obj::Topic, params, &skip)?
        ),
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// Listeners: create (with MQIACF_REPLACE), change, copy, delete, inquire (a generic name),
/// their status, start and stop — the MQSC commands of the same names.
fn plan_listener(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    if command == cmd::COPY_LISTENER {
        let from = quoted(required(
            params,
            id::FROM_LISTENER_NAME,
            "MQCACF_FROM_LISTENER_NAME",
        )?);
        let to = quoted(required(
            params,
            id::TO_LISTENER_NAME,
            "MQCACF_TO_LISTENER_NAME",
        )?);
        let skip = [id::FROM_LISTENER_NAME, id::TO_LISTENER_NAME, id::REPLACE];
        let attrs = attributes(Obj::Listener, params, &skip)?;
        let text = format!(
            "DEFINE LISTENER({to}) LIKE({from}) {attrs}{}",
            replace_word(params)
        );
        return Ok(Plan::Mqsc(text, Shape::Done));
    }
    let name = quoted(required(params, id::LISTENER_NAME, "MQCACH_LISTENER_NAME")?);
    let skip = [id::LISTENER_NAME, id::REPLACE];
    let text = match command {
        cmd::INQUIRE_LISTENER => {
            let what = format!("LISTENER({name}) ALL");
            return display(what, Obj::Listener, params, id::LISTENER_ATTRS);
        }
        cmd::INQUIRE_LISTENER_STATUS => {
            let what = format!("LSSTATUS({name}) ALL");
            return display(what, Obj::LsStatus, params, id::LISTENER_STATUS_ATTRS);
        }
        cmd::START_CHANNEL_LISTENER => format!("START LISTENER({name})"),
        cmd::STOP_CHANNEL_LISTENER => format!("STOP LISTENER({name})"),
        cmd::DELETE_LISTENER => format!("DELETE LISTENER({name})"),
        cmd::CHANGE_LISTENER => format!(
            "ALTER LISTENER({name}) {}",
            attributes(Obj::Listener, params, &skip)?
        ),
        _ => format!(
            "DEFINE LISTENER({name}) {}{}",
            attributes(Obj::Listener, params, &skip)?,
            replace_word(params)
        ),
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// " REPLACE" when MQIACF_REPLACE says MQRP_YES.
fn replace_word(params: &[Param]) -> &'static str {
    if int_param(params, id::REPLACE) == Some(1) {
        " REPLACE"
    } else {
        ""
    }
}

/// Administrative subscriptions: create (with MQIACF_REPLACE) and delete.
fn plan_sub(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let name = quoted(required(params, id::SUB_NAME, "MQCACF_SUB_NAME")?);
    let text = match command {
        cmd::DELETE_SUBSCRIPTION => format!("DELETE SUB({name})"),
        cmd::CHANGE_SUBSCRIPTION => format!(
            "ALTER SUB({name}) {}",
            attributes(Obj::Sub, params, &[id::SUB_NAME])?
        ),
        _ => {
            let replace = if int_param(params, id::REPLACE) == Some(1) {
                " REPLACE"
            } else {
                ""
            };
            let attrs = attributes(Obj::Sub, params, &[id::SUB_NAME, id::REPLACE])?;
            format!("DEFINE SUB({name}) {attrs}{replace}")
        }
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// MQ's Copy Channel, Copy Topic and Copy Subscription: DEFINE of the new object LIKE the one
/// named, with the attributes the request gives (a channel's type is required, as MQ asks).
fn plan_copy(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let (obj, word, from, to) = match command {
        cmd::COPY_CHANNEL => (
            Obj::Channel,
            "CHANNEL",
            (id::FROM_CHANNEL_NAME, "MQCACF_FROM_CHANNEL_NAME"),
            (id::TO_CHANNEL_NAME, "MQCACF_TO_CHANNEL_NAME"),
        ),
        cmd::COPY_TOPIC => (
            Obj::Topic,
            "TOPIC",
            (id::FROM_TOPIC_NAME, "MQCACF_FROM_TOPIC_NAME"),
            (id::TO_TOPIC_NAME, "MQCACF_TO_TOPIC_NAME"),
        ),
        _ => (
            Obj::Sub,
            "SUB",
            (id::FROM_SUB_NAME, "MQCACF_FROM_SUB_NAME"),
            (id::TO_SUB_NAME, "MQCACF_TO_SUB_NAME"),
        ),
    };
    let old = quoted(required(params, from.0, from.1)?);
    let new = quoted(required(params, to.0, to.1)?);
    let mut skip = vec![from.0, to.0, id::REPLACE];
    let mut typed = String::new();
    if command == cmd::COPY_CHANNEL {
        skip.push(id::CHANNEL_TYPE);
        let t = int_param(params, id::CHANNEL_TYPE)
            .and_then(|t| table::word(table::CHANNEL_TYPES, t))
            .ok_or_else(|| {
                let why = "MQIACH_CHANNEL_TYPE is required".to_owned();
                Refusal(rc::PARM_COUNT_TOO_SMALL, id::CHANNEL_TYPE, why)
            })?;
        typed = format!(" CHLTYPE({t})");
    }
    let attrs = attributes(obj, params, &skip)?;
    let text = format!(
        "DEFINE {word}({new}){typed} LIKE({old}) {attrs}{}",
        replace_word(params)
    );
    Ok(Plan::Mqsc(text, Shape::Done))
}

/// The request's attribute parameters as MQSC keywords, `skip` aside. A parameter the table
/// does not know for `obj` is refused, naming it (never silently dropped).
fn attributes(obj: Obj, params: &[Param], skip: &[i32]) -> Result<String, Refusal> {
    let mut out = Vec::new();
    for p in params.iter().filter(|p| !skip.contains(&p.id())) {
        let value = match p {
            Param::Int(_, v) => Some(*v),
            _ => None,
        };
        let row = table::by_id(obj, p.id(), value)
            .filter(|r| !matches!(r.ty, Ty::Int) || value.is_some());
        let Some(row) = row else {
            let reason = if value.is_some() {
                rc::CFIN_PARM_ID_ERROR
            } else {
                rc::CFST_PARM_ID_ERROR
            };
            return Err(Refusal(
                reason,
                p.id(),
                format!("parameter {} is not an attribute this command sets", p.id()),
            ));
        };
        out.push(match (row.ty, p) {
            (Ty::Str(_), Param::Str(_, s)) => format!("{}({})", row.key, quoted(s)),
            (Ty::Int, Param::Int(_, v)) => format!("{}({v})", row.key),
            (Ty::EnumList(words), Param::IntList(_, vs)) => {
                let ws = vs
                    .iter()
                    .map(|v| table::word(words, *v))
                    .collect::<Option<Vec<_>>>();
                match ws {
                    Some(ws) => format!("{}({})", row.key, ws.join(",")),
                    None => {
                        return Err(Refusal(
                            rc::PARM_VALUE_ERROR,
                            p.id(),
                            format!("a value of parameter {}", p.id()),
                        ))
                    }
                }
            }
            (Ty::StrList(_), Param::StrList(_, names)) => {
                let names: Vec<&str> = names.iter().map(|n| n.trim()).collect();
                format!("{}({})", row.key, names.join(","))
            }
            (Ty::Enum(words), Param::Int(_, v)) => match table::word(words, *v) {
                Some(w) => format!("{}({w})", row.key),
                None if table::OPEN_ENUMS.contains(&row.key) => format!("{}({v})", row.key),
                None => {
                    return Err(Refusal(
                        rc::PARM_VALUE_ERROR,
                        p.id(),
                        format!("value {v} of parameter {}", p.id()),
                    ))
                }
            },
            (Ty::Flag(_), Param::Int(..)) => row.key.to_owned(),
            _ => {
                return Err(Refusal(
                    rc::PARM_VALUE_ERROR,
                    p.id(),
                    format!("parameter {} has the wrong type", p.id()),
                ))
            }
        });
    }
    Ok(out.join(" "))
}
