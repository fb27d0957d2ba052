//! The FerryMQ daemon: listeners for the local (Unix socket) and tcp connection modes, and the
//! remote sessions they carry. The only crate that owns sockets and the async runtime.
//!
//! Shape (after mini-redis): [`Server::bind`] opens the listeners; [`Server::run`] accepts
//! connections — bounded by a semaphore — and spawns one task per socket (`conn.rs`), until the
//! shutdown future completes; then it quiesces the queue manager, tells every connection task to
//! finish (their conversations back out their units of work), waits a bounded time, and stops.

mod conn;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::{ConnMode, QueueManager};
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

pub use conn::ConnLimits;

/// How the server listens and what it bounds.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// TCP listener address; `None` for no TCP listener. Default `127.0.0.1:1414`.
    pub tcp_listen: Option<SocketAddr>,
    /// Unix socket path; `None` for none. Default `<queue manager directory>/ferry.sock`.
    pub unix_path: Option<PathBuf>,
    /// Most sockets open at once; further connections wait in the accept backlog.
    pub max_sockets: usize,
    /// Per-connection limits.
    pub limits: ConnLimits,
    /// How long a clean stop waits for connections to finish before stopping anyway.
    pub stop_grace: Duration,
}

/// Default TCP port, as MQ's.
pub const DEFAULT_PORT: u16 = 1414;
/// File name of the local socket in the queue manager's directory.
pub const SOCKET_FILE: &str = "ferry.sock";

impl ServerConfig {
    /// Defaults for a queue manager whose directory is `qm_dir`.
    pub fn new(qm_dir: &std::path::Path) -> Self {
        ServerConfig {
            tcp_listen: Some(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT))),
            unix_path: Some(qm_dir.join(SOCKET_FILE)),
            max_sockets: 1000,
            limits: ConnLimits::default(),
            stop_grace: Duration::from_secs(5),
        }
    }
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
}

impl Server {
    /// Binds the configured listeners. A TCP address that is not loopback is refused: remote
    /// access needs authentication, which arrives with the TLS and user-file settings.
    pub async fn bind(qm: QueueManager, config: ServerConfig) -> Result<Server, StartError> {
        let tcp = match config.tcp_listen {
            None => None,
            Some(addr) => {
                if !addr.ip().is_loopback() {
                    return Err(StartError(format!(
                        "refusing to listen on {addr}: it is not a loopback address and no authentication is configured; \
                         listen on 127.0.0.1 or configure authentication"
                    )));
                }
                Some(
                    TcpListener::bind(addr)
                        .await
                        .map_err(|e| StartError(format!("cannot listen on {addr}: {e}")))?,
                )
            }
        };
        let unix = match &config.unix_path {
            None => None,
            Some(path) => Some(bind_unix(path)?),
        };
        Ok(Server {
            qm,
            config,
            tcp,
            unix,
        })
    }

    /// The bound TCP address (useful when the configured port was 0).
    pub fn tcp_addr(&self) -> Option<SocketAddr> {
        self.tcp.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// The Unix socket path.
    pub fn unix_path(&self) -> Option<&std::path::Path> {
        self.config.unix_path.as_deref()
    }

    /// Accepts connections until `shutdown` completes, then stops cleanly.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()>) {
        let Server {
            qm,
            config,
            tcp,
            unix,
        } = self;
        let (stop_tx, stop_rx) = watch::channel(false);
        let permits = Arc::new(Semaphore::new(config.max_sockets));
        let mut tasks = JoinSet::new();
        let ctx = Arc::new(conn::Ctx {
            qm: qm.clone(),
            limits: config.limits.clone(),
        });
        tokio::pin!(shutdown);
        loop {
            let permit = tokio::select! {
                _ = &mut shutdown => break,
                p = permits.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
            };
            tokio::select! {
                _ = &mut shutdown => break,
                Some(accepted) = accept_tcp(tcp.as_ref()) => match accepted {
                    Ok((stream, addr)) => {
                        let _ = stream.set_nodelay(true);
                        let (rd, wr) = stream.into_split();
                        let (ctx, stop) = (ctx.clone(), stop_rx.clone());
                        tasks.spawn(async move {
                            conn::serve(rd, wr, ctx, ConnMode::Tcp, addr.to_string(), stop).await;
                            drop(permit);
                        });
                    }
                    Err(e) => tracing::warn!(error = %e, "tcp accept failed"),
                },
                Some(accepted) = accept_unix(unix.as_ref()) => match accepted {
                    Ok(stream) => {
                        let peer = stream.peer_cred().ok().and_then(|c| c.pid()).map_or_else(
                            || "local".to_owned(),
                            |pid| format!("pid {pid}"),
                        );
                        let (rd, wr) = stream.into_split();
                        let (ctx, stop) = (ctx.clone(), stop_rx.clone());
                        tasks.spawn(async move {
                            conn::serve(rd, wr, ctx, ConnMode::Local, peer, stop).await;
                            drop(permit);
                        });
                    }
                    Err(e) => tracing::warn!(error = %e, "local accept failed"),
                },
            }
            while tasks.try_join_next().is_some() {}
        }
        tracing::info!(
            connections = tasks.len(),
            "stopping: quiescing the queue manager"
        );
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
        qm.stop();
        if let Some(path) = &config.unix_path {
            let _ = std::fs::remove_file(path);
        }
    }
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
