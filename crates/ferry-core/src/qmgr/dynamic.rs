//! Dynamic queues: created from a model queue at open, named from a pattern, and removed when
//! a temporary one's creating handle closes.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ferry_model::name::{object_name, ObjectName};
use ferry_model::objects::{DefinitionType, LocalQueueAttrs, QueueDefinition};
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::engine::Queue;
use crate::qmgr::journal::QueueEvent;
use crate::qmgr::{Object, QueueManager};

impl QueueManager {
    /// Creates a dynamic queue from a model, named from `pattern` (a trailing `*` is replaced by
    /// a unique suffix).
    pub(crate) fn create_dynamic(
        &self,
        model: &LocalQueueAttrs,
        pattern: &str,
    ) -> MqResult<Arc<Queue>> {
        let name = self.dynamic_name(pattern)?;
        let mut attrs = model.clone();
        if attrs.definition_type == DefinitionType::Predefined {
            attrs.definition_type = DefinitionType::TemporaryDynamic;
        }
        self.insert_dynamic(name, attrs, true)
    }

    /// Creates the permanent dynamic queue `name` from the model queue `model`, `max_depth`
    /// deep, that is **not logged**: neither its definition, nor its deletion, nor anything
    /// put on it or got from it goes to the recovery log or a checkpoint, so it and its
    /// messages (persistent ones too, which keep their persistence) live in memory only and do
    /// not outlive the process. For a queue that lives no longer than a connection — an MQTT
    /// clean session's, which a restart ends with every connection — where the disk would
    /// keep nothing anyone can use. Counts against MAXDYNQ; deleted as any dynamic queue.
    pub fn create_unlogged_queue(&self, model: &str, name: &str, max_depth: usize) -> MqResult<()> {
        let model_name = object_name(model)?;
        let mut attrs = match self.lookup(&model_name) {
            Some(Object::Model(a)) => LocalQueueAttrs::clone(&a),
            _ => {
                return Err(MqError::new(
                    Reason::UnknownObjectName,
                    format!("{model} is not a model queue on this queue manager"),
                ))
            }
        };
        attrs.definition_type = DefinitionType::PermanentDynamic;
        attrs.max_depth = max_depth;
        attrs.validate()?;
        self.insert_dynamic(object_name(name)?, attrs, false)
            .map(|_| ())
    }

    /// Makes dynamic queue `name` and enters it in the object table within MAXDYNQ; a
    /// permanent one `logged` is logged (its messages too, when the queue manager persists).
    fn insert_dynamic(
        &self,
        name: ObjectName,
        mut attrs: LocalQueueAttrs,
        logged: bool,
    ) -> MqResult<Arc<Queue>> {
        let now = self.unix_now_s();
        (attrs.created_unix_s, attrs.altered_unix_s) = (now, now);
        let permanent = logged && attrs.definition_type == DefinitionType::PermanentDynamic;
        let q = self.make_queue(name, attrs.clone(), logged);
        let _gate = self.durability().filter(|_| permanent).map(|d| d.gate());
        let max = self.shared.attrs.read().max_dynamic_queues;
        let mut objects = self.shared.objects.write();
        if objects.contains_key(&name) {
            return Err(MqError::new(
                Reason::ObjectAlreadyExists,
                format!("dynamic queue {name} already exists"),
            ));
        }
        // Counted under the objects lock, so the bound holds against racing opens.
        if self.shared.dynamic_live.load(Ordering::Relaxed) >= max {
            return Err(MqError::new(
                Reason::ResourceProblem,
                format!("the queue manager already holds {max} dynamic queues (MAXDYNQ); delete some, or raise MAXDYNQ"),
            ));
        }
        self.shared.dynamic_live.fetch_add(1, Ordering::Relaxed);
        objects.insert(name, Object::Local(q.clone()));
        drop(objects);
        if permanent {
            self.log_definition(&name, &QueueDefinition::Local(attrs))?;
        }
        Ok(q)
    }

    pub(crate) fn dynamic_name(&self, pattern: &str) -> MqResult<ObjectName> {
        let pattern = if pattern.is_empty() { "AMQ.*" } else { pattern };
        let bad = || {
            MqError::new(
                Reason::DynamicQNameError,
                format!("dynamic queue name '{pattern}' is not valid; use up to 48 characters, optionally ending in '*'"),
            )
        };
        let Some(prefix) = pattern.strip_suffix('*') else {
            return object_name(pattern).map_err(|_| bad());
        };
        if prefix.contains('*') || prefix.len() > 32 {
            return Err(bad());
        }
        let n = self.shared.dynamic_counter.fetch_add(1, Ordering::Relaxed);
        let stamp = self.shared.clock.unix_ms() / 1000;
        object_name(&format!("{prefix}{stamp:08X}{n:08X}")).map_err(|_| bad())
    }

    /// Removes a temporary dynamic queue when its creating handle closes (or its connection ends).
    pub(crate) fn drop_dynamic(&self, q: &Arc<Queue>) {
        let permanent_def = {
            let st = q.lock();
            st.attrs.definition_type == DefinitionType::PermanentDynamic && st.journaled()
        };
        let _gate = self
            .durability()
            .filter(|_| permanent_def)
            .map(|d| d.gate());
        let mut objects = self.shared.objects.write();
        if let Some(Object::Local(existing)) = objects.get(&q.name) {
            if Arc::ptr_eq(existing, q) {
                objects.remove(&q.name);
                self.shared.dynamic_live.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let mut st = q.lock();
        st.deleted = true;
        st.waiters.end_all(Reason::QDeleted);
        let permanent =
            st.attrs.definition_type == DefinitionType::PermanentDynamic && st.journaled();
        drop(st);
        if let (true, Some(d)) = (permanent, self.durability()) {
            if let Err(e) = d
                .queue_event(QueueEvent::Delete, &q.name)
                .and_then(|lsn| d.wait(lsn))
            {
                tracing::warn!(queue = %q.name, error = %e, "could not log the deletion of a dynamic queue");
            }
        }
    }
}
