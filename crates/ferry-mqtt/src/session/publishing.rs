//! Topics a client keeps publishing on, each through a handle opened on the topic for output
//! (as an MQI publisher would open it): the queue manager then keeps the topic's attributes
//! and its subscriber list cached in the handle until a topic object or a subscription
//! changes, where a publication without one resolves the topic, checks the authority and
//! walks the subscription index every time.
//!
//! A handle is opened once a client has published [`STREAK`] times in a row on the same
//! topic, so a client that publishes now and then (most of 100,000 devices) holds none; at most
//! [`MAX_HANDLES`] are kept (the oldest closed for a new one). Authority is checked when a
//! handle is opened, and every handle is closed when the queue manager's security changes
//! (SET AUTHREC, REFRESH SECURITY), so the next publications are checked again.
//!
//! Invariant: every handle in `open` is a topic handle of this client's session, opened for
//! output, and `open.len() <= MAX_HANDLES`.

use ferry_core::model::message::Properties;
use ferry_core::{CloseOptions, Hobj, ObjectDescriptor, OpenOptions, PropertyValue, Session};

/// Publications in a row on one topic after which it gets a handle.
pub(super) const STREAK: u32 = 16;
/// Topic handles one client keeps at most.
pub(super) const MAX_HANDLES: usize = 4;

/// A topic with its handle, and the properties of a publication on it at QoS 0, 1 and 2
/// (made at the first), shared by its publications that carry no others.
#[derive(Debug)]
struct Opened {
    topic: Box<str>,
    h: Hobj,
    properties: [Option<Properties>; 3],
}

/// A client's publishing handles.
#[derive(Debug, Default)]
pub(super) struct Publishing {
    /// The topic of the last publication without a handle (FNV-1a), and how many in a row.
    last: (u64, u32),
    /// Topics with their handles, the most recently opened last.
    open: Vec<Opened>,
    /// The security generation the handles were opened in.
    generation: u64,
}

impl Publishing {
    /// The handle to publish on `topic` through, opening one when the client has kept to the
    /// topic long enough; `None` to publish without one.
    pub(super) fn handle(&mut self, session: &mut Session, topic: &str) -> Option<Hobj> {
        let generation = session.queue_manager().security_generation();
        if generation != self.generation {
            self.close_all(session);
            self.generation = generation;
        }
        if let Some(o) = self.open.iter().find(|o| &*o.topic == topic) {
            return Some(o.h);
        }
        let key = fnv(topic);
        self.last = match self.last {
            (k, n) if k == key => (k, n + 1),
            _ => (key, 1),
        };
        if self.last.1 < STREAK {
            return None;
        }
        self.last = (0, 0);
        // Refused (no authority, a bad topic): published without, so the refusal is the
        // publication's own.
        let h = session
            .open(&ObjectDescriptor::topic(topic), OpenOptions::output())
            .ok()?;
        if self.open.len() == MAX_HANDLES {
            let oldest = self.open.remove(0);
            let _ = session.close(oldest.h, CloseOptions::None);
        }
        self.open.push(Opened {
            topic: topic.into(),
            h,
            properties: Default::default(),
        });
        debug_assert!(self.open.len() <= MAX_HANDLES);
        Some(h)
    }

    /// Closes every handle (the session goes on).
    pub(super) fn close_all(&mut self, session: &mut Session) {
        for o in self.open.drain(..) {
            let _ = session.close(o.h, CloseOptions::None);
        }
    }

    /// The properties of `client`'s publication at `qos` through `h` that carries no others:
    /// as `publication_message` and the queue manager would set them one by one (QoS, client
    /// id, MQTopicString), made once and shared.
    pub(super) fn properties(&mut self, h: Hobj, qos: u8, client: &str) -> Option<Properties> {
        let o = self.open.iter_mut().find(|o| o.h == h)?;
        let slot = o.properties.get_mut(usize::from(qos))?;
        if slot.is_none() {
            let mut p = Properties::new();
            p.set(super::QOS_PROPERTY, PropertyValue::I32(i32::from(qos)))
                .ok()?;
            p.set(super::CLIENT_PROPERTY, PropertyValue::String(client.into()))
                .ok()?;
            p.set("MQTopicString", PropertyValue::String(o.topic.to_string()))
                .ok()?;
            *slot = Some(p);
        }
        slot.clone()
    }
}

/// FNV-1a of a topic: telling one topic from the last, not a map key.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferry_core::model::clock::Clock;
    use ferry_core::{object_name, ConnectOptions, QmConfig, QueueManager, QueueManagerAttrs};

    fn session() -> (QueueManager, Session) {
        let qm = QueueManager::new(QmConfig {
            attrs: QueueManagerAttrs::new(object_name("PUBQM").unwrap()),
            clock: Clock::default(),
            dev_queues: false,
            memory_budget: usize::MAX,
            owner: "ferry".into(),
            wait: Default::default(),
        })
        .unwrap();
        let s = qm.connect(&ConnectOptions::app("publishing test")).unwrap();
        (qm, s)
    }

    /// `n` publications in a row on `topic`: the handle the last one went through.
    fn streak(p: &mut Publishing, s: &mut Session, topic: &str, n: u32) -> Option<Hobj> {
        (0..n).map(|_| p.handle(s, topic)).last().flatten()
    }

    #[test]
    fn a_topic_gets_a_handle_after_a_streak_and_keeps_it() {
        let (_qm, mut s) = session();
        let mut p = Publishing::default();
        assert_eq!(streak(&mut p, &mut s, "a/b", STREAK - 1), None);
        // Another topic in between starts the count again.
        assert_eq!(p.handle(&mut s, "x"), None);
        assert_eq!(streak(&mut p, &mut s, "a/b", STREAK - 1), None);
        let h = p
            .handle(&mut s, "a/b")
            .expect("the streak's last opens one");
        assert_eq!(p.handle(&mut s, "a/b"), Some(h));
        assert_eq!(p.handle(&mut s, "x"), None);
        assert_eq!(
            p.handle(&mut s, "a/b"),
            Some(h),
            "kept between other topics"
        );
        let props = p.properties(h, 1, "dev-1").unwrap();
        assert_eq!(
            props.get("MQTopicString"),
            Some(&PropertyValue::String("a/b".into()))
        );
        assert_eq!(
            props.get(super::super::QOS_PROPERTY),
            Some(&PropertyValue::I32(1))
        );
        assert_eq!(p.properties(h, 3, "dev-1"), None, "no QoS 3");
    }

    #[test]
    fn at_most_four_handles_the_oldest_closed_and_all_when_security_changes() {
        let (qm, mut s) = session();
        let mut p = Publishing::default();
        let topics = ["t/0", "t/1", "t/2", "t/3", "t/4"];
        let handles: Vec<Hobj> = topics
            .iter()
            .map(|t| streak(&mut p, &mut s, t, STREAK).unwrap())
            .collect();
        assert_eq!(p.open.len(), MAX_HANDLES);
        // t/0's handle was closed for t/4's: closing it again is refused.
        assert!(s.close(handles[0], CloseOptions::None).is_err());
        assert_eq!(p.handle(&mut s, "t/0"), None, "a streak again");
        assert_eq!(p.handle(&mut s, "t/4"), Some(handles[4]));
        qm.refresh_security();
        assert_eq!(p.handle(&mut s, "t/4"), None, "closed with the others");
        assert!(p.open.is_empty());
        for h in &handles[1..] {
            assert!(s.close(*h, CloseOptions::None).is_err(), "{h:?} closed");
        }
    }
}
