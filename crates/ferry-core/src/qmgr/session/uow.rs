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
