//! Administrative topic objects (DEFINE TOPIC) and the attributes a topic inherits from them.
//!
//! A topic object names a point in the topic tree (its TOPICSTR) and sets attributes for it and
//! everything below it. Most attributes may be ASPARENT (held here as `None`): a topic's value is
//! then the one set on the closest topic object above it, up to `SYSTEM.BASE.TOPIC` at the root
//! (TOPICSTR ''), whose values are always set. [`resolve`] walks such a chain, closest first.
//!
//! WILDCARD is not inherited: a topic object with WILDCARD(BLOCK) hides its subtree from
//! subscriptions whose first wildcard stands at or above its own last level (`Price/#` does not
//! see `Price/Fruit/Apples` when `Price/Fruit` blocks; `Price/Fruit/#` does).

use serde::{Deserialize, Serialize};

use crate::name::ObjectName;
use crate::reason::{MqError, MqResult, Reason};

/// Which subscribers a publication must reach for the put to succeed (PMSGDLV, NPMSGDLV).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeliveryRule {
    /// Every subscriber, or the put fails and none receives it (ALL).
    All,
    /// Every durable subscriber, or the put fails and none receives it; a non-durable one that
    /// cannot take it is passed over (ALLDUR).
    AllDurable,
    /// Every subscriber that can take it; the others are passed over (ALLAVAIL).
    AllAvailable,
}

impl DeliveryRule {
    /// Whether a copy to a subscription (durable or not) must be delivered for the
    /// publication to be delivered at all.
    pub fn requires(self, durable: bool) -> bool {
        match self {
            DeliveryRule::All => true,
            DeliveryRule::AllDurable => durable,
            DeliveryRule::AllAvailable => false,
        }
    }
}

impl DeliveryRule {
    /// The MQSC word.
    pub fn word(self) -> &'static str {
        match self {
            DeliveryRule::All => "ALL",
            DeliveryRule::AllDurable => "ALLDUR",
            DeliveryRule::AllAvailable => "ALLAVAIL",
        }
    }

    /// The rule an MQSC word names.
    pub fn from_word(w: &str) -> Option<DeliveryRule> {
        match w {
            "ALL" => Some(DeliveryRule::All),
            "ALLDUR" => Some(DeliveryRule::AllDurable),
            "ALLAVAIL" => Some(DeliveryRule::AllAvailable),
            _ => None,
        }
    }
}

/// WILDCARD: whether wildcard subscriptions above a topic object see its subtree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WildcardOperation {
    /// They do (PASSTHRU, the default).
    #[default]
    Passthru,
    /// They do not (BLOCK).
    Block,
}

/// A topic object's definition. `None` is ASPARENT.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicAttrs {
    /// TOPICSTR: where in the tree it stands (unique among topic objects; cannot change).
    pub topic_string: String,
    /// DESCR.
    #[serde(default)]
    pub description: String,
    /// DEFPSIST: whether "as topic definition" publications are persistent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub def_persistent: Option<bool>,
    /// DEFPRTY: the priority of "as topic definition" publications (0-9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub def_priority: Option<u8>,
    /// DURSUB: whether durable subscriptions may be made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub durable_subs: Option<bool>,
    /// PUB: whether publishing is enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publish: Option<bool>,
    /// SUB: whether subscribing is enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// PMSGDLV: the delivery rule of persistent publications.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_delivery: Option<DeliveryRule>,
    /// NPMSGDLV: the delivery rule of non-persistent publications.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonpersistent_delivery: Option<DeliveryRule>,
    /// MDURMDL: the model of managed durable subscriptions' queues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub durable_model: Option<ObjectName>,
    /// MNDURMDL: the model of managed non-durable subscriptions' queues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nondurable_model: Option<ObjectName>,
    /// USEDLQ: whether a publication a subscriber's queue refuses goes to the dead-letter queue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_dlq: Option<bool>,
    /// WILDCARD (not inherited).
    #[serde(default)]
    pub wildcard: WildcardOperation,
}

impl TopicAttrs {
    /// SYSTEM.BASE.TOPIC as a new queue manager has it (MQ's values): every attribute set.
    pub fn base() -> TopicAttrs {
        TopicAttrs {
            topic_string: String::new(),
            description: "Base topic for the topic tree".to_owned(),
            def_persistent: Some(false),
            def_priority: Some(0),
            durable_subs: Some(true),
            publish: Some(true),
            subscribe: Some(true),
            persistent_delivery: Some(DeliveryRule::AllDurable),
            nonpersistent_delivery: Some(DeliveryRule::AllAvailable),
            durable_model: ObjectName::new(crate::system::DURABLE_MODEL_QUEUE),
            nondurable_model: ObjectName::new(crate::system::NDURABLE_MODEL_QUEUE),
            use_dlq: Some(true),
            wildcard: WildcardOperation::Passthru,
        }
    }

    /// Checks the definition: a valid TOPICSTR (blank only for the base), DEFPRTY 0-9, DESCR
    /// up to 64 characters.
    pub fn validate(&self, is_base: bool) -> MqResult<()> {
        if !is_base {
            crate::topic::check_topic(&self.topic_string)?;
        }
        if self
            .def_priority
            .is_some_and(|p| p > crate::message::MAX_PRIORITY)
        {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "DEFPRTY is 0 to 9 or ASPARENT",
            ));
        }
        if self.description.len() > 64 {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "DESCR is {} characters; the limit is 64",
                    self.description.len()
                ),
            ));
        }
        Ok(())
    }

    /// The base topic's attributes must all be set (it has no parent).
    pub fn validate_base(&self) -> MqResult<()> {
        let unset = [
            ("DEFPSIST", self.def_persistent.is_none()),
            ("DEFPRTY", self.def_priority.is_none()),
            ("DURSUB", self.durable_subs.is_none()),
            ("PUB", self.publish.is_none()),
            ("SUB", self.subscribe.is_none()),
            ("PMSGDLV", self.persistent_delivery.is_none()),
            ("NPMSGDLV", self.nonpersistent_delivery.is_none()),
            ("USEDLQ", self.use_dlq.is_none()),
        ];
        match unset.iter().find(|(_, u)| *u) {
            Some((k, _)) => Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "{k} of {} cannot be ASPARENT: it has no parent",
                    crate::system::BASE_TOPIC
                ),
            )),
            None => Ok(()),
        }
    }
}

/// A topic's attributes as they apply to it, resolved up the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedTopic {
    /// The closest topic object at or above the topic (authority is checked from it up).
    pub admin: ObjectName,
    /// DEFPSIST.
    pub def_persistent: bool,
    /// DEFPRTY.
    pub def_priority: u8,
    /// DURSUB.
    pub durable_subs: bool,
    /// PUB.
    pub publish: bool,
    /// SUB.
    pub subscribe: bool,
    /// PMSGDLV.
    pub persistent_delivery: DeliveryRule,
    /// NPMSGDLV.
    pub nonpersistent_delivery: DeliveryRule,
    /// MDURMDL.
    pub durable_model: ObjectName,
    /// MNDURMDL.
    pub nondurable_model: ObjectName,
    /// USEDLQ.
    pub use_dlq: bool,
    /// The number of levels of the deepest WILDCARD(BLOCK) object at or above the topic.
    pub blocked_above: Option<usize>,
}

impl ResolvedTopic {
    /// Whether a subscription with `filter` sees publications on this topic past any
    /// WILDCARD(BLOCK) object above it.
    pub fn admits(&self, filter: &crate::topic::Filter) -> bool {
        match (self.blocked_above, filter.first_wildcard_level()) {
            (Some(depth), Some(level)) => level >= depth,
            _ => true,
        }
    }
}

/// The number of levels of a topic string ('' has none).
pub fn level_count(topic: &str) -> usize {
    if topic.is_empty() {
        0
    } else {
        topic.split('/').count()
    }
}

/// Resolves a topic's attributes from the topic objects at or above it, closest first; the
/// last must be the base (all set). Values the chain leaves unset take the base's defaults.
pub fn resolve<'a>(chain: impl IntoIterator<Item = (ObjectName, &'a TopicAttrs)>) -> ResolvedTopic {
    let mut acc = TopicAttrs::default();
    let mut admin = None;
    let mut blocked_above = None;
    for (name, a) in chain {
        admin.get_or_insert(name);
        if blocked_above.is_none() && a.wildcard == WildcardOperation::Block {
            blocked_above = Some(level_count(&a.topic_string));
        }
        fill(&mut acc.def_persistent, a.def_persistent);
        fill(&mut acc.def_priority, a.def_priority);
        fill(&mut acc.durable_subs, a.durable_subs);
        fill(&mut acc.publish, a.publish);
        fill(&mut acc.subscribe, a.subscribe);
        fill(&mut acc.persistent_delivery, a.persistent_delivery);
        fill(&mut acc.nonpersistent_delivery, a.nonpersistent_delivery);
        fill(&mut acc.durable_model, a.durable_model);
        fill(&mut acc.nondurable_model, a.nondurable_model);
        fill(&mut acc.use_dlq, a.use_dlq);
    }
    // What the chain leaves unset takes the base's values as a new queue manager has them.
    let name = |n: &str| ObjectName::new(n).unwrap_or_default();
    ResolvedTopic {
        admin: admin.unwrap_or_else(|| name(crate::system::BASE_TOPIC)),
        def_persistent: acc.def_persistent.unwrap_or(false),
        def_priority: acc.def_priority.unwrap_or(0),
        durable_subs: acc.durable_subs.unwrap_or(true),
        publish: acc.publish.unwrap_or(true),
        subscribe: acc.subscribe.unwrap_or(true),
        persistent_delivery: acc.persistent_delivery.unwrap_or(DeliveryRule::AllDurable),
        nonpersistent_delivery: acc
            .nonpersistent_delivery
            .unwrap_or(DeliveryRule::AllAvailable),
        durable_model: acc
            .durable_model
            .unwrap_or_else(|| name(crate::system::DURABLE_MODEL_QUEUE)),
        nondurable_model: acc
            .nondurable_model
            .unwrap_or_else(|| name(crate::system::NDURABLE_MODEL_QUEUE)),
        use_dlq: acc.use_dlq.unwrap_or(true),
        blocked_above,
    }
}

fn fill<T>(slot: &mut Option<T>, v: Option<T>) {
    if slot.is_none() {
        *slot = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topic::{Filter, Wildcards};

    fn name(s: &str) -> ObjectName {
        ObjectName::new(s).unwrap()
    }

    #[test]
    fn the_closest_set_value_wins_and_asparent_falls_through() {
        let base = TopicAttrs::base();
        let sports = TopicAttrs {
            topic_string: "Sports".into(),
            def_persistent: Some(true),
            ..TopicAttrs::default()
        };
        let golf = TopicAttrs {
            topic_string: "Sports/Golf".into(),
            def_priority: Some(7),
            publish: Some(false),
            ..TopicAttrs::default()
        };
        let r = resolve([
            (name("GOLF"), &golf),
            (name("SPORTS"), &sports),
            (name("SYSTEM.BASE.TOPIC"), &base),
        ]);
        assert_eq!(r.admin, name("GOLF"));
        assert!(r.def_persistent, "from SPORTS");
        assert_eq!(r.def_priority, 7, "from GOLF");
        assert!(!r.publish);
        assert!(r.subscribe, "from the base");
        assert_eq!(r.persistent_delivery, DeliveryRule::AllDurable);
        assert_eq!(r.nondurable_model.as_str(), "SYSTEM.NDURABLE.MODEL.QUEUE");
        assert_eq!(r.blocked_above, None);
    }

    #[test]
    fn a_blocking_object_hides_its_subtree_from_wildcards_above_it() {
        let base = TopicAttrs::base();
        let fruit = TopicAttrs {
            topic_string: "Price/Fruit".into(),
            wildcard: WildcardOperation::Block,
            ..TopicAttrs::default()
        };
        let r = resolve([(name("FRUIT"), &fruit), (name("SYSTEM.BASE.TOPIC"), &base)]);
        assert_eq!(r.blocked_above, Some(2));
        let f = |t: &str, w| Filter::parse(t, w).unwrap();
        assert!(!r.admits(&f("Price/#", Wildcards::Topic)));
        assert!(!r.admits(&f("#", Wildcards::Topic)));
        assert!(!r.admits(&f("Price/+/Apples", Wildcards::Topic)));
        assert!(r.admits(&f("Price/Fruit/#", Wildcards::Topic)));
        assert!(r.admits(&f("Price/Fruit/Apples", Wildcards::Topic)));
        assert!(!r.admits(&f("Price/*", Wildcards::Char)));
        assert!(!r.admits(&f("Price/Fr*", Wildcards::Char)));
        assert!(r.admits(&f("Price/Fruit/*", Wildcards::Char)));
    }

    #[test]
    fn the_base_must_set_everything() {
        assert!(TopicAttrs::base().validate_base().is_ok());
        let mut b = TopicAttrs::base();
        b.use_dlq = None;
        assert_eq!(
            b.validate_base().unwrap_err().reason,
            Reason::AttributeValueError
        );
        let bad = TopicAttrs {
            topic_string: String::new(),
            ..TopicAttrs::default()
        };
        assert_eq!(
            bad.validate(false).unwrap_err().reason,
            Reason::TopicStringError
        );
    }
}
