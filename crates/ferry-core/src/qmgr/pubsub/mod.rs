//! Publish/subscribe: subscriptions, the topic index that finds them (`index`), and the
//! delivery of a publication to each matching subscription's queue (`Session::publish`).
//!
//! A subscription is a filter (a topic string in one of the two wildcard schemes) and a
//! destination queue. A publication on a topic is copied to the queue of every subscription
//! whose filter matches it: each copy carries the subscription's correlation id, and the
//! properties `MQTopicString` (the publication's topic) and, when the subscription has user
//! data, `MQSubUserData`, as MQ sets them.
//!
//! Delivery follows the topic's attributes, resolved from the topic objects above it
//! (`topics`): PMSGDLV / NPMSGDLV say which refusals fail the publication (ALL, ALLDUR,
//! ALLAVAIL), USEDLQ whether a refused copy goes to the dead-letter queue, WILDCARD(BLOCK) which
//! wildcard subscriptions see it; a subscription's selector and MQSO_PUBLICATIONS_ON_REQUEST
//! narrow it further (`Session::publish`). Retained publications are kept in `retained`; the
//! live tree's counters and publishers in `status`.
//!
//! Durable subscriptions (DEFINE SUB, MQSUB with MQSO_DURABLE) are logged one record each (an
//! OBJECT record of kind SUB named `SUB.<id>`, its definition as TOML) and in every
//! checkpoint, so they survive restarts and crashes; the queue manager's own id numbering
//! resumes above the highest restored. Not yet: MQSO_ALTER, the `$SYS/MQ/INFO/QMGR` monitoring
//! topics.

pub mod index;
pub mod retained;
pub mod status;
pub mod topics;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::RwLock;

use ferry_model::message::CorrelId;
use ferry_model::name::ObjectName;
use ferry_model::objects::ObjectKind;
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::selector::Selector;
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
    /// Whether the queue manager made the queue (deleted with the subscription).
    pub managed: bool,
    /// Who made it.
    pub owner: String,
    /// Whether any user may resume it.
    pub any_user: bool,
    /// The correlation id every delivered copy carries (MQSO_SET_CORREL_ID); otherwise the
    /// queue manager chooses one for the subscription.
    pub correl_id: Option<CorrelId>,
    /// MQSubUserData of every copy.
    pub user_data: Option<String>,
    /// MQSO_PUBLICATIONS_ON_REQUEST: publications come only on MQSUBRQ.
    pub on_request: bool,
    /// The selection string (SELECTOR): publications must satisfy it.
    pub selector: Option<String>,
    /// Its level (SUBLEVEL, MQSD SubLevel, 0–9): a publication goes to the matching
    /// subscriptions of the highest level not above its PubLevel.
    pub level: u8,
}

impl SubRequest {
    /// An unnamed, topic-based subscription of `topic` delivering to `queue`, with the queue
    /// manager's correl id, no user data, made by an administrator (any user may resume it);
    /// change what differs with struct update syntax.
    pub fn to_queue(topic: &str, queue: ObjectName) -> SubRequest {
        SubRequest {
            topic: topic.to_owned(),
            wildcards: Wildcards::Topic,
            queue,
            name: None,
            correl_id: None,
            user_data: None,
            managed: false,
            owner: String::new(),
            any_user: true,
            on_request: false,
            selector: None,
            level: ferry_model::options::DEFAULT_SUB_LEVEL,
        }
    }
}

/// A subscription.
#[derive(Debug)]
pub struct Subscription {
    /// Its id.
    pub id: SubId,
    /// Whether it is durable (logged; it outlives connections and restarts).
    pub durable: bool,
    /// Whether the queue manager made its queue (MQSO_MANAGED): removing it deletes the queue.
    pub managed: bool,
    /// The user who made it, and whether any user may resume it (MQSO_ANY_USERID).
    pub owner: String,
    /// MQSO_ANY_USERID.
    pub any_user: bool,
    /// The connection whose handle holds it now (0: none).
    pub attached: AtomicU64,
    /// Publications delivered to its queue since it was made (or restored).
    pub delivered: AtomicU64,
    /// Copies its queue refused (full or unusable), whether or not they then went to the
    /// dead-letter queue.
    pub failed: AtomicU64,
    /// When the last one was delivered, Unix ms (0: none yet).
    pub last_delivery_ms: AtomicU64,
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
    /// MQSO_PUBLICATIONS_ON_REQUEST: publications come only on MQSUBRQ.
    pub on_request: bool,
    /// The selector publications must satisfy (SELECTOR).
    pub selector: Option<Selector>,
    /// Its queue is a temporary dynamic one (a managed non-durable subscription's): it cannot
    /// hold persistent messages, and lives no longer than the connection, so persistent
    /// publications reach it as non-persistent copies.
    pub temporary_queue: bool,
    /// Its level (SUBLEVEL, 0–9; fixed for its life).
    pub level: u8,
}

/// Every subscription of a queue manager, indexed by filter.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    inner: RwLock<Registry>,
    next_id: AtomicU64,
    /// Changes with every change to the registry (made under its write lock): a publisher
    /// handle's cached subscriber list is good while this is what it was when it was made.
    generation: AtomicU64,
    /// Publications made, copies delivered, copies refused: since start (publications through
    /// a publisher handle are counted in the handle until it closes: see `status.rs`).
    pub(crate) counters: PubSubCounters,
}

/// What MQSO_ALTER (or ALTER SUB) changes in a subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubAlteration {
    /// MQSubUserData from now on.
    pub user_data: Option<String>,
    /// A new correlation id, if given.
    pub correl_id: Option<CorrelId>,
    /// MQSO_ANY_USERID.
    pub any_user: bool,
    /// MQSO_PUBLICATIONS_ON_REQUEST.
    pub on_request: bool,
    /// A new destination queue (not for a managed subscription).
    pub queue: Option<ObjectName>,
}

/// The queue manager's publish/subscribe counters since start.
#[derive(Debug, Default)]
pub struct PubSubCounters {
    /// Publications made.
    pub publications: AtomicU64,
    /// Copies delivered to subscriptions' queues.
    pub deliveries: AtomicU64,
    /// Copies a subscription's queue refused.
    pub failed: AtomicU64,
}

#[derive(Debug, Default)]
struct Registry {
    index: TopicIndex<SubId>,
    subs: HashMap<SubId, Arc<Subscription>>,
    /// Ordered, so that the subscriptions of one owner (names sharing a prefix, as an MQTT
    /// client's `MQTT:<id>:...`) are found without visiting the others.
    by_name: std::collections::BTreeMap<String, SubId>,
}

/// A durable subscription as its log record and checkpoints hold it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct SubRecord {
    id: SubId,
    name: String,
    topic: String,
    wildcards: Wildcards,
    queue: String,
    correl_id: String,
    user_data: Option<String>,
    #[serde(default)]
    managed: bool,
    #[serde(default)]
    owner: String,
    #[serde(default)]
    any_user: bool,
    #[serde(default)]
    on_request: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    selector: Option<String>,
    /// Absent (records before levels, and every level-1 one): 1.
    #[serde(default = "default_level", skip_serializing_if = "is_default_level")]
    level: u8,
}

fn default_level() -> u8 {
    ferry_model::options::DEFAULT_SUB_LEVEL
}

fn is_default_level(level: &u8) -> bool {
    *level == ferry_model::options::DEFAULT_SUB_LEVEL
}

/// The name a durable subscription's records carry.
fn record_name(id: SubId) -> ObjectName {
    ObjectName::new(&format!("SUB.{id:020}")).expect("a valid name")
}

impl SubRecord {
    fn of(s: &Subscription) -> SubRecord {
        SubRecord {
            id: s.id,
            name: s.name.clone().unwrap_or_default(),
            topic: s.filter.text().to_owned(),
            wildcards: s.filter.schema(),
            queue: s.queue.name.to_string(),
            correl_id: s.correl_id.to_hex(),
            user_data: s.user_data.clone(),
            managed: s.managed,
            owner: s.owner.clone(),
            any_user: s.any_user,
            on_request: s.on_request,
            selector: s.selector.as_ref().map(|x| x.text().to_owned()),
            level: s.level,
        }
    }
}

impl QueueManager {
    /// Creates a (non-durable) subscription delivering to a local queue. SUB_ALREADY_EXISTS
    /// when its name is taken; TOPIC_STRING_ERROR for a bad filter; UNKNOWN_OBJECT_NAME for a
    /// missing queue.
    pub fn subscribe(&self, req: &SubRequest) -> MqResult<SubId> {
        topics::check_allowed(&req.topic, &self.resolve_topic(&req.topic), false)?;
        self.subscribe_as(req, None, false)
    }

    /// DEFINE SUB (and MQSUB with MQSO_DURABLE): a durable subscription, which needs a name;
    /// logged before it is answered.
    pub fn define_sub(&self, req: &SubRequest) -> MqResult<SubId> {
        if req.name.as_deref().is_none_or(str::is_empty) {
            return Err(MqError::new(
                Reason::SubNameError,
                "a durable subscription needs a name",
            ));
        }
        topics::check_allowed(&req.topic, &self.resolve_topic(&req.topic), true)?;
        let _gate = self.durability().map(|d| d.gate());
        let id = self.subscribe_as(req, None, true)?;
        let sub = self.shared.pubsub.inner.read().subs.get(&id).cloned();
        let logged = sub.map_or(Ok(()), |s| {
            self.log_object(ObjectKind::Sub, &record_name(id), Some(&SubRecord::of(&s)))
        });
        if let Err(e) = logged {
            let _ = self.unsubscribe(id);
            return Err(e);
        }
        Ok(id)
    }

    /// DELETE SUB: removes a named subscription (and its record, when durable; and its
    /// queue, when the queue manager made it and nothing has it open).
    /// NO_SUBSCRIPTION when there is none with this name.
    pub fn delete_sub(&self, name: &str) -> MqResult<()> {
        let sub = self.subscription_named(name).ok_or_else(|| {
            MqError::new(
                Reason::NoSubscription,
                format!("there is no subscription named {name:?}"),
            )
        })?;
        self.remove_subscription(&sub)
    }

    /// Ends a subscription: its record (durable), its registration, and a managed queue
    /// nothing has open.
    pub(crate) fn remove_subscription(&self, sub: &Subscription) -> MqResult<()> {
        {
            let _gate = self.durability().map(|d| d.gate());
            if sub.durable {
                self.log_object::<SubRecord>(ObjectKind::Sub, &record_name(sub.id), None)?;
            }
            self.unsubscribe(sub.id)?;
        }
        if sub.managed {
            let st = sub.queue.lock();
            let unused = st.open_input + st.open_output == 0;
            drop(st);
            if unused {
                self.drop_dynamic(&sub.queue);
            }
        }
        Ok(())
    }

    /// The subscription with id `id`, if any.
    pub fn subscription(&self, id: SubId) -> Option<Arc<Subscription>> {
        self.shared.pubsub.inner.read().subs.get(&id).cloned()
    }

    /// Every subscription, by name (unnamed ones last, by id).
    pub fn subscriptions(&self) -> Vec<Arc<Subscription>> {
        let reg = self.shared.pubsub.inner.read();
        let mut all: Vec<_> = reg.subs.values().cloned().collect();
        all.sort_by(|a, b| {
            (a.name.is_none(), &a.name, a.id).cmp(&(b.name.is_none(), &b.name, b.id))
        });
        all
    }

    /// Restores a durable subscription from the log or a checkpoint (no logging). One whose
    /// queue is gone is not restored, and the error log says so.
    pub(crate) fn restore_sub(&self, toml_text: &str) -> MqResult<()> {
        let r: SubRecord = toml::from_str(toml_text).map_err(|e| {
            MqError::new(
                Reason::QMgrDataError,
                format!("the recovery log holds a subscription this build cannot read: {e}"),
            )
        })?;
        let req = SubRequest {
            topic: r.topic.clone(),
            wildcards: r.wildcards,
            queue: ferry_model::name::object_name(&r.queue)?,
            name: Some(r.name.clone()),
            correl_id: CorrelId::from_hex(&r.correl_id),
            user_data: r.user_data.clone(),
            managed: r.managed,
            owner: r.owner.clone(),
            any_user: r.any_user,
            on_request: r.on_request,
            selector: r.selector.clone(),
            level: r.level,
        };
        if let Err(e) = self.subscribe_as(&req, Some(r.id), true) {
            tracing::error!(subscription = %r.name, queue = %r.queue, reason = %e.detail,
                "a durable subscription could not be restored");
        }
        Ok(())
    }

    /// Every durable subscription as (kind, record name, TOML), for checkpoints.
    pub(crate) fn subs_for_checkpoint(&self) -> MqResult<Vec<(ObjectKind, ObjectName, String)>> {
        let reg = self.shared.pubsub.inner.read();
        let mut out = Vec::new();
        for s in reg.subs.values().filter(|s| s.durable) {
            let text = toml::to_string(&SubRecord::of(s)).map_err(|e| {
                MqError::new(
                    Reason::UnexpectedError,
                    format!("cannot encode subscription {}: {e}", s.id),
                )
            })?;
            out.push((ObjectKind::Sub, record_name(s.id), text));
        }
        Ok(out)
    }

    /// A subscription with id `id` (restored) or a new one.
    fn subscribe_as(&self, req: &SubRequest, id: Option<SubId>, durable: bool) -> MqResult<SubId> {
        check_level(req)?;
        let filter = Filter::parse(&req.topic, req.wildcards)?;
        let selector = match &req.selector {
            Some(text) => Selector::parse_optional(text)?,
            None => None,
        };
        let queue = self.local_queue(&req.queue)?;
        let temporary_queue = queue.lock().attrs.definition_type
            == ferry_model::objects::DefinitionType::TemporaryDynamic;
        let ps = &self.shared.pubsub;
        let id = match id {
            Some(id) => {
                ps.next_id.fetch_max(id, Ordering::Relaxed);
                id
            }
            None => ps.next_id.fetch_add(1, Ordering::Relaxed) + 1,
        };
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
            durable,
            managed: req.managed,
            owner: req.owner.clone(),
            any_user: req.any_user,
            attached: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            last_delivery_ms: AtomicU64::new(0),
            name: req.name.clone(),
            filter,
            queue,
            correl_id,
            user_data: req.user_data.clone(),
            on_request: req.on_request,
            selector,
            temporary_queue,
            level: req.level,
        };
        reg.subs.insert(id, Arc::new(sub));
        ps.generation.fetch_add(1, Ordering::Release);
        Ok(id)
    }

    /// Alters a subscription (MQSO_ALTER, ALTER SUB): what `alt` says changes, the rest — its
    /// filter, durability, selector, counters, holder — stays; a durable one's record is logged
    /// again before this returns.
    pub fn alter_subscription(
        &self,
        id: SubId,
        alt: &SubAlteration,
    ) -> MqResult<Arc<Subscription>> {
        let queue = match &alt.queue {
            Some(q) => Some(self.local_queue(q)?),
            None => None,
        };
        let _gate = self.durability().map(|d| d.gate());
        let new = {
            let mut reg = self.shared.pubsub.inner.write();
            let old = reg.subs.get(&id).cloned().ok_or_else(|| {
                MqError::new(
                    Reason::NoSubscription,
                    format!("there is no subscription {id}"),
                )
            })?;
            if queue.is_some() && old.managed {
                return Err(MqError::new(
                    Reason::InvalidDestination,
                    "a managed subscription's queue is the queue manager's: it cannot be given another",
                ));
            }
            let new = Arc::new(rebuilt(&old, alt, queue));
            reg.subs.insert(id, Arc::clone(&new));
            self.shared
                .pubsub
                .generation
                .fetch_add(1, Ordering::Release);
            new
        };
        if new.durable {
            self.log_object(
                ObjectKind::Sub,
                &record_name(id),
                Some(&SubRecord::of(&new)),
            )?;
        }
        Ok(new)
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
        self.shared
            .pubsub
            .generation
            .fetch_add(1, Ordering::Release);
        Ok(())
    }

    /// The subscriptions whose names start with `prefix`, by name: a range of the name index,
    /// whatever the number of subscriptions (an MQTT client's, looked up at each CONNECT).
    pub fn subscriptions_named_from(&self, prefix: &str) -> Vec<Arc<Subscription>> {
        let reg = self.shared.pubsub.inner.read();
        reg.by_name
            .range::<str, _>((
                std::ops::Bound::Included(prefix),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(n, _)| n.starts_with(prefix))
            .filter_map(|(_, id)| reg.subs.get(id).cloned())
            .collect()
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

    /// How many subscriptions' filters match `topic`.
    pub fn subscriber_count(&self, topic: &str) -> usize {
        let reg = self.shared.pubsub.inner.read();
        let mut ids = Vec::new();
        reg.index.matches(topic, &mut ids);
        ids.len()
    }

    /// The subscriptions whose filter matches a publisher handle's topic, from the handle's
    /// cache while the registry has not changed since it was made (no lock taken then).
    pub(crate) fn publisher_subscribers(&self, p: &status::Publisher) -> Arc<[Arc<Subscription>]> {
        let generation = self.shared.pubsub.generation.load(Ordering::Acquire);
        let mut cached = p.subscribers.lock();
        if let Some((g, subs)) = &*cached {
            if *g == generation {
                return Arc::clone(subs);
            }
        }
        let subs: Arc<[Arc<Subscription>]> = self.subscribers(&p.topic).into();
        *cached = Some((generation, Arc::clone(&subs)));
        subs
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

/// `old` with what `alt` changes (the counters carried over).
fn rebuilt(old: &Subscription, alt: &SubAlteration, queue: Option<Arc<Queue>>) -> Subscription {
    let load = |a: &AtomicU64| AtomicU64::new(a.load(Ordering::Relaxed));
    let queue = queue.unwrap_or_else(|| Arc::clone(&old.queue));
    let temporary_queue = queue.lock().attrs.definition_type
        == ferry_model::objects::DefinitionType::TemporaryDynamic;
    Subscription {
        id: old.id,
        durable: old.durable,
        managed: old.managed,
        owner: old.owner.clone(),
        any_user: alt.any_user,
        attached: load(&old.attached),
        delivered: load(&old.delivered),
        failed: load(&old.failed),
        last_delivery_ms: load(&old.last_delivery_ms),
        name: old.name.clone(),
        filter: old.filter.clone(),
        queue,
        correl_id: alt.correl_id.unwrap_or(old.correl_id),
        user_data: alt.user_data.clone(),
        on_request: alt.on_request,
        selector: old.selector.clone(),
        temporary_queue,
        level: old.level,
    }
}

/// A subscription's level is 0 to 9, and one that asks for publications on request only
/// takes them at level 0 or 1 (retained publications are sent at level 1).
fn check_level(req: &SubRequest) -> MqResult<()> {
    if req.level > ferry_model::options::MAX_LEVEL {
        return Err(MqError::new(
            Reason::SdError,
            format!("SubLevel is 0 to 9, not {}", req.level),
        ));
    }
    if req.on_request && req.level > 1 {
        return Err(MqError::new(
            Reason::OptionsError,
            format!(
                "a subscription at level {} cannot ask for publications on request (MQSO_PUBLICATIONS_ON_REQUEST): requested publications are sent at level 1",
                req.level
            ),
        ));
    }
    Ok(())
}

/// Of `subs` (the subscriptions whose filters match a publication), the level it goes to:
/// the highest of theirs not above `pub_level` (`None`: it goes to none).
pub(crate) fn delivery_level(subs: &[Arc<Subscription>], pub_level: u8) -> Option<u8> {
    subs.iter()
        .map(|s| s.level)
        .filter(|l| *l <= pub_level)
        .max()
}
