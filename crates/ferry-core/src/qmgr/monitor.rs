//! Resource monitoring on `$SYS/MQ/INFO/QMGR/<qmgr>/Monitor/...` (see `ferry_model::monitor`):
//! the retained metadata, published when the monitor thread starts, and a data publication per
//! type — per queue for STATQ — every interval, only on topics some subscription matches.
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
        for (topic, body) in monitor::metadata(&qmgr) {
            s.publish(&topic, message(body), &opts)?;
        }
        s.disconnect()
    }

    /// Publishes the data of every monitoring topic a subscription matches now; how many.
    pub fn publish_monitor_data(&self) -> MqResult<usize> {
        let qmgr = self.name().to_string();
        let mut due = Vec::new();
        for class in monitor::CLASSES {
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
        let totals = self.monitor_totals(ty, class.per_object, queue);
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

    /// Starts the monitor thread: the metadata now, then the data every `interval` until the
    /// queue manager stops.
    pub fn start_monitor(
        &self,
        interval: Duration,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
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
