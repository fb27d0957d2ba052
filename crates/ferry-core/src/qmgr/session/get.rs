//! MQGET: matching, browsing with a cursor, waiting (blocking or as a future), truncation,
//! and what the application receives.

use super::*;

impl Session {
    /// Gets (or browses) a message, waiting if asked.
    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let deadline = match opts.wait {
            Wait::For(d) => Some(monotonic_now() + d),
            _ => None,
        };
        loop {
            match self.try_get(h, opts)? {
                GetAttempt::Got(g) => return Ok(g),
                GetAttempt::Wait(w) => {
                    let outcome = w.wait_blocking(deadline, self.qm.shared.wait);
                    if let Some(g) = self.finish_wait(h, opts, outcome)? {
                        return Ok(g);
                    }
                    if deadline.is_some_and(|d| monotonic_now() >= d) {
                        return Err(self.no_message(h));
                    }
                }
            }
        }
    }

    /// One get attempt that never blocks: a message, an error, or a waiter to wait on (only when
    /// `opts.wait` asks for waiting).
    pub fn try_get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<GetAttempt> {
        let r = self.try_get_message(h, opts);
        if r.is_err() {
            self.count_get_failed(
                h,
                matches!(opts.browse, BrowseMode::None | BrowseMode::GetUnderCursor),
            );
        }
        r
    }

    // Inlined into `try_get`: a got message is not moved through one more frame.
    #[inline(always)]
    fn try_get_message(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<GetAttempt> {
        self.check_running(opts.fail_if_quiescing)?;
        let browse = opts.browse;
        let destructive = matches!(browse, BrowseMode::None | BrowseMode::GetUnderCursor);
        let (queue, cursor) = self.get_handle(h, destructive)?;
        let uow = if opts.syncpoint && destructive {
            Some(self.uow_slot()?)
        } else {
            None
        };
        if let Some(selector) = self.queue_handle(h)?.selector.clone() {
            if matches!(
                browse,
                BrowseMode::None | BrowseMode::First | BrowseMode::Next
            ) {
                let sel = Selecting {
                    selector: &selector,
                    queue,
                    cursor,
                    uow,
                };
                return self.try_get_selected(h, opts, sel);
            }
        }
        let spec = GetSpec {
            criteria: Match {
                non_persistent_only: false,
                msg_id: opts.msg_id,
                correl_id: opts.correl_id,
            },
            uow,
            browse: match browse {
                BrowseMode::First => Some(None),
                BrowseMode::Next => Some(cursor),
                _ => None,
            },
            wait: opts.wait != Wait::No,
            max_len: opts.max_len,
            accept_truncated: opts.accept_truncated,
            batch: None,
        };
        let now = self.qm.clock().now();
        let step = step_at(&queue, browse, cursor, &spec, now)?;
        self.report_expired(&queue);
        match step {
            GetStep::Got {
                msg,
                pos,
                expires_at,
                lsn,
            } => {
                if spec.browse.is_some() || browse == BrowseMode::UnderCursor {
                    self.set_cursor(h, Some(pos));
                }
                self.got(queue, pos, uow, lsn)?;
                self.handed_over(h, destructive, &msg, uow.is_some());
                Ok(GetAttempt::Got(self.shape(msg, expires_at, opts, now)))
            }
            GetStep::Wait(waiter) => self.pending(waiter, queue, opts),
            GetStep::Empty => Err(self.no_message(h)),
        }
    }

    /// A get or browse through a handle with a selection string: the queue is browsed from its
    /// head (or the cursor) to the first message the selector selects, which is then got (or
    /// the cursor moved onto it). Messages it passes over stay where they are; a message got
    /// by another between the browse and the get is looked for again. With nothing selected
    /// and a wait asked, the handle waits as a browser: any new message wakes it to look again.
    /// Each get scans from the head, as MQ's selecting gets do: cost grows with the messages
    /// passed over.
    fn try_get_selected(
        &mut self,
        h: Hobj,
        opts: &GetOptions,
        sel: Selecting<'_>,
    ) -> MqResult<GetAttempt> {
        let destructive = opts.browse == BrowseMode::None;
        let criteria = Match {
            non_persistent_only: false,
            msg_id: opts.msg_id,
            correl_id: opts.correl_id,
        };
        let start = match opts.browse {
            BrowseMode::Next => sel.cursor,
            _ => None,
        };
        loop {
            let now = self.qm.clock().now();
            let (pos, msg, expires_at) =
                match select_first(&sel.queue, sel.selector, criteria, start, now)? {
                    Ok(found) => found,
                    Err(last) => {
                        return self.none_selected(h, opts, &sel.queue, criteria, last, now)
                    }
                };
            if !destructive {
                let len = msg.body.len();
                if opts.max_len.is_some_and(|m| len > m) && !opts.accept_truncated {
                    return Err(truncated(len, opts.max_len.unwrap_or(0)));
                }
                self.set_cursor(h, Some(pos));
                return Ok(GetAttempt::Got(self.shape(msg, expires_at, opts, now)));
            }
            let spec = GetSpec {
                criteria,
                uow: sel.uow,
                browse: None,
                wait: false,
                max_len: opts.max_len,
                accept_truncated: opts.accept_truncated,
                batch: None,
            };
            match sel.queue.get_at(pos, &spec, now) {
                Ok(GetStep::Got {
                    msg,
                    pos,
                    expires_at,
                    lsn,
                }) => {
                    self.got(sel.queue.clone(), pos, sel.uow, lsn)?;
                    self.handed_over(h, true, &msg, sel.uow.is_some());
                    return Ok(GetAttempt::Got(self.shape(msg, expires_at, opts, now)));
                }
                // Taken by another getter since the browse: look again.
                Err(e) if e.reason == Reason::NoMsgUnderCursor => continue,
                Ok(_) => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Nothing selected: NO_MSG_AVAILABLE, or (asked to wait) a browser's wait on the queue.
    fn none_selected(
        &mut self,
        h: Hobj,
        opts: &GetOptions,
        queue: &Arc<Queue>,
        criteria: Match,
        last: Option<Pos>,
        now: u64,
    ) -> MqResult<GetAttempt> {
        if opts.wait == Wait::No {
            return Err(self.no_message(h));
        }
        // Wait as a browser past the last message scanned (a message that came since the scan
        // is found at once, and the caller's loop looks again); every new message wakes it.
        let spec = GetSpec {
            criteria,
            uow: None,
            browse: Some(last),
            wait: true,
            max_len: None,
            accept_truncated: true,
            batch: None,
        };
        match queue.get(&spec, now)? {
            GetStep::Wait(w) => self.pending(w, queue.clone(), opts),
            // Something is there: the caller's loop looks again after a spurious wake.
            _ => {
                let w = Waiter::new(criteria, None, true, None, true);
                w.retry();
                self.pending(w, queue.clone(), opts)
            }
        }
    }

    /// The queue and browse cursor of a handle a get may use, checked against how it was
    /// opened (and its alias's GET inhibit).
    fn get_handle(&self, h: Hobj, destructive: bool) -> MqResult<(Arc<Queue>, Option<Pos>)> {
        let qh = self.queue_handle(h)?;
        if destructive && !qh.input {
            return Err(MqError::new(
                Reason::NotOpenForInput,
                format!("queue {} was not opened for input", qh.opened_name),
            ));
        }
        if !destructive && !qh.opts.browse {
            return Err(MqError::new(
                Reason::NotOpenForBrowse,
                format!("queue {} was not opened for browse", qh.opened_name),
            ));
        }
        if let (true, Some(a)) = (destructive, &qh.alias) {
            if a.lock().get_inhibited {
                return Err(MqError::new(
                    Reason::GetInhibited,
                    format!("gets are inhibited on alias queue {}", qh.opened_name),
                ));
            }
        }
        Ok((qh.queue.clone(), qh.cursor))
    }

    /// A message was got: it joins the unit of work, and its GET record is waited for as its
    /// durability needs.
    fn got(
        &mut self,
        queue: Arc<Queue>,
        pos: Pos,
        uow: Option<UowId>,
        lsn: Option<u64>,
    ) -> MqResult<()> {
        // HARDENBO: the get's record must be on disk before the message is handed over, so a
        // crash before the commit raises its backout count for certain.
        let harden = uow.is_some() && lsn.is_some() && queue.lock().attrs.harden_backout;
        if uow.is_none() && self.qm.performance_events() {
            self.qm.depth_after_get(&queue);
        }
        if let Some(u) = uow {
            debug_assert_eq!(Some(u), self.uow_id);
            self.join_uow(queue, pos, UowKind::Get);
        }
        if harden {
            self.uow_logged = true;
        }
        self.logged(lsn, uow.is_some() && !harden)
    }

    /// Nothing yet: the caller waits on `waiter` — unless the queue manager stopped or began
    /// quiescing just before it was registered.
    fn pending(
        &self,
        waiter: Arc<Waiter>,
        queue: Arc<Queue>,
        opts: &GetOptions,
    ) -> MqResult<GetAttempt> {
        let mut pending = PendingGet {
            waiter,
            queue,
            settled: false,
        };
        // A stop or quiesce that ended every wait just before this one registered must not
        // leave it waiting: the run state was set before the waits were ended.
        if let Err(e) = self.check_running(opts.fail_if_quiescing) {
            if let WaitOutcome::Delivered(d) = pending.cancel() {
                pending.give_back(WaitOutcome::Delivered(d));
            }
            return Err(e);
        }
        Ok(GetAttempt::Wait(pending))
    }

    /// Completes a wait begun by [`Session::try_get`]. `Ok(None)` means "try again".
    pub fn finish_wait(
        &mut self,
        h: Hobj,
        opts: &GetOptions,
        outcome: WaitOutcome,
    ) -> MqResult<Option<Got>> {
        match outcome {
            WaitOutcome::Delivered(d) => {
                let queue = match self.queue_handle(h) {
                    Ok(qh) => qh.queue.clone(),
                    Err(e) => return Err(e),
                };
                if let Some(pos) = d.pending_pos {
                    self.join_uow(queue, pos, UowKind::Get);
                }
                let destructive =
                    matches!(opts.browse, BrowseMode::None | BrowseMode::GetUnderCursor);
                self.handed_over(h, destructive, &d.msg, d.pending_pos.is_some());
                let now = self.qm.clock().now();
                Ok(Some(self.shape(d.msg, d.expires_at, opts, now)))
            }
            WaitOutcome::Retry => Ok(None),
            WaitOutcome::Ended(r) => {
                self.count_get_failed(
                    h,
                    !matches!(opts.browse, BrowseMode::First | BrowseMode::Next),
                );
                let name = self.queue_name(h).unwrap_or_default();
                Err(MqError::new(r, format!("the wait on queue {name} ended")))
            }
            WaitOutcome::TimedOut => {
                self.count_get_failed(
                    h,
                    !matches!(opts.browse, BrowseMode::First | BrowseMode::Next),
                );
                Err(self.no_message(h))
            }
        }
    }

    pub(super) fn no_message(&self, h: Hobj) -> MqError {
        let name = self.queue_name(h).unwrap_or_default();
        MqError::new(
            Reason::NoMsgAvailable,
            format!("no matching message on queue {name}"),
        )
    }

    /// `msg` is handed to the application (got when `destructive`, in the unit of work when
    /// `in_uow`): the handle's saved context, and the confirmation of delivery it asks for.
    fn handed_over(&mut self, h: Hobj, destructive: bool, msg: &Message, in_uow: bool) {
        self.count_got(h, destructive, msg);
        self.save_context(h, destructive, &msg.descriptor);
        if destructive {
            self.confirm_delivery(msg, in_uow);
        }
    }

    /// Counts a message got (`destructive`) or browsed (STATMQI).
    pub(super) fn count_got(&self, h: Hobj, destructive: bool, msg: &Message) {
        use crate::qmgr::apistats::slot;
        let stats = self.qm.mqi_stats();
        let (counts, bytes) = match destructive {
            true => (slot::GETS, slot::GET_BYTES),
            false => (slot::BROWSES, slot::BROWSE_BYTES),
        };
        let persistent = msg.descriptor.persistence == Persistence::Persistent;
        if !self.internal && stats.on() {
            stats.add_message(counts, bytes, persistent, msg.body.len());
        }
        if self.acct.is_some() {
            let queue = self.accounted_queue(h);
            self.account(|a, qm| {
                a.add(counts + usize::from(persistent), 1);
                a.add(bytes + usize::from(persistent), msg.body.len() as u64);
                if let Some(q) = &queue {
                    a.got(qm, q, destructive, Some(msg));
                }
            });
        }
    }

    /// Counts a get (`destructive`) or browse that found nothing or failed (STATMQI).
    fn count_get_failed(&self, h: Hobj, destructive: bool) {
        use crate::qmgr::apistats::slot;
        let stats = self.qm.mqi_stats();
        let at = if destructive {
            slot::GETS_FAILED
        } else {
            slot::BROWSES_FAILED
        };
        if !self.internal && stats.on() {
            stats.add(at, 1);
        }
        if self.acct.is_some() {
            let queue = self.accounted_queue(h);
            self.account(|a, qm| {
                a.add(at, 1);
                if let Some(q) = &queue {
                    a.got(qm, q, destructive, None);
                }
            });
        }
    }

    /// MQOO_SAVE_ALL_CONTEXT: a destructive get keeps the message's context for a put to
    /// pass; a browse leaves none (MQ's MQRC_CONTEXT_NOT_AVAILABLE after a browse).
    fn save_context(
        &mut self,
        h: Hobj,
        destructive: bool,
        d: &ferry_model::message::MessageDescriptor,
    ) {
        if let Some(Handle::Queue(qh)) = self.handles.get_mut(&h.0) {
            if qh.opts.save_all_context {
                qh.saved_context = destructive.then_some(SavedContext {
                    user_id: d.user_id,
                    put_appl_name: d.put_appl_name,
                    put_time: d.put_time,
                });
            }
        }
    }

    pub(super) fn set_cursor(&mut self, h: Hobj, pos: Option<Pos>) {
        if let Some(Handle::Queue(qh)) = self.handles.get_mut(&h.0) {
            qh.cursor = pos;
        }
    }

    /// Fills in the output descriptor (expiry left) and applies truncation.
    pub(super) fn shape(
        &self,
        mut msg: Message,
        expires_at: u64,
        opts: &GetOptions,
        now: u64,
    ) -> Got {
        if expires_at != 0 {
            msg.descriptor.expiry =
                Some(Duration::from_nanos(expires_at.saturating_sub(now).max(1)));
        }
        let data_length = msg.body.len();
        let mut warning = None;
        if let Some(max) = opts.max_len {
            if data_length > max {
                msg.body = msg.body.slice(..max);
                warning = Some(Reason::TruncatedMsgAccepted);
            }
        }
        Got {
            message: msg,
            data_length,
            warning,
        }
    }
}

/// A selecting get's queue, selector, browse cursor and unit of work.
struct Selecting<'a> {
    selector: &'a ferry_model::selector::Selector,
    queue: Arc<Queue>,
    cursor: Option<Pos>,
    uow: Option<UowId>,
}

/// The first available message after `after` (from the head when `None`) that `criteria`
/// and `selector` both select: its slot, a copy and its expiry deadline; or, when none is,
/// the last message passed over (where a wait for more begins).
fn select_first(
    queue: &Queue,
    selector: &ferry_model::selector::Selector,
    criteria: Match,
    after: Option<Pos>,
    now: u64,
) -> MqResult<Result<(Pos, Message, u64), Option<Pos>>> {
    let mut spec = GetSpec {
        criteria,
        uow: None,
        browse: Some(after),
        wait: false,
        max_len: None,
        accept_truncated: true,
        batch: None,
    };
    loop {
        match queue.get(&spec, now)? {
            GetStep::Got {
                msg,
                pos,
                expires_at,
                ..
            } => {
                if selector.matches(&msg.descriptor, &msg.properties) {
                    return Ok(Ok((pos, msg, expires_at)));
                }
                spec.browse = Some(Some(pos));
            }
            GetStep::Empty | GetStep::Wait(_) => return Ok(Err(spec.browse.flatten())),
        }
    }
}

fn truncated(len: usize, max: usize) -> MqError {
    MqError {
        data_length: len,
        ..MqError::new(
            Reason::TruncatedMsgFailed,
            format!("the selected message is {len} bytes, longer than the {max}-byte buffer"),
        )
    }
}

/// The engine's get step for `browse` from `cursor` (the browse cursor's message for the
/// UNDER_CURSOR modes, which need one).
fn step_at(
    queue: &Queue,
    browse: BrowseMode,
    cursor: Option<Pos>,
    spec: &GetSpec,
    now: u64,
) -> MqResult<GetStep> {
    match (browse, cursor) {
        (BrowseMode::UnderCursor | BrowseMode::GetUnderCursor, None) => Err(MqError::new(
            Reason::NoMsgUnderCursor,
            "the browse cursor is not on a message; browse first",
        )),
        (BrowseMode::UnderCursor, Some(pos)) => queue.browse_at(pos, now),
        (BrowseMode::GetUnderCursor, Some(pos)) => queue.get_at(pos, spec, now),
        _ => queue.get(spec, now),
    }
}
