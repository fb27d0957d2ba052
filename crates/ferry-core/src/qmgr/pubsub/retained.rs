//! Retained publications (MQPMO_RETAIN): at most one per topic, kept by the queue manager and
//! sent to subscriptions made later (unless MQSO_NEW_PUBLICATIONS_ONLY) and on MQSUBRQ.
//!
//! Owns: the map topic → retained publication, and its limits ([`MAX_RETAINED`] topics,
//! [`MAX_RETAINED_BYTES`] of bodies; past either a retained publication is refused with 2071
//! MQRC_STORAGE_NOT_AVAILABLE). A persistent retained publication is also a persistent message
//! on `SYSTEM.RETAINED.PUB.QUEUE` (its MQTopicString property names its topic), put in the same
//! unit of work as the publication's deliveries and the removal of the one it replaces; the map
//! is filled from that queue at the first use after a start, so persistent ones survive restarts
//! and crashes and non-persistent ones do not (as in MQ).
//!
//! Invariants: an entry's `stored` is the msg id of its message on the system queue exactly
//! when it is persistent; the map changes only when the unit of work that changed the queue
//! commits (the session applies its pending changes then), so memory and queue agree.

use std::collections::HashMap;

use parking_lot::{Mutex, MutexGuard};

use ferry_model::message::{Message, MsgId, PropertyValue};
use ferry_model::options::{BrowseMode, GetOptions, ObjectDescriptor, OpenOptions};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::system::RETAINED_PUB_QUEUE;
use ferry_model::topic::Filter;

use crate::qmgr::QueueManager;

/// The most topics with a retained publication (and SYSTEM.RETAINED.PUB.QUEUE's MAXDEPTH).
pub const MAX_RETAINED: usize = 100_000;
/// The most bytes of retained publications' bodies held in memory.
pub const MAX_RETAINED_BYTES: usize = 256 << 20;

/// A topic's retained publication.
#[derive(Debug, Clone)]
pub struct RetainedPub {
    /// The publication as published (with MQTopicString).
    pub msg: Message,
    /// Its message on SYSTEM.RETAINED.PUB.QUEUE, when persistent.
    pub stored: Option<MsgId>,
}

/// The retained publications of a queue manager.
#[derive(Debug, Default)]
pub(crate) struct Retained {
    inner: Mutex<RetainedMap>,
}

#[derive(Debug, Default)]
pub(crate) struct RetainedMap {
    loaded: bool,
    by_topic: HashMap<String, RetainedPub>,
    bytes: usize,
}

impl RetainedMap {
    fn put(&mut self, topic: String, r: Option<RetainedPub>) -> Option<RetainedPub> {
        let old = match r {
            Some(r) => {
                self.bytes += r.msg.body.len();
                self.by_topic.insert(topic, r)
            }
            None => self.by_topic.remove(&topic),
        };
        if let Some(o) = &old {
            self.bytes -= o.msg.body.len();
        }
        old
    }
}

impl QueueManager {
    /// The retained publications, read from SYSTEM.RETAINED.PUB.QUEUE at the first use after a
    /// start.
    pub(crate) fn retained_map(&self) -> MutexGuard<'_, RetainedMap> {
        let mut g = self.shared.retained.inner.lock();
        if !g.loaded {
            match self.load_retained() {
                Ok(found) => {
                    g.loaded = true;
                    for (topic, r) in found {
                        g.put(topic, Some(r));
                    }
                }
                Err(e) => tracing::error!(reason = %e.detail,
                    "the persistent retained publications could not be read; trying again at their next use"),
            }
        }
        g
    }

    /// Browses SYSTEM.RETAINED.PUB.QUEUE: each message and its topic (later ones win).
    fn load_retained(&self) -> MqResult<Vec<(String, RetainedPub)>> {
        let mut s = self.internal_session("ferry retained publications");
        let q = ferry_model::name::object_name(RETAINED_PUB_QUEUE)?;
        let h = s.open(&ObjectDescriptor::queue(q), OpenOptions::browse())?;
        let mut out = Vec::new();
        loop {
            let opts = GetOptions::new().browse(BrowseMode::Next);
            match s.get(h, &opts) {
                Ok(g) => {
                    if let Some(PropertyValue::String(t)) =
                        g.message.properties.get("MQTopicString")
                    {
                        let stored = Some(g.message.descriptor.msg_id);
                        out.push((
                            t.clone(),
                            RetainedPub {
                                msg: g.message,
                                stored,
                            },
                        ));
                    }
                }
                Err(e) if e.reason == Reason::NoMsgAvailable => break,
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// The retained publication of `topic`, if any.
    pub fn retained(&self, topic: &str) -> Option<RetainedPub> {
        self.retained_map().by_topic.get(topic).cloned()
    }

    /// Every topic with a retained publication, sorted.
    pub fn retained_topics(&self) -> Vec<String> {
        let mut v: Vec<String> = self.retained_map().by_topic.keys().cloned().collect();
        v.sort();
        v
    }

    /// The retained publications `filter` matches, by topic.
    pub(crate) fn retained_matching(&self, filter: &Filter) -> Vec<(String, Message)> {
        let map = self.retained_map();
        let mut v: Vec<(String, Message)> = map
            .by_topic
            .iter()
            .filter(|(t, _)| filter.matches(t))
            .map(|(t, r)| (t.clone(), r.msg.clone()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// STORAGE_NOT_AVAILABLE when `topic` cannot take a retained publication of `len` bytes.
    pub(crate) fn check_retained_room(&self, topic: &str, len: usize) -> MqResult<()> {
        let map = self.retained_map();
        let old = map.by_topic.get(topic).map_or(0, |r| r.msg.body.len());
        let count = map.by_topic.len() + usize::from(old == 0 && !map.by_topic.contains_key(topic));
        if count > MAX_RETAINED || map.bytes - old + len > MAX_RETAINED_BYTES {
            return Err(MqError::new(
                Reason::StorageNotAvailable,
                format!(
                    "the queue manager already keeps its most retained publications ({MAX_RETAINED} topics, {} MiB); clear some with CLEAR TOPICSTR",
                    MAX_RETAINED_BYTES >> 20
                ),
            ));
        }
        Ok(())
    }

    /// Sets (or with `None` removes) a topic's retained publication in memory, once what
    /// changed it on the system queue is committed. Returns the one it replaced.
    pub(crate) fn set_retained(
        &self,
        topic: String,
        r: Option<RetainedPub>,
    ) -> Option<RetainedPub> {
        self.retained_map().put(topic, r)
    }

    /// The msg id of `topic`'s stored (persistent) retained publication, if any.
    pub(crate) fn retained_stored(&self, topic: &str) -> Option<MsgId> {
        self.retained_map()
            .by_topic
            .get(topic)
            .and_then(|r| r.stored)
    }

    /// CLEAR TOPICSTR(topic) CLRTYPE(RETAINED): removes the topic's retained publication (and
    /// its message on SYSTEM.RETAINED.PUB.QUEUE). Whether there was one.
    pub fn clear_retained(&self, topic: &str) -> MqResult<bool> {
        let Some(stored) = self.retained_map().by_topic.get(topic).map(|r| r.stored) else {
            return Ok(false);
        };
        if let Some(id) = stored {
            let mut s = self.internal_session("ferry retained publications");
            s.remove_stored_retained(id, false)?;
        }
        self.set_retained(topic.to_owned(), None);
        Ok(true)
    }
}
