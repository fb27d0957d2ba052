//! Where queue managers live on disk, their configuration file, and opening one from its
//! directory.
//!
//! Layout: `$FERRY_HOME` (default `~/.ferry`) holds `qmgrs/<NAME>/`, one directory per queue
//! manager, containing `qm.toml` (its configuration, see [`QmFile`]) and `ferry.lock` (held with
//! an exclusive file lock by the one process running the queue manager, and holding its pid).
//! The recovery log is the directory `log/` beside them (see `ferry_core::durable`).

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use ferry_core::durable::{PersistSettings, RecoveryReport};
use ferry_core::{QmConfig, QueueManager};
use ferry_model::name::{object_name, ObjectName};
use ferry_model::objects::QueueManagerAttrs;
use ferry_model::reason::{MqError, MqResult, Reason};

/// Name of the configuration file in a queue manager's directory.
pub const CONFIG_FILE: &str = "qm.toml";
/// Name of the lock file in a queue manager's directory.
pub const LOCK_FILE: &str = "ferry.lock";
/// Name of the local (Unix) socket in a running queue manager's directory.
pub const SOCKET_FILE: &str = "ferry.sock";

/// The FerryMQ home: `$FERRY_HOME`, else `~/.ferry`, else `./.ferry`.
pub fn default_home() -> PathBuf {
    if let Some(h) = std::env::var_os("FERRY_HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h);
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(h) => PathBuf::from(h).join(".ferry"),
        None => PathBuf::from(".ferry"),
    }
}

/// The directory of queue manager `name` under `home`.
pub fn qm_dir(home: &Path, name: &str) -> PathBuf {
    home.join("qmgrs").join(name)
}

/// The `[qmgr]` section of `qm.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QmSection {
    /// Queue manager name.
    pub name: String,
    /// DESCR.
    #[serde(default)]
    pub description: String,
    /// DEADQ.
    #[serde(default = "default_dlq")]
    pub dead_letter_queue: String,
    /// MAXMSGL in bytes.
    #[serde(default = "default_maxmsgl")]
    pub max_msg_length: usize,
    /// MAXUMSGS.
    #[serde(default = "default_maxumsgs")]
    pub max_uncommitted_msgs: usize,
    /// MAXHANDS.
    #[serde(default = "default_maxhands")]
    pub max_handles: usize,
    /// Most connections at once.
    #[serde(default = "default_maxconns")]
    pub max_connections: usize,
    /// Bytes of message bodies the queues may hold in memory together, MiB; 0 for a quarter of
    /// what the process may use (the machine's memory, `ulimit -v`, its cgroup's limit).
    #[serde(default)]
    pub memory_budget_mib: usize,
    /// Most MiB of non-persistent messages beyond the memory budget written to the spill area
    /// (QMDIR/spill); 0 refuses them instead (2071).
    #[serde(default = "default_spill_mib")]
    pub spill_mib: u64,
    /// Turns of a busy loop a thread waiting in MQGET (an embedded getter) makes before it
    /// yields, looking each turn whether a putter has served it (docs/perf.md, "The spin and
    /// park policy").
    #[serde(default = "default_wait_spins")]
    pub wait_spins: u32,
    /// Times that thread then yields its processor, looking again each time, before it sleeps
    /// until woken.
    #[serde(default = "default_wait_yields")]
    pub wait_yields: u32,
    /// MAXDYNQ: most dynamic queues at once.
    #[serde(default = "default_maxdynq")]
    pub max_dynamic_queues: usize,
    /// MAXDYNQC: most dynamic queues one connection may have created and not deleted.
    #[serde(default = "default_maxdynqc")]
    pub max_dynamic_queues_per_conn: usize,
    /// DEFXMITQ: the transmission queue for remote queue managers nothing else routes.
    #[serde(default)]
    pub default_xmit_queue: String,
    /// CONNAUTH: the authentication information object in force.
    #[serde(default = "default_connauth")]
    pub connauth: String,
    /// CHLAUTH: whether channel authentication records are applied.
    #[serde(default = "default_true")]
    pub chlauth: bool,
    /// AUTHOREV: authority events.
    #[serde(default)]
    pub authority_events: bool,
    /// CHLEV: channel events.
    #[serde(default)]
    pub channel_events: bool,
    /// PERFMEV: performance events (queue depth high, low, full).
    #[serde(default)]
    pub performance_events: bool,
    /// CMDEV: command events — "disabled", "enabled" or "nodisplay".
    #[serde(default = "default_disabled")]
    pub command_events: String,
    /// STATMQI: MQI statistics messages.
    #[serde(default)]
    pub statistics_mqi: bool,
    /// STATQ: queue statistics — "off", "on" or "none".
    #[serde(default = "default_off")]
    pub statistics_queues: String,
    /// STATINT: seconds between statistics messages.
    #[serde(default = "default_statint")]
    pub statistics_interval: u32,
    /// ACCTMQI: MQI accounting messages.
    #[serde(default)]
    pub accounting_mqi: bool,
    /// ACCTQ: queue accounting — "off", "on" or "none".
    #[serde(default = "default_off")]
    pub accounting_queues: String,
    /// ACCTINT: seconds after which a connection writes an intermediate accounting record.
    #[serde(default = "default_statint")]
    pub accounting_interval: u32,
    /// Define DEV.QUEUE.1–3 at start.
    #[serde(default = "default_true")]
    pub dev_queues: bool,
    /// SCMDSERV: "qmgr" (the PCF command server starts with the queue manager) or "manual"
    /// (it waits for START CMDSERV).
    #[serde(default = "default_scmdserv")]
    pub command_server: String,
    /// When the queue manager was created, Unix seconds (CRDATE, CRTIME); written by
    /// `ferry qm create`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub created_unix_s: u64,
    /// When ALTER QMGR last changed it, Unix seconds (ALTDATE, ALTTIME).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub altered_unix_s: u64,
}

fn default_wait_spins() -> u32 {
    ferry_core::WaitPolicy::DEFAULT.spins
}

fn default_wait_yields() -> u32 {
    ferry_core::WaitPolicy::DEFAULT.yields
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn unix_now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn default_scmdserv() -> String {
    "qmgr".to_owned()
}

fn default_disabled() -> String {
    "disabled".to_owned()
}

fn default_off() -> String {
    "off".to_owned()
}

fn default_statint() -> u32 {
    ferry_model::objects::DEFAULT_STATISTICS_INTERVAL
}

/// A queue manager's STATQ or ACCTQ from qm.toml: "off", "on" or "none".
fn queue_switch(key: &str, word: &str) -> MqResult<ferry_model::objects::Monitoring> {
    ferry_model::objects::Monitoring::from_word(word)
        .filter(|m| *m != ferry_model::objects::Monitoring::QMgr)
        .ok_or_else(|| {
            MqError::new(
                Reason::AttributeValueError,
                format!("[qmgr] {key} = {word:?}: give \"off\", \"on\" or \"none\""),
            )
        })
}
fn default_dlq() -> String {
    ferry_model::system::DEAD_LETTER_QUEUE.to_owned()
}
fn default_connauth() -> String {
    ferry_model::system::DEFAULT_CONNAUTH.to_owned()
}
fn default_maxmsgl() -> usize {
    ferry_model::objects::DEFAULT_MAX_MSG_LENGTH
}
fn default_spill_mib() -> u64 {
    4096
}
fn default_maxumsgs() -> usize {
    10_000
}
fn default_maxhands() -> usize {
    256
}
fn default_maxconns() -> usize {
    10_000
}
fn default_maxdynq() -> usize {
    10_000
}
fn default_maxdynqc() -> usize {
    1_000
}
fn default_true() -> bool {
    true
}

/// The `[log]` section of `qm.toml`: the recovery log and checkpoints (MQ's qm.ini `Log` and
/// `TuningParameters` stanzas). Every value has a default; see docs/log.md.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogSection {
    /// `circular` (extents no checkpoint or queued message needs are removed) or `linear`
    /// (extents are kept, for media recovery and archiving). MQ's LogType.
    #[serde(rename = "type")]
    pub log_type: String,
    /// MiB per extent, 1–1024 (MQ's LogFilePages × 4 KiB).
    pub extent_mib: u64,
    /// Most extents the log may span, 0 for no limit (MQ's LogPrimaryFiles +
    /// LogSecondaryFiles). Queued persistent message content lives in the log, so this bounds
    /// the disk persistent messages may use; a put that would need more is refused with
    /// MQRC_RESOURCE_PROBLEM.
    pub max_extents: u64,
    /// KiB of log buffer (MQ's LogBufferPages × 4 KiB).
    pub buffer_kib: usize,
    /// MiB of log written between checkpoints, at least (a large checkpoint stretches it).
    pub checkpoint_mib: u64,
    /// KiB of persistent messages each queue also keeps in memory (MQ's DefaultPQBufferSize);
    /// beyond it they are read back from the log when got.
    pub queue_buffer_kib: usize,
}

impl Default for LogSection {
    fn default() -> Self {
        let d = PersistSettings::default();
        LogSection {
            log_type: "circular".into(),
            extent_mib: d.log.extent_size >> 20,
            max_extents: d.log.max_extents,
            buffer_kib: d.log.buffer_size >> 10,
            checkpoint_mib: d.checkpoint_bytes >> 20,
            queue_buffer_kib: d.queue_buffer >> 10,
        }
    }
}

/// The whole `qm.toml`. Unknown keys are refused with a message naming them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QmFile {
    /// Queue manager attributes.
    pub qmgr: QmSection,
    /// Recovery log settings.
    #[serde(default)]
    pub log: LogSection,
    /// Listeners and connection limits.
    #[serde(default)]
    pub server: crate::config::ServerSection,
    /// The Prometheus endpoint.
    #[serde(default)]
    pub metrics: crate::config::MetricsSection,
    /// The MQTT service.
    #[serde(default)]
    pub mqtt: crate::config::MqttSection,
    /// The web console and its HTTP/JSON admin API.
    #[serde(default)]
    pub console: crate::config::ConsoleSection,
}

impl QmFile {
    /// Defaults for a new queue manager.
    pub fn new(name: &str) -> Self {
        QmFile {
            qmgr: QmSection {
                name: name.to_owned(),
                description: String::new(),
                dead_letter_queue: default_dlq(),
                max_msg_length: default_maxmsgl(),
                max_uncommitted_msgs: default_maxumsgs(),
                max_handles: default_maxhands(),
                max_connections: default_maxconns(),
                memory_budget_mib: 0,
                spill_mib: default_spill_mib(),
                wait_spins: default_wait_spins(),
                wait_yields: default_wait_yields(),
                max_dynamic_queues: default_maxdynq(),
                max_dynamic_queues_per_conn: default_maxdynqc(),
                default_xmit_queue: String::new(),
                connauth: default_connauth(),
                chlauth: true,
                authority_events: false,
                channel_events: false,
                performance_events: false,
                command_events: default_disabled(),
                statistics_mqi: false,
                statistics_queues: default_off(),
                statistics_interval: default_statint(),
                accounting_mqi: false,
                accounting_queues: default_off(),
                accounting_interval: default_statint(),
                dev_queues: true,
                command_server: default_scmdserv(),
                created_unix_s: 0,
                altered_unix_s: 0,
            },
            log: LogSection::default(),
            server: Default::default(),
            metrics: Default::default(),
            mqtt: Default::default(),
            console: Default::default(),
        }
    }

    /// The persistence settings the `[log]` section describes, validated.
    pub fn persist_settings(&self) -> MqResult<PersistSettings> {
        let l = &self.log;
        let bad =
            |what: String| MqError::new(Reason::ConfigError, format!("qm.toml [log]: {what}"));
        let log_type = match l.log_type.as_str() {
            "circular" => ferry_log::LogType::Circular,
            "linear" => ferry_log::LogType::Linear,
            other => return Err(bad(format!("type = \"{other}\" is not circular or linear"))),
        };
        if !(1..=1024).contains(&l.extent_mib) {
            return Err(bad(format!(
                "extent_mib = {} is outside 1–1024",
                l.extent_mib
            )));
        }
        if !(64..=1 << 20).contains(&l.buffer_kib) {
            return Err(bad(format!(
                "buffer_kib = {} is outside 64–1048576",
                l.buffer_kib
            )));
        }
        if l.checkpoint_mib == 0 {
            return Err(bad("checkpoint_mib must be at least 1".into()));
        }
        Ok(PersistSettings {
            log: ferry_log::LogConfig {
                extent_size: l.extent_mib << 20,
                buffer_size: l.buffer_kib << 10,
                log_type,
                max_extents: l.max_extents,
                preallocate: true,
            },
            queue_buffer: l.queue_buffer_kib << 10,
            checkpoint_bytes: l.checkpoint_mib << 20,
        })
    }

    /// The queue manager attributes this file describes, validated.
    pub fn attrs(&self) -> MqResult<QueueManagerAttrs> {
        let q = &self.qmgr;
        let mut a = QueueManagerAttrs::new(object_name(&q.name)?);
        a.description = q.description.clone();
        a.dead_letter_queue = blank_or_name(&q.dead_letter_queue)?;
        a.max_msg_length = q.max_msg_length;
        a.max_uncommitted_msgs = q.max_uncommitted_msgs;
        a.max_handles = q.max_handles;
        a.max_connections = q.max_connections;
        a.max_dynamic_queues = q.max_dynamic_queues;
        a.max_dynamic_per_conn = q.max_dynamic_queues_per_conn;
        a.default_xmit_queue = blank_or_name(&q.default_xmit_queue)?;
        a.connauth = blank_or_name(&q.connauth)?;
        a.chlauth = q.chlauth;
        a.authority_events = q.authority_events;
        a.channel_events = q.channel_events;
        a.performance_events = q.performance_events;
        a.command_events = ferry_model::objects::CommandEvents::from_word(&q.command_events)
            .ok_or_else(|| {
                MqError::new(
                    Reason::AttributeValueError,
                    format!(
                        "[qmgr] command_events = {:?}: give \"disabled\", \"enabled\" or \"nodisplay\"",
                        q.command_events
                    ),
                )
            })?;
        a.statistics_mqi = q.statistics_mqi;
        a.statistics_queues = queue_switch("statistics_queues", &q.statistics_queues)?;
        a.statistics_interval = q.statistics_interval;
        a.accounting_mqi = q.accounting_mqi;
        a.accounting_queues = queue_switch("accounting_queues", &q.accounting_queues)?;
        a.accounting_interval = q.accounting_interval;
        a.command_server_manual = match q.command_server.to_ascii_lowercase().as_str() {
            "qmgr" => false,
            "manual" => true,
            other => {
                return Err(MqError::new(
                    Reason::AttributeValueError,
                    format!("[qmgr] command_server = {other:?}: give \"qmgr\" or \"manual\""),
                ))
            }
        };
        a.created_unix_s = q.created_unix_s;
        a.altered_unix_s = q.altered_unix_s.max(q.created_unix_s);
        a.validate()?;
        Ok(a)
    }

    /// Reads and checks `dir/qm.toml`.
    pub fn load(dir: &Path) -> MqResult<QmFile> {
        let path = dir.join(CONFIG_FILE);
        let text = fs::read_to_string(&path).map_err(|e| {
            MqError::new(
                Reason::QMgrDataError,
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        QmFile::parse(&text)
            .map_err(|e| MqError::new(e.reason, format!("{}: {}", path.display(), e.detail)))
    }

    /// Reads and checks the text of a `qm.toml` (outside bytes: the fuzz target `config`
    /// feeds it anything).
    pub fn parse(text: &str) -> MqResult<QmFile> {
        let f: QmFile = toml::from_str(text)
            .map_err(|e| MqError::new(Reason::ConfigError, format!("not a valid qm.toml: {e}")))?;
        f.attrs()?;
        Ok(f)
    }

    /// Writes `dir/qm.toml` (via a temporary file and rename, so a crash never leaves half a
    /// file; owner-only, like everything in the directory).
    pub fn save(&self, dir: &Path) -> MqResult<()> {
        let io = |e: std::io::Error| {
            MqError::new(
                Reason::QMgrDataError,
                format!("cannot write {}: {e}", dir.display()),
            )
        };
        crate::private::create_dir(dir).map_err(io)?;
        let text = toml::to_string_pretty(self).map_err(|e| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot encode configuration: {e}"),
            )
        })?;
        crate::private::write_file(&dir.join(CONFIG_FILE), text.as_bytes()).map_err(io)?;
        Ok(())
    }
}

/// An object name from `qm.toml`, where blank means none.
fn blank_or_name(s: &str) -> MqResult<ObjectName> {
    if s.trim().is_empty() {
        Ok(ObjectName::EMPTY)
    } else {
        object_name(s)
    }
}

/// Writes the queue manager attributes ALTER QMGR changed into `dir/qm.toml` (its other
/// sections untouched), replacing the file atomically.
pub fn save_qmgr_attrs(dir: &Path, a: &QueueManagerAttrs) -> MqResult<()> {
    let mut f = QmFile::load(dir)?;
    f.qmgr.description = a.description.clone();
    f.qmgr.dead_letter_queue = a.dead_letter_queue.as_str().to_owned();
    f.qmgr.max_msg_length = a.max_msg_length;
    f.qmgr.max_uncommitted_msgs = a.max_uncommitted_msgs;
    f.qmgr.max_handles = a.max_handles;
    f.qmgr.max_connections = a.max_connections;
    f.qmgr.max_dynamic_queues = a.max_dynamic_queues;
    f.qmgr.max_dynamic_queues_per_conn = a.max_dynamic_per_conn;
    f.qmgr.default_xmit_queue = a.default_xmit_queue.as_str().to_owned();
    f.qmgr.connauth = a.connauth.as_str().to_owned();
    f.qmgr.chlauth = a.chlauth;
    f.qmgr.authority_events = a.authority_events;
    f.qmgr.channel_events = a.channel_events;
    f.qmgr.performance_events = a.performance_events;
    f.qmgr.command_events = a.command_events.word().to_ascii_lowercase();
    f.qmgr.statistics_mqi = a.statistics_mqi;
    f.qmgr.statistics_queues = a.statistics_queues.word().to_ascii_lowercase();
    f.qmgr.statistics_interval = a.statistics_interval;
    f.qmgr.accounting_mqi = a.accounting_mqi;
    f.qmgr.accounting_queues = a.accounting_queues.word().to_ascii_lowercase();
    f.qmgr.accounting_interval = a.accounting_interval;
    f.qmgr.altered_unix_s = a.altered_unix_s;
    f.qmgr.command_server = if a.command_server_manual {
        "manual"
    } else {
        "qmgr"
    }
    .to_owned();
    f.save(dir)
}

/// Name of the recovery log's directory inside a queue manager's directory.
pub const LOG_DIR: &str = "log";

/// Starts the queue manager whose directory is `dir` (its lock must be held): reads `qm.toml`,
/// replays the recovery log in `dir/log` and opens it for appending. `recover_to_last_good`
/// accepts a damaged log up to its last good record (reporting what was dropped) instead of
/// refusing to start.
/// The configuration is `qm.toml` with the process's `FERRY_<SECTION>_<KEY>` environment
/// variables applied (see [`crate::config`]).
pub fn open_queue_manager(
    dir: &Path,
    recover_to_last_good: bool,
) -> MqResult<(QueueManager, RecoveryReport)> {
    let layered = crate::config::load_layered(dir, &crate::config::Overrides::from_env(vec![]))?;
    open_queue_manager_with(dir, &layered.file, recover_to_last_good)
}

/// Warns when the log may grow larger than the disk holding it has room for: then a full disk,
/// not `max_extents`, is what stops persistent puts (with 2102, and the queue manager carries
/// on), and the administrator should know which figure to change.
fn warn_if_log_outgrows_disk(log_dir: &Path, log: &ferry_log::LogConfig) {
    let Ok(vfs) = nix::sys::statvfs::statvfs(log_dir) else {
        return;
    };
    let free = vfs.blocks_available() * vfs.fragment_size();
    let used: u64 = std::fs::read_dir(log_dir)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    let bound = log.max_extents.saturating_mul(log.extent_size);
    if log.max_extents == 0 || bound > free + used {
        let mib = |b: u64| b >> 20;
        tracing::warn!(
            log_bound_mib = if log.max_extents == 0 { u64::MAX >> 20 } else { mib(bound) },
            disk_free_mib = mib(free),
            log_now_mib = mib(used),
            dir = %log_dir.display(),
            "the recovery log may grow beyond the free space of its disk ([log] max_extents x \
             extent_mib); when the disk fills, persistent puts are refused (2102) until space is \
             freed; lower max_extents to make the log's own bound the one that holds"
        );
    }
}

/// [`open_queue_manager`] with a configuration already read and layered.
pub fn open_queue_manager_with(
    dir: &Path,
    file: &QmFile,
    recover_to_last_good: bool,
) -> MqResult<(QueueManager, RecoveryReport)> {
    let config = QmConfig {
        attrs: file.attrs()?,
        clock: Default::default(),
        dev_queues: file.qmgr.dev_queues,
        memory_budget: match file.qmgr.memory_budget_mib {
            0 => ferry_core::engine::budget::default_limit(),
            mib => mib << 20,
        },
        // The account this process runs as, not what $USER claims (`sudo`, `docker exec`).
        owner: crate::accounts::by_uid(nix::unistd::geteuid().as_raw())
            .map_or_else(QmConfig::env_user, |a| a.name),
        wait: ferry_core::WaitPolicy {
            spins: file.qmgr.wait_spins,
            yields: file.qmgr.wait_yields,
        },
    };
    for (path, mode) in crate::private::loosened(dir) {
        tracing::warn!(
            path = %path.display(),
            mode = format!("{mode:04o}"),
            "other users of this machine can reach this part of the queue manager's directory; \
             restrict it (chmod 700 for directories, 600 for files; 770/660 to share with the group)"
        );
    }
    let log_dir = dir.join(LOG_DIR);
    let storage = ferry_log::FileStorage::new(&log_dir).map_err(|e| {
        MqError::new(
            Reason::QMgrDataError,
            format!("cannot open the recovery log in {}: {e}", log_dir.display()),
        )
    })?;
    warn_if_log_outgrows_disk(&log_dir, &file.persist_settings()?.log);
    let mode = if recover_to_last_good {
        ferry_log::RecoveryMode::ToLastGood
    } else {
        ferry_log::RecoveryMode::Strict
    };
    let opened = QueueManager::open_persistent(
        config,
        std::sync::Arc::new(storage),
        file.persist_settings()?,
        mode,
    );
    if let Ok((qm, _)) = &opened {
        open_spill(qm, dir, file.qmgr.spill_mib)?;
        let dir = dir.to_owned();
        qm.set_attrs_sink(Box::new(move |a| save_qmgr_attrs(&dir, a)));
    }
    opened
        .map_err(|e| match e.reason {
            Reason::QMgrDataError => MqError::new(
                e.reason,
                format!(
                    "{} (the queue manager will not start on a damaged log; 'ferry qm start --recover-to-last-good' \
                     starts it from the last good record and reports what was lost)",
                    e.detail
                ),
            ),
            _ => e,
        })
}

/// The spill area's directory in a queue manager's.
pub const SPILL_DIR: &str = "spill";

/// Opens the spill area (emptied: non-persistent messages do not outlive a restart) with room
/// for `mib`, unless `mib` is 0.
fn open_spill(qm: &QueueManager, dir: &Path, mib: u64) -> MqResult<()> {
    if mib == 0 {
        return Ok(());
    }
    let at = dir.join(SPILL_DIR);
    let area = ferry_log::FileStorage::new(&at)
        .and_then(|s| ferry_log::SpillArea::open(std::sync::Arc::new(s), mib << 20))
        .map_err(|e| {
            MqError::new(
                Reason::StorageNotAvailable,
                format!("cannot open the spill area in {}: {e}", at.display()),
            )
        })?;
    qm.set_spill(std::sync::Arc::new(
        ferry_core::durable::spill::MessageSpill::new(area),
    ));
    Ok(())
}

/// Creates queue manager `name` under `home` (its directory and `qm.toml`). Fails if it exists.
pub fn create(home: &Path, name: &str) -> MqResult<PathBuf> {
    object_name(name)?;
    let dir = qm_dir(home, name);
    if dir.join(CONFIG_FILE).exists() {
        return Err(MqError::new(
            Reason::ObjectAlreadyExists,
            format!("queue manager {name} already exists in {}", dir.display()),
        ));
    }
    let mut file = QmFile::new(name);
    file.qmgr.created_unix_s = unix_now_s();
    file.qmgr.altered_unix_s = file.qmgr.created_unix_s;
    file.save(&dir)?;
    Ok(dir)
}

/// Creates the queue manager `name` under `home` listening on `listen` ([server] listen).
pub fn create_listening(home: &Path, name: &str, listen: &str) -> MqResult<PathBuf> {
    let dir = create(home, name)?;
    let mut file = QmFile::load(&dir)?;
    file.server.listen = listen.to_owned();
    file.save(&dir)?;
    Ok(dir)
}

/// The first port from `first` up on 127.0.0.1 that no queue manager under `home` is configured
/// to listen on and that nothing listens on now; with what was passed over, as
/// (address, holder) pairs to tell the user.
pub fn free_listen(home: &Path, first: u16) -> (String, Vec<(String, String)>) {
    let configured: Vec<(String, String)> = list(home)
        .into_iter()
        .filter_map(|n| {
            let f = QmFile::load(&qm_dir(home, &n)).ok()?;
            Some((f.server.listen, n))
        })
        .collect();
    let mut skipped = Vec::new();
    for port in first..=u16::MAX {
        let addr = format!("127.0.0.1:{port}");
        if let Some((_, owner)) = configured.iter().find(|(a, _)| *a == addr) {
            skipped.push((addr, format!("queue manager {owner}")));
            continue;
        }
        if std::net::TcpListener::bind(&addr).is_err() {
            let who = crate::net::listener_holder(port).map_or_else(
                || "another program".to_owned(),
                |(pid, c)| format!("{c} (pid {pid})"),
            );
            skipped.push((addr, who));
            continue;
        }
        return (addr, skipped);
    }
    ("127.0.0.1:0".to_owned(), skipped)
}

/// Names of the queue managers under `home`, sorted.
pub fn list(home: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(home.join("qmgrs"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(CONFIG_FILE).exists())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Proof that this process runs the queue manager in a directory; released on drop.
#[derive(Debug)]
pub struct DirLock {
    file: File,
    path: PathBuf,
}

impl DirLock {
    /// Takes the queue manager directory's lock and records this process's pid in it.
    pub fn acquire(dir: &Path) -> MqResult<DirLock> {
        let path = dir.join(LOCK_FILE);
        let mut file = crate::private::open_file(&path).map_err(|e| {
            MqError::new(
                Reason::QMgrDataError,
                format!("cannot open {}: {e}", path.display()),
            )
        })?;
        if file.try_lock().is_err() {
            let pid = running_pid(dir)
                .map_or_else(|| "another process".to_owned(), |p| format!("process {p}"));
            return Err(MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the queue manager in {} is already running in {pid}",
                    dir.display()
                ),
            ));
        }
        let io = |e: std::io::Error| {
            MqError::new(
                Reason::QMgrDataError,
                format!("cannot write {}: {e}", path.display()),
            )
        };
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(DirLock { file, path })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// The pid of the process running the queue manager in `dir`, if one holds its lock.
pub fn running_pid(dir: &Path) -> Option<u32> {
    let path = dir.join(LOCK_FILE);
    let file = File::open(&path).ok()?;
    if file.try_lock_shared().is_ok() {
        let _ = file.unlock();
        return None;
    }
    let mut text = String::new();
    (&file).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_home(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ferry-home-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn create_writes_a_config_that_loads_back() {
        let home = temp_home("create");
        let dir = create(&home, "QM1").unwrap();
        let f = QmFile::load(&dir).unwrap();
        assert_eq!(f.qmgr.name, "QM1");
        assert_eq!(list(&home), vec!["QM1".to_owned()]);
        assert_eq!(
            create(&home, "QM1").unwrap_err().reason,
            Reason::ObjectAlreadyExists
        );
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn unknown_config_keys_are_refused_by_name() {
        let home = temp_home("unknown");
        let dir = create(&home, "QM1").unwrap();
        fs::write(
            dir.join(CONFIG_FILE),
            "[qmgr]\nname = \"QM1\"\nmax_msg_lenght = 5\n",
        )
        .unwrap();
        let e = QmFile::load(&dir).unwrap_err();
        assert!(e.detail.contains("max_msg_lenght"), "{e}");
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn the_wait_policy_comes_from_the_config() {
        let home = temp_home("wait");
        let (qm, _) = open_queue_manager(&create(&home, "QM1").unwrap(), false).unwrap();
        assert_eq!(qm.wait_policy(), ferry_core::WaitPolicy::DEFAULT);
        let dir = create(&home, "QM2").unwrap();
        let mut f = QmFile::load(&dir).unwrap();
        (f.qmgr.wait_spins, f.qmgr.wait_yields) = (7, 9);
        let (qm2, _) = open_queue_manager_with(&dir, &f, false).unwrap();
        let want = ferry_core::WaitPolicy {
            spins: 7,
            yields: 9,
        };
        assert_eq!(qm2.wait_policy(), want);
        drop((qm, qm2));
        let _ = fs::remove_dir_all(&home);
    }

    #[test]
    fn lock_is_exclusive_and_records_the_pid() {
        let home = temp_home("lock");
        let dir = create(&home, "QM1").unwrap();
        let lock = DirLock::acquire(&dir).unwrap();
        assert_eq!(running_pid(&dir), Some(std::process::id()));
        assert!(DirLock::acquire(&dir).is_err());
        drop(lock);
        assert_eq!(running_pid(&dir), None);
        let _ = fs::remove_dir_all(&home);
    }
}
