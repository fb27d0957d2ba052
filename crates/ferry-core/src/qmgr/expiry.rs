//! Expiry: discarding expired messages on every queue (MQ's EXPRYINT scan), now or from a
//! background thread.

use std::sync::Arc;
use std::time::Duration;

use ferry_model::name::ObjectName;
use ferry_model::status::RunState;

use crate::qmgr::QueueManager;

impl QueueManager {
    /// Discards expired messages on every queue (MQ's EXPRYINT scan). Returns how many went.
    pub fn sweep_expired(&self) -> usize {
        self.sweep_expired_where(|_| true)
    }

    /// [`QueueManager::sweep_expired`] of the local queues whose names `which` accepts
    /// (REFRESH QMGR TYPE(EXPIRY) NAME(...)).
    pub fn sweep_expired_where(&self, which: impl Fn(&ObjectName) -> bool) -> usize {
        let now = self.shared.clock.now();
        let mut queues = self.local_queues();
        queues.retain(|q| which(&q.name));
        let swept = queues
            .iter()
            .map(|q| q.lock().store.sweep_expired(now))
            .sum();
        // The expiration reports their senders asked for, sent as the queue manager.
        let mut reporter = None;
        for q in &queues {
            let expired = q.take_expired_reports();
            if !expired.is_empty() {
                reporter
                    .get_or_insert_with(|| self.internal_session("ferry expiry"))
                    .send_expiration_reports(expired);
            }
        }
        if let Some(s) = reporter {
            let _ = s.disconnect();
        }
        swept
    }

    /// Starts a background thread that sweeps expired messages every `interval` until the queue
    /// manager stops.
    pub fn start_expiry_sweeper(
        &self,
        interval: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        let weak = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("ferry-expiry".into())
            .spawn(move || loop {
                std::thread::sleep(interval);
                let Some(shared) = weak.upgrade() else { return };
                let qm = QueueManager { shared };
                if qm.run_state() == RunState::Stopping {
                    return;
                }
                qm.sweep_expired();
            })
    }
}
