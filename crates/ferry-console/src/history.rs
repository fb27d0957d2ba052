//! The history the charts draw: every `sample_every`, the queue manager's totals and each
//! local queue's depth and messages put and got since the last sample.
//!
//! Layout: one ring of sample times and totals; per queue, a ring of [`QSample`] aligned with
//! the times from the newest end (a queue's ring may be shorter: it starts when the queue
//! first shows any activity, so idle queues cost one counter pair each, not a ring).
//!
//! Bounds: `history_len` samples in every ring; rings for at most `history_queues` queues
//! (12 bytes a sample: 10,000 busy queues × 180 samples ≈ 21 MB). A queue deleted loses its
//! ring at the next sample.

use std::collections::{HashMap, VecDeque};

use ferry_core::{ObjectName, QueueManager};
use parking_lot::Mutex;

/// One sample of one queue.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct QSample {
    pub(crate) depth: u32,
    pub(crate) puts: u32,
    pub(crate) gets: u32,
}

/// One sample of the whole queue manager.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Totals {
    /// Wall time, ms since the epoch.
    pub(crate) t_ms: i64,
    /// Seconds since the sample before (0 for the first).
    pub(crate) secs: f64,
    pub(crate) depth: u64,
    pub(crate) puts: u64,
    pub(crate) gets: u64,
    pub(crate) connections: u32,
    pub(crate) auth_failures: u64,
}

struct Tracked {
    puts: u64,
    gets: u64,
    ring: Option<VecDeque<QSample>>,
}

struct State {
    times: VecDeque<Totals>,
    queues: HashMap<ObjectName, Tracked>,
    /// Channels by name: messages moved (all instances) as `puts`.
    channels: HashMap<ObjectName, Tracked>,
    rings: usize,
    last_failures: u64,
}

impl State {
    /// Recounts the rings held (after objects went away).
    fn count_rings(&mut self) {
        self.rings = self
            .queues
            .values()
            .chain(self.channels.values())
            .filter(|t| t.ring.is_some())
            .count();
    }
}

/// The rings.
pub(crate) struct History {
    state: Mutex<State>,
    len: usize,
    max_rings: usize,
}

impl History {
    pub(crate) fn new(len: usize, max_rings: usize) -> History {
        History {
            state: Mutex::new(State {
                times: VecDeque::new(),
                queues: HashMap::new(),
                channels: HashMap::new(),
                rings: 0,
                last_failures: 0,
            }),
            len: len.max(2),
            max_rings,
        }
    }

    /// Takes one sample of `qm`.
    pub(crate) fn sample(&self, qm: &QueueManager) {
        let now = ferry_core::model::clock::unix_ms(std::time::SystemTime::now());
        let counters = qm.queue_counters();
        let c = qm.security_counters();
        let failures = c
            .authority_failures
            .load(std::sync::atomic::Ordering::Relaxed)
            + c.authentication_failures
                .load(std::sync::atomic::Ordering::Relaxed);
        let mut st = self.state.lock();
        let mut totals = Totals {
            t_ms: now,
            secs: st
                .times
                .back()
                .map_or(0.0, |t| (now - t.t_ms).max(0) as f64 / 1000.0),
            connections: qm.connections().len() as u32,
            auth_failures: failures.saturating_sub(st.last_failures),
            ..Totals::default()
        };
        st.last_failures = failures;
        let first = st.times.is_empty();
        let mut seen = std::collections::HashSet::with_capacity(counters.len());
        for c in &counters {
            seen.insert(c.0);
            let q = self.note_queue(&mut st, c, first);
            totals.depth += u64::from(q.depth);
            totals.puts += u64::from(q.puts);
            totals.gets += u64::from(q.gets);
        }
        let before = st.queues.len();
        st.queues.retain(|n, _| seen.contains(n));
        if st.queues.len() != before {
            st.count_rings();
        }
        self.note_channels(&mut st, qm, first);
        push(&mut st.times, totals, self.len);
        debug_assert!(st.rings <= self.max_rings);
    }

    /// Records one queue's status; what it adds to the totals.
    fn note_queue(
        &self,
        st: &mut State,
        c: &(ObjectName, usize, u64, u64),
        first: bool,
    ) -> QSample {
        let State { queues, rings, .. } = st;
        self.note(queues, rings, c, first)
    }

    /// Each channel's messages moved since the sample before (its instances together).
    fn note_channels(&self, st: &mut State, qm: &QueueManager, first: bool) {
        let mut moved: HashMap<ObjectName, u64> = HashMap::new();
        for (name, status) in qm.channel_statuses() {
            *moved.entry(name).or_default() += status.msgs;
        }
        let State {
            channels, rings, ..
        } = st;
        for (&name, &msgs) in &moved {
            self.note(channels, rings, &(name, 0, msgs, 0), first);
        }
        let before = channels.len();
        channels.retain(|n, _| moved.contains_key(n));
        if channels.len() != before {
            st.count_rings();
        }
    }

    /// Records one object's counters in `map` (a ring once it shows activity, while rings are
    /// left); the sample.
    fn note(
        &self,
        map: &mut HashMap<ObjectName, Tracked>,
        rings: &mut usize,
        c: &(ObjectName, usize, u64, u64),
        first: bool,
    ) -> QSample {
        let &(name, depth, puts, gets) = c;
        let t = map.entry(name).or_insert(Tracked {
            puts,
            gets,
            ring: None,
        });
        let sample = QSample {
            depth: depth.min(u32::MAX as usize) as u32,
            puts: puts.saturating_sub(t.puts).min(u32::MAX as u64) as u32,
            gets: gets.saturating_sub(t.gets).min(u32::MAX as u64) as u32,
        };
        (t.puts, t.gets) = (puts, gets);
        let active = sample != QSample::default() && !first;
        if t.ring.is_none() && (active || sample.depth > 0) && *rings < self.max_rings {
            t.ring = Some(VecDeque::with_capacity(self.len));
            *rings += 1;
        }
        if let Some(r) = t.ring.as_mut() {
            push(r, sample, self.len);
        }
        sample
    }

    /// The totals, oldest first.
    pub(crate) fn totals(&self) -> Vec<Totals> {
        self.state.lock().times.iter().copied().collect()
    }

    /// One queue's samples with their times, oldest first (empty when it has no ring).
    pub(crate) fn queue(&self, name: &ObjectName) -> Vec<(Totals, QSample)> {
        self.ring_of(name, false)
    }

    /// One channel's samples (messages moved as `puts`), oldest first.
    pub(crate) fn channel(&self, name: &ObjectName) -> Vec<(Totals, QSample)> {
        self.ring_of(name, true)
    }

    fn ring_of(&self, name: &ObjectName, channel: bool) -> Vec<(Totals, QSample)> {
        let st = self.state.lock();
        let map = if channel { &st.channels } else { &st.queues };
        let Some(ring) = map.get(name).and_then(|t| t.ring.as_ref()) else {
            return Vec::new();
        };
        let skip = st.times.len().saturating_sub(ring.len());
        st.times
            .iter()
            .skip(skip)
            .copied()
            .zip(ring.iter().copied())
            .collect()
    }

    /// Each queue's newest sample and its depth `back` samples before (for rates and growth).
    pub(crate) fn latest(&self, back: usize) -> (f64, HashMap<ObjectName, (QSample, u32)>) {
        let st = self.state.lock();
        let secs = st.times.back().map_or(0.0, |t| t.secs);
        let map = st
            .queues
            .iter()
            .filter_map(|(n, t)| {
                let r = t.ring.as_ref()?;
                let last = *r.back()?;
                let earlier = r
                    .get(r.len().saturating_sub(back + 1))
                    .map_or(0, |s| s.depth);
                Some((*n, (last, earlier)))
            })
            .collect();
        (secs, map)
    }
}

fn push<T>(ring: &mut VecDeque<T>, v: T, len: usize) {
    if ring.len() >= len {
        ring.pop_front();
    }
    ring.push_back(v);
    debug_assert!(ring.len() <= len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_follow_activity_and_stay_bounded() {
        let qm = QueueManager::new(ferry_core::QmConfig::new("QM1").unwrap()).unwrap();
        let h = History::new(3, 10);
        h.sample(&qm);
        let name = ferry_core::object_name("DEV.QUEUE.1").unwrap();
        assert!(h.queue(&name).is_empty(), "an idle queue has no ring");
        let mut s = qm.connect(&ferry_core::ConnectOptions::app("t")).unwrap();
        for _ in 0..5 {
            let od = ferry_core::ObjectDescriptor::queue(name);
            s.put1(&od, ferry_core::Message::new("x"), &Default::default())
                .unwrap();
        }
        h.sample(&qm);
        h.sample(&qm);
        let q = h.queue(&name);
        assert_eq!(q.len(), 2, "the ring starts at the first activity");
        assert_eq!(q.iter().map(|(_, s)| s.puts).sum::<u32>(), 5);
        h.sample(&qm);
        h.sample(&qm);
        let q = h.queue(&name);
        assert_eq!(q.len(), 3, "bounded to history_len");
        assert_eq!(q[2].1.depth, 5);
        assert_eq!(h.totals().len(), 3);
    }
}
