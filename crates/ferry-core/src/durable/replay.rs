//! Replay: the state a checkpoint gives, with the log records after it applied — what a
//! restart rebuilds the queues from.
//!
//! A queue's PUT, GET and CLEAR records below its checkpoint mark are already in the checkpoint
//! and are skipped; everything else from the checkpoint's replay position on is applied. Units
//! of work still open at the end are backed out; messages that expired meanwhile are dropped.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use bytes::Bytes;
use ferry_log::RecordRef;

use ferry_model::name::ObjectName;
use ferry_model::objects::QueueDefinition;
use ferry_model::reason::MqResult;

use crate::durable::record::parse_definition;
use crate::durable::record::{self, bad, kind, Reader};
use crate::engine::OnDisk;
use ferry_model::objects::ObjectKind;

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

/// Queue definitions in the order they were last made, each replaced or removed in constant
/// time (a restart replays up to a checkpoint interval of DEFINE records over 100,000 queues).
#[derive(Debug, Default)]
pub struct Definitions {
    /// In order; `None` where a later record replaced or removed the definition.
    slots: Vec<Option<(ObjectName, QueueDefinition)>>,
    /// Where each live definition is in `slots`.
    at: HashMap<ObjectName, usize>,
}

impl Definitions {
    /// `name` defined (again): it moves to the end.
    pub fn set(&mut self, name: ObjectName, def: QueueDefinition) {
        self.remove(&name);
        self.at.insert(name, self.slots.len());
        self.slots.push(Some((name, def)));
        debug_assert!(self.at.len() <= self.slots.len());
    }

    /// `name` deleted.
    pub fn remove(&mut self, name: &ObjectName) {
        if let Some(i) = self.at.remove(name) {
            self.slots[i] = None;
        }
    }

    /// The live definitions, in the order they were last made.
    pub fn iter(&self) -> impl Iterator<Item = &(ObjectName, QueueDefinition)> {
        self.slots.iter().flatten()
    }

    /// Whether `name` is defined.
    pub fn contains(&self, name: &ObjectName) -> bool {
        self.at.contains_key(name)
    }
}

/// Recovery: the state a checkpoint gives, with the records after it applied.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Queue definitions, in the order they were last made.
    pub definitions: Definitions,
    /// Whether `definitions` is the complete set (it came from a checkpoint): queues defined
    /// by default and missing from it were deleted.
    pub definitions_complete: bool,
    /// Queues deleted by records replayed.
    pub deleted: HashSet<ObjectName>,
    /// Channels and listeners: TOML of each definition.
    pub objects: BTreeMap<(ObjectKind, ObjectName), String>,
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
        let payload = || Bytes::copy_from_slice(r.payload);
        match r.kind {
            kind::DEFINE => self.define(payload()),
            kind::DELETE => self.delete(payload()),
            kind::OBJECT | kind::OBJECT_DELETE => self.object(payload(), r.kind == kind::OBJECT),
            kind::CLEAR => self.clear(payload(), r.lsn),
            kind::PUT => {
                let put = record::decode_put(payload())?;
                self.put(put.queue, put.seq, put.uow, put.expiry_ms, &put.msg, r);
                Ok(())
            }
            kind::PUBLISH => self.publish(record::decode_publish(payload())?, r),
            kind::GET => self.get(payload(), r.lsn),
            kind::COMMIT | kind::BACKOUT => {
                let uow = record::decode_end_uow(r.payload)?;
                self.max_uow = self.max_uow.max(uow);
                self.end_uow(uow, r.kind == kind::COMMIT);
                Ok(())
            }
            other => Err(bad("unknown", format!("kind {other}"))),
        }
    }

    fn define(&mut self, payload: Bytes) -> MqResult<()> {
        let mut rd = Reader::new(payload, "DEFINE");
        let name = rd.name("queue name")?;
        let toml = rd.bytes32("definition")?;
        let def = parse_definition(&toml)?;
        self.definitions.set(name, def);
        self.deleted.remove(&name);
        Ok(())
    }

    fn delete(&mut self, payload: Bytes) -> MqResult<()> {
        let name = Reader::new(payload, "DELETE").name("queue name")?;
        self.definitions.remove(&name);
        self.messages.remove(&name);
        self.marks.remove(&name);
        self.deleted.insert(name);
        Ok(())
    }

    fn object(&mut self, payload: Bytes, defined: bool) -> MqResult<()> {
        let mut rd = Reader::new(payload, "OBJECT");
        let tag = rd.str8("kind")?;
        let k = ObjectKind::from_tag(&tag)
            .ok_or_else(|| bad("OBJECT", format!("unknown kind {tag}")))?;
        let name = rd.name("object name")?;
        if defined {
            let toml = rd.bytes32("definition")?;
            let text = String::from_utf8(toml.to_vec()).map_err(|e| bad("OBJECT", e))?;
            self.objects.insert((k, name), text);
        } else {
            self.objects.remove(&(k, name));
        }
        Ok(())
    }

    fn clear(&mut self, payload: Bytes, lsn: u64) -> MqResult<()> {
        let name = Reader::new(payload, "CLEAR").name("queue name")?;
        if !self.skipped(&name, lsn) {
            if let Some(m) = self.messages.get_mut(&name) {
                m.retain(|_, l| l.held != Held::Available);
            }
        }
        Ok(())
    }

    /// A PUBLISH record: each copy as a PUT of its own, at the record's place.
    fn publish(&mut self, p: record::Publish, r: RecordRef<'_>) -> MqResult<()> {
        for (i, t) in p.targets.iter().enumerate() {
            let copy = p.copy(i)?;
            self.put(t.queue, t.seq, p.uow, p.expiry_ms, &copy, r);
        }
        Ok(())
    }

    fn put(
        &mut self,
        queue: ObjectName,
        seq: u64,
        uow: u64,
        expiry_ms: i64,
        msg: &ferry_model::message::Message,
        r: RecordRef<'_>,
    ) {
        let m = self.max_seq.entry(queue).or_default();
        *m = (*m).max(seq);
        self.max_uow = self.max_uow.max(uow);
        if self.skipped(&queue, r.lsn) {
            return;
        }
        let held = if uow == 0 {
            Held::Available
        } else {
            self.uows.entry(uow).or_default().push((queue, seq));
            Held::PutPending(uow)
        };
        let logged = Logged {
            entry: OnDisk::of(msg, r.pos),
            expiry_ms,
            held,
        };
        self.messages.entry(queue).or_default().insert(seq, logged);
    }

    fn get(&mut self, payload: Bytes, lsn: u64) -> MqResult<()> {
        let (queue, seq, uow) = record::decode_get(payload)?;
        self.max_uow = self.max_uow.max(uow);
        if self.skipped(&queue, lsn) {
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
    pub fn finish(&mut self, now_unix_ms: i64) {
        self.uows_backed_out = self.uows.len();
        let open: Vec<u64> = self.uows.keys().copied().collect();
        for u in open {
            self.end_uow(u, false);
        }
        let now = now_unix_ms;
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

/// Time left before an absolute expiry (Unix ms) at `now` (Unix ms), if it has not passed.
pub(crate) fn time_left(expiry_ms: i64, now: i64) -> Option<Duration> {
    (expiry_ms > now).then(|| Duration::from_millis((expiry_ms - now) as u64))
}

/// Reads outside bytes every way the log is read: as an extent file through the recovery scan
/// (both modes), and as a run of records applied to a fresh [`Recovery`] (each: a kind byte, a
/// little-endian u16 length, the payload). Keeps nothing. What the fuzz target `log_records`
/// runs (and the test that replays its corpus).
pub fn read_everything(data: &[u8]) {
    use ferry_log::Storage as _;
    let storage = ferry_log::MemStorage::new();
    let name = ferry_log::format::extent_name(1);
    if storage.create(&name).is_ok() && storage.write_at(&name, 0, data).is_ok() {
        for mode in [
            ferry_log::RecoveryMode::Strict,
            ferry_log::RecoveryMode::ToLastGood,
        ] {
            let _ = ferry_log::scan(&storage, 1, mode);
        }
    }
    let mut recovery = Recovery::default();
    let mut rest = data;
    let mut lsn = 1;
    while let [kind, a, b, tail @ ..] = rest {
        let len = (u16::from_le_bytes([*a, *b]) as usize).min(tail.len());
        let record = ferry_log::RecordRef {
            lsn,
            kind: *kind,
            payload: &tail[..len],
            pos: ferry_log::RecordPos {
                extent: 1,
                offset: 0,
                size: len as u32,
            },
        };
        let _ = recovery.apply(record);
        rest = &tail[len..];
        lsn += 1;
    }
}
