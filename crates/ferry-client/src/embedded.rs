//! Hosting a queue manager inside the application's process, from its directory.
//!
//! One process hosts a given queue manager directory at most once: embedded connections in the
//! same process share the instance (a registry of weak references), and the directory's lock
//! keeps every other process out while any connection is open.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use ferry_core::QueueManager;
use ferry_host::home::DirLock;
use ferry_model::{MqError, MqResult, Reason};

/// A queue manager hosted in this process from its directory.
#[derive(Debug)]
pub struct EmbeddedQm {
    qm: QueueManager,
    dir: PathBuf,
    _lock: DirLock,
}

impl EmbeddedQm {
    /// The hosted queue manager.
    pub fn queue_manager(&self) -> &QueueManager {
        &self.qm
    }

    /// Its directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for EmbeddedQm {
    fn drop(&mut self) {
        self.qm.stop();
    }
}

fn registry() -> &'static Mutex<HashMap<PathBuf, Weak<EmbeddedQm>>> {
    static REG: OnceLock<Mutex<HashMap<PathBuf, Weak<EmbeddedQm>>>> = OnceLock::new();
    REG.get_or_init(Default::default)
}

/// Hosts (or joins, if this process already hosts it) the queue manager in `dir`.
pub fn open_embedded(dir: &Path) -> MqResult<Arc<EmbeddedQm>> {
    let key = dir.canonicalize().map_err(|e| {
        MqError::new(
            Reason::QMgrNameError,
            format!(
                "no queue manager directory at {}: {e}; create one with 'ferry qm create'",
                dir.display()
            ),
        )
    })?;
    let mut reg = registry()
        .lock()
        .map_err(|_| MqError::bare(Reason::UnexpectedError))?;
    if let Some(host) = reg.get(&key).and_then(Weak::upgrade) {
        return Ok(host);
    }
    let lock = DirLock::acquire(&key)?;
    let (qm, _report) = ferry_host::home::open_queue_manager(&key, false)?;
    qm.start_expiry_sweeper(Duration::from_secs(5))
        .map_err(|e| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot start the expiry thread: {e}"),
            )
        })?;
    qm.start_monitor(Duration::from_secs(10)).map_err(|e| {
        MqError::new(
            Reason::UnexpectedError,
            format!("cannot start the monitor thread: {e}"),
        )
    })?;
    let host = Arc::new(EmbeddedQm {
        qm,
        dir: key.clone(),
        _lock: lock,
    });
    reg.insert(key, Arc::downgrade(&host));
    Ok(host)
}
