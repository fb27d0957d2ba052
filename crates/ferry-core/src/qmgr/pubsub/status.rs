//! The live topic tree's status (DISPLAY TPSTATUS, the per-topic metrics): counters per topic
//! published on, and the handles open to publish.
//!
//! Owns: per-topic counters (publications, copies delivered, when last published) for at most
//! [`MAX_TOPIC_STATS`] topics — the first ones published on since start; publications on more
//! are counted only in the queue manager's totals and in `untracked` — and the registry of
//! publisher handles (one entry per MQOPEN of a topic, removed at MQCLOSE or when the
//! connection ends). Counters start at zero at each start.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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
    /// Its topic's attributes as last resolved, with the topic catalogue's generation then.
    pub(crate) resolved: Mutex<Option<(u64, ferry_model::topicobj::ResolvedTopic)>>,
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
    /// Counts a publication on `topic` and the copies it delivered.
    pub(crate) fn count_publication(&self, topic: &str, delivered: usize, now_ms: u64) {
        let st = &self.shared.topic_status;
        let found = st.stats.read().get(topic).cloned();
        let stats = match found {
            Some(s) => s,
            None => {
                let mut map = st.stats.write();
                if map.len() >= MAX_TOPIC_STATS && !map.contains_key(topic) {
                    st.untracked.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Arc::clone(map.entry(topic.into()).or_default())
            }
        };
        stats.publications.fetch_add(1, Ordering::Relaxed);
        stats
            .deliveries
            .fetch_add(delivered as u64, Ordering::Relaxed);
        stats.last_pub_ms.store(now_ms, Ordering::Relaxed);
    }

    /// Every topic counted one by one, sorted.
    pub fn topic_stats(&self) -> Vec<(String, Arc<TopicStats>)> {
        let map = self.shared.topic_status.stats.read();
        let mut v: Vec<_> = map
            .iter()
            .map(|(t, s)| (t.to_string(), Arc::clone(s)))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Publications on topics beyond [`MAX_TOPIC_STATS`], since start.
    pub fn topic_stats_untracked(&self) -> u64 {
        self.shared.topic_status.untracked.load(Ordering::Relaxed)
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
        let p = Arc::new(Publisher {
            id,
            topic,
            conn,
            user: user.to_owned(),
            count: AtomicU64::new(0),
            last_ms: AtomicU64::new(0),
            resolved: Mutex::new(None),
        });
        st.publishers.lock().insert(id, Arc::clone(&p));
        p
    }

    /// Forgets a publisher handle (closed, or its connection ended).
    pub(crate) fn unregister_publisher(&self, id: u64) {
        self.shared.topic_status.publishers.lock().remove(&id);
    }

    /// Every handle open to publish, in the order they were opened.
    pub fn publishers(&self) -> Vec<Arc<Publisher>> {
        let map = self.shared.topic_status.publishers.lock();
        map.values().cloned().collect()
    }
}
