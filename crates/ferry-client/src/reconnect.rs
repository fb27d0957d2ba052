//! Automatic reconnection for local and tcp connections (MQ clients' most requested feature).
//!
//! The application's object handles are virtual: each maps to the server's current handle and
//! remembers how it was opened, so after a reconnection every handle is reopened and the
//! application keeps using the same values. What happened is reported, never guessed:
//!
//! - the call that met the broken connection fails with CALL_INTERRUPTED (2549): it may or may
//!   not have taken effect;
//! - if a unit of work was open, it was backed out by the queue manager when the connection
//!   died: the interrupted call (and the next commit) fail with BACKED_OUT (2003);
//! - async puts not yet confirmed by a status call are counted as failed with CALL_INTERRUPTED;
//! - temporary dynamic queues are recreated under the same name (their messages died with the
//!   old connection, as with MQ);
//! - if the queue manager does not come back within the configured time, calls fail with
//!   RECONNECT_FAILED (2548).
//!
//! Without reconnection configured, a broken connection stays broken (CONNECTION_BROKEN, 2009).

use ferry_model::IdKeyed;
use std::time::{Duration, Instant};

use ferry_model::{
    AttrValue, CloseOptions, GetOptions, Got, Hobj, Message, MqError, MqResult, ObjectDescriptor,
    ObjectName, OpenOptions, PutOptions, PutOutcome, PutResponseMode, Reason, Selector,
};

use crate::remote::{AsyncPutStatus, Remote};
use crate::{ClientOptions, Endpoint};

/// When and how long to try reconnecting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconnectOptions {
    /// Give up after trying for this long.
    pub timeout: Duration,
    /// First wait between attempts; doubled after each failure.
    pub initial_backoff: Duration,
    /// Longest wait between attempts.
    pub max_backoff: Duration,
}

impl Default for ReconnectOptions {
    fn default() -> Self {
        ReconnectOptions {
            timeout: Duration::from_secs(30 * 60),
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(10),
        }
    }
}

/// How a handle was opened, to open it again.
#[derive(Debug, Clone)]
pub(crate) struct Reopen {
    pub server: Hobj,
    pub od: ObjectDescriptor,
    pub opts: OpenOptions,
    /// A subscription handle: subscribed again (a durable one resumed) instead of opened.
    pub sub: Option<Resubscribe>,
    /// A managed subscription's queue: it comes back with its subscription, not by itself.
    pub with_sub: bool,
}

/// How a subscription handle is made again on a new connection.
#[derive(Debug, Clone)]
pub(crate) struct Resubscribe {
    pub sd: ferry_model::SubDescriptor,
    /// The application's handle of a provided subscription's queue.
    pub queue: Option<u32>,
    /// The application's handle of a managed subscription's queue.
    pub managed_queue: Option<u32>,
}

/// What a reconnecting conversation must remember across connections, whichever transport
/// carries it (blocking [`Reconnecting`] or the async API): virtual handles, whether a unit of
/// work is in progress, unconfirmed async puts.
#[derive(Debug, Default)]
pub(crate) struct Recovery {
    handles: IdKeyed<u32, Reopen>,
    next_handle: u32,
    /// A put or get in syncpoint succeeded since the last commit or backout.
    uow_active: bool,
    /// The unit of work died with a connection; the next commit must say so.
    uow_lost: bool,
    /// Async puts sent since the last status call.
    async_unconfirmed: u64,
    /// Async puts whose outcome a lost connection took with it.
    async_lost: u64,
    reconnections: u64,
}

impl Recovery {
    /// How many times the conversation has been re-established.
    pub fn reconnections(&self) -> u64 {
        self.reconnections
    }

    /// The server's handle behind an application handle.
    pub fn server(&self, h: Hobj) -> MqResult<Hobj> {
        self.handles.get(&h.0).map(|r| r.server).ok_or_else(|| {
            MqError::new(
                Reason::HobjError,
                format!("object handle {} is not open on this connection", h.0),
            )
        })
    }

    /// Records a handle the server opened; `resolved` is the queue's name as opened, so a
    /// dynamic queue is reopened under the name it was given and reply-to names stay valid.
    pub fn opened(
        &mut self,
        server: Hobj,
        od: &ObjectDescriptor,
        opts: OpenOptions,
        resolved: impl FnOnce() -> MqResult<ObjectName>,
    ) -> MqResult<Hobj> {
        let od = match od {
            ObjectDescriptor::Queue {
                name,
                dynamic_name: Some(_),
                selector,
            } => ObjectDescriptor::Queue {
                name: *name,
                dynamic_name: Some(resolved()?.to_string()),
                selector: selector.clone(),
            },
            other => other.clone(),
        };
        Ok(self.record(Reopen {
            server,
            od,
            opts,
            sub: None,
            with_sub: false,
        }))
    }

    fn record(&mut self, r: Reopen) -> Hobj {
        self.next_handle = self.next_handle.max(1);
        let id = self.next_handle;
        self.next_handle += 1;
        self.handles.insert(id, r);
        Hobj(id)
    }

    /// Records what MQSUB opened: a managed queue's handle (when `queue` is `None`) and the
    /// subscription's, so both come back after a reconnection — the subscription made again
    /// (a durable one resumed; a non-durable one new: what was published meanwhile is lost, as
    /// with MQ). Returns the application's (queue, subscription) handles.
    pub fn subscribed(
        &mut self,
        server: (Hobj, Hobj),
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
        queue_name: ObjectName,
    ) -> (Hobj, Hobj) {
        let q = match queue {
            Some(q) => q,
            None => self.record(Reopen {
                server: server.0,
                od: ObjectDescriptor::queue(queue_name),
                opts: OpenOptions::input(),
                sub: None,
                with_sub: true,
            }),
        };
        let mut again = sd.clone();
        if sd.durable {
            again.action = ferry_model::SubAction::Resume;
        }
        let s = self.record(Reopen {
            server: server.1,
            od: ObjectDescriptor::topic(&sd.topic),
            opts: OpenOptions::default(),
            sub: Some(Resubscribe {
                sd: again,
                queue: queue.map(|h| h.0),
                managed_queue: queue.is_none().then_some(q.0),
            }),
            with_sub: false,
        });
        (q, s)
    }

    /// Closed is closed: even if the connection broke meanwhile, the handle is gone.
    pub fn closed(&mut self, h: Hobj) {
        self.handles.remove(&h.0);
    }

    pub fn note_put(&mut self, syncpoint: bool, async_put: bool) {
        self.uow_active |= syncpoint;
        if async_put {
            self.async_unconfirmed += 1;
        }
    }

    pub fn note_get(&mut self, syncpoint: bool) {
        self.uow_active |= syncpoint;
    }

    /// Before a commit: a unit of work a lost connection took with it cannot be committed.
    pub fn before_commit(&mut self) -> MqResult<()> {
        if std::mem::take(&mut self.uow_lost) {
            return Err(MqError::new(
                Reason::BackedOut,
                "the connection was lost and re-established since this unit of work began; it was backed out",
            ));
        }
        Ok(())
    }

    /// After a commit or backout, whatever its outcome: no unit of work is in progress.
    pub fn ended_uow(&mut self) {
        self.uow_active = false;
    }

    /// Before a backout: backing out a lost unit of work is what the application wanted anyway.
    pub fn before_backout(&mut self) {
        self.uow_lost = false;
    }

    /// Adds async puts that a lost connection took with it to a status call's counts.
    pub fn status(&mut self, mut s: AsyncPutStatus) -> AsyncPutStatus {
        let lost = std::mem::take(&mut self.async_lost);
        self.async_unconfirmed = 0;
        if lost > 0 {
            s.failed += lost;
            s.first_failure.get_or_insert_with(|| {
                MqError::new(
                    Reason::CallInterrupted,
                    format!("{lost} async puts were in flight when the connection was lost; they may or may not have arrived"),
                )
            });
        }
        s
    }

    /// A new connection replaced a broken one: returns whether a unit of work was lost with it.
    pub fn reconnected(&mut self, in_uow: bool) -> bool {
        self.reconnections += 1;
        self.async_lost += std::mem::take(&mut self.async_unconfirmed);
        let lost_uow = self.uow_active || in_uow;
        self.uow_active = false;
        self.uow_lost |= lost_uow;
        lost_uow
    }

    /// The handles to reopen on a new connection, oldest first.
    pub fn to_reopen(&self) -> Vec<(u32, Reopen)> {
        let mut v: Vec<(u32, Reopen)> = self.handles.iter().map(|(k, r)| (*k, r.clone())).collect();
        v.sort_unstable_by_key(|(k, _)| *k);
        v
    }

    pub fn reopened(&mut self, id: u32, server: Hobj) {
        if let Some(e) = self.handles.get_mut(&id) {
            e.server = server;
        }
    }

    /// What the call that met the broken connection reports once it has been re-established.
    pub fn interrupted(lost_uow: bool) -> MqError {
        if lost_uow {
            MqError::new(
                Reason::BackedOut,
                "the connection was lost and re-established; the unit of work in progress was backed out",
            )
        } else {
            MqError::new(
                Reason::CallInterrupted,
                "the connection was lost during this call and re-established",
            )
        }
    }
}

/// The waits between reconnection attempts, and when to give up.
#[derive(Debug)]
pub(crate) struct Backoff {
    policy: ReconnectOptions,
    started: Instant,
    next: Duration,
}

impl Backoff {
    pub fn new(policy: &ReconnectOptions) -> Backoff {
        Backoff {
            policy: policy.clone(),
            started: Instant::now(),
            next: policy.initial_backoff,
        }
    }

    /// After a failed attempt: how long to wait before the next, or the error to give up with.
    pub fn after_failure(&mut self, e: &MqError) -> MqResult<Duration> {
        if self.started.elapsed() + self.next > self.policy.timeout {
            tracing::error!(error = %e, "reconnection gave up");
            return Err(MqError::new(
                Reason::ReconnectFailed,
                format!(
                    "the connection was lost and could not be re-established within {:?}: {}",
                    self.policy.timeout, e.detail
                ),
            ));
        }
        let wait = self.next;
        self.next = (self.next * 2).min(self.policy.max_backoff);
        Ok(wait)
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// A remote conversation that survives the loss of its connection.
#[derive(Debug)]
pub(crate) struct Reconnecting {
    remote: Remote,
    endpoint: Endpoint,
    app_name: String,
    opts: ClientOptions,
    rec: Recovery,
}

impl Reconnecting {
    pub fn connect(endpoint: Endpoint, app_name: &str, opts: &ClientOptions) -> MqResult<Self> {
        let remote = dial(&endpoint, app_name, opts)?;
        Ok(Reconnecting {
            remote,
            endpoint,
            app_name: app_name.to_owned(),
            opts: opts.clone(),
            rec: Recovery::default(),
        })
    }

    pub fn remote(&self) -> &Remote {
        &self.remote
    }

    /// How many times this connection has been re-established.
    pub fn reconnections(&self) -> u64 {
        self.rec.reconnections()
    }

    /// Runs `f` on the current connection; on a broken connection, reconnects (if configured)
    /// and reports the interruption.
    fn call<T>(&mut self, in_uow: bool, f: impl FnOnce(&mut Remote) -> MqResult<T>) -> MqResult<T> {
        match f(&mut self.remote) {
            Err(e) if e.reason == Reason::ConnectionBroken => Err(self.recover(e, in_uow)),
            r => r,
        }
    }

    fn recover(&mut self, broken: MqError, in_uow: bool) -> MqError {
        let Some(policy) = self.opts.reconnect.clone() else {
            return broken;
        };
        tracing::warn!(endpoint = ?self.endpoint, error = %broken, "connection lost; reconnecting");
        let mut backoff = Backoff::new(&policy);
        let remote = loop {
            match dial(&self.endpoint, &self.app_name, &self.opts) {
                Ok(r) => break r,
                Err(e) => match backoff.after_failure(&e) {
                    Ok(wait) => std::thread::sleep(wait),
                    Err(gave_up) => return gave_up,
                },
            }
        };
        self.remote = remote;
        let lost_uow = self.rec.reconnected(in_uow);
        for (id, r) in self.rec.to_reopen() {
            if let Err(e) = self.reopen(id, r) {
                tracing::error!(error = %e, "a handle could not be reopened after reconnecting");
                return e;
            }
        }
        tracing::info!(attempts_for = ?backoff.elapsed(), "reconnected; handles reopened");
        Recovery::interrupted(lost_uow)
    }

    /// Opens (or subscribes) again one handle of the broken connection.
    fn reopen(&mut self, id: u32, r: Reopen) -> MqResult<()> {
        if r.with_sub {
            return Ok(());
        }
        let Some(sub) = r.sub else {
            let h = self.remote.open(&r.od, r.opts)?;
            self.rec.reopened(id, h);
            return Ok(());
        };
        let queue = sub.queue.map(|q| self.rec.server(Hobj(q))).transpose()?;
        let (q, s) = self.remote.subscribe(&sub.sd, queue)?;
        self.rec.reopened(id, s);
        if let Some(m) = sub.managed_queue {
            self.rec.reopened(m, q);
        }
        Ok(())
    }

    pub fn subscribe(
        &mut self,
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let server_queue = queue.map(|h| self.rec.server(h)).transpose()?;
        let server = self.call(false, |r| r.subscribe(sd, server_queue))?;
        let name = self.remote.queue_name(server.0)?;
        Ok(self.rec.subscribed(server, sd, queue, name))
    }

    pub fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        let server = self.rec.server(hsub)?;
        self.call(false, |r| r.sub_request(server))
    }

    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let server = self.call(false, |r| r.open(od, opts))?;
        let remote = &self.remote;
        self.rec
            .opened(server, od, opts, || remote.queue_name(server))
    }

    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        self.remote.queue_name(self.rec.server(h)?)
    }

    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let server = self.rec.server(h)?;
        let r = self.call(false, |r| r.close(server, opts));
        if !matches!(&r, Err(e) if e.reason == ferry_model::Reason::ReadAheadMsgs) {
            self.rec.closed(h);
        }
        r
    }

    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        let server = self.rec.server(h)?;
        let out = self.call(opts.syncpoint, |r| r.put(server, msg, opts))?;
        let async_put =
            opts.response == PutResponseMode::Async || self.remote.async_default(server);
        self.rec.note_put(
            opts.syncpoint,
            async_put && opts.response != PutResponseMode::Sync,
        );
        Ok(out)
    }

    pub fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let out = self.call(opts.syncpoint, |r| r.put1(od, msg, opts))?;
        self.rec
            .note_put(opts.syncpoint, opts.response == PutResponseMode::Async);
        Ok(out)
    }

    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let server = self.rec.server(h)?;
        let got = self.call(opts.syncpoint, |r| r.get(server, opts))?;
        self.rec.note_get(opts.syncpoint);
        Ok(got)
    }

    pub fn get_many(&mut self, h: Hobj, opts: &GetOptions, max: usize) -> MqResult<Vec<Got>> {
        let server = self.rec.server(h)?;
        let got = self.call(opts.syncpoint, |r| r.get_many(server, opts, max))?;
        self.rec.note_get(opts.syncpoint);
        Ok(got)
    }

    pub fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let server = self.rec.server(h)?;
        self.call(false, |r| r.inquire(server, selectors))
    }

    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let server = self.rec.server(h)?;
        self.call(false, |r| r.set(server, values))
    }

    pub fn commit(&mut self) -> MqResult<()> {
        self.rec.before_commit()?;
        let r = self.call(true, |r| r.commit());
        self.rec.ended_uow();
        r
    }

    pub fn backout(&mut self) -> MqResult<()> {
        self.rec.before_backout();
        let r = self.call(false, |r| r.backout());
        self.rec.ended_uow();
        r
    }

    pub fn admin(&mut self, script: &str) -> MqResult<Vec<u8>> {
        self.call(false, |r| r.admin(script))
    }

    pub fn channel_call(&mut self, req: &ferry_proto::Request) -> MqResult<ferry_proto::Reply> {
        self.call(false, |r| r.channel_call(req))
    }

    pub fn channel_send_lane(&mut self, req: &ferry_proto::Request, lane: usize) -> MqResult<u64> {
        self.call(false, |r| r.channel_send_lane(req, lane))
    }

    pub fn channel_next_answer(&mut self, opcode: u8) -> MqResult<(u64, ferry_proto::Reply)> {
        self.call(false, |r| r.channel_next_answer(opcode))
    }

    pub fn response_ready(&mut self) -> MqResult<bool> {
        self.call(false, |r| r.response_ready())
    }

    pub fn status(&mut self) -> MqResult<AsyncPutStatus> {
        let s = self.call(false, |r| r.status())?;
        Ok(self.rec.status(s))
    }

    pub fn disconnect(self) -> MqResult<()> {
        self.remote.disconnect()
    }
}

fn dial(endpoint: &Endpoint, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
    let shares = opts.share_conversations > 1 && !opts.channel;
    match endpoint {
        Endpoint::Unix(_) | Endpoint::Tcp(_) | Endpoint::Tls(_) if shares => {
            crate::shared::connect(endpoint, app_name, opts)
        }
        Endpoint::Unix(path) => Remote::unix(path, app_name, opts),
        Endpoint::Tcp(addr) => Remote::tcp(addr, app_name, opts),
        Endpoint::Tls(addr) => Remote::tls(addr, app_name, opts),
        Endpoint::Quic(addr) => Remote::quic(addr, app_name, opts),
        Endpoint::Embedded(_) => Err(MqError::new(
            Reason::UnexpectedError,
            "an embedded endpoint has no connection to lose",
        )),
    }
}

ferry_model::impl_mqi_by_inherent!(Reconnecting);
