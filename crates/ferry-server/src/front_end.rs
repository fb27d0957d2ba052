//! MQTT front-end processes (`[mqtt] front_ends`): a process may hold 20,000 file descriptors
//! here, so more MQTT clients than that are accepted by several processes sharing the port
//! (SO_REUSEPORT; the kernel spreads connections across them), each carrying its clients' bytes
//! to the queue manager over [`LINKS`] local links (`mux.rs`) — socket pairs made by the queue
//! manager and inherited, so nothing else can reach them. The queue manager holds every
//! client's session, as with its own listener: one owner per client id across front ends, one
//! set of objects, statuses and metrics (the clients show under `SYSTEM.MQTT.TCP`).
//!
//! The queue manager starts the front ends with the service and keeps them running: one that
//! ends is started again a second later (its clients' connections ended with it and they
//! reconnect through the others). A front end ends when its links do — when the queue manager
//! stops or dies. The queue manager itself keeps the port bound (not listening), so it stays
//! reserved while a front end is restarted.

use std::net::SocketAddr;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch, Semaphore};
use tokio::task::JoinSet;

use crate::mux::{self, Link};

/// Links from each front end to the queue manager.
pub(crate) const LINKS: usize = 2;
/// The first file descriptor a front end finds its links at (then the next ones).
const FIRST_LINK_FD: RawFd = 3;

/// Binds the port the front ends will share (`addr`'s port 0: a free one), without listening:
/// the queue manager accepts nothing on it, and it stays reserved while they restart.
pub(crate) fn reserve(addr: SocketAddr) -> std::io::Result<(socket2::Socket, SocketAddr)> {
    let s = shared_socket(addr)?;
    let bound = s
        .local_addr()?
        .as_socket()
        .ok_or_else(|| std::io::Error::other("not an IP address"))?;
    Ok((s, bound))
}

/// A socket bound to `addr` with SO_REUSEADDR and SO_REUSEPORT.
fn shared_socket(addr: SocketAddr) -> std::io::Result<socket2::Socket> {
    let s = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        None,
    )?;
    s.set_reuse_address(true)?;
    s.set_reuse_port(true)?;
    s.bind(&addr.into())?;
    Ok(s)
}

/// What the queue manager's side of the front ends needs.
pub(crate) struct Service {
    pub(crate) count: usize,
    pub(crate) addr: SocketAddr,
    pub(crate) backlog: u32,
    pub(crate) broker: Arc<ferry_mqtt::Broker>,
    pub(crate) slots: Arc<Semaphore>,
    pub(crate) grace: Duration,
}

/// Starts `service.count` front ends, each kept running by a task of its own until `stop`;
/// `reserved` (the port's socket) is held as long as they run.
pub(crate) fn start(
    service: Service,
    reserved: socket2::Socket,
    stop: &watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let service = Arc::new(service);
    let reserved = Arc::new(reserved);
    (0..service.count)
        .map(|i| {
            let (s, r, stop) = (service.clone(), reserved.clone(), stop.clone());
            tokio::spawn(async move {
                supervise(i, &s, stop).await;
                drop(r);
            })
        })
        .collect()
}

/// Runs front end `i`, starting it again a second after it ends, until `stop`.
async fn supervise(i: usize, s: &Service, mut stop: watch::Receiver<bool>) {
    while !*stop.borrow() {
        match launch(s) {
            Ok((child, links)) => {
                let pid = child.id();
                tracing::info!(front_end = i, pid, addr = %s.addr, "MQTT front end started");
                let (ended_tx, ended) = tokio::sync::oneshot::channel();
                std::thread::spawn(move || {
                    let mut child = child;
                    let _ = ended_tx.send(child.wait());
                });
                if serve_links(s, links, ended, &mut stop).await {
                    // Stopping: the links are closed, and the front end ends with them.
                    return;
                }
                tracing::warn!(
                    front_end = i,
                    pid,
                    "MQTT front end ended; starting it again"
                );
            }
            Err(e) => tracing::error!(front_end = i, error = %e, "cannot start an MQTT front end"),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = stop.changed() => {}
        }
    }
}

/// Serves the clients a front end opens on its links until it ends (false) or the service
/// stops (true; the clients are given the grace period to close).
async fn serve_links(
    s: &Service,
    links: Vec<tokio::net::UnixStream>,
    mut ended: tokio::sync::oneshot::Receiver<std::io::Result<std::process::ExitStatus>>,
    stop: &mut watch::Receiver<bool>,
) -> bool {
    let (opened, mut accepted) = mpsc::unbounded_channel();
    let _links: Vec<Arc<Link>> = links
        .into_iter()
        .map(|l| Link::start(l, Some(opened.clone())))
        .collect();
    drop(opened);
    let mut clients = JoinSet::new();
    let stopping = loop {
        tokio::select! {
            Some((stream, peer)) = accepted.recv() => serve_client(s, stream, peer, stop, &mut clients),
            _ = &mut ended => break false,
            _ = stop.changed() => break true,
            Some(_) = clients.join_next(), if !clients.is_empty() => {}
        }
    };
    let drained = tokio::time::timeout(s.grace, async {
        while clients.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        clients.abort_all();
    }
    stopping
}

/// One client a front end passed on: its MQTT session, while the service has room.
fn serve_client(
    s: &Service,
    stream: mux::Stream,
    peer: String,
    stop: &watch::Receiver<bool>,
    clients: &mut JoinSet<()>,
) {
    let Ok(slot) = s.slots.clone().try_acquire_owned() else {
        tracing::warn!(
            peer,
            "MQTT connection refused: the most clients are connected"
        );
        return;
    };
    let who = ferry_mqtt::Peer {
        addr: peer,
        channel: "SYSTEM.MQTT.TCP".into(),
        cert: None,
        rules: Default::default(),
    };
    let (b, stop) = (s.broker.clone(), stop.clone());
    clients.spawn(async move {
        Box::pin(ferry_mqtt::serve(stream, b, who, stop)).await;
        drop(slot);
    });
}

/// Starts a front-end process with its links; returns it and the queue manager's ends.
#[allow(unsafe_code)]
fn launch(s: &Service) -> std::io::Result<(std::process::Child, Vec<tokio::net::UnixStream>)> {
    use std::os::unix::process::CommandExt;
    let mut ours = Vec::with_capacity(LINKS);
    let mut theirs = Vec::with_capacity(LINKS);
    for _ in 0..LINKS {
        let (a, b) = std::os::unix::net::UnixStream::pair()?;
        ours.push(a);
        theirs.push(b);
    }
    let fds: Vec<RawFd> = theirs.iter().map(|t| t.as_raw_fd()).collect();
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    cmd.args(["mqtt-front-end", "--listen", &s.addr.to_string()])
        .args(["--backlog", &s.backlog.to_string(), "--links"])
        .arg(LINKS.to_string())
        // No transparent huge pages: a front end's heap is small, and the allocator's first
        // arenas backed by them cost ~6 MiB of a front end's ~12 (measured).
        .env("MIMALLOC_ALLOW_THP", "0")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null());
    // SAFETY: between fork and exec the closure calls only fcntl, dup2 and close, which are
    // async-signal-safe, on descriptors this process owns (`theirs` lives until after spawn).
    unsafe {
        cmd.pre_exec(move || {
            // Out of the way first (above the targets), then into place without CLOEXEC.
            let mut high = [0; LINKS];
            for (h, fd) in high.iter_mut().zip(&fds) {
                *h = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 64);
                if *h < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            for (i, h) in high.iter().enumerate() {
                if libc::dup2(*h, FIRST_LINK_FD + i as RawFd) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(*h);
            }
            Ok(())
        });
    }
    let child = cmd.spawn()?;
    drop(theirs);
    let ours = ours
        .into_iter()
        .map(|o| {
            o.set_nonblocking(true)?;
            tokio::net::UnixStream::from_std(o)
        })
        .collect::<std::io::Result<_>>()?;
    Ok((child, ours))
}

/// The front end's process (`ferry mqtt-front-end`, started by the queue manager): accepts
/// MQTT clients on `listen` beside the other front ends and carries each one's bytes over one
/// of its `links` (inherited at descriptors 3, 4, ...), in turn. Returns when the links end.
#[allow(unsafe_code)]
pub fn run_front_end(listen: SocketAddr, backlog: u32, links: usize) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let socket = shared_socket(listen)?;
        socket.listen(backlog.max(1) as i32)?;
        socket.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(socket.into())?;
        let mut ends = Vec::with_capacity(links);
        for i in 0..links {
            // SAFETY: the queue manager placed link i's socket at this descriptor for this
            // process, and nothing else here owns it.
            let s =
                unsafe { std::os::unix::net::UnixStream::from_raw_fd(FIRST_LINK_FD + i as RawFd) };
            s.set_nonblocking(true)?;
            ends.push(Link::start(tokio::net::UnixStream::from_std(s)?, None));
        }
        accept_clients(&listener, &ends).await;
        Ok(())
    })
}

/// Accepts clients and hands each to a link in turn, until every link has ended.
async fn accept_clients(listener: &tokio::net::TcpListener, links: &[Arc<Link>]) {
    let mut next: u32 = 0;
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, addr)) => {
                    next = next.wrapping_add(1);
                    let link = &links[next as usize % links.len()];
                    let _ = tcp.set_nodelay(true);
                    let stream = link.open(next, &addr.to_string());
                    tokio::spawn(pump(tcp, stream));
                }
                // Out of descriptors, most likely: others take the port's clients meanwhile.
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            },
            _ = tokio::time::sleep(Duration::from_secs(1)) => {
                if links.iter().all(|l| l.ended()) {
                    return;
                }
            }
        }
    }
}

/// Carries one client's bytes both ways until either side ends. Holds no buffer while idle:
/// a read's bytes are copied out of a stack buffer before anything is awaited.
async fn pump(tcp: TcpStream, stream: mux::Stream) {
    let up = async {
        loop {
            tcp.readable().await?;
            let chunk = {
                let mut b = [0u8; mux::MAX_DATA];
                match tcp.try_read(&mut b) {
                    Ok(0) => return Ok(()),
                    Ok(n) => bytes::Bytes::copy_from_slice(&b[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                    Err(e) => return Err(e),
                }
            };
            stream.send(&chunk).await?;
        }
    };
    let down = async {
        while let Some(mut chunk) = stream.next_chunk().await {
            while !chunk.is_empty() {
                tcp.writable().await?;
                match tcp.try_write(&chunk) {
                    Ok(n) => bytes::Buf::advance(&mut chunk, n),
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok::<(), std::io::Error>(())
    };
    tokio::select! {
        _ = up => {}
        _ = down => {}
    }
}
