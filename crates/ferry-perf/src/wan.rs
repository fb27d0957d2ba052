//! `ferry perf wan`: seed 004's set-up — a putting application on one queue manager, channels,
//! a getting application on the other — across an emulated wide-area link ([`crate::linkem`]),
//! for each link profile, congestion control, message size, number of channels and
//! compression asked for, with iperf3's raw ceiling of each profile in the same run.
//!
//! The two queue managers run as `ferry qm start` processes inside two network namespaces;
//! the harness reaches both over their local sockets (the file system is shared). Each sender
//! authenticates with a password (the receiver's user file), as a non-loopback listener needs.
//! A cell changes the senders' CONGCTL and COMPMSG and restarts them, then measures what the
//! getters on the far side receive per second while the putters keep every transmission queue
//! supplied (never more than [`BACKLOG_BYTES`] deep, so a slow cell does not leave the next
//! one hours of backlog).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_client::{
    AttrValue, Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Selector,
};
use serde::{Deserialize, Serialize};

use crate::args::WanArgs;
use crate::linkem::{Emulator, Hosts, Profile};

/// Bytes a transmission queue may hold before its putter waits.
pub const BACKLOG_BYTES: usize = 4 << 20;
/// Distinct bodies a putter cycles through.
const PAYLOADS: u64 = 64;
/// The same bound for persistent messages, larger: the transmission queue's depth counts the
/// messages of recoverable batches in flight (got, not yet committed) too, and a long fast
/// link holds a bandwidth-delay product of them (1 Gbit/s × 100 ms ≈ 12.5 MB) besides.
pub const PERSISTENT_BACKLOG_BYTES: usize = 32 << 20;
/// A cell is measured over at least this many messages...
const MIN_MESSAGES: u64 = 20;
/// ...unless it takes longer than this.
const MAX_CELL: Duration = Duration::from_secs(90);
/// The channels' user on the receiving queue manager, and its password.
const CHANNEL_USER: &str = "wanchl";
const CHANNEL_PASSWORD: &str = "wan-channel-password-1";
/// The receiving queue manager's port on its host.
const PORT: u16 = 1414;

/// One measured cell.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cell {
    /// The link profile.
    pub profile: String,
    /// The senders' congestion control (CONGCTL).
    pub congctl: String,
    /// Message size, bytes.
    pub size: usize,
    /// Channels (each with its own putter and getter).
    pub channels: usize,
    /// The senders' COMPMSG.
    pub compress: String,
    /// Whether the messages were persistent.
    #[serde(default)]
    pub persistent: bool,
    /// Destination queues a channel's messages were spread over (0 in reports from before
    /// there was a choice: 1).
    #[serde(default)]
    pub queues: usize,
    /// What the bodies held (`record`, or `seed004`; empty in reports from before: record).
    #[serde(default)]
    pub payload: String,
    /// Messages received per second on the far side.
    pub msgs_per_s: f64,
    /// Their payload, Mbit/s.
    pub mbit_per_s: f64,
}

/// iperf3's ceiling of a profile for one congestion control.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ceiling {
    /// The link profile.
    pub profile: String,
    /// The congestion control iperf3 used (-C).
    pub congctl: String,
    /// Received, Mbit/s.
    pub mbit_per_s: f64,
    /// The sender's retransmissions.
    pub retransmits: u64,
    /// The sender's mean round trip, ms.
    pub mean_rtt_ms: f64,
}

/// The whole run.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct WanReport {
    /// The raw ceilings.
    pub ceilings: Vec<Ceiling>,
    /// The channels' figures.
    pub cells: Vec<Cell>,
    /// Request/reply across the link.
    #[serde(default)]
    pub rr: Vec<crate::wanrr::RrCell>,
    /// The streams each QUIC sender offered for its fast batches (`--quic-lanes`).
    #[serde(default)]
    pub quic_lanes: u32,
    /// The emulated bottleneck's rate each way, Mbit/s (`--rate-mbit`).
    #[serde(default)]
    pub rate_mbit: u64,
}

/// A message body of `len` bytes that compresses as business records do (about 3× with LZ4),
/// not as a run of one byte does.
pub fn record_payload(len: usize, n: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 128);
    let mut x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let rec = format!(
            "{{\"order\":{},\"customer\":\"C-{:06}\",\"amount\":{}.{:02},\"currency\":\"EUR\",\"sku\":\"{:08X}\"}}\n",
            x % 1_000_000,
            (x >> 20) % 1_000_000,
            (x >> 40) % 10_000,
            (x >> 8) % 100,
            (x >> 24) as u32
        );
        out.extend_from_slice(rec.as_bytes());
    }
    out.truncate(len);
    out
}

/// A body of `len` bytes as compressible as seed 004's messages were: its records with blocks
/// of random bytes in between, so LZ4 saves about a third of a 2 KB body and a quarter of a
/// 200 KB one (seed 004: "messages compressed by 34 %" and "by 25 %").
pub fn seed004_payload(len: usize, n: u64) -> Vec<u8> {
    // Of every 16 blocks, this many are random (tuned by the test below).
    mixed_payload(len, n, if len <= 16 * 1024 { 5 } else { 8 })
}

/// Records with `random_of_16` blocks of every 16 overwritten by random bytes.
fn mixed_payload(len: usize, n: u64, random_of_16: usize) -> Vec<u8> {
    const BLOCK: usize = 64;
    let mut out = record_payload(len, n);
    let mut x = n.wrapping_mul(0xbf58_476d_1ce4_e5b9) | 1;
    for (i, block) in out.chunks_mut(BLOCK).enumerate() {
        if (i * 7) % 16 >= random_of_16 {
            continue;
        }
        for b in block.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = (x >> 32) as u8;
        }
    }
    out
}

/// `ferry perf wan`.
pub fn run(a: &WanArgs) -> Result<WanReport, String> {
    let ferry = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut report = WanReport {
        quic_lanes: a.quic_lanes,
        rate_mbit: a.rate_mbit.unwrap_or(crate::linkem::DEFAULT_RATE_MBIT),
        ..WanReport::default()
    };
    for name in &a.profiles {
        let profile = Profile::named(name)?;
        let hosts = Hosts::new("wan").map_err(|e| format!("making the hosts: {e}"))?;
        let _link = Emulator::start_at(&ferry, &hosts, profile.name, a.rate_mbit)
            .map_err(|e| format!("the link emulator: {e}"))?;
        for cc in a.congctl.iter().filter(|cc| !is_quic(cc)) {
            let c = iperf(&hosts, profile.name, cc, a.duration)?;
            crate::progress(&format!(
                "{:<5} iperf3 {cc:<5} {:>8.1} Mbit/s ({} retransmits, RTT {:.1} ms)",
                c.profile, c.mbit_per_s, c.retransmits, c.mean_rtt_ms
            ));
            report.ceilings.push(c);
        }
        let own_replies = match a.reply_queues.iter().any(|q| q == "own") {
            true => a.requesters.iter().copied().max().unwrap_or(0),
            false => 0,
        };
        let pair = Pair::start(
            &ferry,
            &hosts,
            (a.channels.iter().copied().max().unwrap_or(1), own_replies),
            (a.queues as usize, a.quic_lanes, &a.qm_set),
        )?;
        for cc in &a.congctl {
            for compress in &a.compress {
                pair.configure(cc, compress)?;
                for shape in shapes(a) {
                    let cell = pair.measure(a, profile.name, cc, compress, shape)?;
                    crate::progress(&format!(
                        "{:<5} {cc:<5} {:>7} B x {:>2} ch{}{} {compress:<5} {:<2} {:>10.1} msg/s {:>8.1} Mbit/s",
                        cell.profile,
                        shape.size,
                        shape.channels,
                        match cell.queues {
                            1 => String::new(),
                            q => format!(" x {q} queues"),
                        },
                        if shape.seed004 { " seed004" } else { "" },
                        if shape.persistent { "p" } else { "np" },
                        cell.msgs_per_s,
                        cell.mbit_per_s
                    ));
                    report.cells.push(cell);
                }
            }
            report.rr.extend(pair.request_reply(a, &profile, cc)?);
        }
    }
    Ok(report)
}

/// What a cell puts: message size, channel count and persistence.
#[derive(Debug, Clone, Copy)]
struct Shape {
    size: usize,
    channels: usize,
    persistent: bool,
    /// Bodies as compressible as seed 004's (`--payload seed004`), or records.
    seed004: bool,
}

/// Every shape the arguments ask for, in the order they are measured.
fn shapes(a: &WanArgs) -> Vec<Shape> {
    let mut out = Vec::new();
    for p in &a.persistence {
        for &size in &a.sizes {
            for &channels in &a.channels {
                out.push(Shape {
                    size,
                    channels,
                    persistent: p == "p",
                    seed004: a.payload == "seed004",
                });
            }
        }
    }
    out
}

/// The TRPTYPE and CONGCTL a `--congctl` value stands for.
fn transport_of(cc: &str) -> (&'static str, &str) {
    match cc.strip_prefix("quic") {
        Some(rest) => ("QUIC", rest.strip_prefix('-').unwrap_or("bbr")),
        None => ("TCP", cc),
    }
}

/// Whether a `--congctl` value is QUIC's (`quic`, `quic-cubic`): a transport iperf3 does not
/// measure.
fn is_quic(cc: &str) -> bool {
    cc.starts_with("quic")
}

/// iperf3 from host 0 to host 1 for `d` with congestion control `cc`.
fn iperf(hosts: &Hosts, profile: &str, cc: &str, d: Duration) -> Result<Ceiling, String> {
    let mut server = hosts
        .command(1, "iperf3")
        .args(["-s", "-1", "-B", &hosts.addr[1]])
        .stdout(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("iperf3 (install it: apt-get install iperf3): {e}"))?;
    std::thread::sleep(Duration::from_millis(300));
    let secs = d.as_secs().max(2).to_string();
    let out = hosts
        .command(0, "iperf3")
        .args(["-c", &hosts.addr[1], "-t", &secs, "-C", cc, "--json"])
        .output();
    let _ = server.kill();
    let _ = server.wait();
    let out = out.map_err(|e| format!("iperf3: {e}"))?;
    let j: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("iperf3's report: {e}"))?;
    if let Some(e) = j["error"].as_str() {
        return Err(format!("iperf3 -C {cc}: {e}"));
    }
    let sender = &j["end"]["streams"][0]["sender"];
    Ok(Ceiling {
        profile: profile.to_owned(),
        congctl: cc.to_owned(),
        mbit_per_s: j["end"]["sum_received"]["bits_per_second"]
            .as_f64()
            .unwrap_or(0.0)
            / 1e6,
        retransmits: sender["retransmits"].as_u64().unwrap_or(0),
        mean_rtt_ms: sender["mean_rtt"].as_f64().unwrap_or(0.0) / 1000.0,
    })
}

/// The two queue managers, QM1 on host 0 sending to QM2 on host 1 over `channels` channels
/// WAN.k, each with its transmission queue XQ.k, remote queue WAN.OUT.k and target WAN.IN.k.
struct Pair {
    ferry: PathBuf,
    home: PathBuf,
    channels: usize,
    /// Destination queues a channel's messages are spread over.
    queues: usize,
}

/// The name of destination queue `q` of channel `k` on QM1 (`WAN.OUT`) or QM2 (`WAN.IN`):
/// `WAN.IN.k` for the first, `WAN.IN.k.q` for the others.
fn queue_name(side: &str, k: usize, q: usize) -> String {
    match q {
        0 => format!("{side}.{k}"),
        _ => format!("{side}.{k}.{q}"),
    }
}

impl Pair {
    /// Starts QM1 and QM2 on `hosts` with `channels` channel pairs and the replies' channel
    /// (with `own_replies` reply queues of a requester's own besides WAN.REPLY).
    fn start(
        ferry: &Path,
        hosts: &Hosts,
        (channels, own_replies): (usize, usize),
        (queues, quic_lanes, sets): (usize, u32, &[String]),
    ) -> Result<Pair, String> {
        let home = std::env::temp_dir().join(format!("ferry-perf-wan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).map_err(|e| format!("{}: {e}", home.display()))?;
        let pair = Pair {
            ferry: ferry.to_owned(),
            home,
            channels,
            queues,
        };
        // Each side listens on its host's address (QM1 for the replies' channel), for TCP and
        // QUIC on one port number; each has the other's channel user.
        let addr = [
            format!("{}:{PORT}", hosts.addr[0]),
            format!("{}:{PORT}", hosts.addr[1]),
        ];
        for (side, qm) in [(0, "QM1"), (1, "QM2")] {
            pair.ferry_ok(&["qm", "create", qm, "--listen", &addr[side]], "")?;
            pair.ferry_ok(
                &["qm", "user", "add", qm, CHANNEL_USER],
                &format!("{CHANNEL_PASSWORD}\n"),
            )?;
        }
        for (side, qm) in [(0, "QM1"), (1, "QM2")] {
            let lanes = format!("server.quic_lanes={quic_lanes}");
            let quic: &[&str] = &["--quic-listen", &addr[side], "--set", &lanes];
            let out = hosts
                .command(side, &ferry.display().to_string())
                .args(["qm", "start", qm])
                .args(quic)
                .args(sets.iter().flat_map(|kv| ["--set", kv.as_str()]))
                .arg("--data-dir")
                .arg(&pair.home)
                .output()
                .map_err(|e| format!("ferry qm start {qm}: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "ferry qm start {qm}: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        pair.define(&hosts.addr[1])?;
        pair.define_back(&hosts.addr[0], own_replies)?;
        Ok(pair)
    }

    /// Runs `ferry ARGS --data-dir HOME` with `stdin`, failing with its message.
    fn ferry_ok(&self, args: &[&str], stdin: &str) -> Result<(), String> {
        use std::io::Write;
        let mut child = Command::new(&self.ferry)
            .args(args)
            .arg("--data-dir")
            .arg(&self.home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("ferry {}: {e}", args.join(" ")))?;
        let _ = child
            .stdin
            .take()
            .map(|mut i| i.write_all(stdin.as_bytes()));
        let out = child
            .wait_with_output()
            .map_err(|e| format!("ferry {}: {e}", args.join(" ")))?;
        if out.status.success() {
            return Ok(());
        }
        Err(format!(
            "ferry {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }

    fn unix(&self, qm: &str) -> String {
        format!(
            "unix:{}",
            self.home
                .join("qmgrs")
                .join(qm)
                .join("ferry.sock")
                .display()
        )
    }

    /// Runs an MQSC `script` on `qm`; every command must succeed but STOP CHANNEL (a sender
    /// not running has nothing to stop).
    fn mqsc(&self, qm: &str, script: &str) -> Result<(), String> {
        let mut c = Connection::connect(&self.unix(qm), "ferry perf wan")
            .map_err(|e| format!("connecting to {qm}: {e}"))?;
        for r in c.admin(script).map_err(|e| format!("{qm}: {e}"))? {
            if !r.ok && !r.command.starts_with("STOP CHANNEL") {
                return Err(format!("{qm}: {}: {:?}", r.command, r.messages));
            }
        }
        let _ = c.disconnect();
        Ok(())
    }

    /// The channels, queues and the channels' authority.
    fn define(&self, far: &str) -> Result<(), String> {
        let mut qm1 = String::new();
        let mut qm2 = format!(
            "SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('{CHANNEL_USER}') AUTHADD(PUT,SETALL)\n"
        );
        for k in 0..self.channels {
            qm2.push_str(&format!(
                "DEFINE CHANNEL(WAN.{k}) CHLTYPE(RCVR) MCAUSER('{CHANNEL_USER}') RQMNAME(QM1)\n\
                 DEFINE QLOCAL(WAN.IN.{k}) MAXDEPTH(1000000) MAXMSGL(4194304)\n"
            ));
            qm1.push_str(&format!(
                "DEFINE QLOCAL(XQ.{k}) USAGE(XMITQ) MAXDEPTH(1000000) MAXMSGL(4194304)\n\
                 DEFINE CHANNEL(WAN.{k}) CHLTYPE(SDR) CONNAME('{far}({PORT})') XMITQ(XQ.{k}) \
                 USERID('{CHANNEL_USER}') PASSWORD('{CHANNEL_PASSWORD}') SHORTTMR(1)\n\
                 DEFINE QREMOTE(WAN.OUT.{k}) RNAME(WAN.IN.{k}) RQMNAME(QM2) XMITQ(XQ.{k})\n"
            ));
            for q in 1..self.queues {
                let (out, inq) = (queue_name("WAN.OUT", k, q), queue_name("WAN.IN", k, q));
                qm2.push_str(&format!(
                    "DEFINE QLOCAL({inq}) MAXDEPTH(1000000) MAXMSGL(4194304)\n"
                ));
                qm1.push_str(&format!(
                    "DEFINE QREMOTE({out}) RNAME({inq}) RQMNAME(QM2) XMITQ(XQ.{k})\n"
                ));
            }
        }
        self.mqsc("QM2", &qm2)?;
        self.mqsc("QM1", &qm1)
    }

    /// The replies' way back: WAN.BACK from QM2 (transmission queue QM1, which a reply to QM1
    /// resolves to) to QM1, the reply queue WAN.REPLY, and `own` more (WAN.REPLY.k, one a
    /// requester).
    fn define_back(&self, near: &str, own: usize) -> Result<(), String> {
        let mut qm1 = format!(
            "SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('{CHANNEL_USER}') AUTHADD(PUT,SETALL)\n\
             DEFINE CHANNEL(WAN.BACK) CHLTYPE(RCVR) MCAUSER('{CHANNEL_USER}') RQMNAME(QM2)\n\
             DEFINE QLOCAL(WAN.REPLY) MAXDEPTH(1000000)\n"
        );
        for k in 0..own {
            qm1.push_str(&format!("DEFINE QLOCAL(WAN.REPLY.{k}) MAXDEPTH(100000)\n"));
        }
        self.mqsc("QM1", &qm1)?;
        self.mqsc(
            "QM2",
            &format!(
                "DEFINE QLOCAL(QM1) USAGE(XMITQ) MAXDEPTH(1000000)\n\
                 DEFINE CHANNEL(WAN.BACK) CHLTYPE(SDR) CONNAME('{near}({PORT})') XMITQ(QM1) \
                 USERID('{CHANNEL_USER}') PASSWORD('{CHANNEL_PASSWORD}') SHORTTMR(1)\n"
            ),
        )
    }

    /// Request/reply cells for `cc`: each of `--requesters` over WAN.0 and WAN.BACK, both
    /// with `cc` and no compression.
    fn request_reply(
        &self,
        a: &WanArgs,
        profile: &Profile,
        cc: &str,
    ) -> Result<Vec<crate::wanrr::RrCell>, String> {
        let counts: Vec<usize> = a.requesters.iter().copied().filter(|&r| r > 0).collect();
        if counts.is_empty() {
            return Ok(Vec::new());
        }
        self.configure(cc, "NONE")?;
        let (trptype, cc_word) = transport_of(cc);
        self.mqsc(
            "QM2",
            &format!(
                "ALTER CHANNEL(WAN.BACK) CHLTYPE(SDR) TRPTYPE({trptype}) CONGCTL({cc_word})\n\
                 STOP CHANNEL(WAN.BACK)\nSTART CHANNEL(WAN.BACK)\n"
            ),
        )?;
        let round_trip = 2.0 * profile.delay.as_secs_f64();
        let mut cells = Vec::new();
        for replies in &a.reply_queues {
            for &r in &counts {
                let (rate, mean_ms) = crate::wanrr::measure(
                    (&self.unix("QM1"), &self.unix("QM2")),
                    (r, replies == "own"),
                    a.warmup,
                    a.duration,
                )?;
                let bound = if round_trip > 0.0 {
                    r as f64 / round_trip
                } else {
                    0.0
                };
                crate::progress(&format!(
                    "{:<5} {cc:<5} request/reply x {r:>3} requesters ({replies} reply queues) {rate:>10.1} round trips/s (requesters / round trip {bound:.1}; mean {mean_ms:.1} ms)",
                    profile.name
                ));
                cells.push(crate::wanrr::RrCell {
                    profile: profile.name.to_owned(),
                    congctl: cc.to_owned(),
                    requesters: r,
                    reply_queues: replies.clone(),
                    round_trips_per_s: rate,
                    bound_per_s: bound,
                    mean_ms,
                });
            }
        }
        Ok(cells)
    }

    /// Sets every sender's transport, CONGCTL and COMPMSG (`quic` or `quic-CC`: TRPTYPE(QUIC)
    /// with BBR or CC), and restarts it so the new connection takes them.
    fn configure(&self, cc: &str, compress: &str) -> Result<(), String> {
        let (trptype, cc) = transport_of(cc);
        let mut script = String::new();
        for k in 0..self.channels {
            script.push_str(&format!(
                "ALTER CHANNEL(WAN.{k}) CHLTYPE(SDR) TRPTYPE({trptype}) CONGCTL({cc}) COMPMSG({compress})\n\
                 STOP CHANNEL(WAN.{k})\nSTART CHANNEL(WAN.{k})\n"
            ));
        }
        self.mqsc("QM1", &script)?;
        self.await_restart()
    }

    /// Waits until no sender still runs its old connection (one stopped while its socket was
    /// full of a slow link's backlog ends only when that is written), so a cell measures the
    /// new configuration from its start.
    fn await_restart(&self) -> Result<(), String> {
        let began = Instant::now();
        let mut c = Connection::connect(&self.unix("QM1"), "ferry perf wan")
            .map_err(|e| format!("connecting to QM1: {e}"))?;
        loop {
            let replies = c
                .admin("DISPLAY CHSTATUS(WAN.*) STATUS")
                .map_err(|e| format!("QM1: {e}"))?;
            // The senders WAN.0…; QM1's end of WAN.BACK is a receiver, running throughout.
            let running = replies
                .iter()
                .flat_map(|r| &r.messages)
                .filter(|m| {
                    !m.fields
                        .iter()
                        .any(|f| f.key == "CHANNEL" && f.value.as_deref() == Some("WAN.BACK"))
                })
                .flat_map(|m| &m.fields)
                .any(|f| f.key == "STATUS" && f.value.as_deref() == Some("RUNNING"));
            if !running {
                let _ = c.disconnect();
                return Ok(());
            }
            if began.elapsed() > MAX_CELL {
                return Err("the senders did not restart within 90 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Empties the transmission queues (their backlog would hold up the next cell for as long
    /// as a slow link takes to carry it): each sender stopped, its queue cleared, restarted.
    fn clear_backlog(&self) -> Result<(), String> {
        let each = |f: &dyn Fn(usize) -> String| (0..self.channels).map(f).collect::<String>();
        self.mqsc("QM1", &each(&|k| format!("STOP CHANNEL(WAN.{k})\n")))?;
        self.await_restart()?;
        // A sender stopping mid-batch holds its gets until it has backed them out.
        let clear = each(&|k| format!("CLEAR QLOCAL(XQ.{k})\n"));
        let began = Instant::now();
        while let Err(e) = self.mqsc("QM1", &clear) {
            if !e.contains("2042") || began.elapsed() > MAX_CELL {
                return Err(e);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.mqsc("QM1", &each(&|k| format!("START CHANNEL(WAN.{k})\n")))?;
        self.await_restart()
    }

    /// Puts messages of `shape` through its channels and counts what arrives.
    fn measure(
        &self,
        a: &WanArgs,
        profile: &str,
        cc: &str,
        compress: &str,
        shape: Shape,
    ) -> Result<Cell, String> {
        let Shape {
            size,
            channels,
            persistent,
            seed004,
        } = shape;
        let stop = Arc::new(AtomicBool::new(false));
        let got = Arc::new(AtomicU64::new(0));
        let mut threads = Vec::new();
        for k in 0..channels {
            for q in 0..self.queues {
                let (ep, halt, got) = (self.unix("QM2"), stop.clone(), got.clone());
                let queue = queue_name("WAN.IN", k, q);
                threads.push(std::thread::spawn(move || {
                    getter(&ep, &queue, shape, &halt, &got)
                }));
            }
            let (ep, halt) = (self.unix("QM1"), stop.clone());
            let queues = self.queues;
            threads.push(std::thread::spawn(move || {
                putter(&ep, (k, queues), shape, &halt)
            }));
        }
        std::thread::sleep(a.warmup);
        let (n, secs) = count_over(a.duration, &got);
        stop.store(true, Ordering::Relaxed);
        for t in threads {
            t.join()
                .map_err(|_| "a putter or getter panicked".to_owned())??;
        }
        self.clear_backlog()?;
        if n == 0 {
            return Err(format!(
                "nothing arrived through the channels in {secs:.1} s ({profile}, {cc}, {size} B); \
                 the queue managers' logs are in {}/qmgrs/*/qm.log (kept with FERRY_PERF_KEEP=1)",
                self.home.display()
            ));
        }
        let rate = n as f64 / secs;
        Ok(Cell {
            profile: profile.to_owned(),
            congctl: cc.to_owned(),
            size,
            channels,
            compress: compress.to_owned(),
            persistent,
            queues: self.queues,
            payload: if seed004 { "seed004" } else { "record" }.to_owned(),
            msgs_per_s: rate,
            mbit_per_s: rate * size as f64 * 8.0 / 1e6,
        })
    }
}

/// What `got` gains over at least `duration` and [`MIN_MESSAGES`] (at most [`MAX_CELL`]):
/// (messages, seconds). A slow link delivers a batch of large messages at long intervals; too
/// short a count would read zero.
fn count_over(duration: Duration, got: &AtomicU64) -> (u64, f64) {
    let (n0, t0) = (got.load(Ordering::Relaxed), Instant::now());
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let n = got.load(Ordering::Relaxed) - n0;
        let long = t0.elapsed();
        if (long >= duration && n >= MIN_MESSAGES) || long >= MAX_CELL {
            return (n, long.as_secs_f64());
        }
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        for qm in ["QM1", "QM2"] {
            let _ = self.ferry_ok(&["qm", "stop", qm, "-i"], "");
        }
        if std::env::var_os("FERRY_PERF_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&self.home);
        }
    }
}

/// Keeps XQ.k supplied through WAN.OUT.k (and its `queues - 1` siblings, in turn) with
/// asynchronous puts (non-persistent, or persistent as `shape` says: then up to 64 in a unit
/// of work, one log write for them), never more than [`BACKLOG_BYTES`] (persistent:
/// [`PERSISTENT_BACKLOG_BYTES`]) deep, until `stop`.
fn putter(
    ep: &str,
    (k, queues): (usize, usize),
    shape: Shape,
    stop: &AtomicBool,
) -> Result<(), String> {
    let size = shape.size;
    let persistence = if shape.persistent {
        Persistence::Persistent
    } else {
        Persistence::NotPersistent
    };
    let fail = |e: ferry_client::MqError| format!("putter {k}: {e}");
    let mut c = Connection::connect(ep, "wan putter").map_err(fail)?;
    let outs = (0..queues)
        .map(|q| c.open_queue(&queue_name("WAN.OUT", k, q), OpenOptions::output()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    let xq = c
        .open_queue(&format!("XQ.{k}"), OpenOptions::inquire())
        .map_err(fail)?;
    let backlog = if shape.persistent {
        PERSISTENT_BACKLOG_BYTES
    } else {
        BACKLOG_BYTES
    };
    let bound = (backlog / size.max(1)).max(4) as i64;
    // Bodies made once: formatting records for every message cost the putter ~10 % of this
    // two-core machine, taken from the queue managers it measures (each body is compressed
    // on its own, so reusing them changes nothing LZ4 sees).
    let bodies: Vec<bytes::Bytes> = (0..PAYLOADS)
        .map(|i| match shape.seed004 {
            true => seed004_payload(size, i).into(),
            false => record_payload(size, i).into(),
        })
        .collect();
    let opts = if shape.persistent {
        PutOptions::syncpoint().with_async()
    } else {
        PutOptions::default().with_async()
    };
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        if shape.persistent {
            c.commit().map_err(fail)?;
        }
        let depth = match c
            .inquire(xq, &[Selector::CurrentDepth])
            .map_err(fail)?
            .first()
        {
            Some(AttrValue::Int(d)) => *d,
            _ => 0,
        };
        if depth >= bound {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        for _ in 0..(bound - depth).min(64) {
            let body = bodies[(n % bodies.len() as u64) as usize].clone();
            let m = Message::new(body).with_persistence(persistence);
            c.put(outs[(n % outs.len() as u64) as usize], m, &opts)
                .map_err(fail)?;
            n += 1;
        }
    }
    let _ = c.disconnect();
    Ok(())
}

/// Gets from `queue` until `stop`, counting the messages of `shape`'s size (a previous cell's
/// leftovers are taken and not counted): non-persistent ones read ahead; persistent ones up to
/// 64 at a time in a unit of work (one log write for them).
fn getter(
    ep: &str,
    queue: &str,
    shape: Shape,
    stop: &AtomicBool,
    got: &AtomicU64,
) -> Result<(), String> {
    let fail = |e: ferry_client::MqError| format!("getter of {queue}: {e}");
    let mut c = Connection::connect(ep, "wan getter").map_err(fail)?;
    let open = OpenOptions {
        read_ahead: Some(!shape.persistent),
        ..OpenOptions::input()
    };
    let h = c.open_queue(queue, open).map_err(fail)?;
    let wait = GetOptions::new().wait(Duration::from_millis(200));
    let wait = if shape.persistent {
        wait.syncpoint()
    } else {
        wait
    };
    while !stop.load(Ordering::Relaxed) {
        let batch = if shape.persistent {
            c.get_many(h, &wait, 64)
        } else {
            c.get(h, &wait).map(|g| vec![g])
        };
        match batch {
            Ok(gs) => {
                let n = gs.iter().filter(|g| g.message.body.len() == shape.size);
                got.fetch_add(n.count() as u64, Ordering::Relaxed);
                if shape.persistent {
                    c.commit().map_err(fail)?;
                }
            }
            Err(e) if e.reason == ferry_client::Reason::NoMsgAvailable => {}
            Err(e) => return Err(fail(e)),
        }
    }
    let _ = c.disconnect();
    Ok(())
}

/// Charts of a run: for each message size and COMPMSG, the channels' payload rate (Mbit/s)
/// against the link's one-way delay (clean 0, N1 25, N2 40, N3 50 ms), a line per congestion
/// control and channel count, with iperf3's ceiling per congestion control.
pub fn charts(r: &WanReport) -> Vec<crate::chart::Chart> {
    let delay = |p: &str| Profile::named(p).map_or(0.0, |p| p.delay.as_secs_f64() * 1000.0);
    let mut profiles: Vec<&str> = r.cells.iter().map(|c| c.profile.as_str()).collect();
    profiles.dedup();
    let xs: Vec<f64> = profiles.iter().map(|p| delay(p)).collect();
    let mut kinds: Vec<(usize, &str)> = r
        .cells
        .iter()
        .map(|c| (c.size, c.compress.as_str()))
        .collect();
    kinds.sort();
    kinds.dedup();
    let mut lines: Vec<(&str, usize)> = r
        .cells
        .iter()
        .map(|c| (c.congctl.as_str(), c.channels))
        .collect();
    lines.sort();
    lines.dedup();
    let mut congctls: Vec<&str> = r.ceilings.iter().map(|c| c.congctl.as_str()).collect();
    congctls.sort();
    congctls.dedup();
    kinds
        .into_iter()
        .map(|(size, compress)| {
            let rate = |cc: &str, ch: usize, p: &str| {
                r.cells
                    .iter()
                    .find(|c| {
                        // Seed 004's workload: non-persistent messages.
                        !c.persistent
                            && (
                                c.size,
                                c.compress.as_str(),
                                c.congctl.as_str(),
                                c.channels,
                                c.profile.as_str(),
                            ) == (size, compress, cc, ch, p)
                    })
                    .map_or(0.0, |c| c.mbit_per_s)
            };
            let mut series: Vec<(String, Vec<f64>)> = lines
                .iter()
                .map(|(cc, ch)| {
                    let ys = profiles.iter().map(|p| rate(cc, *ch, p)).collect();
                    (format!("{} x {ch} channels", cc.to_ascii_uppercase()), ys)
                })
                .collect();
            series.extend(ceiling_lines(r, &congctls, &profiles));
            crate::chart::Chart {
                name: format!("wan-{}-{}", size, compress.to_ascii_lowercase()),
                title: format!(
                    "{size} B messages, COMPMSG({compress}): rate against the link's delay"
                ),
                x_label:
                    "one-way delay, ms (clean 0, N1 25, N2 40 + 0.1 % loss, N3 50 + 0.5 % loss)"
                        .into(),
                y_label: "payload Mbit/s".into(),
                xs: xs.clone(),
                series,
            }
        })
        .collect()
}

/// iperf3's ceiling per congestion control, a line over `profiles`.
fn ceiling_lines(r: &WanReport, congctls: &[&str], profiles: &[&str]) -> Vec<(String, Vec<f64>)> {
    congctls
        .iter()
        .map(|cc| {
            let ys = profiles
                .iter()
                .map(|p| {
                    r.ceilings
                        .iter()
                        .find(|c| c.congctl == *cc && c.profile == *p)
                        .map_or(0.0, |c| c.mbit_per_s)
                })
                .collect();
            (format!("iperf3 {}", cc.to_ascii_uppercase()), ys)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferry_proto::compress::{compress, Compression};

    /// The fraction of a body LZ4 (COMPMSG(LZ4FAST)) saves.
    fn saving(body: &[u8]) -> f64 {
        let mut out = bytes::BytesMut::new();
        compress(Compression::Lz4Fast, body, &mut out);
        1.0 - out.len() as f64 / body.len() as f64
    }

    #[test]
    fn seed004_bodies_compress_as_seed_004s_messages_did_and_records_compress_more() {
        for (len, want) in [(2048, 0.34), (204_800, 0.25)] {
            let got: f64 = (0..8)
                .map(|n| saving(&seed004_payload(len, n)))
                .sum::<f64>()
                / 8.0;
            assert!(
                (got - want).abs() < 0.04,
                "{len} B: LZ4 saves {got:.3}, want {want}"
            );
            assert_eq!(seed004_payload(len, 3).len(), len);
            let records = saving(&record_payload(len, 3));
            assert!(records > 0.5, "{len} B records: LZ4 saves {records:.3}");
        }
    }
}
