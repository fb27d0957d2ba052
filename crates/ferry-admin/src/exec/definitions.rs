//! DEFINE, ALTER, DELETE and DISPLAY NAMELIST and PROCESS: lists of object names and process
//! definitions, kept and shown as MQ keeps them (nothing in FerryMQ triggers or clusters on
//! them; programs read them with MQINQ).

use ferry_core::{ObjectName, QueueManager};
use ferry_model::inquire::unix_date_time;
use ferry_model::objects::{NamelistAttrs, NamelistType, ProcessAttrs, APPL_TYPES};
use ferry_model::security::AuthObjType;
use ferry_model::system::{DEFAULT_NAMELIST, DEFAULT_PROCESS};

use super::display::{generic, none_found, seen, shown};
use super::{attribute_params, check_replace, fail, info, object, reply, specific, Outcome};
use crate::attrs::{self, Field, Kind};
use crate::parse::{Command, Param, ParseError};

fn f(key: &str, value: impl ToString, kind: Kind) -> Field {
    super::field(key, value, kind)
}

/// A namelist's fields, as DISPLAY NAMELIST shows them.
pub(crate) fn namelist_fields(name: &ObjectName, a: &NamelistAttrs) -> Vec<Field> {
    let (date, time) = unix_date_time(a.altered_unix_s);
    vec![
        f("NAMELIST", name, Kind::Name),
        f("NAMCOUNT", a.names.len(), Kind::Status),
        f("NAMES", a.names.join(","), Kind::Text),
        f("NLTYPE", a.nl_type.keyword(), Kind::Word),
        f("DESCR", &a.description, Kind::Text),
        f("ALTDATE", date, Kind::Status),
        f("ALTTIME", time, Kind::Status),
    ]
}

/// Sets a NAMELIST attribute: NAMES(A, B, ...) replaces the whole list.
pub(super) fn set_namelist(a: &mut NamelistAttrs, p: &Param) -> Result<(), ParseError> {
    match p.key.as_str() {
        "NAMES" => {
            a.names = attrs::text(p)?
                .split(',')
                .map(|n| n.trim().to_owned())
                .filter(|n| !n.is_empty())
                .collect();
        }
        "NLTYPE" => {
            let t = attrs::text(p)?;
            a.nl_type = NamelistType::from_keyword(&t).ok_or_else(|| {
                attrs::bad(
                    p,
                    format!("'{t}' is not one of NONE, QUEUE, CLUSTER, AUTHINFO"),
                )
            })?;
        }
        "DESCR" => a.description = attrs::descr(p)?,
        _ => return Err(attrs::unknown(p, "NAMELIST")),
    }
    Ok(())
}

fn appl_type_word(t: i64) -> String {
    APPL_TYPES
        .iter()
        .find(|(v, _)| i64::from(*v) == t)
        .map_or_else(|| t.to_string(), |(_, w)| (*w).to_owned())
}

/// A process definition's fields, as DISPLAY PROCESS shows them.
pub(crate) fn process_fields(name: &ObjectName, a: &ProcessAttrs) -> Vec<Field> {
    let (date, time) = unix_date_time(a.altered_unix_s);
    vec![
        f("PROCESS", name, Kind::Name),
        f("APPLTYPE", appl_type_word(a.appl_type), Kind::Word),
        f("APPLICID", &a.appl_id, Kind::Text),
        f("ENVRDATA", &a.env_data, Kind::Text),
        f("USERDATA", &a.user_data, Kind::Text),
        f("DESCR", &a.description, Kind::Text),
        f("ALTDATE", date, Kind::Status),
        f("ALTTIME", time, Kind::Status),
    ]
}

/// Sets a PROCESS attribute. APPLTYPE takes MQ's words or a number (a user-defined type).
pub(super) fn set_process(a: &mut ProcessAttrs, p: &Param) -> Result<(), ParseError> {
    let limited = |max: usize| -> Result<String, ParseError> {
        let t = attrs::text(p)?;
        if t.len() > max {
            return Err(attrs::bad(
                p,
                format!("{} characters; the limit is {max}", t.len()),
            ));
        }
        Ok(t)
    };
    match p.key.as_str() {
        "APPLTYPE" => {
            let t = attrs::text(p)?.to_ascii_uppercase();
            a.appl_type = match APPL_TYPES.iter().find(|(_, w)| *w == t) {
                Some((v, _)) => i64::from(*v),
                None => attrs::int::<i64>(p, 999_999_999)?,
            };
        }
        "APPLICID" => a.appl_id = limited(256)?,
        "ENVRDATA" => a.env_data = limited(128)?,
        "USERDATA" => a.user_data = limited(128)?,
        "DESCR" => a.description = attrs::descr(p)?,
        _ => return Err(attrs::unknown(p, "PROCESS")),
    }
    Ok(())
}

/// DEFINE, ALTER, DELETE or DISPLAY of a namelist or process.
pub(super) fn execute(qm: &QueueManager, c: &Command) -> Outcome {
    use crate::parse::{Object, Verb};
    match (c.verb, c.object) {
        (Verb::Define, Object::Namelist) => define_namelist(qm, c),
        (Verb::Alter, Object::Namelist) => alter_namelist(qm, c),
        (Verb::Delete, Object::Namelist) => delete_namelist(qm, c),
        (Verb::Display, Object::Namelist) => display_namelists(qm, c),
        (Verb::Define, _) => define_process(qm, c),
        (Verb::Alter, _) => alter_process(qm, c),
        (Verb::Delete, _) => delete_process(qm, c),
        _ => display_processes(qm, c),
    }
}

/// DEFINE NAMELIST (from LIKE's definition or SYSTEM.DEFAULT.NAMELIST).
fn define_namelist(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.namelist(n.as_str()).is_ok();
    let replace = check_replace(c, exists, "namelist", &n)?;
    let like = c.value("LIKE").map(|v| v.text.clone());
    let mut a = match &like {
        Some(l) => qm
            .namelist(l)
            .map_err(|_| fail("AMQ8147E", format!("LIKE({l}): namelist {l} not found")))?,
        None => qm.namelist(DEFAULT_NAMELIST).unwrap_or_default(),
    };
    for p in attribute_params(c) {
        set_namelist(&mut a, p)?;
    }
    qm.define_namelist(n.as_str(), a, replace)?;
    reply(c, vec![info("AMQ8552I", format!("Namelist {n} created."))])
}

/// ALTER NAMELIST.
fn alter_namelist(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut a = qm.namelist(n.as_str())?;
    for p in attribute_params(c) {
        set_namelist(&mut a, p)?;
    }
    qm.define_namelist(n.as_str(), a, true)?;
    reply(c, vec![info("AMQ8551I", format!("Namelist {n} changed."))])
}

/// DELETE NAMELIST.
fn delete_namelist(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_namelist(n.as_str())?;
    reply(c, vec![info("AMQ8553I", format!("Namelist {n} deleted."))])
}

/// DISPLAY NAMELIST.
fn display_namelists(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm.namelists() {
        if !seen(qm, c, &pattern, AuthObjType::Namelist, &n) {
            continue;
        }
        if let Some(fields) = shown(c, namelist_fields(&n, &a), &["NAMELIST"])? {
            out.push(object("AMQ8550I", "Display namelist details.", fields));
        }
    }
    none_found(c, &pattern, out)
}

/// DEFINE PROCESS (from LIKE's definition or SYSTEM.DEFAULT.PROCESS).
fn define_process(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.process(n.as_str()).is_ok();
    let replace = check_replace(c, exists, "process", &n)?;
    let like = c.value("LIKE").map(|v| v.text.clone());
    let mut a = match &like {
        Some(l) => qm
            .process(l)
            .map_err(|_| fail("AMQ8147E", format!("LIKE({l}): process {l} not found")))?,
        None => qm.process(DEFAULT_PROCESS).unwrap_or_default(),
    };
    for p in attribute_params(c) {
        set_process(&mut a, p)?;
    }
    qm.define_process(n.as_str(), a, replace)?;
    reply(c, vec![info("AMQ8010I", format!("Process {n} created."))])
}

/// ALTER PROCESS.
fn alter_process(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut a = qm.process(n.as_str())?;
    for p in attribute_params(c) {
        set_process(&mut a, p)?;
    }
    qm.define_process(n.as_str(), a, true)?;
    reply(c, vec![info("AMQ8012I", format!("Process {n} changed."))])
}

/// DELETE PROCESS.
fn delete_process(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_process(n.as_str())?;
    reply(c, vec![info("AMQ8011I", format!("Process {n} deleted."))])
}

/// DISPLAY PROCESS.
fn display_processes(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm.processes() {
        if !seen(qm, c, &pattern, AuthObjType::Process, &n) {
            continue;
        }
        if let Some(fields) = shown(c, process_fields(&n, &a), &["PROCESS"])? {
            out.push(object("AMQ8407I", "Display Process details.", fields));
        }
    }
    none_found(c, &pattern, out)
}

/// The namelists' and process definitions' lines in DUMP QMGR.
pub(super) fn dump(qm: &QueueManager, lines: &mut Vec<String>) {
    for (n, a) in qm.namelists() {
        let fields = namelist_fields(&n, &a);
        lines.push(format!(
            "DEFINE NAMELIST('{n}') {} REPLACE",
            attrs::as_keywords(&fields, &["NAMELIST"])
        ));
    }
    for (n, a) in qm.processes() {
        let fields = process_fields(&n, &a);
        lines.push(format!(
            "DEFINE PROCESS('{n}') {} REPLACE",
            attrs::as_keywords(&fields, &["PROCESS"])
        ));
    }
}
