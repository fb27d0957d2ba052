//! Shared helpers for FerryMQ's benchmarks: argument parsing, medians, and the raw in-process
//! limit that every embedded figure is printed beside.

use std::time::Duration;

/// The allocator the `ferry` binary (and so `ferry perf`, the queue manager and its clients)
/// ships with, for every bench binary too: with the C library's allocator the embedded
/// ladder measured about half of what `ferry perf` measured (598,814 against 1.3 M msg/s, its
/// hand-off 3.1 M against 4.7 M; docs/perf.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Options common to every bench binary: `--secs N` per run, `--runs N` (median reported).
#[derive(Debug, Clone, Copy)]
pub struct BenchArgs {
    /// Length of each measured run.
    pub secs: f64,
    /// How many runs; the median is reported.
    pub runs: usize,
}

impl BenchArgs {
    /// Parses `--secs` and `--runs` from the command line (cargo passes `--bench`, ignored).
    pub fn from_env() -> Self {
        let mut a = BenchArgs { secs: 3.0, runs: 3 };
        let args: Vec<String> = std::env::args().collect();
        let mut i = 1;
        while i < args.len() {
            match args[i].as_str() {
                "--secs" => {
                    a.secs = args
                        .get(i + 1)
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(a.secs);
                    i += 1;
                }
                "--runs" => {
                    a.runs = args
                        .get(i + 1)
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(a.runs)
                        .max(1);
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        a
    }

    /// The run length.
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.secs)
    }
}

/// The median of `xs` (sorted copy).
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

pub use ferry_perf::limits::{handoff_rate as raw_handoff_rate, payload};
pub use ferry_perf::report::fmt_rate;

/// Defines BENCH.Q and ten request/reply queue pairs (BENCH.REQ.k, BENCH.REPLY.k), deep enough
/// for any run.
pub fn define_bench_queues(qm: &ferry_core::QueueManager) {
    use ferry_core::{LocalQueueAttrs, QueueDefinition};
    let attrs = LocalQueueAttrs {
        max_depth: 10_000_000,
        ..LocalQueueAttrs::default()
    };
    qm.define_queue("BENCH.Q", QueueDefinition::Local(attrs.clone()), true)
        .expect("define BENCH.Q");
    for k in 0..10 {
        for prefix in ["BENCH.REQ", "BENCH.REPLY"] {
            qm.define_queue(
                &format!("{prefix}.{k}"),
                QueueDefinition::Local(attrs.clone()),
                true,
            )
            .expect("define bench queue");
        }
    }
}

/// A queue manager served in this process on its own runtime, as `ferry qm start` does
/// (FERRY_BENCH_SERVER_THREADS worker threads, default 1), with a Unix socket in `dir` and a
/// loopback tcp listener.
#[derive(Debug)]
pub struct InProcessServer {
    /// `unix:` endpoint.
    pub unix: String,
    /// `tcp://` endpoint, as [`BENCH_USER`] (an administrator: no authority record is read).
    pub tcp: String,
    /// The same endpoint as [`APP_USER`], an ordinary user whose every open is checked against
    /// authority records (CONNECT on the queue manager, ALLMQI on `BENCH.**`).
    pub tcp_app: String,
    /// The TLS listener's address, when one was configured.
    pub tls_addr: Option<std::net::SocketAddr>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The queue manager served.
    pub qm: ferry_core::QueueManager,
}

impl InProcessServer {
    /// Serves `qm`. Its tcp clients authenticate (CHCKCLNT is REQUIRED) as [`BENCH_USER`], an
    /// administrator (in the owner's group of the user file the bench writes in `dir`).
    pub fn start(qm: ferry_core::QueueManager, dir: &std::path::Path) -> Self {
        Self::start_with(qm, dir, |_| {})
    }

    /// Serves `qm` with the configuration `configure` adjusts (a TLS listener, channel TLS).
    pub fn start_with(
        qm: ferry_core::QueueManager,
        dir: &std::path::Path,
        configure: impl FnOnce(&mut ferry_server::ServerConfig),
    ) -> Self {
        let mut config = ferry_server::ServerConfig::new(dir);
        config.tcp_listen = Some("127.0.0.1:0".parse().expect("address"));
        config.users = Some(write_bench_users(dir));
        // Every client of a bench connects from 127.0.0.1, up to 64 requesters and their
        // responders at once: more sockets than the default 64 may wait to open a conversation
        // (as benches/rr-vs-nats.sh sets for its queue manager).
        config.max_unopened_per_address = 1024;
        configure(&mut config);
        allow_bench_administrator(&qm);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let qm2 = qm.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(
                    std::env::var("FERRY_BENCH_SERVER_THREADS")
                        .ok()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(1),
                )
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let server = ferry_server::Server::bind(qm2, config).await.expect("bind");
                let unix = format!("unix:{}", server.unix_path().expect("unix").display());
                let tls = server.tls_addr();
                let tcp = format!(
                    "tcp://{BENCH_USER}:{BENCH_PASSWORD}@{}",
                    server.tcp_addr().expect("tcp")
                );
                addr_tx.send((unix, tcp, tls)).expect("addresses");
                server
                    .run(async move {
                        let _ = rx.await;
                    })
                    .await;
            });
        });
        let (unix, tcp, tls_addr) = addr_rx.recv().expect("server started");
        grant_app(&qm);
        let tcp_app = tcp.replacen(
            &format!("{BENCH_USER}:{BENCH_PASSWORD}"),
            &format!("{APP_USER}:{APP_PASSWORD}"),
            1,
        );
        InProcessServer {
            unix,
            tcp,
            tcp_app,
            tls_addr,
            stop: Some(tx),
            thread: Some(thread),
            qm,
        }
    }
}

/// Connects a bench client to `endpoint` as `app`, trying again for up to 30 s while the queue
/// manager answers 2025 (MQRC_MAX_CONNS_LIMIT_REACHED: sockets waiting to open a conversation or
/// password checks waiting for a verifier are at their bounds — "try again later"), as an MQ
/// application retries a connect. Panics with the reason otherwise.
pub fn connect(endpoint: &str, app: &str) -> ferry_client::Connection {
    let until = std::time::Instant::now() + Duration::from_secs(30);
    let mut pause = Duration::from_millis(1);
    loop {
        match ferry_client::Connection::connect(endpoint, app) {
            Ok(c) => return c,
            Err(e)
                if e.reason == ferry_client::Reason::MaxConnsLimitReached
                    && std::time::Instant::now() < until =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(e) => panic!("{app} cannot connect to {endpoint}: {e}"),
        }
    }
}

/// The user the benches' tcp clients authenticate as.
pub const BENCH_USER: &str = "bench";
/// Its password.
pub const BENCH_PASSWORD: &str = "bench-password";

/// Lets [`BENCH_USER`], an administrator, in over tcp: its own BLOCKUSER list for the
/// application channel, more specific than MQ's back-stop record that refuses administrators.
fn allow_bench_administrator(qm: &ferry_core::QueueManager) {
    use ferry_model::chlauth::{ChlAuthRule, RuleKind, UserSrc};
    qm.set_chlauth(ChlAuthRule {
        profile: "DEV.APP.SVRCONN".into(),
        kind: RuleKind::BlockUser(vec!["nobody".into()]),
        address: String::new(),
        usersrc: UserSrc::Channel,
        mcauser: String::new(),
        warn: false,
        description: "benches administer over tcp".into(),
    })
    .expect("CHLAUTH for the bench administrator");
}

/// An ordinary user of the benches' queue managers.
pub const APP_USER: &str = "benchapp";
/// Its password.
pub const APP_PASSWORD: &str = "benchapp-password";

/// The authority records [`APP_USER`] works under: CONNECT and INQ on the queue manager, every
/// MQI authority on the bench queues, through a group and a generic profile (the common shape).
pub fn grant_app(qm: &ferry_core::QueueManager) {
    use ferry_model::security::{AuthObjType, Authority, Entity};
    let group = Entity::Group("benchapps".into());
    qm.set_authrec(
        qm.name().as_str(),
        AuthObjType::QMgr,
        &group,
        Authority::CONNECT.with(Authority::INQ),
        Authority::NONE,
    )
    .expect("grant connect");
    qm.set_authrec(
        "BENCH.**",
        AuthObjType::Queue,
        &group,
        Authority::ALLMQI,
        Authority::NONE,
    )
    .expect("grant the bench queues");
}

/// Writes `dir/users.toml` with [`BENCH_USER`] in the owner's primary group and [`APP_USER`]
/// in `benchapps`.
fn write_bench_users(dir: &std::path::Path) -> std::path::PathBuf {
    let path = ferry_server::auth::user_file_path(dir);
    let mut f = ferry_server::UserFile::default();
    f.users.insert(
        BENCH_USER.into(),
        ferry_server::auth::hash_password(BENCH_PASSWORD).expect("hash"),
    );
    if let Some(g) = ferry_host::accounts::current().and_then(|a| a.groups.into_iter().next()) {
        f.groups.insert(g, vec![BENCH_USER.into()]);
    }
    f.users.insert(
        APP_USER.into(),
        ferry_server::auth::hash_password(APP_PASSWORD).expect("hash"),
    );
    f.groups.insert("benchapps".into(), vec![APP_USER.into()]);
    f.save(&path).expect("write the bench user file");
    path
}

impl Drop for InProcessServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
