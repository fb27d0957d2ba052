//! MQCMIT and MQBACK: ending the connection's unit of work, logging its end when it touched
//! persistent messages.

use super::*;
use crate::qmgr::apistats::ApiCall;

impl Session {
    /// MQCMIT: commits the unit of work (see `commit_uow`), counted.
    pub fn commit(&mut self) -> MqResult<()> {
        let r = self.commit_uow();
        self.count_call(ApiCall::Commit, &r);
        if r.is_err() && !self.internal && self.qm.mqi_stats().on() {
            self.qm
                .mqi_stats()
                .add(crate::qmgr::apistats::slot::COMMITS_FAILED, 1);
        }
        if r.is_err() {
            self.account(|a, _| a.add(crate::qmgr::apistats::slot::COMMITS_FAILED, 1));
        }
        r
    }

    /// MQBACK: backs out the unit of work (see `backout_uow`), counted.
    pub fn backout(&mut self) -> MqResult<()> {
        let r = self.backout_uow();
        self.count_call(ApiCall::Backout, &r);
        r
    }

    /// Commits the unit of work: its puts become visible, its gets final.
    pub(super) fn commit_uow(&mut self) -> MqResult<()> {
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
        let durability = self.qm.durability().cloned();
        let _gate = durability
            .as_ref()
            .filter(|_| self.uow_logged)
            .map(|d| d.gate());
        self.log_end(true)?;
        let now = self.qm.clock().now();
        let perf = self.qm.performance_events();
        let mut got_from: Vec<Arc<Queue>> = Vec::new();
        for e in std::mem::take(&mut self.uow) {
            match e.kind {
                UowKind::Put => e.queue.commit_put(e.pos, now),
                UowKind::Get => {
                    e.queue.commit_get(e.pos);
                    if perf && !got_from.iter().any(|q| Arc::ptr_eq(q, &e.queue)) {
                        got_from.push(e.queue);
                    }
                }
            }
        }
        for q in got_from {
            self.qm.depth_after_get(&q);
        }
        for (topic, r) in std::mem::take(&mut self.retained_pending) {
            self.qm.set_retained(topic, r);
        }
        self.end_uow();
        Ok(())
    }

    /// Backs out the unit of work: its puts vanish; its gets return to their queues in their
    /// original positions with backout count + 1 (or move to BOQNAME / the dead-letter queue at
    /// BOTHRESH).
    pub(super) fn backout_uow(&mut self) -> MqResult<()> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        self.backout_all();
        Ok(())
    }

    pub(super) fn backout_all(&mut self) {
        let durability = self.qm.durability().cloned();
        let _gate = durability
            .as_ref()
            .filter(|_| self.uow_logged)
            .map(|d| d.gate());
        if let Err(e) = self.log_end(false) {
            // The backout still happens in memory; a restart backs the unit of work out anyway
            // (it has no commit record).
            tracing::warn!(error = %e, "could not log a backout");
        }
        self.retained_pending.clear();
        undo_entries(&self.qm, std::mem::take(&mut self.uow));
        self.end_uow();
    }

    /// Sets the open unit of work aside: the session starts a new one, and the one detached
    /// keeps its messages (got ones stay invisible, put ones unseen) until it is attached again
    /// ([`Session::attach_uow`]) and committed or backed out — or dropped, which backs it out.
    /// A sender channel keeps one per batch it has sent and not yet had confirmed.
    pub fn detach_uow(&mut self) -> DetachedUow {
        let parts = UowParts {
            entries: std::mem::take(&mut self.uow),
            id: self.uow_id.take(),
            logged: std::mem::replace(&mut self.uow_logged, false),
            retained: std::mem::take(&mut self.retained_pending),
            triggers: std::mem::take(&mut self.pending_triggers),
        };
        self.counters.uow_messages.store(0, Ordering::Relaxed);
        DetachedUow {
            qm: self.qm.clone(),
            parts: Some(parts),
        }
    }

    /// Makes a detached unit of work the session's own again, to be committed or backed out.
    /// The session's own must hold nothing (`UnexpectedError` otherwise — and the detached
    /// one, dropped, is backed out).
    pub fn attach_uow(&mut self, mut d: DetachedUow) -> MqResult<()> {
        let empty = self.uow.is_empty()
            && !self.uow_logged
            && self.retained_pending.is_empty()
            && self.pending_triggers.is_empty();
        if !empty {
            return Err(MqError::new(
                Reason::UnexpectedError,
                "this connection's unit of work holds messages; commit or back it out before attaching another",
            ));
        }
        let Some(p) = d.parts.take() else {
            return Ok(());
        };
        self.uow = p.entries;
        self.uow_id = p.id;
        self.uow_logged = p.logged;
        self.retained_pending = p.retained;
        self.pending_triggers = p.triggers;
        self.counters
            .uow_messages
            .store(self.uow.len(), Ordering::Relaxed);
        Ok(())
    }

    /// Logs the end of a unit of work that touched persistent messages, and waits for it.
    pub(super) fn log_end(&mut self, commit: bool) -> MqResult<()> {
        if !self.uow_logged {
            return Ok(());
        }
        let r = match (self.qm.durability().cloned(), self.uow_id) {
            (Some(d), Some(u)) if self.defer_durability => {
                d.end_uow(commit, u).map(|lsn| self.owe(lsn))
            }
            (Some(d), Some(u)) => d.end_uow(commit, u).and_then(|lsn| d.wait(lsn)),
            _ => Ok(()),
        };
        // A failed commit record leaves the unit of work open (the caller may back it out); a
        // backout is done in memory whatever the log said.
        if r.is_ok() || !commit {
            self.uow_logged = false;
        }
        r
    }

    pub(super) fn end_uow(&mut self) {
        for t in std::mem::take(&mut self.pending_triggers) {
            self.qm.send_trigger(t);
        }
        self.uow_id = None;
        self.counters.uow_messages.store(0, Ordering::Relaxed);
    }
}

/// Returns a unit of work's messages: its puts vanish, its gets go back to their queues.
fn undo_entries(qm: &QueueManager, entries: Vec<UowEntry>) {
    let now = qm.clock().now();
    for e in entries {
        match e.kind {
            UowKind::Put => e.queue.backout_put(e.pos),
            UowKind::Get => {
                if let Some((msg, expires_at)) = e.queue.backout_get(e.pos, now) {
                    qm.requeue_poison(&e.queue, msg, e.pos.seq, expires_at);
                }
            }
        }
    }
}

/// What a unit of work holds.
#[derive(Debug)]
struct UowParts {
    entries: Vec<UowEntry>,
    id: Option<UowId>,
    logged: bool,
    retained: Vec<(String, Option<crate::qmgr::pubsub::retained::RetainedPub>)>,
    triggers: Vec<crate::qmgr::trigger::Trigger>,
}

/// A unit of work set aside by [`Session::detach_uow`]. Dropped without being attached again,
/// it is backed out (logged when it touched persistent messages; a restart would back it out
/// anyway, having no commit record).
#[derive(Debug)]
pub struct DetachedUow {
    qm: QueueManager,
    parts: Option<UowParts>,
}

impl DetachedUow {
    /// How many messages it holds.
    pub fn len(&self) -> usize {
        self.parts.as_ref().map_or(0, |p| p.entries.len())
    }

    /// Whether it holds no messages.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Drop for DetachedUow {
    fn drop(&mut self) {
        let Some(p) = self.parts.take() else { return };
        let durability = self.qm.durability().cloned();
        if let (Some(d), Some(u), true) = (durability.as_ref(), p.id, p.logged) {
            let _gate = d.gate();
            if let Err(e) = d.end_uow(false, u).and_then(|lsn| d.wait(lsn)) {
                tracing::warn!(error = %e, "could not log the backout of a detached unit of work");
            }
            undo_entries(&self.qm, p.entries);
        } else {
            undo_entries(&self.qm, p.entries);
        }
        for t in p.triggers {
            self.qm.send_trigger(t);
        }
    }
}
