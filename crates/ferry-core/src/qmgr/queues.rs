//! Queue definitions: define, alter, delete and clear queues, list them and report their
//! status (the administrative operations DEFINE/ALTER/DELETE/CLEAR QLOCAL and DISPLAY QSTATUS
//! build on). A definition is logged, with the persistence gate held from its record to its
//! effect, when the queue manager has a recovery log.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use parking_lot::Mutex;

use ferry_model::name::{object_name, ObjectName};
use ferry_model::objects::{
    AliasQueueAttrs, DefinitionType, DeliverySequence, LocalQueueAttrs, QueueDefinition, QueueType,
};
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::status::QueueStatus;

use crate::engine::Queue;
use crate::qmgr::journal::QueueEvent;
use crate::qmgr::{unknown, Object, QueueManager};

impl QueueManager {
    /// Defines a queue. With `replace`, an existing queue of the same type gets the new
    /// attributes (its messages stay); without, an existing name is an error.
    pub fn define_queue(
        &self,
        name: &str,
        mut def: QueueDefinition,
        replace: bool,
    ) -> MqResult<()> {
        let n = object_name(name)?;
        // CRDATE stays what it was when a definition is replaced; ALTDATE is now.
        let now = self.unix_now_s();
        let created = match self.definition(name) {
            Ok(old) if replace && old.stamps().0 != 0 => old.stamps().0,
            _ => now,
        };
        def.set_stamps(created, now);
        let _gate = self.durability().map(|d| d.gate());
        self.define_in_memory(n, def.clone(), replace)?;
        if self.is_unlogged(&n) {
            return Ok(()); // replaced in place, and still not logged
        }
        self.log_definition(&n, &def)
    }

    /// Whether `name` is a local queue the log does not hold while the queue manager persists
    /// (`create_unlogged_queue`).
    pub(crate) fn is_unlogged(&self, name: &ObjectName) -> bool {
        self.durability().is_some()
            && matches!(self.lookup(name), Some(Object::Local(q)) if !q.lock().journaled())
    }

    /// Makes a definition durable, when the queue manager is persistent.
    pub(crate) fn log_definition(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()> {
        match self.durability() {
            Some(d) => d.define(name, def),
            None => Ok(()),
        }
    }

    pub(crate) fn define_in_memory(
        &self,
        name: ObjectName,
        def: QueueDefinition,
        replace: bool,
    ) -> MqResult<()> {
        match &def {
            QueueDefinition::Local(a) | QueueDefinition::Model(a) => a.validate()?,
            QueueDefinition::Alias(a) => {
                if a.target.is_empty() && !ferry_model::system::is_blank_template(name.as_str()) {
                    return Err(MqError::new(
                        Reason::AttributeValueError,
                        format!("alias {name} needs a TARGET"),
                    ));
                }
            }
            QueueDefinition::Remote(a) => {
                if a.remote_qmgr.is_empty()
                    && a.xmit_queue.is_empty()
                    && !ferry_model::system::is_blank_template(name.as_str())
                {
                    return Err(MqError::new(
                        Reason::AttributeValueError,
                        format!("remote queue {name} needs RQMNAME (or XMITQ)"),
                    ));
                }
            }
        }
        let mut objects = self.shared.objects.write();
        if let Some(existing) = objects.get(&name) {
            if !replace {
                return Err(MqError::new(
                    Reason::ObjectAlreadyExists,
                    format!("queue {name} already exists"),
                ));
            }
            let same_type = matches!(
                (existing, &def),
                (Object::Local(_), QueueDefinition::Local(_))
                    | (Object::Alias(_), QueueDefinition::Alias(_))
                    | (Object::Model(_), QueueDefinition::Model(_))
                    | (Object::Remote(_), QueueDefinition::Remote(_))
            );
            if !same_type {
                return Err(MqError::new(
                    Reason::QTypeError,
                    format!("queue {name} exists with another type; delete it first"),
                ));
            }
            if let (Object::Local(q), QueueDefinition::Local(a)) = (existing, &def) {
                self.note_initiation_queue(a);
                return apply_local_attrs(q, a.clone());
            }
        }
        let obj = match def {
            QueueDefinition::Local(a) => {
                // A permanent dynamic queue coming back at restart counts against MAXDYNQ.
                if a.definition_type != DefinitionType::Predefined {
                    self.shared.dynamic_live.fetch_add(1, Ordering::Relaxed);
                }
                Object::Local(self.new_queue(name, a))
            }
            QueueDefinition::Alias(a) => Object::Alias(Arc::new(Mutex::new(a))),
            QueueDefinition::Model(a) => Object::Model(a),
            QueueDefinition::Remote(a) => Object::Remote(Arc::new(Mutex::new(a))),
        };
        objects.insert(name, obj);
        Ok(())
    }

    /// A local queue's attributes.
    pub fn local_attrs(&self, name: &str) -> MqResult<LocalQueueAttrs> {
        let q = self.local_queue(&object_name(name)?)?;
        let attrs = LocalQueueAttrs::clone(&q.lock().attrs);
        Ok(attrs)
    }

    /// The definition of any queue.
    pub fn definition(&self, name: &str) -> MqResult<QueueDefinition> {
        let n = object_name(name)?;
        match self.lookup(&n) {
            Some(Object::Local(q)) => Ok(QueueDefinition::Local(LocalQueueAttrs::clone(
                &q.lock().attrs,
            ))),
            Some(Object::Alias(a)) => Ok(QueueDefinition::Alias(a.lock().clone())),
            Some(Object::Model(a)) => Ok(QueueDefinition::Model(a)),
            Some(Object::Remote(a)) => Ok(QueueDefinition::Remote(a.lock().clone())),
            None => Err(unknown(&n)),
        }
    }

    /// Changes a local queue's attributes (ALTER QLOCAL). Turning GET off ends every waiting get
    /// with GET_INHIBITED; changing MSGDLVSQ reorders the stored messages.
    pub fn alter_local(&self, name: &str, f: impl FnOnce(&mut LocalQueueAttrs)) -> MqResult<()> {
        let q = self.local_queue(&object_name(name)?)?;
        let _gate = self.durability().map(|d| d.gate());
        let mut a = LocalQueueAttrs::clone(&q.lock().attrs);
        f(&mut a);
        a.altered_unix_s = self.unix_now_s();
        a.validate()?;
        self.note_initiation_queue(&a);
        apply_local_attrs(&q, a.clone())?;
        let logged = q.lock().journaled();
        match logged {
            true => self.log_definition(&q.name, &QueueDefinition::Local(a)),
            false => Ok(()), // unlogged (or no log at all)
        }
    }

    /// A new queue object, logging its persistent messages when the queue manager persists.
    pub(crate) fn new_queue(&self, name: ObjectName, attrs: LocalQueueAttrs) -> Arc<Queue> {
        self.make_queue(name, attrs, true)
    }

    /// A new queue object; with `logged`, logging its persistent messages when the queue
    /// manager persists (without, it has no journal: see `create_unlogged_queue`).
    pub(crate) fn make_queue(
        &self,
        name: ObjectName,
        attrs: LocalQueueAttrs,
        logged: bool,
    ) -> Arc<Queue> {
        self.note_initiation_queue(&attrs);
        let q = Queue::new(name, attrs, self.shared.clock.clone());
        q.lock().store.set_budget(self.shared.budget.clone());
        if let Some(s) = self.spill() {
            q.lock().attach_spill(s.clone());
        }
        if let Some(d) = self.durability().filter(|_| logged) {
            let journal: Arc<dyn crate::engine::Journal> = d.clone();
            q.lock().attach_journal(journal, d.queue_buffer());
        }
        q
    }

    /// Changes an alias queue's attributes (ALTER QALIAS).
    pub fn alter_alias(&self, name: &str, f: impl FnOnce(&mut AliasQueueAttrs)) -> MqResult<()> {
        let n = object_name(name)?;
        let _gate = self.durability().map(|d| d.gate());
        match self.lookup(&n) {
            Some(Object::Alias(a)) => {
                let def = {
                    let mut a = a.lock();
                    f(&mut a);
                    a.altered_unix_s = self.unix_now_s();
                    a.clone()
                };
                self.log_definition(&n, &QueueDefinition::Alias(def))
            }
            Some(_) => Err(MqError::new(
                Reason::QTypeError,
                format!("{n} is not an alias queue"),
            )),
            None => Err(unknown(&n)),
        }
    }

    /// Deletes a queue. A local queue must have no open handles, and no messages unless `purge`.
    pub fn delete_queue(&self, name: &str, purge: bool) -> MqResult<()> {
        let n = object_name(name)?;
        let _gate = self.durability().map(|d| d.gate());
        let mut objects = self.shared.objects.write();
        let mut unlogged = false;
        match objects.get(&n) {
            None => return Err(unknown(&n)),
            Some(Object::Local(q)) => {
                let mut st = q.lock();
                if st.open_input + st.open_output > 0 {
                    return Err(MqError::new(
                        Reason::ObjectInUse,
                        format!(
                            "queue {n} is open ({} input, {} output handles)",
                            st.open_input, st.open_output
                        ),
                    ));
                }
                if st.store.depth() > 0 && !purge {
                    return Err(MqError::new(
                        Reason::QNotEmpty,
                        format!(
                            "queue {n} holds {} messages; clear it or delete with purge",
                            st.store.depth()
                        ),
                    ));
                }
                st.deleted = true;
                st.waiters.end_all(Reason::QDeleted);
                if st.attrs.definition_type != DefinitionType::Predefined {
                    self.shared.dynamic_live.fetch_sub(1, Ordering::Relaxed);
                }
                unlogged = self.durability().is_some() && !st.journaled();
            }
            Some(_) => {}
        }
        objects.remove(&n);
        drop(objects);
        match self.durability().filter(|_| !unlogged) {
            Some(d) => d.wait(d.queue_event(QueueEvent::Delete, &n)?),
            None => Ok(()),
        }
    }

    /// Removes every committed message from a local queue (CLEAR QLOCAL). Returns how many.
    pub fn clear_queue(&self, name: &str) -> MqResult<usize> {
        let q = self.local_queue(&object_name(name)?)?;
        let mut st = q.lock();
        if st.store.depth() > st.store.available() {
            return Err(MqError::new(
                Reason::ObjectInUse,
                format!("queue {name} has uncommitted messages; it can be cleared once those units of work end"),
            ));
        }
        // Logged under the queue's lock, like puts and gets, so the log orders it among them.
        let lsn = match self.durability().filter(|_| st.journaled()) {
            Some(d) => Some(d.queue_event(QueueEvent::Clear, &q.name)?),
            None => None,
        };
        let n = st.store.clear_available();
        st.stats.purged += 1;
        let depth = st.store.depth();
        st.stats.note_depth(depth);
        drop(st);
        if self.shared.mqi_stats.on() {
            self.shared
                .mqi_stats
                .add(crate::qmgr::apistats::slot::PURGES, 1);
        }
        if let (Some(d), Some(lsn)) = (self.durability(), lsn) {
            d.wait(lsn)?;
        }
        Ok(n)
    }

    /// Names of every queue, sorted, with their types.
    pub fn queue_names(&self) -> Vec<(ObjectName, QueueType)> {
        let mut v: Vec<_> = self
            .shared
            .objects
            .read()
            .iter()
            .map(|(n, o)| {
                let t = match o {
                    Object::Local(_) => QueueType::Local,
                    Object::Alias(_) => QueueType::Alias,
                    Object::Model(_) => QueueType::Model,
                    Object::Remote(_) => QueueType::Remote,
                };
                (*n, t)
            })
            .collect();
        v.sort_by_key(|a| a.0);
        v
    }

    /// Each local queue's name, depth, and messages put and got since start, in one pass and
    /// unsorted: for samplers that watch every queue (the console's history) at little cost.
    pub fn queue_counters(&self) -> Vec<(ObjectName, usize, u64, u64)> {
        self.local_queues()
            .into_iter()
            .map(|q| {
                let st = q.lock();
                (q.name, st.store.depth(), st.stats.puts, st.stats.gets)
            })
            .collect()
    }

    /// A local queue's statistics since they were last reset — (seconds, highest depth,
    /// messages put, messages got) — which start again now (RESET QSTATS).
    pub fn reset_queue_stats(&self, name: &ObjectName) -> MqResult<(u64, usize, u64, u64)> {
        let q = self.local_queue(name)?;
        let now = self.shared.clock.wall();
        let stats = q.lock().since_reset(now, true);
        Ok(stats)
    }

    /// Status of a local queue (DISPLAY QSTATUS).
    pub fn queue_status(&self, name: &str) -> MqResult<QueueStatus> {
        let q = self.local_queue(&object_name(name)?)?;
        let mut st = q.lock();
        st.waiters.prune();
        let uncommitted = st.store.depth() - st.store.available();
        Ok(QueueStatus {
            name: q.name,
            depth: st.store.depth(),
            available: st.store.available(),
            uncommitted,
            open_input: st.open_input,
            open_output: st.open_output,
            waiting_getters: st.waiters.len(),
            oldest_msg_age: st
                .store
                .oldest_put_time()
                .and_then(|t| self.shared.clock.wall().duration_since(t).ok()),
            stats: st.stats.clone(),
            expired: st.store.expired_total,
        })
    }
}

/// Applies new attributes to a live queue, with the side effects ALTER implies.
fn apply_local_attrs(q: &Arc<Queue>, a: LocalQueueAttrs) -> MqResult<()> {
    let mut st = q.lock();
    let fifo_now = st.attrs.delivery_sequence == DeliverySequence::Fifo;
    if (a.delivery_sequence == DeliverySequence::Fifo) != fifo_now
        && st.store.depth() > st.store.available()
    {
        // Reordering moves messages between lanes; units of work hold their old positions.
        return Err(MqError::new(
            Reason::ObjectInUse,
            format!("MSGDLVSQ of queue {} cannot change while units of work hold messages on it; retry once they end", q.name),
        ));
    }
    let get_now_inhibited = a.get_inhibited && !st.attrs.get_inhibited;
    let fifo = a.delivery_sequence == DeliverySequence::Fifo;
    st.store.set_fifo(fifo);
    st.attrs = Arc::new(a);
    if get_now_inhibited {
        st.waiters.end_all(Reason::GetInhibited);
    }
    Ok(())
}
