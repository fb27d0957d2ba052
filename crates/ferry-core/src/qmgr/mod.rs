//! Layer 2, the queue manager: its attributes, the object catalogue, system objects,
//! connections and their sessions (one file per verb group under `session/`), dynamic queues
//! (`dynamic`), dead-lettering (`deadletter`), name resolution to other queue managers
//! (`routing`), channels and listeners as objects (`catalog`), queue definitions (`queues`),
//! expiry (`expiry`), and what it knows of durability (`journal`: a trait the durable layer
//! implements). It stands on the queue engine (`crate::engine`) and nothing above it.
//!
//! Lock order: catalogue (`objects`) before any queue lock; never a queue lock while taking the
//! catalogue. The catalogue lock is a read lock on the MQI paths (open, put1) and is not touched
//! by put or get on an open handle.

pub mod accounting;
pub mod apistats;
pub mod catalog;
pub mod commands;
mod deadletter;
mod dynamic;
mod events;
pub use events::IssuedCommand;
mod expiry;
pub mod journal;
pub mod monitor;
pub mod namelists;
pub mod pubsub;
mod queues;
pub mod routing;
pub mod security;
pub mod session;
pub mod statistics;
pub mod system;
mod trigger;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use parking_lot::{Mutex, RwLock};

use ferry_model::clock::Clock;
use ferry_model::message::IdGenerator;
use ferry_model::name::{object_name, ApplName, ObjectName};
use ferry_model::objects::{AliasQueueAttrs, LocalQueueAttrs, QueueManagerAttrs};
use ferry_model::options::ConnectOptions;
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::security::{AuthObjType, Authority, Principal};
use ferry_model::status::{ConnMode, RunState};
use ferry_model::IdKeyed;

use crate::engine::Queue;
use journal::Durability;
use session::Session;

/// What a catalogue entry holds.
#[derive(Debug, Clone)]
pub(crate) enum Object {
    Local(Arc<Queue>),
    /// Shared so handles opened through the alias see ALTERs of its inhibit flags.
    Alias(Arc<Mutex<AliasQueueAttrs>>),
    Model(LocalQueueAttrs),
    /// Shared so ALTERs are seen by handles (once channels move its messages).
    Remote(Arc<Mutex<ferry_model::objects::RemoteQueueAttrs>>),
}

/// Live counters a session keeps for connection status.
#[derive(Debug, Default)]
pub struct ConnCounters {
    /// Open object handles.
    pub open_handles: AtomicUsize,
    /// Messages in the current unit of work.
    pub uow_messages: AtomicUsize,
    /// Compression negotiated for the connection's payloads (wire number; 0 none).
    pub compression: std::sync::atomic::AtomicU8,
    /// Payload bytes before compression, both directions (compressed payloads only).
    pub compress_plain_bytes: AtomicU64,
    /// The same payloads' bytes after compression.
    pub compress_wire_bytes: AtomicU64,
    /// Open handles with their numbers, in the order opened, for connection status (a list:
    /// most connections hold one or two, and a map's smallest allocation was ~0.8 KiB).
    pub handles: Mutex<Vec<(u32, catalog::HandleInfo)>>,
    /// STOP CONN asked this connection to end.
    pub stop_requested: std::sync::atomic::AtomicBool,
    /// How the server carrying the connection is told to end it at once (set when it connects).
    pub stopper: std::sync::OnceLock<Stopper>,
}

/// Ends a server's connection (closes the socket carrying it), for STOP CONN.
pub struct Stopper(pub Box<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stopper")
    }
}

impl ConnCounters {
    /// Records one compressed payload.
    pub fn note_compressed(&self, plain: usize, wire: usize) {
        self.compress_plain_bytes
            .fetch_add(plain as u64, Ordering::Relaxed);
        self.compress_wire_bytes
            .fetch_add(wire as u64, Ordering::Relaxed);
    }

    /// Achieved compression rate so far: the fraction of payload bytes saved (0.0–1.0), or
    /// `None` if nothing was compressed.
    pub fn compression_rate(&self) -> Option<f64> {
        let plain = self.compress_plain_bytes.load(Ordering::Relaxed);
        let wire = self.compress_wire_bytes.load(Ordering::Relaxed);
        (plain > 0).then(|| 1.0 - wire as f64 / plain as f64)
    }
}

/// A connection as seen by status queries.
#[derive(Debug, Clone)]
pub struct ConnectionInfo {
    /// Unique id for the life of the queue manager.
    pub id: u64,
    /// Application name given at connect.
    pub app_name: String,
    /// User id.
    pub user_id: String,
    /// How it is connected.
    pub mode: ConnMode,
    /// Remote address or local pid, as text.
    pub peer: String,
    /// When it connected.
    pub connected_at: SystemTime,
    /// Live counters.
    pub counters: Arc<ConnCounters>,
}

/// How a queue manager is set up when created in memory.
#[derive(Debug, Clone)]
pub struct QmConfig {
    /// Queue manager attributes.
    pub attrs: QueueManagerAttrs,
    /// Time source.
    pub clock: Clock,
    /// Also define the developer queues DEV.QUEUE.1–3 (handy defaults for trying things out).
    pub dev_queues: bool,
    /// Bytes of message bodies the queues may hold in memory together (see
    /// [`crate::engine::budget`]); by default a quarter of what the process may use.
    pub memory_budget: usize,
    /// The account the queue manager runs as: its owner, whose authority its own work has and
    /// whose user id embedded connections carry. The host sets it from the process's effective
    /// user id; by default `$USER` (or `$LOGNAME`).
    pub owner: String,
    /// How a thread waiting in MQGET spins and yields before it sleeps.
    pub wait: crate::engine::waiter::WaitPolicy,
}

impl QmConfig {
    /// The user the environment names (`$USER`, else `$LOGNAME`, else `ferry`): the owner of a
    /// queue manager whose host did not say.
    pub fn env_user() -> String {
        std::env::var("USER")
            .or_else(|_| std::env::var("LOGNAME"))
            .unwrap_or_else(|_| "ferry".into())
    }

    /// Defaults for a queue manager called `name`.
    pub fn new(name: &str) -> MqResult<Self> {
        Ok(QmConfig {
            attrs: QueueManagerAttrs::new(object_name(name)?),
            clock: Clock::default(),
            dev_queues: true,
            memory_budget: crate::engine::budget::default_limit(),
            owner: QmConfig::env_user(),
            wait: Default::default(),
        })
    }
}

/// Where the MQTT service's client statuses come from (the service is a layer above).
pub type MqttStatusSource = Arc<dyn Fn() -> ferry_model::channel::MqttServiceStatus + Send + Sync>;

pub(crate) struct Shared {
    pub attrs: RwLock<QueueManagerAttrs>,
    /// [`QmConfig::wait`].
    pub wait: crate::engine::waiter::WaitPolicy,
    /// [`QmConfig::owner`].
    pub owner: String,
    /// The object catalogue. Hashed with the cheap id hasher: every put1 looks a name up.
    pub objects: RwLock<IdKeyed<ObjectName, Object>>,
    pub ids: IdGenerator,
    pub clock: Clock,
    pub run_state: AtomicU8,
    /// The MQTT service's client statuses, once it is running (DISPLAY CHSTATUS CHLTYPE(MQTT)).
    pub mqtt_status: RwLock<Option<MqttStatusSource>>,
    /// Whether the PCF command server is serving (DISPLAY QMSTATUS CMDSERV).
    pub command_server: std::sync::atomic::AtomicBool,
    /// Whether it should be: SCMDSERV(QMGR) at start, then START / STOP CMDSERV.
    pub command_server_wanted: std::sync::atomic::AtomicBool,
    pub connections: Mutex<BTreeMap<u64, ConnectionInfo>>,
    pub next_conn: AtomicU64,
    pub next_uow: AtomicU64,
    pub dynamic_counter: AtomicU64,
    /// Dynamic queues that exist now (bounded by MAXDYNQ).
    pub dynamic_live: AtomicUsize,
    /// Message bodies held in memory by every queue, and their limit.
    pub budget: Arc<crate::engine::MemoryBudget>,
    /// The recovery log, when the queue manager is persistent.
    pub durability: std::sync::OnceLock<Arc<dyn Durability>>,
    /// Where non-persistent messages beyond the budget go, when there is such an area.
    pub spill: std::sync::OnceLock<Arc<dyn crate::engine::Spill>>,
    /// Subscriptions, by topic filter.
    pub pubsub: pubsub::Subscriptions,
    /// MQI call counts (STATMQI, `ferry_mqi_calls_total`).
    pub api: apistats::ApiStats,
    /// What STATMQI counts beyond them, while it is ON.
    pub mqi_stats: apistats::MqiStats,
    /// The statistics interval in progress.
    pub statistics: Mutex<statistics::StatisticsState>,
    /// The topic objects (DEFINE TOPIC).
    pub topics: pubsub::topics::TopicObjects,
    /// The retained publications.
    pub retained: pubsub::retained::Retained,
    /// The live topic tree's counters and publishers.
    pub topic_status: pubsub::status::TopicStatus,
    /// What the monitoring topics last published.
    pub monitor: monitor::MonitorState,
    /// Channels, listeners, the server's hooks, the attributes sink.
    pub catalog: catalog::Catalog,
    /// Namelists and process definitions.
    pub definitions: namelists::Definitions,
    /// Authority records and their generation.
    pub security: security::Security,
    /// PERFMEV, mirrored from `attrs` for the put and get paths.
    pub perf_events: std::sync::atomic::AtomicBool,
    /// Every name a local queue has had as INITQ (never shrinks): a queue's first reader scans
    /// for waiting trigger events only when it is one of these.
    pub(crate) initiation_queues: Mutex<std::collections::HashSet<ObjectName>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueueManager")
            .field("name", &self.attrs.read().name)
            .finish()
    }
}

/// A queue manager. Cheap to clone (shared state behind an `Arc`).
#[derive(Debug, Clone)]
pub struct QueueManager {
    pub(crate) shared: Arc<Shared>,
}

impl QueueManager {
    /// A new queue manager with its system objects defined.
    pub fn new(mut config: QmConfig) -> MqResult<Self> {
        config.attrs.validate()?;
        if config.attrs.created_unix_s == 0 {
            // One made in this process (embedded, tests): created now.
            let now = (config.clock.unix_ms().max(0) / 1000) as u64;
            config.attrs.created_unix_s = now;
            config.attrs.altered_unix_s = now;
        }
        let ids = IdGenerator::new(config.attrs.name.as_str());
        let perf_events = config.attrs.performance_events;
        let scmdserv_manual = config.attrs.command_server_manual;
        let (statistics_mqi, started) = (config.attrs.statistics_mqi, config.clock.wall());
        let qm = QueueManager {
            shared: Arc::new(Shared {
                attrs: RwLock::new(config.attrs),
                wait: config.wait,
                owner: config.owner,
                objects: RwLock::new(HashMap::default()),
                ids,
                clock: config.clock,
                run_state: AtomicU8::new(RunState::Running as u8),
                command_server: std::sync::atomic::AtomicBool::new(false),
                mqtt_status: RwLock::new(None),
                command_server_wanted: std::sync::atomic::AtomicBool::new(!scmdserv_manual),
                connections: Mutex::new(BTreeMap::new()),
                next_conn: AtomicU64::new(1),
                next_uow: AtomicU64::new(1),
                dynamic_counter: AtomicU64::new(0),
                dynamic_live: AtomicUsize::new(0),
                budget: Arc::new(crate::engine::MemoryBudget::new(config.memory_budget)),
                durability: std::sync::OnceLock::new(),
                spill: std::sync::OnceLock::new(),
                pubsub: Default::default(),
                api: Default::default(),
                mqi_stats: Default::default(),
                statistics: Mutex::new(statistics::StatisticsState::new(started)),
                topics: Default::default(),
                retained: Default::default(),
                topic_status: Default::default(),
                monitor: Default::default(),
                catalog: Default::default(),
                definitions: Default::default(),
                security: Default::default(),
                perf_events: std::sync::atomic::AtomicBool::new(perf_events),
                initiation_queues: Mutex::new(Default::default()),
            }),
        };
        qm.shared.mqi_stats.set_on(statistics_mqi);
        system::define_system_objects(&qm, config.dev_queues)?;
        Ok(qm)
    }

    /// How a thread waiting in MQGET spins and yields before it sleeps (`[qmgr] wait_spins`,
    /// `wait_yields`).
    pub fn wait_policy(&self) -> crate::engine::waiter::WaitPolicy {
        self.shared.wait
    }

    /// The memory budget every queue's in-memory message bodies are charged to.
    pub fn memory_budget(&self) -> &Arc<crate::engine::MemoryBudget> {
        &self.shared.budget
    }

    /// The recovery log, when this queue manager keeps persistent messages across restarts.
    pub fn durability(&self) -> Option<&Arc<dyn Durability>> {
        self.shared.durability.get()
    }

    /// Attaches the recovery log (once, while the queue manager is being opened): every local
    /// queue from now on logs its persistent messages through it.
    pub(crate) fn set_durability(&self, d: Arc<dyn Durability>) {
        let buffer = d.queue_buffer();
        let journal: Arc<dyn crate::engine::Journal> = d.clone();
        let _ = self.shared.durability.set(d);
        for q in self.local_queues() {
            q.lock().attach_journal(journal.clone(), buffer);
        }
    }

    /// The spill area, when non-persistent messages beyond the memory budget are written to
    /// disk rather than refused.
    pub fn spill(&self) -> Option<&Arc<dyn crate::engine::Spill>> {
        self.shared.spill.get()
    }

    /// Attaches a spill area (once, while the queue manager is being opened): from now on a
    /// non-persistent message the memory budget has no room for is written there.
    pub fn set_spill(&self, spill: Arc<dyn crate::engine::Spill>) {
        if self.shared.spill.set(spill.clone()).is_err() {
            return;
        }
        for q in self.local_queues() {
            q.lock().attach_spill(spill.clone());
        }
    }

    /// Takes a checkpoint now (a clean stop does, so the next start replays nothing). Returns
    /// `None` for a queue manager without a recovery log, or when nothing was logged since
    /// the last one.
    pub fn checkpoint(&self) -> MqResult<Option<journal::CheckpointReport>> {
        match self.durability() {
            Some(d) => d.checkpoint(self),
            None => Ok(None),
        }
    }

    /// A queue manager with default settings, for tests and quick starts.
    pub fn with_name(name: &str) -> MqResult<Self> {
        QueueManager::new(QmConfig::new(name)?)
    }

    /// The account the queue manager runs as ([`QmConfig::owner`]).
    pub fn owner(&self) -> &str {
        &self.shared.owner
    }

    /// The queue manager's name.
    pub fn name(&self) -> ObjectName {
        self.shared.attrs.read().name
    }

    /// A copy of the queue manager's attributes.
    pub fn attrs(&self) -> QueueManagerAttrs {
        self.shared.attrs.read().clone()
    }

    /// Changes queue manager attributes (ALTER QMGR).
    pub fn alter_attrs(&self, f: impl FnOnce(&mut QueueManagerAttrs)) -> MqResult<()> {
        let mut a = self.shared.attrs.read().clone();
        f(&mut a);
        a.validate()?;
        if a.name != self.name() {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "a queue manager cannot be renamed",
            ));
        }
        self.shared
            .perf_events
            .store(a.performance_events, Ordering::Relaxed);
        self.shared.mqi_stats.set_on(a.statistics_mqi);
        *self.shared.attrs.write() = a;
        Ok(())
    }

    /// The wall clock now, in whole Unix seconds (the dates objects show: ALTDATE, CRDATE).
    pub(crate) fn unix_now_s(&self) -> u64 {
        (self.clock().unix_ms().max(0) / 1000) as u64
    }

    /// The clock the engine uses.
    pub fn clock(&self) -> &Clock {
        &self.shared.clock
    }

    /// The current run state.
    pub fn run_state(&self) -> RunState {
        match self.shared.run_state.load(Ordering::Acquire) {
            0 => RunState::Running,
            1 => RunState::Quiescing,
            _ => RunState::Stopping,
        }
    }

    /// Connects an application in this process (embedded mode).
    pub fn connect(&self, opts: &ConnectOptions) -> MqResult<Session> {
        self.connect_as(
            opts,
            ConnMode::Embedded,
            format!("pid {}", std::process::id()),
        )
    }

    /// A session for the queue manager's own work (the monitoring publications, the retained
    /// publications' store): its owner's authority, not a connection — it takes no MAXCONN
    /// slot and DISPLAY CONN does not show it.
    pub(crate) fn internal_session(&self, app: &str) -> Session {
        let id = self.shared.next_conn.fetch_add(1, Ordering::Relaxed);
        let mut s = Session::new(
            self.clone(),
            id,
            ApplName::truncating(app),
            Principal::owner(&self.shared.owner),
            Arc::new(ConnCounters::default()),
        );
        s.internal = true;
        s
    }

    /// Whether the PCF command server is serving.
    pub fn command_server_running(&self) -> bool {
        self.shared.command_server.load(Ordering::Acquire)
    }

    /// The PCF command server says it started (`true`) or ended.
    pub fn set_command_server_running(&self, running: bool) {
        self.shared.command_server.store(running, Ordering::Release);
    }

    /// Whether the PCF command server should serve (SCMDSERV at start, START/STOP CMDSERV).
    pub fn command_server_wanted(&self) -> bool {
        self.shared.command_server_wanted.load(Ordering::Acquire)
    }

    /// START CMDSERV (`true`) or STOP CMDSERV: the command server follows within its poll.
    pub fn set_command_server_wanted(&self, wanted: bool) {
        self.shared
            .command_server_wanted
            .store(wanted, Ordering::Release);
    }

    /// A session for one of the queue manager's own services in this process (the PCF command
    /// server): the owner's authority, no connection slot, not shown by DISPLAY CONN. The
    /// service checks the authority of whoever asked it before acting.
    pub fn service_session(&self, app: &str) -> Session {
        self.internal_session(app)
    }

    /// Connects one of the queue manager's own channel agents in this process (a sender
    /// channel's thread, RESET and RESOLVE CHANNEL): the only sessions that may open the
    /// channels' sync queue.
    pub fn connect_internal(&self, app_name: &str) -> MqResult<Session> {
        let mut s = self.connect(&ConnectOptions::app(app_name))?;
        s.set_channel_agent();
        Ok(s)
    }

    /// Connects with an explicit mode and peer description, as the queue manager's owner.
    pub fn connect_as(
        &self,
        opts: &ConnectOptions,
        mode: ConnMode,
        peer: String,
    ) -> MqResult<Session> {
        let user = opts
            .user_id
            .clone()
            .unwrap_or_else(|| self.shared.owner.clone());
        self.connect_with(opts, mode, peer, Principal::owner(&user))
    }

    /// Connects `who` (the server's remote connections: who it is was settled by the socket's
    /// credentials or a verified password). NOT_AUTHORIZED unless `who` holds CONNECT on the
    /// queue manager; messages it puts carry `who`'s user unless a handle may set identity.
    pub fn connect_with(
        &self,
        opts: &ConnectOptions,
        mode: ConnMode,
        peer: String,
        who: Principal,
    ) -> MqResult<Session> {
        let made = self.new_session(opts, mode, peer, who);
        self.shared
            .api
            .count_result(apistats::ApiCall::Connect, &made);
        made
    }

    /// MQI call counts since start.
    pub fn api_stats(&self) -> &apistats::ApiStats {
        &self.shared.api
    }

    fn new_session(
        &self,
        opts: &ConnectOptions,
        mode: ConnMode,
        peer: String,
        who: Principal,
    ) -> MqResult<Session> {
        self.check_connectable()?;
        self.check_authority(
            &who,
            AuthObjType::QMgr,
            self.name().as_str(),
            Authority::CONNECT,
        )?;
        let max = self.shared.attrs.read().max_connections;
        let id = self.shared.next_conn.fetch_add(1, Ordering::Relaxed);
        let user = who.user.clone();
        let accounting =
            accounting::Accounting::for_connection(self, id, (&opts.app_name, &user, &peer));
        let counters = Arc::new(ConnCounters::default());
        {
            let mut conns = self.shared.connections.lock();
            if conns.len() >= max {
                return Err(MqError::new(
                    Reason::MaxConnsLimitReached,
                    format!(
                        "queue manager {} already has {max} connections",
                        self.name()
                    ),
                ));
            }
            conns.insert(
                id,
                ConnectionInfo {
                    id,
                    app_name: opts.app_name.clone(),
                    user_id: user.clone(),
                    mode,
                    peer,
                    connected_at: self.shared.clock.wall(),
                    counters: counters.clone(),
                },
            );
            self.shared.api.note_connections(conns.len());
        }
        let mut s = Session::new(
            self.clone(),
            id,
            ApplName::truncating(&opts.app_name),
            who,
            counters,
        );
        s.acct = accounting.map(|a| Box::new(Mutex::new(a)));
        Ok(s)
    }

    /// QUIESCING or STOPPING when the queue manager takes no new connections.
    fn check_connectable(&self) -> MqResult<()> {
        match self.run_state() {
            RunState::Running => Ok(()),
            RunState::Quiescing => Err(MqError::new(
                Reason::QMgrQuiescing,
                format!("queue manager {} is quiescing", self.name()),
            )),
            RunState::Stopping => Err(MqError::new(
                Reason::QMgrStopping,
                format!("queue manager {} is stopping", self.name()),
            )),
        }
    }

    pub(crate) fn forget_connection(&self, id: u64, implicit: bool) {
        if self.shared.connections.lock().remove(&id).is_some() {
            self.shared.api.count(apistats::ApiCall::Disconnect, true);
            if implicit && self.shared.mqi_stats.on() {
                self.shared.mqi_stats.add(apistats::slot::DISCS_IMPLICIT, 1);
            }
        }
    }

    /// What STATMQI counts while it is ON.
    pub fn mqi_stats(&self) -> &apistats::MqiStats {
        &self.shared.mqi_stats
    }

    /// STOP CONN: ends connection `id`. A client's socket is closed at once (its next call sees
    /// MQRC_CONNECTION_BROKEN); an application's own connection fails its next call with
    /// MQRC_CONNECTION_STOPPED. Either way its unit of work is backed out when it ends.
    pub fn stop_connection(&self, id: u64) -> MqResult<()> {
        let ci = self
            .connections()
            .into_iter()
            .find(|c| c.id == id)
            .ok_or_else(|| {
                MqError::new(
                    Reason::UnknownObjectName,
                    format!("no connection {id:016X} is connected (DISPLAY CONN(*) lists them)"),
                )
            })?;
        ci.counters.stop_requested.store(true, Ordering::Release);
        if let Some(s) = ci.counters.stopper.get() {
            (s.0)();
        }
        Ok(())
    }

    /// The connections now open.
    pub fn connections(&self) -> Vec<ConnectionInfo> {
        self.shared.connections.lock().values().cloned().collect()
    }

    /// Ends every wait with QUIESCING and refuses new connections; existing work may finish.
    pub fn quiesce(&self) {
        if self.run_state() == RunState::Running {
            // A controlled stop ends the statistics interval, as MQ's does.
            if let Err(e) = self.write_statistics() {
                tracing::warn!(reason = %e.detail, "the last statistics messages could not be written");
            }
        }
        self.shared
            .run_state
            .store(RunState::Quiescing as u8, Ordering::Release);
        self.end_all_waits(Reason::QMgrQuiescing);
    }

    /// Stops: every wait ends and every later call answers Q_MGR_STOPPING. A persistent queue
    /// manager takes a last checkpoint, so its next start has no log to replay.
    pub fn stop(&self) {
        self.shared
            .run_state
            .store(RunState::Stopping as u8, Ordering::Release);
        self.end_all_waits(Reason::QMgrStopping);
        if let Err(e) = self.checkpoint() {
            tracing::warn!(error = %e, "the checkpoint at stop failed; the next start replays the log");
        }
    }

    fn end_all_waits(&self, reason: Reason) {
        for q in self.local_queues() {
            q.lock().waiters.end_all(reason);
        }
    }

    pub(crate) fn local_queues(&self) -> Vec<Arc<Queue>> {
        self.shared
            .objects
            .read()
            .values()
            .filter_map(|o| match o {
                Object::Local(q) => Some(q.clone()),
                _ => None,
            })
            .collect()
    }

    pub(crate) fn lookup(&self, name: &ObjectName) -> Option<Object> {
        self.shared.objects.read().get(name).cloned()
    }

    /// The local queue called `name`.
    pub fn local_queue(&self, name: &ObjectName) -> MqResult<Arc<Queue>> {
        match self.lookup(name) {
            Some(Object::Local(q)) => Ok(q),
            Some(_) => Err(MqError::new(
                Reason::QTypeError,
                format!("{name} is not a local queue"),
            )),
            None => Err(unknown(name)),
        }
    }

    /// Resolves a name to a local queue, following an alias.
    pub(crate) fn resolve_local(&self, name: &ObjectName) -> MqResult<Arc<Queue>> {
        match self.lookup(name) {
            Some(Object::Local(q)) => Ok(q),
            Some(Object::Alias(a)) => {
                let target = a.lock().target;
                self.local_queue(&target)
            }
            Some(Object::Model(_)) => Err(MqError::new(
                Reason::QTypeError,
                format!("{name} is a model queue"),
            )),
            Some(Object::Remote(_)) => Err(remote_unavailable(name)),
            None => Err(unknown(name)),
        }
    }

    pub(crate) fn new_uow_id(&self) -> u64 {
        self.shared.next_uow.fetch_add(1, Ordering::Relaxed)
    }
}

/// Remote queues need channels, which this queue manager does not run yet.
pub(crate) fn remote_unavailable(name: &ObjectName) -> MqError {
    MqError::new(
        Reason::FunctionNotSupported,
        format!("{name} is a remote queue; moving messages to other queue managers needs channels, which this version does not run yet"),
    )
}

pub(crate) fn unknown(name: &ObjectName) -> MqError {
    MqError::new(
        Reason::UnknownObjectName,
        format!("queue {name} is not defined on this queue manager"),
    )
}
