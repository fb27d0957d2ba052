//! Socket options the standard library does not set: TCP keepalive, so a partner whose host
//! died or whose link was cut without a reset is noticed by the kernel even when the socket is
//! idle and no heartbeat is owed. And who holds a listening port (from /proc), so a clash names
//! its holder.

use std::os::fd::AsFd;
use std::time::Duration;

use nix::sys::socket::{setsockopt, sockopt};

/// Turns keepalive on: the first probe after `idle` without traffic, then every `interval`,
/// and the connection is dropped after `probes` unanswered ones.
pub fn keepalive(
    socket: &impl AsFd,
    idle: Duration,
    interval: Duration,
    probes: u32,
) -> std::io::Result<()> {
    let secs = |d: Duration| d.as_secs().clamp(1, u32::MAX as u64) as u32;
    setsockopt(socket, sockopt::KeepAlive, &true)?;
    setsockopt(socket, sockopt::TcpKeepIdle, &secs(idle))?;
    setsockopt(socket, sockopt::TcpKeepInterval, &secs(interval))?;
    setsockopt(socket, sockopt::TcpKeepCount, &probes)?;
    Ok(())
}

/// The process listening on TCP `port` (any address), from /proc/net/tcp{,6} and the
/// processes' descriptors this user may read: its pid and command name.
pub fn listener_holder(port: u16) -> Option<(u32, String)> {
    let inodes = listening_inodes(port);
    if inodes.is_empty() {
        return None;
    }
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        let holds = fds.flatten().any(|fd| {
            let link = std::fs::read_link(fd.path()).unwrap_or_default();
            let link = link.to_string_lossy();
            let inode = link
                .strip_prefix("socket:[")
                .and_then(|r| r.strip_suffix(']'));
            inode.is_some_and(|i| inodes.iter().any(|x| x == i))
        });
        if holds {
            let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            return Some((pid, comm.trim().to_owned()));
        }
    }
    None
}

/// The socket inodes listening on `port` (state 0A in /proc/net/tcp and tcp6).
fn listening_inodes(port: u16) -> Vec<String> {
    let want = format!(":{port:04X}");
    let mut out = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            if f.len() > 9 && f[1].ends_with(&want) && f[3] == "0A" {
                out.push(f[9].to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listening_port_names_this_process() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let (pid, _) = listener_holder(port).expect("this test's own listener is found");
        assert_eq!(pid, std::process::id());
        drop(l);
        assert_eq!(listener_holder(port), None);
    }

    #[test]
    fn keepalive_is_set_on_a_tcp_socket() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let s = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        keepalive(&s, Duration::from_secs(30), Duration::from_secs(10), 3).unwrap();
        assert!(nix::sys::socket::getsockopt(&s, sockopt::KeepAlive).unwrap());
        assert_eq!(
            nix::sys::socket::getsockopt(&s, sockopt::TcpKeepIdle).unwrap(),
            30
        );
    }
}

/// The socket `fd` as a borrowed descriptor, for the calls of this module.
#[allow(unsafe_code)]
fn borrowed<'a>(fd: std::os::fd::RawFd) -> std::io::Result<std::os::fd::BorrowedFd<'a>> {
    if fd < 0 {
        return Err(std::io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: the callers pass the descriptor of a socket they keep open for the call the
    // borrow is made for, and the borrow does not outlive that call (it is not stored).
    Ok(unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) })
}

/// The TCP congestion control the socket `fd` uses (Linux's TCP_CONGESTION), e.g. `cubic` or
/// `bbr`.
pub fn congestion(fd: std::os::fd::RawFd) -> std::io::Result<String> {
    let socket = borrowed(fd)?;
    let name = nix::sys::socket::getsockopt(&socket, sockopt::TcpCongestion)?;
    Ok(name.to_string_lossy().trim_end_matches('\0').to_owned())
}

/// The congestion controls this kernel offers (`/proc/sys/net/ipv4/tcp_available_congestion_control`).
pub fn available_congestion() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// Makes the socket `fd` use the congestion control `name` (lower case, e.g. `bbr`); when the
/// kernel does not offer it, an error that says which it does (and how to load BBR).
pub fn set_congestion(fd: std::os::fd::RawFd, name: &str) -> std::io::Result<()> {
    let socket = borrowed(fd)?;
    let value = std::ffi::OsString::from(name);
    setsockopt(&socket, sockopt::TcpCongestion, &value).map_err(|e| {
        let offered = available_congestion().join(" ");
        std::io::Error::other(format!(
            "the kernel refused TCP congestion control {name:?} ({e}); it offers: {offered} \
             (for BBR: modprobe tcp_bbr, or list it in net.ipv4.tcp_allowed_congestion_control)"
        ))
    })
}

/// What the kernel knows of a TCP connection now (Linux's TCP_INFO), the figures a channel's
/// status shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TcpInfo {
    /// Smoothed round-trip time.
    pub rtt: Duration,
    /// Its variation.
    pub rtt_var: Duration,
    /// Segments retransmitted over the connection's life.
    pub retransmits: u32,
    /// Segments sent and not yet acknowledged.
    pub unacked: u32,
    /// The sender's maximum segment size, bytes.
    pub mss: u32,
    /// The congestion window, segments.
    pub cwnd: u32,
    /// The most recent delivery rate the kernel measured, bytes per second.
    pub delivery_rate: u64,
    /// Bytes the partner acknowledged.
    pub bytes_acked: u64,
    /// Segments sent over the connection's life (retransmissions included; wraps at 2^32).
    pub segs_out: u32,
}

impl TcpInfo {
    /// Bytes in flight: unacknowledged segments at the MSS.
    pub fn in_flight(&self) -> u64 {
        u64::from(self.unacked) * u64::from(self.mss)
    }
}

/// TCP_INFO of the socket `fd` (a TCP socket the caller keeps open for the call).
#[allow(unsafe_code)]
pub fn tcp_info(fd: std::os::fd::RawFd) -> std::io::Result<TcpInfo> {
    // SAFETY: an all-zero tcp_info is a valid value (integers only).
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: `info` is a writable tcp_info of `len` bytes, and the kernel writes at most `len`
    // bytes into it (updating `len`); `fd` is only read, and a bad descriptor is an error.
    let rc = unsafe {
        libc::getsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(TcpInfo {
        rtt: Duration::from_micros(u64::from(info.tcpi_rtt)),
        rtt_var: Duration::from_micros(u64::from(info.tcpi_rttvar)),
        retransmits: info.tcpi_total_retrans,
        unacked: info.tcpi_unacked,
        mss: info.tcpi_snd_mss,
        cwnd: info.tcpi_snd_cwnd,
        delivery_rate: info.tcpi_delivery_rate,
        bytes_acked: info.tcpi_bytes_acked,
        segs_out: info.tcpi_segs_out,
    })
}

#[cfg(test)]
mod tcp_tests {
    use super::*;

    #[test]
    fn a_connection_reports_its_congestion_control_and_round_trip() {
        use std::os::fd::AsRawFd;
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (mut s, _) = l.accept().unwrap();
        let offered = available_congestion();
        assert!(!offered.is_empty(), "the kernel offers congestion controls");
        let want = offered
            .iter()
            .find(|a| *a == "bbr")
            .unwrap_or(&offered[0])
            .clone();
        set_congestion(c.as_raw_fd(), &want).unwrap();
        assert_eq!(congestion(c.as_raw_fd()).unwrap(), want);
        let e = set_congestion(c.as_raw_fd(), "no-such-cc").unwrap_err();
        assert!(e.to_string().contains("it offers"), "{e}");
        use std::io::{Read, Write};
        (&c).write_all(b"ping").unwrap();
        let mut b = [0u8; 4];
        s.read_exact(&mut b).unwrap();
        let info = tcp_info(c.as_raw_fd()).unwrap();
        assert!(info.mss > 0 && info.cwnd > 0, "{info:?}");
        assert!(tcp_info(-1).is_err());
    }
}
