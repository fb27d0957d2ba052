//! Appending to the log with group commit, and reading records back by position.
//!
//! Writers encode their records into a shared buffer and wait until the logger thread reports
//! them durable. The logger thread takes everything buffered, writes it with one write per
//! extent touched and one `fdatasync`, then wakes every writer it covered — so many concurrent
//! writers share one sync, and a lone writer is written at once rather than made to wait for
//! company. The logger holds no engine lock while it writes or syncs; writers hold only the
//! buffer's lock while they copy their record in.
//!
//! A record's place (extent and offset) is decided when it is appended, so the caller learns
//! where it will live and can read it back later ([`Log::read`]) — the engine keeps the bodies of
//! deep queues' messages in the log and reads them on demand instead of holding them in memory.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Poll, Waker};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::format::{self, LogType, RecordAt, EXTENT_HEADER, RECORD_HEADER};
use crate::histogram::{self, Histogram};
use crate::scan::{Record, Tail};
use crate::storage::Storage;
use crate::LogError;

/// Log settings (MQ's LogFilePages, LogPrimaryFiles + LogSecondaryFiles, LogBufferPages,
/// LogType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogConfig {
    /// Bytes per extent (a record larger than an extent gets an extent of its own). At most
    /// [`MAX_EXTENT_SIZE`].
    pub extent_size: u64,
    /// Most bytes buffered for the logger before writers wait for room.
    pub buffer_size: usize,
    /// Circular or linear.
    pub log_type: LogType,
    /// Most extents the log may span (0: no limit). A bounded append that would need one more
    /// fails with [`LogError::Full`]; unbounded appends (commits, backouts) may still go beyond,
    /// so a full log can always be drained.
    pub max_extents: u64,
    /// Prepare each next extent ahead of need on a background thread, written full of zeros
    /// and synced, so appends overwrite allocated blocks and each sync flushes data only (no
    /// file-size change to journal: measured here 1.3–1.7× the syncs per second of appending).
    pub preallocate: bool,
}

/// The page size the logger pads its writes to (the usual one; on a machine with larger
/// pages the padding still saves the read of most of them).
const PAGE: u64 = 4096;

/// Largest extent: record positions are 32-bit offsets.
pub const MAX_EXTENT_SIZE: u64 = 1 << 30;

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            extent_size: 64 * 1024 * 1024,
            buffer_size: 4 * 1024 * 1024,
            log_type: LogType::Circular,
            max_extents: 1024,
            preallocate: true,
        }
    }
}

/// Where a record lives: enough to read it back with one positional read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordPos {
    /// Extent number.
    pub extent: u32,
    /// Byte offset of the record header in the extent.
    pub offset: u32,
    /// Bytes the record occupies (header, payload, padding).
    pub size: u32,
}

/// What an append returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The record's LSN.
    pub lsn: u64,
    /// Where it will be on disk.
    pub pos: RecordPos,
}

struct Boundary {
    /// Offset of the record in `pending`.
    at: usize,
    lsn: u64,
    extent: u64,
    offset: u64,
}

struct State {
    /// Records encoded and not yet taken by the logger.
    pending: Vec<u8>,
    /// Where each pending record starts in `pending`, its LSN and its place on disk.
    boundaries: Vec<Boundary>,
    next_lsn: u64,
    durable_lsn: u64,
    /// Where the next record goes.
    place_extent: u64,
    place_offset: u64,
    /// Everything before this (extent, offset) has been written to storage (readable).
    written: (u64, u64),
    /// Lowest extent still present.
    oldest_extent: u64,
    /// Record bytes appended since the log was opened.
    bytes_appended: u64,
    failed: Option<String>,
    /// The logger cannot write for want of disk space (and retries): why.
    stalled: Option<String>,
    stop: bool,
    /// The logger is asleep waiting for records: only then does an append wake it (a wake is a
    /// system call; while the logger writes or syncs, records just accumulate for its next turn).
    logger_idle: bool,
    /// Async waiters: woken once their LSN is durable (or the log fails).
    wakers: Vec<(u64, Waker)>,
    /// Threads blocked on `Shared::done` (durability, room in the buffer, a record written):
    /// the logger signals it only when there are some, as a signal is a system call.
    done_waiters: usize,
    /// Syncs done and records covered, for statistics (group-commit batch size).
    syncs: u64,
    records_synced: u64,
    /// How long each batch took to write, to sync, and how many records it held.
    write_seconds: Histogram,
    sync_seconds: Histogram,
    batch_records: Histogram,
}

impl State {
    /// A log whose next record gets `next_lsn` and goes at `at` (extent, offset), whose oldest
    /// extent is `oldest_extent`.
    fn at(next_lsn: u64, at: (u64, u64), oldest_extent: u64) -> State {
        State {
            pending: Vec::new(),
            boundaries: Vec::new(),
            next_lsn,
            durable_lsn: next_lsn - 1,
            place_extent: at.0,
            place_offset: at.1,
            written: at,
            oldest_extent,
            bytes_appended: 0,
            failed: None,
            stalled: None,
            stop: false,
            logger_idle: false,
            wakers: Vec::new(),
            done_waiters: 0,
            syncs: 0,
            records_synced: 0,
            write_seconds: Histogram::new(histogram::SECONDS_BUCKETS),
            sync_seconds: Histogram::new(histogram::SECONDS_BUCKETS),
            batch_records: Histogram::new(histogram::BATCH_BUCKETS),
        }
    }
}

struct Shared {
    /// The preparer could not make the next extent (the disk is full): bounded appends keep
    /// out of the reserve ([`reserve`]) and out of any new extent until it can.
    space_low: std::sync::atomic::AtomicBool,
    /// Why, for the statistics.
    space_why: Mutex<String>,
    state: Mutex<State>,
    work: Condvar,
    done: Condvar,
    config: LogConfig,
    prep: Mutex<Prep>,
    prep_changed: Condvar,
}

/// The extent preparer's state, shared with the logger.
#[derive(Default)]
struct Prep {
    /// The extent being appended to; the preparer keeps the one after it ready.
    current: u64,
    /// A prepared extent (always `current + 1`).
    ready: Option<u64>,
    /// The extent being prepared now: the logger must not create it meanwhile.
    busy: Option<u64>,
    stop: bool,
}

fn lock_prep(s: &Shared) -> MutexGuard<'_, Prep> {
    s.prep.lock().unwrap_or_else(|p| p.into_inner())
}

fn lock(s: &Shared) -> MutexGuard<'_, State> {
    s.state.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records a synced batch: durability moves to `last_lsn`, statistics count it. Returns the
/// async waiters it satisfied.
fn note_synced(
    st: &mut State,
    last_lsn: u64,
    boundaries: &[Boundary],
    synced_at: Instant,
) -> Vec<Waker> {
    debug_assert!(batch_is_next(st, last_lsn, boundaries));
    st.durable_lsn = last_lsn;
    st.syncs += 1;
    st.records_synced += boundaries.len() as u64;
    st.sync_seconds.observe(synced_at.elapsed().as_secs_f64());
    st.batch_records.observe(boundaries.len() as f64);
    let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut st.wakers)
        .into_iter()
        .partition(|(l, _)| *l <= last_lsn);
    st.wakers = waiting;
    ready.into_iter().map(|(_, w)| w).collect()
}

/// A synced batch moves durability forward, and its records have consecutive LSNs.
fn batch_is_next(st: &State, last_lsn: u64, boundaries: &[Boundary]) -> bool {
    last_lsn >= st.durable_lsn && boundaries.windows(2).all(|w| w[0].lsn + 1 == w[1].lsn)
}

fn check_size(payload: &[u8]) -> Result<(), LogError> {
    if format::record_size(payload.len()) as u64 > u32::MAX as u64 {
        return Err(LogError::Io(format!(
            "a {}-byte record is too large for the log",
            payload.len()
        )));
    }
    Ok(())
}

/// Bytes of the current extent bounded appends leave free while the disk is full, so commits,
/// gets and backouts (a few dozen bytes each) can go on and drain the queues.
fn reserve(config: &LogConfig) -> u64 {
    (config.extent_size / 4).min(4 << 20)
}

/// Whether `e` says the disk is full.
fn is_no_space(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(28) || e.kind() == std::io::ErrorKind::StorageFull
}

/// Whether the buffer takes a `len`-byte payload now (an empty buffer takes any record).
fn has_room(st: &State, config: &LogConfig, len: usize) -> bool {
    st.pending.is_empty() || st.pending.len() + len <= config.buffer_size
}

/// The open log, ready for appends.
pub struct Log {
    shared: Arc<Shared>,
    storage: Arc<dyn Storage>,
    thread: Option<JoinHandle<()>>,
    preparer: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("config", &self.shared.config)
            .finish()
    }
}

/// Log statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct LogStats {
    /// Syncs performed.
    pub syncs: u64,
    /// Records made durable.
    pub records: u64,
    /// Highest durable LSN.
    pub durable_lsn: u64,
    /// Record bytes appended since the log was opened.
    pub bytes_appended: u64,
    /// Lowest extent present.
    pub oldest_extent: u64,
    /// Extent being appended to.
    pub current_extent: u64,
    /// Why the disk holding the log is full, while it is (persistent puts are refused, or
    /// the logger waits for space to write what it holds).
    pub disk_full: Option<String>,
    /// Seconds each batch took to write (before its sync).
    pub write_seconds: Histogram,
    /// Seconds each batch's sync took.
    pub sync_seconds: Histogram,
    /// Records per synced batch (the group-commit batch size).
    pub batch_records: Histogram,
}

impl Log {
    /// Opens the log for appending at `tail` (from a scan; [`crate::EMPTY`] for a new log).
    /// Anything after the tail in its extent — a torn write — is zeroed and synced first, so a
    /// later scan can never mistake it for records.
    pub fn open(storage: Arc<dyn Storage>, config: LogConfig, tail: Tail) -> Result<Log, LogError> {
        if config.extent_size > MAX_EXTENT_SIZE || config.extent_size < 4096 {
            return Err(LogError::Io(format!(
                "extent size {} is outside 4 KiB–1 GiB",
                config.extent_size
            )));
        }
        let io = |e: std::io::Error| LogError::Io(e.to_string());
        let name = format::extent_name(tail.extent);
        let names = storage.list().map_err(io)?;
        let oldest_extent = names
            .iter()
            .filter_map(|n| format::extent_number(n))
            .min()
            .unwrap_or(tail.extent)
            .min(tail.extent);
        let exists = names.contains(&name);
        let mut writer = ExtentWriter {
            storage: storage.clone(),
            config,
            extent: tail.extent,
            offset: tail.offset,
            shared: None,
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
                zero_after(storage.as_ref(), &name, tail.offset, len).map_err(io)?;
            }
        } else {
            writer
                .start_extent(tail.extent, tail.next_lsn)
                .map_err(io)?;
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State::at(
                tail.next_lsn,
                (writer.extent, writer.offset),
                oldest_extent,
            )),
            space_low: Default::default(),
            space_why: Mutex::new(String::new()),
            work: Condvar::new(),
            done: Condvar::new(),
            config,
            prep: Mutex::new(Prep {
                current: writer.extent,
                ..Prep::default()
            }),
            prep_changed: Condvar::new(),
        });
        // A prepared extent left by an earlier run beyond the tail is not trusted to be ready
        // (it may be half zeroed): the logger recreates it when it gets there.
        writer.shared = Some(shared.clone());
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("ferry-logger".into())
            .spawn(move || logger(s, writer))
            .map_err(|e| LogError::Io(format!("cannot start the logger thread: {e}")))?;
        let preparer = if config.preallocate {
            let (s, st) = (shared.clone(), storage.clone());
            Some(
                std::thread::Builder::new()
                    .name("ferry-log-prep".into())
                    .spawn(move || {
                        crate::run_in_background();
                        preparer(s, st)
                    })
                    .map_err(|e| LogError::Io(format!("cannot start the extent preparer: {e}")))?,
            )
        } else {
            None
        };
        Ok(Log {
            shared,
            storage,
            thread: Some(thread),
            preparer,
        })
    }

    /// The settings the log was opened with.
    pub fn config(&self) -> LogConfig {
        self.shared.config
    }

    /// Buffers a record and returns its LSN and place; it is durable once
    /// [`Log::wait_durable`] returns for that LSN. Waits for room when the log buffer is full.
    /// Not subject to `max_extents` (see [`Log::append_bounded`]).
    pub fn append(&self, kind: u8, payload: &[u8]) -> Result<Appended, LogError> {
        self.append_inner(kind, payload, false)
    }

    /// As [`Log::append`], but fails with [`LogError::Full`] rather than take the log beyond
    /// `max_extents`.
    pub fn append_bounded(&self, kind: u8, payload: &[u8]) -> Result<Appended, LogError> {
        self.append_inner(kind, payload, true)
    }

    /// As [`Log::append_bounded`] (with `bounded`) or [`Log::append`], but never waits: when
    /// the log buffer has no room for the record now, returns `Ok(None)` and appends nothing.
    /// A caller holding a lock it must not hold across a wait (a queue's) releases it, calls
    /// [`Log::wait_room`] and tries again.
    pub fn try_append(
        &self,
        kind: u8,
        payload: &[u8],
        bounded: bool,
    ) -> Result<Option<Appended>, LogError> {
        check_size(payload)?;
        let st = lock(&self.shared);
        if let Some(e) = &st.failed {
            return Err(LogError::Io(e.clone()));
        }
        if !has_room(&st, &self.shared.config, payload.len()) {
            return Ok(None);
        }
        self.place(st, kind, payload, bounded).map(Some)
    }

    /// Waits until the log buffer has room for a `len`-byte payload (or the log fails).
    pub fn wait_room(&self, len: usize) -> Result<(), LogError> {
        let mut st = lock(&self.shared);
        loop {
            if let Some(e) = &st.failed {
                return Err(LogError::Io(e.clone()));
            }
            if has_room(&st, &self.shared.config, len) {
                return Ok(());
            }
            st = wait_done(&self.shared, st);
        }
    }

    fn append_inner(&self, kind: u8, payload: &[u8], bounded: bool) -> Result<Appended, LogError> {
        check_size(payload)?;
        let mut st = lock(&self.shared);
        loop {
            if let Some(e) = &st.failed {
                return Err(LogError::Io(e.clone()));
            }
            if has_room(&st, &self.shared.config, payload.len()) {
                break;
            }
            st = wait_done(&self.shared, st);
        }
        self.place(st, kind, payload, bounded)
    }

    /// Places a record in the buffer (room was checked under the same lock).
    fn place(
        &self,
        mut st: MutexGuard<'_, State>,
        kind: u8,
        payload: &[u8],
        bounded: bool,
    ) -> Result<Appended, LogError> {
        let config = &self.shared.config;
        let size = format::record_size(payload.len()) as u64;
        let (mut extent, mut offset) = (st.place_extent, st.place_offset);
        if bounded {
            self.keep_reserve(offset + size)?;
        }
        if offset > EXTENT_HEADER as u64 && offset + size > config.extent_size {
            extent += 1;
            offset = EXTENT_HEADER as u64;
            let span = extent - st.oldest_extent + 1;
            if bounded && config.max_extents > 0 && span > config.max_extents {
                return Err(LogError::Full {
                    extents: config.max_extents,
                    extent_size: config.extent_size,
                });
            }
        }
        if extent > u32::MAX as u64 {
            return Err(LogError::Io("the log has run out of extent numbers".into()));
        }
        let lsn = st.next_lsn;
        debug_assert!(
            lsn > st.durable_lsn,
            "a new record is never already durable"
        );
        debug_assert!(
            offset == EXTENT_HEADER as u64 || offset + size <= config.extent_size,
            "a record fits its extent unless it starts one"
        );
        st.next_lsn += 1;
        let at = st.pending.len();
        st.boundaries.push(Boundary {
            at,
            lsn,
            extent,
            offset,
        });
        format::encode_record(&mut st.pending, lsn, kind, payload);
        st.place_extent = extent;
        st.place_offset = offset + size;
        st.bytes_appended += size;
        let wake = st.logger_idle;
        drop(st);
        if wake {
            self.shared.work.notify_one();
        }
        Ok(Appended {
            lsn,
            pos: RecordPos {
                extent: extent as u32,
                offset: offset as u32,
                size: size as u32,
            },
        })
    }

    /// While the disk is full, a bounded append ending at `end` in the current extent must leave
    /// the reserve free (and may not start a new extent).
    fn keep_reserve(&self, end: u64) -> Result<(), LogError> {
        let config = &self.shared.config;
        let low = self
            .shared
            .space_low
            .load(std::sync::atomic::Ordering::Relaxed);
        if low && end + reserve(config) > config.extent_size {
            return Err(LogError::NoSpace(self.space_low_why().unwrap_or_default()));
        }
        Ok(())
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
            st = wait_done(&self.shared, st);
        }
    }

    /// Whether `lsn` is durable, registering `waker` to be woken when it is if not: the
    /// non-blocking form of [`Log::wait_durable`] for async servers.
    pub fn poll_durable(&self, lsn: u64, waker: &Waker) -> Poll<Result<(), LogError>> {
        let mut st = lock(&self.shared);
        if st.durable_lsn >= lsn {
            return Poll::Ready(Ok(()));
        }
        if let Some(e) = &st.failed {
            return Poll::Ready(Err(LogError::Io(e.clone())));
        }
        match st.wakers.iter_mut().find(|(_, w)| w.will_wake(waker)) {
            Some(entry) => entry.0 = lsn,
            None => st.wakers.push((lsn, waker.clone())),
        }
        Poll::Pending
    }

    /// The highest durable LSN.
    pub fn durable_lsn(&self) -> u64 {
        lock(&self.shared).durable_lsn
    }

    /// Appends a record and returns once it is durable.
    pub fn commit(&self, kind: u8, payload: &[u8]) -> Result<u64, LogError> {
        let a = self.append(kind, payload)?;
        self.wait_durable(a.lsn)?;
        Ok(a.lsn)
    }

    /// Reads back the record at `pos` (waiting, if it was appended but not yet written, until
    /// the logger has written it). The checksum is verified: damage is reported, never served.
    pub fn read(&self, pos: RecordPos) -> Result<Record, LogError> {
        let end = (pos.extent as u64, pos.offset as u64 + pos.size as u64);
        {
            let mut st = lock(&self.shared);
            while st.written < end {
                if let Some(e) = &st.failed {
                    return Err(LogError::Io(e.clone()));
                }
                st = wait_done(&self.shared, st);
            }
        }
        read_record(self.storage.as_ref(), pos)
    }

    /// Where the next record will go and the LSN it will get: a checkpoint's replay start.
    pub fn next_position(&self) -> Tail {
        let st = lock(&self.shared);
        Tail {
            extent: st.place_extent,
            offset: st.place_offset,
            next_lsn: st.next_lsn,
        }
    }

    /// Removes every extent below `extent` (never the one being appended to), for a circular
    /// log once no checkpoint and no queued message needs them. Returns how many went.
    pub fn release_before(&self, extent: u64) -> Result<u64, LogError> {
        let (from, to) = {
            let mut st = lock(&self.shared);
            let to = extent.min(st.written.0);
            let from = st.oldest_extent;
            if to <= from {
                return Ok(0);
            }
            st.oldest_extent = to;
            (from, to)
        };
        for n in from..to {
            match self.storage.remove(&format::extent_name(n)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(LogError::Io(e.to_string())),
            }
        }
        Ok(to - from)
    }

    /// Why the disk holding the log is full, while it is: the logger waits for room to write
    /// what it holds, or the next extent cannot be made (bounded appends are refused).
    pub fn disk_full(&self) -> Option<String> {
        let st = lock(&self.shared);
        st.stalled.clone().or_else(|| self.space_low_why())
    }

    fn space_low_why(&self) -> Option<String> {
        self.shared
            .space_low
            .load(std::sync::atomic::Ordering::Relaxed)
            .then(|| {
                self.shared
                    .space_why
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone()
            })
    }

    /// Statistics so far.
    pub fn stats(&self) -> LogStats {
        let st = lock(&self.shared);
        LogStats {
            syncs: st.syncs,
            records: st.records_synced,
            durable_lsn: st.durable_lsn,
            bytes_appended: st.bytes_appended,
            oldest_extent: st.oldest_extent,
            current_extent: st.place_extent,
            disk_full: st.stalled.clone().or_else(|| self.space_low_why()),
            write_seconds: st.write_seconds.clone(),
            sync_seconds: st.sync_seconds.clone(),
            batch_records: st.batch_records.clone(),
        }
    }
}

/// Reads and verifies the record at `pos` straight from storage.
pub fn read_record(storage: &dyn Storage, pos: RecordPos) -> Result<Record, LogError> {
    let name = format::extent_name(pos.extent as u64);
    let mut buf = vec![0u8; pos.size as usize];
    let got = storage
        .read_at(&name, pos.offset as u64, &mut buf)
        .map_err(|e| LogError::Io(format!("reading {name} at {}: {e}", pos.offset)))?;
    buf.truncate(got);
    match format::check_record(&buf, buf.len().saturating_sub(RECORD_HEADER)) {
        RecordAt::Record { lsn, kind, len } => {
            buf.truncate(RECORD_HEADER + len);
            buf.drain(..RECORD_HEADER);
            Ok(Record {
                lsn,
                kind,
                payload: buf,
            })
        }
        RecordAt::End => Err(LogError::Corrupt {
            file: name,
            offset: pos.offset as u64,
            reason: "no record where one was written".into(),
        }),
        RecordAt::Damaged(r) => Err(LogError::Corrupt {
            file: name,
            offset: pos.offset as u64,
            reason: r.into(),
        }),
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        lock(&self.shared).stop = true;
        self.shared.work.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        lock_prep(&self.shared).stop = true;
        self.shared.prep_changed.notify_all();
        if let Some(t) = self.preparer.take() {
            let _ = t.join();
        }
    }
}

/// Zeroes whatever is not zero in `name` from `from` to `len` (a torn write after the tail of
/// a preallocated extent), chunk by chunk, and syncs.
fn zero_after(storage: &dyn Storage, name: &str, from: u64, len: u64) -> std::io::Result<()> {
    const CHUNK: u64 = 1 << 20;
    let mut buf = vec![0u8; CHUNK as usize];
    let mut at = from;
    let mut wrote = false;
    while at < len {
        let n = CHUNK.min(len - at) as usize;
        let got = storage.read_at(name, at, &mut buf[..n])?;
        if buf[..got].iter().any(|b| *b != 0) {
            buf[..n].fill(0);
            storage.write_at(name, at, &buf[..n])?;
            wrote = true;
        }
        at += n as u64;
    }
    if wrote {
        storage.sync(name)?;
    }
    Ok(())
}

/// Keeps the extent after the current one created, zero-filled and synced.
fn preparer(shared: Arc<Shared>, storage: Arc<dyn Storage>) {
    let size = shared.config.extent_size;
    loop {
        let target = {
            let mut p = lock_prep(&shared);
            loop {
                if p.stop {
                    return;
                }
                let target = p.current + 1;
                if p.ready != Some(target) && p.busy.is_none() {
                    p.ready = None;
                    p.busy = Some(target);
                    break target;
                }
                p = shared
                    .prep_changed
                    .wait(p)
                    .unwrap_or_else(|e| e.into_inner());
            }
        };
        let name = format::extent_name(target);
        let result = storage.create_zeroed(&name, size);
        if let Err(e) = &result {
            // A half-made extent would hold space a full disk needs; it goes while the logger
            // still keeps away from it (`busy`).
            let _ = storage.remove(&name);
            *shared.space_why.lock().unwrap_or_else(|p| p.into_inner()) =
                format!("cannot make the next log extent {name}: {e}");
            shared
                .space_low
                .store(true, std::sync::atomic::Ordering::Relaxed);
        } else {
            shared
                .space_low
                .store(false, std::sync::atomic::Ordering::Relaxed);
        }
        let mut p = lock_prep(&shared);
        p.busy = None;
        match result {
            Ok(()) => p.ready = Some(target),
            Err(_) => {
                // The logger creates extents itself meanwhile; try again later.
                drop(p);
                shared.prep_changed.notify_all();
                std::thread::sleep(std::time::Duration::from_millis(200));
                continue;
            }
        }
        drop(p);
        shared.prep_changed.notify_all();
    }
}

/// The logger thread's view of the extents.
struct ExtentWriter {
    storage: Arc<dyn Storage>,
    config: LogConfig,
    extent: u64,
    offset: u64,
    /// For coordinating with the preparer (set once the log is open).
    shared: Option<Arc<Shared>>,
}

impl ExtentWriter {
    fn start_extent(&mut self, n: u64, first_lsn: u64) -> std::io::Result<()> {
        let name = format::extent_name(n);
        let prepared = match &self.shared {
            Some(shared) => {
                let mut p = lock_prep(shared);
                while p.busy == Some(n) {
                    p = shared
                        .prep_changed
                        .wait(p)
                        .unwrap_or_else(|e| e.into_inner());
                }
                let ready = p.ready == Some(n);
                p.ready = None;
                p.current = n;
                drop(p);
                shared.prep_changed.notify_all();
                ready
            }
            None => false,
        };
        if !prepared {
            self.storage.create(&name)?;
        }
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

    /// Writes a batch of records at the places their appends chose, one write per run of
    /// records in the same extent; returns the extents touched and not yet synced (when a
    /// batch crosses into a new extent, the runs before it are synced first).
    ///
    /// The last run is padded with zeros to the end of its page (see [`PAGE`]); `batch` grows
    /// by that padding.
    fn write_batch(
        &mut self,
        batch: &mut Vec<u8>,
        boundaries: &[Boundary],
    ) -> std::io::Result<Vec<u64>> {
        let mut touched = Vec::new();
        let mut i = 0;
        while i < boundaries.len() {
            let first = &boundaries[i];
            if first.extent != self.extent {
                // The records before this extent are made durable before any of this one's are
                // written: otherwise a crash could leave this extent's records on disk without
                // the unsynced ones before them (the kernel writes pages back in any order),
                // and the gap would read as damage to the live log, not as a torn tail.
                for n in touched.drain(..) {
                    self.storage.sync(&format::extent_name(n))?;
                }
                self.start_extent(first.extent, first.lsn)?;
            }
            debug_assert_eq!(first.offset, self.offset, "records are placed contiguously");
            let mut j = i + 1;
            while j < boundaries.len() && boundaries[j].extent == first.extent {
                j += 1;
            }
            let end = boundaries.get(j).map_or(batch.len(), |b| b.at);
            let records_end = first.offset + (end - first.at) as u64;
            let mut write_end = end;
            if j == boundaries.len() {
                // Pad the batch's last page with the zeros already on disk after the tail, so
                // the write covers whole pages: a buffered write of part of a page that is not
                // in the page cache must first read that page from the disk, and the pages of
                // an extent zeroed with direct I/O never are — measured here, that read made
                // each batch's write take ~75 µs instead of ~13. The next batch starts in the
                // page this one leaves cached. Never past the extent's prepared length.
                let padded = records_end.next_multiple_of(PAGE);
                let limit = self.config.extent_size.max(records_end);
                let pad = (padded.min(limit) - records_end) as usize;
                batch.resize(batch.len() + pad, 0);
                write_end = batch.len();
            }
            let name = format::extent_name(self.extent);
            self.storage
                .write_at(&name, first.offset, &batch[first.at..write_end])?;
            self.offset = records_end;
            if !touched.contains(&self.extent) {
                touched.push(self.extent);
            }
            i = j;
        }
        Ok(touched)
    }
}

/// Writes and syncs a batch. When the disk is full the batch is written again from its start
/// every [`NO_SPACE_RETRY`] until it fits (positional writes of the same bytes to the same
/// places: nothing is doubled), the wait shown in the statistics; a stop ends the wait with an
/// error. Returns the outcome and when the sync began.
fn write_until_room(
    shared: &Shared,
    writer: &mut ExtentWriter,
    batch: &mut Vec<u8>,
    boundaries: &[Boundary],
) -> (std::io::Result<()>, Instant) {
    let (mark, len) = ((writer.extent, writer.offset), batch.len());
    loop {
        let started = Instant::now();
        let mut synced_at = started;
        let result = writer.write_batch(batch, boundaries).and_then(|touched| {
            let written = Instant::now();
            // Written records can be read back before they are synced.
            let mut st = lock(shared);
            st.written = (writer.extent, writer.offset);
            st.write_seconds
                .observe(written.duration_since(started).as_secs_f64());
            let waiting = st.done_waiters > 0;
            drop(st);
            if waiting {
                shared.done.notify_all();
            }
            synced_at = written;
            for n in touched {
                writer.storage.sync(&format::extent_name(n))?;
            }
            Ok(())
        });
        let e = match result {
            Err(e) if is_no_space(&e) => e,
            other => {
                lock(shared).stalled = None;
                return (other, synced_at);
            }
        };
        let mut st = lock(shared);
        if st.stop {
            return (Err(e), synced_at);
        }
        st.stalled = Some(format!(
            "{} records wait to be written: {e}",
            boundaries.len()
        ));
        drop(st);
        (writer.extent, writer.offset) = mark;
        batch.truncate(len);
        std::thread::sleep(NO_SPACE_RETRY);
    }
}

/// How often the logger tries again to write a batch the full disk refused.
const NO_SPACE_RETRY: std::time::Duration = std::time::Duration::from_millis(200);

/// Waits on `done`, counted in `done_waiters` so the logger knows to signal.
fn wait_done<'a>(shared: &'a Shared, mut st: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
    st.done_waiters += 1;
    let mut st = shared.done.wait(st).unwrap_or_else(|p| p.into_inner());
    st.done_waiters -= 1;
    st
}

fn logger(shared: Arc<Shared>, mut writer: ExtentWriter) {
    // The buffers of the batch being written; swapped with the shared ones at each turn, so
    // appenders fill buffers that already have their capacity instead of growing new ones.
    let mut batch = Vec::new();
    let mut boundaries = Vec::new();
    loop {
        batch.clear();
        boundaries.clear();
        let last_lsn = {
            let mut st = lock(&shared);
            while st.pending.is_empty() && !st.stop {
                st.logger_idle = true;
                st = shared.work.wait(st).unwrap_or_else(|p| p.into_inner());
                st.logger_idle = false;
            }
            if st.pending.is_empty() && st.stop {
                return;
            }
            std::mem::swap(&mut st.pending, &mut batch);
            std::mem::swap(&mut st.boundaries, &mut boundaries);
            st.next_lsn - 1
        };
        let (result, synced_at) = write_until_room(&shared, &mut writer, &mut batch, &boundaries);
        let mut st = lock(&shared);
        let woken = match result {
            Ok(()) => note_synced(&mut st, last_lsn, &boundaries, synced_at),
            Err(e) => {
                st.failed = Some(format!("writing the recovery log failed: {e}"));
                let all = std::mem::take(&mut st.wakers);
                drop(st);
                shared.done.notify_all();
                for (_, w) in all {
                    w.wake();
                }
                return;
            }
        };
        let waiting = st.done_waiters > 0;
        drop(st);
        if waiting {
            shared.done.notify_all();
        }
        for w in woken {
            w.wake();
        }
    }
}
