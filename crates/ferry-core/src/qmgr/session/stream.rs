//! Read-ahead: non-persistent messages streamed to a client ahead of its gets. As with MQ, a
//! streamed message leaves the queue when it is sent: what sits in the client's buffer is lost
//! if the handle is closed (MQCO_IMMEDIATE) or the connection dies. The client reports what it
//! consumed only for flow control.

use super::*;
use crate::engine::Room;

impl Session {
    /// Whether puts "as queue default" through this handle are asynchronous (the DEFPRESP of the
    /// queue, or of the alias it was opened through).
    pub fn async_put_default(&self, h: Hobj) -> bool {
        let Ok(qh) = self.queue_handle(h) else {
            return false;
        };
        let d = match &qh.alias {
            Some(a) => a.lock().def_put_response,
            None => qh.queue.lock().attrs.def_put_response,
        };
        d == ferry_model::objects::PutResponse::Async
    }

    /// Whether read-ahead is in effect for a handle (asked for at open, or the queue's DEFREADA,
    /// and not DISABLED).
    pub fn read_ahead(&self, h: Hobj) -> bool {
        self.queue_handle(h).is_ok_and(|qh| qh.stream.is_some())
    }

    /// Takes the next non-persistent message for a read-ahead stream without blocking: a
    /// message, a waiter with room for a batch (when `wait` gives the room), or `None` when the
    /// queue has none now.
    pub fn stream_next(&mut self, h: Hobj, wait: Option<Room>) -> MqResult<Option<GetAttempt>> {
        let (queue, spec) = self.stream_spec(h, wait)?;
        let now = self.qm.clock().now();
        match queue.get(&spec, now)? {
            GetStep::Got {
                msg, expires_at, ..
            } => Ok(Some(GetAttempt::Got(
                self.streamed(h, msg, expires_at, now),
            ))),
            GetStep::Wait(waiter) => Ok(Some(GetAttempt::Wait(PendingGet {
                waiter,
                queue,
                settled: false,
            }))),
            GetStep::Empty => Ok(None),
        }
    }

    /// Takes what a read-ahead stream may push now, up to `room`, in one step (an empty answer:
    /// call [`Session::stream_next`], which also reads back spilled messages and waits).
    pub fn stream_take(&mut self, h: Hobj, room: Room) -> MqResult<Vec<Got>> {
        let (queue, spec) = self.stream_spec(h, None)?;
        let now = self.qm.clock().now();
        let mut taken = Vec::new();
        queue.take_batch(&spec, now, room, &mut taken)?;
        let mut got = Vec::with_capacity(taken.len());
        for (msg, expires_at) in taken {
            got.push(self.streamed(h, msg, expires_at, now));
        }
        Ok(got)
    }

    /// A read-ahead handle's queue and the get its stream makes: the next non-persistent
    /// message, outside any unit of work, waiting with room for a batch when `wait` gives it.
    fn stream_spec(&self, h: Hobj, wait: Option<Room>) -> MqResult<(Arc<Queue>, GetSpec)> {
        self.check_running(false)?;
        let qh = self.queue_handle(h)?;
        if qh.stream.is_none() {
            return Err(MqError::new(
                Reason::OptionsError,
                "read-ahead is not in effect for this handle",
            ));
        }
        let spec = GetSpec {
            criteria: Match {
                msg_id: None,
                correl_id: None,
                non_persistent_only: true,
            },
            uow: None,
            browse: None,
            wait: wait.is_some(),
            max_len: None,
            accept_truncated: false,
            batch: wait,
        };
        Ok((qh.queue.clone(), spec))
    }

    /// Completes a stream wait begun by [`Session::stream_next`]: the batch handed over, in
    /// order (empty: try again).
    pub fn finish_stream_wait(&mut self, h: Hobj, outcome: WaitOutcome) -> MqResult<Vec<Got>> {
        match outcome {
            WaitOutcome::Delivered(mut d) => {
                debug_assert!(
                    d.pending_pos.is_none(),
                    "a stream gets outside any unit of work"
                );
                let now = self.qm.clock().now();
                let more = std::mem::take(&mut d.more);
                let mut got = Vec::with_capacity(1 + more.len());
                for d in std::iter::once(d).chain(more) {
                    got.push(self.streamed(h, d.msg, d.expires_at, now));
                }
                Ok(got)
            }
            WaitOutcome::Retry | WaitOutcome::TimedOut => Ok(Vec::new()),
            WaitOutcome::Ended(r) => Err(MqError::new(r, "the read-ahead stream ended")),
        }
    }

    /// Accounts for one streamed message and shapes it for the wire.
    fn streamed(&mut self, h: Hobj, msg: Message, expires_at: u64, now: u64) -> Got {
        self.ledger(h).streamed += 1;
        self.count_got(h, true, &msg);
        self.confirm_delivery(&msg, false);
        self.shape(msg, expires_at, &GetOptions::new(), now)
    }

    /// The client has consumed the `n` oldest streamed messages (flow control only: they left
    /// the queue when they were streamed).
    pub fn stream_consumed(&mut self, h: Hobj, n: usize) -> MqResult<()> {
        self.queue_handle(h)?;
        let ledger = self.ledger(h);
        if n > ledger.streamed {
            return Err(MqError::new(
                Reason::OptionsError,
                format!(
                    "{n} messages reported consumed but only {} were streamed",
                    ledger.streamed
                ),
            ));
        }
        ledger.streamed -= n;
        Ok(())
    }

    pub(super) fn ledger(&mut self, h: Hobj) -> &mut StreamLedger {
        match self.handles.get_mut(&h.0) {
            Some(Handle::Queue(qh)) => match &mut qh.stream {
                Some(l) => l,
                None => unreachable!("callers check the handle has a stream"),
            },
            _ => unreachable!("callers check the handle has a stream"),
        }
    }
}
