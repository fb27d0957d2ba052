//! Read-ahead: messages streamed to a client ahead of its gets, held as pending gets until
//! the client reports them consumed.

use super::*;

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
    /// message, a waiter (when `wait`), or `None` when the queue has none now.
    pub fn stream_next(&mut self, h: Hobj, wait: bool) -> MqResult<Option<GetAttempt>> {
        self.check_running(false)?;
        let qh = self.queue_handle(h)?;
        let Some(ledger) = &qh.stream else {
            return Err(MqError::new(
                Reason::OptionsError,
                "read-ahead is not in effect for this handle",
            ));
        };
        let spec = GetSpec {
            criteria: Match {
                msg_id: None,
                correl_id: None,
                non_persistent_only: true,
            },
            uow: Some(ledger.uow),
            browse: None,
            wait,
            max_len: None,
            accept_truncated: false,
        };
        let queue = qh.queue.clone();
        let now = self.qm.clock().now();
        match queue.get(&spec, now)? {
            GetStep::Got {
                msg,
                pos,
                expires_at,
                ..
            } => {
                self.ledger(h).pending.push_back(pos);
                self.count_got(h, true, &msg);
                self.confirm_delivery(&msg, false);
                Ok(Some(GetAttempt::Got(self.shape(
                    msg,
                    expires_at,
                    &GetOptions::new(),
                    now,
                ))))
            }
            GetStep::Wait(waiter) => Ok(Some(GetAttempt::Wait(PendingGet {
                waiter,
                queue,
                settled: false,
            }))),
            GetStep::Empty => Ok(None),
        }
    }

    /// Completes a stream wait begun by [`Session::stream_next`]; `Ok(None)` means try again.
    pub fn finish_stream_wait(&mut self, h: Hobj, outcome: WaitOutcome) -> MqResult<Option<Got>> {
        match outcome {
            WaitOutcome::Delivered(d) => {
                if let Some(pos) = d.pending_pos {
                    self.ledger(h).pending.push_back(pos);
                }
                self.count_got(h, true, &d.msg);
                self.confirm_delivery(&d.msg, false);
                let now = self.qm.clock().now();
                Ok(Some(self.shape(
                    d.msg,
                    d.expires_at,
                    &GetOptions::new(),
                    now,
                )))
            }
            WaitOutcome::Retry | WaitOutcome::TimedOut => Ok(None),
            WaitOutcome::Ended(r) => Err(MqError::new(r, "the read-ahead stream ended")),
        }
    }

    /// The client has consumed the `n` oldest streamed messages: they are gone for good.
    pub fn stream_consumed(&mut self, h: Hobj, n: usize) -> MqResult<()> {
        let qh = self.queue_handle(h)?;
        let queue = qh.queue.clone();
        let ledger = self.ledger(h);
        if n > ledger.pending.len() {
            return Err(MqError::new(
                Reason::OptionsError,
                format!(
                    "{n} messages reported consumed but only {} were streamed",
                    ledger.pending.len()
                ),
            ));
        }
        let done: Vec<Pos> = ledger.pending.drain(..n).collect();
        for pos in done {
            queue.commit_get(pos);
        }
        Ok(())
    }

    pub(super) fn ledger(&mut self, h: Hobj) -> &mut StreamLedger {
        match self.handles.get_mut(&h.0) {
            Some(Handle::Queue(QueueHandle {
                stream: Some(l), ..
            })) => l,
            _ => unreachable!("callers check the handle has a stream"),
        }
    }
}
