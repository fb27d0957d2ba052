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
        check_topic(topic)?;
        let mut msg = msg;
        if msg.descriptor.persistence == Persistence::AsQueueDef {
            msg.descriptor.persistence = Persistence::NotPersistent;
        }
        msg.properties
            .set("MQTopicString", PropertyValue::String(topic.to_owned()))?;
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
        for sub in &subs {
            let mut copy = msg.clone();
            copy.descriptor.correl_id = sub.correl_id;
            if let Some(u) = &sub.user_data {
                copy.properties
                    .set("MQSubUserData", PropertyValue::String(u.clone()))?;
            }
            match self.put_to(&sub.queue, None, None, copy, &put_opts) {
                Ok(_) => out.delivered += 1,
                Err(_) if !persistent => out.failed += 1,
                Err(e) => {
                    if own_uow {
                        self.backout()?;
                    }
                    return Err(MqError {
                        detail: format!(
                            "the persistent publication on {topic:?} could not be delivered to subscription {} (queue {}), so it was delivered to none: {}",
                            sub.name.as_deref().unwrap_or("(unnamed)"),
                            sub.queue.name,
                            e.detail
                        ),
                        ..e
                    });
                }
            }
        }
        if own_uow {
            self.commit()?;
        }
        Ok(out)
    }
}
