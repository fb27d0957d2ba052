//! FerryMQ administration: the MQSC-style command language — DEFINE, ALTER, DELETE, DISPLAY,
//! CLEAR, START, STOP and DUMP over queues, the queue manager, channels, listeners, queue and
//! connection status — parsed, run against a [`QueueManager`], and formatted as runmqsc does or
//! as JSON. The admin shell (`ferry admin`), the server (for remote administration) and the
//! embedded client all use this one implementation. docs/admin.md is the reference.
//!
//! Owns: the parser (`parse`), attribute keywords (`attrs`), execution (`exec`) and output
//! (`format`).

pub mod attrs;
pub mod exec;
pub mod format;
pub mod parse;

pub use exec::{run, run_script, run_script_durably, Message, Reply};
pub use ferry_core::QueueManager;
