//! Channel authentication records (MQ's CHLAUTH): who may come in over which channel, and as
//! whom, decided before anything else about the connection.
//!
//! A record belongs to a channel **profile** (a name, or a pattern with `*` standing for any
//! characters). For a connection on channel C:
//!
//! 1. **BLOCKADDR** (profile `*` only): an address on its list is turned away at once.
//! 2. Among the profiles matching C, the most specific (a name before any pattern; then the
//!    one with most characters before its first `*`) that holds a mapping rule decides: of its
//!    rules that match, an **SSLPEERMAP** (the partner's certificate), then a **USERMAP**
//!    (client's asserted user) or **QMGRMAP** (partner queue manager), then an **ADDRESSMAP**.
//!    The rule's USERSRC says MAP (the connection runs as its MCAUSER), NOACCESS (refused) or
//!    CHANNEL (as it came).
//! 3. **BLOCKUSER** of the most specific matching profile that has one: the user the
//!    connection ends up as is refused if listed (`*MQADMIN` stands for every administrator).
//!
//! A record with WARN(YES) that would refuse only says so in the log. Plain data: the server
//! applies the decision.

use serde::{Deserialize, Serialize};

use crate::dn::{wildcard_match, DistinguishedName};
use crate::reason::{MqError, MqResult, Reason};

/// Where a mapped connection's user comes from (USERSRC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UserSrc {
    /// MAP: it runs as the record's MCAUSER.
    Map,
    /// NOACCESS: it is refused.
    NoAccess,
    /// CHANNEL: it runs as it came (the channel's MCAUSER, or the flowed user).
    Channel,
}

impl UserSrc {
    /// The MQSC keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            UserSrc::Map => "MAP",
            UserSrc::NoAccess => "NOACCESS",
            UserSrc::Channel => "CHANNEL",
        }
    }
}

/// What a record matches and does (TYPE and its attributes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleKind {
    /// BLOCKADDR: ADDRLIST.
    BlockAddr(Vec<String>),
    /// BLOCKUSER: USERLIST.
    BlockUser(Vec<String>),
    /// ADDRESSMAP: ADDRESS.
    AddressMap(String),
    /// USERMAP: CLNTUSER.
    UserMap(String),
    /// SSLPEERMAP: SSLPEER.
    SslPeerMap(String),
    /// QMGRMAP: QMNAME.
    QmgrMap(String),
}

impl RuleKind {
    /// The TYPE keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            RuleKind::BlockAddr(_) => "BLOCKADDR",
            RuleKind::BlockUser(_) => "BLOCKUSER",
            RuleKind::AddressMap(_) => "ADDRESSMAP",
            RuleKind::UserMap(_) => "USERMAP",
            RuleKind::SslPeerMap(_) => "SSLPEERMAP",
            RuleKind::QmgrMap(_) => "QMGRMAP",
        }
    }

    /// The order mapping rules are tried in (lower first); `None` for the block lists.
    fn map_rank(&self) -> Option<u8> {
        match self {
            RuleKind::SslPeerMap(_) => Some(0),
            RuleKind::UserMap(_) | RuleKind::QmgrMap(_) => Some(1),
            RuleKind::AddressMap(_) => Some(2),
            RuleKind::BlockAddr(_) | RuleKind::BlockUser(_) => None,
        }
    }
}

/// One channel authentication record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChlAuthRule {
    /// The channel profile.
    pub profile: String,
    /// What it matches.
    pub kind: RuleKind,
    /// ADDRESS, narrowing a USERMAP, SSLPEERMAP or QMGRMAP (blank: any).
    pub address: String,
    /// USERSRC (mapping rules).
    pub usersrc: UserSrc,
    /// MCAUSER for USERSRC(MAP).
    pub mcauser: String,
    /// WARN: log instead of refusing.
    pub warn: bool,
    /// DESCR.
    pub description: String,
}

impl ChlAuthRule {
    /// The value the rule is keyed by besides its profile and type (the address, user, DN or
    /// queue manager it maps; blank for the block lists, one per profile).
    pub fn key(&self) -> &str {
        match &self.kind {
            RuleKind::AddressMap(a)
            | RuleKind::UserMap(a)
            | RuleKind::SslPeerMap(a)
            | RuleKind::QmgrMap(a) => a,
            RuleKind::BlockAddr(_) | RuleKind::BlockUser(_) => "",
        }
    }
}

/// What is known of a connection when CHLAUTH decides.
#[derive(Debug, Clone, Default)]
pub struct Arrival<'a> {
    /// The channel name (client connections: their server-connection channel).
    pub channel: &'a str,
    /// The partner's IP address, as text.
    pub address: &'a str,
    /// The user it asserted or proved.
    pub user: &'a str,
    /// Its certificate's subject, if it presented one.
    pub cert: Option<&'a DistinguishedName>,
    /// The partner queue manager's name (message channels).
    pub qmgr: Option<&'a str>,
}

/// CHLAUTH's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Let it in, as `user` if mapped.
    Allow {
        /// The MCAUSER a MAP rule gave, if one did.
        mapped: Option<String>,
        /// The records that would have refused it but only warn.
        warnings: Vec<String>,
    },
    /// Refuse it, because of this record (described for the log).
    Block(String),
}

/// Whether a channel profile covers `name` (`*` any characters).
pub fn profile_matches(profile: &str, name: &str) -> bool {
    wildcard_match(profile, name)
}

/// A profile's specificity: a name beats any pattern; then more characters before the first
/// `*`; then fewer `*`.
fn specificity(profile: &str) -> (bool, usize, usize) {
    let stars = profile.matches('*').count();
    let prefix = profile.find('*').unwrap_or(profile.len());
    (stars == 0, prefix, usize::MAX - stars)
}

/// Whether `pattern` covers the IPv4 or IPv6 address `addr`: `*` for any, `*` wildcards
/// within it (`192.168.*`), or a range in its last part (`10.0.0.1-50`).
pub fn address_matches(pattern: &str, addr: &str) -> bool {
    if pattern.is_empty() || pattern == "*" {
        return true;
    }
    if let Some((head, range)) = pattern.rsplit_once('.') {
        if let Some((lo, hi)) = range.split_once('-') {
            let (Ok(lo), Ok(hi)) = (lo.parse::<u32>(), hi.parse::<u32>()) else {
                return false;
            };
            return match addr.rsplit_once('.') {
                Some((ah, last)) => {
                    wildcard_match(head, ah)
                        && last.parse::<u32>().is_ok_and(|v| v >= lo && v <= hi)
                }
                None => false,
            };
        }
    }
    wildcard_match(pattern, addr)
}

/// Whether a USERLIST entry covers `user` (`*MQADMIN`: administrators).
fn user_listed(entry: &str, user: &str, admin: bool) -> bool {
    if entry.eq_ignore_ascii_case("*MQADMIN") {
        return admin;
    }
    entry == user
}

/// Every channel authentication record of a queue manager.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChlAuthTable {
    /// The records.
    #[serde(default)]
    pub rules: Vec<ChlAuthRule>,
}

impl ChlAuthTable {
    /// The back-stop records MQ ships on a new queue manager: no client connection as an
    /// administrator, no access over SYSTEM.* channels (but SYSTEM.ADMIN.SVRCONN, which
    /// keeps its own checks).
    pub fn backstop() -> ChlAuthTable {
        let map = |profile: &str, usersrc: UserSrc, descr: &str| ChlAuthRule {
            profile: profile.into(),
            kind: RuleKind::AddressMap("*".into()),
            address: String::new(),
            usersrc,
            mcauser: String::new(),
            warn: false,
            description: descr.into(),
        };
        ChlAuthTable {
            rules: vec![
                map(
                    "SYSTEM.ADMIN.SVRCONN",
                    UserSrc::Channel,
                    "Default rule to allow MQ Explorer access",
                ),
                map(
                    "SYSTEM.*",
                    UserSrc::NoAccess,
                    "Default rule to disable all SYSTEM channels",
                ),
                ChlAuthRule {
                    profile: "*".into(),
                    kind: RuleKind::BlockUser(vec!["*MQADMIN".into()]),
                    address: String::new(),
                    usersrc: UserSrc::Channel,
                    mcauser: String::new(),
                    warn: false,
                    description: "Default rule to disallow privileged users".into(),
                },
            ],
        }
    }

    /// SET CHLAUTH ACTION(ADD|REPLACE): adds or replaces the record with the same profile,
    /// type and key.
    pub fn set(&mut self, rule: ChlAuthRule) -> MqResult<()> {
        if matches!(rule.kind, RuleKind::BlockAddr(_)) && rule.profile != "*" {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "TYPE(BLOCKADDR) applies to every channel: its profile must be '*'",
            ));
        }
        if rule.usersrc == UserSrc::Map
            && rule.mcauser.trim().is_empty()
            && rule.kind.map_rank().is_some()
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "USERSRC(MAP) needs MCAUSER: the user the connection runs as",
            ));
        }
        match self.position(&rule.profile, rule.kind.keyword(), rule.key()) {
            Some(i) => self.rules[i] = rule,
            None => self.rules.push(rule),
        }
        Ok(())
    }

    /// SET CHLAUTH ACTION(REMOVE): whether there was such a record.
    pub fn remove(&mut self, profile: &str, kind: &str, key: &str) -> bool {
        match self.position(profile, kind, key) {
            Some(i) => {
                self.rules.remove(i);
                true
            }
            None => false,
        }
    }

    /// SET CHLAUTH ACTION(REMOVEALL): removes every record of `profile` and `kind`; how many.
    pub fn remove_all(&mut self, profile: &str, kind: &str) -> usize {
        let before = self.rules.len();
        self.rules
            .retain(|r| !(r.profile == profile && r.kind.keyword() == kind));
        before - self.rules.len()
    }

    fn position(&self, profile: &str, kind: &str, key: &str) -> Option<usize> {
        self.rules
            .iter()
            .position(|r| r.profile == profile && r.kind.keyword() == kind && r.key() == key)
    }

    /// What CHLAUTH says of `who` arriving, `admin` saying whether the user it would run as
    /// administers the queue manager (`admin_of` answers it for a mapped user).
    pub fn decide(
        &self,
        who: &Arrival<'_>,
        admin: bool,
        admin_of: &dyn Fn(&str) -> bool,
    ) -> Verdict {
        let mut warnings = Vec::new();
        if let Some(r) = self.blocked_address(who.address) {
            match r.warn {
                true => warnings.push(describe(r)),
                false => return Verdict::Block(describe(r)),
            }
        }
        let mut mapped = None;
        let mut is_admin = admin;
        if let Some(r) = self.mapping(who) {
            match r.usersrc {
                UserSrc::NoAccess if r.warn => warnings.push(describe(r)),
                UserSrc::NoAccess => return Verdict::Block(describe(r)),
                UserSrc::Map => {
                    is_admin = admin_of(&r.mcauser);
                    mapped = Some(r.mcauser.clone());
                }
                UserSrc::Channel => {}
            }
        }
        let user = mapped.as_deref().unwrap_or(who.user);
        if let Some(r) = self.blocked_user(who.channel, user, is_admin) {
            match r.warn {
                true => warnings.push(describe(r)),
                false => return Verdict::Block(describe(r)),
            }
        }
        Verdict::Allow { mapped, warnings }
    }

    /// The BLOCKADDR record whose list holds `address`, if any.
    pub fn blocked_address(&self, address: &str) -> Option<&ChlAuthRule> {
        self.rules.iter().find(|r| match &r.kind {
            RuleKind::BlockAddr(list) => list.iter().any(|p| address_matches(p, address)),
            _ => false,
        })
    }

    /// The most specific profile matching the channel with a mapping rule, and its rule that
    /// matches (in SSLPEERMAP, USERMAP/QMGRMAP, ADDRESSMAP order, the most specific key first).
    pub fn mapping(&self, who: &Arrival<'_>) -> Option<&ChlAuthRule> {
        let profile = self.best_profile(who.channel, |r| r.kind.map_rank().is_some())?;
        self.rules
            .iter()
            .filter(|r| r.profile == profile && rule_matches(r, who))
            .min_by_key(|r| (r.kind.map_rank(), usize::MAX - literal_len(r.key())))
    }

    fn blocked_user(&self, channel: &str, user: &str, admin: bool) -> Option<&ChlAuthRule> {
        let profile = self.best_profile(channel, |r| matches!(r.kind, RuleKind::BlockUser(_)))?;
        self.rules.iter().find(|r| {
            r.profile == profile
                && matches!(&r.kind, RuleKind::BlockUser(list) if list.iter().any(|u| user_listed(u, user, admin)))
        })
    }

    fn best_profile(&self, channel: &str, kind: impl Fn(&ChlAuthRule) -> bool) -> Option<&str> {
        self.rules
            .iter()
            .filter(|r| kind(r) && profile_matches(&r.profile, channel))
            .map(|r| r.profile.as_str())
            .max_by_key(|p| specificity(p))
    }
}

fn literal_len(s: &str) -> usize {
    s.chars().filter(|c| *c != '*').count()
}

/// Whether a mapping rule matches the arrival.
fn rule_matches(r: &ChlAuthRule, who: &Arrival<'_>) -> bool {
    if !r.address.is_empty() && !address_matches(&r.address, who.address) {
        return false;
    }
    match &r.kind {
        RuleKind::AddressMap(a) => address_matches(a, who.address),
        RuleKind::UserMap(u) => u == who.user,
        RuleKind::QmgrMap(q) => who.qmgr.is_some_and(|n| wildcard_match(q, n)),
        RuleKind::SslPeerMap(p) => match (DistinguishedName::parse(p), who.cert) {
            (Ok(pattern), Some(dn)) => dn.matches(&pattern),
            _ => false,
        },
        RuleKind::BlockAddr(_) | RuleKind::BlockUser(_) => false,
    }
}

/// A record as the log and refusals name it.
pub fn describe(r: &ChlAuthRule) -> String {
    let what = match &r.kind {
        RuleKind::BlockAddr(l) => format!("ADDRLIST({})", l.join(",")),
        RuleKind::BlockUser(l) => format!("USERLIST({})", l.join(",")),
        RuleKind::AddressMap(a) => format!("ADDRESS('{a}') USERSRC({})", r.usersrc.keyword()),
        RuleKind::UserMap(u) => format!("CLNTUSER('{u}') USERSRC({})", r.usersrc.keyword()),
        RuleKind::SslPeerMap(p) => format!("SSLPEER('{p}') USERSRC({})", r.usersrc.keyword()),
        RuleKind::QmgrMap(q) => format!("QMNAME('{q}') USERSRC({})", r.usersrc.keyword()),
    };
    format!("CHLAUTH('{}') TYPE({}) {what}", r.profile, r.kind.keyword())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival<'a>(channel: &'a str, address: &'a str, user: &'a str) -> Arrival<'a> {
        Arrival {
            channel,
            address,
            user,
            ..Default::default()
        }
    }

    fn never_admin(_: &str) -> bool {
        false
    }

    #[test]
    fn the_backstop_blocks_administrators_and_system_channels() {
        let t = ChlAuthTable::backstop();
        let app = arrival("APP.SVRCONN", "10.0.0.7", "alice");
        assert!(matches!(
            t.decide(&app, false, &never_admin),
            Verdict::Allow { .. }
        ));
        assert!(
            matches!(t.decide(&app, true, &never_admin), Verdict::Block(w) if w.contains("*MQADMIN"))
        );
        let sys = arrival("SYSTEM.DEF.SVRCONN", "10.0.0.7", "alice");
        assert!(
            matches!(t.decide(&sys, false, &never_admin), Verdict::Block(w) if w.contains("NOACCESS"))
        );
        let explorer = arrival("SYSTEM.ADMIN.SVRCONN", "10.0.0.7", "alice");
        assert!(matches!(
            t.decide(&explorer, false, &never_admin),
            Verdict::Allow { .. }
        ));
    }

    #[test]
    fn addresses_ranges_and_maps() {
        assert!(address_matches("10.0.0.1-50", "10.0.0.42"));
        assert!(!address_matches("10.0.0.1-50", "10.0.0.51"));
        assert!(address_matches("192.168.*", "192.168.3.4"));
        assert!(!address_matches("192.168.*", "10.168.3.4"));
        let mut t = ChlAuthTable::default();
        let rule = |kind, usersrc, mcauser: &str| ChlAuthRule {
            profile: "APP.*".into(),
            kind,
            address: String::new(),
            usersrc,
            mcauser: mcauser.into(),
            warn: false,
            description: String::new(),
        };
        t.set(rule(
            RuleKind::AddressMap("*".into()),
            UserSrc::NoAccess,
            "",
        ))
        .unwrap();
        t.set(rule(
            RuleKind::AddressMap("10.1.*".into()),
            UserSrc::Map,
            "appuser",
        ))
        .unwrap();
        t.set(rule(
            RuleKind::UserMap("bob".into()),
            UserSrc::Map,
            "bobapp",
        ))
        .unwrap();
        let v = t.decide(&arrival("APP.IN", "10.1.2.3", "x"), false, &never_admin);
        assert_eq!(
            v,
            Verdict::Allow {
                mapped: Some("appuser".into()),
                warnings: vec![]
            }
        );
        let v = t.decide(&arrival("APP.IN", "10.1.2.3", "bob"), false, &never_admin);
        assert_eq!(
            v,
            Verdict::Allow {
                mapped: Some("bobapp".into()),
                warnings: vec![]
            }
        );
        assert!(matches!(
            t.decide(&arrival("APP.IN", "172.16.0.1", "x"), false, &never_admin),
            Verdict::Block(_)
        ));
        // Not this profile: no rule applies.
        assert!(matches!(
            t.decide(&arrival("OTHER", "172.16.0.1", "x"), false, &never_admin),
            Verdict::Allow { .. }
        ));
        // WARN only warns.
        let mut w = rule(RuleKind::AddressMap("*".into()), UserSrc::NoAccess, "");
        w.warn = true;
        t.set(w).unwrap();
        assert!(
            matches!(t.decide(&arrival("APP.IN", "172.16.0.1", "x"), false, &never_admin), Verdict::Allow { warnings, .. } if warnings.len() == 1)
        );
        assert!(t
            .set(rule(
                RuleKind::BlockAddr(vec!["1.2.3.4".into()]),
                UserSrc::Channel,
                ""
            ))
            .is_err());
    }
}
