//! SET CHLAUTH and DISPLAY CHLAUTH: channel authentication records (docs/security.md).

use ferry_core::QueueManager;
use ferry_model::chlauth::{Arrival, ChlAuthRule, RuleKind, UserSrc, Verdict};
use ferry_model::dn::DistinguishedName;

use super::{fail, field, info, object, reply};
use super::{Failure, Outcome};
use crate::attrs::Kind;
use crate::parse::Command;

/// The profile a CHLAUTH command names.
fn profile(c: &Command) -> Result<String, Failure> {
    c.name
        .as_ref()
        .map(|v| v.text.clone())
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            fail(
                "AMQ8405E",
                "CHLAUTH needs a channel profile, such as CHLAUTH('APP.*')",
            )
        })
}

fn value(c: &Command, key: &str) -> Option<String> {
    c.value(key).map(|v| v.text.clone())
}

fn required(c: &Command, key: &str, kind: &str) -> Result<String, Failure> {
    value(c, key).ok_or_else(|| fail("AMQ8405E", format!("TYPE({kind}) needs {key}")))
}

fn list(c: &Command, key: &str, kind: &str) -> Result<Vec<String>, Failure> {
    Ok(required(c, key, kind)?
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect())
}

/// The rule TYPE and its matching attribute describe.
fn kind(c: &Command) -> Result<RuleKind, Failure> {
    let t = value(c, "TYPE").ok_or_else(|| fail("AMQ8405E", "SET CHLAUTH needs TYPE"))?;
    Ok(match t.as_str() {
        "BLOCKADDR" => RuleKind::BlockAddr(list(c, "ADDRLIST", &t)?),
        "BLOCKUSER" => RuleKind::BlockUser(list(c, "USERLIST", &t)?),
        "ADDRESSMAP" => RuleKind::AddressMap(required(c, "ADDRESS", &t)?),
        "USERMAP" => RuleKind::UserMap(required(c, "CLNTUSER", &t)?),
        "SSLPEERMAP" => {
            let p = required(c, "SSLPEER", &t)?;
            DistinguishedName::parse(&p)
                .map_err(|e| fail("AMQ8405E", format!("SSLPEER('{p}') is not a distinguished name: {e}")))?;
            RuleKind::SslPeerMap(p)
        }
        "QMGRMAP" => RuleKind::QmgrMap(required(c, "QMNAME", &t)?),
        other => {
            return Err(fail(
                "AMQ8405E",
                format!("TYPE({other}) is not BLOCKADDR, BLOCKUSER, ADDRESSMAP, USERMAP, SSLPEERMAP or QMGRMAP"),
            ))
        }
    })
}

fn usersrc(c: &Command) -> Result<UserSrc, Failure> {
    match value(c, "USERSRC").as_deref() {
        None | Some("MAP") => Ok(UserSrc::Map),
        Some("NOACCESS") => Ok(UserSrc::NoAccess),
        Some("CHANNEL") => Ok(UserSrc::Channel),
        Some(o) => Err(fail(
            "AMQ8405E",
            format!("USERSRC({o}) is not MAP, NOACCESS or CHANNEL"),
        )),
    }
}

/// The record an ADD or REPLACE makes.
fn rule(c: &Command) -> Result<ChlAuthRule, Failure> {
    let kind = kind(c)?;
    let mapping = !matches!(kind, RuleKind::BlockAddr(_) | RuleKind::BlockUser(_));
    Ok(ChlAuthRule {
        profile: profile(c)?,
        address: match kind {
            RuleKind::AddressMap(_) => String::new(),
            _ => value(c, "ADDRESS").unwrap_or_default(),
        },
        usersrc: if mapping {
            usersrc(c)?
        } else {
            UserSrc::Channel
        },
        mcauser: value(c, "MCAUSER").unwrap_or_default(),
        warn: value(c, "WARN").as_deref() == Some("YES"),
        description: value(c, "DESCR").unwrap_or_default(),
        kind,
    })
}

/// SET CHLAUTH(profile) TYPE(...) ... [ACTION(ADD|REPLACE|REMOVE|REMOVEALL)].
pub(super) fn set_chlauth(qm: &QueueManager, c: &Command) -> Outcome {
    let p = profile(c)?;
    let action = value(c, "ACTION").unwrap_or_else(|| "ADD".into());
    let t = value(c, "TYPE").unwrap_or_default();
    match action.as_str() {
        "ADD" | "REPLACE" => qm.set_chlauth(rule(c)?)?,
        "REMOVEALL" => {
            qm.change_chlauth(|tb| Ok(tb.remove_all(&p, &t)))?;
        }
        "REMOVE" => {
            let key_attr = match t.as_str() {
                "ADDRESSMAP" => Some("ADDRESS"),
                "USERMAP" => Some("CLNTUSER"),
                "SSLPEERMAP" => Some("SSLPEER"),
                "QMGRMAP" => Some("QMNAME"),
                _ => None,
            };
            let key = match key_attr {
                Some(k) => required(c, k, &t)?,
                None => String::new(),
            };
            let gone = qm.change_chlauth(|tb| Ok(tb.remove(&p, &t, &key)))?;
            if !gone {
                return Err(fail(
                    "AMQ8884E",
                    format!("there is no CHLAUTH('{p}') TYPE({t}) record to remove"),
                ));
            }
        }
        other => {
            return Err(fail(
                "AMQ8405E",
                format!("ACTION({other}) is not ADD, REPLACE, REMOVE or REMOVEALL"),
            ))
        }
    }
    reply(
        c,
        vec![info(
            "AMQ8877I",
            "IBM MQ channel authentication record set.",
        )],
    )
}

/// A record's fields, as DISPLAY CHLAUTH shows them.
fn fields(r: &ChlAuthRule) -> Vec<crate::attrs::Field> {
    let mut f = vec![
        field("CHLAUTH", &r.profile, Kind::Name),
        field("TYPE", r.kind.keyword(), Kind::Word),
        field("DESCR", &r.description, Kind::Text),
    ];
    match &r.kind {
        RuleKind::BlockAddr(l) => f.push(field("ADDRLIST", l.join(","), Kind::Text)),
        RuleKind::BlockUser(l) => f.push(field("USERLIST", l.join(","), Kind::Text)),
        RuleKind::AddressMap(a) => f.push(field("ADDRESS", a, Kind::Text)),
        RuleKind::UserMap(u) => f.push(field("CLNTUSER", u, Kind::Text)),
        RuleKind::SslPeerMap(p) => f.push(field("SSLPEER", p, Kind::Text)),
        RuleKind::QmgrMap(q) => f.push(field("QMNAME", q, Kind::Text)),
    }
    if !matches!(r.kind, RuleKind::BlockAddr(_) | RuleKind::BlockUser(_)) {
        if !matches!(r.kind, RuleKind::AddressMap(_)) {
            f.push(field("ADDRESS", &r.address, Kind::Text));
        }
        f.push(field("USERSRC", r.usersrc.keyword(), Kind::Word));
        f.push(field("MCAUSER", &r.mcauser, Kind::Text));
    }
    f.push(field("WARN", if r.warn { "YES" } else { "NO" }, Kind::Word));
    f
}

/// DISPLAY CHLAUTH(name) [TYPE()] [MATCH(EXACT|GENERIC|ALL|RUNCHECK) ADDRESS() CLNTUSER()
/// SSLPEER() QMNAME()].
pub(super) fn display_chlauth(qm: &QueueManager, c: &Command) -> Outcome {
    let p = profile(c)?;
    let matching = value(c, "MATCH").unwrap_or_else(|| "GENERIC".into());
    if matching == "RUNCHECK" {
        return runcheck(qm, c, &p);
    }
    let t = value(c, "TYPE");
    let table = qm.chlauth_table();
    let out: Vec<_> = table
        .rules
        .iter()
        .filter(|r| {
            t.as_deref()
                .is_none_or(|t| t == "ALL" || r.kind.keyword() == t)
        })
        .filter(|r| match matching.as_str() {
            "EXACT" => r.profile == p,
            _ => {
                p == "*" || ferry_model::chlauth::profile_matches(&r.profile, &p) || r.profile == p
            }
        })
        .map(|r| {
            object(
                "AMQ8878I",
                "Display channel authentication record details.",
                fields(r),
            )
        })
        .collect();
    if out.is_empty() {
        return reply(
            c,
            vec![info("AMQ8884I", "Channel authentication record not found.")],
        );
    }
    reply(c, out)
}

/// MATCH(RUNCHECK): what would happen to a connection with these particulars, without one.
fn runcheck(qm: &QueueManager, c: &Command, channel: &str) -> Outcome {
    let address =
        value(c, "ADDRESS").ok_or_else(|| fail("AMQ8405E", "MATCH(RUNCHECK) needs ADDRESS"))?;
    let user = value(c, "CLNTUSER").unwrap_or_default();
    let qmname = value(c, "QMNAME");
    let cert = match value(c, "SSLPEER") {
        Some(p) => Some(
            DistinguishedName::parse(&p)
                .map_err(|e| fail("AMQ8405E", format!("SSLPEER('{p}'): {e}")))?,
        ),
        None => None,
    };
    let who = Arrival {
        channel,
        address: &address,
        user: &user,
        cert: cert.as_ref(),
        qmgr: qmname.as_deref(),
    };
    let admin = !user.is_empty() && qm.resolve_principal(&user).admin;
    let admin_of = |u: &str| qm.resolve_principal(u).admin;
    let table = qm.chlauth_table();
    let mut out = Vec::new();
    if let Some(r) = table.mapping(&who) {
        out.push(object(
            "AMQ8878I",
            "Display channel authentication record details.",
            fields(r),
        ));
    }
    out.push(match qm.chlauth_decide(&who, admin, &admin_of) {
        Verdict::Allow {
            mapped: Some(u), ..
        } => info(
            "AMQ9783I",
            format!("Channel will run using MCAUSER('{u}')."),
        ),
        Verdict::Allow { warnings, .. } if !warnings.is_empty() => info(
            "AMQ9787I",
            format!(
                "Channel would be blocked, but the record only warns: {}.",
                warnings.join("; ")
            ),
        ),
        Verdict::Allow { .. } => info(
            "AMQ9783I",
            format!("Channel will run as the connection's own user ('{user}')."),
        ),
        Verdict::Block(why) => info("AMQ9777E", format!("Channel was blocked by {why}.")),
    });
    reply(c, out)
}

/// For DUMP QMGR: every record as the SET CHLAUTH that makes it.
pub(super) fn dump(qm: &QueueManager, lines: &mut Vec<String>) {
    for r in qm.chlauth_table().rules {
        let f = fields(&r);
        lines.push(format!(
            "SET CHLAUTH('{}') {} ACTION(REPLACE)",
            r.profile,
            crate::attrs::as_keywords(&f, &["CHLAUTH"])
        ));
    }
}
