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
