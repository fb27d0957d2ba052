//! One conversation's protocol state, with no I/O: what to send for each MQI verb and what the
//! answers mean. The blocking transport (`remote.rs`) and the async one (`asynch.rs`) both drive
//! it, so the two cannot drift apart.
//!
//! Owns: request ids, frame encoding (with the negotiated compression), the handles' resolved
//! names and put-response defaults, read-ahead buffers and their credit, and client-side ids
//! for async puts.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::BytesMut;
use ferry_model::IdKeyed;
use ferry_model::{
    AttrValue, BrowseMode, CloseOptions, CorrelId, GetOptions, Got, Hobj, Message, MqError,
    MqResult, MsgId, ObjectDescriptor, ObjectName, OpenOptions, Persistence, PutOptions,
    PutOutcome, PutResponseMode, Reason, Selector, SubDescriptor, Wait,
};
use ferry_proto::compress::{self, Compression, MIN_COMPRESS_LEN};
use ferry_proto::map as wire;
use ferry_proto::msg::opened_flags;
use ferry_proto::{
    begin_frame, finish_frame, Frame, FrameHeader, Opcode, Reply, Request, Status, WireAttr,
    DEFAULT_MAX_FRAME, FLAG_COMPRESSED,
};

use crate::remote::AsyncPutStatus;
use crate::ClientOptions;

/// Read-ahead window: messages the server may push ahead of the application's gets.
pub(crate) const READ_AHEAD_WINDOW: u32 = 1024;

static ID_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The error for a connection that cannot be used any more.
pub(crate) fn broken(e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::ConnectionBroken,
        format!("the connection to the queue manager broke: {e}"),
    )
}

/// The error for a reply of the wrong kind (a server bug or a protocol mismatch).
pub(crate) fn unexpected(r: Reply) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("the queue manager sent an unexpected reply: {r:?}"),
    )
}

/// A Get response (answered or pushed) as the application sees it.
pub(crate) fn got_of(status: Status, reply: Reply) -> MqResult<Got> {
    if status.failed() {
        return Err(wire::error_of(&status));
    }
    match reply {
        Reply::Got { msg, data_length } => Ok(Got {
            message: wire::message_from_wire(msg)?,
            data_length: data_length as usize,
            warning: warning_of(&status),
        }),
        other => Err(unexpected(other)),
    }
}

fn warning_of(status: &Status) -> Option<Reason> {
    (status.completion == 1)
        .then(|| Reason::from_code(status.reason))
        .flatten()
}

/// The reply of a call that must have succeeded, or its error.
pub(crate) fn ok_reply((status, reply): (Status, Reply)) -> MqResult<Reply> {
    if status.failed() {
        return Err(wire::error_of(&status));
    }
    Ok(reply)
}

/// Where a put goes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PutTarget<'a> {
    Handle(Hobj),
    Object(&'a ObjectDescriptor),
}

/// A put ready to send: the request, and for an async put the outcome known at once.
#[derive(Debug)]
pub(crate) struct PreparedPut {
    pub request: Request,
    pub async_outcome: Option<PutOutcome>,
}

/// A read-ahead handle's buffer of pushed messages.
#[derive(Debug, Default)]
struct ReadAhead {
    buffered: VecDeque<MqResult<Got>>,
    unreported: u32,
    /// The last probe for a persistent message found one: the next get with nothing buffered
    /// probes at once (persistent messages in a row go at a round trip each, not one a
    /// [`PERSISTENT_PROBE`]).
    probe_at_once: bool,
}

/// One conversation's protocol state.
#[derive(Debug)]
pub(crate) struct ConvCore {
    pub conv: u16,
    next_id: u64,
    max_frame_out: usize,
    pub conn_id: u64,
    pub qmgr: ObjectName,
    /// Heartbeat interval the server keeps.
    pub heartbeat: Duration,
    names: IdKeyed<u32, ObjectName>,
    async_default: IdKeyed<u32, bool>,
    read_ahead: IdKeyed<u32, ReadAhead>,
    /// The properties section of the last pushed message, raw and decoded.
    push_memo: wire::PushMemo,
    compression: Option<Compression>,
    /// Requests are encoded here first when they may be compressed.
    plain: BytesMut,
    /// Payload bytes before and after compression, both directions.
    compressed: (u64, u64),
    /// Time spent compressing and decompressing payloads.
    compress_time: std::time::Duration,
    id_seed: u32,
}

impl ConvCore {
    pub fn new(conv: u16, max_frame_out: usize) -> Self {
        let id_seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ std::process::id());
        ConvCore {
            conv,
            next_id: 1,
            max_frame_out,
            conn_id: 0,
            qmgr: ObjectName::EMPTY,
            heartbeat: Duration::from_secs(30),
            names: IdKeyed::default(),
            async_default: IdKeyed::default(),
            read_ahead: IdKeyed::default(),
            push_memo: wire::PushMemo::default(),
            compression: None,
            plain: BytesMut::new(),
            compressed: (0, 0),
            compress_time: std::time::Duration::ZERO,
            id_seed,
        }
    }

    /// The Connect request for these options.
    pub fn connect_request(app_name: &str, opts: &ClientOptions) -> Request {
        let user = std::env::var("USER").unwrap_or_default();
        Request::Connect {
            app_name: app_name.to_owned(),
            user: opts.user.clone().unwrap_or(user),
            password: opts.password.clone().unwrap_or_default(),
            flags: ferry_proto::msg::connect_flags::HEARTBEATS
                | if opts.channel {
                    ferry_proto::msg::connect_flags::CHANNEL
                } else {
                    0
                },
            compression: opts.compression.iter().map(|c| *c as u8).collect(),
            channel: opts.svrconn.clone().unwrap_or_default(),
        }
    }

    pub fn on_connected(&mut self, reply: Reply) -> MqResult<()> {
        match reply {
            Reply::Connected {
                conn_id,
                qmgr,
                heartbeat_ms,
                compression,
            } => {
                self.compression = Compression::from_u8(compression);
                self.conn_id = conn_id;
                self.qmgr = ObjectName::truncating(&qmgr);
                self.heartbeat = Duration::from_millis(heartbeat_ms.max(1) as u64);
                Ok(())
            }
            other => Err(unexpected(other)),
        }
    }

    /// How long to wait for an answer before presuming the server dead: two missed heartbeats
    /// and a margin.
    pub fn answer_timeout(&self) -> Duration {
        self.heartbeat * 2 + Duration::from_secs(5)
    }

    /// Appends `req` as a frame (compressed when it pays) and returns its request id.
    pub fn encode(&mut self, req: &Request, out: &mut BytesMut) -> MqResult<u64> {
        let id = self.next_id;
        self.next_id += 1;
        let mut header = FrameHeader {
            opcode: req.opcode() as u8,
            flags: 0,
            conv: self.conv,
            request_id: id,
        };
        let start = out.len();
        match self.compression {
            Some(alg) => {
                self.plain.clear();
                req.encode(&mut self.plain);
                if self.plain.len() >= MIN_COMPRESS_LEN {
                    header.flags |= FLAG_COMPRESSED;
                    let f = begin_frame(out, header);
                    let body = out.len();
                    let t = std::time::Instant::now();
                    compress::compress(alg, &self.plain, out);
                    self.compress_time += t.elapsed();
                    self.compressed.0 += self.plain.len() as u64;
                    self.compressed.1 += (out.len() - body) as u64;
                    finish_frame(out, f);
                } else {
                    let f = begin_frame(out, header);
                    out.extend_from_slice(&self.plain);
                    finish_frame(out, f);
                }
            }
            None => {
                let f = begin_frame(out, header);
                req.encode(out);
                finish_frame(out, f);
            }
        }
        let len = out.len() - start;
        if len > self.max_frame_out {
            out.truncate(start);
            return Err(MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "the request is {len} bytes; the queue manager accepts frames up to {} bytes",
                    self.max_frame_out
                ),
            ));
        }
        Ok(id)
    }

    /// Decompresses a frame if it is compressed.
    pub fn decompress(&mut self, mut f: Frame) -> MqResult<Frame> {
        if f.header.flags & FLAG_COMPRESSED == 0 {
            return Ok(f);
        }
        let Some(alg) = self.compression else {
            return Err(broken(
                "a compressed frame arrived on a connection without compression",
            ));
        };
        let t = std::time::Instant::now();
        let plain = compress::decompress(alg, &f.payload, DEFAULT_MAX_FRAME).map_err(broken)?;
        self.compress_time += t.elapsed();
        self.compressed.0 += plain.len() as u64;
        self.compressed.1 += f.payload.len() as u64;
        f.payload = plain;
        f.header.flags &= !FLAG_COMPRESSED;
        Ok(f)
    }

    /// Time spent compressing and decompressing payloads so far.
    pub fn compression_time(&self) -> std::time::Duration {
        self.compress_time
    }

    /// The compression in use and the fraction of payload bytes it saved so far.
    pub fn compression(&self) -> (Option<Compression>, Option<f64>) {
        let (plain, wire) = self.compressed;
        (
            self.compression,
            (plain > 0).then(|| 1.0 - wire as f64 / plain as f64),
        )
    }

    /// Files a pushed frame: read-ahead messages go to their handle's buffer; heartbeats are
    /// just a sign of life.
    pub fn file_push(&mut self, f: Frame) -> MqResult<()> {
        if f.header.opcode == Opcode::Heartbeat as u8 {
            return Ok(());
        }
        let hobj = f.header.request_id as u32;
        let item = self.decode_push(f.payload)?;
        // A push for a handle already closed is dropped: streamed messages left the queue when
        // they were sent, and closing discards them (as MQ does).
        if let Some(ra) = self.read_ahead.get_mut(&hobj) {
            ra.buffered.push_back(item);
        }
        Ok(())
    }

    /// Decodes a pushed message, sharing what it repeats of the last one (a subscription's
    /// properties section, its publisher's descriptor fields) instead of decoding it again.
    fn decode_push(&mut self, payload: bytes::Bytes) -> MqResult<MqResult<Got>> {
        let (status, got) =
            wire::decode_got_message(payload, &mut self.push_memo).map_err(broken)?;
        let Some(g) = got else {
            return Ok(Err(wire::error_of(&status)));
        };
        Ok(g.message.map(|message| Got {
            message,
            data_length: g.data_length as usize,
            warning: warning_of(&status),
        }))
    }

    pub fn open_request(od: &ObjectDescriptor, opts: OpenOptions) -> Request {
        Request::Open {
            object: wire::object_to_wire(od),
            options: wire::open_to_wire(&opts),
            alternate_user: opts
                .alternate_user
                .map_or_else(String::new, |u| u.as_str().to_owned()),
            selector: match od {
                ObjectDescriptor::Queue {
                    selector: Some(s), ..
                } => s.clone(),
                _ => String::new(),
            },
        }
    }

    /// Records an opened handle; returns the initial read-ahead credit to send, if any.
    pub fn on_opened(&mut self, reply: Reply) -> MqResult<(Hobj, Option<Request>)> {
        match reply {
            Reply::Opened { hobj, name, flags } => {
                self.names.insert(hobj, ObjectName::truncating(&name));
                self.async_default
                    .insert(hobj, flags & opened_flags::ASYNC_PUT_DEFAULT != 0);
                let credit = (flags & opened_flags::READ_AHEAD != 0).then(|| {
                    self.read_ahead.insert(hobj, ReadAhead::default());
                    Request::Stream {
                        hobj,
                        credit: READ_AHEAD_WINDOW,
                        consumed: 0,
                    }
                });
                Ok((Hobj(hobj), credit))
            }
            other => Err(unexpected(other)),
        }
    }

    /// The MQSUB request: the descriptor and the queue handle (0: managed).
    pub fn subscribe_request(sd: &SubDescriptor, queue: Option<Hobj>) -> Request {
        Request::Subscribe {
            sub: wire::sub_to_wire(sd),
            hobj: queue.map_or(0, |h| h.0),
        }
    }

    /// What an MQSUBRQ answer says: how many publications were sent.
    pub fn on_sub_requested(reply: Reply) -> MqResult<usize> {
        match reply {
            Reply::SubRequested { count } => Ok(count as usize),
            other => Err(unexpected(other)),
        }
    }

    /// Records what MQSUB opened: the queue handle (named, for a managed queue's generated
    /// name) and the subscription handle; with read-ahead, the first credit to send.
    pub fn on_subscribed(&mut self, reply: Reply) -> MqResult<((Hobj, Hobj), Option<Request>)> {
        match reply {
            Reply::Subscribed {
                hobj,
                hsub,
                queue,
                flags,
            } => {
                let name = ObjectName::truncating(&queue);
                self.names.insert(hobj, name);
                self.names.insert(hsub, name);
                let credit = (flags & opened_flags::READ_AHEAD != 0).then(|| {
                    self.read_ahead.insert(hobj, ReadAhead::default());
                    Request::Stream {
                        hobj,
                        credit: READ_AHEAD_WINDOW,
                        consumed: 0,
                    }
                });
                Ok(((Hobj(hobj), Hobj(hsub)), credit))
            }
            other => Err(unexpected(other)),
        }
    }

    /// Whether puts "as queue default" through this handle are asynchronous.
    pub fn async_default(&self, h: Hobj) -> bool {
        self.async_default.get(&h.0).copied().unwrap_or(false)
    }

    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        self.names.get(&h.0).copied().ok_or_else(|| {
            MqError::new(
                Reason::HobjError,
                format!("object handle {} is not open on this connection", h.0),
            )
        })
    }

    /// MQCO_QUIESCE on a read-ahead handle whose buffer still holds messages: 2458, and the
    /// handle stays open (MQ's rule); any other close goes ahead.
    pub fn check_quiesce(&self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let buffered = self.read_ahead.get(&h.0).map_or(0, |ra| ra.buffered.len());
        if opts == CloseOptions::Quiesce && buffered > 0 {
            return Err(MqError::new(
                Reason::ReadAheadMsgs,
                format!(
                    "{buffered} messages read ahead are still buffered for handle {}",
                    h.0
                ),
            ));
        }
        Ok(())
    }

    /// The requests that close a handle: a final consumption report for a read-ahead handle
    /// (flow control: what is still buffered is discarded, as MQ does), then the close itself.
    pub fn close_requests(&mut self, h: Hobj, opts: CloseOptions) -> (Option<Request>, Request) {
        let options = match opts {
            CloseOptions::None | CloseOptions::Quiesce => 0,
            CloseOptions::Delete => 1,
            CloseOptions::DeletePurge => 2,
            CloseOptions::RemoveSub => 3,
        };
        let report = self
            .read_ahead
            .remove(&h.0)
            .filter(|ra| ra.unreported > 0)
            .map(|ra| Request::Stream {
                hobj: h.0,
                credit: 0,
                consumed: ra.unreported,
            });
        (report, Request::Close { hobj: h.0, options })
    }

    pub fn on_closed(&mut self, h: Hobj) {
        self.names.remove(&h.0);
        self.async_default.remove(&h.0);
    }

    fn local_id(&self) -> [u8; 24] {
        let n = ID_COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut id = [0u8; 24];
        id[..4].copy_from_slice(b"FMQC");
        id[4..12].copy_from_slice(&self.conn_id.to_be_bytes());
        id[12..16].copy_from_slice(&self.id_seed.to_be_bytes());
        id[16..].copy_from_slice(&n.to_be_bytes());
        id
    }

    /// Builds a put. An async put gets its ids here, so the caller learns them at once (as with
    /// MQ's async put, the rest of the outcome comes later through the status call).
    pub fn prepare_put(
        &self,
        target: PutTarget,
        mut msg: Message,
        opts: &PutOptions,
    ) -> PreparedPut {
        let is_async = match opts.response {
            PutResponseMode::Async => true,
            PutResponseMode::Sync => false,
            PutResponseMode::AsQueueDef => match target {
                PutTarget::Handle(h) => self.async_default(h),
                PutTarget::Object(_) => false,
            },
        };
        let mut wire_opts = *opts;
        if is_async {
            if opts.new_msg_id || msg.descriptor.msg_id.is_none() {
                msg.descriptor.msg_id = MsgId(self.local_id());
            }
            if opts.new_correl_id {
                msg.descriptor.correl_id = CorrelId(self.local_id());
            }
            wire_opts.new_msg_id = false;
            wire_opts.new_correl_id = false;
            wire_opts.response = PutResponseMode::Async;
        }
        let options = wire::put_to_wire(&wire_opts);
        let wmsg = wire::message_to_wire(&msg);
        let request = match target {
            PutTarget::Handle(h) => Request::Put {
                hobj: h.0,
                options,
                msg: wmsg,
            },
            PutTarget::Object(od) => Request::Put1 {
                object: wire::object_to_wire(od),
                options,
                msg: wmsg,
            },
        };
        let async_outcome = is_async.then(|| {
            let d = &msg.descriptor;
            PutOutcome {
                msg_id: d.msg_id,
                correl_id: d.correl_id,
                put_time: SystemTime::now(),
                persistence: d.persistence,
                priority: match d.priority {
                    ferry_model::Priority::Value(p) => p,
                    ferry_model::Priority::AsQueueDef => 0,
                },
                warning: None,
            }
        });
        PreparedPut {
            request,
            async_outcome,
        }
    }

    /// The outcome of a synchronous put.
    pub fn put_result((status, reply): (Status, Reply)) -> MqResult<PutOutcome> {
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        match reply {
            Reply::Put {
                msg_id,
                correl_id,
                put_time_ms,
                persistence,
                priority,
            } => Ok(PutOutcome {
                msg_id: MsgId(msg_id),
                correl_id: CorrelId(correl_id),
                put_time: UNIX_EPOCH + Duration::from_millis(put_time_ms),
                persistence: if persistence == 1 {
                    Persistence::Persistent
                } else {
                    Persistence::NotPersistent
                },
                priority,
                warning: warning_of(&status),
            }),
            other => Err(unexpected(other)),
        }
    }

    pub fn get_request(h: Hobj, opts: &GetOptions) -> Request {
        Request::Get {
            hobj: h.0,
            options: wire::get_to_wire(opts),
        }
    }

    pub fn is_read_ahead(&self, h: Hobj) -> bool {
        self.read_ahead.contains_key(&h.0)
    }

    /// Read-ahead handles get in order, outside syncpoint, without matching or browsing (a
    /// buffer length is fine: see [`ReadAheadGet::fit`]).
    pub fn check_read_ahead_get(opts: &GetOptions) -> MqResult<()> {
        if opts.syncpoint
            || opts.msg_id.is_some()
            || opts.correl_id.is_some()
            || opts.browse != BrowseMode::None
        {
            return Err(MqError::new(
                Reason::OptionsError,
                "a handle with read-ahead gets messages in order, outside syncpoint, without matching or \
                 browsing; open the queue without read-ahead for those options",
            ));
        }
        Ok(())
    }

    /// The length of the body of the next buffered read-ahead message, if one is buffered.
    pub fn next_read_ahead_len(&self, h: Hobj) -> Option<usize> {
        let ra = self.read_ahead.get(&h.0)?;
        match ra.buffered.front()? {
            Ok(g) => Some(g.message.body.len()),
            Err(_) => None,
        }
    }

    /// The next buffered read-ahead message, with the credit request to send when half the
    /// window has been consumed.
    pub fn pop_read_ahead(&mut self, h: Hobj) -> Option<(MqResult<Got>, Option<Request>)> {
        let ra = self.read_ahead.get_mut(&h.0)?;
        let item = ra.buffered.pop_front()?;
        ra.unreported += 1;
        let credit = (ra.unreported >= READ_AHEAD_WINDOW / 2).then(|| {
            let n = std::mem::take(&mut ra.unreported);
            Request::Stream {
                hobj: h.0,
                credit: n,
                consumed: n,
            }
        });
        Some((item, credit))
    }

    /// When a read-ahead buffer has run dry, report what was consumed at once: the server may
    /// be holding back because of its byte limit, waiting for exactly this.
    /// Whether a read-ahead get on `h` with nothing buffered should look for a persistent
    /// message at once (the last look found one).
    fn probe_at_once(&self, h: Hobj) -> bool {
        self.read_ahead.get(&h.0).is_some_and(|r| r.probe_at_once)
    }

    pub fn report_when_dry(&mut self, h: Hobj) -> Option<Request> {
        let ra = self.read_ahead.get_mut(&h.0)?;
        if !ra.buffered.is_empty() || ra.unreported == 0 {
            return None;
        }
        let n = std::mem::take(&mut ra.unreported);
        Some(Request::Stream {
            hobj: h.0,
            credit: n,
            consumed: n,
        })
    }

    /// The "no message" answer of a read-ahead get.
    pub fn no_message(&self, h: Hobj) -> MqError {
        let name = self.names.get(&h.0).copied().unwrap_or_default();
        MqError::new(
            Reason::NoMsgAvailable,
            format!("no message on queue {name}"),
        )
    }

    pub fn inquire_request(h: Hobj, selectors: &[Selector]) -> Request {
        Request::Inquire {
            hobj: h.0,
            selectors: selectors.iter().map(|s| s.code()).collect(),
        }
    }

    pub fn inquire_result(reply: Reply) -> MqResult<Vec<AttrValue>> {
        match reply {
            Reply::Inquired { values } => Ok(values
                .into_iter()
                .map(|v| match v {
                    WireAttr::Int(i) => AttrValue::Int(i),
                    WireAttr::Str(s) => AttrValue::Str(s),
                })
                .collect()),
            other => Err(unexpected(other)),
        }
    }

    pub fn set_request(h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<Request> {
        let mut vals = Vec::with_capacity(values.len());
        let mut texts = Vec::new();
        for (s, v) in values {
            match v {
                AttrValue::Int(i) => vals.push((s.code(), *i)),
                AttrValue::Str(t) => texts.push((s.code(), t.clone())),
            }
        }
        Ok(Request::Set {
            hobj: h.0,
            values: vals,
            texts,
        })
    }

    pub fn status_result(reply: Reply) -> MqResult<AsyncPutStatus> {
        match reply {
            Reply::Status {
                succeeded,
                warned,
                failed,
                first_reason,
                first_detail,
            } => Ok(AsyncPutStatus {
                succeeded,
                warned,
                failed,
                first_failure: (first_reason != 0).then(|| {
                    wire::error_of(&Status {
                        completion: 2,
                        reason: first_reason,
                        detail: first_detail,
                        data_length: 0,
                    })
                }),
            }),
            other => Err(unexpected(other)),
        }
    }

    /// Consumption reports to send before disconnecting, so consumed read-ahead messages are not
    /// counted as lost.
    pub fn final_reports(&mut self) -> Vec<Request> {
        self.read_ahead
            .iter_mut()
            .filter(|(_, r)| r.unreported > 0)
            .map(|(h, r)| Request::Stream {
                hobj: *h,
                credit: 0,
                consumed: std::mem::take(&mut r.unreported),
            })
            .collect()
    }
}

/// How often a read-ahead get with nothing buffered looks on the server for a persistent message
/// (which is never streamed ahead).
pub(crate) const PERSISTENT_PROBE: Duration = Duration::from_millis(100);

/// What a read-ahead get should do next; both transports run the same plan.
#[derive(Debug)]
pub(crate) enum ReadAheadStep {
    /// Hand this to the application (sending the credit request first, if any).
    Deliver(MqResult<Got>, Option<Request>),
    /// Send this consumption report, then step again.
    Report(Request),
    /// Ask the server directly for a message the stream does not carry; see [`probe_request`].
    Probe,
    /// Nothing arrived in time.
    NoMessage(MqError),
    /// Wait for pushed messages until this instant, then step again.
    WaitUntil(Instant),
}

/// The state of one read-ahead get.
#[derive(Debug)]
pub(crate) struct ReadAheadGet {
    wait: Wait,
    /// The caller's buffer length, and whether a longer message may be cut to it.
    max_len: Option<(usize, bool)>,
    /// The deadline (`None`: unlimited) and the next probe, from the first step that found
    /// nothing buffered: a get the buffer answers at once reads no clock.
    timing: Option<(Option<Instant>, Instant)>,
}

impl ReadAheadGet {
    pub fn new(opts: &GetOptions) -> MqResult<ReadAheadGet> {
        ConvCore::check_read_ahead_get(opts)?;
        Ok(ReadAheadGet {
            wait: opts.wait,
            max_len: opts.max_len.map(|m| (m, opts.accept_truncated)),
            timing: None,
        })
    }

    /// The next step, given what the conversation has buffered for handle `h`. A buffered
    /// message longer than the caller's buffer is cut to it with MQGMO_ACCEPT_TRUNCATED_MSG
    /// (warning 2079) and otherwise stays buffered, the get failing with 2080 and its length,
    /// as a get from the queue would.
    pub fn step(&mut self, core: &mut ConvCore, h: Hobj) -> ReadAheadStep {
        if let (Some((max, false)), Some(len)) = (self.max_len, core.next_read_ahead_len(h)) {
            if len > max {
                return ReadAheadStep::NoMessage(MqError {
                    data_length: len,
                    ..MqError::new(
                        Reason::TruncatedMsgFailed,
                        format!(
                            "the next message is {len} bytes, longer than the {max}-byte buffer"
                        ),
                    )
                });
            }
        }
        if let Some((item, credit)) = core.pop_read_ahead(h) {
            return ReadAheadStep::Deliver(self.fit(item), credit);
        }
        if let Some(report) = core.report_when_dry(h) {
            return ReadAheadStep::Report(report);
        }
        let now = Instant::now();
        let wait = self.wait;
        let (deadline, next_probe) = self.timing.get_or_insert_with(|| {
            let deadline = match wait {
                Wait::No => Some(now),
                Wait::For(d) => Some(now + d),
                Wait::Unlimited => None,
            };
            // Probe first at the deadline of a short wait, then every PERSISTENT_PROBE — at
            // once when the last probe found a message.
            let first = if core.probe_at_once(h) {
                now
            } else {
                now + PERSISTENT_PROBE
            };
            (deadline, deadline.map_or(first, |d| d.min(first)))
        });
        if now >= *next_probe {
            *next_probe = now + PERSISTENT_PROBE;
            return ReadAheadStep::Probe;
        }
        if deadline.is_some_and(|d| now >= d) {
            return ReadAheadStep::NoMessage(core.no_message(h));
        }
        ReadAheadStep::WaitUntil(deadline.map_or(*next_probe, |d| d.min(*next_probe)))
    }

    /// A delivered message cut to the caller's buffer when it accepts truncation (the full
    /// length stays in `data_length`).
    fn fit(&self, item: MqResult<Got>) -> MqResult<Got> {
        let Some((max, true)) = self.max_len else {
            return item;
        };
        item.map(|mut g| {
            if g.message.body.len() > max {
                g.message.body = g.message.body.slice(..max);
                g.warning = Some(Reason::TruncatedMsgAccepted);
            }
            g
        })
    }

    /// The direct, no-wait get that looks for a persistent message.
    pub fn probe_request(&self, h: Hobj) -> Request {
        ConvCore::get_request(
            h,
            &GetOptions {
                wait: Wait::No,
                max_len: self.max_len.map(|(m, _)| m),
                accept_truncated: self.max_len.is_some_and(|(_, a)| a),
                ..GetOptions::new()
            },
        )
    }

    /// The probe's answer on handle `h`: `Some` ends the get, `None` means keep waiting.
    pub fn probe_result(
        core: &mut ConvCore,
        h: Hobj,
        answer: (Status, Reply),
    ) -> Option<MqResult<Got>> {
        let r = match got_of(answer.0, answer.1) {
            Err(e) if e.reason == Reason::NoMsgAvailable => None,
            other => Some(other),
        };
        if let Some(ra) = core.read_ahead.get_mut(&h.0) {
            ra.probe_at_once = matches!(r, Some(Ok(_)));
        }
        r
    }
}
