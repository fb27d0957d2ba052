//! The spill area: where the queue manager writes non-persistent messages that do not fit in
//! its memory budget, the way MQ writes them to a queue file. Never the recovery log: nothing
//! here is synced, and the area is emptied when the queue manager starts (a non-persistent
//! message does not outlive its queue manager).
//!
//! Layout: numbered segment files `spill-NNNNNNNN` in one directory (0700, files 0600). A
//! message is appended to the current segment as one record: u32 payload length, u32 CRC-32C
//! of the payload (both little-endian), then the payload; its [`RecordPos`] (segment number,
//! offset, size) is all a queue keeps of it. A segment takes records until the next would carry
//! it past [`SEGMENT_SIZE`] (a record larger than that has a segment of its own). Offsets are
//! never reused: a segment whose every record was freed is removed whole by a reaper thread (so
//! no queue lock waits for an unlink), and a read of a freed record either finds the bytes it
//! wrote or fails.
//!
//! Bounds: at most `limit` bytes in segments at once; beyond it, or when the disk is full, a
//! write is refused ([`SpillError::Full`], [`SpillError::NoSpace`]) and the queue manager
//! refuses the put.
//!
//! Invariants: `used` is the sum of the sizes of the segments not yet handed to the reaper;
//! `live` counts the records written and not freed; a segment is handed to the reaper once,
//! when it is not current and its last record is freed.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::storage::Storage;
use crate::writer::RecordPos;

/// Bytes a segment takes before the next one starts.
pub const SEGMENT_SIZE: u64 = 64 << 20;

/// Bytes of a record's header.
const HEADER: u32 = 8;

/// Why a message could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpillError {
    /// The area holds its limit.
    #[error("the spill area is full ({limit_mib} MiB of non-persistent messages beyond the memory budget)")]
    Full {
        /// The limit, in MiB.
        limit_mib: u64,
    },
    /// The disk holding the area is full.
    #[error("the disk holding the spill area is full: {0}")]
    NoSpace(String),
    /// The storage failed.
    #[error("spill area I/O failed: {0}")]
    Io(String),
    /// A record read back is not what was written.
    #[error("a spilled message is damaged: {0}")]
    Damaged(String),
}

/// What the area holds now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpillStats {
    /// Records written and not freed.
    pub messages: u64,
    /// Bytes in segment files.
    pub bytes: u64,
    /// The most bytes it may hold.
    pub limit: u64,
}

#[derive(Debug, Default)]
struct Segment {
    /// Records not freed.
    live: u32,
    /// Bytes written (the next record's offset).
    size: u64,
}

#[derive(Debug, Default)]
struct State {
    /// The segment taking records, if any.
    current: Option<u32>,
    next_number: u32,
    segments: BTreeMap<u32, Segment>,
    used: u64,
    live: u64,
}

/// The spill area of one queue manager.
#[derive(Debug)]
pub struct SpillArea {
    storage: Arc<dyn Storage>,
    limit: u64,
    state: Mutex<State>,
    reaper: Mutex<mpsc::Sender<u32>>,
}

fn segment_name(n: u32) -> String {
    format!("spill-{n:08}")
}

fn io_error(e: std::io::Error) -> SpillError {
    if e.raw_os_error() == Some(libc::ENOSPC) || e.kind() == std::io::ErrorKind::StorageFull {
        SpillError::NoSpace(e.to_string())
    } else {
        SpillError::Io(e.to_string())
    }
}

impl SpillArea {
    /// Opens the area on `storage` (its directory), removing whatever an earlier run left, with
    /// room for `limit` bytes. Starts the reaper thread, which ends when the area is dropped.
    pub fn open(storage: Arc<dyn Storage>, limit: u64) -> std::io::Result<SpillArea> {
        for name in storage.list()? {
            if name.starts_with("spill-") {
                storage.remove(&name)?;
            }
        }
        let (tx, rx) = mpsc::channel::<u32>();
        let reaped = storage.clone();
        std::thread::Builder::new()
            .name("ferry-spill-reaper".into())
            .spawn(move || {
                for n in rx {
                    if let Err(e) = reaped.remove(&segment_name(n)) {
                        say_unremoved(n, &e);
                    }
                }
            })?;
        Ok(SpillArea {
            storage,
            limit,
            state: Mutex::new(State::default()),
            reaper: Mutex::new(tx),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What the area holds now.
    pub fn stats(&self) -> SpillStats {
        let st = self.state();
        SpillStats {
            messages: st.live,
            bytes: st.used,
            limit: self.limit,
        }
    }

    /// Writes `payload` as one record; returns where it is. Not synced.
    pub fn write(&self, payload: &[u8]) -> Result<RecordPos, SpillError> {
        let size = HEADER as u64 + payload.len() as u64;
        let at = self.reserve(size)?;
        let mut rec = Vec::with_capacity(size as usize);
        rec.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        rec.extend_from_slice(&crc32c::crc32c(payload).to_le_bytes());
        rec.extend_from_slice(payload);
        let name = segment_name(at.extent);
        if let Err(e) = self.storage.write_at(&name, at.offset as u64, &rec) {
            self.free(at);
            return Err(io_error(e));
        }
        Ok(at)
    }

    /// Takes `size` bytes in the current segment (starting a new one when it would overflow).
    fn reserve(&self, size: u64) -> Result<RecordPos, SpillError> {
        if size > u32::MAX as u64 {
            return Err(SpillError::Io(format!("a {size}-byte record is too large")));
        }
        let mut st = self.state();
        if st.used + size > self.limit {
            return Err(SpillError::Full {
                limit_mib: self.limit >> 20,
            });
        }
        let fits = |st: &State, n: u32| st.segments[&n].size + size <= SEGMENT_SIZE;
        let n = match st.current {
            Some(n) if fits(&st, n) => n,
            _ => {
                self.retire_current(&mut st);
                let n = st.next_number;
                self.storage.create(&segment_name(n)).map_err(io_error)?;
                st.next_number += 1;
                st.segments.insert(n, Segment::default());
                st.current = Some(n);
                n
            }
        };
        st.used += size;
        st.live += 1;
        let seg = st.segments.get_mut(&n).expect("the current segment exists");
        let offset = seg.size;
        seg.size += size;
        seg.live += 1;
        Ok(RecordPos {
            extent: n,
            offset: offset as u32,
            size: size as u32,
        })
    }

    /// The current segment takes no more records; removed now if it holds none.
    fn retire_current(&self, st: &mut State) {
        if let Some(n) = st.current.take() {
            if st.segments[&n].live == 0 {
                self.reap(st, n);
            }
        }
    }

    fn reap(&self, st: &mut State, n: u32) {
        let seg = st.segments.remove(&n).expect("a segment is reaped once");
        debug_assert_eq!(seg.live, 0, "a reaped segment holds no record");
        st.used -= seg.size;
        let tx = self.reaper.lock().unwrap_or_else(|p| p.into_inner());
        let _ = tx.send(n);
    }

    /// Reads the record at `at` back.
    pub fn read(&self, at: RecordPos) -> Result<Vec<u8>, SpillError> {
        let mut rec = vec![0u8; at.size as usize];
        let name = segment_name(at.extent);
        let got = self
            .storage
            .read_at(&name, at.offset as u64, &mut rec)
            .map_err(io_error)?;
        let damaged =
            |why: &str| SpillError::Damaged(format!("{name} at offset {}: {why}", at.offset));
        if got != rec.len() || rec.len() < HEADER as usize {
            return Err(damaged("the record is cut short"));
        }
        let len = u32::from_le_bytes(rec[0..4].try_into().expect("4 bytes"));
        let crc = u32::from_le_bytes(rec[4..8].try_into().expect("4 bytes"));
        if len as usize != rec.len() - HEADER as usize {
            return Err(damaged("its length is not the one written"));
        }
        let payload = rec.split_off(HEADER as usize);
        if crc32c::crc32c(&payload) != crc {
            return Err(damaged("its checksum does not match"));
        }
        Ok(payload)
    }

    /// Frees the record at `at`; its segment goes once it holds none and takes no more.
    pub fn free(&self, at: RecordPos) {
        let mut st = self.state();
        let Some(seg) = st.segments.get_mut(&at.extent) else {
            debug_assert!(false, "freeing a record of a segment that is gone: {at:?}");
            return;
        };
        debug_assert!(seg.live > 0, "freeing a record twice: {at:?}");
        seg.live -= 1;
        let empty = seg.live == 0;
        st.live -= 1;
        if empty {
            // The current segment too: its space is given back and the next write starts a
            // new one, so a drained area holds no file.
            if st.current == Some(at.extent) {
                st.current = None;
            }
            self.reap(&mut st, at.extent);
        }
    }
}

fn say_unremoved(n: u32, e: &std::io::Error) {
    // ferry-log has no logging dependency: the reaper says it on standard error.
    eprintln!(
        "ferry: could not remove spill segment {}: {e}",
        segment_name(n)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemStorage;

    fn area(limit: u64) -> (Arc<MemStorage>, SpillArea) {
        let s = Arc::new(MemStorage::new());
        let a = SpillArea::open(s.clone(), limit).unwrap();
        (s, a)
    }

    /// The files left once the reaper has removed down to `want` of them (it runs on its own
    /// thread), or after a second.
    fn files(s: &MemStorage, want: usize) -> Vec<String> {
        for _ in 0..200 {
            let l = s.list().unwrap();
            if l.len() <= want {
                return l;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        s.list().unwrap()
    }

    #[test]
    fn what_is_written_is_read_back_and_freeing_everything_leaves_no_file() {
        let (s, a) = area(1 << 30);
        let refs: Vec<_> = (0..100u32)
            .map(|i| a.write(&vec![i as u8; i as usize * 10]).unwrap())
            .collect();
        for (i, r) in refs.iter().enumerate() {
            assert_eq!(a.read(*r).unwrap(), vec![i as u8; i * 10]);
        }
        assert_eq!(a.stats().messages, 100);
        for r in refs {
            a.free(r);
        }
        assert_eq!(
            a.stats(),
            SpillStats {
                messages: 0,
                bytes: 0,
                limit: 1 << 30
            }
        );
        assert!(files(&s, 0).is_empty(), "{:?}", s.list());
    }

    #[test]
    fn the_limit_refuses_and_freeing_makes_room() {
        let (_s, a) = area(1000);
        let first = a.write(&[7; 600]).unwrap();
        assert_eq!(a.write(&[8; 600]), Err(SpillError::Full { limit_mib: 0 }));
        a.free(first);
        a.write(&[9; 600]).unwrap();
    }

    #[test]
    fn segments_roll_and_an_emptied_old_one_is_removed() {
        let (s, a) = area(1 << 40);
        let big = vec![1u8; (SEGMENT_SIZE / 2) as usize];
        let r1 = a.write(&big).unwrap();
        let r2 = a.write(&big).unwrap();
        assert_ne!(
            r1.extent, r2.extent,
            "the second does not fit beside the first"
        );
        a.free(r1);
        let left = files(&s, 1);
        assert_eq!(left, vec![segment_name(r2.extent)]);
        assert_eq!(a.read(r2).unwrap().len(), big.len());
    }

    #[test]
    fn damage_is_told() {
        let (s, a) = area(1 << 20);
        let r = a.write(b"hello spill").unwrap();
        s.corrupt(&segment_name(r.extent), r.offset as u64 + 10, b"J");
        assert!(matches!(a.read(r), Err(SpillError::Damaged(_))));
    }

    #[test]
    fn opening_removes_what_an_earlier_run_left() {
        let s = Arc::new(MemStorage::new());
        {
            let a = SpillArea::open(s.clone(), 1 << 20).unwrap();
            a.write(b"left behind").unwrap();
        }
        let _a = SpillArea::open(s.clone(), 1 << 20).unwrap();
        assert!(s.list().unwrap().is_empty());
    }
}
