//! Reading the log back at restart: every record from a starting LSN, in order, with damage told
//! apart from a crash's torn tail.
//!
//! A crash can only damage the end of the log: records after the last completed sync were never
//! acknowledged, so a damaged record with nothing valid after it is a torn tail and is dropped.
//! A damaged record with valid records after it is corruption of the live log: the scan refuses
//! it, naming the file and offset, unless told to recover up to the last good record — and then
//! it reports exactly what was lost.

use crate::format::{self, RecordAt, EXTENT_HEADER, RECORD_HEADER};
use crate::storage::Storage;
use crate::writer::RecordPos;
use crate::LogError;

/// One record read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Log sequence number.
    pub lsn: u64,
    /// Kind.
    pub kind: u8,
    /// Payload.
    pub payload: Vec<u8>,
}

/// Where appending resumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    /// Extent number.
    pub extent: u64,
    /// Byte offset in it.
    pub offset: u64,
    /// The LSN the next record gets.
    pub next_lsn: u64,
}

/// What a scan found.
#[derive(Debug)]
pub struct Scanned {
    /// The records, from the requested LSN on.
    pub records: Vec<Record>,
    /// Where to append next.
    pub tail: Tail,
    /// Set when a torn tail was dropped: (file, offset) of the first damaged byte.
    pub torn_tail: Option<(String, u64)>,
    /// Set when damage was skipped in `ToLastGood` mode: what was lost.
    pub lost: Option<Loss>,
}

/// What recovering to the last good record gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// File of the first damaged record.
    pub file: String,
    /// Its offset.
    pub offset: u64,
    /// Why it was judged damaged.
    pub reason: &'static str,
    /// Valid-looking records found after it and dropped.
    pub records_dropped: u64,
    /// Where each of them is (to read them back and report what they held), in log order.
    pub dropped: Vec<RecordPos>,
    /// The last LSN kept.
    pub last_good_lsn: u64,
}

/// How to treat damage in the live part of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryMode {
    /// Refuse: report the file and offset.
    Strict,
    /// Keep everything up to the last good record and report what was dropped.
    ToLastGood,
}

/// A record as the scan passes it to its visitor: where it is, and its bytes (borrowed).
#[derive(Debug, Clone, Copy)]
pub struct RecordRef<'a> {
    /// Log sequence number.
    pub lsn: u64,
    /// Kind.
    pub kind: u8,
    /// Payload.
    pub payload: &'a [u8],
    /// Where it lives (to read it back later).
    pub pos: RecordPos,
}

/// How a scan ended.
#[derive(Debug)]
pub struct ScanEnd {
    /// Records visited.
    pub records: u64,
    /// Where to append next.
    pub tail: Tail,
    /// Set when a torn tail was dropped: (file, offset) of the first damaged byte.
    pub torn_tail: Option<(String, u64)>,
    /// Set when damage was skipped in `ToLastGood` mode: what was lost.
    pub lost: Option<Loss>,
}

/// Reads every record with LSN ≥ `from_lsn`, collected (tests and small logs).
pub fn scan(storage: &dyn Storage, from_lsn: u64, mode: RecoveryMode) -> Result<Scanned, LogError> {
    let mut records = Vec::new();
    let end = scan_from(storage, None, mode, &mut |r: RecordRef<'_>| {
        if r.lsn >= from_lsn {
            records.push(Record {
                lsn: r.lsn,
                kind: r.kind,
                payload: r.payload.to_vec(),
            });
        }
        Ok(())
    })?;
    Ok(Scanned {
        records,
        tail: end.tail,
        torn_tail: end.torn_tail,
        lost: end.lost,
    })
}

/// Visits every record from `start` (a position from [`crate::Log::next_position`], usually a
/// checkpoint's), or from the first extent present when `None`, in LSN order. Extents before
/// `start` are not read. The visitor may stop the scan by returning an error.
pub fn scan_from(
    storage: &dyn Storage,
    start: Option<Tail>,
    mode: RecoveryMode,
    visit: &mut dyn FnMut(RecordRef<'_>) -> Result<(), LogError>,
) -> Result<ScanEnd, LogError> {
    let io = |e: std::io::Error| LogError::Io(e.to_string());
    let mut extents: Vec<(u64, String)> = storage
        .list()
        .map_err(io)?
        .into_iter()
        .filter_map(|n| format::extent_number(&n).map(|x| (x, n)))
        .filter(|(x, _)| start.is_none_or(|s| *x >= s.extent))
        .collect();
    extents.sort();
    // Extents prepared ahead of need (zero-filled) and never started are not part of the log
    // yet: drop them from the end.
    while let Some((_, name)) = extents.last() {
        let bytes = read_extent(storage, name)?;
        let blank = bytes.iter().take(EXTENT_HEADER).all(|b| *b == 0) && no_records(&bytes);
        if !blank {
            break;
        }
        extents.pop();
    }
    let mut count = 0u64;
    let mut expected: Option<u64> = start.map(|s| s.next_lsn);
    let mut tail = start.unwrap_or(Tail {
        extent: 1,
        offset: EXTENT_HEADER as u64,
        next_lsn: 1,
    });
    let mut torn_tail = None;
    let lost = None;
    let end = |records, tail, torn_tail, lost| {
        Ok(ScanEnd {
            records,
            tail,
            torn_tail,
            lost,
        })
    };
    for (i, (number, name)) in extents.iter().enumerate() {
        // Extents follow on without a gap: from the start's extent, then one after another.
        let wanted = match (i, start) {
            (0, Some(s)) => Some(s.extent),
            (0, None) => None,
            _ => Some(extents[i - 1].0 + 1),
        };
        if let Some(w) = wanted.filter(|w| w != number) {
            if mode == RecoveryMode::Strict {
                return Err(LogError::Corrupt {
                    file: name.clone(),
                    offset: 0,
                    reason: format!("extent {w} is missing before it"),
                });
            }
            // Recovering to the last good record: it is the end of the extent before the gap.
            let lost = missing_extent(storage, w, &extents[i..], &tail)?;
            return end(count, tail, torn_tail, Some(lost));
        }
        let bytes = read_extent(storage, name)?;
        let last = i + 1 == extents.len();
        let Some(header) = format::parse_extent_header(&bytes) else {
            // The last extent's header is written and synced before any record goes in, so a
            // damaged header there with no valid record after it is a crash while creating it.
            if last && no_records(&bytes) {
                tail = Tail {
                    extent: *number,
                    offset: EXTENT_HEADER as u64,
                    next_lsn: tail.next_lsn,
                };
                torn_tail = Some((name.clone(), 0));
                continue;
            }
            return Err(LogError::Corrupt {
                file: name.clone(),
                offset: 0,
                reason: "extent header damaged".into(),
            });
        };
        if expected.is_none() {
            expected = Some(header.first_lsn);
        }
        let mut off = match start {
            Some(s) if s.extent == *number => s.offset as usize,
            _ => EXTENT_HEADER,
        };
        let mut next = expected.unwrap_or(header.first_lsn);
        loop {
            if off + RECORD_HEADER > bytes.len() {
                break;
            }
            match format::check_record(&bytes[off..], bytes.len() - off) {
                RecordAt::End => break,
                RecordAt::Record { lsn, kind, len } if lsn == next => {
                    let from = off + RECORD_HEADER;
                    let size = format::record_size(len);
                    visit(RecordRef {
                        lsn,
                        kind,
                        payload: &bytes[from..from + len],
                        pos: RecordPos {
                            extent: *number as u32,
                            offset: off as u32,
                            size: size as u32,
                        },
                    })?;
                    count += 1;
                    next += 1;
                    off += size;
                }
                other => {
                    let reason = match other {
                        RecordAt::Damaged(r) => r,
                        _ => "sequence number out of order",
                    };
                    let here = Some((&bytes[..], off));
                    let later = records_after(storage, &extents[i..], here, next)?;
                    tail = Tail {
                        extent: *number,
                        offset: off as u64,
                        next_lsn: next,
                    };
                    let (torn, lost) = judge(name, off, reason, later, next, mode)?;
                    return end(count, tail, torn, lost);
                }
            }
        }
        expected = Some(next);
        tail = Tail {
            extent: *number,
            offset: off as u64,
            next_lsn: next,
        };
    }
    end(count, tail, torn_tail, lost)
}

/// Where a torn tail begins: (file, offset).
type TornAt = (String, u64);

/// A damaged record at `off` in `name` with the records `later` after it: a torn tail when none
/// follow; otherwise damage to the live log, refused in strict mode and dropped (with what was
/// lost) when recovering to the last good record.
fn judge(
    name: &str,
    off: usize,
    reason: &'static str,
    later: Vec<RecordPos>,
    next: u64,
    mode: RecoveryMode,
) -> Result<(Option<TornAt>, Option<Loss>), LogError> {
    if later.is_empty() {
        return Ok((Some((name.to_owned(), off as u64)), None));
    }
    if mode == RecoveryMode::Strict {
        return Err(LogError::Corrupt {
            file: name.to_owned(),
            offset: off as u64,
            reason: format!(
                "{reason}; {} valid records follow it, so this is damage to the live log, not a torn write",
                later.len()
            ),
        });
    }
    let lost = Loss {
        file: name.to_owned(),
        offset: off as u64,
        reason,
        records_dropped: later.len() as u64,
        dropped: later,
        last_good_lsn: next - 1,
    };
    Ok((None, Some(lost)))
}

/// What recovering past missing extent `w` gives up: every record in the extents after it.
fn missing_extent(
    storage: &dyn Storage,
    w: u64,
    after: &[(u64, String)],
    tail: &Tail,
) -> Result<Loss, LogError> {
    let dropped = records_after(storage, after, None, 0)?;
    Ok(Loss {
        file: format::extent_name(w),
        offset: 0,
        reason: "the extent is missing",
        records_dropped: dropped.len() as u64,
        dropped,
        last_good_lsn: tail.next_lsn - 1,
    })
}

/// The whole content of an extent file.
fn read_extent(storage: &dyn Storage, name: &str) -> Result<Vec<u8>, LogError> {
    let io = |e: std::io::Error| LogError::Io(e.to_string());
    let len = storage.len(name).map_err(io)? as usize;
    let mut bytes = vec![0u8; len];
    storage.read_at(name, 0, &mut bytes).map_err(io)?;
    Ok(bytes)
}

/// The records that look valid (checksum right, LSN at least `after_lsn`) after damage: in the
/// damaged extent (`here`: its bytes and the damaged offset) at any 8-byte boundary after it,
/// then in every later extent with a good header, each record once (a valid record is stepped
/// over whole). Their positions, in order.
fn records_after(
    storage: &dyn Storage,
    extents: &[(u64, String)],
    here: Option<(&[u8], usize)>,
    after_lsn: u64,
) -> Result<Vec<RecordPos>, LogError> {
    let mut found = Vec::new();
    let mut later = extents;
    if let (Some((bytes, damaged_at)), Some(((number, _), rest))) = (here, extents.split_first()) {
        collect_valid(bytes, *number, damaged_at + 8, after_lsn, &mut found);
        later = rest;
    }
    for (number, name) in later {
        let b = read_extent(storage, name)?;
        if format::parse_extent_header(&b).is_some() {
            collect_valid(&b, *number, EXTENT_HEADER, after_lsn, &mut found);
        }
    }
    Ok(found)
}

/// Whether no valid-looking record is anywhere in an extent's bytes.
fn no_records(bytes: &[u8]) -> bool {
    let mut found = Vec::new();
    collect_valid(bytes, 0, 8, 0, &mut found);
    found.is_empty()
}

/// Every valid record in `bytes` from `from` (8-byte steps between records), LSN ≥ `after_lsn`.
fn collect_valid(bytes: &[u8], extent: u64, from: usize, after_lsn: u64, out: &mut Vec<RecordPos>) {
    let mut off = from;
    while off + RECORD_HEADER <= bytes.len() {
        match format::check_record(&bytes[off..], bytes.len() - off) {
            RecordAt::Record { lsn, len, .. } => {
                let size = format::record_size(len);
                if lsn >= after_lsn {
                    out.push(RecordPos {
                        extent: extent as u32,
                        offset: off as u32,
                        size: size as u32,
                    });
                }
                off += size;
            }
            _ => off += 8,
        }
    }
}
