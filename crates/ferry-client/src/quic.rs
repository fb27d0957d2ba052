//! QUIC (`quic://HOST:PORT`, and sender channels with TRPTYPE(QUIC)): one QUIC connection a
//! FerryMQ connection, its frames on one bidirectional stream — the same bytes TCP carries —
//! with TLS 1.3 inside and the congestion control in user space (quinn: BBR by default).
//!
//! Identity: with TLS options the server's certificate is checked against their CA (and the
//! client presents its own, as over `tls://`); without them the link is encrypted but the
//! server's certificate is taken as it comes (it must still prove it holds the key), as a
//! plain TCP connection takes whoever answers — the password then proves the client, as over
//! TCP.
//!
//! Windows: a connection's send window (the stream data it may hold unacknowledged) and its
//! receive window (flow control) start at [`INITIAL_WINDOW`] and follow four times the measured
//! bandwidth-delay product each way ([`follow_bdp`]: bytes a quarter second × round trip) up
//! to [`QuicOptions::window`] (default 16 MiB: 1 Gbit/s over 128 ms), so a long fast link is
//! not held to a window a round trip and a short or slow one holds little memory; a stream's
//! own receive window is the most. The UDP socket's buffers are raised to [`UDP_BUFFER`], with
//! a warning when the system caps them lower.
//!
//! The blocking client drives its connection from a process-wide runtime with one thread
//! (`ferry-quic`); the reading and writing halves each hold one end of the stream.
//!
//! Lanes: a sender channel may also write whole frames (fast batches) on up to `LANES - 1`
//! unidirectional streams it opens ([`QuicStream::write_lane`]), once the receiver has agreed
//! to them at ChannelStart; the receiver merges whole frames from every stream and answers on
//! the first.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use ferry_model::{MqError, MqResult, Reason};

mod bound;

/// Streams a sender channel may spread its fast batches over: the connection's first stream
/// and `LANES - 1` unidirectional ones (lanes) the sender opens — one lost packet then holds up
/// only the batches on its own stream.
pub const LANES: u32 = 16;
/// The application protocol both ends name in the handshake.
pub const ALPN: &[u8] = b"ferrymq/1";
/// Default of the most a connection's send and receive windows grow to, bytes.
pub const DEFAULT_WINDOW: u64 = 16 << 20;
/// The send and receive windows a connection starts with (or the most, when smaller).
pub const INITIAL_WINDOW: u64 = 4 << 20;
/// The least a receiving channel's connection keeps its receive window at, once the channel
/// has started (or the most, when smaller): three of the default BATCHLIM's fast batches
/// (5,000 KiB, a frame each), so that a batch larger than [`INITIAL_WINDOW`] does not cross
/// the link in lock-step with the receiver's reading on a short link, whose bandwidth-delay
/// product is small. (Before any channel starts the window stays within the initial one: a
/// client that has not authenticated is held to it.)
pub const CHANNEL_RECEIVE_WINDOW: u64 = 16 << 20;
/// How often [`follow_bdp`] sizes a connection's windows again.
const TUNE_EVERY: Duration = Duration::from_millis(250);
/// A window is this many bandwidth-delay products. It holds what is in flight (one) and, on a
/// lossy link, what is sent behind a lost packet until that is recovered (stream data leaves a
/// window in order: about one and a half more); four keeps a window that bounds the rate
/// growing (it measures only what it let through: 4 / 2.5 > 1).
pub const BDP_MULTIPLE: f64 = 4.0;
/// The UDP socket buffer size a connecting endpoint asks for, each direction.
pub const UDP_BUFFER: usize = 8 << 20;
/// The UDP socket buffer size a listening endpoint asks for, each direction: one socket takes
/// the packets of every connection it serves, and whatever arrives while the queue manager's
/// I/O thread is busy waits there (the kernel counts each packet at about one and a half times
/// its length). Ten channels at 1 Gbit/s between them fill 8 MiB in about 40 ms.
pub const LISTENER_UDP_BUFFER: usize = 32 << 20;
/// How long a QUIC connection attempt may take before it counts as failed.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// A connection with nothing received for this long is dead (heartbeats keep a live one busy).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// QUIC settings beside the TLS options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuicOptions {
    /// Congestion control: `bbr` (also when empty), `cubic` or `newreno`.
    pub congestion: String,
    /// The most the send and receive windows grow to, bytes; 0 for [`DEFAULT_WINDOW`].
    pub window: u64,
    /// Streams a sender channel offers to spread its fast batches over (1 to [`LANES`]; 0
    /// for [`LANES`]; 1 keeps every batch on the one stream, in the order sent).
    pub lanes: u32,
}

impl QuicOptions {
    /// The lanes these options offer: [`QuicOptions::lanes`] within 1 to [`LANES`].
    pub fn lanes_offered(&self) -> u32 {
        match self.lanes {
            0 => LANES,
            n => n.min(LANES),
        }
    }
}

/// The transport settings both ends use: windows (a stream's receive window `window`, the
/// connection's send and receive windows starting at [`INITIAL_WINDOW`] for [`follow_bdp`] to
/// size), idle timeout, keep-alive and congestion control. An unknown congestion control name
/// is an error a person can act on.
pub fn transport_config(congestion: &str, window: u64) -> Result<quinn::TransportConfig, String> {
    use quinn::congestion::{BbrConfig, CubicConfig, NewRenoConfig};
    let window = if window == 0 { DEFAULT_WINDOW } else { window };
    let vwindow = quinn::VarInt::from_u64(window).map_err(|e| e.to_string())?;
    let initial = window.min(INITIAL_WINDOW);
    let mut t = quinn::TransportConfig::default();
    t.stream_receive_window(vwindow)
        .receive_window(quinn::VarInt::from_u64(initial).map_err(|e| e.to_string())?)
        .send_window(initial)
        .max_concurrent_uni_streams(0u32.into())
        .max_concurrent_bidi_streams(4u32.into())
        .keep_alive_interval(Some(Duration::from_secs(10)));
    t.max_idle_timeout(Some(IDLE_TIMEOUT.try_into().map_err(|e| format!("{e}"))?));
    let inner: Arc<dyn ControllerFactory + Send + Sync> = match congestion {
        "" | "bbr" => Arc::new(BbrConfig::default()),
        "cubic" => Arc::new(CubicConfig::default()),
        "newreno" | "reno" => Arc::new(NewRenoConfig::default()),
        other => {
            return Err(format!(
                "QUIC has no congestion control {other:?}: use bbr (DEFAULT), cubic or newreno"
            ))
        }
    };
    let bounded = matches!(congestion, "" | "bbr");
    t.congestion_controller_factory(Arc::new(Watched(inner, bounded)));
    Ok(t)
}

/// Keeps a connection's send and receive windows at [`BDP_MULTIPLE`] times its measured
/// bandwidth-delay product each way — bytes sent (received) a period × the smoothed round
/// trip; the send window at least twice the congestion window, as Linux sizes a TCP socket's
/// send buffer — between [`INITIAL_WINDOW`] and `max` ([`next_window`]); the receive window
/// at least `recv_floor()` too, asked each period. Runs until dropped.
pub async fn follow_bdp(conn: &quinn::Connection, max: u64, recv_floor: impl Fn() -> u64) {
    let floor = max.min(INITIAL_WINDOW);
    let s = conn.stats();
    let (mut tx, mut rx) = (s.udp_tx.bytes, s.udp_rx.bytes);
    let (mut send, mut recv) = (floor, floor);
    loop {
        tokio::time::sleep(TUNE_EVERY).await;
        let recv_least = max.min(recv_floor().max(floor));
        let s = conn.stats();
        let rtt = s.path.rtt.as_secs_f64();
        let bdp =
            |bytes: u64| (BDP_MULTIPLE * bytes as f64 / TUNE_EVERY.as_secs_f64() * rtt) as u64;
        let want_send = bdp(s.udp_tx.bytes.saturating_sub(tx)).max(2 * s.path.cwnd);
        let want_recv = bdp(s.udp_rx.bytes.saturating_sub(rx));
        (tx, rx) = (s.udp_tx.bytes, s.udp_rx.bytes);
        let next = next_window(send, want_send, floor, max);
        if next != send {
            send = next;
            conn.set_send_window(send);
        }
        let next = next_window(recv, want_recv, recv_least, max);
        if next != recv {
            recv = next;
            conn.set_receive_window(quinn::VarInt::from_u64(recv).unwrap_or(quinn::VarInt::MAX));
        }
    }
}

/// A window's next size, from `now` and what the last period measured (`want`): up to `want`
/// at once, down by at most a quarter a period (a pause of a moment does not cost a long link
/// its window; an idle connection is back at `floor` within seconds), within `floor..=max`.
pub fn next_window(now: u64, want: u64, floor: u64, max: u64) -> u64 {
    debug_assert!(floor <= max, "floor {floor} above max {max}");
    want.max(now - now / 4).clamp(floor, max)
}

use quinn::congestion::{Controller, ControllerFactory, ControllerMetrics};

/// Builds the chosen congestion controller wrapped in [`WatchedController`], which keeps the
/// bytes in flight where channel status can read them (quinn's statistics give the congestion
/// window, not what is in flight) and, when the second field is set (BBR), bounds them after
/// a round of heavy loss and keeps a floor under them on a short link ([`bound`]).
struct Watched(Arc<dyn ControllerFactory + Send + Sync>, bool);

impl ControllerFactory for Watched {
    fn build(self: Arc<Self>, now: std::time::Instant, current_mtu: u16) -> Box<dyn Controller> {
        Box::new(WatchedController {
            inner: self.0.clone().build(now, current_mtu),
            in_flight: 0,
            bound: self.1.then(|| bound::LossBound::new(now, current_mtu)),
        })
    }
}

/// A congestion controller that also counts the bytes in flight: up by each packet sent, down
/// by each acknowledged or lost, and set to quinn's own count at the end of each batch of
/// acknowledgements. Its window is the wrapped controller's — for BBR at least
/// [`bound::hiccup_floor`] of its pacing rate and within the loss bound
/// ([`bound::LossBound`]). Everything else is the wrapped controller's.
struct WatchedController {
    inner: Box<dyn Controller>,
    in_flight: u64,
    bound: Option<bound::LossBound>,
}

impl Controller for WatchedController {
    fn on_sent(&mut self, now: std::time::Instant, bytes: u64, last_packet_number: u64) {
        self.in_flight = self.in_flight.saturating_add(bytes);
        if let Some(b) = &mut self.bound {
            b.sent(self.in_flight);
        }
        self.inner.on_sent(now, bytes, last_packet_number);
    }

    fn on_ack(
        &mut self,
        now: std::time::Instant,
        sent: std::time::Instant,
        bytes: u64,
        app_limited: bool,
        rtt: &quinn_proto::RttEstimator,
    ) {
        self.in_flight = self.in_flight.saturating_sub(bytes);
        if let Some(b) = &mut self.bound {
            b.acked(now, bytes, rtt.get(), self.in_flight);
        }
        self.inner.on_ack(now, sent, bytes, app_limited, rtt);
    }

    fn on_end_acks(
        &mut self,
        now: std::time::Instant,
        in_flight: u64,
        app_limited: bool,
        largest_packet_num_acked: Option<u64>,
    ) {
        self.in_flight = in_flight;
        self.inner
            .on_end_acks(now, in_flight, app_limited, largest_packet_num_acked);
    }

    fn on_congestion_event(
        &mut self,
        now: std::time::Instant,
        sent: std::time::Instant,
        is_persistent_congestion: bool,
        lost_bytes: u64,
    ) {
        self.in_flight = self.in_flight.saturating_sub(lost_bytes);
        if let Some(b) = &mut self.bound {
            b.lost(lost_bytes);
        }
        self.inner
            .on_congestion_event(now, sent, is_persistent_congestion, lost_bytes);
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        if let Some(b) = &mut self.bound {
            b.set_mtu(new_mtu);
        }
        self.inner.on_mtu_update(new_mtu);
    }

    fn window(&self) -> u64 {
        let Some(b) = &self.bound else {
            return self.inner.window();
        };
        // BBR's window and pacing rate (bits/s), for the floor of what it keeps in flight.
        let m = self.inner.metrics();
        let rate = m.pacing_rate.unwrap_or(0) / 8;
        b.window(m.congestion_window.max(bound::hiccup_floor(rate)))
    }

    fn metrics(&self) -> ControllerMetrics {
        self.inner.metrics()
    }

    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(WatchedController {
            inner: self.inner.clone_box(),
            in_flight: self.in_flight,
            bound: self.bound.clone(),
        })
    }

    fn initial_window(&self) -> u64 {
        self.inner.initial_window()
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

/// The bytes in flight on `conn` as its [`WatchedController`] counts them (0 for a
/// connection whose controller is not one).
fn in_flight(conn: &quinn::Connection) -> u64 {
    conn.congestion_state()
        .into_any()
        .downcast::<WatchedController>()
        .map_or(0, |w| w.in_flight)
}

/// The congestion control name [`transport_config`] runs for `congestion`.
pub fn congestion_name(congestion: &str) -> &'static str {
    match congestion {
        "cubic" => "cubic",
        "newreno" | "reno" => "newreno",
        _ => "bbr",
    }
}

/// A UDP socket bound to `addr` with buffers of `size` bytes asked for (forced past the
/// system's cap where the process may); what the system granted below that is the warning's
/// text.
pub fn udp_socket(
    addr: SocketAddr,
    size: usize,
) -> io::Result<(std::net::UdpSocket, Option<String>)> {
    use std::os::fd::AsFd;
    let sock = std::net::UdpSocket::bind(addr)?;
    let fd = sock.as_fd();
    use nix::sys::socket::{getsockopt, setsockopt, sockopt};
    // A process with CAP_NET_ADMIN may pass the system's cap (net.core.rmem_max, wmem_max);
    // any other asks within it.
    if setsockopt(&fd, sockopt::RcvBufForce, &size).is_err() {
        let _ = setsockopt(&fd, sockopt::RcvBuf, &size);
    }
    if setsockopt(&fd, sockopt::SndBufForce, &size).is_err() {
        let _ = setsockopt(&fd, sockopt::SndBuf, &size);
    }
    // Linux reports twice what it grants (its bookkeeping's share).
    let granted = [
        ("receive", getsockopt(&fd, sockopt::RcvBuf).unwrap_or(0) / 2),
        ("send", getsockopt(&fd, sockopt::SndBuf).unwrap_or(0) / 2),
    ];
    let short: Vec<String> = granted
        .iter()
        .filter(|(_, got)| *got < size)
        .map(|(dir, got)| format!("{dir} {} KiB", got >> 10))
        .collect();
    let warning = (!short.is_empty()).then(|| {
        format!(
            "the system caps this QUIC socket's UDP buffers ({} of {} KiB asked); a fast long link may lose packets in them: raise net.core.rmem_max and net.core.wmem_max",
            short.join(", "),
            size >> 10
        )
    });
    Ok((sock, warning))
}

/// The process-wide runtime blocking clients drive their QUIC connections from.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ferry-quic")
            .enable_all()
            .build()
            .expect("the QUIC runtime starts")
    })
}

fn unavailable(addr: &str, e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::QMgrNotAvailable,
        format!("cannot reach {addr} over QUIC: {e}; is the queue manager's quic_listen set there, and UDP let through?"),
    )
}

/// Accepts any server certificate whose key signs the handshake: for connections without TLS
/// options (see the module head).
#[derive(Debug)]
struct AnyServer(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for AnyServer {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &rustls::pki_types::CertificateDer<'_>,
        _dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::PeerIncompatible(
            rustls::PeerIncompatible::Tls12NotOffered,
        ))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The QUIC client configuration for these options.
fn client_config(opts: &crate::ClientOptions) -> io::Result<quinn::ClientConfig> {
    let mut tls = match &opts.tls {
        Some(t) => crate::stream::client_config_owned(t)?,
        None => {
            let provider = Arc::new(rustls::crypto::ring::default_provider());
            rustls::ClientConfig::builder_with_provider(provider.clone())
                .with_protocol_versions(&[&rustls::version::TLS13])
                .map_err(io::Error::other)?
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AnyServer(provider)))
                .with_no_client_auth()
        }
    };
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let crypto =
        quinn::crypto::rustls::QuicClientConfig::try_from(tls).map_err(io::Error::other)?;
    let mut config = quinn::ClientConfig::new(Arc::new(crypto));
    let transport = transport_config(&opts.quic.congestion, opts.quic.window)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    config.transport_config(Arc::new(transport));
    Ok(config)
}

/// A connected QUIC connection and its one stream, both directions.
pub(crate) struct Opened {
    pub endpoint: quinn::Endpoint,
    pub conn: quinn::Connection,
    pub send: quinn::SendStream,
    pub recv: quinn::RecvStream,
}

/// Connects to `addr` (HOST:PORT) over QUIC, on the current tokio runtime, within
/// [`CONNECT_TIMEOUT`].
pub(crate) async fn open(addr: &str, opts: &crate::ClientOptions) -> MqResult<Opened> {
    let target = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| unavailable(addr, e))?
        .next()
        .ok_or_else(|| unavailable(addr, "the name resolves to no address"))?;
    let local: SocketAddr = if target.is_ipv4() {
        (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
    } else {
        (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
    };
    let (sock, warning) = udp_socket(local, UDP_BUFFER).map_err(|e| unavailable(addr, e))?;
    if let Some(w) = warning {
        tracing::warn!(peer = %addr, "{w}");
    }
    let endpoint = quinn::Endpoint::new(
        quinn::EndpointConfig::default(),
        None,
        sock,
        Arc::new(quinn::TokioRuntime),
    )
    .map_err(|e| unavailable(addr, e))?;
    let config = client_config(opts).map_err(|e| {
        MqError::new(
            Reason::OptionsError,
            format!("the QUIC settings for {addr} are not usable: {e}"),
        )
    })?;
    let host = opts
        .tls
        .as_ref()
        .and_then(|t| t.server_name.clone())
        .unwrap_or_else(|| host_of(addr).to_owned());
    let attempt = async {
        let connecting = endpoint
            .connect_with(config, target, &host)
            .map_err(|e| unavailable(addr, e))?;
        let conn = connecting.await.map_err(|e| unavailable(addr, e))?;
        let (send, recv) = conn.open_bi().await.map_err(|e| unavailable(addr, e))?;
        Ok::<_, MqError>((conn, send, recv))
    };
    let (conn, send, recv) = tokio::time::timeout(CONNECT_TIMEOUT, attempt)
        .await
        .map_err(|_| {
            unavailable(
                addr,
                format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()),
            )
        })??;
    // Its windows follow the link until it closes (every owner closes it when done).
    let tuned = conn.clone();
    let max = match opts.quic.window {
        0 => DEFAULT_WINDOW,
        n => n,
    };
    tokio::spawn(async move {
        tokio::select! {
            _ = follow_bdp(&tuned, max, || INITIAL_WINDOW) => {}
            _ = tuned.closed() => {}
        }
    });
    Ok(Opened {
        endpoint,
        conn,
        send,
        recv,
    })
}

fn host_of(addr: &str) -> &str {
    addr.rsplit_once(':')
        .map_or(addr, |(h, _)| h)
        .trim_matches(['[', ']'])
}

/// What QUIC knows of a connection's path, for channel status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuicFigures {
    /// Smoothed round-trip time.
    pub rtt: Duration,
    /// Packets sent, and declared lost, over the connection's life.
    pub sent_packets: u64,
    pub lost_packets: u64,
    /// The congestion window, bytes.
    pub cwnd: u64,
    /// Bytes sent and neither acknowledged nor declared lost.
    pub in_flight: u64,
    /// UDP payload bytes sent over the connection's life.
    pub sent_bytes: u64,
}

/// Figures of a QUIC connection.
pub(crate) fn figures(conn: &quinn::Connection) -> QuicFigures {
    let s = conn.stats();
    QuicFigures {
        rtt: s.path.rtt,
        sent_packets: s.path.sent_packets,
        lost_packets: s.path.lost_packets,
        cwnd: s.path.cwnd,
        in_flight: in_flight(conn),
        sent_bytes: s.udp_tx.bytes,
    }
}

/// The blocking client's QUIC stream: both halves share the connection; the reader holds the
/// receiving end, the writer the sending end.
pub(crate) struct QuicStream {
    link: Arc<Link>,
    read_timeout: Option<Duration>,
    /// The lanes a sender channel over this connection offers.
    lanes: u32,
}

struct Link {
    conn: quinn::Connection,
    _endpoint: quinn::Endpoint,
    send: Mutex<quinn::SendStream>,
    recv: Mutex<quinn::RecvStream>,
    /// The lanes opened so far: lane `i` (from 1) is `lanes[i - 1]`.
    lanes: Mutex<Vec<quinn::SendStream>>,
}

impl Drop for Link {
    fn drop(&mut self) {
        self.conn.close(0u32.into(), b"closed");
    }
}

impl std::fmt::Debug for QuicStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuicStream")
            .field("peer", &self.link.conn.remote_address())
            .finish()
    }
}

impl QuicStream {
    /// Connects (blocking) to `addr` over QUIC.
    pub fn connect(addr: &str, opts: &crate::ClientOptions) -> MqResult<QuicStream> {
        let o = runtime().block_on(open(addr, opts))?;
        Ok(QuicStream {
            link: Arc::new(Link {
                conn: o.conn,
                _endpoint: o.endpoint,
                send: Mutex::new(o.send),
                recv: Mutex::new(o.recv),
                lanes: Mutex::new(Vec::new()),
            }),
            read_timeout: None,
            lanes: opts.quic.lanes_offered(),
        })
    }

    pub fn try_clone(&self) -> QuicStream {
        QuicStream {
            link: self.link.clone(),
            read_timeout: None,
            lanes: self.lanes,
        }
    }

    /// The lanes a sender channel over this connection offers ([`QuicOptions::lanes`]).
    pub fn lanes_offered(&self) -> u32 {
        self.lanes
    }

    pub fn set_read_timeout(&mut self, d: Option<Duration>) {
        self.read_timeout = d;
    }

    pub fn figures(&self) -> QuicFigures {
        figures(&self.link.conn)
    }

    /// Writes `frames` (whole frames) on lane `lane` (1 to `LANES - 1`), opening the lanes up
    /// to it first. Only after the receiver agreed to lanes: one that did not never grants the
    /// streams, and the open would wait.
    pub fn write_lane(&self, lane: usize, frames: &[u8]) -> io::Result<()> {
        debug_assert!(
            lane >= 1 && lane < LANES as usize,
            "lane {lane} out of range"
        );
        let mut lanes = self.link.lanes.lock().unwrap_or_else(|p| p.into_inner());
        let conn = &self.link.conn;
        let reset = |e: &dyn std::fmt::Display| {
            io::Error::new(io::ErrorKind::ConnectionReset, e.to_string())
        };
        runtime().block_on(async {
            while lanes.len() < lane {
                let s = conn.open_uni().await.map_err(|e| reset(&e))?;
                lanes.push(s);
            }
            lanes[lane - 1]
                .write_all(frames)
                .await
                .map_err(|e| reset(&e))
        })
    }

    /// Reads what has arrived, waiting at most `wait` (`None`: without limit); `WouldBlock`
    /// when nothing came in time.
    pub fn read_within(&mut self, buf: &mut [u8], wait: Option<Duration>) -> io::Result<usize> {
        let mut recv = self.link.recv.lock().unwrap_or_else(|p| p.into_inner());
        let r = runtime().block_on(async {
            match wait {
                None => Ok(recv.read(buf).await),
                Some(d) => tokio::time::timeout(d, recv.read(buf)).await,
            }
        });
        match r {
            Err(_) => Err(io::ErrorKind::WouldBlock.into()),
            Ok(Ok(Some(n))) => Ok(n),
            Ok(Ok(None)) => Ok(0),
            Ok(Err(e)) => Err(io::Error::new(io::ErrorKind::ConnectionReset, e)),
        }
    }
}

impl io::Read for QuicStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_within(buf, self.read_timeout)
    }
}

impl io::Write for QuicStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut send = self.link.send.lock().unwrap_or_else(|p| p.into_inner());
        runtime()
            .block_on(send.write(buf))
            .map_err(|e| io::Error::new(io::ErrorKind::ConnectionReset, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Closes a QUIC connection when the last half of its stream is gone.
#[derive(Debug)]
pub struct Guard {
    /// The endpoint the connection runs on (a client's own).
    pub endpoint: Option<quinn::Endpoint>,
    /// The connection.
    pub conn: quinn::Connection,
    /// Close it when the guard goes (a server instead lets the last bytes it wrote reach the
    /// peer, then closes).
    pub close_on_drop: bool,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.close_on_drop {
            self.conn.close(0u32.into(), b"closed");
        }
    }
}

/// One end of a QUIC stream that keeps its connection open while it lives.
#[derive(Debug)]
pub struct Kept<S>(pub S, pub Arc<Guard>);

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Kept<S> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Kept<S> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<io::Result<usize>> {
        std::pin::Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watched_controller_counts_bytes_in_flight_and_keeps_the_wrapped_window() {
        let now = std::time::Instant::now();
        let bbr: Arc<dyn ControllerFactory + Send + Sync> =
            Arc::new(quinn::congestion::BbrConfig::default());
        let plain = bbr.clone().build(now, 1200);
        let mut c = Arc::new(Watched(bbr, true)).build(now, 1200);
        assert_eq!(
            c.window(),
            plain.window(),
            "the wrapped controller's window"
        );
        for pn in 0..3 {
            c.on_sent(now, 1000, pn);
        }
        let read = |c: &dyn Controller| {
            c.clone_box()
                .into_any()
                .downcast::<WatchedController>()
                .map(|w| w.in_flight)
                .unwrap()
        };
        assert_eq!(read(&*c), 3000);
        c.on_congestion_event(now, now, false, 500);
        assert_eq!(read(&*c), 2500, "lost bytes leave the flight");
        c.on_end_acks(now, 700, false, Some(2));
        assert_eq!(
            read(&*c),
            700,
            "quinn's own count at the end of acknowledgements"
        );
        c.on_congestion_event(now, now, false, 10_000);
        assert_eq!(read(&*c), 0, "never below zero");
    }

    #[test]
    fn a_window_grows_at_once_and_shrinks_by_quarters_within_its_bounds() {
        let (floor, max) = (4 << 20, 16 << 20);
        assert_eq!(
            next_window(floor, 10 << 20, floor, max),
            10 << 20,
            "grows at once"
        );
        assert_eq!(
            next_window(floor, 64 << 20, floor, max),
            max,
            "never above the most"
        );
        assert_eq!(
            next_window(16 << 20, 0, floor, max),
            12 << 20,
            "a quarter a period"
        );
        let mut w = max;
        for _ in 0..8 {
            w = next_window(w, 0, floor, max);
        }
        assert_eq!(
            w, floor,
            "an idle connection is back at the floor in two seconds"
        );
        assert_eq!(
            next_window(8 << 20, 1, 16 << 20, 16 << 20),
            16 << 20,
            "floor = most"
        );
    }
}
