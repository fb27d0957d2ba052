//! PCF for authority records and connections: Set, Delete and Inquire Authority Records,
//! Inquire Entity Authority, Inquire and Stop Connection — each the MQSC command of the same
//! meaning (SET / DELETE / DISPLAY AUTHREC, DISPLAY ENTAUTH, DISPLAY CONN, STOP CONN), so authority is checked and
//! recorded one way. A request naming several principals or groups runs one command for each.

use super::table::{self, Obj};
use super::{int_param, quoted, rc, required, str_param, Param, Plan, Refusal, Shape};

/// MQCMD_INQUIRE_CONNECTION.
const INQUIRE_CONNECTION: i32 = 85;
/// MQCMD_STOP_CONNECTION.
const STOP_CONNECTION: i32 = 86;
/// MQCMD_INQUIRE_AUTH_RECS.
const INQUIRE_AUTH_RECS: i32 = 87;
/// MQCMD_INQUIRE_ENTITY_AUTH.
const INQUIRE_ENTITY_AUTH: i32 = 88;
/// MQCMD_DELETE_AUTH_REC.
const DELETE_AUTH_REC: i32 = 89;
/// MQCMD_SET_AUTH_REC.
const SET_AUTH_REC: i32 = 90;

/// The commands this module plans.
pub(super) const COMMANDS: [i32; 6] = [
    INQUIRE_CONNECTION,
    STOP_CONNECTION,
    INQUIRE_AUTH_RECS,
    INQUIRE_ENTITY_AUTH,
    DELETE_AUTH_REC,
    SET_AUTH_REC,
];

mod id {
    pub const AUTH_PROFILE_NAME: i32 = 3067;
    pub const OBJECT_TYPE: i32 = 1016;
    pub const PRINCIPAL_ENTITY_NAMES: i32 = 3065;
    pub const GROUP_ENTITY_NAMES: i32 = 3066;
    pub const AUTH_ADD_AUTHS: i32 = 1116;
    pub const AUTH_REMOVE_AUTHS: i32 = 1117;
    pub const AUTH_OPTIONS: i32 = 1228;
    pub const ENTITY_NAME: i32 = 3068;
    pub const ENTITY_TYPE: i32 = 1118;
    pub const OBJECT_NAME: i32 = 3046;
    pub const CONNECTION_ID: i32 = 7006;
    pub const GENERIC_CONNECTION_ID: i32 = 7007;
    pub const CONN_INFO_TYPE: i32 = 1110;
}

/// MQAUTHOPT_ENTITY_SET: a principal's records and its groups'.
const AUTHOPT_ENTITY_SET: i32 = 2;
/// MQAUTHOPT_NAME_EXPLICIT: the profile named, not the generic ones that match it.
const AUTHOPT_NAME_EXPLICIT: i32 = 16;
/// MQAUTHOPT_NAME_ALL_MATCHING.
const AUTHOPT_NAME_ALL_MATCHING: i32 = 32;

/// The MQSC command(s) (and reply shape) for one of [`COMMANDS`].
pub(super) fn plan(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    match command {
        SET_AUTH_REC | DELETE_AUTH_REC => plan_change(command, params),
        INQUIRE_AUTH_RECS => plan_inquire(params),
        INQUIRE_ENTITY_AUTH => plan_entity(params),
        STOP_CONNECTION => plan_stop(params),
        _ => plan_connection(params),
    }
}

fn refuse(reason: i32, id: i32, why: impl Into<String>) -> Refusal {
    Refusal(reason, id, why.into())
}

/// MQIACF_OBJECT_TYPE as OBJTYPE's word (`None` for none or MQOT_ALL).
fn objtype(params: &[Param]) -> Result<Option<&'static str>, Refusal> {
    match int_param(params, id::OBJECT_TYPE) {
        None | Some(1001) => Ok(None),
        Some(n) => table::word(table::OBJ_TYPES, n).map(Some).ok_or_else(|| {
            refuse(
                rc::PARM_VALUE_ERROR,
                id::OBJECT_TYPE,
                format!("object type {n}"),
            )
        }),
    }
}

/// The principals and groups a request names, as (MQSC keyword, name).
fn entities(params: &[Param]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for p in params {
        let (kw, names) = match p {
            Param::StrList(id::PRINCIPAL_ENTITY_NAMES, v) => ("PRINCIPAL", v.clone()),
            Param::StrList(id::GROUP_ENTITY_NAMES, v) => ("GROUP", v.clone()),
            Param::Str(id::PRINCIPAL_ENTITY_NAMES, s) => ("PRINCIPAL", vec![s.clone()]),
            Param::Str(id::GROUP_ENTITY_NAMES, s) => ("GROUP", vec![s.clone()]),
            _ => continue,
        };
        out.extend(names.iter().map(|n| (kw, n.trim_end().to_owned())));
    }
    out
}

/// An MQCFIL of MQAUTH_* values as AUTHADD/AUTHRMV's words.
fn auth_words(params: &[Param], pid: i32, key: &str) -> Result<String, Refusal> {
    let Some(values) = params.iter().find_map(|p| match p {
        Param::IntList(i, v) if *i == pid => Some(v.clone()),
        Param::Int(i, v) if *i == pid => Some(vec![*v]),
        _ => None,
    }) else {
        return Ok(String::new());
    };
    let words = values
        .iter()
        .map(|v| {
            table::word(table::AUTHS, *v)
                .ok_or_else(|| refuse(rc::PARM_VALUE_ERROR, pid, format!("authority {v}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format!(" {key}({})", words.join(",")))
}

/// Set / Delete Authority Record: one SET / DELETE AUTHREC for each principal and group.
fn plan_change(command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let profile = quoted(required(
        params,
        id::AUTH_PROFILE_NAME,
        "MQCACF_AUTH_PROFILE_NAME",
    )?);
    let t = objtype(params)?.ok_or_else(|| {
        refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::OBJECT_TYPE,
            "MQIACF_OBJECT_TYPE (1016) is required",
        )
    })?;
    let who = entities(params);
    if who.is_empty() {
        let why =
            "MQCACF_PRINCIPAL_ENTITY_NAMES (3065) or MQCACF_GROUP_ENTITY_NAMES (3066) is required";
        return Err(refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::PRINCIPAL_ENTITY_NAMES,
            why,
        ));
    }
    let verb = if command == SET_AUTH_REC {
        "SET"
    } else {
        "DELETE"
    };
    let auths = if command == SET_AUTH_REC {
        auth_words(params, id::AUTH_ADD_AUTHS, "AUTHADD")?
            + &auth_words(params, id::AUTH_REMOVE_AUTHS, "AUTHRMV")?
    } else {
        String::new()
    };
    let commands = who
        .iter()
        .map(|(kw, name)| {
            format!(
                "{verb} AUTHREC PROFILE({profile}) OBJTYPE({t}) {kw}({}){auths}",
                quoted(name)
            )
        })
        .collect();
    Ok(Plan::Several(commands, Shape::Done))
}

/// PRINCIPAL(name) or GROUP(name) from MQCACF_ENTITY_NAME and MQIACF_ENTITY_TYPE (MQZAET_*).
fn entity(params: &[Param]) -> Result<Option<String>, Refusal> {
    let Some(name) = str_param(params, id::ENTITY_NAME).filter(|n| !n.trim().is_empty()) else {
        return Ok(None);
    };
    let kw = match int_param(params, id::ENTITY_TYPE) {
        None | Some(1) => "PRINCIPAL",
        Some(2) => "GROUP",
        Some(n) => {
            return Err(refuse(
                rc::PARM_VALUE_ERROR,
                id::ENTITY_TYPE,
                format!("entity type {n}"),
            ))
        }
    };
    Ok(Some(format!(" {kw}({})", quoted(name.trim_end()))))
}

/// Inquire Authority Records: DISPLAY AUTHREC, MQAUTHOPT_* as MATCH.
fn plan_inquire(params: &[Param]) -> Result<Plan, Refusal> {
    let options = int_param(params, id::AUTH_OPTIONS).ok_or_else(|| {
        refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::AUTH_OPTIONS,
            "MQIACF_AUTH_OPTIONS (1228) is required",
        )
    })?;
    if options & (AUTHOPT_NAME_EXPLICIT | AUTHOPT_NAME_ALL_MATCHING) == 0 {
        let why =
            "MQIACF_AUTH_OPTIONS needs MQAUTHOPT_NAME_EXPLICIT or MQAUTHOPT_NAME_ALL_MATCHING";
        return Err(refuse(rc::PARM_VALUE_ERROR, id::AUTH_OPTIONS, why));
    }
    let mut text = "DISPLAY AUTHREC".to_owned();
    if let Some(p) = str_param(params, id::AUTH_PROFILE_NAME).filter(|p| !p.trim().is_empty()) {
        text += &format!(" PROFILE({})", quoted(p.trim_end()));
    }
    if let Some(t) = objtype(params)? {
        text += &format!(" OBJTYPE({t})");
    }
    let who = entity(params)?;
    text += who.as_deref().unwrap_or("");
    if options & AUTHOPT_NAME_EXPLICIT != 0 {
        text += " MATCH(EXACT)";
    } else if options & AUTHOPT_ENTITY_SET != 0 && who.is_some() {
        text += " MATCH(MEMBERSHIP)";
    }
    Ok(Plan::Mqsc(text, Shape::Objects(Obj::AuthRec, None)))
}

/// Inquire Entity Authority: DISPLAY ENTAUTH.
fn plan_entity(params: &[Param]) -> Result<Plan, Refusal> {
    let who = entity(params)?.ok_or_else(|| {
        refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::ENTITY_NAME,
            "MQCACF_ENTITY_NAME (3068) is required",
        )
    })?;
    let t = objtype(params)?.ok_or_else(|| {
        refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::OBJECT_TYPE,
            "MQIACF_OBJECT_TYPE (1016) is required",
        )
    })?;
    let mut text = format!("DISPLAY ENTAUTH{who} OBJTYPE({t})");
    if let Some(n) = str_param(params, id::OBJECT_NAME).filter(|n| !n.trim().is_empty()) {
        text += &format!(" OBJNAME({})", quoted(n.trim_end()));
    }
    Ok(Plan::Mqsc(text, Shape::Objects(Obj::EntAuth, None)))
}

/// Inquire Connection: DISPLAY CONN of the connection MQBACF_CONNECTION_ID names (its last 8
/// bytes are CONN), or of every one (an empty MQBACF_GENERIC_CONNECTION_ID), with
/// MQIACF_CONN_INFO_TYPE as TYPE.
fn plan_connection(params: &[Param]) -> Result<Plan, Refusal> {
    let bytes = |pid: i32| {
        params.iter().find_map(|p| match p {
            Param::Bytes(i, b) if *i == pid => Some(b.clone()),
            _ => None,
        })
    };
    let conn = match (bytes(id::CONNECTION_ID), bytes(id::GENERIC_CONNECTION_ID)) {
        (Some(b), _) if b.len() == 24 => b[16..].iter().map(|x| format!("{x:02X}")).collect(),
        (Some(b), _) => {
            let why = format!("a connection id is 24 bytes, not {}", b.len());
            return Err(refuse(rc::PARM_VALUE_ERROR, id::CONNECTION_ID, why));
        }
        (None, Some(b)) if b.iter().all(|x| *x == 0) => "*".to_owned(),
        (None, Some(_)) => {
            let why = "only an empty MQBACF_GENERIC_CONNECTION_ID (every connection) is served";
            return Err(refuse(rc::PARM_VALUE_ERROR, id::GENERIC_CONNECTION_ID, why));
        }
        (None, None) => {
            let why =
                "MQBACF_CONNECTION_ID (7006) or MQBACF_GENERIC_CONNECTION_ID (7007) is required";
            return Err(refuse(rc::PARM_COUNT_TOO_SMALL, id::CONNECTION_ID, why));
        }
    };
    let kind = match int_param(params, id::CONN_INFO_TYPE) {
        None | Some(1111) => "CONN",
        Some(1112) => "HANDLE",
        Some(1113) => "ALL",
        Some(n) => {
            return Err(refuse(
                rc::PARM_VALUE_ERROR,
                id::CONN_INFO_TYPE,
                format!("{n}"),
            ))
        }
    };
    let text = format!("DISPLAY CONN({conn}) TYPE({kind}) ALL");
    Ok(Plan::Mqsc(text, Shape::Objects(Obj::Conn, None)))
}

/// Stop Connection: STOP CONN of the connection MQBACF_CONNECTION_ID names.
fn plan_stop(params: &[Param]) -> Result<Plan, Refusal> {
    let id = params.iter().find_map(|p| match p {
        Param::Bytes(id::CONNECTION_ID, b) => Some(b.clone()),
        _ => None,
    });
    match id {
        Some(b) if b.len() == 24 => {
            let conn: String = b[16..].iter().map(|x| format!("{x:02X}")).collect();
            Ok(Plan::Mqsc(format!("STOP CONN({conn})"), Shape::Done))
        }
        Some(b) => Err(refuse(
            rc::PARM_VALUE_ERROR,
            id::CONNECTION_ID,
            format!("a connection id is 24 bytes, not {}", b.len()),
        )),
        None => Err(refuse(
            rc::PARM_COUNT_TOO_SMALL,
            id::CONNECTION_ID,
            "MQBACF_CONNECTION_ID (7006) is required",
        )),
    }
}
