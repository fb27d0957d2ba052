//! Persistence: what the engine writes to the recovery log (`ferry-log`) and how a restart
//! rebuilds the queue manager from it.
//!
//! Records (kind byte, then the payload):
//!
//! | kind | record | payload |
//! |---|---|---|
//! | 1 | DEFINE | str8 queue name, bytes32 TOML of the definition |
//! | 2 | DELETE | str8 queue name |
//! | 3 | CLEAR | str8 queue name (every committed message removed) |
//! | 10 | PUT | str8 queue, u64 sequence number, u64 unit of work (0 none), i64 expiry (Unix ms, 0 none), message (wire encoding) |
//! | 11 | GET | str8 queue, u64 sequence number, u64 unit of work (0 none) |
//! | 12 | COMMIT | u64 unit of work |
//! | 13 | BACKOUT | u64 unit of work |
//!
//! A message is known by its queue and its sequence number there, which never changes and is
//! never reused (a restart resumes numbering after the highest seen). Records are appended under
//! the queue's lock, so the log's order is the order the queue's state changed in; the caller
//! then waits for durability outside the lock. Only persistent messages are logged.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::{BufMut, Bytes, BytesMut};
use ferry_log::{Log, LogError, Record};
use ferry_proto::codec::{Reader, WriteExt};
use ferry_proto::WireMessage;

use crate::message::Message;
use crate::name::ObjectName;
use crate::objects::QueueDefinition;
use crate::reason::{MqError, MqResult, Reason};
use crate::wire;

/// Record kinds.
pub mod kind {
    /// A queue definition (create or replace).
    pub const DEFINE: u8 = 1;
    /// A queue deleted.
    pub const DELETE: u8 = 2;
    /// A queue cleared.
    pub const CLEAR: u8 = 3;
    /// A persistent message put.
    pub const PUT: u8 = 10;
    /// A persistent message got.
    pub const GET: u8 = 11;
    /// A unit of work committed.
    pub const COMMIT: u8 = 12;
    /// A unit of work backed out.
    pub const BACKOUT: u8 = 13;
}

/// The engine's handle on the recovery log.
#[derive(Debug)]
pub struct Persist {
    log: Log,
}

fn log_error(e: LogError) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("the recovery log failed: {e}; the queue manager cannot promise durability"),
    )
}

impl Persist {
    /// Wraps an open log.
    pub fn new(log: Log) -> Arc<Persist> {
        Arc::new(Persist { log })
    }

    /// The log (statistics, waiting).
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Appends a record; durable once [`Persist::wait`] returns for the LSN.
    pub fn append(&self, kind: u8, payload: &[u8]) -> MqResult<u64> {
        self.log.append(kind, payload).map_err(log_error)
    }

    /// Waits until `lsn` is on disk.
    pub fn wait(&self, lsn: u64) -> MqResult<()> {
        self.log.wait_durable(lsn).map_err(log_error)
    }

    /// Appends a PUT.
    pub fn put(&self, queue: &ObjectName, seq: u64, uow: u64, msg: &Message) -> MqResult<u64> {
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
        self.append(kind::PUT, &b)
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

    /// Appends a DEFINE and waits for it.
    pub fn define(&self, name: &ObjectName, def: &QueueDefinition) -> MqResult<()> {
        let toml = toml::to_string(def).map_err(|e| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot encode the definition of {name}: {e}"),
            )
        })?;
        let mut b = BytesMut::new();
        b.put_str8(name.as_str());
        b.put_bytes32(toml.as_bytes());
        let lsn = self.append(kind::DEFINE, &b)?;
        self.wait(lsn)
    }

    /// Appends a DELETE or CLEAR and waits for it.
    pub fn queue_event(&self, kind: u8, name: &ObjectName) -> MqResult<()> {
        let mut b = BytesMut::new();
        b.put_str8(name.as_str());
        let lsn = self.append(kind, &b)?;
        self.wait(lsn)
    }
}

fn unix_ms(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A message as a restart finds it.
#[derive(Debug)]
pub struct Recovered {
    /// Its sequence number on its queue.
    pub seq: u64,
    /// The message (backout count as of the restart).
    pub msg: Message,
    /// Time left before it expires, if it expires.
    pub expiry: Option<Duration>,
}

/// What replaying the log rebuilt.
#[derive(Debug, Default)]
pub struct Replayed {
    /// Queue definitions, in the order they were last made.
    pub definitions: Vec<(ObjectName, QueueDefinition)>,
    /// Queues deleted after their definition (their messages are gone).
    pub deleted: Vec<ObjectName>,
    /// Committed messages per queue, in sequence order.
    pub messages: BTreeMap<ObjectName, Vec<Recovered>>,
    /// Highest sequence number seen per queue.
    pub max_seq: HashMap<ObjectName, u64>,
    /// Records replayed.
    pub records: usize,
    /// Units of work in flight at the crash, backed out.
    pub uows_backed_out: usize,
    /// Messages dropped because they expired while the queue manager was down.
    pub expired: usize,
    /// Highest unit-of-work id in the log: new units of work must be numbered above it, or a
    /// later replay would join their records to those of a unit backed out at an earlier crash.
    pub max_uow: u64,
}

struct Pending {
    msg: Message,
    expiry_ms: i64,
}

#[derive(Default)]
struct Uow {
    puts: Vec<(ObjectName, u64)>,
    gets: Vec<(ObjectName, u64)>,
}

fn bad(what: &str, e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::QMgrDataError,
        format!("the recovery log holds a {what} record this build cannot read: {e}"),
    )
}

/// Rebuilds the committed state from the log's records.
pub fn replay(records: &[Record]) -> MqResult<Replayed> {
    let mut out = Replayed::default();
    // Live (committed, available) messages and messages put in open units of work.
    let mut live: HashMap<(ObjectName, u64), Pending> = HashMap::new();
    let mut staged: HashMap<(ObjectName, u64), Pending> = HashMap::new();
    let mut uows: HashMap<u64, Uow> = HashMap::new();
    let mut defs: Vec<(ObjectName, QueueDefinition)> = Vec::new();
    for r in records {
        out.records += 1;
        let mut rd = Reader::new(Bytes::copy_from_slice(&r.payload));
        match r.kind {
            kind::DEFINE => {
                let name = name_of(&mut rd)?;
                let toml = rd.bytes32("definition").map_err(|e| bad("DEFINE", e))?;
                let text = std::str::from_utf8(&toml).map_err(|e| bad("DEFINE", e))?;
                let def: QueueDefinition = toml::from_str(text).map_err(|e| bad("DEFINE", e))?;
                defs.retain(|(n, _)| *n != name);
                out.deleted.retain(|n| *n != name);
                defs.push((name, def));
            }
            kind::DELETE => {
                let name = name_of(&mut rd)?;
                defs.retain(|(n, _)| *n != name);
                live.retain(|(q, _), _| *q != name);
                out.deleted.push(name);
            }
            kind::CLEAR => {
                let name = name_of(&mut rd)?;
                live.retain(|(q, _), _| *q != name);
            }
            kind::PUT => {
                let queue = name_of(&mut rd)?;
                let seq = rd.u64("seq").map_err(|e| bad("PUT", e))?;
                let uow = rd.u64("uow").map_err(|e| bad("PUT", e))?;
                let expiry_ms = rd.i64("expiry").map_err(|e| bad("PUT", e))?;
                let msg = WireMessage::decode(&mut rd).map_err(|e| bad("PUT", e))?;
                let msg = wire::message_from_wire(msg)?;
                let m = out.max_seq.entry(queue).or_default();
                *m = (*m).max(seq);
                let p = Pending { msg, expiry_ms };
                out.max_uow = out.max_uow.max(uow);
                if uow == 0 {
                    live.insert((queue, seq), p);
                } else {
                    staged.insert((queue, seq), p);
                    uows.entry(uow).or_default().puts.push((queue, seq));
                }
            }
            kind::GET => {
                let queue = name_of(&mut rd)?;
                let seq = rd.u64("seq").map_err(|e| bad("GET", e))?;
                let uow = rd.u64("uow").map_err(|e| bad("GET", e))?;
                out.max_uow = out.max_uow.max(uow);
                if uow == 0 {
                    live.remove(&(queue, seq));
                } else {
                    uows.entry(uow).or_default().gets.push((queue, seq));
                }
            }
            kind::COMMIT | kind::BACKOUT => {
                let mut b = [0u8; 8];
                if r.payload.len() != 8 {
                    return Err(bad("COMMIT/BACKOUT", "wrong length"));
                }
                b.copy_from_slice(&r.payload);
                let uow = u64::from_le_bytes(b);
                out.max_uow = out.max_uow.max(uow);
                if let Some(u) = uows.remove(&uow) {
                    end_uow(u, r.kind == kind::COMMIT, &mut live, &mut staged);
                }
            }
            other => return Err(bad("unknown", format!("kind {other}"))),
        }
    }
    // Units of work still open at the crash are backed out.
    out.uows_backed_out = uows.len();
    for (_, u) in uows.drain() {
        end_uow(u, false, &mut live, &mut staged);
    }
    let now = unix_ms(SystemTime::now());
    let mut by_queue: BTreeMap<ObjectName, Vec<Recovered>> = BTreeMap::new();
    for ((queue, seq), p) in live {
        let expiry = match p.expiry_ms {
            0 => None,
            t if t <= now => {
                out.expired += 1;
                continue;
            }
            t => Some(Duration::from_millis((t - now) as u64)),
        };
        by_queue.entry(queue).or_default().push(Recovered {
            seq,
            msg: p.msg,
            expiry,
        });
    }
    for v in by_queue.values_mut() {
        v.sort_by_key(|r| r.seq);
    }
    out.messages = by_queue;
    out.definitions = defs;
    Ok(out)
}

fn end_uow(
    u: Uow,
    commit: bool,
    live: &mut HashMap<(ObjectName, u64), Pending>,
    staged: &mut HashMap<(ObjectName, u64), Pending>,
) {
    for key in u.puts {
        if let Some(p) = staged.remove(&key) {
            if commit {
                live.insert(key, p);
            }
        }
    }
    for key in u.gets {
        if commit {
            live.remove(&key);
        } else if let Some(p) = live.get_mut(&key) {
            p.msg.descriptor.backout_count = p.msg.descriptor.backout_count.saturating_add(1);
        }
    }
}

fn name_of(rd: &mut Reader) -> MqResult<ObjectName> {
    let s = rd.str8("queue name").map_err(|e| bad("queue", e))?;
    crate::name::object_name(&s)
}
