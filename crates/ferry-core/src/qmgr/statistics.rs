//! Statistics messages: MQ's MQI statistics (STATMQI, MQCMD_STATISTICS_MQI) and queue
//! statistics (STATQ, MQCMD_STATISTICS_Q) as PCF messages (MQCFH type MQCFT_STATISTICS,
//! version 3, format MQADMIN) on SYSTEM.ADMIN.STATISTICS.QUEUE, in the parameter order and
//! shapes IBM's amqsmon, mq-golang's collectors and pymqi read (docs/admin.md).
//!
//! Each interval (STATINT seconds; and at a controlled stop, and at RESET QMGR
//! TYPE(STATISTICS)) ends with one MQI statistics message when STATMQI is ON, and queue
//! statistics messages — at most 100 queues a message — for the collected queues
//! (`Monitoring::collects`) that saw a put, get or browse in it. The counts are the
//! difference between the counters now and at the interval's start, so an interval's messages
//! never count a call twice.
//!
//! Sources: the MQI counts (`apistats`: every call; `MqiStats`: the slots counted while
//! STATMQI is ON), the queues' `QueueStats` (counted under each queue's lock, always).

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use ferry_model::message::{format, Message, MsgId};
use ferry_model::name::ObjectName;
use ferry_model::objects::Monitoring;
use ferry_model::pcf::{self, Param};
use ferry_model::reason::MqResult;
use ferry_model::status::{PersistenceCounts, QueueStats};

use crate::qmgr::apistats::{slot, ApiCall, ApiTotals, OBJECT_TYPES};
use crate::qmgr::system::STATISTICS_QUEUE;
use crate::qmgr::{QueueManager, RunState};

/// MQCMD_STATISTICS_MQI.
pub const CMD_STATISTICS_MQI: i32 = 164;
/// MQCMD_STATISTICS_Q.
pub const CMD_STATISTICS_Q: i32 = 165;
/// MQCFT_STATISTICS.
pub const CFT_STATISTICS: i32 = 21;
/// MQGACF_Q_STATISTICS_DATA.
pub const GACF_Q_STATISTICS_DATA: i32 = 8011;
/// At most this many queues' groups in one queue statistics message (MQ's limit).
pub const QUEUES_PER_MESSAGE: usize = 100;

/// MQCAMO_* and MQIAMO_* parameter ids (cmqcfc.h; the same numbers as MQ's).
mod id {
    pub const START_DATE: i32 = 2711;
    pub const START_TIME: i32 = 2712;
    pub const END_DATE: i32 = 2707;
    pub const END_TIME: i32 = 2708;
    pub const COMMAND_LEVEL: i32 = 31;
    pub const CONNS: i32 = 712;
    pub const CONNS_FAILED: i32 = 749;
    pub const CONNS_MAX: i32 = 713;
    pub const DISCS: i32 = 714;
    pub const OPENS: i32 = 733;
    pub const OPENS_FAILED: i32 = 751;
    pub const CLOSES: i32 = 709;
    pub const CLOSES_FAILED: i32 = 757;
    pub const INQS: i32 = 727;
    pub const INQS_FAILED: i32 = 752;
    pub const SETS: i32 = 744;
    pub const SETS_FAILED: i32 = 753;
    pub const PUTS: i32 = 735;
    pub const PUTS_FAILED: i32 = 754;
    pub const PUT1S: i32 = 734;
    pub const PUT1S_FAILED: i32 = 755;
    pub const PUT_BYTES: i32 = 748;
    pub const GETS: i32 = 722;
    pub const GET_BYTES: i32 = 747;
    pub const GETS_FAILED: i32 = 725;
    pub const BROWSES: i32 = 705;
    pub const BROWSE_BYTES: i32 = 745;
    pub const BROWSES_FAILED: i32 = 708;
    pub const COMMITS: i32 = 710;
    pub const COMMITS_FAILED: i32 = 711;
    pub const BACKOUTS: i32 = 704;
    pub const MSGS_EXPIRED: i32 = 758;
    pub const MSGS_PURGED: i32 = 760;
    pub const SUBS_DUR: i32 = 764;
    pub const SUBS_NDUR: i32 = 765;
    pub const SUBS_FAILED: i32 = 766;
    pub const UNSUBS_DUR: i32 = 786;
    pub const UNSUBS_NDUR: i32 = 787;
    pub const UNSUBS_FAILED: i32 = 788;
    pub const SUBRQS: i32 = 767;
    pub const SUBRQS_FAILED: i32 = 768;
    pub const CBS: i32 = 769;
    pub const CBS_FAILED: i32 = 770;
    pub const CTLS: i32 = 771;
    pub const CTLS_FAILED: i32 = 772;
    pub const STATS: i32 = 773;
    pub const STATS_FAILED: i32 = 774;
    pub const SUB_DUR_HIGHWATER: i32 = 775;
    pub const SUB_DUR_LOWWATER: i32 = 776;
    pub const SUB_NDUR_HIGHWATER: i32 = 777;
    pub const SUB_NDUR_LOWWATER: i32 = 778;
    pub const TOPIC_PUTS: i32 = 779;
    pub const TOPIC_PUTS_FAILED: i32 = 780;
    pub const TOPIC_PUT1S: i32 = 781;
    pub const TOPIC_PUT1S_FAILED: i32 = 782;
    pub const TOPIC_PUT_BYTES: i32 = 783;
    pub const PUBLISH_MSG_COUNT: i32 = 784;
    pub const PUBLISH_MSG_BYTES: i32 = 785;
    pub const OBJECT_COUNT: i32 = 732;
    pub const Q_MIN_DEPTH: i32 = 740;
    pub const Q_MAX_DEPTH: i32 = 739;
    pub const AVG_Q_TIME: i32 = 703;
    pub const MSGS_NOT_QUEUED: i32 = 759;
    pub const CREATION_DATE: i32 = 2004;
    pub const CREATION_TIME: i32 = 2005;
    pub const Q_TYPE: i32 = 20;
    pub const DEFINITION_TYPE: i32 = 7;
}

/// Where the current interval began and the counters then.
#[derive(Debug)]
pub(crate) struct StatisticsState {
    start: SystemTime,
    api: ApiTotals,
    mqi: [u64; slot::SLOTS],
    expired: u64,
    /// Each local queue's counters and messages expired since start, at the interval's start.
    queues: HashMap<ObjectName, (QueueStats, u64)>,
}

impl StatisticsState {
    pub(crate) fn new(now: SystemTime) -> Self {
        StatisticsState {
            start: now,
            api: ApiTotals::default(),
            mqi: [0; slot::SLOTS],
            expired: 0,
            queues: HashMap::new(),
        }
    }
}

/// The interval's start and end as MQ writes them (dates yyyy-mm-dd, times hh.mm.ss).
pub(crate) fn interval_params(qmgr: &str, start: SystemTime, end: SystemTime) -> Vec<Param> {
    let (sd, st) = ferry_model::clock::date_time(start);
    let (ed, et) = ferry_model::clock::date_time(end);
    vec![
        Param::Str(pcf::CA_Q_MGR_NAME, format!("{qmgr:<48}")),
        Param::Str(id::START_DATE, sd),
        Param::Str(id::START_TIME, st),
        Param::Str(id::END_DATE, ed),
        Param::Str(id::END_TIME, et),
        Param::Int(
            id::COMMAND_LEVEL,
            ferry_model::inquire::COMMAND_LEVEL as i32,
        ),
    ]
}

fn int(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

fn list(vs: &[u64]) -> Vec<i32> {
    vs.iter().map(|v| int(*v)).collect()
}

fn list64(vs: &[u64]) -> Vec<i64> {
    vs.iter()
        .map(|v| (*v).min(i64::MAX as u64) as i64)
        .collect()
}

/// The MQI statistics of one interval: the calls' deltas (`api`), the STATMQI slots' deltas
/// (`m`), the connections' high-water mark, messages expired, and the subscriptions now
/// (durable, non-durable) as the high- and low-water marks.
struct MqiInterval<'a> {
    api: &'a ApiTotals,
    m: &'a [u64; slot::SLOTS],
    conns_max: u64,
    expired: u64,
    subs: (u64, u64),
}

fn mqi_params(qmgr: &str, start: SystemTime, end: SystemTime, i: &MqiInterval) -> Vec<Param> {
    use ApiCall::*;
    let (a, m) = (i.api, i.m);
    let run = |at: usize| Param::IntList(0, list(&m[at..at + OBJECT_TYPES]));
    let pair = |at: usize| list(&m[at..at + 2]);
    let pair64 = |at: usize| list64(&m[at..at + 2]);
    let with = |p: Param, id: i32| match p {
        Param::IntList(_, v) => Param::IntList(id, v),
        other => other,
    };
    let discs = [
        a.ok(Disconnect).saturating_sub(m[slot::DISCS_IMPLICIT]),
        m[slot::DISCS_IMPLICIT],
        0,
    ];
    let (dur, ndur) = i.subs;
    let mut p = interval_params(qmgr, start, end);
    p.extend([
        Param::Int(id::CONNS, int(a.ok(Connect))),
        Param::Int(id::CONNS_FAILED, int(a.failed(Connect))),
        Param::Int(id::CONNS_MAX, int(i.conns_max)),
        Param::IntList(id::DISCS, list(&discs)),
        with(run(slot::OPENS), id::OPENS),
        with(run(slot::OPENS_FAILED), id::OPENS_FAILED),
        with(run(slot::CLOSES), id::CLOSES),
        with(run(slot::CLOSES_FAILED), id::CLOSES_FAILED),
        with(run(slot::INQS), id::INQS),
        with(run(slot::INQS_FAILED), id::INQS_FAILED),
        with(run(slot::SETS), id::SETS),
        with(run(slot::SETS_FAILED), id::SETS_FAILED),
        Param::IntList(id::PUTS, pair(slot::PUTS)),
        Param::Int(id::PUTS_FAILED, int(m[slot::PUTS_FAILED])),
        Param::IntList(id::PUT1S, pair(slot::PUT1S)),
        Param::Int(id::PUT1S_FAILED, int(m[slot::PUT1S_FAILED])),
        Param::Int64List(id::PUT_BYTES, pair64(slot::PUT_BYTES)),
        Param::IntList(id::GETS, pair(slot::GETS)),
        Param::Int64List(id::GET_BYTES, pair64(slot::GET_BYTES)),
        Param::Int(id::GETS_FAILED, int(m[slot::GETS_FAILED])),
        Param::IntList(id::BROWSES, pair(slot::BROWSES)),
        Param::Int64List(id::BROWSE_BYTES, pair64(slot::BROWSE_BYTES)),
        Param::Int(id::BROWSES_FAILED, int(m[slot::BROWSES_FAILED])),
        Param::Int(id::COMMITS, int(a.ok(Commit))),
        Param::Int(id::COMMITS_FAILED, int(m[slot::COMMITS_FAILED])),
        Param::Int(id::BACKOUTS, int(a.ok(Backout))),
        Param::Int(id::MSGS_EXPIRED, int(i.expired)),
        Param::Int(id::MSGS_PURGED, int(m[slot::PURGES])),
    ]);
    p.extend(subscription_params(a, dur, ndur));
    p.extend([
        Param::IntList(id::TOPIC_PUTS, pair(slot::TOPIC_PUTS)),
        Param::Int(id::TOPIC_PUTS_FAILED, int(m[slot::TOPIC_PUTS_FAILED])),
        Param::IntList(id::TOPIC_PUT1S, pair(slot::TOPIC_PUT1S)),
        Param::Int(id::TOPIC_PUT1S_FAILED, int(m[slot::TOPIC_PUT1S_FAILED])),
        Param::Int64List(id::TOPIC_PUT_BYTES, pair64(slot::TOPIC_PUT_BYTES)),
        Param::IntList(id::PUBLISH_MSG_COUNT, pair(slot::PUBLISHED)),
        Param::Int64List(id::PUBLISH_MSG_BYTES, pair64(slot::PUBLISHED_BYTES)),
    ]);
    p
}

/// SubCountDur … SubCountNDurLowWater. MQCB, MQCTL and MQSTAT run inside the client library
/// (the queue manager does not see them): their counts are 0. The water marks are the
/// subscriptions at the interval's end, all made through the API or by administrators.
fn subscription_params(a: &ApiTotals, dur: u64, ndur: u64) -> Vec<Param> {
    use ApiCall::*;
    let failed = [
        SubCreateDurable,
        SubAlterDurable,
        SubResumeDurable,
        SubCreateNonDurable,
    ]
    .iter()
    .map(|c| a.failed(*c))
    .sum::<u64>();
    let marks = |n: u64| list(&[n, n, 0, 0]);
    vec![
        Param::IntList(
            id::SUBS_DUR,
            list(&[
                a.ok(SubCreateDurable),
                a.ok(SubAlterDurable),
                a.ok(SubResumeDurable),
            ]),
        ),
        Param::IntList(id::SUBS_NDUR, list(&[a.ok(SubCreateNonDurable), 0, 0])),
        Param::Int(id::SUBS_FAILED, int(failed)),
        Param::IntList(id::UNSUBS_DUR, list(&[0, a.ok(SubDeleteDurable)])),
        Param::IntList(id::UNSUBS_NDUR, list(&[0, a.ok(SubDeleteNonDurable)])),
        Param::Int(
            id::UNSUBS_FAILED,
            int(a.failed(SubDeleteDurable) + a.failed(SubDeleteNonDurable)),
        ),
        Param::Int(id::SUBRQS, int(a.ok(SubRequest))),
        Param::Int(id::SUBRQS_FAILED, int(a.failed(SubRequest))),
        Param::IntList(id::CBS, list(&[0, 0, 0, 0])),
        Param::Int(id::CBS_FAILED, 0),
        Param::IntList(id::CTLS, list(&[0, 0, 0, 0])),
        Param::Int(id::CTLS_FAILED, 0),
        Param::Int(id::STATS, 0),
        Param::Int(id::STATS_FAILED, 0),
        Param::IntList(id::SUB_DUR_HIGHWATER, marks(dur)),
        Param::IntList(id::SUB_DUR_LOWWATER, marks(dur)),
        Param::IntList(id::SUB_NDUR_HIGHWATER, marks(ndur)),
        Param::IntList(id::SUB_NDUR_LOWWATER, marks(ndur)),
    ]
}

/// One queue's QStatisticsData group: its counts in the interval (`now` minus `then`).
fn queue_group(q: &QueueInterval) -> Param {
    let (now, then) = (q.now, q.then);
    let delta = |f: &dyn Fn(&PersistenceCounts) -> u64| -> [u64; 2] {
        [0, 1].map(|p| f(&now.by_persistence[p]).saturating_sub(f(&then.by_persistence[p])))
    };
    let gets = delta(&|c| c.gets);
    let waited = delta(&|c| c.waited_us);
    let avg = [0, 1].map(|p| waited[p].checked_div(gets[p]).unwrap_or(0));
    let (created_date, created_time) = ferry_model::clock::date_time(q.created);
    Param::Group(
        GACF_Q_STATISTICS_DATA,
        vec![
            Param::Str(pcf::CA_Q_NAME, format!("{:<48}", q.name)),
            Param::Str(id::CREATION_DATE, format!("{created_date:<12}")),
            Param::Str(id::CREATION_TIME, created_time),
            Param::Int(id::Q_TYPE, 1),
            Param::Int(id::DEFINITION_TYPE, q.definition_type),
            Param::Int(id::Q_MIN_DEPTH, int(now.interval_depth.0 as u64)),
            Param::Int(id::Q_MAX_DEPTH, int(now.interval_depth.1 as u64)),
            Param::Int64List(id::AVG_Q_TIME, list64(&avg)),
            Param::IntList(id::PUTS, list(&delta(&|c| c.puts))),
            Param::Int(id::PUTS_FAILED, 0),
            Param::IntList(id::PUT1S, vec![0, 0]),
            Param::Int(id::PUT1S_FAILED, 0),
            Param::Int64List(id::PUT_BYTES, list64(&delta(&|c| c.put_bytes))),
            Param::IntList(id::GETS, list(&gets)),
            Param::Int64List(id::GET_BYTES, list64(&delta(&|c| c.get_bytes))),
            Param::Int(id::GETS_FAILED, 0),
            Param::IntList(id::BROWSES, list(&delta(&|c| c.browses))),
            Param::Int64List(id::BROWSE_BYTES, list64(&delta(&|c| c.browse_bytes))),
            Param::Int(id::BROWSES_FAILED, 0),
            Param::Int(
                id::MSGS_NOT_QUEUED,
                int(now.handovers.saturating_sub(then.handovers)),
            ),
            Param::Int(id::MSGS_EXPIRED, int(q.expired)),
            Param::Int(id::MSGS_PURGED, int(now.purged.saturating_sub(then.purged))),
        ],
    )
}

/// A queue's part of an interval.
struct QueueInterval<'a> {
    name: &'a ObjectName,
    now: &'a QueueStats,
    then: &'a QueueStats,
    expired: u64,
    created: SystemTime,
    definition_type: i32,
}

/// Whether a queue did anything in the interval (MQ writes only those).
fn active(now: &QueueStats, then: &QueueStats) -> bool {
    now.by_persistence != then.by_persistence || now.purged != then.purged
}

impl QueueManager {
    /// Ends the statistics interval now: writes its MQI statistics message (STATMQI ON) and
    /// queue statistics messages (the collected queues with activity), and starts the next
    /// interval. How many messages it wrote.
    pub fn write_statistics(&self) -> MqResult<usize> {
        let end = self.shared.clock.wall();
        let (mqi_on, statq, qmgr) = {
            let a = self.shared.attrs.read();
            (a.statistics_mqi, a.statistics_queues, a.name.to_string())
        };
        let mut st = self.shared.statistics.lock();
        let start = st.start;
        let mut bodies = Vec::new();
        let (api, mqi) = (self.api_stats().totals(), self.mqi_stats().snapshot());
        let expired = self.total_expired();
        if mqi_on {
            let interval = MqiInterval {
                api: &api.minus(&st.api),
                m: &std::array::from_fn(|i| mqi[i].saturating_sub(st.mqi[i])),
                conns_max: self
                    .api_stats()
                    .take_connections_hwm(self.shared.connections.lock().len()),
                expired: expired.saturating_sub(st.expired),
                subs: self.subscription_counts(),
            };
            bodies.push(statistics_body(
                CMD_STATISTICS_MQI,
                1,
                true,
                &mqi_params(&qmgr, start, end, &interval),
            ));
        }
        bodies.extend(self.queue_statistics(&mut st, statq, &qmgr, start, end));
        (st.start, st.api, st.mqi, st.expired) = (end, api, mqi, expired);
        drop(st);
        let n = bodies.len();
        for body in bodies {
            self.put_statistics(body);
        }
        Ok(n)
    }

    /// The queue statistics messages of the interval, at most [`QUEUES_PER_MESSAGE`] queues
    /// each; every local queue's counters become the next interval's start.
    fn queue_statistics(
        &self,
        st: &mut StatisticsState,
        statq: Monitoring,
        qmgr: &str,
        start: SystemTime,
        end: SystemTime,
    ) -> Vec<Vec<u8>> {
        let mut groups = Vec::new();
        for q in self.local_queues() {
            let mut qs = q.lock();
            let (now, expired_now) = (qs.stats.clone(), qs.store.expired_total);
            let depth = qs.store.depth();
            qs.stats.interval_depth = (depth, depth);
            let (collected, deftype, created) = (
                Monitoring::collects(statq, qs.attrs.statistics),
                deftype_value(qs.attrs.definition_type),
                qs.created,
            );
            drop(qs);
            let (then, expired_then) = st.queues.remove(&q.name).unwrap_or_default();
            if collected && active(&now, &then) && !q.name.as_str().starts_with("SYSTEM.") {
                let interval = QueueInterval {
                    name: &q.name,
                    now: &now,
                    then: &then,
                    expired: expired_now.saturating_sub(expired_then),
                    created,
                    definition_type: deftype,
                };
                groups.push(queue_group(&interval));
            }
            st.queues.insert(q.name, (now, expired_now));
        }
        let chunks: Vec<_> = groups.chunks(QUEUES_PER_MESSAGE).collect();
        let last = chunks.len();
        chunks
            .iter()
            .enumerate()
            .map(|(i, chunk)| {
                let mut params = interval_params(qmgr, start, end);
                params.push(Param::Int(id::OBJECT_COUNT, chunk.len() as i32));
                params.extend(chunk.iter().cloned());
                statistics_body(CMD_STATISTICS_Q, i as i32 + 1, i + 1 == last, &params)
            })
            .collect()
    }

    /// Durable and non-durable subscriptions now.
    fn subscription_counts(&self) -> (u64, u64) {
        let all = self.subscriptions();
        let durable = all.iter().filter(|s| s.durable).count() as u64;
        (durable, all.len() as u64 - durable)
    }

    /// Messages expired on every queue since start.
    fn total_expired(&self) -> u64 {
        self.local_queues()
            .iter()
            .map(|q| q.lock().store.expired_total)
            .sum()
    }

    /// Puts a statistics message on SYSTEM.ADMIN.STATISTICS.QUEUE.
    fn put_statistics(&self, body: Vec<u8>) {
        self.put_admin(STATISTICS_QUEUE, body)
    }

    /// Puts a PCF message the queue manager makes (statistics, accounting) on `queue`, format
    /// MQADMIN; a full or missing queue drops it, and the log says so.
    pub(crate) fn put_admin(&self, queue: &str, body: Vec<u8>) {
        let mut msg = Message::new(body);
        msg.descriptor.format = format::name("MQADMIN");
        msg.descriptor.msg_id = MsgId(self.shared.ids.next());
        msg.descriptor.put_time = self.shared.clock.wall();
        msg.descriptor.put_appl_name =
            ferry_model::name::ApplName::truncating(self.name().as_str());
        let put = ferry_model::name::object_name(queue)
            .and_then(|n| self.local_queue(&n))
            .map(|q| q.try_put(msg, 0, None, self.shared.clock.now()));
        if !matches!(put, Ok(Ok(_))) {
            tracing::warn!(
                queue,
                "a statistics or accounting message was dropped: its queue is full or missing"
            );
        }
    }

    /// Starts the statistics thread: it ends an interval every STATINT seconds (read again
    /// each second, so an ALTER takes effect) until the queue manager stops.
    pub fn start_statistics(&self) -> std::io::Result<std::thread::JoinHandle<()>> {
        let weak = std::sync::Arc::downgrade(&self.shared);
        std::thread::Builder::new()
            .name("ferry-statistics".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(1));
                let Some(shared) = weak.upgrade() else { return };
                let qm = QueueManager { shared };
                if qm.run_state() != RunState::Running {
                    return;
                }
                let interval = u64::from(qm.shared.attrs.read().statistics_interval);
                let start = qm.shared.statistics.lock().start;
                let due = qm
                    .shared
                    .clock
                    .wall()
                    .duration_since(start)
                    .is_ok_and(|d| d.as_secs() >= interval);
                if due {
                    if let Err(e) = qm.write_statistics() {
                        tracing::warn!(reason = %e.detail, "the statistics messages could not be written");
                    }
                }
            })
    }
}

/// MQIA_DEFINITION_TYPE's value.
fn deftype_value(d: ferry_model::objects::DefinitionType) -> i32 {
    use ferry_model::objects::DefinitionType::*;
    match d {
        Predefined => 1,
        PermanentDynamic => 2,
        TemporaryDynamic => 3,
    }
}

/// A statistics message's body: MQCFH (MQCFT_STATISTICS, version 3, `command`, sequence number
/// `seq`, MQCFC_LAST when `last`), then `params`.
fn statistics_body(command: i32, seq: i32, last: bool, params: &[Param]) -> Vec<u8> {
    monitoring_body(CFT_STATISTICS, (command, seq, last), params)
}

/// A statistics or accounting message's body: MQCFH (type `kind`, version 3, CompCode 0) for
/// `command`, sequence number `seq`, MQCFC_LAST when `last`; then `params`.
pub(crate) fn monitoring_body(
    kind: i32,
    (command, seq, last): (i32, i32, bool),
    params: &[Param],
) -> Vec<u8> {
    let header = pcf::Header {
        kind,
        version: 3,
        command,
        seq,
        control: i32::from(last),
        comp_code: 0,
        reason: 0,
    };
    pcf::encode(&header, params)
}
