//! `ferry qm create|start|stop|list`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ferry_core::{MqError, Reason};
use ferry_host::home::{self, DirLock, CONFIG_FILE, LOCK_FILE};

use crate::{qm_dir, signals, CliError};

/// How long `qm stop` waits for the queue manager to let go of its lock.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);
/// File in the queue manager's directory listing its endpoints, one connection string a line,
/// while it runs.
pub const ENDPOINTS_FILE: &str = "endpoints";

fn listeners_file(server: &ferry_server::Server) -> String {
    let mut s = String::new();
    if let Some(p) = server.unix_path() {
        s.push_str(&format!("unix:{}\n", p.display()));
    }
    if let Some(a) = server.tcp_addr() {
        s.push_str(&format!("tcp://{a}\n"));
    }
    if let Some(a) = server.tls_addr() {
        s.push_str(&format!("tls://{a}\n"));
    }
    if let Some(a) = server.quic_addr() {
        s.push_str(&format!("quic://{a}\n"));
    }
    if let Some(a) = server.mqtt_addr() {
        s.push_str(&format!("mqtt://{a}\n"));
    }
    if let Some(a) = server.mqtt_tls_addr() {
        s.push_str(&format!("mqtts://{a}\n"));
    }
    match server.mqtt_ws_addrs() {
        (Some(a), _) => s.push_str(&format!("ws://{a}/mqtt\n")),
        (_, Some(a)) => s.push_str(&format!("wss://{a}/mqtt\n")),
        _ => {}
    }
    if let Some(a) = server.console_addr() {
        s.push_str(&format!("http://{a}/\n"));
    }
    if let Some(a) = server.console_tls_addr() {
        s.push_str(&format!("https://{a}/\n"));
    }
    if let Some(a) = server.metrics_addr() {
        let scheme = if server.metrics_https() {
            "https"
        } else {
            "http"
        };
        s.push_str(&format!("{scheme}://{a}/metrics\n"));
    }
    s
}

/// How often the expiry sweeper looks for expired messages.
const EXPIRY_INTERVAL: Duration = Duration::from_secs(5);
/// How often the `$SYS/MQ/INFO/QMGR/.../Monitor` data topics publish (MQ's default, 10 s;
/// FERRY_MONITOR_INTERVAL_MS overrides it, for tests).
const MONITOR_INTERVAL: Duration = Duration::from_secs(10);

/// The error for a queue manager that has no directory under `home`.
fn no_such_qm(home: &Path, name: &str) -> MqError {
    MqError::new(
        Reason::QMgrNameError,
        format!(
            "there is no queue manager {name} in {}; create it with 'ferry qm create {name}'",
            home.join("qmgrs").display()
        ),
    )
}

/// The first port a new queue manager tries (MQ's).
const FIRST_PORT: u16 = 1414;

/// `ferry qm create`: listening on `listen`, or on the first loopback port from 1414 up that
/// no other queue manager here is configured with and nothing listens on.
pub fn create(home: &Path, name: &str, listen: Option<&str>) -> Result<(), CliError> {
    qm_dir(home, name)?;
    if let Some(a) = listen.filter(|a| !a.is_empty()) {
        a.parse::<std::net::SocketAddr>().map_err(|e| {
            crate::usage_error(
                "qm",
                format!("--listen {a}: not an address like 127.0.0.1:1414 ({e})"),
            )
        })?;
    }
    let (addr, skipped) = match listen {
        Some(a) => (a.to_owned(), Vec::new()),
        None => home::free_listen(home, FIRST_PORT),
    };
    let dir = home::create_listening(home, name, &addr)?;
    ferry_host::outln!("created queue manager {name} in {}", dir.display());
    for (a, who) in &skipped {
        ferry_host::outln!("  {a} is taken by {who}");
    }
    match addr.as_str() {
        "" => ferry_host::outln!("it has no TCP listener ([server] listen in qm.toml)"),
        a => ferry_host::outln!("it will listen on {a} (change with 'ferry qm start {name} --listen ADDR' or [server] listen in qm.toml)"),
    }
    Ok(())
}

/// Before anything is opened: the TCP address is free, or an error naming who holds it and
/// what to do.
fn check_listen(
    home: &Path,
    name: &str,
    dir: &Path,
    addr: Option<std::net::SocketAddr>,
) -> Result<(), CliError> {
    let Some(addr) = addr.filter(|a| a.port() != 0) else {
        return Ok(());
    };
    match std::net::TcpListener::bind(addr) {
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {}
        _ => return Ok(()),
    }
    let by_qm = home::list(home)
        .into_iter()
        .filter(|n| n != name)
        .find_map(|n| {
            let other = home::qm_dir(home, &n);
            let file = home::QmFile::load(&other).ok()?;
            let same = file.server.listen.parse::<std::net::SocketAddr>().ok() == Some(addr);
            let pid = home::running_pid(&other)?;
            same.then(|| format!("queue manager {n} (pid {pid})"))
        });
    let holder = by_qm.or_else(|| {
        ferry_host::net::listener_holder(addr.port())
            .map(|(pid, comm)| format!("{comm} (pid {pid})"))
    });
    let (free, _) = home::free_listen(home, FIRST_PORT);
    Err(CliError::other(format!(
        "cannot listen on {addr}: the address is in use by {}; start {name} on another with 'ferry qm start {name} --listen {free}', or set [server] listen in {}",
        holder.as_deref().unwrap_or("another program"),
        dir.join(CONFIG_FILE).display()
    )))
}

/// The settings of `ferry qm start` that override `qm.toml` (each is a `[server]` or
/// `[metrics]` key; `--set` reaches any key).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StartSettings {
    /// TCP address to listen on for client connections ([server] listen; default
    /// 127.0.0.1:1414; port 0 picks a free port; "" for none). Only loopback addresses are
    /// accepted until authentication is configured. The local socket is at QMDIR/ferry.sock;
    /// both are listed in QMDIR/endpoints while it runs.
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Address of a TLS 1.3 listener, e.g. 127.0.0.1:1415 ([server] tls_listen); needs
    /// --tls-cert and --tls-key.
    #[arg(long, value_name = "ADDR")]
    tls_listen: Option<String>,
    /// Address of a QUIC listener (UDP), e.g. 0.0.0.0:1414 ([server] quic_listen), for sender
    /// channels with TRPTYPE(QUIC) and quic:// clients; presents --tls-cert and --tls-key, or a
    /// self-signed certificate made at start.
    #[arg(long, value_name = "ADDR")]
    quic_listen: Option<String>,
    /// PEM file with the server certificate chain, leaf first ([server] tls_cert).
    #[arg(long, value_name = "PEM")]
    tls_cert: Option<PathBuf>,
    /// PEM file with the server private key ([server] tls_key).
    #[arg(long, value_name = "PEM")]
    tls_key: Option<PathBuf>,
    /// PEM file with the CA whose client certificates the TLS listener requires
    /// ([server] tls_client_ca).
    #[arg(long, value_name = "PEM")]
    tls_client_ca: Option<PathBuf>,
    /// Heartbeat interval in seconds ([server] heartbeat_secs, default 30): the server sends
    /// one when idle this long, and closes a client that promised heartbeats and stays silent
    /// for two intervals.
    #[arg(long, value_name = "SECS")]
    heartbeat: Option<u64>,
    /// Threads serving connections ([server] io_threads; default one per two CPUs, at least
    /// one: measured best on two CPUs shared with the clients, docs/perf.md).
    #[arg(long, value_name = "N")]
    io_threads: Option<usize>,
    /// Serve Prometheus metrics on this address ([metrics] listen; off by default).
    #[arg(long, value_name = "ADDR")]
    metrics_listen: Option<String>,
    /// Accept MQTT 3.1, 3.1.1 and 5.0 clients on this address ([mqtt] listen; off by
    /// default; 1883 is MQTT's port).
    #[arg(long, value_name = "ADDR")]
    mqtt_listen: Option<String>,
    /// Accept MQTT clients over TLS 1.3 on this address ([mqtt] tls_listen; 8883 is MQTT's
    /// TLS port), presenting --tls-cert and --tls-key.
    #[arg(long, value_name = "ADDR")]
    mqtt_tls_listen: Option<String>,
    /// Accept MQTT clients over WebSocket (subprotocol mqtt) on this address ([mqtt]
    /// ws_listen), e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR")]
    mqtt_ws_listen: Option<String>,
    /// Serve the web console and its HTTP/JSON admin API on this loopback address ([console]
    /// listen; off by default), e.g. 127.0.0.1:9440.
    #[arg(long, value_name = "ADDR")]
    console_listen: Option<String>,
    /// Serve the web console over HTTPS on this address ([console] tls_listen), presenting
    /// --tls-cert and --tls-key.
    #[arg(long, value_name = "ADDR")]
    console_tls_listen: Option<String>,
    /// Any setting, overriding qm.toml and the environment: section.key=value (repeatable),
    /// e.g. --set log.extent_mib=64.
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    sets: Vec<String>,
}

impl StartSettings {
    /// The settings as `section.key=value` overrides, the dedicated flags last (they win).
    fn into_sets(self) -> Vec<String> {
        let quote = |v: &str| format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""));
        let path = |p: &PathBuf| quote(&p.display().to_string());
        let mut sets = self.sets;
        let mut add = |key: &str, v: Option<String>| {
            if let Some(v) = v {
                sets.push(format!("{key}={v}"));
            }
        };
        add("server.listen", self.listen.as_deref().map(quote));
        add("server.tls_listen", self.tls_listen.as_deref().map(quote));
        add("server.quic_listen", self.quic_listen.as_deref().map(quote));
        add("server.tls_cert", self.tls_cert.as_ref().map(path));
        add("server.tls_key", self.tls_key.as_ref().map(path));
        add(
            "server.tls_client_ca",
            self.tls_client_ca.as_ref().map(path),
        );
        add(
            "server.heartbeat_secs",
            self.heartbeat.map(|v| v.to_string()),
        );
        add("server.io_threads", self.io_threads.map(|v| v.to_string()));
        add("metrics.listen", self.metrics_listen.as_deref().map(quote));
        add("mqtt.listen", self.mqtt_listen.as_deref().map(quote));
        add(
            "mqtt.tls_listen",
            self.mqtt_tls_listen.as_deref().map(quote),
        );
        add("mqtt.ws_listen", self.mqtt_ws_listen.as_deref().map(quote));
        add("console.listen", self.console_listen.as_deref().map(quote));
        add(
            "console.tls_listen",
            self.console_tls_listen.as_deref().map(quote),
        );
        sets
    }
}

/// `ferry qm check`: layers and validates a configuration, and prints it.
pub fn check(
    home: &Path,
    name: Option<&str>,
    file: Option<&Path>,
    sets: Vec<String>,
) -> Result<(), CliError> {
    let (path, dir) = match (file, name) {
        (Some(f), _) => (
            f.to_owned(),
            f.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_owned),
        ),
        (None, Some(n)) => {
            let dir = qm_dir(home, n)?;
            if !dir.join(CONFIG_FILE).exists() {
                return Err(no_such_qm(home, n).into());
            }
            (dir.join(CONFIG_FILE), dir)
        }
        (None, None) => return Err(CliError::other("name a queue manager or give --file")),
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::other(format!("cannot read {}: {e}", path.display())))?;
    let layered = ferry_host::config::layer(
        &text,
        &path.display().to_string(),
        &ferry_host::config::Overrides::from_env(sets),
    )?;
    ferry_server::ServerConfig::from_section(&dir, &layered.file.server)
        .map_err(|e| CliError::other(e.0))?;
    metrics_addr(&layered.file)?;
    let effective = toml::to_string_pretty(&layered.file)
        .map_err(|e| CliError::other(format!("cannot print the configuration: {e}")))?;
    ferry_host::outln!(
        "# {} is valid; the effective configuration:",
        path.display()
    );
    for o in &layered.origins {
        ferry_host::outln!("# {} from {}", o.key, o.from);
    }
    ferry_host::out!("{effective}");
    Ok(())
}

/// The metrics endpoint's address, if it is turned on.
fn metrics_addr(file: &ferry_host::home::QmFile) -> Result<Option<SocketAddr>, CliError> {
    let v = &file.metrics.listen;
    if v.is_empty() {
        return Ok(None);
    }
    v.parse().map(Some).map_err(|e| {
        CliError::other(format!(
            "[metrics] listen = \"{v}\" is not a socket address like 127.0.0.1:9464: {e}"
        ))
    })
}

/// The `[metrics]` section: the endpoint's address and its bearer token.
type MetricsConfig = (Option<SocketAddr>, Option<String>);

fn metrics_config(file: &ferry_host::home::QmFile) -> Result<MetricsConfig, CliError> {
    Ok((metrics_addr(file)?, metrics_token(file)?))
}

/// HTTPS for the endpoint: `[metrics] tls_cert` and `tls_key`, both or neither.
fn metrics_tls(
    file: &ferry_host::home::QmFile,
) -> Result<Option<ferry_server::TlsSettings>, CliError> {
    let m = &file.metrics;
    match (m.tls_cert.is_empty(), m.tls_key.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Ok(Some(ferry_server::TlsSettings {
            cert_chain: m.tls_cert.clone().into(),
            key: m.tls_key.clone().into(),
            client_ca: None,
        })),
        _ => Err(CliError::other(
            "[metrics] tls_cert and tls_key go together: set both for HTTPS, or neither",
        )),
    }
}

/// The bearer token in `[metrics] token_file`, refused if other users can read the file.
fn metrics_token(file: &ferry_host::home::QmFile) -> Result<Option<String>, CliError> {
    let path = &file.metrics.token_file;
    if path.is_empty() {
        return Ok(None);
    }
    let path = Path::new(path);
    ferry_host::private::refuse_if_public(path, "metrics token file").map_err(CliError::other)?;
    let token = std::fs::read_to_string(path).map_err(|e| {
        CliError::other(format!(
            "cannot read the metrics token file {}: {e}",
            path.display()
        ))
    })?;
    let token = token.trim();
    if token.len() < 16 {
        return Err(CliError::other(format!(
            "the metrics token in {} is {} characters; use at least 16 (for example: openssl rand -hex 24)",
            path.display(),
            token.len()
        )));
    }
    Ok(Some(token.to_owned()))
}

/// The queue manager's directory, creating the queue manager if it does not exist yet.
pub(crate) fn create_if_missing(home: &Path, name: &str) -> Result<std::path::PathBuf, CliError> {
    let dir = qm_dir(home, name)?;
    if !dir.join(CONFIG_FILE).exists() {
        let (listen, _) = home::free_listen(home, FIRST_PORT);
        match home::create_listening(home, name, &listen) {
            Ok(dir) => tracing::info!(qmgr = name, dir = %dir.display(), "created queue manager"),
            // Another `qm start` or `qm create` won the race: use what it made.
            Err(e) if e.reason == Reason::ObjectAlreadyExists => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(dir)
}

/// What recovery gave up or dropped, in the log; after a recovery to the last good record,
/// every dropped message, get and commit also in `QMDIR/recovery-dropped-<unix time>.txt`.
fn log_recovery(dir: &Path, report: &ferry_core::RecoveryReport) {
    // A tail that cut acknowledged records was reported as an error (AMQ7472E) as it was found.
    if let (Some((file, offset)), None) = (&report.torn_tail, &report.cut) {
        tracing::info!(file = %file, offset, "dropped a torn write at the end of the log (never acknowledged)");
    }
    let (Some(l), Some(d)) = (&report.lost, &report.dropped) else {
        return;
    };
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_secs());
    let path = dir.join(format!("recovery-dropped-{stamp}.txt"));
    let written = ferry_host::private::write_file(&path, dropped_report(report).as_bytes());
    tracing::warn!(file = %l.file, offset = l.offset, reason = l.reason, records_dropped = l.records_dropped,
        messages = d.messages.len(), gets = d.gets.len(), commits = d.commits.len(), other = d.other,
        unreadable = d.unreadable, extents_retired = d.retired.len(), last_good_lsn = l.last_good_lsn,
        report = %path.display(), report_written = written.is_ok(),
        "started from the last good log record: later records were dropped");
}

/// The dropped-records report: one line per message, get and commit.
fn dropped_report(report: &ferry_core::RecoveryReport) -> String {
    use std::fmt::Write as _;
    let (Some(l), Some(d)) = (&report.lost, &report.dropped) else {
        return String::new();
    };
    let mut s = format!(
        "# recovered to the last good record (LSN {}): damage in {} at offset {}: {}\n",
        l.last_good_lsn, l.file, l.offset, l.reason
    );
    let _ = writeln!(
        s,
        "# {} records dropped after it: {} puts, {} gets, {} commits, {} other, {} unreadable",
        l.records_dropped,
        d.messages.len(),
        d.gets.len(),
        d.commits.len(),
        d.other,
        d.unreadable
    );
    let _ = writeln!(
        s,
        "# the damaged record itself cannot be read: what it held is not known"
    );
    let _ = writeln!(s, "# extents moved aside: {}", d.retired.join(" "));
    for (q, id, uow) in &d.messages {
        let _ = writeln!(s, "PUT queue={q} msgid={} uow={uow}", id.to_hex());
    }
    for (q, seq, uow) in &d.gets {
        let _ = writeln!(s, "GET queue={q} seq={seq} uow={uow}");
    }
    for uow in &d.commits {
        let _ = writeln!(s, "COMMIT uow={uow}");
    }
    s
}

/// Lists the endpoints in QMDIR/endpoints (owner-only) and in the log.
/// On a full disk (a restart after one filled) the file is rewritten in place, in the blocks it
/// already has; failing that, the endpoints are only in the log and the queue manager runs on.
fn write_endpoints(dir: &Path, endpoints: &str) -> Result<(), CliError> {
    let path = dir.join(ENDPOINTS_FILE);
    match ferry_host::private::write_file(&path, endpoints.as_bytes()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::StorageFull => {
            let _ = std::fs::remove_file(path.with_extension("tmp"));
            if let Err(e) = ferry_host::private::overwrite_file(&path, endpoints.as_bytes()) {
                tracing::error!(file = %path.display(), error = %e,
                    "the disk is full: the endpoints file could not be written; they are listed below only");
            }
        }
        Err(e) => {
            return Err(CliError::other(format!(
                "cannot write {}: {e}",
                path.display()
            )))
        }
    }
    for line in endpoints.lines() {
        tracing::info!(endpoint = line, "listening");
    }
    Ok(())
}

/// The whole configuration of a start (qm.toml, the environment, the flags), checked before
/// anything is locked or opened.
fn load_config(
    dir: &Path,
    settings: StartSettings,
) -> Result<(ferry_host::config::Layered, ferry_server::ServerConfig), CliError> {
    let layered = ferry_host::config::load_layered(
        dir,
        &ferry_host::config::Overrides::from_env(settings.into_sets()),
    )?;
    for o in &layered.origins {
        tracing::info!(setting = %o.key, from = %o.from, "configuration override");
    }
    let mut config = ferry_server::ServerConfig::from_section(dir, &layered.file.server)
        .map_err(|e| CliError::other(e.0))?;
    (config.metrics_listen, config.metrics_token) = metrics_config(&layered.file)?;
    config.metrics_tls = metrics_tls(&layered.file)?;
    config.mqtt = ferry_server::MqttConfig::from_section(&layered.file.mqtt, &layered.file.server)
        .map_err(|e| CliError::other(e.0))?;
    config.console = ferry_server::ConsoleConfig::from_section(
        &layered.file.console,
        &layered.file.server,
        Some(dir.join(ferry_host::home::LOG_DIR)),
    )
    .map_err(|e| CliError::other(e.0))?;
    Ok((layered, config))
}

/// `ferry qm start`: runs in the foreground until SIGINT or SIGTERM.
pub fn start(
    home: &Path,
    name: &str,
    settings: StartSettings,
    recover_to_last_good: bool,
) -> Result<(), CliError> {
    // Before any thread starts, so every thread inherits the mask.
    let signals = signals::ShutdownSignals::block()
        .map_err(|e| CliError::other(format!("cannot block SIGINT, SIGTERM and SIGUSR1: {e}")))?;
    let dir = create_if_missing(home, name)?;
    let (layered, config) = load_config(&dir, settings)?;
    let lock = DirLock::acquire(&dir)?;
    // Left by a run that was killed: 'qm list' says "starting" until the listeners are bound.
    let _ = std::fs::remove_file(dir.join(ENDPOINTS_FILE));
    check_listen(home, name, &dir, config.tcp_listen)?;
    // The queue manager logs what recovery replayed and how long it took.
    let (qm, report) = home::open_queue_manager_with(&dir, &layered.file, recover_to_last_good)?;
    log_recovery(&dir, &report);
    qm.set_host_probe(host_probe(&dir, &layered.file)?);
    start_background(&qm)?;
    start_giving_back_memory()?;
    tracing::info!(
        qmgr = name,
        pid = std::process::id(),
        dir = %dir.display(),
        queues = qm.queue_names().len(),
        memory_budget_mib = qm.memory_budget().limit() >> 20,
        "queue manager started"
    );
    log_connauth(&qm);
    let io_threads = layered.file.server.io_threads;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(if io_threads == 0 {
            default_io_threads()
        } else {
            io_threads
        })
        .thread_name("ferry-io")
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the I/O runtime: {e}")))?;
    let server = runtime
        .block_on(ferry_server::Server::bind(qm.clone(), config))
        .map_err(|e| CliError::other(e.to_string()))?;
    write_endpoints(&dir, &listeners_file(&server))?;
    tracing::info!(
        "running; stop with Ctrl-C, SIGTERM or 'ferry qm stop {name}' (SIGUSR1 or -c: controlled)"
    );
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::thread::Builder::new()
        .name("ferry-signals".into())
        .spawn(move || forward_signals(&signals, &tx))
        .map_err(|e| CliError::other(format!("cannot start the signal thread: {e}")))?;
    runtime.block_on(server.run_until(rx));
    let _ = std::fs::remove_file(dir.join(ENDPOINTS_FILE));
    tracing::info!(
        connections = qm.connections().len(),
        "stopped queue manager {name}"
    );
    drop(lock);
    tracing::info!(qmgr = name, "queue manager stopped");
    Ok(())
}

/// The signal thread: SIGUSR1 asks a controlled stop, SIGINT and SIGTERM an immediate one (also
/// after a controlled stop began); it ends once an immediate stop is asked.
fn forward_signals(
    signals: &signals::ShutdownSignals,
    tx: &tokio::sync::mpsc::UnboundedSender<ferry_server::StopMode>,
) {
    use ferry_server::StopMode;
    loop {
        let mode = match signals.wait() {
            Ok(sig) if sig == signals::CONTROLLED => StopMode::Controlled,
            Ok(sig) => {
                tracing::info!(signal = signals::name(sig), "stopping queue manager");
                StopMode::Immediate
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot wait for signals; stopping");
                StopMode::Immediate
            }
        };
        if tx.send(mode).is_err() || mode == StopMode::Immediate {
            return;
        }
    }
}

/// How `ferry qm stop` stops a queue manager (endmqm's -c, -i, -p).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopHow {
    Controlled,
    Immediate,
    Preemptive,
}

/// `ferry qm delete` (MQ's dltmqm): removes a stopped queue manager's directory — its
/// configuration, recovery log and every message. A running one is refused.
pub fn delete(home: &Path, name: &str) -> Result<(), CliError> {
    let dir = qm_dir(home, name)?;
    if !dir.join(CONFIG_FILE).exists() {
        return Err(no_such_qm(home, name).into());
    }
    if let Some(pid) = home::running_pid(&dir) {
        return Err(MqError::new(
            Reason::ObjectInUse,
            format!("queue manager {name} is running in process {pid}; stop it first with 'ferry qm stop {name}'"),
        )
        .into());
    }
    // Hold its lock while removing, so a start cannot begin half way.
    let lock = DirLock::acquire(&dir)?;
    std::fs::remove_dir_all(&dir)
        .map_err(|e| CliError::other(format!("cannot remove {}: {e}", dir.display())))?;
    drop(lock);
    ferry_host::outln!("queue manager {name} deleted ({} removed)", dir.display());
    Ok(())
}

/// `ferry qm stop`: SIGTERM to the process holding the lock, then wait for the lock to go.
pub fn stop(home: &Path, name: &str, how: StopHow) -> Result<(), CliError> {
    let dir = qm_dir(home, name)?;
    if !dir.join(CONFIG_FILE).exists() {
        return Err(no_such_qm(home, name).into());
    }
    let Some(pid) = home::running_pid(&dir) else {
        return Err(MqError::new(
            Reason::QMgrNotAvailable,
            format!(
                "queue manager {name} is not running (no process holds {})",
                dir.join(LOCK_FILE).display()
            ),
        )
        .into());
    };
    let sig = match how {
        StopHow::Controlled => signals::CONTROLLED,
        StopHow::Immediate => signals::IMMEDIATE,
        StopHow::Preemptive => signals::KILL,
    };
    signals::send(pid, sig).map_err(|e| {
        CliError::other(format!(
            "cannot send {} to process {pid} running queue manager {name}: {e}",
            signals::name(sig)
        ))
    })?;
    if how == StopHow::Controlled {
        ferry_host::outln!(
            "queue manager {name} is quiescing; it stops when every application has disconnected"
        );
    }
    let deadline = Instant::now() + STOP_TIMEOUT;
    while home::running_pid(&dir) == Some(pid) {
        if Instant::now() >= deadline {
            return Err(CliError::other(not_stopped(name, pid, &dir, how)));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    match how {
        StopHow::Preemptive => ferry_host::outln!(
            "queue manager {name} (process {pid}) killed; its next start recovers from the log"
        ),
        _ => ferry_host::outln!("queue manager {name} (process {pid}) stopped"),
    }
    Ok(())
}

/// What to say when a stop did not end within [`STOP_TIMEOUT`].
fn not_stopped(name: &str, pid: u32, dir: &Path, how: StopHow) -> String {
    let base = format!(
        "queue manager {name} (process {pid}) did not stop within {} s",
        STOP_TIMEOUT.as_secs()
    );
    match how {
        StopHow::Controlled => format!(
            "{base}: applications are still connected, and it stops when they have all \
             disconnected ('ferry admin {name} -c \"DISPLAY CONN(*)\"' lists them); \
             'ferry qm stop -i {name}' ends them now"
        ),
        _ => format!("{base}; it still holds {}", dir.join(LOCK_FILE).display()),
    }
}

/// A running queue manager's network endpoints, from its endpoints file (its local socket is
/// in its directory): `tcp://127.0.0.1:1414 metrics http://...`.
fn running_endpoints(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join(ENDPOINTS_FILE)).unwrap_or_default();
    let ends: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("unix:"))
        .collect();
    if ends.is_empty() {
        "local socket only".into()
    } else {
        ends.join(" ")
    }
}

/// A stopped queue manager's configured tcp address ([server] listen), as "listens on ...".
fn configured_endpoint(dir: &Path) -> String {
    match home::QmFile::load(dir) {
        Ok(f) if f.server.listen.is_empty() => "local socket only".into(),
        Ok(f) => format!("listens on {}", f.server.listen),
        Err(_) => "configuration unreadable ('ferry qm check' says why)".into(),
    }
}

/// `ferry qm list`: one line per queue manager: name, state, endpoints, directory.
pub fn list(home: &Path) -> Result<(), CliError> {
    let names = home::list(home);
    if names.is_empty() {
        eprintln!(
            "ferry: no queue managers in {}; create one with 'ferry qm create NAME'",
            home.join("qmgrs").display()
        );
        return Ok(());
    }
    let rows: Vec<(String, String, String, String)> = names
        .into_iter()
        .map(|name| {
            let dir = home::qm_dir(home, &name);
            let (state, endpoints) = match home::running_pid(&dir) {
                Some(pid) if dir.join(ENDPOINTS_FILE).exists() => {
                    (format!("running (pid {pid})"), running_endpoints(&dir))
                }
                Some(pid) => (format!("starting (pid {pid})"), String::new()),
                None => ("stopped".to_owned(), configured_endpoint(&dir)),
            };
            (name, state, endpoints, dir.display().to_string())
        })
        .collect();
    let w_name = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w_state = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let w_ends = rows.iter().map(|r| r.2.len()).max().unwrap_or(0);
    for (name, state, ends, dir) in rows {
        ferry_host::outln!("{name:<w_name$}  {state:<w_state$}  {ends:<w_ends$}  {dir}");
    }
    Ok(())
}

/// `ferry qm user add`: hashes the password read from stdin into the user file.
pub fn user_add(home: &Path, name: &str, user: &str, groups: &[String]) -> Result<(), CliError> {
    let dir = qm_dir(home, name)?;
    if !dir.join(CONFIG_FILE).exists() {
        return Err(no_such_qm(home, name).into());
    }
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| CliError::other(format!("cannot read the password from stdin: {e}")))?;
    let password = line.trim_end_matches(['\n', '\r']);
    if password.is_empty() {
        return Err(CliError::other(
            "the password (first line of stdin) is empty",
        ));
    }
    let path = ferry_server::auth::user_file_path(&dir);
    let mut file = if path.exists() {
        ferry_server::UserFile::load(&path).map_err(CliError::other)?
    } else {
        ferry_server::UserFile::default()
    };
    let hash = ferry_server::auth::hash_password(password).map_err(CliError::other)?;
    let replaced = file.users.insert(user.to_owned(), hash).is_some();
    for g in groups {
        ferry_model::security::check_entity(g).map_err(|e| CliError::other(e.detail))?;
        let members = file.groups.entry(g.clone()).or_default();
        if !members.iter().any(|m| m == user) {
            members.push(user.to_owned());
        }
    }
    file.save(&path).map_err(CliError::other)?;
    ferry_host::outln!(
        "{} user {user} for queue manager {name} in {}",
        if replaced { "updated" } else { "added" },
        path.display()
    );
    Ok(())
}

/// Says at start how connections prove who they are (QMGR CONNAUTH), loudly when nothing
/// is checked.
fn log_connauth(qm: &ferry_core::QueueManager) {
    let named = qm.attrs().connauth;
    match qm.connauth() {
        Some((n, a)) => tracing::info!(
            connauth = %n, authtype = a.auth_type.keyword(), chcklocl = a.check_local.keyword(),
            chckclnt = a.check_client.keyword(), "connection authentication"
        ),
        None if named.is_empty() => tracing::warn!(
            "QMGR CONNAUTH is blank: passwords are not checked and clients are taken at their word (with no administrator's authority)"
        ),
        None => tracing::error!(
            connauth = %named,
            "QMGR CONNAUTH names an AUTHINFO object that does not exist: passwords are not checked; define it or ALTER QMGR CONNAUTH"
        ),
    }
}

/// `ferry qm user remove`.
pub fn user_remove(home: &Path, name: &str, user: &str) -> Result<(), CliError> {
    let dir = qm_dir(home, name)?;
    let path = ferry_server::auth::user_file_path(&dir);
    let mut file = ferry_server::UserFile::load(&path).map_err(CliError::other)?;
    if file.users.remove(user).is_none() {
        return Err(CliError::other(format!(
            "there is no user {user} in {}",
            path.display()
        )));
    }
    for members in file.groups.values_mut() {
        members.retain(|m| m != user);
    }
    file.groups.retain(|_, members| !members.is_empty());
    file.save(&path).map_err(CliError::other)?;
    ferry_host::outln!("removed user {user} from {}", path.display());
    Ok(())
}

/// The host's figures for the CPU and DISK monitoring classes of the queue manager in `dir`.
fn host_probe(
    dir: &Path,
    file: &ferry_host::home::QmFile,
) -> Result<std::sync::Arc<dyn ferry_core::qmgr::monitor::HostProbe>, CliError> {
    let log = file.persist_settings()?.log;
    let log_max = log.max_extents.saturating_mul(log.extent_size);
    Ok(std::sync::Arc::new(ferry_host::probe::Probe::new(
        dir,
        &dir.join(ferry_host::home::LOG_DIR),
        log_max,
    )))
}

/// The queue manager's own background threads: the expiry sweeper and the monitor.
fn start_background(qm: &ferry_core::QueueManager) -> Result<(), CliError> {
    qm.start_expiry_sweeper(EXPIRY_INTERVAL)
        .map_err(|e| CliError::other(format!("cannot start the expiry sweeper thread: {e}")))?;
    let monitor_interval = std::env::var("FERRY_MONITOR_INTERVAL_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(MONITOR_INTERVAL, Duration::from_millis);
    qm.start_monitor(monitor_interval)
        .map_err(|e| CliError::other(format!("cannot start the monitor thread: {e}")))?;
    Ok(())
}

/// The I/O threads when the configuration leaves it to the queue manager: one per two CPUs, at
/// least one. On this project's two-CPU machine one thread beat two on fan-out over TCP (20 %),
/// async put and blocking request/reply: a socket's work is mostly its own system calls, and a
/// second thread shared two CPUs with the clients and woke across threads (docs/perf.md, "I/O
/// threads"). A larger machine serving remote clients may want more: `--io-threads`.
/// Starts the thread that, every second, has the allocator return to the system the memory
/// freed more than a second ago. mimalloc does this only when a thread next allocates, so an
/// idle queue manager kept what its clients had used: 10,000 MQTT clients leaving kept
/// ~200 MiB (docs/mqtt.md "Scale").
pub(crate) fn start_giving_back_memory() -> Result<(), CliError> {
    std::thread::Builder::new()
        .name("ferry-memory".into())
        .spawn(|| loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
            give_back_memory();
        })
        .map(drop)
        .map_err(|e| CliError::other(format!("cannot start the memory thread: {e}")))
}

#[allow(unsafe_code)]
fn give_back_memory() {
    // SAFETY: mi_collect takes no pointers; it frees what the allocator itself holds freed.
    unsafe { libmimalloc_sys::mi_collect(false) };
}

fn default_io_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}
