//! MQINQ and MQSET on an open handle.

use super::*;
use ferry_model::objects::{DefinitionType, LocalQueueAttrs, QueueDefinition};

impl Session {
    /// Reads attributes of the object behind a handle opened for inquire.
    pub fn inquire(&self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let r = self.inquire_attrs(h, selectors);
        self.count_call(crate::qmgr::apistats::ApiCall::Inquire, &r);
        let ot = self.object_type(h);
        self.count_typed(crate::qmgr::apistats::slot::INQS, ot, &r);
        r
    }

    fn inquire_attrs(&self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let handle = self.handle(h)?;
        let mut out = Vec::with_capacity(selectors.len());
        match handle {
            Handle::Sub(_) => {
                return Err(MqError::new(
                    Reason::NotOpenForInquire,
                    "a subscription handle's attributes are not inquired yet",
                ))
            }
            Handle::Topic(t) => {
                return Err(MqError::new(
                    Reason::NotOpenForInquire,
                    format!("topic {t:?} was opened to publish; open it with MQOO_INQUIRE alone to inquire its topic object"),
                ))
            }
            Handle::Definition(kind, name) => {
                for s in selectors {
                    out.push(self.definition_attr(*kind, name, *s)?);
                }
            }
            Handle::QueueManager => {
                let attrs = self.qm.attrs();
                for s in selectors {
                    out.push(inquire::qmgr_attr(*s, &attrs).ok_or_else(|| selector_error(*s))?);
                }
            }
            Handle::Queue(qh) => {
                if !qh.opts.inquire {
                    return Err(MqError::new(
                        Reason::NotOpenForInquire,
                        format!("queue {} was not opened for inquire", qh.opened_name),
                    ));
                }
                if let Some(def) = qh.remote.as_ref().and_then(|r| r.definition.as_ref()) {
                    let def = def.lock().clone();
                    let opened = qh.opened_name.to_string();
                    for s in selectors {
                        let v = inquire::remote_queue_attr(*s, &opened, &def);
                        out.push(v.ok_or_else(|| selector_error(*s))?);
                    }
                    return Ok(out);
                }
                let st = qh.queue.lock();
                let counts = QueueCounts {
                    depth: st.store.depth(),
                    open_input: st.open_input,
                    open_output: st.open_output,
                };
                let alias = qh.alias.as_ref().map(|a| a.lock().clone());
                let opened = qh.opened_name.to_string();
                for s in selectors {
                    // An alias answers its own name, type, target, inhibits and dates; the
                    // rest are its target's.
                    let v = alias
                        .as_ref()
                        .and_then(|a| inquire::alias_queue_attr(*s, &opened, a))
                        .or_else(|| {
                            let name = qh.queue.name.as_str();
                            inquire::local_queue_attr(*s, name, 1, &st.attrs, counts)
                        });
                    out.push(v.ok_or_else(|| selector_error(*s))?);
                }
            }
        }
        Ok(out)
    }

    /// Sets attributes through a handle opened for set: only the inhibit flags, as MQSET allows.
    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let r = self.set_attrs(h, values);
        self.count_call(crate::qmgr::apistats::ApiCall::Set, &r);
        let ot = self.object_type(h);
        self.count_typed(crate::qmgr::apistats::slot::SETS, ot, &r);
        r
    }

    fn set_attrs(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let qh = self.queue_handle(h)?;
        if !qh.opts.set {
            return Err(MqError::new(
                Reason::NotOpenForSet,
                format!("queue {} was not opened for set", qh.opened_name),
            ));
        }
        let remote = qh.remote.as_ref().and_then(|r| r.definition.as_ref());
        // All or nothing, as MQ: every value is checked before any is set.
        for (s, v) in values {
            if remote.is_some() && *s == Selector::InhibitGet {
                return Err(selector_error(*s));
            }
            check_set(*s, v, qh.alias.is_some() || remote.is_some())?;
        }
        let now = self.qm.unix_now_s();
        let _gate = self.qm.durability().map(|d| d.gate());
        if let Some(def) = remote {
            let mut d = def.lock();
            if let Some((_, v)) = values.last() {
                d.put_inhibited = *v == AttrValue::Int(1);
            }
            d.altered_unix_s = now;
            return self
                .qm
                .log_definition(&qh.opened_name, &QueueDefinition::Remote(d.clone()));
        }
        // MQSET is kept like ALTER: the changed definition is logged.
        let (name, def) = match &qh.alias {
            Some(a) => {
                let mut a = a.lock();
                for (s, v) in values {
                    let on = *v == AttrValue::Int(1);
                    match s {
                        Selector::InhibitGet => a.get_inhibited = on,
                        _ => a.put_inhibited = on,
                    }
                }
                a.altered_unix_s = now;
                (qh.opened_name, Some(QueueDefinition::Alias(a.clone())))
            }
            None => {
                let mut st = qh.queue.lock();
                for (s, v) in values {
                    set_local(&mut st, *s, v);
                }
                Arc::make_mut(&mut st.attrs).altered_unix_s = now;
                // A temporary dynamic queue is never logged: it ends with the queue manager.
                let kept = st.attrs.definition_type != DefinitionType::TemporaryDynamic;
                let def = kept.then(|| QueueDefinition::Local(LocalQueueAttrs::clone(&st.attrs)));
                (qh.queue.name, def)
            }
        };
        match def {
            Some(def) => self.qm.log_definition(&name, &def),
            None => Ok(()),
        }
    }
}

/// Whether MQSET may give selector `s` the value `v` (the inhibit flags of any queue, a local
/// queue's trigger attributes), with MQ's reason when it may not.
fn check_set(s: Selector, v: &AttrValue, alias: bool) -> MqResult<()> {
    let (range, reason) = match s {
        Selector::InhibitGet | Selector::InhibitPut => (0..=1, Reason::InhibitValueError),
        _ if alias => return Err(selector_error(s)),
        Selector::TriggerControl => (0..=1, Reason::TriggerControlError),
        Selector::TriggerDepth => (1..=999_999_999, Reason::TriggerDepthError),
        Selector::TriggerMsgPriority => (0..=9, Reason::TriggerMsgPriorityErr),
        Selector::TriggerType => (0..=3, Reason::TriggerTypeError),
        Selector::TriggerData => {
            return match v {
                AttrValue::Str(t) if t.len() <= s.char_length() => Ok(()),
                _ => Err(MqError::new(
                    Reason::CharAttrLengthError,
                    format!("TriggerData is at most {} characters", s.char_length()),
                )),
            }
        }
        _ => return Err(selector_error(s)),
    };
    match *v {
        AttrValue::Int(n) if range.contains(&n) => Ok(()),
        _ => Err(MqError::new(
            reason,
            format!("value {v:?} is not valid for {s:?}"),
        )),
    }
}

/// Sets one checked attribute of a local queue (turning GET off ends every waiting get).
fn set_local(st: &mut crate::engine::QueueState, s: Selector, v: &AttrValue) {
    use ferry_model::objects::TriggerType;
    let n = match v {
        AttrValue::Int(n) => *n,
        AttrValue::Str(t) => {
            Arc::make_mut(&mut st.attrs).triggering.data = t.clone();
            return;
        }
    };
    match s {
        Selector::InhibitGet => {
            let was = st.attrs.get_inhibited;
            Arc::make_mut(&mut st.attrs).get_inhibited = n == 1;
            if n == 1 && !was {
                st.waiters.end_all(Reason::GetInhibited);
            }
        }
        Selector::InhibitPut => Arc::make_mut(&mut st.attrs).put_inhibited = n == 1,
        Selector::TriggerControl => Arc::make_mut(&mut st.attrs).triggering.control = n == 1,
        Selector::TriggerDepth => Arc::make_mut(&mut st.attrs).triggering.depth = n as u32,
        Selector::TriggerMsgPriority => {
            Arc::make_mut(&mut st.attrs).triggering.msg_priority = n as u8
        }
        _ => {
            let types = [
                TriggerType::None,
                TriggerType::First,
                TriggerType::Every,
                TriggerType::Depth,
            ];
            Arc::make_mut(&mut st.attrs).triggering.trigger_type = types[n as usize];
        }
    }
}

fn selector_error(s: Selector) -> MqError {
    MqError::new(
        Reason::SelectorError,
        format!(
            "selector {s:?} ({}) does not apply to this object",
            s.code()
        ),
    )
}

impl Session {
    /// One attribute of the namelist, process or topic object behind a handle (2085 once it
    /// is deleted).
    fn definition_attr(
        &self,
        kind: ferry_model::objects::ObjectKind,
        name: &ObjectName,
        s: Selector,
    ) -> MqResult<AttrValue> {
        let v = match kind {
            ferry_model::objects::ObjectKind::Namelist => {
                let a = self.qm.namelist(name.as_str())?;
                inquire::namelist_attr(s, name.as_str(), &a)
            }
            ferry_model::objects::ObjectKind::Topic => {
                let a = self.qm.topic_object(name.as_str())?;
                inquire::topic_attr(s, name.as_str(), &a)
            }
            _ => {
                let a = self.qm.process(name.as_str())?;
                inquire::process_attr(s, name.as_str(), &a)
            }
        };
        v.ok_or_else(|| selector_error(s))
    }
}
