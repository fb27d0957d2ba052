//! FerryMQ's host: what it takes to run a queue manager from a directory on this machine.
//!
//! Owns: the FerryMQ home and queue manager directories, `qm.toml` and its sections (the
//! engine's `[qmgr]` and `[log]`, the server's `[server]` and `[metrics]`), layering it with
//! environment variables and command-line settings (`config`), the directory lock held by the
//! one process running a queue manager, keeping all of it private to the user running it
//! (`private`), and opening a queue manager from its directory
//! (`home::open_queue_manager`). The engine receives plain values from here — attributes,
//! persistence settings, a storage — and never reads a file of its own accord.
//!
//! Used by the command line, the server and the embedded client (`ferry-client`'s `embedded`
//! feature); nothing below it knows it exists.

pub mod accounts;
pub mod config;
pub mod home;
pub mod logfile;
pub mod net;
pub mod pam;
pub mod private;
pub mod probe;
pub mod stdout;

pub use home::{open_queue_manager, QmFile};
