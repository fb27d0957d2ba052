//! Publishing: a message put to a topic, copied to the queue of every subscription that
//! matches it (see `qmgr/pubsub`).

use super::*;

use ferry_model::topic::check_topic;

/// What a publication did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// Subscriptions it matched.
    pub subscribers: usize,
    /// Copies delivered.
    pub delivered: usize,
    /// Copies a full or unusable queue refused (non-persistent publications only: a
    /// persistent one is delivered to all or fails).
    pub failed: usize,
}

impl Session {
    /// A put through a handle opened on a topic: the publication, and what a put returns.
    pub(super) fn publish_put(
        &mut self,
        topic: &str,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let mut msg = msg;
        let d = &mut msg.descriptor;
        if d.persistence == Persistence::AsQueueDef {
            d.persistence = Persistence::NotPersistent;
        }
        let priority = match d.priority {
            Priority::Value(p) => p.min(MAX_PRIORITY),
            Priority::AsQueueDef => 0,
        };
        d.priority = Priority::Value(priority);
        let outcome = PutOutcome {
            msg_id: MsgId(self.qm.shared.ids.next()),
            correl_id: d.correl_id,
            put_time: self.qm.clock().wall(),
            persistence: d.persistence,
            priority,
            warning: None,
        };
        self.publish(topic, msg, opts)?;
        Ok(outcome)
    }

    /// Publishes `msg` on `topic`. A persistent publication is delivered to every matching
    /// subscription or to none: outside syncpoint, and with no unit of work open, it is
    /// delivered in a unit of work of its own, committed at the end; the first refusal backs it
    /// out and is the call's error. In syncpoint it joins the caller's unit of work (a refusal
    /// is the call's error, and the caller backs out). A non-persistent publication goes to
    /// every queue that takes it. "As queue definition" persistence is not persistent (MQ's
    /// SYSTEM.BASE.TOPIC has DEFPSIST(NO)).
    pub fn publish(&mut self, topic: &str, msg: Message, opts: &PutOptions) -> MqResult<Published> {
        self.check_running(opts.fail_if_quiescing)?;
        let msg = publication(topic, msg)?;
        let persistent = msg.descriptor.persistence == Persistence::Persistent;
        let subs = self.qm.subscribers(topic);
        let own_uow = persistent && !opts.syncpoint && self.uow.is_empty() && subs.len() > 1;
        let put_opts = PutOptions {
            syncpoint: opts.syncpoint || own_uow,
            ..*opts
        };
        let mut out = Published {
            subscribers: subs.len(),
            delivered: 0,
            failed: 0,
        };
        let counters = &self.qm.shared.pubsub.counters;
        counters.publications.fetch_add(1, Ordering::Relaxed);
        let now_ms = self.qm.clock().unix_ms().max(0) as u64;
        for sub in &subs {
            let put = self.put_to(&sub.queue, None, None, copy_for(&msg, sub)?, &put_opts);
            count_delivery(sub, put.is_ok(), now_ms);
            match put {
                Ok(_) => out.delivered += 1,
                Err(_) if !persistent => out.failed += 1,
                Err(e) => {
                    if own_uow {
                        self.backout()?;
                    }
                    return Err(undeliverable(topic, sub, e));
                }
            }
        }
        if own_uow {
            self.commit()?;
        }
        let counters = &self.qm.shared.pubsub.counters;
        counters
            .deliveries
            .fetch_add(out.delivered as u64, Ordering::Relaxed);
        counters
            .failed
            .fetch_add(out.failed as u64, Ordering::Relaxed);
        Ok(out)
    }
}

/// The publication as every copy starts: the topic checked, persistence resolved, and its
/// MQTopicString property.
fn publication(topic: &str, mut msg: Message) -> MqResult<Message> {
    check_topic(topic)?;
    if msg.descriptor.persistence == Persistence::AsQueueDef {
        msg.descriptor.persistence = Persistence::NotPersistent;
    }
    msg.properties
        .set("MQTopicString", PropertyValue::String(topic.to_owned()))?;
    Ok(msg)
}

/// The copy for one subscription: its correlation id and user data.
fn copy_for(msg: &Message, sub: &crate::qmgr::pubsub::Subscription) -> MqResult<Message> {
    let mut copy = msg.clone();
    copy.descriptor.correl_id = sub.correl_id;
    if let Some(u) = &sub.user_data {
        copy.properties
            .set("MQSubUserData", PropertyValue::String(u.clone()))?;
    }
    Ok(copy)
}

/// A persistent publication one subscription's queue refused (so it went to none).
fn undeliverable(topic: &str, sub: &crate::qmgr::pubsub::Subscription, e: MqError) -> MqError {
    MqError {
        detail: format!(
            "the persistent publication on {topic:?} could not be delivered to subscription {} (queue {}), so it was delivered to none: {}",
            sub.name.as_deref().unwrap_or("(unnamed)"),
            sub.queue.name,
            e.detail
        ),
        ..e
    }
}

/// A subscription's delivered count (and when), or its failed count.
fn count_delivery(sub: &crate::qmgr::pubsub::Subscription, delivered: bool, now_ms: u64) {
    if delivered {
        sub.delivered.fetch_add(1, Ordering::Relaxed);
        sub.last_delivery_ms.store(now_ms, Ordering::Relaxed);
    } else {
        sub.failed.fetch_add(1, Ordering::Relaxed);
    }
}
