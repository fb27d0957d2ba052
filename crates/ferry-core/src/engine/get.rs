//! Getting and browsing on one queue: find a message under the queue's lock, and — when its
//! content is only in the recovery log or the spill area — read it with no lock held.
//!
//! A destructive get of a message only in the log marks its slot [`READING`] (invisible to
//! other getters, still available as far as the log and a checkpoint know), releases the lock,
//! reads the PUT record, then takes the lock again to check the length against the buffer, log
//! the GET and remove the message (or hold it for the unit of work). If the read fails, the
//! message is too long for the buffer, or the log's buffer is full, the slot is made available
//! again before anything else sees it. A browse reads the same way without marking the slot: a
//! message got meanwhile is simply looked for again. A spilled message is read from the spill
//! area the same way; its get is not logged (it is not persistent).
//!
//! Invariant: no queue lock is held across a read of the log or a wait for room in its buffer.

use std::sync::Arc;
use std::time::SystemTime;

use ferry_model::message::{Message, Persistence};
use ferry_model::name::ObjectName;
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::engine::journal::Journal;
use crate::engine::queue::{wait_room, Queue, QueueState, Stop};
use crate::engine::spill::Spill;
use crate::engine::store::{Entry, Held, Match, OnDisk, Pos, SlotState, UowId, READING};
use crate::engine::waiter::{Room, Waiter};

/// What a get step found.
#[derive(Debug)]
pub enum GetStep {
    /// A message.
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
    /// A read-ahead stream's wait: room for a batch of hand-overs (see `waiter.rs`).
    pub batch: Option<Room>,
}

/// A message whose content must be read from the log (or the spill area) before the get can
/// finish.
struct ReadJob {
    pos: Pos,
    disk: OnDisk,
    expires_at: u64,
    source: Source,
}

/// Where a message's content is read back from.
#[derive(Clone)]
enum Source {
    Log(Arc<dyn Journal>),
    Spill(Arc<dyn Spill>),
}

impl Source {
    fn read(&self, queue: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Message> {
        match self {
            Source::Log(j) => j.read(queue, seq, d),
            Source::Spill(s) => s.read(d),
        }
    }
}

impl QueueState {
    /// Where the content of the message `d` (at `seq`) is read from.
    fn source(&self, name: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Source> {
        if d.spilled {
            self.spill()
                .map(Source::Spill)
                .ok_or_else(|| no_journal(name, seq))
        } else {
            self.journal()
                .map(Source::Log)
                .ok_or_else(|| no_journal(name, seq))
        }
    }
}

/// What a step under the lock found.
enum Found {
    /// Finished.
    Step(GetStep),
    /// Read this outside the lock, then finish.
    Read(ReadJob),
}

fn inhibited(name: &ObjectName) -> MqError {
    MqError::new(
        Reason::GetInhibited,
        format!("gets are inhibited on queue {name}"),
    )
}

fn no_msg_under_cursor(name: &ObjectName) -> MqError {
    MqError::new(
        Reason::NoMsgUnderCursor,
        format!("the message under the browse cursor on {name} is no longer available"),
    )
}

impl Queue {
    /// One get (or browse) step. See [`GetStep`].
    pub fn get(&self, spec: &GetSpec, now: u64) -> MqResult<GetStep> {
        self.get_loop(None, spec, now)
    }

    /// Takes up to `room` messages for a read-ahead stream under one lock (`spec`: no unit of
    /// work, no browse, no wait), appending them to `out` with their expiry deadlines. Stops
    /// early at one whose content must be read back from disk (an ordinary get takes that) or
    /// at any failure (reported when nothing was taken).
    pub fn take_batch(
        &self,
        spec: &GetSpec,
        now: u64,
        room: Room,
        out: &mut Vec<(Message, u64)>,
    ) -> MqResult<()> {
        debug_assert!(spec.uow.is_none() && spec.browse.is_none() && !spec.wait);
        let start = out.len();
        let mut bytes = 0;
        let mut st = self.lock();
        st.batch_wall = Some(st.clock().wall());
        let mut failed = None;
        while out.len() - start < room.msgs as usize && (out.len() == start || bytes < room.bytes) {
            match st.get_step(&self.name, None, spec, now) {
                Ok(Found::Step(GetStep::Got {
                    msg, expires_at, ..
                })) => {
                    bytes += msg.body.len();
                    out.push((msg, expires_at));
                }
                Ok(Found::Step(_)) | Err(Stop::NoRoom(_)) => break,
                Ok(Found::Read(job)) => {
                    st.make_available(job.pos);
                    break;
                }
                Err(Stop::Failed(e)) if out.len() == start => {
                    failed = Some(e);
                    break;
                }
                Err(Stop::Failed(_)) => break,
            }
        }
        st.batch_wall = None;
        failed.map_or(Ok(()), Err)
    }

    /// Destructively gets the message at `pos` (the browse cursor's message), if still
    /// available.
    pub fn get_at(&self, pos: Pos, spec: &GetSpec, now: u64) -> MqResult<GetStep> {
        self.get_loop(Some(pos), spec, now)
    }

    #[inline]
    fn get_loop(&self, at: Option<Pos>, spec: &GetSpec, now: u64) -> MqResult<GetStep> {
        loop {
            let job = {
                let mut st = self.lock();
                match st.get_step(&self.name, at, spec, now) {
                    Ok(Found::Step(step)) => return Ok(step),
                    Ok(Found::Read(job)) => job,
                    Err(Stop::Failed(e)) => return Err(e),
                    Err(Stop::NoRoom(n)) => {
                        let journal = st.journal();
                        drop(st);
                        wait_room(journal, n)?;
                        continue;
                    }
                }
            };
            if let Some(step) = self.finish_read(job, spec)? {
                return Ok(step);
            }
        }
    }

    /// Reads a message's content with no lock held, then finishes its get or browse. `None`:
    /// start the get again (the message went meanwhile, or the log had no room).
    fn finish_read(&self, job: ReadJob, spec: &GetSpec) -> MqResult<Option<GetStep>> {
        let read = job.source.read(&self.name, job.pos.seq, &job.disk);
        let mut st = self.lock();
        if spec.browse.is_some() {
            return match read {
                Ok(msg) => Ok(Some(GetStep::Got {
                    msg,
                    pos: job.pos,
                    expires_at: job.expires_at,
                    lsn: None,
                })),
                Err(_) if st.store.entry(job.pos).is_none() => Ok(None),
                Err(e) => Err(e),
            };
        }
        debug_assert_eq!(st.store.state(job.pos), SlotState::GotPending(READING));
        let read = match read {
            Err(e) if e.reason == Reason::QMgrDataError => {
                st.set_aside(&self.name, &job, &e);
                return Ok(None);
            }
            r => r,
        };
        let msg = match read.and_then(|m| st.check_len(m, spec, &self.name)) {
            Ok(m) => m,
            Err(e) => {
                st.make_available(job.pos);
                return Err(e);
            }
        };
        let logged = match job.disk.spilled {
            true => Ok(None),
            false => st.log_get(job.pos.seq, spec.uow),
        };
        let lsn = match logged {
            Ok(lsn) => lsn,
            Err(stop) => {
                st.make_available(job.pos);
                return match stop {
                    Stop::Failed(e) => Err(e),
                    Stop::NoRoom(n) => {
                        let journal = st.journal();
                        drop(st);
                        wait_room(journal, n)?;
                        Ok(None)
                    }
                };
            }
        };
        Ok(Some(st.complete(
            job.pos,
            spec,
            job.expires_at,
            lsn,
            Some(msg),
        )))
    }

    /// Browses the message at `pos` (under a browse cursor), if still available.
    pub fn browse_at(&self, pos: Pos, now: u64) -> MqResult<GetStep> {
        let (disk, journal, expires_at) = {
            let st = self.lock();
            if st.attrs.get_inhibited {
                return Err(MqError::new(
                    Reason::GetInhibited,
                    format!("gets (and browses) are inhibited on queue {}", self.name),
                ));
            }
            if st.store.state(pos) != SlotState::Available || st.store.is_expired(pos, now) {
                return Err(no_msg_under_cursor(&self.name));
            }
            let expires_at = st.store.expires_at(pos);
            match st.store.entry(pos) {
                None => return Err(no_msg_under_cursor(&self.name)),
                Some(Entry::Mem(m)) => {
                    return Ok(GetStep::Got {
                        msg: m.clone(),
                        pos,
                        expires_at,
                        lsn: None,
                    })
                }
                Some(Entry::Disk(d)) => (d, st.source(&self.name, pos.seq, &d), expires_at),
            }
        };
        let msg = journal?.read(&self.name, pos.seq, &disk)?;
        Ok(GetStep::Got {
            msg,
            pos,
            expires_at,
            lsn: None,
        })
    }

    /// Backs out a get: the message returns to its original position with its backout count
    /// raised, unless it expired meanwhile (discarded) or reached BOTHRESH, in which case it is
    /// removed and returned so the caller can move it to the backout queue. A poison message
    /// whose content is only in the log is read back with no lock held (its slot stays held by
    /// the unit of work being backed out meanwhile, so nothing else sees it).
    pub fn backout_get(&self, pos: Pos, now: u64) -> Option<(Message, u64)> {
        loop {
            let mut st = self.lock();
            if st.store.is_expired(pos, now) {
                st.store.remove(pos);
                st.store.expired_total += 1;
                return None;
            }
            let threshold = st.attrs.backout_threshold;
            let count = st.store.backout_count(pos)?.saturating_add(1);
            if threshold == 0 || count < threshold {
                st.store.bump_backout(pos);
                st.make_available(pos);
                return None;
            }
            let on_disk = match st.store.entry(pos) {
                None => return None,
                Some(Entry::Mem(_)) => None,
                Some(Entry::Disk(d)) => Some((d, st.source(&self.name, pos.seq, &d))),
            };
            let content = match on_disk {
                None => None,
                Some((disk, source)) => {
                    drop(st);
                    let read = source.and_then(|s| s.read(&self.name, pos.seq, &disk));
                    st = self.lock();
                    match read {
                        Ok(m) => Some(m),
                        Err(e) => {
                            // Unreadable: it stays where it is rather than be lost.
                            tracing::warn!(queue = %self.name, error = %e, "a poison message could not be read back to move it");
                            st.store.bump_backout(pos);
                            st.make_available(pos);
                            return None;
                        }
                    }
                }
            };
            match st.poison_step(&self.name, pos, content) {
                Ok(found) => return found,
                Err(n) => {
                    let journal = st.journal();
                    drop(st);
                    if wait_room(journal, n).is_err() {
                        let mut st = self.lock();
                        st.store.bump_backout(pos);
                        st.make_available(pos);
                        return None;
                    }
                }
            }
        }
    }
}

fn no_journal(name: &ObjectName, seq: u64) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("message #{seq} on {name} is on disk but the queue has no log"),
    )
}

impl QueueState {
    /// The step under the lock: find (or take `at`), then finish or hand back a read.
    #[inline]
    fn get_step(
        &mut self,
        name: &ObjectName,
        at: Option<Pos>,
        spec: &GetSpec,
        now: u64,
    ) -> Result<Found, Stop> {
        self.check_usable(name)?;
        if self.attrs.get_inhibited {
            return Err(inhibited(name).into());
        }
        let found = match (at, spec.browse) {
            (Some(pos), _) => {
                if self.store.state(pos) != SlotState::Available || self.store.is_expired(pos, now)
                {
                    return Err(no_msg_under_cursor(name).into());
                }
                Some(pos)
            }
            (None, Some(cursor)) => self.store.browse(&spec.criteria, now, cursor),
            (None, None) => self.store.find(&spec.criteria, now),
        };
        match found {
            Some(pos) => self.take_found(pos, spec, name),
            None => Ok(Found::Step(self.nothing_found(spec))),
        }
    }

    /// No message: register a waiter if the caller waits.
    #[inline]
    fn nothing_found(&mut self, spec: &GetSpec) -> GetStep {
        if !spec.wait {
            return GetStep::Empty;
        }
        if self.waiters.len() > 1024 {
            self.waiters.prune();
        }
        let w = match spec.batch {
            Some(room) => Waiter::new_batch(spec.criteria, room),
            None => Waiter::new(
                spec.criteria,
                spec.uow,
                spec.browse.is_some(),
                spec.max_len,
                spec.accept_truncated,
            ),
        };
        self.waiters.add(w.clone());
        GetStep::Wait(w)
    }

    #[inline]
    fn take_found(&mut self, pos: Pos, spec: &GetSpec, name: &ObjectName) -> Result<Found, Stop> {
        let expires_at = self.store.expires_at(pos);
        let (len, logged) = match self.store.entry(pos) {
            None => return Ok(Found::Step(GetStep::Empty)),
            Some(Entry::Disk(disk)) => {
                let source = self.source(name, pos.seq, &disk)?;
                if spec.browse.is_none() {
                    self.store.set_state(pos, SlotState::GotPending(READING));
                }
                return Ok(Found::Read(ReadJob {
                    pos,
                    disk,
                    expires_at,
                    source,
                }));
            }
            Some(Entry::Mem(m)) => (m.body.len(), self.journaled() && self.logs(m)),
        };
        self.check_body_len(len, spec, name)?;
        let lsn = match (spec.browse, logged) {
            (None, true) => self.log_get(pos.seq, spec.uow)?,
            _ => None,
        };
        Ok(Found::Step(self.complete(pos, spec, expires_at, lsn, None)))
    }

    /// TRUNCATED_MSG_FAILED when the body is longer than the buffer and truncation is not
    /// accepted (the message stays where it is).
    #[inline]
    fn check_body_len(&self, len: usize, spec: &GetSpec, name: &ObjectName) -> MqResult<()> {
        match spec.max_len {
            Some(max) if len > max && !spec.accept_truncated => Err(MqError {
                data_length: len,
                ..MqError::new(
                    Reason::TruncatedMsgFailed,
                    format!(
                        "the next message on {name} is {len} bytes, longer than the {max}-byte buffer; it stays on the queue"
                    ),
                )
            }),
            _ => Ok(()),
        }
    }

    fn check_len(&self, msg: Message, spec: &GetSpec, name: &ObjectName) -> MqResult<Message> {
        self.check_body_len(msg.body.len(), spec, name).map(|_| msg)
    }

    /// Finishes a get whose GET record (if any) is appended: the message is copied (browse),
    /// held for the unit of work, or removed. `read` is its content when it came from the log.
    #[inline]
    fn complete(
        &mut self,
        pos: Pos,
        spec: &GetSpec,
        expires_at: u64,
        lsn: Option<u64>,
        read: Option<Message>,
    ) -> GetStep {
        // One wall-clock read serves LGETTIME and QTIME (and a batch's messages).
        let wall = self.batch_wall.unwrap_or_else(|| self.clock().wall());
        let msg = if spec.browse.is_some() {
            read.or_else(|| self.store.peek(pos).cloned())
        } else if let Some(u) = spec.uow {
            self.store.set_state(pos, SlotState::GotPending(u));
            self.note_get(wall);
            read.or_else(|| self.store.peek(pos).cloned())
        } else {
            self.note_get(wall);
            match self.store.remove(pos) {
                Some(Held::Mem(m)) => Some(m),
                Some(Held::Disk(_)) => read,
                None => None,
            }
        };
        let Some(msg) = msg else {
            return GetStep::Empty;
        };
        let persistent = msg.descriptor.persistence == Persistence::Persistent;
        if spec.browse.is_none() {
            let put_time = msg.descriptor.put_time;
            self.stats
                .note_got(persistent, msg.body.len(), put_time, wall);
            let depth = self.store.depth();
            self.stats.note_depth(depth);
        } else {
            self.stats.note_browse(persistent, msg.body.len());
        }
        GetStep::Got {
            msg,
            pos,
            expires_at,
            lsn,
        }
    }

    fn note_get(&mut self, wall: SystemTime) {
        self.stats.gets += 1;
        self.stats.last_get = Some(wall);
    }

    /// A message whose content cannot be read back from the log (damaged on disk) leaves its
    /// queue, so the messages behind it stay available: its removal is logged (it does not come
    /// back at restart), it is counted, and the error log names it. The get goes on to the next.
    /// A damaged spilled message leaves the same way, with nothing to log.
    fn set_aside(&mut self, name: &ObjectName, job: &ReadJob, why: &MqError) {
        let logged = match job.disk.spilled {
            true => Ok(None),
            false => self.log_get(job.pos.seq, None),
        };
        // Not waited for: should a crash lose the record, the message is met and set aside again.
        if let Err(stop) = logged {
            let why = match stop {
                Stop::Failed(e) => e.detail,
                Stop::NoRoom(_) => "the log buffer is full".into(),
            };
            tracing::warn!(queue = %name, reason = %why, "the removal of a damaged message could not be logged; it will be met again after a restart");
        }
        self.store.remove(job.pos);
        self.stats.damaged += 1;
        let id = job.disk.msg_id.to_hex();
        let place = if job.disk.spilled {
            "spill area"
        } else {
            "recovery log"
        };
        tracing::error!(queue = %name, seq = job.pos.seq, msg_id = %id, extent = job.disk.pos.extent,
            offset = job.disk.pos.offset, reason = %why.detail,
            "AMQ6174E a damaged message was set aside: its content cannot be read from the {place}; the rest of the queue stays available");
    }

    /// Takes a poison message out for its backout queue, its backout count raised (`read`:
    /// its content, when it was read from the log). `Ok(None)` when its move cannot be logged
    /// (it stays, available); `Err(bytes)` when the log had no room for its GET (nothing
    /// changed).
    fn poison_step(
        &mut self,
        name: &ObjectName,
        pos: Pos,
        read: Option<Message>,
    ) -> Result<Option<(Message, u64)>, usize> {
        let expires_at = self.store.expires_at(pos);
        let (msg, logged) = match (read, self.store.entry(pos)) {
            (_, None) => return Ok(None),
            (Some(m), Some(e)) => (m, !matches!(e, Entry::Disk(d) if d.spilled)),
            (None, Some(Entry::Mem(m))) => (m.clone(), self.journaled() && self.logs(m)),
            (None, Some(Entry::Disk(_))) => return Ok(None),
        };
        // Leaving for the backout queue is logged as a get outside any unit of work (the queue
        // it lands on logs the put).
        if logged {
            match self.log_get(pos.seq, None) {
                Ok(_) => {}
                Err(Stop::NoRoom(n)) => return Err(n),
                Err(Stop::Failed(e)) => {
                    tracing::warn!(queue = %name, error = %e, "the move of a poison message could not be logged; it stays on its queue");
                    self.store.bump_backout(pos);
                    self.make_available(pos);
                    return Ok(None);
                }
            }
        }
        let mut msg = msg;
        msg.descriptor.backout_count = msg.descriptor.backout_count.saturating_add(1);
        self.store.remove(pos);
        Ok(Some((msg, expires_at)))
    }
}

#[cfg(test)]
mod batch_tests {
    //! A read-ahead stream's batch waiter: puts made before its task collects are handed over
    //! in order without touching the store; what it never collected goes back in order.
    use super::*;
    use crate::engine::waiter::WaitOutcome;
    use ferry_model::clock::Clock;
    use ferry_model::objects::LocalQueueAttrs;

    fn stream_spec(room: Room) -> GetSpec {
        GetSpec {
            criteria: Match {
                msg_id: None,
                correl_id: None,
                non_persistent_only: true,
            },
            uow: None,
            browse: None,
            wait: true,
            max_len: None,
            accept_truncated: false,
            batch: Some(room),
        }
    }

    fn put(q: &Queue, i: u32) {
        let m = Message::new(i.to_le_bytes().to_vec()).with_persistence(Persistence::NotPersistent);
        q.put_resolved(m, 0, None, 0).unwrap();
    }

    fn body(m: &Message) -> u32 {
        u32::from_le_bytes(m.body[..4].try_into().unwrap())
    }

    fn armed(q: &Queue, room: Room) -> Arc<Waiter> {
        match q.get(&stream_spec(room), 0).unwrap() {
            GetStep::Wait(w) => w,
            other => panic!("expected a wait, got {other:?}"),
        }
    }

    #[test]
    fn a_batch_takes_puts_in_order_up_to_its_room_and_the_rest_stay_queued() {
        let (clock, _) = Clock::manual();
        let q = Queue::new(
            ObjectName::new("Q").unwrap(),
            LocalQueueAttrs::default(),
            clock,
        );
        let w = armed(
            &q,
            Room {
                msgs: 3,
                bytes: 1 << 20,
            },
        );
        for i in 0..5 {
            put(&q, i);
        }
        assert_eq!(
            q.lock().store.depth(),
            2,
            "two past the room of three are queued"
        );
        let WaitOutcome::Delivered(d) = w.cancel() else {
            panic!("the batch was handed messages");
        };
        let got: Vec<u32> = std::iter::once(&d)
            .chain(&d.more)
            .map(|d| body(&d.msg))
            .collect();
        assert_eq!(got, [0, 1, 2]);
        // Collected: no more are added.
        put(&q, 5);
        assert_eq!(q.lock().store.depth(), 3);
    }

    #[test]
    fn a_batch_stops_at_its_byte_room_but_always_takes_one() {
        let (clock, _) = Clock::manual();
        let q = Queue::new(
            ObjectName::new("Q").unwrap(),
            LocalQueueAttrs::default(),
            clock,
        );
        let w = armed(&q, Room { msgs: 10, bytes: 4 });
        for i in 0..3 {
            put(&q, i);
        }
        let WaitOutcome::Delivered(d) = w.cancel() else {
            panic!("the batch was handed messages");
        };
        assert_eq!(
            (body(&d.msg), d.more.len()),
            (0, 1),
            "the first, then 4 bytes more"
        );
        assert_eq!(q.lock().store.depth(), 1);
    }

    #[test]
    fn an_uncollected_batch_goes_back_in_order() {
        let (clock, _) = Clock::manual();
        let q = Queue::new(
            ObjectName::new("Q").unwrap(),
            LocalQueueAttrs::default(),
            clock,
        );
        let w = armed(
            &q,
            Room {
                msgs: 2,
                bytes: 1 << 20,
            },
        );
        for i in 0..4 {
            put(&q, i);
        }
        let WaitOutcome::Delivered(d) = w.cancel() else {
            panic!("the batch was handed messages");
        };
        q.undo_delivery(d);
        let mut order = Vec::new();
        while let GetStep::Got { msg, .. } = q
            .get(
                &GetSpec {
                    wait: false,
                    batch: None,
                    ..stream_spec(Room { msgs: 1, bytes: 0 })
                },
                0,
            )
            .unwrap()
        {
            order.push(body(&msg));
        }
        assert_eq!(order, [0, 1, 2, 3]);
    }
}
