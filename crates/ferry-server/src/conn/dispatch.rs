//! A conversation's requests, applied: the dispatch from a request to what it does (open,
//! close, put, put1, get, read-ahead credit, inquire, set, commit, backout, MQSTAT, disconnect,
//! administrative scripts) and the receiving end of a channel (start and batches).
//!
//! Puts, gets and stream credit are the per-message path: their helpers borrow the socket's
//! state (`&mut Conv`) and add no allocation of their own.

use std::sync::Arc;

use ferry_core::{
    AttrValue, BrowseMode, CloseOptions, Hobj, MqError, PutOutcome, QueueManager, Reason, Selector,
    Wait,
};
use ferry_proto::map as wire;
use ferry_proto::msg::{opened_flags, put_flags};
use ferry_proto::{
    Frame, FrameHeader, Reply, Request, WireAttr, WireGetOptions, WireMessage, WireObject,
    WirePutOptions,
};
use tokio::time::Instant;

use super::{protocol, Close, Conv, Socket, Stream};

impl Socket {
    /// Applies one request of a conversation that is not waiting.
    pub(super) fn execute(&mut self, frame: Frame) -> Result<(), Close> {
        let h = frame.header;
        let req = Request::decode(h.opcode, frame.payload).map_err(protocol)?;
        let max_ra = self.ctx.limits.max_read_ahead_msgs;
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            return Ok(());
        };
        if let Err((e, why)) = channel_gate(conv, &req) {
            tracing::warn!(peer = %self.peer.name, mode = ?self.mode, reason = %why, "request refused");
            self.reply(h, Err(e));
            return Err(Close::Refused(why));
        }
        let result: Result<Reply, MqError> = match req {
            Request::Connect { .. } | Request::Heartbeat => unreachable!("handled before"),
            Request::Disconnect => {
                let r = disconnect(conv, &mut self.owed_by_gone);
                self.convs.remove(&h.conv);
                self.reply(h, r);
                return Ok(());
            }
            r @ Request::Open { .. } => open(conv, r),
            Request::Close { hobj, options } => close(conv, hobj, options),
            req @ (Request::Put { .. } | Request::Put1 { .. }) => {
                if let Some(r) = put_request(conv, req) {
                    self.reply_put(h, r);
                }
                return Ok(());
            }
            Request::Get { hobj, options } => {
                self.get(h, hobj, &options);
                return Ok(());
            }
            Request::Stream {
                hobj,
                credit,
                consumed,
            } => {
                stream_credit(conv, hobj, credit, consumed, max_ra)?;
                self.pump(h.conv, hobj);
                return Ok(());
            }
            Request::Inquire { hobj, selectors } => inquire(conv, hobj, &selectors),
            Request::Set {
                hobj,
                values,
                texts,
            } => set(conv, hobj, &values, texts),
            Request::Subscribe { sub, hobj } => subscribe(conv, &sub, hobj),
            Request::SubRequest { hsub } => conv
                .session
                .sub_request(Hobj(hsub))
                .map(|n| Reply::SubRequested { count: n as u32 }),
            Request::Admin { script } => admin(conv, &self.ctx.qm, &script),
            Request::AdminMore => Ok(admin_part(conv)),
            req @ Request::ChannelStart { .. } => return self.try_start_channel(h, req, 0),
            Request::ChannelBatch {
                seq,
                luwid,
                messages,
            } => channel_batch(conv, seq, luwid, messages),
            Request::Commit => commit_with_async(conv),
            Request::Backout => backout(conv),
            Request::Status => Ok(async_status(conv)),
        };
        self.reply(h, result);
        Ok(())
    }

    /// ChannelStart: answered with the receiver's side; or, when the partner is refused, with
    /// CHANNEL_NOT_AVAILABLE and nothing more (the reason goes to the log), and the socket closes.
    /// When the channel is already running here, the partner — which has just proved who it
    /// is — has restarted, and the running instance is stale (its socket outlived a crash or a
    /// cut link): it is told to end, and this start waits for it (`tries` looks so far), then
    /// goes on, so a restarted sender runs again at once rather than at its next retry.
    pub(super) fn try_start_channel(
        &mut self,
        h: FrameHeader,
        req: Request,
        tries: u32,
    ) -> Result<(), Close> {
        let Some(conv) = self.convs.get_mut(&h.conv) else {
            return Ok(());
        };
        match channel_start(conv, &self.peer, self.mode, req.clone()) {
            Ok(reply) => {
                if let Some(end) = conv.channel.as_ref() {
                    let name = end.name;
                    let (id, ended) = self.ctx.receivers.register(name);
                    self.receiver = Some((name, id, ended));
                }
                self.reply(h, Ok(reply))
            }
            Err(Start::Busy(e, name)) => {
                let ended = tries > 0 || self.ctx.receivers.end(&name);
                if ended && tries < super::START_TRIES {
                    if tries == 0 {
                        tracing::warn!(channel = %name, peer = %self.peer.name,
                            "receiver channel started again by its partner; ending the stale instance");
                    }
                    let sleep = Box::pin(tokio::time::sleep(super::START_RETRY));
                    self.parked_start = Some(super::ParkedStart {
                        header: h,
                        req,
                        tries,
                        sleep,
                    });
                    return Ok(());
                }
                self.reply(h, Err(e))
            }
            Err(Start::Failed(e)) => self.reply(h, Err(e)),
            Err(Start::Refused(channel, why)) => {
                let qm = &self.ctx.qm;
                qm.security_counters()
                    .channel_refusals
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if let Some(left_out) = qm.security_log() {
                    tracing::warn!(channel = %channel, peer = %self.peer.name, mode = ?self.mode, left_out,
                        reason = %why, "channel start refused: the partner did not prove it may start this channel");
                }
                qm.channel_blocked_event(&channel, &self.peer.name, "");
                let e = MqError::new(
                    Reason::ChannelNotAvailable,
                    format!("channel {channel} is not available to this partner; the receiving queue manager's error log says why"),
                );
                self.reply(h, Err(e));
                return Err(Close::Refused(format!(
                    "channel {channel} start refused: {why}"
                )));
            }
        }
        Ok(())
    }

    /// A get: answered now, or parked until a message arrives or its wait interval passes.
    #[inline]
    fn get(&mut self, h: FrameHeader, hobj: u32, options: &WireGetOptions) {
        match wire::get_from_wire(options) {
            Ok(opts) => {
                let deadline = match opts.wait {
                    Wait::For(d) => Some(Instant::now() + d),
                    _ => None,
                };
                // A batch only where each next get is the same get again.
                let more = match opts.browse {
                    BrowseMode::None | BrowseMode::First | BrowseMode::Next => options.more,
                    BrowseMode::UnderCursor | BrowseMode::GetUnderCursor => 0,
                };
                let call = (h.request_id, more);
                self.start_get(h.conv, call, Hobj(hobj), opts, deadline);
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }

    /// Answers a synchronous put or put1.
    #[inline]
    fn reply_put(&mut self, h: FrameHeader, r: Result<PutOutcome, MqError>) {
        match r {
            Ok(out) => {
                let (reply, w) = put_reply(out);
                self.respond(h, &wire::status_ok(w), &reply);
            }
            Err(e) => self.respond(h, &wire::status_of(&e), &Reply::Empty),
        }
    }
}

/// Ends the conversation in place (its unit of work commits); the LSN it owes passes to
/// `owed_by_gone`, for the answer to wait on.
fn disconnect(conv: &mut Conv, owed_by_gone: &mut Option<u64>) -> Result<Reply, MqError> {
    conv.streams.clear();
    let r = conv.session.disconnect_in_place().map(|_| Reply::Empty);
    *owed_by_gone = conv.session.take_owed_lsn();
    r
}

/// Opens an object; a handle with read-ahead gets a stream.
fn open(conv: &mut Conv, req: Request) -> Result<Reply, MqError> {
    let Request::Open {
        object,
        options,
        alternate_user,
        selector,
    } = req
    else {
        unreachable!("execute passes only Open")
    };
    let mut od = wire::object_from_wire(&object)?;
    if !selector.is_empty() {
        match &mut od {
            ferry_model::options::ObjectDescriptor::Queue { selector: s, .. } => {
                *s = Some(selector)
            }
            _ => return Err(MqError::new(
                Reason::SelectorInvalidForType,
                "a selection string is for opening a queue (a subscription takes its own in MQSD)",
            )),
        }
    }
    let mut opts = wire::open_from_wire(options)?;
    opts.alternate_user = (!alternate_user.is_empty())
        .then(|| ferry_model::name::UserId::truncating(&alternate_user));
    let hobj = conv.session.open(&od, opts)?;
    let mut flags = 0;
    if conv.session.read_ahead(hobj) {
        flags |= opened_flags::READ_AHEAD;
        conv.streams.insert(hobj.0, Stream::default());
    }
    if conv.session.async_put_default(hobj) {
        flags |= opened_flags::ASYNC_PUT_DEFAULT;
    }
    Ok(Reply::Opened {
        hobj: hobj.0,
        name: conv.session.queue_name(hobj)?.to_string(),
        flags,
    })
}

/// Closes a handle (0 none, 1 delete, 2 delete purge, 3 remove subscription).
fn close(conv: &mut Conv, hobj: u32, options: u8) -> Result<Reply, MqError> {
    let opts = match options {
        1 => CloseOptions::Delete,
        2 => CloseOptions::DeletePurge,
        3 => CloseOptions::RemoveSub,
        _ => CloseOptions::None,
    };
    // A parked stream wait is cancelled first; what it raced in goes back.
    conv.streams.remove(&hobj);
    conv.session.close(Hobj(hobj), opts).map(|_| Reply::Empty)
}

/// MQSUB: the queue handle (the caller's, or a managed queue's) and the subscription handle.
fn subscribe(
    conv: &mut Conv,
    sub: &ferry_proto::msg::WireSub,
    hobj: u32,
) -> Result<Reply, MqError> {
    let sd = wire::sub_from_wire(sub)?;
    let queue = (hobj != 0).then_some(Hobj(hobj));
    let (q, hsub) = conv.session.subscribe(&sd, queue)?;
    let mut flags = 0;
    if queue.is_none() && conv.session.read_ahead(q) {
        flags |= opened_flags::READ_AHEAD;
        conv.streams.insert(q.0, Stream::default());
    }
    Ok(Reply::Subscribed {
        hobj: q.0,
        hsub: hsub.0,
        queue: conv.session.queue_name(q)?.to_string(),
        flags,
    })
}

/// A Put or Put1 request: its outcome to answer, or `None` when it was asynchronous.
#[inline]
fn put_request(conv: &mut Conv, req: Request) -> Option<Result<PutOutcome, MqError>> {
    match req {
        Request::Put { hobj, options, msg } => put(conv, hobj, &options, msg),
        Request::Put1 {
            object,
            options,
            msg,
        } => put1(conv, &object, &options, msg),
        _ => unreachable!("only puts come here"),
    }
}

/// A put on a handle: its outcome to answer, or `None` when it was asynchronous.
#[inline]
fn put(
    conv: &mut Conv,
    hobj: u32,
    options: &WirePutOptions,
    msg: WireMessage,
) -> Option<Result<PutOutcome, MqError>> {
    let r = (|| {
        let opts = wire::put_from_wire(options)?;
        let msg = wire::message_from_wire(msg)?;
        conv.session.put(Hobj(hobj), msg, &opts)
    })();
    unless_async(conv, r, options.flags)
}

/// A put1 (open, put, close): its outcome to answer, or `None` when it was asynchronous.
#[inline]
fn put1(
    conv: &mut Conv,
    object: &WireObject,
    options: &WirePutOptions,
    msg: WireMessage,
) -> Option<Result<PutOutcome, MqError>> {
    let r = (|| {
        let od = wire::object_from_wire(object)?;
        let opts = wire::put_from_wire(options)?;
        let msg = wire::message_from_wire(msg)?;
        conv.session.put1(&od, msg, &opts)
    })();
    unless_async(conv, r, options.flags)
}

/// An asynchronous put's outcome is counted for MQSTAT and not answered (`None`); a
/// synchronous one's is handed back to answer.
#[inline]
fn unless_async<T>(
    conv: &mut Conv,
    r: Result<T, MqError>,
    options: u32,
) -> Option<Result<T, MqError>> {
    if options & put_flags::ASYNC != 0 {
        record_async(conv, &r, options & put_flags::SYNCPOINT != 0);
        return None;
    }
    Some(r)
}

/// Read-ahead flow control: the client's new credit (capped at `max_ra`) and the streamed
/// messages it has consumed. Credit for a handle without read-ahead is a protocol error.
#[inline]
fn stream_credit(
    conv: &mut Conv,
    hobj: u32,
    credit: u32,
    consumed: u32,
    max_ra: u32,
) -> Result<(), Close> {
    let Some(stream) = conv.streams.get_mut(&hobj) else {
        return Err(Close::Protocol(format!(
            "stream credit for handle {hobj}, which has no read-ahead"
        )));
    };
    stream.credit = stream.credit.saturating_add(credit).min(max_ra);
    if consumed > 0 {
        if let Err(e) = conv.session.stream_consumed(Hobj(hobj), consumed as usize) {
            return Err(Close::Protocol(e.to_string()));
        }
        stream.consumed(consumed as usize);
    }
    Ok(())
}

/// The unsupported-selector error.
fn unsupported(s: i32) -> MqError {
    MqError::new(
        Reason::SelectorError,
        format!("selector {s} is not supported"),
    )
}

/// Inquires a handle's attributes by selector.
fn inquire(conv: &mut Conv, hobj: u32, selectors: &[i32]) -> Result<Reply, MqError> {
    let sels = selectors
        .iter()
        .map(|s| Selector::from_code(*s).ok_or_else(|| unsupported(*s)))
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
}

/// Sets a handle's integer attributes by selector.
fn set(
    conv: &mut Conv,
    hobj: u32,
    values: &[(i32, i64)],
    texts: Vec<(i32, String)>,
) -> Result<Reply, MqError> {
    let ints = values.iter().map(|(s, v)| (*s, AttrValue::Int(*v)));
    let texts = texts.into_iter().map(|(s, t)| (s, AttrValue::Str(t)));
    let vals = ints
        .chain(texts)
        .map(|(s, v)| {
            Selector::from_code(s)
                .map(|sel| (sel, v))
                .ok_or_else(|| unsupported(s))
        })
        .collect::<Result<Vec<_>, _>>()?;
    conv.session.set(Hobj(hobj), &vals).map(|_| Reply::Empty)
}

/// Backs the unit of work out (forgetting an async put that failed in it).
fn backout(conv: &mut Conv) -> Result<Reply, MqError> {
    conv.uow_async_failure = None;
    conv.session.backout().map(|_| Reply::Empty)
}

/// MQSTAT: the async put results since the last call, which start again from zero.
fn async_status(conv: &mut Conv) -> Reply {
    let s = std::mem::take(&mut conv.async_stats);
    let (first_reason, first_detail) = s
        .first_failure
        .map_or((0, String::new()), |e| (e.reason.code(), e.detail));
    Reply::Status {
        succeeded: s.succeeded,
        warned: s.warned,
        failed: s.failed,
        first_reason,
        first_detail,
    }
}

/// The reply to a put, and its warning.
fn put_reply(out: PutOutcome) -> (Reply, Option<Reason>) {
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

/// Counts an async put's result for MQSTAT; a failure inside a unit of work also dooms its
/// commit.
fn record_async<T>(conv: &mut Conv, r: &Result<T, MqError>, in_uow: bool) {
    let s = &mut conv.async_stats;
    match r {
        Ok(_) => s.succeeded += 1,
        Err(e) => {
            s.failed += 1;
            if s.first_failure.is_none() {
                s.first_failure = Some(e.clone());
            }
            if in_uow && conv.uow_async_failure.is_none() {
                conv.uow_async_failure = Some(e.clone());
            }
        }
    }
}

/// Commit, unless an async put of this unit of work failed: then the unit of work is backed out
/// and the failure reported, rather than committing a unit of work with a hole in it.
fn commit_with_async(conv: &mut Conv) -> Result<Reply, MqError> {
    if let Some(e) = conv.uow_async_failure.take() {
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

/// Most commands one administrative request may hold: its answer is built whole before it is
/// sent in parts.
const MAX_ADMIN_COMMANDS: usize = 10_000;

/// Largest part of an administrative answer sent in one frame.
const ADMIN_PART: usize = 1 << 20;

/// Runs an administrative script. Every definition it makes is durable before its answer goes
/// out: one sync for the script, and the socket holds the answer until then. The answer (JSON)
/// goes in parts of at most [`ADMIN_PART`] bytes; this is the first.
fn admin(conv: &mut Conv, qm: &QueueManager, script: &str) -> Result<Reply, MqError> {
    let commands = ferry_admin::parse::split_script(script).len();
    if commands > MAX_ADMIN_COMMANDS {
        return Err(MqError::new(
            Reason::ResourceProblem,
            format!("one request holds {commands} commands, more than {MAX_ADMIN_COMMANDS}; send the script in parts (nothing of it was run)"),
        ));
    }
    let who = conv.session.principal().clone();
    let (replies, lsn) =
        ferry_core::qmgr::journal::deferring(|| ferry_admin::run_script_as(qm, Some(&who), script));
    if let Some(l) = lsn {
        conv.session.owe(l);
    }
    match serde_json::to_vec(&replies) {
        Ok(json) => {
            conv.admin_pending = Some((bytes::Bytes::from(json), 0));
            Ok(admin_part(conv))
        }
        Err(e) => Err(MqError::new(
            Reason::UnexpectedError,
            format!("cannot encode the administrative answer: {e}"),
        )),
    }
}

/// Takes the next part of a pending administrative answer.
fn admin_part(conv: &mut Conv) -> Reply {
    let Some((data, at)) = conv.admin_pending.take() else {
        return Reply::Admin {
            data: bytes::Bytes::new(),
            more: false,
        };
    };
    let end = (at + ADMIN_PART).min(data.len());
    let part = data.slice(at..end);
    let more = end < data.len();
    if more {
        conv.admin_pending = Some((data, end));
    }
    Reply::Admin { data: part, more }
}

/// The receiving end of a channel: its status, registered while the conversation lasts.
pub(super) struct ReceiverEnd {
    qm: QueueManager,
    name: ferry_core::ObjectName,
    status: ferry_core::qmgr::catalog::StatusCell,
    /// Recoverable batches its sender may keep unconfirmed (more than 1: each batch is also
    /// kept in the receiver's window of committed batches).
    window: u32,
}

impl Drop for ReceiverEnd {
    fn drop(&mut self) {
        self.status.lock().state = ferry_model::channel::ChannelState::Inactive;
        self.qm.unregister_channel_status(&self.name, &self.status);
    }
}

/// Why a channel did not start: the partner is refused (the channel, and the whole reason for
/// the error log only), or it may start but something else failed (told to it).
enum Start {
    Refused(String, String),
    Failed(MqError),
    /// The partner may start the channel, but an instance of it is running here.
    Busy(MqError, ferry_core::ObjectName),
}

impl From<MqError> for Start {
    fn from(e: MqError) -> Start {
        Start::Failed(e)
    }
}

/// Only a conversation that connected as a channel may carry channel requests, and it may
/// carry nothing else: `Err` with the answer and the reason for the log, and the socket closes.
fn channel_gate(conv: &Conv, req: &Request) -> Result<(), (MqError, String)> {
    let channel_req = matches!(
        req,
        Request::ChannelStart { .. } | Request::ChannelBatch { .. }
    );
    if conv.is_channel && !channel_req && !matches!(req, Request::Disconnect) {
        return Err((
            MqError::new(
                Reason::NotAuthorized,
                "a message channel's conversation carries only channel requests",
            ),
            format!("{:?} on a channel conversation", req.opcode()),
        ));
    }
    if !conv.is_channel && channel_req {
        return Err((
            MqError::new(
                Reason::ChannelNotAvailable,
                "channels start only on a conversation that connected as a channel",
            ),
            "a channel request from an application conversation".to_owned(),
        ));
    }
    Ok(())
}

/// A sender channel starts on `conv` (`req` is the ChannelStart request): the partner proves
/// it may start this channel (`partner`), then the definition and sequence numbers are checked,
/// the receiving end's status registered, and the answer is the receiver's last committed batch.
fn channel_start(
    conv: &mut Conv,
    peer: &super::Peer,
    mode: ferry_core::ConnMode,
    req: Request,
) -> Result<Reply, Start> {
    use ferry_core::channel as ch;
    let Request::ChannelStart {
        channel,
        sender_qmgr,
        batch_size,
        max_msg_length,
        seq: sender_seq,
        window,
        lanes,
    } = req
    else {
        unreachable!("execute passes only ChannelStart")
    };
    let qm = conv.session.queue_manager().clone();
    let (name, shown) = channel_name(&channel)?;
    let who = super::partner::Credentials {
        mode,
        cert: peer.cert.as_ref(),
        user: conv.verified_user.as_deref(),
    };
    let def = qm.channel(name.as_str()).ok();
    let how = super::partner::authorize(name.as_str(), def.as_ref(), &sender_qmgr, who)
        .map_err(|why| Start::Refused(shown.clone(), why))?;
    if conv.channel.is_some() {
        return Err(MqError::new(
            Reason::ChannelNotAvailable,
            "this conversation already carries a channel",
        )
        .into());
    }
    check_not_running(&qm, &name).map_err(|e| Start::Busy(e, name))?;
    let mapped = channel_chlauth(&qm, &name, def.as_ref(), &sender_qmgr, peer)
        .map_err(|why| Start::Refused(shown.clone(), why))?;
    become_channel_agent(conv, &qm, def.as_ref(), mapped);
    let offer = ch::SenderOffer {
        batch_size,
        max_msg_length,
        seq: sender_seq,
        window,
    };
    let start = ch::receiver_start(&mut conv.session, &name, offer)?;
    let r = start.committed.seq;
    // The receiver may be ahead by as many batches as the sender kept unconfirmed.
    if r.checked_sub(sender_seq)
        .is_none_or(|a| a > u64::from(start.window.max(1)))
    {
        return Err(ch::sequence_mismatch(&name, &qm.name(), r, sender_seq).into());
    }
    let status = receiver_status(conv, (peer, mode), &sender_qmgr, start.batch_size, r);
    qm.register_channel_status(name, status.clone());
    tracing::info!(channel = %name, from = sender_qmgr.as_str(), peer = %peer.name, partner = %how,
        seq = r, batch_size = start.batch_size, "receiver channel started");
    conv.channel = Some(ReceiverEnd {
        qm,
        name,
        status,
        window: start.window,
    });
    Ok(started(start, peer, lanes))
}

/// The channel a ChannelStart names, and how the log shows it (refused when not a valid name).
fn channel_name(channel: &str) -> Result<(ferry_core::ObjectName, String), Start> {
    let shown: String = channel
        .chars()
        .take(ferry_core::channel::MAX_CHANNEL_NAME)
        .collect();
    match ferry_core::object_name(channel) {
        Ok(name) => Ok((name, shown)),
        Err(_) => Err(Start::Refused(
            shown,
            "the channel name is not valid".into(),
        )),
    }
}

/// The lanes a sender that offers `offered` may use: only over QUIC, where the connection can
/// grant it the streams (up to `LANES`); otherwise its one stream.
fn agreed_lanes(peer: &super::Peer, offered: u32) -> u32 {
    match &peer.lanes {
        Some(_) => offered.clamp(1, ferry_client::quic::LANES),
        None => 1,
    }
}

/// The receiving end's answer to a starting sender that offered `lanes` streams: those it may
/// spread fast batches over, which the connection then grants it.
fn started(start: ferry_core::channel::ReceiverStart, peer: &super::Peer, lanes: u32) -> Reply {
    let lanes = agreed_lanes(peer, lanes);
    if let Some(gate) = &peer.lanes {
        gate.channel_started(lanes > 1);
    }
    Reply::ChannelStarted {
        qmgr: start.qmgr.to_string(),
        batch_size: start.batch_size,
        max_msg_length: start.max_msg_length,
        seq: start.committed.seq,
        ids: start.committed.ids.iter().map(|id| id.0).collect(),
        luwid: start.committed.luwid,
        window: start.window,
        more: start
            .committed
            .more
            .iter()
            .map(|b| ferry_proto::WireBatchRecord {
                seq: b.seq,
                luwid: b.luwid,
                ids: b.ids.iter().map(|id| id.0).collect(),
            })
            .collect(),
        lanes,
    }
}

/// Makes the conversation the receiving end's agent. PUTAUT(DEF): it puts under the user a
/// CHLAUTH record maps it to, else its MCAUSER when it has one (otherwise, as in MQ, as the
/// queue manager: its partner proved who it is by certificate).
fn become_channel_agent(
    conv: &mut Conv,
    qm: &QueueManager,
    def: Option<&ferry_model::objects::ChannelAttrs>,
    mapped: Option<String>,
) {
    conv.session.set_channel_agent();
    let mcauser = def.map(|d| d.mca_user.trim()).filter(|u| !u.is_empty());
    if let Some(user) = mapped.as_deref().or(mcauser) {
        conv.session.act_as(qm.resolve_principal(user));
    }
}

/// CHLAUTH for a message channel's start (its BLOCKADDR was checked at Connect): the user a
/// record maps it to, or why it is refused. It is checked as its MCAUSER (blank: nobody in
/// particular, not the queue manager's administrators).
fn channel_chlauth(
    qm: &QueueManager,
    name: &ferry_core::ObjectName,
    def: Option<&ferry_model::objects::ChannelAttrs>,
    sender_qmgr: &str,
    peer: &super::Peer,
) -> Result<Option<String>, String> {
    let address = match peer.origin {
        Some(super::Origin::Ip(ip)) => ip.to_string(),
        _ => "localhost".to_owned(),
    };
    let user = def.map_or("", |d| d.mca_user.trim());
    let arrival = ferry_model::chlauth::Arrival {
        channel: name.as_str(),
        address: &address,
        user,
        cert: peer.cert.as_ref(),
        qmgr: Some(sender_qmgr),
    };
    let admin_of = |u: &str| qm.resolve_principal(u).admin;
    let admin = !user.is_empty() && admin_of(user);
    match qm.chlauth_decide(&arrival, admin, &admin_of) {
        ferry_model::chlauth::Verdict::Block(why) => Err(format!("AMQ9777E blocked by {why}")),
        ferry_model::chlauth::Verdict::Allow { mapped, warnings } => {
            for w in warnings {
                tracing::warn!(channel = %name, record = %w, "CHLAUTH would refuse this channel (WARN)");
            }
            Ok(mapped)
        }
    }
}

/// The status of a receiving end that has just started.
fn receiver_status(
    conv: &Conv,
    (peer, mode): (&super::Peer, ferry_core::ConnMode),
    sender_qmgr: &str,
    batch_size: u32,
    seq: u64,
) -> ferry_core::qmgr::catalog::StatusCell {
    use ferry_model::channel::{ChannelState, ChannelStatus};
    Arc::new(parking_lot::Mutex::new(ChannelStatus {
        state: ChannelState::Running,
        sender: false,
        conname: peer.name.clone(),
        remote_qmgr: sender_qmgr.to_owned(),
        batch_size,
        seq,
        compression: conv
            .compression
            .map_or_else(|| "NONE".to_owned(), |c| c.name().to_owned()),
        started: Some(std::time::SystemTime::now()),
        // How the sender came: TCP, TLS or QUIC.
        transport: format!("{mode:?}").to_ascii_uppercase(),
        ..Default::default()
    }))
}

/// Refuses a second receiving end for a channel already running here.
fn check_not_running(qm: &QueueManager, name: &ferry_core::ObjectName) -> Result<(), MqError> {
    use ferry_model::channel::ChannelState;
    if let Some(cell) = qm.channel_status_cell(name) {
        let st = cell.lock();
        if !st.sender && st.state == ChannelState::Running {
            return Err(MqError::new(
                Reason::ChannelNotAvailable,
                format!(
                    "channel {name} is already running at queue manager {} (from {}); the sender retries",
                    qm.name(),
                    st.conname
                ),
            ));
        }
    }
    Ok(())
}

/// One batch at the receiving end (its commit is owed: the answer waits until it is on disk).
fn channel_batch(
    conv: &mut Conv,
    seq: u64,
    luwid: [u8; ferry_core::channel::LUWID_LEN],
    messages: Vec<WireMessage>,
) -> Result<Reply, MqError> {
    let Some(end) = &conv.channel else {
        return Err(MqError::new(
            Reason::ChannelNotAvailable,
            "a channel batch arrived before the channel started on this conversation",
        ));
    };
    let (name, status, window) = (end.name, end.status.clone(), end.window);
    let started = std::time::Instant::now();
    let msgs = messages
        .into_iter()
        .map(wire::message_from_wire)
        .collect::<Result<Vec<_>, _>>()?;
    let n = msgs.len();
    let bytes: usize = msgs.iter().map(|m| m.body.len()).sum();
    let out =
        ferry_core::channel::receive_batch(&mut conv.session, &name, seq, luwid, msgs, window);
    let mut st = status.lock();
    match out {
        Ok(o) => {
            let now = conv.session.queue_manager().clock().wall();
            st.batch_done(seq, n, bytes, started.elapsed(), now);
            st.dead_lettered += o.dead_lettered as u64;
            Ok(Reply::ChannelBatchDone {
                seq,
                delivered: o.delivered,
                dead_lettered: o.dead_lettered,
            })
        }
        Err(e) => {
            st.last_error = e.to_string();
            Err(e)
        }
    }
}
