//! Triggering, as MQ does it: a put that is a trigger event by the application queue's own
//! conditions (`QueueState::trigger_due`: TRIGGER, TRIGTYPE, TRIGDPTH, TRIGMPRI, GET allowed,
//! nobody reading it for FIRST and DEPTH) becomes a trigger message when the rest hold too —
//! INITQ names a local queue that someone has open for input (a trigger monitor) and PROCESS
//! names a defined process (a transmission queue may name none: its TRIGDATA names the channel).
//!
//! The trigger message is an MQTM (version 1, 684 bytes, native encoding: the queue's name,
//! its process, TRIGDATA and the process's APPLTYPE, APPLICID, ENVRDATA and USERDATA), format
//! MQTRIG, non-persistent, at the initiation queue's default priority. One that cannot be put
//! on the initiation queue goes to the dead-letter queue (MQRC_ Q_FULL and the like), else is
//! dropped with a log line. A DEPTH trigger turns the queue's TRIGGER off (logged like ALTER),
//! as MQ does, until an application or administrator turns it on again.
//!
//! A put in a unit of work has its trigger message held by its session and put when the unit
//! of work ends, committed or backed out (MQ delivers it either way). When an initiation queue
//! gets its first reader (a trigger monitor starts), the queues it serves that already hold
//! messages satisfying their conditions are triggered then, as after a restart in MQ.

use std::sync::Arc;

use ferry_model::message::{format, Message, MsgId, Persistence};
use ferry_model::name::ObjectName;
use ferry_model::objects::{LocalQueueAttrs, QueueDefinition, TriggerType, Usage};

use crate::engine::queue::QueueState;
use crate::engine::Queue;
use crate::qmgr::QueueManager;

/// MQTM's length (MQTM_VERSION_1).
pub const MQTM_LENGTH: usize = 684;

/// A trigger message and the initiation queue it goes to.
#[derive(Debug)]
pub(crate) struct Trigger {
    pub initq: Arc<Queue>,
    pub msg: Message,
}

/// Appends `s` blank-padded (or cut) to `len` bytes.
fn put_chars(out: &mut Vec<u8>, s: &str, len: usize) {
    let b = s.as_bytes();
    let n = b.len().min(len);
    out.extend_from_slice(&b[..n]);
    out.resize(out.len() + (len - n), b' ');
}

/// The MQTM of a trigger event on queue `queue` with trigger data `data`, for `process`
/// (blank, with no process definition: APPLTYPE 0 and blank application fields).
fn mqtm(
    queue: &ObjectName,
    data: &str,
    process: &ObjectName,
    p: Option<&ferry_model::objects::ProcessAttrs>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(MQTM_LENGTH);
    out.extend_from_slice(b"TM  ");
    out.extend_from_slice(&1i32.to_le_bytes());
    put_chars(&mut out, queue.as_str(), 48);
    put_chars(&mut out, process.as_str(), 48);
    put_chars(&mut out, data, 64);
    let appl_type = p.map_or(0, |p| p.appl_type) as i32;
    out.extend_from_slice(&appl_type.to_le_bytes());
    put_chars(&mut out, p.map_or("", |p| &p.appl_id), 256);
    put_chars(&mut out, p.map_or("", |p| &p.env_data), 128);
    put_chars(&mut out, p.map_or("", |p| &p.user_data), 128);
    debug_assert_eq!(out.len(), MQTM_LENGTH, "MQTM version 1 is 684 bytes");
    out
}

impl QueueManager {
    /// The trigger message for a trigger event on `queue` (a put there was one by the queue's
    /// own conditions), when the rest hold: its initiation queue exists and is being read, its
    /// process is defined (or it is a transmission queue). A DEPTH trigger turns TRIGGER off.
    pub(crate) fn trigger_for(&self, queue: &Queue) -> Option<Trigger> {
        let (t, usage) = {
            let st = queue.lock();
            (st.attrs.triggering.clone(), st.attrs.usage)
        };
        let initq = self.local_queue(&t.initiation_queue).ok()?;
        if initq.lock().open_input == 0 {
            return None;
        }
        let process = match self.process(t.process.as_str()) {
            Ok(p) => Some(p),
            Err(_) if usage == Usage::Transmission && t.process.is_empty() => None,
            Err(_) => return None,
        };
        if t.trigger_type == TriggerType::Depth {
            self.trigger_off(queue);
        }
        let body = mqtm(&queue.name, &t.data, &t.process, process.as_ref());
        let mut msg = Message::new(body);
        let d = &mut msg.descriptor;
        d.format = format::name("MQTRIG");
        d.persistence = Persistence::NotPersistent;
        d.msg_id = MsgId(self.shared.ids.next());
        d.put_time = self.shared.clock.wall();
        Some(Trigger { initq, msg })
    }

    /// Puts a trigger message on its initiation queue; one that does not fit goes to the
    /// dead-letter queue, else is dropped with a log line.
    pub(crate) fn send_trigger(&self, t: Trigger) {
        let now = self.shared.clock.now();
        let Err((e, msg)) = t.initq.try_put(t.msg, 0, None, now) else {
            return;
        };
        let (name, qmgr) = (t.initq.name, self.name());
        if let Err((e2, _)) = self.dead_letter(msg, e.reason, name, qmgr) {
            tracing::warn!(
                initq = %name,
                "a trigger message was dropped: the initiation queue refused it ({}) and so did the dead-letter queue ({})",
                e.detail,
                e2.detail
            );
        }
    }

    /// TRIGGER off after a DEPTH trigger, kept like ALTER.
    fn trigger_off(&self, queue: &Queue) {
        let _gate = self.durability().map(|d| d.gate());
        let def = {
            let mut st = queue.lock();
            Arc::make_mut(&mut st.attrs).triggering.control = false;
            QueueDefinition::Local(LocalQueueAttrs::clone(&st.attrs))
        };
        if let Err(e) = self.log_definition(&queue.name, &def) {
            tracing::warn!(queue = %queue.name, "NOTRIGGER after a depth trigger was not logged: {}", e.detail);
        }
    }

    /// Notes the initiation queue `a` names, if any (see [`Self::initiation_queue_opened`]).
    pub(crate) fn note_initiation_queue(&self, a: &ferry_model::objects::LocalQueueAttrs) {
        let initq = a.triggering.initiation_queue;
        if !initq.is_empty() {
            self.shared.initiation_queues.lock().insert(initq);
        }
    }

    /// A queue got its first reader: if it is an initiation queue, the queues it serves that
    /// hold messages their trigger conditions count are triggered now.
    pub(crate) fn initiation_queue_opened(&self, initq: &ObjectName) {
        if !self.shared.initiation_queues.lock().contains(initq) {
            return;
        }
        for q in self.local_queues() {
            let due = {
                let st = q.lock();
                st.attrs.triggering.initiation_queue == *initq && waiting_trigger(&st)
            };
            if due {
                if let Some(t) = self.trigger_for(&q) {
                    self.send_trigger(t);
                }
            }
        }
    }
}

/// Whether `st` holds messages its trigger conditions would have fired for.
fn waiting_trigger(st: &QueueState) -> bool {
    let t = &st.attrs.triggering;
    if !t.control || st.attrs.get_inhibited || t.trigger_type == TriggerType::None {
        return false;
    }
    let depth = t.depth as usize;
    let held = st.store.depth_at_or_above(t.msg_priority, depth.max(1));
    match t.trigger_type {
        TriggerType::Every => held > 0,
        _ if st.open_input > 0 => false,
        TriggerType::First => held > 0,
        _ => held >= depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mqtm_is_684_bytes_with_its_fields_in_place() {
        let q = ObjectName::new("APP.Q").unwrap();
        let p = ObjectName::new("APP.PROC").unwrap();
        let attrs = ferry_model::objects::ProcessAttrs {
            appl_type: 6,
            appl_id: "/bin/app".into(),
            ..Default::default()
        };
        let b = mqtm(&q, "data", &p, Some(&attrs));
        assert_eq!(b.len(), MQTM_LENGTH);
        assert_eq!(&b[..4], b"TM  ");
        assert_eq!(&b[8..13], b"APP.Q");
        assert_eq!(&b[56..64], b"APP.PROC");
        assert_eq!(&b[104..108], b"data");
        assert_eq!(i32::from_le_bytes(b[168..172].try_into().unwrap()), 6);
        assert_eq!(&b[172..180], b"/bin/app");
    }
}
