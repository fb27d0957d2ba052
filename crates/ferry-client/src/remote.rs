//! The blocking transport for the local and tcp connection modes: one conversation over a Unix,
//! TCP or TLS socket, driving the protocol state of `conv.rs`.
//!
//! Calls that need an answer write their request and read until it arrives, on the caller's own
//! thread: a synchronous put costs one round trip and nothing else. Requests that need no answer
//! (async puts, read-ahead credit) are appended to a write buffer that is flushed by the next
//! call, when it passes 64 KiB, before the caller blocks on the socket, or within about 100 µs
//! by the process's one flushing thread ([`flush_soon`]) — so a stream of async puts leaves in
//! large writes. That thread serves every connection: a connection's first request left in its
//! buffer schedules it, and one wake-up then writes whatever all of them left meanwhile (a
//! thread a connection, woken for each such request, cost a request/reply client more CPU in
//! its wake-ups than in its calls). A small thread a connection sends heartbeats while the
//! application is idle.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use ferry_model::{
    AttrValue, CloseOptions, GetOptions, Got, Hobj, Message, MqError, MqResult, ObjectDescriptor,
    ObjectName, OpenOptions, PutOptions, PutOutcome, Reason, Selector,
};
use ferry_proto::compress::Compression;
use ferry_proto::{
    decode_frame, decode_response, Frame, Opcode, Preamble, Reply, Request, Status,
    DEFAULT_MAX_FRAME, FLAG_MORE, FLAG_PUSH, PREAMBLE_LEN,
};

use crate::conv::{broken, got_of, ok_reply, ConvCore, PutTarget, ReadAheadGet, ReadAheadStep};
use crate::stream::{write_fully, Stream};
use crate::ClientOptions;

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
/// The sending half: the socket's write side and the buffer of requests not yet written.
#[derive(Debug)]
struct Writer {
    stream: Stream,
    buf: BytesMut,
    failed: Option<String>,
    closed: bool,
    last_write: Instant,
    heartbeat: Duration,
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
        self.last_write = Instant::now();
        r.map_err(|e| {
            self.failed = Some(e.to_string());
            broken(e)
        })
    }

    /// A heartbeat the server does not answer: a sign of life while the application is idle.
    fn heartbeat(&mut self) {
        ferry_proto::encode_heartbeat(&mut self.buf);
        let _ = self.flush();
    }
}

#[derive(Debug)]
struct Outbox {
    writer: Mutex<Writer>,
    /// Wakes the connection's heartbeat thread (at close).
    wake: Condvar,
    /// Whether the flushing thread has this outbox on its list.
    scheduled: AtomicBool,
}

impl Outbox {
    fn lock(&self) -> MutexGuard<'_, Writer> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The outboxes with requests waiting to be written, and the thread that writes them.
struct Soon {
    pending: Mutex<Vec<Weak<Outbox>>>,
    wake: Condvar,
}

/// Has `o`'s buffer written within about [`FLUSH_DELAY`] (unless a call writes it first):
/// puts it on the flushing thread's list unless it is there already.
fn flush_soon(o: &Arc<Outbox>) {
    if o.scheduled.swap(true, Ordering::AcqRel) {
        return;
    }
    let Some(soon) = soon() else {
        // No thread could be started: write now rather than never.
        o.scheduled.store(false, Ordering::Release);
        let _ = o.lock().flush();
        return;
    };
    let mut pending = soon.pending.lock().unwrap_or_else(|p| p.into_inner());
    let first = pending.is_empty();
    pending.push(Arc::downgrade(o));
    drop(pending);
    if first {
        soon.wake.notify_one();
    }
}

/// The flushing thread's state, the thread started on first use (`None` if it cannot be).
fn soon() -> Option<&'static Soon> {
    static SOON: OnceLock<Option<&'static Soon>> = OnceLock::new();
    *SOON.get_or_init(|| {
        let soon: &'static Soon = Box::leak(Box::new(Soon {
            pending: Mutex::new(Vec::new()),
            wake: Condvar::new(),
        }));
        std::thread::Builder::new()
            .name("ferry-flush".into())
            .spawn(move || flush_pending(soon))
            .ok()
            .map(|_| soon)
    })
}

/// The flushing thread: once something is pending, lets more gather for [`FLUSH_DELAY`], then
/// writes every outbox on the list (those a call wrote meanwhile have nothing left).
fn flush_pending(soon: &'static Soon) {
    loop {
        let mut pending = soon.pending.lock().unwrap_or_else(|p| p.into_inner());
        while pending.is_empty() {
            pending = soon.wake.wait(pending).unwrap_or_else(|p| p.into_inner());
        }
        drop(pending);
        std::thread::sleep(FLUSH_DELAY);
        let due = std::mem::take(&mut *soon.pending.lock().unwrap_or_else(|p| p.into_inner()));
        for o in due.iter().filter_map(Weak::upgrade) {
            // Cleared first: a request left after this point schedules the outbox again.
            o.scheduled.store(false, Ordering::Release);
            let _ = o.lock().flush();
        }
    }
}

/// Sends heartbeats while nothing else is written, until the connection closes (and writes
/// anything it finds left, should the flushing thread not have).
fn flusher(outbox: Weak<Outbox>) {
    loop {
        let Some(o) = outbox.upgrade() else { return };
        {
            let mut w = o.lock();
            while w.buf.is_empty() && !w.closed {
                if w.last_write.elapsed() >= w.heartbeat {
                    w.heartbeat();
                }
                let nap = w.heartbeat.min(Duration::from_millis(500));
                w = o
                    .wake
                    .wait_timeout(w, nap)
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

/// One conversation with a server, used from one thread at a time.
#[derive(Debug)]
pub(crate) struct Remote {
    core: ConvCore,
    reader: Stream,
    outbox: Arc<Outbox>,
    rbuf: BytesMut,
    scratch: Box<[u8]>,
    broken: bool,
    /// The read timeout last set on the socket (`None`: not set yet).
    read_timeout_set: Option<Option<Duration>>,
    /// A response [`Remote::response_ready`] found, to be taken next.
    ready: Option<Frame>,
}

impl Remote {
    /// The connection's TCP socket, when it has one (tcp and tls).
    pub(crate) fn tcp_fd(&self) -> Option<std::os::fd::RawFd> {
        self.reader.tcp_fd()
    }

    /// What QUIC knows of the path, for a connection over QUIC.
    pub(crate) fn quic_figures(&self) -> Option<crate::quic::QuicFigures> {
        match &self.reader {
            Stream::Quic(q) => Some(q.figures()),
            _ => None,
        }
    }

    /// The streams a sender channel over this connection offers to spread fast batches over:
    /// its QUIC options' lanes, or 1 over any other transport.
    pub(crate) fn lanes_offered(&self) -> u32 {
        match &self.reader {
            Stream::Quic(q) => q.lanes_offered(),
            _ => 1,
        }
    }
}

/// Connects a Unix socket, with the error a person can act on.
pub(crate) fn connect_unix(path: &Path) -> MqResult<UnixStream> {
    UnixStream::connect(path).map_err(|e| {
        MqError::new(
            Reason::QMgrNotAvailable,
            format!(
                "cannot connect to {}: {e}; is the queue manager running ('ferry qm start')?",
                path.display()
            ),
        )
    })
}

/// Exchanges preambles on a new socket; the largest frame the server accepts.
pub(crate) fn preamble(stream: &mut Stream) -> MqResult<usize> {
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
    Ok(theirs.max_frame as usize)
}

/// How long [`Remote::fill`] may wait for bytes.
#[derive(Debug, Clone, Copy)]
enum Fill {
    /// Not at all.
    Now,
    /// Up to this long (`None`: without limit).
    Within(Option<Duration>),
    /// Up to this long, or less: the caller looks at its own deadline again after a wait
    /// that found nothing, so a socket timeout set earlier that is not longer than this and
    /// at least half of it stays (setting it costs a system call).
    AtMost(Duration),
}

impl Remote {
    /// Connects over a Unix socket.
    pub fn unix(path: &Path, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        Remote::handshake(Stream::Unix(connect_unix(path)?), app_name, opts)
    }

    /// Connects over TLS 1.3.
    pub fn tls(addr: &str, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        Remote::handshake(crate::stream::connect_tls(addr, opts)?, app_name, opts)
    }

    /// Connects over QUIC.
    pub fn quic(addr: &str, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        let s = crate::quic::QuicStream::connect(addr, opts)?;
        Remote::handshake(Stream::Quic(s), app_name, opts)
    }

    /// Connects over TCP.
    pub fn tcp(addr: &str, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        Remote::handshake(
            Stream::Tcp(crate::stream::connect_tcp(addr)?),
            app_name,
            opts,
        )
    }

    fn handshake(mut stream: Stream, app_name: &str, opts: &ClientOptions) -> MqResult<Remote> {
        let max_frame = preamble(&mut stream)?;
        Remote::start(stream, 1, max_frame, app_name, opts)
    }

    /// Starts conversation `conv` on a socket whose preambles have been exchanged (its own, or
    /// one it shares: `shared.rs`).
    pub(crate) fn start(
        stream: Stream,
        conv: u16,
        max_frame: usize,
        app_name: &str,
        opts: &ClientOptions,
    ) -> MqResult<Remote> {
        let writer = Writer {
            stream: stream.try_clone().map_err(broken)?,
            buf: BytesMut::with_capacity(FLUSH_AT * 2),
            failed: None,
            closed: false,
            last_write: Instant::now(),
            heartbeat: Duration::from_secs(30),
        };
        let outbox = Arc::new(Outbox {
            writer: Mutex::new(writer),
            wake: Condvar::new(),
            scheduled: AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&outbox);
        std::thread::Builder::new()
            .name("ferry-heartbeat".into())
            .spawn(move || flusher(weak))
            .map_err(|e| {
                MqError::new(
                    Reason::UnexpectedError,
                    format!("cannot start the heartbeat thread: {e}"),
                )
            })?;
        let mut r = Remote {
            core: ConvCore::new(conv, max_frame.max(1024)),
            reader: stream,
            outbox,
            rbuf: BytesMut::with_capacity(64 * 1024),
            scratch: vec![0u8; 64 * 1024].into_boxed_slice(),
            broken: false,
            read_timeout_set: None,
            ready: None,
        };
        let reply = r.call(&ConvCore::connect_request(app_name, opts))?;
        r.core.on_connected(reply)?;
        r.outbox.lock().heartbeat = r.core.heartbeat;
        Ok(r)
    }

    /// The connection id the server gave this conversation.
    pub fn connection_id(&self) -> u64 {
        self.core.conn_id
    }

    /// The queue manager's name.
    pub fn qmgr(&self) -> ObjectName {
        self.core.qmgr
    }

    /// The compression in use and the fraction of payload bytes it saved so far.
    pub fn compression(&self) -> (Option<Compression>, Option<f64>) {
        self.core.compression()
    }

    /// Time spent compressing and decompressing so far.
    pub fn compression_time(&self) -> std::time::Duration {
        self.core.compression_time()
    }

    fn fail(&mut self, e: impl std::fmt::Display) -> MqError {
        self.broken = true;
        broken(e)
    }

    /// Encodes a request into the write buffer; `flush` writes it (and anything before it) now.
    fn enqueue(&mut self, req: &Request, flush: bool) -> MqResult<u64> {
        if self.broken {
            return Err(MqError::new(
                Reason::ConnectionBroken,
                "the connection to the queue manager is broken; reconnect",
            ));
        }
        let outbox = self.outbox.clone();
        let mut w = outbox.lock();
        let was_empty = w.buf.is_empty();
        let id = self.core.encode(req, &mut w.buf)?;
        if flush || w.buf.len() >= FLUSH_AT {
            if let Err(e) = w.flush() {
                self.broken = true;
                return Err(e);
            }
        } else if was_empty {
            flush_soon(&outbox);
        }
        Ok(id)
    }

    /// Sends a request and waits for its response. A failed status becomes `Err`.
    fn call(&mut self, req: &Request) -> MqResult<Reply> {
        ok_reply(self.call_status(req)?)
    }

    fn call_status(&mut self, req: &Request) -> MqResult<(Status, Reply)> {
        let id = self.enqueue(req, true)?;
        let timeout = match req {
            Request::Get { options, .. } if options.wait_ms == u32::MAX => None,
            Request::Get { options, .. } => {
                Some(self.core.answer_timeout() + Duration::from_millis(options.wait_ms as u64))
            }
            _ => Some(self.core.answer_timeout()),
        };
        let f = self.next_frame(timeout)?;
        if f.header.request_id != id {
            return Err(self.fail(format!(
                "response to request {} arrived while waiting for {id}",
                f.header.request_id
            )));
        }
        decode_response(req.opcode() as u8, f.payload).map_err(|e| self.fail(e))
    }

    /// The next response frame. Heartbeats and read-ahead pushes are filed on the way.
    fn next_frame(&mut self, timeout: Option<Duration>) -> MqResult<Frame> {
        if let Some(f) = self.ready.take() {
            return Ok(f);
        }
        loop {
            if let Some(f) = self.take_frame()? {
                if f.header.flags & FLAG_PUSH == 0 {
                    return Ok(f);
                }
                self.core.file_push(f).map_err(|e| self.fail(e))?;
                continue;
            }
            if !self.fill(Fill::Within(timeout))? {
                return Err(self.fail("the queue manager stopped answering (no heartbeat)"));
            }
        }
    }

    /// The next complete frame in the read buffer, decompressed.
    fn take_frame(&mut self) -> MqResult<Option<Frame>> {
        match decode_frame(&mut self.rbuf, DEFAULT_MAX_FRAME) {
            Ok(Some(f)) => self.core.decompress(f).map(Some).map_err(|e| self.fail(e)),
            Ok(None) => Ok(None),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Reads more bytes into the read buffer. Returns false if none arrived in time (which is
    /// not an error of the connection: the caller decides what silence means).
    fn fill(&mut self, how: Fill) -> MqResult<bool> {
        loop {
            // None: a signal (a debugger attaching, a timer) interrupted the read; read again.
            if let Some(got) = self.fill_once(how)? {
                return Ok(got);
            }
        }
    }

    fn fill_once(&mut self, how: Fill) -> MqResult<Option<bool>> {
        let r = match how {
            Fill::Now => self.reader.read_now(&mut self.scratch),
            Fill::Within(t) => self.wait_read(t, false)?,
            Fill::AtMost(t) => self.wait_read(Some(t), true)?,
        };
        match r {
            Ok(0) => Err(self.fail("the queue manager closed the connection")),
            Ok(n) => {
                self.rbuf.extend_from_slice(&self.scratch[..n]);
                Ok(Some(true))
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(Some(false))
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(None),
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Writes what is buffered, then reads with the socket's timeout at `t` (or, `early_ok`,
    /// between half of `t` and `t`), setting it only when it must change.
    fn wait_read(
        &mut self,
        t: Option<Duration>,
        early_ok: bool,
    ) -> MqResult<std::io::Result<usize>> {
        // Anything still buffered (async puts, stream credit) goes out before we wait: the
        // answer we wait for may depend on it.
        if let Err(e) = self.outbox.lock().flush() {
            self.broken = true;
            return Err(e);
        }
        let t = t.map(|d| d.max(Duration::from_micros(1)));
        let keep = match (self.read_timeout_set, t) {
            (Some(set), t) if set == t => true,
            (Some(Some(set)), Some(t)) => early_ok && set <= t && set >= t / 2,
            _ => false,
        };
        if !keep {
            self.reader.set_read_timeout(t).map_err(broken)?;
            self.read_timeout_set = Some(t);
        }
        Ok(self.reader.read(&mut self.scratch))
    }

    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let reply = self.call(&ConvCore::open_request(od, opts))?;
        let (h, credit) = self.core.on_opened(reply)?;
        if let Some(c) = credit {
            self.enqueue(&c, true)?;
        }
        Ok(h)
    }

    /// Whether puts "as queue default" through this handle are asynchronous.
    pub fn async_default(&self, h: Hobj) -> bool {
        self.core.async_default(h)
    }

    pub fn subscribe(
        &mut self,
        sd: &ferry_model::SubDescriptor,
        queue: Option<Hobj>,
    ) -> MqResult<(Hobj, Hobj)> {
        let reply = self.call(&ConvCore::subscribe_request(sd, queue))?;
        let (handles, credit) = self.core.on_subscribed(reply)?;
        if let Some(c) = credit {
            self.enqueue(&c, true)?;
        }
        Ok(handles)
    }

    pub fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        let reply = self.call(&Request::SubRequest { hsub: hsub.0 })?;
        ConvCore::on_sub_requested(reply)
    }

    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        self.core.queue_name(h)
    }

    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        self.core.check_quiesce(h, opts)?;
        let (report, close) = self.core.close_requests(h, opts);
        if let Some(r) = report {
            self.enqueue(&r, false)?;
        }
        self.call(&close)?;
        self.core.on_closed(h);
        Ok(())
    }

    fn put_any(
        &mut self,
        target: PutTarget,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let p = self.core.prepare_put(target, msg, opts);
        match p.async_outcome {
            Some(out) => {
                self.enqueue(&p.request, false)?;
                Ok(out)
            }
            None => ConvCore::put_result(self.call_status(&p.request)?),
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
        if self.core.is_read_ahead(h) {
            return self.get_read_ahead(h, opts);
        }
        let (status, reply) = self.call_status(&ConvCore::get_request(h, opts))?;
        got_of(status, reply)
    }

    /// A batch get ([`crate::Connection::get_many`]): one request, its messages answered in
    /// a response frame each, every one but the last marked `FLAG_MORE`.
    pub fn get_many(&mut self, h: Hobj, opts: &GetOptions, max: usize) -> MqResult<Vec<Got>> {
        if max <= 1 || self.core.is_read_ahead(h) {
            return self.get(h, opts).map(|g| vec![g]);
        }
        let mut req = ConvCore::get_request(h, opts);
        let Request::Get { options, .. } = &mut req else {
            unreachable!("get_request makes a Get")
        };
        options.more = (max - 1).min(crate::MAX_GET_MANY - 1) as u32;
        let timeout = match options.wait_ms {
            u32::MAX => None,
            ms => Some(self.core.answer_timeout() + Duration::from_millis(ms as u64)),
        };
        let id = self.enqueue(&req, true)?;
        let mut got = Vec::new();
        loop {
            let f = self.next_frame(timeout)?;
            if f.header.request_id != id {
                return Err(self.fail(format!(
                    "response to request {} arrived while waiting for {id}",
                    f.header.request_id
                )));
            }
            let more = f.header.flags & FLAG_MORE != 0;
            let answer = decode_response(Opcode::Get as u8, f.payload).map_err(|e| self.fail(e))?;
            match got_of(answer.0, answer.1) {
                Ok(g) => got.push(g),
                // Only the first answer may fail (a later failing get ends the batch unsent).
                Err(e) if got.is_empty() && !more => return Err(e),
                Err(e) => return Err(self.fail(format!("a batch get's answer failed: {e}"))),
            }
            if !more {
                return Ok(got);
            }
        }
    }

    /// A get served from the read-ahead buffer, refilled by the server's pushes.
    fn get_read_ahead(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let mut plan = ReadAheadGet::new(opts)?;
        loop {
            while let Some(f) = self.take_frame()? {
                if f.header.flags & FLAG_PUSH == 0 {
                    return Err(self.fail("an unexpected response arrived between calls"));
                }
                self.core.file_push(f).map_err(|e| self.fail(e))?;
            }
            match plan.step(&mut self.core, h) {
                ReadAheadStep::Deliver(item, credit) => {
                    if let Some(c) = credit {
                        self.enqueue(&c, false)?;
                    }
                    return item;
                }
                ReadAheadStep::Report(r) => {
                    self.enqueue(&r, true)?;
                    self.fill(Fill::Now)?;
                }
                ReadAheadStep::Probe => {
                    let answer = self.call_status(&plan.probe_request(h))?;
                    if let Some(r) = ReadAheadGet::probe_result(&mut self.core, h, answer) {
                        return r;
                    }
                }
                ReadAheadStep::NoMessage(e) => return Err(e),
                ReadAheadStep::WaitUntil(until) => {
                    let left = until.saturating_duration_since(Instant::now());
                    self.fill(Fill::AtMost(left.max(Duration::from_micros(100))))?;
                }
            }
        }
    }

    pub fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        ConvCore::inquire_result(self.call(&ConvCore::inquire_request(h, selectors))?)
    }

    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        self.call(&ConvCore::set_request(h, values)?).map(|_| ())
    }

    pub fn commit(&mut self) -> MqResult<()> {
        self.call(&Request::Commit).map(|_| ())
    }

    pub fn backout(&mut self) -> MqResult<()> {
        self.call(&Request::Backout).map(|_| ())
    }

    pub fn status(&mut self) -> MqResult<AsyncPutStatus> {
        ConvCore::status_result(self.call(&Request::Status)?)
    }

    /// A channel request (the sending end of a message channel); the reply as it came.
    pub fn channel_call(&mut self, req: &Request) -> MqResult<ferry_proto::Reply> {
        self.call(req)
    }

    /// Whether the next response has arrived, read without waiting (it stays to be taken).
    pub fn response_ready(&mut self) -> MqResult<bool> {
        loop {
            if self.ready.is_some() {
                return Ok(true);
            }
            if let Some(f) = self.take_frame()? {
                if f.header.flags & FLAG_PUSH == 0 {
                    self.ready = Some(f);
                    return Ok(true);
                }
                self.core.file_push(f).map_err(|e| self.fail(e))?;
                continue;
            }
            if !self.fill(Fill::Now)? {
                return Ok(false);
            }
        }
    }

    /// Sends a channel request without waiting for its answer on lane `lane` of a QUIC
    /// connection (0, or any other transport: the connection's own stream, as
    /// a request without waiting); its request id. Its answer comes on the first stream, in
    /// the order the receiver took the requests.
    pub fn channel_send_lane(&mut self, req: &Request, lane: usize) -> MqResult<u64> {
        let Stream::Quic(q) = &self.reader else {
            return self.enqueue(req, true);
        };
        if lane == 0 || self.broken {
            return self.enqueue(req, true);
        }
        let mut frame = BytesMut::new();
        let id = self.core.encode(req, &mut frame)?;
        let written = q.write_lane(lane, &frame);
        written.map_err(|e| self.fail(e))?;
        Ok(id)
    }

    /// The next answer to a channel request, whichever it answers: (its request id, the
    /// reply). A refusal is `Err`.
    pub fn channel_next_answer(&mut self, opcode: u8) -> MqResult<(u64, ferry_proto::Reply)> {
        let f = self.next_frame(Some(self.core.answer_timeout()))?;
        let id = f.header.request_id;
        let reply = decode_response(opcode, f.payload).map_err(|e| self.fail(e))?;
        Ok((id, ok_reply(reply)?))
    }

    /// Runs administrative commands on the server; returns the answer (JSON), gathered from
    /// as many parts as it came in.
    pub fn admin(&mut self, script: &str) -> MqResult<Vec<u8>> {
        let mut out = Vec::new();
        let mut req = Request::Admin {
            script: script.to_owned(),
        };
        loop {
            match self.call(&req)? {
                ferry_proto::Reply::Admin { data, more } => {
                    out.extend_from_slice(&data);
                    if !more {
                        return Ok(out);
                    }
                    req = Request::AdminMore;
                }
                other => {
                    return Err(self.fail(format!(
                        "unexpected answer to an administrative request: {other:?}"
                    )))
                }
            }
        }
    }

    pub fn disconnect(mut self) -> MqResult<()> {
        for r in self.core.final_reports() {
            self.enqueue(&r, false)?;
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
