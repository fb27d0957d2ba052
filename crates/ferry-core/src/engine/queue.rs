//! A local queue: its attributes, its messages and its waiting getters behind one short lock.
//!
//! Owns: the put/get/browse steps on one queue, hand-over to waiting getters, MAXDEPTH and
//! MAXMSGL checks, inhibit flags, open counts and per-queue statistics. The lock is a
//! `parking_lot::Mutex` held only for in-memory work: never across I/O, a wait or an `.await`.
//! Callers (the session) hold at most one queue lock at a time.

use std::sync::Arc;
use std::time::SystemTime;

use parking_lot::{Mutex, MutexGuard};

use ferry_log::RecordPos;
use ferry_model::clock::Clock;
use ferry_model::message::{Message, Persistence, Priority};
use ferry_model::name::ObjectName;
use ferry_model::objects::{DefinitionType, DeliverySequence, LocalQueueAttrs};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::status::QueueStats;

use crate::engine::journal::{Journal, Logged};
use crate::engine::store::{Entry, Held, Match, OnDisk, Pos, SlotState, Store, UowId};
use crate::engine::waiter::{Delivery, Waiter, Waiters};

/// Mutable state of a queue, behind its lock.
#[derive(Debug)]
pub struct QueueState {
    /// Current attributes (ALTER changes them in place).
    pub attrs: LocalQueueAttrs,
    /// The messages.
    pub store: Store,
    /// Waiting getters and browsers.
    pub waiters: Waiters,
    /// Handles open for input (IPPROCS).
    pub open_input: usize,
    /// Handles open for output (OPPROCS).
    pub open_output: usize,
    /// Whether one handle holds it for exclusive input.
    pub exclusive_input: bool,
    /// Set when the queue is deleted; handles still open answer Q_DELETED.
    pub deleted: bool,
    /// Statistics.
    pub stats: QueueStats,
    /// The recovery log, once persistence is on; persistent messages are logged under the lock.
    journal: Option<Arc<dyn Journal>>,
    /// The queue's name (for log records).
    name: ObjectName,
    /// Where put and get times come from.
    clock: Clock,
}

/// A local queue.
#[derive(Debug)]
pub struct Queue {
    /// Its name (fixed for its life).
    pub name: ObjectName,
    state: Mutex<QueueState>,
}

/// Where a put landed and what it resolved.
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    /// The slot, when the put is inside a unit of work.
    pub pos: Option<Pos>,
    /// The persistence it was put with.
    pub persistence: Persistence,
    /// The priority it was put with.
    pub priority: u8,
    /// The log record of a persistent put, to wait for before answering the putter.
    pub lsn: Option<u64>,
}

/// What a get step found.
#[derive(Debug)]
pub enum GetStep {
    /// A message. `pending_pos` is set when the get is inside a unit of work.
    Got {
        /// The message (a copy when inside a unit of work or browsing).
        msg: Message,
        /// The slot, for units of work and browse cursors.
        pos: Pos,
        /// Clock deadline of the message (0 = never).
        expires_at: u64,
        /// The log record of a persistent get, to wait for before handing the message over.
        lsn: Option<u64>,
    },
    /// No message: the caller waits on this waiter (registered under the queue lock, so no
    /// put can slip between the failed search and the registration).
    Wait(Arc<Waiter>),
    /// No message and no wait requested.
    Empty,
}

/// How a get step should behave.
#[derive(Debug, Clone, Copy)]
pub struct GetSpec {
    /// Match criteria.
    pub criteria: Match,
    /// Inside this unit of work, if any.
    pub uow: Option<UowId>,
    /// Browse instead of removing; `Some(cursor)` continues after the cursor.
    pub browse: Option<Option<Pos>>,
    /// Register a waiter if nothing is found.
    pub wait: bool,
    /// Largest body accepted without truncation.
    pub max_len: Option<usize>,
    /// Whether truncation is accepted.
    pub accept_truncated: bool,
}

impl Queue {
    /// A new, empty queue.
    pub fn new(name: ObjectName, attrs: LocalQueueAttrs, clock: Clock) -> Arc<Self> {
        let fifo = attrs.delivery_sequence == DeliverySequence::Fifo;
        Arc::new(Queue {
            name,
            state: Mutex::new(QueueState {
                attrs,
                store: Store::new(fifo),
                waiters: Waiters::default(),
                open_input: 0,
                open_output: 0,
                exclusive_input: false,
                deleted: false,
                stats: QueueStats::default(),
                journal: None,
                name,
                clock,
            }),
        })
    }

    /// Locks the queue. Keep the guard short-lived; never hold two queue locks.
    pub fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock()
    }

    /// Puts a message whose descriptor is fully resolved. Outside a unit of work the message is
    /// handed to a suitable waiting getter if there is one; inside, it is stored invisible and
    /// its position returned for the unit of work. `counted_len` is checked against MAXMSGL.
    pub fn put_resolved(
        &self,
        msg: Message,
        expires_at: u64,
        uow: Option<UowId>,
        now: u64,
    ) -> MqResult<Placed> {
        self.try_put(msg, expires_at, uow, now).map_err(|(e, _)| e)
    }

    /// As [`Queue::put`], but a refused message comes back with the error so nothing is lost
    /// when the queue manager itself moves messages (backout requeue, dead-lettering).
    pub fn try_put(
        &self,
        mut msg: Message,
        expires_at: u64,
        uow: Option<UowId>,
        now: u64,
    ) -> Result<Placed, (MqError, Message)> {
        let mut st = self.state.lock();
        let (persistence, priority) = match st.check_put(&self.name, &mut msg, now) {
            Ok(r) => r,
            Err(e) => return Err((e, msg)),
        };
        let seq = st.store.next_seq();
        let logged = match st.log_put(seq, uow, &msg) {
            Ok(l) => l,
            Err(e) => return Err((e, msg)),
        };
        let disk = logged.map(|a| a.pos);
        st.stats.puts += 1;
        st.stats.last_put = Some(msg.descriptor.put_time);
        let pos = match uow {
            Some(u) => Some(
                st.store
                    .insert(seq, msg, disk, expires_at, SlotState::PutPending(u)),
            ),
            None => {
                st.offer(msg, seq, expires_at, disk);
                None
            }
        };
        Ok(Placed {
            pos,
            persistence,
            priority,
            lsn: logged.map(|a| a.lsn),
        })
    }

    /// One get (or browse) step. See [`GetStep`].
    pub fn get(&self, spec: &GetSpec, now: u64) -> MqResult<GetStep> {
        let mut st = self.state.lock();
        st.check_usable(&self.name)?;
        if st.attrs.get_inhibited {
            return Err(MqError::new(
                Reason::GetInhibited,
                format!("gets are inhibited on queue {}", self.name),
            ));
        }
        let found = match spec.browse {
            Some(cursor) => st.store.browse(&spec.criteria, now, cursor),
            None => st.store.find(&spec.criteria, now),
        };
        let Some(pos) = found else {
            if !spec.wait {
                return Ok(GetStep::Empty);
            }
            if st.waiters.len() > 1024 {
                st.waiters.prune();
            }
            let w = Waiter::new(
                spec.criteria,
                spec.uow,
                spec.browse.is_some(),
                spec.max_len,
                spec.accept_truncated,
            );
            st.waiters.add(w.clone());
            return Ok(GetStep::Wait(w));
        };
        st.take_found(pos, spec, &self.name)
    }

    /// Destructively gets the message at `pos` (the browse cursor's message), if still available.
    pub fn get_at(&self, pos: Pos, spec: &GetSpec, now: u64) -> MqResult<GetStep> {
        let mut st = self.state.lock();
        st.check_usable(&self.name)?;
        if st.attrs.get_inhibited {
            return Err(MqError::new(
                Reason::GetInhibited,
                format!("gets are inhibited on queue {}", self.name),
            ));
        }
        if st.store.state(pos) != SlotState::Available || st.store.is_expired(pos, now) {
            return Err(MqError::new(
                Reason::NoMsgUnderCursor,
                format!(
                    "the message under the browse cursor on {} is no longer available",
                    self.name
                ),
            ));
        }
        st.take_found(pos, spec, &self.name)
    }

    /// Commits a put made in a unit of work: the message becomes visible (and may go straight to
    /// a waiting getter), unless it expired while the unit of work was open, in which case it is
    /// discarded.
    pub fn commit_put(&self, pos: Pos, now: u64) {
        let mut st = self.state.lock();
        if st.store.is_expired(pos, now) {
            if st.store.remove(pos).is_some() {
                st.store.expired_total += 1;
            }
            return;
        }
        st.make_available(pos);
    }

    /// Commits a get made in a unit of work: the message is removed for good.
    pub fn commit_get(&self, pos: Pos) {
        let mut st = self.state.lock();
        st.store.remove(pos);
    }

    /// Returns a message got inside a unit of work to availability without counting a backout
    /// (read-ahead messages the application never saw).
    pub fn release_get(&self, pos: Pos) {
        let mut st = self.state.lock();
        st.make_available(pos);
    }

    /// Backs out a put: the message is discarded.
    pub fn backout_put(&self, pos: Pos) {
        let mut st = self.state.lock();
        st.store.remove(pos);
    }

    /// Backs out a get: the message returns to its original position with its backout count
    /// raised, unless it expired meanwhile (discarded) or reached BOTHRESH, in which case it is
    /// removed and returned so the caller can move it to the backout queue.
    pub fn backout_get(&self, pos: Pos, now: u64) -> Option<(Message, u64)> {
        let mut st = self.state.lock();
        if st.store.is_expired(pos, now) {
            st.store.remove(pos);
            st.store.expired_total += 1;
            return None;
        }
        let threshold = st.attrs.backout_threshold;
        let count = st.store.bump_backout(pos)?;
        if threshold > 0 && count >= threshold {
            let expires_at = st.store.expires_at(pos);
            let (msg, logged) = match st.load(pos) {
                Ok(Some(found)) => found,
                Ok(None) => return None,
                Err(e) => {
                    // Unreadable: it stays where it is rather than be lost.
                    tracing::warn!(queue = %self.name, error = %e, "a poison message could not be read back to move it");
                    st.make_available(pos);
                    return None;
                }
            };
            // Leaving for the backout queue is logged as a get outside any unit of work (the
            // queue it lands on logs the put).
            if logged {
                let _ = st.log_get(pos.seq, None);
            }
            st.store.remove(pos);
            return Some((msg, expires_at));
        }
        st.make_available(pos);
        None
    }

    /// Puts back a message that was removed (a failed requeue, an undelivered hand-over) at its
    /// original sequence position.
    pub fn restore(&self, msg: Message, seq: u64, expires_at: u64) {
        let mut st = self.state.lock();
        // A persistent message that left the queue in the log comes back to it there too.
        let disk = st.log_put(seq, None, &msg).ok().flatten().map(|a| a.pos);
        st.offer(msg, seq, expires_at, disk);
    }

    /// Undoes a hand-over the getter could not take: the message goes back in order (and may be
    /// handed to the next waiter).
    pub fn undo_delivery(&self, d: Delivery) {
        match d.pending_pos {
            Some(pos) => {
                let mut st = self.state.lock();
                st.make_available(pos);
            }
            None => self.restore(d.msg, d.seq, d.expires_at),
        }
    }
}

impl QueueState {
    /// Starts logging this queue's persistent messages through `journal`, keeping at most
    /// `buffer` bytes of them in memory besides the log.
    pub fn attach_journal(&mut self, journal: Arc<dyn Journal>, buffer: usize) {
        self.journal = Some(journal);
        self.store.set_buffer_limit(buffer);
    }

    /// Whether this queue logs its persistent messages.
    pub fn journaled(&self) -> bool {
        self.journal.is_some()
    }

    /// Logs a persistent put (outside a unit of work when `uow` is `None`).
    fn log_put(&self, seq: u64, uow: Option<UowId>, msg: &Message) -> MqResult<Option<Logged>> {
        match &self.journal {
            Some(j) if self.logs(msg) => j.put(&self.name, seq, uow.unwrap_or(0), msg).map(Some),
            _ => Ok(None),
        }
    }

    /// Logs the get of a logged message.
    fn log_get(&self, seq: u64, uow: Option<UowId>) -> MqResult<Option<u64>> {
        match &self.journal {
            Some(j) => j.get(&self.name, seq, uow.unwrap_or(0)).map(Some),
            None => Ok(None),
        }
    }

    /// Reads back a message whose content is only in the log.
    fn read_disk(&self, seq: u64, d: &OnDisk) -> MqResult<Message> {
        match &self.journal {
            Some(j) => j.read(&self.name, seq, d),
            None => Err(MqError::new(
                Reason::UnexpectedError,
                format!(
                    "message #{seq} on {} is on disk but the queue has no log",
                    self.name
                ),
            )),
        }
    }

    /// A copy of the message at `pos` (read back from the log if need be), and whether it is
    /// logged (its gets must be too).
    pub fn load(&self, pos: Pos) -> MqResult<Option<(Message, bool)>> {
        match self.store.entry(pos) {
            None => Ok(None),
            Some(Entry::Mem(m)) => Ok(Some((m.clone(), self.journal.is_some() && self.logs(m)))),
            Some(Entry::Disk(d)) => Ok(Some((self.read_disk(pos.seq, &d)?, true))),
        }
    }

    /// Whether operations on `msg` here go through the log.
    fn logs(&self, msg: &Message) -> bool {
        msg.descriptor.persistence == Persistence::Persistent
            && self.attrs.definition_type != DefinitionType::TemporaryDynamic
    }

    /// Checks a put against the queue's state and resolves "as queue default" persistence and
    /// priority in the descriptor.
    fn check_put(
        &mut self,
        name: &ObjectName,
        msg: &mut Message,
        now: u64,
    ) -> MqResult<(Persistence, u8)> {
        self.check_usable(name)?;
        if self.attrs.put_inhibited {
            return Err(MqError::new(
                Reason::PutInhibited,
                format!("puts are inhibited on queue {name}"),
            ));
        }
        let len = msg.counted_len();
        if len > self.attrs.max_msg_length {
            return Err(MqError::new(
                Reason::MsgTooBigForQ,
                format!(
                    "message of {len} bytes is longer than queue {name}'s MAXMSGL({})",
                    self.attrs.max_msg_length
                ),
            ));
        }
        if self.store.depth() >= self.attrs.max_depth
            && (self.store.sweep_expired(now) == 0 || self.store.depth() >= self.attrs.max_depth)
        {
            return Err(MqError::new(
                Reason::QFull,
                format!("queue {name} is full (MAXDEPTH {})", self.attrs.max_depth),
            ));
        }
        let d = &mut msg.descriptor;
        if d.persistence == Persistence::AsQueueDef {
            d.persistence = self.attrs.def_persistence;
        }
        if d.persistence == Persistence::Persistent
            && self.attrs.definition_type == DefinitionType::TemporaryDynamic
        {
            return Err(MqError::new(
                Reason::PersistentNotAllowed,
                format!("queue {name} is a temporary dynamic queue and does not accept persistent messages"),
            ));
        }
        let priority = match d.priority {
            Priority::Value(p) => p.min(9),
            Priority::AsQueueDef => self.attrs.def_priority,
        };
        d.priority = Priority::Value(priority);
        Ok((d.persistence, priority))
    }

    fn check_usable(&self, name: &ObjectName) -> MqResult<()> {
        if self.deleted {
            return Err(MqError::new(
                Reason::QDeleted,
                format!("queue {name} was deleted after this handle opened it"),
            ));
        }
        Ok(())
    }

    fn take_found(&mut self, pos: Pos, spec: &GetSpec, name: &ObjectName) -> MqResult<GetStep> {
        let expires_at = self.store.expires_at(pos);
        // A message only in the log is read back first: its length decides truncation, and a
        // message that cannot be read is reported and left where it is.
        let (from_disk, body_len, logged) = match self.store.entry(pos) {
            None => return Ok(GetStep::Empty),
            Some(Entry::Mem(m)) => (None, m.body.len(), self.journal.is_some() && self.logs(m)),
            Some(Entry::Disk(d)) => {
                let m = self.read_disk(pos.seq, &d)?;
                let len = m.body.len();
                (Some(m), len, true)
            }
        };
        if let Some(max) = spec.max_len {
            if body_len > max && !spec.accept_truncated {
                return Err(MqError {
                    data_length: body_len,
                    ..MqError::new(
                        Reason::TruncatedMsgFailed,
                        format!(
                            "the next message on {name} is {body_len} bytes, longer than the {max}-byte buffer; it stays on the queue"
                        ),
                    )
                });
            }
        }
        let mut lsn = None;
        if spec.browse.is_none() && logged {
            lsn = self.log_get(pos.seq, spec.uow)?;
        }
        // One wall-clock read serves LGETTIME and QTIME.
        let wall = self.clock.wall();
        let msg = if spec.browse.is_some() {
            from_disk.or_else(|| self.store.peek(pos).cloned())
        } else if let Some(u) = spec.uow {
            self.store.set_state(pos, SlotState::GotPending(u));
            self.note_get(wall);
            from_disk.or_else(|| self.store.peek(pos).cloned())
        } else {
            self.note_get(wall);
            match self.store.remove(pos) {
                Some(Held::Mem(m)) => Some(m),
                Some(Held::Disk(_)) => from_disk,
                None => None,
            }
        };
        match msg {
            Some(msg) => {
                if spec.browse.is_none() {
                    self.stats.note_qtime(msg.descriptor.put_time, wall);
                }
                Ok(GetStep::Got {
                    msg,
                    pos,
                    expires_at,
                    lsn,
                })
            }
            None => Ok(GetStep::Empty),
        }
    }

    fn note_get(&mut self, wall: SystemTime) {
        self.stats.gets += 1;
        self.stats.last_get = Some(wall);
    }

    /// Makes a stored slot available, handing it to a waiter if one wants it.
    fn make_available(&mut self, pos: Pos) {
        self.store.set_state(pos, SlotState::Available);
        if self.waiters.is_empty() {
            return;
        }
        let persist = self.journal.is_some();
        match self.store.entry(pos) {
            None => {}
            Some(Entry::Mem(m)) if !(persist && self.logs(m)) => {
                let expires_at = self.store.expires_at(pos);
                if let Some(Held::Mem(msg)) = self.store.remove(pos) {
                    self.offer(msg, pos.seq, expires_at, None);
                }
            }
            // A logged message stays stored (its get must be logged): wake a getter for it.
            Some(Entry::Mem(m)) => {
                while let Some(w) = self.waiters.take_for(m) {
                    if w.retry() {
                        break;
                    }
                }
                self.waiters.wake_browsers();
            }
            Some(Entry::Disk(_)) => {
                self.waiters.retry_all();
                self.waiters.wake_browsers();
            }
        }
    }

    /// Hands `msg` to the first suitable waiter, or stores it as available.
    ///
    /// A persistent message is not handed over: it is stored and the waiter woken to get it
    /// the ordinary way, so its get is logged (and made durable) like any other.
    fn offer(&mut self, mut msg: Message, seq: u64, expires_at: u64, disk: Option<RecordPos>) {
        if self.journal.is_some() && self.logs(&msg) {
            while let Some(w) = self.waiters.take_for(&msg) {
                if w.retry() {
                    break;
                }
            }
            self.store
                .insert(seq, msg, disk, expires_at, SlotState::Available);
            self.waiters.wake_browsers();
            return;
        }
        while !self.waiters.is_empty() {
            let Some(w) = self.waiters.take_for(&msg) else {
                break;
            };
            if !w.accepts(&msg) {
                w.retry();
                continue;
            }
            match w.uow {
                Some(u) => {
                    let copy = msg.clone();
                    let pos =
                        self.store
                            .insert(seq, msg, None, expires_at, SlotState::GotPending(u));
                    let d = Delivery {
                        msg: copy,
                        pending_pos: Some(pos),
                        seq,
                        expires_at,
                    };
                    match w.deliver(d) {
                        Ok(()) => {
                            self.stats.gets += 1;
                            self.stats.handovers += 1;
                            self.stats.last_get = Some(self.clock.wall());
                            return;
                        }
                        Err(_) => {
                            // The waiter gave up just now: take the message back out and go on.
                            match self.store.remove(pos) {
                                Some(Held::Mem(m)) => msg = m,
                                _ => return,
                            }
                        }
                    }
                }
                None => {
                    let d = Delivery {
                        msg,
                        pending_pos: None,
                        seq,
                        expires_at,
                    };
                    match w.deliver(d) {
                        Ok(()) => {
                            self.stats.gets += 1;
                            self.stats.handovers += 1;
                            self.stats.last_get = Some(self.clock.wall());
                            return;
                        }
                        Err(d) => msg = d.msg,
                    }
                }
            }
        }
        self.store
            .insert(seq, msg, None, expires_at, SlotState::Available);
        self.waiters.wake_browsers();
    }
}
