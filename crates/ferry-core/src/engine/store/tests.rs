//! The store's unit tests.

use super::*;
use ferry_model::message::Priority;

fn msg(prio: u8, correl: u8) -> Message {
    let mut m = Message::new(vec![prio, correl]);
    m.descriptor.priority = Priority::Value(prio);
    if correl != 0 {
        m.descriptor.correl_id = CorrelId::from_slice(&[correl]);
    }
    m
}

fn put(s: &mut Store, prio: u8, correl: u8) -> Pos {
    let seq = s.next_seq();
    s.insert(seq, msg(prio, correl), None, 0, SlotState::Available)
}

#[test]
fn priority_then_fifo_order() {
    let mut s = Store::new(false);
    let a = put(&mut s, 1, 0);
    let b = put(&mut s, 5, 0);
    let c = put(&mut s, 1, 0);
    assert_eq!(s.find(&Match::ANY, 0), Some(b));
    s.remove(b);
    assert_eq!(s.find(&Match::ANY, 0), Some(a));
    s.remove(a);
    assert_eq!(s.find(&Match::ANY, 0), Some(c));
}

#[test]
fn slots_are_found_with_and_without_dense_seqs() {
    // Two priorities interleave seqs in each lane (no lane is dense), then removals in the
    // middle and a compaction leave gaps: every live slot must still be found, and a
    // removed one must not be.
    let mut s = Store::new(false);
    let all: Vec<Pos> = (0..200u8).map(|i| put(&mut s, i % 2, 0)).collect();
    for p in all.iter().step_by(3) {
        s.remove(*p);
    }
    for (i, p) in all.iter().enumerate() {
        assert_eq!(s.peek(*p).is_some(), i % 3 != 0, "slot {i}");
    }
    // One priority: dense (found by subtraction) until removals compact the lane, then the
    // slots past the gap are found by the search.
    let mut s = Store::new(false);
    let all: Vec<Pos> = (0..200).map(|_| put(&mut s, 0, 0)).collect();
    assert!(all.iter().all(|p| s.peek(*p).is_some()));
    for p in &all[50..160] {
        s.remove(*p);
    }
    for (i, p) in all.iter().enumerate() {
        assert_eq!(s.peek(*p).is_some(), !(50..160).contains(&i), "slot {i}");
    }
    assert_eq!(s.find(&Match::ANY, 0), Some(all[0]));
    s.remove(all[0]);
    assert_eq!(s.find(&Match::ANY, 0), Some(all[1]));
}

#[test]
fn fifo_lane_ignores_priority() {
    let mut s = Store::new(true);
    let a = put(&mut s, 1, 0);
    put(&mut s, 9, 0);
    assert_eq!(s.find(&Match::ANY, 0), Some(a));
}

#[test]
fn get_by_correl_id_skips_older_messages() {
    let mut s = Store::new(false);
    put(&mut s, 0, 1);
    let b = put(&mut s, 0, 2);
    let m = Match {
        non_persistent_only: false,
        correl_id: Some(CorrelId::from_slice(&[2])),
        msg_id: None,
    };
    assert_eq!(s.find(&m, 0), Some(b));
    s.remove(b);
    assert_eq!(s.find(&m, 0), None);
    assert_eq!(s.depth(), 1);
}

#[test]
fn the_correl_index_is_built_at_the_first_match_by_correl_id_and_kept_after() {
    let mut s = Store::new(false);
    let by = |c: u8| Match {
        non_persistent_only: false,
        correl_id: Some(CorrelId::from_slice(&[c])),
        msg_id: None,
    };
    let first = put(&mut s, 0, 3);
    let other = put(&mut s, 0, 4);
    assert!(s.correl_index.is_none(), "not built while nobody asks");
    s.remove(first);
    assert_eq!(s.find(&by(3), 0), None);
    assert!(s.correl_index.is_some());
    s.check_invariants();
    let later = put(&mut s, 5, 3);
    let last = put(&mut s, 0, 3);
    s.check_invariants();
    assert_eq!(s.find(&by(3), 0), Some(later), "higher priority first");
    s.remove(later);
    assert_eq!(s.find(&by(3), 0), Some(last));
    assert_eq!(s.find(&by(4), 0), Some(other));
}

#[test]
fn pending_get_keeps_position_for_backout() {
    let mut s = Store::new(false);
    let a = put(&mut s, 0, 0);
    let b = put(&mut s, 0, 0);
    s.set_state(a, SlotState::GotPending(7));
    assert_eq!(s.find(&Match::ANY, 0), Some(b));
    s.set_state(a, SlotState::Available);
    assert_eq!(s.find(&Match::ANY, 0), Some(a));
    assert_eq!(s.depth(), 2);
}

#[test]
fn expired_messages_are_discarded_when_found() {
    let mut s = Store::new(false);
    let seq = s.next_seq();
    s.insert(seq, msg(0, 0), None, 100, SlotState::Available);
    let b = put(&mut s, 0, 0);
    assert_eq!(s.find(&Match::ANY, 150), Some(b));
    assert_eq!(s.depth(), 1);
    assert_eq!(s.expired_total, 1);
}

#[test]
fn reinsert_of_older_seq_keeps_order() {
    let mut s = Store::new(false);
    let old = s.next_seq();
    let b = put(&mut s, 0, 0);
    let a = s.insert(old, msg(0, 0), None, 0, SlotState::Available);
    assert_eq!(s.find(&Match::ANY, 0), Some(a));
    s.remove(a);
    assert_eq!(s.find(&Match::ANY, 0), Some(b));
}

#[test]
fn messages_held_at_the_front_are_skipped_and_found_again_when_released() {
    let mut s = Store::new(false);
    let held: Vec<Pos> = (0..500).map(|_| put(&mut s, 0, 0)).collect();
    for p in &held {
        s.set_state(*p, SlotState::GotPending(1));
    }
    let free = put(&mut s, 0, 0);
    assert_eq!(s.find(&Match::ANY, 0), Some(free));
    assert_eq!(
        s.find(&Match::ANY, 0),
        Some(free),
        "the search hint stays correct"
    );
    // Releasing a held message in the middle makes it the first again.
    s.set_state(held[250], SlotState::Available);
    assert_eq!(s.find(&Match::ANY, 0), Some(held[250]));
    let npo = Match {
        non_persistent_only: true,
        ..Match::ANY
    };
    assert_eq!(s.find(&npo, 0), Some(held[250]));
}

#[test]
fn tombstones_are_compacted() {
    let mut s = Store::new(false);
    let ps: Vec<_> = (0..1000)
        .map(|i| put(&mut s, 0, (i % 200) as u8 + 1))
        .collect();
    for p in ps.iter().skip(1).step_by(2) {
        s.remove(*p);
    }
    assert_eq!(s.depth(), 500);
    assert!(s.lanes[0].slots.len() < 1000);
    assert_eq!(s.find(&Match::ANY, 0), Some(ps[0]));
}

// ----- checkpoint snapshots against a reference ---------------------------------------------

mod snapshots {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// What a test does to the store while a snapshot is read.
    #[derive(Debug, Clone)]
    enum Op {
        /// Read a chunk of this many slots.
        Chunk(usize),
        /// Put a logged (or, if false, not logged) message at this priority.
        Put(u8, bool),
        /// Change the n-th live slot's state.
        SetState(usize, u8),
        /// Remove the n-th live slot.
        Remove(usize),
        /// Raise the n-th live slot's backout count.
        Bump(usize),
        /// Put back the n-th removed message under its old sequence number.
        Restore(usize),
        /// Switch between priority lanes and one FIFO lane.
        Fifo(bool),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (1usize..40).prop_map(Op::Chunk),
            2 => (0u8..10, any::<bool>()).prop_map(|(p, l)| Op::Put(p, l)),
            3 => (0usize..64, 0u8..4).prop_map(|(i, s)| Op::SetState(i, s)),
            3 => (0usize..64).prop_map(Op::Remove),
            1 => (0usize..64).prop_map(Op::Bump),
            1 => (0usize..64).prop_map(Op::Restore),
            1 => any::<bool>().prop_map(Op::Fifo),
        ]
    }

    fn logged_put(s: &mut Store, prio: u8, logged: bool) -> (Pos, Message) {
        let seq = s.next_seq();
        let m = msg(prio, (seq % 3) as u8);
        let at = logged.then_some(RecordPos {
            extent: 1,
            offset: seq as u32 * 64,
            size: 64,
        });
        (
            s.insert(seq, m.clone(), at, seq % 5, SlotState::Available),
            m,
        )
    }

    fn state_of(n: u8) -> SlotState {
        match n {
            0 => SlotState::Available,
            1 => SlotState::PutPending(7),
            2 => SlotState::GotPending(9),
            _ => SlotState::GotPending(READING),
        }
    }

    /// Every logged message now, as a checkpoint should record it.
    fn images(s: &Store) -> BTreeMap<u64, Image> {
        let mut out = BTreeMap::new();
        s.for_each_logged(|seq, state, exp, d| {
            let state = if state == SlotState::GotPending(READING) {
                SlotState::Available
            } else {
                state
            };
            out.insert(seq, (seq, state, exp, *d));
        });
        out
    }

    /// The position a live slot has now (lanes change with FIFO).
    fn live(s: &Store) -> Vec<Pos> {
        let mut v = Vec::new();
        for st in [
            SlotState::Available,
            SlotState::PutPending(7),
            SlotState::GotPending(9),
            SlotState::GotPending(READING),
        ] {
            v.extend(s.positions_in_state(st));
        }
        v.sort_by_key(|p| p.seq);
        v
    }

    fn apply(s: &mut Store, op: &Op, removed: &mut Vec<(u64, Message)>, got: &mut Vec<Image>) {
        let pick = |s: &Store, i: usize| {
            let l = live(s);
            (!l.is_empty()).then(|| l[i % l.len()])
        };
        match *op {
            Op::Chunk(n) => {
                s.snapshot_chunk(n, &mut |img| got.push(img));
            }
            Op::Put(p, logged) => {
                logged_put(s, p, logged);
            }
            Op::SetState(i, st) => {
                if let Some(pos) = pick(s, i) {
                    s.set_state(pos, state_of(st));
                }
            }
            Op::Remove(i) => {
                if let Some(pos) = pick(s, i) {
                    if let Some(Held::Mem(m)) = s.remove(pos) {
                        removed.push((pos.seq, m));
                    }
                }
            }
            Op::Bump(i) => {
                if let Some(pos) = pick(s, i) {
                    s.bump_backout(pos);
                }
            }
            Op::Restore(i) => {
                if !removed.is_empty() {
                    let (seq, m) = removed.remove(i % removed.len());
                    let at = RecordPos {
                        extent: 2,
                        offset: seq as u32 * 64,
                        size: 64,
                    };
                    s.insert(seq, m, Some(at), 0, SlotState::Available);
                }
            }
            Op::Fifo(f) => s.set_fifo(f),
        }
    }

    proptest! {
        #[test]
        fn a_snapshot_reports_every_logged_message_as_it_was_when_it_began(
            prefill in proptest::collection::vec((0u8..10, any::<bool>(), 0u8..4), 0..60),
            ops in proptest::collection::vec(op(), 0..120),
        ) {
            let mut s = Store::new(false);
            for (p, logged, st) in &prefill {
                let (pos, _) = logged_put(&mut s, *p, *logged);
                s.set_state(pos, state_of(*st));
            }
            let want = images(&s);
            s.begin_snapshot();
            let (mut removed, mut got) = (Vec::new(), Vec::new());
            for op in &ops {
                apply(&mut s, op, &mut removed, &mut got);
            }
            while !s.snapshot_chunk(7, &mut |img| got.push(img)) {}
            s.check_invariants();
            let mut by_seq = BTreeMap::new();
            for img in got {
                prop_assert!(by_seq.insert(img.0, img).is_none(), "seq {} reported twice", img.0);
            }
            prop_assert_eq!(by_seq, want);
        }
    }
}

#[test]
fn in_memory_bodies_are_charged_to_the_budget_until_they_leave() {
    let budget = Arc::new(MemoryBudget::new(10 * MESSAGE_OVERHEAD));
    let mut s = Store::new(false);
    s.set_budget(budget.clone());
    let a = put(&mut s, 0, 1);
    let _b = put(&mut s, 0, 2);
    assert_eq!(budget.used(), 2 * cost(&msg(0, 1)));
    s.remove(a);
    assert_eq!(budget.used(), cost(&msg(0, 1)));
    // A logged message past the budget is kept only in the log.
    budget.set_limit(budget.used());
    let seq = s.next_seq();
    let at = RecordPos {
        extent: 1,
        offset: 0,
        size: 64,
    };
    s.insert(seq, msg(0, 3), Some(at), 0, SlotState::Available);
    assert_eq!(s.on_disk(), 1);
    drop(s);
    assert_eq!(budget.used(), 0, "a dropped store gives its bodies back");
}
