//! A link emulator: two network namespaces (two "hosts") joined through this process, which
//! applies a wide-area link's one-way delay, random loss and rate to every packet, each way.
//! The kernel here has no netem and no nftables, so the link is made in user space: a TUN
//! device in each namespace, with a point-to-point address; what one host sends into its TUN
//! device this process reads, holds, and writes into the other host's TUN device.
//!
//! Why a TUN bridge and not a delayer on the sender's output hook: TCP small queues throttle a
//! socket by the bytes its host still holds below it, so delaying packets on the sending host
//! would throttle TCP by itself. A TUN device frees a packet (orphans it) as soon as it is
//! queued for this process, so the sending host sees a network, not a stalled device — the
//! delay is in flight, as on a real link.
//!
//! Each direction is a bottleneck of `rate` bits/s with a drop-tail queue of `queue` worth of
//! sending time (a router's buffer), then the one-way `delay`. Loss is independent per packet
//! with probability `loss` (a lossy radio or a congested peering point, as seed 004's
//! profiles). A `cut` (SIGUSR1 toggles it) drops everything both ways, as an unplugged link.
//!
//! Each TUN device is a network card with the offloads a server's card has ([`gro`]): the
//! host hands it UDP send batches whole and leaves checksums to it; it sends them on the wire
//! as single datagrams with their checksums done, and on the far side hands what reaches the
//! host together (within [`RX_COALESCE`]) to its kernel as one coalesced packet per flow (GRO),
//! which a socket with UDP_GRO on reads at once. The wire itself (rate, queue, loss, delay)
//! sees every datagram on its own. TCP is carried segment by segment, as before.
//!
//! Profiles from seed 004 (delay each way; loss each way): `clean` 0 ms, `n1` 25 ms, `n2` 40 ms
//! 0.1 %, `n3` 50 ms 0.5 %, all at 1 Gbit/s unless `--rate-mbit` says otherwise.

mod gro;

use std::collections::VecDeque;
use std::fs::File;
use std::io::Read;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A link's character, one way (both ways are alike).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Profile {
    /// The profile's name (`clean`, `n1`, `n2`, `n3`, or `custom`).
    pub name: &'static str,
    /// One-way delay.
    pub delay: Duration,
    /// Probability that a packet is lost, 0..1.
    pub loss: f64,
    /// The bottleneck's rate, bits per second.
    pub rate_bps: u64,
}

/// Every profile's bottleneck rate unless `--rate-mbit` says otherwise, Mbit/s.
pub const DEFAULT_RATE_MBIT: u64 = 1_000;
const DEFAULT_RATE_BPS: u64 = DEFAULT_RATE_MBIT * 1_000_000;

/// The profiles by name.
pub const PROFILES: [Profile; 4] = [
    Profile {
        name: "clean",
        delay: Duration::ZERO,
        loss: 0.0,
        rate_bps: DEFAULT_RATE_BPS,
    },
    Profile {
        name: "n1",
        delay: Duration::from_millis(25),
        loss: 0.0,
        rate_bps: DEFAULT_RATE_BPS,
    },
    Profile {
        name: "n2",
        delay: Duration::from_millis(40),
        loss: 0.001,
        rate_bps: DEFAULT_RATE_BPS,
    },
    Profile {
        name: "n3",
        delay: Duration::from_millis(50),
        loss: 0.005,
        rate_bps: DEFAULT_RATE_BPS,
    },
];

impl Profile {
    /// The profile called `name` (any case).
    pub fn named(name: &str) -> Result<Profile, String> {
        let lower = name.to_ascii_lowercase();
        PROFILES
            .iter()
            .find(|p| p.name == lower)
            .copied()
            .ok_or_else(|| format!("no link profile {name:?}: give clean, n1, n2 or n3"))
    }

    /// The bottleneck queue: as much as the link carries in one round trip (at least 10 ms),
    /// in bytes.
    pub fn queue_bytes(&self) -> u64 {
        let rtt = (self.delay * 2).max(Duration::from_millis(10));
        (self.rate_bps as f64 / 8.0 * rtt.as_secs_f64()) as u64
    }
}

/// What one direction did, for the report at the end.
#[derive(Debug, Default)]
pub struct Counters {
    /// Packets written to the far side.
    pub delivered: AtomicU64,
    /// Bytes written to the far side.
    pub bytes: AtomicU64,
    /// Packets lost at random.
    pub lost: AtomicU64,
    /// Packets dropped at the full bottleneck queue.
    pub overflowed: AtomicU64,
    /// Packets dropped while the link was cut.
    pub cut: AtomicU64,
}

/// A small, fast, seeded random source (xorshift64*): loss must not cost a syscall a packet.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The packets of one direction on their way: each with the time it reaches the far side.
#[derive(Debug)]
struct Wire {
    profile: Profile,
    /// When the bottleneck has sent everything queued so far.
    busy_until: Instant,
    in_flight: VecDeque<(Instant, Vec<u8>)>,
    spare: Vec<Vec<u8>>,
    rng: Rng,
}

/// The outcome of offering a packet to the wire.
#[derive(Debug, PartialEq)]
enum Offer {
    Sent,
    Lost,
    Overflow,
}

impl Wire {
    fn new(profile: Profile, seed: u64) -> Wire {
        Wire {
            profile,
            busy_until: Instant::now(),
            in_flight: VecDeque::new(),
            spare: Vec::new(),
            rng: Rng(seed | 1),
        }
    }

    /// A buffer for the next packet.
    fn buffer(&mut self) -> Vec<u8> {
        self.spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(MTU_BUFFER))
    }

    /// Takes `packet` (read at `now`) onto the wire, or drops it.
    fn offer(&mut self, now: Instant, packet: Vec<u8>) -> Offer {
        if self.profile.loss > 0.0 && self.rng.next_f64() < self.profile.loss {
            self.spare.push(packet);
            return Offer::Lost;
        }
        let start = self.busy_until.max(now);
        let backlog = start - now;
        let queue = Duration::from_secs_f64(
            self.profile.queue_bytes() as f64 * 8.0 / self.profile.rate_bps as f64,
        );
        if backlog > queue {
            self.spare.push(packet);
            return Offer::Overflow;
        }
        let send =
            Duration::from_secs_f64(packet.len() as f64 * 8.0 / self.profile.rate_bps as f64);
        self.busy_until = start + send;
        let due = self.busy_until + self.profile.delay;
        debug_assert!(self.in_flight.back().is_none_or(|(t, _)| *t <= due));
        self.in_flight.push_back((due, packet));
        Offer::Sent
    }

    /// The time until the first packet is due, if one is in flight.
    fn next_due(&self, now: Instant) -> Option<Duration> {
        self.in_flight
            .front()
            .map(|(t, _)| t.saturating_duration_since(now))
    }
}

/// Room for any packet a TUN device with a 1500-byte MTU hands over.
const MTU_BUFFER: usize = 2048;
/// The TUN devices' MTU.
pub const MTU: u32 = 1500;

/// Opens a TUN device called `name` (no packet information header; a virtio-net header ahead
/// of each packet, and a card's offloads: [`gro`]) in the network namespace of the calling
/// thread.
#[allow(unsafe_code)]
fn open_tun(name: &str) -> std::io::Result<File> {
    const IFF_TUN: libc::c_short = 0x0001;
    const IFF_NO_PI: libc::c_short = 0x1000;
    const IFF_VNET_HDR: libc::c_short = 0x4000;
    const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
    #[repr(C)]
    struct IfReq {
        name: [u8; libc::IFNAMSIZ],
        flags: libc::c_short,
        _pad: [u8; 22],
    }
    if name.len() >= libc::IFNAMSIZ {
        return Err(std::io::Error::other(format!(
            "device name {name} is too long"
        )));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/net/tun")?;
    let mut req = IfReq {
        name: [0; libc::IFNAMSIZ],
        flags: IFF_TUN | IFF_NO_PI | IFF_VNET_HDR,
        _pad: [0; 22],
    };
    req.name[..name.len()].copy_from_slice(name.as_bytes());
    // SAFETY: `req` is a properly sized and initialised ifreq for TUNSETIFF, alive for the
    // call; the descriptor is the open /dev/net/tun file.
    let r = unsafe { libc::ioctl(file.as_raw_fd(), TUNSETIFF as _, &mut req) };
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // The card's offloads: checksums, and UDP segmentation where the kernel has it (6.2 on);
    // without them the host segments and checksums itself and the link carries the same.
    const TUNSETOFFLOAD: libc::c_ulong = 0x4004_54d0;
    const TUN_F_CSUM: libc::c_uint = 0x01;
    const TUN_F_USO4: libc::c_uint = 0x20;
    const TUN_F_USO6: libc::c_uint = 0x40;
    for offloads in [TUN_F_CSUM | TUN_F_USO4 | TUN_F_USO6, TUN_F_CSUM] {
        // SAFETY: TUNSETOFFLOAD takes its flags by value on the open TUN descriptor.
        if unsafe { libc::ioctl(file.as_raw_fd(), TUNSETOFFLOAD as _, offloads) } == 0 {
            break;
        }
    }
    Ok(file)
}

/// Moves the calling thread into the network namespace `ns` (a name under /run/netns).
#[allow(unsafe_code)]
fn enter_namespace(ns: &str) -> std::io::Result<()> {
    let f = File::open(format!("/run/netns/{ns}"))?;
    // SAFETY: setns on an open namespace file descriptor; it changes only this thread's
    // network namespace.
    let r = unsafe { libc::setns(f.as_raw_fd(), libc::CLONE_NEWNET) };
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Runs `ip ARGS`, failing with its message.
fn ip(args: &[&str]) -> std::io::Result<()> {
    let out = std::process::Command::new("ip").args(args).output()?;
    if out.status.success() {
        return Ok(());
    }
    Err(std::io::Error::other(format!(
        "ip {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

/// A TUN device `dev` in namespace `ns` with address `local` and `peer` at the other end.
fn tun_in(ns: &str, dev: &str, local: &str, peer: &str) -> std::io::Result<File> {
    let (ns2, dev2) = (ns.to_owned(), dev.to_owned());
    // setns changes the calling thread only: open the device from a thread of its own.
    let file = std::thread::spawn(move || {
        enter_namespace(&ns2)?;
        open_tun(&dev2)
    })
    .join()
    .map_err(|_| std::io::Error::other("the thread opening the TUN device panicked"))??;
    let mtu = MTU.to_string();
    ip(&["-n", ns, "addr", "add", local, "peer", peer, "dev", dev])?;
    ip(&["-n", ns, "link", "set", dev, "mtu", &mtu, "up"])?;
    ip(&["-n", ns, "link", "set", "lo", "up"])?;
    Ok(file)
}

/// The emulated link between namespaces `ns[0]` (address `addr[0]`) and `ns[1]`.
#[derive(Debug)]
pub struct LinkSpec {
    /// The two namespaces (names under /run/netns), made beforehand.
    pub ns: [String; 2],
    /// Each side's address (IPv4, no prefix).
    pub addr: [String; 2],
    /// The link's character each way.
    pub profile: Profile,
}

/// Whether the link is cut (everything dropped), toggled by SIGUSR1.
static CUT: AtomicBool = AtomicBool::new(false);

#[allow(unsafe_code)]
fn toggle_cut_on_sigusr1() {
    extern "C" fn on_usr1(_: libc::c_int) {
        CUT.fetch_xor(true, Ordering::Relaxed);
    }
    let handler: extern "C" fn(libc::c_int) = on_usr1;
    // SAFETY: the handler only flips an atomic, which is async-signal-safe.
    unsafe { libc::signal(libc::SIGUSR1, handler as libc::sighandler_t) };
}

/// Makes the TUN devices and carries packets both ways until `stop`; `ready` is called once
/// both hosts can reach each other. Returns what each direction (0 → 1, 1 → 0) did.
pub fn run(
    spec: &LinkSpec,
    stop: &AtomicBool,
    ready: impl FnOnce(),
) -> std::io::Result<[Arc<Counters>; 2]> {
    let pid = std::process::id() % 100_000;
    let devs = [format!("flk{pid}a"), format!("flk{pid}b")];
    let a = tun_in(&spec.ns[0], &devs[0], &spec.addr[0], &spec.addr[1])?;
    let b = tun_in(&spec.ns[1], &devs[1], &spec.addr[1], &spec.addr[0])?;
    toggle_cut_on_sigusr1();
    ready();
    let counters = [Arc::new(Counters::default()), Arc::new(Counters::default())];
    let (a2, b2) = (a.try_clone()?, b.try_clone()?);
    std::thread::scope(|s| {
        let c0 = counters[0].clone();
        let c1 = counters[1].clone();
        let p = spec.profile;
        let one = s.spawn(move || carry(a, b2, p, 0x9e37_79b9, &c0, stop));
        let two = s.spawn(move || carry(b, a2, p, 0x85eb_ca6b, &c1, stop));
        one.join()
            .map_err(|_| std::io::Error::other("a direction panicked"))??;
        two.join()
            .map_err(|_| std::io::Error::other("a direction panicked"))?
    })?;
    Ok(counters)
}

/// One direction: reads packets from `from`, puts them on the wire, writes them to `to` when
/// due; until `stop`.
fn carry(
    mut from: File,
    mut to: File,
    profile: Profile,
    seed: u64,
    counters: &Counters,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    set_nonblocking(&from)?;
    let mut wire = Wire::new(profile, seed);
    let mut scratch = vec![0u8; READ_BUFFER];
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        let wait = wire
            .next_due(now)
            .map_or(Duration::from_millis(100), |d| d + RX_COALESCE)
            .min(Duration::from_millis(100));
        wait_readable(&from, wait)?;
        read_all(&mut from, &mut scratch, &mut wire, counters)?;
        deliver_due(&mut to, &mut wire, counters);
    }
    Ok(())
}

/// Room for what one read of a TUN device with segmentation offload gives: a virtio-net header
/// and an IPv4 packet of up to 64 KiB.
const READ_BUFFER: usize = gro::VNET_HDR_LEN + 65_536;

/// Writes `parts` to `to` at once (one packet, behind its virtio-net header).
#[allow(unsafe_code)]
fn write_parts(to: &File, parts: &[&[u8]]) -> std::io::Result<()> {
    let iov: Vec<libc::iovec> = parts
        .iter()
        .map(|p| libc::iovec {
            iov_base: p.as_ptr() as *mut libc::c_void,
            iov_len: p.len(),
        })
        .collect();
    // SAFETY: every iovec points into a live buffer of its length; writev only reads them.
    let n = unsafe { libc::writev(to.as_raw_fd(), iov.as_ptr(), iov.len() as libc::c_int) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Takes every packet waiting on `from` onto the wire: the datagrams of a segmented batch
/// each on its own, as a card sends them ([`gro::segments`]).
fn read_all(
    from: &mut File,
    scratch: &mut [u8],
    wire: &mut Wire,
    counters: &Counters,
) -> std::io::Result<()> {
    loop {
        let n = match from.read(scratch) {
            Ok(n) if n > gro::VNET_HDR_LEN => n,
            Ok(0) => return Ok(()),
            Ok(_) => continue, // a header without a packet: nothing to carry
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (hdr, pkt) = scratch[..n].split_at(gro::VNET_HDR_LEN);
        let cut = CUT.load(Ordering::Relaxed);
        let took = gro::segments(hdr, pkt, |p| {
            if cut {
                counters.cut.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let mut buf = wire.buffer();
            buf.clear();
            buf.extend_from_slice(p);
            match wire.offer(Instant::now(), buf) {
                Offer::Sent => {}
                Offer::Lost => _ = counters.lost.fetch_add(1, Ordering::Relaxed),
                Offer::Overflow => _ = counters.overflowed.fetch_add(1, Ordering::Relaxed),
            }
        });
        if took.is_none() {
            counters.lost.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// How long the far side's "card" holds a packet it received before handing it and what
/// followed to the host at once (interrupt moderation; what it hands over together, [`gro`]
/// coalesces).
const RX_COALESCE: Duration = Duration::from_micros(50);

/// Writes every packet whose time has come to `to`, once the first has waited
/// [`RX_COALESCE`]: runs of one flow's datagrams as one coalesced packet ([`gro`]).
fn deliver_due(to: &mut File, wire: &mut Wire, counters: &Counters) {
    let now = Instant::now();
    if wire
        .in_flight
        .front()
        .is_none_or(|(t, _)| *t + RX_COALESCE > now)
    {
        return;
    }
    let due = wire.in_flight.iter().take_while(|(t, _)| *t <= now).count();
    let mut packets: Vec<Vec<u8>> = wire.in_flight.drain(..due).map(|(_, p)| p).collect();
    let mut at = 0;
    while at < packets.len() {
        let n = gro::group_len(packets[at..].iter().map(|p| p.as_slice()));
        let group = &packets[at..at + n];
        let bytes: usize = group.iter().map(|p| p.len()).sum();
        let written = match n {
            1 => write_parts(to, &[&gro::PLAIN, &group[0]]),
            _ => {
                let hdr = gro::headers(&group[0], bytes - 28 * n);
                let mut parts: Vec<&[u8]> = vec![&hdr];
                parts.extend(group.iter().map(|p| &p[28..]));
                write_parts(to, &parts)
            }
        };
        // A write the far device refuses (its queue full, or it went down) is lost, as on a
        // wire.
        if written.is_ok() {
            counters.delivered.fetch_add(n as u64, Ordering::Relaxed);
            counters.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
        }
        at += n;
    }
    wire.spare.append(&mut packets);
}

#[allow(unsafe_code)]
fn set_nonblocking(f: &File) -> std::io::Result<()> {
    // SAFETY: fcntl on an open descriptor with valid commands.
    let flags = unsafe { libc::fcntl(f.as_raw_fd(), libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0
        || unsafe { libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0
    {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Waits until `f` is readable or `timeout` has passed (to the microsecond: ppoll).
#[allow(unsafe_code)]
fn wait_readable(f: &File, timeout: Duration) -> std::io::Result<()> {
    let mut pfd = libc::pollfd {
        fd: f.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: one valid pollfd and a valid timespec, both alive for the call; no signal mask.
    let r = unsafe { libc::ppoll(&mut pfd, 1, &ts, std::ptr::null()) };
    if r < 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok(())
}

/// Two network namespaces, each a "host" with an address on the link between them; deleted
/// on drop (with whatever runs inside them keeping them only until it ends).
#[derive(Debug)]
pub struct Hosts {
    /// The namespaces' names.
    pub ns: [String; 2],
    /// Each host's address on the link.
    pub addr: [String; 2],
}

impl Hosts {
    /// Makes two namespaces named for `tag` and this process.
    pub fn new(tag: &str) -> std::io::Result<Hosts> {
        let id = std::process::id() % 10_000;
        let ns = [format!("ferry-{tag}-a{id}"), format!("ferry-{tag}-b{id}")];
        let net = format!("10.{}.{}", 200 + id / 256 % 50, id % 256);
        let hosts = Hosts {
            ns,
            addr: [format!("{net}.1"), format!("{net}.2")],
        };
        for n in &hosts.ns {
            let _ = ip(&["netns", "del", n]);
            ip(&["netns", "add", n])?;
        }
        Ok(hosts)
    }

    /// A second address for host 1, reached over the same link (a path change: the far host
    /// renumbered or moved): on host 1's loopback, routed by host 0 through host 1's first
    /// address. Returns it.
    pub fn add_far_address(&self) -> std::io::Result<String> {
        let (net, _) = self.addr[1]
            .rsplit_once('.')
            .ok_or_else(|| std::io::Error::other("an IPv4 address"))?;
        let third = format!("{net}.3");
        let host = format!("{third}/32");
        ip(&["-n", &self.ns[1], "addr", "add", &host, "dev", "lo"])?;
        ip(&[
            "-n",
            &self.ns[0],
            "route",
            "add",
            &host,
            "via",
            &self.addr[1],
        ])?;
        Ok(third)
    }

    /// A command run inside host `side` (0 or 1).
    pub fn command(&self, side: usize, program: &str) -> std::process::Command {
        let mut c = std::process::Command::new("ip");
        c.args(["netns", "exec", &self.ns[side], program]);
        c
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        for n in &self.ns {
            let _ = ip(&["netns", "del", n]);
        }
    }
}

/// `ferry perf link` running between two [`Hosts`], stopped on drop.
#[derive(Debug)]
pub struct Emulator {
    child: std::process::Child,
}

impl Emulator {
    /// Starts `ferry` (the binary at `ferry`) `perf link` with `profile` between `hosts`;
    /// returns once the hosts can reach each other.
    pub fn start(ferry: &std::path::Path, hosts: &Hosts, profile: &str) -> std::io::Result<Self> {
        Self::start_at(ferry, hosts, profile, None)
    }

    /// As [`Emulator::start`], with the bottleneck at `rate_mbit` Mbit/s each way in place of
    /// the profile's when given.
    pub fn start_at(
        ferry: &std::path::Path,
        hosts: &Hosts,
        profile: &str,
        rate_mbit: Option<u64>,
    ) -> std::io::Result<Self> {
        use std::io::BufRead;
        let mut cmd = std::process::Command::new(ferry);
        cmd.args(["perf", "link", "--profile", profile, "--ns"])
            .args(&hosts.ns)
            .arg("--addr")
            .args(&hosts.addr);
        if let Some(r) = rate_mbit {
            cmd.arg("--rate-mbit").arg(r.to_string());
        }
        let mut child = cmd
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .spawn()?;
        let mut first = String::new();
        let out = child.stdout.take().expect("piped");
        let mut lines = std::io::BufReader::new(out);
        lines.read_line(&mut first)?;
        if !first.starts_with("link up") {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other(format!(
                "ferry perf link did not come up ({first:?}; its error is on standard error)"
            )));
        }
        // Keep reading its output (the report at the end) so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut rest = String::new();
            while lines.read_line(&mut rest).is_ok_and(|n| n > 0) {
                eprint!("ferry perf link: {rest}");
                rest.clear();
            }
        });
        Ok(Emulator { child })
    }

    /// Cuts the link (every packet dropped both ways), or restores a cut one.
    #[allow(unsafe_code)]
    pub fn toggle_cut(&self) {
        // SAFETY: kill(2) on our own child's pid with a valid signal.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGUSR1) };
    }
}

impl Drop for Emulator {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: kill(2) on our own child's pid with a valid signal.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wire_delays_paces_and_drops_at_its_queue() {
        let p = Profile {
            name: "custom",
            delay: Duration::from_millis(10),
            loss: 0.0,
            rate_bps: 8_000_000, // 1 MB/s: a 1,000-byte packet takes 1 ms
        };
        let mut w = Wire::new(p, 7);
        let t0 = Instant::now();
        assert_eq!(w.offer(t0, vec![0; 1000]), Offer::Sent);
        assert_eq!(w.offer(t0, vec![0; 1000]), Offer::Sent);
        let due: Vec<Duration> = w.in_flight.iter().map(|(t, _)| *t - t0).collect();
        assert_eq!(due, [Duration::from_millis(11), Duration::from_millis(12)]);
        // The queue holds one round trip (20 ms) of sending: the 22nd packet at once overflows.
        let mut overflowed = 0;
        for _ in 0..30 {
            if w.offer(t0, vec![0; 1000]) == Offer::Overflow {
                overflowed += 1;
            }
        }
        assert!(overflowed >= 8, "{overflowed}");
    }

    #[test]
    fn loss_is_near_its_probability() {
        let p = Profile::named("N3").unwrap();
        let mut w = Wire::new(p, 42);
        let t0 = Instant::now();
        let lost = (0..200_000)
            .filter(|_| {
                let lost = w.offer(t0, vec![0; 64]) == Offer::Lost;
                w.in_flight.clear();
                w.busy_until = t0;
                lost
            })
            .count();
        assert!((800..1200).contains(&lost), "{lost} of 200,000 at 0.5 %");
    }
}
