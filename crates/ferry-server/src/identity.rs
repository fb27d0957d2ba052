//! Who a connection is (connection authentication, MQ's CONNAUTH) and the brakes on guessing.
//!
//! **The decision** ([`plan`]): QMGR CONNAUTH names an AUTHINFO object; its CHCKLOCL applies to
//! the local socket and CHCKCLNT to TCP and TLS (loopback included). With a password, it is
//! verified (AUTHTYPE IDPWOS: this machine's accounts through PAM; IDPWFILE: the user file) and
//! the verified user becomes the connection's identity (ADOPTCTX YES). Without one, REQUIRED
//! refuses, REQDADM refuses administrators, OPTIONAL and NONE take the local peer's
//! operating-system identity (SO_PEERCRED) or a client's asserted user id — never with the
//! owner's authority.
//!
//! **Administrators** are the account the queue manager runs as, root, and members of the
//! owner's primary group (MQ's `mqm`): they hold every authority.
//!
//! **Brakes.** A failed authentication is answered after FAILDLAY seconds (a timer, not a
//! thread). Verification runs on [`MAX_VERIFYING`] verifier threads that keep their hashing
//! memory (flat however many guesses arrive). Each
//! origin (an IP address, or a local user id) has a budget of failures that refills at one a
//! second ([`Throttle`]), checked when an attempt arrives and again when a verifier comes free
//! for it: past it, attempts from there are refused without spending a hash, so a guesser
//! elsewhere costs a real user nothing, and a burst of right passwords is never throttled. The
//! table is bounded.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_model::objects::{AuthInfoAttrs, AuthType, ConnCheck};
use ferry_model::security::Principal;
use parking_lot::Mutex;
use tokio::sync::Semaphore;

use crate::auth::UserStore;
use ferry_core::QueueManager;

/// Most password verifications running at once (Argon2 and PAM are slow on purpose).
pub const MAX_VERIFYING: usize = 2;
/// Password checks that may wait for a verifier; a Connect beyond them is refused at once
/// with MQRC_MAX_CONNS_LIMIT_REACHED, without waiting or hashing.
pub const MAX_WAITING: usize = 64;
/// Failures an origin may have before it is throttled.
pub const FAILURE_BURST: f64 = 10.0;
/// Failures an origin's budget regains each second.
pub const FAILURE_REFILL_PER_SEC: f64 = 1.0;
/// Most origins the throttle remembers.
pub const MAX_ORIGINS: usize = 4096;

/// Where a connection comes from, as the throttle counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Origin {
    /// A TCP or TLS peer's address.
    Ip(IpAddr),
    /// A local socket peer's user id.
    Uid(u32),
}

/// Failures per origin, as a leaky bucket.
#[derive(Debug, Default)]
pub(crate) struct Throttle {
    origins: Mutex<HashMap<Origin, (f64, Instant)>>,
}

impl Throttle {
    fn level(entry: (f64, Instant), now: Instant) -> f64 {
        let leaked = now.duration_since(entry.1).as_secs_f64() * FAILURE_REFILL_PER_SEC;
        (entry.0 - leaked).max(0.0)
    }

    /// Whether `origin` may have a password checked now.
    pub(crate) fn allows(&self, origin: Origin) -> bool {
        let map = self.origins.lock();
        map.get(&origin)
            .is_none_or(|e| Self::level(*e, Instant::now()) <= FAILURE_BURST - 1.0)
    }

    /// Counts a failure (a wrong password, or an attempt refused as throttled) against
    /// `origin`, up to twice the burst, so a guesser who stops is let back in within seconds.
    pub(crate) fn failed(&self, origin: Origin) {
        let now = Instant::now();
        let mut map = self.origins.lock();
        if map.len() >= MAX_ORIGINS && !map.contains_key(&origin) {
            make_room(&mut map, now);
        }
        let level = map.get(&origin).map_or(0.0, |e| Self::level(*e, now));
        map.insert(origin, ((level + 1.0).min(2.0 * FAILURE_BURST), now));
        debug_assert!(map.len() <= MAX_ORIGINS);
    }

    /// Origins remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.origins.lock().len()
    }
}

/// Forgets origins that have leaked back to nothing, or else the quietest one.
fn make_room(map: &mut HashMap<Origin, (f64, Instant)>, now: Instant) {
    map.retain(|_, e| Throttle::level(*e, now) > 0.0);
    if map.len() >= MAX_ORIGINS {
        if let Some(k) = map
            .iter()
            .min_by(|a, b| Throttle::level(*a.1, now).total_cmp(&Throttle::level(*b.1, now)))
            .map(|(k, _)| *k)
        {
            map.remove(&k);
        }
    }
}

/// A password to check, and where to say whether it was right.
struct Job {
    auth_type: AuthType,
    file: Arc<crate::auth::UserFile>,
    user: String,
    password: String,
    reply: tokio::sync::oneshot::Sender<Result<bool, String>>,
}

/// [`MAX_VERIFYING`] threads of their own that check passwords, each hashing in memory it
/// keeps: the server's memory holds still however many guesses arrive.
#[derive(Debug)]
pub(crate) struct Verifier {
    jobs: std::sync::mpsc::SyncSender<Job>,
    slots: Arc<Semaphore>,
    /// Checks begun and not yet given a verifier (at most about [`MAX_WAITING`]).
    waiting: Arc<std::sync::atomic::AtomicUsize>,
}

/// Counts a check as waiting until dropped (also when its Connect goes away meanwhile).
struct Waiting(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Verifier {
    fn start() -> Verifier {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(MAX_VERIFYING);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..MAX_VERIFYING {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ferry-auth-{i}"))
                .spawn(move || verifier_loop(&rx));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password verifier thread");
            }
        }
        Verifier {
            jobs: tx,
            slots: Arc::new(Semaphore::new(MAX_VERIFYING)),
            waiting: Arc::default(),
        }
    }

    /// Whether as many checks wait as may.
    fn full(&self) -> bool {
        self.waiting.load(std::sync::atomic::Ordering::Relaxed) >= MAX_WAITING
    }

    /// Whether `password` is `user`'s, by `auth_type`; waits (without a thread) for a free
    /// verifier, then asks `still_allowed` again (a guesser's queued attempts are refused
    /// there, without a hash, once its first ones have failed).
    async fn check(
        &self,
        auth_type: AuthType,
        file: Arc<crate::auth::UserFile>,
        user: String,
        password: String,
        still_allowed: impl FnOnce() -> bool,
    ) -> Result<bool, String> {
        self.waiting
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let waiting = Waiting(self.waiting.clone());
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|_| "the server is stopping".to_string())?;
        drop(waiting);
        if !still_allowed() {
            return Err(THROTTLED.into());
        }
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = Job {
            auth_type,
            file,
            user,
            password,
            reply,
        };
        // Never blocks: a slot is held for each job in the channel or in a verifier.
        self.jobs
            .try_send(job)
            .map_err(|_| "the password verifiers are gone".to_string())?;
        answer
            .await
            .map_err(|_| "a password verifier failed".to_string())?
    }
}

fn verifier_loop(rx: &Mutex<std::sync::mpsc::Receiver<Job>>) {
    let mut memory = Vec::new();
    loop {
        let job = match rx.lock().recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        let answer = match job.auth_type {
            AuthType::IdpwFile => Ok(job.file.verify_in(&job.user, &job.password, &mut memory)),
            AuthType::IdpwOs => ferry_host::pam::authenticate(&job.user, &job.password),
        };
        let _ = job.reply.send(answer);
    }
}

/// Who may be who on this queue manager: the owner, the user file, the machine's accounts.
#[derive(Debug)]
pub(crate) struct Identities {
    owner_user: String,
    owner_uid: u32,
    owner_group: Option<String>,
    pub users: UserStore,
    pub throttle: Throttle,
    verifier: Verifier,
    /// Accounts' groups on this machine as last looked up, for [`GROUPS_FOR`] (a lookup goes
    /// through the system's name services, files opened each time: most of a connection's
    /// cost when no password is checked). At most [`GROUPS_KEPT`] users.
    os_groups: Mutex<HashMap<String, (Instant, Vec<String>)>>,
}

/// How long an account's groups on this machine are used before they are looked up again (as
/// MQ's authority service caches them; a change shows within this time).
const GROUPS_FOR: Duration = Duration::from_secs(10);
/// Users whose groups are kept at most (the lot is dropped when full).
const GROUPS_KEPT: usize = 4096;

impl Identities {
    /// Whether as many password checks wait for a verifier as may ([`MAX_WAITING`]).
    pub(crate) fn verifiers_full(&self) -> bool {
        self.verifier.full()
    }

    /// For a queue manager run by this process's account, with the user file at `users`.
    pub(crate) fn new(users: UserStore) -> Identities {
        let me = ferry_host::accounts::current();
        Identities {
            owner_user: me
                .as_ref()
                .map_or_else(|| "ferry".into(), |a| a.name.clone()),
            owner_uid: me.as_ref().map_or(u32::MAX, |a| a.uid),
            owner_group: me.and_then(|a| a.groups.into_iter().next()),
            users,
            throttle: Throttle::default(),
            verifier: Verifier::start(),
            os_groups: Mutex::new(HashMap::new()),
        }
    }

    /// `name`'s groups on this machine (none for a user it does not know), looked up at most
    /// every [`GROUPS_FOR`].
    fn os_groups(&self, name: &str) -> Vec<String> {
        let now = Instant::now();
        if let Some((at, groups)) = self.os_groups.lock().get(name) {
            if now.duration_since(*at) < GROUPS_FOR {
                return groups.clone();
            }
        }
        let groups = ferry_host::accounts::by_name(name).map_or_else(Vec::new, |a| a.groups);
        let mut kept = self.os_groups.lock();
        if kept.len() >= GROUPS_KEPT {
            kept.clear();
        }
        kept.insert(name.to_owned(), (now, groups.clone()));
        groups
    }

    fn is_admin(&self, user: &str, groups: &[String]) -> bool {
        user == self.owner_user
            || user == "root"
            || self
                .owner_group
                .as_ref()
                .is_some_and(|g| groups.contains(g))
    }

    /// The user `name`: its groups on this machine and in the user file.
    pub(crate) fn principal(&self, name: &str) -> Principal {
        let mut groups = self.os_groups(name);
        let file = self.users.current();
        for g in file.groups_of(name) {
            if !groups.iter().any(|x| x == g) {
                groups.push(g.to_owned());
            }
        }
        let admin = self.is_admin(name, &groups);
        Principal {
            user: name.to_owned(),
            groups,
            admin,
        }
    }

    /// The local socket peer with user id `uid`.
    pub(crate) fn local(&self, uid: u32) -> Principal {
        match ferry_host::accounts::by_uid(uid) {
            Some(a) => {
                let mut p = self.principal(&a.name);
                p.admin |= uid == self.owner_uid || uid == 0;
                p
            }
            None => Principal::user(&format!("uid{uid}"), Vec::new()),
        }
    }

    /// A client's asserted user id, taken without proof: never an administrator.
    pub(crate) fn asserted(&self, name: &str) -> Principal {
        let name = if name.is_empty() { "anonymous" } else { name };
        let mut p = self.principal(name);
        p.admin = false;
        p
    }
}

/// What a Connect needs before its conversation can open.
#[derive(Debug)]
pub(crate) enum Plan {
    /// Open it as this principal.
    Accept(Principal),
    /// Refuse it (after the failure delay), for this reason (logged, not sent).
    Refuse(String),
    /// Verify the password first; on success the identity is the verified user, unless
    /// `keep` (ADOPTCTX NO) says to keep this one.
    Verify {
        auth_type: AuthType,
        keep: Option<Principal>,
    },
}

/// What the conversation asking looks like, for [`plan`].
#[derive(Debug)]
pub(crate) struct Asking<'a> {
    /// The local peer's identity (local socket), if known.
    pub local: Option<Principal>,
    /// The user id the client gave.
    pub user: &'a str,
    /// Whether it gave a password.
    pub has_password: bool,
}

/// Decides how a conversation is authenticated under `connauth` (`None`: CONNAUTH blank).
pub(crate) fn plan(ids: &Identities, connauth: Option<&AuthInfoAttrs>, who: Asking<'_>) -> Plan {
    let fallback = || match &who.local {
        Some(p) => p.clone(),
        None => ids.asserted(who.user),
    };
    let Some(a) = connauth else {
        return Plan::Accept(fallback());
    };
    let check = if who.local.is_some() {
        a.check_local
    } else {
        a.check_client
    };
    if check == ConnCheck::None {
        return Plan::Accept(fallback());
    }
    if who.has_password {
        let keep = (!a.adopt_context).then(fallback);
        return Plan::Verify {
            auth_type: a.auth_type,
            keep,
        };
    }
    match check {
        ConnCheck::Required => Plan::Refuse(format!(
            "none was given and {} is REQUIRED",
            if who.local.is_some() {
                "CHCKLOCL"
            } else {
                "CHCKCLNT"
            }
        )),
        ConnCheck::ReqdAdm
            if who.local.as_ref().is_some_and(|p| p.admin) || ids.principal(who.user).admin =>
        {
            Plan::Refuse("an administrator must give one (REQDADM)".into())
        }
        _ => Plan::Accept(fallback()),
    }
}

/// Why an attempt was refused without its password being checked.
const THROTTLED: &str = "too many failed authentications from this address; throttled";

/// Verifies `password` for `user` on a verifier thread, unless `origin` is throttled (when it
/// arrives, or when a verifier comes free); a failure is counted against `origin` and
/// answered after `delay`. `Err` says why, for the log.
pub(crate) async fn verify(
    ids: Arc<Identities>,
    origin: Origin,
    auth_type: AuthType,
    user: String,
    password: String,
    delay: Duration,
) -> Result<(), String> {
    let outcome = if ids.throttle.allows(origin) {
        let file = ids.users.current();
        let still = || ids.throttle.allows(origin);
        match ids
            .verifier
            .check(auth_type, file, user.clone(), password, still)
            .await
        {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!(
                "unknown user or wrong password for user '{user}' ({})",
                auth_type.keyword()
            )),
            Err(e) => Err(e),
        }
    } else {
        Err(THROTTLED.into())
    };
    if outcome.is_err() {
        ids.throttle.failed(origin);
        tokio::time::sleep(delay).await;
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_throttle_refuses_past_its_burst_and_refills() {
        let t = Throttle::default();
        let a = Origin::Ip("192.0.2.1".parse().unwrap());
        let b = Origin::Ip("192.0.2.2".parse().unwrap());
        for _ in 0..FAILURE_BURST as usize {
            assert!(t.allows(a));
            t.failed(a);
        }
        assert!(!t.allows(a), "past the burst");
        assert!(t.allows(b), "another origin is not affected");
        for i in 0..(MAX_ORIGINS as u32 + 100) {
            t.failed(Origin::Uid(i));
        }
        assert!(t.len() <= MAX_ORIGINS);
    }

    #[test]
    fn plans_follow_chckclnt_and_chcklocl() {
        let ids = Identities::new(UserStore::new(None));
        let mut a = AuthInfoAttrs::new(AuthType::IdpwFile);
        let client = |pw| Asking {
            local: None,
            user: "alice",
            has_password: pw,
        };
        assert!(matches!(
            plan(&ids, Some(&a), client(false)),
            Plan::Refuse(_)
        ));
        assert!(matches!(
            plan(&ids, Some(&a), client(true)),
            Plan::Verify { keep: None, .. }
        ));
        a.check_client = ConnCheck::Optional;
        assert!(
            matches!(plan(&ids, Some(&a), client(false)), Plan::Accept(p) if p.user == "alice" && !p.admin)
        );
        let me = ids.local(nix_uid());
        assert!(me.admin, "the owner's own uid administers");
        let local = Asking {
            local: Some(me),
            user: "root",
            has_password: false,
        };
        assert!(matches!(plan(&ids, Some(&a), local), Plan::Accept(p) if p.admin));
        let root = ids.asserted("root");
        assert!(!root.admin, "an asserted id is never an administrator");
        a.check_client = ConnCheck::ReqdAdm;
        let as_root = Asking {
            local: None,
            user: "root",
            has_password: false,
        };
        assert!(matches!(plan(&ids, Some(&a), as_root), Plan::Refuse(_)));
    }

    fn nix_uid() -> u32 {
        ferry_host::accounts::current().unwrap().uid
    }
}

/// Why a user and password were not accepted.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// No password was given and one is needed (the sentence says why).
    NoPassword(String),
    /// The password was wrong, or the user unknown (the sentence says which cannot be told).
    Wrong(String),
}

/// A user and password checked as a client connection's are (CONNAUTH's rules, the user file or
/// the system's accounts, the verifier threads and the failure throttle), for the services that
/// log in by password outside the MQ protocol (MQTT, the console). A failure is counted and
/// waits CONNAUTH's FAILDLAY before it is answered.
pub(crate) async fn password_login(
    qm: &QueueManager,
    ids: Arc<Identities>,
    user: String,
    password: String,
    origin: Origin,
) -> Result<Principal, Refusal> {
    let connauth = qm.connauth().map(|(_, a)| a);
    let delay = Duration::from_secs(connauth.as_ref().map_or(1, |a| a.fail_delay) as u64);
    let asking = Asking {
        local: None,
        user: &user,
        has_password: !password.is_empty(),
    };
    let count_failure = || {
        qm.security_counters()
            .authentication_failures
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    };
    match plan(&ids, connauth.as_ref(), asking) {
        Plan::Accept(who) => Ok(who),
        Plan::Refuse(why) => {
            count_failure();
            tokio::time::sleep(delay).await;
            Err(Refusal::NoPassword(why))
        }
        Plan::Verify { auth_type, keep } => {
            let verified = verify(
                ids.clone(),
                origin,
                auth_type,
                user.clone(),
                password,
                delay,
            )
            .await;
            match verified {
                Ok(()) => Ok(keep.unwrap_or_else(|| ids.principal(&user))),
                Err(why) => {
                    count_failure();
                    Err(Refusal::Wrong(why))
                }
            }
        }
    }
}
