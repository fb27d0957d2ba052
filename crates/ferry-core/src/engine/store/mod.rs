//! The messages of one local queue, in delivery order, with indexes by correl id and msg id.
//!
//! Owns: message slots, their visibility state (available, put or got inside a unit of work,
//! gone), delivery order, expiry and the id indexes. It knows nothing of locks, waiters or
//! connections: `queue.rs` wraps it in a mutex.
//!
//! Layout: one lane per priority (0–9), or a single lane when MSGDLVSQ(FIFO). Each lane is a
//! `VecDeque` of slots in increasing sequence number; sequence numbers are unique per queue and
//! never reused, so a slot is found again by binary search on its `seq`. A message got inside a
//! unit of work stays in its slot (state `GotPending`) until commit, so backout puts it back in
//! its original position at no cost. Removed slots in the middle become tombstones that are
//! compacted once they are the majority of a lane.
//!
//! Deep queues: a persistent message's content is also in the recovery log (its PUT record).
//! While the queue's in-memory persistent bytes stay within its buffer (MQ's
//! DefaultPQBufferSize) the message is kept in memory too; beyond it only a compact entry stays
//! in memory ([`OnDisk`]: where the record is, the ids, priority and backout count) and the
//! content is read back from the log when the message is got or browsed. Restart loads every
//! message this way, so it costs the entries, not the bodies.
//!
//! Spilled messages: a non-persistent message the memory budget has no room for is written to
//! the spill area (see `spill.rs`) by the queue before it takes its lock; the store keeps its
//! compact entry in its slot (`Body::Spilled`), so it comes back in order, and frees it in the
//! area when it leaves (or when the store is dropped). A checkpoint never records one.
//!
//! Memory: every in-memory body is charged to the queue manager's [`MemoryBudget`] (when one is
//! attached) from insert to removal, and what is left when the store is dropped is given back.
//! A logged message that would take the budget past its limit is kept only in the log.
//!
//! Invariants: within a lane `seq` strictly increases; `depth` counts non-gone slots;
//! `available` counts `Available` slots; once the correl index is enabled (the first get or
//! browse by correl id) every non-gone slot with a non-zero correl id is in it, and once the msg
//! index is, every non-gone slot is in that; `on_disk` and `spilled` count the
//! `Disk` and `Spilled` slots; `mem_logged` is the cost of the
//! in-memory bodies that are also in the log; `mem_cost` the cost of all in-memory bodies, and
//! what this store has charged to its budget.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

use ferry_log::RecordPos;
use ferry_model::IdHasher;

use ferry_model::message::{CorrelId, Message, MsgId, Priority};

use super::budget::MemoryBudget;
use super::spill::Spill;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Expired messages kept for their expiration reports at most, per queue, until a session
/// sends them (beyond it, discarded without a report).
pub const MAX_EXPIRED_REPORTS: usize = 10_000;

/// Identifies a unit of work (one per connection at a time).
pub type UowId = u64;

/// The unit of work a slot is held by while its content is read back from the log for a
/// destructive get (the queue's lock is released for the read): invisible to other getters,
/// and recorded by a checkpoint as available (it is, as far as the log knows).
pub const READING: UowId = (1 << 62) - 1;

/// Where a message lives: its lane and sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Lane index (the priority, or 0 in FIFO mode).
    pub lane: u8,
    /// Sequence number, unique within the queue.
    pub seq: u64,
}

/// The visibility of a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotState {
    /// Visible to gets and browses.
    Available,
    /// Put inside a unit of work that has not committed: invisible.
    PutPending(UowId),
    /// Got inside a unit of work that has not committed: invisible, restored on backout.
    GotPending(UowId),
    /// Removed; a tombstone awaiting compaction.
    Gone,
}

/// What stays in memory of a message whose content is only in the recovery log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnDisk {
    /// Its PUT record.
    pub pos: RecordPos,
    /// Msg id (for matching and the msg id index).
    pub msg_id: MsgId,
    /// Correl id (for matching and the correl id index).
    pub correl_id: CorrelId,
    /// Priority (its lane).
    pub priority: u8,
    /// Backout count now (the record holds the count when it was put).
    pub backout_count: u32,
    /// Put time, Unix milliseconds.
    pub put_time_ms: u64,
    /// Its content is in the spill area (a non-persistent message beyond the memory budget),
    /// not in the log; `pos` is where in the area.
    pub spilled: bool,
}

impl OnDisk {
    /// The entry for `msg`, whose PUT record is at `pos`.
    pub fn of(msg: &Message, pos: RecordPos) -> OnDisk {
        OnDisk {
            pos,
            msg_id: msg.descriptor.msg_id,
            correl_id: msg.descriptor.correl_id,
            priority: priority_of(msg),
            backout_count: msg.descriptor.backout_count,
            put_time_ms: msg
                .descriptor
                .put_time
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
            spilled: false,
        }
    }

    /// The entry for non-persistent `msg`, written to the spill area at `at`.
    pub fn spilled(msg: &Message, at: RecordPos) -> OnDisk {
        OnDisk {
            spilled: true,
            ..OnDisk::of(msg, at)
        }
    }
}

fn priority_of(msg: &Message) -> u8 {
    match msg.descriptor.priority {
        Priority::Value(p) => p,
        Priority::AsQueueDef => 0,
    }
}

/// What a slot keeps of a message only in the log: [`OnDisk`] without the correl id (kept in
/// a side table, as few messages carry one) and with the put time in seconds — so a deep
/// queue's slot is 80 bytes.
#[derive(Debug, Clone, Copy)]
struct DiskSlot {
    pos: RecordPos,
    msg_id: MsgId,
    priority: u8,
    backout_count: u32,
    put_secs: u32,
}

impl DiskSlot {
    fn of(d: &OnDisk) -> DiskSlot {
        DiskSlot {
            pos: d.pos,
            msg_id: d.msg_id,
            priority: d.priority,
            backout_count: d.backout_count,
            put_secs: (d.put_time_ms / 1000).min(u32::MAX as u64) as u32,
        }
    }
    fn on_disk(&self, correl_id: CorrelId) -> OnDisk {
        OnDisk {
            pos: self.pos,
            msg_id: self.msg_id,
            correl_id,
            priority: self.priority,
            backout_count: self.backout_count,
            put_time_ms: self.put_secs as u64 * 1000,
            spilled: false,
        }
    }
}

/// A [`SlotState`] packed in 8 bytes (the tag in the top two bits of the unit-of-work id).
#[derive(Clone, Copy, PartialEq, Eq)]
struct St(u64);

impl St {
    const SHIFT: u32 = 62;
    fn new(s: SlotState) -> St {
        match s {
            SlotState::Available => St(0),
            SlotState::PutPending(u) => {
                debug_assert!(u >> Self::SHIFT == 0, "unit-of-work id {u} too large");
                St(1 << Self::SHIFT | u)
            }
            SlotState::GotPending(u) => {
                debug_assert!(u >> Self::SHIFT == 0, "unit-of-work id {u} too large");
                St(2 << Self::SHIFT | u)
            }
            SlotState::Gone => St(3 << Self::SHIFT),
        }
    }
    fn get(self) -> SlotState {
        let u = self.0 & ((1 << Self::SHIFT) - 1);
        match self.0 >> Self::SHIFT {
            0 => SlotState::Available,
            1 => SlotState::PutPending(u),
            2 => SlotState::GotPending(u),
            _ => SlotState::Gone,
        }
    }
}

impl PartialEq<SlotState> for St {
    fn eq(&self, other: &SlotState) -> bool {
        *self == St::new(*other)
    }
}

impl std::fmt::Debug for St {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

type CorrelTable = HashMap<u64, CorrelId, BuildHasherDefault<IdHasher>>;

/// Memory a message in the buffer is charged beyond its body (descriptor, slot, allocation).
const MESSAGE_OVERHEAD: usize = 512;

/// What a message held in memory is charged (its body, properties and overhead).
pub fn cost(msg: &Message) -> usize {
    msg.body.len() + msg.properties.encoded_len() + MESSAGE_OVERHEAD
}

/// In-memory messages, in a slab so a put reuses a freed entry instead of allocating (a
/// per-message allocation freed on another thread made glibc's arenas the bottleneck).
type MemSlab = slab::Slab<Message>;

/// Where a slot's message is.
#[derive(Debug)]
enum Body {
    /// In memory at `key` in the store's slab; `disk` is its PUT record when it is in the log
    /// as well.
    Mem { key: u32, disk: Option<RecordPos> },
    /// Only in the log.
    Disk(DiskSlot),
    /// Only in the spill area (a non-persistent message; `pos` is its place there).
    Spilled(DiskSlot),
    /// A tombstone's: the message was removed.
    Gone,
}

impl Body {
    fn ids(&self, seq: u64, mem: &MemSlab, correls: &CorrelTable) -> (MsgId, CorrelId) {
        match self {
            Body::Mem { key, .. } => {
                let d = &mem[*key as usize].descriptor;
                (d.msg_id, d.correl_id)
            }
            Body::Disk(d) | Body::Spilled(d) => (
                d.msg_id,
                correls.get(&seq).copied().unwrap_or(CorrelId::NONE),
            ),
            Body::Gone => (MsgId::NONE, CorrelId::NONE),
        }
    }
    /// Whether the message is persistent (one only in the log always is; a spilled one never).
    fn persistent(&self, mem: &MemSlab) -> bool {
        match self {
            Body::Mem { key, .. } => {
                mem[*key as usize].descriptor.persistence
                    == ferry_model::message::Persistence::Persistent
            }
            Body::Disk(_) => true,
            Body::Spilled(_) | Body::Gone => false,
        }
    }

    fn priority(&self, mem: &MemSlab) -> u8 {
        match self {
            Body::Mem { key, .. } => priority_of(&mem[*key as usize]),
            Body::Disk(d) | Body::Spilled(d) => d.priority,
            Body::Gone => 0,
        }
    }
}

/// A message as the store holds it, borrowed.
#[derive(Debug, Clone, Copy)]
pub enum Entry<'a> {
    /// In memory.
    Mem(&'a Message),
    /// Only in the log.
    Disk(OnDisk),
}

/// A message taken out of the store.
#[derive(Debug)]
pub enum Held {
    /// Its content.
    Mem(Message),
    /// Where its content is.
    Disk(OnDisk),
}

impl Held {
    /// The message, if it was in memory.
    pub fn into_mem(self) -> Option<Message> {
        match self {
            Held::Mem(m) => Some(m),
            Held::Disk(_) => None,
        }
    }
}

#[derive(Debug)]
struct Slot {
    seq: u64,
    state: St,
    /// Clock nanoseconds after which the message is expired; 0 = never.
    expires_at: u64,
    body: Body,
}

/// Priority lanes: MQ's priorities 0 to 9 (a FIFO queue uses the first only).
const LANES: usize = 10;

#[derive(Debug, Default)]
struct Lane {
    slots: VecDeque<Slot>,
    /// Slots not `Gone`.
    live: usize,
    /// Slots `Available`.
    available: usize,
    /// No available slot has a smaller sequence number than this (a lower bound, not exact):
    /// searches start here, so messages held by units of work or read-ahead streams at the
    /// front of the lane are not walked over on every get.
    avail_from: u64,
}

impl Lane {
    /// Index of the first slot that may be available.
    fn search_start(&self) -> usize {
        if self.avail_from == 0 {
            0
        } else if let Some(i) = self.dense_index(self.avail_from) {
            // Seqs are unique and ascending: the slot holding `avail_from` is the first not below it.
            i
        } else {
            self.slots.partition_point(|s| s.seq < self.avail_from)
        }
    }

    /// Where `seq` sits if the slots from the front up to it are dense (consecutive seqs), as
    /// they are on a queue whose messages share one priority: found by subtraction, without the
    /// binary search (which is a few percent of the hot path's CPU at depth).
    fn dense_index(&self, seq: u64) -> Option<usize> {
        let i = usize::try_from(seq.checked_sub(self.slots.front()?.seq)?).ok()?;
        (self.slots.get(i)?.seq == seq).then_some(i)
    }

    /// Records that `seq` became available.
    fn note_available(&mut self, seq: u64) {
        if seq < self.avail_from {
            self.avail_from = seq;
        }
    }

    fn index_of(&self, seq: u64) -> Option<usize> {
        self.dense_index(seq)
            .or_else(|| self.slots.binary_search_by_key(&seq, |s| s.seq).ok())
    }

    /// Drops tombstones at the front, and compacts when tombstones are the majority.
    fn tidy(&mut self) {
        while matches!(self.slots.front(), Some(s) if s.state == SlotState::Gone) {
            self.slots.pop_front();
        }
        while matches!(self.slots.back(), Some(s) if s.state == SlotState::Gone) {
            self.slots.pop_back();
        }
        if self.slots.len() > 64 && self.live * 2 < self.slots.len() {
            self.slots.retain(|s| s.state != SlotState::Gone);
        }
    }
}

type IdMap<K> = HashMap<K, Positions, BuildHasherDefault<IdHasher>>;

/// Positions of the messages sharing one id; almost always exactly one. Many messages share
/// one correl id when a subscription's copies all carry it: they are added in order and
/// mostly taken oldest first, so the list is a deque and removing its front is O(1).
#[derive(Debug)]
enum Positions {
    One(Pos),
    Many(std::collections::VecDeque<Pos>),
}

impl Positions {
    fn add(&mut self, pos: Pos) {
        match self {
            Positions::One(p) => *self = Positions::Many([*p, pos].into_iter().collect()),
            Positions::Many(v) => v.push_back(pos),
        }
    }
    /// Removes `pos`; returns true when nothing is left.
    fn remove(&mut self, pos: Pos) -> bool {
        match self {
            Positions::One(p) => *p == pos,
            Positions::Many(v) => {
                if v.front() == Some(&pos) {
                    v.pop_front();
                } else if v.back() == Some(&pos) {
                    v.pop_back();
                } else if let Some(i) = v.iter().position(|p| *p == pos) {
                    v.remove(i);
                }
                v.is_empty()
            }
        }
    }
    fn to_vec(&self) -> Vec<Pos> {
        match self {
            Positions::One(p) => vec![*p],
            Positions::Many(v) => v.iter().copied().collect(),
        }
    }
    fn contains(&self, pos: &Pos) -> bool {
        match self {
            Positions::One(p) => p == pos,
            Positions::Many(v) => v.contains(pos),
        }
    }
}

fn index_add<K: std::hash::Hash + Eq>(map: &mut IdMap<K>, key: K, pos: Pos) {
    match map.get_mut(&key) {
        Some(p) => p.add(pos),
        None => {
            map.insert(key, Positions::One(pos));
        }
    }
}

fn index_remove<K: std::hash::Hash + Eq>(map: &mut IdMap<K>, key: &K, pos: Pos) {
    if let Some(p) = map.get_mut(key) {
        if p.remove(pos) {
            map.remove(key);
        }
    }
}

/// What a get or browse wants to match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Match {
    /// Only a message with this msg id.
    pub msg_id: Option<MsgId>,
    /// Only a message with this correl id.
    pub correl_id: Option<CorrelId>,
    /// Only non-persistent messages (read-ahead streams never carry persistent ones: a message
    /// in a client's buffer is lost if the client dies).
    pub non_persistent_only: bool,
}

impl Match {
    /// Matches any message.
    pub const ANY: Match = Match {
        msg_id: None,
        correl_id: None,
        non_persistent_only: false,
    };

    /// Whether this matches any message.
    pub fn is_any(&self) -> bool {
        self.msg_id.is_none() && self.correl_id.is_none() && !self.non_persistent_only
    }

    /// Whether a stored message satisfies this match (one only in the log is persistent, a
    /// spilled one is not).
    fn matches_body(&self, seq: u64, body: &Body, mem: &MemSlab, correls: &CorrelTable) -> bool {
        match body {
            Body::Mem { key, .. } => self.matches(&mem[*key as usize]),
            Body::Disk(d) | Body::Spilled(d) => {
                let correl = || correls.get(&seq).copied().unwrap_or(CorrelId::NONE);
                self.msg_id.is_none_or(|id| d.msg_id == id)
                    && self.correl_id.is_none_or(|id| correl() == id)
                    && !(self.non_persistent_only && matches!(body, Body::Disk(_)))
            }
            Body::Gone => false,
        }
    }

    /// Whether `msg` satisfies this match.
    pub fn matches(&self, msg: &Message) -> bool {
        self.msg_id.is_none_or(|id| msg.descriptor.msg_id == id)
            && self
                .correl_id
                .is_none_or(|id| msg.descriptor.correl_id == id)
            && !(self.non_persistent_only
                && msg.descriptor.persistence == ferry_model::message::Persistence::Persistent)
    }
}

/// The messages of one queue.
#[derive(Debug)]
pub struct Store {
    lanes: Vec<Lane>,
    fifo: bool,
    next_seq: u64,
    depth: usize,
    available: usize,
    /// Built at the first match by correl id: a queue only ever read in order (a subscription's,
    /// a stream's) pays nothing for it, though each of its messages carries a correl id.
    correl_index: Option<IdMap<CorrelId>>,
    msg_index: Option<IdMap<MsgId>>,
    /// The in-memory messages.
    mem: MemSlab,
    /// Correl ids of messages only in the log that have one, by sequence number.
    disk_correls: CorrelTable,
    /// Cost of in-memory bodies that are also in the log.
    mem_logged: usize,
    /// Most `mem_logged` before logged messages are kept only in the log (0: no limit).
    buffer_limit: usize,
    /// Cost of every in-memory body (charged to `budget`).
    mem_cost: usize,
    /// The queue manager's memory budget, when one is attached.
    budget: Option<Arc<MemoryBudget>>,
    /// Messages whose content is only in the log.
    on_disk: usize,
    /// Messages whose content is only in the spill area.
    spilled: usize,
    /// Persistent messages held (any state): while there are none, a match that asks only for
    /// non-persistent messages (a read-ahead stream's) takes the first message directly.
    persistent: usize,
    /// The spill area, when one is attached.
    spill: Option<Arc<dyn Spill>>,
    /// Messages found expired and discarded, since creation.
    pub expired_total: u64,
    /// Discarded expired messages whose senders asked for an expiration report (MQRO_EXPIRATION),
    /// kept (at most [`MAX_EXPIRED_REPORTS`]) until a session sends the reports.
    expired_reports: Vec<Message>,
    /// Set while `expired_reports` holds any: read without the queue's lock.
    reports_waiting: Arc<AtomicBool>,
    /// No message here expires before this (monotonic ns; 0: none has an expiry): a full
    /// queue's puts look for expired messages to make room only once one may have expired.
    next_expiry: u64,
    /// A checkpoint's snapshot in progress (see `snapshot.rs`).
    snapshot: Option<snapshot::Snapshot>,
}

impl Store {
    /// An empty store; `fifo` for MSGDLVSQ(FIFO).
    pub fn new(fifo: bool) -> Self {
        Store {
            // Made at the first put: an empty queue (a client's session queue, most of the
            // time) does not pay for ten lanes.
            lanes: Vec::new(),
            fifo,
            next_seq: 1,
            depth: 0,
            available: 0,
            correl_index: None,
            msg_index: None,
            mem: MemSlab::new(),
            disk_correls: CorrelTable::default(),
            mem_logged: 0,
            buffer_limit: 0,
            mem_cost: 0,
            budget: None,
            on_disk: 0,
            spilled: 0,
            persistent: 0,
            spill: None,
            expired_total: 0,
            expired_reports: Vec::new(),
            reports_waiting: Arc::default(),
            next_expiry: 0,
            snapshot: None,
        }
    }

    /// Charges this store's in-memory bodies to `budget` from now on.
    pub fn set_budget(&mut self, budget: Arc<MemoryBudget>) {
        if let Some(old) = self.budget.take() {
            old.release(self.mem_cost);
        }
        budget.charge(self.mem_cost);
        self.budget = Some(budget);
    }

    /// Frees spilled messages in `spill` when they leave (set with the queue's spill area).
    pub fn set_spill(&mut self, spill: Arc<dyn Spill>) {
        debug_assert!(
            self.spilled == 0 || self.spill.is_some(),
            "spilled messages without an area"
        );
        self.spill = Some(spill);
    }

    /// Messages whose content is only in the spill area.
    pub fn spilled(&self) -> usize {
        self.spilled
    }

    /// Whether a message costing `bytes` fits in the memory budget (always, without one).
    pub fn budget(&self) -> Option<&Arc<MemoryBudget>> {
        self.budget.as_ref()
    }

    /// Whether `bytes` more fit the memory budget (always, without one).
    pub fn has_room(&self, bytes: usize) -> bool {
        self.budget.as_ref().is_none_or(|b| b.has_room(bytes))
    }

    /// Sets the buffer for messages that are also in the log (0: keep them all in memory).
    pub fn set_buffer_limit(&mut self, bytes: usize) {
        self.buffer_limit = bytes;
    }

    /// Messages whose content is only in the log.
    pub fn on_disk(&self) -> usize {
        self.on_disk
    }

    /// Bytes of in-memory messages that are also in the log (charged with overhead).
    pub fn buffered_bytes(&self) -> usize {
        self.mem_logged
    }

    /// Messages held, committed or not (CURDEPTH).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Messages held, committed or not, of priority `p` or higher — counted up to `limit` (a
    /// trigger's test: a priority lane's count at once, a FIFO lane walked until `limit`).
    pub fn depth_at_or_above(&self, p: u8, limit: usize) -> usize {
        if p == 0 || self.lanes.is_empty() {
            return self.depth;
        }
        if !self.fifo {
            return self.lanes[usize::from(p.min(9))..]
                .iter()
                .map(|l| l.live)
                .sum();
        }
        let mem = &self.mem;
        self.lanes[0]
            .slots
            .iter()
            .filter(|s| s.state != SlotState::Gone && s.body.priority(mem) >= p)
            .take(limit)
            .count()
    }

    /// Messages visible to a get right now (expired ones may still be counted until found).
    pub fn available(&self) -> usize {
        self.available
    }

    /// Continues numbering after `seq` (a restart must never reuse a logged sequence number).
    pub fn resume_after(&mut self, seq: u64) {
        self.next_seq = self.next_seq.max(seq + 1);
    }

    /// Allocates the next sequence number (also for messages handed straight to a getter, so a
    /// hand-over that must be undone can be reinserted in order).
    /// The sequence number the next message will take (without taking it).
    pub fn peek_seq(&self) -> u64 {
        self.next_seq
    }

    /// Takes the next sequence number.
    pub fn next_seq(&mut self) -> u64 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    fn lane_of(&self, priority: u8) -> u8 {
        if self.fifo {
            0
        } else {
            priority.min(9)
        }
    }

    /// Stores a message with a sequence number from [`Store::next_seq`], keeping lane order even
    /// when `seq` is older than the lane's tail (a hand-over being undone). `disk` is its PUT
    /// record when it is in the log: beyond the buffer only its [`OnDisk`] entry is kept.
    pub fn insert(
        &mut self,
        seq: u64,
        msg: Message,
        disk: Option<RecordPos>,
        expires_at: u64,
        state: SlotState,
    ) -> Pos {
        let c = cost(&msg);
        let body = match disk {
            Some(at)
                if (self.buffer_limit > 0 && self.mem_logged + c > self.buffer_limit)
                    || !self.has_room(c) =>
            {
                return self.insert_on_disk(seq, OnDisk::of(&msg, at), expires_at, state);
            }
            _ => {
                self.mem_cost += c;
                if let Some(b) = &self.budget {
                    b.charge(c);
                }
                Body::Mem {
                    key: self.mem.insert(msg) as u32,
                    disk,
                }
            }
        };
        self.insert_body(seq, body, expires_at, state)
    }

    /// Stores a message known only by its entry: in the log (restart, a deep queue) or, with
    /// `entry.spilled`, in the spill area.
    pub fn insert_on_disk(
        &mut self,
        seq: u64,
        entry: OnDisk,
        expires_at: u64,
        state: SlotState,
    ) -> Pos {
        debug_assert!(
            !entry.spilled || self.spill.is_some(),
            "a spilled message in a store with no spill area"
        );
        if !entry.correl_id.is_none() {
            self.disk_correls.insert(seq, entry.correl_id);
        }
        let slot = DiskSlot::of(&entry);
        let body = if entry.spilled {
            Body::Spilled(slot)
        } else {
            Body::Disk(slot)
        };
        self.insert_body(seq, body, expires_at, state)
    }

    fn insert_body(&mut self, seq: u64, body: Body, expires_at: u64, state: SlotState) -> Pos {
        let lane_no = self.lane_of(body.priority(&self.mem));
        let pos = Pos { lane: lane_no, seq };
        // A message coming back under its old number (a restore) changes a slot a snapshot may
        // not have seen yet; a new one is above the snapshot's limit and ignored.
        self.preserve(pos);
        let (msg_id, correl_id) = body.ids(seq, &self.mem, &self.disk_correls);
        if let Some(ix) = self.correl_index.as_mut().filter(|_| !correl_id.is_none()) {
            index_add(ix, correl_id, pos);
        }
        if let Some(ix) = self.msg_index.as_mut() {
            index_add(ix, msg_id, pos);
        }
        if body.persistent(&self.mem) {
            self.persistent += 1;
        }
        match &body {
            Body::Mem { key, disk: Some(_) } => self.mem_logged += cost(&self.mem[*key as usize]),
            Body::Mem { .. } | Body::Gone => {}
            Body::Disk(_) => self.on_disk += 1,
            Body::Spilled(_) => self.spilled += 1,
        }
        if expires_at != 0 && (self.next_expiry == 0 || expires_at < self.next_expiry) {
            self.next_expiry = expires_at;
        }
        if self.lanes.is_empty() {
            self.lanes = (0..LANES).map(|_| Lane::default()).collect();
        }
        let lane = &mut self.lanes[lane_no as usize];
        let slot = Slot {
            seq,
            state: St::new(state),
            expires_at,
            body,
        };
        match lane.slots.back() {
            Some(last) if last.seq >= seq => {
                let at = lane.slots.partition_point(|s| s.seq < seq);
                match lane.slots.get_mut(at) {
                    // The message's own tombstone (it was removed and is coming back): reuse it,
                    // so `seq` stays unique in the lane and binary search finds the live slot.
                    Some(old) if old.seq == seq => {
                        debug_assert_eq!(old.state, SlotState::Gone, "seq {seq} inserted twice");
                        *old = slot;
                    }
                    _ => lane.slots.insert(at, slot),
                }
            }
            _ => lane.slots.push_back(slot),
        }
        lane.live += 1;
        self.depth += 1;
        if state == SlotState::Available {
            lane.available += 1;
            self.available += 1;
            lane.note_available(seq);
        }
        debug_assert!(self.counts_agree(), "counters after inserting {pos:?}");
        pos
    }

    fn slot(&self, pos: Pos) -> Option<&Slot> {
        let lane = &self.lanes[pos.lane as usize];
        lane.index_of(pos.seq).map(|i| &lane.slots[i])
    }

    /// The state of the slot at `pos` (`Gone` if it no longer exists).
    pub fn state(&self, pos: Pos) -> SlotState {
        self.slot(pos).map_or(SlotState::Gone, |s| s.state.get())
    }

    /// The message at `pos`, if the slot still exists.
    pub fn entry(&self, pos: Pos) -> Option<Entry<'_>> {
        self.slot(pos)
            .filter(|s| s.state != SlotState::Gone)
            .and_then(|s| match &s.body {
                Body::Mem { key, .. } => Some(Entry::Mem(&self.mem[*key as usize])),
                Body::Disk(d) | Body::Spilled(d) => {
                    let correl = self.disk_correls.get(&s.seq).copied();
                    let mut e = d.on_disk(correl.unwrap_or(CorrelId::NONE));
                    e.spilled = matches!(s.body, Body::Spilled(_));
                    Some(Entry::Disk(e))
                }
                Body::Gone => None,
            })
    }

    /// The message at `pos` if it is in memory.
    pub fn peek(&self, pos: Pos) -> Option<&Message> {
        match self.entry(pos)? {
            Entry::Mem(m) => Some(m),
            Entry::Disk(_) => None,
        }
    }

    /// Raises the backout count of the message at `pos`; returns the new count.
    /// The backout count of the message at `pos`.
    pub fn backout_count(&self, pos: Pos) -> Option<u32> {
        let slot = self.slot(pos).filter(|s| s.state != SlotState::Gone)?;
        match &slot.body {
            Body::Mem { key, .. } => Some(self.mem[*key as usize].descriptor.backout_count),
            Body::Disk(d) | Body::Spilled(d) => Some(d.backout_count),
            Body::Gone => None,
        }
    }

    pub fn bump_backout(&mut self, pos: Pos) -> Option<u32> {
        self.preserve(pos);
        let lane = &mut self.lanes[pos.lane as usize];
        let i = lane.index_of(pos.seq)?;
        let slot = Some(&mut lane.slots[i]).filter(|s| s.state != SlotState::Gone)?;
        let count = match &mut slot.body {
            Body::Mem { key, .. } => &mut self.mem[*key as usize].descriptor.backout_count,
            Body::Disk(d) | Body::Spilled(d) => &mut d.backout_count,
            Body::Gone => return None,
        };
        *count = count.saturating_add(1);
        Some(*count)
    }

    /// Changes a slot's visibility, keeping the counters right. Returns false if the slot is gone.
    pub fn set_state(&mut self, pos: Pos, state: SlotState) -> bool {
        debug_assert!(state != SlotState::Gone, "use remove() to make a slot gone");
        self.preserve(pos);
        let lane = &mut self.lanes[pos.lane as usize];
        let Some(i) = lane.index_of(pos.seq) else {
            return false;
        };
        let slot = &mut lane.slots[i];
        if slot.state == SlotState::Gone {
            return false;
        }
        let was = slot.state == SlotState::Available;
        let now = state == SlotState::Available;
        slot.state = St::new(state);
        match (was, now) {
            (false, true) => {
                lane.available += 1;
                self.available += 1;
                lane.note_available(pos.seq);
            }
            (true, false) => {
                lane.available -= 1;
                self.available -= 1;
            }
            _ => {}
        }
        debug_assert!(
            self.counts_agree(),
            "counters after setting {pos:?} to {state:?}"
        );
        true
    }

    /// Removes the message at `pos` and returns it.
    pub fn remove(&mut self, pos: Pos) -> Option<Held> {
        self.preserve(pos);
        let lane = &mut self.lanes[pos.lane as usize];
        let i = lane.index_of(pos.seq)?;
        let slot = &mut lane.slots[i];
        if slot.state == SlotState::Gone {
            return None;
        }
        if slot.state == SlotState::Available {
            lane.available -= 1;
            self.available -= 1;
        }
        slot.state = St::new(SlotState::Gone);
        let body = std::mem::replace(&mut slot.body, Body::Gone);
        debug_assert!(
            lane.live > 0 && self.depth > 0,
            "removing from an empty lane"
        );
        lane.live -= 1;
        self.depth -= 1;
        lane.tidy();
        let correl_id = self.forget(pos, &body);
        Some(match body {
            Body::Mem { key, disk } => {
                let msg = self.mem.remove(key as usize);
                let c = cost(&msg);
                if disk.is_some() {
                    self.mem_logged -= c;
                }
                self.mem_cost -= c;
                if let Some(b) = &self.budget {
                    b.release(c);
                }
                if self.mem.is_empty() && self.mem.capacity() > 4096 {
                    // A drained deep queue gives its memory back.
                    self.mem = MemSlab::new();
                }
                Held::Mem(msg)
            }
            Body::Disk(d) => {
                self.on_disk -= 1;
                if !correl_id.is_none() {
                    self.disk_correls.remove(&pos.seq);
                }
                Held::Disk(d.on_disk(correl_id))
            }
            Body::Spilled(d) => {
                self.spilled -= 1;
                if !correl_id.is_none() {
                    self.disk_correls.remove(&pos.seq);
                }
                if let Some(spill) = &self.spill {
                    spill.free(d.pos);
                }
                Held::Disk(OnDisk {
                    spilled: true,
                    ..d.on_disk(correl_id)
                })
            }
            Body::Gone => return None,
        })
    }

    /// Takes a message leaving the store out of the indexes and the persistent count; its
    /// correl id.
    fn forget(&mut self, pos: Pos, body: &Body) -> CorrelId {
        let (msg_id, correl_id) = body.ids(pos.seq, &self.mem, &self.disk_correls);
        if body.persistent(&self.mem) {
            self.persistent -= 1;
        }
        if let Some(ix) = self.correl_index.as_mut().filter(|_| !correl_id.is_none()) {
            index_remove(ix, &correl_id, pos);
        }
        if let Some(ix) = self.msg_index.as_mut() {
            index_remove(ix, &msg_id, pos);
        }
        correl_id
    }

    /// Lanes in delivery order: highest priority first.
    fn lane_order(&self) -> impl Iterator<Item = usize> {
        // None before the first put made the lanes.
        let lanes = if self.fifo { 1 } else { LANES };
        (0..lanes.min(self.lanes.len())).rev()
    }

    /// Finds the first available, unexpired message in delivery order matching `m`, discarding
    /// expired messages it passes. Uses the id indexes when `m` names an id.
    pub fn find(&mut self, m: &Match, now: u64) -> Option<Pos> {
        if self.available == 0 {
            return None;
        }
        let only_non_persistent = Match {
            non_persistent_only: true,
            ..Match::ANY
        };
        if m.is_any() || (*m == only_non_persistent && self.persistent == 0) {
            return self.find_first(now);
        }
        if let Some(correl) = m.correl_id {
            if correl.is_none() {
                return self.scan(m, now, None);
            }
            let candidates: Vec<Pos> = match self.correl_index_enabled().get(&correl) {
                // The usual reply: one message with this correl id; no list to build.
                Some(Positions::One(pos)) => {
                    let pos = *pos;
                    return self.best_of_one(pos, m, now);
                }
                Some(p) => p.to_vec(),
                None => return None,
            };
            return self.best_of(candidates, m, now);
        }
        if let Some(id) = m.msg_id {
            let ix = self.msg_index_enabled();
            let candidates: Vec<Pos> = match ix.get(&id) {
                Some(p) => p.to_vec(),
                None => return None,
            };
            return self.best_of(candidates, m, now);
        }
        self.scan(m, now, None)
    }

    fn msg_index_enabled(&mut self) -> &IdMap<MsgId> {
        if self.msg_index.is_none() {
            self.msg_index = Some(self.index_of(|(msg_id, _)| Some(msg_id)));
        }
        self.msg_index.get_or_insert_with(IdMap::default)
    }

    fn correl_index_enabled(&mut self) -> &IdMap<CorrelId> {
        if self.correl_index.is_none() {
            let ix = self.index_of(|(_, correl_id)| (!correl_id.is_none()).then_some(correl_id));
            self.correl_index = Some(ix);
        }
        self.correl_index.get_or_insert_with(IdMap::default)
    }

    /// An index of the non-gone slots by the key `key` gives their ids (none: not indexed).
    fn index_of<K: std::hash::Hash + Eq>(
        &self,
        key: impl Fn((MsgId, CorrelId)) -> Option<K>,
    ) -> IdMap<K> {
        let mut ix = IdMap::default();
        for (l, lane) in self.lanes.iter().enumerate() {
            for s in lane.slots.iter().filter(|s| s.state != SlotState::Gone) {
                let pos = Pos {
                    lane: l as u8,
                    seq: s.seq,
                };
                if let Some(k) = key(s.body.ids(s.seq, &self.mem, &self.disk_correls)) {
                    index_add(&mut ix, k, pos);
                }
            }
        }
        ix
    }

    /// Of the index candidates, the first in delivery order that is available, matches and has
    /// not expired.
    fn best_of(&mut self, mut candidates: Vec<Pos>, m: &Match, now: u64) -> Option<Pos> {
        candidates.sort_by_key(|p| (std::cmp::Reverse(p.lane), p.seq));
        for pos in candidates {
            let Some(slot) = self.slot(pos) else { continue };
            if slot.state != SlotState::Available
                || !m.matches_body(slot.seq, &slot.body, &self.mem, &self.disk_correls)
            {
                continue;
            }
            if slot.expires_at != 0 && slot.expires_at <= now {
                self.discard_expired(pos);
                continue;
            }
            return Some(pos);
        }
        None
    }

    /// The single index candidate, if it is available, matches and has not expired.
    fn best_of_one(&mut self, pos: Pos, m: &Match, now: u64) -> Option<Pos> {
        let slot = self.slot(pos)?;
        if slot.state != SlotState::Available
            || !m.matches_body(slot.seq, &slot.body, &self.mem, &self.disk_correls)
        {
            return None;
        }
        if slot.expires_at != 0 && slot.expires_at <= now {
            self.discard_expired(pos);
            return None;
        }
        Some(pos)
    }

    fn find_first(&mut self, now: u64) -> Option<Pos> {
        for l in self.lane_order() {
            loop {
                let lane = &self.lanes[l];
                if lane.available == 0 {
                    break;
                }
                let found = lane
                    .slots
                    .range(lane.search_start()..)
                    .find(|s| s.state == SlotState::Available)
                    .map(|s| (s.seq, s.expires_at));
                let Some((seq, expires_at)) = found else {
                    break;
                };
                self.lanes[l].avail_from = seq;
                let pos = Pos { lane: l as u8, seq };
                if expires_at != 0 && expires_at <= now {
                    self.discard_expired(pos);
                    continue;
                }
                return Some(pos);
            }
        }
        None
    }

    /// Linear scan in delivery order, starting strictly after `after` (a browse cursor).
    fn scan(&mut self, m: &Match, now: u64, after: Option<Pos>) -> Option<Pos> {
        let mut expired = Vec::new();
        let mut found = None;
        'lanes: for l in self.lane_order() {
            if let Some(c) = after {
                if l > c.lane as usize {
                    continue;
                }
            }
            let lane = &self.lanes[l];
            let from_cursor = matches!(after, Some(c) if c.lane as usize == l);
            let start = match after {
                Some(c) if from_cursor => lane.slots.partition_point(|s| s.seq <= c.seq),
                _ => lane.search_start(),
            };
            let mut first_available = None;
            for s in lane.slots.range(start..) {
                if s.state != SlotState::Available {
                    continue;
                }
                first_available.get_or_insert(s.seq);
                if !m.matches_body(s.seq, &s.body, &self.mem, &self.disk_correls) {
                    continue;
                }
                let pos = Pos {
                    lane: l as u8,
                    seq: s.seq,
                };
                if s.expires_at != 0 && s.expires_at <= now {
                    expired.push(pos);
                    continue;
                }
                found = Some(pos);
                break;
            }
            if !from_cursor {
                if let Some(seq) = first_available {
                    self.lanes[l].avail_from = seq;
                }
            }
            if found.is_some() {
                break 'lanes;
            }
        }
        for pos in expired {
            self.discard_expired(pos);
        }
        found
    }

    /// The next available message after the browse cursor `after` (or the first if `None`) in
    /// delivery order matching `m`. Messages of higher priority arriving behind the cursor are not
    /// seen until the cursor is reset, as in MQ.
    pub fn browse(&mut self, m: &Match, now: u64, after: Option<Pos>) -> Option<Pos> {
        if after.is_none() && !m.is_any() {
            return self.find(m, now);
        }
        self.scan(m, now, after)
    }

    /// Removes every available expired message. Returns how many went.
    pub fn sweep_expired(&mut self, now: u64) -> usize {
        if self.next_expiry == 0 || self.next_expiry > now {
            return 0;
        }
        let mut expired = Vec::new();
        let mut next = 0;
        for (l, lane) in self.lanes.iter().enumerate() {
            for s in lane.slots.iter().filter(|s| s.expires_at != 0) {
                if s.state == SlotState::Available && s.expires_at <= now {
                    expired.push(Pos {
                        lane: l as u8,
                        seq: s.seq,
                    });
                } else if s.state != SlotState::Gone && (next == 0 || s.expires_at < next) {
                    next = s.expires_at;
                }
            }
        }
        self.next_expiry = next;
        for pos in &expired {
            self.discard_expired(*pos);
        }
        expired.len()
    }

    /// Discards the expired message at `pos`, keeping it for its expiration report when its
    /// sender asked for one (and it is in memory: one whose body is only on disk goes without).
    fn discard_expired(&mut self, pos: Pos) {
        let Some(held) = self.remove(pos) else {
            return;
        };
        self.expired_total += 1;
        if let Held::Mem(m) = held {
            let wants = m.descriptor.report & ferry_model::report::EXPIRATION_WITH_FULL_DATA != 0;
            if wants && self.expired_reports.len() < MAX_EXPIRED_REPORTS {
                self.expired_reports.push(m);
                self.reports_waiting.store(true, Ordering::Release);
            }
        }
    }

    /// The flag set while expiration reports wait (see [`Store::take_expired_reports`]).
    pub fn reports_waiting(&self) -> Arc<AtomicBool> {
        self.reports_waiting.clone()
    }

    /// The discarded expired messages whose senders asked for an expiration report.
    pub fn take_expired_reports(&mut self) -> Vec<Message> {
        self.reports_waiting.store(false, Ordering::Release);
        std::mem::take(&mut self.expired_reports)
    }

    /// Removes every available message (CLEAR QLOCAL); pending ones stay. Returns how many went.
    pub fn clear_available(&mut self) -> usize {
        let mut all = Vec::new();
        for (l, lane) in self.lanes.iter().enumerate() {
            for s in lane
                .slots
                .iter()
                .filter(|s| s.state == SlotState::Available)
            {
                all.push(Pos {
                    lane: l as u8,
                    seq: s.seq,
                });
            }
        }
        for pos in &all {
            self.remove(*pos);
        }
        all.len()
    }

    /// Whether the message at `pos` has expired at `now`.
    pub fn is_expired(&self, pos: Pos, now: u64) -> bool {
        self.slot(pos)
            .is_some_and(|s| s.expires_at != 0 && s.expires_at <= now)
    }

    /// The expiry deadline of the message at `pos` (0 = never).
    pub fn expires_at(&self, pos: Pos) -> u64 {
        self.slot(pos).map_or(0, |s| s.expires_at)
    }

    /// Switches between priority lanes and one FIFO lane (ALTER MSGDLVSQ), keeping each message's
    /// state and relative order by sequence number.
    pub fn set_fifo(&mut self, fifo: bool) {
        if fifo == self.fifo {
            return;
        }
        self.preserve_all();
        let mut all: Vec<Slot> = Vec::with_capacity(self.depth);
        for lane in &mut self.lanes {
            all.extend(lane.slots.drain(..).filter(|s| s.state != SlotState::Gone));
            lane.live = 0;
            lane.available = 0;
            lane.avail_from = 0;
        }
        all.sort_by_key(|s| s.seq);
        self.fifo = fifo;
        self.depth = 0;
        self.available = 0;
        self.mem_logged = 0;
        self.on_disk = 0;
        self.spilled = 0;
        self.persistent = 0;
        if self.correl_index.is_some() {
            self.correl_index = Some(IdMap::default());
        }
        if self.msg_index.is_some() {
            self.msg_index = Some(IdMap::default());
        }
        for s in all {
            self.insert_body(s.seq, s.body, s.expires_at, s.state.get());
        }
    }

    /// The counters agree with the lanes' (cheap: ten lanes). Checked after every change in
    /// debug builds.
    fn counts_agree(&self) -> bool {
        let (live, available) = self
            .lanes
            .iter()
            .fold((0, 0), |(l, a), lane| (l + lane.live, a + lane.available));
        live == self.depth && available == self.available && available <= live
    }

    /// Every invariant in the module head, checked slot by slot (tests call it; it is
    /// O(depth)).
    pub fn check_invariants(&self) {
        let mut depth = 0;
        let mut available = 0;
        for lane in &self.lanes {
            assert!(
                lane.slots
                    .iter()
                    .zip(lane.slots.iter().skip(1))
                    .all(|(a, b)| a.seq < b.seq),
                "sequence numbers increase strictly within a lane"
            );
            let live = lane
                .slots
                .iter()
                .filter(|s| s.state != SlotState::Gone)
                .count();
            let avail = lane
                .slots
                .iter()
                .filter(|s| s.state == SlotState::Available)
                .count();
            assert_eq!(
                (live, avail),
                (lane.live, lane.available),
                "a lane's counters"
            );
            depth += live;
            available += avail;
        }
        assert_eq!(
            (depth, available),
            (self.depth, self.available),
            "the store's counters"
        );
        let persistent = self
            .lanes
            .iter()
            .flat_map(|l| l.slots.iter())
            .filter(|s| s.state != SlotState::Gone && s.body.persistent(&self.mem))
            .count();
        assert_eq!(persistent, self.persistent, "persistent messages counted");
        for (l, lane) in self.lanes.iter().enumerate() {
            for s in lane.slots.iter().filter(|s| s.state != SlotState::Gone) {
                let (_, correl) = s.body.ids(s.seq, &self.mem, &self.disk_correls);
                let pos = Pos {
                    lane: l as u8,
                    seq: s.seq,
                };
                if let Some(ix) = self.correl_index.as_ref().filter(|_| !correl.is_none()) {
                    assert!(
                        ix.get(&correl).is_some_and(|p| p.contains(&pos)),
                        "slot {pos:?} is in the correl index"
                    );
                }
            }
        }
    }

    /// Oldest put time among held messages, for MSGAGE-style status.
    pub fn oldest_put_time(&self) -> Option<std::time::SystemTime> {
        self.lanes
            .iter()
            .flat_map(|l| l.slots.iter())
            .filter(|s| s.state != SlotState::Gone)
            .filter_map(|s| match &s.body {
                Body::Mem { key, .. } => Some(self.mem[*key as usize].descriptor.put_time),
                Body::Disk(d) | Body::Spilled(d) => {
                    Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(d.put_secs as u64))
                }
                Body::Gone => None,
            })
            .min()
    }

    /// Calls `f` for every logged message held (in memory or only in the log) with its
    /// sequence number, slot state and expiry deadline: what a checkpoint records. Lane by lane,
    /// in sequence order within a lane.
    pub fn for_each_logged(&self, mut f: impl FnMut(u64, SlotState, u64, &OnDisk)) {
        for lane in &self.lanes {
            for s in lane.slots.iter().filter(|s| s.state != SlotState::Gone) {
                match &s.body {
                    Body::Mem {
                        key,
                        disk: Some(at),
                    } => f(
                        s.seq,
                        s.state.get(),
                        s.expires_at,
                        &OnDisk::of(&self.mem[*key as usize], *at),
                    ),
                    Body::Disk(d) => {
                        let correl = self.disk_correls.get(&s.seq).copied();
                        let d = d.on_disk(correl.unwrap_or(CorrelId::NONE));
                        f(s.seq, s.state.get(), s.expires_at, &d)
                    }
                    Body::Mem { .. } | Body::Spilled(_) | Body::Gone => {}
                }
            }
        }
    }

    /// The highest sequence number handed out so far.
    pub fn last_seq(&self) -> u64 {
        self.next_seq - 1
    }

    /// Positions of every slot in a given state, for tests and diagnostics.
    pub fn positions_in_state(&self, state: SlotState) -> Vec<Pos> {
        let mut out = Vec::new();
        for (l, lane) in self.lanes.iter().enumerate() {
            for s in lane.slots.iter().filter(|s| s.state == St::new(state)) {
                out.push(Pos {
                    lane: l as u8,
                    seq: s.seq,
                });
            }
        }
        out
    }
}

mod snapshot;
impl Drop for Store {
    /// A deleted queue's bodies leave the budget with it, and its spilled messages the area.
    fn drop(&mut self) {
        if let Some(b) = &self.budget {
            b.release(self.mem_cost);
        }
        if let (Some(spill), true) = (&self.spill, self.spilled > 0) {
            for s in self.lanes.iter().flat_map(|l| l.slots.iter()) {
                if let Body::Spilled(d) = &s.body {
                    spill.free(d.pos);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;

pub use snapshot::Image;
