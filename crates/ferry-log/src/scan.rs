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

/// Reads every record with LSN ≥ `from_lsn`.
pub fn scan(storage: &dyn Storage, from_lsn: u64, mode: RecoveryMode) -> Result<Scanned, LogError> {
    let io = |e: std::io::Error| LogError::Io(e.to_string());
    let mut extents: Vec<(u64, String)> = storage
        .list()
        .map_err(io)?
        .into_iter()
        .filter_map(|n| format::extent_number(&n).map(|x| (x, n)))
        .collect();
    extents.sort();
    let mut records = Vec::new();
    let mut expected: Option<u64> = None;
    let mut tail = Tail {
        extent: 1,
        offset: EXTENT_HEADER as u64,
        next_lsn: 1,
    };
    let mut torn_tail = None;
    let mut lost = None;
    for (i, (number, name)) in extents.iter().enumerate() {
        let bytes = read_extent(storage, name)?;
        let Some(header) = format::parse_extent_header(&bytes) else {
            // The last extent's header is written and synced before any record goes in, so a
            // damaged header there with no valid record after it is a crash while creating it.
            let last = i + 1 == extents.len();
            if last && valid_records_after(storage, &[], 0, &bytes, 0)? == 0 {
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
        let mut off = EXTENT_HEADER;
        let mut next = expected.unwrap_or(header.first_lsn);
        loop {
            if off + RECORD_HEADER > bytes.len() {
                break;
            }
            match format::check_record(&bytes[off..], bytes.len() - off) {
                RecordAt::End => break,
                RecordAt::Record { lsn, kind, len } if lsn == next => {
                    if lsn >= from_lsn {
                        let start = off + RECORD_HEADER;
                        records.push(Record {
                            lsn,
                            kind,
                            payload: bytes[start..start + len].to_vec(),
                        });
                    }
                    next += 1;
                    off += format::record_size(len);
                }
                other => {
                    let reason = match other {
                        RecordAt::Damaged(r) => r,
                        _ => "sequence number out of order",
                    };
                    let later = valid_records_after(storage, &extents[i..], off, &bytes, next)?;
                    if later == 0 {
                        torn_tail = Some((name.clone(), off as u64));
                        tail = Tail {
                            extent: *number,
                            offset: off as u64,
                            next_lsn: next,
                        };
                        return Ok(Scanned {
                            records,
                            tail,
                            torn_tail,
                            lost,
                        });
                    }
                    if mode == RecoveryMode::Strict {
                        return Err(LogError::Corrupt {
                            file: name.clone(),
                            offset: off as u64,
                            reason: format!(
                                "{reason}; {later} valid records follow it, so this is damage to the live log, not a torn write"
                            ),
                        });
                    }
                    lost = Some(Loss {
                        file: name.clone(),
                        offset: off as u64,
                        reason,
                        records_dropped: later,
                        last_good_lsn: next - 1,
                    });
                    tail = Tail {
                        extent: *number,
                        offset: off as u64,
                        next_lsn: next,
                    };
                    return Ok(Scanned {
                        records,
                        tail,
                        torn_tail,
                        lost,
                    });
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
    Ok(Scanned {
        records,
        tail,
        torn_tail,
        lost,
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

/// Counts records that look valid (checksum right, LSN beyond `after_lsn`) after a damaged one:
/// later in the same extent (at any 8-byte boundary) or in later extents.
fn valid_records_after(
    storage: &dyn Storage,
    extents: &[(u64, String)],
    damaged_at: usize,
    bytes: &[u8],
    after_lsn: u64,
) -> Result<u64, LogError> {
    let mut n = 0;
    let mut off = damaged_at + 8;
    while off + RECORD_HEADER <= bytes.len() {
        if let RecordAt::Record { lsn, .. } = format::check_record(&bytes[off..], bytes.len() - off)
        {
            if lsn >= after_lsn {
                n += 1;
            }
        }
        off += 8;
    }
    for (_, name) in extents.iter().skip(1) {
        let b = read_extent(storage, name)?;
        let len = b.len();
        if format::parse_extent_header(&b).is_some() {
            if let RecordAt::Record { .. } =
                format::check_record(&b[EXTENT_HEADER.min(b.len())..], len)
            {
                n += 1;
            }
        }
    }
    Ok(n)
}
