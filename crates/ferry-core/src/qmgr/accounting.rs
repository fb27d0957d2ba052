//! Accounting messages: MQ's MQI accounting (ACCTMQI, MQCMD_ACCOUNTING_MQI) and queue
//! accounting (ACCTQ, MQCMD_ACCOUNTING_Q) — what one connection did, as PCF messages (MQCFH
//! type MQCFT_ACCOUNTING, version 3, format MQADMIN) on SYSTEM.ADMIN.ACCOUNTING.QUEUE, in the
//! shapes amqsmon and pymqi read (docs/admin.md, "Accounting messages").
//!
//! Whether a connection accounts is settled when it connects (ACCTMQI ON, or ACCTQ ON), as
//! MQ's: later changes apply to later connections. Its counts live in its session (no shared
//! counter is touched); a record is written when it ends (DiscType normal, or implicit for one
//! that ended without MQDISC) and, for a long-running connection, at its first call after
//! ACCTINT seconds (an intermediate record; SeqNumber counts them from 0). Each record covers
//! the time since the previous one.

use std::collections::BTreeMap;
use std::time::SystemTime;

use ferry_model::message::Message;
use ferry_model::name::ObjectName;
use ferry_model::objects::Monitoring;
use ferry_model::pcf::{self, Param};

use crate::qmgr::apistats::{slot, ApiCall, OBJECT_TYPES};
use crate::qmgr::system::ACCOUNTING_QUEUE;
use crate::qmgr::QueueManager;

/// MQCMD_ACCOUNTING_MQI.
pub const CMD_ACCOUNTING_MQI: i32 = 167;
/// MQCMD_ACCOUNTING_Q.
pub const CMD_ACCOUNTING_Q: i32 = 168;
/// MQCFT_ACCOUNTING.
pub const CFT_ACCOUNTING: i32 = 22;
/// MQGACF_Q_ACCOUNTING_DATA.
pub const GACF_Q_ACCOUNTING_DATA: i32 = 8010;

/// Parameter ids beyond the statistics' (cmqcfc.h's numbers).
mod id {
    pub const CONNECTION_ID: i32 = 7006;
    pub const SEQUENCE_NUMBER: i32 = 1079;
    pub const APPL_NAME: i32 = 3024;
    pub const PROCESS_ID: i32 = 1024;
    pub const THREAD_ID: i32 = 1025;
    pub const USER_IDENTIFIER: i32 = 3025;
    pub const CONN_DATE: i32 = 2703;
    pub const CONN_TIME: i32 = 2704;
    pub const CONNECTION_NAME: i32 = 3506;
    pub const DISC_DATE: i32 = 2705;
    pub const DISC_TIME: i32 = 2706;
    pub const DISC_TYPE: i32 = 716;
    pub const OPEN_DATE: i32 = 2709;
    pub const OPEN_TIME: i32 = 2710;
    pub const CLOSE_DATE: i32 = 2701;
    pub const CLOSE_TIME: i32 = 2702;
    pub const PUT_MIN_BYTES: i32 = 737;
    pub const PUT_MAX_BYTES: i32 = 736;
    pub const GENERATED_MSGS: i32 = 721;
    pub const GET_MIN_BYTES: i32 = 724;
    pub const GET_MAX_BYTES: i32 = 723;
    pub const BROWSE_MIN_BYTES: i32 = 707;
    pub const BROWSE_MAX_BYTES: i32 = 706;
    pub const Q_TIME_MIN: i32 = 743;
    pub const Q_TIME_AVG: i32 = 741;
    pub const Q_TIME_MAX: i32 = 742;
}

/// One kind of message traffic on a queue (puts, gets or browses), by persistence.
#[derive(Debug, Clone, Copy, Default)]
struct Traffic {
    count: [u64; 2],
    bytes: [u64; 2],
    min: [u64; 2],
    max: [u64; 2],
    failed: u64,
}

impl Traffic {
    fn note(&mut self, persistent: bool, len: usize) {
        let (p, len) = (usize::from(persistent), len as u64);
        self.min[p] = if self.count[p] == 0 {
            len
        } else {
            self.min[p].min(len)
        };
        self.max[p] = self.max[p].max(len);
        self.count[p] += 1;
        self.bytes[p] += len;
    }
}

/// A connection's use of one queue in the record's interval.
#[derive(Debug, Clone)]
struct QueueUse {
    created: SystemTime,
    definition_type: i32,
    opens: u64,
    opened: Option<SystemTime>,
    closed: Option<SystemTime>,
    puts: Traffic,
    put1s: Traffic,
    gets: Traffic,
    browses: Traffic,
    /// Time on the queue of the messages got, µs: min, sum, max by persistence.
    waited: [[u64; 2]; 3],
}

/// What a connection accounts for.
#[derive(Debug)]
pub(crate) struct Accounting {
    mqi: bool,
    queues: Monitoring,
    interval_secs: u64,
    connected: SystemTime,
    start: SystemTime,
    seq: i32,
    calls_ok: [u64; 16],
    calls_failed: [u64; 16],
    slots: [u64; slot::SLOTS],
    used: BTreeMap<ObjectName, QueueUse>,
    /// For the record's identity: connection id, application, user, peer ("pid N" locally).
    conn_id: u64,
    app: String,
    user: String,
    peer: String,
}

impl Accounting {
    /// Accounting for a connection made now, when ACCTMQI or ACCTQ (ON) asks for it.
    pub(crate) fn for_connection(
        qm: &QueueManager,
        conn_id: u64,
        (app, user, peer): (&str, &str, &str),
    ) -> Option<Accounting> {
        let a = qm.shared.attrs.read();
        let (mqi, queues) = (a.accounting_mqi, a.accounting_queues);
        if !mqi && queues != Monitoring::On {
            return None;
        }
        let now = qm.shared.clock.wall();
        Some(Accounting {
            mqi,
            queues,
            interval_secs: u64::from(a.accounting_interval),
            connected: now,
            start: now,
            seq: 0,
            calls_ok: [0; 16],
            calls_failed: [0; 16],
            slots: [0; slot::SLOTS],
            used: BTreeMap::new(),
            conn_id,
            app: app.to_owned(),
            user: user.to_owned(),
            peer: peer.to_owned(),
        })
    }

    /// Counts a call.
    pub(crate) fn call(&mut self, call: ApiCall, ok: bool) {
        let at = if ok {
            &mut self.calls_ok
        } else {
            &mut self.calls_failed
        };
        at[call as usize] += 1;
    }

    /// Adds `n` to a STATMQI-shaped slot (opens by type, puts by persistence, ...).
    pub(crate) fn add(&mut self, at: usize, n: u64) {
        self.slots[at] += n;
    }

    fn queue(&mut self, qm: &QueueManager, name: &ObjectName) -> Option<&mut QueueUse> {
        if !self.used.contains_key(name) {
            let q = qm.local_queue(name).ok()?;
            let st = q.lock();
            if !Monitoring::collects(self.queues, st.attrs.accounting) {
                return None;
            }
            let definition_type = match st.attrs.definition_type {
                ferry_model::objects::DefinitionType::Predefined => 1,
                ferry_model::objects::DefinitionType::PermanentDynamic => 2,
                ferry_model::objects::DefinitionType::TemporaryDynamic => 3,
            };
            let created = st.created;
            drop(st);
            self.used.insert(
                *name,
                QueueUse {
                    created,
                    definition_type,
                    opens: 0,
                    opened: None,
                    closed: None,
                    puts: Traffic::default(),
                    put1s: Traffic::default(),
                    gets: Traffic::default(),
                    browses: Traffic::default(),
                    waited: [[u64::MAX; 2], [0; 2], [0; 2]],
                },
            );
        }
        self.used.get_mut(name)
    }

    /// The queue was opened (`true`) or closed now.
    pub(crate) fn opened(&mut self, qm: &QueueManager, name: &ObjectName, open: bool) {
        let now = qm.shared.clock.wall();
        if let Some(u) = self.queue(qm, name) {
            if open {
                u.opens += 1;
                u.opened.get_or_insert(now);
            } else {
                u.closed = Some(now);
            }
        }
    }

    /// A put (`put1`: an MQPUT1) of `len` bytes to the queue, or a failed one (`None`).
    pub(crate) fn put(
        &mut self,
        qm: &QueueManager,
        name: &ObjectName,
        put1: bool,
        done: Option<(bool, usize)>,
    ) {
        if let Some(u) = self.queue(qm, name) {
            let t = if put1 { &mut u.put1s } else { &mut u.puts };
            match done {
                Some((persistent, len)) => t.note(persistent, len),
                None => t.failed += 1,
            }
        }
    }

    /// A get (`destructive`) or browse of `msg` from the queue, or a failed one (`None`).
    pub(crate) fn got(
        &mut self,
        qm: &QueueManager,
        name: &ObjectName,
        destructive: bool,
        msg: Option<&Message>,
    ) {
        let now = qm.shared.clock.wall();
        let Some(u) = self.queue(qm, name) else {
            return;
        };
        let t = if destructive {
            &mut u.gets
        } else {
            &mut u.browses
        };
        let Some(m) = msg else {
            t.failed += 1;
            return;
        };
        let persistent = m.descriptor.persistence == ferry_model::message::Persistence::Persistent;
        t.note(persistent, m.body.len());
        if destructive {
            let waited = now
                .duration_since(m.descriptor.put_time)
                .map_or(0, |d| d.as_micros() as u64);
            let p = usize::from(persistent);
            u.waited[0][p] = u.waited[0][p].min(waited);
            u.waited[1][p] += waited;
            u.waited[2][p] = u.waited[2][p].max(waited);
        }
    }

    /// Whether ACCTINT has passed since the record began (an intermediate record is due).
    pub(crate) fn due(&self, now: SystemTime) -> bool {
        now.duration_since(self.start)
            .is_ok_and(|d| d.as_secs() >= self.interval_secs)
    }

    /// Writes the record of the interval that ends now — at the connection's end
    /// (`disc`: Some(MQDISCONNECT_* type)) or an intermediate one — and starts the next.
    pub(crate) fn write(&mut self, qm: &QueueManager, disc: Option<i32>) {
        let end = qm.shared.clock.wall();
        let qmgr = qm.name().to_string();
        if self.mqi {
            let params = self.mqi_params(&qmgr, end, disc);
            qm.put_admin(
                ACCOUNTING_QUEUE,
                accounting_body(CMD_ACCOUNTING_MQI, 1, true, &params),
            );
        }
        let groups: Vec<Param> = std::mem::take(&mut self.used)
            .iter()
            .filter(|(_, u)| {
                u.opens + u.puts.count.iter().sum::<u64>() + u.gets.count.iter().sum::<u64>() > 0
                    || u.closed.is_some()
            })
            .map(|(n, u)| queue_group(n, u))
            .collect();
        let chunks: Vec<&[Param]> = groups.chunks(100).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let mut params = self.identity(&qmgr, end);
            params.push(Param::Int(732, chunk.len() as i32));
            params.extend(chunk.iter().cloned());
            let body = accounting_body(
                CMD_ACCOUNTING_Q,
                i as i32 + 1,
                i + 1 == chunks.len(),
                &params,
            );
            qm.put_admin(ACCOUNTING_QUEUE, body);
        }
        self.start = end;
        self.seq += 1;
        self.calls_ok = [0; 16];
        self.calls_failed = [0; 16];
        self.slots = [0; slot::SLOTS];
    }

    /// The parameters both kinds of record begin with (QueueManager … UserId).
    fn identity(&self, qmgr: &str, end: SystemTime) -> Vec<Param> {
        let mut conn = b"AMQC".to_vec();
        conn.extend(format!("{:<12.12}", qmgr).as_bytes());
        conn.extend(self.conn_id.to_be_bytes());
        let pid = self
            .peer
            .strip_prefix("pid ")
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        let mut p = crate::qmgr::statistics::interval_params(qmgr, self.start, end);
        p.extend([
            Param::Bytes(id::CONNECTION_ID, conn),
            Param::Int(id::SEQUENCE_NUMBER, self.seq),
            Param::Str(id::APPL_NAME, format!("{:<28.28}", self.app)),
            Param::Int(id::PROCESS_ID, pid),
            Param::Int(id::THREAD_ID, 0),
            Param::Str(id::USER_IDENTIFIER, format!("{:<12.12}", self.user)),
        ]);
        p
    }

    /// The MQI accounting record: identity, connection, disconnection (final record only),
    /// then the counts in IBM's order.
    fn mqi_params(&self, qmgr: &str, end: SystemTime, disc: Option<i32>) -> Vec<Param> {
        let mut p = self.identity(qmgr, end);
        let (cd, ct) = ferry_model::clock::date_time(self.connected);
        p.extend([Param::Str(id::CONN_DATE, cd), Param::Str(id::CONN_TIME, ct)]);
        if !self.peer.starts_with("pid ") && !self.peer.is_empty() {
            p.push(Param::Str(id::CONNECTION_NAME, self.peer.clone()));
        }
        if let Some(t) = disc {
            let (dd, dt) = ferry_model::clock::date_time(end);
            p.extend([
                Param::Str(id::DISC_DATE, dd),
                Param::Str(id::DISC_TIME, dt),
                Param::Int(id::DISC_TYPE, t),
            ]);
        }
        p.extend(self.counts());
        p
    }

    /// The MQI accounting record's counts, in IBM's order.
    fn counts(&self) -> Vec<Param> {
        use ApiCall::*;
        let m = &self.slots;
        let n = |v: u64| v.min(i32::MAX as u64) as i32;
        let run = |at: usize| {
            m[at..at + OBJECT_TYPES]
                .iter()
                .map(|v| n(*v))
                .collect::<Vec<_>>()
        };
        let pair = |at: usize| vec![n(m[at]), n(m[at + 1])];
        let pair64 = |at: usize| vec![m[at] as i64, m[at + 1] as i64];
        let ok = |c: ApiCall| n(self.calls_ok[c as usize]);
        let mut p = vec![
            Param::IntList(733, run(slot::OPENS)),
            Param::IntList(751, run(slot::OPENS_FAILED)),
            Param::IntList(709, run(slot::CLOSES)),
            Param::IntList(757, run(slot::CLOSES_FAILED)),
            Param::IntList(735, pair(slot::PUTS)),
            Param::Int(754, n(m[slot::PUTS_FAILED])),
            Param::IntList(734, pair(slot::PUT1S)),
            Param::Int(755, n(m[slot::PUT1S_FAILED])),
            Param::Int64List(748, pair64(slot::PUT_BYTES)),
            Param::IntList(722, pair(slot::GETS)),
            Param::Int(725, n(m[slot::GETS_FAILED])),
            Param::Int64List(747, pair64(slot::GET_BYTES)),
            Param::IntList(705, pair(slot::BROWSES)),
            Param::Int(708, n(m[slot::BROWSES_FAILED])),
            Param::Int64List(745, pair64(slot::BROWSE_BYTES)),
            Param::Int(710, ok(Commit)),
            Param::Int(711, n(m[slot::COMMITS_FAILED])),
            Param::Int(704, ok(Backout)),
            Param::IntList(727, run(slot::INQS)),
            Param::IntList(752, run(slot::INQS_FAILED)),
            Param::IntList(744, run(slot::SETS)),
            Param::IntList(753, run(slot::SETS_FAILED)),
        ];
        p.extend(self.subscription_counts());
        p.extend([
            Param::IntList(779, pair(slot::TOPIC_PUTS)),
            Param::Int(780, n(m[slot::TOPIC_PUTS_FAILED])),
            Param::IntList(781, pair(slot::TOPIC_PUT1S)),
            Param::Int(782, n(m[slot::TOPIC_PUT1S_FAILED])),
            Param::Int64List(783, pair64(slot::TOPIC_PUT_BYTES)),
        ]);
        p
    }

    /// SubCountDur … StatFailCount (MQCB, MQCTL and MQSTAT run in the client library: 0).
    fn subscription_counts(&self) -> Vec<Param> {
        use ApiCall::*;
        let n = |v: u64| v.min(i32::MAX as u64) as i32;
        let (ok, failed) = (
            |c: ApiCall| n(self.calls_ok[c as usize]),
            |c: ApiCall| n(self.calls_failed[c as usize]),
        );
        let sub_failed = [
            SubCreateDurable,
            SubAlterDurable,
            SubResumeDurable,
            SubCreateNonDurable,
        ]
        .iter()
        .map(|c| failed(*c))
        .sum();
        vec![
            Param::IntList(
                764,
                vec![
                    ok(SubCreateDurable),
                    ok(SubAlterDurable),
                    ok(SubResumeDurable),
                ],
            ),
            Param::IntList(765, vec![ok(SubCreateNonDurable), 0, 0]),
            Param::Int(766, sub_failed),
            Param::IntList(786, vec![0, ok(SubDeleteDurable)]),
            Param::IntList(787, vec![0, ok(SubDeleteNonDurable)]),
            Param::Int(788, failed(SubDeleteDurable) + failed(SubDeleteNonDurable)),
            Param::Int(767, ok(SubRequest)),
            Param::Int(768, failed(SubRequest)),
            Param::IntList(769, vec![0; 4]),
            Param::Int(770, 0),
            Param::IntList(771, vec![0; 4]),
            Param::Int(772, 0),
            Param::Int(773, 0),
            Param::Int(774, 0),
        ]
    }
}

/// A queue's QAccountingData group (IBM's 33 parameters; the close time only once closed).
fn queue_group(name: &ObjectName, u: &QueueUse) -> Param {
    let n = |v: u64| v.min(i32::MAX as u64) as i32;
    let pair = |v: [u64; 2]| vec![n(v[0]), n(v[1])];
    let pair64 = |v: [u64; 2]| vec![v[0] as i64, v[1] as i64];
    let date = |t: SystemTime| ferry_model::clock::date_time(t);
    let (cd, ct) = date(u.created);
    let (od, ot) = date(u.opened.unwrap_or(u.created));
    let mut g = vec![
        Param::Str(pcf::CA_Q_NAME, format!("{name:<48}")),
        Param::Str(2004, format!("{cd:<12}")),
        Param::Str(2005, ct),
        Param::Int(20, 1),
        Param::Int(7, u.definition_type),
        Param::Int(733, n(u.opens)),
        Param::Str(id::OPEN_DATE, od),
        Param::Str(id::OPEN_TIME, ot),
    ];
    if let Some(c) = u.closed {
        let (d, t) = date(c);
        g.extend([Param::Str(id::CLOSE_DATE, d), Param::Str(id::CLOSE_TIME, t)]);
    }
    let gets = u.gets.count;
    let min = [0, 1].map(|p| if gets[p] == 0 { 0 } else { u.waited[0][p] });
    let avg = [0, 1].map(|p| u.waited[1][p].checked_div(gets[p]).unwrap_or(0));
    g.extend([
        Param::IntList(735, pair(u.puts.count)),
        Param::Int(754, n(u.puts.failed)),
        Param::IntList(734, pair(u.put1s.count)),
        Param::Int(755, n(u.put1s.failed)),
        Param::Int64List(
            748,
            pair64([0, 1].map(|p| u.puts.bytes[p] + u.put1s.bytes[p])),
        ),
        Param::IntList(id::PUT_MIN_BYTES, pair(u.puts.min)),
        Param::IntList(id::PUT_MAX_BYTES, pair(u.puts.max)),
        Param::Int(id::GENERATED_MSGS, 0),
        Param::IntList(722, pair(gets)),
        Param::Int(725, n(u.gets.failed)),
        Param::Int64List(747, pair64(u.gets.bytes)),
        Param::IntList(id::GET_MIN_BYTES, pair(u.gets.min)),
        Param::IntList(id::GET_MAX_BYTES, pair(u.gets.max)),
        Param::IntList(705, pair(u.browses.count)),
        Param::Int(708, n(u.browses.failed)),
        Param::Int64List(745, pair64(u.browses.bytes)),
        Param::IntList(id::BROWSE_MIN_BYTES, pair(u.browses.min)),
        Param::IntList(id::BROWSE_MAX_BYTES, pair(u.browses.max)),
        Param::Int64List(id::Q_TIME_MIN, pair64(min)),
        Param::Int64List(id::Q_TIME_AVG, pair64(avg)),
        Param::Int64List(id::Q_TIME_MAX, pair64(u.waited[2])),
        Param::IntList(769, vec![0; 4]),
        Param::Int(770, 0),
    ]);
    Param::Group(GACF_Q_ACCOUNTING_DATA, g)
}

/// An accounting message's body: MQCFH (MQCFT_ACCOUNTING, version 3).
fn accounting_body(command: i32, seq: i32, last: bool, params: &[Param]) -> Vec<u8> {
    crate::qmgr::statistics::monitoring_body(CFT_ACCOUNTING, (command, seq, last), params)
}
