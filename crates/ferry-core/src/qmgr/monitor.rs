//! Resource monitoring on `$SYS/MQ/INFO/QMGR/<qmgr>/Monitor/...` (see `ferry_model::monitor`):
//! the retained metadata, published when the monitor thread starts, and a data publication per
//! type — per queue for STATQ — every interval, only on topics some subscription matches.
//!
//! The CPU and DISK classes are published when the host gave the queue manager a
//! [`HostProbe`] (`ferry qm start` does; an embedded queue manager has none): their figures are
//! the host's, sampled at each publication; CPU percentages cover the time since the previous
//! publication on the same topic (the machine's CPU time, all processors together, is 100 %).
//!
//! DELTA values cover the time since the previous publication on the same topic (the first
//! after a subscription appears covers nothing: 0, as collectors discard it anyway); the
//! interval each carries is that time in microseconds. The counters come from the queues'
//! statistics and the publish/subscribe counters since start. Publications are non-persistent
//! PCF messages (format MQADMIN), put through a session of the queue manager's own.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use ferry_model::message::{format, Message, Persistence};
use ferry_model::monitor::{self, MonClass, MonType};
use ferry_model::options::PutOptions;
use ferry_model::reason::MqResult;
use ferry_model::status::RunState;

use crate::qmgr::{Object, QueueManager};

/// A data topic's last publication: when (clock ns) and the cumulative counters then.
type Snapshot = (u64, Vec<(i32, i64)>);

/// What each data topic last published.
#[derive(Debug, Default)]
pub(crate) struct MonitorState {
    last: Mutex<HashMap<String, Snapshot>>,
    /// The host's figures, when it measures them.
    probe: std::sync::OnceLock<Arc<dyn HostProbe>>,
    /// Each host topic's previous sample (CPU percentages are over the time since).
    host_last: Mutex<HashMap<String, HostSample>>,
}

/// What the host measures for the CPU and DISK classes. Times are cumulative clock ticks
/// (machine-wide: all processors together; the process: this one); sizes in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HostSample {
    /// Machine: user time (nice included).
    pub cpu_user: u64,
    /// Machine: system time (interrupts included).
    pub cpu_system: u64,
    /// Machine: all time, idle included.
    pub cpu_total: u64,
    /// This process: user time.
    pub proc_user: u64,
    /// This process: system time.
    pub proc_system: u64,
    /// Load averages over 1, 5 and 15 minutes.
    pub load: [f64; 3],
    /// Memory: total and available.
    pub ram_total: u64,
    /// Memory available.
    pub ram_available: u64,
    /// This process's resident memory.
    pub proc_rss: u64,
    /// The queue manager directory's file system: size and free.
    pub fs_total: u64,
    /// Free there.
    pub fs_free: u64,
    /// The log directory's files.
    pub log_in_use: u64,
    /// The most the log may take (0: no limit).
    pub log_max: u64,
    /// The log directory's file system: size and free.
    pub log_fs_total: u64,
    /// Free there.
    pub log_fs_free: u64,
}

/// The host's side of the CPU and DISK monitoring classes (implemented by `ferry-host`).
pub trait HostProbe: Send + Sync + std::fmt::Debug {
    /// The figures now.
    fn sample(&self) -> HostSample;
}

/// `part` of `whole`, in hundredths of a percent.
fn percent(part: u64, whole: u64) -> i64 {
    if whole == 0 {
        0
    } else {
        (part.min(whole) as u128 * 10_000 / whole as u128) as i64
    }
}

/// A host type's values from the sample now and the topic's previous one.
fn host_values(
    ty: &MonType,
    class: &str,
    now: &HostSample,
    before: &HostSample,
) -> Vec<(i32, i64)> {
    let d = |a: u64, b: u64| a.saturating_sub(b);
    let total = d(now.cpu_total, before.cpu_total);
    let mb = |b: u64| (b >> 20) as i64;
    ty.elements
        .iter()
        .map(|e| {
            let v = match (class, ty.name, e.id) {
                ("CPU", "SystemSummary", monitor::CPU_USER) => {
                    percent(d(now.cpu_user, before.cpu_user), total)
                }
                ("CPU", "SystemSummary", monitor::CPU_SYSTEM) => {
                    percent(d(now.cpu_system, before.cpu_system), total)
                }
                ("CPU", "SystemSummary", id) if monitor::CPU_LOAD.contains(&id) => {
                    let i = monitor::CPU_LOAD.iter().position(|x| *x == id).unwrap_or(0);
                    (now.load[i] * 100.0).round() as i64
                }
                ("CPU", "SystemSummary", monitor::RAM_FREE) => {
                    percent(now.ram_available, now.ram_total)
                }
                ("CPU", "SystemSummary", monitor::RAM_TOTAL) => mb(now.ram_total),
                ("CPU", "QMgrSummary", monitor::CPU_USER) => {
                    percent(d(now.proc_user, before.proc_user), total)
                }
                ("CPU", "QMgrSummary", monitor::CPU_SYSTEM) => {
                    percent(d(now.proc_system, before.proc_system), total)
                }
                ("CPU", "QMgrSummary", monitor::QM_RAM) => mb(now.proc_rss),
                ("DISK", "QMgrSummary", monitor::QM_FS_USED) => mb(d(now.fs_total, now.fs_free)),
                ("DISK", "QMgrSummary", monitor::QM_FS_FREE) => percent(now.fs_free, now.fs_total),
                ("DISK", "Log", monitor::LOG_IN_USE) => now.log_in_use as i64,
                ("DISK", "Log", monitor::LOG_MAX) => now.log_max as i64,
                ("DISK", "Log", monitor::LOG_FS_USED) => {
                    d(now.log_fs_total, now.log_fs_free) as i64
                }
                ("DISK", "Log", monitor::LOG_FS_MAX) => now.log_fs_total as i64,
                _ => 0,
            };
            (e.id, v)
        })
        .collect()
}

fn message(body: Vec<u8>) -> Message {
    let mut m = Message::new(body).with_persistence(Persistence::NotPersistent);
    m.descriptor.format = format::name("MQADMIN");
    m
}

impl QueueManager {
    /// Publishes the monitoring metadata as retained publications (classes, types, elements).
    pub fn publish_monitor_metadata(&self) -> MqResult<()> {
        let qmgr = self.name().to_string();
        let mut s = self.internal_session("ferry monitor");
        let opts = PutOptions {
            retain: true,
            ..PutOptions::default()
        };
        for (topic, body) in monitor::metadata(&qmgr, &self.monitor_classes()) {
            s.publish(&topic, message(body), &opts)?;
        }
        s.disconnect()
    }

    /// Publishes the data of every monitoring topic a subscription matches now; how many.
    pub fn publish_monitor_data(&self) -> MqResult<usize> {
        let qmgr = self.name().to_string();
        let mut due = Vec::new();
        for class in self.monitor_classes() {
            for ty in class.types {
                let topic = monitor::data_topic(&qmgr, class, ty);
                if class.per_object {
                    for q in self.monitored_queues() {
                        let t = topic.replace("%s", &monitor::object_in_topic(&q));
                        if self.subscriber_count(&t) > 0 {
                            due.push((t, class, ty, Some(q)));
                        }
                    }
                } else if self.subscriber_count(&topic) > 0 {
                    due.push((topic, class, ty, None));
                }
            }
        }
        if due.is_empty() {
            return Ok(0);
        }
        let mut s = self.internal_session("ferry monitor");
        for (topic, class, ty, queue) in &due {
            let body = self.monitor_body(&qmgr, topic, class, ty, queue.as_deref());
            s.publish(topic, message(body), &PutOptions::default())?;
        }
        s.disconnect()?;
        Ok(due.len())
    }

    /// Gives the queue manager the host's figures for the CPU and DISK classes (once, before
    /// the monitor starts).
    pub fn set_host_probe(&self, probe: Arc<dyn HostProbe>) {
        let _ = self.shared.monitor.probe.set(probe);
    }

    /// The classes published: the host's when it measures them, and the queue manager's own.
    fn monitor_classes(&self) -> Vec<&'static MonClass> {
        monitor::classes(self.shared.monitor.probe.get().is_some())
    }

    /// Local queues other than the queue manager's own (SYSTEM.*), by name.
    fn monitored_queues(&self) -> Vec<String> {
        let objects = self.shared.objects.read();
        let mut v: Vec<String> = objects
            .iter()
            .filter(|(n, o)| matches!(o, Object::Local(_)) && !n.as_str().starts_with("SYSTEM."))
            .map(|(n, _)| n.to_string())
            .collect();
        v.sort();
        v
    }

    /// One data publication's body: deltas since the topic's previous one.
    fn monitor_body(
        &self,
        qmgr: &str,
        topic: &str,
        class: &MonClass,
        ty: &MonType,
        queue: Option<&str>,
    ) -> Vec<u8> {
        let now = self.shared.clock.now();
        let totals = match self.host_totals(topic, class, ty) {
            Some(v) => v,
            None => self.monitor_totals(ty, class.per_object, queue),
        };
        let mut last = self.shared.monitor.last.lock();
        let (interval_us, values): (i64, Vec<(i32, i64)>) = match last.get(topic) {
            Some((then, before)) => {
                let values = ty
                    .elements
                    .iter()
                    .zip(&totals)
                    .map(|(e, (id, v))| match e.datatype {
                        monitor::DataType::Delta => {
                            let prev = before.iter().find(|(i, _)| i == id).map_or(0, |p| p.1);
                            (*id, v - prev)
                        }
                        _ => (*id, *v),
                    })
                    .collect();
                (((now.saturating_sub(*then)) / 1000) as i64, values)
            }
            None => {
                let values = ty
                    .elements
                    .iter()
                    .zip(&totals)
                    .map(|(e, (id, v))| match e.datatype {
                        monitor::DataType::Delta => (*id, 0),
                        _ => (*id, *v),
                    })
                    .collect();
                (0, values)
            }
        };
        last.insert(topic.to_owned(), (now, totals));
        monitor::data(qmgr, class, ty, interval_us, queue, &values)
    }

    /// A host class's values (`None` for the queue manager's own classes): the host's sample
    /// now against the topic's previous one; the log's bytes written cumulative (a DELTA).
    fn host_totals(&self, topic: &str, class: &MonClass, ty: &MonType) -> Option<Vec<(i32, i64)>> {
        if !monitor::HOST_CLASSES.iter().any(|c| c.id == class.id) {
            return None;
        }
        let now = self.shared.monitor.probe.get()?.sample();
        let before = self
            .shared
            .monitor
            .host_last
            .lock()
            .insert(topic.to_owned(), now)
            .unwrap_or(now);
        let mut values = host_values(ty, class.name, &now, &before);
        if class.name == "DISK" && ty.name == "Log" {
            let written = self.log_status().map_or(0, |s| s.bytes_appended) as i64;
            for (id, v) in &mut values {
                if *id == monitor::LOG_WRITTEN {
                    *v = written;
                }
            }
        }
        Some(values)
    }

    /// The cumulative counters of a type (per queue for STATQ), by element id.
    fn monitor_totals(
        &self,
        ty: &MonType,
        per_object: bool,
        queue: Option<&str>,
    ) -> Vec<(i32, i64)> {
        let statuses: Vec<_> = match queue {
            Some(q) => self.queue_status(q).into_iter().collect(),
            None => self
                .monitored_queues()
                .iter()
                .filter_map(|q| self.queue_status(q).ok())
                .collect(),
        };
        let sum = |f: &dyn Fn(&ferry_model::status::QueueStatus) -> u64| {
            statuses.iter().map(f).sum::<u64>() as i64
        };
        let ps = self.pubsub_totals();
        if !per_object {
            if let Some(values) = self.api_values(ty) {
                return values;
            }
        }
        ty.elements
            .iter()
            .map(|e| {
                let v = match (per_object, ty.name, e.id) {
                    (_, "PUT", 0) => sum(&|s| s.stats.puts),
                    (_, "GET", 0) => sum(&|s| s.stats.gets),
                    (false, "GET", monitor::MQI_GET_EXPIRED) => sum(&|s| s.expired),
                    (false, "PUBLISH", monitor::MQI_PUB_TOTAL) => ps.publications as i64,
                    (false, "PUBLISH", monitor::MQI_PUB_DELIVERED) => ps.deliveries as i64,
                    (true, "GENERAL", monitor::Q_EXPIRED) => sum(&|s| s.expired),
                    (true, "GENERAL", monitor::Q_QTIME) => sum(&|s| s.stats.qtime_us),
                    (true, "GENERAL", monitor::Q_DEPTH) => sum(&|s| s.depth as u64),
                    _ => 0,
                };
                (e.id, v)
            })
            .collect()
    }

    /// The values of a STATMQI type counted from the MQI calls (`apistats`), by element id;
    /// `None` for the types counted elsewhere (PUT, GET, PUBLISH).
    fn api_values(&self, ty: &MonType) -> Option<Vec<(i32, i64)>> {
        use crate::qmgr::apistats::ApiCall::{self, *};
        let t = self.api_stats().totals();
        let pairs: &[(ApiCall, ApiCall)] = match ty.name {
            "OPENCLOSE" => &[(Open, Open), (Close, Close)],
            "INQSET" => &[(Inquire, Inquire), (Set, Set)],
            _ => &[],
        };
        let value = |id: i32| -> i64 {
            let v = match (ty.name, id) {
                ("CONNDISC", monitor::MQI_CONN) => t.ok(Connect),
                ("CONNDISC", monitor::MQI_CONN_FAILED) => t.failed(Connect),
                ("CONNDISC", monitor::MQI_CONN_HWM) => {
                    let now = self.shared.connections.lock().len();
                    self.api_stats().take_connections_hwm(now)
                }
                ("CONNDISC", monitor::MQI_DISC) => t.ok(Disconnect),
                ("OPENCLOSE" | "INQSET", id) => {
                    let call = pairs[(id / 2) as usize].0;
                    match id % 2 {
                        0 => t.ok(call),
                        _ => t.failed(call),
                    }
                }
                ("SYNCPOINT", monitor::MQI_COMMIT) => t.ok(Commit),
                ("SYNCPOINT", monitor::MQI_BACKOUT) => t.ok(Backout),
                ("SUBSCRIBE", 0) => t.ok(SubCreateDurable),
                ("SUBSCRIBE", 1) => t.ok(SubAlterDurable),
                ("SUBSCRIBE", 2) => t.ok(SubResumeDurable),
                ("SUBSCRIBE", 3) => t.ok(SubCreateNonDurable),
                ("SUBSCRIBE", monitor::MQI_SUB_FAILED) => [
                    SubCreateDurable,
                    SubAlterDurable,
                    SubResumeDurable,
                    SubCreateNonDurable,
                ]
                .iter()
                .map(|c| t.failed(*c))
                .sum(),
                ("SUBSCRIBE", 7) => t.ok(SubDeleteDurable),
                ("SUBSCRIBE", 8) => t.ok(SubDeleteNonDurable),
                ("SUBSCRIBE", monitor::MQI_UNSUB_FAILED) => {
                    t.failed(SubDeleteDurable) + t.failed(SubDeleteNonDurable)
                }
                ("SUBSCRIBE", 10) => t.ok(SubRequest),
                ("SUBSCRIBE", 11) => t.failed(SubRequest),
                _ => 0,
            };
            v as i64
        };
        matches!(
            ty.name,
            "CONNDISC" | "OPENCLOSE" | "INQSET" | "SYNCPOINT" | "SUBSCRIBE"
        )
        .then(|| ty.elements.iter().map(|e| (e.id, value(e.id))).collect())
    }

    /// Starts the monitor thread: the metadata now, then the data every `interval` until the
    /// queue manager stops; and the statistics thread (STATMQI, STATQ every STATINT).
    pub fn start_monitor(
        &self,
        interval: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        self.start_statistics()?;
        let weak = Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("ferry-monitor".into())
            .spawn(move || {
                let mut metadata_done = false;
                loop {
                    let Some(shared) = weak.upgrade() else { return };
                    let qm = QueueManager { shared };
                    if qm.run_state() == RunState::Stopping {
                        return;
                    }
                    if !metadata_done {
                        match qm.publish_monitor_metadata() {
                            Ok(()) => metadata_done = true,
                            Err(e) => tracing::warn!(reason = %e.detail,
                                "the monitoring metadata could not be published; trying again"),
                        }
                    } else if let Err(e) = qm.publish_monitor_data() {
                        tracing::warn!(reason = %e.detail, "a monitoring publication failed");
                    }
                    drop(qm);
                    std::thread::sleep(if metadata_done {
                        interval
                    } else {
                        Duration::from_secs(1)
                    });
                }
            })
    }
}
