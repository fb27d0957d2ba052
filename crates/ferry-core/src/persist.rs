//! Persistence: what the engine writes to the recovery log (`ferry-log`), how it reads message
//! content back from it, and how a restart rebuilds the queue manager from a checkpoint and the
//! records after it.
//!
//! Records (kind byte, then the payload):
//!
//! | kind | record | payload |
//! |---|---|---|
//! | 1 | DEFINE | str8 queue name, bytes32 TOML of the definition |
//! | 2 | DELETE | str8 queue name |
//! | 3 | CLEAR | str8 queue name (every available message removed) |
//! | 4 | OBJECT | str8 kind (CHANNEL, LISTENER), str8 name, bytes32 TOML of the definition |
//! | 5 | OBJECT DELETE | str8 kind, str8 name |
//! | 10 | PUT | str8 queue, u64 sequence number, u64 unit of work (0 none), i64 expiry (Unix ms, 0 none), message (wire encoding) |
//! | 11 | GET | str8 queue, u64 sequence number, u64 unit of work (0 none) |
//! | 12 | COMMIT | u64 unit of work |
//! | 13 | BACKOUT | u64 unit of work |
//!
//! A message is known by its queue and its sequence number there, which never changes and is
//! never reused (a restart resumes numbering after the highest seen). PUT, GET and CLEAR records
//! are appended under the queue's lock, so the log's order is the order the queue's state
//! changed in; the caller then waits for durability outside the lock. Only persistent messages
//! are logged. A message's PUT record is also where its content lives once the queue's buffer is
//! full, and after a restart (see `store.rs`).
//!
//! Commits, backouts and definition changes hold the checkpoint gate (shared) from their record
//! to their in-memory effect; a checkpoint holds it exclusively while it snapshots the queues,
//! so a snapshot never sees a unit of work half ended (see `checkpoint.rs`).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::{BufMut, Bytes, BytesMut};
use ferry_log::{Appended, Log, LogError, RecordRef};
use ferry_proto::codec::{Reader, WriteExt};
use ferry_proto::WireMessage;
use parking_lot::{RwLock, RwLockReadGuard};

use crate::message::Message;
use crate::name::ObjectName;
use crate::objects::QueueDefinition;
use crate::reason::{MqError, MqResult, Reason};
use crate::store::OnDisk;
use crate::wire;

/// Record kinds.
pub mod kind {
    /// A queue definition (create or replace).
    pub const DEFINE: u8 = 1;
    /// A queue deleted.
    pub const DELETE: u8 = 2;
    /// A queue cleared.
    pub const CLEAR: u8 = 3;
    /// A channel or listener defined or altered.
    pub const OBJECT: u8 = 4;
    /// A channel or listener deleted.
    pub const OBJECT_DELETE: u8 = 5;
    /// A persistent message put.
    pub const PUT: u8 = 10;
    /// A persistent message got.
    pub const GET: u8 = 11;
    /// A unit of work committed.
    pub const COMMIT: u8 = 12;
    /// A unit of work backed out.
    pub const BACKOUT: u8 = 13;
}

/// Tuning of persistence (qm.toml `[log]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PersistSettings {
    /// The log's settings.
    pub log: ferry_log::LogConfig,
    /// Bytes of persistent messages each queue keeps in memory besides the log (MQ's
    /// DefaultPQBufferSize); beyond it only a compact entry per message stays in memory.
    pub queue_buffer: usize,
    /// Log bytes between checkpoints (at least; a checkpoint larger than a quarter of this
    /// stretches the interval to four times its size, so checkpoints never dominate the I/O).
    pub checkpoint_bytes: u64,
}

impl Default for PersistSettings {
    fn default() -> Self {
        PersistSettings {
            log: ferry_log::LogConfig::default(),
            queue_buffer: 32 * 1024 * 1024,
            checkpoint_bytes: 128 * 1024 * 1024,
        }
    }
}

/// The engine's handle on the recovery log.
#[derive(Debug)]
pub struct Persist {
    log: Log,
    storage: Arc<dyn ferry_log::Storage>,
    gate: RwLock<()>,
    settings: PersistSettings,
    /// Checkpoint bookkeeping (taken one at a time).
    pub(crate) checkpoints: parking_lot::Mutex<crate::checkpoint::Progress>,
}

pub(crate) fn log_error(e: LogError) -> MqError {
    match e {
        LogError::Full { .. } => MqError::new(Reason::ResourceProblem, e.to_string()),
        LogError::Corrupt { .. } => MqError::new(
            Reason::QMgrDataError,
            format!("{e}; the message cannot be read back and is not served"),
        ),
        LogError::Io(_) => MqError::new(
            Reason::UnexpectedError,
            format!("the recovery log failed: {e}; the queue manager cannot promise durability"),
        ),
    }
}

impl Persist {
    /// Wraps an open log on `storage`.
    pub fn new(
        log: Log,
        storage: Arc<dyn ferry_log::Storage>,
        settings: PersistSettings,
        progress: crate::checkpoint::Progress,
    ) -> Arc<Persist> {
        Arc::new(Persist {
            log,
            storage,
            gate: RwLock::new(()),
            settings,
            checkpoints: parking_lot::Mutex::new(progress),
        })
    }

    /// The log (statistics, waiting).
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The storage the log and checkpoints live on.
    pub fn storage(&self) -> &Arc<dyn ferry_log::Storage> {
        &self.storage
    }

    /// The settings.
    pub fn settings(&self) -> &PersistSettings {
        &self.settings
    }

    /// Held (shared) from a commit's, backout's or definition's record to its in-memory effect.
    /// Never take it twice on one thread, nor while holding a queue lock.
    pub fn gate(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read()
    }

    pub(crate) fn gate_exclusive(&self) -> parking_lot::RwLockWriteGuard<'_, ()> {
        self.gate.write()
    }

    /// Appends a record; durable once [`Persist::wait`] returns for the LSN.
    pub fn append(&self, kind: u8, payload: &[u8]) -> MqResult<u64> {
        self.log
            .append(kind, payload)
            .map(|a| a.lsn)
            .map_err(log_error)
    }

    /// Waits until `lsn` is on disk — or, inside [`deferring`], notes it for the caller to
    /// wait for once.
    pub fn wait(&self, lsn: u64) -> MqResult<()> {
        let deferred = DEFERRED.with(|d| match d.get() {
            Some(max) => {
                d.set(Some(max.max(lsn)));
                true
            }
            None => false,
        });
        if deferred {
            return Ok(());
        }
        self.log.wait_durable(lsn).map_err(log_error)
    }

    /// Appends a PUT (refused with RESOURCE_PROBLEM when the log is full).
    pub fn put(&self, queue: &ObjectName, seq: u64, uow: u64, msg: &Message) -> MqResult<Appended> {
        let mut b = BytesMut::with_capacity(msg.body.len() + 256);
        b.put_str8(queue.as_str());
        b.put_u64_le(seq);
        b.put_u64_le(uow);
        let expiry_ms = msg
            .descriptor
            .expiry
            .map_or(0, |d| unix_ms(SystemTime::now() + d));
        b.put_i64_le(expiry_ms);
        wire::message_to_wire(msg).encode(&mut b);
        self.log.append_bounded(kind::PUT, &b).map_err(log_error)
    }

    /// Appends a GET.
    pub fn get(&self, queue: &ObjectName, seq: u64, uow: u64) -> MqResult<u64> {
        let mut b = BytesMut::with_capacity(80);
        b.put_str8(queue.as_str());
        b.put_u64_le(seq);
        b.put_u64_le(uow);
        self.append(kind::GET, &b)
    }

    /// Appends a COMMIT or BACKOUT and waits for it.
    pub fn end_uow(&self, commit: bool, uow: u64) -> MqResult<()> {
        let lsn = self.append(
            if commit { kind::COMMIT } else { kind::BACKOUT },
            &uow.to_le_bytes(),
        )?;
        self.wait(lsn)
    }

    /// Appends a COMMIT or BACKOUT without waiting; the caller waits for the LSN.
    pub fn end_uow_nowait(&self, commit: bool, uow: u64) -> MqResult<u64> {
        self.append(
            if commit { kind::COMMIT } else { kind::BACKOUT },
            &uow.to_le_bytes(),
        )
    }

    /// Appends a DEFINE and waits for it.
    pub fn define(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()> {
        let lsn = self.append(kind::DEFINE, &define_payload(name, def)?)?;
        self.wait(lsn)
    }

    /// Logs a channel or listener definition (`Some`) or deletion (`None`) and waits for it.
    pub fn object_event<T: serde::Serialize>(
        &self,
        kind: crate::catalog::ObjectKind,
        name: &ObjectName,
        attrs: Option<&T>,
    ) -> MqResult<()> {
        let mut b = BytesMut::new();
        b.put_str8(kind.tag());
        b.put_str8(name.as_str());
        let k = match attrs {
            Some(a) => {
                let toml = toml::to_string(a).map_err(|e| {
                    MqError::new(
                        Reason::UnexpectedError,
                        format!("cannot encode the definition of {name}: {e}"),
                    )
                })?;
                b.put_bytes32(toml.as_bytes());
                kind::OBJECT
            }
            None => kind::OBJECT_DELETE,
        };
        let lsn = self.append(k, &b)?;
        self.wait(lsn)
    }

    /// Appends a DELETE or CLEAR; the caller waits for the LSN.
    pub fn queue_event(&self, kind: u8, name: &ObjectName) -> MqResult<u64> {
        let mut b = BytesMut::new();
        b.put_str8(name.as_str());
        self.append(kind, &b)
    }

    /// Reads back the message whose PUT record is at `d.pos` (its backout count as `d` says).
    pub fn read_message(&self, queue: &ObjectName, seq: u64, d: &OnDisk) -> MqResult<Message> {
        let rec = self.log.read(d.pos).map_err(log_error)?;
        let put = decode_put(rec.kind, rec.payload)?;
        if put.queue != *queue || put.seq != seq {
            return Err(MqError::new(
                Reason::QMgrDataError,
                format!(
                    "the recovery log holds {} #{} where message {queue} #{seq} should be (extent {}, offset {})",
                    put.queue, put.seq, d.pos.extent, d.pos.offset
                ),
            ));
        }
        let mut msg = put.msg;
        msg.descriptor.backout_count = d.backout_count;
        Ok(msg)
    }
}

thread_local! {
    /// Set inside [`deferring`]: the highest LSN a wait was asked for.
    static DEFERRED: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with every durability wait on this thread deferred, and returns the highest LSN
/// it would have waited for: a script of administrative commands then costs one sync, not one
/// per definition. The caller must wait for (or hold its answer until) that LSN before telling
/// anyone the work is done.
pub fn deferring<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let outer = DEFERRED.with(|d| d.replace(Some(0)));
    let out = f();
    let max = DEFERRED.with(|d| d.replace(outer));
    // A nested scope hands its LSN to the outer one.
    if let (Some(o), Some(m)) = (outer, max) {
        DEFERRED.with(|d| d.set(Some(o.max(m))));
    }
    (out, max.filter(|m| *m > 0))
}

fn define_payload(name: &ObjectName, def: &QueueDefinition) -> MqResult<BytesMut> {
    let toml = toml::to_string(def).map_err(|e| {
        MqError::new(
            Reason::UnexpectedError,
            format!("cannot encode the definition of {name}: {e}"),
        )
    })?;
    let mut b = BytesMut::new();
    b.put_str8(name.as_str());
    b.put_bytes32(toml.as_bytes());
    Ok(b)
}

/// Parses a definition's TOML (as DEFINE records and checkpoints hold it).
pub(crate) fn parse_definition(toml_text: &[u8]) -> MqResult<QueueDefinition> {
    let text = std::str::from_utf8(toml_text).map_err(|e| bad("DEFINE", e))?;
    toml::from_str(text).map_err(|e| bad("DEFINE", e))
}

pub(crate) fn unix_ms(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn bad(what: &str, e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::QMgrDataError,
        format!("the recovery log holds a {what} record this build cannot read: {e}"),
    )
}

struct DecodedPut {
    queue: ObjectName,
    seq: u64,
    uow: u64,
    expiry_ms: i64,
    msg: Message,
}

fn decode_put(kind: u8, payload: Vec<u8>) -> MqResult<DecodedPut> {
    if kind != kind::PUT {
        return Err(bad("PUT", format!("kind {kind} where a PUT should be")));
    }
    let mut rd = Reader::new(Bytes::from(payload));
    let queue = name_of(&mut rd)?;
    let seq = rd.u64("seq").map_err(|e| bad("PUT", e))?;
    let uow = rd.u64("uow").map_err(|e| bad("PUT", e))?;
    let expiry_ms = rd.i64("expiry").map_err(|e| bad("PUT", e))?;
    let msg = WireMessage::decode(&mut rd).map_err(|e| bad("PUT", e))?;
    Ok(DecodedPut {
        queue,
        seq,
        uow,
        expiry_ms,
        msg: wire::message_from_wire(msg)?,
    })
}

fn name_of(rd: &mut Reader) -> MqResult<ObjectName> {
    let s = rd.str8("queue name").map_err(|e| bad("queue", e))?;
    crate::name::object_name(&s)
}

/// The state of a logged message during recovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// Committed and visible.
    Available,
    /// Put in a unit of work not yet ended.
    PutPending(u64),
    /// Got in a unit of work not yet ended.
    GotPending(u64),
}

/// A logged message as recovery knows it.
#[derive(Debug, Clone, Copy)]
pub struct Logged {
    /// Where its content is, and what stays in memory.
    pub entry: OnDisk,
    /// Absolute expiry, Unix ms (0: never).
    pub expiry_ms: i64,
    /// Its state.
    pub held: Held,
}

/// Recovery: the state a checkpoint gives, with the records after it applied.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Queue definitions, in the order they were last made.
    pub definitions: Vec<(ObjectName, QueueDefinition)>,
    /// Whether `definitions` is the complete set (it came from a checkpoint): queues defined
    /// by default and missing from it were deleted.
    pub definitions_complete: bool,
    /// Queues deleted by records replayed.
    pub deleted: Vec<ObjectName>,
    /// Channels and listeners: TOML of each definition.
    pub objects: BTreeMap<(crate::catalog::ObjectKind, ObjectName), String>,
    /// Logged messages per queue by sequence number.
    pub messages: HashMap<ObjectName, BTreeMap<u64, Logged>>,
    /// Highest sequence number seen per queue.
    pub max_seq: HashMap<ObjectName, u64>,
    /// Per queue, the LSN the checkpoint's snapshot of it reflects records up to (exclusive):
    /// its PUT, GET and CLEAR records below it are already in the snapshot.
    pub marks: HashMap<ObjectName, u64>,
    /// Members of units of work not yet ended.
    uows: HashMap<u64, Vec<(ObjectName, u64)>>,
    /// Highest unit-of-work id seen: new units of work must be numbered above it, or a later
    /// replay would join their records to those of a unit backed out at an earlier crash.
    pub max_uow: u64,
    /// Records replayed.
    pub records: usize,
    /// Units of work in flight at the crash, backed out.
    pub uows_backed_out: usize,
    /// Messages dropped because they expired while the queue manager was down.
    pub expired: usize,
}

impl Recovery {
    /// Adds a message from a checkpoint (pending ones rejoin their units of work).
    pub fn restore(&mut self, queue: ObjectName, seq: u64, logged: Logged) {
        match logged.held {
            Held::Available => {}
            Held::PutPending(u) | Held::GotPending(u) => {
                self.uows.entry(u).or_default().push((queue, seq));
                self.max_uow = self.max_uow.max(u);
            }
        }
        self.messages.entry(queue).or_default().insert(seq, logged);
    }

    fn skipped(&self, queue: &ObjectName, lsn: u64) -> bool {
        self.marks.get(queue).is_some_and(|m| lsn < *m)
    }

    /// Applies one record.
    pub fn apply(&mut self, r: RecordRef<'_>) -> MqResult<()> {
        self.records += 1;
        match r.kind {
            kind::DEFINE => {
                let mut rd = Reader::new(Bytes::copy_from_slice(r.payload));
                let name = name_of(&mut rd)?;
                let toml = rd.bytes32("definition").map_err(|e| bad("DEFINE", e))?;
                let def = parse_definition(&toml)?;
                self.definitions.retain(|(n, _)| *n != name);
                self.deleted.retain(|n| *n != name);
                self.definitions.push((name, def));
            }
            kind::DELETE => {
                let mut rd = Reader::new(Bytes::copy_from_slice(r.payload));
                let name = name_of(&mut rd)?;
                self.definitions.retain(|(n, _)| *n != name);
                self.messages.remove(&name);
                self.marks.remove(&name);
                self.deleted.push(name);
            }
            kind::OBJECT | kind::OBJECT_DELETE => {
                let mut rd = Reader::new(Bytes::copy_from_slice(r.payload));
                let tag = rd.str8("kind").map_err(|e| bad("OBJECT", e))?;
                let k = crate::catalog::ObjectKind::from_tag(&tag)
                    .ok_or_else(|| bad("OBJECT", format!("unknown kind {tag}")))?;
                let name = name_of(&mut rd)?;
                if r.kind == kind::OBJECT {
                    let toml = rd.bytes32("definition").map_err(|e| bad("OBJECT", e))?;
                    let text = String::from_utf8(toml.to_vec()).map_err(|e| bad("OBJECT", e))?;
                    self.objects.insert((k, name), text);
                } else {
                    self.objects.remove(&(k, name));
                }
            }
            kind::CLEAR => {
                let mut rd = Reader::new(Bytes::copy_from_slice(r.payload));
                let name = name_of(&mut rd)?;
                if !self.skipped(&name, r.lsn) {
                    if let Some(m) = self.messages.get_mut(&name) {
                        m.retain(|_, l| l.held != Held::Available);
                    }
                }
            }
            kind::PUT => {
                let put = decode_put(r.kind, r.payload.to_vec())?;
                let m = self.max_seq.entry(put.queue).or_default();
                *m = (*m).max(put.seq);
                self.max_uow = self.max_uow.max(put.uow);
                if self.skipped(&put.queue, r.lsn) {
                    return Ok(());
                }
                let held = if put.uow == 0 {
                    Held::Available
                } else {
                    self.uows
                        .entry(put.uow)
                        .or_default()
                        .push((put.queue, put.seq));
                    Held::PutPending(put.uow)
                };
                let logged = Logged {
                    entry: OnDisk::of(&put.msg, r.pos),
                    expiry_ms: put.expiry_ms,
                    held,
                };
                self.messages
                    .entry(put.queue)
                    .or_default()
                    .insert(put.seq, logged);
            }
            kind::GET => {
                let mut rd = Reader::new(Bytes::copy_from_slice(r.payload));
                let queue = name_of(&mut rd)?;
                let seq = rd.u64("seq").map_err(|e| bad("GET", e))?;
                let uow = rd.u64("uow").map_err(|e| bad("GET", e))?;
                self.max_uow = self.max_uow.max(uow);
                if self.skipped(&queue, r.lsn) {
                    return Ok(());
                }
                let Some(msgs) = self.messages.get_mut(&queue) else {
                    return Ok(());
                };
                if uow == 0 {
                    msgs.remove(&seq);
                } else if let Some(l) = msgs.get_mut(&seq) {
                    l.held = Held::GotPending(uow);
                    self.uows.entry(uow).or_default().push((queue, seq));
                }
            }
            kind::COMMIT | kind::BACKOUT => {
                let uow = match <[u8; 8]>::try_from(r.payload) {
                    Ok(b) => u64::from_le_bytes(b),
                    Err(_) => return Err(bad("COMMIT/BACKOUT", "wrong length")),
                };
                self.max_uow = self.max_uow.max(uow);
                self.end_uow(uow, r.kind == kind::COMMIT);
            }
            other => return Err(bad("unknown", format!("kind {other}"))),
        }
        Ok(())
    }

    fn end_uow(&mut self, uow: u64, commit: bool) {
        let Some(members) = self.uows.remove(&uow) else {
            return;
        };
        for (queue, seq) in members {
            let Some(msgs) = self.messages.get_mut(&queue) else {
                continue;
            };
            let Some(l) = msgs.get_mut(&seq) else {
                continue;
            };
            match (l.held, commit) {
                (Held::PutPending(u), true) if u == uow => l.held = Held::Available,
                (Held::PutPending(u), false) if u == uow => {
                    msgs.remove(&seq);
                }
                (Held::GotPending(u), true) if u == uow => {
                    msgs.remove(&seq);
                }
                (Held::GotPending(u), false) if u == uow => {
                    l.held = Held::Available;
                    l.entry.backout_count = l.entry.backout_count.saturating_add(1);
                }
                _ => {}
            }
        }
    }

    /// Ends the replay: units of work still open at the crash are backed out, and messages
    /// that expired meanwhile are dropped. What is left is all available.
    pub fn finish(&mut self) {
        self.uows_backed_out = self.uows.len();
        let open: Vec<u64> = self.uows.keys().copied().collect();
        for u in open {
            self.end_uow(u, false);
        }
        let now = unix_ms(SystemTime::now());
        let mut expired = 0;
        for msgs in self.messages.values_mut() {
            msgs.retain(|_, l| {
                let keep = l.expiry_ms == 0 || l.expiry_ms > now;
                expired += usize::from(!keep);
                keep
            });
        }
        self.expired = expired;
    }
}

/// Time left before an absolute expiry (Unix ms), if it has not passed.
pub(crate) fn time_left(expiry_ms: i64) -> Option<Duration> {
    let now = unix_ms(SystemTime::now());
    (expiry_ms > now).then(|| Duration::from_millis((expiry_ms - now) as u64))
}
