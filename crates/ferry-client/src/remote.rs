//! The local and tcp connection modes: one conversation over a Unix or TCP socket, speaking the
//! protocol of `ferry-proto`.
//!
//! Calls that need an answer write their request and read until it arrives, on the caller's own
//! thread: a synchronous put costs one round trip and nothing else. Requests that need no answer
//! (async puts, read-ahead credit) are appended to a write buffer that is flushed by the next
//! call, when it passes 64 KiB, or by a small flusher thread within about 100 µs, so a stream of
//! async puts leaves in large writes. Read-ahead messages pushed by the server wait in a bounded
//! buffer per handle until the application's gets take them.

use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::BytesMut;

use crate::stream::{write_fully, Stream};
use crate::ClientOptions;
use ferry_core::wire;
use ferry_core::{
    AttrValue, BrowseMode, CloseOptions, CorrelId, GetOptions, Got, Hobj, Message, MqError,
    MqResult, MsgId, ObjectDescriptor, ObjectName, OpenOptions, Persistence, PutOptions,
    PutOutcome, PutResponseMode, Reason, Selector, Wait,
};
use ferry_proto::compress::{self, Compression, MIN_COMPRESS_LEN};
use ferry_proto::msg::opened_flags;
use ferry_proto::{
    begin_frame, decode_frame, decode_response, finish_frame, Frame, FrameHeader, Opcode, Preamble,
    Reply, Request, Status, WireAttr, DEFAULT_MAX_FRAME, FLAG_COMPRESSED, FLAG_PUSH, PREAMBLE_LEN,
};

/// Async put outcomes since the last status call, as the server reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsyncPutStatus {
    /// Puts that succeeded.
    pub succeeded: u64,
    /// Puts that succeeded with a warning.
    pub warned: u64,
    /// Puts that failed.
    pub failed: u64,
    /// The first failure, if any.
    pub first_failure: Option<MqError>,
}

/// Flush the write buffer inline once it holds this much.
const FLUSH_AT: usize = 64 * 1024;
/// How long the flusher lets unanswered requests gather before writing them.
const FLUSH_DELAY: Duration = Duration::from_micros(100);
/// How often a read-ahead get with nothing buffered looks on the server for a persistent message
/// (which is never streamed ahead).
const PERSISTENT_PROBE: Duration = Duration::from_millis(100);
/// Read-ahead window: messages the server may push ahead of the application's gets.
const READ_AHEAD_WINDOW: u32 = 256;

/// The sending half: the socket's write side and the buffer of requests not yet written.
#[derive(Debug)]
struct Writer {
    stream: Stream,
    buf: BytesMut,
    failed: Option<String>,
    closed: bool,
}

impl Writer {
    fn flush(&mut self) -> MqResult<()> {
        if let Some(e) = &self.failed {
            return Err(broken(e));
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        let r = write_fully(&mut self.stream, &self.buf);
        self.buf.clear();
        r.map_err(|e| {
            self.failed = Some(e.to_string());
            broken(e)
        })
    }
}

#[derive(Debug)]
struct Outbox {
    writer: Mutex<Writer>,
    wake: Condvar,
}

impl Outbox {
    fn lock(&self) -> MutexGuard<'_, Writer> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Writes what async requests left in the buffer, shortly after they were left there.
fn flusher(outbox: Weak<Outbox>) {
    loop {
        let Some(o) = outbox.upgrade() else { return };
        {
            let mut w = o.lock();
            while w.buf.is_empty() && !w.closed {
                w = o
                    .wake
                    .wait_timeout(w, Duration::from_millis(500))
                    .map_or_else(|p| p.into_inner().0, |r| r.0);
                if Arc::strong_count(&o) == 1 {
                    return;
                }
            }
            if w.closed {
                return;
            }
        }
        std::thread::sleep(FLUSH_DELAY);
        let _ = o.lock().flush();
    }
}

/// A read-ahead handle's buffer of pushed messages.
#[derive(Debug, Default)]
struct ReadAhead {
    buffered: VecDeque<MqResult<Got>>,
    unreported: u32,
}

/// One conversation with a server.
#[derive(Debug)]
pub(crate) struct Remote {
    reader: Stream,
    outbox: Arc<Outbox>,
    rbuf: BytesMut,
    scratch: Box<[u8]>,
    next_id: u64,
    max_frame_out: usize,
    conn_id: u64,
    qmgr: ObjectName,
    names: HashMap<u32, ObjectName>,
    async_default: HashMap<u32, bool>,
    read_ahead: HashMap<u32, ReadAhead>,
    read_timeout: Duration,
    broken: bool,
    id_seed: u32,
    compression: Option<Compression>,
    /// The read timeout last set on the socket (`None`: not set yet).
    read_timeout_set: Option<Option<Duration>>,
    /// Requests are encoded here first when they may be compressed.
    plain: BytesMut,
    /// Payload bytes before and after compression, both directions.
    compressed: (u64, u64),
}

const CONV: u16 = 1;
static ID_COUNTER: AtomicU64 = AtomicU64::new(0);

fn broken(e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::ConnectionBroken,
        format!("the connection to the queue manager broke: {e}"),
    )
}

impl Remote {
    /// Connects over a Unix socket.
    pub fn unix(path: &Path, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        let s = UnixStream::connect(path).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!(
                    "cannot connect to {}: {e}; is the queue manager running ('ferry qm start')?",
                    path.display()
                ),
            )
        })?;
        Remote::handshake(Stream::Unix(s), app_name, opts)
    }

    /// Connects over TLS 1.3.
    pub fn tls(addr: &str, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        let Some(tls) = &opts.tls else {
            return Err(MqError::new(
                Reason::OptionsError,
                "a tls:// connection needs TLS options (at least the CA that signs the server's certificate)",
            ));
        };
        let s = TcpStream::connect(addr).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!(
                    "cannot connect to {addr}: {e}; is the queue manager's TLS listener there?"
                ),
            )
        })?;
        let _ = s.set_nodelay(true);
        let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
        let host = addr
            .rsplit_once(':')
            .map_or(addr, |(h, _)| h)
            .trim_matches(['[', ']']);
        let stream = Stream::tls(s, host, tls).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!("the TLS handshake with {addr} failed: {e}"),
            )
        })?;
        Remote::handshake(stream, app_name, opts)
    }

    /// Connects over TCP.
    pub fn tcp(addr: &str, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        let s = TcpStream::connect(addr).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!("cannot connect to {addr}: {e}; is the queue manager listening there?"),
            )
        })?;
        let _ = s.set_nodelay(true);
        Remote::handshake(Stream::Tcp(s), app_name, opts)
    }

    fn handshake(mut stream: Stream, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(broken)?;
        stream
            .write_all(&Preamble::ours(DEFAULT_MAX_FRAME as u32).encode())
            .map_err(broken)?;
        let mut b = [0u8; PREAMBLE_LEN];
        stream.read_exact(&mut b).map_err(broken)?;
        let theirs = Preamble::decode(&b).map_err(broken)?;
        if theirs.min_version == 0 {
            return Err(MqError::new(
                Reason::QMgrNotAvailable,
                "the server speaks no protocol version this client knows",
            ));
        }
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ std::process::id());
        let writer = Writer {
            stream: stream.try_clone().map_err(broken)?,
            buf: BytesMut::with_capacity(FLUSH_AT * 2),
            failed: None,
            closed: false,
        };
        let outbox = Arc::new(Outbox {
            writer: Mutex::new(writer),
            wake: Condvar::new(),
        });
        let weak = Arc::downgrade(&outbox);
        std::thread::Builder::new()
            .name("ferry-flush".into())
            .spawn(move || flusher(weak))
            .map_err(|e| {
                MqError::new(
                    Reason::UnexpectedError,
                    format!("cannot start the flusher thread: {e}"),
                )
            })?;
        let mut r = Remote {
            reader: stream,
            outbox,
            rbuf: BytesMut::with_capacity(64 * 1024),
            scratch: vec![0u8; 64 * 1024].into_boxed_slice(),
            next_id: 1,
            max_frame_out: (theirs.max_frame as usize).max(1024),
            conn_id: 0,
            qmgr: ObjectName::EMPTY,
            names: HashMap::new(),
            async_default: HashMap::new(),
            read_ahead: HashMap::new(),
            read_timeout: Duration::from_secs(75),
            broken: false,
            id_seed: seed,
            compression: None,
            read_timeout_set: None,
            plain: BytesMut::new(),
            compressed: (0, 0),
        };
        let user = std::env::var("USER").unwrap_or_default();
        let req = Request::Connect {
            app_name: app_name.to_owned(),
            user: opts.user.clone().unwrap_or(user),
            password: opts.password.clone().unwrap_or_default(),
            flags: 0,
            compression: opts.compression.iter().map(|c| *c as u8).collect(),
        };
        match r.call(&req)? {
            Reply::Connected {
                conn_id,
                qmgr,
                heartbeat_ms,
                compression,
            } => {
                r.compression = Compression::from_u8(compression);
                r.conn_id = conn_id;
                r.qmgr = ObjectName::truncating(&qmgr);
                // A silent server is presumed dead after two missed heartbeats and a margin.
                r.read_timeout =
                    Duration::from_millis(heartbeat_ms as u64 * 2) + Duration::from_secs(5);
                Ok(r)
            }
            other => Err(unexpected(other)),
        }
    }

    /// The connection id the server gave this conversation.
    pub fn connection_id(&self) -> u64 {
        self.conn_id
    }

    /// The queue manager's name.
    pub fn qmgr(&self) -> ObjectName {
        self.qmgr
    }

    /// Encodes a request into the write buffer; `flush` writes it (and anything before it) now.
    fn enqueue(&mut self, req: &Request, flush: bool) -> MqResult<u64> {
        if self.broken {
            return Err(MqError::new(
                Reason::ConnectionBroken,
                "the connection to the queue manager is broken; reconnect",
            ));
        }
        let id = self.next_id;
        self.next_id += 1;
        let mut w = self.outbox.lock();
        let was_empty = w.buf.is_empty();
        let mut header = FrameHeader {
            opcode: req.opcode() as u8,
            flags: 0,
            conv: CONV,
            request_id: id,
        };
        let start;
        match self.compression {
            Some(alg) => {
                self.plain.clear();
                req.encode(&mut self.plain);
                if self.plain.len() >= MIN_COMPRESS_LEN {
                    header.flags |= FLAG_COMPRESSED;
                    start = begin_frame(&mut w.buf, header);
                    let body = w.buf.len();
                    compress::compress(alg, &self.plain, &mut w.buf);
                    self.compressed.0 += self.plain.len() as u64;
                    self.compressed.1 += (w.buf.len() - body) as u64;
                } else {
                    start = begin_frame(&mut w.buf, header);
                    w.buf.extend_from_slice(&self.plain);
                }
            }
            None => {
                start = begin_frame(&mut w.buf, header);
                req.encode(&mut w.buf);
            }
        }
        finish_frame(&mut w.buf, start);
        let len = w.buf.len() - start;
        if len > self.max_frame_out {
            w.buf.truncate(start);
            return Err(MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "the request is {len} bytes; the queue manager accepts frames up to {} bytes",
                    self.max_frame_out
                ),
            ));
        }
        if flush || w.buf.len() >= FLUSH_AT {
            if let Err(e) = w.flush() {
                self.broken = true;
                return Err(e);
            }
        } else if was_empty {
            self.outbox.wake.notify_one();
        }
        Ok(id)
    }

    /// Sends a request and waits for its response. A failed status becomes `Err`.
    fn call(&mut self, req: &Request) -> MqResult<Reply> {
        let (status, reply) = self.call_status(req)?;
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        Ok(reply)
    }

    fn call_status(&mut self, req: &Request) -> MqResult<(Status, Reply)> {
        let id = self.enqueue(req, true)?;
        let timeout = match req {
            Request::Get { options, .. } if options.wait_ms == u32::MAX => None,
            Request::Get { options, .. } => {
                Some(self.read_timeout + Duration::from_millis(options.wait_ms as u64))
            }
            _ => Some(self.read_timeout),
        };
        let f = self.next_frame(timeout)?;
        if f.header.request_id != id {
            self.broken = true;
            return Err(broken(format!(
                "response to request {} arrived while waiting for {id}",
                f.header.request_id
            )));
        }
        decode_response(req.opcode() as u8, f.payload).map_err(|e| {
            self.broken = true;
            broken(e)
        })
    }

    /// The next response frame. Heartbeats are skipped and read-ahead pushes are filed in their
    /// handle's buffer on the way. `None` timeout blocks without limit.
    fn next_frame(&mut self, timeout: Option<Duration>) -> MqResult<Frame> {
        loop {
            if let Some(f) = self.take_frame()? {
                if f.header.flags & FLAG_PUSH == 0 {
                    return Ok(f);
                }
                self.file_push(f)?;
                continue;
            }
            if !self.fill(Fill::Within(timeout))? {
                self.broken = true;
                return Err(broken("the queue manager stopped answering (no heartbeat)"));
            }
        }
    }

    /// The next complete frame in the read buffer, decompressed.
    fn take_frame(&mut self) -> MqResult<Option<Frame>> {
        let mut f = match decode_frame(&mut self.rbuf, DEFAULT_MAX_FRAME) {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(None),
            Err(e) => {
                self.broken = true;
                return Err(broken(e));
            }
        };
        if f.header.flags & FLAG_COMPRESSED != 0 {
            let Some(alg) = self.compression else {
                self.broken = true;
                return Err(broken(
                    "a compressed frame arrived on a connection without compression",
                ));
            };
            let plain = compress::decompress(alg, &f.payload, DEFAULT_MAX_FRAME).map_err(|e| {
                self.broken = true;
                broken(e)
            })?;
            self.compressed.0 += plain.len() as u64;
            self.compressed.1 += f.payload.len() as u64;
            f.payload = plain;
            f.header.flags &= !FLAG_COMPRESSED;
        }
        Ok(Some(f))
    }

    /// The compression in use and the fraction of payload bytes it saved so far.
    pub fn compression(&self) -> (Option<Compression>, Option<f64>) {
        let (plain, wire) = self.compressed;
        (
            self.compression,
            (plain > 0).then(|| 1.0 - wire as f64 / plain as f64),
        )
    }

    /// Reads more bytes into the read buffer. Returns false if none arrived in time (which is
    /// not an error of the connection: the caller decides what silence means).
    fn fill(&mut self, how: Fill) -> MqResult<bool> {
        let r = match how {
            Fill::Now => self.reader.read_now(&mut self.scratch),
            Fill::Within(t) => {
                // Anything still buffered (async puts, stream credit) goes out before we wait:
                // the answer we wait for may depend on it.
                {
                    let mut w = self.outbox.lock();
                    if !w.buf.is_empty() {
                        if let Err(e) = w.flush() {
                            self.broken = true;
                            return Err(e);
                        }
                    }
                }
                // Set the socket's timeout only when it changes: it costs a system call.
                let t = t.map(|d| d.max(Duration::from_micros(1)));
                if self.read_timeout_set != Some(t) {
                    self.reader.set_read_timeout(t).map_err(broken)?;
                    self.read_timeout_set = Some(t);
                }
                self.reader.read(&mut self.scratch)
            }
        };
        match r {
            Ok(0) => {
                self.broken = true;
                Err(broken("the queue manager closed the connection"))
            }
            Ok(n) => {
                self.rbuf.extend_from_slice(&self.scratch[..n]);
                Ok(true)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(false)
            }
            Err(e) => {
                self.broken = true;
                Err(broken(e))
            }
        }
    }

    fn file_push(&mut self, f: Frame) -> MqResult<()> {
        if f.header.opcode == Opcode::Heartbeat as u8 {
            return Ok(());
        }
        let hobj = f.header.request_id as u32;
        let (status, reply) = decode_response(Opcode::Get as u8, f.payload).map_err(|e| {
            self.broken = true;
            broken(e)
        })?;
        let item = got_of(status, reply);
        // A push for a handle already closed is dropped: the server returns those messages.
        if let Some(ra) = self.read_ahead.get_mut(&hobj) {
            ra.buffered.push_back(item);
        }
        Ok(())
    }

    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let req = Request::Open {
            object: wire::object_to_wire(od),
            options: wire::open_to_wire(&opts),
        };
        match self.call(&req)? {
            Reply::Opened { hobj, name, flags } => {
                self.names.insert(hobj, ObjectName::truncating(&name));
                self.async_default
                    .insert(hobj, flags & opened_flags::ASYNC_PUT_DEFAULT != 0);
                if flags & opened_flags::READ_AHEAD != 0 {
                    self.read_ahead.insert(hobj, ReadAhead::default());
                    self.enqueue(
                        &Request::Stream {
                            hobj,
                            credit: READ_AHEAD_WINDOW,
                            consumed: 0,
                        },
                        true,
                    )?;
                }
                Ok(Hobj(hobj))
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

    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let options = match opts {
            CloseOptions::None => 0,
            CloseOptions::Delete => 1,
            CloseOptions::DeletePurge => 2,
        };
        if let Some(ra) = self.read_ahead.remove(&h.0) {
            // Report what the application consumed; the server returns the rest to the queue.
            if ra.unreported > 0 {
                self.enqueue(
                    &Request::Stream {
                        hobj: h.0,
                        credit: 0,
                        consumed: ra.unreported,
                    },
                    false,
                )?;
            }
        }
        self.call(&Request::Close { hobj: h.0, options })?;
        self.names.remove(&h.0);
        self.async_default.remove(&h.0);
        Ok(())
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

    /// Puts, synchronously or asynchronously. An async put gets its ids here, so the caller
    /// learns them at once (as with MQ's async put, the rest of the outcome comes later).
    fn put_any(
        &mut self,
        target: PutTarget,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let is_async = match opts.response {
            PutResponseMode::Async => true,
            PutResponseMode::Sync => false,
            PutResponseMode::AsQueueDef => match target {
                PutTarget::Handle(h) => self.async_default.get(&h.0).copied().unwrap_or(false),
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
        let req = match target {
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
        if is_async {
            self.enqueue(&req, false)?;
            let d = &msg.descriptor;
            return Ok(PutOutcome {
                msg_id: d.msg_id,
                correl_id: d.correl_id,
                put_time: SystemTime::now(),
                persistence: d.persistence,
                priority: match d.priority {
                    ferry_core::Priority::Value(p) => p,
                    ferry_core::Priority::AsQueueDef => 0,
                },
                warning: None,
            });
        }
        let (status, reply) = self.call_status(&req)?;
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        let warning = (status.completion == 1)
            .then(|| Reason::from_code(status.reason))
            .flatten();
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
                warning,
            }),
            other => Err(unexpected(other)),
        }
    }

    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        self.put_any(PutTarget::Handle(h), msg, opts)
    }

    pub fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.put_any(PutTarget::Object(od), msg, opts)
    }

    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        if self.read_ahead.contains_key(&h.0) {
            return self.get_read_ahead(h, opts);
        }
        let req = Request::Get {
            hobj: h.0,
            options: wire::get_to_wire(opts),
        };
        let (status, reply) = self.call_status(&req)?;
        got_of(status, reply)
    }

    /// A get served from the read-ahead buffer, refilled by the server's pushes.
    fn get_read_ahead(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        if opts.syncpoint
            || opts.msg_id.is_some()
            || opts.correl_id.is_some()
            || opts.browse != BrowseMode::None
            || opts.max_len.is_some()
        {
            return Err(MqError::new(
                Reason::OptionsError,
                "a handle with read-ahead gets messages in order, outside syncpoint, without matching or \
                 browsing; open the queue without read-ahead for those options",
            ));
        }
        let deadline = match opts.wait {
            Wait::No => Some(Instant::now()),
            Wait::For(d) => Some(Instant::now() + d),
            Wait::Unlimited => None,
        };
        // When to look on the server for a message the stream does not carry (persistent ones);
        // first at the deadline of a short wait, then every PERSISTENT_PROBE.
        let mut next_probe = deadline.map_or(Instant::now() + PERSISTENT_PROBE, |d| {
            d.min(Instant::now() + PERSISTENT_PROBE)
        });
        loop {
            // File whatever already arrived, then look in the buffer.
            while let Some(f) = self.take_frame()? {
                if f.header.flags & FLAG_PUSH == 0 {
                    self.broken = true;
                    return Err(broken("an unexpected response arrived between calls"));
                }
                self.file_push(f)?;
            }
            let ra = self.read_ahead.get_mut(&h.0).expect("checked above");
            if let Some(item) = ra.buffered.pop_front() {
                ra.unreported += 1;
                if ra.unreported >= READ_AHEAD_WINDOW / 2 {
                    let n = ra.unreported;
                    ra.unreported = 0;
                    self.enqueue(
                        &Request::Stream {
                            hobj: h.0,
                            credit: n,
                            consumed: n,
                        },
                        false,
                    )?;
                }
                return item;
            }
            if self.fill(Fill::Now)? {
                continue;
            }
            let now = Instant::now();
            if now >= next_probe {
                // Persistent messages are never read ahead: fetch one directly if it waits.
                next_probe = now + PERSISTENT_PROBE;
                let direct = GetOptions {
                    wait: Wait::No,
                    ..GetOptions::new()
                };
                let req = Request::Get {
                    hobj: h.0,
                    options: wire::get_to_wire(&direct),
                };
                let (status, reply) = self.call_status(&req)?;
                match got_of(status, reply) {
                    Ok(g) => return Ok(g),
                    Err(e) if e.reason == Reason::NoMsgAvailable => {}
                    Err(e) => return Err(e),
                }
                continue;
            }
            if deadline.is_some_and(|d| now >= d) {
                let name = self.names.get(&h.0).copied().unwrap_or_default();
                return Err(MqError::new(
                    Reason::NoMsgAvailable,
                    format!("no message on queue {name}"),
                ));
            }
            let until = deadline.map_or(next_probe, |d| d.min(next_probe));
            self.fill(Fill::Within(Some(
                (until - now).max(Duration::from_micros(100)),
            )))?;
        }
    }

    pub fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let req = Request::Inquire {
            hobj: h.0,
            selectors: selectors.iter().map(|s| s.code()).collect(),
        };
        match self.call(&req)? {
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

    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let mut vals = Vec::with_capacity(values.len());
        for (s, v) in values {
            match v {
                AttrValue::Int(i) => vals.push((s.code(), *i)),
                AttrValue::Str(_) => {
                    return Err(MqError::new(
                        Reason::SelectorError,
                        format!("{s:?} cannot be set to a string"),
                    ))
                }
            }
        }
        self.call(&Request::Set {
            hobj: h.0,
            values: vals,
        })
        .map(|_| ())
    }

    pub fn commit(&mut self) -> MqResult<()> {
        self.call(&Request::Commit).map(|_| ())
    }

    pub fn backout(&mut self) -> MqResult<()> {
        self.call(&Request::Backout).map(|_| ())
    }

    pub fn status(&mut self) -> MqResult<AsyncPutStatus> {
        match self.call(&Request::Status)? {
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

    pub fn disconnect(mut self) -> MqResult<()> {
        let reports: Vec<(u32, u32)> = self
            .read_ahead
            .iter()
            .filter(|(_, r)| r.unreported > 0)
            .map(|(h, r)| (*h, r.unreported))
            .collect();
        for (hobj, consumed) in reports {
            self.enqueue(
                &Request::Stream {
                    hobj,
                    credit: 0,
                    consumed,
                },
                false,
            )?;
        }
        self.call(&Request::Disconnect).map(|_| ())
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        let mut w = self.outbox.lock();
        // Whatever async requests are still buffered go out before the socket closes.
        let _ = w.flush();
        w.closed = true;
        drop(w);
        self.outbox.wake.notify_one();
    }
}

/// How long [`Remote::fill`] may wait for bytes.
#[derive(Debug, Clone, Copy)]
enum Fill {
    /// Not at all.
    Now,
    /// Up to this long (`None`: without limit).
    Within(Option<Duration>),
}

enum PutTarget<'a> {
    Handle(Hobj),
    Object(&'a ObjectDescriptor),
}

/// A Get response (answered or pushed) as the application sees it.
fn got_of(status: Status, reply: Reply) -> MqResult<Got> {
    if status.failed() {
        return Err(wire::error_of(&status));
    }
    match reply {
        Reply::Got { msg, data_length } => Ok(Got {
            message: wire::message_from_wire(msg)?,
            data_length: data_length as usize,
            warning: (status.completion == 1)
                .then(|| Reason::from_code(status.reason))
                .flatten(),
        }),
        other => Err(unexpected(other)),
    }
}

fn unexpected(r: Reply) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("the queue manager sent an unexpected reply: {r:?}"),
    )
}
