//! Namelists and process definitions: named lists of object names and the descriptions of
//! applications a trigger monitor starts. FerryMQ keeps, shows and answers MQINQ for both, as MQ
//! does; nothing inside the queue manager acts on them (it neither triggers nor clusters).
//!
//! Owns: the two catalogues (each its own namespace, as in MQ), their persistence (OBJECT
//! records in the recovery log and a section of each checkpoint, like channels and listeners).
//!
//! Invariant: every definition in a catalogue has passed its `validate` and carries the time it
//! was defined or last altered (ALTDATE, ALTTIME).

use std::collections::BTreeMap;

use ferry_model::name::ObjectName;
use ferry_model::objects::{NamelistAttrs, ObjectKind, ProcessAttrs};
use ferry_model::reason::{MqError, MqResult, Reason};
use parking_lot::RwLock;

use crate::qmgr::QueueManager;

/// The namelist and process catalogues.
#[derive(Debug, Default)]
pub struct Definitions {
    namelists: RwLock<BTreeMap<ObjectName, NamelistAttrs>>,
    processes: RwLock<BTreeMap<ObjectName, ProcessAttrs>>,
}

/// What the two kinds of definition share.
trait Definition: Clone + serde::Serialize + serde::de::DeserializeOwned {
    const KIND: ObjectKind;
    fn validate(&self) -> MqResult<()>;
    fn stamp(&mut self, unix_s: u64);
    fn table(d: &Definitions) -> &RwLock<BTreeMap<ObjectName, Self>>;
}

impl Definition for NamelistAttrs {
    const KIND: ObjectKind = ObjectKind::Namelist;
    fn validate(&self) -> MqResult<()> {
        NamelistAttrs::validate(self)
    }
    fn stamp(&mut self, unix_s: u64) {
        self.altered_unix_s = unix_s;
    }
    fn table(d: &Definitions) -> &RwLock<BTreeMap<ObjectName, Self>> {
        &d.namelists
    }
}

impl Definition for ProcessAttrs {
    const KIND: ObjectKind = ObjectKind::Process;
    fn validate(&self) -> MqResult<()> {
        ProcessAttrs::validate(self)
    }
    fn stamp(&mut self, unix_s: u64) {
        self.altered_unix_s = unix_s;
    }
    fn table(d: &Definitions) -> &RwLock<BTreeMap<ObjectName, Self>> {
        &d.processes
    }
}

fn unknown(kind: ObjectKind, name: &ObjectName) -> MqError {
    MqError::new(
        Reason::UnknownObjectName,
        format!(
            "{} {name} is not defined on this queue manager",
            kind.tag().to_ascii_lowercase()
        ),
    )
}

impl QueueManager {
    fn define_definition<T: Definition>(
        &self,
        name: &str,
        mut a: T,
        replace: bool,
    ) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        a.validate()?;
        a.stamp(self.unix_now_s());
        let _gate = self.durability().map(|d| d.gate());
        {
            let mut map = T::table(&self.shared.definitions).write();
            if map.contains_key(&n) && !replace {
                return Err(MqError::new(
                    Reason::ObjectAlreadyExists,
                    format!("{} {n} already exists", T::KIND.tag().to_ascii_lowercase()),
                ));
            }
            map.insert(n, a.clone());
        }
        self.log_object(T::KIND, &n, Some(&a))
    }

    fn named_definition<T: Definition>(&self, name: &str) -> MqResult<T> {
        let n = ferry_model::name::object_name(name)?;
        let map = T::table(&self.shared.definitions).read();
        map.get(&n).cloned().ok_or_else(|| unknown(T::KIND, &n))
    }

    fn all_definitions<T: Definition>(&self) -> Vec<(ObjectName, T)> {
        let map = T::table(&self.shared.definitions).read();
        map.iter().map(|(n, a)| (*n, a.clone())).collect()
    }

    fn delete_definition<T: Definition>(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        let _gate = self.durability().map(|d| d.gate());
        if T::table(&self.shared.definitions)
            .write()
            .remove(&n)
            .is_none()
        {
            return Err(unknown(T::KIND, &n));
        }
        self.log_object::<T>(T::KIND, &n, None)
    }

    /// Defines (or with `replace`, replaces) a namelist; ALTDATE/ALTTIME become now.
    pub fn define_namelist(&self, name: &str, attrs: NamelistAttrs, replace: bool) -> MqResult<()> {
        self.define_definition(name, attrs, replace)
    }

    /// A namelist's definition.
    pub fn namelist(&self, name: &str) -> MqResult<NamelistAttrs> {
        self.named_definition(name)
    }

    /// Every namelist, by name.
    pub fn namelists(&self) -> Vec<(ObjectName, NamelistAttrs)> {
        self.all_definitions()
    }

    /// Deletes a namelist.
    pub fn delete_namelist(&self, name: &str) -> MqResult<()> {
        self.delete_definition::<NamelistAttrs>(name)
    }

    /// Defines (or with `replace`, replaces) a process definition; ALTDATE/ALTTIME become now.
    pub fn define_process(&self, name: &str, attrs: ProcessAttrs, replace: bool) -> MqResult<()> {
        self.define_definition(name, attrs, replace)
    }

    /// A process definition.
    pub fn process(&self, name: &str) -> MqResult<ProcessAttrs> {
        self.named_definition(name)
    }

    /// Every process definition, by name.
    pub fn processes(&self) -> Vec<(ObjectName, ProcessAttrs)> {
        self.all_definitions()
    }

    /// Deletes a process definition.
    pub fn delete_process(&self, name: &str) -> MqResult<()> {
        self.delete_definition::<ProcessAttrs>(name)
    }

    /// Restores a namelist or process from the log or a checkpoint (no logging).
    pub(crate) fn restore_definition(
        &self,
        kind: ObjectKind,
        name: ObjectName,
        text: &str,
    ) -> MqResult<()> {
        let bad = |e: toml::de::Error| {
            MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the recovery log holds a {} {name} this build cannot read: {e}",
                    kind.tag()
                ),
            )
        };
        let d = &self.shared.definitions;
        match kind {
            ObjectKind::Namelist => {
                d.namelists
                    .write()
                    .insert(name, toml::from_str(text).map_err(bad)?);
            }
            _ => {
                d.processes
                    .write()
                    .insert(name, toml::from_str(text).map_err(bad)?);
            }
        }
        Ok(())
    }
}
