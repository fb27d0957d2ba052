//! Waiting getters: the hand-over cell a putter drops a message into, and the per-queue lists
//! that decide who is served first.
//!
//! Fairness rules (as in MQ): a getter waiting for a specific correl id or msg id is offered a
//! matching message before generic getters; among generic getters the longest-waiting is served
//! first (FIFO). A put that finds a suitable waiter hands the message straight over, so it never
//! touches the queue's store.
//!
//! Lock order: queue lock, then a cell's lock. A waiter that times out locks only its cell, marks
//! itself cancelled, and leaves the stale entry for the next putter (or [`Waiters::prune`]) to
//! drop, so it never needs the queue lock while holding its cell.
//!
//! Batches: a read-ahead stream waits with room for several messages ([`Waiter::new_batch`]).
//! The first hand-over wakes its task as usual; until the task takes the delivery, later puts
//! add to it (the waiter stays listed while it has room), so a burst of puts reaches the stream
//! without touching the store and wakes it once.
//!
//! Waking: a blocked thread is unparked, an async task's waker is woken. A waiter first spins
//! and yields briefly as the queue manager's [`WaitPolicy`] says (see `wait_blocking`) and only
//! registers a wake-up once it is about to sleep, so a hand-over to a getter still awake costs
//! no system call.
//!
//! Deferred wakes: a connection that works through a batch of requests read at once (the
//! server's I/O task) may hold task wake-ups back until the batch is done ([`DeferWakes`]), as
//! NATS flushes its subscribers once a read: a publication fanned out to ten read-ahead
//! streams wakes each once with the batch's messages instead of once a message — fewer
//! wake-ups across threads, fuller writes. Threads (blocking getters) are never held back.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Waker;
use std::thread::Thread;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::engine::store::{Match, Pos, UowId};
use ferry_model::message::{CorrelId, Message};
use ferry_model::reason::Reason;

/// How the waiter wants to be woken.
#[derive(Debug)]
enum Wake {
    Thread(Thread),
    Task(Waker),
}

thread_local! {
    /// Task wake-ups held back on this thread while a [`DeferWakes`] lives (`None`: none).
    static DEFERRED: std::cell::RefCell<Option<Vec<Waker>>> = const { std::cell::RefCell::new(None) };
}

/// While it lives, task wake-ups that hand-overs on this thread make are held back; dropped
/// (also on an early return or a panic), it makes them. Nested guards defer to the outermost.
#[derive(Debug)]
pub struct DeferWakes {
    outermost: bool,
}

impl DeferWakes {
    /// Starts holding wake-ups back on this thread.
    pub fn start() -> DeferWakes {
        let outermost = DEFERRED.with(|d| {
            let mut d = d.borrow_mut();
            let starts = d.is_none();
            if starts {
                *d = Some(Vec::new());
            }
            starts
        });
        DeferWakes { outermost }
    }
}

impl Drop for DeferWakes {
    fn drop(&mut self) {
        if !self.outermost {
            return;
        }
        let held = DEFERRED.with(|d| d.borrow_mut().take()).unwrap_or_default();
        for w in held {
            w.wake();
        }
    }
}

/// Wakes `w` now, or once the thread's [`DeferWakes`] ends.
fn wake_task(w: Waker) {
    let w = DEFERRED.with(|d| match d.borrow_mut().as_mut() {
        Some(held) => {
            held.push(w);
            None
        }
        None => Some(w),
    });
    if let Some(w) = w {
        w.wake();
    }
}

impl Wake {
    fn wake(self) {
        match self {
            Wake::Thread(t) => t.unpark(),
            Wake::Task(w) => wake_task(w),
        }
    }
}

/// A message handed to a waiter.
#[derive(Debug)]
pub struct Delivery {
    /// The message (for a get inside a unit of work, a copy: the original stays in the store).
    pub msg: Message,
    /// The store slot, when the get is inside a unit of work (state `GotPending`).
    pub pending_pos: Option<Pos>,
    /// The sequence number the message had, so an undelivered hand-over can be put back in order.
    pub seq: u64,
    /// Clock deadline of the message (0 = never), needed to put it back.
    pub expires_at: u64,
    /// Messages handed over after this one to a batch waiter, in order (empty otherwise).
    pub more: Vec<Delivery>,
}

/// What a batch waiter may still take after its first message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// Messages in all, the first included.
    pub msgs: u32,
    /// Body bytes of the messages after the first.
    pub bytes: usize,
}

/// Outcome of a wait, as seen by the waiter.
#[derive(Debug)]
pub enum WaitOutcome {
    /// A message was handed over.
    Delivered(Delivery),
    /// Something changed: try the get again (browse waiters, truncation, etc.).
    Retry,
    /// The wait ended for a reason (get inhibited, queue deleted, stopping).
    Ended(Reason),
    /// The wait interval passed.
    TimedOut,
}

#[derive(Debug)]
enum CellState {
    Waiting(Option<Wake>),
    Delivered(Delivery),
    Retry,
    Ended(Reason),
    Cancelled,
    Finished,
}

/// One waiting get or browse.
#[derive(Debug)]
pub struct Waiter {
    /// What the getter wants.
    pub criteria: Match,
    /// The getter's unit of work, if the get is inside one.
    pub uow: Option<UowId>,
    /// Whether this is a browse (browses are woken to retry, never handed a message).
    pub browse: bool,
    /// Largest body the getter accepts without truncation (`None`: any), and whether it accepts
    /// truncation. A longer message is not handed over unless truncation is accepted: the getter
    /// is woken to retry and gets the proper "truncated" answer with the message left in place.
    pub max_len: Option<usize>,
    /// See `max_len`.
    pub accept_truncated: bool,
    /// Set once the cell has left `Waiting`, so a spinning waiter polls without the lock.
    settled: AtomicBool,
    /// A batch waiter's room (`None` for an ordinary waiter: one message).
    room: Option<Room>,
    /// Set while a batch waiter holds a delivery not yet taken and has room for more.
    more_open: AtomicBool,
    cell: Mutex<CellState>,
}

impl Waiter {
    /// A new waiter.
    pub fn new(
        criteria: Match,
        uow: Option<UowId>,
        browse: bool,
        max_len: Option<usize>,
        accept_truncated: bool,
    ) -> Arc<Self> {
        Arc::new(Waiter {
            criteria,
            uow,
            browse,
            max_len,
            accept_truncated,
            settled: AtomicBool::new(false),
            room: None,
            more_open: AtomicBool::new(false),
            cell: Mutex::new(CellState::Waiting(None)),
        })
    }

    /// A waiter for a read-ahead stream: a destructive get outside any unit of work that takes
    /// up to `room` messages handed over before its task collects them.
    pub fn new_batch(criteria: Match, room: Room) -> Arc<Self> {
        debug_assert!(room.msgs >= 1, "a batch holds at least its first message");
        Arc::new(Waiter {
            criteria,
            uow: None,
            browse: false,
            max_len: None,
            accept_truncated: false,
            settled: AtomicBool::new(false),
            room: Some(room),
            more_open: AtomicBool::new(false),
            cell: Mutex::new(CellState::Waiting(None)),
        })
    }

    /// Whether a batch waiter already served can take more (it stays listed meanwhile).
    pub fn takes_more(&self) -> bool {
        self.more_open.load(Ordering::Acquire)
    }

    /// Whether the waiter can still be handed a message (waiting, or a batch with room).
    pub fn is_live(&self) -> bool {
        self.is_waiting() || self.takes_more()
    }

    /// Whether this waiter can take `msg` by hand-over (else it is only woken to retry).
    pub fn accepts(&self, msg: &Message) -> bool {
        !self.browse
            && self
                .max_len
                .is_none_or(|max| msg.body.len() <= max || self.accept_truncated)
    }

    /// Whether the waiter is still waiting (not cancelled or served).
    pub fn is_waiting(&self) -> bool {
        !self.settled.load(Ordering::Acquire)
    }

    fn settle(&self, state: CellState) -> Result<(), CellState> {
        let wake = {
            let mut cell = self.cell.lock();
            match &mut *cell {
                CellState::Waiting(w) => {
                    let w = w.take();
                    *cell = state;
                    self.settled.store(true, Ordering::Release);
                    w
                }
                _ => return Err(state),
            }
        };
        if let Some(w) = wake {
            w.wake();
        }
        Ok(())
    }

    /// Hands a message over. Gives it back if the waiter is no longer waiting (or, for a batch
    /// waiter already served, has no room left).
    pub fn deliver(&self, d: Delivery) -> Result<(), Delivery> {
        debug_assert_eq!(
            d.pending_pos.is_some(),
            self.uow.is_some(),
            "a getter in a unit of work is handed a held slot, any other getter the message"
        );
        if let Some(room) = self.room {
            return self.deliver_batch(d, room);
        }
        self.settle(CellState::Delivered(d)).map_err(|s| match s {
            CellState::Delivered(d) => d,
            _ => unreachable!("settle returns the state it was given"),
        })
    }

    fn deliver_batch(&self, d: Delivery, room: Room) -> Result<(), Delivery> {
        let wake = {
            let mut cell = self.cell.lock();
            match &mut *cell {
                CellState::Waiting(w) => {
                    let w = w.take();
                    *cell = CellState::Delivered(d);
                    self.settled.store(true, Ordering::Release);
                    self.more_open.store(room.msgs > 1, Ordering::Release);
                    w
                }
                CellState::Delivered(first) if self.takes_more() => {
                    let bytes: usize = first.more.iter().map(|m| m.msg.body.len()).sum();
                    if bytes + d.msg.body.len() > room.bytes {
                        self.more_open.store(false, Ordering::Release);
                        return Err(d);
                    }
                    first.more.push(d);
                    if first.more.len() + 1 >= room.msgs as usize {
                        self.more_open.store(false, Ordering::Release);
                    }
                    None
                }
                _ => return Err(d),
            }
        };
        if let Some(w) = wake {
            w.wake();
        }
        Ok(())
    }

    /// Wakes the waiter to try again. Returns false if it was no longer waiting.
    pub fn retry(&self) -> bool {
        self.settle(CellState::Retry).is_ok()
    }

    /// Ends the wait with a reason. Returns false if it was no longer waiting.
    pub fn end(&self, reason: Reason) -> bool {
        self.settle(CellState::Ended(reason)).is_ok()
    }

    /// Takes the outcome if the waiter has been settled; otherwise registers `wake` (when given)
    /// and returns `None`.
    fn poll_outcome(&self, wake: Option<Wake>) -> Option<WaitOutcome> {
        let mut cell = self.cell.lock();
        match &mut *cell {
            CellState::Waiting(w) => {
                if wake.is_some() {
                    *w = wake;
                }
                None
            }
            _ => {
                self.more_open.store(false, Ordering::Release);
                let state = std::mem::replace(&mut *cell, CellState::Finished);
                Some(match state {
                    CellState::Delivered(d) => WaitOutcome::Delivered(d),
                    CellState::Retry => WaitOutcome::Retry,
                    CellState::Ended(r) => WaitOutcome::Ended(r),
                    CellState::Cancelled | CellState::Finished | CellState::Waiting(_) => {
                        WaitOutcome::TimedOut
                    }
                })
            }
        }
    }

    /// Gives up waiting. If a delivery raced in first, it is returned.
    pub fn cancel(&self) -> WaitOutcome {
        let mut cell = self.cell.lock();
        match &*cell {
            CellState::Waiting(_) => {
                *cell = CellState::Cancelled;
                self.settled.store(true, Ordering::Release);
                WaitOutcome::TimedOut
            }
            _ => {
                drop(cell);
                self.poll_outcome(None).unwrap_or(WaitOutcome::TimedOut)
            }
        }
    }

    /// Blocks the calling thread until settled or `deadline` passes. Spins and yields briefly
    /// first, as `policy` says: a getter that is about to be served costs the putter no unpark
    /// system call.
    pub fn wait_blocking(&self, deadline: Option<Instant>, policy: WaitPolicy) -> WaitOutcome {
        for i in 0..policy.spins.saturating_add(policy.yields) {
            if !self.is_waiting() {
                break;
            }
            if i < policy.spins {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        loop {
            if let Some(out) = self.poll_outcome(Some(Wake::Thread(std::thread::current()))) {
                return out;
            }
            match deadline {
                None => std::thread::park(),
                Some(d) => {
                    let now = ferry_model::clock::monotonic_now();
                    if now >= d {
                        return self.cancel();
                    }
                    std::thread::park_timeout(d - now);
                }
            }
        }
    }

    /// Polls from an async task: the outcome if settled, else registers the task's waker.
    pub fn poll_task(&self, waker: &Waker) -> Option<WaitOutcome> {
        self.poll_outcome(Some(Wake::Task(waker.clone())))
    }
}

/// How a thread that waits for a message (an embedded getter; MQGET with MQGMO_WAIT in the
/// queue manager's process) waits before it sleeps: `spins` turns of a busy loop, then
/// `yields` offers of its processor to other threads, looking each time whether a putter has
/// served it; then it parks until unparked. Waiting awake costs CPU but spares the putter a
/// wake-up system call (and the getter the scheduler's latency) when the message comes soon.
/// Set per queue manager (`[qmgr] wait_spins`, `wait_yields`); docs/perf.md ("The spin and
/// park policy") has the measurements behind the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitPolicy {
    /// Turns of the busy loop.
    pub spins: u32,
    /// Yields after the busy loop.
    pub yields: u32,
}

impl WaitPolicy {
    /// The defaults, measured on a 2-vCPU machine (docs/perf.md): no busy loop (a spinning
    /// getter held the processor the thread that would serve it needed: embedded
    /// request/reply at 16 requesters 270,000 round trips/s with 50 turns, 330,000 without),
    /// then 150 yields.
    pub const DEFAULT: WaitPolicy = WaitPolicy {
        spins: 0,
        yields: 150,
    };
}

impl Default for WaitPolicy {
    fn default() -> Self {
        WaitPolicy::DEFAULT
    }
}

/// The waiters on one queue.
#[derive(Debug, Default)]
pub struct Waiters {
    generic: VecDeque<Arc<Waiter>>,
    by_correl: HashMap<CorrelId, VecDeque<Arc<Waiter>>, BuildHasherDefault<ferry_model::IdHasher>>,
    /// Waiters matching on msg id (alone or with a correl id of none): rare, scanned.
    other_specific: Vec<Arc<Waiter>>,
    browsers: Vec<Arc<Waiter>>,
}

impl Waiters {
    /// Adds a waiter.
    pub fn add(&mut self, w: Arc<Waiter>) {
        if w.browse {
            self.browsers.push(w);
        } else if let Some(c) = w.criteria.correl_id.filter(|c| !c.is_none()) {
            self.by_correl.entry(c).or_default().push_back(w);
        } else if w.criteria.is_any() {
            self.generic.push_back(w);
        } else {
            self.other_specific.push(w);
        }
    }

    /// Whether anyone might be waiting (cheap check on the put path).
    pub fn is_empty(&self) -> bool {
        self.generic.is_empty()
            && self.by_correl.is_empty()
            && self.other_specific.is_empty()
            && self.browsers.is_empty()
    }

    /// Wakes every browse waiter to retry (a message became available).
    pub fn wake_browsers(&mut self) {
        for b in self.browsers.drain(..) {
            b.retry();
        }
    }

    /// The waiter that should receive `msg`, removed from the lists: specific waiters first, then
    /// the longest-waiting generic one. Stale (cancelled) entries met on the way are dropped.
    pub fn take_for(&mut self, msg: &Message) -> Option<Arc<Waiter>> {
        let correl = msg.descriptor.correl_id;
        if !correl.is_none() {
            if let Some(list) = self.by_correl.get_mut(&correl) {
                let found = take_first(list, msg);
                if list.is_empty() {
                    self.by_correl.remove(&correl);
                }
                if found.is_some() {
                    return found;
                }
            }
        }
        if !self.other_specific.is_empty() {
            self.other_specific.retain(|w| w.is_live());
            if let Some(i) = self
                .other_specific
                .iter()
                .position(|w| w.criteria.matches(msg))
            {
                return Some(self.other_specific.remove(i));
            }
        }
        take_first(&mut self.generic, msg)
    }

    /// Ends every wait with `reason` (get inhibited, queue deleted, queue manager stopping).
    pub fn end_all(&mut self, reason: Reason) {
        for w in self.drain_all() {
            w.end(reason);
        }
    }

    /// Wakes every waiter to retry (e.g. after an attribute change).
    pub fn retry_all(&mut self) {
        for w in self.drain_all() {
            w.retry();
        }
    }

    fn drain_all(&mut self) -> Vec<Arc<Waiter>> {
        let mut all: Vec<Arc<Waiter>> = self.generic.drain(..).collect();
        for (_, l) in self.by_correl.drain() {
            all.extend(l);
        }
        all.append(&mut self.other_specific);
        all.append(&mut self.browsers);
        all
    }

    /// Drops cancelled entries (called now and then so timed-out waiters do not pile up).
    pub fn prune(&mut self) {
        self.generic.retain(|w| w.is_live());
        self.by_correl.retain(|_, l| {
            l.retain(|w| w.is_live());
            !l.is_empty()
        });
        self.other_specific.retain(|w| w.is_live());
        self.browsers.retain(|w| w.is_waiting());
    }

    /// How many entries are listed (including stale ones not yet pruned).
    pub fn len(&self) -> usize {
        self.generic.len()
            + self.by_correl.values().map(VecDeque::len).sum::<usize>()
            + self.other_specific.len()
            + self.browsers.len()
    }
}

/// Removes and returns the first still-waiting entry of `list` whose criteria match `msg`,
/// dropping stale entries it passes at the front.
fn take_first(list: &mut VecDeque<Arc<Waiter>>, msg: &Message) -> Option<Arc<Waiter>> {
    while matches!(list.front(), Some(w) if !w.is_live()) {
        list.pop_front();
    }
    let i = list
        .iter()
        .position(|w| w.is_live() && w.criteria.matches(msg))?;
    list.remove(i)
}

/// How long to wait: `None` for no wait, `Some(None)` for unlimited.
pub type WaitFor = Option<Option<Duration>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    struct Count(AtomicUsize);

    impl std::task::Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn waiting_task() -> (Arc<Waiter>, Arc<Count>) {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let w = Waiter::new(Match::ANY, None, false, None, false);
        assert!(w.poll_task(&Waker::from(count.clone())).is_none());
        (w, count)
    }

    #[test]
    fn deferred_task_wakes_are_made_when_the_outermost_guard_ends() {
        let (a, count) = waiting_task();
        let (b, _) = waiting_task();
        {
            let _outer = DeferWakes::start();
            {
                let _inner = DeferWakes::start();
                assert!(a.retry(), "settled");
            }
            assert_eq!(
                count.0.load(Ordering::SeqCst),
                0,
                "held past the inner guard"
            );
            assert!(b.retry());
        }
        assert_eq!(
            count.0.load(Ordering::SeqCst),
            1,
            "made when the outer one ends"
        );
        // Without a guard a wake is made at once.
        let (c, count) = waiting_task();
        assert!(c.retry());
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_guard_ended_by_a_panic_still_makes_its_wakes() {
        let (a, count) = waiting_task();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _g = DeferWakes::start();
            assert!(a.retry());
            panic!("a request failed hard");
        }));
        assert!(r.is_err());
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
    }
}
