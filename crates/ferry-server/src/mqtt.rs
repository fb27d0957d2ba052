//! The MQTT listener: accepts MQTT clients (at most `max_clients` at once; more are closed
//! before a byte is read) and hands each to `ferry_mqtt::serve`, authenticated as every other
//! client is — CONNAUTH's rules, the user file's passwords through the same verifier threads and
//! failure throttle ([`Gate`]).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::QueueManager;
use ferry_model::security::Principal;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::identity::{self, Identities};

/// The MQTT service's configuration: `[mqtt]` in qm.toml.
#[derive(Debug, Clone)]
pub struct MqttConfig {
    /// Where it listens in the clear.
    pub listen: Option<SocketAddr>,
    /// Where it listens over TLS, with the server's certificate.
    pub tls_listen: Option<(SocketAddr, crate::TlsSettings)>,
    /// Where it listens over WebSocket, in the clear.
    pub ws_listen: Option<SocketAddr>,
    /// Where it listens over secure WebSocket, with the server's certificate.
    pub wss_listen: Option<(SocketAddr, crate::TlsSettings)>,
    /// Most clients at once, over both.
    pub max_clients: usize,
    /// Front-end processes accepting `listen`'s clients (0: none, the server accepts them).
    pub front_ends: usize,
    /// The per-connection limits.
    pub settings: ferry_mqtt::Settings,
}

impl MqttConfig {
    /// The service `[mqtt]` describes (its TLS listener with `[server]`'s certificate); its
    /// limits hold for MQTT channels defined by command too, when it listens nowhere itself.
    pub fn from_section(
        s: &ferry_host::config::MqttSection,
        server: &ferry_host::config::ServerSection,
    ) -> Result<Option<MqttConfig>, crate::StartError> {
        let tcp =
            crate::service_addrs("mqtt", "127.0.0.1:1883", (&s.listen, &s.tls_listen), server)?;
        let ws = crate::service_addrs_named(
            "mqtt",
            "127.0.0.1:8080",
            ("ws_listen", "wss_listen"),
            (&s.ws_listen, &s.wss_listen),
            server,
        )?;
        let (listen, tls_listen) = tcp.unwrap_or((None, None));
        let (ws_listen, wss_listen) = ws.unwrap_or((None, None));
        if s.max_clients == 0 || s.max_packet_kib == 0 || s.receive_maximum == 0 {
            return Err(crate::StartError(
                "[mqtt] max_clients, max_packet_kib and receive_maximum must be at least 1".into(),
            ));
        }
        let settings = ferry_mqtt::Settings {
            max_packet: s.max_packet_kib.min(256 << 10) << 10,
            connect_timeout: Duration::from_secs(s.connect_timeout_secs.max(1)),
            receive_maximum: s.receive_maximum,
            session_max_depth: s.max_session_messages.clamp(1, 999_999_999),
            ..Default::default()
        };
        Ok(Some(MqttConfig {
            listen,
            tls_listen,
            ws_listen,
            wss_listen,
            max_clients: s.max_clients,
            front_ends: s.front_ends.min(64),
            settings,
        }))
    }
}

impl Default for MqttConfig {
    /// No `[mqtt]` listeners, the section's default limits.
    fn default() -> Self {
        let s = ferry_host::config::MqttSection::default();
        MqttConfig::from_section(&s, &Default::default())
            .ok()
            .flatten()
            .expect("the default [mqtt] section is valid")
    }
}

/// How MQTT CONNECTs are authenticated: as the server's other clients are.
pub(crate) struct Gate {
    pub(crate) qm: QueueManager,
    pub(crate) ids: Arc<Identities>,
}

impl ferry_mqtt::Gate for Gate {
    fn admit(
        &self,
        user: Option<String>,
        password: Option<String>,
        peer: &ferry_mqtt::Peer,
    ) -> ferry_mqtt::Admission {
        let (qm, ids) = (self.qm.clone(), self.ids.clone());
        let mca_user = peer.rules.mca_user.clone();
        if let (Some(dn), None) = (&peer.cert, &password) {
            let admitted = by_certificate(&ids, dn, user.as_deref());
            return Box::pin(async move { as_mca_user(&ids, admitted, &mca_user) });
        }
        let peer = peer.addr.clone();
        Box::pin(async move {
            let admitted = admit(qm, ids.clone(), user, password, peer).await;
            as_mca_user(&ids, admitted, &mca_user)
        })
    }
}

/// A client its channel's MCAUSER is set for acts with that user's authority once
/// authenticated (never an administrator's).
fn as_mca_user(
    ids: &Identities,
    admitted: Result<Principal, (u8, String)>,
    mca_user: &str,
) -> Result<Principal, (u8, String)> {
    let who = admitted?;
    if mca_user.is_empty() {
        return Ok(who);
    }
    let mut p = ids.principal(mca_user);
    p.admin = false;
    Ok(p)
}

/// A CONNECT without a password over a TLS listener that required a client certificate (its
/// CA the server's `tls_client_ca`): the certificate's CN is the user — as a channel's partner
/// proves itself — never with an administrator's authority. A user name, if given, must be
/// that CN.
fn by_certificate(
    ids: &Identities,
    dn: &ferry_model::dn::DistinguishedName,
    user: Option<&str>,
) -> Result<Principal, (u8, String)> {
    use ferry_mqtt::wire::code;
    let Some(cn) = dn.common_name().filter(|c| !c.is_empty()) else {
        return Err((
            code::BAD_USER_OR_PASSWORD,
            format!(
                "the client certificate '{dn}' has no CN to be the user, and no password was given"
            ),
        ));
    };
    if let Some(u) = user.filter(|u| !u.is_empty() && *u != cn) {
        return Err((
            code::BAD_USER_OR_PASSWORD,
            format!("the CONNECT names user {u} but the client certificate is {cn}'s; give {u}'s password, or no user name"),
        ));
    }
    let mut p = ids.principal(cn);
    p.admin = false;
    Ok(p)
}

async fn admit(
    qm: QueueManager,
    ids: Arc<Identities>,
    user: Option<String>,
    password: Option<String>,
    peer: String,
) -> Result<Principal, (u8, String)> {
    use ferry_mqtt::wire::code;
    let origin = peer
        .parse::<SocketAddr>()
        .map_or(identity::Origin::Uid(u32::MAX), |a| {
            identity::Origin::Ip(a.ip())
        });
    let user = user.unwrap_or_default();
    let password = password.unwrap_or_default();
    identity::password_login(&qm, ids, user, password, origin)
        .await
        .map_err(|r| match r {
            identity::Refusal::NoPassword(why) => (
                code::NOT_AUTHORIZED,
                format!("no password was given: {why}"),
            ),
            identity::Refusal::Wrong(why) => (code::BAD_USER_OR_PASSWORD, why),
        })
}

/// One client: its TLS and WebSocket handshakes (each within the connect timeout), then its
/// MQTT session.
async fn client(
    stream: tokio::net::TcpStream,
    addr: SocketAddr,
    t: Transport,
    b: Arc<ferry_mqtt::Broker>,
    stop: watch::Receiver<bool>,
) {
    let who = ferry_mqtt::Peer {
        addr: addr.to_string(),
        channel: t.channel.to_string(),
        cert: None,
        rules: t.rules.clone(),
    };
    match t.tls.clone() {
        None => over_ws(stream, t.ws, b, who, stop).await,
        // Boxed, as the WebSocket session: a plain connection's task is only as large as its
        // own session (idle clients are mostly their tasks).
        Some(acceptor) => Box::pin(over_tls(acceptor, stream, t, b, who, stop)).await,
    }
}

/// A TLS client: its handshake within the connect timeout, then its session.
async fn over_tls(
    acceptor: tokio_rustls::TlsAcceptor,
    stream: tokio::net::TcpStream,
    t: Transport,
    b: Arc<ferry_mqtt::Broker>,
    mut who: ferry_mqtt::Peer,
    stop: watch::Receiver<bool>,
) {
    let limit = b.settings.connect_timeout;
    match tokio::time::timeout(limit, acceptor.accept(stream)).await {
        Ok(Ok(tls)) => {
            who.cert = crate::tls::peer_dn(tls.get_ref().1.peer_certificates());
            over_ws(tls, t.ws, b, who, stop).await
        }
        _ => tracing::debug!(peer = %who.addr, "MQTT TLS handshake failed"),
    }
}

/// Whether a listener's clients speak MQTT straight over the stream, over WebSocket, or
/// either (an MQTT channel with PROTOCOL(HTTP) beside MQTT versions): told apart by the first
/// byte — an HTTP request's `G` of `GET`, an MQTT CONNECT's 0x10.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ws {
    Never,
    Always,
    Either,
}

/// Settles [`Ws::Either`] by reading the stream's first byte (within the connect timeout),
/// which is handed back in front of the stream.
async fn sniff<S>(mut stream: S, ws: Ws, limit: Duration) -> Option<(Rewind<S>, bool)>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncReadExt;
    if ws != Ws::Either {
        return Some((Rewind::new(stream, None), ws == Ws::Always));
    }
    let mut first = [0u8; 1];
    match tokio::time::timeout(limit, stream.read(&mut first)).await {
        Ok(Ok(1)) => Some((Rewind::new(stream, Some(first[0])), first[0] == b'G')),
        _ => None,
    }
}

/// A stream with one byte already read put back in front.
pub(crate) struct Rewind<S> {
    first: Option<u8>,
    inner: S,
}

impl<S> Rewind<S> {
    fn new(inner: S, first: Option<u8>) -> Rewind<S> {
        Rewind { first, inner }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Rewind<S> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        if let Some(b) = self.first.filter(|_| buf.remaining() > 0) {
            buf.put_slice(&[b]);
            self.first = None;
            return std::task::Poll::Ready(Ok(()));
        }
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Rewind<S> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The MQTT session on `stream`, through a WebSocket handshake first when `ws`.
pub(crate) async fn over_ws<S>(
    stream: S,
    ws: Ws,
    b: Arc<ferry_mqtt::Broker>,
    who: ferry_mqtt::Peer,
    stop: watch::Receiver<bool>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send,
{
    let peer = who.addr.clone();
    let limit = b.settings.connect_timeout;
    let Some((stream, ws)) = sniff(stream, ws, limit).await else {
        return tracing::debug!(%peer, "MQTT connection closed before its first byte");
    };
    if !ws {
        // Boxed: the task holds a pointer, the session its own allocation of its own size
        // (an async call's arguments would otherwise be counted twice in the task).
        return Box::pin(ferry_mqtt::serve(stream, b, who, stop)).await;
    }
    // A WebSocket message may carry a whole packet and its framing.
    let max_message = b.settings.max_packet + 64;
    let handshake = Box::pin(crate::wsbytes::accept(stream, max_message));
    match tokio::time::timeout(limit, handshake).await {
        Ok(Ok(s)) => Box::pin(ferry_mqtt::serve(s, b, who, stop)).await,
        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "MQTT WebSocket handshake refused"),
        Err(_) => tracing::debug!(%peer, "MQTT WebSocket handshake timed out"),
    }
}

/// How a listener's clients reach the MQTT session: TLS or not, WebSocket or not; the channel
/// they show under and its rules.
#[derive(Clone)]
pub(crate) struct Transport {
    pub(crate) tls: Option<tokio_rustls::TlsAcceptor>,
    pub(crate) ws: Ws,
    pub(crate) channel: Arc<str>,
    pub(crate) rules: Arc<ferry_mqtt::ChannelRules>,
}

impl Transport {
    /// An `[mqtt]` listener's: its channel named for what it is (`SYSTEM.MQTT.TCP`, `.TLS`,
    /// `.WS`, `.WSS`), every version.
    pub(crate) fn service(tls: Option<tokio_rustls::TlsAcceptor>, ws: bool) -> Transport {
        let channel = service_channel(tls.is_some(), ws);
        Transport {
            tls,
            ws: if ws { Ws::Always } else { Ws::Never },
            channel: channel.into(),
            rules: Default::default(),
        }
    }
}

/// The channel an `[mqtt]` listener's clients show under: `SYSTEM.MQTT.TCP`, `.TLS`, `.WS`,
/// `.WSS`.
pub(crate) fn service_channel(tls: bool, ws: bool) -> &'static str {
    match (tls, ws) {
        (false, false) => "SYSTEM.MQTT.TCP",
        (true, false) => "SYSTEM.MQTT.TLS",
        (false, true) => "SYSTEM.MQTT.WS",
        (true, true) => "SYSTEM.MQTT.WSS",
    }
}

/// Accepts MQTT clients on `listener` (over TLS and/or WebSocket as `transport` says; the
/// handshakes within the connect timeout) while `slots` has room, until `stop` turns true;
/// then waits (up to `grace`) for their connections, which the same signal ends, to close.
pub(crate) async fn serve(
    listener: TcpListener,
    transport: Transport,
    broker: Arc<ferry_mqtt::Broker>,
    slots: Arc<tokio::sync::Semaphore>,
    mut stop: watch::Receiver<bool>,
    grace: Duration,
) {
    let max_clients = slots.available_permits();
    let mut clients = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, addr)) => {
                    let Ok(slot) = slots.clone().try_acquire_owned() else {
                        tracing::warn!(peer = %addr, max_clients, "MQTT connection refused: the most clients are connected");
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    let (b, s, t) = (broker.clone(), stop.clone(), transport.clone());
                    clients.spawn(async move {
                        client(stream, addr, t, b, s).await;
                        drop(slot);
                    });
                }
                // A channel being stopped has its socket shut down before it is told.
                Err(_) if *stop.borrow() => break,
                Err(e) => tracing::warn!(error = %e, "MQTT accept failed"),
            },
            _ = stop.changed() => break,
            Some(_) = clients.join_next(), if !clients.is_empty() => {}
        }
    }
    drop(listener);
    let drained = tokio::time::timeout(grace, async {
        while clients.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        clients.abort_all();
    }
}
