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

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use parking_lot::Mutex;

use crate::inquire::{self, AttrValue, QueueCounts, Selector};
use crate::message::{CorrelId, Message, MessageType, MsgId, Persistence, Priority, MAX_PRIORITY};
use crate::name::{ApplName, ObjectName, UserId};
use crate::objects::{AliasQueueAttrs, DefaultInputOpen, DefinitionType, RemoteQueueAttrs};
use crate::options::{
    BrowseMode, CloseOptions, GetOptions, InputMode, ObjectDescriptor, OpenOptions, PutContext,
    PutOptions, Wait,
};
use crate::qmgr::{ConnCounters, Object, QueueManager, RunState};
use crate::queue::{GetSpec, GetStep, Queue};
use crate::reason::{MqError, MqResult, Reason};
use crate::store::{IdHasher, Match, Pos, UowId};
use crate::waiter::{WaitOutcome, Waiter};

/// An object handle, valid on the connection that opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hobj(pub u32);

/// What a put returns: the descriptor fields the queue manager filled in or resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PutOutcome {
    /// The message's id (generated unless supplied).
    pub msg_id: MsgId,
    /// The message's correl id (generated when asked).
    pub correl_id: CorrelId,
    /// The put time the queue manager recorded.
    pub put_time: SystemTime,
    /// The persistence it was put with.
    pub persistence: Persistence,
    /// The priority it was put with.
    pub priority: u8,
    /// A warning, e.g. PRIORITY_EXCEEDS_MAXIMUM.
    pub warning: Option<Reason>,
}

/// What a get returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Got {
    /// The message (body cut to the buffer limit if truncation was accepted). The descriptor's
    /// expiry is the time that was left.
    pub message: Message,
    /// The full body length before any truncation (MQ's DataLength).
    pub data_length: usize,
    /// TRUNCATED_MSG_ACCEPTED when the body was cut.
    pub warning: Option<Reason>,
}

#[derive(Debug)]
struct QueueHandle {
    queue: Arc<Queue>,
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

/// Messages streamed ahead to a client (read-ahead) that it has not yet reported consumed. They
/// are held as gets in a unit of work of their own: reported consumption commits them, closing
/// the handle returns the rest to the queue in their original positions (as MQ does), and a
/// connection that dies loses them (as with MQ: read-ahead is for non-persistent messages got
/// outside syncpoint, delivered at most once).
#[derive(Debug)]
struct StreamLedger {
    uow: UowId,
    pending: std::collections::VecDeque<Pos>,
}

#[derive(Debug)]
enum Handle {
    Queue(QueueHandle),
    QueueManager,
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
    /// Blocks the thread until the wait settles or `deadline` passes.
    pub fn wait_blocking(mut self, deadline: Option<Instant>) -> WaitOutcome {
        self.settled = true;
        self.waiter.wait_blocking(deadline)
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
    /// Set by servers: calls do not wait for the log, they leave the LSN owed in `owed_lsn`.
    defer_durability: bool,
    /// Highest LSN a reply must not precede (with `defer_durability`).
    owed_lsn: u64,
    counters: Arc<ConnCounters>,
    ended: bool,
}

impl Session {
    pub(crate) fn new(
        qm: QueueManager,
        conn_id: u64,
        app_name: ApplName,
        user: &str,
        counters: Arc<ConnCounters>,
    ) -> Self {
        Session {
            qm,
            conn_id,
            app_name,
            user_id: UserId::truncating(user),
            handles: HashMap::default(),
            next_handle: 1,
            uow: Vec::new(),
            uow_id: None,
            uow_logged: false,
            defer_durability: false,
            owed_lsn: 0,
            counters,
            ended: false,
        }
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

    // ----- open / close -------------------------------------------------------------------

    /// Opens a queue (local, alias or model) or the queue manager object.
    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        self.check_running(opts.fail_if_quiescing)?;
        if opts.input == InputMode::None
            && !opts.output
            && !opts.browse
            && !opts.inquire
            && !opts.set
        {
            return Err(MqError::new(
                Reason::OptionsError,
                "open needs at least one of input, output, browse, inquire or set",
            ));
        }
        let max = self.qm.shared.attrs.read().max_handles;
        if self.handles.len() >= max {
            return Err(MqError::new(
                Reason::HandleNotAvailable,
                format!("this connection already has {max} handles open (MAXHANDS)"),
            ));
        }
        let handle = match od {
            ObjectDescriptor::QueueManager => {
                if opts.input != InputMode::None || opts.output || opts.browse || opts.set {
                    return Err(MqError::new(
                        Reason::OptionNotValidForType,
                        "the queue manager object can only be opened for inquire",
                    ));
                }
                Handle::QueueManager
            }
            ObjectDescriptor::Queue { name, dynamic_name } => {
                Handle::Queue(self.open_queue(name, dynamic_name.as_deref(), opts)?)
            }
            ObjectDescriptor::QueueAt { name, qmgr } => {
                let route = self.qm.route(*name, *qmgr)?;
                Handle::Queue(self.open_routed(name, route, None, opts)?)
            }
        };
        let id = self.next_handle;
        self.next_handle = self.next_handle.wrapping_add(1).max(1);
        let object = match &handle {
            Handle::Queue(qh) => qh.queue.name,
            Handle::QueueManager => self.qm.name(),
        };
        self.counters.handles.lock().insert(
            id,
            crate::catalog::HandleInfo {
                object,
                input: opts.input != InputMode::None,
                output: opts.output,
                browse: opts.browse,
                inquire: opts.inquire,
                set: opts.set,
            },
        );
        self.handles.insert(id, handle);
        self.counters
            .open_handles
            .store(self.handles.len(), Ordering::Relaxed);
        Ok(Hobj(id))
    }

    fn open_queue(
        &mut self,
        name: &ObjectName,
        dynamic: Option<&str>,
        opts: OpenOptions,
    ) -> MqResult<QueueHandle> {
        let (queue, alias, created) = match self.qm.lookup(name) {
            Some(Object::Local(q)) => (q, None, false),
            Some(Object::Alias(a)) => {
                let target = a.lock().target;
                match self.qm.lookup(&target) {
                    Some(Object::Local(q)) => (q, Some(a), false),
                    Some(_) => {
                        return Err(MqError::new(
                            Reason::QTypeError,
                            format!(
                                "alias {name} resolves to {target}, which is not a local queue"
                            ),
                        ))
                    }
                    None => {
                        return Err(MqError::new(
                            Reason::UnknownAliasBaseQ,
                            format!("alias {name} resolves to {target}, which is not defined"),
                        ))
                    }
                }
            }
            Some(Object::Model(attrs)) => {
                let q = self.qm.create_dynamic(&attrs, dynamic.unwrap_or("AMQ.*"))?;
                (q, None, true)
            }
            Some(Object::Remote(a)) => {
                let route = self.qm.route_remote_definition(name, &a.lock())?;
                return self.open_routed(name, route, Some(a), opts);
            }
            None => return Err(crate::qmgr::unknown(name)),
        };
        let mut st = queue.lock();
        let temporary_owner =
            created && st.attrs.definition_type == DefinitionType::TemporaryDynamic;
        let (input, exclusive) = match opts.input {
            InputMode::None => (false, false),
            InputMode::Exclusive => (true, true),
            InputMode::Shared => (true, !st.attrs.shareable),
            InputMode::AsQueueDef => (
                true,
                st.attrs.def_input_open == DefaultInputOpen::Exclusive || !st.attrs.shareable,
            ),
        };
        if input && (st.exclusive_input || (exclusive && st.open_input > 0)) {
            return Err(MqError::new(
                Reason::ObjectInUse,
                format!(
                    "queue {} is open for input by another handle and cannot be shared this way",
                    queue.name
                ),
            ));
        }
        if input {
            st.open_input += 1;
            st.exclusive_input |= exclusive;
        }
        if opts.output {
            st.open_output += 1;
        }
        let read_ahead = match (opts.read_ahead, st.attrs.def_read_ahead) {
            (_, crate::objects::ReadAhead::Disabled) => false,
            (Some(asked), _) => asked,
            (None, def) => def == crate::objects::ReadAhead::Yes,
        };
        drop(st);
        let stream = (input && read_ahead).then(|| StreamLedger {
            uow: self.qm.new_uow_id(),
            pending: std::collections::VecDeque::new(),
        });
        Ok(QueueHandle {
            opened_name: *name,
            queue,
            alias,
            remote: None,
            input,
            exclusive,
            opts,
            temporary_owner,
            cursor: None,
            stream,
        })
    }

    /// Opens a destination that name resolution routed: a local queue, or a transmission
    /// queue standing in for a queue on another queue manager (output only, as in MQ).
    fn open_routed(
        &mut self,
        name: &ObjectName,
        route: crate::routing::Route,
        definition: Option<Arc<Mutex<RemoteQueueAttrs>>>,
        opts: OpenOptions,
    ) -> MqResult<QueueHandle> {
        let (xmitq, queue, qmgr) = match route {
            crate::routing::Route::Local(q) if definition.is_none() => {
                return self.open_queue(&q, None, opts)
            }
            crate::routing::Route::Local(q) => {
                // A remote queue definition that points back here: the queue is local.
                let queue = self.qm.resolve_local(&q)?;
                (queue, q, self.qm.name())
            }
            crate::routing::Route::Remote { xmitq, queue, qmgr } => (xmitq, queue, qmgr),
        };
        if opts.input != InputMode::None || opts.browse || opts.set {
            return Err(MqError::new(
                Reason::OptionNotValidForType,
                format!("{name} is a queue on another queue manager ({queue} at {qmgr}); it can only be opened for output"),
            ));
        }
        if opts.output {
            xmitq.lock().open_output += 1;
        }
        Ok(QueueHandle {
            opened_name: *name,
            queue: xmitq,
            alias: None,
            remote: Some(RemoteDest {
                queue,
                qmgr,
                definition,
            }),
            input: false,
            exclusive: false,
            opts,
            temporary_owner: false,
            cursor: None,
            stream: None,
        })
    }

    /// The name of the queue behind a handle: for a dynamic queue, the name it was given.
    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        match self.handle(h)? {
            Handle::Queue(qh) => Ok(qh.queue.name),
            Handle::QueueManager => Ok(self.qm.name()),
        }
    }

    /// Closes a handle. A temporary dynamic queue is deleted when the handle that created it
    /// closes; `Delete`/`DeletePurge` delete a permanent dynamic queue.
    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let handle = self.handles.get(&h.0).ok_or_else(|| hobj_error(h))?;
        if let (Handle::Queue(qh), CloseOptions::Delete | CloseOptions::DeletePurge) =
            (handle, opts)
        {
            let st = qh.queue.lock();
            if st.attrs.definition_type != DefinitionType::PermanentDynamic
                && st.attrs.definition_type != DefinitionType::TemporaryDynamic
            {
                return Err(MqError::new(
                    Reason::OptionNotValidForType,
                    format!(
                        "queue {} is not a dynamic queue; delete it with the admin command",
                        qh.queue.name
                    ),
                ));
            }
            let others = st.open_input + st.open_output
                - usize::from(qh.input)
                - usize::from(qh.opts.output);
            if others > 0 {
                return Err(MqError::new(
                    Reason::ObjectInUse,
                    format!("queue {} is open through {others} other handle(s); it can be deleted once they close", qh.queue.name),
                ));
            }
            if opts == CloseOptions::Delete && st.store.depth() > 0 {
                return Err(MqError::new(
                    Reason::QNotEmpty,
                    format!(
                        "queue {} holds {} messages; close with delete-purge to discard them",
                        qh.queue.name,
                        st.store.depth()
                    ),
                ));
            }
        }
        let handle = self.handles.remove(&h.0).ok_or_else(|| hobj_error(h))?;
        self.counters.handles.lock().remove(&h.0);
        self.counters
            .open_handles
            .store(self.handles.len(), Ordering::Relaxed);
        if let Handle::Queue(qh) = handle {
            let delete = qh.temporary_owner || opts != CloseOptions::None;
            self.release(&qh, false);
            if delete {
                self.qm.drop_dynamic(&qh.queue);
            }
        }
        Ok(())
    }

    fn release(&self, qh: &QueueHandle, died: bool) {
        if let Some(ledger) = &qh.stream {
            for pos in &ledger.pending {
                if died {
                    qh.queue.commit_get(*pos);
                } else {
                    qh.queue.release_get(*pos);
                }
            }
        }
        let mut st = qh.queue.lock();
        if qh.input {
            st.open_input = st.open_input.saturating_sub(1);
            if qh.exclusive {
                st.exclusive_input = false;
            }
        }
        if qh.opts.output {
            st.open_output = st.open_output.saturating_sub(1);
        }
    }

    fn handle(&self, h: Hobj) -> MqResult<&Handle> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        self.handles.get(&h.0).ok_or_else(|| hobj_error(h))
    }

    fn queue_handle(&self, h: Hobj) -> MqResult<&QueueHandle> {
        match self.handle(h)? {
            Handle::Queue(qh) => Ok(qh),
            Handle::QueueManager => Err(MqError::new(
                Reason::ObjectTypeError,
                "this handle is the queue manager object, not a queue",
            )),
        }
    }

    // ----- put ----------------------------------------------------------------------------

    /// Puts a message on an open queue.
    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        self.check_running(opts.fail_if_quiescing)?;
        let qh = self.queue_handle(h)?;
        if !qh.opts.output {
            return Err(MqError::new(
                Reason::NotOpenForOutput,
                format!("queue {} was not opened for output", qh.opened_name),
            ));
        }
        match opts.context {
            PutContext::SetAll if !qh.opts.set_all_context => {
                return Err(MqError::new(
                    Reason::NotOpenForSetAll,
                    format!(
                        "setting all context needs the queue opened to set it; {} was not",
                        qh.opened_name
                    ),
                ))
            }
            PutContext::SetIdentity
                if !qh.opts.set_identity_context && !qh.opts.set_all_context =>
            {
                return Err(MqError::new(
                    Reason::NotOpenForSetIdent,
                    format!(
                        "setting identity context needs the queue opened to set it; {} was not",
                        qh.opened_name
                    ),
                ))
            }
            _ => {}
        }
        let queue = qh.queue.clone();
        let alias = qh.alias.clone();
        let remote = qh.remote.clone();
        self.put_to(&queue, alias.as_ref(), remote.as_ref(), msg, opts)
    }

    /// Opens, puts and closes in one call (MQ's MQPUT1): the usual way to send a reply.
    pub fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.check_running(opts.fail_if_quiescing)?;
        let name = match od {
            ObjectDescriptor::Queue { name, .. } | ObjectDescriptor::QueueAt { name, .. } => name,
            ObjectDescriptor::QueueManager => {
                return Err(MqError::new(
                    Reason::ObjectTypeError,
                    "put1 needs a queue, not the queue manager object",
                ))
            }
        };
        let at_remote = matches!(od, ObjectDescriptor::QueueAt { qmgr, .. } if !qmgr.is_empty() && *qmgr != self.qm.name());
        match (at_remote, self.qm.lookup(name)) {
            // The common case, a local queue, without a handle.
            (false, Some(Object::Local(q))) => self.put_to(&q, None, None, msg, opts),
            (false, None) => Err(crate::qmgr::unknown(name)),
            // Aliases, models, remote queues and other queue managers resolve as an open does.
            _ => {
                // MQPUT1 opens for whatever context the put sets.
                let open = OpenOptions {
                    set_identity_context: opts.context == PutContext::SetIdentity,
                    set_all_context: opts.context == PutContext::SetAll,
                    ..OpenOptions::output()
                };
                let h = self.open(od, open)?;
                let out = self.put(h, msg, opts);
                let closed = self.close(h, CloseOptions::None);
                let out = out?;
                closed?;
                Ok(out)
            }
        }
    }

    fn put_to(
        &mut self,
        queue: &Arc<Queue>,
        alias: Option<&Arc<Mutex<AliasQueueAttrs>>>,
        remote: Option<&RemoteDest>,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let shared = self.qm.shared.clone();
        let qm_max = shared.attrs.read().max_msg_length;
        let len = msg.counted_len();
        if len > qm_max {
            return Err(MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "message of {len} bytes is longer than the queue manager's MAXMSGL({qm_max})"
                ),
            ));
        }
        if let Some(a) = alias {
            let a = a.lock();
            if a.put_inhibited {
                return Err(MqError::new(
                    Reason::PutInhibited,
                    format!("puts are inhibited on alias queue for {}", queue.name),
                ));
            }
            if msg.descriptor.persistence == Persistence::AsQueueDef {
                msg.descriptor.persistence = a.def_persistence;
            }
            if msg.descriptor.priority == Priority::AsQueueDef {
                msg.descriptor.priority = Priority::Value(a.def_priority);
            }
        }
        if let Some(r) = remote {
            if let Some(def) = &r.definition {
                let a = def.lock();
                if a.put_inhibited {
                    return Err(MqError::new(
                        Reason::PutInhibited,
                        format!(
                            "puts are inhibited on remote queue definition for {} at {}",
                            r.queue, r.qmgr
                        ),
                    ));
                }
                if msg.descriptor.persistence == Persistence::AsQueueDef {
                    msg.descriptor.persistence = a.def_persistence;
                }
                if msg.descriptor.priority == Priority::AsQueueDef {
                    msg.descriptor.priority = Priority::Value(a.def_priority);
                }
            }
            msg.transmission = Some(Box::new(crate::message::TransmissionHeader {
                remote_queue: r.queue,
                remote_qmgr: r.qmgr,
                xmit_id: MsgId(shared.ids.next()),
            }));
        }
        let d = &mut msg.descriptor;
        if opts.context != PutContext::SetAll {
            (d.reply_to_queue, d.reply_to_qmgr) =
                self.qm.reply_to(d.reply_to_queue, d.reply_to_qmgr);
        }
        let mut warning = None;
        if let Priority::Value(p) = d.priority {
            if p > MAX_PRIORITY {
                d.priority = Priority::Value(MAX_PRIORITY);
                warning = Some(Reason::PriorityExceedsMaximum);
            }
        }
        if d.message_type == MessageType::Request && d.reply_to_queue.is_empty() {
            return Err(MqError::new(
                Reason::MissingReplyToQ,
                "a request message needs a reply-to queue; set reply_to_queue",
            ));
        }
        let expires_at = match d.expiry {
            None => 0,
            Some(e) if e.is_zero() => {
                return Err(MqError::new(
                    Reason::ExpiryError,
                    "an expiry of zero is not valid; use None for unlimited",
                ))
            }
            Some(e) => shared.clock.deadline(e),
        };
        if opts.new_msg_id || d.msg_id.is_none() {
            d.msg_id = MsgId(shared.ids.next());
        }
        if opts.new_correl_id {
            d.correl_id = CorrelId(shared.ids.next());
        }
        match opts.context {
            PutContext::Default => {
                d.put_time = SystemTime::now();
                d.put_appl_name = self.app_name;
                d.user_id = self.user_id;
            }
            PutContext::None => {
                d.put_time = SystemTime::now();
                d.put_appl_name = ApplName::EMPTY;
                d.user_id = UserId::EMPTY;
            }
            // The caller's identity; the origin is this application, now.
            PutContext::SetIdentity => {
                d.put_time = SystemTime::now();
                d.put_appl_name = self.app_name;
            }
            PutContext::SetAll => {}
        }
        d.backout_count = 0;
        let uow = if opts.syncpoint {
            Some(self.uow_slot()?)
        } else {
            None
        };
        let (msg_id, correl_id, put_time) = (d.msg_id, d.correl_id, d.put_time);
        let placed = queue.put_resolved(msg, expires_at, uow, shared.clock.now())?;
        if let Some(pos) = placed.pos {
            self.join_uow(queue.clone(), pos, UowKind::Put);
        }
        self.logged(placed.lsn, uow.is_some())?;
        Ok(PutOutcome {
            msg_id,
            correl_id,
            put_time,
            persistence: placed.persistence,
            priority: placed.priority,
            warning,
        })
    }

    /// A persistent operation was logged at `lsn`: outside a unit of work it must be durable
    /// before the call returns; inside one, the commit makes it durable.
    fn logged(&mut self, lsn: Option<u64>, in_uow: bool) -> MqResult<()> {
        let Some(lsn) = lsn else { return Ok(()) };
        if in_uow {
            self.uow_logged = true;
            return Ok(());
        }
        if self.defer_durability {
            self.owe(lsn);
            return Ok(());
        }
        match self.qm.persist() {
            Some(p) => p.wait(lsn),
            None => Ok(()),
        }
    }

    /// Records a message put or got inside the unit of work.
    fn join_uow(&mut self, queue: Arc<Queue>, pos: Pos, kind: UowKind) {
        self.uow.push(UowEntry { queue, pos, kind });
        self.counters
            .uow_messages
            .store(self.uow.len(), Ordering::Relaxed);
    }

    /// The unit of work id, checking MAXUMSGS before one more message joins it.
    fn uow_slot(&mut self) -> MqResult<UowId> {
        let max = self.qm.shared.attrs.read().max_uncommitted_msgs;
        if self.uow.len() >= max {
            return Err(MqError::new(
                Reason::SyncpointLimitReached,
                format!("the unit of work already holds {max} messages (MAXUMSGS); commit first"),
            ));
        }
        Ok(*self.uow_id.get_or_insert_with(|| self.qm.new_uow_id()))
    }

    // ----- get ----------------------------------------------------------------------------

    /// Gets (or browses) a message, waiting if asked.
    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let deadline = match opts.wait {
            Wait::For(d) => Some(Instant::now() + d),
            _ => None,
        };
        loop {
            match self.try_get(h, opts)? {
                GetAttempt::Got(g) => return Ok(g),
                GetAttempt::Wait(w) => {
                    let outcome = w.wait_blocking(deadline);
                    if let Some(g) = self.finish_wait(h, opts, outcome)? {
                        return Ok(g);
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Err(self.no_message(h));
                    }
                }
            }
        }
    }

    /// One get attempt that never blocks: a message, an error, or a waiter to wait on (only when
    /// `opts.wait` asks for waiting).
    pub fn try_get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<GetAttempt> {
        self.check_running(opts.fail_if_quiescing)?;
        let browse = opts.browse;
        let qh = self.queue_handle(h)?;
        let destructive = matches!(browse, BrowseMode::None | BrowseMode::GetUnderCursor);
        if destructive && !qh.input {
            return Err(MqError::new(
                Reason::NotOpenForInput,
                format!("queue {} was not opened for input", qh.opened_name),
            ));
        }
        if !destructive && !qh.opts.browse {
            return Err(MqError::new(
                Reason::NotOpenForBrowse,
                format!("queue {} was not opened for browse", qh.opened_name),
            ));
        }
        if destructive {
            if let Some(a) = &qh.alias {
                if a.lock().get_inhibited {
                    return Err(MqError::new(
                        Reason::GetInhibited,
                        format!("gets are inhibited on alias queue {}", qh.opened_name),
                    ));
                }
            }
        }
        let queue = qh.queue.clone();
        let cursor = qh.cursor;
        let uow = if opts.syncpoint && destructive {
            Some(self.uow_slot()?)
        } else {
            None
        };
        let spec = GetSpec {
            criteria: Match {
                non_persistent_only: false,
                msg_id: opts.msg_id,
                correl_id: opts.correl_id,
            },
            uow,
            browse: match browse {
                BrowseMode::First => Some(None),
                BrowseMode::Next => Some(cursor),
                _ => None,
            },
            wait: opts.wait != Wait::No,
            max_len: opts.max_len,
            accept_truncated: opts.accept_truncated,
        };
        let now = self.qm.clock().now();
        let step = match browse {
            BrowseMode::UnderCursor | BrowseMode::GetUnderCursor => {
                let Some(pos) = cursor else {
                    return Err(MqError::new(
                        Reason::NoMsgUnderCursor,
                        "the browse cursor is not on a message; browse first",
                    ));
                };
                if browse == BrowseMode::UnderCursor {
                    let spec = GetSpec {
                        browse: Some(None),
                        wait: false,
                        ..spec
                    };
                    browse_at(&queue, pos, &spec, now)?
                } else {
                    queue.get_at(pos, &spec, now)?
                }
            }
            _ => queue.get(&spec, now)?,
        };
        match step {
            GetStep::Got {
                msg,
                pos,
                expires_at,
                lsn,
            } => {
                if spec.browse.is_some() || browse == BrowseMode::UnderCursor {
                    self.set_cursor(h, Some(pos));
                }
                // HARDENBO: the get's record must be on disk before the message is handed
                // over, so a crash before the commit raises its backout count for certain.
                let harden = uow.is_some() && lsn.is_some() && queue.lock().attrs.harden_backout;
                if let Some(u) = uow {
                    debug_assert_eq!(Some(u), self.uow_id);
                    self.join_uow(queue, pos, UowKind::Get);
                }
                if harden {
                    self.uow_logged = true;
                }
                self.logged(lsn, uow.is_some() && !harden)?;
                Ok(GetAttempt::Got(self.shape(msg, expires_at, opts, now)))
            }
            GetStep::Wait(waiter) => {
                let mut pending = PendingGet {
                    waiter,
                    queue,
                    settled: false,
                };
                // A stop or quiesce that ended every wait just before this one registered must
                // not leave it waiting: the run state was set before the waits were ended.
                if let Err(e) = self.check_running(opts.fail_if_quiescing) {
                    return match pending.cancel() {
                        WaitOutcome::Delivered(d) => {
                            pending.give_back(WaitOutcome::Delivered(d));
                            Err(e)
                        }
                        _ => Err(e),
                    };
                }
                Ok(GetAttempt::Wait(pending))
            }
            GetStep::Empty => Err(self.no_message(h)),
        }
    }

    /// Completes a wait begun by [`Session::try_get`]. `Ok(None)` means "try again".
    pub fn finish_wait(
        &mut self,
        h: Hobj,
        opts: &GetOptions,
        outcome: WaitOutcome,
    ) -> MqResult<Option<Got>> {
        match outcome {
            WaitOutcome::Delivered(d) => {
                let queue = match self.queue_handle(h) {
                    Ok(qh) => qh.queue.clone(),
                    Err(e) => return Err(e),
                };
                if let Some(pos) = d.pending_pos {
                    self.join_uow(queue, pos, UowKind::Get);
                }
                let now = self.qm.clock().now();
                Ok(Some(self.shape(d.msg, d.expires_at, opts, now)))
            }
            WaitOutcome::Retry => Ok(None),
            WaitOutcome::Ended(r) => {
                let name = self.queue_name(h).unwrap_or_default();
                Err(MqError::new(r, format!("the wait on queue {name} ended")))
            }
            WaitOutcome::TimedOut => Err(self.no_message(h)),
        }
    }

    fn no_message(&self, h: Hobj) -> MqError {
        let name = self.queue_name(h).unwrap_or_default();
        MqError::new(
            Reason::NoMsgAvailable,
            format!("no matching message on queue {name}"),
        )
    }

    fn set_cursor(&mut self, h: Hobj, pos: Option<Pos>) {
        if let Some(Handle::Queue(qh)) = self.handles.get_mut(&h.0) {
            qh.cursor = pos;
        }
    }

    /// Fills in the output descriptor (expiry left) and applies truncation.
    fn shape(&self, mut msg: Message, expires_at: u64, opts: &GetOptions, now: u64) -> Got {
        if expires_at != 0 {
            msg.descriptor.expiry =
                Some(Duration::from_nanos(expires_at.saturating_sub(now).max(1)));
        }
        let data_length = msg.body.len();
        let mut warning = None;
        if let Some(max) = opts.max_len {
            if data_length > max {
                msg.body = msg.body.slice(..max);
                warning = Some(Reason::TruncatedMsgAccepted);
            }
        }
        Got {
            message: msg,
            data_length,
            warning,
        }
    }

    // ----- read-ahead streams -----------------------------------------------------------------

    /// Whether puts "as queue default" through this handle are asynchronous (the DEFPRESP of the
    /// queue, or of the alias it was opened through).
    pub fn async_put_default(&self, h: Hobj) -> bool {
        let Ok(qh) = self.queue_handle(h) else {
            return false;
        };
        let d = match &qh.alias {
            Some(a) => a.lock().def_put_response,
            None => qh.queue.lock().attrs.def_put_response,
        };
        d == crate::objects::PutResponse::Async
    }

    /// Whether read-ahead is in effect for a handle (asked for at open, or the queue's DEFREADA,
    /// and not DISABLED).
    pub fn read_ahead(&self, h: Hobj) -> bool {
        self.queue_handle(h).is_ok_and(|qh| qh.stream.is_some())
    }

    /// Takes the next non-persistent message for a read-ahead stream without blocking: a
    /// message, a waiter (when `wait`), or `None` when the queue has none now.
    pub fn stream_next(&mut self, h: Hobj, wait: bool) -> MqResult<Option<GetAttempt>> {
        self.check_running(false)?;
        let qh = self.queue_handle(h)?;
        let Some(ledger) = &qh.stream else {
            return Err(MqError::new(
                Reason::OptionsError,
                "read-ahead is not in effect for this handle",
            ));
        };
        let spec = GetSpec {
            criteria: Match {
                msg_id: None,
                correl_id: None,
                non_persistent_only: true,
            },
            uow: Some(ledger.uow),
            browse: None,
            wait,
            max_len: None,
            accept_truncated: false,
        };
        let queue = qh.queue.clone();
        let now = self.qm.clock().now();
        match queue.get(&spec, now)? {
            GetStep::Got {
                msg,
                pos,
                expires_at,
                ..
            } => {
                self.ledger(h).pending.push_back(pos);
                Ok(Some(GetAttempt::Got(self.shape(
                    msg,
                    expires_at,
                    &GetOptions::new(),
                    now,
                ))))
            }
            GetStep::Wait(waiter) => Ok(Some(GetAttempt::Wait(PendingGet {
                waiter,
                queue,
                settled: false,
            }))),
            GetStep::Empty => Ok(None),
        }
    }

    /// Completes a stream wait begun by [`Session::stream_next`]; `Ok(None)` means try again.
    pub fn finish_stream_wait(&mut self, h: Hobj, outcome: WaitOutcome) -> MqResult<Option<Got>> {
        match outcome {
            WaitOutcome::Delivered(d) => {
                if let Some(pos) = d.pending_pos {
                    self.ledger(h).pending.push_back(pos);
                }
                let now = self.qm.clock().now();
                Ok(Some(self.shape(
                    d.msg,
                    d.expires_at,
                    &GetOptions::new(),
                    now,
                )))
            }
            WaitOutcome::Retry | WaitOutcome::TimedOut => Ok(None),
            WaitOutcome::Ended(r) => Err(MqError::new(r, "the read-ahead stream ended")),
        }
    }

    /// The client has consumed the `n` oldest streamed messages: they are gone for good.
    pub fn stream_consumed(&mut self, h: Hobj, n: usize) -> MqResult<()> {
        let qh = self.queue_handle(h)?;
        let queue = qh.queue.clone();
        let ledger = self.ledger(h);
        if n > ledger.pending.len() {
            return Err(MqError::new(
                Reason::OptionsError,
                format!(
                    "{n} messages reported consumed but only {} were streamed",
                    ledger.pending.len()
                ),
            ));
        }
        let done: Vec<Pos> = ledger.pending.drain(..n).collect();
        for pos in done {
            queue.commit_get(pos);
        }
        Ok(())
    }

    fn ledger(&mut self, h: Hobj) -> &mut StreamLedger {
        match self.handles.get_mut(&h.0) {
            Some(Handle::Queue(QueueHandle {
                stream: Some(l), ..
            })) => l,
            _ => unreachable!("callers check the handle has a stream"),
        }
    }

    // ----- inquire / set ------------------------------------------------------------------

    /// Reads attributes of the object behind a handle opened for inquire.
    pub fn inquire(&self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let handle = self.handle(h)?;
        let mut out = Vec::with_capacity(selectors.len());
        match handle {
            Handle::QueueManager => {
                let attrs = self.qm.attrs();
                for s in selectors {
                    out.push(inquire::qmgr_attr(*s, &attrs).ok_or_else(|| selector_error(*s))?);
                }
            }
            Handle::Queue(qh) => {
                if !qh.opts.inquire {
                    return Err(MqError::new(
                        Reason::NotOpenForInquire,
                        format!("queue {} was not opened for inquire", qh.opened_name),
                    ));
                }
                let st = qh.queue.lock();
                let counts = QueueCounts {
                    depth: st.store.depth(),
                    open_input: st.open_input,
                    open_output: st.open_output,
                };
                let alias = qh.alias.as_ref().map(|a| a.lock().clone());
                for s in selectors {
                    let v = match (&alias, s) {
                        (Some(a), Selector::BaseQueueName) => {
                            Some(AttrValue::Str(a.target.to_string()))
                        }
                        (Some(_), Selector::QueueType) => Some(AttrValue::Int(3)),
                        (Some(_), Selector::QueueName) => {
                            Some(AttrValue::Str(qh.opened_name.to_string()))
                        }
                        (Some(a), Selector::InhibitGet) => {
                            Some(AttrValue::Int(a.get_inhibited as i64))
                        }
                        (Some(a), Selector::InhibitPut) => {
                            Some(AttrValue::Int(a.put_inhibited as i64))
                        }
                        _ => inquire::local_queue_attr(
                            *s,
                            qh.queue.name.as_str(),
                            1,
                            &st.attrs,
                            counts,
                        ),
                    };
                    out.push(v.ok_or_else(|| selector_error(*s))?);
                }
            }
        }
        Ok(out)
    }

    /// Sets attributes through a handle opened for set: only the inhibit flags, as MQSET allows.
    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let qh = self.queue_handle(h)?;
        if !qh.opts.set {
            return Err(MqError::new(
                Reason::NotOpenForSet,
                format!("queue {} was not opened for set", qh.opened_name),
            ));
        }
        let mut flags = Vec::with_capacity(values.len());
        for (s, v) in values {
            let on = match v {
                AttrValue::Int(0) => false,
                AttrValue::Int(1) => true,
                _ => {
                    return Err(MqError::new(
                        Reason::InhibitValueError,
                        format!("value {v:?} is not valid for {s:?}"),
                    ))
                }
            };
            match s {
                Selector::InhibitGet | Selector::InhibitPut => flags.push((*s, on)),
                _ => return Err(selector_error(*s)),
            }
        }
        for (s, on) in flags {
            match &qh.alias {
                Some(a) => {
                    let mut a = a.lock();
                    if s == Selector::InhibitGet {
                        a.get_inhibited = on;
                    } else {
                        a.put_inhibited = on;
                    }
                }
                None => {
                    let mut st = qh.queue.lock();
                    if s == Selector::InhibitGet {
                        let was = st.attrs.get_inhibited;
                        st.attrs.get_inhibited = on;
                        if on && !was {
                            st.waiters.end_all(Reason::GetInhibited);
                        }
                    } else {
                        st.attrs.put_inhibited = on;
                    }
                }
            }
        }
        Ok(())
    }

    // ----- units of work --------------------------------------------------------------------

    /// Commits the unit of work: its puts become visible, its gets final.
    pub fn commit(&mut self) -> MqResult<()> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        // The commit is durable before any of its effects become visible (with deferred
        // durability: before any reply shows them — a get of a message it committed is logged
        // after it, and waits for its own, later, record); a checkpoint never sees it half
        // applied.
        let persist = self.qm.persist().cloned();
        let _gate = persist
            .as_ref()
            .filter(|_| self.uow_logged)
            .map(|p| p.gate());
        self.log_end(true)?;
        let now = self.qm.clock().now();
        for e in std::mem::take(&mut self.uow) {
            match e.kind {
                UowKind::Put => e.queue.commit_put(e.pos, now),
                UowKind::Get => e.queue.commit_get(e.pos),
            }
        }
        self.end_uow();
        Ok(())
    }

    /// Backs out the unit of work: its puts vanish; its gets return to their queues in their
    /// original positions with backout count + 1 (or move to BOQNAME / the dead-letter queue at
    /// BOTHRESH).
    pub fn backout(&mut self) -> MqResult<()> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        self.backout_all();
        Ok(())
    }

    fn backout_all(&mut self) {
        let persist = self.qm.persist().cloned();
        let _gate = persist
            .as_ref()
            .filter(|_| self.uow_logged)
            .map(|p| p.gate());
        if let Err(e) = self.log_end(false) {
            // The backout still happens in memory; a restart backs the unit of work out anyway
            // (it has no commit record).
            tracing::warn!(error = %e, "could not log a backout");
        }
        let now = self.qm.clock().now();
        for e in std::mem::take(&mut self.uow) {
            match e.kind {
                UowKind::Put => e.queue.backout_put(e.pos),
                UowKind::Get => {
                    if let Some((msg, expires_at)) = e.queue.backout_get(e.pos, now) {
                        self.qm.requeue_poison(&e.queue, msg, e.pos.seq, expires_at);
                    }
                }
            }
        }
        self.end_uow();
    }

    /// Logs the end of a unit of work that touched persistent messages, and waits for it.
    fn log_end(&mut self, commit: bool) -> MqResult<()> {
        if !self.uow_logged {
            return Ok(());
        }
        let r = match (self.qm.persist().cloned(), self.uow_id) {
            (Some(p), Some(u)) if self.defer_durability => {
                p.end_uow_nowait(commit, u).map(|lsn| self.owe(lsn))
            }
            (Some(p), Some(u)) => p.end_uow(commit, u),
            _ => Ok(()),
        };
        // A failed commit record leaves the unit of work open (the caller may back it out); a
        // backout is done in memory whatever the log said.
        if r.is_ok() || !commit {
            self.uow_logged = false;
        }
        r
    }

    fn end_uow(&mut self) {
        self.uow_id = None;
        self.counters.uow_messages.store(0, Ordering::Relaxed);
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
        let r = self.commit();
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
        self.counters.handles.lock().clear();
        for (_, h) in std::mem::take(&mut self.handles) {
            if let Handle::Queue(qh) = h {
                self.release(&qh, backout);
                if qh.temporary_owner {
                    self.qm.drop_dynamic(&qh.queue);
                }
            }
        }
        self.ended = true;
        self.qm.forget_connection(self.conn_id);
    }
}

impl Drop for Session {
    /// A session dropped without `disconnect` is treated as an application that died: its
    /// unit of work is backed out.
    fn drop(&mut self) {
        self.end(true);
    }
}

fn browse_at(queue: &Arc<Queue>, pos: Pos, _spec: &GetSpec, now: u64) -> MqResult<GetStep> {
    let st = queue.lock();
    if st.attrs.get_inhibited {
        return Err(MqError::new(
            Reason::GetInhibited,
            format!("gets (and browses) are inhibited on queue {}", queue.name),
        ));
    }
    let usable =
        st.store.state(pos) == crate::store::SlotState::Available && !st.store.is_expired(pos, now);
    match usable.then(|| st.load(pos)).transpose()?.flatten() {
        Some((msg, _)) => Ok(GetStep::Got {
            msg,
            pos,
            expires_at: st.store.expires_at(pos),
            lsn: None,
        }),
        None => Err(MqError::new(
            Reason::NoMsgUnderCursor,
            format!(
                "the message under the browse cursor on {} is no longer available",
                queue.name
            ),
        )),
    }
}

fn hobj_error(h: Hobj) -> MqError {
    MqError::new(
        Reason::HobjError,
        format!("object handle {} is not open on this connection", h.0),
    )
}

fn selector_error(s: Selector) -> MqError {
    MqError::new(
        Reason::SelectorError,
        format!(
            "selector {s:?} ({}) does not apply to this object",
            s.code()
        ),
    )
}
