//! The MQI side of `ferry perf mqtt` (`--from mqi`, `--to mqi`): bridging between MQTT clients
//! and MQI applications on the same topic string, as the queue manager maps them (an MQTT
//! PUBLISH is a publication MQI subscribers see; an MQI publication reaches MQTT subscribers).
//!
//! QoS 1 is persistent on the MQI side and QoS 0 is not, as the mapping says. The MQI
//! publisher puts asynchronously (MQPMO_ASYNC_RESPONSE; QoS 1 in units of work of
//! `--mqi-batch` puts) and keeps at most `--window` publications ahead of what the subscriber
//! has counted, so the rate is what flows end to end, not how fast a subscriber's queue fills.
//! The MQI subscriber has a managed subscription and gets with read-ahead (QoS 0) or in units
//! of work of `--mqi-batch` gets (QoS 1: a persistent get outside one waits for its own log
//! force, so a real consumer batches them).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_client::{
    ClientOptions, Connection, GetOptions, Hobj, Message, MqError, ObjectDescriptor, OpenOptions,
    Persistence, PutOptions, SubDescriptor,
};
use ferry_core::Reason;

use crate::mqtt::MqttArgs;

fn fail(what: &str, e: MqError) -> String {
    format!("MQI {what}: {e}")
}

/// Connects to `--mqi` as `--user` / `--password`.
fn connect(a: &MqttArgs) -> Result<Connection, String> {
    let endpoint = a
        .mqi
        .as_deref()
        .ok_or("--from mqi and --to mqi need --mqi ENDPOINT (the queue manager's, e.g. tcp://127.0.0.1:1414)")?;
    let opts = ClientOptions {
        user: a.user.clone(),
        password: a.password.clone(),
        ..ClientOptions::default()
    };
    Connection::connect_with(endpoint, "ferry-perf-mqtt", &opts)
        .map_err(|e| fail(&format!("connect to {endpoint}"), e))
}

/// The MQI subscriber: a managed subscription, its queue read by `--mqi-getters`
/// connections (the subscriber's and others that open the same queue, as several instances of
/// an application share one); subscribed before this returns. Each getter's thread counts
/// publications into `received`; the handle returns when the last came (or `None` after
/// `--wait` without all).
pub fn subscriber(
    a: &MqttArgs,
    received: Arc<AtomicU64>,
) -> Result<JoinHandle<Result<Option<Instant>, String>>, String> {
    let mut c = connect(a)?;
    let mut sd = SubDescriptor::managed(&a.topic);
    sd.read_ahead = (a.qos == 0).then_some(true);
    let (q, _) = c.subscribe(&sd, None).map_err(|e| fail("subscribe", e))?;
    let name = c.queue_name(q).map_err(|e| fail("queue name", e))?;
    let mut getters = vec![(c, q)];
    for _ in 1..a.mqi_getters.max(1) {
        let mut other = connect(a)?;
        let opts = OpenOptions {
            read_ahead: sd.read_ahead,
            ..OpenOptions::input()
        };
        let h = other
            .open_queue(name.as_str(), opts)
            .map_err(|e| fail(&format!("open {name}"), e))?;
        getters.push((other, h));
    }
    let threads: Vec<_> = getters
        .into_iter()
        .map(|(c, q)| {
            let (a, received) = (a.clone(), received.clone());
            std::thread::spawn(move || getter(c, q, &a, &received))
        })
        .collect();
    Ok(std::thread::spawn(move || {
        let mut last = None;
        let mut ended = Vec::new();
        for t in threads {
            let (c, at) = t
                .join()
                .map_err(|_| "an MQI getter panicked".to_string())??;
            last = last.max(at);
            ended.push(c);
        }
        // The subscription's own connection last: its end removes the queue the others read.
        for c in ended.into_iter().rev() {
            c.disconnect().map_err(|e| fail("disconnect", e))?;
        }
        Ok(last)
    }))
}

/// One getter: gets until `received` reaches `--messages` or a wait of `--wait` finds
/// nothing; the connection back, and the time of its last message.
fn getter(
    mut c: Connection,
    q: Hobj,
    a: &MqttArgs,
    received: &AtomicU64,
) -> Result<(Connection, Option<Instant>), String> {
    let mut opts = GetOptions::new().wait(a.wait);
    opts.syncpoint = a.qos > 0;
    let (mut pending, mut last) = (0u64, None);
    let batch = a.mqi_batch.max(1);
    while received.load(Ordering::Relaxed) < a.messages {
        // A unit of work holds at most --mqi-batch gets, whatever a call takes.
        debug_assert!(!opts.syncpoint || pending < batch, "committed once full");
        let room = if opts.syncpoint {
            batch - pending
        } else {
            u64::MAX
        };
        let max = a.mqi_get_many.max(1).min(room as usize);
        match c.get_many(q, &opts, max) {
            Ok(got) => {
                received.fetch_add(got.len() as u64, Ordering::Relaxed);
                last = Some(Instant::now());
                pending += got.len() as u64;
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(fail("get", e)),
        }
        if opts.syncpoint && pending >= batch {
            c.commit().map_err(|e| fail("commit", e))?;
            pending = 0;
        }
    }
    if pending > 0 {
        c.commit().map_err(|e| fail("commit", e))?;
    }
    Ok((c, last))
}

/// The MQI publisher: `--messages` publications on `--topic` (or `--topics` of them in turn,
/// each an MQPUT1), at most `--window` ahead of `received` when the run counts deliveries;
/// every asynchronous put's outcome checked at the end.
pub fn publish(a: &MqttArgs, received: Option<&AtomicU64>) -> Result<(), String> {
    let mut c = connect(a)?;
    let od = ObjectDescriptor::topic(&a.topic);
    let h = match a.topics {
        0 => Some(
            c.open(&od, OpenOptions::output())
                .map_err(|e| fail(&format!("open topic {}", a.topic), e))?,
        ),
        _ => None,
    };
    let persistent = a.qos > 0;
    let (opts, persistence) = if persistent {
        (PutOptions::syncpoint(), Persistence::Persistent)
    } else {
        (PutOptions::default(), Persistence::NotPersistent)
    };
    let opts = opts.with_async();
    let msg = Message::new(Bytes::from(vec![b'x'; a.size])).with_persistence(persistence);
    let batch = a.mqi_batch.max(1);
    for i in 0..a.messages {
        if persistent && i > 0 && i % batch == 0 {
            c.commit().map_err(|e| fail("commit", e))?;
        }
        if let (Some(received), Some(behind)) = (received, (i + 1).checked_sub(a.window.max(1))) {
            wait_for(received, behind, i, a.wait)?;
        }
        match h {
            Some(h) => c.put(h, msg.clone(), &opts),
            None => c.put1_to(&ObjectDescriptor::topic(&a.topic_of(i)), msg.clone(), &opts),
        }
        .map_err(|e| fail("publish", e))?;
    }
    if persistent {
        c.commit().map_err(|e| fail("commit", e))?;
    }
    let s = c.async_put_status().map_err(|e| fail("status", e))?;
    if let Some(e) = s.first_failure {
        return Err(fail(&format!("{} asynchronous publications", s.failed), e));
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Waits until `received` reaches `want` (the window is full until then); an error after
/// `patience`.
fn wait_for(received: &AtomicU64, want: u64, sent: u64, patience: Duration) -> Result<(), String> {
    if received.load(Ordering::Relaxed) >= want {
        return Ok(());
    }
    let until = Instant::now() + patience;
    while received.load(Ordering::Relaxed) < want {
        if Instant::now() > until {
            return Err(format!(
                "the subscriber took nothing for {patience:?} ({} of {sent} published)",
                received.load(Ordering::Relaxed)
            ));
        }
        std::thread::sleep(Duration::from_micros(50));
    }
    Ok(())
}
