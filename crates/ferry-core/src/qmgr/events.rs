//! Event messages (MQ's instrumentation events) on the system event queues: authority events
//! on SYSTEM.ADMIN.QMGR.EVENT when QMGR AUTHOREV is ENABLED, channel events on
//! SYSTEM.ADMIN.CHANNEL.EVENT when CHLEV is ENABLED. Each is a non-persistent PCF message
//! (format MQEVENT; `ferry_model::pcf`). A full event queue drops the event (its MAXDEPTH
//! bounds what a flood of refusals can fill), and the log says so once in a while.

use ferry_model::message::{format, Message};
use ferry_model::pcf::{self, Param};
use ferry_model::security::Principal;

use crate::qmgr::system::{CHANNEL_EVENT_QUEUE, QMGR_EVENT_QUEUE};
use crate::qmgr::QueueManager;

impl QueueManager {
    /// Puts an event message built from `command`, `reason` and `params` on `queue`.
    fn put_event(&self, queue: &str, command: i32, reason: i32, mut params: Vec<Param>) {
        params.insert(0, Param::Str(pcf::CA_Q_MGR_NAME, self.name().to_string()));
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
