//! The durable mark: the highest LSN known to have been on disk, kept beside the extents, so a
//! restart can tell a torn tail that cut only records nobody was told were safe (a crash in
//! the middle of a write: normal) from one that cut acknowledged records (the disk lost writes
//! it had confirmed, or the log was truncated): an error, with the count.
//!
//! File [`MARK_FILE`]: two slots of [`SLOT`] bytes, written in turn, so a torn write damages
//! at most the slot being written and the other still holds the mark before it. A slot: magic
//! `FMQMARK1`, u64 generation, u64 LSN, u32 CRC-32C of those 24 bytes (little-endian), zeros to
//! the end of the slot. Reading takes the good slot with the higher generation.
//!
//! The mark trails the log: it is written (and synced) only after the records up to its LSN
//! are, so it never claims a record that was not on disk; records acknowledged after the last
//! mark are not covered.

use std::io;

use crate::storage::Storage;

/// The mark's file name in the log's directory.
pub const MARK_FILE: &str = "durable.mark";

/// Bytes of one slot (a disk sector is written whole or not at all on most devices; a page
/// keeps each slot in a sector of its own on any).
pub const SLOT: usize = 4096;

const MAGIC: &[u8; 8] = b"FMQMARK1";

/// A mark read back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    /// How many marks were written before this one (the slot is `generation % 2`).
    pub generation: u64,
    /// Every record up to this LSN was on disk when the mark was written.
    pub lsn: u64,
}

fn decode(slot: &[u8]) -> Option<Mark> {
    if slot.len() < 28 || &slot[..8] != MAGIC {
        return None;
    }
    let word = |at: usize| u64::from_le_bytes(slot[at..at + 8].try_into().expect("8 bytes"));
    let crc = u32::from_le_bytes(slot[24..28].try_into().expect("4 bytes"));
    (crc32c::crc32c(&slot[..24]) == crc).then(|| Mark {
        generation: word(8),
        lsn: word(16),
    })
}

/// The newest good mark, if the file exists and either slot reads back whole.
pub fn read_mark(storage: &dyn Storage) -> Option<Mark> {
    let mut buf = vec![0u8; 2 * SLOT];
    let n = storage.read_at(MARK_FILE, 0, &mut buf).ok()?;
    buf.truncate(n);
    buf.chunks(SLOT)
        .filter_map(decode)
        .max_by_key(|m| m.generation)
}

/// Writes `mark` into its slot and syncs it. The file is created (both slots allocated) when
/// it does not exist, so later marks change no metadata and need no new space on the disk.
pub fn write_mark(storage: &dyn Storage, mark: Mark) -> io::Result<()> {
    if storage.len(MARK_FILE).is_err() {
        storage.create_zeroed(MARK_FILE, 2 * SLOT as u64)?;
    }
    let mut slot = vec![0u8; SLOT];
    slot[..8].copy_from_slice(MAGIC);
    slot[8..16].copy_from_slice(&mark.generation.to_le_bytes());
    slot[16..24].copy_from_slice(&mark.lsn.to_le_bytes());
    let crc = crc32c::crc32c(&slot[..24]);
    slot[24..28].copy_from_slice(&crc.to_le_bytes());
    let at = (mark.generation % 2) * SLOT as u64;
    storage.write_at(MARK_FILE, at, &slot)?;
    storage.sync(MARK_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    #[test]
    fn the_newest_good_slot_is_read_and_a_torn_one_falls_back() {
        let s = MemStorage::new();
        assert_eq!(read_mark(&s), None);
        for (generation, lsn) in [(1, 10), (2, 25), (3, 40)] {
            write_mark(&s, Mark { generation, lsn }).unwrap();
        }
        assert_eq!(
            read_mark(&s),
            Some(Mark {
                generation: 3,
                lsn: 40
            })
        );
        // Generation 3 lives in slot 1: tear it, and the mark before it is read.
        s.corrupt(MARK_FILE, SLOT as u64 + 17, &[0xff]);
        assert_eq!(
            read_mark(&s),
            Some(Mark {
                generation: 2,
                lsn: 25
            })
        );
        s.corrupt(MARK_FILE, 3, &[0]);
        assert_eq!(read_mark(&s), None);
    }
}
