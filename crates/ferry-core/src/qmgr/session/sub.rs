//! MQSUB: subscribing through a handle. A subscription delivers to a queue — one the queue
//! manager makes (managed: a temporary dynamic queue from SYSTEM.NDURABLE.MODEL.QUEUE, or for a
//! durable subscription a permanent one from SYSTEM.DURABLE.MODEL.QUEUE) or one the caller has
//! open (provided). The subscription handle it returns is closed with MQCLOSE: a non-durable
//! subscription ends then (and when the connection ends, however it ends); a durable one is
//! only let go, to be resumed later by name, unless the close says MQCO_REMOVE_SUB.
//!
//! A durable subscription is held by one handle at a time (2429 while another holds it) and
//! resumed only by the user who made it unless it was made with MQSO_ANY_USERID (2434).

use super::*;

use crate::qmgr::apistats::ApiCall;

use crate::qmgr::pubsub::{SubId, SubRequest, Subscription};
use ferry_model::objects::QueueDefinition;
use ferry_model::options::{SubAction, SubDescriptor};
use ferry_model::topic::{check_topic, Wildcards};
use ferry_model::topicobj::ResolvedTopic;

/// A subscription handle's state.
#[derive(Debug)]
pub(super) struct SubHandle {
    id: SubId,
    durable: bool,
}

impl Session {
    /// MQSUB. See the module documentation; returns (queue handle, subscription handle).
    pub fn subscribe(&mut self, sd: &SubDescriptor, queue: Option<Hobj>) -> MqResult<(Hobj, Hobj)> {
        let existed = sd
            .name
            .as_deref()
            .is_some_and(|n| self.qm.subscription_named(n).is_some());
        let r = self.subscribe_to(sd, queue);
        let call = match (sd.action, sd.durable) {
            (SubAction::Alter, _) => ApiCall::SubAlterDurable,
            (SubAction::Resume, _) | (SubAction::CreateOrResume, _) if existed => {
                ApiCall::SubResumeDurable
            }
            (_, true) => ApiCall::SubCreateDurable,
            (_, false) => ApiCall::SubCreateNonDurable,
        };
        self.count_call(call, &r);
        r
    }

    fn subscribe_to(&mut self, sd: &SubDescriptor, queue: Option<Hobj>) -> MqResult<(Hobj, Hobj)> {
        self.check_running(false)?;
        let topic = sub_topic(&self.qm, sd)?;
        self.authorize_topic(&topic, Authority::SUB)?;
        if sd.durable && sd.name.as_deref().is_none_or(str::is_empty) {
            return Err(MqError::new(
                Reason::SubNameError,
                "a durable subscription needs a name (MQSD SubName)",
            ));
        }
        if sd.managed == queue.is_some() {
            return Err(MqError::new(
                Reason::SdError,
                if sd.managed {
                    "a managed subscription (MQSO_MANAGED) makes its own queue: pass no queue handle"
                } else {
                    "a subscription that is not managed needs the handle of the queue its publications go to"
                },
            ));
        }
        let existing = sd
            .name
            .as_deref()
            .and_then(|n| self.qm.subscription_named(n));
        match (existing, sd.action) {
            (Some(s), SubAction::Resume | SubAction::CreateOrResume) => {
                self.resume(&s, queue, sd.read_ahead)
            }
            (Some(s), SubAction::Alter) => self.alter(&s, sd, &topic, queue),
            (Some(_), SubAction::Create) => Err(MqError::new(
                Reason::SubAlreadyExists,
                format!(
                    "a subscription named {:?} exists already; resume it (MQSO_RESUME)",
                    sd.name.as_deref().unwrap_or_default()
                ),
            )),
            (None, SubAction::Resume | SubAction::Alter) => Err(MqError::new(
                Reason::NoSubscription,
                format!(
                    "there is no subscription named {:?} to resume",
                    sd.name.as_deref().unwrap_or_default()
                ),
            )),
            (None, _) => self.create_sub(sd, &topic, queue),
        }
    }

    fn create_sub(
        &mut self,
        sd: &SubDescriptor,
        topic: &str,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let rt = self.qm.resolve_topic(topic);
        crate::qmgr::pubsub::topics::check_allowed(topic, &rt, sd.durable)?;
        let qh = match queue {
            Some(h) => h,
            None => self.open_managed(&rt, sd.durable, sd.read_ahead)?,
        };
        let qname = self.queue_name(qh)?;
        if sd.durable
            && self.queue_handle(qh)?.queue.lock().attrs.definition_type
                == DefinitionType::TemporaryDynamic
        {
            return Err(MqError::new(
                Reason::InvalidDestination,
                format!("a durable subscription cannot deliver to temporary dynamic queue {qname}"),
            ));
        }
        if sd.durable && self.qm.is_unlogged(&qname) {
            return Err(MqError::new(
                Reason::InvalidDestination,
                format!("a durable subscription cannot deliver to queue {qname}, which is not logged (an MQTT clean session's: it ends with its connection)"),
            ));
        }
        let req = SubRequest {
            topic: topic.to_owned(),
            wildcards: if sd.char_wildcards {
                Wildcards::Char
            } else {
                Wildcards::Topic
            },
            queue: qname,
            name: sd.name.clone(),
            correl_id: sd.correl_id,
            user_data: sd.user_data.clone(),
            managed: sd.managed,
            owner: self.user_id.as_str().to_owned(),
            any_user: sd.any_user,
            on_request: sd.on_request,
            selector: sd.selector.clone(),
            level: sd
                .sub_level
                .unwrap_or(ferry_model::options::DEFAULT_SUB_LEVEL),
        };
        let made = if sd.durable {
            self.qm.define_sub(&req)
        } else {
            self.qm.subscribe(&req)
        };
        let id = match made {
            Ok(id) => id,
            Err(e) => {
                if queue.is_none() {
                    let _ = self.close_object(qh, CloseOptions::None);
                }
                return Err(e);
            }
        };
        let sub = self.qm.subscription(id).expect("just made");
        sub.attached.store(self.conn_id, Ordering::Relaxed);
        if !sd.new_publications_only && !sd.on_request {
            self.send_retained(&sub);
        }
        Ok((qh, self.sub_handle(&sub)))
    }

    /// Resumes a durable subscription: its own queue opened for input when it is managed (or
    /// when no queue is given), else the caller's.
    fn resume(
        &mut self,
        sub: &Arc<Subscription>,
        queue: Option<Hobj>,
        sd_read_ahead: Option<bool>,
    ) -> MqResult<(Hobj, Hobj)> {
        let name = sub.name.as_deref().unwrap_or_default();
        if !sub.any_user && !sub.owner.is_empty() && sub.owner != self.user_id.as_str() {
            return Err(MqError::new(
                Reason::IdentityMismatch,
                format!("subscription {name:?} belongs to user {}; it was not made with MQSO_ANY_USERID", sub.owner),
            ));
        }
        if sub
            .attached
            .compare_exchange(0, self.conn_id, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            return Err(MqError::new(
                Reason::SubscriptionInUse,
                format!(
                    "subscription {name:?} is held by another handle (connection {})",
                    sub.attached.load(Ordering::Relaxed)
                ),
            ));
        }
        let qh = match queue {
            Some(h) => Ok(h),
            None => self.open_internal(&sub.queue.name, None, sd_read_ahead),
        };
        match qh {
            Ok(qh) => Ok((qh, self.sub_handle(sub))),
            Err(e) => {
                sub.attached.store(0, Ordering::Relaxed);
                Err(e)
            }
        }
    }

    /// MQSO_ALTER: resumes the subscription, then changes what may change (its topic, wildcard
    /// scheme, durability and selector may not: 2510, 2509, 2524).
    fn alter(
        &mut self,
        sub: &Arc<Subscription>,
        sd: &SubDescriptor,
        topic: &str,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let schema = if sd.char_wildcards {
            Wildcards::Char
        } else {
            Wildcards::Topic
        };
        if topic != sub.filter.text() || schema != sub.filter.schema() {
            return Err(MqError::new(
                Reason::TopicNotAlterable,
                format!(
                    "subscription {:?} is to {:?}; its topic cannot be altered",
                    sub.name.as_deref().unwrap_or_default(),
                    sub.filter.text()
                ),
            ));
        }
        if sd.durable != sub.durable {
            return Err(MqError::new(
                Reason::DurabilityNotAlterable,
                "a subscription's durability cannot be altered",
            ));
        }
        let level = sd
            .sub_level
            .unwrap_or(ferry_model::options::DEFAULT_SUB_LEVEL);
        if level != sub.level {
            return Err(MqError::new(
                Reason::SublevelNotAlterable,
                format!(
                    "subscription {:?} is at level {}; its SubLevel cannot be altered to {level}",
                    sub.name.as_deref().unwrap_or_default(),
                    sub.level
                ),
            ));
        }
        if sd.selector.is_some() {
            return Err(MqError::new(
                Reason::SelectorNotAlterable,
                "a subscription's selector cannot be altered; leave SelectionString empty",
            ));
        }
        let new_queue = match queue {
            Some(h) if !sub.managed => Some(self.queue_name(h)?),
            _ => None,
        };
        let handles = self.resume(sub, queue, sd.read_ahead)?;
        let alt = crate::qmgr::pubsub::SubAlteration {
            user_data: sd.user_data.clone(),
            correl_id: sd.correl_id,
            any_user: sd.any_user,
            on_request: sd.on_request,
            queue: new_queue.filter(|q| *q != sub.queue.name),
        };
        if let Err(e) = self.qm.alter_subscription(sub.id, &alt) {
            let _ = self.close_object(handles.1, CloseOptions::None);
            return Err(e);
        }
        Ok(handles)
    }

    /// Opens the queue a managed subscription delivers to, made from the topic's model
    /// (MDURMDL or MNDURMDL); INVALID_DESTINATION when that model is not a model queue.
    fn open_managed(
        &mut self,
        rt: &ResolvedTopic,
        durable: bool,
        read_ahead: Option<bool>,
    ) -> MqResult<Hobj> {
        let (model, pattern) = if durable {
            (rt.durable_model, "SYSTEM.MANAGED.DURABLE.*")
        } else {
            (rt.nondurable_model, "SYSTEM.MANAGED.NDURABLE.*")
        };
        if !matches!(
            self.qm.definition(model.as_str()),
            Ok(QueueDefinition::Model(_))
        ) {
            return Err(MqError::new(
                Reason::InvalidDestination,
                format!(
                    "the model queue {model} that {} of topic object {} names for managed subscriptions is not defined as a model queue",
                    if durable { "MDURMDL" } else { "MNDURMDL" },
                    rt.admin
                ),
            ));
        }
        self.open_internal(&model, Some(pattern), read_ahead)
    }

    /// Opens a queue for input on the queue manager's behalf (authority was checked on the
    /// topic).
    fn open_internal(
        &mut self,
        name: &ObjectName,
        dynamic: Option<&str>,
        read_ahead: Option<bool>,
    ) -> MqResult<Hobj> {
        let opts = OpenOptions {
            read_ahead,
            ..OpenOptions::input()
        };
        let qh = self.open_queue(name, dynamic, opts)?;
        Ok(self.register(Handle::Queue(Box::new(qh)), &opts))
    }

    fn sub_handle(&mut self, sub: &Subscription) -> Hobj {
        let h = SubHandle {
            id: sub.id,
            durable: sub.durable,
        };
        self.register(Handle::Sub(h), &OpenOptions::default())
    }

    /// MQSUBRQ with MQSR_ACTION_PUBLISH: sends the subscription the retained publications its
    /// filter matches; how many. NO_RETAINED_MSG when there are none.
    pub fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        let r = self.request_publications(hsub);
        let counted = match &r {
            Err(e) if e.reason == Reason::NoRetainedMsg => &Ok(0), // answered: none to send
            r => r,
        };
        self.count_call(ApiCall::SubRequest, counted);
        r
    }

    fn request_publications(&mut self, hsub: Hobj) -> MqResult<usize> {
        self.check_running(false)?;
        let id = match self.handle(hsub)? {
            Handle::Sub(h) => h.id,
            _ => {
                return Err(MqError::new(
                    Reason::HobjError,
                    "MQSUBRQ needs the subscription handle MQSUB returned",
                ))
            }
        };
        let sub = self
            .qm
            .subscription(id)
            .ok_or_else(|| MqError::new(Reason::NoSubscription, "the subscription has ended"))?;
        match self.send_retained(&sub) {
            0 => Err(MqError::new(
                Reason::NoRetainedMsg,
                format!(
                    "no topic that {:?} matches has a retained publication",
                    sub.filter.text()
                ),
            )),
            n => Ok(n),
        }
    }

    /// Closes a subscription handle: a non-durable subscription ends, a durable one is let go
    /// (or ends with `RemoveSub`).
    pub(super) fn close_sub(&mut self, h: &SubHandle, opts: CloseOptions) -> MqResult<()> {
        let Some(sub) = self.qm.subscription(h.id) else {
            return Ok(());
        };
        sub.attached.store(0, Ordering::Relaxed);
        if h.durable && opts != CloseOptions::RemoveSub {
            return Ok(());
        }
        let removed = self.qm.remove_subscription(&sub);
        let call = match h.durable {
            true => ApiCall::SubDeleteDurable,
            false => ApiCall::SubDeleteNonDurable,
        };
        self.count_call(call, &removed);
        removed?;
        if sub.managed {
            // A managed queue this connection still has open goes when its handle closes.
            for handle in self.handles.values_mut() {
                if let Handle::Queue(qh) = handle {
                    if Arc::ptr_eq(&qh.queue, &sub.queue) {
                        qh.temporary_owner = true;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The full topic string of a subscription: the topic object's TOPICSTR and the descriptor's
/// object string, joined.
fn sub_topic(qm: &QueueManager, sd: &SubDescriptor) -> MqResult<String> {
    let topic = open::full_topic(qm, sd.topic_object.as_ref(), &sd.topic)?;
    check_topic(&topic)?;
    Ok(topic)
}
