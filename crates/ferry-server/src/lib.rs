//! The FerryMQ daemon: listeners for the local (Unix socket) and tcp connection modes, and the
//! remote sessions they carry. The only crate that owns sockets and the async runtime.
//!
//! Shape (after mini-redis): [`Server::bind`] opens the listeners; [`Server::run`] accepts
//! connections — bounded by a semaphore — and spawns one task per socket (`conn.rs`), until the
//! shutdown future completes; then it quiesces the queue manager, tells every connection task to
//! finish (their conversations back out their units of work), waits a bounded time, and stops.

pub mod auth;
pub mod channels;
mod conn;
mod console;
mod front_end;
mod identity;
mod listeners;
pub mod metrics;
mod mqtt;
mod mqtt_channels;
mod mux;
mod quic;
mod slots;
mod tls;
mod wsbytes;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::{ConnMode, QueueManager};
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::watch;
use tokio::task::JoinSet;

pub use auth::UserFile;
pub use conn::ConnLimits;
pub use console::ConsoleConfig;
pub use front_end::{run_front_end, FrontEnd};
pub use mqtt::MqttConfig;
pub use tls::TlsSettings;

/// How the server listens and what it bounds.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// TCP listener address; `None` for no TCP listener. Default `127.0.0.1:1414`.
    pub tcp_listen: Option<SocketAddr>,
    /// Unix socket path; `None` for none. Default `<queue manager directory>/ferry.sock`.
    pub unix_path: Option<PathBuf>,
    /// TLS listener address; `None` (the default) for none. Needs `tls`.
    pub tls_listen: Option<SocketAddr>,
    /// Certificates for the TLS listener.
    pub tls: Option<TlsSettings>,
    /// QUIC listener address (UDP); `None` (the default) for none.
    pub quic_listen: Option<SocketAddr>,
    /// The server's certificate, key and client CA (`[server] tls_cert`, `tls_key`,
    /// `tls_client_ca`): the QUIC listener presents it (`None`: a self-signed one made at
    /// start), and so do MQTT channels with SSLCIPH (`None`: they cannot start).
    pub quic_tls: Option<TlsSettings>,
    /// The most a QUIC connection's flow-control window grows to, bytes.
    pub quic_window: u64,
    /// The secret QUIC's stateless resets are made from, kept across restarts (QMDIR/
    /// quic-reset.key) so a restarted queue manager ends its partners' stale connections at
    /// once; `None` for one made at start.
    pub quic_reset_key: Option<Vec<u8>>,
    /// User file (see [`auth`]): when set, tcp and tls connections must give a user and password
    /// found in it.
    pub users: Option<PathBuf>,
    /// Most network sockets (TCP, TLS, LISTENER ports) open at once; further ones are
    /// answered MQRC_MAX_CONNS_LIMIT_REACHED.
    pub max_sockets: usize,
    /// Most local-socket connections at once, beside a few kept for administrators.
    pub max_local_sockets: usize,
    /// Most network sockets one address may hold before they open a conversation.
    pub max_unopened_per_address: usize,
    /// Most network sockets carrying client applications' conversations.
    pub max_client_sockets: usize,
    /// Most network sockets carrying queue managers' message channels.
    pub max_channel_sockets: usize,
    /// Per-connection limits.
    pub limits: ConnLimits,
    /// How long a clean stop waits for connections to finish before stopping anyway.
    pub stop_grace: Duration,
    /// Address of the Prometheus endpoint; `None` (the default) for none.
    pub metrics_listen: Option<SocketAddr>,
    /// Bearer token a scrape must send (`[metrics] token_file`); needed for a non-loopback
    /// metrics address.
    pub metrics_token: Option<String>,
    /// HTTPS for the Prometheus endpoint (`[metrics] tls_cert` and `tls_key`).
    pub metrics_tls: Option<TlsSettings>,
    /// TLS for sender channels with SSLCIPH: the CA partners' certificates are checked
    /// against, and this queue manager's certificate and key to present.
    pub channel_tls: channels::ChannelTls,
    /// The MQTT service (`[mqtt]`); `None` (the default) for none.
    pub mqtt: Option<MqttConfig>,
    /// The web console (`[console]`); `None` (the default) for none.
    pub console: Option<ConsoleConfig>,
}

/// Default TCP port, as MQ's.
pub const DEFAULT_PORT: u16 = 1414;
/// File name of the local socket in the queue manager's directory.
pub const SOCKET_FILE: &str = ferry_host::home::SOCKET_FILE;

impl ServerConfig {
    /// Defaults for a queue manager whose directory is `qm_dir`.
    pub fn new(qm_dir: &std::path::Path) -> Self {
        ServerConfig {
            tcp_listen: Some(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT))),
            unix_path: Some(qm_dir.join(SOCKET_FILE)),
            tls_listen: None,
            tls: None,
            quic_listen: None,
            quic_tls: None,
            quic_window: ferry_client::quic::DEFAULT_WINDOW,
            quic_reset_key: None,
            users: None,
            max_sockets: 1000,
            max_local_sockets: 1000,
            max_unopened_per_address: 64,
            max_client_sockets: 1000,
            max_channel_sockets: 100,
            limits: ConnLimits::default(),
            stop_grace: Duration::from_secs(5),
            metrics_listen: None,
            metrics_token: None,
            metrics_tls: None,
            channel_tls: Default::default(),
            mqtt: None,
            console: None,
        }
    }

    /// The configuration the `[server]` section of `qm.toml` describes (after layering), for
    /// the queue manager whose directory is `qm_dir`; every value checked. A user file in the
    /// directory turns on authentication.
    pub fn from_section(
        qm_dir: &std::path::Path,
        s: &ferry_host::config::ServerSection,
    ) -> Result<ServerConfig, StartError> {
        check_section_bounds(s)?;
        let tls_listen = section_addr("tls_listen", &s.tls_listen)?;
        let tls = section_tls(tls_listen, s)?;
        if let Some(key) = section_file(&s.tls_key) {
            // Sender channels present this key too, even with no TLS listener.
            ferry_host::private::refuse_if_public(&key, "TLS private key").map_err(StartError)?;
        }
        let users = auth::user_file_path(qm_dir);
        Ok(ServerConfig {
            tcp_listen: section_addr("listen", &s.listen)?,
            unix_path: s.local_socket.then(|| qm_dir.join(SOCKET_FILE)),
            tls_listen,
            tls,
            quic_listen: section_addr("quic_listen", &s.quic_listen)?,
            quic_tls: section_file(&s.tls_cert).zip(section_file(&s.tls_key)).map(
                |(cert_chain, key)| TlsSettings {
                    cert_chain,
                    key,
                    client_ca: section_file(&s.tls_client_ca),
                },
            ),
            quic_window: s.quic_window_kib << 10,
            quic_reset_key: match s.quic_listen.is_empty() {
                true => None,
                false => Some(quic::reset_key(qm_dir)?),
            },
            users: Some(users),
            max_sockets: s.max_sockets,
            max_local_sockets: s.max_local_sockets,
            max_unopened_per_address: s.max_unopened_per_address,
            max_client_sockets: s.max_client_sockets,
            max_channel_sockets: s.max_channel_sockets,
            limits: ConnLimits {
                max_frame: s.max_frame_kib << 10,
                max_conversations: s.max_conversations,
                max_queued_requests: s.max_queued_requests,
                max_read_ahead_msgs: s.read_ahead_msgs,
                max_read_ahead_bytes: s.read_ahead_kib << 10,
                heartbeat: Duration::from_secs(s.heartbeat_secs),
                handshake_timeout: Duration::from_secs(s.handshake_timeout_secs),
                connect_timeout: Duration::from_secs(s.connect_timeout_secs),
                max_unsent: s.unsent_kib << 10,
                write_stall: Duration::from_secs(s.write_stall_secs),
                compression: ConnLimits::default().compression,
            },
            stop_grace: Duration::from_secs(s.stop_grace_secs),
            metrics_listen: None,
            metrics_token: None,
            metrics_tls: None,
            channel_tls: channels::ChannelTls {
                ca: section_file(&s.tls_ca),
                own: section_file(&s.tls_cert).zip(section_file(&s.tls_key)),
                quic_lanes: s.quic_lanes,
            },
            mqtt: None,
            console: None,
        })
    }
}

/// A `[server]` socket address (`key = v`): none when empty.
fn section_addr(key: &str, v: &str) -> Result<Option<SocketAddr>, StartError> {
    if v.is_empty() {
        return Ok(None);
    }
    v.parse().map(Some).map_err(|e| {
        StartError(format!(
            "[server] {key} = \"{v}\" is not a socket address like 127.0.0.1:1414: {e}"
        ))
    })
}

/// A `[server]` file path: none when empty.
fn section_file(v: &str) -> Option<PathBuf> {
    (!v.is_empty()).then(|| PathBuf::from(v))
}

/// Checks the `[server]` counts that must be at least 1, and the frame size's range.
fn check_section_bounds(s: &ferry_host::config::ServerSection) -> Result<(), StartError> {
    let positive = |key: &str, v: u64| {
        if v == 0 {
            Err(StartError(format!("[server] {key} must be at least 1")))
        } else {
            Ok(())
        }
    };
    positive("max_sockets", s.max_sockets as u64)?;
    positive("max_client_sockets", s.max_client_sockets as u64)?;
    positive("max_channel_sockets", s.max_channel_sockets as u64)?;
    positive("max_local_sockets", s.max_local_sockets as u64)?;
    positive(
        "max_unopened_per_address",
        s.max_unopened_per_address as u64,
    )?;
    positive("max_conversations", s.max_conversations as u64)?;
    positive("max_queued_requests", s.max_queued_requests as u64)?;
    positive("read_ahead_msgs", s.read_ahead_msgs as u64)?;
    positive("heartbeat_secs", s.heartbeat_secs)?;
    positive("handshake_timeout_secs", s.handshake_timeout_secs)?;
    positive("connect_timeout_secs", s.connect_timeout_secs)?;
    positive("unsent_kib", s.unsent_kib as u64)?;
    positive("write_stall_secs", s.write_stall_secs)?;
    if !(1..=ferry_client::quic::LANES).contains(&s.quic_lanes) {
        return Err(StartError(format!(
            "[server] quic_lanes = {} is outside 1–{}",
            s.quic_lanes,
            ferry_client::quic::LANES
        )));
    }
    if !(64..=1 << 20).contains(&s.quic_window_kib) {
        return Err(StartError(format!(
            "[server] quic_window_kib = {} is outside 64–1048576",
            s.quic_window_kib
        )));
    }
    if !(64..=1 << 20).contains(&s.max_frame_kib) {
        return Err(StartError(format!(
            "[server] max_frame_kib = {} is outside 64–1048576",
            s.max_frame_kib
        )));
    }
    Ok(())
}

/// The TLS listener's certificates: none without a TLS listener; one needs a certificate and
/// key.
pub(crate) fn section_tls(
    tls_listen: Option<SocketAddr>,
    s: &ferry_host::config::ServerSection,
) -> Result<Option<TlsSettings>, StartError> {
    match (
        tls_listen,
        section_file(&s.tls_cert),
        section_file(&s.tls_key),
    ) {
        (None, _, _) => Ok(None),
        (Some(_), Some(cert_chain), Some(key)) => Ok(Some(TlsSettings {
            cert_chain,
            key,
            client_ca: section_file(&s.tls_client_ca),
        })),
        (Some(a), _, _) => Err(StartError(format!(
            "[server] tls_listen = \"{a}\" needs tls_cert and tls_key (--tls-cert and --tls-key)"
        ))),
    }
}

/// A service's listener addresses from its section (`[mqtt]`, `[console]`): `listen` and
/// `tls_listen` parsed (empty: none; `example` shows the form in the error), the TLS one with
/// `[server]`'s certificate and key; `None` when the service listens nowhere.
pub(crate) type ServiceAddrs = (Option<SocketAddr>, Option<(SocketAddr, TlsSettings)>);

pub(crate) fn service_addrs(
    section: &str,
    example: &str,
    (listen, tls_listen): (&str, &str),
    server: &ferry_host::config::ServerSection,
) -> Result<Option<ServiceAddrs>, StartError> {
    service_addrs_named(
        section,
        example,
        ("listen", "tls_listen"),
        (listen, tls_listen),
        server,
    )
}

/// As [`service_addrs`] for keys of other names (`ws_listen` and `wss_listen`).
pub(crate) fn service_addrs_named(
    section: &str,
    example: &str,
    (plain_key, tls_key): (&str, &str),
    (listen, tls_listen): (&str, &str),
    server: &ferry_host::config::ServerSection,
) -> Result<Option<ServiceAddrs>, StartError> {
    let addr = |key: &str, v: &str| -> Result<Option<SocketAddr>, StartError> {
        if v.trim().is_empty() {
            return Ok(None);
        }
        v.trim().parse().map(Some).map_err(|e| {
            StartError(format!(
                "[{section}] {key} {v:?} is not an address such as {example}: {e}"
            ))
        })
    };
    let (plain, tls) = (addr(plain_key, listen)?, addr(tls_key, tls_listen)?);
    if plain.is_none() && tls.is_none() {
        return Ok(None);
    }
    let tls = match (tls, section_tls(tls, server)) {
        (Some(a), Ok(Some(t))) => Some((a, t)),
        (Some(a), _) => {
            return Err(StartError(format!(
                "[{section}] {tls_key} = \"{a}\" needs [server] tls_cert and tls_key (--tls-cert and --tls-key)"
            )))
        }
        (None, _) => None,
    };
    Ok(Some((plain, tls)))
}

/// Why the server could not start.
#[derive(Debug)]
pub struct StartError(pub String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

/// A server with its listeners bound, ready to run.
#[derive(Debug)]
pub struct Server {
    qm: QueueManager,
    config: ServerConfig,
    tcp: Option<TcpListener>,
    unix: Option<UnixListener>,
    tls: Option<TlsListener>,
    quic: Option<quinn::Endpoint>,
    users: auth::UserStore,
    metrics: Option<TcpListener>,
    metrics_tls: Option<Arc<rustls::ServerConfig>>,
    services: Services,
}

/// The listeners of the services beside the MQ protocol: MQTT and the web console.
#[derive(Debug)]
struct Services {
    mqtt: Option<TcpListener>,
    /// With `[mqtt] front_ends`: the ports they share, bound and not listening, for each
    /// `[mqtt]` listener (`front_end.rs`); the listeners above are then all `None`.
    mqtt_front: Vec<(front_end::Entry, socket2::Socket, SocketAddr)>,
    mqtt_tls: Option<TlsListener>,
    /// MQTT over WebSocket, in the clear and over TLS.
    mqtt_ws: (Option<TcpListener>, Option<TlsListener>),
    console: Option<TcpListener>,
    console_tls: Option<TlsListener>,
}

impl Services {
    async fn bind(config: &ServerConfig, authenticated: bool) -> Result<Services, StartError> {
        let (mut mqtt, mut mqtt_tls) = listen_mqtt(config, authenticated, false).await?;
        let mut mqtt_ws = listen_mqtt(config, authenticated, true).await?;
        let mut mqtt_front = Vec::new();
        if config.mqtt.as_ref().is_some_and(|m| m.front_ends > 0) {
            // Checked and bound as any listener, then handed to the front ends.
            use front_end::Entry;
            let tls = |t: Option<TlsListener>| t.map(|t| t.listener);
            let each = [
                (Entry::Tcp, mqtt.take()),
                (Entry::Tls, tls(mqtt_tls.take())),
                (Entry::Ws, mqtt_ws.0.take()),
                (Entry::Wss, tls(mqtt_ws.1.take())),
            ];
            for (entry, l) in each {
                if let Some(l) = l {
                    let (socket, addr) = reserve_for_front_ends(l)?;
                    mqtt_front.push((entry, socket, addr));
                }
            }
        }
        let (console, console_tls) = listen_console(config).await?;
        Ok(Services {
            mqtt,
            mqtt_front,
            mqtt_tls,
            mqtt_ws,
            console,
            console_tls,
        })
    }

    /// Their tasks, which end when `stop` turns true, added to `tasks`; the MQTT service that
    /// MQTT channels join.
    fn start(
        self,
        qm: &QueueManager,
        config: &ServerConfig,
        ctx: &conn::Ctx,
        stop: &watch::Receiver<bool>,
        tasks: &mut Vec<tokio::task::JoinHandle<()>>,
    ) -> mqtt_channels::MqttService {
        let listeners = [(self.mqtt, self.mqtt_tls), self.mqtt_ws];
        let (mqtt_tasks, mqtt) = start_mqtt(listeners, qm, config, ctx, stop);
        tasks.extend(mqtt_tasks);
        if let (false, Some(m)) = (self.mqtt_front.is_empty(), config.mqtt.as_ref()) {
            let addrs = self.mqtt_front.iter().map(|(e, _, a)| (*e, *a)).collect();
            let reserved = self.mqtt_front.into_iter().map(|(_, s, _)| s).collect();
            let tls = m.tls_listen.as_ref().or(m.wss_listen.as_ref());
            let service = front_end::Service {
                count: m.front_ends,
                addrs,
                tls: tls.map(|t| t.1.clone()),
                backlog: LISTEN_BACKLOG,
                broker: mqtt.broker.clone(),
                slots: mqtt.slots.clone(),
                grace: config.stop_grace,
            };
            tasks.extend(front_end::start(service, reserved, stop));
        }
        tasks.extend(start_console(
            (self.console, self.console_tls),
            qm,
            config,
            ctx,
            stop,
        ));
        mqtt
    }
}

impl Server {
    /// Binds the configured listeners. Nobody gets in by accident: a TCP or TLS address that is
    /// not loopback is refused unless authentication is configured (a user file, or for TLS a
    /// client CA whose certificates are required).
    pub async fn bind(qm: QueueManager, config: ServerConfig) -> Result<Server, StartError> {
        if let Some(path) = config.users.as_ref().filter(|p| p.exists()) {
            UserFile::load(path).map_err(StartError)?;
        }
        let users = auth::UserStore::new(config.users.clone());
        let clients_authenticate = clients_must_authenticate(&qm);
        let client_certs = config.tls.as_ref().is_some_and(|t| t.client_ca.is_some());
        let tcp = match config.tcp_listen {
            None => None,
            Some(addr) => {
                refuse_unauthenticated(addr, clients_authenticate)?;
                Some(listen(addr).await?)
            }
        };
        let tls = match (config.tls_listen, &config.tls) {
            (None, _) => None,
            (Some(addr), None) => {
                return Err(StartError(format!(
                    "a TLS listener on {addr} needs a certificate and key"
                )))
            }
            (Some(addr), Some(settings)) => {
                refuse_unauthenticated(addr, clients_authenticate || client_certs)?;
                let acceptor = tokio_rustls::TlsAcceptor::from(tls::server_config(settings)?);
                Some(TlsListener {
                    listener: listen(addr).await?,
                    acceptor,
                })
            }
        };
        let quic_certs = config.quic_tls.as_ref();
        let quic = match config.quic_listen {
            None => None,
            Some(addr) => {
                let certs = quic_certs.is_some_and(|t| t.client_ca.is_some());
                refuse_unauthenticated(addr, clients_authenticate || certs)?;
                let key = config.quic_reset_key.as_deref();
                Some(quic::bind(addr, quic_certs, config.quic_window, key)?)
            }
        };
        let unix = match &config.unix_path {
            None => None,
            Some(path) => Some(bind_unix(path)?),
        };
        let metrics_tls = match &config.metrics_tls {
            Some(t) => {
                ferry_host::private::refuse_if_public(&t.key, "metrics TLS private key")
                    .map_err(StartError)?;
                Some(tls::server_config(t)?)
            }
            None => None,
        };
        let metrics = listen_metrics(&config).await?;
        let services = Services::bind(&config, clients_authenticate).await?;
        Ok(Server {
            qm,
            config,
            tcp,
            unix,
            tls,
            quic,
            users,
            metrics,
            metrics_tls,
            services,
        })
    }

    /// The bound TCP address (useful when the configured port was 0).
    pub fn tcp_addr(&self) -> Option<SocketAddr> {
        self.tcp.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// The bound TLS address.
    pub fn tls_addr(&self) -> Option<SocketAddr> {
        self.tls.as_ref().and_then(|t| t.listener.local_addr().ok())
    }

    /// The bound address of the QUIC listener (UDP).
    pub fn quic_addr(&self) -> Option<SocketAddr> {
        self.quic.as_ref().and_then(|e| e.local_addr().ok())
    }

    /// Whether the Prometheus endpoint speaks HTTPS.
    pub fn metrics_https(&self) -> bool {
        self.metrics_tls.is_some()
    }

    /// The address the MQTT front ends share for `entry`'s listener, if they serve it.
    fn mqtt_front_addr(&self, entry: front_end::Entry) -> Option<SocketAddr> {
        let mut front = self.services.mqtt_front.iter();
        front.find(|(e, _, _)| *e == entry).map(|f| f.2)
    }

    /// The bound address of the MQTT listener.
    pub fn mqtt_addr(&self) -> Option<SocketAddr> {
        self.services
            .mqtt
            .as_ref()
            .and_then(|l| l.local_addr().ok())
            .or(self.mqtt_front_addr(front_end::Entry::Tcp))
    }

    /// The bound address of the MQTT listener over TLS.
    pub fn mqtt_tls_addr(&self) -> Option<SocketAddr> {
        self.services
            .mqtt_tls
            .as_ref()
            .and_then(|t| t.listener.local_addr().ok())
            .or(self.mqtt_front_addr(front_end::Entry::Tls))
    }

    /// The bound addresses of the MQTT listeners over WebSocket: in the clear, over TLS.
    pub fn mqtt_ws_addrs(&self) -> (Option<SocketAddr>, Option<SocketAddr>) {
        let (plain, tls) = &self.services.mqtt_ws;
        (
            plain
                .as_ref()
                .and_then(|l| l.local_addr().ok())
                .or(self.mqtt_front_addr(front_end::Entry::Ws)),
            tls.as_ref()
                .and_then(|t| t.listener.local_addr().ok())
                .or(self.mqtt_front_addr(front_end::Entry::Wss)),
        )
    }

    /// The bound address of the web console in the clear.
    pub fn console_addr(&self) -> Option<SocketAddr> {
        self.services
            .console
            .as_ref()
            .and_then(|l| l.local_addr().ok())
    }

    /// The bound address of the web console over HTTPS.
    pub fn console_tls_addr(&self) -> Option<SocketAddr> {
        self.services
            .console_tls
            .as_ref()
            .and_then(|t| t.listener.local_addr().ok())
    }

    /// The bound address of the Prometheus endpoint.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// The Unix socket path.
    pub fn unix_path(&self) -> Option<&std::path::Path> {
        self.config.unix_path.as_deref()
    }

    /// Accepts connections until `shutdown` completes, then stops cleanly.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let asked = async move {
            shutdown.await;
            let _ = tx.send(StopMode::Immediate);
            std::future::pending::<()>().await
        };
        tokio::select! {
            _ = asked => {}
            _ = self.run_until(rx) => {}
        }
    }

    /// Serves until a stop is asked on `stops` (or every sender of it is gone, taken as an
    /// immediate stop). A controlled stop quiesces and waits for the applications to leave; an
    /// immediate stop asked meanwhile ends the wait.
    pub async fn run_until(self, mut stops: tokio::sync::mpsc::UnboundedReceiver<StopMode>) {
        let Server {
            qm,
            config,
            tcp,
            unix,
            tls,
            quic,
            users,
            metrics,
            metrics_tls,
            services,
        } = self;
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut side_tasks: Vec<_> = metrics
            .map(|l| start_metrics(l, &qm, &config, metrics_tls, &stop_rx))
            .into_iter()
            .collect();
        let mut tasks = JoinSet::new();
        let authenticated = clients_must_authenticate(&qm);
        let ctx = connection_context(&qm, &config, users);
        let slots = ctx.slots.clone();
        let mqtt = services.start(&qm, &config, &ctx, &stop_rx, &mut side_tasks);
        let (hooks, mut listened) = start_objects(&qm, &config, authenticated, mqtt);
        let command_server = ferry_admin::pcf::start(qm.clone())
            .map_err(|e| tracing::error!(error = %e, "the PCF command server did not start"))
            .ok();
        let mut controlled: Option<Controlled> = None;
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        loop {
            let (each, stop) = (ctx.clone(), stop_rx.clone());
            let give = |tasks: &mut JoinSet<()>, s: Accepted| admit(tasks, &slots, s, each, stop);
            tokio::select! {
                asked = stops.recv() => match asked {
                    Some(StopMode::Controlled) if controlled.is_none() => {
                        controlled = Some(Controlled::begin(&qm, &hooks, &ctx, tasks.len()).await);
                    }
                    Some(StopMode::Controlled) => {}
                    Some(StopMode::Immediate) | None => break,
                },
                _ = tick.tick(), if controlled.is_some() => {
                    if controlled.as_mut().is_some_and(|c| c.done(&mut tasks)) {
                        break;
                    }
                }
                Some(accepted) = accept_tcp(tcp.as_ref()) => match accepted {
                    Ok((stream, addr)) => give(&mut tasks, Accepted::Tcp(stream, addr)),
                    Err(e) => tracing::warn!(error = %e, "tcp accept failed"),
                },
                Some(accepted) = accept_tcp(tls.as_ref().map(|t| &t.listener)) => match accepted {
                    Ok((stream, addr)) => {
                        let Some(acceptor) = tls.as_ref().map(|t| t.acceptor.clone()) else { continue };
                        give(&mut tasks, Accepted::Tls(stream, addr, acceptor));
                    }
                    Err(e) => tracing::warn!(error = %e, "tls accept failed"),
                },
                Some((stream, addr)) = listened.recv() => give(&mut tasks, Accepted::Tcp(stream, addr)),
                Some(q) = quic::accept(quic.as_ref()) => give(&mut tasks, Accepted::Quic(q, config.quic_window)),
                Some(accepted) = accept_unix(unix.as_ref()) => match accepted {
                    Ok(stream) => give(&mut tasks, Accepted::Unix(stream)),
                    Err(e) => tracing::warn!(error = %e, "local accept failed"),
                },
            }
            while tasks.try_join_next().is_some() {}
        }
        if let Some(c) = command_server {
            let _ = tokio::task::spawn_blocking(move || c.stop()).await;
        }
        stop_cleanly(&qm, &config, &mut tasks, hooks, &stop_tx, side_tasks).await;
    }
}

/// The Prometheus endpoint's listener: on loopback only unless a token is required.
async fn listen_metrics(config: &ServerConfig) -> Result<Option<TcpListener>, StartError> {
    let Some(addr) = config.metrics_listen else {
        return Ok(None);
    };
    if !addr.ip().is_loopback() && config.metrics_token.is_none() {
        return Err(StartError(format!(
            "refusing to serve metrics on {addr}: it is not a loopback address and \
             no token is configured; listen on 127.0.0.1, or set [metrics] token_file"
        )));
    }
    Ok(Some(listen(addr).await?))
}

/// The Prometheus endpoint's task.
fn start_metrics(
    listener: TcpListener,
    qm: &QueueManager,
    config: &ServerConfig,
    tls: Option<Arc<rustls::ServerConfig>>,
    stop: &watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    let token = config.metrics_token.clone();
    tokio::spawn(metrics::serve(
        listener,
        qm.clone(),
        token,
        tls,
        stop.clone(),
    ))
}

/// `l`'s address bound again for the MQTT front ends to share, not listening (`front_end.rs`).
fn reserve_for_front_ends(l: TcpListener) -> Result<(socket2::Socket, SocketAddr), StartError> {
    let addr = l.local_addr().map_err(|e| StartError(e.to_string()))?;
    drop(l);
    front_end::reserve(addr)
        .map_err(|e| StartError(format!("cannot bind {addr} for the MQTT front ends: {e}")))
}

/// The MQTT listeners `[mqtt] listen` and `tls_listen` ask for (`ws`: `ws_listen` and
/// `wss_listen`): on loopback only, unless clients must authenticate.
async fn listen_mqtt(
    config: &ServerConfig,
    authenticated: bool,
    ws: bool,
) -> Result<(Option<TcpListener>, Option<TlsListener>), StartError> {
    let Some(m) = &config.mqtt else {
        return Ok((None, None));
    };
    let (plain, tls) = match ws {
        false => (m.listen, m.tls_listen.as_ref()),
        true => (m.ws_listen, m.wss_listen.as_ref()),
    };
    listen_pair(plain, tls, |a| refuse_unauthenticated(a, authenticated)).await
}

/// A service's listener in the clear and over TLS (either may be absent), each address first
/// passed by `check`.
async fn listen_pair(
    plain: Option<SocketAddr>,
    tls: Option<&(SocketAddr, TlsSettings)>,
    check: impl Fn(SocketAddr) -> Result<(), StartError>,
) -> Result<(Option<TcpListener>, Option<TlsListener>), StartError> {
    let plain = match plain {
        Some(a) => {
            check(a)?;
            Some(listen(a).await?)
        }
        None => None,
    };
    let tls = match tls {
        Some((a, settings)) => {
            check(*a)?;
            let acceptor = tokio_rustls::TlsAcceptor::from(tls::server_config(settings)?);
            Some(TlsListener {
                listener: listen(*a).await?,
                acceptor,
            })
        }
        None => None,
    };
    Ok((plain, tls))
}

/// The MQTT service's broker and pool of `max_clients`, which MQTT channels share, and the
/// accept tasks of the `[mqtt]` listeners (in the clear, over TLS; over TCP, then over
/// WebSocket): its clients authenticate as the server's other clients do.
fn start_mqtt(
    listeners: [(Option<TcpListener>, Option<TlsListener>); 2],
    qm: &QueueManager,
    config: &ServerConfig,
    ctx: &conn::Ctx,
    stop: &watch::Receiver<bool>,
) -> (Vec<tokio::task::JoinHandle<()>>, mqtt_channels::MqttService) {
    let defaults = MqttConfig::default();
    let m = config.mqtt.as_ref().unwrap_or(&defaults);
    let gate = Arc::new(mqtt::Gate {
        qm: qm.clone(),
        ids: ctx.ids.clone(),
    });
    let broker = ferry_mqtt::Broker::new(qm.clone(), gate, m.settings.clone());
    let b = Arc::downgrade(&broker);
    qm.set_mqtt_status_source(Arc::new(move || {
        b.upgrade().map_or_else(Default::default, |b| b.statuses())
    }));
    let slots = Arc::new(tokio::sync::Semaphore::new(m.max_clients));
    let each = listeners
        .into_iter()
        .zip([false, true])
        .flat_map(|((plain, tls), ws)| {
            let plain = plain.map(|l| (l, None, ws));
            plain
                .into_iter()
                .chain(tls.map(|t| (t.listener, Some(t.acceptor), ws)))
        });
    let tasks = each
        .map(|(l, acceptor, ws)| {
            let (b, s) = (broker.clone(), slots.clone());
            let transport = mqtt::Transport::service(acceptor, ws);
            tokio::spawn(mqtt::serve(
                l,
                transport,
                b,
                s,
                stop.clone(),
                config.stop_grace,
            ))
        })
        .collect();
    (tasks, mqtt_channels::MqttService { broker, slots })
}

/// The console's listeners `[console] listen` and `tls_listen` ask for (a clear one was
/// checked to be on loopback when the configuration was read).
async fn listen_console(
    config: &ServerConfig,
) -> Result<(Option<TcpListener>, Option<TlsListener>), StartError> {
    let Some(c) = &config.console else {
        return Ok((None, None));
    };
    listen_pair(c.listen, c.tls_listen.as_ref(), |_| Ok(())).await
}

/// The console's accept tasks (in the clear, over TLS) sharing one pool of connections, and
/// its history sampler.
fn start_console(
    (plain, tls): (Option<TcpListener>, Option<TlsListener>),
    qm: &QueueManager,
    config: &ServerConfig,
    ctx: &conn::Ctx,
    stop: &watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let Some(c) = config.console.as_ref() else {
        return Vec::new();
    };
    let console = console::console(qm, ctx.ids.clone(), c);
    let router = console.router();
    let slots = Arc::new(tokio::sync::Semaphore::new(c.max_connections));
    let mut tasks = vec![tokio::spawn(console.run_sampler(stop.clone()))];
    let listeners = plain
        .map(|l| (l, None))
        .into_iter()
        .chain(tls.map(|t| (t.listener, Some(t.acceptor))));
    for (l, acceptor) in listeners {
        let (r, s) = (router.clone(), slots.clone());
        tasks.push(tokio::spawn(console::serve(
            l,
            acceptor,
            r,
            s,
            stop.clone(),
        )));
    }
    tasks
}

/// What every connection task shares; the queue manager learns from it whom a principal
/// name stands for.
fn connection_context(
    qm: &QueueManager,
    config: &ServerConfig,
    users: auth::UserStore,
) -> Arc<conn::Ctx> {
    let slots = slots::Slots::with_kinds(
        config.max_sockets,
        config.max_local_sockets,
        config.max_unopened_per_address,
        (config.max_client_sockets, config.max_channel_sockets),
    );
    let ids = Arc::new(identity::Identities::new(users));
    let resolver = ids.clone();
    qm.set_principal_resolver(Box::new(move |n| resolver.principal(n)));
    Arc::new(conn::Ctx {
        qm: qm.clone(),
        limits: config.limits.clone(),
        ids,
        receivers: Default::default(),
        instances: Default::default(),
        slots,
    })
}

/// How a running queue manager is asked to stop (MQ's `endmqm -c` and `-i`; a preemptive stop
/// is the process killed, which the log's recovery makes good at the next start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopMode {
    /// Quiesce: new connections are refused (MQRC_Q_MGR_QUIESCING), waits end, channels end;
    /// the queue manager stops once every application has disconnected.
    Controlled,
    /// Quiesce, tell every connection to finish (its units of work back out), wait the grace
    /// period, stop.
    Immediate,
}

/// A controlled stop under way: when it began, and when it last said how many are left.
struct Controlled {
    since: std::time::Instant,
    told: std::time::Instant,
}

impl Controlled {
    /// Quiesces the queue manager and ends the channels; applications may finish their work.
    async fn begin(qm: &QueueManager, hooks: &Hooks, ctx: &conn::Ctx, open: usize) -> Controlled {
        tracing::info!(
            connections = open,
            "controlled stop: quiescing; the queue manager stops when every application has disconnected"
        );
        qm.quiesce();
        let senders = hooks.sender_channels.clone();
        let _ = tokio::task::spawn_blocking(move || senders.shutdown()).await;
        ctx.receivers.end_all();
        let now = std::time::Instant::now();
        Controlled {
            since: now,
            told: now,
        }
    }

    /// Whether no connection is left (those ended are reaped); every 10 s, says how many are.
    fn done(&mut self, tasks: &mut JoinSet<()>) -> bool {
        while tasks.try_join_next().is_some() {}
        let open = tasks.len();
        if open == 0 {
            tracing::info!(
                waited_ms = self.since.elapsed().as_millis() as u64,
                "controlled stop: every application has disconnected"
            );
            return true;
        }
        if self.told.elapsed() >= Duration::from_secs(10) {
            self.told = std::time::Instant::now();
            tracing::info!(
                connections = open,
                "controlled stop: waiting for applications to disconnect (an immediate stop ends them)"
            );
        }
        false
    }
}

/// What the server registers with the queue manager while it runs: its LISTENER objects and
/// sender channels.
struct Hooks {
    listener_objects: Arc<listeners::Listeners>,
    sender_channels: Arc<channels::Channels>,
    mqtt_channels: Arc<mqtt_channels::MqttChannels>,
}

/// Registers the server's LISTENER objects and sender channels with the queue manager, and
/// starts the listeners with CONTROL(QMGR). Sockets the listener objects accept arrive on the
/// receiver returned.
fn start_objects(
    qm: &QueueManager,
    config: &ServerConfig,
    authenticated: bool,
    mqtt: mqtt_channels::MqttService,
) -> (Hooks, tokio::sync::mpsc::Receiver<listeners::Accepted>) {
    // LISTENER objects: their accept tasks hand sockets to the accept loop.
    let (listened_tx, listened) = tokio::sync::mpsc::channel(64);
    let listener_objects = Arc::new(listeners::Listeners::new(
        tokio::runtime::Handle::current(),
        listened_tx,
        authenticated,
    ));
    qm.set_listener_hook(listener_objects.clone());
    let sender_channels = channels::Channels::start(qm.clone(), config.channel_tls.clone());
    qm.set_channel_hook(Some(sender_channels.clone()));
    for (name, attrs) in qm.listeners() {
        if attrs.control == ferry_model::objects::ListenerControl::QueueManager {
            if let Err(e) = qm.start_listener(name.as_str()) {
                tracing::error!(listener = %name, error = %e, "listener with CONTROL(QMGR) did not start");
            }
        }
    }
    let hooks = Hooks {
        listener_objects,
        sender_channels,
        mqtt_channels: start_mqtt_channels(qm, config, authenticated, mqtt),
    };
    (hooks, listened)
}

/// Registers the server's MQTT channel control and starts every MQTT channel (but a
/// SYSTEM.DEF one, a template); one that cannot listen is logged and stays stopped.
fn start_mqtt_channels(
    qm: &QueueManager,
    config: &ServerConfig,
    authenticated: bool,
    mqtt: mqtt_channels::MqttService,
) -> Arc<mqtt_channels::MqttChannels> {
    let hook = Arc::new(mqtt_channels::MqttChannels::new(
        mqtt,
        config.quic_tls.clone(),
        authenticated,
        config.stop_grace,
    ));
    qm.set_mqtt_channel_hook(Some(hook.clone()));
    let mqtt_type = ferry_model::objects::ChannelType::Mqtt;
    for (name, attrs) in qm.channels() {
        if attrs.channel_type != mqtt_type || name.as_str().starts_with("SYSTEM.DEF.") {
            continue;
        }
        if let Err(e) = qm.start_channel(name.as_str()) {
            tracing::error!(channel = %name, error = %e, "MQTT channel did not start; START CHANNEL once the cause is gone");
        }
    }
    hook
}

/// A socket just accepted.
enum Accepted {
    /// From the TCP listener or a LISTENER object.
    Tcp(tokio::net::TcpStream, SocketAddr),
    Tls(tokio::net::TcpStream, SocketAddr, tokio_rustls::TlsAcceptor),
    Unix(tokio::net::UnixStream),
    /// A QUIC connection attempt, and the most its window grows to.
    Quic(quinn::Incoming, u64),
}

/// Gives an accepted socket its slot and its task, or refuses it: answered 2025 by a refuser
/// (plain sockets) or closed at once (TLS, or when the refusers are busy); the refusal is
/// logged within the security log's allowance.
fn admit(
    tasks: &mut JoinSet<()>,
    slots: &Arc<slots::Slots>,
    accepted: Accepted,
    ctx: Arc<conn::Ctx>,
    stop: watch::Receiver<bool>,
) {
    let refused = match accepted {
        Accepted::Tcp(stream, addr) => match slots.network(addr.ip()) {
            Ok(slot) => return spawn_tcp(tasks, stream, addr, ctx, stop, slot),
            Err(why) => {
                let (rd, wr) = stream.into_split();
                refuse(tasks, slots, &ctx, addr.to_string(), (rd, wr), why)
            }
        },
        Accepted::Tls(stream, addr, acceptor) => match slots.network(addr.ip()) {
            Ok(slot) => {
                tune(&stream, &ctx.limits);
                tasks.spawn(serve_tls(stream, addr, acceptor, ctx, stop, slot));
                return;
            }
            Err(why) => (addr.to_string(), why),
        },
        Accepted::Quic(incoming, window) => {
            let addr = incoming.remote_address();
            match slots.network(addr.ip()) {
                Ok(slot) => {
                    tasks.spawn(quic::serve(incoming, ctx, stop, slot, window));
                    return;
                }
                Err(why) => {
                    incoming.refuse();
                    (addr.to_string(), why)
                }
            }
        }
        Accepted::Unix(stream) => {
            let uid = stream.peer_cred().ok().map(|c| c.uid());
            let admin = || uid.is_some_and(|u| ctx.ids.local(u).admin);
            match slots.local(admin) {
                Ok(slot) => return spawn_unix(tasks, stream, ctx, stop, slot),
                Err(why) => {
                    let who = uid.map_or("local".to_owned(), |u| format!("local uid {u}"));
                    let (rd, wr) = stream.into_split();
                    refuse(tasks, slots, &ctx, who, (rd, wr), why)
                }
            }
        }
    };
    ctx.qm
        .security_counters()
        .slot_refusals
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if let Some(left_out) = ctx.qm.security_log() {
        tracing::warn!(peer = %refused.0, reason = %refused.1, left_out, "AMQ9513E connection refused: no slot free");
    }
}

/// Hands a refused plain socket to a refuser, if one is free; who it was and why, to log.
fn refuse<R, W>(
    tasks: &mut JoinSet<()>,
    slots: &slots::Slots,
    ctx: &conn::Ctx,
    who: String,
    (rd, wr): (R, W),
    why: String,
) -> (String, String)
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    if let Some(permit) = slots.refuser() {
        let (limits, told) = (ctx.limits.clone(), why.clone());
        tasks.spawn(async move {
            conn::refuse_socket(rd, wr, limits, told).await;
            drop(permit);
        });
    }
    (who, why)
}

/// An accepted network socket: no Nagle delay, and TCP keepalive from the heartbeat interval, so
/// a partner whose host died or whose link was cut without a reset is dropped by the kernel
/// (then its conversations end) even when nothing is owed to it.
fn tune(stream: &tokio::net::TcpStream, limits: &ConnLimits) {
    let _ = stream.set_nodelay(true);
    let interval = (limits.heartbeat / 3).max(Duration::from_secs(1));
    let _ = ferry_host::net::keepalive(stream, limits.heartbeat, interval, 3);
}

/// Spawns the task serving an accepted tcp socket (from the TCP listener or a LISTENER object).
fn spawn_tcp(
    tasks: &mut JoinSet<()>,
    stream: tokio::net::TcpStream,
    addr: SocketAddr,
    ctx: Arc<conn::Ctx>,
    stop: watch::Receiver<bool>,
    slot: slots::Slot,
) {
    tune(&stream, &ctx.limits);
    let (rd, wr) = stream.into_split();
    let peer = conn::Peer {
        name: addr.to_string(),
        origin: Some(identity::Origin::Ip(addr.ip())),
        ..Default::default()
    };
    tasks.spawn(async move {
        conn::serve(rd, wr, ctx, (ConnMode::Tcp, peer), Some(slot), stop).await;
    });
}

/// Serves an accepted TLS socket: the handshake (within the handshake timeout), then the
/// connection.
async fn serve_tls(
    stream: tokio::net::TcpStream,
    addr: SocketAddr,
    acceptor: tokio_rustls::TlsAcceptor,
    ctx: Arc<conn::Ctx>,
    stop: watch::Receiver<bool>,
    slot: slots::Slot,
) {
    let timeout = ctx.limits.handshake_timeout;
    match tokio::time::timeout(timeout, acceptor.accept(stream)).await {
        Ok(Ok(s)) => {
            let peer = conn::Peer {
                name: addr.to_string(),
                cert: tls::peer_dn(s.get_ref().1.peer_certificates()),
                origin: Some(identity::Origin::Ip(addr.ip())),
                local_uid: None,
                lanes: None,
            };
            let (rd, wr) = tokio::io::split(s);
            conn::serve(rd, wr, ctx, (ConnMode::Tls, peer), Some(slot), stop).await;
        }
        Ok(Err(e)) => tracing::warn!(peer = %addr, error = %e, "TLS handshake refused"),
        Err(_) => tracing::warn!(peer = %addr, "TLS handshake timed out"),
    }
}

/// Spawns the task serving an accepted local (Unix socket) connection, named by its pid.
fn spawn_unix(
    tasks: &mut JoinSet<()>,
    stream: tokio::net::UnixStream,
    ctx: Arc<conn::Ctx>,
    stop: watch::Receiver<bool>,
    slot: slots::Slot,
) {
    let cred = stream.peer_cred().ok();
    let name = cred
        .and_then(|c| c.pid())
        .map_or_else(|| "local".to_owned(), |pid| format!("pid {pid}"));
    let uid = cred.map(|c| c.uid());
    let peer = conn::Peer {
        name,
        cert: None,
        // A peer whose credentials cannot be read is nobody: it gets no one's authority.
        local_uid: Some(uid.unwrap_or(u32::MAX)),
        origin: Some(identity::Origin::Uid(uid.unwrap_or(u32::MAX))),
        lanes: None,
    };
    let (rd, wr) = stream.into_split();
    tasks.spawn(async move {
        conn::serve(rd, wr, ctx, (ConnMode::Local, peer), None, stop).await;
        drop(slot);
    });
}

/// The clean stop at the end of [`Server::run`]: the listener objects and sender channels end,
/// the queue manager quiesces, the connections are told to finish and given the grace period
/// (then aborted), the metrics endpoint ends, the queue manager stops and the socket file goes.
async fn stop_cleanly(
    qm: &QueueManager,
    config: &ServerConfig,
    tasks: &mut JoinSet<()>,
    hooks: Hooks,
    stop_tx: &watch::Sender<bool>,
    side_tasks: Vec<tokio::task::JoinHandle<()>>,
) {
    while tasks.try_join_next().is_some() {}
    tracing::info!(
        connections = tasks.len(),
        "stopping: quiescing the queue manager"
    );
    let Hooks {
        listener_objects,
        sender_channels,
        mqtt_channels,
    } = hooks;
    listener_objects.stop_all();
    mqtt_channels.stop_all();
    qm.set_mqtt_channel_hook(None);
    qm.clear_listener_hook();
    qm.set_channel_hook(None);
    let _ = tokio::task::spawn_blocking(move || sender_channels.shutdown()).await;
    qm.quiesce();
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(config.stop_grace, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            left = tasks.len(),
            "connections still open after the grace period; closing them"
        );
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
    }
    for t in side_tasks {
        let _ = t.await;
    }
    qm.stop();
    if let Some(path) = &config.unix_path {
        let _ = std::fs::remove_file(path);
    }
}

/// A TLS listener: the TCP socket and the handshake configuration.
struct TlsListener {
    listener: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
}

impl std::fmt::Debug for TlsListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsListener")
            .field("listener", &self.listener)
            .finish()
    }
}

/// Whether QMGR CONNAUTH makes every client connection give a password (CHCKCLNT REQUIRED).
fn clients_must_authenticate(qm: &QueueManager) -> bool {
    qm.connauth()
        .is_some_and(|(_, a)| a.check_client == ferry_model::objects::ConnCheck::Required)
}

/// Refuses a non-loopback address unless connections to it must authenticate.
fn refuse_unauthenticated(addr: SocketAddr, authenticated: bool) -> Result<(), StartError> {
    if addr.ip().is_loopback() || authenticated {
        return Ok(());
    }
    Err(StartError(format!(
        "refusing to listen on {addr}: it is not a loopback address and no authentication is \
         configured; listen on 127.0.0.1, or configure a user file ('ferry qm user add') or TLS \
         client certificates"
    )))
}

async fn listen(addr: SocketAddr) -> Result<TcpListener, StartError> {
    bind(addr, LISTEN_BACKLOG).map_err(|e| StartError(format!("cannot listen on {addr}: {e}")))
}

/// Connections a listener's port queues before they are accepted (as MQ's telemetry channels'
/// BACKLOG; the kernel caps it at `net.core.somaxconn`): a burst of clients connecting at once
/// waits here rather than having its SYNs dropped and retried a second later.
const LISTEN_BACKLOG: u32 = 4096;

/// A socket bound to `addr` (SO_REUSEADDR) and listening with `backlog`.
pub(crate) fn bind(addr: SocketAddr, backlog: u32) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()
    } else {
        tokio::net::TcpSocket::new_v6()
    }?;
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(backlog.max(1))
}

async fn accept_tcp(
    l: Option<&TcpListener>,
) -> Option<std::io::Result<(tokio::net::TcpStream, SocketAddr)>> {
    match l {
        Some(l) => Some(l.accept().await),
        None => std::future::pending().await,
    }
}

async fn accept_unix(l: Option<&UnixListener>) -> Option<std::io::Result<tokio::net::UnixStream>> {
    match l {
        Some(l) => Some(l.accept().await.map(|(s, _)| s)),
        None => std::future::pending().await,
    }
}

/// Binds the local socket, replacing a stale socket file left by a crash (the directory lock
/// proves no other server owns it), and makes it readable only by our user and group.
fn bind_unix(path: &std::path::Path) -> Result<UnixListener, StartError> {
    use std::os::unix::fs::PermissionsExt;
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| {
            StartError(format!(
                "cannot remove stale socket {}: {e}",
                path.display()
            ))
        })?;
    }
    let l = UnixListener::bind(path)
        .map_err(|e| StartError(format!("cannot listen on {}: {e}", path.display())))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o660))
        .map_err(|e| StartError(format!("cannot restrict {}: {e}", path.display())))?;
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[server]` defaults in ferry-core are the server's own defaults.
    #[test]
    fn section_defaults_match_server_defaults() {
        let dir = std::path::Path::new("/nonexistent/qm");
        let from = ServerConfig::from_section(dir, &Default::default()).unwrap();
        let own = ServerConfig::new(dir);
        assert_eq!(from.tcp_listen, own.tcp_listen);
        assert_eq!(from.unix_path, own.unix_path);
        assert_eq!(from.max_sockets, own.max_sockets);
        assert_eq!(from.stop_grace, own.stop_grace);
        let (a, b) = (from.limits, own.limits);
        assert_eq!(a.max_frame, b.max_frame);
        assert_eq!(a.max_conversations, b.max_conversations);
        assert_eq!(a.max_queued_requests, b.max_queued_requests);
        assert_eq!(a.max_read_ahead_msgs, b.max_read_ahead_msgs);
        assert_eq!(a.max_read_ahead_bytes, b.max_read_ahead_bytes);
        assert_eq!(a.heartbeat, b.heartbeat);
        assert_eq!(a.handshake_timeout, b.handshake_timeout);
    }

    #[test]
    fn bad_section_values_are_named() {
        let dir = std::path::Path::new("/nonexistent/qm");
        let s = ferry_host::config::ServerSection {
            listen: "localhost".into(),
            ..Default::default()
        };
        let e = ServerConfig::from_section(dir, &s).unwrap_err();
        assert!(e.0.contains("[server] listen"), "{e}");
        let s = ferry_host::config::ServerSection {
            tls_listen: "127.0.0.1:1415".into(),
            ..Default::default()
        };
        let e = ServerConfig::from_section(dir, &s).unwrap_err();
        assert!(e.0.contains("tls_cert"), "{e}");
    }
}
