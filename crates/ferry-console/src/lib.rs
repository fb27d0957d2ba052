//! The web console: a page to see and run a queue manager from the browser, and the HTTP/JSON
//! admin API it stands on (`/api/v1/…`, docs/console.md), served by the queue manager itself.
//!
//! ```text
//! browser ──HTTP(S)──> server's accept task ──> serve_connection (hyper, one per socket)
//!                                                  └─> router: /            the page (assets/)
//!                                                              /api/v1/...  api.rs, messages.rs
//! sampler task (history.rs): every interval, each local queue's depth and counters ──> rings
//! ```
//!
//! Who: every API request but `POST /api/v1/login` needs a login (a cookie the login sets, or
//! HTTP Basic on each request for scripts), verified as every other client's password is (the
//! server's [`Gate`]). What: each request acts as that principal — MQSC through
//! `ferry_admin::run_script_as` (the executor `ferry admin` uses, with its authority checks),
//! messages through an engine session connected as the principal, lists filtered to the
//! objects the principal may display (+dsp).
//!
//! Bounds: [`Settings`] — logins held, their idle time, request bodies, a browse page, the
//! history kept; the server bounds connections and the time to send a request.

mod alter;
mod api;
mod assets;
mod auth;
mod error;
mod history;
mod messages;
mod overview;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_core::model::security::Principal;
use ferry_core::QueueManager;
use tokio::io::{AsyncRead, AsyncWrite};

pub use error::ApiError;

/// The console's routes, as the server serves them.
pub type Router = axum::Router;

/// What a login attempt comes to: the principal, or why not (a sentence).
pub type Admission = Pin<Box<dyn Future<Output = Result<Principal, String>> + Send>>;

/// How the console checks a user's password: the server's own rules (CONNAUTH, the user file
/// or the system's accounts, the failure throttle).
pub trait Gate: Send + Sync {
    /// Verifies `user`'s `password` for a request from `peer`.
    fn admit(&self, user: String, password: String, peer: SocketAddr) -> Admission;
}

/// The console's limits and choices (`[console]` in qm.toml).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Logins held at once; the one idle longest makes room for a new one.
    pub max_logins: usize,
    /// A login unused this long is forgotten (its cookie no longer works).
    pub login_idle: Duration,
    /// How often the history is sampled.
    pub sample_every: Duration,
    /// Samples kept (for the charts: `sample_every × history_len` of history).
    pub history_len: usize,
    /// Queues whose history is kept (the first by name beyond this have none).
    pub history_queues: usize,
    /// Largest request body, bytes (a message put from the page, an MQSC script).
    pub max_body: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_logins: 256,
            login_idle: Duration::from_secs(30 * 60),
            sample_every: Duration::from_secs(2),
            history_len: 180,
            history_queues: 10_000,
            max_body: 4 << 20,
        }
    }
}

/// How the server measures the recovery log's disk: (free, total) bytes.
pub type DiskProbe = Arc<dyn Fn() -> Option<(u64, u64)> + Send + Sync>;

/// One queue manager's console: its logins, its history, what it serves.
pub struct Console {
    qm: QueueManager,
    gate: Arc<dyn Gate>,
    settings: Settings,
    logins: auth::Logins,
    history: history::History,
    audit: parking_lot::Mutex<std::collections::VecDeque<serde_json::Value>>,
    started: Instant,
    disk: Option<DiskProbe>,
}

impl std::fmt::Debug for Console {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Console")
            .field("qm", &self.qm.name())
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

/// Audit entries the console keeps to show (`GET /api/v1/audit`); every one is also logged.
pub const AUDIT_KEPT: usize = 500;

impl Console {
    /// The console of `qm`, checking passwords through `gate` (and the log's disk with `disk`).
    pub fn new(
        qm: QueueManager,
        gate: Arc<dyn Gate>,
        settings: Settings,
        disk: Option<DiskProbe>,
    ) -> Arc<Console> {
        Arc::new(Console {
            logins: auth::Logins::new(settings.max_logins, settings.login_idle),
            history: history::History::new(settings.history_len, settings.history_queues),
            qm,
            gate,
            settings,
            audit: parking_lot::Mutex::new(std::collections::VecDeque::new()),
            started: Instant::now(),
            disk,
        })
    }

    /// The routes: the page and the API.
    pub fn router(self: &Arc<Self>) -> axum::Router {
        api::router(self.clone())
            .merge(assets::router())
            .layer(axum::extract::DefaultBodyLimit::max(self.settings.max_body))
    }

    /// Samples the history every [`Settings::sample_every`] until `stop` turns true.
    pub async fn run_sampler(self: Arc<Self>, mut stop: tokio::sync::watch::Receiver<bool>) {
        let mut tick = tokio::time::interval(self.settings.sample_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => self.history.sample(&self.qm),
                _ = stop.changed() => return,
            }
        }
    }

    /// Samples in a minute: how far back a queue's growth is measured.
    fn growth_window(&self) -> usize {
        (60.0 / self.settings.sample_every.as_secs_f64().max(0.001))
            .round()
            .max(1.0) as usize
    }

    /// Records an administrative action: logged (target `ferry::audit`) and kept for the page.
    fn audit(&self, user: &str, action: &str, object: &str, detail: serde_json::Value) {
        tracing::info!(target: "ferry::audit", user, action, object, %detail, "console action");
        let entry = serde_json::json!({
            "time": now_text(),
            "user": user, "action": action, "object": object, "detail": detail,
        });
        let mut kept = self.audit.lock();
        if kept.len() >= AUDIT_KEPT {
            kept.pop_front();
        }
        kept.push_back(entry);
    }
}

/// Serves one accepted connection (already through its TLS handshake, when there is one) with
/// `router`: HTTP/1.1, keep-alive, the request head within `head_timeout`. `over_tls` says
/// whether `io` is a TLS stream.
pub async fn serve_connection<I>(
    io: I,
    router: Router,
    peer: SocketAddr,
    over_tls: bool,
    head_timeout: Duration,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let router = router
        .layer(axum::Extension(Peer(peer)))
        .layer(axum::Extension(OverTls(over_tls)));
    let service = hyper_util::service::TowerToHyperService::new(router);
    let served = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(head_timeout)
        .max_buf_size(64 * 1024)
        .serve_connection(hyper_util::rt::TokioIo::new(io), service)
        .await;
    if let Err(e) = served {
        tracing::debug!(peer = %peer, error = %e, "console connection ended");
    }
}

/// Whether a request came over TLS (the login cookie is then `Secure`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OverTls(pub(crate) bool);

/// The address a request came from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) SocketAddr);

/// Now, as MQ shows a date and time: `2026-11-27 06.15.16` (UTC).
fn now_text() -> String {
    let (d, t) = ferry_core::model::clock::date_time(std::time::SystemTime::now());
    format!("{d} {t}")
}
