//! The web console's listeners (`[console]`): accepts browsers and scripts (at most
//! `max_connections` at once; more are closed when accepted), over TLS when asked, and hands
//! each connection to `ferry_console::serve_connection`. Passwords are checked as every
//! client's are ([`Gate`]); the history sampler runs beside.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::QueueManager;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::identity::{self, Identities};

/// How long a connection has to send a request head (and its TLS handshake).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The console's configuration: `[console]` in qm.toml.
#[derive(Debug, Clone)]
pub struct ConsoleConfig {
    /// Where it listens in the clear (loopback only).
    pub listen: Option<SocketAddr>,
    /// Where it listens over HTTPS, with the server's certificate.
    pub tls_listen: Option<(SocketAddr, crate::TlsSettings)>,
    /// Most connections at once, over both.
    pub max_connections: usize,
    /// The console's own limits.
    pub settings: ferry_console::Settings,
    /// The recovery log's directory (its disk is watched for "disk low").
    pub log_dir: Option<PathBuf>,
}

impl ConsoleConfig {
    /// The console `[console]` describes, or none when it listens nowhere. A clear listener
    /// beyond loopback is refused: the login's password would cross the network unencrypted.
    pub fn from_section(
        s: &ferry_host::config::ConsoleSection,
        server: &ferry_host::config::ServerSection,
        log_dir: Option<PathBuf>,
    ) -> Result<Option<ConsoleConfig>, crate::StartError> {
        let Some((listen, tls_listen)) = crate::service_addrs(
            "console",
            "127.0.0.1:9440",
            (&s.listen, &s.tls_listen),
            server,
        )?
        else {
            return Ok(None);
        };
        if let Some(a) = listen.filter(|a| !a.ip().is_loopback()) {
            return Err(crate::StartError(format!(
                "refusing to serve the console in the clear on {a}: it is not a loopback address, \
                 and passwords would cross the network unencrypted; use [console] tls_listen \
                 (with [server] tls_cert and tls_key), or listen on 127.0.0.1"
            )));
        }
        if s.max_connections == 0
            || s.max_logins == 0
            || s.sample_secs == 0
            || s.history_samples < 2
        {
            return Err(crate::StartError(
                "[console] max_connections, max_logins and sample_secs must be at least 1, history_samples at least 2".into(),
            ));
        }
        let settings = ferry_console::Settings {
            max_logins: s.max_logins,
            login_idle: Duration::from_secs(s.login_idle_mins.max(1) * 60),
            sample_every: Duration::from_secs(s.sample_secs),
            history_len: s.history_samples.min(100_000),
            ..Default::default()
        };
        Ok(Some(ConsoleConfig {
            listen,
            tls_listen,
            max_connections: s.max_connections,
            settings,
            log_dir,
        }))
    }
}

/// How console logins are checked: as the server's other clients' passwords are.
pub(crate) struct Gate {
    pub(crate) qm: QueueManager,
    pub(crate) ids: Arc<Identities>,
}

impl ferry_console::Gate for Gate {
    fn admit(&self, user: String, password: String, peer: SocketAddr) -> ferry_console::Admission {
        let (qm, ids) = (self.qm.clone(), self.ids.clone());
        Box::pin(async move {
            let origin = identity::Origin::Ip(peer.ip());
            identity::password_login(&qm, ids, user, password, origin)
                .await
                .map_err(|r| match r {
                    identity::Refusal::NoPassword(why) => why,
                    identity::Refusal::Wrong(why) => why,
                })
        })
    }
}

/// The console of `qm`: its gate, its disk probe.
pub(crate) fn console(
    qm: &QueueManager,
    ids: Arc<Identities>,
    c: &ConsoleConfig,
) -> Arc<ferry_console::Console> {
    let gate = Arc::new(Gate {
        qm: qm.clone(),
        ids,
    });
    let disk = c.log_dir.clone().map(|dir| {
        let probe: ferry_console::DiskProbe = Arc::new(move || {
            let (total, free) = ferry_host::probe::file_system(&dir);
            (total > 0).then_some((free, total))
        });
        probe
    });
    ferry_console::Console::new(qm.clone(), gate, c.settings.clone(), disk)
}

/// Accepts console connections on `listener` (over TLS with `tls`) while `slots` has room,
/// until `stop` turns true; then ends the connections still open.
pub(crate) async fn serve(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    router: ferry_console::Router,
    slots: Arc<tokio::sync::Semaphore>,
    mut stop: watch::Receiver<bool>,
) {
    let mut conns = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, addr)) => {
                    let Ok(slot) = slots.clone().try_acquire_owned() else {
                        tracing::debug!(peer = %addr, "console connection closed: every slot is busy");
                        continue;
                    };
                    let (router, tls) = (router.clone(), tls.clone());
                    conns.spawn(async move {
                        match tls {
                            None => ferry_console::serve_connection(stream, router, addr, false, HEAD_TIMEOUT).await,
                            Some(acceptor) => match tokio::time::timeout(HEAD_TIMEOUT, acceptor.accept(stream)).await {
                                Ok(Ok(t)) => ferry_console::serve_connection(t, router, addr, true, HEAD_TIMEOUT).await,
                                _ => tracing::debug!(peer = %addr, "console TLS handshake failed"),
                            },
                        }
                        drop(slot);
                    });
                }
                Err(e) => tracing::warn!(error = %e, "console accept failed"),
            },
            _ = stop.changed() => break,
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
        }
    }
    conns.abort_all();
}
