//! One socket: the preamble, then frames carrying one or more conversations (connections).
//!
//! Batching (after NATS): every read decodes and applies *all* complete frames in the buffer and
//! appends their responses to one write buffer, flushed once per read. A waiting get never
//! blocks the socket: it is parked on a small task that hands its outcome back through a channel;
//! until then later requests of that conversation queue (bounded) behind it, while other
//! conversations on the socket carry on.
//!
//! A protocol violation (garbage, an oversized or truncated frame, an unknown opcode, a request
//! for a conversation that does not exist) closes the socket with a logged reason. Closing a
//! socket ends its conversations as if their applications died: units of work are backed out.
//! A message handed to a getter whose connection vanished is put back on its queue.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use bytes::BytesMut;
use ferry_core::waiter::WaitOutcome;
use ferry_core::wire;
use ferry_core::{
    AttrValue, CloseOptions, ConnMode, ConnectOptions, GetAttempt, GetOptions, Hobj, MqError,
    PendingGet, QueueManager, Reason, Selector, Session, Wait,
};
use ferry_proto::{
    begin_frame, decode_frame, encode_response, finish_frame, Frame, FrameHeader, Opcode, Preamble,
    Reply, Request, Status, WireAttr, WireError, FLAG_PUSH, FLAG_RESPONSE, PREAMBLE_LEN,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// Limits applied to each socket.
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Largest frame accepted from a client, header included.
    pub max_frame: usize,
    /// Conversations one socket may carry (MQ's SHARECNV ceiling).
    pub max_conversations: usize,
    /// Requests that may queue behind a waiting get on one conversation.
    pub max_queued_requests: usize,
    /// Heartbeat interval: an idle server sends a heartbeat this often.
    pub heartbeat: Duration,
    /// How long a client has to send its preamble.
    pub handshake_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_frame: ferry_proto::DEFAULT_MAX_FRAME,
            max_conversations: 10,
            max_queued_requests: 1024,
            heartbeat: Duration::from_secs(30),
            handshake_timeout: Duration::from_secs(10),
        }
    }
}

/// What every connection task shares.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub qm: QueueManager,
    pub limits: ConnLimits,
}

/// The outcome of a parked get, on its way back to the connection task. Dropping it without
/// taking the outcome (the connection ended meanwhile) puts a delivered message back.
struct WaitDone {
    conv: u16,
    request_id: u64,
    hobj: Hobj,
    opts: GetOptions,
    deadline: Option<Instant>,
    pending: PendingGet,
    outcome: Option<WaitOutcome>,
}

impl Drop for WaitDone {
    fn drop(&mut self) {
        if let Some(o) = self.outcome.take() {
            self.pending.give_back(o);
        }
    }
}

/// Async put results since the last status call (MQSTAT's counts).
#[derive(Debug, Default)]
struct AsyncStats {
    succeeded: u64,
    warned: u64,
    failed: u64,
    first_failure: Option<MqError>,
}

struct Conv {
    session: Session,
    /// A get is parked; later requests wait in `queued`.
    waiting: Option<tokio::task::JoinHandle<()>>,
    queued: VecDeque<Frame>,
    async_stats: AsyncStats,
}

impl Drop for Conv {
    fn drop(&mut self) {
        if let Some(w) = self.waiting.take() {
            w.abort();
        }
    }
}

/// Why a socket was closed.
#[derive(Debug)]
enum Close {
    PeerClosed,
    Io(std::io::Error),
    Protocol(String),
    Stopping,
}

struct Socket {
    ctx: Arc<Ctx>,
    mode: ConnMode,
    peer: String,
    convs: HashMap<u16, Conv>,
    wbuf: BytesMut,
    max_frame_out: usize,
    done_tx: mpsc::UnboundedSender<WaitDone>,
}

/// Serves one socket until it closes or the server stops.
pub(crate) async fn serve<R, W>(
    mut rd: R,
    mut wr: W,
    ctx: Arc<Ctx>,
    mode: ConnMode,
    peer: String,
    mut stop: watch::Receiver<bool>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let max_frame_out = match handshake(&mut rd, &mut wr, &ctx.limits).await {
        Ok(m) => m,
        Err(reason) => {
            tracing::info!(peer = %peer, ?mode, %reason, "connection refused at handshake");
            return;
        }
    };
    let (done_tx, mut done_rx) = mpsc::unbounded_channel();
    let heartbeat = ctx.limits.heartbeat;
    let mut sock = Socket {
        ctx,
        mode,
        peer,
        convs: HashMap::new(),
        wbuf: BytesMut::with_capacity(64 * 1024),
        max_frame_out,
        done_tx,
    };
    let mut rbuf = BytesMut::with_capacity(64 * 1024);
    let mut last_sent = Instant::now();
    let mut tick = tokio::time::interval(heartbeat);
    tick.tick().await;
    let why = loop {
        let step: Result<(), Close> = tokio::select! {
            r = read_more(&mut rd, &mut rbuf) => match r {
                Ok(0) => Err(Close::PeerClosed),
                Ok(_) => sock.on_frames(&mut rbuf),
                Err(e) => Err(Close::Io(e)),
            },
            Some(done) = done_rx.recv() => sock.on_wait_done(done),
            _ = tick.tick() => {
                if last_sent.elapsed() >= heartbeat {
                    sock.push_heartbeat();
                }
                Ok(())
            }
            _ = stop.changed() => Err(Close::Stopping),
        };
        if !sock.wbuf.is_empty() {
            if let Err(e) = wr.write_all(&sock.wbuf).await {
                break Close::Io(e);
            }
            sock.wbuf.clear();
            last_sent = Instant::now();
        }
        if let Err(why) = step {
            break why;
        }
    };
    match &why {
        Close::PeerClosed | Close::Stopping => {
            tracing::debug!(peer = %sock.peer, mode = ?sock.mode, reason = ?why, "connection closed")
        }
        Close::Io(e) => {
            tracing::info!(peer = %sock.peer, mode = ?sock.mode, error = %e, "connection lost")
        }
        Close::Protocol(r) => {
            tracing::warn!(peer = %sock.peer, mode = ?sock.mode, reason = %r, "closing connection: protocol error")
        }
    }
    let _ = wr.shutdown().await;
    // Dropping the conversations backs out their units of work and closes their handles.
    sock.convs.clear();
}

async fn read_more<R: AsyncRead + Unpin>(rd: &mut R, buf: &mut BytesMut) -> std::io::Result<usize> {
    let want = ferry_proto::frame::pending_frame_len(buf)
        .unwrap_or(0)
        .saturating_sub(buf.len())
        .clamp(16 * 1024, 1 << 20);
    buf.reserve(want);
    rd.read_buf(buf).await
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
    fn on_frames(&mut self, rbuf: &mut BytesMut) -> Result<(), Close> {
        loop {
            let frame = match decode_frame(rbuf, self.ctx.limits.max_frame) {
                Ok(Some(f)) => f,
                Ok(None) => return Ok(()),
                Err(e) => return Err(protocol(e)),
            };
            self.on_frame(frame)?;
        }
    }

    fn on_frame(&mut self, frame: Frame) -> Result<(), Close> {
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
            self.respond(h, &Status::OK, &Reply::Empty);
            return Ok(());
        }
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            return Err(Close::Protocol(format!(
                "request for conversation {} which was never connected",
                h.conv
            )));
        };
        if conv.waiting.is_some() {
            if conv.queued.len() >= self.ctx.limits.max_queued_requests {
                return Err(Close::Protocol(format!(
                    "more than {} requests queued behind a waiting get on conversation {}",
                    self.ctx.limits.max_queued_requests, h.conv
                )));
            }
            conv.queued.push_back(frame);
            return Ok(());
        }
        self.execute(frame)
    }

    fn connect(&mut self, frame: Frame) -> Result<(), Close> {
        let h = frame.header;
        let req = Request::decode(h.opcode, frame.payload).map_err(protocol)?;
        let Request::Connect { app_name, user, .. } = req else {
            unreachable!("opcode checked")
        };
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
        let opts = ConnectOptions {
            app_name,
            user_id: (!user.is_empty()).then_some(user),
        };
        match self.ctx.qm.connect_as(&opts, self.mode, self.peer.clone()) {
            Ok(session) => {
                let reply = Reply::Connected {
                    conn_id: session.connection_id(),
                    qmgr: self.ctx.qm.name().to_string(),
                    heartbeat_ms: self.ctx.limits.heartbeat.as_millis() as u32,
                };
                self.convs.insert(
                    h.conv,
                    Conv {
                        session,
                        waiting: None,
                        queued: VecDeque::new(),
                        async_stats: AsyncStats::default(),
                    },
                );
                self.respond(h, &Status::OK, &reply);
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
        Ok(())
    }

    /// Applies one request of a conversation that is not waiting.
    fn execute(&mut self, frame: Frame) -> Result<(), Close> {
        let h = frame.header;
        let req = Request::decode(h.opcode, frame.payload).map_err(protocol)?;
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            return Ok(());
        };
        let result: Result<Reply, MqError> = match req {
            Request::Connect { .. } | Request::Heartbeat => unreachable!("handled before"),
            Request::Disconnect => {
                let r = conv.session.disconnect_in_place().map(|_| Reply::Empty);
                self.convs.remove(&h.conv);
                self.reply(h, r);
                return Ok(());
            }
            Request::Open { object, options } => (|| {
                let od = wire::object_from_wire(&object)?;
                let opts = wire::open_from_wire(options)?;
                let hobj = conv.session.open(&od, opts)?;
                Ok(Reply::Opened {
                    hobj: hobj.0,
                    name: conv.session.queue_name(hobj)?.to_string(),
                })
            })(),
            Request::Close { hobj, options } => {
                let opts = match options {
                    1 => CloseOptions::Delete,
                    2 => CloseOptions::DeletePurge,
                    _ => CloseOptions::None,
                };
                conv.session.close(Hobj(hobj), opts).map(|_| Reply::Empty)
            }
            Request::Put { hobj, options, msg } => {
                let is_async = options & ferry_proto::msg::put_flags::ASYNC != 0;
                let r = (|| {
                    let opts = wire::put_from_wire(options)?;
                    let msg = wire::message_from_wire(msg)?;
                    conv.session.put(Hobj(hobj), msg, &opts)
                })();
                if is_async {
                    record_async(&mut conv.async_stats, &r);
                    return Ok(());
                }
                self.reply_put(h, r);
                return Ok(());
            }
            Request::Put1 {
                object,
                options,
                msg,
            } => {
                let is_async = options & ferry_proto::msg::put_flags::ASYNC != 0;
                let r = (|| {
                    let od = wire::object_from_wire(&object)?;
                    let opts = wire::put_from_wire(options)?;
                    let msg = wire::message_from_wire(msg)?;
                    conv.session.put1(&od, msg, &opts)
                })();
                if is_async {
                    record_async(&mut conv.async_stats, &r);
                    return Ok(());
                }
                self.reply_put(h, r);
                return Ok(());
            }
            Request::Get { hobj, options } => {
                let opts = match wire::get_from_wire(&options) {
                    Ok(o) => o,
                    Err(e) => {
                        self.respond(h, &wire::status_of(&e), &Reply::Empty);
                        return Ok(());
                    }
                };
                let deadline = match opts.wait {
                    Wait::For(d) => Some(Instant::now() + d),
                    _ => None,
                };
                self.start_get(h, Hobj(hobj), opts, deadline);
                return Ok(());
            }
            Request::Inquire { hobj, selectors } => (|| {
                let sels = selectors
                    .iter()
                    .map(|s| {
                        Selector::from_code(*s).ok_or_else(|| {
                            MqError::new(
                                Reason::SelectorError,
                                format!("selector {s} is not supported"),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let values = conv.session.inquire(Hobj(hobj), &sels)?;
                Ok(Reply::Inquired {
                    values: values
                        .into_iter()
                        .map(|v| match v {
                            AttrValue::Int(i) => WireAttr::Int(i),
                            AttrValue::Str(s) => WireAttr::Str(s),
                        })
                        .collect(),
                })
            })(),
            Request::Set { hobj, values } => (|| {
                let vals = values
                    .iter()
                    .map(|(s, v)| {
                        Selector::from_code(*s)
                            .map(|sel| (sel, AttrValue::Int(*v)))
                            .ok_or_else(|| {
                                MqError::new(
                                    Reason::SelectorError,
                                    format!("selector {s} is not supported"),
                                )
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                conv.session.set(Hobj(hobj), &vals).map(|_| Reply::Empty)
            })(),
            Request::Commit => commit_with_async(conv),
            Request::Backout => conv.session.backout().map(|_| Reply::Empty),
            Request::Status => {
                let s = std::mem::take(&mut conv.async_stats);
                let (first_reason, first_detail) = s
                    .first_failure
                    .map_or((0, String::new()), |e| (e.reason.code(), e.detail));
                Ok(Reply::Status {
                    succeeded: s.succeeded,
                    warned: s.warned,
                    failed: s.failed,
                    first_reason,
                    first_detail,
                })
            }
        };
        self.reply(h, result);
        Ok(())
    }

    fn start_get(
        &mut self,
        h: FrameHeader,
        hobj: Hobj,
        opts: GetOptions,
        deadline: Option<Instant>,
    ) {
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            return;
        };
        match conv.session.try_get(hobj, &opts) {
            Ok(GetAttempt::Got(g)) => {
                let status = wire::status_ok(g.warning);
                let status = Status {
                    data_length: g.data_length as u64,
                    ..status
                };
                let reply = Reply::Got {
                    msg: wire::message_to_wire(&g.message),
                    data_length: g.data_length as u64,
                };
                self.respond(h, &status, &reply);
            }
            Ok(GetAttempt::Wait(mut pending)) => {
                let tx = self.done_tx.clone();
                let conv_id = h.conv;
                let request_id = h.request_id;
                conv.waiting = Some(tokio::spawn(async move {
                    let outcome = wait_for(&mut pending, deadline).await;
                    let done = WaitDone {
                        conv: conv_id,
                        request_id,
                        hobj,
                        opts,
                        deadline,
                        pending,
                        outcome: Some(outcome),
                    };
                    // If the connection has gone, `done` comes back and its drop gives the message back.
                    let _ = tx.send(done);
                }));
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    fn on_wait_done(&mut self, mut done: WaitDone) -> Result<(), Close> {
        let h = FrameHeader {
            opcode: Opcode::Get as u8,
            flags: 0,
            conv: done.conv,
            request_id: done.request_id,
        };
        let Some(conv) = self.convs.get_mut(&done.conv) else {
            return Ok(());
        };
        conv.waiting = None;
        let outcome = done.outcome.take().unwrap_or(WaitOutcome::TimedOut);
        match conv.session.finish_wait(done.hobj, &done.opts, outcome) {
            Ok(Some(g)) => {
                let status = Status {
                    data_length: g.data_length as u64,
                    ..wire::status_ok(g.warning)
                };
                let reply = Reply::Got {
                    msg: wire::message_to_wire(&g.message),
                    data_length: g.data_length as u64,
                };
                self.respond(h, &status, &reply);
            }
            Ok(None) => {
                if done.deadline.is_some_and(|d| Instant::now() >= d) {
                    let e = MqError::new(
                        Reason::NoMsgAvailable,
                        "no matching message arrived within the wait interval",
                    );
                    self.respond(h, &wire::status_of(&e), &Reply::Empty);
                } else {
                    self.start_get(h, done.hobj, done.opts, done.deadline);
                }
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
        self.drain_queued(done.conv)
    }

    /// Runs requests that queued behind a wait, until the conversation waits again.
    fn drain_queued(&mut self, conv_id: u16) -> Result<(), Close> {
        loop {
            let Some(conv) = self.convs.get_mut(&conv_id) else {
                return Ok(());
            };
            if conv.waiting.is_some() {
                return Ok(());
            }
            let Some(frame) = conv.queued.pop_front() else {
                return Ok(());
            };
            self.execute(frame)?;
        }
    }

    fn reply_put(&mut self, h: FrameHeader, r: Result<ferry_core::PutOutcome, MqError>) {
        match r {
            Ok(out) => {
                let (reply, w) = put_reply(out);
                self.respond(h, &wire::status_ok(w), &reply);
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    fn reply(&mut self, h: FrameHeader, r: Result<Reply, MqError>) {
        match r {
            Ok(reply) => self.respond(h, &Status::OK, &reply),
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    fn respond(&mut self, h: FrameHeader, status: &Status, reply: &Reply) {
        let hdr = FrameHeader {
            flags: FLAG_RESPONSE,
            ..h
        };
        let start = begin_frame(&mut self.wbuf, hdr);
        encode_response(&mut self.wbuf, status, reply);
        if self.wbuf.len() - start > self.max_frame_out {
            // The client cannot take a frame this large: answer with an error instead.
            self.wbuf.truncate(start);
            let e = MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "the response exceeds the client's maximum frame of {} bytes",
                    self.max_frame_out
                ),
            );
            let start = begin_frame(&mut self.wbuf, hdr);
            encode_response(&mut self.wbuf, &wire::status_of(&e), &Reply::Empty);
            finish_frame(&mut self.wbuf, start);
            return;
        }
        finish_frame(&mut self.wbuf, start);
    }

    fn push_heartbeat(&mut self) {
        let hdr = FrameHeader {
            opcode: Opcode::Heartbeat as u8,
            flags: FLAG_PUSH,
            conv: 0,
            request_id: 0,
        };
        let start = begin_frame(&mut self.wbuf, hdr);
        finish_frame(&mut self.wbuf, start);
    }
}

fn protocol(e: WireError) -> Close {
    Close::Protocol(e.to_string())
}

fn put_reply(out: ferry_core::PutOutcome) -> (Reply, Option<Reason>) {
    let persistence = match out.persistence {
        ferry_core::Persistence::Persistent => 1,
        _ => 0,
    };
    (
        Reply::Put {
            msg_id: out.msg_id.0,
            correl_id: out.correl_id.0,
            put_time_ms: out
                .put_time
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
            persistence,
            priority: out.priority,
        },
        out.warning,
    )
}

fn record_async<T>(s: &mut AsyncStats, r: &Result<T, MqError>) {
    match r {
        Ok(_) => s.succeeded += 1,
        Err(e) => {
            s.failed += 1;
            if s.first_failure.is_none() {
                s.first_failure = Some(e.clone());
            }
        }
    }
}

/// Commit, unless an async put of this unit of work failed: then the unit of work is backed out
/// and the failure reported, rather than committing a unit of work with a hole in it.
fn commit_with_async(conv: &mut Conv) -> Result<Reply, MqError> {
    if let Some(e) = conv.async_stats.first_failure.clone() {
        conv.session.backout()?;
        return Err(MqError::new(
            Reason::BackedOut,
            format!(
                "an asynchronous put failed ({}: {}); the unit of work was backed out",
                e.reason, e.detail
            ),
        ));
    }
    conv.session.commit().map(|_| Reply::Empty)
}

async fn wait_for(pending: &mut PendingGet, deadline: Option<Instant>) -> WaitOutcome {
    let waiting = std::future::poll_fn(|cx| match pending.poll(cx.waker()) {
        Some(o) => std::task::Poll::Ready(o),
        None => std::task::Poll::Pending,
    });
    match deadline {
        None => waiting.await,
        Some(d) => match tokio::time::timeout_at(d, waiting).await {
            Ok(o) => o,
            Err(_) => pending.cancel(),
        },
    }
}
