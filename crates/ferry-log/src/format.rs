//! The recovery log's byte layout (the map in docs/log.md is written from this file).
//!
//! Extent file `L{n:010}.flog`:
//!
//! ```text
//! offset 0, 64 bytes: extent header
//!    0  8  magic "FMQLOG01"
//!    8  8  extent number (u64 LE)
//!   16  8  LSN of the first record this extent may hold (u64 LE)
//!   24  1  log type (1 circular, 2 linear)
//!   25 35  zero
//!   60  4  CRC-32C of bytes 0..60
//! offset 64 onwards: records, each 8-byte aligned
//!    0  4  payload length (u32 LE)
//!    4  4  CRC-32C of bytes 8..24+len (LSN, kind, padding, payload)
//!    8  8  LSN (u64 LE), one more than the previous record's
//!   16  1  kind
//!   17  7  zero
//!   24  …  payload, then zeros to the next multiple of 8
//! ```
//!
//! Unwritten space is zeros: a record header of all zeros marks the end of an extent's data.

/// Bytes of the extent header.
pub const EXTENT_HEADER: usize = 64;
/// Bytes of a record header.
pub const RECORD_HEADER: usize = 24;
/// Extent magic.
pub const MAGIC: [u8; 8] = *b"FMQLOG01";

/// Circular or linear log (MQ's LogType).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogType {
    /// Extents no checkpoint needs are recycled.
    Circular = 1,
    /// Extents are kept (for media recovery and archiving).
    Linear = 2,
}

/// The file name of extent `n`.
pub fn extent_name(n: u64) -> String {
    format!("L{n:010}.flog")
}

/// The extent number in a file name, if it is an extent's.
pub fn extent_number(name: &str) -> Option<u64> {
    name.strip_prefix('L')?.strip_suffix(".flog")?.parse().ok()
}

/// Encodes an extent header.
pub fn extent_header(n: u64, first_lsn: u64, log_type: LogType) -> [u8; EXTENT_HEADER] {
    let mut h = [0u8; EXTENT_HEADER];
    h[..8].copy_from_slice(&MAGIC);
    h[8..16].copy_from_slice(&n.to_le_bytes());
    h[16..24].copy_from_slice(&first_lsn.to_le_bytes());
    h[24] = log_type as u8;
    let crc = crc32c::crc32c(&h[..60]);
    h[60..].copy_from_slice(&crc.to_le_bytes());
    h
}

/// A decoded extent header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtentHeader {
    /// Extent number.
    pub number: u64,
    /// First LSN it may hold.
    pub first_lsn: u64,
}

/// Decodes an extent header; `None` if it is damaged.
pub fn parse_extent_header(h: &[u8]) -> Option<ExtentHeader> {
    if h.len() < EXTENT_HEADER || h[..8] != MAGIC {
        return None;
    }
    let crc = u32::from_le_bytes(h[60..64].try_into().ok()?);
    if crc32c::crc32c(&h[..60]) != crc {
        return None;
    }
    Some(ExtentHeader {
        number: u64::from_le_bytes(h[8..16].try_into().ok()?),
        first_lsn: u64::from_le_bytes(h[16..24].try_into().ok()?),
    })
}

/// Bytes a record with `payload_len` bytes of payload occupies.
pub fn record_size(payload_len: usize) -> usize {
    (RECORD_HEADER + payload_len).next_multiple_of(8)
}

/// Appends a record to `out`.
pub fn encode_record(out: &mut Vec<u8>, lsn: u64, kind: u8, payload: &[u8]) {
    let start = out.len();
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&lsn.to_le_bytes());
    out.push(kind);
    out.extend_from_slice(&[0u8; 7]);
    out.extend_from_slice(payload);
    out.resize(start + record_size(payload.len()), 0);
    let crc = crc32c::crc32c(&out[start + 8..start + RECORD_HEADER + payload.len()]);
    out[start + 4..start + 8].copy_from_slice(&crc.to_le_bytes());
}

/// What the bytes at a record position hold.
#[derive(Debug, PartialEq, Eq)]
pub enum RecordAt {
    /// Zeros: the end of the extent's data.
    End,
    /// A valid record.
    Record {
        /// Its LSN.
        lsn: u64,
        /// Its kind.
        kind: u8,
        /// Its payload length (the payload follows the header).
        len: usize,
    },
    /// Something that is neither: a torn write or corruption.
    Damaged(&'static str),
}

/// Checks the record whose header (and payload, `body`) start at the beginning of `bytes`.
/// `bytes` must hold at least the header, and the whole record for a verdict of `Record`.
pub fn check_record(bytes: &[u8], max_len: usize) -> RecordAt {
    if bytes.len() < RECORD_HEADER {
        return RecordAt::Damaged("record header cut short");
    }
    if bytes[..RECORD_HEADER].iter().all(|b| *b == 0) {
        return RecordAt::End;
    }
    let len = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    if len > max_len {
        return RecordAt::Damaged("record length beyond the extent");
    }
    if bytes.len() < RECORD_HEADER + len {
        return RecordAt::Damaged("record cut short");
    }
    let crc = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    if crc32c::crc32c(&bytes[8..RECORD_HEADER + len]) != crc {
        return RecordAt::Damaged("checksum mismatch");
    }
    let lsn = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
    RecordAt::Record {
        lsn,
        kind: bytes[16],
        len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_detected() {
        let mut buf = Vec::new();
        encode_record(&mut buf, 7, 3, b"hello");
        assert_eq!(buf.len(), 32);
        assert_eq!(
            check_record(&buf, 1 << 20),
            RecordAt::Record {
                lsn: 7,
                kind: 3,
                len: 5
            }
        );
        let mut bad = buf.clone();
        bad[26] ^= 1;
        assert_eq!(
            check_record(&bad, 1 << 20),
            RecordAt::Damaged("checksum mismatch")
        );
        assert_eq!(check_record(&[0u8; 32], 1 << 20), RecordAt::End);
        assert!(matches!(
            check_record(&buf[..20], 1 << 20),
            RecordAt::Damaged(_)
        ));
    }

    #[test]
    fn extent_headers_round_trip() {
        let h = extent_header(5, 100, LogType::Circular);
        assert_eq!(
            parse_extent_header(&h),
            Some(ExtentHeader {
                number: 5,
                first_lsn: 100
            })
        );
        let mut bad = h;
        bad[9] ^= 1;
        assert_eq!(parse_extent_header(&bad), None);
        assert_eq!(extent_number(&extent_name(42)), Some(42));
    }
}
