//! A connection's state inside the engine: its object handles and its unit of work, and the MQI
//! verbs (open, put, put1, get, inquire, set, commit, backout, close, disconnect) applied to them.
//!
//! Every connection mode ends here: the embedded client calls a `Session` directly; the server
//! (local and tcp modes) drives one per remote connection. A session is used by one caller at a
//! time (`&mut self`), as an MQ connection handle is.
//!
//! Units of work: a put or get "in syncpoint" joins the connection's single open unit of work,
//! which ends with commit or backout. **Disconnect** commits it (as IBM MQ does on a normal
//! MQDISC); a session **dropped without disconnect** (the application died, its connection
//! broke, or it panicked) backs it out. Either way its handles are closed and temporary dynamic
//! queues it created are deleted.

mod attrs;
mod get;
mod open;
mod publish;
mod put;
mod report;
mod stream;
mod sub;
mod uow;

pub use publish::Published;
pub use uow::DetachedUow;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use ferry_model::clock::monotonic_now;
use ferry_model::inquire::{self, AttrValue, QueueCounts, Selector};
use ferry_model::message::{
    CorrelId, Message, MessageType, MsgId, Persistence, Priority, PropertyValue, MAX_PRIORITY,
};
use ferry_model::name::{ApplName, ObjectName, UserId};
use ferry_model::objects::{AliasQueueAttrs, DefaultInputOpen, DefinitionType, RemoteQueueAttrs};
use ferry_model::options::{
    BrowseMode, CloseOptions, GetOptions, InputMode, ObjectDescriptor, OpenOptions, PutContext,
    PutOptions, Wait,
};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::status::RunState;
use ferry_model::verbs::{Got, Hobj, PutOutcome};
use ferry_model::IdHasher;

use crate::engine::store::{Match, Pos, UowId};
use crate::engine::waiter::{WaitOutcome, WaitPolicy, Waiter};
use crate::engine::{GetSpec, GetStep, Queue};
use crate::qmgr::security::AuthCache;
use crate::qmgr::{ConnCounters, Object, QueueManager};
use ferry_model::security::{AuthObjType, Authority, Principal};

/// A queue's `Arc` behind a count of one handle's own (see `QueueHandle::own`).
#[derive(Debug)]
struct OwnCount(Arc<Queue>);

#[derive(Debug)]
struct QueueHandle {
    queue: Arc<Queue>,
    /// The same queue behind a count of this handle's own, which each put takes: the queue's
    /// own count is on a line its getters write (each get takes it), and a putter on another
    /// processor would pull that line across twice a put. (Gets keep the queue's count: their
    /// waits hand it on, and a count of their own measured no better.)
    own: Arc<OwnCount>,
    alias: Option<Arc<Mutex<AliasQueueAttrs>>>,
    /// Set when the destination is another queue manager: `queue` is then the transmission
    /// queue, and each put is wrapped in a transmission header.
    remote: Option<RemoteDest>,
    opened_name: ObjectName,
    input: bool,
    exclusive: bool,
    opts: OpenOptions,
    temporary_owner: bool,
    cursor: Option<Pos>,
    /// Present when read-ahead is in effect for this handle.
    stream: Option<StreamLedger>,
    /// The context of the message last got through this handle, kept when it was opened with
    /// `save_all_context` for a later put to pass on.
    saved_context: Option<SavedContext>,
    /// MQOD's SelectionString: gets and browses through this handle see only the messages
    /// it selects.
    selector: Option<Arc<ferry_model::selector::Selector>>,
}

/// A got message's identity and origin context (MQOO_SAVE_ALL_CONTEXT), for a put that passes
/// it (MQPMO_PASS_IDENTITY_CONTEXT takes the user, MQPMO_PASS_ALL_CONTEXT all three).
#[derive(Debug, Clone, Copy)]
struct SavedContext {
    user_id: UserId,
    put_appl_name: ApplName,
    put_time: std::time::SystemTime,
}

/// A destination on another queue manager, reached through a transmission queue.
#[derive(Debug, Clone)]
struct RemoteDest {
    /// The queue's name there.
    queue: ObjectName,
    /// The queue manager.
    qmgr: ObjectName,
    /// The remote queue definition it was opened through, if any (its PUT inhibit and
    /// defaults apply).
    definition: Option<Arc<Mutex<RemoteQueueAttrs>>>,
}

/// Messages streamed ahead to a client (read-ahead) that it has not yet reported consumed. As
/// with MQ they left the queue when they were streamed (got outside syncpoint, non-persistent,
/// delivered at most once): closing the handle or losing the connection discards them. The
/// count only checks the client's reports.
#[derive(Debug)]
struct StreamLedger {
    streamed: usize,
}

#[derive(Debug)]
enum Handle {
    /// Boxed: a queue handle is ~300 bytes, and a session's map of handles holds room for
    /// several from its first.
    Queue(Box<QueueHandle>),
    QueueManager,
    /// A topic opened for publishing: its full topic string and its publisher record.
    Topic(Arc<crate::qmgr::pubsub::status::Publisher>),
    /// A subscription (MQSUB's Hsub).
    Sub(sub::SubHandle),
    /// A namelist or process definition opened for inquire.
    Definition(ferry_model::objects::ObjectKind, ObjectName),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UowKind {
    Put,
    Get,
}

#[derive(Debug)]
struct UowEntry {
    queue: Arc<Queue>,
    pos: Pos,
    kind: UowKind,
}

/// Outcome of one non-blocking get attempt; the server uses this to wait without a thread.
#[derive(Debug)]
pub enum GetAttempt {
    /// Done.
    Got(Got),
    /// Wait on this, then pass the outcome to [`Session::finish_wait`].
    Wait(PendingGet),
}

/// A registered waiting get. Dropping it before it settles cancels the wait, and a message that
/// raced in is put back where it came from, so an abandoned wait (a dropped future, a dead
/// connection) never loses a message.
#[derive(Debug)]
pub struct PendingGet {
    waiter: Arc<Waiter>,
    queue: Arc<Queue>,
    settled: bool,
}

impl PendingGet {
    /// Blocks the thread until the wait settles or `deadline` passes, spinning and yielding
    /// first as `policy` says.
    pub fn wait_blocking(mut self, deadline: Option<Instant>, policy: WaitPolicy) -> WaitOutcome {
        self.settled = true;
        self.waiter.wait_blocking(deadline, policy)
    }

    /// Polls from an async task; `None` means the task's waker is registered.
    pub fn poll(&mut self, waker: &std::task::Waker) -> Option<WaitOutcome> {
        let out = self.waiter.poll_task(waker);
        self.settled |= out.is_some();
        out
    }

    /// Gives up waiting (the wait interval passed). A message that raced in is returned as
    /// `Delivered` and must still be finished or given back.
    pub fn cancel(&mut self) -> WaitOutcome {
        self.settled = true;
        self.waiter.cancel()
    }

    /// Puts back a delivered message that could not be passed to its getter (its connection
    /// ended): it returns to its queue in its original position.
    pub fn give_back(&self, outcome: WaitOutcome) {
        if let WaitOutcome::Delivered(d) = outcome {
            self.queue.undo_delivery(d);
        }
    }
}

impl Drop for PendingGet {
    fn drop(&mut self) {
        if !self.settled {
            if let WaitOutcome::Delivered(d) = self.waiter.cancel() {
                self.queue.undo_delivery(d);
            }
        }
    }
}

/// One connection's engine-side state.
#[derive(Debug)]
pub struct Session {
    qm: QueueManager,
    conn_id: u64,
    app_name: ApplName,
    user_id: UserId,
    handles: HashMap<u32, Handle, BuildHasherDefault<IdHasher>>,
    next_handle: u32,
    uow: Vec<UowEntry>,
    uow_id: Option<UowId>,
    /// The open unit of work touched persistent messages: commit and backout are logged.
    uow_logged: bool,
    /// Retained publications this unit of work changes, applied when it commits.
    retained_pending: Vec<(String, Option<crate::qmgr::pubsub::retained::RetainedPub>)>,
    /// Trigger messages of puts in this unit of work, put when it ends (either way).
    pending_triggers: Vec<crate::qmgr::trigger::Trigger>,
    /// Set by servers: calls do not wait for the log, they leave the LSN owed in `owed_lsn`.
    defer_durability: bool,
    /// Highest LSN a reply must not precede (with `defer_durability`).
    owed_lsn: u64,
    counters: Arc<ConnCounters>,
    ended: bool,
    /// The queue manager's own channel agents (a sender's thread, an authenticated receiving
    /// end, RESET and RESOLVE CHANNEL): only they may open SYSTEM.CHANNEL.SYNCQ.
    channel_agent: bool,
    /// Who this connection acts as: its opens and administrative commands are checked
    /// against the authority records for it.
    principal: Arc<Principal>,
    /// What it was found to hold, per object, in the current security generation.
    auth: AuthCache,
    /// Dynamic queues it created and has not deleted through its handles (MAXDYNQC).
    dynamic_queues: usize,
    /// The queue manager's own work (`QueueManager::internal_session`): its calls are not
    /// counted as an application's (STATMQI).
    pub(crate) internal: bool,
    /// Whether its publications note a subscriber's queue three quarters full
    /// ([`Published::crowded`]): the MQTT service's sessions, which then read no more from
    /// their client for a while.
    watch_crowding: bool,
    /// What this connection accounts for (ACCTMQI, ACCTQ as it connected).
    pub(crate) acct: Option<Box<Mutex<crate::qmgr::accounting::Accounting>>>,
}

impl Session {
    pub(crate) fn new(
        qm: QueueManager,
        conn_id: u64,
        app_name: ApplName,
        who: Principal,
        counters: Arc<ConnCounters>,
    ) -> Self {
        Session {
            qm,
            conn_id,
            app_name,
            user_id: UserId::truncating(&who.user),
            principal: Arc::new(who),
            auth: AuthCache::default(),
            handles: HashMap::default(),
            next_handle: 1,
            uow: Vec::new(),
            uow_id: None,
            uow_logged: false,
            retained_pending: Vec::new(),
            pending_triggers: Vec::new(),
            defer_durability: false,
            owed_lsn: 0,
            counters,
            ended: false,
            channel_agent: false,
            dynamic_queues: 0,
            internal: false,
            watch_crowding: false,
            acct: None,
        }
    }

    /// Counts an application's call (STATMQI); the queue manager's own are not counted.
    fn count_call<T>(&self, call: crate::qmgr::apistats::ApiCall, r: &MqResult<T>) {
        if !self.internal {
            self.qm.api_stats().count_result(call, r);
        }
        self.account(|a, _| a.call(call, r.is_ok()));
    }

    /// Runs `f` on the connection's accounting, if it accounts — first writing an
    /// intermediate record when ACCTINT has passed (MQ writes it at the first call after).
    pub(super) fn account(
        &self,
        f: impl FnOnce(&mut crate::qmgr::accounting::Accounting, &QueueManager),
    ) {
        let Some(cell) = &self.acct else { return };
        let mut a = cell.lock();
        if a.due(self.qm.clock().wall()) {
            a.write(&self.qm, None);
        }
        f(&mut a, &self.qm);
    }

    /// The local queue a handle's calls are accounted against (`None` for other objects, or
    /// when the connection does not account).
    pub(super) fn accounted_queue(&self, h: Hobj) -> Option<ObjectName> {
        self.acct.as_ref()?;
        match self.handles.get(&h.0) {
            Some(Handle::Queue(qh)) => Some(qh.queue.name),
            _ => None,
        }
    }

    /// Counts an application's MQOPEN, MQCLOSE, MQINQ or MQSET of an object of MQOT_* type
    /// `ot` in the STATMQI slots from `ok_slot` (a failure in the run after it), when STATMQI
    /// is ON.
    fn count_typed<T>(&self, ok_slot: usize, ot: usize, r: &MqResult<T>) {
        let stats = self.qm.mqi_stats();
        let run = if r.is_ok() {
            ok_slot
        } else {
            ok_slot + crate::qmgr::apistats::OBJECT_TYPES
        };
        if !self.internal && stats.on() {
            stats.add(run + ot, 1);
        }
        self.account(|a, _| a.add(run + ot, 1));
    }

    /// The MQOT_* type a handle's calls count under (a subscription's under MQOT_TOPIC).
    fn object_type(&self, h: Hobj) -> usize {
        use crate::qmgr::apistats::{OT_NAMELIST, OT_PROCESS, OT_Q, OT_Q_MGR, OT_TOPIC};
        use ferry_model::objects::ObjectKind;
        match self.handles.get(&h.0) {
            Some(Handle::QueueManager) => OT_Q_MGR,
            Some(Handle::Definition(ObjectKind::Namelist, _)) => OT_NAMELIST,
            Some(Handle::Definition(ObjectKind::Topic, _)) => OT_TOPIC,
            Some(Handle::Definition(..)) => OT_PROCESS,
            Some(Handle::Topic(_)) | Some(Handle::Sub(_)) => OT_TOPIC,
            _ => OT_Q,
        }
    }

    /// Who this connection acts as.
    pub fn principal(&self) -> &Arc<Principal> {
        &self.principal
    }

    /// Makes this connection act as `who` from now on (a receiving channel once its partner
    /// is authenticated: it puts under its MCAUSER). Handles already open keep what they were
    /// granted.
    /// Has its publications report a subscriber's queue three quarters full
    /// ([`Published::crowded`]), for a publisher that can wait.
    pub fn watch_crowding(&mut self, on: bool) {
        self.watch_crowding = on;
    }

    pub fn act_as(&mut self, who: Principal) {
        self.user_id = UserId::truncating(&who.user);
        self.principal = Arc::new(who);
    }

    /// NOT_AUTHORIZED unless one of the topic objects at or above `topic` (closest first, as
    /// MQ checks the topic tree) grants this connection `needed`; the refusal names the
    /// closest. Returns the object that granted it.
    pub(super) fn authorize_topic(
        &mut self,
        topic: &str,
        needed: Authority,
    ) -> MqResult<ObjectName> {
        let chain = self.qm.topic_chain(topic);
        debug_assert!(!chain.is_empty(), "the base topic object is always defined");
        for n in &chain {
            let held = self
                .auth
                .held(&self.qm, &self.principal, AuthObjType::Topic, n);
            if held.contains(needed) {
                return Ok(*n);
            }
        }
        self.authorize(AuthObjType::Topic, &chain[0], needed)?;
        Ok(chain[0])
    }

    /// NOT_AUTHORIZED unless this connection holds `needed` on the object.
    pub(super) fn authorize(
        &mut self,
        objtype: AuthObjType,
        name: &ObjectName,
        needed: Authority,
    ) -> MqResult<()> {
        let held = self.auth.held(&self.qm, &self.principal, objtype, name);
        if held.contains(needed) {
            return Ok(());
        }
        let e = crate::qmgr::security::not_authorized(
            &self.principal,
            objtype,
            name.as_str(),
            needed.without(held),
        );
        self.qm.note_authority_failure(
            &self.principal,
            &self.conn_id.to_string(),
            &e,
            ferry_model::pcf::RQ_OPEN_NOT_AUTHORIZED,
            name.as_str(),
        );
        Err(e)
    }

    /// Stops calls from waiting for the recovery log: instead each leaves the LSN that must be
    /// durable before its result is shown to anyone, taken with [`Session::take_owed_lsn`]. A
    /// server uses this to go on serving other requests while the log syncs, and so lets many
    /// connections share one sync; it must hold each reply until its LSN is durable.
    pub fn defer_durability(&mut self, on: bool) {
        self.defer_durability = on;
    }

    /// The LSN the last calls' replies must wait for (with [`Session::defer_durability`]), if
    /// any; resets it.
    pub fn take_owed_lsn(&mut self) -> Option<u64> {
        match std::mem::take(&mut self.owed_lsn) {
            0 => None,
            l => Some(l),
        }
    }

    /// Adds `lsn` to what the next reply must wait for (work done for this connection
    /// outside its calls, such as administrative commands).
    pub fn owe(&mut self, lsn: u64) {
        self.owed_lsn = self.owed_lsn.max(lsn);
    }

    /// The connection id (as in connection status).
    pub fn connection_id(&self) -> u64 {
        self.conn_id
    }

    /// The live counters shown in connection status.
    pub fn counters(&self) -> &Arc<ConnCounters> {
        &self.counters
    }

    /// The queue manager this session is connected to.
    pub fn queue_manager(&self) -> &QueueManager {
        &self.qm
    }

    /// Makes this session one of the queue manager's channel agents (see `channel_agent`): the
    /// server calls it once a receiving end's partner is authenticated and authorised.
    pub fn set_channel_agent(&mut self) {
        self.channel_agent = true;
    }

    /// NOT_AUTHORIZED for a session that is not a channel agent naming the channels' sync queue.
    pub(super) fn check_channel_queue(&self, name: &ObjectName) -> MqResult<()> {
        if self.channel_agent || name.as_str() != crate::qmgr::system::CHANNEL_SYNC_QUEUE {
            return Ok(());
        }
        Err(MqError::new(
            Reason::NotAuthorized,
            format!(
                "{name} holds the channels' synchronisation records; only the queue manager's channels may open it"
            ),
        ))
    }

    /// Messages in the open unit of work.
    pub fn uow_len(&self) -> usize {
        self.uow.len()
    }

    fn check_running(&self, fail_if_quiescing: bool) -> MqResult<()> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        if self.counters.stop_requested.load(Ordering::Relaxed) {
            return Err(MqError::new(
                Reason::ConnectionStopped,
                "an administrator stopped this connection (STOP CONN)",
            ));
        }
        match self.qm.run_state() {
            RunState::Running => Ok(()),
            RunState::Quiescing if !fail_if_quiescing => Ok(()),
            RunState::Quiescing => Err(MqError::new(
                Reason::QMgrQuiescing,
                format!("queue manager {} is quiescing", self.qm.name()),
            )),
            RunState::Stopping => Err(MqError::new(
                Reason::QMgrStopping,
                format!("queue manager {} is stopping", self.qm.name()),
            )),
        }
    }

    // ----- disconnect -----------------------------------------------------------------------

    /// Disconnects normally: commits the open unit of work, closes every handle.
    pub fn disconnect(mut self) -> MqResult<()> {
        self.disconnect_in_place()
    }

    /// As [`Session::disconnect`], for owners that cannot give the session up (the server keeps
    /// it in a table). Every later call on the session answers HCONN_ERROR.
    pub fn disconnect_in_place(&mut self) -> MqResult<()> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        let r = self.commit_uow();
        self.end(false);
        r
    }

    /// Ends the connection as if the application died: backs out, closes every handle.
    pub fn abandon(mut self) {
        self.end(true);
    }

    fn end(&mut self, backout: bool) {
        if self.ended {
            return;
        }
        if backout {
            self.backout_all();
        }
        if let Some(cell) = self.acct.take() {
            // MQDISCONNECT_NORMAL (0), or IMPLICIT (1) for a connection that ended without MQDISC.
            cell.into_inner().write(&self.qm, Some(i32::from(backout)));
        }
        self.counters.handles.lock().clear();
        for (_, h) in std::mem::take(&mut self.handles) {
            match h {
                Handle::Queue(qh) => {
                    self.release(&qh);
                    if qh.temporary_owner {
                        self.qm.drop_dynamic(&qh.queue);
                    }
                }
                // Non-durable subscriptions end with their connection; durable ones are let go.
                Handle::Sub(sh) => {
                    if let Err(e) = self.close_sub(&sh, CloseOptions::None) {
                        tracing::warn!(error = %e, "a subscription could not be ended with its connection");
                    }
                }
                Handle::Topic(p) => self.qm.unregister_publisher(p.id),
                Handle::QueueManager | Handle::Definition(..) => {}
            }
        }
        self.ended = true;
        self.qm.forget_connection(self.conn_id, backout);
    }
}

impl Drop for Session {
    /// A session dropped without `disconnect` is treated as an application that died: its
    /// unit of work is backed out.
    fn drop(&mut self) {
        self.end(true);
    }
}

fn hobj_error(h: Hobj) -> MqError {
    MqError::new(
        Reason::HobjError,
        format!("object handle {} is not open on this connection", h.0),
    )
}

ferry_model::impl_mqi_by_inherent!(Session);
