//! After a recovery to the last good record: what the dropped records held, and the extents
//! beyond the new tail moved aside, so the log is as good as new — appending goes on from the
//! tail, and a later crash recovers normally instead of meeting the stale records again.

use bytes::Bytes;
use ferry_log::{Loss, Storage, Tail};
use ferry_model::message::MsgId;
use ferry_model::name::ObjectName;

use super::record::{self, kind};

/// What a recovery to the last good record gave up, record by record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dropped {
    /// Persistent messages whose PUT record was dropped: (queue, msg id, unit of work or 0).
    /// Those put outside a unit of work, or in one whose commit was kept, are lost.
    pub messages: Vec<(ObjectName, MsgId, u64)>,
    /// Gets whose GET record was dropped: (queue, sequence number, unit of work or 0). A
    /// message they had removed is back on its queue.
    pub gets: Vec<(ObjectName, u64, u64)>,
    /// Units of work whose COMMIT record was dropped: backed out.
    pub commits: Vec<u64>,
    /// Other records dropped (definitions, clears, backouts, checkpoints' marks).
    pub other: u64,
    /// Records that could not be read back even to report them.
    pub unreadable: u64,
    /// Extents beyond the new tail, renamed `*.dropped` so no later scan reads them.
    pub retired: Vec<String>,
}

/// Reads back each dropped record to say what it held.
pub fn describe(storage: &dyn Storage, loss: &Loss) -> Dropped {
    let mut d = Dropped::default();
    for pos in &loss.dropped {
        let Ok(r) = ferry_log::read_record(storage, *pos) else {
            d.unreadable += 1;
            continue;
        };
        let payload = Bytes::from(r.payload);
        match r.kind {
            kind::PUT => match record::decode_put(payload) {
                Ok(p) => d.messages.push((p.queue, p.msg.descriptor.msg_id, p.uow)),
                Err(_) => d.unreadable += 1,
            },
            kind::PUBLISH => match record::decode_publish(payload) {
                Ok(p) => d
                    .messages
                    .extend(p.targets.iter().map(|t| (t.queue, t.msg_id, p.uow))),
                Err(_) => d.unreadable += 1,
            },
            kind::GET => match record::decode_get(payload) {
                Ok(g) => d.gets.push(g),
                Err(_) => d.unreadable += 1,
            },
            kind::COMMIT => match record::decode_end_uow(&payload) {
                Ok(u) => d.commits.push(u),
                Err(_) => d.unreadable += 1,
            },
            _ => d.other += 1,
        }
    }
    d
}

/// Moves every extent after `tail`'s aside (`NAME.dropped`), so appending from the tail starts
/// a log with nothing stale after it. Returns the names moved.
pub fn retire_after(storage: &dyn Storage, tail: &Tail) -> std::io::Result<Vec<String>> {
    let mut stale: Vec<(u64, String)> = storage
        .list()?
        .into_iter()
        .filter_map(|n| ferry_log::format::extent_number(&n).map(|x| (x, n)))
        .filter(|(x, _)| *x > tail.extent)
        .collect();
    stale.sort();
    let mut moved = Vec::new();
    for (_, name) in stale {
        storage.rename(&name, &format!("{name}.dropped"))?;
        moved.push(name);
    }
    Ok(moved)
}
