//! A local queue: its attributes, its messages and its waiting getters behind one short lock.
//!
//! Owns: the put/get/browse steps on one queue, hand-over to waiting getters, MAXDEPTH and
//! MAXMSGL checks, inhibit flags, open counts and per-queue statistics. The lock is a
//! `parking_lot::Mutex` held only for in-memory work: never across I/O, a wait or an `.await`.
//! Callers (the session) hold at most one queue lock at a time; the one exception, a
//! publication's copies logged as one record, takes several in address order (`fanout.rs`).
//! A plain non-persistent put may skip the lock through the queue's inbox (`inbox.rs`);
//! `Queue::lock` moves the inbox into the store before anything else sees the state.

use std::sync::Arc;

use parking_lot::Mutex;

use ferry_log::RecordPos;
use ferry_model::clock::Clock;
use ferry_model::message::{Message, Persistence, Priority};
use ferry_model::name::ObjectName;
use ferry_model::objects::{DefinitionType, DeliverySequence, LocalQueueAttrs};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::status::QueueStats;

use crate::engine::inbox::{Inbox, Padded, QueueGuard};
use crate::engine::journal::{Append, Journal, Logged};
use crate::engine::spill::Spill;
use crate::engine::store::{Entry, Held, OnDisk, Pos, SlotState, Store, UowId, READING};
use crate::engine::waiter::{Delivery, Waiter, Waiters};

/// Mutable state of a queue, behind its lock.
#[derive(Debug)]
pub struct QueueState {
    /// Current attributes, shared so that a checkpoint copies 100,000 of them in
    /// milliseconds under its gate (a change replaces or copies them: `Arc::make_mut`).
    pub attrs: Arc<LocalQueueAttrs>,
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
    /// The statistics since they were last reset (performance events and RESET QSTATS).
    pub since_reset: SinceReset,
    /// When this run of the queue manager defined or restored the queue (queue statistics'
    /// CreateDate and CreateTime).
    pub created: std::time::SystemTime,
    /// MQ's service timer (queue service interval events), clock nanoseconds when it was last
    /// started; 0 when it is off (the queue was emptied). Kept while PERFMEV is ENABLED.
    pub service_timer: u64,
    /// The recovery log, once persistence is on; persistent messages are logged under the lock.
    journal: Option<Arc<dyn Journal>>,
    /// Where non-persistent messages go when the memory budget has no room for them.
    spill: Option<Arc<dyn Spill>>,
    /// The queue's name (for log records).
    name: ObjectName,
    /// Where put and get times come from.
    clock: Clock,
    /// The wall time a batch of gets shares (one reading for up to a batch's messages, as
    /// [`Queue::take_batch`] takes them under one lock); `None` outside a batch.
    pub(crate) batch_wall: Option<std::time::SystemTime>,
    /// The inbox's list as last emptied, kept with its room for the inbox to fill again (a
    /// fresh list a move was an allocation or more a few messages, freed on the other side).
    pub(crate) inbox_spare: Vec<crate::engine::inbox::Entry>,
}

/// A queue's statistics since they were last reset (MQ's TimeSinceReset, HighQDepth,
/// MsgEnqCount and MsgDeqCount): a performance event and RESET QSTATS reset them.
#[derive(Debug, Clone, Copy)]
pub struct SinceReset {
    /// When they were last reset.
    pub at: std::time::SystemTime,
    /// `stats.puts` then.
    pub puts_before: u64,
    /// `stats.gets` then.
    pub gets_before: u64,
    /// The deepest the queue has been since.
    pub high_depth: usize,
}

impl QueueState {
    /// The statistics since the last reset: (seconds, high depth, enqueued, dequeued); with
    /// `reset`, they start again now.
    pub fn since_reset(
        &mut self,
        now: std::time::SystemTime,
        reset: bool,
    ) -> (u64, usize, u64, u64) {
        let r = self.since_reset;
        let secs = now.duration_since(r.at).map_or(0, |d| d.as_secs());
        let high = r.high_depth.max(self.store.depth());
        let out = (
            secs,
            high,
            self.stats.puts - r.puts_before,
            self.stats.gets - r.gets_before,
        );
        if reset {
            self.since_reset = SinceReset {
                at: now,
                puts_before: self.stats.puts,
                gets_before: self.stats.gets,
                high_depth: self.store.depth(),
            };
        }
        out
    }
}

/// A local queue.
#[derive(Debug)]
pub struct Queue {
    /// Its name (fixed for its life).
    pub name: ObjectName,
    state: Padded<Mutex<QueueState>>,
    /// Non-persistent puts made without the lock, moved into the store at the next lock.
    inbox: Inbox,
    /// The store's flag: expiration reports are waiting (read without the lock).
    reports_waiting: Arc<std::sync::atomic::AtomicBool>,
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
    /// The queue's depth (CURDEPTH) once the put was made. Through the inbox, only the
    /// inbox's count (a lower bound): the inbox is closed while QDEPTHHI or service-interval
    /// events, the users of this figure, watch the queue.
    pub depth: usize,
    /// The put is a trigger event by the queue's own conditions ([`QueueState::trigger_due`]):
    /// the queue manager checks the rest and writes the trigger message.
    pub trigger: bool,
}

impl Placed {
    /// Where a publication's copy, logged with the others, landed in `st` at `pos`.
    pub(super) fn copy(
        pos: Pos,
        (persistence, priority): (Persistence, u8),
        lsn: u64,
        st: &QueueState,
    ) -> Placed {
        Placed {
            pos: Some(pos),
            persistence,
            priority,
            lsn: Some(lsn),
            depth: st.store.depth(),
            trigger: st.trigger_due(priority),
        }
    }
}

impl Queue {
    /// A new, empty queue.
    pub fn new(name: ObjectName, attrs: LocalQueueAttrs, clock: Clock) -> Arc<Self> {
        let fifo = attrs.delivery_sequence == DeliverySequence::Fifo;
        let store = Store::new(fifo);
        Arc::new(Queue {
            name,
            reports_waiting: store.reports_waiting(),
            inbox: Inbox::default(),
            state: Padded(Mutex::new(QueueState {
                attrs: Arc::new(attrs),
                store,
                waiters: Waiters::default(),
                open_input: 0,
                open_output: 0,
                exclusive_input: false,
                deleted: false,
                stats: QueueStats::default(),
                since_reset: SinceReset {
                    at: clock.wall(),
                    puts_before: 0,
                    gets_before: 0,
                    high_depth: 0,
                },
                service_timer: 0,
                created: clock.wall(),
                journal: None,
                spill: None,
                name,
                clock,
                batch_wall: None,
                inbox_spare: Vec::new(),
            })),
        })
    }

    /// Expired messages whose senders asked for an expiration report, discarded since the last
    /// call (none, without taking the lock, when there are none).
    pub fn take_expired_reports(&self) -> Vec<Message> {
        if !self
            .reports_waiting
            .load(std::sync::atomic::Ordering::Acquire)
        {
            return Vec::new();
        }
        self.lock().store.take_expired_reports()
    }

    /// Locks the queue. Keep the guard short-lived; never hold two queue locks.
    /// Puts made through the inbox are in the store once it is locked.
    #[inline]
    pub fn lock(&self) -> QueueGuard<'_> {
        let mut st = self.state.lock();
        if self.inbox.waiting() {
            self.inbox.drain(&mut st);
        }
        QueueGuard::new(st, &self.inbox)
    }

    /// Puts a message whose descriptor is fully resolved. Outside a unit of work the message is
    /// handed to a suitable waiting getter if there is one; inside, it is stored invisible and
    /// its position returned for the unit of work. `counted_len` is checked against MAXMSGL.
    /// `now` is the queue manager's clock, or 0 when the caller has not read it: the queue
    /// reads it if the put needs it (only a put to a full queue, which looks for expired
    /// messages to make room, does).
    pub fn put_resolved(
        &self,
        msg: Message,
        expires_at: u64,
        uow: Option<UowId>,
        now: u64,
    ) -> MqResult<Placed> {
        self.try_put(msg, expires_at, uow, now).map_err(|(e, _)| e)
    }

    /// As [`Queue::put_resolved`], but a refused message comes back with the error so nothing
    /// is lost when the queue manager itself moves messages (backout requeue, dead-lettering).
    #[inline]
    pub fn try_put(
        &self,
        msg: Message,
        expires_at: u64,
        uow: Option<UowId>,
        now: u64,
    ) -> Result<Placed, (MqError, Message)> {
        let mut msg = msg;
        if uow.is_none() {
            match self.inbox.put(msg, expires_at) {
                Ok(placed) => return Ok(placed),
                Err(m) => msg = m,
            }
        }
        // Where the message was written when the memory budget had no room for it.
        let mut spilled: Option<RecordPos> = None;
        loop {
            let mut st = self.lock();
            match st.put_step(&self.name, msg, expires_at, uow, now, spilled) {
                Ok(placed) => return Ok(placed),
                Err((PutStop::Stop(Stop::Failed(e)), m)) => {
                    if let (Some(at), Some(spill)) = (spilled, &st.spill) {
                        spill.free(at);
                    }
                    return Err((e, m));
                }
                Err((PutStop::Stop(Stop::NoRoom(n)), m)) => {
                    msg = m;
                    let journal = st.journal.clone();
                    drop(st);
                    if let Err(e) = wait_room(journal, n) {
                        return Err((e, msg));
                    }
                }
                Err((PutStop::Spill, m)) => {
                    let spill = st.spill.clone().expect("a put spills only with an area");
                    drop(st);
                    match spill.write(&m) {
                        Ok(at) => spilled = Some(at),
                        Err(e) => return Err((e, m)),
                    }
                    msg = m;
                }
            }
        }
    }

    /// Commits a put made in a unit of work: the message becomes visible (and may go straight to
    /// a waiting getter), unless it expired while the unit of work was open, in which case it is
    /// discarded.
    pub fn commit_put(&self, pos: Pos, now: u64) {
        let mut st = self.lock();
        debug_assert!(
            matches!(st.store.state(pos), SlotState::PutPending(_)),
            "a committed put was pending"
        );
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
        let mut st = self.lock();
        debug_assert!(
            matches!(st.store.state(pos), SlotState::GotPending(u) if u != READING),
            "a committed get was pending"
        );
        st.store.remove(pos);
    }

    /// Returns a message got inside a unit of work to availability without counting a backout
    /// (read-ahead messages the application never saw).
    pub fn release_get(&self, pos: Pos) {
        let mut st = self.lock();
        st.make_available(pos);
    }

    /// Backs out a put: the message is discarded.
    pub fn backout_put(&self, pos: Pos) {
        let mut st = self.lock();
        debug_assert!(
            matches!(st.store.state(pos), SlotState::PutPending(_)),
            "a backed-out put was pending"
        );
        st.store.remove(pos);
    }

    /// Puts back a message that was removed (a failed requeue, an undelivered hand-over) at its
    /// original sequence position.
    pub fn restore(&self, msg: Message, seq: u64, expires_at: u64) {
        loop {
            let mut st = self.lock();
            // A persistent message that left the queue in the log comes back to it there too.
            let disk = match st.log_put(seq, None, &msg) {
                Ok(logged) => logged.map(|a| a.pos),
                Err(Stop::NoRoom(n)) => {
                    let journal = st.journal.clone();
                    drop(st);
                    if wait_room(journal, n).is_ok() {
                        continue;
                    }
                    // The log has failed: the message stays in memory, as it was.
                    st = self.lock();
                    None
                }
                Err(Stop::Failed(_)) => None,
            };
            st.offer(msg, seq, expires_at, disk);
            return;
        }
    }

    /// Undoes a hand-over the getter could not take: the message goes back in order (and may be
    /// handed to the next waiter).
    pub fn undo_delivery(&self, mut d: Delivery) {
        let more = std::mem::take(&mut d.more);
        self.undo_one(d);
        for m in more {
            self.undo_one(m);
        }
    }

    fn undo_one(&self, d: Delivery) {
        debug_assert!(d.more.is_empty(), "batches are one level deep");
        match d.pending_pos {
            Some(pos) => {
                let mut st = self.lock();
                st.make_available(pos);
            }
            None => self.restore(d.msg, d.seq, d.expires_at),
        }
    }
}

/// Why a step under the queue's lock stopped before it finished.
#[derive(Debug)]
pub(crate) enum Stop {
    /// It failed, with this error; nothing changed.
    Failed(MqError),
    /// The log's buffer has no room for a payload of this size: nothing changed; the caller
    /// releases the lock, waits for room ([`wait_room`]) and starts the step again.
    NoRoom(usize),
}

/// Why a put step under the queue's lock stopped before it finished.
#[derive(Debug)]
enum PutStop {
    /// As any step.
    Stop(Stop),
    /// The memory budget has no room for this non-persistent message: write it to the spill
    /// area with no lock held and start the step again with where it went.
    Spill,
}

impl From<MqError> for Stop {
    fn from(e: MqError) -> Stop {
        Stop::Failed(e)
    }
}

/// Waits, with no lock held, until `journal`'s buffer has room for `bytes`.
pub(crate) fn wait_room(journal: Option<Arc<dyn Journal>>, bytes: usize) -> MqResult<()> {
    match journal {
        Some(j) => j.wait_room(bytes),
        None => Ok(()),
    }
}

impl QueueState {
    /// One put under the lock: checks, logs (a persistent message) and places the message
    /// (`spilled`: where it was written in the spill area, when the budget had no room). On a
    /// stop nothing changed and the message comes back (its defaults resolved).
    #[inline]
    fn put_step(
        &mut self,
        name: &ObjectName,
        mut msg: Message,
        expires_at: u64,
        uow: Option<UowId>,
        now: u64,
        spilled: Option<RecordPos>,
    ) -> Result<Placed, (PutStop, Message)> {
        let (persistence, priority) = match self.check_put(name, &mut msg, now) {
            Ok(r) => r,
            Err(e) => return Err((PutStop::Stop(Stop::Failed(e)), msg)),
        };
        if spilled.is_none() && self.wants_room(&msg) {
            return Err(match self.spill {
                Some(_) => (PutStop::Spill, msg),
                None => (PutStop::Stop(Stop::Failed(budget_full(name))), msg),
            });
        }
        let seq = self.store.peek_seq();
        let logged = match self.log_put(seq, uow, &msg) {
            Ok(l) => l,
            Err(stop) => return Err((PutStop::Stop(stop), msg)),
        };
        let taken = self.store.next_seq();
        debug_assert_eq!(
            taken, seq,
            "the sequence number logged is the one the message takes"
        );
        let disk = logged.map(|a| a.pos);
        self.stats.puts += 1;
        self.stats.last_put = Some(msg.descriptor.put_time);
        let counted = (persistence == Persistence::Persistent, msg.body.len());
        let pos = match (uow, spilled) {
            (Some(u), Some(at)) => Some(self.store.insert_on_disk(
                seq,
                OnDisk::spilled(&msg, at),
                expires_at,
                SlotState::PutPending(u),
            )),
            (Some(u), None) => {
                Some(
                    self.store
                        .insert(seq, msg, disk, expires_at, SlotState::PutPending(u)),
                )
            }
            (None, spilled) => {
                self.place(msg, seq, expires_at, disk, spilled);
                None
            }
        };
        let depth = self.store.depth();
        if depth > self.since_reset.high_depth {
            self.since_reset.high_depth = depth;
        }
        self.stats.note_put(counted.0, counted.1, depth);
        Ok(Placed {
            pos,
            persistence,
            priority,
            lsn: logged.map(|a| a.lsn),
            depth,
            trigger: self.trigger_due(priority),
        })
    }

    /// Places a put that went through the inbox (non-persistent, outside a unit of work, its
    /// persistence and priority resolved): as [`QueueState::put_step`] would have.
    pub(crate) fn place_fast(&mut self, msg: Message, expires_at: u64) {
        debug_assert_eq!(msg.descriptor.persistence, Persistence::NotPersistent);
        let seq = self.store.next_seq();
        self.stats.puts += 1;
        self.stats.last_put = Some(msg.descriptor.put_time);
        let len = msg.body.len();
        self.place(msg, seq, expires_at, None, None);
        let depth = self.store.depth();
        if depth > self.since_reset.high_depth {
            self.since_reset.high_depth = depth;
        }
        self.stats.note_put(false, len, depth);
    }

    /// The checks of a put for one copy of a publication logged with others
    /// (`fanout.rs`): the put's checks, then whether this queue logs the copy (`None`: it
    /// does not, so it is put alone). Persistence and priority as resolved.
    pub(super) fn check_put_pub(
        &mut self,
        name: &ObjectName,
        msg: &mut Message,
        now: u64,
    ) -> MqResult<Option<(Persistence, u8)>> {
        let resolved = self.check_put(name, msg, now)?;
        Ok((self.journal.is_some() && self.logs(msg)).then_some(resolved))
    }

    /// Stores one copy of a publication whose shared record is at `disk`, pending in `uow`
    /// (its sequence number is the one the record names: the next).
    pub(super) fn store_copy(
        &mut self,
        msg: Message,
        disk: RecordPos,
        expires_at: u64,
        uow: UowId,
    ) -> Pos {
        let seq = self.store.next_seq();
        self.stats.puts += 1;
        self.stats.last_put = Some(msg.descriptor.put_time);
        let counted = (
            msg.descriptor.persistence == Persistence::Persistent,
            msg.body.len(),
        );
        let pos = self
            .store
            .insert(seq, msg, Some(disk), expires_at, SlotState::PutPending(uow));
        let depth = self.store.depth();
        self.stats.note_put(counted.0, counted.1, depth);
        pos
    }

    /// Logs a persistent put (outside a unit of work when `uow` is `None`) without waiting.
    #[inline]
    fn log_put(&self, seq: u64, uow: Option<UowId>, msg: &Message) -> Result<Option<Logged>, Stop> {
        match &self.journal {
            Some(j) if self.logs(msg) => match j.put(&self.name, seq, uow.unwrap_or(0), msg)? {
                Append::Done(l) => Ok(Some(l)),
                Append::NoRoom(n) => Err(Stop::NoRoom(n)),
            },
            _ => Ok(None),
        }
    }

    /// Logs the get of a logged message without waiting.
    #[inline]
    pub(crate) fn log_get(&self, seq: u64, uow: Option<UowId>) -> Result<Option<u64>, Stop> {
        match &self.journal {
            Some(j) => match j.get(&self.name, seq, uow.unwrap_or(0))? {
                Append::Done(lsn) => Ok(Some(lsn)),
                Append::NoRoom(n) => Err(Stop::NoRoom(n)),
            },
            None => Ok(None),
        }
    }

    /// The journal, for a wait or a read outside the lock.
    pub(crate) fn journal(&self) -> Option<Arc<dyn Journal>> {
        self.journal.clone()
    }

    /// The clock put and get times come from.
    pub(crate) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Starts logging this queue's persistent messages through `journal`, keeping at most
    /// `buffer` bytes of them in memory besides the log.
    pub fn attach_journal(&mut self, journal: Arc<dyn Journal>, buffer: usize) {
        self.journal = Some(journal);
        self.store.set_buffer_limit(buffer);
    }

    /// Writes non-persistent messages the memory budget has no room for to `spill` from now on
    /// (without one they are refused with STORAGE_NOT_AVAILABLE).
    pub fn attach_spill(&mut self, spill: Arc<dyn Spill>) {
        self.store.set_spill(spill.clone());
        self.spill = Some(spill);
    }

    /// The spill area, for a read outside the lock.
    pub(crate) fn spill(&self) -> Option<Arc<dyn Spill>> {
        self.spill.clone()
    }

    /// Whether this queue logs its persistent messages.
    pub fn journaled(&self) -> bool {
        self.journal.is_some()
    }

    /// Whether operations on `msg` here go through the log.
    pub(crate) fn logs(&self, msg: &Message) -> bool {
        msg.descriptor.persistence == Persistence::Persistent
            && self.attrs.definition_type != DefinitionType::TemporaryDynamic
    }

    /// Checks a put against the queue's state and resolves "as queue default" persistence and
    /// priority in the descriptor.
    #[inline]
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
        // The clock is read only here, when a full queue may have expired messages to make
        // room (0: the putter did not read it; it is never a reading).
        let now = || if now == 0 { self.clock.now() } else { now };
        if self.store.depth() >= self.attrs.max_depth
            && (self.store.sweep_expired(now()) == 0 || self.store.depth() >= self.attrs.max_depth)
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

    /// Whether `msg` needs room in memory the budget does not have: a message the log does not
    /// hold (one it holds can live there), unless a getter waits for it (handed over, it is
    /// never stored).
    fn wants_room(&self, msg: &Message) -> bool {
        let logged = self.journal.is_some() && self.logs(msg);
        !logged && self.waiters.is_empty() && !self.store.has_room(super::store::cost(msg))
    }

    /// Places a message put outside a unit of work: written to the spill area (`spilled`), it
    /// is stored by its entry unless a getter came to wait meanwhile; otherwise it is offered.
    fn place(
        &mut self,
        msg: Message,
        seq: u64,
        expires_at: u64,
        disk: Option<RecordPos>,
        spilled: Option<RecordPos>,
    ) {
        match (spilled, &self.spill) {
            (Some(at), Some(_)) if self.waiters.is_empty() => {
                let entry = OnDisk::spilled(&msg, at);
                self.store
                    .insert_on_disk(seq, entry, expires_at, SlotState::Available);
                self.waiters.wake_browsers();
            }
            (Some(at), Some(spill)) => {
                spill.free(at);
                self.offer(msg, seq, expires_at, disk);
            }
            _ => self.offer(msg, seq, expires_at, disk),
        }
    }

    /// Whether a put that left a message of `priority` here is a trigger event by this queue's
    /// own conditions (MQ's): TRIGGER on, GET allowed, the priority at least TRIGMPRI, and the
    /// messages of such priority — committed or not — now one (FIRST), TRIGDPTH (DEPTH) or any
    /// number (EVERY); FIRST and DEPTH only while nobody has the queue open for input. The
    /// initiation queue, its trigger monitor and the process are the queue manager's to check.
    #[inline]
    pub(crate) fn trigger_due(&self, priority: u8) -> bool {
        let t = &self.attrs.triggering;
        if !t.control || self.attrs.get_inhibited || priority < t.msg_priority {
            return false;
        }
        use ferry_model::objects::TriggerType;
        let depth = t.depth as usize;
        match t.trigger_type {
            TriggerType::None => false,
            TriggerType::Every => true,
            _ if self.open_input > 0 => false,
            TriggerType::First => self.store.depth_at_or_above(t.msg_priority, 2) == 1,
            TriggerType::Depth => self.store.depth_at_or_above(t.msg_priority, depth + 1) == depth,
        }
    }

    pub(crate) fn check_usable(&self, name: &ObjectName) -> MqResult<()> {
        if self.deleted {
            return Err(MqError::new(
                Reason::QDeleted,
                format!("queue {name} was deleted after this handle opened it"),
            ));
        }
        Ok(())
    }

    /// Makes a stored slot available, handing it to a waiter if one wants it.
    pub(crate) fn make_available(&mut self, pos: Pos) {
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
            match self.hand_over(&w, msg, seq, expires_at) {
                None => {
                    // A read-ahead stream's batch stays listed while it has room.
                    if w.takes_more() {
                        self.waiters.add(w);
                    }
                    return;
                }
                Some(back) => msg = back,
            }
        }
        self.store
            .insert(seq, msg, None, expires_at, SlotState::Available);
        self.waiters.wake_browsers();
    }

    /// Hands `msg` to waiter `w` (held for its unit of work, if it has one). Returns the
    /// message if the waiter gave up just now.
    fn hand_over(
        &mut self,
        w: &Waiter,
        msg: Message,
        seq: u64,
        expires_at: u64,
    ) -> Option<Message> {
        let counted = (
            msg.descriptor.persistence == Persistence::Persistent,
            msg.body.len(),
        );
        let (d, pending) = match w.uow {
            Some(u) => {
                let copy = msg.clone();
                let pos = self
                    .store
                    .insert(seq, msg, None, expires_at, SlotState::GotPending(u));
                (
                    Delivery {
                        msg: copy,
                        pending_pos: Some(pos),
                        seq,
                        expires_at,
                        more: Vec::new(),
                    },
                    Some(pos),
                )
            }
            None => (
                Delivery {
                    msg,
                    pending_pos: None,
                    seq,
                    expires_at,
                    more: Vec::new(),
                },
                None,
            ),
        };
        match (w.deliver(d), pending) {
            (Ok(()), _) => {
                self.stats.gets += 1;
                self.stats.handovers += 1;
                self.stats.last_get = Some(self.clock.wall());
                let (persistent, len) = counted;
                self.stats.note_handed(persistent, len, 0);
                None
            }
            // The waiter gave up just now: take the message back out and go on.
            (Err(_), Some(pos)) => match self.store.remove(pos) {
                Some(Held::Mem(m)) => Some(m),
                _ => None,
            },
            (Err(d), None) => Some(d.msg),
        }
    }
}

fn budget_full(name: &ObjectName) -> MqError {
    MqError::new(
        Reason::StorageNotAvailable,
        format!("the queue manager's memory budget for messages is full and it has no spill area; queue {name} takes no more non-persistent messages until consumers get some (or raise memory_budget_mib)"),
    )
}
