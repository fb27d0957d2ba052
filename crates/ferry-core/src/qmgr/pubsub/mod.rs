//! Publish/subscribe: subscriptions, the topic index that finds them (`index`), and the
//! delivery of a publication to each matching subscription's queue (`Session::publish`).
//!
//! A subscription is a filter (a topic string in one of the two wildcard schemes) and a
//! destination queue. A publication on a topic is copied to the queue of every subscription
//! whose filter matches it: each copy carries the subscription's correlation id, and the
//! properties `MQTopicString` (the publication's topic) and, when the subscription has user
//! data, `MQSubUserData`, as MQ sets them.
//!
//! Delivery follows MQ's defaults for a topic (PMSGDLV(ALLDUR), NPMSGDLV(ALLAVAIL)): a
//! non-persistent publication goes to every subscription whose queue takes it, and a full or
//! missing queue does not stop the others (counted as a failed delivery); a persistent
//! publication goes to all of them or to none — it is delivered in a unit of work (the
//! caller's, or one of its own), and the first refusal backs it out and fails the publish with
//! that queue's reason.
//!
//! Being built (issue 21): durable subscriptions that survive restarts, MQSUB through handles
//! on every connection mode, TOPIC objects, retained publications, selectors, MQSC and status.

pub mod index;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::RwLock;

use ferry_model::message::CorrelId;
use ferry_model::name::ObjectName;
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::topic::{Filter, Wildcards};

use crate::engine::Queue;
use crate::qmgr::QueueManager;

use index::TopicIndex;

/// Identifies a subscription for its life.
pub type SubId = u64;

/// What a subscription is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubRequest {
    /// The topic filter.
    pub topic: String,
    /// Its wildcard scheme.
    pub wildcards: Wildcards,
    /// The queue publications are delivered to.
    pub queue: ObjectName,
    /// Its name, for a durable subscription (unique in the queue manager).
    pub name: Option<String>,
    /// The correlation id every delivered copy carries (MQSO_SET_CORREL_ID); otherwise the
    /// queue manager chooses one for the subscription.
    pub correl_id: Option<CorrelId>,
    /// MQSubUserData of every copy.
    pub user_data: Option<String>,
}

/// A subscription.
#[derive(Debug)]
pub struct Subscription {
    /// Its id.
    pub id: SubId,
    /// Its name, if it has one.
    pub name: Option<String>,
    /// Its filter.
    pub filter: Filter,
    /// Where its publications go.
    pub queue: Arc<Queue>,
    /// The correlation id of its copies.
    pub correl_id: CorrelId,
    /// MQSubUserData.
    pub user_data: Option<String>,
}

/// Every subscription of a queue manager, indexed by filter.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    inner: RwLock<Registry>,
    next_id: AtomicU64,
}

#[derive(Debug, Default)]
struct Registry {
    index: TopicIndex<SubId>,
    subs: HashMap<SubId, Arc<Subscription>>,
    by_name: HashMap<String, SubId>,
}

impl QueueManager {
    /// Creates a subscription delivering to a local queue. SUB_ALREADY_EXISTS when its name
    /// is taken; TOPIC_STRING_ERROR for a bad filter; UNKNOWN_OBJECT_NAME for a missing queue.
    pub fn subscribe(&self, req: &SubRequest) -> MqResult<SubId> {
        let filter = Filter::parse(&req.topic, req.wildcards)?;
        let queue = self.local_queue(&req.queue)?;
        let ps = &self.shared.pubsub;
        let id = ps.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let correl_id = req.correl_id.unwrap_or_else(|| {
            let mut c = [0u8; 24];
            c[..8].copy_from_slice(b"FERRYSUB");
            c[16..].copy_from_slice(&id.to_be_bytes());
            CorrelId::from_slice(&c)
        });
        let mut reg = ps.inner.write();
        if let Some(name) = &req.name {
            if reg.by_name.contains_key(name) {
                return Err(MqError::new(
                    Reason::SubAlreadyExists,
                    format!("a subscription named {name:?} exists already"),
                ));
            }
            reg.by_name.insert(name.clone(), id);
        }
        reg.index.insert(&filter, id);
        let sub = Subscription {
            id,
            name: req.name.clone(),
            filter,
            queue,
            correl_id,
            user_data: req.user_data.clone(),
        };
        reg.subs.insert(id, Arc::new(sub));
        Ok(id)
    }

    /// Removes a subscription; NO_SUBSCRIPTION when there is none with this id.
    pub fn unsubscribe(&self, id: SubId) -> MqResult<()> {
        let mut reg = self.shared.pubsub.inner.write();
        let Some(sub) = reg.subs.remove(&id) else {
            return Err(MqError::new(
                Reason::NoSubscription,
                format!("there is no subscription {id}"),
            ));
        };
        reg.index.remove(&sub.filter, id);
        if let Some(n) = &sub.name {
            reg.by_name.remove(n);
        }
        Ok(())
    }

    /// The subscription named `name`, if any.
    pub fn subscription_named(&self, name: &str) -> Option<Arc<Subscription>> {
        let reg = self.shared.pubsub.inner.read();
        reg.by_name
            .get(name)
            .and_then(|id| reg.subs.get(id))
            .cloned()
    }

    /// How many subscriptions there are.
    pub fn subscription_count(&self) -> usize {
        self.shared.pubsub.inner.read().subs.len()
    }

    /// The subscriptions a publication on `topic` reaches, in the order they were made.
    pub(crate) fn subscribers(&self, topic: &str) -> Vec<Arc<Subscription>> {
        let reg = self.shared.pubsub.inner.read();
        let mut ids = Vec::new();
        reg.index.matches(topic, &mut ids);
        ids.iter()
            .filter_map(|id| reg.subs.get(id).cloned())
            .collect()
    }
}
