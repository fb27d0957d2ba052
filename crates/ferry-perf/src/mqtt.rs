//! `ferry perf mqtt`: MQTT end to end against any broker (FerryMQ's `[mqtt]` listener, or
//! another for a side-by-side run): one publisher and one subscriber on a topic, MQTT 3.1.1 over
//! plain TCP, written here in a few lines of encoding so that the generator costs little per
//! message (packets gathered into large writes; acknowledgements read by a thread of their
//! own). QoS 0 publishes as fast as it writes; QoS 1 keeps at most `--window` publications
//! unacknowledged. The rate is messages delivered over the time from the first publication to
//! the last delivery; lost = published − delivered once the subscriber has waited `--wait`.
//! The harness's own CPU per message is reported, and the broker's when `--broker-pid` names it.

use std::io::{BufReader, BufWriter, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use crate::args::parse_duration;

/// `ferry perf mqtt`.
#[derive(Debug, Clone, Args)]
pub struct MqttArgs {
    /// The broker's MQTT address (host:port).
    #[arg(long, default_value = "127.0.0.1:1883")]
    pub broker: String,
    /// QoS of the publications and the subscription: 0 or 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub qos: u8,
    /// Messages to publish.
    #[arg(short = 'n', long, default_value_t = 300_000)]
    pub messages: u64,
    /// Payload bytes.
    #[arg(long, default_value_t = 256)]
    pub size: usize,
    /// QoS 1 publications unacknowledged at most.
    #[arg(long, default_value_t = 1000)]
    pub window: u64,
    /// The MQTT subscriber's session is kept (clean session 0): the queue manager logs what
    /// waits for it, where a clean session's queue is not logged (docs/mqtt.md). Ended (a clean
    /// CONNECT) after the run.
    #[arg(long)]
    pub kept_session: bool,
    /// The topic.
    #[arg(long, default_value = "ferry/perf/mqtt")]
    pub topic: String,
    /// User name (and --password) for both clients.
    #[arg(long)]
    pub user: Option<String>,
    /// Password for --user.
    #[arg(long)]
    pub password: Option<String>,
    /// How long the subscriber waits for a message before it stops (then the rest are lost).
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub wait: Duration,
    /// The broker's process id, to report its CPU per message beside the harness's.
    #[arg(long)]
    pub broker_pid: Option<u32>,
    /// Who publishes: an MQTT client, or an MQI application on the queue manager at --mqi
    /// (MQI to MQTT bridging).
    #[arg(long, value_enum, default_value_t = Side::Mqtt)]
    pub from: Side,
    /// Who subscribes: an MQTT client, an MQI application at --mqi (MQTT to MQI bridging), or
    /// none here (subscribers of another process; nothing is counted as received).
    #[arg(long, value_enum, default_value_t = Side::Mqtt)]
    pub to: Side,
    /// Publish on this many topics, TOPIC/0 ... TOPIC/N-1 in turn (0: on TOPIC alone).
    #[arg(long, default_value_t = 0)]
    pub topics: u64,
    /// The queue manager's MQI endpoint for an MQI side (e.g. tcp://127.0.0.1:1414).
    #[arg(long)]
    pub mqi: Option<String>,
    /// MQI side at QoS 1 (persistent): puts or gets in a unit of work.
    #[arg(long, default_value_t = 100)]
    pub mqi_batch: u64,
    /// MQI subscriber: connections getting from the subscription's queue.
    #[arg(long, default_value_t = 1)]
    pub mqi_getters: usize,
    /// MQI subscriber: messages a get call takes (1: MQGET, one a round trip; more: the
    /// client's batch get, `Connection::get_many`, one round trip for what the queue holds).
    #[arg(long, default_value_t = 1)]
    pub mqi_get_many: usize,
}

/// One end of a `ferry perf mqtt` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// An MQTT 3.1.1 client.
    Mqtt,
    /// An MQI application (FerryMQ's client library).
    Mqi,
    /// Subscribers elsewhere (`--to none`): the run only publishes.
    #[value(name = "none")]
    #[serde(rename = "none")]
    Elsewhere,
}

impl MqttArgs {
    /// The topic of publication `i`.
    pub fn topic_of(&self, i: u64) -> std::borrow::Cow<'_, str> {
        match self.topics {
            0 => self.topic.as_str().into(),
            n => format!("{}/{}", self.topic, i % n).into(),
        }
    }
}

/// What one run measured (printed as a JSON line).
#[derive(Debug, Serialize)]
pub struct MqttReport {
    pub from: Side,
    pub to: Side,
    pub qos: u8,
    pub window: u64,
    pub size: usize,
    pub sent: u64,
    /// Delivered to the run's subscriber (none with `--to none`).
    pub received: Option<u64>,
    pub lost: Option<u64>,
    pub seconds: f64,
    pub per_second: f64,
    /// Publications per second the broker took (QoS 1: acknowledged), first to last.
    pub published_per_second: f64,
    /// The harness's CPU (publisher and subscriber), microseconds a message.
    pub harness_cpu_us: f64,
    /// The broker's, when its pid was given.
    pub broker_cpu_us: Option<f64>,
}

/// Runs one publisher → subscriber measurement.
pub fn run(a: &MqttArgs) -> Result<MqttReport, String> {
    let me = std::process::id();
    let (cpu0, broker0) = (
        crate::sys::cpu_time(me),
        a.broker_pid.and_then(crate::sys::cpu_time),
    );
    let received = Arc::new(AtomicU64::new(0));
    let sub = match a.to {
        Side::Mqtt => Some(subscriber(a, received.clone())?),
        Side::Mqi => Some(crate::mqttmqi::subscriber(a, received.clone())?),
        Side::Elsewhere => None,
    };
    let started = Instant::now();
    let window = sub.is_some().then_some(&*received);
    match a.from {
        Side::Mqi => crate::mqttmqi::publish(a, window)?,
        _ => publish(a)?,
    }
    let published = started.elapsed().as_secs_f64();
    let done = match sub {
        Some(sub) => sub
            .join()
            .map_err(|_| "the subscriber thread panicked".to_string())??,
        None => Some(Instant::now()),
    };
    let got = received.load(Ordering::Relaxed);
    // CPU a message: of those delivered, or of those published when nothing counts deliveries.
    let counted = if a.to == Side::Elsewhere {
        a.messages
    } else {
        got
    };
    let seconds = done.map_or(0.0, |t| t.duration_since(started).as_secs_f64());
    let per = |d: Option<Duration>, d0: Option<Duration>| {
        Some((d? - d0?).as_secs_f64() * 1e6 / counted.max(1) as f64)
    };
    let report = MqttReport {
        from: a.from,
        to: a.to,
        qos: a.qos,
        window: a.window,
        size: a.size,
        sent: a.messages,
        received: (a.to != Side::Elsewhere).then_some(got),
        lost: (a.to != Side::Elsewhere).then_some(a.messages.saturating_sub(got)),
        seconds,
        per_second: if seconds > 0.0 {
            got as f64 / seconds
        } else {
            0.0
        },
        published_per_second: a.messages as f64 / published,
        harness_cpu_us: per(crate::sys::cpu_time(me), cpu0).unwrap_or(0.0),
        broker_cpu_us: per(a.broker_pid.and_then(crate::sys::cpu_time), broker0),
    };
    if a.kept_session && a.to == Side::Mqtt {
        end_kept_session(a)?;
    }
    Ok(report)
}

/// The remaining-length field.
pub(crate) fn put_len(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let b = (n % 128) as u8;
        n /= 128;
        out.push(if n > 0 { b | 0x80 } else { b });
        if n == 0 {
            return;
        }
    }
}

pub(crate) fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u16).to_be_bytes());
    out.extend_from_slice(s);
}

/// A CONNECT (3.1.1, clean session unless `kept`, keep-alive 60 s).
fn connect_packet(id: &str, user: Option<&str>, password: Option<&str>, kept: bool) -> Vec<u8> {
    let mut body = Vec::new();
    put_str(&mut body, b"MQTT");
    let clean = if kept { 0 } else { 0x02 };
    let flags = clean | user.map_or(0, |_| 0x80) | password.map_or(0, |_| 0x40);
    body.extend_from_slice(&[4, flags, 0, 60]);
    put_str(&mut body, id.as_bytes());
    for f in [user, password].into_iter().flatten() {
        put_str(&mut body, f.as_bytes());
    }
    let mut p = vec![0x10];
    put_len(&mut p, body.len());
    p.extend(body);
    p
}

/// A PUBLISH of `payload` on `topic` (packet id `id` at QoS 1).
pub(crate) fn publish_packet(out: &mut Vec<u8>, topic: &[u8], qos: u8, id: u16, payload: &[u8]) {
    out.push(0x30 | (qos << 1));
    let len = 2 + topic.len() + if qos > 0 { 2 } else { 0 } + payload.len();
    put_len(out, len);
    put_str(out, topic);
    if qos > 0 {
        out.extend_from_slice(&id.to_be_bytes());
    }
    out.extend_from_slice(payload);
}

/// Reads one packet: its first byte and body (into `body`).
fn read_packet(r: &mut impl Read, body: &mut Vec<u8>) -> std::io::Result<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    let head = b[0];
    let (mut len, mut shift) = (0usize, 0);
    loop {
        r.read_exact(&mut b)?;
        len |= usize::from(b[0] & 0x7f) << shift;
        shift += 7;
        if b[0] & 0x80 == 0 {
            break;
        }
    }
    body.resize(len, 0);
    r.read_exact(body)?;
    Ok(head)
}

/// Connects a client and reads its CONNACK.
fn open(a: &MqttArgs, id: &str, kept: bool) -> Result<TcpStream, String> {
    let mut t = TcpStream::connect(&a.broker).map_err(|e| format!("{}: {e}", a.broker))?;
    let _ = t.set_nodelay(true);
    let packet = connect_packet(id, a.user.as_deref(), a.password.as_deref(), kept);
    t.write_all(&packet).map_err(|e| e.to_string())?;
    let mut body = Vec::new();
    let head = read_packet(&mut t, &mut body).map_err(|e| format!("CONNACK: {e}"))?;
    if head != 0x20 || body.get(1) != Some(&0) {
        return Err(format!("the broker refused {id}: {head:#x} {body:?}"));
    }
    Ok(t)
}

/// The subscriber's client id.
fn sub_id() -> String {
    format!("ferry-perf-sub-{}", std::process::id())
}

/// Ends a kept subscriber session: a clean CONNECT of its client id discards it (its
/// subscription and queue), then DISCONNECT.
pub(crate) fn end_kept_session(a: &MqttArgs) -> Result<(), String> {
    let mut t = open(a, &sub_id(), false)?;
    t.write_all(&[0xe0, 0]).map_err(|e| e.to_string())
}

/// The subscriber: subscribed before this returns; its thread counts deliveries (acknowledging
/// QoS 1 ones, the acknowledgements written when nothing more is buffered to read) and returns
/// when the last one came, or `None` after `--wait` without all.
fn subscriber(
    a: &MqttArgs,
    received: Arc<AtomicU64>,
) -> Result<std::thread::JoinHandle<Result<Option<Instant>, String>>, String> {
    let mut t = open(a, &sub_id(), a.kept_session)?;
    let mut sub = vec![0x82];
    let mut body = vec![0, 1];
    put_str(&mut body, a.topic.as_bytes());
    body.push(a.qos);
    put_len(&mut sub, body.len());
    sub.extend(body);
    t.write_all(&sub).map_err(|e| e.to_string())?;
    let mut b = Vec::new();
    if read_packet(&mut t, &mut b).map_err(|e| format!("SUBACK: {e}"))? != 0x90 {
        return Err("no SUBACK".into());
    }
    let n = a.messages;
    t.set_read_timeout(Some(a.wait))
        .map_err(|e| e.to_string())?;
    Ok(std::thread::spawn(move || {
        let mut w = t.try_clone().map_err(|e| e.to_string())?;
        let mut r = BufReader::with_capacity(256 << 10, t);
        let (mut body, mut acks) = (Vec::new(), Vec::with_capacity(64 << 10));
        let mut last = None;
        while received.load(Ordering::Relaxed) < n {
            let Ok(head) = read_packet(&mut r, &mut body) else {
                break;
            };
            if head & 0xf0 != 0x30 {
                continue;
            }
            received.fetch_add(1, Ordering::Relaxed);
            last = Some(Instant::now());
            if head & 0x06 != 0 {
                let tl = usize::from(u16::from_be_bytes([body[0], body[1]]));
                acks.extend_from_slice(&[0x40, 2, body[2 + tl], body[3 + tl]]);
            }
            if !acks.is_empty() && (r.buffer().is_empty() || acks.len() >= 60 << 10) {
                w.write_all(&acks).map_err(|e| e.to_string())?;
                acks.clear();
            }
        }
        Ok(last)
    }))
}

/// The publisher: all messages written (QoS 1: each acknowledged), a thread reading the
/// acknowledgements and opening the window.
fn publish(a: &MqttArgs) -> Result<(), String> {
    let t = open(a, &format!("ferry-perf-pub-{}", std::process::id()), false)?;
    let acked = Arc::new((Mutex::new(0u64), Condvar::new()));
    let reader = (a.qos > 0).then(|| {
        let (r, acked) = (t.try_clone(), acked.clone());
        std::thread::spawn(move || -> Result<(), String> {
            let mut r = BufReader::with_capacity(64 << 10, r.map_err(|e| e.to_string())?);
            let mut body = Vec::new();
            while let Ok(head) = read_packet(&mut r, &mut body) {
                if head == 0x40 {
                    let (count, cv) = &*acked;
                    *count.lock() += 1;
                    cv.notify_one();
                }
            }
            Ok(())
        })
    });
    let mut w = BufWriter::with_capacity(64 << 10, t.try_clone().map_err(|e| e.to_string())?);
    let payload = vec![b'x'; a.size];
    let mut packet = Vec::with_capacity(a.size + 64);
    for i in 0..a.messages {
        if a.qos > 0 {
            wait_window(&acked, i, a.window, &mut w)?;
        }
        packet.clear();
        let id = (i % 65_535 + 1) as u16;
        publish_packet(&mut packet, a.topic_of(i).as_bytes(), a.qos, id, &payload);
        w.write_all(&packet).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())?;
    if a.qos > 0 {
        wait_window(&acked, a.messages, 1, &mut w)?;
    }
    let _ = t.shutdown(std::net::Shutdown::Both);
    if let Some(r) = reader {
        let _ = r.join();
    }
    Ok(())
}

/// Waits (writing what is buffered first) until fewer than `window` of the `sent` are
/// unacknowledged.
fn wait_window(
    acked: &(Mutex<u64>, Condvar),
    sent: u64,
    window: u64,
    w: &mut BufWriter<TcpStream>,
) -> Result<(), String> {
    let (count, cv) = acked;
    if sent - *count.lock() < window.max(1) {
        return Ok(());
    }
    w.flush().map_err(|e| e.to_string())?;
    let mut c = count.lock();
    while sent - *c >= window.max(1) {
        if cv.wait_for(&mut c, Duration::from_secs(30)).timed_out() {
            return Err(format!(
                "no PUBACK for 30 s ({} of {sent} acknowledged)",
                *c
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_encode_as_mqtt_3_1_1_says() {
        assert_eq!(
            connect_packet("c", Some("u"), Some("p"), false),
            [
                0x10, 19, 0, 4, b'M', b'Q', b'T', b'T', 4, 0xc2, 0, 60, 0, 1, b'c', 0, 1, b'u', 0,
                1, b'p'
            ]
        );
        let mut p = Vec::new();
        publish_packet(&mut p, b"t", 1, 7, &[9; 200]);
        assert_eq!(&p[..7], &[0x32, 205, 1, 0, 1, b't', 0]);
        assert_eq!(p[7], 7);
        let mut body = Vec::new();
        assert_eq!(read_packet(&mut &p[..], &mut body).unwrap(), 0x32);
        assert_eq!(body.len(), 205);
    }
}
