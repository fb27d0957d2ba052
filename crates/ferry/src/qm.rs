//! `ferry qm create|start|stop|list`.

use std::path::Path;
use std::time::{Duration, Instant};

use ferry_core::home::{self, DirLock, QmFile, CONFIG_FILE, LOCK_FILE};
use ferry_core::{MqError, QmConfig, QueueManager, Reason};

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
    s
}

/// How often the expiry sweeper looks for expired messages.
const EXPIRY_INTERVAL: Duration = Duration::from_secs(5);

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

/// `ferry qm create`.
pub fn create(home: &Path, name: &str) -> Result<(), CliError> {
    qm_dir(home, name)?;
    let dir = home::create(home, name)?;
    println!("created queue manager {name} in {}", dir.display());
    Ok(())
}

/// `ferry qm start`: runs in the foreground until SIGINT or SIGTERM.
pub fn start(home: &Path, name: &str, listen: Option<String>) -> Result<(), CliError> {
    // Before any thread starts, so every thread inherits the mask.
    let signals = signals::ShutdownSignals::block()
        .map_err(|e| CliError::other(format!("cannot block SIGINT and SIGTERM: {e}")))?;
    let dir = qm_dir(home, name)?;
    if !dir.join(CONFIG_FILE).exists() {
        match home::create(home, name) {
            Ok(dir) => tracing::info!(qmgr = name, dir = %dir.display(), "created queue manager"),
            // Another `qm start` or `qm create` won the race: use what it made.
            Err(e) if e.reason == Reason::ObjectAlreadyExists => {}
            Err(e) => return Err(e.into()),
        }
    }
    let file = QmFile::load(&dir)?;
    let lock = DirLock::acquire(&dir)?;
    let qm = QueueManager::new(QmConfig {
        attrs: file.attrs()?,
        clock: Default::default(),
        dev_queues: file.qmgr.dev_queues,
    })?;
    qm.start_expiry_sweeper(EXPIRY_INTERVAL)
        .map_err(|e| CliError::other(format!("cannot start the expiry sweeper thread: {e}")))?;
    tracing::info!(
        qmgr = name,
        pid = std::process::id(),
        dir = %dir.display(),
        queues = qm.queue_names().len(),
        "queue manager started (messages are held in memory: persistence arrives with the recovery log issue)"
    );
    let mut config = ferry_server::ServerConfig::new(&dir);
    if let Some(addr) = &listen {
        config.tcp_listen = Some(addr.parse().map_err(|e| {
            CliError::other(format!(
                "--listen {addr} is not a socket address like 127.0.0.1:1414: {e}"
            ))
        })?);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ferry-io")
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the I/O runtime: {e}")))?;
    let server = runtime
        .block_on(ferry_server::Server::bind(qm.clone(), config))
        .map_err(|e| CliError::other(e.to_string()))?;
    let endpoints = listeners_file(&server);
    std::fs::write(dir.join(ENDPOINTS_FILE), &endpoints).map_err(|e| {
        CliError::other(format!(
            "cannot write {}: {e}",
            dir.join(ENDPOINTS_FILE).display()
        ))
    })?;
    for line in endpoints.lines() {
        tracing::info!(endpoint = line, "listening");
    }
    tracing::info!("running; stop with Ctrl-C, SIGTERM or 'ferry qm stop {name}'");
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("ferry-signals".into())
        .spawn(move || {
            let sig = signals.wait();
            let _ = tx.send(sig);
        })
        .map_err(|e| CliError::other(format!("cannot start the signal thread: {e}")))?;
    runtime.block_on(server.run(async move {
        match rx.await {
            Ok(Ok(sig)) => tracing::info!(signal = signals::name(sig), "stopping queue manager"),
            Ok(Err(e)) => tracing::error!(error = %e, "cannot wait for signals; stopping"),
            Err(_) => tracing::error!("the signal thread ended; stopping"),
        }
    }));
    let _ = std::fs::remove_file(dir.join(ENDPOINTS_FILE));
    tracing::info!(
        connections = qm.connections().len(),
        "stopped queue manager {name}"
    );
    drop(lock);
    tracing::info!(qmgr = name, "queue manager stopped");
    Ok(())
}

/// `ferry qm stop`: SIGTERM to the process holding the lock, then wait for the lock to go.
pub fn stop(home: &Path, name: &str) -> Result<(), CliError> {
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
    signals::terminate(pid).map_err(|e| {
        CliError::other(format!(
            "cannot send SIGTERM to process {pid} running queue manager {name}: {e}"
        ))
    })?;
    let deadline = Instant::now() + STOP_TIMEOUT;
    while home::running_pid(&dir) == Some(pid) {
        if Instant::now() >= deadline {
            return Err(CliError::other(format!(
                "queue manager {name} (process {pid}) did not stop within {} s; it still holds {}",
                STOP_TIMEOUT.as_secs(),
                dir.join(LOCK_FILE).display()
            )));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("queue manager {name} (process {pid}) stopped");
    Ok(())
}

/// `ferry qm list`: one line per queue manager.
pub fn list(home: &Path) -> Result<(), CliError> {
    let names = home::list(home);
    if names.is_empty() {
        eprintln!(
            "ferry: no queue managers in {}; create one with 'ferry qm create NAME'",
            home.join("qmgrs").display()
        );
        return Ok(());
    }
    let rows: Vec<(String, String, String)> = names
        .into_iter()
        .map(|name| {
            let dir = home::qm_dir(home, &name);
            let state = match home::running_pid(&dir) {
                Some(pid) => format!("running (pid {pid})"),
                None => "stopped".to_owned(),
            };
            (name, state, dir.display().to_string())
        })
        .collect();
    let w_name = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w_state = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (name, state, dir) in rows {
        println!("{name:<w_name$}  {state:<w_state$}  {dir}");
    }
    Ok(())
}
