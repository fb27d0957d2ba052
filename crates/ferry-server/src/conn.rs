//! One socket: the preamble, then frames carrying one or more conversations (connections).
//!
//! Batching (after NATS): every read decodes and applies *all* complete frames in the buffer and
//! appends their responses to one write buffer, flushed once per wake-up. Waiting gets and
//! read-ahead streams never block the socket: their waiters are polled by the connection task
//! itself alongside the socket, so a message handed to a waiting getter costs one task wake-up.
//! Until a waiting get ends, later requests of that conversation queue (bounded) behind it, while
//! other conversations on the socket carry on.
//!
//! A protocol violation (garbage, an oversized or truncated frame, an unknown opcode, a request
//! for a conversation that does not exist) closes the socket with a logged reason. Closing a
//! socket ends its conversations as if their applications died: units of work are backed out. A
//! message handed to a getter whose connection vanished is put back on its queue.
//!
//! Here: the socket's loop, frames, conversations connecting, waiting gets and read-ahead
//! streams, and encoding answers; applying each request is `dispatch`.

mod dispatch;
mod outbuf;
mod partner;

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::BytesMut;
use ferry_core::engine::{Room, WaitOutcome};
use ferry_core::qmgr::journal::Durability;
use ferry_core::IdKeyed;
use ferry_core::{
    BrowseMode, ConnMode, ConnectOptions, GetAttempt, GetOptions, Got, Hobj, MqError, PendingGet,
    Reason, Session, Wait,
};
use ferry_proto::compress::{self, Compression, MIN_COMPRESS_LEN};
use ferry_proto::map as wire;
use ferry_proto::{
    begin_frame, decode_frame, encode_response, finish_frame, finish_frame_before, Frame,
    FrameHeader, Opcode, Preamble, Reply, Request, Status, WireError, FLAG_COMPRESSED, FLAG_MORE,
    FLAG_PUSH, FLAG_RESPONSE, PREAMBLE_LEN,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};

use dispatch::ReceiverEnd;
use ferry_model::objects::AuthType;
use ferry_model::security::Principal;

use crate::identity::{self, Origin};

/// Limits applied to each socket.
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Largest frame accepted from a client, header included.
    pub max_frame: usize,
    /// Conversations one socket may carry (MQ's SHARECNV ceiling).
    pub max_conversations: usize,
    /// Requests that may queue behind a waiting get on one conversation.
    pub max_queued_requests: usize,
    /// Most messages one read-ahead stream may have in a client's buffer.
    pub max_read_ahead_msgs: u32,
    /// Most message bytes one read-ahead stream may have in a client's buffer (one message is
    /// always allowed, however large).
    pub max_read_ahead_bytes: usize,
    /// Heartbeat interval: an idle server sends a heartbeat this often.
    pub heartbeat: Duration,
    /// How long a client has to send its preamble.
    pub handshake_timeout: Duration,
    /// How long a socket has, from its preamble, to open its first conversation (Connect and
    /// authentication included); then it is closed.
    pub connect_timeout: Duration,
    /// Answers a socket may have waiting to be written: beyond them it reads no more requests
    /// until the client reads (one answer always fits, however large).
    pub max_unsent: usize,
    /// How long a write may make no progress (a client that stopped reading) before the socket
    /// is closed.
    pub write_stall: Duration,
    /// Compression algorithms the server accepts; each connection uses the first of its own
    /// preference list found here.
    pub compression: Vec<Compression>,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_frame: ferry_proto::DEFAULT_MAX_FRAME,
            max_conversations: 10,
            max_queued_requests: 1024,
            max_read_ahead_msgs: 1024,
            max_read_ahead_bytes: 1024 * 1024,
            heartbeat: Duration::from_secs(30),
            handshake_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(10),
            max_unsent: 4 << 20,
            write_stall: Duration::from_secs(60),
            compression: Compression::ALL.to_vec(),
        }
    }
}

/// The server-connection channel an application conversation that names none is checked as
/// by CHLAUTH (the channel MQ's developer configuration gives applications).
pub(crate) const CLIENT_CHANNEL: &str = "DEV.APP.SVRCONN";

/// The channel a Connect names, checked as a channel name; [`CLIENT_CHANNEL`] when it names
/// none.
fn svrconn_name(named: String) -> Result<String, Close> {
    if named.is_empty() {
        return Ok(CLIENT_CHANNEL.to_owned());
    }
    ferry_core::object_name(&named)
        .and_then(|n| ferry_model::channel::check_channel_name(&n))
        .map_err(|e| {
            Close::Protocol(format!("the Connect names channel '{named}': {}", e.detail))
        })?;
    Ok(named)
}

/// What every connection task shares.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub qm: ferry_core::QueueManager,
    pub limits: ConnLimits,
    /// Who may connect as whom, and the brakes on guessing.
    pub ids: Arc<crate::identity::Identities>,
    /// The receiving ends running here, so a new start from the same partner can end a stale
    /// one.
    pub receivers: Receivers,
    /// The server-connection channels' instances, for MAXINST and MAXINSTC.
    pub instances: Arc<crate::slots::Instances>,
    /// The connection slot pools.
    pub slots: Arc<crate::slots::Slots>,
}

/// Each running receiving end's way to be told to end: channel → (instance, signal).
#[derive(Debug, Default)]
pub(crate) struct Receivers {
    running: parking_lot::Mutex<
        std::collections::HashMap<ferry_core::ObjectName, (u64, tokio::sync::oneshot::Sender<()>)>,
    >,
    next: std::sync::atomic::AtomicU64,
}

impl Receivers {
    /// Registers a receiving end that has just started; what its socket waits on, and its id.
    fn register(&self, name: ferry_core::ObjectName) -> (u64, tokio::sync::oneshot::Receiver<()>) {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.running.lock().insert(name, (id, tx));
        (id, rx)
    }

    /// Forgets instance `id` of `name` (its socket closed).
    fn unregister(&self, name: &ferry_core::ObjectName, id: u64) {
        let mut running = self.running.lock();
        if running.get(name).is_some_and(|(i, _)| *i == id) {
            running.remove(name);
        }
    }

    /// Tells every running receiving end to end (a controlled stop).
    pub(crate) fn end_all(&self) {
        for (_, (_, tx)) in self.running.lock().drain() {
            let _ = tx.send(());
        }
    }

    /// Tells the running receiving end of `name` to end; whether there was one to tell.
    fn end(&self, name: &ferry_core::ObjectName) -> bool {
        match self.running.lock().remove(name) {
            Some((_, tx)) => tx.send(()).is_ok(),
            None => false,
        }
    }
}

/// A channel start waiting for a stale receiving end of the same channel to end.
struct ParkedStart {
    header: FrameHeader,
    req: Request,
    tries: u32,
    sleep: Pin<Box<Sleep>>,
}

/// How often, and how many times, a parked channel start looks again.
const START_RETRY: Duration = Duration::from_millis(20);
const START_TRIES: u32 = 100;

/// Async put results since the last status call (MQSTAT's counts).
#[derive(Debug, Default)]
struct AsyncStats {
    succeeded: u64,
    warned: u64,
    failed: u64,
    first_failure: Option<MqError>,
}

/// A get parked until a message arrives, the wait interval passes, or the wait is ended.
struct GetWait {
    request_id: u64,
    /// A batch get: how many more it takes once the first is got.
    more: u32,
    hobj: Hobj,
    opts: GetOptions,
    pending: PendingGet,
    sleep: Option<Pin<Box<Sleep>>>,
}

/// Most messages one parked stream wait is handed before its task collects them.
const STREAM_BATCH: u32 = 64;

/// A read-ahead stream: messages are pushed while the client has credit.
#[derive(Default)]
struct Stream {
    credit: u32,
    wait: Option<PendingGet>,
    /// Body sizes of messages pushed and not yet reported consumed, oldest first.
    in_flight: VecDeque<usize>,
    /// Their total: pushing stops at the read-ahead byte limit (after at least one message).
    in_flight_bytes: usize,
}

impl Stream {
    fn pushed(&mut self, bytes: usize) {
        self.credit = self.credit.saturating_sub(1);
        self.in_flight.push_back(bytes);
        self.in_flight_bytes += bytes;
    }

    fn consumed(&mut self, n: usize) {
        for _ in 0..n {
            self.in_flight_bytes -= self.in_flight.pop_front().unwrap_or(0);
        }
    }

    /// What a parked wait may be handed before this task collects it: the credit left (at most
    /// [`STREAM_BATCH`]) and the bytes left under the read-ahead limit.
    fn room(&self, max_bytes: usize) -> Room {
        Room {
            msgs: self.credit.clamp(1, STREAM_BATCH),
            bytes: max_bytes.saturating_sub(self.in_flight_bytes),
        }
    }

    fn may_push(&self, max_bytes: usize) -> bool {
        self.credit > 0
            && self.wait.is_none()
            && (self.in_flight.is_empty() || self.in_flight_bytes < max_bytes)
    }
}

struct Conv {
    session: Session,
    get_wait: Option<GetWait>,
    queued: VecDeque<Frame>,
    /// Their payload bytes (bounded, over the socket, by [`ConnLimits::max_unsent`]).
    queued_bytes: usize,
    async_stats: AsyncStats,
    /// The first async put that failed inside the open unit of work: commit backs out instead.
    uow_async_failure: Option<MqError>,
    /// Payload compression negotiated at connect.
    compression: Option<Compression>,
    streams: IdKeyed<u32, Stream>,
    /// The rest of an administrative answer too large for one frame, and where it stands.
    admin_pending: Option<(bytes::Bytes, usize)>,
    /// Set once a sender channel started on this conversation: it is the receiving end.
    channel: Option<ReceiverEnd>,
    /// The conversation connected as a queue manager's message channel: it carries only
    /// channel requests, and its partner is checked when the channel starts.
    is_channel: bool,
    /// The user whose password was verified at Connect, if one was.
    verified_user: Option<String>,
}

impl Conv {
    /// A conversation just connected, with the compression it negotiated.
    fn new(session: Session, compression: Option<Compression>) -> Conv {
        Conv {
            session,
            get_wait: None,
            queued: VecDeque::new(),
            queued_bytes: 0,
            async_stats: AsyncStats::default(),
            uow_async_failure: None,
            compression,
            streams: IdKeyed::default(),
            admin_pending: None,
            channel: None,
            is_channel: false,
            verified_user: None,
        }
    }
}

/// Something the connection task must act on.
enum Event {
    Read(std::io::Result<usize>),
    /// Requests read earlier wait in the read buffer, and there is room for their answers now.
    Backlog,
    /// A new start of this socket's receiving end from the same partner replaced it.
    Replaced,
    /// A parked channel start looks again.
    RetryStart,
    /// The socket opened no conversation within the connect timeout.
    ConnectTimeout,
    /// The log made held replies durable (or failed).
    Durable,
    GetDone(u16, WaitOutcome),
    /// A Connect's password check ended.
    Authenticated(Result<(), String>),
    StreamReady(u16, u32, WaitOutcome),
    Tick,
    Stop,
    /// STOP CONN named one of this socket's conversations.
    ConnStopped,
}

/// Room in the read buffer for the next read: the rest of a frame already begun (up to 1 MiB
/// at a time), at least 16 KiB.
fn reserve_for_read(rbuf: &mut BytesMut) {
    let want = ferry_proto::frame::pending_frame_len(rbuf)
        .unwrap_or(0)
        .saturating_sub(rbuf.len())
        .clamp(16 * 1024, 1 << 20);
    rbuf.reserve(want);
}

/// Polls one read from `rd` into `rbuf`, room reserved first.
#[inline]
fn poll_read<R: AsyncRead + Unpin>(
    rd: &mut R,
    rbuf: &mut BytesMut,
    cx: &mut Context<'_>,
) -> Poll<std::io::Result<usize>> {
    reserve_for_read(rbuf);
    let read = rd.read_buf(rbuf);
    tokio::pin!(read);
    read.poll(cx)
}

/// Answers a socket may keep unwritten while the memory budget is full (beyond them it reads no
/// more requests until the client reads).
const UNSENT_WHEN_TIGHT: usize = 64 * 1024;

/// Largest frame a socket may send before its first conversation is open: a Connect with its
/// user, password, application and channel names fits many times over.
pub const PRE_CONNECT_MAX_FRAME: usize = 64 * 1024;

/// Most further events a socket's task takes before it writes what they answered.
const MAX_EVENTS_PER_WRITE: usize = 64;
/// Most answer bytes a socket's task gathers before it writes them.
const MAX_UNFLUSHED: usize = 256 * 1024;
/// Most request bytes a socket's task reads in a turn before it lets the tasks its requests
/// woke run: a publisher's socket would otherwise read megabytes of publications into its
/// subscribers' queues (cold in the cache by the time their streams take them) before they
/// send any, one I/O thread serving both.
const READ_PER_TURN: usize = 256 * 1024;

/// Why a socket was closed.
#[derive(Debug)]
enum Close {
    PeerClosed,
    Io(std::io::Error),
    Protocol(String),
    Refused(String),
    Silent(Duration),
    /// The client read nothing of its answers for this long.
    Stalled(Duration),
    Stopping,
    /// STOP CONN ended a conversation on this socket (by its CONN).
    ConnStopped(String),
}

/// Who is at the other end of a socket, as far as the transport shows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Peer {
    /// How logs and status name it: `ADDRESS:PORT`, or `pid N` on the local socket.
    pub(crate) name: String,
    /// The subject of its TLS certificate, verified against the client CA in the handshake.
    pub(crate) cert: Option<ferry_model::dn::DistinguishedName>,
    /// Where it comes from, for the authentication throttle.
    pub(crate) origin: Option<Origin>,
    /// Who it is on this machine (the local socket's peer credentials).
    pub(crate) local_uid: Option<u32>,
    /// A QUIC connection's lanes, opened when a receiver channel agrees to them.
    pub(crate) lanes: Option<Arc<crate::quic::LaneGate>>,
}

/// A Connect waiting for its password check.
struct PendingAuth {
    connect: Connecting,
    /// The identity to keep on success (ADOPTCTX NO, and channel conversations); otherwise the
    /// verified user.
    keep: Option<Principal>,
    check: Pin<Box<dyn Future<Output = Result<(), String>> + Send>>,
    /// What the client is told if it fails (a wrong password is never told apart from an
    /// unknown user).
    told: String,
}

/// What a Connect asked for, kept while its password is checked.
struct Connecting {
    header: FrameHeader,
    app_name: String,
    user: String,
    compression: Option<Compression>,
    is_channel: bool,
    /// The server-connection channel it names (CHLAUTH's channel), or [`CLIENT_CHANNEL`].
    svrconn: String,
}

struct Socket {
    ctx: Arc<Ctx>,
    mode: ConnMode,
    peer: Peer,
    convs: IdKeyed<u16, Conv>,
    /// What is owed the peer (encoded frames, spliced bodies).
    out: outbuf::OutBuf,
    /// Where a response is encoded before it is compressed.
    scratch: BytesMut,
    max_frame_out: usize,
    /// The client promised heartbeats (Connect flag): silence means it is gone.
    peer_heartbeats: bool,
    /// The recovery log, when the queue manager has one.
    durability: Option<Arc<dyn Durability>>,
    /// Replies that must not be sent before an LSN is durable: (offset in `out`'s buffer where
    /// they start, LSN), in order. Only what is owed before the first undurable one is written,
    /// so replies keep their order and the socket goes on serving requests (whose records join
    /// the same sync) while the log syncs.
    held: VecDeque<(usize, u64)>,
    /// An LSN owed by a conversation that has just gone (disconnect commits).
    owed_by_gone: Option<u64>,
    /// Conversations STOP CONN ended while others on the socket go on: their requests are
    /// answered MQRC_CONNECTION_BROKEN (at most [`ConnLimits::max_conversations`]; a Connect
    /// of the id takes it out).
    stopped_convs: std::collections::HashSet<u16>,
    /// A Connect whose password is being checked: no further frame is read or applied until
    /// it ends.
    auth: Option<PendingAuth>,
    /// A conversation has been opened on this socket: frames up to the full limit, and no
    /// connect deadline.
    opened: bool,
    /// A network socket's slot: in the pool of sockets that have not opened a conversation
    /// (counted against its address), then in its kind's.
    slot: Option<crate::slots::Slot>,
    /// The receiving end this socket runs: its channel, instance and end signal.
    receiver: Option<(
        ferry_core::ObjectName,
        u64,
        tokio::sync::oneshot::Receiver<()>,
    )>,
    /// A channel start waiting for a stale instance to end.
    parked_start: Option<ParkedStart>,
    /// The server-connection channels this socket is an instance of.
    instances: Vec<crate::slots::Instance>,
    /// Signalled by STOP CONN of one of this socket's conversations.
    conn_stop: Arc<tokio::sync::Notify>,
    /// Bytes of unwritten answers charged to the queue manager's memory budget.
    charged: usize,
}

impl Drop for Socket {
    fn drop(&mut self) {
        self.ctx.qm.memory_budget().release(self.charged);
    }
}

impl Socket {
    /// Up to which offset of `out`'s buffer may be written now: everything before the first reply whose LSN is
    /// not yet durable.
    fn writable(&mut self) -> usize {
        let Some(d) = &self.durability else {
            return self.out.mark();
        };
        if self.held.is_empty() {
            return self.out.mark();
        }
        let durable = d.durable_lsn();
        while matches!(self.held.front(), Some((_, l)) if *l <= durable) {
            self.held.pop_front();
        }
        self.held.front().map_or(self.out.mark(), |(at, _)| *at)
    }

    /// Drops the first `n` written bytes of what is owed.
    fn written(&mut self, n: usize) {
        let cut = self.out.consume(n);
        for (at, _) in self.held.iter_mut() {
            debug_assert!(*at >= cut, "a held reply was written");
            *at -= cut;
        }
    }

    /// Polls the log for the first held reply's LSN.
    fn poll_held(&mut self, cx: &mut Context<'_>) -> bool {
        match (&self.durability, self.held.front()) {
            (Some(d), Some((_, lsn))) => d.poll_durable(*lsn, cx.waker()).is_ready(),
            _ => false,
        }
    }
}

/// Answers a socket that was refused a connection slot: its handshake, then
/// MAX_CONNS_LIMIT_REACHED to its first request, within a short deadline; then closes it.
pub(crate) async fn refuse_socket<R, W>(mut rd: R, mut wr: W, limits: ConnLimits, why: String)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let answered = async {
        handshake(&mut rd, &mut wr, &limits).await.ok()?;
        let mut buf = BytesMut::with_capacity(4096);
        let first = loop {
            if let Some(f) = decode_frame(&mut buf, PRE_CONNECT_MAX_FRAME).ok()? {
                break f;
            }
            if rd.read_buf(&mut buf).await.ok()? == 0 {
                return None;
            }
        };
        let e = MqError::new(
            Reason::MaxConnsLimitReached,
            format!("the queue manager has no connection slot free: {why}; try again later"),
        );
        let mut out = BytesMut::new();
        let h = FrameHeader {
            flags: FLAG_RESPONSE,
            ..first.header
        };
        let start = begin_frame(&mut out, h);
        encode_response(&mut out, &wire::status_of(&e), &Reply::Empty);
        finish_frame(&mut out, start);
        wr.write_all(&out).await.ok()?;
        wr.shutdown().await.ok()
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), answered).await;
}

/// Serves one socket until it closes or the server stops. `slot` (a network socket's) moves to
/// its kind's pool when its first conversation opens.
pub(crate) async fn serve<R, W>(
    mut rd: R,
    mut wr: W,
    ctx: Arc<Ctx>,
    (mode, peer): (ConnMode, Peer),
    slot: Option<crate::slots::Slot>,
    stop: watch::Receiver<bool>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let max_frame_out = match handshake(&mut rd, &mut wr, &ctx.limits).await {
        Ok(m) => m,
        Err(reason) => {
            tracing::info!(peer = %peer.name, ?mode, %reason, "connection refused at handshake");
            return;
        }
    };
    let mut sock = Socket::new(ctx, mode, peer, max_frame_out);
    sock.slot = slot;
    let why = sock.run(&mut rd, &mut wr, stop).await;
    // Replies still held for the log go out once it has them (the work is done; only the
    // answer is late), unless the socket itself failed or the client reads nothing.
    if !matches!(why, Close::Io(_) | Close::Stalled(_)) {
        sock.flush_held(&mut wr).await;
    }
    sock.log_close(&why);
    if let Some((name, id, _)) = sock.receiver.take() {
        sock.ctx.receivers.unregister(&name, id);
    }
    let _ = wr.shutdown().await;
    // Dropping the conversations backs out their units of work and closes their handles; parked
    // waits are cancelled and any message that raced into them goes back to its queue.
    sock.convs.clear();
}

impl Socket {
    /// A socket's state once its handshake agreed the client's largest frame.
    fn new(ctx: Arc<Ctx>, mode: ConnMode, peer: Peer, max_frame_out: usize) -> Socket {
        let durability = ctx.qm.durability().cloned();
        Socket {
            ctx,
            mode,
            peer,
            convs: IdKeyed::default(),
            out: outbuf::OutBuf::with_capacity(64 * 1024),
            scratch: BytesMut::new(),
            max_frame_out,
            peer_heartbeats: false,
            durability,
            held: VecDeque::new(),
            owed_by_gone: None,
            stopped_convs: Default::default(),
            auth: None,
            opened: false,
            slot: None,
            receiver: None,
            parked_start: None,
            instances: Vec::new(),
            charged: 0,
            conn_stop: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// The socket's loop: takes the next event and whatever else is ready, writes what they
    /// answered (as far as the log allows), until the socket must close; returns why.
    async fn run<R, W>(&mut self, rd: &mut R, wr: &mut W, stop: watch::Receiver<bool>) -> Close
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let mut rbuf = BytesMut::with_capacity(64 * 1024);
        let mut last_sent = Instant::now();
        let mut last_received = Instant::now();
        let mut tick = heartbeat_ticks(self.ctx.limits.heartbeat);
        let mut stopped = stop_signal(stop);
        // STOP CONN of a conversation: re-armed, as the socket may go on with its others.
        let conn_stop = self.conn_stop.clone();
        let arm = move || Box::pin(conn_stop.clone().notified_owned());
        let mut conn_stopped = arm();
        let mut connect_by = Some(Box::pin(tokio::time::sleep(
            self.ctx.limits.connect_timeout,
        )));
        loop {
            if self.opened {
                connect_by = None;
            }
            let event = std::future::poll_fn(|cx| {
                // Waits first: a stop ends every wait (quiescing) just before it tells the
                // connections to close, and those answers must reach the clients.
                if let Some(ev) = self.poll_waits(cx) {
                    return Poll::Ready(ev);
                }
                if self.poll_held(cx) {
                    return Poll::Ready(Event::Durable);
                }
                if stopped.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Event::Stop);
                }
                if conn_stopped.as_mut().poll(cx).is_ready() {
                    conn_stopped = arm();
                    return Poll::Ready(Event::ConnStopped);
                }
                if tick.poll_tick(cx).is_ready() {
                    return Poll::Ready(Event::Tick);
                }
                if let Some(ev) = self.poll_channel(cx) {
                    return Poll::Ready(ev);
                }
                if let Some(late) = connect_by.as_mut() {
                    if late.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(Event::ConnectTimeout);
                    }
                }
                if let Some(a) = self.auth.as_mut() {
                    return a.check.as_mut().poll(cx).map(Event::Authenticated);
                }
                self.poll_requests(rd, &mut rbuf, cx)
            })
            .await;
            let step = self.on_event(event, &mut rbuf, &mut last_received, last_sent);
            let step = self
                .take_ready(rd, &mut rbuf, &mut last_received, last_sent, step)
                .await;
            let wrote = self.write_out(wr, &mut stopped).await;
            self.account_unsent();
            match wrote {
                Ok(true) => last_sent = Instant::now(),
                Ok(false) => {}
                Err(why) => return why,
            }
            if let Err(why) = step {
                return why;
            }
        }
    }

    /// A receiving end told to end (a new start replaced it), or a parked start's next look.
    fn poll_channel(&mut self, cx: &mut Context<'_>) -> Option<Event> {
        if let Some((_, _, ended)) = self.receiver.as_mut() {
            if Pin::new(ended).poll(cx).is_ready() {
                return Some(Event::Replaced);
            }
        }
        let p = self.parked_start.as_mut()?;
        p.sleep
            .as_mut()
            .poll(cx)
            .is_ready()
            .then_some(Event::RetryStart)
    }

    /// Charges the answers waiting to be written to the memory budget (what changed since the
    /// last time), so the budget covers socket buffers as well as queues.
    fn account_unsent(&mut self) {
        let now = self.out.len();
        let budget = self.ctx.qm.memory_budget();
        match now.cmp(&self.charged) {
            std::cmp::Ordering::Greater => budget.charge(now - self.charged),
            std::cmp::Ordering::Less => budget.release(self.charged - now),
            std::cmp::Ordering::Equal => return,
        }
        self.charged = now;
    }

    /// The next requests: those already read (when their answers have room), else a read —
    /// none while the answers waiting to be written fill [`ConnLimits::max_unsent`], so a
    /// client that stops reading stops being read (its task wakes again when the log makes
    /// held answers writable).
    fn poll_requests<R: AsyncRead + Unpin>(
        &mut self,
        rd: &mut R,
        rbuf: &mut BytesMut,
        cx: &mut Context<'_>,
    ) -> Poll<Event> {
        let unsent = self.out.len();
        let tight = unsent >= UNSENT_WHEN_TIGHT && !self.ctx.qm.memory_budget().has_room(0);
        if unsent >= self.ctx.limits.max_unsent || tight {
            return Poll::Pending;
        }
        if ferry_proto::frame::pending_frame_len(rbuf).is_some_and(|l| rbuf.len() >= l) {
            return Poll::Ready(Event::Backlog);
        }
        poll_read(rd, rbuf, cx).map(Event::Read)
    }

    /// Writes what may be written now; whether anything was. A client that takes nothing for
    /// [`ConnLimits::write_stall`] is closed, and a stop ends the wait.
    async fn write_out<W: AsyncWrite + Unpin>(
        &mut self,
        wr: &mut W,
        stopped: &mut Pin<Box<dyn Future<Output = ()> + Send>>,
    ) -> Result<bool, Close> {
        let mark = self.writable();
        let mut n = self.out.len_before(mark);
        let wrote = n > 0;
        while n > 0 {
            let mut sl = [std::io::IoSlice::new(&[]); outbuf::MAX_SLICES];
            let k = self.out.slices(n, &mut sl);
            // Usually the socket takes it at once; only a full one needs the timer.
            let now = std::future::poll_fn(|cx| {
                Poll::Ready(match Pin::new(&mut *wr).poll_write_vectored(cx, &sl[..k]) {
                    Poll::Ready(r) => Some(r),
                    Poll::Pending => None,
                })
            })
            .await;
            let stall = self.ctx.limits.write_stall;
            let r = match now {
                Some(r) => r,
                None => tokio::select! {
                    r = tokio::time::timeout(stall, wr.write_vectored(&sl[..k])) => {
                        r.map_err(|_| Close::Stalled(stall))?
                    }
                    _ = stopped.as_mut() => return Err(Close::Stopping),
                },
            };
            let k = match r {
                Ok(0) => return Err(Close::Io(std::io::ErrorKind::WriteZero.into())),
                Ok(k) => k,
                Err(e) => return Err(Close::Io(e)),
            };
            self.written(k);
            n -= k;
        }
        Ok(wrote)
    }

    /// Before writing, takes whatever else is ready now (other waits that settled, frames that
    /// arrived meanwhile): one write then carries all their answers. Bounded, so one busy
    /// socket's flush is not put off for long. `step` is the first event's result; returns the
    /// last one's.
    async fn take_ready<R: AsyncRead + Unpin>(
        &mut self,
        rd: &mut R,
        rbuf: &mut BytesMut,
        last_received: &mut Instant,
        last_sent: Instant,
        mut step: Result<(), Close>,
    ) -> Result<(), Close> {
        let (mut drained, mut read) = (0, 0);
        while step.is_ok()
            && drained < MAX_EVENTS_PER_WRITE
            && self.out.len() < MAX_UNFLUSHED
            && read < READ_PER_TURN
        {
            let more = std::future::poll_fn(|cx| {
                if let Some(ev) = self.poll_waits(cx) {
                    return Poll::Ready(Some(ev));
                }
                if self.auth.is_some() {
                    return Poll::Ready(None);
                }
                match poll_read(rd, rbuf, cx) {
                    Poll::Ready(r) => Poll::Ready(Some(Event::Read(r))),
                    Poll::Pending => Poll::Ready(None),
                }
            })
            .await;
            let Some(ev) = more else { break };
            if let Event::Read(Ok(n)) = &ev {
                read += n;
            }
            step = self.on_event(ev, rbuf, last_received, last_sent);
            drained += 1;
        }
        if read >= READ_PER_TURN {
            // What this read woke (a fan-out's subscriber streams) runs before more is read.
            tokio::task::yield_now().await;
        }
        step
    }

    /// Writes what is left owed, once the log has made the last held reply durable.
    async fn flush_held<W: AsyncWrite + Unpin>(&mut self, wr: &mut W) {
        if let (Some(d), Some((_, last))) = (self.durability.clone(), self.held.back().copied()) {
            let _ = std::future::poll_fn(|cx| d.poll_durable(last, cx.waker())).await;
            self.held.clear();
        }
        let stall = self.ctx.limits.write_stall;
        let _ = tokio::time::timeout(stall, self.write_all(wr)).await;
    }

    /// Writes everything owed.
    async fn write_all<W: AsyncWrite + Unpin>(&mut self, wr: &mut W) {
        while !self.out.is_empty() {
            let mut sl = [std::io::IoSlice::new(&[]); outbuf::MAX_SLICES];
            let k = self.out.slices(self.out.len(), &mut sl);
            match wr.write_vectored(&sl[..k]).await {
                Ok(0) | Err(_) => return,
                Ok(k) => self.written(k),
            }
        }
    }

    /// Logs why the socket closed, louder when it was not the peer's or the server's choice.
    fn log_close(&self, why: &Close) {
        match why {
            Close::PeerClosed | Close::Stopping => {
                tracing::debug!(peer = %self.peer.name, mode = ?self.mode, reason = ?why, "connection closed")
            }
            Close::Io(e) => {
                tracing::info!(peer = %self.peer.name, mode = ?self.mode, error = %e, "connection lost")
            }
            Close::Silent(d) => tracing::warn!(
                peer = %self.peer.name, mode = ?self.mode, silent_for = ?d, "closing connection: no heartbeat from the client"
            ),
            Close::Stalled(d) => tracing::warn!(
                peer = %self.peer.name, mode = ?self.mode, stalled_for = ?d, unsent = self.out.len(),
                "closing connection: the client has read none of its answers"
            ),
            // The refusal itself was logged (within the log's allowance) where it was decided.
            Close::Refused(r) => tracing::debug!(
                peer = %self.peer.name, mode = ?self.mode, reason = %r, "closing connection: refused"
            ),
            Close::Protocol(r) => tracing::warn!(
                peer = %self.peer.name, mode = ?self.mode, reason = %r, "closing connection: protocol error"
            ),
            Close::ConnStopped(conn) => tracing::info!(
                peer = %self.peer.name, mode = ?self.mode, conn = %conn, "closing connection: STOP CONN"
            ),
        }
    }
}

async fn handshake<R, W>(rd: &mut R, wr: &mut W, limits: &ConnLimits) -> Result<usize, String>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut b = [0u8; PREAMBLE_LEN];
    match tokio::time::timeout(limits.handshake_timeout, rd.read_exact(&mut b)).await {
        Err(_) => return Err("no preamble within the handshake timeout".into()),
        Ok(Err(e)) => return Err(format!("reading the preamble: {e}")),
        Ok(Ok(_)) => {}
    }
    let theirs = Preamble::decode(&b).map_err(|e| e.to_string())?;
    let ours = Preamble::ours(limits.max_frame as u32);
    let Some(v) = ours.negotiate(&theirs) else {
        let none = Preamble {
            min_version: 0,
            max_version: 0,
            max_frame: 0,
        };
        let _ = wr.write_all(&none.encode()).await;
        return Err(format!(
            "no common protocol version (client speaks {}..{}, server {}..{})",
            theirs.min_version, theirs.max_version, ours.min_version, ours.max_version
        ));
    };
    let chosen = Preamble {
        min_version: v,
        max_version: v,
        max_frame: ours.max_frame,
    };
    wr.write_all(&chosen.encode())
        .await
        .map_err(|e| format!("writing the preamble: {e}"))?;
    Ok((theirs.max_frame as usize).max(1024))
}

impl Socket {
    /// Applies one event of the socket's loop; an error closes the socket.
    fn on_event(
        &mut self,
        event: Event,
        rbuf: &mut BytesMut,
        last_received: &mut Instant,
        last_sent: Instant,
    ) -> Result<(), Close> {
        let heartbeat = self.ctx.limits.heartbeat;
        match event {
            Event::Read(Ok(0)) => Err(Close::PeerClosed),
            Event::Read(Ok(_)) => {
                *last_received = Instant::now();
                self.on_frames(rbuf)
            }
            Event::Read(Err(e)) => Err(Close::Io(e)),
            Event::Backlog => self.on_frames(rbuf),
            Event::Replaced => Err(Close::Refused(
                "a new start of its channel from the same partner replaced this receiving end"
                    .into(),
            )),
            Event::RetryStart => match self.parked_start.take() {
                Some(p) => self.try_start_channel(p.header, p.req, p.tries + 1),
                None => Ok(()),
            },
            Event::ConnectTimeout => Err(Close::Refused(format!(
                "no conversation opened within {:?} of the handshake",
                self.ctx.limits.connect_timeout
            ))),
            Event::Durable => Ok(()),
            Event::GetDone(conv, outcome) => self.on_get_done(conv, outcome),
            Event::Authenticated(r) => {
                self.on_authenticated(r)?;
                self.on_frames(rbuf)
            }
            Event::StreamReady(conv, hobj, outcome) => {
                self.on_stream_ready(conv, hobj, outcome);
                Ok(())
            }
            Event::Tick => {
                if last_sent.elapsed() >= heartbeat {
                    self.push_heartbeat();
                }
                // A client that promised heartbeats and fell silent is gone (its host died or
                // the network broke without a reset): end its conversations.
                let silent = last_received.elapsed();
                if self.peer_heartbeats && silent > heartbeat * 2 + Duration::from_secs(1) {
                    Err(Close::Silent(silent))
                } else {
                    Ok(())
                }
            }
            Event::Stop => Err(Close::Stopping),
            Event::ConnStopped => self.on_conn_stopped(),
        }
    }

    /// STOP CONN named conversations of this socket: alone, they take the socket with them;
    /// beside others, each ends by itself — its waiting get and queued requests are answered
    /// MQRC_CONNECTION_BROKEN, its unit of work backed out — and the others go on.
    fn on_conn_stopped(&mut self) -> Result<(), Close> {
        let stopped: Vec<(u16, u64)> = self
            .convs
            .iter()
            .filter(|(_, c)| {
                let counters = c.session.counters();
                counters
                    .stop_requested
                    .load(std::sync::atomic::Ordering::Acquire)
            })
            .map(|(id, c)| (*id, c.session.connection_id()))
            .collect();
        let Some(&(_, first)) = stopped.first() else {
            return Ok(());
        };
        if stopped.len() == self.convs.len() {
            return Err(Close::ConnStopped(format!("{first:016X}")));
        }
        for (id, conn) in stopped {
            let Some(mut conv) = self.convs.remove(&id) else {
                continue;
            };
            tracing::info!(peer = %self.peer.name, conn = %format!("{conn:016X}"), "STOP CONN ended a conversation; the socket's others go on");
            let broken = stopped_error();
            if let Some(gw) = conv.get_wait.take() {
                self.respond(
                    get_header(id, gw.request_id, 0),
                    &wire::status_of(&broken),
                    &Reply::Empty,
                );
            }
            for f in std::mem::take(&mut conv.queued) {
                if answered(&f) {
                    self.respond(f.header, &wire::status_of(&broken), &Reply::Empty);
                }
            }
            if self.stopped_convs.len() < self.ctx.limits.max_conversations {
                self.stopped_convs.insert(id);
            }
            drop(conv);
        }
        Ok(())
    }

    /// Polls every parked get and stream; the first that has settled becomes an event.
    fn poll_waits(&mut self, cx: &mut Context<'_>) -> Option<Event> {
        for (id, conv) in self.convs.iter_mut() {
            if let Some(gw) = conv.get_wait.as_mut() {
                if let Some(outcome) = gw.pending.poll(cx.waker()) {
                    return Some(Event::GetDone(*id, outcome));
                }
                if let Some(sleep) = gw.sleep.as_mut() {
                    if sleep.as_mut().poll(cx).is_ready() {
                        return Some(Event::GetDone(*id, gw.pending.cancel()));
                    }
                }
            }
            for (hobj, stream) in conv.streams.iter_mut() {
                if let Some(p) = stream.wait.as_mut() {
                    if let Some(outcome) = p.poll(cx.waker()) {
                        return Some(Event::StreamReady(*id, *hobj, outcome));
                    }
                }
            }
        }
        None
    }

    /// Applies the requests read: all of them, unless a Connect's password check or answers
    /// filling [`ConnLimits::max_unsent`] stop it (the rest wait in `rbuf`). Before a
    /// conversation is open, a frame may be no larger than [`PRE_CONNECT_MAX_FRAME`].
    fn on_frames(&mut self, rbuf: &mut BytesMut) -> Result<(), Close> {
        // Streams that the batch's puts and publications feed are woken once, at its end.
        let _wakes = ferry_core::engine::DeferWakes::start();
        let max = match self.opened {
            true => self.ctx.limits.max_frame,
            false => PRE_CONNECT_MAX_FRAME.min(self.ctx.limits.max_frame),
        };
        while self.auth.is_none() && self.out.len() < self.ctx.limits.max_unsent {
            let frame = match decode_frame(rbuf, max) {
                Ok(Some(f)) => f,
                Ok(None) => return Ok(()),
                Err(e) => return Err(protocol(e)),
            };
            self.on_frame(frame)?;
        }
        Ok(())
    }

    fn on_frame(&mut self, mut frame: Frame) -> Result<(), Close> {
        let h = frame.header;
        if h.flags & FLAG_COMPRESSED != 0 {
            let conv = self.convs.get(&h.conv);
            let Some(alg) = conv.and_then(|c| c.compression) else {
                return Err(Close::Protocol(format!(
                    "compressed frame on conversation {} which negotiated no compression",
                    h.conv
                )));
            };
            let plain = compress::decompress(alg, &frame.payload, self.ctx.limits.max_frame)
                .map_err(protocol)?;
            if let Some(c) = conv {
                c.session
                    .counters()
                    .note_compressed(plain.len(), frame.payload.len());
            }
            frame.payload = plain;
            frame.header.flags &= !FLAG_COMPRESSED;
        }
        let h = frame.header;
        if h.is_response() {
            // Only heartbeat answers flow from client to server as responses.
            if h.opcode == Opcode::Heartbeat as u8 {
                return Ok(());
            }
            return Err(Close::Protocol(format!(
                "unexpected response frame with opcode {}",
                h.opcode
            )));
        }
        if h.opcode == Opcode::Connect as u8 {
            return self.connect(frame);
        }
        if h.opcode == Opcode::Heartbeat as u8 {
            // A pushed heartbeat is only a sign of life; an asked one gets an answer.
            if h.flags & FLAG_PUSH == 0 {
                self.respond(h, &Status::OK, &Reply::Empty);
            }
            return Ok(());
        }
        let limit = self.ctx.limits.max_queued_requests;
        let max_bytes = self.ctx.limits.max_unsent;
        let queued_bytes: usize = self.convs.values().map(|c| c.queued_bytes).sum();
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            if self.stopped_convs.contains(&h.conv) {
                if answered(&frame) {
                    self.respond(h, &wire::status_of(&stopped_error()), &Reply::Empty);
                }
                return Ok(());
            }
            return Err(Close::Protocol(format!(
                "request for conversation {} which was never connected",
                h.conv
            )));
        };
        // Stream credit is flow control, not a call: it never waits behind a parked get.
        if conv.get_wait.is_some() && h.opcode != Opcode::Stream as u8 {
            if conv.queued.len() >= limit || queued_bytes + frame.payload.len() > max_bytes {
                return Err(Close::Protocol(format!(
                    "more than {limit} requests or {max_bytes} bytes queued behind waiting gets (conversation {})",
                    h.conv
                )));
            }
            conv.queued_bytes += frame.payload.len();
            conv.queued.push_back(frame);
            return Ok(());
        }
        self.execute(frame)
    }

    /// Connect: a new conversation on the socket, once it is known who it is (see
    /// `identity`): at once, or when its password check ends (`on_authenticated`). It uses
    /// the first compression of the client's list the server accepts.
    fn connect(&mut self, frame: Frame) -> Result<(), Close> {
        let h = frame.header;
        let req = Request::decode(h.opcode, frame.payload).map_err(protocol)?;
        let Request::Connect {
            app_name,
            user,
            password,
            compression,
            flags,
            channel,
        } = req
        else {
            unreachable!("opcode checked")
        };
        self.peer_heartbeats |= flags & ferry_proto::msg::connect_flags::HEARTBEATS != 0;
        if self.convs.contains_key(&h.conv) {
            return Err(Close::Protocol(format!(
                "conversation {} connected twice",
                h.conv
            )));
        }
        if self.convs.len() >= self.ctx.limits.max_conversations {
            let e = MqError::new(
                Reason::MaxConnsLimitReached,
                format!(
                    "this socket already carries {} conversations",
                    self.ctx.limits.max_conversations
                ),
            );
            self.respond(h, &wire::status_of(&e), &Reply::Empty);
            return Ok(());
        }
        let asked: Vec<Compression> = compression
            .iter()
            .filter_map(|c| Compression::from_u8(*c))
            .collect();
        let connect = Connecting {
            header: h,
            app_name,
            user,
            compression: Compression::negotiate(&asked, &self.ctx.limits.compression),
            is_channel: flags & ferry_proto::msg::connect_flags::CHANNEL != 0,
            svrconn: svrconn_name(channel)?,
        };
        if let Some(why) = self.address_blocked() {
            return Err(self.refuse(connect.header, &connect.svrconn, &why));
        }
        self.authenticate(connect, password)
    }

    /// Refuses a conversation for want of a slot — a pool, MAXINST/MAXINSTC, the password
    /// checks that may wait — with `reason` and `why` (counted as a slot refusal, logged within
    /// the allowance); the socket closes.
    fn refuse_slot(&mut self, h: FrameHeader, reason: Reason, why: String) -> Close {
        let qm = &self.ctx.qm;
        qm.security_counters()
            .slot_refusals
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(left_out) = qm.security_log() {
            tracing::warn!(peer = %self.peer.name, reason = %why, left_out, "AMQ9513E connection refused: no slot free");
        }
        let e = MqError::new(reason, format!("{why}; try again later"));
        self.respond(h, &wire::status_of(&e), &Reply::Empty);
        Close::Refused(why)
    }

    /// A BLOCKADDR record that turns this peer away before anything else (a warning only, if
    /// the record says WARN(YES)).
    fn address_blocked(&self) -> Option<String> {
        let Some(Origin::Ip(ip)) = self.peer.origin else {
            return None;
        };
        let (why, warn) = self.ctx.qm.chlauth_blocked_address(&ip.to_string())?;
        if warn {
            tracing::warn!(peer = %self.peer.name, record = %why, "CHLAUTH would block this address (WARN)");
            return None;
        }
        Some(why)
    }

    /// Refuses a conversation with NOT_AUTHORIZED (counted, logged within the allowance; the
    /// peer is told only that it is not authorized) and closes the socket.
    fn refuse(&mut self, h: FrameHeader, channel: &str, why: &str) -> Close {
        let qm = &self.ctx.qm;
        qm.security_counters()
            .authentication_failures
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(left_out) = qm.security_log() {
            tracing::warn!(peer = %self.peer.name, mode = ?self.mode, reason = %why, left_out,
                "AMQ9777E connection refused by channel authentication");
        }
        qm.channel_blocked_event(channel, &self.peer.name, "");
        let e = MqError::new(
            Reason::NotAuthorized,
            "this connection is not allowed in; the queue manager's error log says why",
        );
        self.respond(h, &wire::status_of(&e), &Reply::Empty);
        Close::Refused(why.to_owned())
    }

    /// Settles who a connecting conversation is: opens it now, or starts its password check
    /// (or, for a refusal, the failure delay) and leaves the rest to `on_authenticated`. A
    /// message channel's conversation acts as the queue manager until its channel starts (it
    /// may carry nothing else) and its partner is checked then; a password it gives is
    /// verified here.
    fn authenticate(&mut self, connect: Connecting, password: String) -> Result<(), Close> {
        let connauth = self.ctx.qm.connauth().map(|(_, a)| a);
        let delay = Duration::from_secs(connauth.as_ref().map_or(1, |a| a.fail_delay) as u64);
        let ids = self.ctx.ids.clone();
        let plan = if connect.is_channel {
            let owner = Principal::owner(&self.ctx.qm.name().to_string());
            match password.is_empty() {
                true => identity::Plan::Accept(owner),
                false => identity::Plan::Verify {
                    auth_type: connauth
                        .as_ref()
                        .map_or(AuthType::IdpwFile, |a| a.auth_type),
                    keep: Some(owner),
                },
            }
        } else {
            let local = self.peer.local_uid.map(|uid| ids.local(uid));
            let asking = identity::Asking {
                local,
                user: &connect.user,
                has_password: !password.is_empty(),
            };
            identity::plan(&ids, connauth.as_ref(), asking)
        };
        let user = connect.user.clone();
        let mut told =
            format!("user '{user}' could not be authenticated; check the user name and password");
        let (keep, check): (_, Pin<Box<dyn Future<Output = _> + Send>>) = match plan {
            identity::Plan::Accept(who) => return self.open_conversation(connect, who, None),
            identity::Plan::Refuse(why) => {
                told = format!("this queue manager wants a user id and password: {why}");
                (
                    None,
                    Box::pin(async move {
                        tokio::time::sleep(delay).await;
                        Err(why)
                    }),
                )
            }
            identity::Plan::Verify { .. } if ids.verifiers_full() => {
                let why = format!(
                    "{} password checks already wait for a verifier",
                    identity::MAX_WAITING
                );
                let busy = Reason::MaxConnsLimitReached;
                let refusal = self.refuse_slot(connect.header, busy, why);
                // The socket's other conversations go on: only this one was refused.
                return match self.convs.is_empty() {
                    true => Err(refusal),
                    false => Ok(()),
                };
            }
            identity::Plan::Verify { auth_type, keep } => {
                let origin = self.peer.origin.unwrap_or(identity::Origin::Uid(u32::MAX));
                (
                    keep,
                    Box::pin(identity::verify(
                        ids, origin, auth_type, user, password, delay,
                    )),
                )
            }
        };
        self.auth = Some(PendingAuth {
            connect,
            keep,
            check,
            told,
        });
        Ok(())
    }

    /// A password check ended: the conversation opens as the verified user (or the identity
    /// kept), or is refused with NOT_AUTHORIZED and the socket closes.
    fn on_authenticated(&mut self, outcome: Result<(), String>) -> Result<(), Close> {
        let Some(PendingAuth {
            connect,
            keep,
            told,
            ..
        }) = self.auth.take()
        else {
            return Ok(());
        };
        let user = connect.user.clone();
        if let Err(why) = outcome {
            let qm = &self.ctx.qm;
            qm.security_counters()
                .authentication_failures
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Some(left_out) = qm.security_log() {
                tracing::warn!(peer = %self.peer.name, mode = ?self.mode, user = %user, reason = %why,
                    left_out, "connection refused: authentication failed");
            }
            let e = MqError::new(Reason::NotAuthorized, told);
            self.respond(connect.header, &wire::status_of(&e), &Reply::Empty);
            return Err(Close::Refused(format!(
                "authentication failed for user '{user}'"
            )));
        }
        let who = keep.unwrap_or_else(|| self.ctx.ids.principal(&user));
        self.open_conversation(connect, who, Some(user))
    }

    /// Connects a conversation to the queue manager as `who` (or as the user a CHLAUTH record
    /// maps it to) and answers Connected, or why not: NOT_AUTHORIZED without CONNECT authority;
    /// a CHLAUTH refusal also closes the socket.
    fn open_conversation(
        &mut self,
        c: Connecting,
        who: Principal,
        verified: Option<String>,
    ) -> Result<(), Close> {
        let h = c.header;
        // CHLAUTH is about channels: a local (bindings-like) conversation is not on one, and a
        // message channel's is checked when its channel starts.
        let who = if c.is_channel || self.mode == ConnMode::Local {
            who
        } else {
            match self.client_chlauth(&c, who) {
                Ok(w) => w,
                Err(why) => {
                    let channel = c.svrconn.clone();
                    return Err(self.refuse(h, &channel, &why));
                }
            }
        };
        self.take_kind_slot(h, c.is_channel)?;
        if !c.is_channel && self.mode != ConnMode::Local {
            self.start_instance(h, &c.svrconn)?;
        }
        let opts = ConnectOptions {
            app_name: c.app_name,
            user_id: Some(who.user.clone()),
        };
        match self
            .ctx
            .qm
            .connect_with(&opts, self.mode, self.peer.name.clone(), who)
        {
            Ok(mut session) => {
                session.defer_durability(true);
                let reply = Reply::Connected {
                    conn_id: session.connection_id(),
                    qmgr: self.ctx.qm.name().to_string(),
                    heartbeat_ms: self.ctx.limits.heartbeat.as_millis() as u32,
                    compression: c.compression.map_or(0, |c| c as u8),
                };
                session.counters().compression.store(
                    c.compression.map_or(0, |c| c as u8),
                    std::sync::atomic::Ordering::Relaxed,
                );
                let stop = self.conn_stop.clone();
                let stopper = ferry_core::qmgr::Stopper(Box::new(move || stop.notify_one()));
                let _ = session.counters().stopper.set(stopper);
                let mut conv = Conv::new(session, c.compression);
                self.opened = true;
                conv.is_channel = c.is_channel;
                conv.verified_user = verified;
                self.stopped_convs.remove(&h.conv);
                self.convs.insert(h.conv, conv);
                self.respond(h, &Status::OK, &reply);
            }
            Err(e) => {
                if e.reason == Reason::NotAuthorized {
                    tracing::warn!(peer = %self.peer.name, mode = ?self.mode, reason = %e.detail, "connection refused");
                }
                self.respond(h, &wire::status_of(&e), &Reply::Empty)
            }
        }
        Ok(())
    }

    /// A network socket's first conversation moves its slot to its kind's pool (client
    /// applications or message channels); when that pool is full the conversation is answered
    /// MAX_CONNS_LIMIT_REACHED and the socket closes.
    fn take_kind_slot(&mut self, h: FrameHeader, channel: bool) -> Result<(), Close> {
        let Some(slot) = self.slot.take_if(|s| s.is_unopened()) else {
            return Ok(());
        };
        match self.ctx.slots.opened(slot, channel) {
            Ok(s) => {
                self.slot = Some(s);
                Ok(())
            }
            Err(why) => Err(self.refuse_slot(h, Reason::MaxConnsLimitReached, why)),
        }
    }

    /// Makes this socket an instance of server-connection channel `channel` (once), within the
    /// definition's MAXINST and MAXINSTC; beyond them the conversation is answered
    /// CHANNEL_NOT_AVAILABLE (2537) and the socket closes. A channel with no definition has no
    /// such bound.
    fn start_instance(&mut self, h: FrameHeader, channel: &str) -> Result<(), Close> {
        if self.instances.iter().any(|i| i.channel() == channel) {
            return Ok(());
        }
        let Ok(def) = self.ctx.qm.channel(channel) else {
            return Ok(());
        };
        if def.channel_type != ferry_model::objects::ChannelType::ServerConn {
            return Ok(());
        }
        let from = match self.peer.origin {
            Some(Origin::Ip(ip)) => Some(ip),
            _ => None,
        };
        let limits = (def.max_instances, def.max_instances_client);
        match self.ctx.instances.start(channel, from, limits) {
            Ok(i) => {
                self.instances.push(i);
                Ok(())
            }
            Err(why) => Err(self.refuse_slot(h, Reason::ChannelNotAvailable, why)),
        }
    }

    /// CHLAUTH for an application's conversation, on the channel it named: the
    /// principal it runs as (mapped by a USERMAP, SSLPEERMAP or ADDRESSMAP record), or why it
    /// is refused.
    fn client_chlauth(&self, c: &Connecting, who: Principal) -> Result<Principal, String> {
        let address = match self.peer.origin {
            Some(Origin::Ip(ip)) => ip.to_string(),
            _ => "localhost".to_owned(),
        };
        let ids = &self.ctx.ids;
        let arrival = ferry_model::chlauth::Arrival {
            channel: &c.svrconn,
            address: &address,
            user: if c.user.is_empty() {
                &who.user
            } else {
                &c.user
            },
            cert: self.peer.cert.as_ref(),
            qmgr: None,
        };
        let admin_of = |u: &str| ids.principal(u).admin;
        match self.ctx.qm.chlauth_decide(&arrival, who.admin, &admin_of) {
            ferry_model::chlauth::Verdict::Block(why) => Err(why),
            ferry_model::chlauth::Verdict::Allow { mapped, warnings } => {
                for w in warnings {
                    tracing::warn!(peer = %self.peer.name, record = %w, "CHLAUTH would refuse this connection (WARN)");
                }
                Ok(mapped.map_or(who, |u| ids.principal(&u)))
            }
        }
    }

    fn start_get(
        &mut self,
        conv_id: u16,
        (request_id, more): (u64, u32),
        hobj: Hobj,
        opts: GetOptions,
        deadline: Option<Instant>,
    ) {
        let h = get_header(conv_id, request_id, 0);
        let Some(conv) = self.convs.get_mut(&conv_id) else {
            return;
        };
        match conv.session.try_get(hobj, &opts) {
            Ok(GetAttempt::Got(g)) => self.respond_got_batch(h, hobj, &opts, g, more),
            Ok(GetAttempt::Wait(pending)) => {
                let sleep = deadline.map(|d| Box::pin(tokio::time::sleep_until(d)));
                conv.get_wait = Some(GetWait {
                    request_id,
                    more,
                    hobj,
                    opts,
                    pending,
                    sleep,
                });
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    fn on_get_done(&mut self, conv_id: u16, outcome: WaitOutcome) -> Result<(), Close> {
        let Some(conv) = self.convs.get_mut(&conv_id) else {
            return Ok(());
        };
        let Some(gw) = conv.get_wait.take() else {
            return Ok(());
        };
        let h = get_header(conv_id, gw.request_id, 0);
        let timed_out = gw.sleep.as_ref().is_some_and(|s| s.is_elapsed());
        match conv.session.finish_wait(gw.hobj, &gw.opts, outcome) {
            Ok(Some(g)) => self.respond_got_batch(h, gw.hobj, &gw.opts, g, gw.more),
            Ok(None) if timed_out => {
                let e = MqError::new(
                    Reason::NoMsgAvailable,
                    "no matching message arrived within the wait interval",
                );
                self.respond(h, &wire::status_of(&e), &Reply::Empty);
            }
            Ok(None) => {
                let deadline = gw.sleep.as_ref().map(|s| s.deadline());
                let call = (gw.request_id, gw.more);
                self.start_get(conv_id, call, gw.hobj, gw.opts, deadline);
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
        self.drain_queued(conv_id)
    }

    /// Runs requests that queued behind a wait, until the conversation waits again.
    fn drain_queued(&mut self, conv_id: u16) -> Result<(), Close> {
        loop {
            let Some(conv) = self.convs.get_mut(&conv_id) else {
                return Ok(());
            };
            if conv.get_wait.is_some() {
                return Ok(());
            }
            let Some(frame) = conv.queued.pop_front() else {
                return Ok(());
            };
            conv.queued_bytes -= frame.payload.len();
            self.execute(frame)?;
        }
    }

    /// Pushes streamed messages while the client has credit, then parks a wait for more.
    fn pump(&mut self, conv_id: u16, hobj: u32) {
        let max_bytes = self.ctx.limits.max_read_ahead_bytes;
        loop {
            let Some(conv) = self.convs.get_mut(&conv_id) else {
                return;
            };
            let Some(stream) = conv.streams.get_mut(&hobj) else {
                return;
            };
            if !stream.may_push(max_bytes) {
                return;
            }
            let room = stream.room(max_bytes);
            match conv.session.stream_take(Hobj(hobj), room) {
                Ok(batch) if !batch.is_empty() => {
                    for g in &batch {
                        stream.pushed(g.data_length);
                    }
                    for g in &batch {
                        self.push_got(conv_id, hobj, g);
                    }
                    continue;
                }
                _ => {}
            }
            let Some(conv) = self.convs.get_mut(&conv_id) else {
                return;
            };
            let Some(stream) = conv.streams.get_mut(&hobj) else {
                return;
            };
            match conv.session.stream_next(Hobj(hobj), Some(room)) {
                Ok(Some(GetAttempt::Got(g))) => {
                    stream.pushed(g.data_length);
                    self.push_got(conv_id, hobj, &g);
                }
                Ok(Some(GetAttempt::Wait(p))) => {
                    stream.wait = Some(p);
                    return;
                }
                Ok(None) => return,
                Err(e) => {
                    // The stream ends (queue deleted, stopping, get inhibited): tell the client
                    // once, as a pushed failure it reports on its next get.
                    stream.credit = 0;
                    let h = get_header(conv_id, hobj as u64, FLAG_PUSH);
                    self.respond(h, &wire::status_of(&e), &Reply::Empty);
                    return;
                }
            }
        }
    }

    fn on_stream_ready(&mut self, conv_id: u16, hobj: u32, outcome: WaitOutcome) {
        let Some(conv) = self.convs.get_mut(&conv_id) else {
            return;
        };
        let Some(stream) = conv.streams.get_mut(&hobj) else {
            return;
        };
        stream.wait = None;
        match conv.session.finish_stream_wait(Hobj(hobj), outcome) {
            Ok(batch) => {
                for g in &batch {
                    stream.pushed(g.data_length);
                }
                for g in &batch {
                    self.push_got(conv_id, hobj, g);
                }
            }
            Err(e) => {
                stream.credit = 0;
                let h = get_header(conv_id, hobj as u64, FLAG_PUSH);
                self.respond(h, &wire::status_of(&e), &Reply::Empty);
                return;
            }
        }
        self.pump(conv_id, hobj);
    }

    fn push_got(&mut self, conv_id: u16, hobj: u32, g: &Got) {
        self.respond_got(get_header(conv_id, hobj as u64, FLAG_PUSH), g);
    }

    /// Answers a get with its first message and, for a batch get, up to `more` others the
    /// queue has now (got as the first was, without waiting; at most the read-ahead limits'
    /// messages and bytes, the first always): a response frame each, every one but the last
    /// marked `FLAG_MORE`. A later get that fails ends the batch (it took nothing).
    fn respond_got_batch(
        &mut self,
        h: FrameHeader,
        hobj: Hobj,
        opts: &GetOptions,
        first: Got,
        more: u32,
    ) {
        let rest = match more {
            0 => Vec::new(),
            _ => self.take_more(h.conv, hobj, opts, first.data_length, more),
        };
        let last = rest.len();
        for (i, g) in std::iter::once(first).chain(rest).enumerate() {
            let flags = if i < last { FLAG_MORE } else { 0 };
            self.respond_got(FrameHeader { flags, ..h }, &g);
        }
    }

    /// The rest of a batch get: what the queue has now, up to `more` messages, within the
    /// read-ahead limits counting the first's `first_len` bytes.
    fn take_more(
        &mut self,
        conv_id: u16,
        hobj: Hobj,
        opts: &GetOptions,
        first_len: usize,
        more: u32,
    ) -> Vec<Got> {
        let max_msgs = more.min(self.ctx.limits.max_read_ahead_msgs.saturating_sub(1)) as usize;
        let max_bytes = self.ctx.limits.max_read_ahead_bytes;
        let Some(conv) = self.convs.get_mut(&conv_id) else {
            return Vec::new();
        };
        let mut next = *opts;
        next.wait = Wait::No;
        if next.browse == BrowseMode::First {
            next.browse = BrowseMode::Next;
        }
        let (mut rest, mut bytes) = (Vec::new(), first_len);
        while rest.len() < max_msgs && bytes < max_bytes {
            match conv.session.try_get(hobj, &next) {
                Ok(GetAttempt::Got(g)) => {
                    bytes += g.data_length;
                    rest.push(g);
                }
                Ok(GetAttempt::Wait(_)) => {
                    debug_assert!(false, "a get without waiting parked");
                    break;
                }
                Err(_) => break,
            }
        }
        rest
    }

    fn respond_got(&mut self, h: FrameHeader, g: &Got) {
        let status = Status {
            data_length: g.data_length as u64,
            ..wire::status_ok(g.warning)
        };
        let len = g.data_length as u64;
        let body = &g.message.body;
        let plain = (self.convs.get(&h.conv)).is_none_or(|c| c.compression.is_none());
        // Encoded straight from the engine's message: no wire copy of its properties; a large
        // body is not copied at all, but written from where it lies.
        if plain && body.len() >= outbuf::SPLICE_MIN {
            let head = |out: &mut BytesMut| wire::encode_got_head(out, &status, len, &g.message);
            self.respond_spliced(h, body, &head);
        } else {
            self.respond_with(h, &|out| wire::encode_got(out, &status, len, &g.message));
        }
    }

    fn reply(&mut self, h: FrameHeader, r: Result<Reply, MqError>) {
        match r {
            Ok(reply) => self.respond(h, &Status::OK, &reply),
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    fn respond(&mut self, h: FrameHeader, status: &Status, reply: &Reply) {
        self.respond_with(h, &|out| encode_response(out, status, reply));
    }

    /// Appends a response frame whose payload `encode` writes (compressed when the
    /// conversation asked for it), held until any log work it shows is durable.
    fn respond_with(&mut self, h: FrameHeader, encode: &dyn Fn(&mut bytes::BytesMut)) {
        let hdr = self.response_header(h);
        if self.respond_compressed(hdr, encode) {
            return;
        }
        let start = begin_frame(self.out.buf(), hdr);
        encode(self.out.buf());
        self.finish_response(hdr, start, None);
    }

    /// As [`Socket::respond_with`] for a payload that ends with `body`: `encode` writes the
    /// rest and says whether the body follows; the body is sent from where it lies.
    fn respond_spliced(
        &mut self,
        h: FrameHeader,
        body: &bytes::Bytes,
        encode: &dyn Fn(&mut bytes::BytesMut) -> bool,
    ) {
        let hdr = self.response_header(h);
        let start = begin_frame(self.out.buf(), hdr);
        let body = encode(self.out.buf()).then_some(body);
        self.finish_response(hdr, start, body);
    }

    /// A response's frame header; marks where the reply must wait for the log if it shows the
    /// effect of logged work.
    fn response_header(&mut self, h: FrameHeader) -> FrameHeader {
        let owed = match self.convs.get_mut(&h.conv) {
            Some(c) => c.session.take_owed_lsn(),
            None => self.owed_by_gone.take(),
        };
        if let Some(lsn) = owed {
            let last = self.held.back().map_or(0, |(_, l)| *l);
            if lsn > last {
                self.held.push_back((self.out.mark(), lsn));
            }
        }
        FrameHeader {
            flags: FLAG_RESPONSE | (h.flags & (FLAG_PUSH | FLAG_MORE)),
            ..h
        }
    }

    /// Appends the response compressed, if its conversation compresses and it is worth it.
    fn respond_compressed(&mut self, hdr: FrameHeader, encode: &dyn Fn(&mut BytesMut)) -> bool {
        let Some(conv) = self.convs.get(&hdr.conv) else {
            return false;
        };
        let Some(alg) = conv.compression else {
            return false;
        };
        self.scratch.clear();
        encode(&mut self.scratch);
        if self.scratch.len() < MIN_COMPRESS_LEN {
            return false;
        }
        let flags = hdr.flags | FLAG_COMPRESSED;
        let out = self.out.buf();
        let start = begin_frame(out, FrameHeader { flags, ..hdr });
        let body = out.len();
        compress::compress(alg, &self.scratch, out);
        let wire = out.len() - body;
        finish_frame(out, start);
        (conv.session.counters()).note_compressed(self.scratch.len(), wire);
        true
    }

    /// Ends the response frame begun at `start` (with `body` sent after it), or replaces it
    /// with an error when it is larger than the client takes.
    fn finish_response(&mut self, hdr: FrameHeader, start: usize, body: Option<&bytes::Bytes>) {
        let after = body.map_or(0, |b| b.len());
        if self.out.mark() - start + after > self.max_frame_out {
            // The client cannot take a frame this large: answer with an error instead.
            self.out.buf().truncate(start);
            let e = MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "the response exceeds the client's maximum frame of {} bytes",
                    self.max_frame_out
                ),
            );
            let start = begin_frame(self.out.buf(), hdr);
            encode_response(self.out.buf(), &wire::status_of(&e), &Reply::Empty);
            finish_frame(self.out.buf(), start);
            return;
        }
        finish_frame_before(self.out.buf(), start, after);
        if let Some(b) = body {
            self.out.splice(b);
        }
    }

    fn push_heartbeat(&mut self) {
        ferry_proto::encode_heartbeat(self.out.buf());
    }
}

/// Ticks every `period`, the first a period from now.
fn heartbeat_ticks(period: Duration) -> tokio::time::Interval {
    let mut tick = tokio::time::interval(period);
    tick.reset();
    tick
}

/// Ready once the server is told to stop.
fn stop_signal(mut stop: watch::Receiver<bool>) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    Box::pin(async move {
        let _ = stop.wait_for(|s| *s).await;
    })
}

/// Whether a request gets an answer: not read-ahead credit, not an asynchronous put.
fn answered(frame: &Frame) -> bool {
    use ferry_proto::msg::put_flags;
    match Request::decode(frame.header.opcode, frame.payload.clone()) {
        Ok(Request::Stream { .. }) => false,
        Ok(Request::Put { options, .. } | Request::Put1 { options, .. }) => {
            options.flags & put_flags::ASYNC == 0
        }
        _ => true,
    }
}

/// What a conversation STOP CONN ended answers.
fn stopped_error() -> MqError {
    MqError::new(
        Reason::ConnectionBroken,
        "an administrator ended this connection (STOP CONN); connect again",
    )
}

fn get_header(conv: u16, request_id: u64, flags: u8) -> FrameHeader {
    FrameHeader {
        opcode: Opcode::Get as u8,
        flags,
        conv,
        request_id,
    }
}

fn protocol(e: WireError) -> Close {
    Close::Protocol(e.to_string())
}
