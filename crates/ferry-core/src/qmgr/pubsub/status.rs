//! The live topic tree's status (DISPLAY TPSTATUS, the per-topic metrics): counters per topic
//! published on, and the handles open to publish.
//!
//! Owns: per-topic counters (publications, copies delivered, when last published) for at most
//! [`MAX_TOPIC_STATS`] topics — the first ones published on since start; publications on more
//! are counted only in the queue manager's totals and in `untracked` — and the registry of
//! publisher handles (one entry per MQOPEN of a topic, removed at MQCLOSE or when the
//! connection ends). Counters start at zero at each start.
//!
//! A publication through a publisher handle is counted in the handle (its own cache lines:
//! publishers on one topic, or on any, do not contend), and the handle's counts are folded into
//! its topic's and the queue manager's when it closes; readers add the open handles' counts to
//! what was folded, under the registry's lock, so a count is never missed or taken twice. A
//! publication without a handle (MQPUT1, the queue manager's own) counts in the shared counters
//! at once.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::{Mutex, RwLock};

use crate::qmgr::QueueManager;

/// The most topics counted one by one.
pub const MAX_TOPIC_STATS: usize = 1000;

/// One topic's counters since start.
#[derive(Debug, Default)]
pub struct TopicStats {
    /// Publications on it.
    pub publications: AtomicU64,
    /// Copies delivered to subscriptions' queues.
    pub deliveries: AtomicU64,
    /// When it was last published on, Unix ms.
    pub last_pub_ms: AtomicU64,
}

/// A handle open to publish on a topic.
#[derive(Debug)]
pub struct Publisher {
    /// Its id (PUBID in status).
    pub id: u64,
    /// The topic.
    pub topic: Arc<str>,
    /// The connection that opened it.
    pub conn: u64,
    /// That connection's user.
    pub user: String,
    /// Publications through it.
    pub count: AtomicU64,
    /// When it last published, Unix ms (0: not yet).
    pub last_ms: AtomicU64,
    /// Copies its publications delivered.
    pub delivered: AtomicU64,
    /// Copies its publications' subscribers refused.
    pub failed: AtomicU64,
    /// Its topic's attributes as last resolved, with the topic catalogue's generation then.
    pub(crate) resolved: Mutex<Option<(u64, ferry_model::topicobj::ResolvedTopic)>>,
    /// The subscriptions its topic reaches, with the registry's generation then.
    pub(crate) subscribers: Mutex<Option<SubscriberCache>>,
    /// Its topic's counters (`None`: past [`MAX_TOPIC_STATS`]), once it has published.
    stats: OnceLock<Option<Arc<TopicStats>>>,
    /// MQTopicString as a publication without properties of its own carries it (shared).
    pub(crate) topic_property: ferry_model::message::Properties,
}

/// A publisher handle's subscriber list and the registry generation it was taken at.
pub(crate) type SubscriberCache = (u64, Arc<[Arc<crate::qmgr::pubsub::Subscription>]>);

/// A topic's counts: what was folded in and what its open publisher handles hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TopicCounts {
    /// Publications on it.
    pub publications: u64,
    /// Copies delivered to subscriptions' queues.
    pub deliveries: u64,
    /// When it was last published on, Unix ms (0: never).
    pub last_pub_ms: u64,
}

/// The queue manager's publish/subscribe totals since start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PubSubTotals {
    /// Publications made.
    pub publications: u64,
    /// Copies delivered to subscriptions' queues.
    pub deliveries: u64,
    /// Copies a subscription's queue refused.
    pub failed: u64,
}

/// The live status of the topic tree.
#[derive(Debug, Default)]
pub(crate) struct TopicStatus {
    stats: RwLock<HashMap<Box<str>, Arc<TopicStats>>>,
    untracked: AtomicU64,
    publishers: Mutex<BTreeMap<u64, Arc<Publisher>>>,
    next_publisher: AtomicU64,
}

impl QueueManager {
    /// Counts a publication on `topic` and the copies it delivered (one made without a
    /// publisher handle).
    pub(crate) fn count_publication(&self, topic: &str, delivered: usize, now_ms: u64) {
        let Some(stats) = self.topic_entry(topic) else {
            let st = &self.shared.topic_status;
            st.untracked.fetch_add(1, Ordering::Relaxed);
            return;
        };
        stats.publications.fetch_add(1, Ordering::Relaxed);
        stats
            .deliveries
            .fetch_add(delivered as u64, Ordering::Relaxed);
        stats.last_pub_ms.fetch_max(now_ms, Ordering::Relaxed);
    }

    /// Counts a publication through publisher handle `p`, in the handle.
    pub(crate) fn count_handle_publication(&self, p: &Publisher, delivered: usize, failed: usize) {
        p.stats.get_or_init(|| self.topic_entry(&p.topic));
        p.delivered.fetch_add(delivered as u64, Ordering::Relaxed);
        p.failed.fetch_add(failed as u64, Ordering::Relaxed);
    }

    /// `topic`'s counters, made at its first publication while fewer than
    /// [`MAX_TOPIC_STATS`] topics are counted; `None` past that.
    fn topic_entry(&self, topic: &str) -> Option<Arc<TopicStats>> {
        let st = &self.shared.topic_status;
        if let Some(s) = st.stats.read().get(topic) {
            return Some(Arc::clone(s));
        }
        let mut map = st.stats.write();
        if map.len() >= MAX_TOPIC_STATS && !map.contains_key(topic) {
            return None;
        }
        Some(Arc::clone(map.entry(topic.into()).or_default()))
    }

    /// Every topic counted one by one, sorted, with its open publisher handles' counts.
    pub fn topic_stats(&self) -> Vec<(String, TopicCounts)> {
        let st = &self.shared.topic_status;
        let publishers = st.publishers.lock();
        let map = st.stats.read();
        let mut v: Vec<(String, TopicCounts)> = map
            .iter()
            .map(|(t, s)| {
                let mut c = TopicCounts {
                    publications: s.publications.load(Ordering::Relaxed),
                    deliveries: s.deliveries.load(Ordering::Relaxed),
                    last_pub_ms: s.last_pub_ms.load(Ordering::Relaxed),
                };
                for p in publishers.values() {
                    if matches!(p.stats.get(), Some(Some(ps)) if Arc::ptr_eq(ps, s)) {
                        c.publications += p.count.load(Ordering::Relaxed);
                        c.deliveries += p.delivered.load(Ordering::Relaxed);
                        c.last_pub_ms = c.last_pub_ms.max(p.last_ms.load(Ordering::Relaxed));
                    }
                }
                (t.to_string(), c)
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The queue manager's publish/subscribe totals since start, open handles' included.
    pub fn pubsub_totals(&self) -> PubSubTotals {
        let publishers = self.shared.topic_status.publishers.lock();
        let c = &self.shared.pubsub.counters;
        let mut t = PubSubTotals {
            publications: c.publications.load(Ordering::Relaxed),
            deliveries: c.deliveries.load(Ordering::Relaxed),
            failed: c.failed.load(Ordering::Relaxed),
        };
        for p in publishers.values() {
            t.publications += p.count.load(Ordering::Relaxed);
            t.deliveries += p.delivered.load(Ordering::Relaxed);
            t.failed += p.failed.load(Ordering::Relaxed);
        }
        t
    }

    /// Publications on topics beyond [`MAX_TOPIC_STATS`], since start.
    pub fn topic_stats_untracked(&self) -> u64 {
        let st = &self.shared.topic_status;
        let publishers = st.publishers.lock();
        let open: u64 = publishers
            .values()
            .filter(|p| matches!(p.stats.get(), Some(None)))
            .map(|p| p.count.load(Ordering::Relaxed))
            .sum();
        st.untracked.load(Ordering::Relaxed) + open
    }

    /// Registers a handle opened to publish on `topic`.
    pub(crate) fn register_publisher(
        &self,
        topic: Arc<str>,
        conn: u64,
        user: &str,
    ) -> Arc<Publisher> {
        let st = &self.shared.topic_status;
        let id = st.next_publisher.fetch_add(1, Ordering::Relaxed) + 1;
        let mut topic_property = ferry_model::message::Properties::default();
        // A topic string is at most 10,240 bytes: the property always takes it.
        let _ = topic_property.set(
            "MQTopicString",
            ferry_model::message::PropertyValue::String(topic.to_string()),
        );
        let p = Arc::new(Publisher {
            id,
            topic,
            conn,
            user: user.to_owned(),
            count: AtomicU64::new(0),
            last_ms: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            resolved: Mutex::new(None),
            subscribers: Mutex::new(None),
            stats: OnceLock::new(),
            topic_property,
        });
        st.publishers.lock().insert(id, Arc::clone(&p));
        p
    }

    /// Forgets a publisher handle (closed, or its connection ended), folding its counts into
    /// its topic's and the queue manager's.
    pub(crate) fn unregister_publisher(&self, id: u64) {
        let st = &self.shared.topic_status;
        let mut publishers = st.publishers.lock();
        let Some(p) = publishers.remove(&id) else {
            return;
        };
        let (n, delivered) = (
            p.count.load(Ordering::Relaxed),
            p.delivered.load(Ordering::Relaxed),
        );
        match p.stats.get() {
            Some(Some(s)) => {
                s.publications.fetch_add(n, Ordering::Relaxed);
                s.deliveries.fetch_add(delivered, Ordering::Relaxed);
                s.last_pub_ms
                    .fetch_max(p.last_ms.load(Ordering::Relaxed), Ordering::Relaxed);
            }
            Some(None) => {
                st.untracked.fetch_add(n, Ordering::Relaxed);
            }
            None => {}
        }
        let c = &self.shared.pubsub.counters;
        c.publications.fetch_add(n, Ordering::Relaxed);
        c.deliveries.fetch_add(delivered, Ordering::Relaxed);
        c.failed
            .fetch_add(p.failed.load(Ordering::Relaxed), Ordering::Relaxed);
        drop(publishers);
    }

    /// Every handle open to publish, in the order they were opened.
    pub fn publishers(&self) -> Vec<Arc<Publisher>> {
        let map = self.shared.topic_status.publishers.lock();
        map.values().cloned().collect()
    }
}
