//! `ferry perf mqtt-clients`: many MQTT 3.1.1 clients in one process, for
//! `benches/mqtt-scale.sh` — the connection-scale, fan-in and fan-out runs of issue 26, with a
//! generator that costs a few microseconds a message (a Python one took a third of the
//! machine at 13,000 msg/s). All clients are tasks of one single-threaded runtime; they are
//! steered by lines on standard input, so that a script can hold them connected between
//! phases:
//!
//! - every mode first opens `-n` connections from `--source` (client i from port 20,000 + i,
//!   so each source address has its own ports, and the kernel does not search for one), each a
//!   clean-session CONNECT (keep-alive 300 s, client id `idle-TAG-i`, `--user`, `--password`
//!   when given), at most `--in-flight` unanswered, and prints `connected N in S s = R/s`;
//! - `idle` holds them until a line (or the end) of standard input;
//! - `sub` also subscribes client i (in the CONNECT's write) to `scale/<first+i>` at `--qos`,
//!   counts what reaches them (acknowledging QoS 1, the acknowledgements of one read in one
//!   write), prints `progress R` each second the count grew, and at a line prints
//!   `received R first T0 last T1` (seconds since the epoch);
//! - `watch` (one client) is `sub` on `scale/in/#`, and also prints
//!   `latency ms p50 .. p99 .. p999 .. max ..` from each publication's time (its first 8 bytes)
//!   to its arrival;
//! - `pub` waits for a line, then publishes `--rate` QoS 1 messages a second in all, 256 bytes
//!   each (the first 8 the time), from its clients in turn, client i on `scale/in/<first+i>`,
//!   for `--seconds`; prints `published P acked A unacked U in S s` two seconds after; ends at
//!   the next line.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use parking_lot::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

use crate::mqtt::{publish_packet, put_len, put_str};

/// `ferry perf mqtt-clients`.
#[derive(Debug, Clone, Args)]
pub struct MqttClientsArgs {
    /// The broker's MQTT address (host:port).
    #[arg(long, default_value = "127.0.0.1:1883")]
    pub broker: String,
    /// Clients to open.
    #[arg(short = 'n', long, default_value_t = 1000)]
    pub clients: usize,
    /// User name of every client.
    #[arg(long, default_value = "scale")]
    pub user: String,
    /// Password of every client (none by default: the scale runs set CHCKCLNT(OPTIONAL), so
    /// that what is measured is the service, not Argon2).
    #[arg(long)]
    pub password: Option<String>,
    /// Source address to connect from (a loopback address of its own for each generator).
    #[arg(long, default_value = "127.0.0.1")]
    pub source: std::net::Ipv4Addr,
    /// Part of every client id (idle-TAG-i): unique to this generator.
    #[arg(long, default_value = "g")]
    pub tag: String,
    /// The number of this generator's first client in the run (its topics are numbered so).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// What the clients do once connected.
    #[arg(long, value_enum, default_value_t = Mode::Idle)]
    pub mode: Mode,
    /// QoS of the subscriptions (sub, watch).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    pub qos: u8,
    /// Publications a second, in all (pub).
    #[arg(long, default_value_t = 1000.0)]
    pub rate: f64,
    /// How long to publish, in seconds (pub).
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Connections opening at once (each waits for its CONNACK before the next of its slot).
    #[arg(long, default_value_t = 100)]
    pub in_flight: usize,
    /// Clean session 0: a session the queue manager keeps (and logs what waits for it), not
    /// one that ends with the connection.
    #[arg(long)]
    pub kept_session: bool,
}

/// What `ferry perf mqtt-clients` does once connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// Hold the connections.
    Idle,
    /// Each client subscribed to a topic of its own; count deliveries.
    Sub,
    /// One client subscribed to every fan-in publication; count and time them.
    Watch,
    /// Publish at a rate, every client in turn.
    Pub,
}

/// Runs the generator until its last line of standard input.
pub fn run(a: &MqttClientsArgs) -> Result<(), String> {
    let rt = crate::asyncput::one_thread_runtime()?;
    rt.block_on(async {
        let lines = stdin_lines();
        let socks = open_all(a).await?;
        match a.mode {
            Mode::Idle => {
                wait_line(lines).await;
                Ok(())
            }
            Mode::Sub | Mode::Watch => subscribe_phase(a, socks, lines).await,
            Mode::Pub => publish_phase(a, socks, lines).await,
        }
    })
}

/// Lines of standard input, read by a thread of their own; the channel ends with the input.
fn stdin_lines() -> mpsc::UnboundedReceiver<()> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
            line.clear();
            if tx.send(()).is_err() {
                return;
            }
        }
    });
    rx
}

/// Waits for the next line, or the end of the input (which every later wait sees at once).
async fn wait_line(mut lines: mpsc::UnboundedReceiver<()>) -> mpsc::UnboundedReceiver<()> {
    let _ = lines.recv().await;
    lines
}

fn now_secs() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The CONNECT of client `i` (3.1.1, clean session unless `--kept-session`, keep-alive 300 s,
/// user, no password),
/// followed by its SUBSCRIBE in the sub and watch modes.
fn hello(a: &MqttClientsArgs, i: usize) -> Vec<u8> {
    let mut body = Vec::new();
    put_str(&mut body, b"MQTT");
    let clean = if a.kept_session { 0 } else { 0x02 };
    let flags = 0x80 | clean | if a.password.is_some() { 0x40 } else { 0 };
    body.extend_from_slice(&[4, flags, 0x01, 0x2c]);
    put_str(&mut body, format!("idle-{}-{i:06}", a.tag).as_bytes());
    put_str(&mut body, a.user.as_bytes());
    if let Some(p) = &a.password {
        put_str(&mut body, p.as_bytes());
    }
    let mut out = vec![0x10];
    put_len(&mut out, body.len());
    out.extend(body);
    let topic = match a.mode {
        Mode::Sub => format!("scale/{}", a.first + i),
        Mode::Watch => "scale/in/#".to_string(),
        _ => return out,
    };
    let mut sub = vec![0, 1];
    put_str(&mut sub, topic.as_bytes());
    sub.push(a.qos);
    out.push(0x82);
    put_len(&mut out, sub.len());
    out.extend(sub);
    out
}

/// IP_BIND_ADDRESS_NO_PORT on `s`: its port is chosen at connect, not at bind, so that each
/// source address has a whole range of ephemeral ports to itself.
#[allow(unsafe_code)]
fn bind_address_no_port(s: &tokio::net::TcpSocket) {
    use std::os::fd::AsRawFd;
    let one: libc::c_int = 1;
    // SAFETY: a valid socket descriptor and a c_int option value of the size given.
    unsafe {
        libc::setsockopt(
            s.as_raw_fd(),
            libc::SOL_IP,
            libc::IP_BIND_ADDRESS_NO_PORT,
            (&one as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// Ports a client's source port is taken from: `FIRST_PORT + i % PORTS` first.
const FIRST_PORT: u16 = 20_000;
const PORTS: usize = 45_000;

/// Binds client `i`'s socket to `source` and a port of its own, `FIRST_PORT + i % PORTS` (or
/// the next few, when that one is taken — by a connection, or one in TIME_WAIT): a bind to a
/// named port is one lookup, where leaving the choice to the kernel at connect
/// (IP_BIND_ADDRESS_NO_PORT, which this falls back to) walks the ports already connected to the
/// same address — 86 % of the machine's CPU, in the generators, while 100,000 clients connected.
/// Whether the socket has a port of its own.
fn bind_source(
    s: &tokio::net::TcpSocket,
    source: std::net::Ipv4Addr,
    i: usize,
) -> Result<bool, String> {
    for k in 0..4 {
        let port = FIRST_PORT + ((i + k * 7_919) % PORTS) as u16;
        if s.bind((source, port).into()).is_ok() {
            return Ok(true);
        }
    }
    bind_address_no_port(s);
    s.bind((source, 0).into())
        .map_err(|e| format!("bind {source}: {e}"))?;
    Ok(false)
}

/// Connects from `source` to `addr` as client `i` (`bind_source`); a port of its own refused
/// at connect (EADDRNOTAVAIL: the same pair of addresses is still in TIME_WAIT from an earlier
/// connection) gives way to one the kernel picks.
async fn connect_from(
    source: std::net::Ipv4Addr,
    addr: std::net::SocketAddr,
    i: usize,
) -> Result<TcpStream, String> {
    let s = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    let own = bind_source(&s, source, i)?;
    match s.connect(addr).await {
        Err(e) if own && e.raw_os_error() == Some(libc::EADDRNOTAVAIL) => {
            let s = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
            bind_address_no_port(&s);
            s.bind((source, 0).into())
                .map_err(|e| format!("bind {source}: {e}"))?;
            s.connect(addr).await.map_err(|e| format!("{addr}: {e}"))
        }
        r => r.map_err(|e| format!("{addr}: {e}")),
    }
}

/// Opens client `i` and reads its CONNACK (and SUBACK).
async fn open_one(a: &MqttClientsArgs, i: usize) -> Result<TcpStream, String> {
    let addr: std::net::SocketAddr = a
        .broker
        .parse()
        .map_err(|e| format!("--broker {}: {e}", a.broker))?;
    let mut t = connect_from(a.source, addr, i).await?;
    let _ = t.set_nodelay(true);
    t.write_all(&hello(a, i)).await.map_err(|e| e.to_string())?;
    let mut ack = [0u8; 4];
    t.read_exact(&mut ack)
        .await
        .map_err(|e| format!("CONNACK: {e}"))?;
    if ack != [0x20, 2, 0, 0] {
        return Err(format!("CONNACK refused or missing: {ack:?}"));
    }
    if matches!(a.mode, Mode::Sub | Mode::Watch) {
        let mut sub = [0u8; 5];
        t.read_exact(&mut sub)
            .await
            .map_err(|e| format!("SUBACK: {e}"))?;
        if sub[0] != 0x90 || sub[4] > 2 {
            return Err(format!("SUBACK refused or missing: {sub:?}"));
        }
    }
    Ok(t)
}

/// How often a client whose connection the broker closed before its CONNACK tries again (a
/// real client reconnects); each retry is counted and reported.
const RETRIES: u32 = 5;

/// Opens every client, at most `--in-flight` at a time (a client's CONNACK starts the next
/// one: a slow answer holds up one slot, not a wave of them), and says how fast (and how many
/// connections the broker closed before answering, each tried again after 100 ms). The
/// connections come back in client order.
async fn open_all(a: &MqttClientsArgs) -> Result<Vec<TcpStream>, String> {
    let started = Instant::now();
    let a = Arc::new(a.clone());
    let retried = Arc::new(AtomicU64::new(0));
    let mut socks: Vec<Option<TcpStream>> = (0..a.clients).map(|_| None).collect();
    let mut opening = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < a.clients || !opening.is_empty() {
        while next < a.clients && opening.len() < a.in_flight.max(1) {
            let (a, retried, i) = (a.clone(), retried.clone(), next);
            opening.spawn(async move { (i, open_with_retries(&a, i, &retried).await) });
            next += 1;
        }
        if let Some(done) = opening.join_next().await {
            let (i, t) = done.map_err(|e| e.to_string())?;
            socks[i] = Some(t?);
        }
    }
    let socks: Vec<TcpStream> = socks.into_iter().flatten().collect();
    debug_assert_eq!(socks.len(), a.clients);
    let dt = started.elapsed().as_secs_f64();
    ferry_host::outln!(
        "connected {} in {dt:.2} s = {:.0}/s (closed before CONNACK and tried again: {})",
        socks.len(),
        socks.len() as f64 / dt,
        retried.load(Ordering::Relaxed)
    );
    Ok(socks)
}

/// Opens client `i`, trying again (up to [`RETRIES`] times) when the broker closed it before
/// its CONNACK.
async fn open_with_retries(
    a: &MqttClientsArgs,
    i: usize,
    retried: &AtomicU64,
) -> Result<TcpStream, String> {
    let mut tries = 0;
    loop {
        match open_one(a, i).await {
            Err(e) if tries < RETRIES && e.contains("early eof") => {
                tries += 1;
                retried.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            r => return r,
        }
    }
}

/// First arrival, last arrival, and (publication time, latency) of each (watch).
type Arrivals = (f64, f64, Vec<(f64, f64)>);

/// What the subscribers have seen.
#[derive(Default)]
struct Seen {
    count: AtomicU64,
    /// First and last arrival (seconds since the epoch), and each publication's time and
    /// latency (watch).
    times: Mutex<Arrivals>,
}

/// Complete packets at the head of `buf`: (first byte, body range); the bytes they took.
fn packets(buf: &[u8]) -> (Vec<(u8, std::ops::Range<usize>)>, usize) {
    let (mut out, mut at) = (Vec::new(), 0);
    'next: while buf.len() - at >= 2 {
        let (mut len, mut shift, mut pos) = (0usize, 0, at + 1);
        loop {
            let Some(&b) = buf.get(pos) else {
                break 'next;
            };
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            pos += 1;
            if b & 0x80 == 0 {
                break;
            }
        }
        if buf.len() - pos < len {
            break;
        }
        out.push((buf[at], pos..pos + len));
        at = pos + len;
    }
    (out, at)
}

/// One subscribed client: counts publications, acknowledges QoS 1 ones per read.
async fn subscriber(mut t: TcpStream, seen: Arc<Seen>, watch: bool) {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = vec![0u8; 64 << 10];
    let mut acks = Vec::new();
    while let Ok(n) = t.read(&mut chunk).await {
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        let (got, used) = packets(&buf);
        let now = now_secs();
        for (head, r) in got.iter().filter(|(h, _)| h & 0xf0 == 0x30) {
            let body = &buf[r.clone()];
            let tl = usize::from(u16::from_be_bytes([body[0], body[1]]));
            let at = 2 + tl + if head & 0x06 != 0 { 2 } else { 0 };
            if head & 0x06 != 0 {
                acks.extend_from_slice(&[0x40, 2, body[2 + tl], body[3 + tl]]);
            }
            seen.count.fetch_add(1, Ordering::Relaxed);
            let mut times = seen.times.lock();
            if times.0 == 0.0 {
                times.0 = now;
            }
            times.1 = now;
            if let (true, Some(stamp)) = (watch, body.get(at..at + 8)) {
                let sent = f64::from_be_bytes(stamp.try_into().unwrap_or_default());
                times.2.push((sent, now - sent));
            }
        }
        buf.drain(..used);
        if !acks.is_empty() && t.write_all(&std::mem::take(&mut acks)).await.is_err() {
            return;
        }
    }
}

/// The sub and watch modes after connecting.
async fn subscribe_phase(
    a: &MqttClientsArgs,
    socks: Vec<TcpStream>,
    mut lines: mpsc::UnboundedReceiver<()>,
) -> Result<(), String> {
    let seen = Arc::new(Seen::default());
    for t in socks {
        tokio::spawn(subscriber(t, seen.clone(), a.mode == Mode::Watch));
    }
    let mut shown = 0;
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let n = seen.count.load(Ordering::Relaxed);
                if n != shown {
                    shown = n;
                    ferry_host::outln!("progress {n}");
                }
            }
            _ = lines.recv() => break,
        }
    }
    let mut times = seen.times.lock();
    ferry_host::outln!(
        "received {} first {:.6} last {:.6}",
        seen.count.load(Ordering::Relaxed),
        times.0,
        times.1
    );
    let l = std::mem::take(&mut times.2);
    if !l.is_empty() {
        ferry_host::outln!(
            "latency ms {}",
            percentiles(l.iter().map(|x| x.1).collect())
        );
        // p99 and max by 5 s of publication: when a slow stretch came.
        let t0 = l[0].0;
        let mut slices: Vec<Vec<f64>> = Vec::new();
        for (sent, lat) in l {
            let k = ((sent - t0) / 5.0).max(0.0) as usize;
            slices.resize_with(slices.len().max(k + 1), Vec::new);
            slices[k].push(lat);
        }
        let each: Vec<String> = slices
            .into_iter()
            .map(|mut v| {
                v.sort_by(f64::total_cmp);
                let q = |f: f64| v[((f * v.len() as f64) as usize).min(v.len() - 1)] * 1000.0;
                format!("{:.1}/{:.1}", q(0.99), q(1.0))
            })
            .collect();
        ferry_host::outln!("p99/max ms by 5 s: {}", each.join(" "));
    }
    Ok(())
}

/// "p50 .. p99 .. p999 .. max .." of latencies in seconds, in milliseconds.
fn percentiles(mut l: Vec<f64>) -> String {
    if l.is_empty() {
        return "none".into();
    }
    l.sort_by(f64::total_cmp);
    let q = |f: f64| l[((f * l.len() as f64) as usize).min(l.len() - 1)] * 1000.0;
    format!(
        "p50 {:.2} p99 {:.2} p999 {:.2} max {:.2}",
        q(0.5),
        q(0.99),
        q(0.999),
        q(1.0)
    )
}

/// The pub mode after connecting: publishes at the rate once told to, then reports.
async fn publish_phase(
    a: &MqttClientsArgs,
    socks: Vec<TcpStream>,
    lines: mpsc::UnboundedReceiver<()>,
) -> Result<(), String> {
    let acked = Arc::new(AtomicU64::new(0));
    let mut writers = Vec::with_capacity(socks.len());
    for t in socks {
        let (mut rd, wr) = t.into_split();
        let acked = acked.clone();
        tokio::spawn(async move {
            let mut b = [0u8; 4096];
            // Each acknowledgement is 4 bytes (0x40 2 id id): a count of bytes is a count of them.
            while let Ok(n) = rd.read(&mut b).await {
                if n == 0 {
                    return;
                }
                acked.fetch_add(n as u64 / 4, Ordering::Relaxed);
            }
        });
        writers.push(wr);
    }
    let lines = wait_line(lines).await;
    let started = Instant::now();
    let total = (a.rate * a.seconds) as u64;
    let (mut sent, mut turn) = (0u64, 0usize);
    let mut packet = Vec::with_capacity(320);
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    while sent < total {
        tick.tick().await;
        let due = ((started.elapsed().as_secs_f64() * a.rate) as u64).min(total);
        while sent < due {
            packet.clear();
            let mut payload = now_secs().to_be_bytes().to_vec();
            payload.resize(248 + 8, b'x');
            let topic = format!("scale/in/{}", a.first + turn);
            publish_packet(
                &mut packet,
                topic.as_bytes(),
                1,
                (sent % 65_535 + 1) as u16,
                &payload,
            );
            writers[turn]
                .write_all(&packet)
                .await
                .map_err(|e| format!("publish: {e}"))?;
            sent += 1;
            turn = (turn + 1) % writers.len();
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let got = acked.load(Ordering::Relaxed);
    ferry_host::outln!(
        "published {sent} acked {got} unacked {} in {:.2} s",
        sent.saturating_sub(got),
        started.elapsed().as_secs_f64()
    );
    wait_line(lines).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_are_split_whole_and_a_partial_one_waits() {
        let mut b = Vec::new();
        publish_packet(&mut b, b"t", 1, 7, &[1; 200]);
        b.extend_from_slice(&[0x40, 2, 0, 7, 0x30]);
        let (got, used) = packets(&b);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].0, got[0].1.len()), (0x32, 205));
        assert_eq!((got[1].0, got[1].1.clone()), (0x40, 210..212));
        assert_eq!(used, b.len() - 1);
    }
}
