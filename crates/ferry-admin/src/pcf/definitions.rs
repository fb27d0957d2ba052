//! PCF for namelists and process definitions: create (with MQIACF_REPLACE), change, copy,
//! delete, inquire and inquire names — each the MQSC command of the same name, as for the other
//! objects.

use super::table::Obj;
use super::{attributes, display, quoted, replace_word, required, Param, Plan, Refusal, Shape};

/// One object kind's PCF commands and the parameters that name its objects.
pub(super) struct Commands {
    keyword: &'static str,
    obj: Obj,
    /// (MQCA_*_NAME, its name) of the object.
    name: (i32, &'static str),
    /// MQCACF_FROM_*_NAME and MQCACF_TO_*_NAME of a copy.
    from: (i32, &'static str),
    to: (i32, &'static str),
    /// MQIACF_*_ATTRS of an inquiry and MQCACF_*_NAMES of a names reply.
    attrs: i32,
    names: i32,
    /// Create, change, copy, delete, inquire, inquire names.
    commands: [i32; 6],
}

/// MQCMD_CREATE/CHANGE/COPY/DELETE/INQUIRE_NAMELIST and INQUIRE_NAMELIST_NAMES.
pub(super) const NAMELIST: Commands = Commands {
    keyword: "NAMELIST",
    obj: Obj::Namelist,
    name: (2010, "MQCA_NAMELIST_NAME"),
    from: (3005, "MQCACF_FROM_NAMELIST_NAME"),
    to: (3006, "MQCACF_TO_NAMELIST_NAME"),
    attrs: 1004,
    names: 3013,
    commands: [34, 32, 33, 35, 36, 37],
};

/// MQCMD_CREATE/CHANGE/COPY/DELETE/INQUIRE_PROCESS and INQUIRE_PROCESS_NAMES.
pub(super) const PROCESS: Commands = Commands {
    keyword: "PROCESS",
    obj: Obj::Process,
    name: (2012, "MQCA_PROCESS_NAME"),
    from: (3003, "MQCACF_FROM_PROCESS_NAME"),
    to: (3004, "MQCACF_TO_PROCESS_NAME"),
    attrs: 1003,
    names: 3012,
    commands: [5, 3, 4, 6, 7, 19],
};

impl Commands {
    /// Whether `command` is one of these.
    pub(super) fn serves(&self, command: i32) -> bool {
        self.commands.contains(&command)
    }
}

/// The MQSC command (and reply shape) for one of `k`'s commands.
pub(super) fn plan(k: &Commands, command: i32, params: &[Param]) -> Result<Plan, Refusal> {
    let [_, change, copy, delete, inquire, inquire_names] = k.commands;
    let kw = k.keyword;
    if command == copy {
        let from = quoted(required(params, k.from.0, k.from.1)?);
        let to = quoted(required(params, k.to.0, k.to.1)?);
        let attrs = attributes(k.obj, params, &[k.from.0, k.to.0, super::id::REPLACE])?;
        let text = format!(
            "DEFINE {kw}({to}) LIKE({from}) {attrs}{}",
            replace_word(params)
        );
        return Ok(Plan::Mqsc(text, Shape::Done));
    }
    let name = quoted(required(params, k.name.0, k.name.1)?);
    let skip = [k.name.0, super::id::REPLACE];
    let text = match command {
        c if c == inquire => return display(format!("{kw}({name}) ALL"), k.obj, params, k.attrs),
        c if c == inquire_names => {
            let shape = Shape::Names((kw, k.names), None);
            return Ok(Plan::Mqsc(format!("DISPLAY {kw}({name})"), shape));
        }
        c if c == delete => format!("DELETE {kw}({name})"),
        c if c == change => format!("ALTER {kw}({name}) {}", attributes(k.obj, params, &skip)?),
        _ => format!(
            "DEFINE {kw}({name}) {}{}",
            attributes(k.obj, params, &skip)?,
            replace_word(params)
        ),
    };
    Ok(Plan::Mqsc(text, Shape::Done))
}
