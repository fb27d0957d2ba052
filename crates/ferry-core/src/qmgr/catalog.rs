//! The administrative objects besides queues: channels, listeners and the queue manager's own
//! attributes, and what connection status shows of each connection's open handles.
//!
//! Owns: the channel and listener catalogues (their own namespaces, as in MQ), their
//! persistence (OBJECT records in the recovery log and a section of each checkpoint), ALTER
//! QMGR (handed to the host's attributes sink, which writes qm.toml when the queue manager has a
//! directory), the live status of channel instances, and the hooks a server registers so START
//! and STOP LISTENER and CHANNEL act on real sockets.

use std::collections::BTreeMap;
use std::sync::Arc;

use ferry_model::channel::ChannelStatus;
use ferry_model::name::ObjectName;
use ferry_model::objects::{ChannelAttrs, ListenerAttrs, QueueManagerAttrs};
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::qmgr::journal::LogStatus;
use crate::qmgr::QueueManager;

/// A shared, live channel status.
pub type StatusCell = Arc<parking_lot::Mutex<ChannelStatus>>;

/// Where ALTER QMGR's new attributes are kept beyond this run (the host writes qm.toml).
pub type AttrsSink = Box<dyn Fn(&QueueManagerAttrs) -> MqResult<()> + Send + Sync>;

pub use ferry_model::objects::ObjectKind;

/// An open handle, as connection status shows it (DISPLAY CONN TYPE(HANDLE)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandleInfo {
    /// The object (the queue the handle resolved to).
    pub object: ObjectName,
    /// Its type as MQSC's OBJTYPE names it (QUEUE, QMGR, TOPIC, NAMELIST, PROCESS).
    pub objtype: &'static str,
    /// Open for input.
    pub input: bool,
    /// Open for output.
    pub output: bool,
    /// Open for browse.
    pub browse: bool,
    /// Open for inquire.
    pub inquire: bool,
    /// Open for set.
    pub set: bool,
}

/// What a listener is doing (DISPLAY LSSTATUS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerStatus {
    /// Listener name.
    pub name: ObjectName,
    /// The address it listens on.
    pub address: String,
    /// When it started (Unix seconds).
    pub started_unix_s: u64,
}

/// Implemented by a server so START / STOP LISTENER open and close real sockets. Without one
/// (an embedded queue manager) those commands fail with a clear reason.
pub trait ListenerHook: Send + Sync + std::fmt::Debug {
    /// Starts listening as `attrs` says.
    fn start(&self, name: ObjectName, attrs: &ListenerAttrs) -> MqResult<()>;
    /// Stops the listener.
    fn stop(&self, name: ObjectName) -> MqResult<()>;
    /// The running listeners.
    fn status(&self) -> Vec<ListenerStatus>;
}

/// An MQTT channel listening (DISPLAY CHSTATUS CHLTYPE(MQTT)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqttChannelRun {
    /// Channel name.
    pub name: ObjectName,
    /// The address it listens on.
    pub address: String,
    /// When it started (Unix seconds).
    pub started_unix_s: u64,
}

/// Implemented by a server so MQTT channels (CHLTYPE(MQTT)) listen: DEFINE starts one, START
/// and STOP CHANNEL start and stop it (stopping ends its clients' connections), DELETE stops
/// it first. Without one (an embedded queue manager) the definitions are kept and START fails
/// with a clear reason.
pub trait MqttChannelHook: Send + Sync + std::fmt::Debug {
    /// Starts listening as `attrs` says.
    fn start(&self, name: ObjectName, attrs: &ChannelAttrs) -> MqResult<()>;
    /// Stops listening and ends the channel's connections.
    fn stop(&self, name: ObjectName) -> MqResult<()>;
    /// The channels listening now.
    fn running(&self) -> Vec<MqttChannelRun>;
}

/// The catalogue of channels and listeners.
#[derive(Default)]
pub struct Catalog {
    pub(crate) channels: parking_lot::RwLock<BTreeMap<ObjectName, ChannelAttrs>>,
    pub(crate) listeners: parking_lot::RwLock<BTreeMap<ObjectName, ListenerAttrs>>,
    pub(crate) hook: parking_lot::RwLock<Option<Arc<dyn ListenerHook>>>,
    /// Where ALTER QMGR's attributes go besides memory (set by the host).
    pub(crate) attrs_sink: std::sync::OnceLock<AttrsSink>,
    /// Live channel instances' status.
    pub(crate) chstatus: parking_lot::RwLock<BTreeMap<ObjectName, StatusCell>>,
    /// The server's channel control (START / STOP / RESET / RESOLVE CHANNEL).
    pub(crate) channel_hook: parking_lot::RwLock<Option<Arc<dyn ChannelHook>>>,
    /// The server's MQTT channel control.
    pub(crate) mqtt_hook: parking_lot::RwLock<Option<Arc<dyn MqttChannelHook>>>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("channels", &self.channels.read().len())
            .field("listeners", &self.listeners.read().len())
            .finish()
    }
}

/// Implemented by a server so START / STOP / RESET / RESOLVE CHANNEL act on running sender
/// channels. Without one (an embedded queue manager) those commands fail with a clear reason.
pub trait ChannelHook: Send + Sync + std::fmt::Debug {
    /// Starts the sender channel `name` (a STOPPED one too).
    fn start(&self, name: ObjectName) -> MqResult<()>;
    /// Stops it.
    fn stop(&self, name: ObjectName) -> MqResult<()>;
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
    /// Defines (or with `replace`, replaces) a channel.
    pub fn define_channel(&self, name: &str, attrs: ChannelAttrs, replace: bool) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        ferry_model::channel::check_channel_name(&n)?;
        attrs.validate()?;
        let _gate = self.durability().map(|d| d.gate());
        {
            let mut map = self.shared.catalog.channels.write();
            if map.contains_key(&n) && !replace {
                return Err(MqError::new(
                    Reason::ObjectAlreadyExists,
                    format!("channel {n} already exists"),
                ));
            }
            map.insert(n, attrs.clone());
        }
        self.log_object(ObjectKind::Channel, &n, Some(&attrs))
    }

    /// A channel's definition.
    pub fn channel(&self, name: &str) -> MqResult<ChannelAttrs> {
        let n = ferry_model::name::object_name(name)?;
        self.shared
            .catalog
            .channels
            .read()
            .get(&n)
            .cloned()
            .ok_or_else(|| unknown(ObjectKind::Channel, &n))
    }

    /// Every channel, by name.
    pub fn channels(&self) -> Vec<(ObjectName, ChannelAttrs)> {
        let map = self.shared.catalog.channels.read();
        map.iter().map(|(n, a)| (*n, a.clone())).collect()
    }

    /// Deletes a channel (an MQTT channel stops listening first).
    pub fn delete_channel(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if self.mqtt_channel_runs().iter().any(|r| r.name == n) {
            self.mqtt_hook()?.stop(n)?;
        }
        let _gate = self.durability().map(|d| d.gate());
        if self.shared.catalog.channels.write().remove(&n).is_none() {
            return Err(unknown(ObjectKind::Channel, &n));
        }
        self.log_object::<ChannelAttrs>(ObjectKind::Channel, &n, None)
    }

    /// Defines (or with `replace`, replaces) a listener. One with CONTROL(QMGR) starts with
    /// the server.
    pub fn define_listener(&self, name: &str, attrs: ListenerAttrs, replace: bool) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if attrs.description.len() > 64 {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!(
                    "DESCR is {} characters; the limit is 64",
                    attrs.description.len()
                ),
            ));
        }
        let _gate = self.durability().map(|d| d.gate());
        {
            let mut map = self.shared.catalog.listeners.write();
            if map.contains_key(&n) && !replace {
                return Err(MqError::new(
                    Reason::ObjectAlreadyExists,
                    format!("listener {n} already exists"),
                ));
            }
            map.insert(n, attrs.clone());
        }
        self.log_object(ObjectKind::Listener, &n, Some(&attrs))
    }

    /// A listener's definition.
    pub fn listener(&self, name: &str) -> MqResult<ListenerAttrs> {
        let n = ferry_model::name::object_name(name)?;
        self.shared
            .catalog
            .listeners
            .read()
            .get(&n)
            .cloned()
            .ok_or_else(|| unknown(ObjectKind::Listener, &n))
    }

    /// Every listener, by name.
    pub fn listeners(&self) -> Vec<(ObjectName, ListenerAttrs)> {
        let map = self.shared.catalog.listeners.read();
        map.iter().map(|(n, a)| (*n, a.clone())).collect()
    }

    /// Deletes a listener (it must be stopped first).
    pub fn delete_listener(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if self.listener_status().iter().any(|s| s.name == n) {
            return Err(MqError::new(
                Reason::ListenerRunning,
                format!("listener {n} is running; stop it first (STOP LISTENER({n}))"),
            ));
        }
        let _gate = self.durability().map(|d| d.gate());
        if self.shared.catalog.listeners.write().remove(&n).is_none() {
            return Err(unknown(ObjectKind::Listener, &n));
        }
        self.log_object::<ListenerAttrs>(ObjectKind::Listener, &n, None)
    }

    /// Registers the server's listener control.
    pub fn set_listener_hook(&self, hook: Arc<dyn ListenerHook>) {
        *self.shared.catalog.hook.write() = Some(hook);
    }

    /// Registers (or with `None` removes) the server's channel control.
    pub fn set_channel_hook(&self, hook: Option<Arc<dyn ChannelHook>>) {
        *self.shared.catalog.channel_hook.write() = hook;
    }

    fn channel_hook(&self) -> MqResult<Arc<dyn ChannelHook>> {
        self.shared.catalog.channel_hook.read().clone().ok_or_else(|| {
            MqError::new(
                Reason::FunctionNotSupported,
                "channels run in the server ('ferry qm start'); this queue manager is hosted in an application",
            )
        })
    }

    /// Registers (or with `None` removes) the server's MQTT channel control.
    pub fn set_mqtt_channel_hook(&self, hook: Option<Arc<dyn MqttChannelHook>>) {
        *self.shared.catalog.mqtt_hook.write() = hook;
    }

    fn mqtt_hook(&self) -> MqResult<Arc<dyn MqttChannelHook>> {
        self.shared.catalog.mqtt_hook.read().clone().ok_or_else(|| {
            MqError::new(
                Reason::FunctionNotSupported,
                "MQTT channels listen in the server ('ferry qm start'); this queue manager is hosted in an application",
            )
        })
    }

    /// The MQTT channels listening now (none without a server).
    pub fn mqtt_channel_runs(&self) -> Vec<MqttChannelRun> {
        let hook = self.shared.catalog.mqtt_hook.read().clone();
        hook.map(|h| h.running()).unwrap_or_default()
    }

    /// After DEFINE or ALTER of MQTT channel `name`: with a server, it listens with its new
    /// attributes (stopped first if it was running, which ends its connections). `Ok(false)`
    /// without a server.
    pub fn mqtt_channel_changed(&self, name: &str) -> MqResult<bool> {
        let n = ferry_model::name::object_name(name)?;
        let def = self.channel(name)?;
        let Some(hook) = self.shared.catalog.mqtt_hook.read().clone() else {
            return Ok(false);
        };
        if hook.running().iter().any(|r| r.name == n) {
            hook.stop(n)?;
        }
        hook.start(n, &def)?;
        Ok(true)
    }

    /// START CHANNEL: a sender channel starts (or starts again after STOP); an MQTT channel
    /// listens.
    pub fn start_channel(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        let def = self.channel(name)?;
        if def.channel_type == ferry_model::objects::ChannelType::Mqtt {
            return self.mqtt_hook()?.start(n, &def);
        }
        if def.channel_type != ferry_model::objects::ChannelType::Sender {
            return Err(MqError::new(
                Reason::ObjectTypeError,
                format!("channel {n} is not a sender; a receiver starts when its sender connects"),
            ));
        }
        self.channel_hook()?.start(n)
    }

    /// STOP CHANNEL.
    pub fn stop_channel(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        if self.channel(name)?.channel_type == ferry_model::objects::ChannelType::Mqtt {
            return self.mqtt_hook()?.stop(n);
        }
        self.channel_hook()?.stop(n)
    }

    /// Unregisters the server's listener control (the server is stopping).
    pub fn clear_listener_hook(&self) {
        *self.shared.catalog.hook.write() = None;
    }

    fn hook(&self) -> MqResult<Arc<dyn ListenerHook>> {
        self.shared.catalog.hook.read().clone().ok_or_else(|| {
            MqError::new(
                Reason::FunctionNotSupported,
                "listeners run in the server ('ferry qm start'); this queue manager is hosted in an application",
            )
        })
    }

    /// START LISTENER.
    pub fn start_listener(&self, name: &str) -> MqResult<()> {
        let attrs = self.listener(name)?;
        let n = ferry_model::name::object_name(name)?;
        self.hook()?.start(n, &attrs)
    }

    /// STOP LISTENER.
    pub fn stop_listener(&self, name: &str) -> MqResult<()> {
        let n = ferry_model::name::object_name(name)?;
        self.listener(name)?;
        self.hook()?.stop(n)
    }

    /// The running listeners (none without a server).
    pub fn listener_status(&self) -> Vec<ListenerStatus> {
        self.shared
            .catalog
            .hook
            .read()
            .as_ref()
            .map(|h| h.status())
            .unwrap_or_default()
    }

    /// Sets where ALTER QMGR's attributes are kept beyond this run (the host writes them to
    /// the queue manager's qm.toml). Only the first call takes effect.
    pub fn set_attrs_sink(&self, sink: AttrsSink) {
        let _ = self.shared.catalog.attrs_sink.set(sink);
    }

    /// ALTER QMGR: changes the queue manager's attributes and, through the host's sink (its
    /// qm.toml), keeps them for the next start.
    pub fn alter_qmgr(&self, f: impl FnOnce(&mut QueueManagerAttrs)) -> MqResult<()> {
        let mut a = self.attrs();
        let name = a.name;
        f(&mut a);
        a.altered_unix_s = self.unix_now_s();
        if a.name != name {
            return Err(MqError::new(
                Reason::AttributeValueError,
                "a queue manager's name cannot change",
            ));
        }
        a.validate()?;
        if let Some(sink) = self.shared.catalog.attrs_sink.get() {
            sink(&a)?;
        }
        self.shared
            .perf_events
            .store(a.performance_events, std::sync::atomic::Ordering::Relaxed);
        self.shared.mqi_stats.set_on(a.statistics_mqi);
        *self.shared.attrs.write() = a;
        Ok(())
    }

    /// Logs a definition (`Some`) or deletion (`None`) of a channel or listener, and waits.
    pub(crate) fn log_object<T: serde::Serialize>(
        &self,
        kind: ObjectKind,
        name: &ObjectName,
        attrs: Option<&T>,
    ) -> MqResult<()> {
        let Some(d) = self.durability() else {
            return Ok(());
        };
        let toml = match attrs {
            Some(a) => Some(toml::to_string(a).map_err(|e| {
                MqError::new(
                    Reason::UnexpectedError,
                    format!("cannot encode the definition of {name}: {e}"),
                )
            })?),
            None => None,
        };
        d.object_event(kind, name, toml.as_deref())
    }

    /// Restores a channel or listener from the log or a checkpoint (no logging).
    pub(crate) fn restore_object(
        &self,
        kind: ObjectKind,
        name: ObjectName,
        toml_text: &str,
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
        match kind {
            ObjectKind::Channel => {
                let a: ChannelAttrs = toml::from_str(toml_text).map_err(bad)?;
                self.shared.catalog.channels.write().insert(name, a);
            }
            ObjectKind::Listener => {
                let a: ListenerAttrs = toml::from_str(toml_text).map_err(bad)?;
                self.shared.catalog.listeners.write().insert(name, a);
            }
            ObjectKind::AuthRecs => self.restore_authrecs(toml::from_str(toml_text).map_err(bad)?),
            ObjectKind::AuthInfo => {
                self.restore_authinfo(name, toml::from_str(toml_text).map_err(bad)?)
            }
            ObjectKind::ChlAuth => self.restore_chlauth(toml::from_str(toml_text).map_err(bad)?),
            ObjectKind::Sub => self.restore_sub(toml_text)?,
            ObjectKind::Topic => self.restore_topic(name, toml::from_str(toml_text).map_err(bad)?),
            ObjectKind::Namelist | ObjectKind::Process => {
                self.restore_definition(kind, name, toml_text)?
            }
        }
        Ok(())
    }

    /// Every channel, listener, authentication information object, namelist and process (and
    /// the CHLAUTH table, authority records, topics and subscriptions) as (kind, name, TOML),
    /// for checkpoints.
    pub(crate) fn objects_for_checkpoint(&self) -> MqResult<Vec<(ObjectKind, ObjectName, String)>> {
        let enc = |e: toml::ser::Error| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot encode an object: {e}"),
            )
        };
        let mut out = Vec::new();
        for (n, a) in self.channels() {
            out.push((ObjectKind::Channel, n, toml::to_string(&a).map_err(enc)?));
        }
        for (n, a) in self.listeners() {
            out.push((ObjectKind::Listener, n, toml::to_string(&a).map_err(enc)?));
        }
        for (n, a) in self.authinfos() {
            out.push((ObjectKind::AuthInfo, n, toml::to_string(&a).map_err(enc)?));
        }
        for (n, a) in self.namelists() {
            out.push((ObjectKind::Namelist, n, toml::to_string(&a).map_err(enc)?));
        }
        for (n, a) in self.processes() {
            out.push((ObjectKind::Process, n, toml::to_string(&a).map_err(enc)?));
        }
        let chlauth = ObjectName::new("CHLAUTH").expect("a valid name");
        out.push((
            ObjectKind::ChlAuth,
            chlauth,
            toml::to_string(&self.chlauth_table()).map_err(enc)?,
        ));
        if let Some((n, t)) = self.authrecs_for_checkpoint() {
            out.push((ObjectKind::AuthRecs, n, toml::to_string(&t).map_err(enc)?));
        }
        // Subscriptions do not depend on topic objects when restored (the order does not matter).
        out.extend(self.topics_for_checkpoint()?);
        out.extend(self.subs_for_checkpoint()?);
        Ok(out)
    }
}

impl QueueManager {
    /// The recovery log's state, when the queue manager has one.
    pub fn log_status(&self) -> Option<LogStatus> {
        self.durability().map(|d| d.status())
    }
}

impl QueueManager {
    /// Registers a channel instance's status (replacing an ended one of the same name).
    pub fn register_channel_status(&self, name: ObjectName, cell: StatusCell) {
        self.shared.catalog.chstatus.write().insert(name, cell);
    }

    /// Removes a channel instance's status, if `cell` is still the registered one.
    pub fn unregister_channel_status(&self, name: &ObjectName, cell: &StatusCell) {
        let mut map = self.shared.catalog.chstatus.write();
        if map.get(name).is_some_and(|c| Arc::ptr_eq(c, cell)) {
            map.remove(name);
        }
    }

    /// The registered status of channel `name`.
    pub fn channel_status_cell(&self, name: &ObjectName) -> Option<StatusCell> {
        self.shared.catalog.chstatus.read().get(name).cloned()
    }

    /// Where DISPLAY CHSTATUS CHLTYPE(MQTT) finds the MQTT service's clients.
    pub fn set_mqtt_status_source(&self, source: super::MqttStatusSource) {
        *self.shared.mqtt_status.write() = Some(source);
    }

    /// The MQTT service's connected clients (none when it is not running).
    pub fn mqtt_statuses(&self) -> Vec<ferry_model::channel::MqttClientStatus> {
        self.mqtt_service().clients
    }

    /// The MQTT service's clients and listener totals (empty when it is not running).
    pub fn mqtt_service(&self) -> ferry_model::channel::MqttServiceStatus {
        let source = self.shared.mqtt_status.read().clone();
        source.map_or_else(Default::default, |f| f())
    }

    /// Every channel instance's status, by name.
    pub fn channel_statuses(&self) -> Vec<(ObjectName, ChannelStatus)> {
        self.shared
            .catalog
            .chstatus
            .read()
            .iter()
            .map(|(n, c)| (*n, c.lock().clone()))
            .collect()
    }
}
