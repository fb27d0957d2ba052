//! MQTT front-end processes (`[mqtt] front_ends`): a process may hold 20,000 file descriptors
//! here, so more MQTT clients than that are accepted by several processes sharing the ports
//! (SO_REUSEPORT; the kernel spreads connections across them), each carrying its clients' bytes
//! to the queue manager over [`LINKS`] local links (`mux.rs`) — socket pairs made by the queue
//! manager and inherited, so nothing else can reach them. The queue manager holds every
//! client's session, as with its own listener: one owner per client id across front ends, one
//! set of objects, statuses and metrics (the clients show under `SYSTEM.MQTT.TCP`, `.TLS`,
//! `.WS` or `.WSS`, as they would without front ends).
//!
//! Every `[mqtt]` listener goes through the front ends: in the clear, over TLS, over WebSocket
//! and over secure WebSocket. A front end makes the TLS handshake (the server's certificate,
//! the client CA's check of a client certificate, within the connect timeout) and passes on
//! the clear bytes; the `OPEN` of a client's stream says which listener it came on, its
//! address and the client certificate it presented (DER), from which the queue manager takes
//! the distinguished name as for its own TLS clients. The WebSocket handshake is the queue
//! manager's, on the stream.
//!
//! The queue manager starts the front ends with the service and keeps them running: one that
//! ends is started again a second later (its clients' connections ended with it and they
//! reconnect through the others). A front end ends when its links do — when the queue manager
//! stops or dies. The queue manager itself keeps the ports bound (not listening), so they stay
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
/// TLS handshakes a front end makes at once; a client beyond them is closed at accept (before
/// authentication, clients are bounded: each handshake within the connect timeout, this many).
const MAX_HANDSHAKES: usize = 1024;
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

/// Which `[mqtt]` listener a client came on (the first byte of its stream's `OPEN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    Tcp = 0,
    Tls = 1,
    Ws = 2,
    Wss = 3,
}

impl Entry {
    fn from_code(code: u8) -> Option<Entry> {
        [Entry::Tcp, Entry::Tls, Entry::Ws, Entry::Wss]
            .into_iter()
            .find(|e| *e as u8 == code)
    }

    fn tls(self) -> bool {
        matches!(self, Entry::Tls | Entry::Wss)
    }

    fn ws(self) -> bool {
        matches!(self, Entry::Ws | Entry::Wss)
    }

    /// The front end's option naming its address.
    fn option(self) -> &'static str {
        match self {
            Entry::Tcp => "--listen",
            Entry::Tls => "--tls-listen",
            Entry::Ws => "--ws-listen",
            Entry::Wss => "--wss-listen",
        }
    }
}

/// An `OPEN`'s payload: `[entry][address length][address][client certificate, DER]` (no
/// certificate: nothing after the address).
fn opening(entry: Entry, peer: &str, cert: Option<&[u8]>) -> Vec<u8> {
    let peer = &peer.as_bytes()[..peer.len().min(255)];
    let mut out = vec![entry as u8, peer.len() as u8];
    out.extend_from_slice(peer);
    out.extend_from_slice(cert.unwrap_or_default());
    out
}

/// Who an `OPEN` says the client is: the listener, its address and certificate.
fn opened(payload: &[u8]) -> Option<(Entry, String, Option<&[u8]>)> {
    let (&code, rest) = payload.split_first()?;
    let (&len, rest) = rest.split_first()?;
    let peer = rest.get(..usize::from(len))?;
    let cert = &rest[usize::from(len)..];
    let peer = std::str::from_utf8(peer).ok()?.to_owned();
    Some((
        Entry::from_code(code)?,
        peer,
        (!cert.is_empty()).then_some(cert),
    ))
}

/// What the queue manager's side of the front ends needs.
pub(crate) struct Service {
    pub(crate) count: usize,
    /// The listeners the front ends share, each bound by the queue manager.
    pub(crate) addrs: Vec<(Entry, SocketAddr)>,
    /// The server's certificate, for the TLS ones.
    pub(crate) tls: Option<crate::TlsSettings>,
    pub(crate) backlog: u32,
    pub(crate) broker: Arc<ferry_mqtt::Broker>,
    pub(crate) slots: Arc<Semaphore>,
    pub(crate) grace: Duration,
}

/// Starts `service.count` front ends, each kept running by a task of its own until `stop`;
/// `reserved` (the ports' sockets) are held as long as they run.
pub(crate) fn start(
    service: Service,
    reserved: Vec<socket2::Socket>,
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
                let addrs: Vec<String> = s.addrs.iter().map(|(_, a)| a.to_string()).collect();
                tracing::info!(front_end = i, pid, addrs = %addrs.join(" "), "MQTT front end started");
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
            Some((stream, about)) = accepted.recv() => serve_client(s, stream, &about, stop, &mut clients),
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

/// One client a front end passed on: its MQTT session (after the WebSocket handshake, for a
/// WebSocket listener's), while the service has room.
fn serve_client(
    s: &Service,
    stream: mux::Stream,
    about: &[u8],
    stop: &watch::Receiver<bool>,
    clients: &mut JoinSet<()>,
) {
    let Some((entry, peer, cert)) = opened(about) else {
        return tracing::warn!("MQTT front end opened a stream without saying whose: closed");
    };
    let Ok(slot) = s.slots.clone().try_acquire_owned() else {
        tracing::warn!(
            peer,
            "MQTT connection refused: the most clients are connected"
        );
        return;
    };
    let cert = cert.map(|der| rustls::pki_types::CertificateDer::from(der.to_vec()));
    let who = ferry_mqtt::Peer {
        addr: peer,
        channel: crate::mqtt::service_channel(entry.tls(), entry.ws()).into(),
        cert: crate::tls::peer_dn(cert.as_ref().map(std::slice::from_ref)),
        rules: Default::default(),
    };
    let (b, stop) = (s.broker.clone(), stop.clone());
    clients.spawn(async move {
        if entry.ws() {
            let ws = crate::mqtt::Ws::Always;
            Box::pin(crate::mqtt::over_ws(stream, ws, b, who, stop)).await;
        } else {
            Box::pin(ferry_mqtt::serve(stream, b, who, stop)).await;
        }
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
    cmd.arg("mqtt-front-end");
    for (entry, addr) in &s.addrs {
        cmd.args([entry.option(), &addr.to_string()]);
    }
    if let Some(t) = &s.tls {
        cmd.arg("--tls-cert").arg(&t.cert_chain);
        cmd.arg("--tls-key").arg(&t.key);
        if let Some(ca) = &t.client_ca {
            cmd.arg("--tls-client-ca").arg(ca);
        }
    }
    let handshake = s.broker.settings.connect_timeout.as_millis().to_string();
    cmd.args(["--handshake-ms", &handshake])
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

/// What a front-end process (`ferry mqtt-front-end`) serves: the `[mqtt]` listeners it shares
/// with the others, the server's certificate for the TLS ones and the time a TLS handshake may
/// take.
#[derive(Debug, Clone)]
pub struct FrontEnd {
    /// MQTT in the clear.
    pub listen: Option<SocketAddr>,
    /// MQTT over TLS.
    pub tls_listen: Option<SocketAddr>,
    /// MQTT over WebSocket.
    pub ws_listen: Option<SocketAddr>,
    /// MQTT over secure WebSocket.
    pub wss_listen: Option<SocketAddr>,
    /// The server's certificate, key and client CA (for `tls_listen` and `wss_listen`).
    pub tls: Option<crate::TlsSettings>,
    /// The longest a TLS handshake may take.
    pub handshake: Duration,
    /// Each listener's backlog.
    pub backlog: u32,
    /// Links inherited at descriptors 3, 4, ...
    pub links: usize,
}

impl FrontEnd {
    fn entries(&self) -> impl Iterator<Item = (Entry, SocketAddr)> {
        let each = [
            (Entry::Tcp, self.listen),
            (Entry::Tls, self.tls_listen),
            (Entry::Ws, self.ws_listen),
            (Entry::Wss, self.wss_listen),
        ];
        each.into_iter().filter_map(|(e, a)| Some((e, a?)))
    }
}

/// The front end's process (`ferry mqtt-front-end`, started by the queue manager): accepts
/// MQTT clients on its listeners beside the other front ends and carries each one's bytes over
/// one of its links (inherited at descriptors 3, 4, ...), in turn. Returns when the links end.
#[allow(unsafe_code)]
pub fn run_front_end(f: FrontEnd) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let acceptor = match &f.tls {
            Some(t) => Some(tokio_rustls::TlsAcceptor::from(
                crate::tls::server_config(t).map_err(|e| std::io::Error::other(e.0))?,
            )),
            None => None,
        };
        let mut ends = Vec::with_capacity(f.links);
        for i in 0..f.links {
            // SAFETY: the queue manager placed link i's socket at this descriptor for this
            // process, and nothing else here owns it.
            let s =
                unsafe { std::os::unix::net::UnixStream::from_raw_fd(FIRST_LINK_FD + i as RawFd) };
            s.set_nonblocking(true)?;
            ends.push(Link::start(tokio::net::UnixStream::from_std(s)?, None));
        }
        let ends: Arc<[Arc<Link>]> = ends.into();
        let next = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let handshakes = Arc::new(Semaphore::new(MAX_HANDSHAKES));
        let mut accepting = JoinSet::new();
        for (entry, addr) in f.entries() {
            let socket = shared_socket(addr)?;
            socket.listen(f.backlog.max(1) as i32)?;
            socket.set_nonblocking(true)?;
            let listener = tokio::net::TcpListener::from_std(socket.into())?;
            let tls = match (entry.tls(), &acceptor) {
                (false, _) => None,
                (true, Some(a)) => Some(Tls {
                    acceptor: a.clone(),
                    limit: f.handshake,
                    handshakes: handshakes.clone(),
                }),
                (true, None) => {
                    return Err(std::io::Error::other(
                        "a TLS listener needs --tls-cert and --tls-key",
                    ))
                }
            };
            let (ends, next) = (ends.clone(), next.clone());
            accepting
                .spawn(async move { accept_clients(&listener, entry, tls, &ends, &next).await });
        }
        while ends.iter().any(|l| !l.ended()) {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        accepting.abort_all();
        Ok(())
    })
}

/// How a front end's TLS listeners make their handshakes.
#[derive(Clone)]
struct Tls {
    acceptor: tokio_rustls::TlsAcceptor,
    /// The longest a handshake may take.
    limit: Duration,
    /// Handshakes under way, at most [`MAX_HANDSHAKES`].
    handshakes: Arc<Semaphore>,
}

/// Accepts clients on one listener and hands each to a link in turn (a TLS client once its
/// handshake is done, within the time given), until every link has ended.
async fn accept_clients(
    listener: &tokio::net::TcpListener,
    entry: Entry,
    tls: Option<Tls>,
    links: &Arc<[Arc<Link>]>,
    next: &std::sync::atomic::AtomicU32,
) {
    loop {
        let (tcp, addr) = match listener.accept().await {
            Ok(a) => a,
            // Out of descriptors, most likely: others take the port's clients meanwhile.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let id = next
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .wrapping_add(1);
        let link = links[id as usize % links.len()].clone();
        let _ = tcp.set_nodelay(true);
        let Some(t) = tls.clone() else {
            let stream = link.open(id, &opening(entry, &addr.to_string(), None));
            tokio::spawn(pump(tcp, stream));
            continue;
        };
        let Ok(permit) = t.handshakes.try_acquire_owned() else {
            tracing::debug!(peer = %addr, "MQTT TLS client closed: {MAX_HANDSHAKES} handshakes under way");
            continue;
        };
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(t.limit, t.acceptor.accept(tcp)).await;
            drop(permit);
            let Ok(Ok(tls)) = handshake else {
                return;
            };
            let cert = tls.get_ref().1.peer_certificates().and_then(|c| c.first());
            let about = opening(entry, &addr.to_string(), cert.map(|c| c.as_ref()));
            if about.len() > mux::MAX_DATA {
                return tracing::warn!(peer = %addr, "MQTT client certificate too large to pass on");
            }
            let stream = link.open(id, &about);
            pump_io(tls, stream).await;
        });
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

/// [`pump`] for a stream that keeps its own buffers (TLS): each read goes into a buffer on the
/// stack for the time of one poll, so an idle client holds none of ours.
async fn pump_io<S>(io: S, stream: mux::Stream)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncRead, AsyncWriteExt};
    let (mut rd, mut wr) = tokio::io::split(io);
    let up = async {
        loop {
            let chunk = std::future::poll_fn(|cx| {
                let mut b = [0u8; mux::MAX_DATA];
                let mut rb = tokio::io::ReadBuf::new(&mut b);
                std::pin::Pin::new(&mut rd)
                    .poll_read(cx, &mut rb)
                    .map_ok(|()| bytes::Bytes::copy_from_slice(rb.filled()))
            })
            .await?;
            if chunk.is_empty() {
                return Ok::<(), std::io::Error>(());
            }
            stream.send(&chunk).await?;
        }
    };
    let down = async {
        while let Some(chunk) = stream.next_chunk().await {
            wr.write_all(&chunk).await?;
            wr.flush().await?;
        }
        wr.shutdown().await
    };
    tokio::select! {
        _ = up => {}
        _ = down => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opens_payload_says_the_listener_the_address_and_the_certificate() {
        let p = opening(Entry::Wss, "10.0.0.7:5123", Some(b"DER bytes"));
        let (e, peer, cert) = opened(&p).unwrap();
        assert_eq!(
            (e, peer.as_str(), cert),
            (Entry::Wss, "10.0.0.7:5123", Some(&b"DER bytes"[..]))
        );
        let p = opening(Entry::Tcp, "127.0.0.1:9", None);
        assert_eq!(
            opened(&p).unwrap(),
            (Entry::Tcp, "127.0.0.1:9".into(), None)
        );
        // Short, unknown listeners and addresses longer than the payload are refused.
        assert!(opened(&[]).is_none());
        assert!(opened(&[9, 0]).is_none());
        assert!(opened(&[0, 20, b'1']).is_none());
    }
}
