//! The administrative topic objects (DEFINE/ALTER/DELETE TOPIC) and how a topic's attributes
//! resolve from them (see `ferry_model::topicobj`).
//!
//! Owns: the catalogue of topic objects by name and by TOPICSTR (their own namespace, as in
//! MQ), with `SYSTEM.BASE.TOPIC` (TOPICSTR '') always present; their persistence (one OBJECT
//! record of kind TOPIC each, and every checkpoint); and `resolve_topic`, which walks a topic
//! string's levels up to the root and merges what each topic object on the way sets.
//!
//! Invariants: `by_string` and `by_name` name the same objects; the base is always defined;
//! TOPICSTR is unique among topic objects and never changes. While the base is the only object
//! (the usual case) resolution is one lock and a copy, with no walk.

use std::collections::{BTreeMap, HashMap};

use parking_lot::RwLock;

use ferry_model::name::ObjectName;
use ferry_model::objects::ObjectKind;
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::system::BASE_TOPIC;
use ferry_model::topicobj::{resolve, ResolvedTopic, TopicAttrs};

use crate::qmgr::QueueManager;

/// The topic objects of a queue manager.
#[derive(Debug)]
pub(crate) struct TopicObjects {
    inner: RwLock<Catalog>,
    /// Changes with every definition or deletion (a publisher's cached resolution is good
    /// while it holds).
    generation: std::sync::atomic::AtomicU64,
}

#[derive(Debug)]
struct Catalog {
    by_name: BTreeMap<ObjectName, TopicAttrs>,
    by_string: HashMap<String, ObjectName>,
    /// What every topic resolves to while the base is the only object.
    base_only: Option<ResolvedTopic>,
}

fn base_name() -> ObjectName {
    ObjectName::new(BASE_TOPIC).expect("a valid name")
}

impl Default for TopicObjects {
    fn default() -> Self {
        let mut c = Catalog {
            by_name: BTreeMap::new(),
            by_string: HashMap::new(),
            base_only: None,
        };
        c.insert(base_name(), TopicAttrs::base());
        TopicObjects {
            inner: RwLock::new(c),
            generation: std::sync::atomic::AtomicU64::new(1),
        }
    }
}

impl TopicObjects {
    fn bump(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    }
}

impl Catalog {
    fn insert(&mut self, name: ObjectName, attrs: TopicAttrs) {
        if let Some(old) = self.by_name.get(&name) {
            self.by_string.remove(&old.topic_string);
        }
        self.by_string.insert(attrs.topic_string.clone(), name);
        self.by_name.insert(name, attrs);
        self.refresh();
    }

    fn remove(&mut self, name: &ObjectName) -> Option<TopicAttrs> {
        let old = self.by_name.remove(name)?;
        self.by_string.remove(&old.topic_string);
        self.refresh();
        Some(old)
    }

    fn refresh(&mut self) {
        debug_assert_eq!(self.by_name.len(), self.by_string.len());
        self.base_only = (self.by_name.len() == 1).then(|| self.resolve_walk(""));
    }

    /// The topic objects at or above `topic`, closest first (the base last).
    fn chain<'a>(&'a self, topic: &str) -> impl Iterator<Item = (ObjectName, &'a TopicAttrs)> {
        let mut prefixes = Vec::new();
        let mut t = topic;
        loop {
            if let Some(n) = self.by_string.get(t) {
                prefixes.push(*n);
            }
            match t.rfind('/') {
                Some(i) => t = &t[..i],
                None if !t.is_empty() => t = "",
                None => break,
            }
        }
        prefixes
            .into_iter()
            .filter_map(|n| self.by_name.get(&n).map(|a| (n, a)))
    }

    fn resolve_walk(&self, topic: &str) -> ResolvedTopic {
        resolve(self.chain(topic))
    }
}

impl QueueManager {
    /// DEFINE TOPIC (and with `replace`, ALTER): TOPICSTR must be unique among topic objects
    /// and cannot change; SYSTEM.BASE.TOPIC keeps TOPICSTR '' and every attribute set.
    pub fn define_topic(&self, name: &str, attrs: TopicAttrs, replace: bool) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        let is_base = n.as_str() == BASE_TOPIC;
        attrs.validate(is_base)?;
        if is_base {
            attrs.validate_base()?;
        }
        let _gate = self.durability().map(|d| d.gate());
        {
            let mut c = self.shared.topics.inner.write();
            check_define(&c, &n, &attrs, replace, is_base)?;
            c.insert(n, attrs.clone());
            self.shared.topics.bump();
        }
        self.log_object(ObjectKind::Topic, &n, Some(&attrs))
    }

    /// A topic object's definition.
    pub fn topic_object(&self, name: &str) -> MqResult<TopicAttrs> {
        let n = ferry_model::name::object_name(name)?;
        self.shared
            .topics
            .inner
            .read()
            .by_name
            .get(&n)
            .cloned()
            .ok_or_else(|| {
                MqError::new(
                    Reason::UnknownObjectName,
                    format!("topic object {n} is not defined on this queue manager"),
                )
            })
    }

    /// Every topic object, by name.
    pub fn topic_objects(&self) -> Vec<(ObjectName, TopicAttrs)> {
        let c = self.shared.topics.inner.read();
        c.by_name.iter().map(|(n, a)| (*n, a.clone())).collect()
    }

    /// DELETE TOPIC (not SYSTEM.BASE.TOPIC).
    pub fn delete_topic(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if n.as_str() == BASE_TOPIC {
            return Err(MqError::new(
                Reason::ObjectInUse,
                format!("{BASE_TOPIC} is the root of the topic tree and cannot be deleted"),
            ));
        }
        let _gate = self.durability().map(|d| d.gate());
        let removed = self.shared.topics.inner.write().remove(&n);
        self.shared.topics.bump();
        if removed.is_none() {
            return Err(MqError::new(
                Reason::UnknownObjectName,
                format!("topic object {n} is not defined on this queue manager"),
            ));
        }
        self.log_object::<TopicAttrs>(ObjectKind::Topic, &n, None)
    }

    /// A topic's attributes through a cache of them (a publisher handle's): resolved again
    /// only when a topic object has changed since.
    pub(crate) fn resolve_topic_cached(
        &self,
        topic: &str,
        cache: &parking_lot::Mutex<Option<(u64, ResolvedTopic)>>,
    ) -> ResolvedTopic {
        let generation = self
            .shared
            .topics
            .generation
            .load(std::sync::atomic::Ordering::Acquire);
        let mut c = cache.lock();
        match &*c {
            Some((g, r)) if *g == generation => r.clone(),
            _ => {
                let r = self.resolve_topic(topic);
                *c = Some((generation, r.clone()));
                r
            }
        }
    }

    /// A topic's attributes, resolved from the topic objects at or above it.
    pub fn resolve_topic(&self, topic: &str) -> ResolvedTopic {
        let c = self.shared.topics.inner.read();
        match &c.base_only {
            Some(r) => r.clone(),
            None => c.resolve_walk(topic),
        }
    }

    /// The topic objects at or above `topic`, closest first (authority is checked on them).
    pub fn topic_chain(&self, topic: &str) -> Vec<ObjectName> {
        let c = self.shared.topics.inner.read();
        c.chain(topic).map(|(n, _)| n).collect()
    }

    /// Restores a topic object from the log or a checkpoint (no logging).
    pub(crate) fn restore_topic(&self, name: ObjectName, attrs: TopicAttrs) {
        let mut c = self.shared.topics.inner.write();
        if let Some(other) = c.by_string.get(&attrs.topic_string).copied() {
            if other != name {
                c.remove(&other);
            }
        }
        c.insert(name, attrs);
        self.shared.topics.bump();
    }

    /// Every topic object as (kind, name, TOML), for checkpoints.
    pub(crate) fn topics_for_checkpoint(&self) -> MqResult<Vec<(ObjectKind, ObjectName, String)>> {
        self.topic_objects()
            .into_iter()
            .map(|(n, a)| {
                let t = toml::to_string(&a).map_err(|e| {
                    MqError::new(
                        Reason::UnexpectedError,
                        format!("cannot encode topic object {n}: {e}"),
                    )
                })?;
                Ok((ObjectKind::Topic, n, t))
            })
            .collect()
    }
}

/// DEFINE's checks against the catalogue: REPLACE to redefine, TOPICSTR unique and unchanged.
fn check_define(
    c: &Catalog,
    n: &ObjectName,
    attrs: &TopicAttrs,
    replace: bool,
    is_base: bool,
) -> MqResult<()> {
    if let Some(old) = c.by_name.get(n) {
        if !replace {
            return Err(MqError::new(
                Reason::ObjectAlreadyExists,
                format!("topic object {n} already exists"),
            ));
        }
        if old.topic_string != attrs.topic_string {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "TOPICSTR of topic object {n} is {:?} and cannot change; delete and define it again",
                    old.topic_string
                ),
            ));
        }
    }
    if is_base && !attrs.topic_string.is_empty() {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!("TOPICSTR of {BASE_TOPIC} is '' (the root of the tree)"),
        ));
    }
    match c.by_string.get(&attrs.topic_string) {
        Some(other) if other != n => Err(MqError::new(
            Reason::ObjectAlreadyExists,
            format!(
                "topic object {other} already has TOPICSTR({:?}); each topic string has at most one topic object",
                attrs.topic_string
            ),
        )),
        _ => Ok(()),
    }
}

/// SUB_INHIBITED when the topic's SUB is DISABLED; DURABILITY_NOT_ALLOWED for a durable
/// subscription where DURSUB is NO.
pub fn check_allowed(topic: &str, rt: &ResolvedTopic, durable: bool) -> MqResult<()> {
    if !rt.subscribe {
        return Err(MqError::new(
            Reason::SubInhibited,
            format!(
                "subscribing to {topic:?} is inhibited (SUB(DISABLED) on topic object {})",
                rt.admin
            ),
        ));
    }
    if durable && !rt.durable_subs {
        return Err(MqError::new(
            Reason::DurabilityNotAllowed,
            format!(
                "durable subscriptions to {topic:?} are not allowed (DURSUB(NO) on topic object {}); subscribe without MQSO_DURABLE",
                rt.admin
            ),
        ));
    }
    Ok(())
}
