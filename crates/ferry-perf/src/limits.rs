//! The machine's raw ceilings, measured the same way every time so each figure can be printed
//! beside the limit of the same run: in-process hand-off between threads, Unix-socket and
//! loopback-TCP ping-pong and one-way streaming, and the disk's sync rate.

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
}

impl Limits {
    /// Measures every limit, `d` each, with the disk test in `dir`.
    pub fn measure(dir: &Path, d: Duration) -> std::io::Result<Limits> {
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
