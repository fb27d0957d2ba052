//! Property tests: random sequences of MQI operations on one queue, by one or two sessions, run
//! against the engine and against a plain `Vec`-based reference model. After every step the
//! engine's answer must equal the model's prediction; at the end both queues (the queue and its
//! backout or dead-letter queue) are drained and compared in full.
//!
//! The model's rules, in brief:
//! - delivery order is (priority high to low, then put order), or put order alone for FIFO;
//! - a message is visible when it is committed, not got in an open unit of work, and not expired;
//! - a get in syncpoint hides the message until commit (removed) or backout (restored in place
//!   with backout count + 1, or moved to BOQNAME / the dead-letter queue at BOTHRESH, or dropped
//!   if it expired meanwhile);
//! - a put in syncpoint is invisible until commit, gone on backout;
//! - MAXDEPTH counts every message held except visible-but-expired ones (the engine sweeps those
//!   when the queue is full);
//! - browse-next returns the first visible message after the cursor in delivery order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ferry_core::{
    object_name, BrowseMode, ConnectOptions, CorrelId, DeliverySequence, GetOptions, Got, Hobj,
    LocalQueueAttrs, Message, MqError, MsgId, OpenOptions, Priority, PutOptions, QmConfig,
    QueueDefinition, QueueManager, Reason, Session,
};
use ferry_model::clock::Clock;
use ferry_model::objects::QueueManagerAttrs;
use proptest::prelude::*;

const QUEUE: &str = "MODEL.Q";
const BOQ: &str = "MODEL.BOQ";
const DLQ: &str = ferry_model::system::DEAD_LETTER_QUEUE;

// ----- operations --------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
enum Sel {
    Any,
    /// 0 is "no correl id"; 1-3 are ids.
    Correl(u8),
    /// Index (modulo) into the msg ids of every message put so far.
    MsgId(usize),
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Put {
        s: usize,
        prio: u8,
        correl: u8,
        sync: bool,
        expiry: Option<u64>,
    },
    Get {
        s: usize,
        sel: Sel,
        sync: bool,
    },
    /// A get with a 4-byte buffer, not accepting truncation (bodies are 8 bytes).
    GetTooSmall {
        s: usize,
    },
    BrowseFirst {
        s: usize,
    },
    BrowseNext {
        s: usize,
    },
    Commit {
        s: usize,
    },
    Backout {
        s: usize,
    },
    Advance {
        nanos: u64,
    },
}

#[derive(Debug, Clone)]
struct Case {
    fifo: bool,
    max_depth: usize,
    backout_threshold: u32,
    /// BOQNAME blank: poison messages go to the dead-letter queue.
    use_dlq: bool,
    ops: Vec<Op>,
    /// How each session ends its last unit of work: commit (true) or backout.
    end_commit: [bool; 2],
}

fn sel_strategy() -> impl Strategy<Value = Sel> {
    prop_oneof![
        3 => Just(Sel::Any),
        2 => (0u8..=3).prop_map(Sel::Correl),
        2 => any::<usize>().prop_map(Sel::MsgId),
    ]
}

fn op_strategy(sessions: usize) -> impl Strategy<Value = Op> {
    let s = 0..sessions;
    prop_oneof![
        6 => (s.clone(), 0u8..=9, 0u8..=3, any::<bool>(), prop_oneof![3 => Just(None), 1 => (1u64..=40).prop_map(Some)])
            .prop_map(|(s, prio, correl, sync, expiry)| Op::Put { s, prio, correl, sync, expiry }),
        5 => (s.clone(), sel_strategy(), any::<bool>()).prop_map(|(s, sel, sync)| Op::Get { s, sel, sync }),
        1 => s.clone().prop_map(|s| Op::GetTooSmall { s }),
        1 => s.clone().prop_map(|s| Op::BrowseFirst { s }),
        2 => s.clone().prop_map(|s| Op::BrowseNext { s }),
        2 => s.clone().prop_map(|s| Op::Commit { s }),
        2 => s.clone().prop_map(|s| Op::Backout { s }),
        1 => (1u64..=15).prop_map(|nanos| Op::Advance { nanos }),
    ]
}

fn case_strategy(sessions: usize) -> impl Strategy<Value = Case> {
    (
        any::<bool>(),
        3usize..=12,
        0u32..=3,
        any::<bool>(),
        prop::collection::vec(op_strategy(sessions), 1..80),
        any::<[bool; 2]>(),
    )
        .prop_map(
            |(fifo, max_depth, backout_threshold, use_dlq, ops, end_commit)| Case {
                fifo,
                max_depth,
                backout_threshold,
                use_dlq,
                ops,
                end_commit,
            },
        )
}

// ----- what a step returns -----------------------------------------------------------------------

/// The parts of a got message the model predicts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    tag: u64,
    prio: u8,
    correl: u8,
    msg_id: MsgId,
    backout_count: u32,
    /// Expiry left, in clock nanoseconds.
    expiry_left: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Done,
    Put(MsgId),
    Msg(Seen),
    Fail(Reason, usize),
}

fn correl_id(k: u8) -> CorrelId {
    if k == 0 {
        CorrelId::NONE
    } else {
        CorrelId::from_slice(&[b'C', k])
    }
}

fn correl_key(id: CorrelId) -> u8 {
    if id.is_none() {
        0
    } else {
        assert_eq!(id.0[0], b'C', "unexpected correl id {id:?}");
        id.0[1]
    }
}

fn seen(g: &Got) -> Seen {
    let d = &g.message.descriptor;
    let body: [u8; 8] = g.message.body.as_ref().try_into().expect("8-byte body");
    Seen {
        tag: u64::from_le_bytes(body),
        prio: match d.priority {
            Priority::Value(p) => p,
            Priority::AsQueueDef => panic!("a got message has a resolved priority"),
        },
        correl: correl_key(d.correl_id),
        msg_id: d.msg_id,
        backout_count: d.backout_count,
        expiry_left: d.expiry.map(|e| e.as_nanos() as u64),
    }
}

fn failed(e: MqError) -> Outcome {
    Outcome::Fail(e.reason, e.data_length)
}

// ----- the reference model -----------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Available,
    PutPending(usize),
    GotPending(usize),
}

#[derive(Debug, Clone)]
struct MMsg {
    tag: u64,
    seq: u64,
    prio: u8,
    correl: u8,
    msg_id: MsgId,
    expires_at: u64,
    state: State,
    backout_count: u32,
}

#[derive(Debug)]
struct Model {
    fifo: bool,
    max_depth: usize,
    backout_threshold: u32,
    now: u64,
    next_seq: u64,
    /// Messages on the queue, in put order.
    msgs: Vec<MMsg>,
    /// Per session: sequence numbers of the messages in its unit of work, in order.
    uows: Vec<Vec<u64>>,
    /// Per session: the browse cursor as a delivery-order key.
    cursors: Vec<Option<(u8, u64)>>,
    /// Messages moved to the backout (or dead-letter) queue, `seq` = arrival order there.
    moved: Vec<MMsg>,
    /// Msg ids of every message put, for gets by msg id.
    history: Vec<MsgId>,
}

impl Model {
    fn new(case: &Case, sessions: usize) -> Self {
        Model {
            fifo: case.fifo,
            max_depth: case.max_depth,
            backout_threshold: case.backout_threshold,
            now: 1, // Clock::manual() starts at 1
            next_seq: 0,
            msgs: Vec::new(),
            uows: vec![Vec::new(); sessions],
            cursors: vec![None; sessions],
            moved: Vec::new(),
            history: Vec::new(),
        }
    }

    fn key(&self, m: &MMsg) -> (u8, u64) {
        (if self.fifo { 0 } else { 9 - m.prio }, m.seq)
    }

    fn expired(&self, m: &MMsg) -> bool {
        m.expires_at != 0 && m.expires_at <= self.now
    }

    fn visible(&self, m: &MMsg) -> bool {
        m.state == State::Available && !self.expired(m)
    }

    fn seen(&self, m: &MMsg) -> Seen {
        Seen {
            tag: m.tag,
            prio: m.prio,
            correl: m.correl,
            msg_id: m.msg_id,
            backout_count: m.backout_count,
            expiry_left: (m.expires_at != 0).then(|| m.expires_at - self.now),
        }
    }

    fn target_msg_id(&self, i: usize) -> MsgId {
        if self.history.is_empty() {
            MsgId::from_slice(b"none such")
        } else {
            self.history[i % self.history.len()]
        }
    }

    fn matches(&self, sel: Sel, m: &MMsg) -> bool {
        match sel {
            Sel::Any => true,
            Sel::Correl(k) => m.correl == k,
            Sel::MsgId(i) => m.msg_id == self.target_msg_id(i),
        }
    }

    /// Index of the first visible message matching `sel` whose key is after `after`.
    fn find(&self, sel: Sel, after: Option<(u8, u64)>) -> Option<usize> {
        (0..self.msgs.len())
            .filter(|&i| {
                let m = &self.msgs[i];
                self.visible(m) && self.matches(sel, m) && after.is_none_or(|c| self.key(m) > c)
            })
            .min_by_key(|&i| self.key(&self.msgs[i]))
    }

    fn index_of(&self, seq: u64) -> usize {
        self.msgs
            .iter()
            .position(|m| m.seq == seq)
            .expect("message of a unit of work is held")
    }

    fn apply(&mut self, op: Op, tag: u64, engine_msg_id: MsgId) -> Outcome {
        match op {
            Op::Put {
                s,
                prio,
                correl,
                sync,
                expiry,
            } => {
                let held = self
                    .msgs
                    .iter()
                    .filter(|m| !(m.state == State::Available && self.expired(m)))
                    .count();
                if held >= self.max_depth {
                    return Outcome::Fail(Reason::QFull, 0);
                }
                let seq = self.next_seq;
                self.next_seq += 1;
                self.msgs.push(MMsg {
                    tag,
                    seq,
                    prio,
                    correl,
                    msg_id: engine_msg_id,
                    expires_at: expiry.map_or(0, |e| self.now + e),
                    state: if sync {
                        State::PutPending(s)
                    } else {
                        State::Available
                    },
                    backout_count: 0,
                });
                if sync {
                    self.uows[s].push(seq);
                }
                self.history.push(engine_msg_id);
                Outcome::Put(engine_msg_id)
            }
            Op::Get { s, sel, sync } => {
                let Some(i) = self.find(sel, None) else {
                    return Outcome::Fail(Reason::NoMsgAvailable, 0);
                };
                let seen = self.seen(&self.msgs[i]);
                if sync {
                    self.msgs[i].state = State::GotPending(s);
                    let seq = self.msgs[i].seq;
                    self.uows[s].push(seq);
                } else {
                    self.msgs.remove(i);
                }
                Outcome::Msg(seen)
            }
            Op::GetTooSmall { .. } => match self.find(Sel::Any, None) {
                Some(_) => Outcome::Fail(Reason::TruncatedMsgFailed, 8),
                None => Outcome::Fail(Reason::NoMsgAvailable, 0),
            },
            Op::BrowseFirst { s } => self.browse(s, None),
            Op::BrowseNext { s } => self.browse(s, self.cursors[s]),
            Op::Commit { s } => {
                for seq in std::mem::take(&mut self.uows[s]) {
                    let i = self.index_of(seq);
                    match self.msgs[i].state {
                        State::PutPending(o) if o == s => self.msgs[i].state = State::Available,
                        State::GotPending(o) if o == s => {
                            self.msgs.remove(i);
                        }
                        other => panic!("model: seq {seq} of session {s} is {other:?}"),
                    }
                }
                Outcome::Done
            }
            Op::Backout { s } => {
                for seq in std::mem::take(&mut self.uows[s]) {
                    let i = self.index_of(seq);
                    match self.msgs[i].state {
                        State::PutPending(o) if o == s => {
                            self.msgs.remove(i);
                        }
                        State::GotPending(o) if o == s => {
                            if self.expired(&self.msgs[i]) {
                                self.msgs.remove(i);
                                continue;
                            }
                            self.msgs[i].backout_count += 1;
                            self.msgs[i].state = State::Available;
                            let t = self.backout_threshold;
                            if t > 0 && self.msgs[i].backout_count >= t {
                                let mut m = self.msgs.remove(i);
                                m.seq = self.moved.len() as u64;
                                self.moved.push(m);
                            }
                        }
                        other => panic!("model: seq {seq} of session {s} is {other:?}"),
                    }
                }
                Outcome::Done
            }
            Op::Advance { nanos } => {
                self.now += nanos;
                Outcome::Done
            }
        }
    }

    fn browse(&mut self, s: usize, after: Option<(u8, u64)>) -> Outcome {
        match self.find(Sel::Any, after) {
            Some(i) => {
                self.cursors[s] = Some(self.key(&self.msgs[i]));
                Outcome::Msg(self.seen(&self.msgs[i]))
            }
            None => Outcome::Fail(Reason::NoMsgAvailable, 0),
        }
    }

    fn uncommitted(&self) -> usize {
        self.msgs
            .iter()
            .filter(|m| m.state != State::Available)
            .count()
    }

    /// What draining the queue would return, in order.
    fn remaining(&self) -> Vec<Seen> {
        let mut v: Vec<&MMsg> = self.msgs.iter().filter(|m| self.visible(m)).collect();
        v.sort_by_key(|m| self.key(m));
        v.into_iter().map(|m| self.seen(m)).collect()
    }

    /// What draining the backout (or dead-letter) queue would return: a priority queue.
    fn moved_remaining(&self) -> Vec<Seen> {
        let mut v: Vec<&MMsg> = self.moved.iter().filter(|m| !self.expired(m)).collect();
        v.sort_by_key(|m| (9 - m.prio, m.seq));
        v.into_iter().map(|m| self.seen(m)).collect()
    }
}

// ----- the engine side ---------------------------------------------------------------------------

struct Engine {
    qm: QueueManager,
    clock: Arc<AtomicU64>,
    sessions: Vec<Session>,
    handles: Vec<Hobj>,
}

impl Engine {
    fn new(case: &Case, sessions: usize) -> Self {
        let (clock, t) = Clock::manual();
        let qm = QueueManager::new(QmConfig {
            attrs: QueueManagerAttrs::new(object_name("MODELQM").unwrap()),
            clock,
            dev_queues: false,
            memory_budget: usize::MAX,
            owner: "ferry".into(),
            wait: Default::default(),
        })
        .unwrap();
        qm.define_queue(
            BOQ,
            QueueDefinition::Local(LocalQueueAttrs::default()),
            false,
        )
        .unwrap();
        let attrs = LocalQueueAttrs {
            max_depth: case.max_depth,
            delivery_sequence: if case.fifo {
                DeliverySequence::Fifo
            } else {
                DeliverySequence::Priority
            },
            backout_threshold: case.backout_threshold,
            backout_requeue_name: if case.use_dlq {
                Default::default()
            } else {
                object_name(BOQ).unwrap()
            },
            ..LocalQueueAttrs::default()
        };
        qm.define_queue(QUEUE, QueueDefinition::Local(attrs), false)
            .unwrap();
        let mut ss = Vec::new();
        let mut hs = Vec::new();
        for i in 0..sessions {
            let mut s = qm
                .connect(&ConnectOptions::app(&format!("model-{i}")))
                .unwrap();
            let od = ferry_model::options::queue(QUEUE).unwrap();
            hs.push(
                s.open(&od, OpenOptions::input().with_output().with_browse())
                    .unwrap(),
            );
            ss.push(s);
        }
        Engine {
            qm,
            clock: t,
            sessions: ss,
            handles: hs,
        }
    }

    fn get(&mut self, s: usize, opts: &GetOptions) -> Outcome {
        match self.sessions[s].get(self.handles[s], opts) {
            Ok(g) => Outcome::Msg(seen(&g)),
            Err(e) => failed(e),
        }
    }

    fn apply(&mut self, op: Op, tag: u64, history: &[MsgId]) -> Outcome {
        match op {
            Op::Put {
                s,
                prio,
                correl,
                sync,
                expiry,
            } => {
                let mut m = Message::new(tag.to_le_bytes().to_vec())
                    .with_priority(prio)
                    .with_correl_id(correl_id(correl));
                if let Some(e) = expiry {
                    m = m.with_expiry(Duration::from_nanos(e));
                }
                let opts = if sync {
                    PutOptions::syncpoint()
                } else {
                    PutOptions::default()
                };
                match self.sessions[s].put(self.handles[s], m, &opts) {
                    Ok(out) => {
                        assert_eq!(out.priority, prio);
                        assert_eq!(out.warning, None);
                        Outcome::Put(out.msg_id)
                    }
                    Err(e) => failed(e),
                }
            }
            Op::Get { s, sel, sync } => {
                let mut opts = GetOptions::new();
                match sel {
                    Sel::Any => {}
                    Sel::Correl(k) => opts = opts.correl_id(correl_id(k)),
                    Sel::MsgId(i) => {
                        let id = if history.is_empty() {
                            MsgId::from_slice(b"none such")
                        } else {
                            history[i % history.len()]
                        };
                        opts = opts.msg_id(id);
                    }
                }
                if sync {
                    opts = opts.syncpoint();
                }
                self.get(s, &opts)
            }
            Op::GetTooSmall { s } => self.get(s, &GetOptions::new().max_len(4, false)),
            Op::BrowseFirst { s } => self.get(s, &GetOptions::new().browse(BrowseMode::First)),
            Op::BrowseNext { s } => self.get(s, &GetOptions::new().browse(BrowseMode::Next)),
            Op::Commit { s } => {
                self.sessions[s].commit().unwrap();
                Outcome::Done
            }
            Op::Backout { s } => {
                self.sessions[s].backout().unwrap();
                Outcome::Done
            }
            Op::Advance { nanos } => {
                self.clock.fetch_add(nanos, Ordering::Relaxed);
                Outcome::Done
            }
        }
    }

    /// Drains `queue` through a new handle on session 0, checking dead-letter headers.
    fn drain(&mut self, queue: &str, dead_letters: bool) -> Vec<Seen> {
        let s = &mut self.sessions[0];
        let h = s
            .open(
                &ferry_model::options::queue(queue).unwrap(),
                OpenOptions::input(),
            )
            .unwrap();
        let mut out = Vec::new();
        loop {
            match s.get(h, &GetOptions::new()) {
                Ok(g) => {
                    if dead_letters {
                        let dlh = g
                            .message
                            .dead_letter
                            .as_deref()
                            .expect("dead-letter header");
                        assert_eq!(dlh.reason, Reason::BackoutThresholdReached);
                        assert_eq!(dlh.dest_queue.as_str(), QUEUE);
                    } else {
                        assert!(g.message.dead_letter.is_none());
                    }
                    out.push(seen(&g));
                }
                Err(e) => {
                    assert_eq!(e.reason, Reason::NoMsgAvailable, "{e}");
                    break;
                }
            }
            assert!(out.len() <= 1000, "drain of {queue} never ends");
        }
        s.close(h, Default::default()).unwrap();
        out
    }
}

// ----- the property ------------------------------------------------------------------------------

fn run(case: Case, sessions: usize) -> Result<(), TestCaseError> {
    let mut model = Model::new(&case, sessions);
    let mut engine = Engine::new(&case, sessions);
    for (step, op) in case.ops.iter().enumerate() {
        let tag = step as u64;
        let got = engine.apply(*op, tag, &model.history);
        let msg_id = match &got {
            Outcome::Put(id) => *id,
            _ => MsgId::NONE,
        };
        let want = model.apply(*op, tag, msg_id);
        prop_assert_eq!(&got, &want, "step {} {:?}", step, op);
        let status = engine.qm.queue_status(QUEUE).unwrap();
        prop_assert_eq!(
            status.uncommitted,
            model.uncommitted(),
            "uncommitted after step {} {:?}",
            step,
            op
        );
        for s in 0..sessions {
            prop_assert_eq!(
                engine.sessions[s].uow_len(),
                model.uows[s].len(),
                "uow of session {} after step {}",
                s,
                step
            );
        }
    }
    for s in 0..sessions {
        let op = if case.end_commit[s] {
            Op::Commit { s }
        } else {
            Op::Backout { s }
        };
        engine.apply(op, 0, &model.history);
        model.apply(op, 0, MsgId::NONE);
    }
    prop_assert_eq!(engine.qm.queue_status(QUEUE).unwrap().uncommitted, 0);
    let want = model.remaining();
    let got = engine.drain(QUEUE, false);
    prop_assert_eq!(got, want, "contents of {}", QUEUE);
    let moved_to = if case.use_dlq { DLQ } else { BOQ };
    let want = model.moved_remaining();
    let got = engine.drain(moved_to, case.use_dlq);
    prop_assert_eq!(got, want, "contents of {}", moved_to);
    for q in [QUEUE, BOQ, DLQ] {
        prop_assert_eq!(
            engine.qm.queue_status(q).unwrap().depth,
            0,
            "depth of {} after draining",
            q
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn one_session_matches_the_model(case in case_strategy(1)) {
        run(case, 1)?;
    }

    #[test]
    fn two_sessions_match_the_model(case in case_strategy(2)) {
        run(case, 2)?;
    }
}

/// A hand-written sequence through the same harness, so the harness itself is known to compare
/// what it should (a model that agreed with anything would make the properties worthless).
#[test]
fn harness_detects_a_wrong_prediction() {
    let case = Case {
        fifo: false,
        max_depth: 5,
        backout_threshold: 2,
        use_dlq: false,
        ops: vec![
            Op::Put {
                s: 0,
                prio: 1,
                correl: 0,
                sync: false,
                expiry: None,
            },
            Op::Put {
                s: 0,
                prio: 5,
                correl: 1,
                sync: false,
                expiry: Some(10),
            },
            Op::Get {
                s: 0,
                sel: Sel::Any,
                sync: true,
            },
            Op::Backout { s: 0 },
            Op::Get {
                s: 0,
                sel: Sel::Correl(1),
                sync: true,
            },
            Op::Backout { s: 0 },
        ],
        end_commit: [true, true],
    };
    run(case.clone(), 1).unwrap();
    // The message with priority 5 went to the backout queue after two backouts; a model that
    // thought priority order was put order would disagree at the first get.
    let mut engine = Engine::new(&case, 1);
    let mut model = Model::new(
        &Case {
            fifo: true,
            ..case.clone()
        },
        1,
    );
    let mut history = Vec::new();
    let mut disagreed = false;
    for (step, op) in case.ops.iter().enumerate() {
        let got = engine.apply(*op, step as u64, &history);
        let id = match &got {
            Outcome::Put(id) => *id,
            _ => MsgId::NONE,
        };
        if id != MsgId::NONE {
            history.push(id);
        }
        disagreed |= got != model.apply(*op, step as u64, id);
    }
    assert!(disagreed);
}
