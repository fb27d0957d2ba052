//! Request/reply across the emulated link (`ferry perf wan --requesters`): requesters on QM1
//! put 2 KB requests through channel WAN.0 to QM2, where responders answer each to its
//! reply-to queue at its reply-to queue manager — back through channel WAN.BACK — and each
//! requester waits for its reply (by correl id) before the next request. The rate is bounded by
//! the requesters over the round trip (`bound_per_s`): what the transport adds shows as the
//! distance from it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_client::{
    object_name, Connection, CorrelId, GetOptions, Message, MessageType, ObjectDescriptor,
    OpenOptions, PutOptions, Reason,
};
use serde::{Deserialize, Serialize};

/// One measured request/reply cell.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RrCell {
    /// The link profile.
    pub profile: String,
    /// The senders' congestion control (`quic`: TRPTYPE(QUIC)).
    pub congctl: String,
    /// Requesters, each waiting for its reply before the next request.
    pub requesters: usize,
    /// `shared` (one reply queue, replies got by correl id) or `own` (a queue a requester).
    #[serde(default)]
    pub reply_queues: String,
    /// Round trips completed per second.
    pub round_trips_per_s: f64,
    /// Requesters ÷ the link's round trip: what the link allows (0 on a link without delay).
    pub bound_per_s: f64,
    /// Mean time from a request's put to its reply's get, ms.
    pub mean_ms: f64,
}

/// The request body size.
pub const REQUEST_BYTES: usize = 2048;
/// Responders on QM2.
const RESPONDERS: usize = 2;
/// How long a requester waits for one reply.
const REPLY_WAIT: Duration = Duration::from_secs(30);

/// Runs `requesters` requesters on QM1 (`qm1`: its local endpoint) and responders on QM2 for
/// `warmup` then `duration`, each requester with its reply queue of its own when `own` (else
/// all on WAN.REPLY); the round trips counted after the warm-up, and their total time.
pub fn measure(
    (qm1, qm2): (&str, &str),
    (requesters, own): (usize, bool),
    warmup: Duration,
    duration: Duration,
) -> Result<(f64, f64), String> {
    let stop = Arc::new(AtomicBool::new(false));
    let counting = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicU64::new(0));
    let micros = Arc::new(AtomicU64::new(0));
    let mut threads = Vec::new();
    for _ in 0..RESPONDERS {
        let (ep, halt) = (qm2.to_owned(), stop.clone());
        threads.push(std::thread::spawn(move || responder(&ep, &halt)));
    }
    for k in 0..requesters {
        let ep = qm1.to_owned();
        let (halt, on, n, us) = (stop.clone(), counting.clone(), done.clone(), micros.clone());
        threads.push(std::thread::spawn(move || {
            let replies = match own {
                true => format!("WAN.REPLY.{k}"),
                false => "WAN.REPLY".to_owned(),
            };
            requester(&ep, (k, &replies), &halt, (&on, &n, &us))
        }));
    }
    std::thread::sleep(warmup);
    counting.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    std::thread::sleep(duration);
    counting.store(false, Ordering::Relaxed);
    let secs = t0.elapsed().as_secs_f64();
    let (n, us) = (done.load(Ordering::Relaxed), micros.load(Ordering::Relaxed));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join()
            .map_err(|_| "a requester or responder panicked".to_owned())??;
    }
    let mean_ms = if n == 0 {
        0.0
    } else {
        us as f64 / n as f64 / 1000.0
    };
    Ok((n as f64 / secs, mean_ms))
}

/// Puts a request to WAN.OUT.0 (reply to `replies`) and waits for its reply, until `stop`;
/// counts each round trip (and its time) while `counting`.
fn requester(
    ep: &str,
    (k, replies): (usize, &str),
    stop: &AtomicBool,
    (counting, done, micros): (&AtomicBool, &AtomicU64, &AtomicU64),
) -> Result<(), String> {
    let fail = |e: ferry_client::MqError| format!("requester {k}: {e}");
    let mut c = Connection::connect(ep, "wan requester").map_err(fail)?;
    let out = c
        .open_queue("WAN.OUT.0", OpenOptions::output())
        .map_err(fail)?;
    let reply_to = object_name(replies).map_err(fail)?;
    let replies = c.open_queue(replies, OpenOptions::input()).map_err(fail)?;
    let body = crate::wan::record_payload(REQUEST_BYTES, k as u64);
    while !stop.load(Ordering::Relaxed) {
        let began = Instant::now();
        let request = Message::new(body.clone()).with_reply_to(reply_to);
        let sent = c.put(out, request, &PutOptions::default()).map_err(fail)?;
        let wait = GetOptions::new()
            .correl_id(CorrelId::from(sent.msg_id))
            .wait(REPLY_WAIT);
        match c.get(replies, &wait) {
            Ok(_) => {}
            // The link may hold a reply longer while the run stops.
            Err(e) if e.reason == Reason::NoMsgAvailable && stop.load(Ordering::Relaxed) => break,
            Err(e) => return Err(fail(e)),
        }
        if counting.load(Ordering::Relaxed) {
            done.fetch_add(1, Ordering::Relaxed);
            micros.fetch_add(began.elapsed().as_micros() as u64, Ordering::Relaxed);
        }
    }
    let _ = c.disconnect();
    Ok(())
}

/// Answers each request on WAN.IN.0 (a throughput cell's leftovers, which ask for no reply,
/// are taken and dropped) until `stop`.
fn responder(ep: &str, stop: &AtomicBool) -> Result<(), String> {
    let fail = |e: ferry_client::MqError| format!("responder: {e}");
    let mut c = Connection::connect(ep, "wan responder").map_err(fail)?;
    let requests = c
        .open_queue("WAN.IN.0", OpenOptions::input())
        .map_err(fail)?;
    let wait = GetOptions::new().wait(Duration::from_millis(200));
    while !stop.load(Ordering::Relaxed) {
        let req = match c.get(requests, &wait) {
            Ok(g) => g,
            Err(e) if e.reason == Reason::NoMsgAvailable => continue,
            Err(e) => return Err(fail(e)),
        };
        let d = &req.message.descriptor;
        if d.reply_to_queue.is_empty() {
            continue;
        }
        let mut reply = Message::new(req.message.body.clone());
        reply.descriptor.correl_id = CorrelId::from(d.msg_id);
        reply.descriptor.message_type = MessageType::Reply;
        let to = ObjectDescriptor::QueueAt {
            name: d.reply_to_queue,
            qmgr: d.reply_to_qmgr,
        };
        c.put1_to(&to, reply, &PutOptions::default())
            .map_err(fail)?;
    }
    let _ = c.disconnect();
    Ok(())
}
