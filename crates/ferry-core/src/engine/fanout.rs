//! One publication's persistent copies to several queues, logged as one record.
//!
//! A persistent publication to N durable subscriptions writes its body to the log once: one
//! PUBLISH record names every copy (queue, sequence number, msg id, correl id, subscription user
//! data) and holds the message once (docs/log.md). The invariant that makes a checkpoint exact —
//! a queue's PUT records are appended under that queue's lock, so its mark and its state agree
//! (see `queue.rs`) — holds for such a record by taking the lock of every queue it names, in one
//! global order (the queues' addresses), appending, placing each copy, and releasing them all.
//!
//! Only copies in a unit of work go this way (pending until the commit, so no hand-over to a
//! waiting getter happens under the locks); a copy the batch cannot take as it is — a second
//! copy to the same queue, a queue that does not log the message, a full memory budget — comes
//! back to be put alone.
//!
//! Lock order: queue locks in ascending address, then the log's. Nothing else holds two queue
//! locks at once, so no cycle can form.

use std::sync::Arc;

use ferry_model::message::Message;
use ferry_model::reason::{MqError, MqResult};

use crate::engine::inbox::QueueGuard;
use crate::engine::journal::{Append, CopyTarget, Journal, Logged};
use crate::engine::queue::{Placed, Queue};
use crate::engine::store::UowId;

/// Most copies one PUBLISH record names (a publication to more is logged in several).
pub const MAX_COPIES_PER_RECORD: usize = 1024;

/// One copy offered to [`put_copies`].
#[derive(Debug)]
pub struct Copy {
    /// Its queue.
    pub queue: Arc<Queue>,
    /// The copy as its subscriber will get it (made by [`crate::engine::journal::copy_of`] from the common message).
    pub msg: Message,
    /// The subscription's user data, as the record names it.
    pub user_data: Option<String>,
}

/// What became of one copy.
#[derive(Debug)]
pub enum CopyPut {
    /// Logged in the shared record and stored, pending in the unit of work.
    Placed(Placed),
    /// Its queue refused it (full, inhibited, too long, deleted); nothing was stored there.
    Refused(MqError),
    /// Not taken by the batch: put it alone.
    Alone(Message),
    /// Not put: a copy marked required was refused, so none was logged or stored.
    Skipped,
}

/// Puts `copies` of the persistent publication `common` (its descriptor resolved), all
/// inside unit of work `uow`, logging the ones their queues take as one PUBLISH record
/// through `journal`. Returns each copy's fate, in order: when a copy `required` marks is
/// refused, nothing is logged or stored (that copy `Refused`, the others `Skipped`). Fails
/// only when the log does.
pub fn put_copies(
    journal: &Arc<dyn Journal>,
    common: &Message,
    mut copies: Vec<Copy>,
    required: &[bool],
    expires_at: u64,
    uow: UowId,
    now: u64,
) -> MqResult<Vec<(Arc<Queue>, CopyPut)>> {
    debug_assert!(copies.len() <= MAX_COPIES_PER_RECORD);
    debug_assert_eq!(copies.len(), required.len());
    loop {
        match try_batch(journal, common, &mut copies, required, expires_at, uow, now)? {
            Batch::Done(fates) => return Ok(fates),
            // Nothing was stored and no lock is held: wait for room and start again.
            Batch::NoRoom(n) => journal.wait_room(n)?,
        }
    }
}

enum Batch {
    Done(Vec<(Arc<Queue>, CopyPut)>),
    NoRoom(usize),
}

/// A copy's standing once its queue has looked at it, before anything is stored.
enum Standing {
    /// In the record, with what its queue resolved (persistence, priority).
    Member(ferry_model::message::Persistence, u8),
    Refused(MqError),
    Alone,
}

/// One attempt with every queue locked: checks, one append, the copies placed. On
/// [`Batch::NoRoom`] nothing changed and `copies` is as it was.
fn try_batch(
    journal: &Arc<dyn Journal>,
    common: &Message,
    copies: &mut Vec<Copy>,
    required: &[bool],
    expires_at: u64,
    uow: UowId,
    now: u64,
) -> MqResult<Batch> {
    let queues: Vec<Arc<Queue>> = copies.iter().map(|c| c.queue.clone()).collect();
    let mut guards = lock_all(&queues);
    let mut standing = Vec::with_capacity(copies.len());
    let mut targets = Vec::new();
    for (i, c) in copies.iter_mut().enumerate() {
        let Some(st) = guards[i].as_mut() else {
            standing.push(Standing::Alone); // a second copy to the same queue
            continue;
        };
        standing.push(match st.check_put_pub(&c.queue.name, &mut c.msg, now) {
            Err(e) => Standing::Refused(e),
            Ok(None) => Standing::Alone,
            Ok(Some((persistence, priority))) => {
                targets.push(CopyTarget {
                    queue: c.queue.name,
                    seq: st.store.peek_seq(),
                    msg_id: c.msg.descriptor.msg_id,
                    correl_id: c.msg.descriptor.correl_id,
                    user_data: c.user_data.clone(),
                });
                Standing::Member(persistence, priority)
            }
        });
    }
    if standing
        .iter()
        .zip(required)
        .any(|(s, r)| *r && matches!(s, Standing::Refused(_)))
    {
        return Ok(Batch::Done(none_put(std::mem::take(copies), standing)));
    }
    let logged: Option<Logged> = match targets.is_empty() {
        true => None,
        false => match journal.publish(uow, common, &targets)? {
            Append::Done(l) => Some(l),
            Append::NoRoom(n) => return Ok(Batch::NoRoom(n)),
        },
    };
    let mut fates = Vec::with_capacity(copies.len());
    for ((c, s), guard) in std::mem::take(copies)
        .into_iter()
        .zip(standing)
        .zip(&mut guards)
    {
        let fate = match (s, logged, guard.as_mut()) {
            (Standing::Member(persistence, priority), Some(l), Some(st)) => {
                let pos = st.store_copy(c.msg, l.pos, expires_at, uow);
                CopyPut::Placed(Placed::copy(pos, (persistence, priority), l.lsn, st))
            }
            (Standing::Refused(e), _, _) => CopyPut::Refused(e),
            _ => CopyPut::Alone(c.msg),
        };
        fates.push((c.queue, fate));
    }
    Ok(Batch::Done(fates))
}

/// The fates when a required copy was refused: it and the other refused ones `Refused`, the
/// rest `Skipped` (nothing was logged or stored).
fn none_put(copies: Vec<Copy>, standing: Vec<Standing>) -> Vec<(Arc<Queue>, CopyPut)> {
    copies
        .into_iter()
        .zip(standing)
        .map(|(c, s)| match s {
            Standing::Refused(e) => (c.queue, CopyPut::Refused(e)),
            _ => (c.queue, CopyPut::Skipped),
        })
        .collect()
}

/// Locks each distinct queue once, in ascending address; a copy whose queue an earlier copy
/// already locked gets `None`.
fn lock_all(queues: &[Arc<Queue>]) -> Vec<Option<QueueGuard<'_>>> {
    let mut order: Vec<usize> = (0..queues.len()).collect();
    order.sort_by_key(|&i| Arc::as_ptr(&queues[i]) as usize);
    let mut guards: Vec<Option<QueueGuard<'_>>> = (0..queues.len()).map(|_| None).collect();
    let mut last: Option<usize> = None;
    for i in order {
        if last.is_some_and(|j| Arc::ptr_eq(&queues[j], &queues[i])) {
            continue;
        }
        guards[i] = Some(queues[i].lock());
        last = Some(i);
    }
    guards
}
