//! The command server: who runs administrative command scripts (MQSC) against a queue manager.
//!
//! The command language lives above the engine (`ferry-admin`); a program that wants its
//! embedded queue managers to answer administrative requests installs it once with
//! [`install`] (the `ferry` command line and the MQI libraries do). Without one, an embedded
//! connection's administrative request fails with FUNCTION_NOT_SUPPORTED and says so. The
//! server runs the executor itself and needs no installation.

use std::sync::{Arc, OnceLock};

use ferry_model::admin::Reply;
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::qmgr::QueueManager;

/// Runs command scripts.
pub trait CommandServer: Send + Sync {
    /// Runs `script` (one command per line) against `qm`; its definitions are durable before
    /// this returns. A reply per command.
    fn run_script(&self, qm: &QueueManager, script: &str) -> Vec<Reply>;
}

static INSTALLED: OnceLock<Arc<dyn CommandServer>> = OnceLock::new();

/// Installs the command server for every queue manager in this process (the first call wins).
pub fn install(server: Arc<dyn CommandServer>) {
    let _ = INSTALLED.set(server);
}

impl QueueManager {
    /// Runs an administrative command script through the installed command server.
    pub fn run_commands(&self, script: &str) -> MqResult<Vec<Reply>> {
        match INSTALLED.get() {
            Some(s) => Ok(s.run_script(self, script)),
            None => Err(MqError::new(
                Reason::FunctionNotSupported,
                "no command server is installed in this program, so an embedded connection \
                 cannot run administrative commands; call ferry_admin::install() at start, or \
                 connect to a running server",
            )),
        }
    }
}
