//! Exactly once for a persistent session's QoS 2 publications, across reconnections and
//! crashes. A QoS 2 PUBLISH is published in a unit of work together with a marker message —
//! its packet id as the msg id — on the session's QoS 2 queue
//! (`SYSTEM.MQTT.QOS2.<hash of the client id>`), and the PUBREC waits until that commit is on
//! disk. A PUBREL takes the marker away. So whatever happens between, a resend of the packet id
//! finds the marker (its publication done, not published again) or finds neither (the unit of
//! work backed out: published now): once either way. A reconnecting client's markers are its
//! packet ids awaiting PUBREL.
//!
//! The unit of work is a second engine connection's (made on the first QoS 2 PUBLISH): the
//! client's own holds its deliveries' gets until they are acknowledged.
//!
//! Outbound the same queue keeps what MQTT calls the session state of QoS 2 deliveries to a
//! persistent session. Before a delivery goes out as packet id P, a copy of it (msg id
//! `MQO2`+P, the original's msg id in the property `mqtt.original_msgid`) is committed and on
//! disk; PUBREC turns it into a PUBREL marker (`MQR2`+P, committed and on disk before PUBREL
//! is sent); PUBCOMP removes the marker once the original's get, held in the client's unit of
//! work, has been committed. A client coming back is sent the copies again as PUBLISH with DUP
//! and the same packet ids, and PUBREL for the markers, in the order they were sent; the
//! originals a backed-out unit of work put back on the session's queue are taken into the new
//! connection's unit of work unsent. Invariant: while a copy or marker exists, its original is
//! on the session's queue only inside the client's unit of work, or not at all — so a
//! delivery reaches the client's application once whatever breaks between.

use ferry_core::model::security::Principal;
use ferry_core::{
    BrowseMode, CloseOptions, ConnMode, ConnectOptions, GetAttempt, GetOptions, Hobj, Message,
    MqResult, MsgId, ObjectDescriptor, OpenOptions, Persistence, PutOptions, QueueManager, Reason,
    Session,
};

/// The QoS 2 queue of client `id`.
pub fn queue_name(id: &str) -> String {
    crate::session::queue_name(id).replace("SYSTEM.MQTT.CLIENT.", "SYSTEM.MQTT.QOS2.")
}

fn marker_id(packet_id: u16) -> MsgId {
    let mut id = [0u8; 24];
    id[..4].copy_from_slice(b"MQQ2");
    id[4..6].copy_from_slice(&packet_id.to_be_bytes());
    MsgId(id)
}

/// The copy of a QoS 2 delivery sent as packet `packet_id`, until its PUBREC.
fn sent_id(packet_id: u16) -> MsgId {
    let mut id = marker_id(packet_id);
    id.0[..4].copy_from_slice(b"MQO2");
    id
}

/// The marker of a QoS 2 delivery whose PUBREL was sent, until its PUBCOMP.
fn release_id(packet_id: u16) -> MsgId {
    let mut id = marker_id(packet_id);
    id.0[..4].copy_from_slice(b"MQR2");
    id
}

/// The message property of a copy or marker naming its original's msg id.
pub const ORIGINAL_PROPERTY: &str = "mqtt.original_msgid";

/// The original's msg id a copy or marker names.
fn original_of(m: &Message) -> Option<MsgId> {
    match m.properties.get(ORIGINAL_PROPERTY) {
        Some(ferry_core::PropertyValue::Bytes(b)) if b.len() == 24 => {
            let mut id = [0u8; 24];
            id.copy_from_slice(b);
            Some(MsgId(id))
        }
        _ => None,
    }
}

/// An outbound QoS 2 delivery a client left unfinished: sent again when it comes back.
#[derive(Debug)]
pub enum Unfinished {
    /// PUBLISH sent, no PUBREC: the copy, sent again with DUP.
    Publish(u16, Message),
    /// PUBREL sent, no PUBCOMP.
    Release(u16),
}

/// A persistent session's QoS 2 state: its own connection and the marker queue.
pub struct Qos2 {
    session: Session,
    queue: Hobj,
}

impl std::fmt::Debug for Qos2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Qos2").finish_non_exhaustive()
    }
}

impl Qos2 {
    /// Connects as `who` and opens (making it if new) client `id`'s marker queue with the
    /// queue manager's authority.
    pub fn open(qm: &QueueManager, id: &str, peer: &str, who: Principal) -> MqResult<Qos2> {
        let opts = ConnectOptions {
            app_name: format!("MQTT {id} QoS 2"),
            user_id: Some(who.user.clone()),
        };
        let mut session = qm.connect_with(&opts, ConnMode::Tcp, peer.to_owned(), who.clone())?;
        session.act_as(Principal::owner(&qm.name().to_string()));
        let name = queue_name(id);
        let opts = OpenOptions {
            output: true,
            browse: true,
            ..OpenOptions::input()
        };
        let queue = if qm.queue_status(&name).is_ok() {
            session.open(&ferry_core::model::options::queue(&name)?, opts)
        } else {
            let od = ObjectDescriptor::Queue {
                name: ferry_core::object_name(ferry_core::model::system::DURABLE_MODEL_QUEUE)?,
                dynamic_name: Some(name),
                selector: None,
            };
            session.open(&od, opts)
        };
        session.act_as(who);
        match queue {
            Ok(queue) => Ok(Qos2 { session, queue }),
            Err(e) => {
                let _ = session.disconnect();
                Err(e)
            }
        }
    }

    /// The packet ids awaiting PUBREL when the client last left.
    pub fn awaiting(&mut self) -> MqResult<Vec<u16>> {
        let markers = self.browse_all()?;
        Ok(markers
            .iter()
            .map(|m| m.descriptor.msg_id.0)
            .filter(|m| &m[..4] == b"MQQ2")
            .map(|m| u16::from_be_bytes([m[4], m[5]]))
            .collect())
    }

    /// Every message on the marker queue, in queue order, browsed.
    fn browse_all(&mut self) -> MqResult<Vec<Message>> {
        let mut all = Vec::new();
        let mut mode = BrowseMode::First;
        loop {
            match self
                .session
                .try_get(self.queue, &GetOptions::new().browse(mode))
            {
                Ok(GetAttempt::Got(g)) => all.push(g.message),
                Ok(GetAttempt::Wait(_)) => break,
                Err(e) if e.reason == Reason::NoMsgAvailable => break,
                Err(e) => return Err(e),
            }
            mode = BrowseMode::Next;
        }
        Ok(all)
    }

    /// Publishes `msg` on `topic` and records `packet_id`, in one unit of work (committed,
    /// not waited for: the caller waits for the log before PUBREC).
    pub fn publish(
        &mut self,
        topic: &str,
        msg: Message,
        opts: &PutOptions,
        packet_id: u16,
    ) -> MqResult<usize> {
        let opts = PutOptions {
            syncpoint: true,
            ..*opts
        };
        let mut marker = Message::new(Vec::new()).with_persistence(Persistence::Persistent);
        marker.descriptor.msg_id = marker_id(packet_id);
        let done = self.session.publish(topic, msg, &opts).and_then(|p| {
            let keep = PutOptions {
                syncpoint: true,
                ..PutOptions::default()
            };
            self.session.put(self.queue, marker, &keep)?;
            Ok(p.delivered)
        });
        match done {
            Ok(n) => self.session.commit().map(|()| n),
            Err(e) => {
                let _ = self.session.backout();
                Err(e)
            }
        }
    }

    /// PUBREL: the packet id's marker goes (if it is there).
    pub fn released(&mut self, packet_id: u16) -> MqResult<()> {
        let opts = GetOptions::new().msg_id(marker_id(packet_id));
        match self.session.try_get(self.queue, &opts) {
            Ok(_) => Ok(()),
            Err(e) if e.reason == Reason::NoMsgAvailable => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Delivery `msg` (got from the session's queue, not yet committed there) goes out as
    /// packet `packet_id`: its copy is committed (the caller waits for the log before sending).
    pub fn sending(&mut self, packet_id: u16, msg: &Message) -> MqResult<()> {
        let mut copy = msg.clone();
        let original = msg.descriptor.msg_id.0.to_vec();
        copy.properties.set(
            ORIGINAL_PROPERTY,
            ferry_core::PropertyValue::Bytes(original.into()),
        )?;
        copy.descriptor.msg_id = sent_id(packet_id);
        copy.descriptor.persistence = Persistence::Persistent;
        let keep = PutOptions {
            syncpoint: true,
            ..PutOptions::default()
        };
        self.commit_or_back_out(|s, q| s.put(q, copy, &keep).map(|_| ()))
    }

    /// PUBREC for `packet_id`: its copy becomes a PUBREL marker (the caller waits for the log
    /// before sending PUBREL). Nothing for a packet id without a copy.
    pub fn received(&mut self, packet_id: u16) -> MqResult<()> {
        let take = GetOptions::new().msg_id(sent_id(packet_id)).syncpoint();
        let copy = match self.session.try_get(self.queue, &take) {
            Ok(GetAttempt::Got(g)) => g.message,
            Ok(GetAttempt::Wait(_)) => return Ok(()),
            Err(e) if e.reason == Reason::NoMsgAvailable => return Ok(()),
            Err(e) => return Err(e),
        };
        let mut marker = Message::new(Vec::new()).with_persistence(Persistence::Persistent);
        marker.descriptor.msg_id = release_id(packet_id);
        if let Some(o) = original_of(&copy) {
            let o = ferry_core::PropertyValue::Bytes(o.0.to_vec().into());
            marker.properties.set(ORIGINAL_PROPERTY, o)?;
        }
        let keep = PutOptions {
            syncpoint: true,
            ..PutOptions::default()
        };
        self.commit_or_back_out(|s, q| s.put(q, marker, &keep).map(|_| ()))
    }

    /// The PUBREL markers of `packet_ids` go: their PUBCOMPs came and their originals' gets
    /// are committed. Not waited for: a marker a crash keeps is released again, harmlessly.
    pub fn completed(&mut self, packet_ids: &[u16]) -> MqResult<()> {
        self.commit_or_back_out(|s, q| {
            for id in packet_ids {
                let take = GetOptions::new().msg_id(release_id(*id)).syncpoint();
                match s.try_get(q, &take) {
                    Ok(_) => {}
                    Err(e) if e.reason == Reason::NoMsgAvailable => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })
    }

    /// The outbound deliveries the client left unfinished, in the order they were sent, each
    /// with its original's msg id.
    pub fn unfinished(&mut self) -> MqResult<Vec<(Unfinished, Option<MsgId>)>> {
        let mut found = Vec::new();
        for message in self.browse_all()? {
            let m = message.descriptor.msg_id.0;
            let id = u16::from_be_bytes([m[4], m[5]]);
            let original = original_of(&message);
            match &m[..4] {
                b"MQO2" => found.push((Unfinished::Publish(id, message), original)),
                b"MQR2" => found.push((Unfinished::Release(id), original)),
                _ => {}
            }
        }
        Ok(found)
    }

    /// Runs `f` in a unit of work on the marker queue: committed, or backed out on an error.
    fn commit_or_back_out(
        &mut self,
        f: impl FnOnce(&mut Session, Hobj) -> MqResult<()>,
    ) -> MqResult<()> {
        match f(&mut self.session, self.queue) {
            Ok(()) => self.session.commit(),
            Err(e) => {
                let _ = self.session.backout();
                Err(e)
            }
        }
    }

    /// Ends the connection; with `delete`, the queue and its markers go too (a clean session).
    pub fn close(mut self, qm: &QueueManager, delete: bool) {
        let how = if delete {
            self.session
                .act_as(Principal::owner(&qm.name().to_string()));
            CloseOptions::DeletePurge
        } else {
            CloseOptions::None
        };
        let _ = self.session.close(self.queue, how);
        let _ = self.session.disconnect();
    }
}
