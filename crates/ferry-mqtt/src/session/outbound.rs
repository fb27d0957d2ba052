//! Exactly once outbound: QoS 2 deliveries to a persistent session, tracked in its QoS 2
//! queue across reconnections and crashes (the protocol and its invariant: `qos2.rs`). Clean
//! sessions, QoS 1 and deliveries from shared subscriptions' group queues are not tracked: a
//! connection that ends backs their gets out and they are sent again as new publications.

use ferry_core::{GetAttempt, GetOptions, MqError, MqResult, Reason};
use tokio::io::AsyncWrite;

use super::{durable, publication_of, Client, Outbound};
use crate::qos2::Unfinished;
use crate::wire::{Out, Version};

/// A client's tracked deliveries.
#[derive(Debug, Default)]
pub(super) struct Tracking {
    /// Packet ids of deliveries in flight that are tracked.
    tracked: std::collections::HashSet<u16>,
    /// Tracked deliveries completed (PUBCOMP) whose markers go after the next commit.
    completed: Vec<u16>,
    /// A resumed session's unfinished deliveries, sent again after CONNACK.
    unfinished: Vec<Unfinished>,
}

impl Client {
    /// Whether a delivery at `qos` from `src` (`None`: the session's own queue) is tracked.
    pub(super) fn tracks(&self, qos: u8, src: Option<usize>) -> bool {
        qos == 2 && self.persistent && src.is_none()
    }

    /// Before delivery `msg` goes out as `packet_id`: its copy is on disk.
    pub(super) async fn track(
        &mut self,
        packet_id: u16,
        msg: &ferry_core::Message,
    ) -> MqResult<()> {
        let q = self
            .qos2_state()
            .map_err(|(_, why)| MqError::new(Reason::ResourceProblem, why))?;
        let (r, lsn) = ferry_core::qmgr::journal::deferring(|| q.sending(packet_id, msg));
        r?;
        durable(&self.broker.qm, lsn).await?;
        self.track.tracked.insert(packet_id);
        Ok(())
    }

    /// PUBREC: a tracked delivery's copy becomes its PUBREL marker, on disk before PUBREL.
    pub(super) async fn track_received(&mut self, packet_id: u16) -> MqResult<()> {
        if !self.track.tracked.contains(&packet_id) {
            return Ok(());
        }
        let Some(q) = self.qos2.as_mut() else {
            return Ok(());
        };
        let (r, lsn) = ferry_core::qmgr::journal::deferring(|| q.received(packet_id));
        r?;
        durable(&self.broker.qm, lsn).await
    }

    /// PUBCOMP: the marker goes once the original's get is committed.
    pub(super) fn track_completed(&mut self, packet_id: u16) {
        if self.track.tracked.remove(&packet_id) {
            self.track.completed.push(packet_id);
        }
    }

    /// After a commit (or with nothing to commit): the markers of completed deliveries go.
    pub(super) fn forget_completed(&mut self) {
        if self.track.completed.is_empty() {
            return;
        }
        let ids = std::mem::take(&mut self.track.completed);
        if let Some(Err(e)) = self.qos2.as_mut().map(|q| q.completed(&ids)) {
            tracing::warn!(client = %self.id, error = %e, "MQTT QoS 2 completions not recorded (the client is sent PUBREL again)");
        }
    }

    /// A resumed session: its unfinished deliveries are in flight again, and their originals
    /// (put back on the session's queue when the last connection's unit of work was backed
    /// out) are taken into this one's, unsent.
    pub(super) fn restore_unfinished(&mut self) -> MqResult<()> {
        let Some(q) = self.qos2.as_mut() else {
            return Ok(());
        };
        for (u, original) in q.unfinished()? {
            let (id, state) = match &u {
                Unfinished::Publish(id, _) => (*id, Outbound::Rec),
                Unfinished::Release(id) => (*id, Outbound::Comp),
            };
            self.inflight.insert(id, state);
            self.track.tracked.insert(id);
            self.next_id = self.next_id.max(id);
            self.track.unfinished.push(u);
            let Some(original) = original else { continue };
            let take = GetOptions::new().msg_id(original).syncpoint();
            match self.session.try_get(self.queue, &take) {
                Ok(GetAttempt::Got(_)) => self.uncommitted += 1,
                Ok(GetAttempt::Wait(_)) => {}
                Err(e) if e.reason == Reason::NoMsgAvailable => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Sends the unfinished deliveries again, in the order first sent: PUBLISH with DUP and
    /// the same packet id, or PUBREL.
    pub(super) async fn resume<W: AsyncWrite + Unpin>(
        &mut self,
        wr: &mut W,
    ) -> std::io::Result<()> {
        for u in std::mem::take(&mut self.track.unfinished) {
            let out = match u {
                Unfinished::Publish(id, msg) => {
                    let mut p = publication_of(&msg, 2, id, self.version == Version::V5);
                    p.dup = true;
                    Out::Publish(p)
                }
                Unfinished::Release(id) => Out::PubRel { id },
            };
            self.write(wr, &out).await?;
        }
        Ok(())
    }
}
