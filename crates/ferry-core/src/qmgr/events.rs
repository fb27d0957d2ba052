//! Event messages (MQ's instrumentation events) on the system event queues: authority events
//! on SYSTEM.ADMIN.QMGR.EVENT when QMGR AUTHOREV is ENABLED, channel events on
//! SYSTEM.ADMIN.CHANNEL.EVENT when CHLEV is ENABLED. Each is a non-persistent PCF message
//! (format MQEVENT; `ferry_model::pcf`). A full event queue drops the event (its MAXDEPTH
//! bounds what a flood of refusals can fill), and the log says so once in a while.
//!
//! Performance events (MQ's queue depth events) on SYSTEM.ADMIN.PERFM.EVENT when PERFMEV is
//! ENABLED: Queue Depth High when a put brings a queue to QDEPTHHI per cent of MAXDEPTH or
//! more, Queue Depth Low when a get (at its commit, in a unit of work) brings it to QDEPTHLO
//! per cent or less, Queue Full when a put is refused for MAXDEPTH — each while its switch
//! (QDPHIEV, QDPLOEV, QDPMAXEV) is ENABLED, and each switching the others as MQ does (High:
//! off, Low and Full on; Low: off, High and Full on; Full: off, Low on). Each carries the
//! queue's statistics since they were last reset, and resets them. Queue service interval
//! events (QSVCIEV HIGH or OK, QSVCINT) by MQ's rules for the service timer: it starts at a
//! put to an empty queue and restarts at a get that leaves messages (stops at one that leaves
//! none); High when a put or get comes after the timer ran past QSVCINT, OK when a get comes
//! within it, each arming the other.

use ferry_model::message::{format, Message};
use ferry_model::pcf::{self, Param};
use ferry_model::security::Principal;
use std::sync::Arc;

use crate::engine::queue::QueueState;
use crate::engine::Queue;
use crate::qmgr::system::{
    CHANNEL_EVENT_QUEUE, COMMAND_EVENT_QUEUE, PERFM_EVENT_QUEUE, QMGR_EVENT_QUEUE,
};
use crate::qmgr::QueueManager;
use ferry_model::objects::ServiceIntervalEvent;

/// Who issued a command, how, and what it was: a command event's data.
#[derive(Debug, Clone)]
pub struct IssuedCommand<'a> {
    /// The user whose authority it ran with.
    pub user: &'a str,
    /// MQEVO_CONSOLE (1) for MQSC, MQEVO_MSG (3) for a PCF message on the command queue.
    pub origin: i32,
    /// The PCF request's MQCMD code (MQRC_COMMAND_PCF); `None` for MQSC (MQRC_COMMAND_MQSC).
    pub pcf_command: Option<i32>,
    /// A DISPLAY (or PCF inquire): no event with CMDEV(NODISPLAY).
    pub display: bool,
    /// The command, as MQSC text.
    pub text: &'a str,
    /// CMDEV before the command ran (ALTER QMGR CMDEV(DISABLED) is itself reported).
    pub before: ferry_model::objects::CommandEvents,
}

impl QueueManager {
    /// Puts an event message built from `command`, `reason` and `params` on `queue`.
    fn put_event(&self, queue: &str, command: i32, reason: i32, mut params: Vec<Param>) {
        params.insert(0, Param::Str(pcf::CA_Q_MGR_NAME, self.name().to_string()));
        self.put_event_params(queue, command, reason, params);
    }

    /// Puts an event message of exactly `params` on `queue`.
    fn put_event_params(&self, queue: &str, command: i32, reason: i32, params: Vec<Param>) {
        let mut msg = Message::new(pcf::event(command, reason, &params));
        msg.descriptor.format = format::name("MQEVENT");
        msg.descriptor.msg_id = ferry_model::message::MsgId(self.shared.ids.next());
        msg.descriptor.put_time = self.shared.clock.wall();
        let put = ferry_model::name::object_name(queue)
            .and_then(|n| self.local_queue(&n))
            .map(|q| q.try_put(msg, 0, None, self.shared.clock.now()));
        if !matches!(put, Ok(Ok(_))) && self.security_log().is_some() {
            tracing::warn!(
                queue,
                "an event message was dropped: its queue is full or missing"
            );
        }
    }

    /// Whether PERFMEV is ENABLED (read on every put and get: an atomic, kept in step with the
    /// attribute).
    #[inline]
    pub(crate) fn performance_events(&self) -> bool {
        self.shared
            .perf_events
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A put left `queue` `depth` deep: Queue Depth High, when that reaches QDEPTHHI; Queue
    /// Service Interval High, when armed and the service timer ran past QSVCINT.
    pub(crate) fn depth_after_put(&self, queue: &Queue, depth: usize) {
        let (wall, now) = (self.shared.clock.wall(), self.shared.clock.now());
        let (high, service) = {
            let mut st = queue.lock();
            let service = service_after_put(&mut st, now, depth, wall);
            let a = &st.attrs;
            let high =
                a.depth_high_event && depth * 100 >= a.max_depth * a.depth_high_limit as usize;
            if high {
                let a = Arc::make_mut(&mut st.attrs);
                (a.depth_high_event, a.depth_low_event, a.depth_max_event) = (false, true, true);
            }
            (high.then(|| st.since_reset(wall, true)), service)
        };
        if let Some(stats) = high {
            self.performance_event(queue, pcf::RC_Q_DEPTH_HIGH, stats);
        }
        if let Some((reason, stats)) = service {
            self.performance_event(queue, reason, stats);
        }
    }

    /// A get took from `queue`: Queue Depth Low, when its depth is down to QDEPTHLO; Queue
    /// Service Interval High or OK, as armed, by how long the service timer ran.
    pub(crate) fn depth_after_get(&self, queue: &Queue) {
        let (wall, now) = (self.shared.clock.wall(), self.shared.clock.now());
        let (low, service) = {
            let mut st = queue.lock();
            let service = service_after_get(&mut st, now, wall);
            let depth = st.store.depth();
            let a = &st.attrs;
            let low = a.depth_low_event && depth * 100 <= a.max_depth * a.depth_low_limit as usize;
            if low {
                let a = Arc::make_mut(&mut st.attrs);
                (a.depth_high_event, a.depth_low_event, a.depth_max_event) = (true, false, true);
            }
            (low.then(|| st.since_reset(wall, true)), service)
        };
        if let Some(stats) = low {
            self.performance_event(queue, pcf::RC_Q_DEPTH_LOW, stats);
        }
        if let Some((reason, stats)) = service {
            self.performance_event(queue, reason, stats);
        }
    }

    /// A put was refused because `queue` is full: Queue Full.
    pub(crate) fn queue_full_event(&self, queue: &Queue) {
        let stats = {
            let mut st = queue.lock();
            if !st.attrs.depth_max_event {
                return;
            }
            let a = Arc::make_mut(&mut st.attrs);
            (a.depth_max_event, a.depth_low_event) = (false, true);
            st.since_reset(self.shared.clock.wall(), true)
        };
        self.performance_event(queue, pcf::RC_Q_FULL, stats);
    }

    fn performance_event(&self, queue: &Queue, reason: i32, stats: (u64, usize, u64, u64)) {
        let (secs, high, enq, deq) = stats;
        let clamp = |v: u64| v.min(i32::MAX as u64) as i32;
        let params = vec![
            Param::Str(pcf::CA_BASE_Q_NAME, queue.name.to_string()),
            Param::Int(pcf::IA_TIME_SINCE_RESET, clamp(secs)),
            Param::Int(pcf::IA_HIGH_Q_DEPTH, clamp(high as u64)),
            Param::Int(pcf::IA_MSG_ENQ_COUNT, clamp(enq)),
            Param::Int(pcf::IA_MSG_DEQ_COUNT, clamp(deq)),
        ];
        self.put_event(PERFM_EVENT_QUEUE, pcf::CMD_PERFM_EVENT, reason, params);
    }

    /// A command event (MQRC_COMMAND_MQSC 2412 or MQRC_COMMAND_PCF 2413) for a command that
    /// ran successfully, when CMDEV asks (ENABLED: every one; NODISPLAY: all but DISPLAY).
    /// Two groups, as MQ's: CommandContext (user, origin, queue manager, application, the
    /// MQCMD code) and CommandData (the command as MQSC text, MQCACF_COMMAND_MQSC).
    pub fn command_event(&self, c: &IssuedCommand<'_>) {
        use ferry_model::objects::CommandEvents;
        let wants = |e: CommandEvents| match e {
            CommandEvents::Disabled => false,
            CommandEvents::Enabled => true,
            CommandEvents::NoDisplay => !c.display,
        };
        if !wants(self.attrs().command_events) && !wants(c.before) {
            return;
        }
        let context = vec![
            Param::Str(pcf::CACF_EVENT_USER_ID, c.user.to_owned()),
            Param::Int(pcf::IACF_EVENT_ORIGIN, c.origin),
            Param::Str(pcf::CACF_EVENT_Q_MGR, self.name().to_string()),
            Param::Int(pcf::IACF_EVENT_APPL_TYPE, pcf::AT_QMGR),
            Param::Str(pcf::CACF_EVENT_APPL_NAME, "ferry".to_owned()),
            Param::Int(pcf::IACF_COMMAND, c.pcf_command.unwrap_or(0)),
        ];
        let data = vec![Param::Str(pcf::CACF_COMMAND_MQSC, c.text.to_owned())];
        let params = vec![
            Param::Group(pcf::GACF_COMMAND_CONTEXT, context),
            Param::Group(pcf::GACF_COMMAND_DATA, data),
        ];
        let reason = if c.pcf_command.is_some() {
            pcf::RC_COMMAND_PCF
        } else {
            pcf::RC_COMMAND_MQSC
        };
        self.put_event_params(COMMAND_EVENT_QUEUE, pcf::CMD_COMMAND_EVENT, reason, params);
    }

    /// An authority event (MQRC_NOT_AUTHORIZED), when AUTHOREV is ENABLED: who, how
    /// (`qualifier`: MQRQ_CONN/OPEN/CMD_NOT_AUTHORIZED) and on what.
    pub fn authority_event(&self, who: &Principal, qualifier: i32, object: &str) {
        if !self.attrs().authority_events {
            return;
        }
        let mut params = vec![
            Param::Int(pcf::IACF_REASON_QUALIFIER, qualifier),
            Param::Str(pcf::CACF_USER_IDENTIFIER, who.user.clone()),
        ];
        if qualifier == pcf::RQ_OPEN_NOT_AUTHORIZED {
            params.push(Param::Str(pcf::CA_Q_NAME, object.to_owned()));
        }
        self.put_event(QMGR_EVENT_QUEUE, pcf::CMD_Q_MGR_EVENT, 2035, params);
    }

    /// A channel blocked event (MQRC_CHANNEL_BLOCKED), when CHLEV is ENABLED: a channel start
    /// or client connection refused, from `conname`, with the user it came as.
    pub fn channel_blocked_event(&self, channel: &str, conname: &str, user: &str) {
        if !self.attrs().channel_events {
            return;
        }
        let params = vec![
            Param::Int(pcf::IACF_REASON_QUALIFIER, pcf::RQ_CHANNEL_BLOCKED_NOACCESS),
            Param::Str(pcf::CACH_CHANNEL_NAME, channel.to_owned()),
            Param::Str(pcf::CACH_CONNECTION_NAME, conname.to_owned()),
            Param::Str(pcf::CACF_USER_IDENTIFIER, user.to_owned()),
        ];
        self.put_event(
            CHANNEL_EVENT_QUEUE,
            pcf::CMD_CHANNEL_EVENT,
            pcf::RC_CHANNEL_BLOCKED,
            params,
        );
    }
}

/// The statistics a service interval event carries, and its reason.
type ServiceEvent = (i32, (u64, usize, u64, u64));

/// MQ's service timer at a put that left the queue `depth` deep: Queue Service Interval High
/// when armed and the timer ran past QSVCINT (OK is then armed); the timer starts when the put
/// found the queue empty (or found it off: PERFMEV was just enabled, or the queue manager
/// restarted with messages on the queue).
fn service_after_put(
    st: &mut QueueState,
    now: u64,
    depth: usize,
    wall: std::time::SystemTime,
) -> Option<ServiceEvent> {
    let timer = st.service_timer;
    let interval = u64::from(st.attrs.service_interval_ms) * 1_000_000;
    let event = (st.attrs.service_interval_event == ServiceIntervalEvent::High
        && timer != 0
        && now.saturating_sub(timer) > interval)
        .then(|| {
            Arc::make_mut(&mut st.attrs).service_interval_event = ServiceIntervalEvent::Ok;
            (pcf::RC_Q_SERVICE_INTERVAL_HIGH, st.since_reset(wall, true))
        });
    if depth <= 1 || timer == 0 {
        st.service_timer = now;
    }
    event
}

/// MQ's service timer at a get: High when armed and the timer ran past QSVCINT, OK when armed
/// and it did not (each arming the other); the timer restarts if messages remain, else stops.
fn service_after_get(
    st: &mut QueueState,
    now: u64,
    wall: std::time::SystemTime,
) -> Option<ServiceEvent> {
    let timer = st.service_timer;
    let interval = u64::from(st.attrs.service_interval_ms) * 1_000_000;
    let late = now.saturating_sub(timer) > interval;
    let event = match (timer != 0, st.attrs.service_interval_event, late) {
        (true, ServiceIntervalEvent::High, true) => {
            Some((ServiceIntervalEvent::Ok, pcf::RC_Q_SERVICE_INTERVAL_HIGH))
        }
        (true, ServiceIntervalEvent::Ok, false) => {
            Some((ServiceIntervalEvent::High, pcf::RC_Q_SERVICE_INTERVAL_OK))
        }
        _ => None,
    }
    .map(|(arm, reason)| {
        Arc::make_mut(&mut st.attrs).service_interval_event = arm;
        (reason, st.since_reset(wall, true))
    });
    st.service_timer = if st.store.depth() > 0 { now.max(1) } else { 0 };
    event
}
