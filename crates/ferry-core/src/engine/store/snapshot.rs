//! A checkpoint's snapshot of the store: the logged messages as they were at one instant (the
//! queue's *mark*), read a chunk at a time so the queue's lock is never held for more than a
//! chunk.
//!
//! [`Store::begin_snapshot`] fixes the instant. From then until the snapshot ends, the first
//! change to a slot the scan has not reached yet saves the slot's image as it was (its
//! *pre-image*); [`Store::snapshot_chunk`] scans lane by lane in sequence order, reports each
//! unchanged slot as it is now, skips the changed ones, and at the end reports the saved
//! pre-images. So every message logged at the mark is reported once, as it was at the mark;
//! messages put after it (sequence number at or above the limit) are not reported — their PUT
//! records follow the mark in the log and are replayed.
//!
//! Invariants (checked by `debug_assert!` and the model test in `tests.rs`): a saved image is
//! for a sequence number below the limit; a slot is saved at most once; the scan position only
//! moves forward.

use std::collections::HashMap;

use ferry_model::message::CorrelId;

use super::{Body, OnDisk, Pos, SlotState, Store, READING};

/// A logged message as a checkpoint records it: sequence number, state, expiry deadline
/// (clock nanoseconds, 0 never) and its entry.
pub type Image = (u64, SlotState, u64, OnDisk);

/// A snapshot in progress.
#[derive(Debug)]
pub(super) struct Snapshot {
    /// Sequence numbers at or above this were put after the mark.
    limit: u64,
    /// Lanes below this are scanned.
    lane: usize,
    /// In `lane`, sequence numbers below this are scanned.
    from_seq: u64,
    /// Pre-images of slots changed before the scan reached them (`None`: no logged message
    /// was there at the mark).
    saved: HashMap<u64, Option<Image>>,
}

impl Snapshot {
    fn unscanned(&self, pos: Pos) -> bool {
        let lane = pos.lane as usize;
        pos.seq < self.limit
            && (lane > self.lane || (lane == self.lane && pos.seq >= self.from_seq))
    }
}

impl Store {
    /// Fixes the instant a snapshot reflects (call under the queue's lock, with the log's next
    /// LSN as the queue's mark). Replaces a snapshot left unfinished.
    pub fn begin_snapshot(&mut self) {
        self.snapshot = Some(Snapshot {
            limit: self.next_seq,
            lane: 0,
            from_seq: 0,
            saved: HashMap::new(),
        });
    }

    /// Drops an unfinished snapshot (a checkpoint that failed).
    pub fn abandon_snapshot(&mut self) {
        self.snapshot = None;
    }

    /// Reports up to `max` more slots of the snapshot to `f`; true when it is complete (the
    /// saved pre-images reported, the snapshot ended).
    pub fn snapshot_chunk(&mut self, max: usize, f: &mut impl FnMut(Image)) -> bool {
        let Some(mut snap) = self.snapshot.take() else {
            return true;
        };
        let mut left = max;
        while snap.lane < self.lanes.len() && left > 0 {
            let lane = &self.lanes[snap.lane];
            let start = lane.slots.partition_point(|s| s.seq < snap.from_seq);
            let mut next = None;
            for s in lane.slots.range(start..) {
                if s.seq >= snap.limit {
                    break;
                }
                if left == 0 {
                    next = Some(s.seq);
                    break;
                }
                left -= 1;
                if !snap.saved.contains_key(&s.seq) {
                    if let Some(image) = self.image_of(s.seq, s.state.get(), s.expires_at, &s.body)
                    {
                        f(image);
                    }
                }
            }
            match next {
                Some(seq) => snap.from_seq = seq,
                None => {
                    snap.lane += 1;
                    snap.from_seq = 0;
                }
            }
        }
        if snap.lane < self.lanes.len() {
            self.snapshot = Some(snap);
            return false;
        }
        for image in snap.saved.into_values().flatten() {
            f(image);
        }
        true
    }

    /// Saves the slot at `pos` as it is before a change, if a snapshot has not scanned it yet.
    pub(super) fn preserve(&mut self, pos: Pos) {
        let Some(snap) = &self.snapshot else {
            return;
        };
        if !snap.unscanned(pos) || snap.saved.contains_key(&pos.seq) {
            return;
        }
        let image = self.slot(pos).and_then(|s| {
            (s.state != SlotState::Gone)
                .then(|| self.image_of(s.seq, s.state.get(), s.expires_at, &s.body))
                .flatten()
        });
        if let Some(snap) = &mut self.snapshot {
            debug_assert!(pos.seq < snap.limit);
            snap.saved.insert(pos.seq, image);
        }
    }

    /// Saves every slot the scan has not reached (before messages move between lanes).
    pub(super) fn preserve_all(&mut self) {
        if self.snapshot.is_none() {
            return;
        }
        let all: Vec<Pos> = self
            .lanes
            .iter()
            .enumerate()
            .flat_map(|(l, lane)| {
                lane.slots.iter().map(move |s| Pos {
                    lane: l as u8,
                    seq: s.seq,
                })
            })
            .collect();
        for pos in all {
            self.preserve(pos);
        }
        // Everything is saved: the scan has nothing left to visit in the lanes.
        if let Some(snap) = &mut self.snapshot {
            snap.lane = self.lanes.len();
        }
    }

    /// The image a checkpoint records for a slot, if its message is logged. A slot held for a
    /// read back from the log is available as far as the log knows.
    fn image_of(&self, seq: u64, state: SlotState, expires_at: u64, body: &Body) -> Option<Image> {
        let state = match state {
            SlotState::GotPending(READING) => SlotState::Available,
            SlotState::Gone => return None,
            s => s,
        };
        let entry = match body {
            Body::Mem {
                key,
                disk: Some(at),
            } => OnDisk::of(&self.mem[*key as usize], *at),
            Body::Disk(d) => d.on_disk(
                self.disk_correls
                    .get(&seq)
                    .copied()
                    .unwrap_or(CorrelId::NONE),
            ),
            Body::Mem { .. } | Body::Spilled(_) | Body::Gone => return None,
        };
        Some((seq, state, expires_at, entry))
    }
}
