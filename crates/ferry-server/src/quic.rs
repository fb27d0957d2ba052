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
//! Windows: a connection's receive window starts at [`INITIAL_WINDOW`] and follows twice the
//! measured bandwidth-delay product (bytes received a period × round trip), up to
//! `quic_window_kib`: a slow or short link holds little memory, a long fast one is not held
//! to a window a round trip.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ferry_client::quic::{Guard, Kept, ALPN};
use ferry_model::ConnMode;
use tokio::sync::watch;

use crate::{conn, identity, slots, tls, StartError, TlsSettings};

/// The receive window a connection starts with (or the configured one, when smaller).
pub(crate) const INITIAL_WINDOW: u64 = 4 << 20;
/// How long a connection whose FerryMQ side ended waits for its peer to close it.
const LINGER: Duration = Duration::from_secs(3);
/// How often a connection's receive window is sized again.
const TUNE_EVERY: Duration = Duration::from_millis(250);

/// Binds the QUIC endpoint on `addr` (UDP).
pub(crate) fn bind(
    addr: SocketAddr,
    settings: Option<&TlsSettings>,
    window: u64,
) -> Result<quinn::Endpoint, StartError> {
    let mut crypto = match settings {
        Some(s) => tls::server_config_owned(s)?,
        None => tls::self_signed_config()?,
    };
    crypto.alpn_protocols = vec![ALPN.to_vec()];
    let crypto = quinn::crypto::rustls::QuicServerConfig::try_from(crypto)
        .map_err(|e| StartError(format!("QUIC cannot use the TLS settings: {e}")))?;
    let mut config = quinn::ServerConfig::with_crypto(Arc::new(crypto));
    let mut transport = ferry_client::quic::transport_config("", window).map_err(StartError)?;
    transport.receive_window(
        quinn::VarInt::from_u64(window.min(INITIAL_WINDOW)).unwrap_or(quinn::VarInt::MAX),
    );
    config.transport_config(Arc::new(transport));
    let (sock, warning) = ferry_client::quic::udp_socket(addr)
        .map_err(|e| StartError(format!("cannot listen for QUIC on {addr} (UDP): {e}")))?;
    if let Some(w) = warning {
        tracing::warn!(%addr, "{w}");
    }
    quinn::Endpoint::new(
        quinn::EndpointConfig::default(),
        Some(config),
        sock,
        Arc::new(quinn::TokioRuntime),
    )
    .map_err(|e| StartError(format!("cannot listen for QUIC on {addr} (UDP): {e}")))
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
    let peer = conn::Peer {
        name: addr.to_string(),
        cert: tls::peer_dn(chain.as_deref().map(|c| c.as_slice())),
        origin: Some(identity::Origin::Ip(addr.ip())),
        local_uid: None,
    };
    let guard = Arc::new(Guard {
        endpoint: None,
        conn: conn.clone(),
        close_on_drop: false,
    });
    let (rd, wr) = (Kept(recv, guard.clone()), Kept(send, guard));
    tokio::select! {
        _ = conn::serve(rd, wr, ctx, (ConnMode::Quic, peer), Some(slot), stop) => {}
        _ = size_window(&conn, window) => {}
    }
    // The stream is finished: its last bytes (a refusal, say) reach the peer before the
    // connection closes, unless the peer takes longer than LINGER.
    let _ = tokio::time::timeout(LINGER, conn.closed()).await;
    conn.close(0u32.into(), b"done");
}

/// Keeps the connection's receive window at twice its bandwidth-delay product, between
/// [`INITIAL_WINDOW`] and `max`.
async fn size_window(conn: &quinn::Connection, max: u64) {
    let floor = max.min(INITIAL_WINDOW);
    let mut last = conn.stats().udp_rx.bytes;
    let mut now = floor;
    loop {
        tokio::time::sleep(TUNE_EVERY).await;
        let rx = conn.stats().udp_rx.bytes;
        let rate = (rx - last) as f64 / TUNE_EVERY.as_secs_f64();
        last = rx;
        let bdp = rate * conn.rtt().as_secs_f64();
        let want = ((2.0 * bdp) as u64).clamp(floor, max);
        if want != now {
            now = want;
            conn.set_receive_window(quinn::VarInt::from_u64(want).unwrap_or(quinn::VarInt::MAX));
        }
    }
}
