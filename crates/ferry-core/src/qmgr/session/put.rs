//! MQPUT and MQPUT1: filling in the descriptor, putting to the queue or its transmission
//! queue, joining the unit of work, waiting for the log when the message is persistent.

use super::*;

impl Session {
    /// Puts a message on an open queue (or publishes it through a topic handle).
    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        if self.internal || (!self.qm.mqi_stats().on() && self.acct.is_none()) {
            return self.put_message(h, msg, opts);
        }
        let len = msg.body.len();
        let topic = matches!(self.handles.get(&h.0), Some(Handle::Topic(_)));
        let queue = self.accounted_queue(h);
        let r = self.put_message(h, msg, opts);
        self.count_put((topic, false, queue), len, &r);
        r
    }

    /// Counts an MQPUT (or MQPUT1, `put1`) of `len` bytes to a topic or a queue (STATMQI, and
    /// the connection's accounting against `queue`).
    fn count_put(
        &self,
        (topic, put1, queue): (bool, bool, Option<ObjectName>),
        len: usize,
        r: &MqResult<PutOutcome>,
    ) {
        use crate::qmgr::apistats::slot;
        let (counts, failed, bytes) = match (topic, put1) {
            (false, false) => (slot::PUTS, slot::PUTS_FAILED, slot::PUT_BYTES),
            (false, true) => (slot::PUT1S, slot::PUT1S_FAILED, slot::PUT_BYTES),
            (true, false) => (
                slot::TOPIC_PUTS,
                slot::TOPIC_PUTS_FAILED,
                slot::TOPIC_PUT_BYTES,
            ),
            (true, true) => (
                slot::TOPIC_PUT1S,
                slot::TOPIC_PUT1S_FAILED,
                slot::TOPIC_PUT_BYTES,
            ),
        };
        let done = r
            .as_ref()
            .ok()
            .map(|out| (out.persistence == Persistence::Persistent, len));
        let stats = self.qm.mqi_stats();
        if stats.on() {
            match done {
                Some((persistent, len)) => stats.add_message(counts, bytes, persistent, len),
                None => stats.add(failed, 1),
            }
        }
        self.account(|a, qm| {
            match done {
                Some((p, len)) => {
                    a.add(counts + usize::from(p), 1);
                    a.add(bytes + usize::from(p), len as u64);
                }
                None => a.add(failed, 1),
            }
            if let Some(q) = &queue {
                a.put(qm, q, put1, done);
            }
        });
    }

    // Inlined into `put`: a message is not moved through one more frame.
    #[inline(always)]
    fn put_message(
        &mut self,
        h: Hobj,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.check_running(opts.fail_if_quiescing)?;
        if let Some(Handle::Topic(p)) = self.handles.get(&h.0) {
            let p = Arc::clone(p);
            let out = self.publish_put(&p, msg, opts)?;
            p.count.fetch_add(1, Ordering::Relaxed);
            let now_ms = ferry_model::clock::unix_ms(out.put_time).max(0) as u64;
            p.last_ms.store(now_ms, Ordering::Relaxed);
            return Ok(out);
        }
        let qh = self.queue_handle(h)?;
        if !qh.opts.output {
            return Err(MqError::new(
                Reason::NotOpenForOutput,
                format!("queue {} was not opened for output", qh.opened_name),
            ));
        }
        if opts.alternate_user.is_some() {
            return Err(MqError::new(
                Reason::OptionsError,
                "an alternate user on a put is for put1 (MQPMO_ALTERNATE_USER_AUTHORITY); open the queue with one instead",
            ));
        }
        topic_only_options(opts)?;
        context_opened(qh, opts.context)?;
        let queue = qh.own.clone();
        let alias = qh.alias.clone();
        let remote = qh.remote.clone();
        self.pass_context(&mut msg.descriptor, opts.context)?;
        self.put_to(&queue.0, alias.as_ref(), remote.as_ref(), msg, opts)
    }

    /// MQPMO_PASS_*_CONTEXT: the saved context of the input handle named, copied into `d`
    /// (the user; and for all context, the application and put time too).
    fn pass_context(
        &self,
        d: &mut ferry_model::message::MessageDescriptor,
        context: PutContext,
    ) -> MqResult<()> {
        let (PutContext::PassIdentity(c) | PutContext::PassAll(c)) = context else {
            return Ok(());
        };
        let saved = match self.handles.get(&c.0) {
            Some(Handle::Queue(qh)) if qh.opts.save_all_context => {
                qh.saved_context.ok_or_else(|| {
                    MqError::new(
                        Reason::ContextNotAvailable,
                        format!(
                            "no message has been got through the context handle on {} since it was opened or last browsed",
                            qh.opened_name
                        ),
                    )
                })?
            }
            _ => {
                return Err(MqError::new(
                    Reason::ContextHandleError,
                    format!(
                        "context handle {} is not a queue opened with save-all-context",
                        c.0
                    ),
                ))
            }
        };
        d.user_id = saved.user_id;
        if let PutContext::PassAll(_) = context {
            d.put_appl_name = saved.put_appl_name;
            d.put_time = saved.put_time;
        }
        Ok(())
    }

    /// Opens, puts and closes in one call (MQ's MQPUT1): the usual way to send a reply.
    pub fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        if self.internal || (!self.qm.mqi_stats().on() && self.acct.is_none()) {
            return self.put1_message(od, msg, opts);
        }
        let len = msg.body.len();
        let topic = matches!(od, ObjectDescriptor::Topic { .. });
        // Accounted against the queue named (an alias's own name; MQ counts its base queue).
        let queue = match od {
            ObjectDescriptor::Queue { name, .. } if self.acct.is_some() => Some(*name),
            _ => None,
        };
        let r = self.put1_message(od, msg, opts);
        self.count_put((topic, true, queue), len, &r);
        r
    }

    fn put1_message(
        &mut self,
        od: &ObjectDescriptor,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.check_running(opts.fail_if_quiescing)?;
        let name = match od {
            ObjectDescriptor::Queue { name, .. } | ObjectDescriptor::QueueAt { name, .. } => {
                topic_only_options(opts)?;
                name
            }
            ObjectDescriptor::QueueManager
            | ObjectDescriptor::Namelist(_)
            | ObjectDescriptor::Process(_) => return Err(MqError::new(
                Reason::ObjectTypeError,
                "put1 needs a queue or a topic, not a queue manager, namelist or process object",
            )),
            ObjectDescriptor::Topic { .. } => {
                let h = self.open_object(od, OpenOptions::output())?;
                let put = self.put(h, msg, opts);
                self.close_object(h, CloseOptions::None)?;
                return put;
            }
        };
        let at_remote = matches!(od, ObjectDescriptor::QueueAt { qmgr, .. } if !qmgr.is_empty() && *qmgr != self.qm.name());
        match (at_remote, self.qm.lookup(name)) {
            // The common case, a local queue on the connection's own authority, without a
            // handle.
            (false, Some(Object::Local(q))) if opts.alternate_user.is_none() => {
                self.check_channel_queue(&q.name)?;
                let needed = match opts.context {
                    PutContext::SetIdentity => Authority::PUT.with(Authority::SETID),
                    PutContext::SetAll => Authority::PUT.with(Authority::SETALL),
                    PutContext::PassIdentity(_) => Authority::PUT.with(Authority::PASSID),
                    PutContext::PassAll(_) => Authority::PUT.with(Authority::PASSALL),
                    PutContext::Default | PutContext::None => Authority::PUT,
                };
                self.authorize(AuthObjType::Queue, name, needed)?;
                self.pass_context(&mut msg.descriptor, opts.context)?;
                self.put_to(&q, None, None, msg, opts)
            }
            (false, None) => Err(crate::qmgr::unknown(name)),
            // Aliases, models, remote queues and other queue managers resolve as an open does.
            _ => {
                // MQPUT1 opens for whatever context the put sets or passes, on the alternate
                // user's authority when it names one.
                let open = OpenOptions {
                    set_identity_context: opts.context == PutContext::SetIdentity,
                    set_all_context: opts.context == PutContext::SetAll,
                    pass_identity_context: matches!(opts.context, PutContext::PassIdentity(_)),
                    pass_all_context: matches!(opts.context, PutContext::PassAll(_)),
                    alternate_user: opts.alternate_user,
                    ..OpenOptions::output()
                };
                let h = self.open_object(od, open)?;
                let put = PutOptions {
                    alternate_user: None,
                    ..*opts
                };
                let out = self.put(h, msg, &put);
                let closed = self.close_object(h, CloseOptions::None);
                let out = out?;
                closed?;
                Ok(out)
            }
        }
    }

    pub(super) fn put_to(
        &mut self,
        queue: &Arc<Queue>,
        alias: Option<&Arc<Mutex<AliasQueueAttrs>>>,
        remote: Option<&RemoteDest>,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let qm_max = self.qm.shared.attrs.read().max_msg_length;
        let len = msg.counted_len();
        if len > qm_max {
            return Err(MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "message of {len} bytes is longer than the queue manager's MAXMSGL({qm_max})"
                ),
            ));
        }
        if let Some(a) = alias {
            alias_defaults(&a.lock(), queue, &mut msg)?;
        }
        if let Some(r) = remote {
            self.remote_defaults(r, &mut msg)?;
        }
        let (expires_at, warning) = self.resolve_descriptor(&mut msg, opts)?;
        // The queue reads the clock if the put needs it (one through the inbox does not).
        self.put_resolved_to(queue, msg, (expires_at, 0), warning, opts)
    }

    /// The rest of a put once the descriptor is resolved (`expires_at`, `warning` from
    /// [`Session::resolve_descriptor`]): the queue, the unit of work, the log. `now` is the
    /// queue manager's clock (one reading serves all of a publication's copies), or 0 for the
    /// queue to read it when it needs it.
    pub(super) fn put_resolved_to(
        &mut self,
        queue: &Arc<Queue>,
        msg: Message,
        (expires_at, now): (u64, u64),
        warning: Option<Reason>,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let uow = if opts.syncpoint {
            Some(self.uow_slot()?)
        } else {
            None
        };
        let d = &msg.descriptor;
        let (msg_id, correl_id, put_time) = (d.msg_id, d.correl_id, d.put_time);
        let arrival = self.arrival_report(queue, &msg);
        // Copied only when a report needs them (two names are most of a descriptor).
        let reply_to = (arrival.as_ref())
            .map(|_| (msg.descriptor.reply_to_queue, msg.descriptor.reply_to_qmgr));
        let placed = match queue.put_resolved(msg, expires_at, uow, now) {
            Ok(p) => p,
            Err(e) => {
                if e.reason == Reason::QFull && self.qm.performance_events() {
                    self.qm.queue_full_event(queue);
                }
                return Err(e);
            }
        };
        if let Some(pos) = placed.pos {
            self.join_uow(queue.clone(), pos, UowKind::Put);
        }
        if self.qm.performance_events() {
            self.qm.depth_after_put(queue, placed.depth);
        }
        if placed.trigger {
            self.triggered(queue, uow.is_some());
        }
        self.logged(placed.lsn, uow.is_some())?;
        if let (Some(r), Some((q, qm))) = (arrival, reply_to) {
            self.send_report(r, q, qm, uow.is_some());
        }
        Ok(PutOutcome {
            msg_id,
            correl_id,
            put_time,
            persistence: placed.persistence,
            priority: placed.priority,
            warning,
        })
    }

    /// A put to `queue` was a trigger event by its own conditions: its trigger message, if the
    /// rest hold, now or (in a unit of work) when the unit of work ends.
    pub(super) fn triggered(&mut self, queue: &Queue, in_uow: bool) {
        let Some(t) = self.qm.trigger_for(queue) else {
            return;
        };
        if in_uow {
            self.pending_triggers.push(t);
        } else {
            self.qm.send_trigger(t);
        }
    }

    /// A remote queue definition's inhibit flag and defaults, and the transmission header
    /// that carries the message to its queue manager.
    fn remote_defaults(&self, r: &RemoteDest, msg: &mut Message) -> MqResult<()> {
        if let Some(def) = &r.definition {
            let a = def.lock();
            if a.put_inhibited {
                return Err(MqError::new(
                    Reason::PutInhibited,
                    format!(
                        "puts are inhibited on remote queue definition for {} at {}",
                        r.queue, r.qmgr
                    ),
                ));
            }
            as_defaults(msg, a.def_persistence, a.def_priority);
        }
        msg.transmission = Some(Box::new(ferry_model::message::TransmissionHeader {
            remote_queue: r.queue,
            remote_qmgr: r.qmgr,
            xmit_id: MsgId(self.qm.shared.ids.transmission_id(self.conn_id)),
        }));
        Ok(())
    }

    /// Fills in what the queue manager sets in a descriptor (reply-to resolution, ids, put
    /// context, priority ceiling) and checks what it refuses. Returns the expiry deadline and a
    /// warning, if any.
    pub(super) fn resolve_descriptor(
        &self,
        msg: &mut Message,
        opts: &PutOptions,
    ) -> MqResult<(u64, Option<Reason>)> {
        let shared = &self.qm.shared;
        let d = &mut msg.descriptor;
        if opts.context != PutContext::SetAll {
            (d.reply_to_queue, d.reply_to_qmgr) =
                self.qm.reply_to(d.reply_to_queue, d.reply_to_qmgr);
        }
        let mut warning = None;
        if let Priority::Value(p) = d.priority {
            if p > MAX_PRIORITY {
                d.priority = Priority::Value(MAX_PRIORITY);
                warning = Some(Reason::PriorityExceedsMaximum);
            }
        }
        if d.report != 0 {
            warning = report::check_report_options(d)?.or(warning);
        }
        if d.message_type == MessageType::Request && d.reply_to_queue.is_empty() {
            return Err(MqError::new(
                Reason::MissingReplyToQ,
                "a request message needs a reply-to queue; set reply_to_queue",
            ));
        }
        let expires_at = match d.expiry {
            None => 0,
            Some(e) if e.is_zero() => {
                return Err(MqError::new(
                    Reason::ExpiryError,
                    "an expiry of zero is not valid; use None for unlimited",
                ))
            }
            Some(e) => shared.clock.deadline(e),
        };
        if opts.new_msg_id || d.msg_id.is_none() {
            d.msg_id = MsgId(shared.ids.next());
        }
        if opts.new_correl_id {
            d.correl_id = CorrelId(shared.ids.next());
        }
        self.set_context(d, opts.context);
        d.backout_count = 0;
        Ok((expires_at, warning))
    }

    /// The put's context fields as MQPMO's context options say.
    fn set_context(&self, d: &mut ferry_model::message::MessageDescriptor, context: PutContext) {
        match context {
            PutContext::Default => {
                d.put_time = self.qm.clock().wall();
                d.put_appl_name = self.app_name;
                d.user_id = self.user_id;
            }
            PutContext::None => {
                d.put_time = self.qm.clock().wall();
                d.put_appl_name = ApplName::EMPTY;
                d.user_id = UserId::EMPTY;
            }
            // The caller's (or the passed) identity; the origin is this application, now.
            PutContext::SetIdentity | PutContext::PassIdentity(_) => {
                d.put_time = self.qm.clock().wall();
                d.put_appl_name = self.app_name;
            }
            PutContext::SetAll | PutContext::PassAll(_) => {}
        }
    }

    /// A persistent operation was logged at `lsn`: outside a unit of work it must be durable
    /// before the call returns; inside one, the commit makes it durable.
    pub(super) fn logged(&mut self, lsn: Option<u64>, in_uow: bool) -> MqResult<()> {
        let Some(lsn) = lsn else { return Ok(()) };
        if in_uow {
            self.uow_logged = true;
            return Ok(());
        }
        if self.defer_durability {
            self.owe(lsn);
            return Ok(());
        }
        match self.qm.durability() {
            Some(d) => d.wait(lsn),
            None => Ok(()),
        }
    }

    /// Records a message put or got inside the unit of work.
    pub(super) fn join_uow(&mut self, queue: Arc<Queue>, pos: Pos, kind: UowKind) {
        debug_assert!(
            self.uow_id.is_some(),
            "a message joins an open unit of work"
        );
        self.uow.push(UowEntry { queue, pos, kind });
        self.counters
            .uow_messages
            .store(self.uow.len(), Ordering::Relaxed);
    }

    /// The unit of work id, checking MAXUMSGS before one more message joins it.
    pub(super) fn uow_slot(&mut self) -> MqResult<UowId> {
        let max = self.qm.shared.attrs.read().max_uncommitted_msgs;
        if self.uow.len() >= max {
            return Err(MqError::new(
                Reason::SyncpointLimitReached,
                format!("the unit of work already holds {max} messages (MAXUMSGS); commit first"),
            ));
        }
        Ok(*self.uow_id.get_or_insert_with(|| self.qm.new_uow_id()))
    }
}

/// "As queue definition" persistence and priority resolved from a definition's defaults.
fn as_defaults(msg: &mut Message, persistence: Persistence, priority: u8) {
    if msg.descriptor.persistence == Persistence::AsQueueDef {
        msg.descriptor.persistence = persistence;
    }
    if msg.descriptor.priority == Priority::AsQueueDef {
        msg.descriptor.priority = Priority::Value(priority);
    }
}

/// An alias's inhibit flag and defaults.
fn alias_defaults(a: &AliasQueueAttrs, queue: &Arc<Queue>, msg: &mut Message) -> MqResult<()> {
    if a.put_inhibited {
        return Err(MqError::new(
            Reason::PutInhibited,
            format!("puts are inhibited on alias queue for {}", queue.name),
        ));
    }
    as_defaults(msg, a.def_persistence, a.def_priority);
    Ok(())
}

/// The handle was opened for the context a put sets or passes (setting implies passing, all
/// implies identity, as in MQ).
fn context_opened(qh: &QueueHandle, context: PutContext) -> MqResult<()> {
    let o = &qh.opts;
    let (ok, reason, what) = match context {
        PutContext::SetAll => (o.set_all_context, Reason::NotOpenForSetAll, "setting all"),
        PutContext::SetIdentity => (
            o.set_identity_context || o.set_all_context,
            Reason::NotOpenForSetIdent,
            "setting identity",
        ),
        PutContext::PassAll(_) => (
            o.pass_all_context || o.set_all_context,
            Reason::NotOpenForPassAll,
            "passing all",
        ),
        PutContext::PassIdentity(_) => (
            o.pass_identity_context
                || o.pass_all_context
                || o.set_identity_context
                || o.set_all_context,
            Reason::NotOpenForPassIdent,
            "passing identity",
        ),
        PutContext::Default | PutContext::None => (true, Reason::None, ""),
    };
    if ok {
        return Ok(());
    }
    Err(MqError::new(
        reason,
        format!(
            "{what} context needs the queue opened to do so; {} was not",
            qh.opened_name
        ),
    ))
}

/// OPTIONS_ERROR for MQPMO_RETAIN or MQPMO_NOT_OWN_SUBS on a put to a queue: they are for
/// publications, and refused rather than ignored.
fn topic_only_options(opts: &PutOptions) -> MqResult<()> {
    if opts.retain || opts.not_own_subs {
        return Err(MqError::new(
            Reason::OptionsError,
            "MQPMO_RETAIN and MQPMO_NOT_OWN_SUBS are for publications: put them to a topic",
        ));
    }
    Ok(())
}
