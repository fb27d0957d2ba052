//! FerryMQ administration: the MQSC-style command language — DEFINE, ALTER, DELETE, DISPLAY,
//! CLEAR, START, STOP and DUMP over queues, the queue manager, channels, listeners, queue and
//! connection status — parsed, run against a [`QueueManager`], and formatted as runmqsc does or
//! as JSON. The admin shell (`ferry admin`), the server (for remote administration) and, once
//! [`install`]ed as the command server, embedded connections all use this one implementation. docs/admin.md is the reference.
//!
//! Owns: the parser (`parse`), attribute keywords (`attrs`), execution (`exec`, with DISPLAY in
//! `exec/display.rs`) and output (`format`).

pub mod attrs;
pub mod exec;
pub mod format;
pub mod parse;
pub mod pcf;
pub mod suggest;

pub use exec::{run, run_as, run_script, run_script_as, run_script_durably, Message, Reply};
pub use ferry_core::QueueManager;

/// This crate as the process's command server: embedded queue managers then answer
/// administrative requests (`Connection::admin` on an embedded connection) with it.
#[derive(Debug)]
struct Mqsc;

impl ferry_core::qmgr::commands::CommandServer for Mqsc {
    fn run_script(&self, qm: &QueueManager, script: &str) -> Vec<Reply> {
        run_script_durably(qm, script)
    }
}

/// Installs the MQSC executor as the command server of every queue manager this process hosts
/// (idempotent; the first installation wins).
pub fn install() {
    ferry_core::qmgr::commands::install(std::sync::Arc::new(Mqsc));
}
