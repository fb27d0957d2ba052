//! MQINQ and MQSET on an open handle.

use super::*;

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
        let mut flags = Vec::with_capacity(values.len());
        for (s, v) in values {
            let on = match v {
                AttrValue::Int(0) => false,
                AttrValue::Int(1) => true,
                _ => {
                    return Err(MqError::new(
                        Reason::InhibitValueError,
                        format!("value {v:?} is not valid for {s:?}"),
                    ))
                }
            };
            match s {
                Selector::InhibitGet | Selector::InhibitPut => flags.push((*s, on)),
                _ => return Err(selector_error(*s)),
            }
        }
        for (s, on) in flags {
            match &qh.alias {
                Some(a) => {
                    let mut a = a.lock();
                    if s == Selector::InhibitGet {
                        a.get_inhibited = on;
                    } else {
                        a.put_inhibited = on;
                    }
                }
                None => {
                    let mut st = qh.queue.lock();
                    if s == Selector::InhibitGet {
                        let was = st.attrs.get_inhibited;
                        st.attrs.get_inhibited = on;
                        if on && !was {
                            st.waiters.end_all(Reason::GetInhibited);
                        }
                    } else {
                        st.attrs.put_inhibited = on;
                    }
                }
            }
        }
        Ok(())
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
