//! Object authority (MQ's OAM) inside the queue manager: the table of authority records, kept
//! in the recovery log like any definition, and the checks the MQI verbs and the command
//! server make against it.
//!
//! Owns: the records (`ferry_model::security::AuthTable`, one OBJECT record `AUTHRECS` in the
//! log and in each checkpoint), and a generation number that every change (and REFRESH
//! SECURITY) moves on. Sessions cache what they computed per object and drop the cache when
//! the generation moves, so a connection that opens the same queue a million times (MQPUT1
//! in a request/reply loop) pays one table walk, and an open handle keeps what it was granted
//! at open, as in MQ.
//!
//! Who a connection is ([`Principal`]: its user, its groups, whether it is the queue manager's
//! owner) is settled by whoever connects it: the server from the socket's peer credentials or
//! a verified password, embedded callers as the owner.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::RwLock;

use ferry_model::chlauth::{Arrival, ChlAuthRule, ChlAuthTable, Verdict};
use ferry_model::name::ObjectName;
use ferry_model::objects::{AuthInfoAttrs, AuthType};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::security::{AuthObjType, AuthRec, AuthTable, Authority, Entity, Principal};
use ferry_model::system;

use crate::qmgr::catalog::ObjectKind;
use crate::qmgr::QueueManager;

/// The name of the log record holding the authority records.
const AUTHRECS: &str = "AUTHRECS";

/// The queue manager's security state.
pub struct Security {
    records: RwLock<AuthTable>,
    generation: AtomicU64,
    /// Authentication information objects (DEFINE AUTHINFO), by name.
    authinfos: RwLock<BTreeMap<ObjectName, AuthInfoAttrs>>,
    /// How the host turns a user name into a principal with its groups.
    resolver: std::sync::OnceLock<Resolver>,
    /// Channel authentication records (a new queue manager's: MQ's back-stop).
    chlauth: RwLock<ChlAuthTable>,
    /// Refusals counted for the metrics endpoint.
    counters: SecurityCounters,
    /// The allowance of refusal lines in the log.
    log: LogLimit,
}

/// Refusals since the queue manager started.
#[derive(Debug, Default)]
pub struct SecurityCounters {
    /// NOT_AUTHORIZED for a connect, open or command (an authority record was missing).
    pub authority_failures: AtomicU64,
    /// Connections refused because they could not prove who they are.
    pub authentication_failures: AtomicU64,
    /// Channel starts refused (partner not authenticated, or not the one defined).
    pub channel_refusals: AtomicU64,
    /// Sockets refused a connection slot (the pool, the address's unopened sockets, or the
    /// password checks waiting were full).
    pub slot_refusals: AtomicU64,
}

/// Turns a user name into who it is here: its groups, whether it administers the queue
/// manager. Installed by the host, which knows the machine's accounts and the user file.
pub type Resolver = Box<dyn Fn(&str) -> Principal + Send + Sync>;

impl std::fmt::Debug for Security {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Security")
            .field("records", &self.records.read().records.len())
            .field("generation", &self.generation)
            .finish()
    }
}

impl Default for Security {
    /// No records; the two system AUTHINFO objects with their defaults.
    fn default() -> Self {
        let system = [
            (system::AUTHINFO_IDPWOS, AuthType::IdpwOs),
            (system::AUTHINFO_IDPWFILE, AuthType::IdpwFile),
        ];
        let authinfos = system
            .into_iter()
            .map(|(n, t)| {
                (
                    ObjectName::new(n).expect("a valid name"),
                    AuthInfoAttrs::new(t),
                )
            })
            .collect();
        Security {
            records: RwLock::default(),
            generation: AtomicU64::new(0),
            authinfos: RwLock::new(authinfos),
            resolver: std::sync::OnceLock::new(),
            chlauth: RwLock::new(ChlAuthTable::backstop()),
            counters: SecurityCounters::default(),
            log: LogLimit::default(),
        }
    }
}

/// The answer when `who` lacks `needed` on an object.
pub fn not_authorized(
    who: &Principal,
    objtype: AuthObjType,
    name: &str,
    needed: Authority,
) -> MqError {
    MqError::new(
        Reason::NotAuthorized,
        format!(
            "user {} is not authorized: it needs {needed} authority on {}({name}); an administrator can grant it with SET AUTHREC",
            who.user,
            objtype.keyword()
        ),
    )
}

impl QueueManager {
    /// What `who` may do to the object `name` of type `objtype`.
    pub fn authority(&self, objtype: AuthObjType, name: &str, who: &Principal) -> Authority {
        if who.admin {
            return objtype.applicable();
        }
        self.shared
            .security
            .records
            .read()
            .effective(objtype, name, who)
    }

    /// NOT_AUTHORIZED unless `who` holds all of `needed` on the object.
    pub fn check_authority(
        &self,
        who: &Principal,
        objtype: AuthObjType,
        name: &str,
        needed: Authority,
    ) -> MqResult<()> {
        let held = self.authority(objtype, name, who);
        if held.contains(needed) {
            return Ok(());
        }
        let e = not_authorized(who, objtype, name, needed.without(held));
        let qualifier = if needed == Authority::CONNECT {
            ferry_model::pcf::RQ_CONN_NOT_AUTHORIZED
        } else {
            ferry_model::pcf::RQ_CMD_NOT_AUTHORIZED
        };
        self.note_authority_failure(who, "-", &e, qualifier, name);
        Err(e)
    }

    /// Refusals counted since start.
    pub fn security_counters(&self) -> &SecurityCounters {
        &self.shared.security.counters
    }

    /// Counts an authority failure, logs it within the log's allowance (who, on connection
    /// `conn`, lacked what on which object) and raises its authority event (`qualifier`:
    /// MQRQ_CONN/OPEN/CMD_NOT_AUTHORIZED, on `object`).
    pub fn note_authority_failure(
        &self,
        who: &Principal,
        conn: &str,
        e: &MqError,
        qualifier: i32,
        object: &str,
    ) {
        self.authority_event(who, qualifier, object);
        self.shared
            .security
            .counters
            .authority_failures
            .fetch_add(1, Ordering::Relaxed);
        if let Some(left_out) = self.security_log() {
            tracing::warn!(user = %who.user, connection = conn, left_out, reason = %e.detail, "not authorized");
        }
    }

    /// Whether a security refusal may be logged now: `Some(lines left out since the last)`.
    pub fn security_log(&self) -> Option<u64> {
        self.shared.security.log.admit()
    }

    /// Installs how user names become principals (the first call wins).
    pub fn set_principal_resolver(&self, r: Resolver) {
        let _ = self.shared.security.resolver.set(r);
    }

    /// Who the user `name` is here: through the host's resolver, or, without one, a user in
    /// no group.
    pub fn resolve_principal(&self, name: &str) -> Principal {
        match self.shared.security.resolver.get() {
            Some(r) => r(name),
            None => Principal::user(name, Vec::new()),
        }
    }

    /// The security generation: moves on with every change to the records and with
    /// [`QueueManager::refresh_security`].
    pub fn security_generation(&self) -> u64 {
        self.shared.security.generation.load(Ordering::Acquire)
    }

    /// REFRESH SECURITY: every connection recomputes its cached authorities at its next open
    /// (handles already open keep theirs, as in MQ).
    pub fn refresh_security(&self) {
        self.shared
            .security
            .generation
            .fetch_add(1, Ordering::AcqRel);
    }

    /// SET AUTHREC: adds then removes authorities on a record, durably. Returns what the record
    /// now grants.
    pub fn set_authrec(
        &self,
        profile: &str,
        objtype: AuthObjType,
        entity: &Entity,
        add: Authority,
        remove: Authority,
    ) -> MqResult<Authority> {
        let _gate = self.durability().map(|d| d.gate());
        let (held, table) = {
            let mut t = self.shared.security.records.write();
            let held = t.set(profile, objtype, entity, add, remove)?;
            (held, t.clone())
        };
        self.refresh_security();
        self.log_authrecs(&table)?;
        Ok(held)
    }

    /// DELETE AUTHREC: removes a record, durably; UNKNOWN_OBJECT_NAME if there was none.
    pub fn delete_authrec(
        &self,
        profile: &str,
        objtype: AuthObjType,
        entity: &Entity,
    ) -> MqResult<()> {
        let _gate = self.durability().map(|d| d.gate());
        let table = {
            let mut t = self.shared.security.records.write();
            if !t.delete(profile, objtype, entity) {
                let (n, kind) = entity.parts();
                return Err(MqError::new(
                    Reason::UnknownObjectName,
                    format!(
                        "there is no authority record for PROFILE({profile}) OBJTYPE({}) {kind}({n})",
                        objtype.keyword()
                    ),
                ));
            }
            t.clone()
        };
        self.refresh_security();
        self.log_authrecs(&table)
    }

    /// A copy of every authority record.
    pub fn authrecs(&self) -> Vec<AuthRec> {
        self.shared.security.records.read().records.clone()
    }

    /// A copy of the table (for DISPLAY AUTHREC's selections).
    pub fn auth_table(&self) -> AuthTable {
        self.shared.security.records.read().clone()
    }

    fn log_authrecs(&self, table: &AuthTable) -> MqResult<()> {
        let name = ObjectName::new(AUTHRECS).expect("a valid name");
        self.log_object(ObjectKind::AuthRecs, &name, Some(table))
    }

    /// Restores the records from the log or a checkpoint.
    pub(crate) fn restore_authrecs(&self, table: AuthTable) {
        *self.shared.security.records.write() = table;
        self.refresh_security();
    }

    /// The records for a checkpoint, unless there are none.
    pub(crate) fn authrecs_for_checkpoint(&self) -> Option<(ObjectName, AuthTable)> {
        let t = self.shared.security.records.read();
        (!t.records.is_empty())
            .then(|| (ObjectName::new(AUTHRECS).expect("a valid name"), t.clone()))
    }
}

impl QueueManager {
    /// Defines (or with `replace`, replaces) an authentication information object, durably.
    pub fn define_authinfo(&self, name: &str, attrs: AuthInfoAttrs, replace: bool) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        attrs.validate()?;
        let _gate = self.durability().map(|d| d.gate());
        {
            let mut map = self.shared.security.authinfos.write();
            if let Some(old) = map.get(&n) {
                if !replace {
                    return Err(MqError::new(
                        Reason::ObjectAlreadyExists,
                        format!("authinfo {n} already exists"),
                    ));
                }
                if old.auth_type != attrs.auth_type {
                    return Err(MqError::new(
                        Reason::AttributeValueError,
                        format!("the AUTHTYPE of authinfo {n} cannot change; delete it and define it again"),
                    ));
                }
            }
            map.insert(n, attrs.clone());
        }
        self.log_object(ObjectKind::AuthInfo, &n, Some(&attrs))
    }

    /// An authentication information object's definition.
    pub fn authinfo(&self, name: &str) -> MqResult<AuthInfoAttrs> {
        let n = ferry_model::name::object_name(name)?;
        self.shared
            .security
            .authinfos
            .read()
            .get(&n)
            .cloned()
            .ok_or_else(|| {
                MqError::new(
                    Reason::UnknownObjectName,
                    format!("authinfo {n} is not defined on this queue manager"),
                )
            })
    }

    /// Every authentication information object, by name.
    pub fn authinfos(&self) -> Vec<(ObjectName, AuthInfoAttrs)> {
        let map = self.shared.security.authinfos.read();
        map.iter().map(|(n, a)| (*n, a.clone())).collect()
    }

    /// Deletes an authentication information object (not the one QMGR CONNAUTH names).
    pub fn delete_authinfo(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if self.attrs().connauth == n {
            return Err(MqError::new(
                Reason::ObjectInUse,
                format!("authinfo {n} is the queue manager's CONNAUTH; name another with ALTER QMGR CONNAUTH first"),
            ));
        }
        let _gate = self.durability().map(|d| d.gate());
        if self.shared.security.authinfos.write().remove(&n).is_none() {
            return Err(MqError::new(
                Reason::UnknownObjectName,
                format!("authinfo {n} is not defined on this queue manager"),
            ));
        }
        self.log_object::<AuthInfoAttrs>(ObjectKind::AuthInfo, &n, None)
    }

    /// The connection-authentication settings in force: the object QMGR CONNAUTH names, or
    /// `None` when CONNAUTH is blank (or names nothing, which the log says at start).
    pub fn connauth(&self) -> Option<(ObjectName, AuthInfoAttrs)> {
        let n = self.attrs().connauth;
        if n.is_empty() {
            return None;
        }
        let map = self.shared.security.authinfos.read();
        map.get(&n).map(|a| (n, a.clone()))
    }

    /// Restores an authentication information object from the log or a checkpoint.
    pub(crate) fn restore_authinfo(&self, name: ObjectName, attrs: AuthInfoAttrs) {
        self.shared.security.authinfos.write().insert(name, attrs);
    }
}

impl QueueManager {
    /// A copy of the channel authentication records.
    pub fn chlauth_table(&self) -> ChlAuthTable {
        self.shared.security.chlauth.read().clone()
    }

    /// Changes the channel authentication records with `f` (SET CHLAUTH), durably.
    pub fn change_chlauth<T>(
        &self,
        f: impl FnOnce(&mut ChlAuthTable) -> MqResult<T>,
    ) -> MqResult<T> {
        let _gate = self.durability().map(|d| d.gate());
        let (out, table) = {
            let mut t = self.shared.security.chlauth.write();
            let mut changed = t.clone();
            let out = f(&mut changed)?;
            *t = changed.clone();
            (out, changed)
        };
        let name = ObjectName::new("CHLAUTH").expect("a valid name");
        self.log_object(ObjectKind::ChlAuth, &name, Some(&table))?;
        Ok(out)
    }

    /// SET CHLAUTH ACTION(ADD|REPLACE).
    pub fn set_chlauth(&self, rule: ChlAuthRule) -> MqResult<()> {
        self.change_chlauth(|t| t.set(rule))
    }

    /// What the channel authentication records say of `who` arriving (always let in when QMGR
    /// CHLAUTH is DISABLED); `admin` and `admin_of` say who administers.
    pub fn chlauth_decide(
        &self,
        who: &Arrival<'_>,
        admin: bool,
        admin_of: &dyn Fn(&str) -> bool,
    ) -> Verdict {
        if !self.attrs().chlauth {
            return Verdict::Allow {
                mapped: None,
                warnings: Vec::new(),
            };
        }
        self.shared
            .security
            .chlauth
            .read()
            .decide(who, admin, admin_of)
    }

    /// The BLOCKADDR record that turns `address` away, described, with whether it only warns
    /// (`None` when none does, or QMGR CHLAUTH is DISABLED).
    pub fn chlauth_blocked_address(&self, address: &str) -> Option<(String, bool)> {
        if !self.attrs().chlauth {
            return None;
        }
        let t = self.shared.security.chlauth.read();
        t.blocked_address(address)
            .map(|r| (ferry_model::chlauth::describe(r), r.warn))
    }

    /// Restores the records from the log or a checkpoint.
    pub(crate) fn restore_chlauth(&self, table: ChlAuthTable) {
        *self.shared.security.chlauth.write() = table;
    }
}

/// A log line allowance: a burst of [`LogLimit::BURST`] lines, then [`LogLimit::PER_SECOND`]
/// a second; the next line admitted says how many were left out. Refusals are what an
/// attacker makes by the thousand; the log must not become the attack.
#[derive(Debug)]
pub struct LogLimit {
    /// (tokens, when they were counted, lines left out since the last admitted).
    state: parking_lot::Mutex<(f64, std::time::Instant, u64)>,
}

impl Default for LogLimit {
    fn default() -> Self {
        LogLimit {
            state: parking_lot::Mutex::new((Self::BURST, ferry_model::clock::monotonic_now(), 0)),
        }
    }
}

impl LogLimit {
    /// Lines admitted at once.
    pub const BURST: f64 = 20.0;
    /// Lines admitted each second after a burst.
    pub const PER_SECOND: f64 = 5.0;

    /// `Some(n)` if a line may be written now, `n` lines having been left out since the last
    /// one; `None` if this one is left out.
    pub fn admit(&self) -> Option<u64> {
        let mut s = self.state.lock();
        let now = ferry_model::clock::monotonic_now();
        let refill = now.duration_since(s.1).as_secs_f64() * Self::PER_SECOND;
        s.0 = (s.0 + refill).min(Self::BURST);
        s.1 = now;
        if s.0 >= 1.0 {
            s.0 -= 1.0;
            Some(std::mem::take(&mut s.2))
        } else {
            s.2 += 1;
            None
        }
    }
}

/// What a session computed, per object, for the generation it was computed in.
#[derive(Debug, Default)]
pub(crate) struct AuthCache {
    generation: u64,
    /// Hashed with the cheap id hasher: every MQPUT1 looks its queue up here.
    held: ferry_model::IdKeyed<(AuthObjType, ObjectName), Authority>,
    /// The last answer, compared before the map: a loop of MQPUT1s (a responder's replies)
    /// names the same queue over and over.
    last: Option<(AuthObjType, ObjectName, Authority)>,
}

/// Most entries a session's cache keeps before it starts again (bounded memory for a
/// connection that opens many distinct queues).
const CACHE_LIMIT: usize = 1024;

impl AuthCache {
    /// What `who` holds on the object, from the cache when the generation has not moved.
    pub(crate) fn held(
        &mut self,
        qm: &QueueManager,
        who: &Principal,
        objtype: AuthObjType,
        name: &ObjectName,
    ) -> Authority {
        if who.admin {
            return objtype.applicable();
        }
        let generation = qm.security_generation();
        if generation != self.generation || self.held.len() >= CACHE_LIMIT {
            self.held.clear();
            self.last = None;
            self.generation = generation;
        }
        if let Some((t, n, a)) = &self.last {
            if *t == objtype && n == name {
                return *a;
            }
        }
        let held = *self
            .held
            .entry((objtype, *name))
            .or_insert_with(|| qm.authority(objtype, name.as_str(), who));
        self.last = Some((objtype, *name, held));
        held
    }
}
