//! LISTENER objects brought to life: START / STOP LISTENER open and close real TCP ports, and
//! listeners defined with CONTROL(QMGR) start with the server. Each running listener is an
//! accept task that hands its sockets to the server's accept loop, so they share its connection
//! limit, its authentication and its clean stop. Stopping a listener closes its port; the
//! connections it accepted carry on, as in MQ.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use ferry_core::qmgr::catalog::{ListenerHook, ListenerStatus};
use ferry_core::{MqError, MqResult, ObjectName, Reason};
use ferry_model::objects::ListenerAttrs;
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A socket a listener accepted, for the accept loop.
pub(crate) type Accepted = (TcpStream, SocketAddr);

struct Running {
    address: SocketAddr,
    started_unix_s: u64,
    task: JoinHandle<()>,
}

/// The server's listener control, registered with the queue manager while the server runs.
pub(crate) struct Listeners {
    runtime: tokio::runtime::Handle,
    accepted: mpsc::Sender<Accepted>,
    /// Whether tcp connections must authenticate (then a listener may bind a non-loopback
    /// address, and a blank IPADDR means every interface).
    authenticated: bool,
    running: Mutex<BTreeMap<ObjectName, Running>>,
}

impl std::fmt::Debug for Listeners {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listeners")
            .field("authenticated", &self.authenticated)
            .finish_non_exhaustive()
    }
}

impl Listeners {
    pub(crate) fn new(
        runtime: tokio::runtime::Handle,
        accepted: mpsc::Sender<Accepted>,
        authenticated: bool,
    ) -> Listeners {
        Listeners {
            runtime,
            accepted,
            authenticated,
            running: Mutex::new(BTreeMap::new()),
        }
    }

    /// Stops every listener (the server is stopping).
    pub(crate) fn stop_all(&self) {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        for (_, r) in std::mem::take(&mut *running) {
            r.task.abort();
        }
    }

    fn address(&self, attrs: &ListenerAttrs) -> MqResult<SocketAddr> {
        let ip: IpAddr = if attrs.ip_address.trim().is_empty() {
            if self.authenticated {
                Ipv4Addr::UNSPECIFIED.into()
            } else {
                Ipv4Addr::LOCALHOST.into()
            }
        } else {
            attrs.ip_address.trim().parse().map_err(|_| {
                MqError::new(
                    Reason::AttributeValueError,
                    format!(
                        "IPADDR('{}') is not an IP address like 127.0.0.1 or ::1 (host names are not resolved)",
                        attrs.ip_address
                    ),
                )
            })?
        };
        let addr = SocketAddr::new(ip, attrs.port);
        crate::refuse_unauthenticated(addr, self.authenticated)
            .map_err(|e| MqError::new(Reason::NotAuthorized, e.0))?;
        Ok(addr)
    }
}

impl ListenerHook for Listeners {
    fn start(&self, name: ObjectName, attrs: &ListenerAttrs) -> MqResult<()> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = running.get(&name) {
            if !r.task.is_finished() {
                return Err(MqError::new(
                    Reason::ListenerStarted,
                    format!("listener {name} is already running on {}", r.address),
                ));
            }
        }
        let addr = self.address(attrs)?;
        let cannot = |e: std::io::Error| {
            MqError::new(
                Reason::ResourceProblem,
                format!("listener {name} cannot listen on {addr}: {e}"),
            )
        };
        let listener = {
            let _entered = self.runtime.enter();
            let socket = if addr.is_ipv4() {
                TcpSocket::new_v4()
            } else {
                TcpSocket::new_v6()
            }
            .map_err(cannot)?;
            socket.set_reuseaddr(true).map_err(cannot)?;
            socket.bind(addr).map_err(cannot)?;
            socket.listen(attrs.backlog.max(1)).map_err(cannot)?
        };
        let bound = listener.local_addr().unwrap_or(addr);
        let tx = self.accepted.clone();
        let task_name = name;
        let task = self.runtime.spawn(async move {
            loop {
                match listener.accept().await {
                    Ok((stream, peer)) => {
                        if tx.send((stream, peer)).await.is_err() {
                            return;
                        }
                    }
                    Err(e) => tracing::warn!(listener = %task_name, error = %e, "accept failed"),
                }
            }
        });
        tracing::info!(listener = %name, address = %bound, "listener started");
        running.insert(
            name,
            Running {
                address: bound,
                started_unix_s: SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
                task,
            },
        );
        Ok(())
    }

    fn stop(&self, name: ObjectName) -> MqResult<()> {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        match running.remove(&name) {
            Some(r) => {
                r.task.abort();
                tracing::info!(listener = %name, address = %r.address, "listener stopped");
                Ok(())
            }
            None => Err(MqError::new(
                Reason::ListenerStopped,
                format!("listener {name} is not running"),
            )),
        }
    }

    fn status(&self) -> Vec<ListenerStatus> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running
            .iter()
            .map(|(n, r)| ListenerStatus {
                name: *n,
                address: r.address.to_string(),
                started_unix_s: r.started_unix_s,
            })
            .collect()
    }
}
