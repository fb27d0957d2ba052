//! Checkpoints: a compact snapshot of every definition and every logged message's entry, so a
//! restart reads the snapshot and only the log records after it — restart time is bounded by
//! the checkpoint interval, not by the log's length — and a circular log can drop the extents
//! no snapshot or queued message needs.
//!
//! Owns: when a checkpoint is due, taking one, the file format, finding the newest good one at
//! restart, and releasing extents afterwards.
//!
//! Consistency: a checkpoint holds the persistence gate exclusively only while it takes the
//! start of its cut — the replay position and the highest unit-of-work id, two reads, whatever
//! the number of queues — so no commit, backout or definition change is between its record
//! and its effect then, and every one whose record is before the replay position has had its
//! effect. With the gate released it copies the definitions (they may include changes made
//! since, whose records replay then applies again to the same result: each DEFINE, DELETE and
//! OBJECT record carries a whole object or its removal, and the last one wins), and it
//! snapshots each queue at its own *mark* (the next LSN, read under the
//! queue's lock): the queue's logged messages as they were at the mark, read a chunk of 1,024
//! at a time (`engine/store/snapshot.rs` keeps the pre-image of any slot changed before the
//! scan reaches it). Puts and gets wait at most for one chunk; other queues never wait. At
//! restart, a queue's PUT, GET and CLEAR records below its mark are skipped and everything else
//! from the replay position on is applied: a commit or backout whose effect reached a queue
//! after its mark finds that queue's messages still pending in the snapshot and ends them.
//! The snapshot is written only after every record it reflects is durable.
//!
//! File `C<lsn, 20 digits>.fckp` beside the extents (byte map in docs/log.md): a 64-byte header
//! (magic `FMQCKP01`, version, the record format of the log after it, replay position, highest
//! unit-of-work id), the queue definitions
//! and then the channels and listeners as TOML, per queue its mark, highest sequence number and entries (delta- and varint-coded,
//! typically 13–30 bytes a message), then a trailer: the length of all that and a CRC-32C of
//! it and the length. It is streamed to `C-partial.fckp` in 4 MB pieces (only one queue's
//! encoded entries are in memory at a time), synced, renamed, and only then are older
//! checkpoints removed, so a crash at any point leaves at least one good checkpoint.

use std::sync::Arc;
use std::time::Duration;

use ferry_log::{RecordPos, Storage, Tail};
use ferry_model::clock::monotonic_now;
use ferry_model::message::{CorrelId, MsgId};
use ferry_model::name::ObjectName;
use ferry_model::objects::{DefinitionType, LocalQueueAttrs, QueueDefinition};
use ferry_model::reason::{MqError, MqResult, Reason};

use crate::durable::persist::{self, Persist, Progress};
use crate::durable::record;
use crate::durable::replay::{Held, Logged, Recovery};
use crate::engine::store::{OnDisk, SlotState};
use crate::engine::Queue;
use crate::qmgr::catalog::ObjectKind;
use crate::qmgr::journal::CheckpointReport;
use crate::qmgr::{Object, QueueManager};

const MAGIC: [u8; 8] = *b"FMQCKP01";
const VERSION: u32 = 2;
const HEADER: usize = 64;

/// Longest time between checkpoints while anything is logged: drained queues give their
/// extents back within about this long even when little is written.
pub const MAX_INTERVAL: Duration = Duration::from_secs(30);

/// The file name of a checkpoint whose replay starts at `lsn`.
pub fn file_name(lsn: u64) -> String {
    format!("C{lsn:020}.fckp")
}

fn lsn_of(name: &str) -> Option<u64> {
    name.strip_prefix('C')?.strip_suffix(".fckp")?.parse().ok()
}

/// Whether enough log has been written since the last checkpoint to take another.
pub fn due(p: &Persist) -> bool {
    let prog = p.checkpoints.lock();
    let interval = p.settings().checkpoint_bytes.max(4 * prog.last_size);
    let written = p.log().stats().bytes_appended.saturating_sub(prog.at_bytes);
    written >= interval || (written > 0 && prog.at_time.is_none_or(|t| t.elapsed() >= MAX_INTERVAL))
}

// ----- encoding helpers -------------------------------------------------------------------------

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn put_str8(out: &mut Vec<u8>, s: &str) {
    out.push(s.len() as u8);
    out.extend_from_slice(s.as_bytes());
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn damaged(&self, what: &str) -> MqError {
        MqError::new(
            Reason::QMgrDataError,
            format!("checkpoint damaged: {what} at byte {}", self.at),
        )
    }
    fn take(&mut self, n: usize) -> MqResult<&'a [u8]> {
        if self.b.len() - self.at < n {
            return Err(self.damaged("cut short"));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> MqResult<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> MqResult<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or([0; 4]),
        ))
    }
    fn u64(&mut self) -> MqResult<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or([0; 8]),
        ))
    }
    fn varint(&mut self) -> MqResult<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.damaged("varint too long"))
    }
    fn str8(&mut self) -> MqResult<&'a str> {
        let n = self.u8()? as usize;
        std::str::from_utf8(self.take(n)?).map_err(|_| self.damaged("name not UTF-8"))
    }
}

/// Per-entry flags.
const F_PENDING_PUT: u8 = 1;
const F_PENDING_GET: u8 = 2;
const F_EXPIRY: u8 = 4;
const F_CORREL: u8 = 8;
const F_BACKOUT: u8 = 16;

/// Encodes entries with deltas against the previous one (ids share prefixes, positions and
/// times move little), so a deep queue's checkpoint stays small.
#[derive(Default)]
struct EntryCoder {
    seq: u64,
    extent: u32,
    put_ms: u64,
    msg_id: [u8; 24],
}

impl EntryCoder {
    fn encode(&mut self, out: &mut Vec<u8>, seq: u64, held: Held, expiry_ms: i64, d: &OnDisk) {
        put_varint(out, zigzag(seq as i64 - self.seq as i64));
        self.seq = seq;
        let mut flags = 0;
        match held {
            Held::Available => {}
            Held::PutPending(_) => flags |= F_PENDING_PUT,
            Held::GotPending(_) => flags |= F_PENDING_GET,
        }
        if expiry_ms != 0 {
            flags |= F_EXPIRY;
        }
        if !d.correl_id.is_none() {
            flags |= F_CORREL;
        }
        if d.backout_count != 0 {
            flags |= F_BACKOUT;
        }
        out.push(flags);
        if let Held::PutPending(u) | Held::GotPending(u) = held {
            put_varint(out, u);
        }
        if expiry_ms != 0 {
            put_varint(out, expiry_ms as u64);
        }
        put_varint(out, zigzag(d.pos.extent as i64 - self.extent as i64));
        self.extent = d.pos.extent;
        put_varint(out, d.pos.offset as u64);
        put_varint(out, d.pos.size as u64);
        let id = d.msg_id.0;
        let shared = id
            .iter()
            .zip(self.msg_id.iter())
            .take_while(|(a, b)| a == b)
            .count();
        out.push(shared as u8);
        out.extend_from_slice(&id[shared..]);
        self.msg_id = id;
        if flags & F_CORREL != 0 {
            out.extend_from_slice(&d.correl_id.0);
        }
        out.push(d.priority);
        if flags & F_BACKOUT != 0 {
            put_varint(out, d.backout_count as u64);
        }
        put_varint(out, zigzag(d.put_time_ms as i64 - self.put_ms as i64));
        self.put_ms = d.put_time_ms;
    }

    fn decode(&mut self, c: &mut Cursor<'_>) -> MqResult<(u64, Logged)> {
        let seq = (self.seq as i64 + unzigzag(c.varint()?)) as u64;
        self.seq = seq;
        let flags = c.u8()?;
        let held = if flags & F_PENDING_PUT != 0 {
            Held::PutPending(c.varint()?)
        } else if flags & F_PENDING_GET != 0 {
            Held::GotPending(c.varint()?)
        } else {
            Held::Available
        };
        let expiry_ms = if flags & F_EXPIRY != 0 {
            c.varint()? as i64
        } else {
            0
        };
        let extent = (self.extent as i64 + unzigzag(c.varint()?)) as u32;
        self.extent = extent;
        let offset = c.varint()? as u32;
        let size = c.varint()? as u32;
        let shared = c.u8()? as usize;
        if shared > 24 {
            return Err(c.damaged("msg id prefix"));
        }
        let mut id = self.msg_id;
        id[shared..].copy_from_slice(c.take(24 - shared)?);
        self.msg_id = id;
        let correl_id = if flags & F_CORREL != 0 {
            CorrelId::from_slice(c.take(24)?)
        } else {
            CorrelId::NONE
        };
        let priority = c.u8()?;
        let backout_count = if flags & F_BACKOUT != 0 {
            c.varint()? as u32
        } else {
            0
        };
        let put_ms = (self.put_ms as i64 + unzigzag(c.varint()?)) as u64;
        self.put_ms = put_ms;
        Ok((
            seq,
            Logged {
                entry: OnDisk {
                    pos: RecordPos {
                        extent,
                        offset,
                        size,
                    },
                    msg_id: MsgId::from_slice(&id),
                    correl_id,
                    priority,
                    backout_count,
                    put_time_ms: put_ms,
                    spilled: false,
                },
                expiry_ms,
                held,
            },
        ))
    }
}

// ----- taking a checkpoint ----------------------------------------------------------------------

fn io(what: &str, e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("checkpoint failed while {what}: {e}"),
    )
}

/// Name a checkpoint is written under until it is complete and synced.
const PARTIAL: &str = "C-partial.fckp";
/// Bytes encoded before they are written out: a deep queue's checkpoint is streamed to the
/// file, not built whole in memory.
const CHUNK: usize = 4 << 20;

/// A checkpoint file being written, with its running checksum.
struct Sink<'a> {
    storage: &'a dyn Storage,
    buf: Vec<u8>,
    at: u64,
    crc: u32,
}

impl Sink<'_> {
    fn flush(&mut self, force: bool) -> MqResult<()> {
        if self.buf.len() < CHUNK && !force {
            return Ok(());
        }
        self.storage
            .write_at(PARTIAL, self.at, &self.buf)
            .map_err(|e| io("writing the checkpoint", e))?;
        self.crc = crc32c::crc32c_append(self.crc, &self.buf);
        self.at += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }
}

/// Entries a queue's snapshot reads per hold of its lock.
const CHUNK_SLOTS: usize = 1024;

/// Takes a checkpoint now. `None` when nothing was logged since the last one.
/// Least time between durable marks.
pub const MARK_INTERVAL: Duration = Duration::from_secs(1);

/// Writes the durable mark when a second has passed since the last one and the log's durable
/// LSN has moved past it: a restart that finds fewer records than the mark vouches for reports
/// the acknowledged records missing (see `open.rs`). One small synced write a second at most.
pub fn keep_mark(persist: &Persist) -> MqResult<()> {
    let mut progress = persist.checkpoints.lock();
    let durable = persist.log().durable_lsn();
    if durable <= progress.mark.lsn
        || progress
            .mark_at
            .is_some_and(|t| t.elapsed() < MARK_INTERVAL)
    {
        return Ok(());
    }
    let mark = ferry_log::Mark {
        generation: progress.mark.generation + 1,
        lsn: durable,
    };
    progress.mark_at = Some(monotonic_now());
    ferry_log::write_mark(persist.storage().as_ref(), mark)
        .map_err(|e| io("writing the durable mark", e))?;
    progress.mark = mark;
    Ok(())
}

pub fn take(qm: &QueueManager, persist: &Persist) -> MqResult<Option<CheckpointReport>> {
    let mut progress = persist.checkpoints.lock();
    let started = monotonic_now();
    let log = persist.log();
    let storage = persist.storage().as_ref();
    storage
        .create(PARTIAL)
        .map_err(|e| io("creating the checkpoint file", e))?;
    let mut sink = Sink {
        storage,
        buf: Vec::with_capacity(CHUNK + 4096),
        at: 0,
        crc: 0,
    };
    let cut = take_cut(qm, persist, &mut sink)?;
    let mut stats = QueueStats {
        messages: 0,
        lowest_extent: u64::MAX,
        paused: cut.paused,
    };
    sink.buf
        .extend_from_slice(&(cut.locals.len() as u32).to_le_bytes());
    for q in &cut.locals {
        snapshot_queue(qm, q, log, &mut sink, &mut stats)?;
    }
    let end_lsn = log.next_position().next_lsn - 1;
    let bytes = finish_file(&mut sink)?;
    // Everything the snapshot reflects must be on disk before the snapshot is.
    persist.wait_lsn(end_lsn)?;
    let file = file_name(cut.start.next_lsn);
    if !install(storage, &file, cut.start.next_lsn)? {
        // Nothing was logged since that checkpoint: it already says all this one would.
        progress.at_bytes = log.stats().bytes_appended;
        progress.at_time = Some(monotonic_now());
        return Ok(None);
    }
    let mut extents_released = 0;
    if log.config().log_type == ferry_log::LogType::Circular {
        let keep_from = cut.start.extent.min(stats.lowest_extent);
        extents_released = log.release_before(keep_from).map_err(persist::log_error)?;
    }
    let report = CheckpointReport {
        file,
        messages: stats.messages,
        bytes,
        paused: stats.paused,
        took: started.elapsed(),
        extents_released,
    };
    note_taken(&mut progress, log, &report);
    Ok(Some(report))
}

/// The start of a checkpoint's cut, taken with the persistence gate held exclusively (no
/// commit, backout or definition change is between its record and its effect): where replay
/// starts, and the queues to snapshot.
struct Cut {
    start: Tail,
    locals: Vec<Arc<Queue>>,
    /// How long the gate was held.
    paused: Duration,
}

/// Takes the cut — where replay starts and the highest unit of work — under the gate, and
/// nothing else: the gate waits until no commit, backout or definition change is between its
/// record and its effect, so every change made after it is released is logged after `start`.
/// The definitions and other objects are read after (a copy), and may so include changes made
/// since the cut; replay applies those records again, which changes nothing: each DEFINE,
/// DELETE and OBJECT record carries the whole object or its removal, the last one wins, and a
/// queue's messages are read at its own mark. (Reading 100,000 definitions under the gate
/// paused every put for half a second.) Then writes the header and the definitions; the
/// queues come after, each at its own mark.
fn take_cut(qm: &QueueManager, persist: &Persist, sink: &mut Sink<'_>) -> MqResult<Cut> {
    let (start, max_uow, paused) = {
        let _gate = persist.gate_exclusive();
        let paused_at = monotonic_now();
        let start = persist.log().next_position();
        let max_uow = qm
            .shared
            .next_uow
            .load(std::sync::atomic::Ordering::Relaxed);
        (start, max_uow, paused_at.elapsed())
    };
    let (mut defs, mut locals) = definitions(qm);
    // The administrative objects besides queues: channels, listeners, authority and channel
    // authentication records, authentication information, topic objects, durable subscriptions.
    let others = qm.objects_for_checkpoint()?;
    defs.sort_unstable_by_key(|d| d.0);
    locals.sort_unstable_by_key(|q| q.name);
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(&MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    header[12..16].copy_from_slice(&record::FORMAT.to_le_bytes());
    header[24..32].copy_from_slice(&start.extent.to_le_bytes());
    header[32..40].copy_from_slice(&start.offset.to_le_bytes());
    header[40..48].copy_from_slice(&start.next_lsn.to_le_bytes());
    header[48..56].copy_from_slice(&max_uow.to_le_bytes());
    sink.buf.extend_from_slice(&header);
    sink.buf
        .extend_from_slice(&(defs.len() as u32).to_le_bytes());
    for (name, def) in defs {
        let def = match def {
            Copied::Local(a) => QueueDefinition::Local(LocalQueueAttrs::clone(&a)),
            Copied::Other(d) => d,
        };
        let toml = toml::to_string(&def).map_err(|e| io("encoding definitions", e))?;
        put_str8(&mut sink.buf, name.as_str());
        sink.buf
            .extend_from_slice(&(toml.len() as u32).to_le_bytes());
        sink.buf.extend_from_slice(toml.as_bytes());
        sink.flush(false)?;
    }
    sink.buf
        .extend_from_slice(&(others.len() as u32).to_le_bytes());
    for (kind, name, toml) in &others {
        put_str8(&mut sink.buf, kind.tag());
        put_str8(&mut sink.buf, name.as_str());
        sink.buf
            .extend_from_slice(&(toml.len() as u32).to_le_bytes());
        sink.buf.extend_from_slice(toml.as_bytes());
        sink.flush(false)?;
    }
    Ok(Cut {
        start,
        locals,
        paused,
    })
}

/// A queue's definition as read after the cut: a local queue's attributes shared (a change
/// after that copies them, `Arc::make_mut`), any other copied.
enum Copied {
    Local(Arc<LocalQueueAttrs>),
    Other(QueueDefinition),
}

/// Queue definitions by name, encoded as the checkpoint is written.
type Definitions = Vec<(ObjectName, Copied)>;

/// A copy of every queue definition, unsorted, and the local queues whose messages are kept
/// (temporary dynamic queues and unlogged ones, `create_unlogged_queue`, are not). The object table is read-locked only to copy its
/// entries (handles, not attributes), so definitions made meanwhile wait milliseconds.
fn definitions(qm: &QueueManager) -> (Definitions, Vec<Arc<Queue>>) {
    let entries: Vec<(ObjectName, Object)> = {
        let objects = qm.shared.objects.read();
        objects.iter().map(|(n, o)| (*n, o.clone())).collect()
    };
    let mut defs = Vec::with_capacity(entries.len());
    let mut locals = Vec::with_capacity(entries.len());
    for (name, object) in entries {
        let def = match object {
            Object::Local(q) => {
                let (attrs, logged) = {
                    let st = q.lock();
                    (st.attrs.clone(), st.journaled())
                };
                // Neither a temporary dynamic queue nor an unlogged one outlives the process.
                if attrs.definition_type == DefinitionType::TemporaryDynamic || !logged {
                    continue;
                }
                locals.push(q);
                Copied::Local(attrs)
            }
            Object::Alias(a) => Copied::Other(QueueDefinition::Alias(a.lock().clone())),
            Object::Model(a) => Copied::Other(QueueDefinition::Model(a)),
            Object::Remote(a) => Copied::Other(QueueDefinition::Remote(a.lock().clone())),
        };
        defs.push((name, def));
    }
    (defs, locals)
}

/// What the queues' snapshots added up to.
struct QueueStats {
    messages: u64,
    lowest_extent: u64,
    /// The longest time a lock (the gate, or one queue's) was held.
    paused: Duration,
}

/// One queue's section: its mark (the log position its snapshot reflects records up to), its
/// highest sequence number and its logged messages as they were at the mark — read a chunk at
/// a time, so puts and gets on it wait at most for one chunk.
fn snapshot_queue(
    qm: &QueueManager,
    q: &Arc<Queue>,
    log: &ferry_log::Log,
    sink: &mut Sink<'_>,
    stats: &mut QueueStats,
) -> MqResult<()> {
    let clock_now = qm.clock().now();
    let unix_now = qm.clock().unix_ms();
    let (mark, last_seq) = {
        let held = monotonic_now();
        let mut st = q.lock();
        st.store.begin_snapshot();
        let mark = log.next_position().next_lsn;
        let r = (mark, st.store.last_seq());
        stats.paused = stats.paused.max(held.elapsed());
        r
    };
    let mut entries = Vec::new();
    let mut coder = EntryCoder::default();
    let mut count = 0u64;
    let mut lowest = u64::MAX;
    loop {
        let held = monotonic_now();
        let mut st = q.lock();
        let done = st
            .store
            .snapshot_chunk(CHUNK_SLOTS, &mut |(seq, state, expires_at, d)| {
                let held = match state {
                    SlotState::PutPending(u) => Held::PutPending(u),
                    SlotState::GotPending(u) => Held::GotPending(u),
                    _ => Held::Available,
                };
                let expiry_ms = if expires_at == 0 {
                    0
                } else {
                    unix_now + (expires_at.saturating_sub(clock_now) / 1_000_000) as i64 + 1
                };
                coder.encode(&mut entries, seq, held, expiry_ms, &d);
                lowest = lowest.min(d.pos.extent as u64);
                count += 1;
            });
        // Hand the lock straight to a waiting putter or getter (rather than take it again at
        // once), and the processor too: the snapshot is the one that can wait.
        crate::engine::QueueGuard::unlock_fair(st);
        stats.paused = stats.paused.max(held.elapsed());
        if done {
            break;
        }
        std::thread::yield_now();
    }
    put_str8(&mut sink.buf, q.name.as_str());
    sink.buf.extend_from_slice(&mark.to_le_bytes());
    sink.buf.extend_from_slice(&last_seq.to_le_bytes());
    sink.buf.extend_from_slice(&count.to_le_bytes());
    for piece in entries.chunks(CHUNK) {
        sink.buf.extend_from_slice(piece);
        sink.flush(false)?;
    }
    stats.messages += count;
    stats.lowest_extent = stats.lowest_extent.min(lowest);
    Ok(())
}

/// Appends the trailer (the length of everything before it, and a checksum of all of that and
/// it) and writes the rest out. Returns the file's size.
fn finish_file(sink: &mut Sink<'_>) -> MqResult<u64> {
    let body_len = sink.at + sink.buf.len() as u64;
    sink.buf.extend_from_slice(&body_len.to_le_bytes());
    let crc = crc32c::crc32c_append(sink.crc, &sink.buf);
    sink.buf.extend_from_slice(&crc.to_le_bytes());
    sink.flush(true)?;
    Ok(sink.at)
}

/// Syncs the partial file and renames it to `file`, then removes older checkpoints. False when
/// a checkpoint of that name already exists (nothing was logged since it).
fn install(storage: &dyn Storage, file: &str, lsn: u64) -> MqResult<bool> {
    if storage
        .list()
        .map_err(|e| io("listing", e))?
        .iter()
        .any(|f| f == file)
    {
        let _ = storage.remove(PARTIAL);
        return Ok(false);
    }
    storage
        .sync(PARTIAL)
        .and_then(|_| storage.rename(PARTIAL, file))
        .map_err(|e| io(&format!("completing {file}"), e))?;
    // The new checkpoint is durable: older ones can go.
    for old in storage.list().map_err(|e| io("listing", e))? {
        if lsn_of(&old).is_some_and(|l| l < lsn) {
            storage
                .remove(&old)
                .map_err(|e| io(&format!("removing {old}"), e))?;
        }
    }
    Ok(true)
}

fn note_taken(progress: &mut Progress, log: &ferry_log::Log, report: &CheckpointReport) {
    progress.at_bytes = log.stats().bytes_appended;
    progress.at_time = Some(monotonic_now());
    progress.last_size = report.bytes;
    progress.taken += 1;
    progress.last = Some(report.clone());
    tracing::debug!(
        file = %report.file,
        messages = report.messages,
        bytes = report.bytes,
        paused_us = report.paused.as_micros() as u64,
        took_ms = report.took.as_millis() as u64,
        extents_released = report.extents_released,
        "checkpoint taken"
    );
}

// ----- reading one back -------------------------------------------------------------------------

/// A checkpoint read back: where replay starts, and the state it holds.
#[derive(Debug)]
pub struct Loaded {
    /// Its file.
    pub file: String,
    /// Where the records after it start.
    pub replay_from: Tail,
    /// The state it holds.
    pub recovery: Recovery,
}

/// The newest checkpoint that reads back whole, if any. Damaged or torn newer ones (a crash
/// while one was written) are skipped and named in the second value.
pub fn load_newest(storage: &dyn Storage) -> MqResult<(Option<Loaded>, Vec<String>)> {
    let data = |e: std::io::Error| {
        MqError::new(
            Reason::QMgrDataError,
            format!("cannot read the log directory: {e}"),
        )
    };
    let mut files: Vec<(u64, String)> = storage
        .list()
        .map_err(data)?
        .into_iter()
        .filter_map(|n| lsn_of(&n).map(|l| (l, n)))
        .collect();
    files.sort();
    let mut skipped = Vec::new();
    while let Some((_, name)) = files.pop() {
        let len = storage.len(&name).map_err(data)? as usize;
        let mut bytes = vec![0u8; len];
        storage.read_at(&name, 0, &mut bytes).map_err(data)?;
        match decode(&bytes) {
            Ok((replay_from, recovery)) => {
                return Ok((
                    Some(Loaded {
                        file: name,
                        replay_from,
                        recovery,
                    }),
                    skipped,
                ))
            }
            Err(e) => {
                tracing::warn!(file = %name, error = %e, "skipping a damaged checkpoint");
                skipped.push(name);
            }
        }
    }
    Ok((None, skipped))
}

fn decode(bytes: &[u8]) -> MqResult<(Tail, Recovery)> {
    let body = checked_body(bytes)?;
    let mut c = Cursor { b: body, at: 8 };
    let version = c.u32()?;
    if version != VERSION {
        return Err(c.damaged(&format!("version {version} unknown to this build")));
    }
    // The record format of the log after this checkpoint (0: written before the field, 1).
    let format = c.u32()?.max(1);
    if format > record::FORMAT {
        return Err(c.damaged(&format!(
            "the log after it is in record format {format}, which this build (format {}) cannot read",
            record::FORMAT
        )));
    }
    c.at = 24;
    let replay_from = Tail {
        extent: c.u64()?,
        offset: c.u64()?,
        next_lsn: c.u64()?,
    };
    let mut r = Recovery::default();
    r.definitions_complete = true;
    r.max_uow = c.u64()?;
    c.at = HEADER;
    decode_definitions(&mut c, &mut r)?;
    let nqueues = c.u32()?;
    for _ in 0..nqueues {
        let name = ferry_model::name::object_name(c.str8()?)?;
        let mark = c.u64()?;
        let max_seq = c.u64()?;
        let count = c.u64()?;
        r.marks.insert(name, mark);
        r.max_seq.insert(name, max_seq);
        let mut coder = EntryCoder::default();
        for _ in 0..count {
            let (seq, logged) = coder.decode(&mut c)?;
            r.restore(name, seq, logged);
        }
    }
    if c.at != body.len() {
        return Err(c.damaged("trailing bytes"));
    }
    Ok((replay_from, r))
}

/// The part of a checkpoint file its trailer covers, once the length and checksum agree.
fn checked_body(bytes: &[u8]) -> MqResult<&[u8]> {
    let c0 = Cursor { b: bytes, at: 0 };
    if bytes.len() < HEADER + 12 || bytes[..8] != MAGIC {
        return Err(c0.damaged("no checkpoint header"));
    }
    let (covered, crc) = bytes.split_at(bytes.len() - 4);
    let body_len = u64::from_le_bytes(covered[covered.len() - 8..].try_into().unwrap_or([0; 8]));
    if body_len != covered.len() as u64 - 8 {
        return Err(c0.damaged("length differs from the trailer's (torn write)"));
    }
    if crc32c::crc32c(covered) != u32::from_le_bytes(crc.try_into().unwrap_or([0; 4])) {
        return Err(c0.damaged("checksum mismatch"));
    }
    Ok(&covered[..covered.len() - 8])
}

/// The queue definitions, then the channels and listeners.
fn decode_definitions(c: &mut Cursor<'_>, r: &mut Recovery) -> MqResult<()> {
    let ndefs = c.u32()?;
    for _ in 0..ndefs {
        let name = ferry_model::name::object_name(c.str8()?)?;
        let len = c.u32()? as usize;
        let def = record::parse_definition(c.take(len)?)?;
        r.definitions.set(name, def);
    }
    let nobjects = c.u32()?;
    for _ in 0..nobjects {
        let tag = c.str8()?;
        let kind = ObjectKind::from_tag(tag)
            .ok_or_else(|| c.damaged(&format!("unknown object kind {tag}")))?;
        let name = ferry_model::name::object_name(c.str8()?)?;
        let len = c.u32()? as usize;
        let text = std::str::from_utf8(c.take(len)?)
            .map_err(|_| c.damaged("definition not UTF-8"))?
            .to_owned();
        r.objects.insert((kind, name), text);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_the_delta_coding() {
        let mut out = Vec::new();
        let mut enc = EntryCoder::default();
        let mk = |i: u32, correl: bool| OnDisk {
            pos: RecordPos {
                extent: 3 + i / 2,
                offset: 64 + i * 2100,
                size: 2104,
            },
            msg_id: MsgId::from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, i as u8]),
            correl_id: if correl {
                CorrelId::from_slice(&[9; 24])
            } else {
                CorrelId::NONE
            },
            priority: (i % 10) as u8,
            backout_count: i % 3,
            put_time_ms: 1_700_000_000_000 + i as u64,
            spilled: false,
        };
        let input: Vec<(u64, Held, i64, OnDisk)> = (0..50u32)
            .map(|i| {
                let held = match i % 7 {
                    0 => Held::PutPending(i as u64 + 100),
                    1 => Held::GotPending(5),
                    _ => Held::Available,
                };
                // Lanes interleave: sequence numbers go down as well as up.
                let seq = if i % 2 == 0 {
                    1000 + i as u64
                } else {
                    10 + i as u64
                };
                (
                    seq,
                    held,
                    if i % 4 == 0 { 1_800_000_000_000 } else { 0 },
                    mk(i, i % 5 == 0),
                )
            })
            .collect();
        for (seq, held, exp, d) in &input {
            enc.encode(&mut out, *seq, *held, *exp, d);
        }
        assert!(
            out.len() < 50 * 40,
            "entries average under 40 bytes ({} for 50)",
            out.len()
        );
        let mut dec = EntryCoder::default();
        let mut c = Cursor { b: &out, at: 0 };
        for (seq, held, exp, d) in &input {
            let (s, l) = dec.decode(&mut c).unwrap();
            assert_eq!((s, l.held, l.expiry_ms, l.entry), (*seq, *held, *exp, *d));
        }
        assert_eq!(c.at, out.len());
    }
}
