//! Appending to the log with group commit.
//!
//! Writers encode their records into a shared buffer and wait until the logger thread reports
//! them durable. The logger thread takes everything buffered, writes it with one write per
//! extent touched and one `fdatasync`, then wakes every writer it covered — so many concurrent
//! writers share one sync, and a lone writer is written at once rather than made to wait for
//! company. The logger holds no engine lock while it writes or syncs; writers hold only the
//! buffer's lock while they copy their record in.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::format::{self, LogType, EXTENT_HEADER};
use crate::scan::Tail;
use crate::storage::Storage;
use crate::LogError;

/// Log settings (MQ's LogFilePages, LogPrimaryFiles/LogSecondaryFiles, LogBufferPages, LogType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogConfig {
    /// Bytes per extent (a record larger than an extent gets an extent of its own).
    pub extent_size: u64,
    /// Most bytes buffered for the logger before writers wait for room.
    pub buffer_size: usize,
    /// Circular or linear.
    pub log_type: LogType,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            extent_size: 64 * 1024 * 1024,
            buffer_size: 4 * 1024 * 1024,
            log_type: LogType::Circular,
        }
    }
}

struct State {
    /// Records encoded and not yet taken by the logger.
    pending: Vec<u8>,
    /// Where each pending record starts, with its LSN (the logger may switch extents between).
    boundaries: Vec<(usize, u64)>,
    next_lsn: u64,
    durable_lsn: u64,
    failed: Option<String>,
    stop: bool,
    /// Syncs done and records covered, for statistics (group-commit batch size).
    syncs: u64,
    records_synced: u64,
}

struct Shared {
    state: Mutex<State>,
    work: Condvar,
    done: Condvar,
    config: LogConfig,
}

fn lock(s: &Shared) -> MutexGuard<'_, State> {
    s.state.lock().unwrap_or_else(|p| p.into_inner())
}

/// The open log, ready for appends.
pub struct Log {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("config", &self.shared.config)
            .finish()
    }
}

/// Group-commit statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogStats {
    /// Syncs performed.
    pub syncs: u64,
    /// Records made durable.
    pub records: u64,
    /// Highest durable LSN.
    pub durable_lsn: u64,
}

impl Log {
    /// Opens the log for appending at `tail` (from a scan; `Tail` of an empty log for a new
    /// one). Anything after the tail in its extent — a torn write — is zeroed and synced first,
    /// so a later scan can never mistake it for records.
    pub fn open(storage: Arc<dyn Storage>, config: LogConfig, tail: Tail) -> Result<Log, LogError> {
        let io = |e: std::io::Error| LogError::Io(e.to_string());
        let name = format::extent_name(tail.extent);
        let exists = storage.list().map_err(io)?.contains(&name);
        let mut writer = ExtentWriter {
            storage: storage.clone(),
            config,
            extent: tail.extent,
            offset: tail.offset,
        };
        if exists {
            let len = storage.len(&name).map_err(io)?;
            let mut header = [0u8; EXTENT_HEADER];
            let got = storage.read_at(&name, 0, &mut header).map_err(io)?;
            if got < EXTENT_HEADER || format::parse_extent_header(&header).is_none() {
                writer
                    .start_extent(tail.extent, tail.next_lsn)
                    .map_err(io)?;
            } else if len > tail.offset {
                storage
                    .write_at(&name, tail.offset, &vec![0u8; (len - tail.offset) as usize])
                    .map_err(io)?;
                storage.sync(&name).map_err(io)?;
            }
        } else {
            writer
                .start_extent(tail.extent, tail.next_lsn)
                .map_err(io)?;
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                pending: Vec::new(),
                boundaries: Vec::new(),
                next_lsn: tail.next_lsn,
                durable_lsn: tail.next_lsn - 1,
                failed: None,
                stop: false,
                syncs: 0,
                records_synced: 0,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
            config,
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("ferry-logger".into())
            .spawn(move || logger(s, writer))
            .map_err(|e| LogError::Io(format!("cannot start the logger thread: {e}")))?;
        Ok(Log {
            shared,
            thread: Some(thread),
        })
    }

    /// Buffers a record and returns its LSN; it is durable once [`Log::wait_durable`] returns
    /// for that LSN. Waits for room when the log buffer is full.
    pub fn append(&self, kind: u8, payload: &[u8]) -> Result<u64, LogError> {
        let mut st = lock(&self.shared);
        loop {
            if let Some(e) = &st.failed {
                return Err(LogError::Io(e.clone()));
            }
            if st.pending.is_empty()
                || st.pending.len() + payload.len() <= self.shared.config.buffer_size
            {
                break;
            }
            st = self.shared.done.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        let lsn = st.next_lsn;
        st.next_lsn += 1;
        let at = st.pending.len();
        st.boundaries.push((at, lsn));
        format::encode_record(&mut st.pending, lsn, kind, payload);
        drop(st);
        self.shared.work.notify_one();
        Ok(lsn)
    }

    /// Waits until every record up to `lsn` is on disk.
    pub fn wait_durable(&self, lsn: u64) -> Result<(), LogError> {
        let mut st = lock(&self.shared);
        loop {
            if st.durable_lsn >= lsn {
                return Ok(());
            }
            if let Some(e) = &st.failed {
                return Err(LogError::Io(e.clone()));
            }
            st = self.shared.done.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Appends a record and returns once it is durable.
    pub fn commit(&self, kind: u8, payload: &[u8]) -> Result<u64, LogError> {
        let lsn = self.append(kind, payload)?;
        self.wait_durable(lsn)?;
        Ok(lsn)
    }

    /// Group-commit statistics so far.
    pub fn stats(&self) -> LogStats {
        let st = lock(&self.shared);
        LogStats {
            syncs: st.syncs,
            records: st.records_synced,
            durable_lsn: st.durable_lsn,
        }
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        lock(&self.shared).stop = true;
        self.shared.work.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The logger thread's view of the extents.
struct ExtentWriter {
    storage: Arc<dyn Storage>,
    config: LogConfig,
    extent: u64,
    offset: u64,
}

impl ExtentWriter {
    fn start_extent(&mut self, n: u64, first_lsn: u64) -> std::io::Result<()> {
        let name = format::extent_name(n);
        self.storage.create(&name)?;
        self.storage.write_at(
            &name,
            0,
            &format::extent_header(n, first_lsn, self.config.log_type),
        )?;
        self.storage.sync(&name)?;
        self.extent = n;
        self.offset = EXTENT_HEADER as u64;
        Ok(())
    }

    /// Writes a batch of records (with their boundaries) and syncs every extent touched.
    fn write_batch(&mut self, batch: &[u8], boundaries: &[(usize, u64)]) -> std::io::Result<()> {
        let mut touched = Vec::new();
        let mut i = 0;
        while i < boundaries.len() {
            // As many whole records as fit in the current extent go in one write.
            let start = boundaries[i].0;
            let room = self.config.extent_size.saturating_sub(self.offset) as usize;
            let mut j = i;
            while j < boundaries.len() {
                let end = boundaries.get(j + 1).map_or(batch.len(), |b| b.0);
                if end - start > room {
                    break;
                }
                j += 1;
            }
            if j == i {
                if self.offset > EXTENT_HEADER as u64 {
                    // The next record does not fit: continue in a new extent.
                    if !touched.contains(&self.extent) {
                        touched.push(self.extent);
                    }
                    let next = self.extent + 1;
                    self.start_extent(next, boundaries[i].1)?;
                    continue;
                }
                // An empty extent still too small: this record gets the extent to itself.
                j = i + 1;
            }
            let end = boundaries.get(j).map_or(batch.len(), |b| b.0);
            let name = format::extent_name(self.extent);
            self.storage
                .write_at(&name, self.offset, &batch[start..end])?;
            self.offset += (end - start) as u64;
            if !touched.contains(&self.extent) {
                touched.push(self.extent);
            }
            i = j;
        }
        for n in touched {
            self.storage.sync(&format::extent_name(n))?;
        }
        Ok(())
    }
}

fn logger(shared: Arc<Shared>, mut writer: ExtentWriter) {
    loop {
        let (batch, boundaries, last_lsn) = {
            let mut st = lock(&shared);
            while st.pending.is_empty() && !st.stop {
                st = shared.work.wait(st).unwrap_or_else(|p| p.into_inner());
            }
            if st.pending.is_empty() && st.stop {
                return;
            }
            let last = st.next_lsn - 1;
            (
                std::mem::take(&mut st.pending),
                std::mem::take(&mut st.boundaries),
                last,
            )
        };
        let result = writer.write_batch(&batch, &boundaries);
        let mut st = lock(&shared);
        match result {
            Ok(()) => {
                st.durable_lsn = last_lsn;
                st.syncs += 1;
                st.records_synced += boundaries.len() as u64;
            }
            Err(e) => {
                st.failed = Some(format!("writing the recovery log failed: {e}"));
                shared.done.notify_all();
                return;
            }
        }
        drop(st);
        shared.done.notify_all();
    }
}
