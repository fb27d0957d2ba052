//! FerryMQ's recovery log: checksummed records in numbered extents, appended with group commit
//! and read back at restart with torn tails told apart from corruption.
//!
//! Owns: the positional [`storage::Storage`] trait with file, memory and fault-injecting
//! implementations; the byte format ([`format`], mapped in docs/log.md); the group-commit writer
//! ([`writer::Log`]); the recovery scan ([`scan::scan`]). Synchronous: a logger thread, no async
//! runtime. What the records mean (puts, gets, commits, definitions) is the engine's business.
//!
//! Contract: [`writer::Log::commit`] (or `append` + `wait_durable`) returns only once the record
//! and every record before it are on disk; a scan after any crash returns every such record, in
//! LSN order, exactly once.

pub mod format;
pub mod histogram;
pub mod mark;
pub mod scan;
pub mod spill;
pub mod storage;
pub mod writer;

pub use format::LogType;
pub use histogram::Histogram;
pub use mark::{read_mark, write_mark, Mark, MARK_FILE};
pub use scan::{scan, scan_from, Loss, Record, RecordRef, RecoveryMode, ScanEnd, Scanned, Tail};
pub use spill::{SpillArea, SpillError, SpillStats};
pub use storage::{Fault, FaultStorage, FileStorage, MemStorage, Storage};
pub use writer::{read_record, Appended, Log, LogConfig, LogStats, RecordPos, MAX_EXTENT_SIZE};

/// The nice value of background threads (checkpoints, extents prepared ahead): work that may
/// take seconds of processor at 100,000 queues and that nothing waits for, so the threads
/// that put, get and sync come first when the processors are busy (weight 110 against 1,024:
/// it still gets about a tenth of a contended processor, all of an idle one).
pub const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread's scheduling priority to [`BACKGROUND_NICE`] (Linux keeps a nice
/// value per thread); where that is refused, the thread runs as it was.
#[allow(unsafe_code)]
pub fn run_in_background() {
    // SAFETY: gettid and setpriority take and return plain integers and touch no memory of
    // ours; setpriority on our own thread id changes only that thread's nice value.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, BACKGROUND_NICE);
    }
}

/// Why the log could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The storage failed.
    #[error("recovery log I/O failed: {0}")]
    Io(String),
    /// A bounded append would take the log beyond its most extents.
    #[error("the recovery log is full ({extents} extents of {extent_size} bytes): persistent messages must be got, or the log made larger, before more can be put")]
    Full {
        /// The configured most extents.
        extents: u64,
        /// Bytes per extent.
        extent_size: u64,
    },
    /// The disk holding the log has no room for the next extent, and a bounded append would
    /// eat into the reserve kept for commits, gets and backouts.
    #[error("the disk holding the recovery log is full ({0}): persistent messages cannot be put until space is freed; gets, commits and backouts go on, and puts resume by themselves")]
    NoSpace(String),
    /// A damaged record in the live part of the log.
    #[error("the recovery log is damaged in {file} at offset {offset}: {reason}")]
    Corrupt {
        /// The extent file.
        file: String,
        /// Byte offset of the damaged record.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
}

/// The tail of an empty log: appending starts in extent 1 with LSN 1.
pub const EMPTY: Tail = Tail {
    extent: 1,
    offset: format::EXTENT_HEADER as u64,
    next_lsn: 1,
};
