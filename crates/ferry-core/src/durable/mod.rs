//! Layer 3, durability over `ferry-log`: what the engine writes to the recovery log and how a
//! queue manager is rebuilt from it.
//!
//! - `record` — the log-record codec: kinds, payload layouts and their format version, with
//!   golden-byte tests (docs/log.md has the byte map);
//! - `persist` — the engine's handle on the log: appends, waits, reading back, the checkpoint
//!   gate;
//! - `journal` — that handle as the queue's [`crate::engine::Journal`] and the queue manager's
//!   [`crate::qmgr::journal::Durability`];
//! - `replay` — applying records to a checkpoint's state ([`Recovery`]);
//! - `checkpoint` — when one is due, taking one, its file format, loading the newest good one;
//! - `spill` — the spill area for non-persistent messages beyond the memory budget, as the
//!   engine's [`crate::engine::Spill`] (never the log: its records are not synced);
//! - `open` — opening a queue manager from its log ([`crate::QueueManager::open_persistent`]).

pub mod checkpoint;
pub mod dropped;
mod journal;
mod open;
pub mod persist;
pub mod record;
pub mod replay;
pub mod spill;

pub use open::{CutTail, RecoveryReport};
pub use persist::{Persist, PersistSettings};
pub use replay::{Held, Logged, Recovery};
