//! A queue's inbox: non-persistent puts made without the queue's lock.
//!
//! A putter and a getter on two processors used to take the queue's lock once a message each,
//! and each took it from the other's cache: most of a put's time went in waiting for the lock
//! and in moving its lines across. Now a plain put (outside a unit of work, non-persistent, to
//! a queue with nobody waiting on it) only appends to the inbox under the inbox's own short
//! lock; whoever next locks the queue (a getter, usually, finding the messages at once) moves
//! what the inbox holds into the store, in order, as the puts would have placed them.
//!
//! Invariants:
//! - Every holder of the queue's lock sees the inbox already moved: [`super::Queue::lock`]
//!   moves it when it locks, so a get, a browse, CURDEPTH and a put under the lock see every
//!   message put before them, and messages keep the order they were put in.
//! - The inbox is used only while it is *open*, and its state is published each time the
//!   queue's lock is released ([`QueueGuard`]'s drop): open only while no getter waits and
//!   messages wait in the store (the getters are behind: a queue that is usually empty, whose
//!   getters are served by hand-over, keeps the put path it had), puts
//!   are allowed, no trigger or depth or service-interval event watches the queue, and the store
//!   is far enough below MAXDEPTH ([`DEPTH_MARGIN`]) — so a put through the inbox can never take
//!   the queue past MAXDEPTH, wake nobody who should have been woken, or miss an event.
//! - Whoever closes the inbox (a getter that starts waiting, say) then looks in it under the
//!   inbox's lock and moves what it finds (to the waiter); a putter reads whether it is still
//!   open under that lock before it appends, and otherwise puts under the queue's lock. So a
//!   put is either found by the closer or made the ordinary way.
//! - At most [`MAX_MESSAGES`] messages and [`MAX_BYTES`] bytes wait in an inbox, each body at
//!   most [`MAX_BODY`]; the inbox opens only while the memory budget has room for two full
//!   inboxes more, so the budget is passed by at most one inbox a queue being put to. An
//!   emptied list is kept (in the queue's state) for the inbox to fill again only while its
//!   room is at most [`SPARE_KEEP`] entries.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

use parking_lot::{Mutex, MutexGuard};

use ferry_model::message::{Message, Persistence, Priority};
use ferry_model::objects::ServiceIntervalEvent;

use super::queue::{Placed, QueueState};

/// Most messages an inbox holds.
pub const MAX_MESSAGES: usize = 256;
/// How far below MAXDEPTH a queue's depth must be for its inbox to open. Between two
/// releases of the queue's lock its store grows by at most an inbox moved in when the lock
/// was taken, one put under the lock and an inbox filled meanwhile (moved in as the lock is
/// released, or at the next lock): so while the inbox is open the queue cannot reach MAXDEPTH
/// through it, and once it is closed every put is checked exactly.
const DEPTH_MARGIN: usize = 2 * MAX_MESSAGES + 2;
/// Most body bytes an inbox holds.
pub const MAX_BYTES: usize = 512 * 1024;
/// The longest body that goes through an inbox (a longer one takes the lock).
pub const MAX_BODY: usize = 64 * 1024;
/// The most room an emptied list keeps for the inbox to fill again (a list grown past it by a
/// burst is given back): at most this many entries' room a queue besides the inbox itself.
const SPARE_KEEP: usize = 32;

/// A put waiting in the inbox.
#[derive(Debug)]
pub(crate) struct Entry {
    msg: Message,
    expires_at: u64,
}

/// A value on cache lines of its own (two, as the processor fetches lines in pairs), so that
/// what one thread writes does not take another's unrelated data from its cache.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct Padded<T>(pub T);

impl<T> Deref for Padded<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What a put through the inbox needs of the queue, published at each unlock.
#[derive(Debug, Default)]
pub(crate) struct Inbox {
    /// Written by putters at each put, and by whoever moves the inbox.
    hot: Padded<Hot>,
    /// Read by putters at each put; written when the queue's state changes.
    open: AtomicBool,
    max_msg_length: AtomicUsize,
    def_priority: AtomicU8,
    /// The queue's default persistence is not persistent.
    def_not_persistent: AtomicBool,
}

#[derive(Debug, Default)]
struct Hot {
    items: Mutex<Items>,
    /// Messages in `items` (read without its lock).
    len: AtomicUsize,
}

#[derive(Debug, Default)]
struct Items {
    list: Vec<Entry>,
    bytes: usize,
}

impl Inbox {
    /// Puts `msg` through the inbox if it may go that way; otherwise gives it back.
    pub(crate) fn put(&self, mut msg: Message, expires_at: u64) -> Result<Placed, Message> {
        if !self.open.load(Ordering::Acquire) {
            return Err(msg);
        }
        let d = &msg.descriptor;
        let not_persistent = match d.persistence {
            Persistence::NotPersistent => true,
            Persistence::AsQueueDef => self.def_not_persistent.load(Ordering::Relaxed),
            Persistence::Persistent => false,
        };
        let len = msg.body.len();
        if !not_persistent
            || len > MAX_BODY
            || msg.counted_len() > self.max_msg_length.load(Ordering::Relaxed)
        {
            return Err(msg);
        }
        let priority = match d.priority {
            Priority::Value(p) => p.min(9),
            Priority::AsQueueDef => self.def_priority.load(Ordering::Relaxed),
        };
        msg.descriptor.persistence = Persistence::NotPersistent;
        msg.descriptor.priority = Priority::Value(priority);
        let mut items = self.hot.items.lock();
        // Read under the inbox's lock: whoever closes the inbox then looks in it under this
        // lock, so either this put is found there or it finds the inbox closed and takes the
        // queue's lock instead (exact checks, a waiter served).
        if !self.open.load(Ordering::Relaxed)
            || items.list.len() >= MAX_MESSAGES
            || items.bytes + len > MAX_BYTES
        {
            return Err(msg);
        }
        items.bytes += len;
        items.list.push(Entry { msg, expires_at });
        let depth = items.list.len();
        self.hot.len.store(depth, Ordering::Relaxed);
        drop(items);
        Ok(Placed {
            pos: None,
            persistence: Persistence::NotPersistent,
            priority,
            lsn: None,
            depth,
            trigger: false,
        })
    }

    /// Moves every waiting put into `st`, in order.
    pub(crate) fn drain(&self, st: &mut QueueState) {
        // The last list emptied goes back in its place, with its room: putters fill it
        // without growing it.
        let mut list = std::mem::take(&mut st.inbox_spare);
        debug_assert!(list.is_empty());
        {
            let mut items = self.hot.items.lock();
            self.hot.len.store(0, Ordering::Relaxed);
            items.bytes = 0;
            std::mem::swap(&mut items.list, &mut list);
        }
        for e in list.drain(..) {
            st.place_fast(e.msg, e.expires_at);
        }
        if list.capacity() <= SPARE_KEEP {
            st.inbox_spare = list;
        }
    }

    /// Whether there are puts to move (a hint: exact only under the inbox's lock).
    #[inline]
    pub(crate) fn waiting(&self) -> bool {
        self.hot.len.load(Ordering::Relaxed) > 0
    }

    /// Publishes what a put through the inbox needs of `st` as the lock is released, and moves
    /// the inbox again if it closed with puts in it (a getter waits for them).
    fn publish(&self, st: &mut QueueState) {
        loop {
            // Written only under the queue's lock, which is held: exact.
            let was = self.open.load(Ordering::Relaxed);
            if may_open(st) {
                self.publish_attrs(st);
                if !was {
                    self.open.store(true, Ordering::Release);
                }
                return;
            }
            if !was {
                // Closed before: a put since then sees it closed under the inbox's lock.
                return;
            }
            self.open.store(false, Ordering::Release);
            // A put that found it open may be in the inbox (see `put`).
            if self.hot.items.lock().list.is_empty() {
                return;
            }
            self.drain(st);
        }
    }

    fn publish_attrs(&self, st: &QueueState) {
        let a = &st.attrs;
        if self.max_msg_length.load(Ordering::Relaxed) != a.max_msg_length {
            self.max_msg_length
                .store(a.max_msg_length, Ordering::Relaxed);
        }
        if self.def_priority.load(Ordering::Relaxed) != a.def_priority {
            self.def_priority.store(a.def_priority, Ordering::Relaxed);
        }
        let np = a.def_persistence == Persistence::NotPersistent;
        if self.def_not_persistent.load(Ordering::Relaxed) != np {
            self.def_not_persistent.store(np, Ordering::Relaxed);
        }
    }
}

/// Whether puts may go through the inbox of a queue in state `st` (see the module's
/// invariants). Queue Full events need no closing: a put through the inbox never finds the
/// queue full.
fn may_open(st: &QueueState) -> bool {
    let a = &st.attrs;
    !st.deleted
        && !a.put_inhibited
        && st.waiters.is_empty()
        && st.store.depth() > 0
        && !a.triggering.control
        && !a.depth_high_event
        && a.service_interval_event == ServiceIntervalEvent::None
        && st.store.depth() + DEPTH_MARGIN < a.max_depth
        && st.store.has_room(2 * MAX_BYTES)
}

/// The queue's lock, held: releasing it publishes the inbox's state.
pub struct QueueGuard<'a> {
    /// Always `Some` until dropped or released by [`QueueGuard::unlock_fair`].
    st: Option<MutexGuard<'a, QueueState>>,
    inbox: &'a Inbox,
}

impl<'a> QueueGuard<'a> {
    pub(crate) fn new(st: MutexGuard<'a, QueueState>, inbox: &'a Inbox) -> QueueGuard<'a> {
        QueueGuard {
            st: Some(st),
            inbox,
        }
    }

    /// Releases the lock fairly (a waiting thread gets it next), as a long job between batches
    /// does.
    pub fn unlock_fair(mut g: QueueGuard<'_>) {
        if let Some(mut st) = g.st.take() {
            g.inbox.publish(&mut st);
            MutexGuard::unlock_fair(st);
        }
    }
}

impl std::fmt::Debug for QueueGuard<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueueGuard").finish_non_exhaustive()
    }
}

impl Deref for QueueGuard<'_> {
    type Target = QueueState;
    #[inline]
    fn deref(&self) -> &QueueState {
        self.st
            .as_ref()
            .expect("a queue guard holds its lock until dropped")
    }
}

impl DerefMut for QueueGuard<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut QueueState {
        self.st
            .as_mut()
            .expect("a queue guard holds its lock until dropped")
    }
}

impl Drop for QueueGuard<'_> {
    fn drop(&mut self) {
        if let Some(st) = self.st.as_mut() {
            self.inbox.publish(st);
        }
    }
}
