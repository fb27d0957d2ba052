//! The machine's raw ceilings, measured the same way every time so each figure can be printed
//! beside the limit of the same run: in-process hand-off between threads, Unix-socket and
//! loopback-TCP ping-pong, one-way streaming and two-hop relay, and the disk's sync rate.
//!
//! A shared 2-vCPU machine swings a lot from one second to the next (ping-pong was seen at
//! 18,000 and at 150,000 round trips a second minutes apart), so each limit is the median of
//! [`RUNS`] short runs, taken in turns (one run of every limit, then the next round) so a noisy
//! moment touches every limit alike, and reported with its spread.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::FileExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Size of the messages the limits move (the reference workloads' 2 KB).
pub const MSG_LEN: usize = 2048;
/// Size of the answer in a ping-pong.
pub const REPLY_LEN: usize = 64;

/// Every raw limit, per second.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Fresh 2 KB buffers handed from one thread to another through a bounded queue.
    pub handoff_per_s: f64,
    /// Unix-socket round trips (2 KB out, 64 B back).
    pub unix_pingpong_per_s: f64,
    /// Loopback TCP round trips (2 KB out, 64 B back).
    pub tcp_pingpong_per_s: f64,
    /// 2 KB frames streamed one way over a Unix socket.
    pub unix_stream_per_s: f64,
    /// 2 KB frames streamed one way over loopback TCP.
    pub tcp_stream_per_s: f64,
    /// 2 KB frames relayed over two Unix-socket hops by a thread in between ([`relay`]): the
    /// ceiling of a put on one connection reaching a getter on another. Absent (0) in reports
    /// written before it was measured.
    #[serde(default)]
    pub unix_relay_per_s: f64,
    /// The same over two loopback TCP hops.
    #[serde(default)]
    pub tcp_relay_per_s: f64,
    /// 4 KB appends each followed by `fdatasync`.
    pub disk_syncs_per_s: f64,
    /// The lowest and highest of each limit's runs (all zeros in reports written before the
    /// limits were medians).
    #[serde(default)]
    pub spread: Spread,
}

/// The lowest and highest run of each limit, per second, in [`Limits::values`] order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// (lowest, highest) per limit.
    pub runs: [(f64, f64); 8],
}

/// Short runs each limit is the median of.
pub const RUNS: usize = 5;

/// The shortest run of one limit.
const SHORTEST_RUN: Duration = Duration::from_millis(200);

/// The limits' names, in [`Limits::values`] order.
pub const NAMES: [&str; 8] = [
    "in-process hand-off, 2 KB buffers between two threads",
    "unix socket ping-pong (2 KB out, 64 B back)",
    "tcp loopback ping-pong (2 KB out, 64 B back)",
    "unix socket streaming, 2 KB frames",
    "tcp loopback streaming, 2 KB frames",
    "unix socket relay, 2 KB frames, 2 hops",
    "tcp loopback relay, 2 KB frames, 2 hops",
    "disk: 4 KB append + fdatasync",
];

/// The units of [`NAMES`].
pub const UNITS: [&str; 8] = [
    "msg/s",
    "round trips/s",
    "round trips/s",
    "msg/s",
    "msg/s",
    "msg/s",
    "msg/s",
    "syncs/s",
];

fn median(runs: &mut [f64]) -> f64 {
    runs.sort_by(|a, b| a.total_cmp(b));
    match runs.len() {
        0 => 0.0,
        n if n % 2 == 1 => runs[n / 2],
        n => (runs[n / 2 - 1] + runs[n / 2]) / 2.0,
    }
}

impl Limits {
    /// Every limit, in [`NAMES`] order.
    pub fn values(&self) -> [f64; 8] {
        [
            self.handoff_per_s,
            self.unix_pingpong_per_s,
            self.tcp_pingpong_per_s,
            self.unix_stream_per_s,
            self.tcp_stream_per_s,
            self.unix_relay_per_s,
            self.tcp_relay_per_s,
            self.disk_syncs_per_s,
        ]
    }

    fn from_values(v: [f64; 8], spread: Spread) -> Limits {
        Limits {
            handoff_per_s: v[0],
            unix_pingpong_per_s: v[1],
            tcp_pingpong_per_s: v[2],
            unix_stream_per_s: v[3],
            tcp_stream_per_s: v[4],
            unix_relay_per_s: v[5],
            tcp_relay_per_s: v[6],
            disk_syncs_per_s: v[7],
            spread,
        }
    }

    /// Measures every limit in about `d` (at least [`RUNS`] × 200 ms) with the disk test in
    /// `dir`: each the median of [`RUNS`] runs taken in turns, with its spread.
    pub fn measure(dir: &Path, d: Duration) -> std::io::Result<Limits> {
        Limits::measure_with(dir, d, &mut |_| {})
    }

    /// As [`Limits::measure`], telling `done` how many of the [`RUNS`] runs are done after each.
    pub fn measure_with(
        dir: &Path,
        d: Duration,
        done: &mut dyn FnMut(usize),
    ) -> std::io::Result<Limits> {
        let each = (d / RUNS as u32).max(SHORTEST_RUN);
        let mut runs: [Vec<f64>; 8] = Default::default();
        for k in 0..RUNS {
            let one = Limits::measure_once(dir, each)?.values();
            for (r, v) in runs.iter_mut().zip(one) {
                r.push(v);
            }
            done(k + 1);
        }
        let mut spread = Spread::default();
        let mut medians = [0.0; 8];
        for (i, r) in runs.iter_mut().enumerate() {
            medians[i] = median(r);
            spread.runs[i] = (r[0], r[r.len() - 1]);
        }
        Ok(Limits::from_values(medians, spread))
    }

    /// One run of every limit, `d` each.
    fn measure_once(dir: &Path, d: Duration) -> std::io::Result<Limits> {
        let (uc, us) = unix_pair(dir)?;
        let unix_pingpong_per_s = ping_pong(Box::new(uc), Box::new(us), d)?;
        let (uc, us) = unix_pair(dir)?;
        let unix_stream_per_s = streaming(Box::new(uc), Box::new(us), d)?;
        let (tc, ts) = tcp_pair()?;
        let tcp_pingpong_per_s = ping_pong(Box::new(tc), Box::new(ts), d)?;
        let (tc, ts) = tcp_pair()?;
        let tcp_stream_per_s = streaming(Box::new(tc), Box::new(ts), d)?;
        let unix_relay_per_s = relay(sock_pair(false, dir)?, sock_pair(false, dir)?, d)?;
        let tcp_relay_per_s = relay(sock_pair(true, dir)?, sock_pair(true, dir)?, d)?;
        Ok(Limits {
            unix_relay_per_s,
            tcp_relay_per_s,
            handoff_per_s: handoff_rate(MSG_LEN, d),
            unix_pingpong_per_s,
            tcp_pingpong_per_s,
            unix_stream_per_s,
            tcp_stream_per_s,
            disk_syncs_per_s: disk_sync_rate(dir, d)?,
            spread: Spread::default(),
        })
    }
}

/// A fresh message body of `len` bytes tagged with `n` in its first 8 bytes; the limits and the
/// workloads allocate payloads the same way so the comparison is fair.
pub fn payload(len: usize, n: u64) -> Vec<u8> {
    let mut v = vec![b'x'; len];
    let k = len.min(8);
    v[..k].copy_from_slice(&n.to_le_bytes()[..k]);
    v
}

/// One thread hands freshly allocated `len`-byte buffers to another through a bounded queue
/// (crossbeam, capacity 1024) for `d`. Buffers per second.
pub fn handoff_rate(len: usize, d: Duration) -> f64 {
    let (tx, rx) = crossbeam_channel::bounded::<Vec<u8>>(1024);
    let consumer = std::thread::spawn(move || {
        let mut n = 0u64;
        let mut sum = 0u64;
        while let Ok(b) = rx.recv() {
            sum = sum.wrapping_add(b[0] as u64);
            n += 1;
        }
        (n, sum)
    });
    let start = Instant::now();
    let mut i = 0u64;
    while start.elapsed() < d {
        for _ in 0..256 {
            if tx.send(payload(len, i)).is_err() {
                break;
            }
            i += 1;
        }
    }
    drop(tx);
    let (n, _) = consumer.join().unwrap_or((0, 0));
    n as f64 / start.elapsed().as_secs_f64()
}

/// Something to ping-pong over.
pub trait Sock: Read + Write + Send + 'static {}
impl<T: Read + Write + Send + 'static> Sock for T {}

/// Round trips per second: the client sends 2 KB, the server answers 64 B.
pub fn ping_pong(
    mut client: Box<dyn Sock>,
    mut server: Box<dyn Sock>,
    d: Duration,
) -> std::io::Result<f64> {
    let echo = std::thread::spawn(move || {
        let mut buf = vec![0u8; MSG_LEN];
        let reply = vec![1u8; REPLY_LEN];
        while server.read_exact(&mut buf).is_ok() {
            if server.write_all(&reply).is_err() {
                break;
            }
        }
    });
    let msg = vec![7u8; MSG_LEN];
    let mut reply = vec![0u8; REPLY_LEN];
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < d {
        client.write_all(&msg)?;
        client.read_exact(&mut reply)?;
        n += 1;
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    drop(client);
    let _ = echo.join();
    Ok(rate)
}

/// 2 KB frames streamed one way as fast as the reader takes them. Frames per second.
pub fn streaming(
    client: Box<dyn Sock>,
    server: Box<dyn Sock>,
    d: Duration,
) -> std::io::Result<f64> {
    let reader = spawn_byte_counter(server);
    let start = send_batches_for(client, d)?;
    let bytes = reader.join().unwrap_or(0);
    Ok((bytes / MSG_LEN as u64) as f64 / start.elapsed().as_secs_f64())
}

/// The raw limit of the put/get ladder's shape: 2 KB frames streamed from a sender to a relay
/// thread over one socket pair, which writes out each read as it came over a second pair to a
/// receiver (three threads, as putter, server and getters are). Every message crosses the kernel
/// twice and the relay does no work of its own. Messages per second received.
pub fn relay(
    (sender, mut relay_in): (Box<dyn Sock>, Box<dyn Sock>),
    (mut relay_out, receiver): (Box<dyn Sock>, Box<dyn Sock>),
    d: Duration,
) -> std::io::Result<f64> {
    let relay = std::thread::spawn(move || {
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            match relay_in.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if relay_out.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let reader = spawn_byte_counter(receiver);
    let start = send_batches_for(sender, d)?;
    let _ = relay.join();
    let bytes = reader.join().unwrap_or(0);
    Ok((bytes / MSG_LEN as u64) as f64 / start.elapsed().as_secs_f64())
}

/// A thread that reads `sock` until it closes and returns the bytes read.
fn spawn_byte_counter(mut sock: Box<dyn Sock>) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 256 * 1024];
        let mut bytes = 0u64;
        loop {
            match sock.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => bytes += n as u64,
            }
        }
        bytes
    })
}

/// Writes 2 KB frames, 32 to a write, for `d`, then closes `sock`; returns when it started.
fn send_batches_for(mut sock: Box<dyn Sock>, d: Duration) -> std::io::Result<Instant> {
    let batch = vec![7u8; MSG_LEN * 32];
    let start = Instant::now();
    while start.elapsed() < d {
        sock.write_all(&batch)?;
    }
    Ok(start)
}

/// A connected Unix socket pair through a listener in `dir`.
pub fn unix_pair(dir: &Path) -> std::io::Result<(UnixStream, UnixStream)> {
    let path = dir.join(format!("raw-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let l = UnixListener::bind(&path)?;
    let c = UnixStream::connect(&path)?;
    let (s, _) = l.accept()?;
    let _ = std::fs::remove_file(&path);
    Ok((c, s))
}

/// A connected loopback socket pair, tcp or unix (through a listener in `dir`), boxed.
pub fn sock_pair(tcp: bool, dir: &Path) -> std::io::Result<(Box<dyn Sock>, Box<dyn Sock>)> {
    Ok(if tcp {
        let (c, s) = tcp_pair()?;
        (Box::new(c), Box::new(s))
    } else {
        let (c, s) = unix_pair(dir)?;
        (Box::new(c), Box::new(s))
    })
}

/// A connected loopback TCP pair, Nagle off.
pub fn tcp_pair() -> std::io::Result<(TcpStream, TcpStream)> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    let c = TcpStream::connect(l.local_addr()?)?;
    let (s, _) = l.accept()?;
    c.set_nodelay(true)?;
    s.set_nodelay(true)?;
    Ok((c, s))
}

/// 4 KB appends, each followed by `fdatasync`, for `d`, in a file in `dir`. Syncs per second.
pub fn disk_sync_rate(dir: &Path, d: Duration) -> std::io::Result<f64> {
    let path = dir.join(format!("raw-sync-{}.dat", std::process::id()));
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .read(true)
        .write(true)
        .open(&path)?;
    let block = vec![7u8; 4096];
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < d {
        f.write_all_at(&block, n * 4096)?;
        f.sync_data()?;
        n += 1;
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    drop(f);
    let _ = std::fs::remove_file(&path);
    Ok(rate)
}
