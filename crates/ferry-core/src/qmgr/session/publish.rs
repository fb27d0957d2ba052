//! Publishing: a message put to a topic, copied to the queue of every subscription that
//! matches it (see `qmgr/pubsub`).

use super::*;

use crate::engine::fanout::{put_copies, Copy, CopyPut, MAX_COPIES_PER_RECORD};
use crate::engine::journal::copy_of;
use crate::qmgr::pubsub::status::Publisher;
use crate::qmgr::pubsub::Subscription;
use ferry_model::topic::check_topic;
use ferry_model::topicobj::{DeliveryRule, ResolvedTopic};

/// What a publication did.
#[derive(Debug, Clone)]
pub struct Published {
    /// With [`Session::watch_crowding`]: a subscriber's queue the publication left three
    /// quarters full or more (the fullest such), for the publisher to wait on before its next
    /// publication rather than have later ones pass that subscriber by.
    pub crowded: Option<Arc<Queue>>,
    /// Subscriptions it matched.
    pub subscribers: usize,
    /// Copies delivered to subscriptions' queues.
    pub delivered: usize,
    /// Copies a full or unusable queue refused and the delivery rule let pass (PMSGDLV or
    /// NPMSGDLV ALLAVAIL, or ALLDUR for a non-durable subscription), dead-lettered ones included.
    pub failed: usize,
    /// Of those, copies put on the dead-letter queue instead (USEDLQ(YES)).
    pub dead_lettered: usize,
}

/// One publication on its way: what every copy's delivery needs to know.
struct Publication<'a> {
    topic: &'a str,
    rt: &'a ResolvedTopic,
    rule: DeliveryRule,
    msg: &'a Message,
    opts: &'a PutOptions,
    now_ms: u64,
}

impl Session {
    /// A put through a handle opened on a topic: the publication, and what a put returns.
    pub(super) fn publish_put(
        &mut self,
        publisher: &Publisher,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.publish_via(publisher, msg, opts).map(|(_, out)| out)
    }

    /// Publishes `msg` through `h`, a handle opened on a topic for output (its authority was
    /// checked then): as [`publish`](Self::publish) does, with the handle's topic attributes
    /// and subscriber list as cached until the topic objects or the subscriptions change —
    /// what a client that publishes on the same topics again and again saves (the MQTT
    /// service's publishers). A handle that is not a topic's is MQRC_HOBJ_ERROR.
    pub fn publish_on(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<Published> {
        self.check_running(opts.fail_if_quiescing)?;
        let Some(Handle::Topic(p)) = self.handles.get(&h.0) else {
            return Err(MqError::new(
                Reason::HobjError,
                "the handle is not one opened on a topic for output",
            ));
        };
        let p = Arc::clone(p);
        let (published, out) = self.publish_via(&p, msg, opts)?;
        p.count.fetch_add(1, Ordering::Relaxed);
        let now_ms = ferry_model::clock::unix_ms(out.put_time).max(0) as u64;
        p.last_ms.store(now_ms, Ordering::Relaxed);
        Ok(published)
    }

    fn publish_via(
        &mut self,
        publisher: &Publisher,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<(Published, PutOutcome)> {
        let topic = &*publisher.topic;
        let rt = self.qm.resolve_topic_cached(topic, &publisher.resolved);
        let mut msg = msg;
        if msg.properties.is_empty() {
            // The handle's MQTopicString, shared: its topic was checked at MQOPEN.
            msg.properties = publisher.topic_property.clone();
        } else {
            check_topic(topic)?;
        }
        let msg = publication(topic, msg, &rt)?;
        let d = &msg.descriptor;
        let put_time = self.qm.clock().wall();
        let outcome = PutOutcome {
            msg_id: MsgId(self.qm.shared.ids.next()),
            correl_id: d.correl_id,
            put_time,
            persistence: d.persistence,
            priority: match d.priority {
                Priority::Value(p) => p,
                Priority::AsQueueDef => rt.def_priority,
            },
            warning: None,
        };
        let now_ms = ferry_model::clock::unix_ms(put_time).max(0) as u64;
        let published = self.deliver(topic, &rt, msg, opts, now_ms, Some(publisher))?;
        Ok((published, outcome))
    }

    /// Publishes `msg` on `topic`, with the attributes the topic objects above it give it
    /// (PUB, DEFPSIST, DEFPRTY, PMSGDLV, NPMSGDLV, USEDLQ, WILDCARD).
    ///
    /// The delivery rule decides what a refusal does: under ALLAVAIL it is passed over; under
    /// ALL (or ALLDUR, for a durable subscription) the publication goes to none and the refusal
    /// is the call's error. With USEDLQ(YES) a refused copy goes to the dead-letter queue
    /// first and counts as delivered if it takes it. Outside syncpoint, with no unit of work
    /// open, a publication to several subscribers under ALL or ALLDUR, or a persistent one, is
    /// delivered in a unit of work of its own (one log force for all its copies); in syncpoint
    /// it joins the caller's.
    pub fn publish(&mut self, topic: &str, msg: Message, opts: &PutOptions) -> MqResult<Published> {
        self.check_running(opts.fail_if_quiescing)?;
        check_topic(topic)?;
        // An MQI publisher's authority is checked when it opens the topic; a caller of this
        // call opens nothing, so it is checked here (the MQTT service's clients).
        self.authorize_topic(topic, Authority::PUB)?;
        let rt = self.qm.resolve_topic(topic);
        let msg = publication(topic, msg, &rt)?;
        let now_ms = self.qm.clock().unix_ms().max(0) as u64;
        self.deliver(topic, &rt, msg, opts, now_ms, None)
    }

    /// Delivers a publication (through `publisher`, when a handle made it: its cached
    /// subscriber list, its counters).
    fn deliver(
        &mut self,
        topic: &str,
        rt: &ResolvedTopic,
        msg: Message,
        opts: &PutOptions,
        now_ms: u64,
        publisher: Option<&Publisher>,
    ) -> MqResult<Published> {
        let persistent = msg.descriptor.persistence == Persistence::Persistent;
        let rule = if persistent {
            rt.persistent_delivery
        } else {
            rt.nonpersistent_delivery
        };
        let subs = self.targets(topic, rt, opts, publisher);
        let own_uow = !opts.syncpoint
            && self.uow.is_empty()
            && ((subs.len() > 1 && (persistent || rule != DeliveryRule::AllAvailable))
                || (opts.retain && persistent));
        let put_opts = PutOptions {
            syncpoint: opts.syncpoint || own_uow,
            ..*opts
        };
        let mut out = Published {
            crowded: None,
            subscribers: subs.len(),
            delivered: 0,
            failed: 0,
            dead_lettered: 0,
        };
        let pubn = Publication {
            topic,
            rt,
            rule,
            msg: &msg,
            opts: &put_opts,
            now_ms,
        };
        let done = self.deliver_copies(&pubn, &subs, &mut out, opts, own_uow);
        if own_uow {
            match &done {
                Ok(()) => self.commit_uow()?,
                Err(_) => self.backout_uow()?,
            }
        }
        done?;
        self.count(publisher, topic, &out, now_ms);
        let stats = self.qm.mqi_stats();
        if out.delivered > 0 && !self.internal && stats.on() {
            use crate::qmgr::apistats::slot;
            let p = usize::from(persistent);
            stats.add(slot::PUBLISHED + p, out.delivered as u64);
            let bytes = (msg.body.len() * out.delivered) as u64;
            stats.add(slot::PUBLISHED_BYTES + p, bytes);
        }
        Ok(out)
    }

    /// The retained publication (if asked) and every copy. In the caller's unit of work, what a
    /// failed publication put there is taken back, so it goes to none — exactly where nothing
    /// of it was logged (a persistent one to several queues is refused before its record).
    fn deliver_copies(
        &mut self,
        p: &Publication<'_>,
        subs: &[Arc<Subscription>],
        out: &mut Published,
        opts: &PutOptions,
        own_uow: bool,
    ) -> MqResult<()> {
        let persistent = p.msg.descriptor.persistence == Persistence::Persistent;
        let undo_mark = (!own_uow && opts.syncpoint).then_some(self.uow.len());
        let mut done = match opts.retain {
            true => self.retain_publication(p.topic, p.msg, p.opts),
            false => Ok(()),
        };
        if done.is_ok() {
            done = if persistent && p.opts.syncpoint && self.qm.durability().is_some() {
                self.deliver_logged(p, subs, out)
            } else {
                self.deliver_each(p, subs, out)
            };
        }
        if let (Err(_), Some(mark)) = (&done, undo_mark) {
            if !opts.retain && (!persistent || self.qm.durability().is_none()) {
                self.undo_puts_since(mark);
            }
        }
        done
    }

    /// Counts a publication: in its handle, or (without one) in the shared counters.
    fn count(&self, publisher: Option<&Publisher>, topic: &str, out: &Published, now_ms: u64) {
        match publisher {
            Some(p) => self
                .qm
                .count_handle_publication(p, out.delivered, out.failed),
            None => {
                self.qm.count_publication(topic, out.delivered, now_ms);
                let counters = &self.qm.shared.pubsub.counters;
                counters.publications.fetch_add(1, Ordering::Relaxed);
                counters
                    .deliveries
                    .fetch_add(out.delivered as u64, Ordering::Relaxed);
                counters
                    .failed
                    .fetch_add(out.failed as u64, Ordering::Relaxed);
            }
        }
    }

    /// The subscriptions a publication on `topic` goes to: those whose filter matches, past
    /// any WILDCARD(BLOCK), not asking for publications on request only, and not this
    /// connection's own when the put says MQPMO_NOT_OWN_SUBS — and of those, the ones at the
    /// highest SubLevel not above the put's PubLevel (an intercepting subscription takes
    /// what its level allows; level 0 only what no other takes). Selectors narrow them later.
    fn targets(
        &self,
        topic: &str,
        rt: &ResolvedTopic,
        opts: &PutOptions,
        publisher: Option<&Publisher>,
    ) -> Vec<Arc<Subscription>> {
        let mut subs = self.matching(topic, rt, opts, publisher);
        let pub_level = opts.pub_level.unwrap_or(ferry_model::options::MAX_LEVEL);
        match crate::qmgr::pubsub::delivery_level(&subs, pub_level) {
            None => subs.clear(),
            Some(level) if subs.iter().any(|s| s.level != level) => {
                subs.retain(|s| s.level == level)
            }
            Some(_) => {} // all at one level (commonly 1): nothing to take out
        }
        subs
    }

    /// The subscriptions whose filters match a publication and that want it (see `targets`).
    fn matching(
        &self,
        topic: &str,
        rt: &ResolvedTopic,
        opts: &PutOptions,
        publisher: Option<&Publisher>,
    ) -> Vec<Arc<Subscription>> {
        let conn = self.conn_id;
        let wanted = |s: &Arc<Subscription>| {
            rt.admits(&s.filter)
                && !s.on_request
                && !(opts.not_own_subs && s.attached.load(Ordering::Relaxed) == conn)
        };
        match publisher {
            Some(p) => {
                let all = self.qm.publisher_subscribers(p);
                // Sized once: a filtered collect would grow it step by step.
                let mut subs = Vec::with_capacity(all.len());
                subs.extend(all.iter().filter(|s| wanted(s)).cloned());
                subs
            }
            None => {
                let mut subs = self.qm.subscribers(topic);
                subs.retain(wanted);
                subs
            }
        }
    }

    /// Each subscription's copy put on its own; stops at the first error. The descriptor is
    /// resolved once (put time, context, reply-to, expiry) and each copy takes only its own
    /// msg id, correl id and user data; a descriptor the queue manager refuses is refused for
    /// each copy, as a put of each would be.
    fn deliver_each(
        &mut self,
        p: &Publication<'_>,
        subs: &[Arc<Subscription>],
        out: &mut Published,
    ) -> MqResult<()> {
        if subs.is_empty() {
            return Ok(()); // nobody to copy for: no descriptor to resolve
        }
        let qm_max = self.qm.shared.attrs.read().max_msg_length;
        let mut common = p.msg.clone();
        let resolved = match p.msg.counted_len() <= qm_max {
            true => self.resolve_descriptor(&mut common, p.opts).ok(),
            false => None,
        };
        let fresh_ids = p.opts.new_msg_id || p.msg.descriptor.msg_id.is_none();
        let now = self.qm.clock().now();
        for sub in subs {
            if !selects(sub, p.msg) {
                out.subscribers -= 1;
                continue;
            }
            let put = match resolved {
                Some((expires_at, warning)) => {
                    let msg_id = match fresh_ids {
                        true => MsgId(self.qm.shared.ids.next()),
                        false => common.descriptor.msg_id,
                    };
                    let mut copy = copy_for(&common, sub)?;
                    copy.descriptor.msg_id = msg_id;
                    self.put_resolved_to(&sub.queue, copy, (expires_at, now), warning, p.opts)
                }
                None => self.put_to(&sub.queue, None, None, copy_for(p.msg, sub)?, p.opts),
            };
            self.settle(p, sub, put.map(|_| ()), out)?;
        }
        Ok(())
    }

    /// A persistent publication in a unit of work: its copies logged as one PUBLISH record
    /// per [`MAX_COPIES_PER_RECORD`] — the body once in the log, not once a subscriber. Copies
    /// the record cannot take (a second one to the same queue, a temporary queue's) are put
    /// alone; so is everything when fewer than two copies would share a record, or when the
    /// unit of work has no room for them all (so MAXUMSGS fails where it would have).
    fn deliver_logged(
        &mut self,
        p: &Publication<'_>,
        subs: &[Arc<Subscription>],
        out: &mut Published,
    ) -> MqResult<()> {
        let selected: Vec<&Arc<Subscription>> = subs.iter().filter(|s| selects(s, p.msg)).collect();
        let max_umsgs = self.qm.shared.attrs.read().max_uncommitted_msgs;
        let qm_max = self.qm.shared.attrs.read().max_msg_length;
        let journal = selected.first().and_then(|s| s.queue.lock().journal());
        let Some(journal) = journal else {
            return self.deliver_each(p, subs, out);
        };
        if selected.len() < 2
            || self.uow.len() + selected.len() > max_umsgs
            || p.msg.counted_len() > qm_max
        {
            return self.deliver_each(p, subs, out);
        }
        out.subscribers -= subs.len() - selected.len();
        let mut common = p.msg.clone();
        let (expires_at, _) = self.resolve_descriptor(&mut common, p.opts)?;
        let uow = self.uow_slot()?;
        let fresh_ids = p.opts.new_msg_id || p.msg.descriptor.msg_id.is_none();
        for chunk in selected.chunks(MAX_COPIES_PER_RECORD) {
            let mut copies = Vec::with_capacity(chunk.len());
            for sub in chunk {
                let msg_id = match fresh_ids {
                    true => MsgId(self.qm.shared.ids.next()),
                    false => common.descriptor.msg_id,
                };
                let mut msg = copy_of(&common, msg_id, sub.correl_id, sub.user_data.as_deref())?;
                if sub.temporary_queue {
                    msg.descriptor.persistence = Persistence::NotPersistent;
                }
                copies.push(Copy {
                    queue: sub.queue.clone(),
                    msg,
                    user_data: sub.user_data.clone(),
                });
            }
            // A copy the delivery rule needs, with no dead-letter queue to fall back on: if
            // its queue refuses it, nothing is logged or stored.
            let required: Vec<bool> = chunk
                .iter()
                .map(|sub| !p.rt.use_dlq && p.rule.requires(sub.durable))
                .collect();
            let now = self.qm.clock().now();
            let fates = put_copies(&journal, &common, copies, &required, expires_at, uow, now)?;
            for (sub, (queue, fate)) in chunk.iter().zip(fates) {
                let put = match fate {
                    CopyPut::Skipped => continue,
                    CopyPut::Placed(placed) => {
                        let pos = placed.pos.expect("a copy in a unit of work has a slot");
                        self.join_uow(queue, pos, UowKind::Put);
                        self.logged(placed.lsn, true)
                    }
                    CopyPut::Refused(e) => Err(e),
                    CopyPut::Alone(msg) => self.put_to(&queue, None, None, msg, p.opts).map(|_| ()),
                };
                self.settle(p, sub, put, out)?;
            }
        }
        Ok(())
    }

    /// What one copy's put did, counted; an error when it failed, the delivery rule needed it
    /// there and (USEDLQ) the dead-letter queue did not take it either.
    fn settle(
        &mut self,
        p: &Publication<'_>,
        sub: &Subscription,
        put: MqResult<()>,
        out: &mut Published,
    ) -> MqResult<()> {
        count_delivery(sub, put.is_ok(), p.now_ms);
        let Err(e) = put else {
            out.delivered += 1;
            if self.watch_crowding && crowded(&sub.queue) {
                out.crowded = Some(sub.queue.clone());
            }
            return Ok(());
        };
        out.failed += 1;
        if p.rt.use_dlq && self.dead_letter_copy(p.msg, sub, &e, p.opts).is_ok() {
            out.dead_lettered += 1;
            return Ok(());
        }
        if p.rule.requires(sub.durable) {
            return Err(undeliverable(p.topic, sub, p.rule, e));
        }
        Ok(())
    }

    /// Makes `msg` the topic's retained publication: a persistent one is put on
    /// SYSTEM.RETAINED.PUB.QUEUE and the one it replaces removed from there, in the
    /// publication's unit of work; memory follows when that commits (at once, outside one).
    fn retain_publication(
        &mut self,
        topic: &str,
        msg: &Message,
        opts: &PutOptions,
    ) -> MqResult<()> {
        self.qm.check_retained_room(topic, msg.body.len())?;
        let old = self.qm.retained_stored(topic);
        let stored = if msg.descriptor.persistence == Persistence::Persistent {
            let name = ferry_model::name::object_name(ferry_model::system::RETAINED_PUB_QUEUE)?;
            let q = self.qm.local_queue(&name)?;
            let mut copy = msg.clone();
            copy.descriptor.priority = Priority::Value(0);
            Some(self.put_to(&q, None, None, copy, opts)?.msg_id)
        } else {
            None
        };
        if let Some(id) = old {
            self.remove_stored_retained(id, opts.syncpoint)?;
        }
        let r = crate::qmgr::pubsub::retained::RetainedPub {
            msg: msg.clone(),
            stored,
        };
        if opts.syncpoint {
            self.retained_pending.push((topic.to_owned(), Some(r)));
        } else {
            self.qm.set_retained(topic.to_owned(), Some(r));
        }
        Ok(())
    }

    /// Removes a stored retained publication from SYSTEM.RETAINED.PUB.QUEUE by its msg id
    /// (gone already is not an error: another publication replaced it first).
    pub(crate) fn remove_stored_retained(&mut self, id: MsgId, syncpoint: bool) -> MqResult<()> {
        let name = ferry_model::name::object_name(ferry_model::system::RETAINED_PUB_QUEUE)?;
        let opts = OpenOptions::input();
        let qh = self.open_queue(&name, None, opts)?;
        let h = self.register(Handle::Queue(Box::new(qh)), &opts);
        let mut get = GetOptions::new().msg_id(id);
        get.syncpoint = syncpoint;
        let got = self.get(h, &get);
        self.close_object(h, CloseOptions::None)?;
        match got {
            Err(e) if e.reason != Reason::NoMsgAvailable => Err(e),
            _ => Ok(()),
        }
    }

    /// Sends a subscription the retained publications its filter matches (each with
    /// MQIsRetained TRUE); how many its queue took. They are sent at PubLevel 1, as MQ
    /// republishes them, so a subscription above level 1 gets none.
    pub(super) fn send_retained(&mut self, sub: &Subscription) -> usize {
        if sub.level > 1 {
            return 0;
        }
        let now_ms = self.qm.clock().unix_ms().max(0) as u64;
        let mut sent = 0;
        for (topic, msg) in self.qm.retained_matching(&sub.filter) {
            let selected = sub
                .selector
                .as_ref()
                .is_none_or(|s| s.matches(&msg.descriptor, &msg.properties));
            if !selected || !self.qm.resolve_topic(&topic).admits(&sub.filter) {
                continue;
            }
            let Ok(mut copy) = copy_for(&msg, sub) else {
                continue;
            };
            if copy
                .properties
                .set("MQIsRetained", PropertyValue::Bool(true))
                .is_err()
            {
                continue;
            }
            let put = self.put_to(&sub.queue, None, None, copy, &PutOptions::default());
            count_delivery(sub, put.is_ok(), now_ms);
            sent += usize::from(put.is_ok());
        }
        sent
    }

    /// Takes back the puts made in the unit of work since `mark` (a failed publication's
    /// copies, none of them logged).
    fn undo_puts_since(&mut self, mark: usize) {
        for e in self.uow.drain(mark..).rev() {
            if matches!(e.kind, UowKind::Put) {
                e.queue.backout_put(e.pos);
            }
        }
        self.counters
            .uow_messages
            .store(self.uow.len(), Ordering::Relaxed);
    }

    /// Puts the copy a subscription's queue refused on the dead-letter queue, with a header
    /// naming that queue and why (in the publication's unit of work, if it has one).
    fn dead_letter_copy(
        &mut self,
        msg: &Message,
        sub: &Subscription,
        e: &MqError,
        opts: &PutOptions,
    ) -> MqResult<()> {
        let dlq = self.qm.dead_letter_queue()?;
        let copy = self.qm.with_dead_letter_header(
            copy_for(msg, sub)?,
            e.reason,
            sub.queue.name,
            ObjectName::EMPTY,
        );
        self.put_to(&dlq, None, None, copy, opts).map(|_| ())
    }
}

/// The publication as every copy starts: PUB checked (the topic was, by the caller), persistence and
/// priority resolved from the topic's DEFPSIST and DEFPRTY, and its MQTopicString property.
fn publication(topic: &str, mut msg: Message, rt: &ResolvedTopic) -> MqResult<Message> {
    if !rt.publish {
        return Err(MqError::new(
            Reason::PutInhibited,
            format!(
                "publishing on topic {topic:?} is inhibited (PUB(DISABLED) on topic object {})",
                rt.admin
            ),
        ));
    }
    let d = &mut msg.descriptor;
    if d.persistence == Persistence::AsQueueDef {
        d.persistence = if rt.def_persistent {
            Persistence::Persistent
        } else {
            Persistence::NotPersistent
        };
    }
    d.priority = Priority::Value(match d.priority {
        Priority::Value(p) => p.min(MAX_PRIORITY),
        Priority::AsQueueDef => rt.def_priority,
    });
    let set =
        matches!(msg.properties.get("MQTopicString"), Some(PropertyValue::String(t)) if t == topic);
    if !set {
        msg.properties
            .set("MQTopicString", PropertyValue::String(topic.to_owned()))?;
    }
    Ok(msg)
}

/// Whether a subscription's selector (if any) selects `msg`.
fn selects(sub: &Subscription, msg: &Message) -> bool {
    sub.selector
        .as_ref()
        .is_none_or(|s| s.matches(&msg.descriptor, &msg.properties))
}

/// The copy for one subscription: its correlation id and user data; non-persistent for a
/// temporary queue.
fn copy_for(msg: &Message, sub: &Subscription) -> MqResult<Message> {
    let mut copy = copy_of(
        msg,
        msg.descriptor.msg_id,
        sub.correl_id,
        sub.user_data.as_deref(),
    )?;
    if sub.temporary_queue {
        copy.descriptor.persistence = Persistence::NotPersistent;
    }
    Ok(copy)
}

/// A publication one subscription's queue refused when the delivery rule needed it there (so
/// it went to none).
fn undeliverable(topic: &str, sub: &Subscription, rule: DeliveryRule, e: MqError) -> MqError {
    MqError {
        detail: format!(
            "the publication on {topic:?} could not be delivered to subscription {} (queue {}), which its delivery rule ({}) requires, so it was delivered to none: {}",
            sub.name.as_deref().unwrap_or("(unnamed)"),
            sub.queue.name,
            rule.word(),
            e.detail
        ),
        ..e
    }
}

/// A subscription's delivered count (and when), or its failed count.
fn count_delivery(sub: &Subscription, delivered: bool, now_ms: u64) {
    if delivered {
        sub.delivered.fetch_add(1, Ordering::Relaxed);
        sub.last_delivery_ms.store(now_ms, Ordering::Relaxed);
    } else {
        sub.failed.fetch_add(1, Ordering::Relaxed);
    }
}

/// Whether `q` holds three quarters of its MAXDEPTH or more.
fn crowded(q: &Queue) -> bool {
    let st = q.lock();
    st.store.depth().saturating_mul(4) >= st.attrs.max_depth.saturating_mul(3)
}
