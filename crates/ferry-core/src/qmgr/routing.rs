//! Routing to other queue managers (MQ's queue name resolution for distributed queuing): which
//! transmission queue a message for queue Q at queue manager M goes to — through a remote queue
//! definition, a queue manager alias, a transmission queue named after M, or the default
//! transmission queue — and the reply-to alias rewrite of a request's reply-to fields.
//!
//! Resolution, for a destination (queue Q, queue manager M):
//! 1. M blank or this queue manager: Q is local (and may itself be a remote queue definition,
//!    which names its own destination and, optionally, transmission queue).
//! 2. A QREMOTE named M with blank RNAME (a queue manager alias): its RQMNAME replaces M (and
//!    may be this queue manager: the message stays here), its XMITQ, if set, is the route.
//! 3. A local queue named M with USAGE(XMITQ).
//! 4. DEFXMITQ.
//!
//! Otherwise 2087 MQRC_UNKNOWN_REMOTE_Q_MGR. A route that names a queue that is not a local
//! USAGE(XMITQ) queue fails with 2091 / 2092.

use std::sync::Arc;

use crate::engine::queue::Queue;
use crate::qmgr::{Object, QueueManager};
use ferry_model::name::ObjectName;
use ferry_model::objects::{RemoteQueueAttrs, Usage};
use ferry_model::reason::{MqError, MqResult, Reason};

/// Queue manager aliases followed before a route is declared a loop.
const MAX_ALIAS_HOPS: usize = 8;

/// Where a destination resolves.
#[derive(Debug, Clone)]
pub(crate) enum Route {
    /// A queue on this queue manager.
    Local(ObjectName),
    /// Another queue manager, through a transmission queue.
    Remote {
        /// The transmission queue.
        xmitq: Arc<Queue>,
        /// The queue's name at the destination.
        queue: ObjectName,
        /// The destination queue manager.
        qmgr: ObjectName,
    },
}

impl QueueManager {
    /// The transmission queue `name`: a local queue with USAGE(XMITQ).
    fn xmit_queue(&self, name: &ObjectName, why: &str) -> MqResult<Arc<Queue>> {
        match self.lookup(name) {
            Some(Object::Local(q)) => {
                if q.lock().attrs.usage != Usage::Transmission {
                    return Err(MqError::new(
                        Reason::XmitQUsageError,
                        format!("{why}: queue {name} is not a transmission queue; ALTER QLOCAL({name}) USAGE(XMITQ)"),
                    ));
                }
                Ok(q)
            }
            Some(_) => Err(MqError::new(
                Reason::XmitQTypeError,
                format!("{why}: {name} is not a local queue"),
            )),
            None => Err(MqError::new(
                Reason::XmitQTypeError,
                format!("{why}: transmission queue {name} is not defined"),
            )),
        }
    }

    /// Resolves the destination (`queue` at `qmgr`); see the module documentation.
    pub(crate) fn route(&self, queue: ObjectName, qmgr: ObjectName) -> MqResult<Route> {
        let me = self.name();
        let mut qmgr = qmgr;
        for _ in 0..MAX_ALIAS_HOPS {
            if qmgr.is_empty() || qmgr == me {
                return Ok(Route::Local(queue));
            }
            match self.lookup(&qmgr) {
                Some(Object::Remote(a)) if a.lock().remote_name.is_empty() => {
                    let a = a.lock().clone();
                    let target = if a.remote_qmgr.is_empty() {
                        qmgr
                    } else {
                        a.remote_qmgr
                    };
                    if !a.xmit_queue.is_empty() {
                        if target == me {
                            return Ok(Route::Local(queue));
                        }
                        let why = format!("queue manager alias {qmgr}");
                        return Ok(Route::Remote {
                            xmitq: self.xmit_queue(&a.xmit_queue, &why)?,
                            queue,
                            qmgr: target,
                        });
                    }
                    if target == qmgr {
                        return self.default_route(queue, qmgr);
                    }
                    qmgr = target;
                }
                Some(Object::Local(_)) => {
                    let why = format!("the route to queue manager {qmgr}");
                    return Ok(Route::Remote {
                        xmitq: self.xmit_queue(&qmgr, &why)?,
                        queue,
                        qmgr,
                    });
                }
                _ => return self.default_route(queue, qmgr),
            }
        }
        Err(MqError::new(
            Reason::UnknownRemoteQMgr,
            format!("queue manager aliases for {qmgr} loop (more than {MAX_ALIAS_HOPS} hops)"),
        ))
    }

    fn default_route(&self, queue: ObjectName, qmgr: ObjectName) -> MqResult<Route> {
        let def = self.shared.attrs.read().default_xmit_queue;
        if def.is_empty() {
            return Err(MqError::new(
                Reason::UnknownRemoteQMgr,
                format!(
                    "there is no route to queue manager {qmgr}: define a transmission queue \
                     (DEFINE QLOCAL({qmgr}) USAGE(XMITQ)), a queue manager alias \
                     (DEFINE QREMOTE({qmgr}) RQMNAME(..) XMITQ(..)), or ALTER QMGR DEFXMITQ(..)"
                ),
            ));
        }
        Ok(Route::Remote {
            xmitq: self.xmit_queue(&def, "DEFXMITQ")?,
            queue,
            qmgr,
        })
    }

    /// Resolves a remote queue definition: its destination and transmission queue.
    pub(crate) fn route_remote_definition(
        &self,
        name: &ObjectName,
        a: &RemoteQueueAttrs,
    ) -> MqResult<Route> {
        if a.remote_name.is_empty() {
            return Err(MqError::new(
                Reason::UnknownObjectName,
                format!(
                    "{name} is a queue manager alias (QREMOTE with blank RNAME); open a queue \
                     at queue manager {name} instead"
                ),
            ));
        }
        if !a.xmit_queue.is_empty() && !a.remote_qmgr.is_empty() && a.remote_qmgr != self.name() {
            let why = format!("remote queue {name}");
            return Ok(Route::Remote {
                xmitq: self.xmit_queue(&a.xmit_queue, &why)?,
                queue: a.remote_name,
                qmgr: a.remote_qmgr,
            });
        }
        self.route(a.remote_name, a.remote_qmgr)
    }

    /// The reply-to fields a request should carry: a blank reply-to queue manager becomes this
    /// queue manager, unless the reply-to queue is a reply-to alias (a QREMOTE whose RNAME and
    /// RQMNAME say where replies should really go).
    pub(crate) fn reply_to(&self, queue: ObjectName, qmgr: ObjectName) -> (ObjectName, ObjectName) {
        if queue.is_empty() || !qmgr.is_empty() {
            return (queue, qmgr);
        }
        if let Some(Object::Remote(a)) = self.lookup(&queue) {
            let a = a.lock();
            let q = if a.remote_name.is_empty() {
                queue
            } else {
                a.remote_name
            };
            let m = if a.remote_qmgr.is_empty() {
                self.name()
            } else {
                a.remote_qmgr
            };
            return (q, m);
        }
        (queue, self.name())
    }
}
