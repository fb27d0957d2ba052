//! The queue manager: its attributes, the object catalogue, system objects, connections, dynamic
//! queues, dead-lettering and the administrative operations (define, alter, delete, clear,
//! status) that the admin shell and the server build on.
//!
//! Lock order: catalogue (`objects`) before any queue lock; never a queue lock while taking the
//! catalogue. The catalogue lock is a read lock on the MQI paths (open, put1) and is not touched
//! by put or get on an open handle.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

use crate::store::IdHasher;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use parking_lot::{Mutex, RwLock};

use crate::clock::Clock;
use crate::message::{format, DeadLetterHeader, IdGenerator, Message};
use crate::name::{object_name, ApplName, ObjectName};
use crate::objects::{
    AliasQueueAttrs, DefinitionType, DeliverySequence, LocalQueueAttrs, QueueDefinition,
    QueueManagerAttrs,
};
use crate::options::ConnectOptions;
use crate::queue::Queue;
use crate::reason::{MqError, MqResult, Reason};
use crate::session::Session;
use crate::system;

/// What a catalogue entry holds.
#[derive(Debug, Clone)]
pub(crate) enum Object {
    Local(Arc<Queue>),
    /// Shared so handles opened through the alias see ALTERs of its inhibit flags.
    Alias(Arc<Mutex<AliasQueueAttrs>>),
    Model(LocalQueueAttrs),
    /// Shared so ALTERs are seen by handles (once channels move its messages).
    Remote(Arc<Mutex<crate::objects::RemoteQueueAttrs>>),
}

/// Run state of the queue manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunState {
    /// Accepting work.
    Running = 0,
    /// Finishing: no new connections; waits end with Q_MGR_QUIESCING.
    Quiescing = 1,
    /// Stopped or stopping: every call answers Q_MGR_STOPPING.
    Stopping = 2,
}

/// How a connection reaches the queue manager (DISPLAY CONN's CONNOPTS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnMode {
    /// In the queue manager's own process.
    Embedded,
    /// Over the local Unix socket.
    Local,
    /// Over TCP.
    Tcp,
    /// Over TLS.
    Tls,
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
    /// Open handles by handle number, for connection status.
    pub handles: Mutex<BTreeMap<u32, crate::catalog::HandleInfo>>,
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

/// Status of a local queue (DISPLAY QSTATUS).
#[derive(Debug, Clone)]
pub struct QueueStatus {
    /// Queue name.
    pub name: ObjectName,
    /// CURDEPTH: messages held, committed or not.
    pub depth: usize,
    /// Messages a get could take now.
    pub available: usize,
    /// UNCOM: messages put or got in units of work not yet ended.
    pub uncommitted: usize,
    /// IPPROCS.
    pub open_input: usize,
    /// OPPROCS.
    pub open_output: usize,
    /// Getters waiting now.
    pub waiting_getters: usize,
    /// Age of the oldest message (MSGAGE).
    pub oldest_msg_age: Option<Duration>,
    /// Counters.
    pub stats: crate::queue::QueueStats,
    /// Expired messages discarded.
    pub expired: u64,
}

/// What a restart found in the recovery log.
#[derive(Debug, Clone)]
pub struct RecoveryReport {
    /// The checkpoint restart began from, if any.
    pub checkpoint: Option<String>,
    /// Newer checkpoints found damaged and passed over (a crash while one was written).
    pub skipped_checkpoints: Vec<String>,
    /// Log records replayed.
    pub records: usize,
    /// Persistent messages restored to their queues.
    pub messages: usize,
    /// Units of work open at the crash, backed out.
    pub uows_backed_out: usize,
    /// Messages that expired while the queue manager was down.
    pub expired: usize,
    /// A torn tail dropped (file, offset): records never acknowledged.
    pub torn_tail: Option<(String, u64)>,
    /// What recovering to the last good record gave up, if that was asked for.
    pub lost: Option<ferry_log::Loss>,
    /// How long the restart took.
    pub took: Duration,
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
}

impl QmConfig {
    /// Defaults for a queue manager called `name`.
    pub fn new(name: &str) -> MqResult<Self> {
        Ok(QmConfig {
            attrs: QueueManagerAttrs::new(object_name(name)?),
            clock: Clock::default(),
            dev_queues: true,
        })
    }
}

pub(crate) struct Shared {
    pub attrs: RwLock<QueueManagerAttrs>,
    /// The object catalogue. Hashed with the cheap id hasher: every put1 looks a name up.
    pub objects: RwLock<HashMap<ObjectName, Object, BuildHasherDefault<IdHasher>>>,
    pub ids: IdGenerator,
    pub clock: Clock,
    pub run_state: AtomicU8,
    pub connections: Mutex<BTreeMap<u64, ConnectionInfo>>,
    pub next_conn: AtomicU64,
    pub next_uow: AtomicU64,
    pub dynamic_counter: AtomicU64,
    /// The recovery log, when the queue manager is persistent.
    pub persist: std::sync::OnceLock<Arc<crate::persist::Persist>>,
    /// Channels, listeners, the server's listener hook, the directory.
    pub catalog: crate::catalog::Catalog,
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
    pub fn new(config: QmConfig) -> MqResult<Self> {
        config.attrs.validate()?;
        let ids = IdGenerator::new(config.attrs.name.as_str());
        let qm = QueueManager {
            shared: Arc::new(Shared {
                attrs: RwLock::new(config.attrs),
                objects: RwLock::new(HashMap::default()),
                ids,
                clock: config.clock,
                run_state: AtomicU8::new(RunState::Running as u8),
                connections: Mutex::new(BTreeMap::new()),
                next_conn: AtomicU64::new(1),
                next_uow: AtomicU64::new(1),
                dynamic_counter: AtomicU64::new(0),
                persist: std::sync::OnceLock::new(),
                catalog: Default::default(),
            }),
        };
        system::define_system_objects(&qm, config.dev_queues)?;
        Ok(qm)
    }

    /// The recovery log, when this queue manager keeps persistent messages across restarts.
    pub fn persist(&self) -> Option<&Arc<crate::persist::Persist>> {
        self.shared.persist.get()
    }

    /// A queue manager whose persistent messages and definitions live in the recovery log on
    /// `storage`: the newest good checkpoint is read, the log records after it are replayed
    /// (units of work open at a crash are backed out), and the log is opened for appending. A
    /// background thread takes checkpoints as the log grows. Returns what the restart found.
    pub fn open_persistent(
        config: QmConfig,
        storage: Arc<dyn ferry_log::Storage>,
        settings: crate::persist::PersistSettings,
        mode: ferry_log::RecoveryMode,
    ) -> MqResult<(Self, RecoveryReport)> {
        use crate::persist::Recovery;
        let started = std::time::Instant::now();
        let data = |e: ferry_log::LogError| MqError::new(Reason::QMgrDataError, e.to_string());
        let (loaded, skipped) = crate::checkpoint::load_newest(storage.as_ref())?;
        let (mut recovery, start, checkpoint) = match loaded {
            Some(l) => (l.recovery, Some(l.replay_from), Some(l.file)),
            None => (Recovery::default(), None, None),
        };
        if start.is_none() {
            // Without a checkpoint the log must be whole from its first extent.
            let first = storage
                .list()
                .map_err(|e| MqError::new(Reason::QMgrDataError, e.to_string()))?
                .iter()
                .filter_map(|n| ferry_log::format::extent_number(n))
                .min();
            if let Some(first) = first.filter(|f| *f != 1) {
                return Err(MqError::new(
                    Reason::QMgrDataError,
                    format!(
                        "the recovery log starts at extent {first} but no checkpoint can be read{}",
                        if skipped.is_empty() {
                            String::new()
                        } else {
                            format!(" (damaged: {})", skipped.join(", "))
                        }
                    ),
                ));
            }
        }
        let mut failed = None;
        let end = ferry_log::scan_from(storage.as_ref(), start, mode, &mut |r| {
            recovery.apply(r).map_err(|e| {
                let text = e.detail.clone();
                failed = Some(e);
                ferry_log::LogError::Io(text)
            })
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let end = end.map_err(data)?;
        recovery.finish();
        let qm = QueueManager::new(config)?;
        qm.shared
            .next_uow
            .store(recovery.max_uow + 1, Ordering::Relaxed);
        // Definitions: a checkpoint holds the complete set, so default queues missing from it
        // were deleted (system queues are always kept).
        let defined: std::collections::HashSet<ObjectName> =
            recovery.definitions.iter().map(|(n, _)| *n).collect();
        let mut gone: Vec<ObjectName> = recovery
            .deleted
            .iter()
            .filter(|n| !defined.contains(n))
            .copied()
            .collect();
        if recovery.definitions_complete {
            gone.extend(
                qm.queue_names()
                    .into_iter()
                    .map(|(n, _)| n)
                    .filter(|n| !defined.contains(n) && !n.as_str().starts_with("SYSTEM.")),
            );
        }
        for name in gone {
            if qm.lookup(&name).is_some() {
                qm.delete_queue(name.as_str(), true)?;
            }
        }
        for (name, def) in &recovery.definitions {
            qm.define_in_memory(*name, def.clone(), true)?;
        }
        for ((kind, name), text) in &recovery.objects {
            qm.restore_object(*kind, *name, text)?;
        }
        let mut messages = 0;
        for (name, msgs) in std::mem::take(&mut recovery.messages) {
            let Ok(q) = qm.local_queue(&name) else {
                continue;
            };
            let mut st = q.lock();
            for (seq, l) in msgs {
                let expires_at = crate::persist::time_left(l.expiry_ms)
                    .map_or(0, |d| qm.shared.clock.deadline(d));
                if l.expiry_ms != 0 && expires_at == 0 {
                    continue;
                }
                st.store.insert_on_disk(
                    seq,
                    l.entry,
                    expires_at,
                    crate::store::SlotState::Available,
                );
                messages += 1;
            }
        }
        for (name, max) in &recovery.max_seq {
            if let Ok(q) = qm.local_queue(name) {
                q.lock().store.resume_after(*max);
            }
        }
        let log = ferry_log::Log::open(storage.clone(), settings.log, end.tail).map_err(data)?;
        let progress = crate::checkpoint::Progress {
            at_time: Some(std::time::Instant::now()),
            ..Default::default()
        };
        let persist = crate::persist::Persist::new(log, storage, settings, progress);
        let _ = qm.shared.persist.set(persist.clone());
        for q in qm.local_queues() {
            let mut st = q.lock();
            st.persist = Some(persist.clone());
            st.store.set_buffer_limit(settings.queue_buffer);
        }
        qm.start_checkpointer().map_err(|e| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot start the checkpoint thread: {e}"),
            )
        })?;
        let report = RecoveryReport {
            checkpoint,
            skipped_checkpoints: skipped,
            records: recovery.records,
            messages,
            uows_backed_out: recovery.uows_backed_out,
            expired: recovery.expired,
            torn_tail: end.torn_tail,
            lost: end.lost,
            took: started.elapsed(),
        };
        tracing::info!(
            checkpoint = report.checkpoint.as_deref().unwrap_or("none"),
            records = report.records,
            messages = report.messages,
            uows_backed_out = report.uows_backed_out,
            expired = report.expired,
            took_ms = report.took.as_millis() as u64,
            "recovery complete"
        );
        Ok((qm, report))
    }

    /// Takes a checkpoint now (a clean stop does, so the next start replays nothing). Returns
    /// `None` for a queue manager without a recovery log.
    pub fn checkpoint(&self) -> MqResult<Option<crate::checkpoint::Report>> {
        crate::checkpoint::take(self)
    }

    /// Starts the thread that takes a checkpoint whenever enough log has been written since the
    /// last one; it ends when the queue manager is dropped or stops.
    fn start_checkpointer(&self) -> std::io::Result<()> {
        let weak = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("ferry-checkpoint".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_millis(50));
                let Some(shared) = weak.upgrade() else { return };
                let qm = QueueManager { shared };
                if qm.run_state() == RunState::Stopping {
                    return;
                }
                let Some(p) = qm.persist() else { return };
                if crate::checkpoint::due(p) {
                    if let Err(e) = crate::checkpoint::take(&qm) {
                        tracing::warn!(error = %e, "checkpoint failed; will retry");
                    }
                }
            })
            .map(|_| ())
    }

    /// A queue manager with default settings, for tests and quick starts.
    pub fn with_name(name: &str) -> MqResult<Self> {
        QueueManager::new(QmConfig::new(name)?)
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
        *self.shared.attrs.write() = a;
        Ok(())
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

    /// Connects with an explicit mode and peer description (used by the server for remote
    /// connections).
    pub fn connect_as(
        &self,
        opts: &ConnectOptions,
        mode: ConnMode,
        peer: String,
    ) -> MqResult<Session> {
        match self.run_state() {
            RunState::Running => {}
            RunState::Quiescing => {
                return Err(MqError::new(
                    Reason::QMgrQuiescing,
                    format!("queue manager {} is quiescing", self.name()),
                ))
            }
            RunState::Stopping => {
                return Err(MqError::new(
                    Reason::QMgrStopping,
                    format!("queue manager {} is stopping", self.name()),
                ))
            }
        }
        let max = self.shared.attrs.read().max_connections;
        let id = self.shared.next_conn.fetch_add(1, Ordering::Relaxed);
        let user = opts.user_id.clone().unwrap_or_else(current_user);
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
                    connected_at: SystemTime::now(),
                    counters: counters.clone(),
                },
            );
        }
        Ok(Session::new(
            self.clone(),
            id,
            ApplName::truncating(&opts.app_name),
            &user,
            counters,
        ))
    }

    pub(crate) fn forget_connection(&self, id: u64) {
        self.shared.connections.lock().remove(&id);
    }

    /// The connections now open.
    pub fn connections(&self) -> Vec<ConnectionInfo> {
        self.shared.connections.lock().values().cloned().collect()
    }

    /// Ends every wait with QUIESCING and refuses new connections; existing work may finish.
    pub fn quiesce(&self) {
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

    /// Defines a queue. With `replace`, an existing queue of the same type gets the new
    /// attributes (its messages stay); without, an existing name is an error.
    pub fn define_queue(&self, name: &str, def: QueueDefinition, replace: bool) -> MqResult<()> {
        let n = object_name(name)?;
        let _gate = self.persist().map(|p| p.gate());
        self.define_in_memory(n, def.clone(), replace)?;
        self.log_definition(&n, &def)
    }

    /// Makes a definition durable, when the queue manager is persistent.
    fn log_definition(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()> {
        match self.persist() {
            Some(p) => p.define(name, def),
            None => Ok(()),
        }
    }

    pub(crate) fn define_in_memory(
        &self,
        name: ObjectName,
        def: QueueDefinition,
        replace: bool,
    ) -> MqResult<()> {
        match &def {
            QueueDefinition::Local(a) | QueueDefinition::Model(a) => a.validate()?,
            QueueDefinition::Alias(a) => {
                if a.target.is_empty() {
                    return Err(MqError::new(
                        Reason::AttributeValueError,
                        format!("alias {name} needs a TARGET"),
                    ));
                }
            }
            QueueDefinition::Remote(a) => {
                if a.remote_qmgr.is_empty() && a.xmit_queue.is_empty() {
                    return Err(MqError::new(
                        Reason::AttributeValueError,
                        format!("remote queue {name} needs RQMNAME (or XMITQ)"),
                    ));
                }
            }
        }
        let mut objects = self.shared.objects.write();
        if let Some(existing) = objects.get(&name) {
            if !replace {
                return Err(MqError::new(
                    Reason::ObjectAlreadyExists,
                    format!("queue {name} already exists"),
                ));
            }
            let same_type = matches!(
                (existing, &def),
                (Object::Local(_), QueueDefinition::Local(_))
                    | (Object::Alias(_), QueueDefinition::Alias(_))
                    | (Object::Model(_), QueueDefinition::Model(_))
                    | (Object::Remote(_), QueueDefinition::Remote(_))
            );
            if !same_type {
                return Err(MqError::new(
                    Reason::QTypeError,
                    format!("queue {name} exists with another type; delete it first"),
                ));
            }
            if let (Object::Local(q), QueueDefinition::Local(a)) = (existing, &def) {
                return apply_local_attrs(q, a.clone());
            }
        }
        let obj = match def {
            QueueDefinition::Local(a) => Object::Local(self.new_queue(name, a)),
            QueueDefinition::Alias(a) => Object::Alias(Arc::new(Mutex::new(a))),
            QueueDefinition::Model(a) => Object::Model(a),
            QueueDefinition::Remote(a) => Object::Remote(Arc::new(Mutex::new(a))),
        };
        objects.insert(name, obj);
        Ok(())
    }

    /// A local queue's attributes.
    pub fn local_attrs(&self, name: &str) -> MqResult<LocalQueueAttrs> {
        let q = self.local_queue(&object_name(name)?)?;
        let attrs = q.lock().attrs.clone();
        Ok(attrs)
    }

    /// The definition of any queue.
    pub fn definition(&self, name: &str) -> MqResult<QueueDefinition> {
        let n = object_name(name)?;
        match self.lookup(&n) {
            Some(Object::Local(q)) => Ok(QueueDefinition::Local(q.lock().attrs.clone())),
            Some(Object::Alias(a)) => Ok(QueueDefinition::Alias(a.lock().clone())),
            Some(Object::Model(a)) => Ok(QueueDefinition::Model(a)),
            Some(Object::Remote(a)) => Ok(QueueDefinition::Remote(a.lock().clone())),
            None => Err(unknown(&n)),
        }
    }

    /// Changes a local queue's attributes (ALTER QLOCAL). Turning GET off ends every waiting get
    /// with GET_INHIBITED; changing MSGDLVSQ reorders the stored messages.
    pub fn alter_local(&self, name: &str, f: impl FnOnce(&mut LocalQueueAttrs)) -> MqResult<()> {
        let q = self.local_queue(&object_name(name)?)?;
        let _gate = self.persist().map(|p| p.gate());
        let mut a = q.lock().attrs.clone();
        f(&mut a);
        a.validate()?;
        apply_local_attrs(&q, a.clone())?;
        self.log_definition(&q.name, &QueueDefinition::Local(a))
    }

    /// A new queue object, logging its persistent messages when the queue manager persists.
    fn new_queue(&self, name: ObjectName, attrs: LocalQueueAttrs) -> Arc<Queue> {
        let q = Queue::new(name, attrs);
        if let Some(p) = self.persist() {
            let mut st = q.lock();
            st.persist = Some(p.clone());
            st.store.set_buffer_limit(p.settings().queue_buffer);
        }
        q
    }

    /// Changes an alias queue's attributes (ALTER QALIAS).
    pub fn alter_alias(&self, name: &str, f: impl FnOnce(&mut AliasQueueAttrs)) -> MqResult<()> {
        let n = object_name(name)?;
        let _gate = self.persist().map(|p| p.gate());
        match self.lookup(&n) {
            Some(Object::Alias(a)) => {
                let def = {
                    let mut a = a.lock();
                    f(&mut a);
                    a.clone()
                };
                self.log_definition(&n, &QueueDefinition::Alias(def))
            }
            Some(_) => Err(MqError::new(
                Reason::QTypeError,
                format!("{n} is not an alias queue"),
            )),
            None => Err(unknown(&n)),
        }
    }

    /// Deletes a queue. A local queue must have no open handles, and no messages unless `purge`.
    pub fn delete_queue(&self, name: &str, purge: bool) -> MqResult<()> {
        let n = object_name(name)?;
        let _gate = self.persist().map(|p| p.gate());
        let mut objects = self.shared.objects.write();
        match objects.get(&n) {
            None => return Err(unknown(&n)),
            Some(Object::Local(q)) => {
                let mut st = q.lock();
                if st.open_input + st.open_output > 0 {
                    return Err(MqError::new(
                        Reason::ObjectInUse,
                        format!(
                            "queue {n} is open ({} input, {} output handles)",
                            st.open_input, st.open_output
                        ),
                    ));
                }
                if st.store.depth() > 0 && !purge {
                    return Err(MqError::new(
                        Reason::QNotEmpty,
                        format!(
                            "queue {n} holds {} messages; clear it or delete with purge",
                            st.store.depth()
                        ),
                    ));
                }
                st.deleted = true;
                st.waiters.end_all(Reason::QDeleted);
            }
            Some(_) => {}
        }
        objects.remove(&n);
        drop(objects);
        match self.persist() {
            Some(p) => p.wait(p.queue_event(crate::persist::kind::DELETE, &n)?),
            None => Ok(()),
        }
    }

    /// Removes every committed message from a local queue (CLEAR QLOCAL). Returns how many.
    pub fn clear_queue(&self, name: &str) -> MqResult<usize> {
        let q = self.local_queue(&object_name(name)?)?;
        let mut st = q.lock();
        if st.store.depth() > st.store.available() {
            return Err(MqError::new(
                Reason::ObjectInUse,
                format!("queue {name} has uncommitted messages; it can be cleared once those units of work end"),
            ));
        }
        // Logged under the queue's lock, like puts and gets, so the log orders it among them.
        let lsn = match self.persist() {
            Some(p) => Some(p.queue_event(crate::persist::kind::CLEAR, &q.name)?),
            None => None,
        };
        let n = st.store.clear_available();
        drop(st);
        if let (Some(p), Some(lsn)) = (self.persist(), lsn) {
            p.wait(lsn)?;
        }
        Ok(n)
    }

    /// Names of every queue, sorted, with their types.
    pub fn queue_names(&self) -> Vec<(ObjectName, crate::objects::QueueType)> {
        let mut v: Vec<_> = self
            .shared
            .objects
            .read()
            .iter()
            .map(|(n, o)| {
                let t = match o {
                    Object::Local(_) => crate::objects::QueueType::Local,
                    Object::Alias(_) => crate::objects::QueueType::Alias,
                    Object::Model(_) => crate::objects::QueueType::Model,
                    Object::Remote(_) => crate::objects::QueueType::Remote,
                };
                (*n, t)
            })
            .collect();
        v.sort_by_key(|a| a.0);
        v
    }

    /// Status of a local queue (DISPLAY QSTATUS).
    pub fn queue_status(&self, name: &str) -> MqResult<QueueStatus> {
        let q = self.local_queue(&object_name(name)?)?;
        let mut st = q.lock();
        st.waiters.prune();
        let uncommitted = st.store.depth() - st.store.available();
        Ok(QueueStatus {
            name: q.name,
            depth: st.store.depth(),
            available: st.store.available(),
            uncommitted,
            open_input: st.open_input,
            open_output: st.open_output,
            waiting_getters: st.waiters.len(),
            oldest_msg_age: st
                .store
                .oldest_put_time()
                .and_then(|t| SystemTime::now().duration_since(t).ok()),
            stats: st.stats.clone(),
            expired: st.store.expired_total,
        })
    }

    /// Discards expired messages on every queue (MQ's EXPRYINT scan). Returns how many went.
    pub fn sweep_expired(&self) -> usize {
        let now = self.shared.clock.now();
        self.local_queues()
            .iter()
            .map(|q| q.lock().store.sweep_expired(now))
            .sum()
    }

    /// Starts a background thread that sweeps expired messages every `interval` until the queue
    /// manager stops.
    pub fn start_expiry_sweeper(
        &self,
        interval: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        let weak = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("ferry-expiry".into())
            .spawn(move || loop {
                std::thread::sleep(interval);
                let Some(shared) = weak.upgrade() else { return };
                let qm = QueueManager { shared };
                if qm.run_state() == RunState::Stopping {
                    return;
                }
                qm.sweep_expired();
            })
    }

    /// Creates a dynamic queue from a model, named from `pattern` (a trailing `*` is replaced by
    /// a unique suffix).
    pub(crate) fn create_dynamic(
        &self,
        model: &LocalQueueAttrs,
        pattern: &str,
    ) -> MqResult<Arc<Queue>> {
        let name = self.dynamic_name(pattern)?;
        let mut attrs = model.clone();
        if attrs.definition_type == DefinitionType::Predefined {
            attrs.definition_type = DefinitionType::TemporaryDynamic;
        }
        let permanent = attrs.definition_type == DefinitionType::PermanentDynamic;
        let q = self.new_queue(name, attrs.clone());
        let _gate = self.persist().filter(|_| permanent).map(|p| p.gate());
        let mut objects = self.shared.objects.write();
        if objects.contains_key(&name) {
            return Err(MqError::new(
                Reason::ObjectAlreadyExists,
                format!("dynamic queue {name} already exists"),
            ));
        }
        objects.insert(name, Object::Local(q.clone()));
        drop(objects);
        if permanent {
            self.log_definition(&name, &QueueDefinition::Local(attrs))?;
        }
        Ok(q)
    }

    fn dynamic_name(&self, pattern: &str) -> MqResult<ObjectName> {
        let pattern = if pattern.is_empty() { "AMQ.*" } else { pattern };
        let bad = || {
            MqError::new(
                Reason::DynamicQNameError,
                format!("dynamic queue name '{pattern}' is not valid; use up to 48 characters, optionally ending in '*'"),
            )
        };
        let Some(prefix) = pattern.strip_suffix('*') else {
            return object_name(pattern).map_err(|_| bad());
        };
        if prefix.contains('*') || prefix.len() > 32 {
            return Err(bad());
        }
        let n = self.shared.dynamic_counter.fetch_add(1, Ordering::Relaxed);
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        object_name(&format!("{prefix}{stamp:08X}{n:08X}")).map_err(|_| bad())
    }

    /// Removes a temporary dynamic queue when its creating handle closes (or its connection ends).
    pub(crate) fn drop_dynamic(&self, q: &Arc<Queue>) {
        let permanent_def = q.lock().attrs.definition_type == DefinitionType::PermanentDynamic;
        let _gate = self.persist().filter(|_| permanent_def).map(|p| p.gate());
        let mut objects = self.shared.objects.write();
        if let Some(Object::Local(existing)) = objects.get(&q.name) {
            if Arc::ptr_eq(existing, q) {
                objects.remove(&q.name);
            }
        }
        let mut st = q.lock();
        st.deleted = true;
        st.waiters.end_all(Reason::QDeleted);
        let permanent = st.attrs.definition_type == DefinitionType::PermanentDynamic;
        drop(st);
        if let (true, Some(p)) = (permanent, self.persist()) {
            if let Err(e) = p
                .queue_event(crate::persist::kind::DELETE, &q.name)
                .and_then(|lsn| p.wait(lsn))
            {
                tracing::warn!(queue = %q.name, error = %e, "could not log the deletion of a dynamic queue");
            }
        }
    }

    /// Puts `msg` on the dead-letter queue with a header saying why and where it was going.
    /// On failure (no dead-letter queue, or it refused the message) the message comes back
    /// unchanged with the reason, so the caller can keep it.
    pub fn dead_letter(
        &self,
        mut msg: Message,
        reason: Reason,
        dest_queue: ObjectName,
        dest_qmgr: ObjectName,
    ) -> Result<(), (MqError, Message)> {
        let dlq_name = self.shared.attrs.read().dead_letter_queue;
        if dlq_name.is_empty() {
            let e = MqError::new(
                Reason::UnknownObjectName,
                "no dead-letter queue is defined (DEADQ is blank)",
            );
            return Err((e, msg));
        }
        let dlq = match self.local_queue(&dlq_name) {
            Ok(q) => q,
            Err(e) => return Err((e, msg)),
        };
        let original_format = msg.descriptor.format;
        let header = DeadLetterHeader {
            reason,
            dest_queue,
            dest_qmgr: if dest_qmgr.is_empty() {
                self.name()
            } else {
                dest_qmgr
            },
            original_format,
            put_appl_name: ApplName::truncating("ferry queue manager"),
            put_time: SystemTime::now(),
        };
        msg.dead_letter = Some(Box::new(header));
        msg.descriptor.format = format::name(format::DEAD_LETTER);
        let expires_at = match msg.descriptor.expiry {
            Some(d) => self.shared.clock.deadline(d),
            None => 0,
        };
        dlq.try_put(msg, expires_at, None, self.shared.clock.now())
            .map(|_| ())
            .map_err(|(e, mut m)| {
                m.dead_letter = None;
                m.descriptor.format = original_format;
                (e, m)
            })
    }

    /// Moves a message that reached its backout threshold to BOQNAME, or else to the dead-letter
    /// queue. If neither accepts it, it is restored to its queue and a warning logged: a poison
    /// message then stays visible rather than being lost.
    pub(crate) fn requeue_poison(
        &self,
        source: &Arc<Queue>,
        msg: Message,
        seq: u64,
        expires_at: u64,
    ) {
        let boq = source.lock().attrs.backout_requeue_name;
        let now = self.shared.clock.now();
        let mut msg = msg;
        if !boq.is_empty() {
            match self.resolve_local(&boq) {
                Ok(q) => match q.try_put(msg, expires_at, None, now) {
                    Ok(_) => return,
                    Err((e, m)) => {
                        tracing::warn!(queue = %source.name, boqname = %boq, error = %e,
                            "backout queue refused a poison message; trying the dead-letter queue");
                        msg = m;
                    }
                },
                Err(e) => {
                    tracing::warn!(queue = %source.name, boqname = %boq, error = %e,
                        "backout queue is not usable; trying the dead-letter queue");
                }
            }
        }
        if expires_at != 0 {
            // dead_letter() takes the deadline from the descriptor's expiry: give it the time
            // left, so moving the message does not restart its expiry.
            msg.descriptor.expiry =
                Some(Duration::from_nanos(expires_at.saturating_sub(now).max(1)));
        }
        if let Err((e, m)) = self.dead_letter(
            msg,
            Reason::BackoutThresholdReached,
            source.name,
            ObjectName::EMPTY,
        ) {
            tracing::warn!(queue = %source.name, error = %e,
                "no backout or dead-letter queue accepted a poison message; it stays on its queue");
            source.restore(m, seq, expires_at);
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

/// Applies new attributes to a live queue, with the side effects ALTER implies.
fn apply_local_attrs(q: &Arc<Queue>, a: LocalQueueAttrs) -> MqResult<()> {
    let mut st = q.lock();
    let fifo_now = st.attrs.delivery_sequence == DeliverySequence::Fifo;
    if (a.delivery_sequence == DeliverySequence::Fifo) != fifo_now
        && st.store.depth() > st.store.available()
    {
        // Reordering moves messages between lanes; units of work hold their old positions.
        return Err(MqError::new(
            Reason::ObjectInUse,
            format!("MSGDLVSQ of queue {} cannot change while units of work hold messages on it; retry once they end", q.name),
        ));
    }
    let get_now_inhibited = a.get_inhibited && !st.attrs.get_inhibited;
    let fifo = a.delivery_sequence == DeliverySequence::Fifo;
    st.store.set_fifo(fifo);
    st.attrs = a;
    if get_now_inhibited {
        st.waiters.end_all(Reason::GetInhibited);
    }
    Ok(())
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

fn current_user() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "ferry".into())
}
