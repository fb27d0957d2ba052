//! The async (tokio) application API: [`AsyncConnection`], with the same verbs, types and reason
//! codes as the blocking [`crate::Connection`], over every mode.
//!
//! Remote shape: one I/O task per socket (a *link*) owns the socket; conversations send it
//! encoded frames through a bounded channel (async puts wait there when the link is busy, which is
//! the backpressure) and receive their responses through one-shot channels keyed by
//! (conversation, request id). Several conversations may share one socket — MQ's SHARECNV — with
//! [`AsyncConnection::share`]. The link writes everything queued in one write and decodes every
//! complete frame of a read before sleeping again, so many connections served from one thread
//! cost one wake-up per batch rather than one per message.
//!
//! Embedded: calls go straight to the engine; a waiting get is a future on the engine's waiter.
//!
//! Automatic reconnection (`ClientOptions::reconnect`) works as for the blocking API, with the
//! same bookkeeping ([`crate::reconnect::Recovery`]); conversations that shared a socket share
//! its replacement.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
#[cfg(feature = "embedded")]
use ferry_core::{GetAttempt, Session};
#[cfg(feature = "embedded")]
use ferry_model::ConnectOptions;
use ferry_model::{
    AttrValue, CloseOptions, ConnMode, GetOptions, Got, Hobj, IdKeyed, Message, MqError, MqResult,
    ObjectDescriptor, ObjectName, OpenOptions, PutOptions, PutOutcome, PutResponseMode, Reason,
    Selector, Wait,
};
use ferry_proto::compress::Compression;
use ferry_proto::{
    decode_frame, decode_response, Frame, Opcode, Preamble, Reply, Request, Status,
    DEFAULT_MAX_FRAME, FLAG_PUSH, PREAMBLE_LEN,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

use crate::conv::{broken, got_of, ok_reply, ConvCore, PutTarget, ReadAheadGet, ReadAheadStep};
use crate::reconnect::{Backoff, Recovery};
use crate::remote::AsyncPutStatus;
#[cfg(feature = "embedded")]
use crate::{open_embedded, EmbeddedQm};
use crate::{ClientOptions, Endpoint};

/// Frames a link may hold queued before senders wait.
const LINK_QUEUE: usize = 1024;

type Waiting = oneshot::Sender<MqResult<Frame>>;

enum Out {
    Send {
        bytes: BytesMut,
        wait: Option<(u16, u64, Waiting)>,
    },
    Attach {
        conv: u16,
        pushes: mpsc::UnboundedSender<Vec<Frame>>,
    },
    Detach {
        conv: u16,
    },
    Heartbeat(Duration),
}

/// One socket shared by one or more conversations.
#[derive(Debug)]
struct Link {
    tx: mpsc::Sender<Out>,
    next_conv: AtomicU16,
    max_frame_out: usize,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Out")
    }
}

/// A conversation over a link.
#[derive(Debug)]
struct AsyncConv {
    link: Arc<Link>,
    core: ConvCore,
    /// Pushed frames, handed over a read's worth at a time.
    pushes: mpsc::UnboundedReceiver<Vec<Frame>>,
    /// Encoding buffer; each frame is split off it.
    buf: BytesMut,
    /// Disconnected: nothing more to send when dropped.
    ended: bool,
}

#[derive(Debug)]
enum Inner {
    #[cfg(feature = "embedded")]
    Embedded {
        session: Session,
        _host: Option<Arc<EmbeddedQm>>,
    },
    Remote(Box<RemoteConn>),
}

/// A remote conversation as the application sees it: virtual handles that survive a
/// reconnection (reconnect.rs), and what is needed to re-establish it.
#[derive(Debug)]
struct RemoteConn {
    conv: AsyncConv,
    mode: ConnMode,
    endpoint: Endpoint,
    app_name: String,
    opts: ClientOptions,
    /// The socket this conversation and those sharing it (SHARECNV) use now: the first of them
    /// to find it broken dials a new one, the others start their conversations on it.
    socket: Arc<tokio::sync::Mutex<Arc<Link>>>,
    rec: Recovery,
}

/// Runs a call on a remote connection's current conversation; a broken connection is
/// re-established (when reconnection is configured) and the interruption reported.
macro_rules! on_conv {
    ($r:expr, $in_uow:expr, |$c:ident| $body:expr) => {{
        let result = {
            let $c = &mut $r.conv;
            $body
        };
        match result {
            Err(e) if e.reason == Reason::ConnectionBroken => Err($r.recover(e, $in_uow).await),
            other => other,
        }
    }};
}

/// A connection to a queue manager for async code. See the module documentation.
///
/// Dropping it without [`AsyncConnection::disconnect`] counts as the application ending
/// abnormally: its unit of work is backed out.
#[derive(Debug)]
pub struct AsyncConnection {
    inner: Inner,
}

impl AsyncConnection {
    /// Connects by connection string (`embedded:`, `unix:`, `tcp://`, `tls://`). Must be called
    /// inside a tokio runtime: the socket's I/O task is spawned on it.
    pub async fn connect(
        endpoint: &str,
        app_name: &str,
        opts: &ClientOptions,
    ) -> MqResult<AsyncConnection> {
        let (endpoint, opts) = opts.with_endpoint_credentials(endpoint);
        let opts = &opts;
        let endpoint = Endpoint::parse(&endpoint)?;
        #[cfg(not(feature = "embedded"))]
        if let Endpoint::Embedded(_) = &endpoint {
            return Err(crate::no_embedded());
        }
        #[cfg(feature = "embedded")]
        if let Endpoint::Embedded(dir) = &endpoint {
            let host = open_embedded(dir)?;
            let session = host
                .queue_manager()
                .connect(&ConnectOptions::app(app_name))?;
            return Ok(AsyncConnection {
                inner: Inner::Embedded {
                    session,
                    _host: Some(host),
                },
            });
        }
        let (link, mode) = dial_link(&endpoint, opts).await?;
        let conv = AsyncConv::start(link.clone(), 1, app_name, opts).await?;
        Ok(AsyncConnection {
            inner: Inner::Remote(Box::new(RemoteConn {
                conv,
                mode,
                endpoint,
                app_name: app_name.to_owned(),
                opts: opts.clone(),
                socket: Arc::new(tokio::sync::Mutex::new(link)),
                rec: Recovery::default(),
            })),
        })
    }

    /// Connects in-process to a queue manager this program holds.
    #[cfg(feature = "embedded")]
    pub fn embedded(qm: &ferry_core::QueueManager, app_name: &str) -> MqResult<AsyncConnection> {
        let session = qm.connect(&ConnectOptions::app(app_name))?;
        Ok(AsyncConnection {
            inner: Inner::Embedded {
                session,
                _host: None,
            },
        })
    }

    /// Another connection over the same socket (MQ's shared conversations, SHARECNV): its own
    /// handles and unit of work, one socket and one I/O task for both.
    pub async fn share(&self, app_name: &str, opts: &ClientOptions) -> MqResult<AsyncConnection> {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => {
                AsyncConnection::embedded(session.queue_manager(), app_name)
            }
            Inner::Remote(r) => {
                // Options naming no user connect as the same user as this conversation.
                let mut opts = opts.clone();
                if opts.user.is_none() && opts.password.is_none() {
                    opts.user.clone_from(&r.opts.user);
                    opts.password.clone_from(&r.opts.password);
                }
                let opts = &opts;
                let link = r.socket.lock().await.clone();
                let id = link.next_conv.fetch_add(1, Ordering::Relaxed);
                let conv = AsyncConv::start(link, id, app_name, opts).await?;
                Ok(AsyncConnection {
                    inner: Inner::Remote(Box::new(RemoteConn {
                        conv,
                        mode: r.mode,
                        endpoint: r.endpoint.clone(),
                        app_name: app_name.to_owned(),
                        opts: opts.clone(),
                        socket: r.socket.clone(),
                        rec: Recovery::default(),
                    })),
                })
            }
        }
    }

    /// The connection mode.
    pub fn mode(&self) -> ConnMode {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { .. } => ConnMode::Embedded,
            Inner::Remote(r) => r.mode,
        }
    }

    /// How many times this connection has been re-established (see
    /// [`ClientOptions::reconnect`]).
    pub fn reconnections(&self) -> u64 {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { .. } => 0,
            Inner::Remote(r) => r.rec.reconnections(),
        }
    }

    /// The queue manager's name.
    pub fn queue_manager_name(&self) -> ObjectName {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => session.queue_manager().name(),
            Inner::Remote(r) => r.conv.core.qmgr,
        }
    }

    /// The compression negotiated, and the fraction of payload bytes it saved so far.
    pub fn compression(&self) -> (Option<Compression>, Option<f64>) {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { .. } => (None, None),
            Inner::Remote(r) => r.conv.core.compression(),
        }
    }

    /// Opens an object (MQOPEN).
    pub async fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.open(od, opts)).await,
            Inner::Remote(r) => r.open(od, opts).await,
        }
    }

    /// Subscribes (MQSUB): the queue handle publications arrive on and the subscription's
    /// handle (see [`crate::Connection::subscribe`]).
    pub async fn subscribe(
        &mut self,
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.subscribe(sd, queue)).await,
            Inner::Remote(r) => r.subscribe(sd, queue).await,
        }
    }

    /// MQSUBRQ: the retained publications the subscription matches, sent again; how many
    /// (see [`crate::Connection::sub_request`]).
    pub async fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.sub_request(hsub)).await,
            Inner::Remote(r) => r.sub_request(hsub).await,
        }
    }

    /// Opens a queue by name.
    pub async fn open_queue(&mut self, name: &str, opts: OpenOptions) -> MqResult<Hobj> {
        let od = ObjectDescriptor::queue(ferry_model::object_name(name)?);
        self.open(&od, opts).await
    }

    /// Opens a model queue, creating a dynamic queue named from `pattern`.
    pub async fn open_dynamic(
        &mut self,
        model: &str,
        pattern: &str,
        opts: OpenOptions,
    ) -> MqResult<Hobj> {
        let od = ObjectDescriptor::model(ferry_model::object_name(model)?, pattern);
        self.open(&od, opts).await
    }

    /// The resolved name of the queue behind a handle.
    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        match &self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => session.queue_name(h),
            Inner::Remote(r) => r.conv.core.queue_name(r.rec.server(h)?),
        }
    }

    /// Closes a handle (MQCLOSE).
    pub async fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.close(h, opts)).await,
            Inner::Remote(r) => r.close(h, opts).await,
        }
    }

    /// Puts a message (MQPUT). An async put returns once the request is queued on the socket.
    pub async fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.put(h, msg, opts)).await,
            Inner::Remote(r) => r.put(PutTarget::Handle(h), msg, opts).await,
        }
    }

    /// Opens, puts and closes in one call (MQPUT1).
    pub async fn put1(
        &mut self,
        queue: &str,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let od = ObjectDescriptor::queue(ferry_model::object_name(queue)?);
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.put1(&od, msg, opts)).await,
            Inner::Remote(r) => r.put(PutTarget::Object(&od), msg, opts).await,
        }
    }

    /// Gets or browses a message (MQGET); a wait suspends the task, not the thread.
    pub async fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => embedded_get(session, h, opts).await,
            Inner::Remote(r) => r.get(h, opts).await,
        }
    }

    /// Reads attributes (MQINQ).
    pub async fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => session.inquire(h, selectors),
            Inner::Remote(r) => {
                let h = r.rec.server(h)?;
                on_conv!(r, false, |c| ConvCore::inquire_result(ok_reply(
                    c.call(&ConvCore::inquire_request(h, selectors), None)
                        .await?
                )?))
            }
        }
    }

    /// Sets the inhibit attributes (MQSET).
    pub async fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => session.set(h, values),
            Inner::Remote(r) => {
                let h = r.rec.server(h)?;
                on_conv!(r, false, |c| ok_reply(
                    c.call(&ConvCore::set_request(h, values)?, None).await?
                )
                .map(|_| ()))
            }
        }
    }

    /// Commits the unit of work (MQCMIT).
    pub async fn commit(&mut self) -> MqResult<()> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.commit()).await,
            Inner::Remote(r) => {
                r.rec.before_commit()?;
                let result = on_conv!(r, true, |c| ok_reply(c.call(&Request::Commit, None).await?)
                    .map(|_| ()));
                r.rec.ended_uow();
                result
            }
        }
    }

    /// Backs out the unit of work (MQBACK).
    pub async fn backout(&mut self) -> MqResult<()> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { session, .. } => durably(session, |s| s.backout()).await,
            Inner::Remote(r) => {
                r.rec.before_backout();
                let result = on_conv!(r, false, |c| ok_reply(
                    c.call(&Request::Backout, None).await?
                )
                .map(|_| ()));
                r.rec.ended_uow();
                result
            }
        }
    }

    /// Async put outcomes since the last call (MQSTAT), which resets them.
    pub async fn async_put_status(&mut self) -> MqResult<AsyncPutStatus> {
        match &mut self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { .. } => Ok(AsyncPutStatus::default()),
            Inner::Remote(r) => {
                let s = on_conv!(r, false, |c| ConvCore::status_result(ok_reply(
                    c.call(&Request::Status, None).await?
                )?))?;
                Ok(r.rec.status(s))
            }
        }
    }

    /// Disconnects (MQDISC): commits the open unit of work and closes every handle.
    pub async fn disconnect(self) -> MqResult<()> {
        match self.inner {
            #[cfg(feature = "embedded")]
            Inner::Embedded { mut session, .. } => {
                // The commit disconnect makes is awaited here, then the handles close.
                durably(&mut session, |s| s.commit()).await?;
                session.disconnect()
            }
            Inner::Remote(r) => {
                let mut conv = r.conv;
                for r in conv.core.final_reports() {
                    conv.send(&r).await?;
                }
                let r = conv.call(&Request::Disconnect, None).await;
                conv.ended = true;
                ok_reply(r?).map(|_| ())
            }
        }
    }
}

impl RemoteConn {
    /// After a call met a broken connection: re-establishes the conversation if configured,
    /// reopens every handle, and returns what the interrupted call reports (reconnect.rs).
    /// Opens (or subscribes) again one handle of the broken connection.
    async fn reopen(&mut self, id: u32, r: crate::reconnect::Reopen) -> MqResult<()> {
        if r.with_sub {
            return Ok(());
        }
        let Some(sub) = r.sub else {
            let h = self.conv.open(&r.od, r.opts).await?;
            self.rec.reopened(id, h);
            return Ok(());
        };
        let queue = sub.queue.map(|q| self.rec.server(Hobj(q))).transpose()?;
        let (q, s) = self.conv.subscribe(&sub.sd, queue).await?;
        self.rec.reopened(id, s);
        if let Some(m) = sub.managed_queue {
            self.rec.reopened(m, q);
        }
        Ok(())
    }

    async fn recover(&mut self, broken: MqError, in_uow: bool) -> MqError {
        let Some(policy) = self.opts.reconnect.clone() else {
            return broken;
        };
        tracing::warn!(endpoint = ?self.endpoint, error = %broken, "connection lost; reconnecting");
        let mut backoff = Backoff::new(&policy);
        loop {
            match self.redial().await {
                // The old conversation, dropped here, backs out and disconnects if its socket
                // is in fact still alive (a call that timed out rather than a dead socket).
                Ok(conv) => {
                    self.conv = conv;
                    break;
                }
                Err(e) => match backoff.after_failure(&e) {
                    Ok(wait) => tokio::time::sleep(wait).await,
                    Err(gave_up) => return gave_up,
                },
            }
        }
        let lost_uow = self.rec.reconnected(in_uow);
        for (id, r) in self.rec.to_reopen() {
            if let Err(e) = self.reopen(id, r).await {
                tracing::error!(error = %e, "a handle could not be reopened after reconnecting");
                return e;
            }
        }
        tracing::info!(attempts_for = ?backoff.elapsed(), "reconnected; handles reopened");
        Recovery::interrupted(lost_uow)
    }

    /// A new conversation: on a new socket if this one's is still the current one or the
    /// current one has closed, else on the socket a sharing conversation already re-dialled.
    async fn redial(&self) -> MqResult<AsyncConv> {
        let mut current = self.socket.lock().await;
        let (link, id) = if Arc::ptr_eq(&current, &self.conv.link) || current.tx.is_closed() {
            let (link, _) = dial_link(&self.endpoint, &self.opts).await?;
            *current = link.clone();
            (link, 1)
        } else {
            let id = current.next_conv.fetch_add(1, Ordering::Relaxed);
            (current.clone(), id)
        };
        drop(current);
        AsyncConv::start(link, id, &self.app_name, &self.opts).await
    }

    async fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let server = on_conv!(self, false, |c| c.open(od, opts).await)?;
        let core = &self.conv.core;
        self.rec
            .opened(server, od, opts, || core.queue_name(server))
    }

    async fn subscribe(
        &mut self,
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let server_queue = queue.map(|h| self.rec.server(h)).transpose()?;
        let server = on_conv!(self, false, |c| c.subscribe(sd, server_queue).await)?;
        let name = self.conv.core.queue_name(server.0)?;
        Ok(self.rec.subscribed(server, sd, queue, name))
    }

    async fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        let server = self.rec.server(hsub)?;
        on_conv!(self, false, |c| c.sub_request(server).await)
    }

    async fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let server = self.rec.server(h)?;
        let result = on_conv!(self, false, |c| c.close(server, opts).await);
        self.rec.closed(h);
        result
    }

    /// MQPUT to an application handle, or MQPUT1 to an object.
    async fn put(
        &mut self,
        target: PutTarget<'_>,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let (target, async_default) = match target {
            PutTarget::Handle(h) => {
                let server = self.rec.server(h)?;
                (
                    PutTarget::Handle(server),
                    self.conv.core.async_default(server),
                )
            }
            object => (object, false),
        };
        let out = on_conv!(self, opts.syncpoint, |c| c.put(target, msg, opts).await)?;
        let async_put = opts.response == PutResponseMode::Async
            || (async_default && opts.response != PutResponseMode::Sync);
        self.rec.note_put(opts.syncpoint, async_put);
        Ok(out)
    }

    async fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let server = self.rec.server(h)?;
        let got = on_conv!(self, opts.syncpoint, |c| c.get(server, opts).await)?;
        self.rec.note_get(opts.syncpoint);
        Ok(got)
    }
}

/// Opens a socket to a remote endpoint and starts its link.
async fn dial_link(endpoint: &Endpoint, opts: &ClientOptions) -> MqResult<(Arc<Link>, ConnMode)> {
    let (rd, wr, mode): (
        Box<dyn AsyncRead + Send + Unpin>,
        Box<dyn AsyncWrite + Send + Unpin>,
        ConnMode,
    ) = match endpoint {
        Endpoint::Embedded(_) => {
            return Err(MqError::new(
                Reason::UnexpectedError,
                "an embedded endpoint has no socket",
            ))
        }
        Endpoint::Unix(path) => {
            let s = tokio::net::UnixStream::connect(path).await.map_err(|e| {
                MqError::new(
                    Reason::QMgrNotAvailable,
                    format!(
                        "cannot connect to {}: {e}; is the queue manager running?",
                        path.display()
                    ),
                )
            })?;
            let (r, w) = s.into_split();
            (Box::new(r), Box::new(w), ConnMode::Local)
        }
        Endpoint::Tcp(addr) => {
            let s = tcp(addr).await?;
            let (r, w) = s.into_split();
            (Box::new(r), Box::new(w), ConnMode::Tcp)
        }
        Endpoint::Tls(addr) => {
            let s = tls(addr, opts).await?;
            let (r, w) = tokio::io::split(s);
            (Box::new(r), Box::new(w), ConnMode::Tls)
        }
        Endpoint::Quic(addr) => {
            let o = crate::quic::open(addr, opts).await?;
            // The endpoint and connection live as long as the stream's halves need them.
            let keep = Arc::new(crate::quic::Guard {
                endpoint: Some(o.endpoint),
                conn: o.conn,
                close_on_drop: true,
            });
            (
                Box::new(crate::quic::Kept(o.recv, keep.clone())),
                Box::new(crate::quic::Kept(o.send, keep)),
                ConnMode::Quic,
            )
        }
    };
    Ok((start_link(rd, wr).await?, mode))
}

/// Runs an engine call for the async embedded mode without blocking the runtime's thread on
/// the disk: every durability wait inside it is deferred (`deferring`), and the highest LSN it
/// would have waited for is then awaited as a future on the log.
#[cfg(feature = "embedded")]
async fn durably<T>(
    session: &mut Session,
    f: impl FnOnce(&mut Session) -> MqResult<T>,
) -> MqResult<T> {
    let (r, lsn) = ferry_core::qmgr::journal::deferring(|| f(session));
    if let (Some(lsn), Some(d)) = (lsn, session.queue_manager().durability()) {
        std::future::poll_fn(|cx| d.poll_durable(lsn, cx.waker())).await?;
    }
    r
}

#[cfg(feature = "embedded")]
async fn embedded_get(session: &mut Session, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
    let deadline = match opts.wait {
        Wait::For(d) => Some(tokio::time::Instant::now() + d),
        _ => None,
    };
    loop {
        match durably(session, |s| s.try_get(h, opts)).await? {
            GetAttempt::Got(g) => return Ok(g),
            GetAttempt::Wait(mut pending) => {
                let waiting = std::future::poll_fn(|cx| match pending.poll(cx.waker()) {
                    Some(o) => std::task::Poll::Ready(o),
                    None => std::task::Poll::Pending,
                });
                let outcome = match deadline {
                    None => waiting.await,
                    Some(d) => match tokio::time::timeout_at(d, waiting).await {
                        Ok(o) => o,
                        Err(_) => pending.cancel(),
                    },
                };
                if let Some(g) = durably(session, |s| s.finish_wait(h, opts, outcome)).await? {
                    return Ok(g);
                }
                if deadline.is_some_and(|d| tokio::time::Instant::now() >= d) {
                    return Err(MqError::new(
                        Reason::NoMsgAvailable,
                        "no matching message arrived within the wait interval",
                    ));
                }
            }
        }
    }
}

async fn tcp(addr: &str) -> MqResult<tokio::net::TcpStream> {
    let s = tokio::net::TcpStream::connect(addr).await.map_err(|e| {
        MqError::new(
            Reason::QMgrNotAvailable,
            format!("cannot connect to {addr}: {e}; is the queue manager listening there?"),
        )
    })?;
    let _ = s.set_nodelay(true);
    Ok(s)
}

async fn tls(
    addr: &str,
    opts: &ClientOptions,
) -> MqResult<tokio_rustls::client::TlsStream<tokio::net::TcpStream>> {
    let Some(t) = &opts.tls else {
        return Err(MqError::new(
            Reason::OptionsError,
            "a tls:// connection needs TLS options",
        ));
    };
    let config = crate::stream::client_config(t).map_err(|e| {
        MqError::new(
            Reason::QMgrNotAvailable,
            format!("TLS settings for {addr}: {e}"),
        )
    })?;
    let host = addr
        .rsplit_once(':')
        .map_or(addr, |(h, _)| h)
        .trim_matches(['[', ']']);
    let name = t.server_name.clone().unwrap_or_else(|| host.to_owned());
    let name = rustls::pki_types::ServerName::try_from(name).map_err(|e| {
        MqError::new(
            Reason::QMgrNotAvailable,
            format!("'{host}' is not a valid TLS server name: {e}"),
        )
    })?;
    let s = tcp(addr).await?;
    tokio_rustls::TlsConnector::from(config)
        .connect(name, s)
        .await
        .map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!("the TLS handshake with {addr} failed: {e}"),
            )
        })
}

/// Writes every queued frame with vectored writes, resuming after partial writes.
async fn write_frames(
    wr: &mut Box<dyn AsyncWrite + Send + Unpin>,
    frames: &mut std::collections::VecDeque<bytes::Bytes>,
) -> std::io::Result<()> {
    use bytes::Buf;
    while !frames.is_empty() {
        let slices: Vec<std::io::IoSlice<'_>> = frames
            .iter()
            .take(64)
            .map(|b| std::io::IoSlice::new(b))
            .collect();
        let mut n = wr.write_vectored(&slices).await?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::WriteZero,
                "the socket accepted nothing",
            ));
        }
        while n > 0 {
            let Some(front) = frames.front_mut() else {
                break;
            };
            if n >= front.len() {
                n -= front.len();
                frames.pop_front();
            } else {
                front.advance(n);
                n = 0;
            }
        }
    }
    Ok(())
}

/// Exchanges preambles and starts the link's I/O task.
async fn start_link(
    mut rd: Box<dyn AsyncRead + Send + Unpin>,
    mut wr: Box<dyn AsyncWrite + Send + Unpin>,
) -> MqResult<Arc<Link>> {
    wr.write_all(&Preamble::ours(DEFAULT_MAX_FRAME as u32).encode())
        .await
        .map_err(broken)?;
    let mut b = [0u8; PREAMBLE_LEN];
    tokio::time::timeout(Duration::from_secs(30), rd.read_exact(&mut b))
        .await
        .map_err(|_| broken("no preamble from the server within 30 s"))?
        .map_err(broken)?;
    let theirs = Preamble::decode(&b).map_err(broken)?;
    if theirs.min_version == 0 {
        return Err(MqError::new(
            Reason::QMgrNotAvailable,
            "the server speaks no protocol version this client knows",
        ));
    }
    let (tx, rx) = mpsc::channel(LINK_QUEUE);
    tokio::spawn(run_link(rd, wr, rx));
    Ok(Arc::new(Link {
        tx,
        next_conv: AtomicU16::new(2),
        max_frame_out: (theirs.max_frame as usize).max(1024),
    }))
}

/// Pushed frames on their way to their conversation, one hand-over a read (a read of a
/// fan-out's pushes carries dozens for one conversation): consecutive frames for one
/// conversation gather, and go when another's come or the read is done.
#[derive(Default)]
struct Pushed {
    conv: u16,
    frames: Vec<Frame>,
}

impl Pushed {
    fn add(&mut self, f: Frame, to: &IdKeyed<u16, mpsc::UnboundedSender<Vec<Frame>>>) {
        if f.header.conv != self.conv {
            self.flush(to);
            self.conv = f.header.conv;
        }
        self.frames.push(f);
    }

    fn flush(&mut self, to: &IdKeyed<u16, mpsc::UnboundedSender<Vec<Frame>>>) {
        if self.frames.is_empty() {
            return;
        }
        let frames = std::mem::take(&mut self.frames);
        if let Some(p) = to.get(&self.conv) {
            let _ = p.send(frames);
        }
    }
}

/// Routes the whole frames read: pushes to their conversations (a read's worth at once),
/// responses to whoever waits for them. False when the bytes are not frames: everyone waiting
/// is told, and the link ends.
fn route_frames(
    rbuf: &mut BytesMut,
    waiting: &mut IdKeyed<(u16, u64), Waiting>,
    pushes: &IdKeyed<u16, mpsc::UnboundedSender<Vec<Frame>>>,
) -> bool {
    let mut routed = Pushed::default();
    loop {
        match decode_frame(rbuf, DEFAULT_MAX_FRAME) {
            Ok(Some(f)) if f.header.flags & FLAG_PUSH != 0 => {
                if f.header.opcode != Opcode::Heartbeat as u8 {
                    routed.add(f, pushes);
                }
            }
            Ok(Some(f)) => {
                if let Some(w) = waiting.remove(&(f.header.conv, f.header.request_id)) {
                    let _ = w.send(Ok(f));
                }
            }
            Ok(None) => {
                routed.flush(pushes);
                return true;
            }
            Err(e) => {
                routed.flush(pushes);
                for (_, w) in waiting.drain() {
                    let _ = w.send(Err(broken(&e)));
                }
                return false;
            }
        }
    }
}

/// The link's I/O task: writes what conversations queue, routes what the server sends.
async fn run_link(
    mut rd: Box<dyn AsyncRead + Send + Unpin>,
    mut wr: Box<dyn AsyncWrite + Send + Unpin>,
    mut rx: mpsc::Receiver<Out>,
) {
    let mut waiting: IdKeyed<(u16, u64), Waiting> = IdKeyed::default();
    let mut pushes: IdKeyed<u16, mpsc::UnboundedSender<Vec<Frame>>> = IdKeyed::default();
    let mut rbuf = BytesMut::with_capacity(64 * 1024);
    let mut wbuf = BytesMut::new();
    let mut frames: std::collections::VecDeque<bytes::Bytes> = std::collections::VecDeque::new();
    let mut queued = 0usize;
    let mut heartbeat = Duration::from_secs(30);
    let mut last_write = Instant::now();
    let mut last_read = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let why: String = loop {
        tokio::select! {
            out = rx.recv() => {
                let Some(out) = out else { break "every conversation ended".into() };
                let mut next = Some(out);
                while let Some(o) = next.take() {
                    match o {
                        Out::Send { bytes, wait } => {
                            queued += bytes.len();
                            frames.push_back(bytes.freeze());
                            if let Some((conv, id, w)) = wait {
                                waiting.insert((conv, id), w);
                            }
                        }
                        Out::Attach { conv, pushes: p } => {
                            pushes.insert(conv, p);
                        }
                        Out::Detach { conv } => {
                            pushes.remove(&conv);
                        }
                        Out::Heartbeat(d) => heartbeat = d,
                    }
                    if queued < 256 * 1024 && frames.len() < 512 {
                        next = rx.try_recv().ok();
                    }
                }
                if !frames.is_empty() {
                    // Frames go out as they are, gathered into one system call: no copy into
                    // a write buffer.
                    if let Err(e) = write_frames(&mut wr, &mut frames).await {
                        break format!("write failed: {e}");
                    }
                    queued = 0;
                    last_write = Instant::now();
                }
            }
            r = rd.read_buf(&mut rbuf) => {
                match r {
                    Ok(0) => break "the queue manager closed the connection".into(),
                    Err(e) => break format!("read failed: {e}"),
                    Ok(_) => last_read = Instant::now(),
                }
                if !route_frames(&mut rbuf, &mut waiting, &pushes) {
                    return;
                }
                if rbuf.capacity() - rbuf.len() < 16 * 1024 {
                    rbuf.reserve(64 * 1024);
                }
            }
            _ = tick.tick() => {
                if last_read.elapsed() > heartbeat * 2 + Duration::from_secs(5) {
                    break "the queue manager stopped answering (no heartbeat)".into();
                }
                if last_write.elapsed() >= heartbeat {
                    ferry_proto::encode_heartbeat(&mut wbuf);
                    if wr.write_all(&wbuf).await.is_err() {
                        break "write failed".into();
                    }
                    wbuf.clear();
                    last_write = Instant::now();
                }
            }
        }
    };
    for (_, w) in waiting.drain() {
        let _ = w.send(Err(broken(&why)));
    }
    let _ = wr.shutdown().await;
}

impl AsyncConv {
    async fn start(
        link: Arc<Link>,
        conv: u16,
        app_name: &str,
        opts: &ClientOptions,
    ) -> MqResult<AsyncConv> {
        let (ptx, prx) = mpsc::unbounded_channel();
        link.tx
            .send(Out::Attach { conv, pushes: ptx })
            .await
            .map_err(|_| broken("the link has closed"))?;
        let mut c = AsyncConv {
            core: ConvCore::new(conv, link.max_frame_out),
            link,
            pushes: prx,
            buf: BytesMut::new(),
            ended: false,
        };
        let reply = ok_reply(
            c.call(&ConvCore::connect_request(app_name, opts), None)
                .await?,
        )?;
        c.core.on_connected(reply)?;
        let _ = c.link.tx.send(Out::Heartbeat(c.core.heartbeat)).await;
        Ok(c)
    }

    /// Queues a request that needs no answer.
    async fn send(&mut self, req: &Request) -> MqResult<()> {
        let bytes = self.encode(req)?.1;
        self.link
            .tx
            .send(Out::Send { bytes, wait: None })
            .await
            .map_err(|_| broken("the link has closed"))
    }

    /// Sends a request and waits for its response (`extra`: a get's wait interval).
    /// Encodes a request into the conversation's reusable buffer and splits the frame off, so
    /// encoding neither allocates per request nor copies on the way to the link.
    fn encode(&mut self, req: &Request) -> MqResult<(u64, BytesMut)> {
        if self.buf.capacity() - self.buf.len() < 8 * 1024 {
            self.buf.reserve(64 * 1024);
        }
        let id = self.core.encode(req, &mut self.buf)?;
        Ok((id, self.buf.split()))
    }

    async fn call(&mut self, req: &Request, extra: Option<Duration>) -> MqResult<(Status, Reply)> {
        let (id, bytes) = self.encode(req)?;
        let (tx, rx) = oneshot::channel();
        self.link
            .tx
            .send(Out::Send {
                bytes,
                wait: Some((self.core.conv, id, tx)),
            })
            .await
            .map_err(|_| broken("the link has closed"))?;
        let answer = async { rx.await.map_err(|_| broken("the link has closed"))? };
        let frame = match extra {
            Some(e) if e == Duration::MAX => answer.await?,
            _ => tokio::time::timeout(
                self.core.answer_timeout() + extra.unwrap_or_default(),
                answer,
            )
            .await
            .map_err(|_| broken("the queue manager stopped answering (no heartbeat)"))??,
        };
        let f = self.core.decompress(frame)?;
        decode_response(req.opcode() as u8, f.payload).map_err(broken)
    }

    async fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let reply = ok_reply(self.call(&ConvCore::open_request(od, opts), None).await?)?;
        let (h, credit) = self.core.on_opened(reply)?;
        if let Some(c) = credit {
            self.send(&c).await?;
        }
        Ok(h)
    }

    async fn subscribe(
        &mut self,
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let req = ConvCore::subscribe_request(sd, queue);
        let reply = ok_reply(self.call(&req, None).await?)?;
        let (handles, credit) = self.core.on_subscribed(reply)?;
        if let Some(c) = credit {
            self.send(&c).await?;
        }
        Ok(handles)
    }

    async fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        let req = Request::SubRequest { hsub: hsub.0 };
        ConvCore::on_sub_requested(ok_reply(self.call(&req, None).await?)?)
    }

    async fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        self.core.check_quiesce(h, opts)?;
        let (report, close) = self.core.close_requests(h, opts);
        if let Some(r) = report {
            self.send(&r).await?;
        }
        ok_reply(self.call(&close, None).await?)?;
        self.core.on_closed(h);
        Ok(())
    }

    async fn put(
        &mut self,
        target: PutTarget<'_>,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let p = self.core.prepare_put(target, msg, opts);
        match p.async_outcome {
            Some(out) => {
                self.send(&p.request).await?;
                Ok(out)
            }
            None => ConvCore::put_result(self.call(&p.request, None).await?),
        }
    }

    fn file_pushes(&mut self) -> MqResult<()> {
        while let Ok(frames) = self.pushes.try_recv() {
            self.file_frames(frames)?;
        }
        Ok(())
    }

    fn file_frames(&mut self, frames: Vec<Frame>) -> MqResult<()> {
        for f in frames {
            let f = self.core.decompress(f)?;
            self.core.file_push(f)?;
        }
        Ok(())
    }

    async fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        if !self.core.is_read_ahead(h) {
            let extra = match opts.wait {
                Wait::No => None,
                Wait::For(d) => Some(d),
                Wait::Unlimited => Some(Duration::MAX),
            };
            let (status, reply) = self.call(&ConvCore::get_request(h, opts), extra).await?;
            return got_of(status, reply);
        }
        let mut plan = ReadAheadGet::new(opts)?;
        loop {
            self.file_pushes()?;
            match plan.step(&mut self.core, h) {
                ReadAheadStep::Deliver(item, credit) => {
                    if let Some(c) = credit {
                        self.send(&c).await?;
                    }
                    return item;
                }
                ReadAheadStep::Report(r) => self.send(&r).await?,
                ReadAheadStep::Probe => {
                    let answer = self.call(&plan.probe_request(h), None).await?;
                    if let Some(r) = ReadAheadGet::probe_result(&mut self.core, h, answer) {
                        return r;
                    }
                }
                ReadAheadStep::NoMessage(e) => return Err(e),
                ReadAheadStep::WaitUntil(until) => {
                    let left = until.saturating_duration_since(Instant::now());
                    match tokio::time::timeout(left, self.pushes.recv()).await {
                        Ok(Some(frames)) => self.file_frames(frames)?,
                        Ok(None) => return Err(broken("the link has closed")),
                        Err(_) => {}
                    }
                }
            }
        }
    }
}

impl Drop for AsyncConv {
    /// A conversation dropped without disconnect ends as an application that died: its unit of
    /// work is backed out (then it disconnects, so a shared socket carries on without it).
    fn drop(&mut self) {
        if self.ended {
            let _ = self.link.tx.try_send(Out::Detach {
                conv: self.core.conv,
            });
            return;
        }
        let mut bytes = BytesMut::new();
        if self.core.encode(&Request::Backout, &mut bytes).is_ok()
            && self.core.encode(&Request::Disconnect, &mut bytes).is_ok()
        {
            let _ = self.link.tx.try_send(Out::Send { bytes, wait: None });
        }
        let _ = self.link.tx.try_send(Out::Detach {
            conv: self.core.conv,
        });
    }
}
