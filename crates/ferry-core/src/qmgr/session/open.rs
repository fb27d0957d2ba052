//! MQOPEN and MQCLOSE: resolving what a handle names (local, alias, model and remote queues,
//! queues at other queue managers), opening it with the options asked, and closing it.

use super::*;

impl Session {
    /// Opens a queue (local, alias or model) or the queue manager object.
    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let r = self.open_object(od, opts);
        self.count_call(crate::qmgr::apistats::ApiCall::Open, &r);
        if let Some(q) = r.as_ref().ok().and_then(|h| self.accounted_queue(*h)) {
            self.account(|a, qm| a.opened(qm, &q, true));
        }
        if self.qm.mqi_stats().on() || self.acct.is_some() {
            use crate::qmgr::apistats::{slot, OT_NAMELIST, OT_PROCESS, OT_Q, OT_Q_MGR, OT_TOPIC};
            let ot = match od {
                ObjectDescriptor::QueueManager => OT_Q_MGR,
                ObjectDescriptor::Namelist(_) => OT_NAMELIST,
                ObjectDescriptor::Process(_) => OT_PROCESS,
                ObjectDescriptor::Topic { .. } => OT_TOPIC,
                _ => OT_Q,
            };
            self.count_typed(slot::OPENS, ot, &r);
        }
        r
    }

    /// MQOPEN without counting it (the opens the queue manager makes for an MQPUT1).
    pub(super) fn open_object(
        &mut self,
        od: &ObjectDescriptor,
        opts: OpenOptions,
    ) -> MqResult<Hobj> {
        self.check_open(&opts)?;
        self.authorize_open(od, &opts)?;
        let handle = match od {
            ObjectDescriptor::QueueManager => {
                if opts.input != InputMode::None || opts.output || opts.browse || opts.set {
                    return Err(MqError::new(
                        Reason::OptionNotValidForType,
                        "the queue manager object can only be opened for inquire",
                    ));
                }
                Handle::QueueManager
            }
            ObjectDescriptor::Namelist(name) | ObjectDescriptor::Process(name) => {
                self.open_definition(od, name, &opts)?
            }
            ObjectDescriptor::Queue {
                name,
                dynamic_name,
                selector,
            } => {
                let qh = self.open_selecting(name, dynamic_name, selector, opts)?;
                Handle::Queue(Box::new(qh))
            }
            ObjectDescriptor::QueueAt { name, qmgr } => {
                let route = self.qm.route(*name, *qmgr)?;
                Handle::Queue(Box::new(self.open_routed(name, route, None, opts)?))
            }
            ObjectDescriptor::Topic { object, string } if opts.inquire && !opts.output => {
                self.open_topic_inquiry(object.as_ref(), string, &opts)?
            }
            ObjectDescriptor::Topic { object, string } => {
                let topic = open_topic(&self.qm, object.as_ref(), string, &opts)?;
                let user = self.user_id.as_str().to_owned();
                Handle::Topic(
                    self.qm
                        .register_publisher(topic.into(), self.conn_id, &user),
                )
            }
        };
        if let Handle::Queue(qh) = &handle {
            // The sync queue resolved under any name (an alias, a queue at this queue manager).
            if let Err(e) = self.check_channel_queue(&qh.queue.name) {
                self.release(qh);
                return Err(e);
            }
        }
        Ok(self.register(handle, &opts))
    }

    /// OPTIONS_ERROR for an open asking nothing, HANDLE_NOT_AVAILABLE at MAXHANDS.
    fn check_open(&self, opts: &OpenOptions) -> MqResult<()> {
        self.check_running(opts.fail_if_quiescing)?;
        if opts.input == InputMode::None
            && !opts.output
            && !opts.browse
            && !opts.inquire
            && !opts.set
        {
            return Err(MqError::new(
                Reason::OptionsError,
                "open needs at least one of input, output, browse, inquire or set",
            ));
        }
        let max = self.qm.shared.attrs.read().max_handles;
        if self.handles.len() >= max {
            return Err(MqError::new(
                Reason::HandleNotAvailable,
                format!("this connection already has {max} handles open (MAXHANDS)"),
            ));
        }
        Ok(())
    }

    /// A queue handle, with MQOD's selection string if one is given. A selecting handle reads
    /// no messages ahead: the stream would carry what the selector refuses.
    fn open_selecting(
        &mut self,
        name: &ObjectName,
        dynamic_name: &Option<String>,
        selector: &Option<String>,
        opts: OpenOptions,
    ) -> MqResult<QueueHandle> {
        let selector = queue_selector(selector.as_deref(), &opts)?;
        let opts = match selector {
            Some(_) => OpenOptions {
                read_ahead: Some(false),
                ..opts
            },
            None => opts,
        };
        let mut qh = self.open_queue(name, dynamic_name.as_deref(), opts)?;
        qh.selector = selector.map(Arc::new);
        Ok(qh)
    }

    /// Gives an opened object its handle number and shows it in DISPLAY CONN.
    pub(super) fn register(&mut self, handle: Handle, opts: &OpenOptions) -> Hobj {
        let id = self.next_handle;
        self.next_handle = self.next_handle.wrapping_add(1).max(1);
        let (object, objtype) = match &handle {
            Handle::Queue(qh) => (qh.queue.name, "QUEUE"),
            Handle::QueueManager => (self.qm.name(), "QMGR"),
            Handle::Topic(_) | Handle::Sub(_) => (base_topic(), "TOPIC"),
            Handle::Definition(kind, n) => (*n, kind.tag()),
        };
        let mut shown = self.counters.handles.lock();
        if shown.is_empty() {
            shown.reserve_exact(1);
        }
        shown.push((
            id,
            crate::qmgr::catalog::HandleInfo {
                object,
                objtype,
                input: opts.input != InputMode::None,
                output: opts.output,
                browse: opts.browse,
                inquire: opts.inquire,
                set: opts.set,
            },
        ));
        drop(shown);
        self.handles.insert(id, handle);
        self.counters
            .open_handles
            .store(self.handles.len(), Ordering::Relaxed);
        Hobj(id)
    }

    /// NOT_AUTHORIZED unless this connection holds what `opts` ask on the object named: the
    /// name opened (an alias, a remote or model queue definition, not what it resolves to),
    /// RQMNAME for a queue at another queue manager. The channels' own agents open the sync
    /// queue without a record.
    fn authorize_open(&mut self, od: &ObjectDescriptor, opts: &OpenOptions) -> MqResult<()> {
        if let Some(alt) = opts.alternate_user {
            return self.authorize_alternate(od, opts, alt.as_str());
        }
        let needed = open_authority(opts);
        match od {
            ObjectDescriptor::QueueManager => {
                // Options the queue manager object cannot take are refused as such below.
                let needed = Authority(needed.0 & AuthObjType::QMgr.applicable().0);
                let n = self.qm.name();
                self.authorize(AuthObjType::QMgr, &n, needed)
            }
            ObjectDescriptor::Namelist(name) | ObjectDescriptor::Process(name) => {
                let t = definition_type(od);
                self.authorize(t, name, Authority(needed.0 & t.applicable().0))
            }
            ObjectDescriptor::Queue { name, .. } => {
                if self.channel_agent && name.as_str() == crate::qmgr::system::CHANNEL_SYNC_QUEUE {
                    return Ok(());
                }
                self.authorize(AuthObjType::Queue, name, needed)
            }
            ObjectDescriptor::QueueAt { name, qmgr }
                if *qmgr == self.qm.name() || qmgr.is_empty() =>
            {
                self.authorize(AuthObjType::Queue, name, needed)
            }
            ObjectDescriptor::QueueAt { qmgr, .. } => {
                self.authorize(AuthObjType::RqmName, qmgr, Authority::PUT)
            }
            ObjectDescriptor::Topic { object, string } if opts.inquire && !opts.output => {
                let name = self.topic_object_of(object.as_ref(), string)?;
                self.authorize(AuthObjType::Topic, &name, Authority::DSP)
            }
            ObjectDescriptor::Topic { object, string } => {
                let topic = full_topic(&self.qm, object.as_ref(), string)?;
                self.authorize_topic(&topic, Authority::PUB).map(|_| ())
            }
        }
    }

    /// MQOO_ALTERNATE_USER_AUTHORITY: this connection needs ALTUSR on the queue manager, and
    /// `alt` what the open asks of the object (checked afresh, not from this connection's
    /// cache, which is its own user's).
    fn authorize_alternate(
        &mut self,
        od: &ObjectDescriptor,
        opts: &OpenOptions,
        alt: &str,
    ) -> MqResult<()> {
        let qm_name = self.qm.name();
        self.authorize(AuthObjType::QMgr, &qm_name, Authority::ALTUSR)?;
        let who = self.qm.resolve_principal(alt);
        let needed = open_authority(opts);
        let (objtype, name, needed) = match od {
            ObjectDescriptor::QueueManager => (
                AuthObjType::QMgr,
                qm_name,
                Authority(needed.0 & AuthObjType::QMgr.applicable().0),
            ),
            ObjectDescriptor::Namelist(name) | ObjectDescriptor::Process(name) => {
                let t = definition_type(od);
                (t, *name, Authority(needed.0 & t.applicable().0))
            }
            ObjectDescriptor::Queue { name, .. } => (AuthObjType::Queue, *name, needed),
            ObjectDescriptor::QueueAt { name, qmgr } if *qmgr == qm_name || qmgr.is_empty() => {
                (AuthObjType::Queue, *name, needed)
            }
            ObjectDescriptor::QueueAt { qmgr, .. } => (AuthObjType::RqmName, *qmgr, Authority::PUT),
            ObjectDescriptor::Topic { object, string } => {
                let topic = full_topic(&self.qm, object.as_ref(), string)?;
                let chain = self.qm.topic_chain(&topic);
                let granted = chain.iter().find(|n| {
                    self.qm
                        .authority(AuthObjType::Topic, n.as_str(), &who)
                        .contains(Authority::PUB)
                });
                (
                    AuthObjType::Topic,
                    granted.copied().unwrap_or(chain[0]),
                    Authority::PUB,
                )
            }
        };
        self.qm
            .check_authority(&who, objtype, name.as_str(), needed)
    }

    /// The topic object an inquire-only MQOPEN of a topic reads: the one named, else the
    /// closest above the topic string (SYSTEM.BASE.TOPIC at the root).
    fn topic_object_of(&self, object: Option<&ObjectName>, string: &str) -> MqResult<ObjectName> {
        if let Some(o) = object.filter(|o| !o.is_empty()) {
            self.qm.topic_object(o.as_str())?;
            return Ok(*o);
        }
        let topic = full_topic(&self.qm, None, string)?;
        Ok(self
            .qm
            .topic_chain(&topic)
            .first()
            .copied()
            .unwrap_or_else(base_topic))
    }

    /// A topic opened with MQOO_INQUIRE (and no output): its topic object, for MQINQ.
    fn open_topic_inquiry(
        &self,
        object: Option<&ObjectName>,
        string: &str,
        opts: &OpenOptions,
    ) -> MqResult<Handle> {
        if opts.input != InputMode::None || opts.browse || opts.set {
            return Err(MqError::new(
                Reason::OptionNotValidForType,
                "a topic is opened to publish (output) or to inquire its topic object",
            ));
        }
        let name = self.topic_object_of(object, string)?;
        Ok(Handle::Definition(
            ferry_model::objects::ObjectKind::Topic,
            name,
        ))
    }

    /// A namelist or process definition, opened for inquire only (MQ's rule); 2085 when it is
    /// not defined.
    fn open_definition(
        &self,
        od: &ObjectDescriptor,
        name: &ObjectName,
        opts: &OpenOptions,
    ) -> MqResult<Handle> {
        use ferry_model::objects::ObjectKind;
        let kind = match od {
            ObjectDescriptor::Namelist(_) => ObjectKind::Namelist,
            _ => ObjectKind::Process,
        };
        if opts.input != InputMode::None || opts.output || opts.browse || opts.set {
            return Err(MqError::new(
                Reason::OptionNotValidForType,
                format!(
                    "a {} can only be opened for inquire",
                    kind.tag().to_ascii_lowercase()
                ),
            ));
        }
        match kind {
            ObjectKind::Namelist => self.qm.namelist(name.as_str()).map(|_| ())?,
            _ => self.qm.process(name.as_str()).map(|_| ())?,
        }
        Ok(Handle::Definition(kind, *name))
    }

    pub(super) fn open_queue(
        &mut self,
        name: &ObjectName,
        dynamic: Option<&str>,
        opts: OpenOptions,
    ) -> MqResult<QueueHandle> {
        let (queue, alias, created) = match self.qm.lookup(name) {
            Some(Object::Local(q)) => (q, None, false),
            Some(Object::Alias(a)) => (self.alias_target(name, &a)?, Some(a), false),
            Some(Object::Model(attrs)) => {
                let max = self.qm.shared.attrs.read().max_dynamic_per_conn;
                if self.dynamic_queues >= max {
                    return Err(MqError::new(
                        Reason::ResourceProblem,
                        format!("this connection has created {max} dynamic queues it has not deleted (MAXDYNQC); delete some, or raise MAXDYNQC"),
                    ));
                }
                let q = self.qm.create_dynamic(&attrs, dynamic.unwrap_or("AMQ.*"))?;
                self.dynamic_queues += 1;
                (q, None, true)
            }
            Some(Object::Remote(a)) => {
                let route = self.qm.route_remote_definition(name, &a.lock())?;
                return self.open_routed(name, route, Some(a), opts);
            }
            None => return Err(crate::qmgr::unknown(name)),
        };
        let (input, exclusive, read_ahead, temporary_owner) = {
            let mut st = queue.lock();
            let (input, exclusive) = claim_open(&mut st, &queue.name, &opts)?;
            let read_ahead = match (opts.read_ahead, st.attrs.def_read_ahead) {
                (_, ferry_model::objects::ReadAhead::Disabled) => false,
                // Saved context follows each get, which streaming ahead would skip.
                _ if opts.save_all_context => false,
                (Some(asked), _) => asked,
                (None, def) => def == ferry_model::objects::ReadAhead::Yes,
            };
            let temporary = created && st.attrs.definition_type == DefinitionType::TemporaryDynamic;
            (input, exclusive, read_ahead, temporary)
        };
        if input && queue.lock().open_input == 1 {
            // Its first reader: a trigger monitor starting on an initiation queue.
            self.qm.initiation_queue_opened(&queue.name);
        }
        let stream = (input && read_ahead).then_some(StreamLedger { streamed: 0 });
        Ok(QueueHandle {
            opened_name: *name,
            own: Arc::new(OwnCount(queue.clone())),
            queue,
            alias,
            remote: None,
            input,
            exclusive,
            opts,
            temporary_owner,
            cursor: None,
            stream,
            saved_context: None,
            selector: None,
        })
    }

    /// The local queue an alias resolves to.
    fn alias_target(
        &self,
        name: &ObjectName,
        a: &Arc<Mutex<AliasQueueAttrs>>,
    ) -> MqResult<Arc<Queue>> {
        let target = a.lock().target;
        match self.qm.lookup(&target) {
            Some(Object::Local(q)) => Ok(q),
            Some(_) => Err(MqError::new(
                Reason::QTypeError,
                format!("alias {name} resolves to {target}, which is not a local queue"),
            )),
            None => Err(MqError::new(
                Reason::UnknownAliasBaseQ,
                format!("alias {name} resolves to {target}, which is not defined"),
            )),
        }
    }

    /// Opens a destination that name resolution routed: a local queue, or a transmission
    /// queue standing in for a queue on another queue manager (output only, as in MQ).
    pub(super) fn open_routed(
        &mut self,
        name: &ObjectName,
        route: crate::qmgr::routing::Route,
        definition: Option<Arc<Mutex<RemoteQueueAttrs>>>,
        opts: OpenOptions,
    ) -> MqResult<QueueHandle> {
        let (xmitq, queue, qmgr) = match route {
            crate::qmgr::routing::Route::Local(q) if definition.is_none() => {
                return self.open_queue(&q, None, opts)
            }
            crate::qmgr::routing::Route::Local(q) => {
                // A remote queue definition that points back here: the queue is local.
                let queue = self.qm.resolve_local(&q)?;
                (queue, q, self.qm.name())
            }
            crate::qmgr::routing::Route::Remote { xmitq, queue, qmgr } => (xmitq, queue, qmgr),
        };
        if opts.input != InputMode::None || opts.browse {
            return Err(MqError::new(
                Reason::OptionNotValidForType,
                format!("{name} is a queue on another queue manager ({queue} at {qmgr}); it can only be opened for output"),
            ));
        }
        // Inquire and set reach a local definition of a remote queue, not the queue itself.
        if (opts.inquire || opts.set) && definition.is_none() {
            return Err(MqError::new(
                Reason::OptionNotValidForType,
                format!("{queue} at {qmgr} is on another queue manager: only a local definition of a remote queue (QREMOTE) can be opened to inquire or set"),
            ));
        }
        if opts.output {
            xmitq.lock().open_output += 1;
        }
        Ok(QueueHandle {
            opened_name: *name,
            own: Arc::new(OwnCount(xmitq.clone())),
            queue: xmitq,
            alias: None,
            remote: Some(RemoteDest {
                queue,
                qmgr,
                definition,
            }),
            input: false,
            exclusive: false,
            opts,
            temporary_owner: false,
            cursor: None,
            stream: None,
            saved_context: None,
            selector: None,
        })
    }

    /// The name of the queue behind a handle: for a dynamic queue, the name it was given.
    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        match self.handle(h)? {
            Handle::Queue(qh) => Ok(qh.queue.name),
            Handle::QueueManager => Ok(self.qm.name()),
            Handle::Topic(_) | Handle::Sub(_) => Ok(base_topic()),
            Handle::Definition(_, n) => Ok(*n),
        }
    }

    /// The full topic string behind a handle opened on a topic.
    pub fn topic_string(&self, h: Hobj) -> MqResult<String> {
        match self.handle(h)? {
            Handle::Topic(p) => Ok(p.topic.to_string()),
            _ => Err(MqError::new(
                Reason::ObjectTypeError,
                "this handle is not a topic",
            )),
        }
    }

    /// Closes a handle. A temporary dynamic queue is deleted when the handle that created it
    /// closes; `Delete`/`DeletePurge` delete a permanent dynamic queue.
    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let ot = self.object_type(h);
        let queue = self.accounted_queue(h);
        let r = self.close_object(h, opts);
        self.count_call(crate::qmgr::apistats::ApiCall::Close, &r);
        if let (Some(q), true) = (queue, r.is_ok()) {
            self.account(|a, qm| a.opened(qm, &q, false));
        }
        self.count_typed(crate::qmgr::apistats::slot::CLOSES, ot, &r);
        r
    }

    /// MQCLOSE without counting it.
    pub(super) fn close_object(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let handle = self.handles.get(&h.0).ok_or_else(|| hobj_error(h))?;
        if let (Handle::Queue(qh), CloseOptions::Delete | CloseOptions::DeletePurge) =
            (handle, opts)
        {
            let st = qh.queue.lock();
            if st.attrs.definition_type != DefinitionType::PermanentDynamic
                && st.attrs.definition_type != DefinitionType::TemporaryDynamic
            {
                return Err(MqError::new(
                    Reason::OptionNotValidForType,
                    format!(
                        "queue {} is not a dynamic queue; delete it with the admin command",
                        qh.queue.name
                    ),
                ));
            }
            let others = st.open_input + st.open_output
                - usize::from(qh.input)
                - usize::from(qh.opts.output);
            if others > 0 {
                return Err(MqError::new(
                    Reason::ObjectInUse,
                    format!("queue {} is open through {others} other handle(s); it can be deleted once they close", qh.queue.name),
                ));
            }
            if opts == CloseOptions::Delete && st.store.depth() > 0 {
                return Err(MqError::new(
                    Reason::QNotEmpty,
                    format!(
                        "queue {} holds {} messages; close with delete-purge to discard them",
                        qh.queue.name,
                        st.store.depth()
                    ),
                ));
            }
        }
        let handle = self.handles.remove(&h.0).ok_or_else(|| hobj_error(h))?;
        self.counters.handles.lock().retain(|(id, _)| *id != h.0);
        self.counters
            .open_handles
            .store(self.handles.len(), Ordering::Relaxed);
        match handle {
            Handle::Queue(qh) => {
                let delete = qh.temporary_owner
                    || matches!(opts, CloseOptions::Delete | CloseOptions::DeletePurge);
                self.release(&qh);
                if delete {
                    self.qm.drop_dynamic(&qh.queue);
                    self.dynamic_queues = self.dynamic_queues.saturating_sub(1);
                }
            }
            Handle::Sub(sh) => self.close_sub(&sh, opts)?,
            Handle::Topic(p) => self.qm.unregister_publisher(p.id),
            Handle::QueueManager | Handle::Definition(..) => {}
        }
        Ok(())
    }

    pub(super) fn release(&self, qh: &QueueHandle) {
        let mut st = qh.queue.lock();
        if qh.input {
            st.open_input = st.open_input.saturating_sub(1);
            if qh.exclusive {
                st.exclusive_input = false;
            }
        }
        if qh.opts.output {
            st.open_output = st.open_output.saturating_sub(1);
        }
    }

    pub(super) fn handle(&self, h: Hobj) -> MqResult<&Handle> {
        if self.ended {
            return Err(MqError::new(
                Reason::HconnError,
                "this connection has been disconnected",
            ));
        }
        self.handles.get(&h.0).ok_or_else(|| hobj_error(h))
    }

    pub(super) fn queue_handle(&self, h: Hobj) -> MqResult<&QueueHandle> {
        match self.handle(h)? {
            Handle::Queue(qh) => Ok(qh),
            Handle::QueueManager => Err(MqError::new(
                Reason::ObjectTypeError,
                "this handle is the queue manager object, not a queue",
            )),
            Handle::Topic(t) => Err(MqError::new(
                Reason::ObjectTypeError,
                format!("this handle is the topic {t:?}, not a queue"),
            )),
            Handle::Sub(_) => Err(MqError::new(
                Reason::ObjectTypeError,
                "this handle is a subscription, not a queue; get from the queue handle MQSUB returned",
            )),
            Handle::Definition(kind, n) => Err(MqError::new(
                Reason::ObjectTypeError,
                format!("this handle is the {} {n}, not a queue", kind.tag().to_ascii_lowercase()),
            )),
        }
    }
}

/// The root of the topic tree's objects (what DISPLAY CONN shows for a topic handle).
pub(super) fn base_topic() -> ObjectName {
    ferry_model::name::object_name(ferry_model::system::BASE_TOPIC).expect("a valid name")
}

/// A topic opened for publishing: output only (and output is required); the full topic
/// string, the object's TOPICSTR joined with the object string.
fn open_topic(
    qm: &QueueManager,
    object: Option<&ObjectName>,
    string: &str,
    opts: &OpenOptions,
) -> MqResult<String> {
    if opts.input != InputMode::None || opts.browse || opts.set || !opts.output {
        return Err(MqError::new(
            Reason::OptionNotValidForType,
            "a topic is opened for output (to publish) only; subscribe to receive its publications",
        ));
    }
    let full = full_topic(qm, object, string)?;
    ferry_model::topic::check_topic(&full)?;
    Ok(full)
}

/// A topic object's TOPICSTR (none: '') joined with an application's object string.
pub(super) fn full_topic(
    qm: &QueueManager,
    object: Option<&ObjectName>,
    string: &str,
) -> MqResult<String> {
    let object_topic = match object.filter(|o| !o.is_empty()) {
        None => String::new(),
        Some(o) => qm.topic_object(o.as_str())?.topic_string,
    };
    Ok(ferry_model::topic::join(&object_topic, string))
}

/// Counts an open on the queue (under its lock): input (shared or exclusive, as asked or as
/// the queue's defaults say) and output. Returns (input, exclusive).
fn claim_open(
    st: &mut crate::engine::QueueState,
    name: &ObjectName,
    opts: &OpenOptions,
) -> MqResult<(bool, bool)> {
    let (input, exclusive) = match opts.input {
        InputMode::None => (false, false),
        InputMode::Exclusive => (true, true),
        InputMode::Shared => (true, !st.attrs.shareable),
        InputMode::AsQueueDef => (
            true,
            st.attrs.def_input_open == DefaultInputOpen::Exclusive || !st.attrs.shareable,
        ),
    };
    if input && (st.exclusive_input || (exclusive && st.open_input > 0)) {
        return Err(MqError::new(
            Reason::ObjectInUse,
            format!(
                "queue {name} is open for input by another handle and cannot be shared this way"
            ),
        ));
    }
    if input {
        st.open_input += 1;
        st.exclusive_input |= exclusive;
    }
    if opts.output {
        st.open_output += 1;
    }
    Ok((input, exclusive))
}

/// The authorities an open's options need (MQ's table: input GET, browse BROWSE, output PUT,
/// inquire INQ, set SET, set identity SETID, set all SETALL, pass identity PASSID, pass all
/// PASSALL; saving context needs nothing more than input).
pub(crate) fn open_authority(opts: &OpenOptions) -> Authority {
    let pairs = [
        (opts.input != InputMode::None, Authority::GET),
        (opts.browse, Authority::BROWSE),
        (opts.output, Authority::PUT),
        (opts.inquire, Authority::INQ),
        (opts.set, Authority::SET),
        (opts.set_identity_context, Authority::SETID),
        (opts.set_all_context, Authority::SETALL),
        (opts.pass_identity_context, Authority::PASSID),
        (opts.pass_all_context, Authority::PASSALL),
    ];
    pairs
        .into_iter()
        .filter(|(asked, _)| *asked)
        .fold(Authority::NONE, |a, (_, b)| a.with(b))
}

/// MQOD's SelectionString on a queue: none when blank; only with input or browse (2516),
/// at most MQ_SELECTOR_LENGTH (2519), a valid selector (2459).
fn queue_selector(
    text: Option<&str>,
    opts: &OpenOptions,
) -> MqResult<Option<ferry_model::selector::Selector>> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(None);
    };
    if opts.input == InputMode::None && !opts.browse {
        return Err(MqError::new(
            Reason::SelectorInvalidForType,
            "a selection string selects the messages a get or browse sees; open the queue for input or browse, or give none",
        ));
    }
    if text.len() > ferry_model::selector::MAX_SELECTOR_LEN {
        return Err(MqError::new(
            Reason::SelectionStringError,
            format!(
                "the selection string is {} bytes; the limit (MQ_SELECTOR_LENGTH) is {}",
                text.len(),
                ferry_model::selector::MAX_SELECTOR_LEN
            ),
        ));
    }
    ferry_model::selector::Selector::parse(text).map(Some)
}

/// The authority class of a namelist or process descriptor.
fn definition_type(od: &ObjectDescriptor) -> AuthObjType {
    match od {
        ObjectDescriptor::Namelist(_) => AuthObjType::Namelist,
        _ => AuthObjType::Process,
    }
}
