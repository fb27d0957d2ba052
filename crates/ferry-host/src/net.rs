//! Socket options the standard library does not set: TCP keepalive, so a partner whose host
//! died or whose link was cut without a reset is noticed by the kernel even when the socket is
//! idle and no heartbeat is owed.

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

#[cfg(test)]
mod tests {
    use super::*;

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
