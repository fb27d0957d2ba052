//! Object authority, as MQ's object authority manager (OAM) has it: who may do what to which
//! object.
//!
//! An **authority record** grants a set of [`Authority`] bits to one entity (a principal, that
//! is a user, or a group) on a **profile** of one object type. A profile is an object name or a
//! generic pattern:
//!
//! | character | matches |
//! |---|---|
//! | `?` | one character, not a `.` |
//! | `*` | any characters within one qualifier (the parts between dots) |
//! | `**` | zero or more whole qualifiers |
//!
//! So `APP.*` covers `APP.IN` but not `APP.IN.X`; `APP.**` covers both, and `APP`; `**` covers
//! everything.
//!
//! **Effective authority.** For each entity a connection acts as (its user and each of its
//! groups), the record of the *most specific* profile that matches the object's name counts
//! (a name without wildcards beats any pattern; otherwise, reading left to right, a literal
//! character beats `?`, which beats `*`, which beats `**`). The connection holds the union of
//! what its entities hold. Members of the queue manager's owner group, and its owner, hold
//! everything ([`Principal::admin`]).
//!
//! Plain data: the host resolves users to groups, the queue manager keeps the table and
//! checks it when a handle opens.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::reason::{MqError, MqResult, Reason};

/// A set of authorities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Authority(pub u32);

/// One authority: its bit, its MQSC keyword and what it allows.
struct Named(u32, &'static str);

/// Every single authority, in the order DISPLAY AUTHREC lists them.
const NAMES: &[Named] = &[
    Named(Authority::ALTUSR.0, "ALTUSR"),
    Named(Authority::BROWSE.0, "BROWSE"),
    Named(Authority::CHG.0, "CHG"),
    Named(Authority::CLR.0, "CLR"),
    Named(Authority::CONNECT.0, "CONNECT"),
    Named(Authority::CRT.0, "CRT"),
    Named(Authority::DLT.0, "DLT"),
    Named(Authority::DSP.0, "DSP"),
    Named(Authority::GET.0, "GET"),
    Named(Authority::INQ.0, "INQ"),
    Named(Authority::PUT.0, "PUT"),
    Named(Authority::PASSALL.0, "PASSALL"),
    Named(Authority::PASSID.0, "PASSID"),
    Named(Authority::SET.0, "SET"),
    Named(Authority::SETALL.0, "SETALL"),
    Named(Authority::SETID.0, "SETID"),
    Named(Authority::SUB.0, "SUB"),
    Named(Authority::RESUME.0, "RESUME"),
    Named(Authority::PUB.0, "PUB"),
    Named(Authority::SYSTEM.0, "SYSTEM"),
    Named(Authority::CTRL.0, "CTRL"),
    Named(Authority::CTRLX.0, "CTRLX"),
];

impl Authority {
    /// No authority.
    pub const NONE: Authority = Authority(0);
    /// Open with another user's authority.
    pub const ALTUSR: Authority = Authority(1);
    /// Browse messages.
    pub const BROWSE: Authority = Authority(1 << 1);
    /// Change the object's definition.
    pub const CHG: Authority = Authority(1 << 2);
    /// Clear a queue.
    pub const CLR: Authority = Authority(1 << 3);
    /// Connect to the queue manager.
    pub const CONNECT: Authority = Authority(1 << 4);
    /// Create objects.
    pub const CRT: Authority = Authority(1 << 5);
    /// Delete the object.
    pub const DLT: Authority = Authority(1 << 6);
    /// Display the object's definition and status.
    pub const DSP: Authority = Authority(1 << 7);
    /// Get messages.
    pub const GET: Authority = Authority(1 << 8);
    /// Inquire attributes (MQINQ).
    pub const INQ: Authority = Authority(1 << 9);
    /// Put messages.
    pub const PUT: Authority = Authority(1 << 10);
    /// Pass all context.
    pub const PASSALL: Authority = Authority(1 << 11);
    /// Pass identity context.
    pub const PASSID: Authority = Authority(1 << 12);
    /// Set attributes (MQSET).
    pub const SET: Authority = Authority(1 << 13);
    /// Set all context.
    pub const SETALL: Authority = Authority(1 << 14);
    /// Set identity context.
    pub const SETID: Authority = Authority(1 << 15);
    /// Subscribe to a topic.
    pub const SUB: Authority = Authority(1 << 16);
    /// Resume a subscription.
    pub const RESUME: Authority = Authority(1 << 17);
    /// Publish to a topic.
    pub const PUB: Authority = Authority(1 << 18);
    /// Privileged queue manager operations.
    pub const SYSTEM: Authority = Authority(1 << 19);
    /// Start, stop and ping channels and listeners.
    pub const CTRL: Authority = Authority(1 << 20);
    /// Reset and resolve channels.
    pub const CTRLX: Authority = Authority(1 << 21);
    /// Every administrative authority (ALLADM).
    pub const ALLADM: Authority = Authority(
        Self::CHG.0
            | Self::CLR.0
            | Self::CRT.0
            | Self::DLT.0
            | Self::DSP.0
            | Self::CTRL.0
            | Self::CTRLX.0,
    );
    /// Every MQI authority (ALLMQI).
    pub const ALLMQI: Authority = Authority(
        Self::ALTUSR.0
            | Self::BROWSE.0
            | Self::CONNECT.0
            | Self::GET.0
            | Self::INQ.0
            | Self::PUT.0
            | Self::PASSALL.0
            | Self::PASSID.0
            | Self::SET.0
            | Self::SETALL.0
            | Self::SETID.0
            | Self::SUB.0
            | Self::RESUME.0
            | Self::PUB.0,
    );
    /// Everything (ALL).
    pub const ALL: Authority = Authority(Self::ALLADM.0 | Self::ALLMQI.0 | Self::SYSTEM.0);

    /// Whether every authority of `other` is in `self`.
    pub fn contains(self, other: Authority) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union.
    pub fn with(self, other: Authority) -> Authority {
        Authority(self.0 | other.0)
    }

    /// `self` without `other`.
    pub fn without(self, other: Authority) -> Authority {
        Authority(self.0 & !other.0)
    }

    /// Whether nothing is held.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The authority an MQSC keyword names (single or group: ALL, ALLADM, ALLMQI, NONE).
    pub fn from_keyword(word: &str) -> Option<Authority> {
        let w = word.to_ascii_uppercase();
        match w.as_str() {
            "NONE" => Some(Authority::NONE),
            "ALL" => Some(Authority::ALL),
            "ALLADM" => Some(Authority::ALLADM),
            "ALLMQI" => Some(Authority::ALLMQI),
            _ => NAMES.iter().find(|n| n.1 == w).map(|n| Authority(n.0)),
        }
    }

    /// An AUTHADD or AUTHRMV list for `objtype`: the group keywords (ALL, ALLADM, ALLMQI) stand
    /// for what of them applies to the type; a single authority that does not apply is refused.
    pub fn parse_list<'a>(
        words: impl IntoIterator<Item = &'a str>,
        objtype: AuthObjType,
    ) -> MqResult<Authority> {
        let applicable = objtype.applicable();
        let mut out = Authority::NONE;
        for w in words {
            let a = Authority::from_keyword(w).ok_or_else(|| {
                MqError::new(
                    Reason::AttributeValueError,
                    format!(
                        "'{w}' is not an authority; use one of {}, ALL, ALLADM, ALLMQI or NONE",
                        Authority(u32::MAX)
                    ),
                )
            })?;
            let group = matches!(
                w.to_ascii_uppercase().as_str(),
                "ALL" | "ALLADM" | "ALLMQI" | "NONE"
            );
            if !group && !applicable.contains(a) {
                return Err(MqError::new(
                    Reason::AttributeValueError,
                    format!(
                        "{a} does not apply to OBJTYPE({}); it takes {applicable}",
                        objtype.keyword()
                    ),
                ));
            }
            out = out.with(Authority(a.0 & applicable.0));
        }
        Ok(out)
    }

    /// The keywords of the single authorities held, in MQ's order.
    pub fn keywords(self) -> Vec<&'static str> {
        NAMES
            .iter()
            .filter(|n| self.0 & n.0 != 0)
            .map(|n| n.1)
            .collect()
    }
}

impl fmt::Display for Authority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("NONE");
        }
        f.write_str(&self.keywords().join(","))
    }
}

/// The kind of object an authority record is about (SET AUTHREC's OBJTYPE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AuthObjType {
    /// The queue manager itself.
    QMgr,
    /// Queues of every type.
    Queue,
    /// Topics.
    Topic,
    /// Message channels and server-connection channels.
    Channel,
    /// Client-connection channels.
    ClntConn,
    /// Process definitions.
    Process,
    /// Namelists.
    Namelist,
    /// Authentication information objects.
    AuthInfo,
    /// Listeners.
    Listener,
    /// Services.
    Service,
    /// Communication information objects.
    CommInfo,
    /// Remote queue manager names (for putting to queues at them).
    RqmName,
}

impl AuthObjType {
    /// Every type, in MQ's order.
    pub const ALL: [AuthObjType; 12] = [
        AuthObjType::AuthInfo,
        AuthObjType::Channel,
        AuthObjType::ClntConn,
        AuthObjType::CommInfo,
        AuthObjType::Listener,
        AuthObjType::Namelist,
        AuthObjType::Process,
        AuthObjType::Queue,
        AuthObjType::QMgr,
        AuthObjType::RqmName,
        AuthObjType::Service,
        AuthObjType::Topic,
    ];

    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            AuthObjType::QMgr => "QMGR",
            AuthObjType::Queue => "QUEUE",
            AuthObjType::Topic => "TOPIC",
            AuthObjType::Channel => "CHANNEL",
            AuthObjType::ClntConn => "CLNTCONN",
            AuthObjType::Process => "PROCESS",
            AuthObjType::Namelist => "NAMELIST",
            AuthObjType::AuthInfo => "AUTHINFO",
            AuthObjType::Listener => "LISTENER",
            AuthObjType::Service => "SERVICE",
            AuthObjType::CommInfo => "COMMINFO",
            AuthObjType::RqmName => "RQMNAME",
        }
    }

    /// The type an MQSC keyword names.
    pub fn from_keyword(word: &str) -> Option<AuthObjType> {
        let w = word.to_ascii_uppercase();
        Self::ALL.into_iter().find(|t| t.keyword() == w)
    }

    /// The authorities that mean something for this type.
    pub fn applicable(self) -> Authority {
        use Authority as A;
        let admin = A::CHG.with(A::CRT).with(A::DLT).with(A::DSP);
        match self {
            AuthObjType::QMgr => admin
                .with(A::ALTUSR)
                .with(A::CONNECT)
                .with(A::INQ)
                .with(A::SET)
                .with(A::SETALL)
                .with(A::SETID)
                .with(A::SYSTEM),
            AuthObjType::Queue => admin
                .with(A::BROWSE)
                .with(A::CLR)
                .with(A::GET)
                .with(A::INQ)
                .with(A::PUT)
                .with(A::PASSALL)
                .with(A::PASSID)
                .with(A::SET)
                .with(A::SETALL)
                .with(A::SETID),
            AuthObjType::Topic => admin
                .with(A::CLR)
                .with(A::PUB)
                .with(A::SUB)
                .with(A::RESUME)
                .with(A::PASSALL)
                .with(A::PASSID)
                .with(A::SETALL)
                .with(A::SETID),
            AuthObjType::Channel => admin.with(A::CTRL).with(A::CTRLX),
            AuthObjType::Listener | AuthObjType::Service => admin.with(A::CTRL),
            AuthObjType::Process | AuthObjType::Namelist | AuthObjType::AuthInfo => {
                admin.with(A::INQ)
            }
            AuthObjType::ClntConn | AuthObjType::CommInfo => admin,
            AuthObjType::RqmName => A::PUT,
        }
    }
}

/// Who an authority record is for.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Entity {
    /// One user.
    Principal(String),
    /// Every member of a group.
    Group(String),
}

impl Entity {
    /// As DISPLAY AUTHREC shows it: the name and PRINCIPAL or GROUP.
    pub fn parts(&self) -> (&str, &'static str) {
        match self {
            Entity::Principal(n) => (n, "PRINCIPAL"),
            Entity::Group(n) => (n, "GROUP"),
        }
    }
}

/// Longest profile accepted (MQ's object names are 48 characters; a pattern may be longer).
pub const MAX_PROFILE_LEN: usize = 48;
/// Longest principal or group name.
pub const MAX_ENTITY_LEN: usize = 64;

/// The profile that holds the authority to create objects of a type (MQ's `@class`): CRT is
/// checked here, whatever the new object's name, and nothing else is held here.
pub const CLASS_PROFILE: &str = "@class";

/// Checks a profile: [`CLASS_PROFILE`], or not empty, at most [`MAX_PROFILE_LEN`], only
/// characters object names use plus the wildcards, `**` only as a whole qualifier.
pub fn check_profile(profile: &str) -> MqResult<()> {
    if profile == CLASS_PROFILE {
        return Ok(());
    }
    let bad = |why: String| {
        Err(MqError::new(
            Reason::AttributeValueError,
            format!("profile '{profile}' {why}"),
        ))
    };
    if profile.is_empty() || profile.len() > MAX_PROFILE_LEN {
        return bad(format!("must be 1 to {MAX_PROFILE_LEN} characters"));
    }
    let ok = |c: char| c.is_ascii_alphanumeric() || "._/%?*".contains(c);
    if let Some(c) = profile.chars().find(|c| !ok(*c)) {
        return bad(format!("holds '{c}', which no object name can"));
    }
    for q in profile.split('.') {
        if q.contains("**") && q != "**" {
            return bad("uses ** inside a qualifier; ** stands for whole qualifiers".into());
        }
    }
    Ok(())
}

/// Checks a principal or group name.
pub fn check_entity(name: &str) -> MqResult<()> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "._-@$".contains(c);
    if name.is_empty() || name.len() > MAX_ENTITY_LEN || !name.chars().all(ok) {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!(
                "'{name}' is not a user or group name: 1 to {MAX_ENTITY_LEN} letters, digits or ._-@$"
            ),
        ));
    }
    Ok(())
}

/// Whether `profile` covers the object `name`. [`CLASS_PROFILE`] matches only itself.
pub fn profile_matches(profile: &str, name: &str) -> bool {
    if profile == CLASS_PROFILE || name == CLASS_PROFILE {
        return profile == name;
    }
    let p: Vec<&str> = profile.split('.').collect();
    let n: Vec<&str> = name.split('.').collect();
    qualifiers_match(&p, &n)
}

fn qualifiers_match(p: &[&str], n: &[&str]) -> bool {
    match p.split_first() {
        None => n.is_empty(),
        Some((&"**", rest)) => (0..=n.len()).any(|skip| qualifiers_match(rest, &n[skip..])),
        Some((first, rest)) => match n.split_first() {
            Some((nf, nrest)) => {
                glob(first.as_bytes(), nf.as_bytes()) && qualifiers_match(rest, nrest)
            }
            None => false,
        },
    }
}

/// `*` and `?` within one qualifier.
fn glob(p: &[u8], n: &[u8]) -> bool {
    match p.split_first() {
        None => n.is_empty(),
        Some((b'*', rest)) => (0..=n.len()).any(|skip| glob(rest, &n[skip..])),
        Some((b'?', rest)) => !n.is_empty() && glob(rest, &n[1..]),
        Some((c, rest)) => n.first() == Some(c) && glob(rest, &n[1..]),
    }
}

/// A profile's specificity, compared left to right: lower is more specific (a literal is 0,
/// `?` 1, `*` 2, `**` 3). A name without wildcards sorts before every pattern.
fn specificity(profile: &str) -> (bool, Vec<u8>) {
    let b = profile.as_bytes();
    let mut ranks = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let (rank, width) = match (b[i], b.get(i + 1)) {
            (b'*', Some(b'*')) => (3, 2),
            (b'*', _) => (2, 1),
            (b'?', _) => (1, 1),
            _ => (0, 1),
        };
        ranks.push(rank);
        i += width;
    }
    (ranks.iter().any(|r| *r > 0), ranks)
}

/// Who a connection acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user.
    pub user: String,
    /// The groups it belongs to.
    pub groups: Vec<String>,
    /// The queue manager's owner, or a member of its owner group: holds every authority.
    pub admin: bool,
}

impl Principal {
    /// The queue manager's own identity (embedded callers, its channels, its command server).
    pub fn owner(user: &str) -> Principal {
        Principal {
            user: user.to_owned(),
            groups: Vec::new(),
            admin: true,
        }
    }

    /// An ordinary user with its groups.
    pub fn user(user: &str, groups: Vec<String>) -> Principal {
        Principal {
            user: user.to_owned(),
            groups,
            admin: false,
        }
    }
}

/// One record as SET AUTHREC makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthRec {
    /// The object name or generic profile.
    pub profile: String,
    /// The kind of object.
    pub objtype: AuthObjType,
    /// Who it is for.
    pub entity: Entity,
    /// What it grants.
    pub auth: Authority,
}

/// Every authority record of a queue manager.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthTable {
    /// The records (kept in one list; a queue manager has hundreds, not millions).
    #[serde(default)]
    pub records: Vec<AuthRec>,
}

impl AuthTable {
    /// SET AUTHREC: adds `add` then removes `remove` on the record for (profile, type,
    /// entity), creating it if need be. A record left with nothing is kept (it still says
    /// "nothing" for this profile, hiding a less specific one), as MQ does.
    pub fn set(
        &mut self,
        profile: &str,
        objtype: AuthObjType,
        entity: &Entity,
        add: Authority,
        remove: Authority,
    ) -> MqResult<Authority> {
        check_profile(profile)?;
        let (Entity::Principal(n) | Entity::Group(n)) = entity;
        check_entity(n)?;
        // Creating is the class profile's, and only that.
        let applicable = if profile == CLASS_PROFILE {
            Authority(objtype.applicable().0 & Authority::CRT.0)
        } else {
            objtype.applicable().without(Authority::CRT)
        };
        let pos = self.position(profile, objtype, entity);
        let rec = match pos {
            Some(i) => &mut self.records[i],
            None => {
                self.records.push(AuthRec {
                    profile: profile.to_owned(),
                    objtype,
                    entity: entity.clone(),
                    auth: Authority::NONE,
                });
                self.records.last_mut().expect("just pushed")
            }
        };
        rec.auth = Authority(rec.auth.with(add).without(remove).0 & applicable.0);
        Ok(rec.auth)
    }

    /// DELETE AUTHREC: removes the record; whether there was one.
    pub fn delete(&mut self, profile: &str, objtype: AuthObjType, entity: &Entity) -> bool {
        match self.position(profile, objtype, entity) {
            Some(i) => {
                self.records.remove(i);
                true
            }
            None => false,
        }
    }

    fn position(&self, profile: &str, objtype: AuthObjType, entity: &Entity) -> Option<usize> {
        self.records
            .iter()
            .position(|r| r.objtype == objtype && r.profile == profile && &r.entity == entity)
    }

    /// What `who` may do to the object `name` of type `objtype`.
    pub fn effective(&self, objtype: AuthObjType, name: &str, who: &Principal) -> Authority {
        if who.admin {
            return objtype.applicable();
        }
        let mut held = self.for_entity(objtype, name, &Entity::Principal(who.user.clone()));
        for g in &who.groups {
            held = held.with(self.for_entity(objtype, name, &Entity::Group(g.clone())));
        }
        held
    }

    /// The authority of the most specific matching profile that has a record for `entity`.
    fn for_entity(&self, objtype: AuthObjType, name: &str, entity: &Entity) -> Authority {
        self.records
            .iter()
            .filter(|r| r.objtype == objtype && &r.entity == entity)
            .filter(|r| profile_matches(&r.profile, name))
            .min_by(|a, b| specificity(&a.profile).cmp(&specificity(&b.profile)))
            .map_or(Authority::NONE, |r| r.auth)
    }

    /// The records DISPLAY AUTHREC shows: of `objtype` if given, for `entity` if given (a
    /// group filter also matches nothing but groups), whose profile is `profile` exactly or, with
    /// `matching`, whose profile covers the object named `profile`.
    pub fn select(
        &self,
        objtype: Option<AuthObjType>,
        profile: Option<&str>,
        matching: bool,
        entity: Option<&Entity>,
    ) -> Vec<&AuthRec> {
        let mut out: Vec<&AuthRec> = self
            .records
            .iter()
            .filter(|r| objtype.is_none_or(|t| r.objtype == t))
            .filter(|r| entity.is_none_or(|e| &r.entity == e))
            .filter(|r| match profile {
                None => true,
                Some(p) if matching => profile_matches(&r.profile, p),
                Some(p) => r.profile == p,
            })
            .collect();
        out.sort_by(|a, b| {
            (a.objtype, &a.profile, &a.entity).cmp(&(b.objtype, &b.profile, &b.entity))
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_profiles_match_as_mq_documents() {
        assert!(profile_matches("APP.IN", "APP.IN"));
        assert!(!profile_matches("APP.IN", "APP.INX"));
        assert!(profile_matches("APP.*", "APP.IN"));
        assert!(!profile_matches("APP.*", "APP.IN.X"));
        assert!(profile_matches("APP.**", "APP.IN.X"));
        assert!(profile_matches("APP.**", "APP"));
        assert!(profile_matches("AB.**.ZZ", "AB.ZZ"));
        assert!(profile_matches("AB.**.ZZ", "AB.C.D.ZZ"));
        assert!(!profile_matches("AB.**.ZZ", "AB.C.D"));
        assert!(profile_matches("AB.?D", "AB.CD"));
        assert!(!profile_matches("AB.?D", "AB.CCD"));
        assert!(profile_matches("**", "SYSTEM.DEFAULT.LOCAL.QUEUE"));
        assert!(profile_matches("A*B", "AB"));
        assert!(profile_matches("A*B", "AXYZB"));
        assert!(!profile_matches("A?", "A."));
    }

    #[test]
    fn the_most_specific_profile_of_an_entity_wins_and_entities_add_up() {
        let mut t = AuthTable::default();
        let alice = Entity::Principal("alice".into());
        let apps = Entity::Group("apps".into());
        t.set(
            "APP.**",
            AuthObjType::Queue,
            &alice,
            Authority::ALLMQI,
            Authority::NONE,
        )
        .unwrap();
        t.set(
            "APP.SECRET",
            AuthObjType::Queue,
            &alice,
            Authority::INQ,
            Authority::NONE,
        )
        .unwrap();
        t.set(
            "APP.*",
            AuthObjType::Queue,
            &apps,
            Authority::BROWSE,
            Authority::NONE,
        )
        .unwrap();
        let who = Principal::user("alice", vec!["apps".into()]);
        let q = AuthObjType::Queue;
        assert!(t.effective(q, "APP.IN", &who).contains(Authority::GET));
        // The specific record hides the generic one for alice; the group still adds browse.
        let secret = t.effective(q, "APP.SECRET", &who);
        assert_eq!(secret, Authority::INQ.with(Authority::BROWSE));
        assert!(t.effective(q, "OTHER", &who).is_empty());
        assert!(t.effective(AuthObjType::QMgr, "QM1", &who).is_empty());
        assert!(Principal::owner("mqm").admin);
        assert!(t
            .effective(q, "ANY", &Principal::owner("mqm"))
            .contains(Authority::PUT));
    }

    #[test]
    fn specificity_reads_left_to_right() {
        let mut v = vec!["**", "A.*", "A.?", "A.B", "A.**"];
        v.sort_by_key(|p| specificity(p));
        assert_eq!(v, ["A.B", "A.?", "A.*", "A.**", "**"]);
    }

    #[test]
    fn records_take_only_what_applies_and_say_what_does() {
        let mut t = AuthTable::default();
        let g = Entity::Group("ops".into());
        let e = Authority::parse_list(["GET"], AuthObjType::QMgr).unwrap_err();
        assert!(
            e.detail.contains("GET does not apply to OBJTYPE(QMGR)"),
            "{e}"
        );
        let held = t
            .set(
                "QM1",
                AuthObjType::QMgr,
                &g,
                Authority::ALL,
                Authority::NONE,
            )
            .unwrap();
        assert!(held.contains(Authority::CONNECT) && !held.contains(Authority::GET));
        let held = t
            .set(
                "QM1",
                AuthObjType::QMgr,
                &g,
                Authority::NONE,
                Authority::ALLADM,
            )
            .unwrap();
        assert!(!held.contains(Authority::CHG) && held.contains(Authority::CONNECT));
        assert!(t.delete("QM1", AuthObjType::QMgr, &g));
        assert!(!t.delete("QM1", AuthObjType::QMgr, &g));
        assert!(check_profile("A.B**").is_err());
        assert!(check_profile("A B").is_err());
        assert!(check_entity("bad name").is_err());
        assert_eq!(Authority::from_keyword("put"), Some(Authority::PUT));
        let mqi = Authority::parse_list(["ALLMQI", "dsp"], AuthObjType::Queue).unwrap();
        assert!(
            mqi.contains(Authority::GET.with(Authority::DSP)) && !mqi.contains(Authority::CONNECT)
        );
        assert!(Authority::parse_list(["PUTT"], AuthObjType::Queue).is_err());
        assert_eq!(Authority::PUT.with(Authority::GET).to_string(), "GET,PUT");
    }
}
