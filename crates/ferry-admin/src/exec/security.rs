//! The security commands — DEFINE/ALTER/DELETE/DISPLAY AUTHINFO, SET/DELETE/DISPLAY AUTHREC,
//! DISPLAY ENTAUTH, REFRESH SECURITY — and the authority every command needs of its issuer.
//!
//! A command's authority (as MQ's OAM checks runmqsc and PCF): DEFINE needs CRT on the type's
//! `@class` profile (whatever the new object's name, as in MQ), ALTER CHG, DELETE DLT, CLEAR CLR, START and STOP CTRL, RESET and RESOLVE
//! CTRLX, DISPLAY DSP. A DISPLAY of a generic name shows only the objects the issuer may
//! display; of one name, it is refused like any other command. The queue manager's settings
//! (ALTER QMGR, SET and DELETE AUTHREC, REFRESH SECURITY) need CHG on the queue manager; its
//! displays (QMGR, QMSTATUS, CONN, AUTHREC, ENTAUTH) DSP on it; DUMP QMGR, which writes every
//! definition, is for administrators. Subscription commands (DEFINE/ALTER/DELETE/DISPLAY SUB,
//! SBSTATUS, CLEAR TOPICSTR, DISPLAY TPSTATUS of one topic) are checked on the topic objects
//! above their topic, as MQSUB is: granted if any from the closest up to SYSTEM.BASE.TOPIC
//! grants it.

use ferry_core::QueueManager;
use ferry_model::objects::AuthInfoAttrs;
use ferry_model::security::{AuthObjType, Authority, Entity, Principal, CLASS_PROFILE};

use super::display::{generic, matches, none_found, shown};
use super::{attribute_params, check_replace, fail, field, info, object, reply, specific};
use super::{Failure, Outcome};
use crate::attrs::{self, Kind};
use crate::parse::{Command, Object, Verb};

/// The object type a command's object is checked as, and the authority its verb needs.
fn needed(c: &Command) -> Option<(AuthObjType, Authority)> {
    use Object as O;
    let objtype = match c.object {
        O::QLocal | O::QAlias | O::QRemote | O::QModel | O::Queue | O::QStatus | O::QStats => {
            AuthObjType::Queue
        }
        O::Channel | O::ChStatus => AuthObjType::Channel,
        O::Listener | O::LsStatus => AuthObjType::Listener,
        O::AuthInfo => AuthObjType::AuthInfo,
        O::Namelist => AuthObjType::Namelist,
        O::Process => AuthObjType::Process,
        // Subscriptions are checked on the topic objects above their topic, as MQSUB is (the
        // base object when none is named): SUB to define or delete one, DSP to display them.
        O::Sub | O::SbStatus | O::TpStatus | O::TopicStr | O::Topic => AuthObjType::Topic,
        O::QMgr
        | O::QmStatus
        | O::Conn
        | O::AuthRec
        | O::EntAuth
        | O::Security
        | O::ChlAuth
        | O::CmdServ => AuthObjType::QMgr,
    };
    let qmgr_level = objtype == AuthObjType::QMgr;
    if matches!(c.object, O::Sub | O::SbStatus | O::TpStatus | O::TopicStr) {
        let auth = match c.verb {
            Verb::Display => Authority::DSP,
            Verb::Clear => Authority::CLR,
            _ => Authority::SUB,
        };
        return Some((objtype, auth));
    }
    let auth = match c.verb {
        Verb::Display | Verb::Dump => Authority::DSP,
        Verb::Set | Verb::Refresh => Authority::CHG,
        Verb::Delete if c.object == O::AuthRec => Authority::CHG,
        Verb::Define if !qmgr_level => Authority::CRT,
        Verb::Alter => Authority::CHG,
        Verb::Delete => Authority::DLT,
        Verb::Clear => Authority::CLR,
        Verb::Start | Verb::Stop => Authority::CTRL,
        // Reset Queue Statistics changes what the queue reports: +chg, as MQ asks.
        Verb::Reset if c.object == O::QStats => Authority::CHG,
        // RESET QMGR TYPE(STATISTICS) ends the statistics interval: +chg on the queue manager.
        Verb::Reset if c.object == O::QMgr => Authority::CHG,
        Verb::Reset | Verb::Resolve => Authority::CTRLX,
        Verb::Define => return None,
    };
    Some((objtype, auth))
}

/// NOT_AUTHORIZED (AMQ8135E) unless the issuer may run the command. Generic DISPLAYs pass
/// here and show only what [`visible`] allows.
pub(super) fn check_command(qm: &QueueManager, c: &Command) -> Result<(), Failure> {
    let Some(who) = c.issuer.as_deref() else {
        return Ok(());
    };
    if who.admin {
        return Ok(());
    }
    if c.verb == Verb::Dump {
        return Err(refused(
            who,
            "DUMP QMGR writes every definition; it is for the queue manager's administrators",
        ));
    }
    let Some((objtype, auth)) = needed(c) else {
        return Ok(());
    };
    let name = match (objtype, &c.name) {
        (AuthObjType::QMgr, _) | (_, None) => qm.name().to_string(),
        (AuthObjType::Topic, _) if c.object != Object::Topic => match command_topic(qm, c) {
            Some(topic) => return check_topic_chain(qm, who, &topic, auth),
            None => ferry_model::system::BASE_TOPIC.to_string(),
        },
        _ if auth == Authority::CRT => CLASS_PROFILE.to_string(),
        (_, Some(v)) if c.verb == Verb::Display && v.text.contains('*') => return Ok(()),
        (_, Some(v)) => v.text.clone(),
    };
    qm.check_authority(who, objtype, &name, auth)
        .map_err(|e| refused(who, &e.detail))
}

/// The topic a subscription or topic-status command is about, when it names one: DEFINE
/// SUB's TOPICSTR, the named subscription's filter, CLEAR TOPICSTR's or DISPLAY TPSTATUS's
/// topic string (without wildcards). `None`: the base topic object answers.
fn command_topic(qm: &QueueManager, c: &Command) -> Option<String> {
    let name = c.name.as_ref().map(|v| v.text.clone());
    match (c.object, c.verb) {
        (Object::Sub, Verb::Define) => c.value("TOPICSTR").map(|v| v.text.clone()),
        (Object::Sub | Object::SbStatus, _) => name
            .filter(|n| !n.contains('*'))
            .and_then(|n| qm.subscription_named(&n))
            .map(|s| s.filter.text().to_owned()),
        (Object::TopicStr | Object::TpStatus, _) => {
            name.filter(|t| !t.contains('#') && !t.contains('+'))
        }
        _ => None,
    }
}

/// As a subscription is checked: granted when any topic object from the closest above
/// `topic` up to the base grants `auth`; the refusal names the closest.
fn check_topic_chain(
    qm: &QueueManager,
    who: &Principal,
    topic: &str,
    auth: Authority,
) -> Result<(), Failure> {
    let chain = qm.topic_chain(topic);
    if chain.iter().any(|n| {
        qm.authority(AuthObjType::Topic, n.as_str(), who)
            .contains(auth)
    }) {
        return Ok(());
    }
    let closest = chain.first().map_or_else(
        || ferry_model::system::BASE_TOPIC.to_string(),
        |n| n.to_string(),
    );
    qm.check_authority(who, AuthObjType::Topic, &closest, auth)
        .map_err(|e| refused(who, &e.detail))
}

fn refused(who: &Principal, why: &str) -> Failure {
    fail(
        "AMQ8135E",
        format!(
            "Not authorized: {why} (NOT_AUTHORIZED 2035; user {})",
            who.user
        ),
    )
}

/// Whether the issuer of a generic DISPLAY may see the object `name` of type `objtype`.
pub(super) fn visible(qm: &QueueManager, c: &Command, objtype: AuthObjType, name: &str) -> bool {
    c.issuer
        .as_deref()
        .is_none_or(|who| qm.authority(objtype, name, who).contains(Authority::DSP))
}

/// DEFINE AUTHINFO (AUTHTYPE required, or taken from LIKE).
pub(super) fn define_authinfo(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let exists = qm.authinfo(n.as_str()).ok();
    let replace = check_replace(c, exists.is_some(), "authinfo", &n)?;
    let mut a = match (
        c.value("LIKE"),
        c.params.iter().find(|p| p.key == "AUTHTYPE"),
    ) {
        (_, Some(p)) => AuthInfoAttrs::new(attrs::auth_type(p)?),
        (Some(v), None) => qm.authinfo(&v.text)?,
        (None, None) => {
            return Err(fail(
                "AMQ8405E",
                "DEFINE AUTHINFO needs AUTHTYPE(IDPWOS) or AUTHTYPE(IDPWFILE)",
            ))
        }
    };
    for p in attribute_params(c) {
        attrs::set_authinfo(&mut a, p)?;
    }
    qm.define_authinfo(n.as_str(), a, replace)?;
    reply(
        c,
        vec![info(
            "AMQ8563I",
            format!("Authentication information {n} created."),
        )],
    )
}

/// ALTER AUTHINFO.
pub(super) fn alter_authinfo(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    let mut a = qm.authinfo(n.as_str())?;
    for p in attribute_params(c) {
        attrs::set_authinfo(&mut a, p)?;
    }
    qm.define_authinfo(n.as_str(), a, true)?;
    reply(
        c,
        vec![info(
            "AMQ8567I",
            format!("Authentication information {n} changed."),
        )],
    )
}

/// DELETE AUTHINFO.
pub(super) fn delete_authinfo(qm: &QueueManager, c: &Command) -> Outcome {
    let n = specific(c)?;
    qm.delete_authinfo(n.as_str())?;
    reply(
        c,
        vec![info(
            "AMQ8564I",
            format!("Authentication information {n} deleted."),
        )],
    )
}

/// DISPLAY AUTHINFO.
pub(super) fn display_authinfo(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let mut out = Vec::new();
    for (n, a) in qm.authinfos() {
        if !matches(&pattern, &n) || !visible(qm, c, AuthObjType::AuthInfo, n.as_str()) {
            continue;
        }
        if let Some(fields) = shown(c, attrs::authinfo_fields(&n, &a), &["AUTHINFO"])? {
            out.push(object(
                "AMQ8566I",
                "Display authentication information details.",
                fields,
            ));
        }
    }
    none_found(c, &pattern, out)
}

/// The OBJTYPE a command names (required unless `default` is given).
fn objtype(c: &Command, default: Option<AuthObjType>) -> Result<Option<AuthObjType>, Failure> {
    match c.value("OBJTYPE") {
        Some(v) => AuthObjType::from_keyword(&v.text).map(Some).ok_or_else(|| {
            let all: Vec<&str> = AuthObjType::ALL.iter().map(|t| t.keyword()).collect();
            fail(
                "AMQ8405E",
                format!(
                    "OBJTYPE({}) is not an object type; use one of {}",
                    v.text,
                    all.join(", ")
                ),
            )
        }),
        None => Ok(default),
    }
}

/// PRINCIPAL or GROUP (one of them, if `required`).
fn entity(c: &Command, required: bool) -> Result<Option<Entity>, Failure> {
    match (c.value("PRINCIPAL"), c.value("GROUP")) {
        (Some(_), Some(_)) => Err(fail("AMQ8405E", "give PRINCIPAL or GROUP, not both")),
        (Some(v), None) => Ok(Some(Entity::Principal(v.text.clone()))),
        (None, Some(v)) => Ok(Some(Entity::Group(v.text.clone()))),
        (None, None) if required => Err(fail(
            "AMQ8405E",
            format!(
                "{} AUTHREC needs PRINCIPAL(user) or GROUP(group)",
                super::verb_word(c.verb)
            ),
        )),
        (None, None) => Ok(None),
    }
}

/// PROFILE, which QMGR records may leave out (it is then the queue manager's name).
fn profile(qm: &QueueManager, c: &Command, t: AuthObjType) -> Result<String, Failure> {
    match (c.value("PROFILE"), t) {
        (Some(v), _) => Ok(v.text.clone()),
        (None, AuthObjType::QMgr) => Ok(qm.name().to_string()),
        (None, _) => Err(fail(
            "AMQ8405E",
            "PROFILE(name or generic profile) is required unless OBJTYPE is QMGR",
        )),
    }
}

/// An AUTHADD or AUTHRMV list.
fn auth_list(c: &Command, key: &str, t: AuthObjType) -> Result<Authority, Failure> {
    match c.value(key) {
        Some(v) => Authority::parse_list(v.text.split(','), t).map_err(Failure::from),
        None => Ok(Authority::NONE),
    }
}

/// SET AUTHREC PROFILE() OBJTYPE() PRINCIPAL()|GROUP() AUTHADD() AUTHRMV().
pub(super) fn set_authrec(qm: &QueueManager, c: &Command) -> Outcome {
    let t = objtype(c, None)?.ok_or_else(|| fail("AMQ8405E", "SET AUTHREC needs OBJTYPE"))?;
    let e = entity(c, true)?.expect("required");
    let profile = profile(qm, c, t)?;
    let (add, remove) = (auth_list(c, "AUTHADD", t)?, auth_list(c, "AUTHRMV", t)?);
    if c.value("AUTHADD").is_none() && c.value("AUTHRMV").is_none() {
        return Err(fail("AMQ8405E", "SET AUTHREC needs AUTHADD or AUTHRMV"));
    }
    let crt_named = c.value("AUTHADD").is_some_and(|v| {
        v.text
            .split(',')
            .any(|w| w.trim().eq_ignore_ascii_case("CRT"))
    });
    if crt_named && profile != CLASS_PROFILE && t != AuthObjType::QMgr {
        return Err(fail(
            "AMQ8405E",
            format!(
                "CRT is held on the type's @class profile, not on '{profile}': SET AUTHREC PROFILE('@class') OBJTYPE({}) ... AUTHADD(CRT)",
                t.keyword()
            ),
        ));
    }
    let held = qm.set_authrec(&profile, t, &e, add, remove)?;
    let (n, kind) = e.parts();
    reply(
        c,
        vec![info(
            "AMQ8862I",
            format!("Authority record set: PROFILE({profile}) OBJTYPE({}) {kind}({n}) now holds {held}.", t.keyword()),
        )],
    )
}

/// DELETE AUTHREC PROFILE() OBJTYPE() PRINCIPAL()|GROUP().
pub(super) fn delete_authrec(qm: &QueueManager, c: &Command) -> Outcome {
    let t = objtype(c, None)?.ok_or_else(|| fail("AMQ8405E", "DELETE AUTHREC needs OBJTYPE"))?;
    let e = entity(c, true)?.expect("required");
    let profile = profile(qm, c, t)?;
    qm.delete_authrec(&profile, t, &e)?;
    reply(c, vec![info("AMQ8863I", "Authority record deleted.")])
}

/// DISPLAY AUTHREC [PROFILE()] [OBJTYPE()] [PRINCIPAL()|GROUP()]
/// [MATCH(PROFILE|EXACT|MEMBERSHIP)]. MEMBERSHIP shows a principal's own records and those of
/// every group it is in.
pub(super) fn display_authrec(qm: &QueueManager, c: &Command) -> Outcome {
    let t = objtype(c, None)?;
    let e = entity(c, false)?;
    let mode = c.value("MATCH").map_or("PROFILE", |v| v.text.as_str());
    let (exact, membership) = match mode {
        "PROFILE" => (false, false),
        "EXACT" => (true, false),
        "MEMBERSHIP" => (false, true),
        other => {
            return Err(fail(
                "AMQ8405E",
                format!("MATCH({other}) is not supported; use PROFILE, EXACT or MEMBERSHIP"),
            ))
        }
    };
    let profile = c.value("PROFILE").map(|v| v.text.clone());
    let table = qm.auth_table();
    let mut entities = e.iter().cloned().collect::<Vec<_>>();
    if membership {
        let Some(Entity::Principal(u)) = &e else {
            return Err(fail(
                "AMQ8405E",
                "MATCH(MEMBERSHIP) needs PRINCIPAL: it adds the records of the principal's groups",
            ));
        };
        let groups = qm.resolve_principal(u).groups;
        entities.extend(groups.into_iter().map(Entity::Group));
    }
    let recs: Vec<_> = if entities.is_empty() {
        table.select(t, profile.as_deref(), !exact, None)
    } else {
        entities
            .iter()
            .flat_map(|e| table.select(t, profile.as_deref(), !exact, Some(e)))
            .collect()
    };
    if recs.is_empty() {
        return reply(c, vec![info("AMQ8865I", "No matching authority records.")]);
    }
    let out = recs
        .into_iter()
        .map(|r| {
            let (n, kind) = r.entity.parts();
            object(
                "AMQ8864I",
                "Display authority record details.",
                vec![
                    field("PROFILE", &r.profile, Kind::Name),
                    field("ENTITY", n, Kind::Name),
                    field("ENTTYPE", kind, Kind::Word),
                    field("OBJTYPE", r.objtype.keyword(), Kind::Word),
                    field("AUTHLIST", r.auth, Kind::Word),
                ],
            )
        })
        .collect();
    reply(c, out)
}

/// DISPLAY ENTAUTH PRINCIPAL()|GROUP() OBJNAME() OBJTYPE(): what the entity may do to the
/// object, every record that applies counted (a principal's groups too).
pub(super) fn display_entauth(qm: &QueueManager, c: &Command) -> Outcome {
    let t = objtype(c, None)?.ok_or_else(|| fail("AMQ8405E", "DISPLAY ENTAUTH needs OBJTYPE"))?;
    let e = entity(c, true)?.expect("required");
    let name = match (c.value("OBJNAME"), t) {
        (Some(v), _) => v.text.clone(),
        (None, AuthObjType::QMgr) => qm.name().to_string(),
        (None, _) => {
            return Err(fail(
                "AMQ8405E",
                "DISPLAY ENTAUTH needs OBJNAME unless OBJTYPE is QMGR",
            ))
        }
    };
    let who = match &e {
        Entity::Principal(u) => qm.resolve_principal(u),
        Entity::Group(g) => Principal {
            user: String::new(),
            groups: vec![g.clone()],
            admin: false,
        },
    };
    let held = qm.authority(t, &name, &who);
    let (n, kind) = e.parts();
    let fields = vec![
        field("ENTITY", n, Kind::Name),
        field("ENTTYPE", kind, Kind::Word),
        field("OBJNAME", &name, Kind::Name),
        field("OBJTYPE", t.keyword(), Kind::Word),
        field("AUTHLIST", held, Kind::Word),
    ];
    reply(
        c,
        vec![object(
            "AMQ8866I",
            "Display entity authority details.",
            fields,
        )],
    )
}

/// REFRESH SECURITY [TYPE(AUTHSERV|CONNAUTH|SSL|ALL)]: connections recompute their authority
/// at their next open; the server reads its user file again at the next authentication.
pub(super) fn refresh_security(qm: &QueueManager, c: &Command) -> Outcome {
    if let Some(v) = c.value("TYPE") {
        if !["AUTHSERV", "CONNAUTH", "SSL", "ALL"].contains(&v.text.as_str()) {
            return Err(fail(
                "AMQ8405E",
                format!(
                    "TYPE({}) is not valid; use AUTHSERV, CONNAUTH, SSL or ALL",
                    v.text
                ),
            ));
        }
    }
    qm.refresh_security();
    reply(c, vec![info("AMQ8560I", "Security cache refreshed.")])
}

/// For DUMP QMGR: every authentication information object, then every authority record as
/// the SET AUTHREC that makes it (MQ's dmpmqcfg does the same).
pub(super) fn dump(qm: &QueueManager, lines: &mut Vec<String>) {
    for (n, a) in qm.authinfos() {
        lines.push(format!(
            "DEFINE AUTHINFO('{n}') {} REPLACE",
            attrs::as_keywords(&attrs::authinfo_fields(&n, &a), &["AUTHINFO"])
        ));
    }
    for r in qm.authrecs() {
        let (n, kind) = r.entity.parts();
        let list = if r.auth.is_empty() {
            "NONE".to_owned()
        } else {
            r.auth.to_string()
        };
        lines.push(format!(
            "SET AUTHREC PROFILE('{}') OBJTYPE({}) {kind}('{n}') AUTHADD({list})",
            r.profile,
            r.objtype.keyword()
        ));
    }
}
