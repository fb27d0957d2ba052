//! MQTT channels brought to life (DEFINE CHANNEL(name) CHLTYPE(MQTT), as MQ's telemetry
//! channels): each listens on its LOCLADDR and PORT, over TLS when it has an SSLCIPH (the
//! server's certificate; SSLCAUTH says whether clients must present theirs), taking the MQTT
//! versions and WebSocket its PROTOCOL lists, with its USECLTID and MCAUSER rules. They share
//! the `[mqtt]` service's broker and its `max_clients`. A channel starts when it is defined
//! and when the server starts; STOP CHANNEL closes its port and ends its clients' connections
//! (their sessions stay, as after any disconnection); ALTER restarts it.
//!
//! Invariant: a name in `running` has one accept task whose stop signal only this map holds.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ferry_core::qmgr::catalog::{MqttChannelHook, MqttChannelRun};
use ferry_core::{MqError, MqResult, ObjectName, Reason};
use ferry_model::objects::{ChannelAttrs, SslClientAuth};
use tokio::sync::watch;

use crate::mqtt::{Transport, Ws};
use crate::TlsSettings;

struct Running {
    address: SocketAddr,
    started_unix_s: u64,
    stop: watch::Sender<bool>,
    /// The listening socket, shared with the accept task: STOP shuts it down at once, so the
    /// port is free when the command returns (the task ends on its own time).
    socket: socket2::Socket,
}

impl Running {
    /// Closes the port now and tells the accept task and the connections to end.
    fn end(self) {
        let _ = self.socket.shutdown(std::net::Shutdown::Read);
        let _ = self.stop.send(true);
    }
}

/// The MQTT service its channels share.
pub(crate) struct MqttService {
    pub(crate) broker: Arc<ferry_mqtt::Broker>,
    pub(crate) slots: Arc<tokio::sync::Semaphore>,
}

/// The server's MQTT channel control, registered with the queue manager while it runs.
pub(crate) struct MqttChannels {
    runtime: tokio::runtime::Handle,
    service: MqttService,
    /// The server's certificate and key (`[server] tls_cert`, `tls_key`) and client CA.
    cert: Option<TlsSettings>,
    /// Whether clients must authenticate (then a channel may listen beyond loopback, and a
    /// blank LOCLADDR means every interface).
    authenticated: bool,
    grace: Duration,
    running: Mutex<BTreeMap<ObjectName, Running>>,
}

impl std::fmt::Debug for MqttChannels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MqttChannels")
            .field("authenticated", &self.authenticated)
            .finish_non_exhaustive()
    }
}

impl MqttChannels {
    pub(crate) fn new(
        service: MqttService,
        cert: Option<TlsSettings>,
        authenticated: bool,
        grace: Duration,
    ) -> MqttChannels {
        MqttChannels {
            runtime: tokio::runtime::Handle::current(),
            service,
            cert,
            authenticated,
            grace,
            running: Mutex::new(BTreeMap::new()),
        }
    }

    /// Stops every channel (the server is stopping; its own stop ends the connections too).
    pub(crate) fn stop_all(&self) {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        for (_, r) in std::mem::take(&mut *running) {
            r.end();
        }
    }

    /// LOCLADDR and PORT as an address, refused beyond loopback unless clients authenticate.
    fn address(&self, a: &ChannelAttrs) -> MqResult<SocketAddr> {
        let ip: IpAddr = match a.local_addr.trim() {
            "" if self.authenticated => Ipv4Addr::UNSPECIFIED.into(),
            "" => Ipv4Addr::LOCALHOST.into(),
            text => text.parse().map_err(|_| {
                MqError::new(
                    Reason::AttributeValueError,
                    format!("LOCLADDR('{text}') is not an IP address like 127.0.0.1 or ::1 (host names are not resolved)"),
                )
            })?,
        };
        let addr = SocketAddr::new(ip, a.port);
        crate::refuse_unauthenticated(addr, self.authenticated)
            .map_err(|e| MqError::new(Reason::NotAuthorized, e.0))?;
        Ok(addr)
    }

    /// SSLCIPH's TLS: the server's certificate, client certificates as SSLCAUTH says.
    fn tls(&self, a: &ChannelAttrs) -> MqResult<Option<tokio_rustls::TlsAcceptor>> {
        if a.ssl_cipher.is_empty() {
            return Ok(None);
        }
        let Some(cert) = &self.cert else {
            return Err(MqError::new(
                Reason::ResourceProblem,
                format!("SSLCIPH({}) needs the queue manager's certificate: set [server] tls_cert and tls_key in qm.toml", a.ssl_cipher),
            ));
        };
        let mut settings = cert.clone();
        let optional = match a.ssl_client_auth {
            SslClientAuth::Never => {
                settings.client_ca = None;
                false
            }
            SslClientAuth::Optional => true,
            SslClientAuth::Required => false,
        };
        if a.ssl_client_auth != SslClientAuth::Never && settings.client_ca.is_none() {
            return Err(MqError::new(
                Reason::ResourceProblem,
                format!("SSLCAUTH({}) needs a CA for client certificates: set [server] tls_client_ca, or SSLCAUTH(NEVER)", a.ssl_client_auth.word()),
            ));
        }
        let config = crate::tls::server_config_client_auth(&settings, optional)
            .map_err(|e| MqError::new(Reason::ResourceProblem, e.0))?;
        Ok(Some(tokio_rustls::TlsAcceptor::from(config)))
    }

    /// How the channel's clients arrive: TLS, WebSocket, its name and rules.
    fn transport(&self, name: ObjectName, a: &ChannelAttrs) -> MqResult<Transport> {
        let (raw, http) = a.mqtt_transports();
        let ws = match (raw, http) {
            (true, true) => Ws::Either,
            (false, _) => Ws::Always,
            (true, false) => Ws::Never,
        };
        Ok(Transport {
            tls: self.tls(a)?,
            ws,
            channel: name.as_str().into(),
            rules: Arc::new(ferry_mqtt::ChannelRules {
                versions: a.mqtt_versions(),
                use_client_id: a.use_client_id,
                mca_user: a.mca_user.trim().to_owned(),
            }),
        })
    }
}

impl MqttChannelHook for MqttChannels {
    fn start(&self, name: ObjectName, attrs: &ChannelAttrs) -> MqResult<()> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = running.get(&name) {
            return Err(MqError::new(
                Reason::ChannelInUse,
                format!("MQTT channel {name} is already listening on {}", r.address),
            ));
        }
        let addr = self.address(attrs)?;
        let transport = self.transport(name, attrs)?;
        let listener = {
            let _entered = self.runtime.enter();
            crate::bind(addr, attrs.backlog).map_err(|e| {
                MqError::new(
                    Reason::ResourceProblem,
                    format!("MQTT channel {name} cannot listen on {addr}: {e}"),
                )
            })?
        };
        let bound = listener.local_addr().unwrap_or(addr);
        let socket = socket2::SockRef::from(&listener).try_clone().map_err(|e| {
            MqError::new(Reason::ResourceProblem, format!("MQTT channel {name}: {e}"))
        })?;
        let (stop, stopped) = watch::channel(false);
        let (b, s) = (self.service.broker.clone(), self.service.slots.clone());
        self.runtime.spawn(crate::mqtt::serve(
            listener, transport, b, s, stopped, self.grace,
        ));
        tracing::info!(channel = %name, address = %bound, "MQTT channel listening");
        let started_unix_s = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        running.insert(
            name,
            Running {
                address: bound,
                started_unix_s,
                stop,
                socket,
            },
        );
        Ok(())
    }

    fn stop(&self, name: ObjectName) -> MqResult<()> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        match running.remove(&name) {
            Some(r) => {
                tracing::info!(channel = %name, address = %r.address, "MQTT channel stopped; its clients are disconnected");
                r.end();
                Ok(())
            }
            None => Err(MqError::new(
                Reason::ChannelNotActive,
                format!("MQTT channel {name} is not running"),
            )),
        }
    }

    fn running(&self) -> Vec<MqttChannelRun> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running
            .iter()
            .map(|(n, r)| MqttChannelRun {
                name: *n,
                address: r.address.to_string(),
                started_unix_s: r.started_unix_s,
            })
            .collect()
    }
}
