//! The QUIC listener (`[server] quic_listen`): UDP beside the TCP listener, for sender channels
//! with TRPTYPE(QUIC) and `quic://` clients. Each QUIC connection carries one FerryMQ
//! connection on its first bidirectional stream, served exactly as a TCP one (`conn::serve`),
//! with the same slots, pre-authentication limits and authentication; a client certificate
//! verified in the handshake is the partner's certificate identity, as over TLS.
//!
//! Certificates: `tls_cert`/`tls_key` (and `tls_client_ca`, which then requires client
//! certificates, as on the TLS listener), or without them a self-signed certificate made at
//! start (partners that check certificates — SSLCIPH — need the configured one).
//!
//! Lanes: a sender channel over QUIC may spread fast batches over up to `LANES - 1`
//! unidirectional streams besides the first ([`lanes`]); a connection grants them only once a
//! receiver channel has started on it (ChannelStart agreed to lanes: [`LaneGate`]), so before
//! that no client can open a stream beyond the first.
//!
//! Windows: a connection's send and receive windows start at 4 MiB and follow four times
//! the measured bandwidth-delay product each way (`ferry_client::quic::follow_bdp`), up to
//! `quic_window_kib`: a slow or short link holds little memory, a long fast one is not held
//! to a window a round trip. Once a receiver channel has started on it, the receive window
//! keeps to at least 16 MiB (`CHANNEL_RECEIVE_WINDOW`: three default-sized batches, so that a
//! 5 MB batch does not cross a short link in lock-step with its reading).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ferry_client::quic::{Guard, Kept, ALPN};
use ferry_model::ConnMode;
use tokio::sync::watch;

use crate::{conn, identity, slots, tls, StartError, TlsSettings};

pub(crate) mod lanes;

/// What a receiver channel starting on a QUIC connection changes in it: its lanes open when
/// the channel agreed to them at ChannelStart, and its receive window keeps to at least
/// [`ferry_client::quic::CHANNEL_RECEIVE_WINDOW`] from then on.
#[derive(Debug)]
pub(crate) struct LaneGate {
    lanes: watch::Sender<bool>,
    channel: std::sync::atomic::AtomicBool,
}

impl LaneGate {
    /// A gate for a new connection (no channel started), and what waits for its lanes.
    fn new() -> (Arc<LaneGate>, watch::Receiver<bool>) {
        let (lanes, opened) = watch::channel(false);
        let channel = std::sync::atomic::AtomicBool::new(false);
        (Arc::new(LaneGate { lanes, channel }), opened)
    }

    /// The least the connection's receive window keeps to: 0 (the initial window's) until a
    /// receiver channel has started.
    fn recv_floor(&self) -> u64 {
        match self.channel.load(std::sync::atomic::Ordering::Relaxed) {
            true => ferry_client::quic::CHANNEL_RECEIVE_WINDOW,
            false => 0,
        }
    }

    /// A receiver channel started on the connection (authenticated): its larger receive
    /// window, and its lanes when `lanes`.
    pub(crate) fn channel_started(&self, lanes: bool) {
        self.channel
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if lanes {
            self.lanes.send_replace(true);
        }
    }
}

/// The most connection attempts waiting to be accepted (each takes a slot or is refused at
/// once, so the queue stays short).
const MAX_INCOMING: usize = 4096;
/// How long a connection whose FerryMQ side ended waits for its peer to close it.
const LINGER: Duration = Duration::from_secs(3);

/// The file in the queue manager's directory holding the stateless-reset secret.
const RESET_KEY_FILE: &str = "quic-reset.key";

/// The stateless-reset secret: read from QMDIR/quic-reset.key, or made and written there
/// (owner-only) the first time. A restarted queue manager answers packets of its previous
/// life's connections with resets the partner recognises, so a sender notices at once that its
/// receiver restarted (as TCP's reset tells it), instead of waiting for a timeout.
pub(crate) fn reset_key(qm_dir: &std::path::Path) -> Result<Vec<u8>, StartError> {
    let path = qm_dir.join(RESET_KEY_FILE);
    if let Ok(key) = std::fs::read(&path) {
        if key.len() == 32 {
            return Ok(key);
        }
    }
    let mut key = vec![0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut key)
        .map_err(|_| StartError("no randomness for the QUIC reset secret".into()))?;
    ferry_host::private::write_file(&path, &key)
        .map_err(|e| StartError(format!("cannot write {}: {e}", path.display())))?;
    Ok(key)
}

/// Binds the QUIC endpoint on `addr` (UDP); `reset_key` as [`reset_key`] made it.
pub(crate) fn bind(
    addr: SocketAddr,
    settings: Option<&TlsSettings>,
    window: u64,
    reset_key: Option<&[u8]>,
) -> Result<quinn::Endpoint, StartError> {
    let mut crypto = match settings {
        Some(s) => tls::server_config_owned(s)?,
        None => tls::self_signed_config()?,
    };
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = quinn::crypto::rustls::QuicServerConfig::try_from(crypto)
        .map_err(|e| StartError(format!("QUIC cannot use the TLS settings: {e}")))?;
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
    config.max_incoming(MAX_INCOMING);
    let transport = ferry_client::quic::transport_config("", window).map_err(StartError)?;
    config.transport_config(Arc::new(transport));
    let (sock, warning) =
        ferry_client::quic::udp_socket(addr, ferry_client::quic::LISTENER_UDP_BUFFER)
            .map_err(|e| StartError(format!("cannot listen for QUIC on {addr} (UDP): {e}")))?;
    if let Some(w) = warning {
        tracing::warn!(%addr, "{w}");
    }
    let endpoint_config = match reset_key {
        Some(k) => lasting_config(k),
        None => quinn::EndpointConfig::default(),
    };
    quinn::Endpoint::new(
        endpoint_config,
        Some(config),
        sock,
        Arc::new(quinn::TokioRuntime),
    )
    .map_err(|e| StartError(format!("cannot listen for QUIC on {addr} (UDP): {e}")))
}

/// An endpoint configuration whose resets and connection ids outlive the process: both are
/// keyed by `secret`, so the next life recognises its predecessor's connection ids and resets
/// them (a random key would make it drop their packets unanswered).
fn lasting_config(secret: &[u8]) -> quinn::EndpointConfig {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
    let tag = ring::hmac::sign(&key, b"ferrymq quic connection ids");
    let mut cid_key = [0u8; 8];
    cid_key.copy_from_slice(&tag.as_ref()[..8]);
    let cid_key = u64::from_le_bytes(cid_key);
    let mut config = quinn::EndpointConfig::new(Arc::new(key));
    config.cid_generator(move || {
        Box::new(quinn_proto::HashedConnectionIdGenerator::from_key(cid_key))
    });
    config
}

/// The next connection attempt (never, without an endpoint).
pub(crate) async fn accept(e: Option<&quinn::Endpoint>) -> Option<quinn::Incoming> {
    match e {
        Some(e) => e.accept().await,
        None => std::future::pending().await,
    }
}

/// Serves an admitted QUIC connection: its handshake and first stream (within the handshake
/// timeout), then the FerryMQ connection on that stream, its receive window sized meanwhile.
pub(crate) async fn serve(
    incoming: quinn::Incoming,
    ctx: Arc<conn::Ctx>,
    stop: watch::Receiver<bool>,
    slot: slots::Slot,
    window: u64,
) {
    let addr = incoming.remote_address();
    let opened = tokio::time::timeout(ctx.limits.handshake_timeout, async {
        let conn = incoming.accept()?.await?;
        let (send, recv) = conn.accept_bi().await?;
        Ok::<_, quinn::ConnectionError>((conn, send, recv))
    })
    .await;
    let (conn, send, recv) = match opened {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => {
            tracing::warn!(peer = %addr, error = %e, "QUIC connection refused");
            return;
        }
        Err(_) => {
            tracing::warn!(peer = %addr, "QUIC handshake timed out");
            return;
        }
    };
    let chain = conn.peer_identity().and_then(|id| {
        id.downcast::<Vec<rustls::pki_types::CertificateDer<'static>>>()
            .ok()
    });
    let (gate, opened) = LaneGate::new();
    let peer = conn::Peer {
        name: addr.to_string(),
        cert: tls::peer_dn(chain.as_deref().map(|c| c.as_slice())),
        origin: Some(identity::Origin::Ip(addr.ip())),
        local_uid: None,
        lanes: Some(gate.clone()),
    };
    let guard = Arc::new(Guard {
        endpoint: None,
        conn: conn.clone(),
        close_on_drop: false,
    });
    let max_frame = ctx.limits.max_frame;
    let (rd, feed) = lanes::merge(Kept(recv, guard.clone()), max_frame, opened.clone());
    let wr = Kept(send, guard);
    let mut stopping = stop.clone();
    tokio::select! {
        _ = conn::serve(rd, wr, ctx, (ConnMode::Quic, peer), Some(slot), stop) => {}
        _ = ferry_client::quic::follow_bdp(&conn, window, || gate.recv_floor()) => {}
        _ = accept_lanes(&conn, opened, feed) => {}
    }
    // The stream is finished: its last bytes (a refusal, say) reach the peer before the
    // connection closes, unless the peer takes longer than LINGER or the server is stopping.
    tokio::select! {
        _ = conn.closed() => {}
        _ = tokio::time::sleep(LINGER) => {}
        _ = stopping.wait_for(|s| *s) => {}
    }
    conn.close(0u32.into(), b"done");
}

/// Once the gate opens, grants the sender its lanes and merges each into the connection's
/// stream as it opens. Never returns: the lanes' readers end with the connection's serving.
async fn accept_lanes(
    conn: &quinn::Connection,
    mut opened: watch::Receiver<bool>,
    feed: lanes::Feed,
) {
    if opened.wait_for(|o| *o).await.is_err() {
        return std::future::pending().await;
    }
    conn.set_max_concurrent_uni_streams((ferry_client::quic::LANES - 1).into());
    let mut readers = tokio::task::JoinSet::new();
    let mut n = 0;
    while let Ok(lane) = conn.accept_uni().await {
        n += 1;
        tracing::info!(peer = %conn.remote_address(), lane = n, "QUIC lane opened: the sender's fast batches for some queues come on a stream of their own");
        feed.spawn(&mut readers, lane);
    }
    std::future::pending().await
}
