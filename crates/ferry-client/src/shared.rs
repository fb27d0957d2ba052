//! Blocking conversations sharing one socket (MQ's SHARECNV), for connections whose
//! [`ClientOptions::share_conversations`] is above one.
//!
//! A process keeps, for each endpoint (and TLS identity and server-connection channel), the
//! sockets its blocking connections share; a new connection starts its conversation on one
//! that carries fewer than it allows, or dials a new one. On the socket:
//!
//! - **reading** is one thread's ([`read_loop`], `ferry-sharecnv`): it cuts the bytes into
//!   frames and appends each to the pipe of the conversation its header names (heartbeats, which
//!   name none, to every pipe), waking that conversation's thread. Each conversation reads its
//!   pipe as it would read a socket of its own ([`ConvStream`]), so `remote.rs` drives it
//!   unchanged: read timeouts, read-ahead pushes, decompression and all;
//! - **writing** is combined ([`Link::send`]): a conversation appends its frames to the socket's
//!   buffer, and the thread that finds no write in progress writes the buffer, again and again
//!   until it is empty — so conversations that write while another writes leave together, in
//!   one system call, and the queue manager reads them in one and answers them in one.
//!
//! Invariants: a conversation id is used once on a socket (ids only grow); the socket's buffer
//! of frames not yet written holds at most [`MAX_PENDING`] while a write is in progress (a
//! conversation waits for room); a pipe's bytes are whole frames in the order the queue manager
//! sent them; when the socket fails, every pipe ends with the reason and later writes fail.
//! The socket closes when its last conversation goes.

use std::collections::HashMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use bytes::BytesMut;
use ferry_model::{MqError, MqResult, Reason};

use crate::remote::Remote;
use crate::stream::{write_fully, Stream};
use crate::{ClientOptions, Endpoint};

/// The most conversations one socket carries, whatever the options ask (the server's default
/// `max_conversations`, and MQ's default SHARECNV).
pub const MAX_SHARE: u32 = 10;
/// Frames waiting for the write in progress, at most (a conversation waits for room).
const MAX_PENDING: usize = 4 << 20;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts a conversation for `app_name` on a shared socket to `endpoint` (unix, tcp or tls).
pub(crate) fn connect(
    endpoint: &Endpoint,
    app_name: &str,
    opts: &ClientOptions,
) -> MqResult<Remote> {
    let per = opts.share_conversations.min(MAX_SHARE) as usize;
    let key = format!("{endpoint:?}|{:?}|{:?}", opts.tls, opts.svrconn);
    let mut fresh_only = false;
    loop {
        let (link, fresh) = pick_or_dial(&key, endpoint, opts, per, fresh_only)?;
        let Some(slot) = ConvSlot::take(&link, per) else {
            continue;
        };
        let (conv, max_frame) = (slot.conv, link.max_frame);
        match Remote::start(
            Stream::Shared(ConvStream::new(slot)),
            conv,
            max_frame,
            app_name,
            opts,
        ) {
            // The queue manager allows this socket fewer conversations than asked: it is full
            // (2025 also says "too many connecting at once, try later": that is returned).
            Err(e)
                if e.reason == Reason::MaxConnsLimitReached
                    && !fresh
                    && e.detail.contains("already carries") =>
            {
                link.full.store(true, Ordering::Release);
                fresh_only = true;
            }
            r => return r,
        }
    }
}

/// The sockets of this process, by endpoint, that conversations may share.
fn pool() -> &'static Mutex<HashMap<String, Vec<Weak<Link>>>> {
    static POOL: OnceLock<Mutex<HashMap<String, Vec<Weak<Link>>>>> = OnceLock::new();
    POOL.get_or_init(Default::default)
}

/// A socket with room for one more conversation (and whether it was dialled for it).
fn pick_or_dial(
    key: &str,
    endpoint: &Endpoint,
    opts: &ClientOptions,
    per: usize,
    fresh_only: bool,
) -> MqResult<(Arc<Link>, bool)> {
    if !fresh_only {
        let mut pool = lock(pool());
        let links = pool.entry(key.to_owned()).or_default();
        links.retain(|w| w.strong_count() > 0);
        if let Some(l) = links
            .iter()
            .filter_map(Weak::upgrade)
            .find(|l| l.has_room(per))
        {
            return Ok((l, false));
        }
    }
    let link = Link::dial(endpoint, opts)?;
    lock(pool())
        .entry(key.to_owned())
        .or_default()
        .push(Arc::downgrade(&link));
    Ok((link, true))
}

/// One shared socket: its writing side, the conversations' pipes its reading thread fills.
pub(crate) struct Link {
    tx: Mutex<Tx>,
    /// Signalled when the write in progress has taken the buffer (room for more).
    room: Condvar,
    /// The socket's writing half, used by the conversation whose turn it is to write.
    wr: Mutex<Stream>,
    routes: Arc<Routes>,
    /// The largest frame the queue manager accepts.
    max_frame: usize,
    next_conv: AtomicU16,
    convs: AtomicUsize,
    /// The queue manager refused another conversation on it.
    full: AtomicBool,
}

#[derive(Default)]
struct Tx {
    buf: BytesMut,
    writing: bool,
    failed: Option<String>,
    /// Conversations waiting for room in `buf` (only then is `room` signalled).
    waiting: usize,
}

impl Link {
    /// Opens a socket, exchanges preambles and starts its reading thread.
    fn dial(endpoint: &Endpoint, opts: &ClientOptions) -> MqResult<Arc<Link>> {
        let mut stream = match endpoint {
            Endpoint::Unix(path) => Stream::Unix(crate::remote::connect_unix(path)?),
            Endpoint::Tcp(addr) => Stream::Tcp(crate::stream::connect_tcp(addr)?),
            Endpoint::Tls(addr) => crate::stream::connect_tls(addr, opts)?,
            _ => {
                return Err(MqError::new(
                    Reason::OptionsError,
                    "only unix, tcp and tls connections share sockets",
                ))
            }
        };
        let max_frame = crate::remote::preamble(&mut stream)?;
        stream.set_read_timeout(None).map_err(crate::conv::broken)?;
        let rd = stream.try_clone().map_err(crate::conv::broken)?;
        let routes = Arc::new(Routes::default());
        let link = Arc::new(Link {
            tx: Mutex::new(Tx::default()),
            room: Condvar::new(),
            wr: Mutex::new(stream),
            routes: routes.clone(),
            max_frame,
            // 1 is where a socket of its own starts; shared sockets count on from there.
            next_conv: AtomicU16::new(1),
            convs: AtomicUsize::new(0),
            full: AtomicBool::new(false),
        });
        std::thread::Builder::new()
            .name("ferry-sharecnv".into())
            .spawn(move || read_loop(rd, &routes, max_frame))
            .map_err(|e| {
                MqError::new(
                    Reason::UnexpectedError,
                    format!("cannot start a shared socket's reading thread: {e}"),
                )
            })?;
        Ok(link)
    }

    fn has_room(&self, per: usize) -> bool {
        self.convs.load(Ordering::Acquire) < per
            && !self.full.load(Ordering::Acquire)
            && lock(&self.routes.ended).is_none()
            && lock(&self.tx).failed.is_none()
    }

    /// Writes `data` (whole frames) to the socket, or leaves it to the write in progress,
    /// which takes it before it ends.
    fn send(&self, data: &[u8]) -> io::Result<()> {
        let mut tx = lock(&self.tx);
        while tx.writing && tx.buf.len() >= MAX_PENDING && tx.failed.is_none() {
            tx.waiting += 1;
            tx = self.room.wait(tx).unwrap_or_else(|p| p.into_inner());
            tx.waiting -= 1;
        }
        if let Some(e) = &tx.failed {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, e.clone()));
        }
        tx.buf.extend_from_slice(data);
        if tx.writing {
            return Ok(());
        }
        tx.writing = true;
        loop {
            let chunk = tx.buf.split();
            let waiting = tx.waiting > 0;
            drop(tx);
            if waiting {
                self.room.notify_all();
            }
            let r = write_fully(&mut *lock(&self.wr), &chunk);
            tx = lock(&self.tx);
            if let Err(e) = r {
                tx.failed = Some(format!("writing to the shared socket failed: {e}"));
                tx.writing = false;
                drop(tx);
                self.room.notify_all();
                // The reading thread then ends every conversation's pipe.
                lock(&self.wr).shutdown();
                return Err(e);
            }
            if tx.buf.is_empty() {
                tx.writing = false;
                return Ok(());
            }
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // The last conversation is gone: the reading thread sees the end and stops.
        lock(&self.wr).shutdown();
    }
}

/// The conversations' pipes by id, and why the socket ended (once it has).
#[derive(Default)]
struct Routes {
    pipes: Mutex<HashMap<u16, Arc<Pipe>>>,
    ended: Mutex<Option<String>>,
}

/// What the reading thread has cut out for one conversation.
#[derive(Default)]
struct Pipe {
    state: Mutex<PipeState>,
    ready: Condvar,
}

#[derive(Default)]
struct PipeState {
    bytes: BytesMut,
    /// The socket ended: reads past the bytes get this (`None` while it is open).
    ended: Option<String>,
}

impl Pipe {
    fn push(&self, frame: &[u8]) {
        lock(&self.state).bytes.extend_from_slice(frame);
    }

    fn end(&self, why: &str) {
        lock(&self.state).ended = Some(why.to_owned());
        self.ready.notify_all();
    }
}

/// The reading thread: frames to their conversations' pipes until the socket ends.
fn read_loop(mut rd: Stream, routes: &Routes, max_frame: usize) {
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let mut scratch = vec![0u8; 64 * 1024];
    let why = loop {
        match rd.read(&mut scratch) {
            Ok(0) => break "the queue manager closed the connection".to_owned(),
            Ok(n) => buf.extend_from_slice(&scratch[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => break e.to_string(),
        }
        if let Err(why) = route(&mut buf, routes, max_frame) {
            break why;
        }
    };
    *lock(&routes.ended) = Some(why.clone());
    for p in lock(&routes.pipes).values() {
        p.end(&why);
    }
}

/// Moves every whole frame in `buf` to its conversation's pipe and wakes those that got one.
fn route(buf: &mut BytesMut, routes: &Routes, max_frame: usize) -> Result<(), String> {
    let pipes = lock(&routes.pipes);
    let mut woken: Vec<&Arc<Pipe>> = Vec::new();
    while let Some(len) = ferry_proto::frame::pending_frame_len(buf) {
        if len < ferry_proto::HEADER_LEN || len > max_frame {
            return Err(format!("the queue manager sent a frame of {len} bytes"));
        }
        if buf.len() < len {
            break;
        }
        let frame = buf.split_to(len);
        let conv = u16::from_le_bytes([frame[6], frame[7]]);
        // A heartbeat names no conversation: each of them sees the socket alive.
        let to: Vec<&Arc<Pipe>> = match conv {
            0 => pipes.values().collect(),
            c => pipes.get(&c).into_iter().collect(),
        };
        for p in to {
            p.push(&frame);
            if !woken.iter().any(|w| Arc::ptr_eq(w, p)) {
                woken.push(p);
            }
        }
    }
    for p in woken {
        p.ready.notify_one();
    }
    Ok(())
}

/// One conversation's place on a socket: its id and pipe; leaving it frees the place.
struct ConvSlot {
    link: Arc<Link>,
    conv: u16,
    pipe: Arc<Pipe>,
}

impl ConvSlot {
    /// A new conversation id and pipe on `link`, if it still has room for one.
    fn take(link: &Arc<Link>, per: usize) -> Option<Arc<ConvSlot>> {
        let n = link.convs.fetch_add(1, Ordering::AcqRel);
        let conv = link.next_conv.fetch_add(1, Ordering::AcqRel);
        if n >= per || conv == u16::MAX {
            link.convs.fetch_sub(1, Ordering::AcqRel);
            link.full.store(true, Ordering::Release);
            return None;
        }
        let pipe = Arc::new(Pipe::default());
        lock(&link.routes.pipes).insert(conv, pipe.clone());
        if let Some(why) = lock(&link.routes.ended).as_deref() {
            pipe.end(why);
        }
        Some(Arc::new(ConvSlot {
            link: link.clone(),
            conv,
            pipe,
        }))
    }
}

impl Drop for ConvSlot {
    fn drop(&mut self) {
        lock(&self.link.routes.pipes).remove(&self.conv);
        self.link.convs.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A conversation's view of its shared socket, read and written as a socket of its own.
#[derive(Clone)]
pub(crate) struct ConvStream {
    slot: Arc<ConvSlot>,
    timeout: Option<Duration>,
}

impl std::fmt::Debug for ConvStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConvStream")
            .field("conv", &self.slot.conv)
            .finish()
    }
}

impl ConvStream {
    fn new(slot: Arc<ConvSlot>) -> ConvStream {
        ConvStream {
            slot,
            timeout: None,
        }
    }

    pub(crate) fn set_read_timeout(&mut self, d: Option<Duration>) {
        self.timeout = d;
    }

    /// Reads what the pipe holds; waits for it only when `wait` (up to the read timeout).
    pub(crate) fn read_from_pipe(&mut self, buf: &mut [u8], wait: bool) -> io::Result<usize> {
        let pipe = &self.slot.pipe;
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let mut st = lock(&pipe.state);
        loop {
            if !st.bytes.is_empty() {
                let n = buf.len().min(st.bytes.len());
                buf[..n].copy_from_slice(&st.bytes[..n]);
                bytes::Buf::advance(&mut st.bytes, n);
                return Ok(n);
            }
            if let Some(why) = &st.ended {
                return Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    why.clone(),
                ));
            }
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            st = match left {
                _ if !wait => return Err(io::ErrorKind::WouldBlock.into()),
                Some(Duration::ZERO) => return Err(io::ErrorKind::TimedOut.into()),
                Some(l) => pipe
                    .ready
                    .wait_timeout(st, l)
                    .map_or_else(|p| p.into_inner().0, |r| r.0),
                None => pipe.ready.wait(st).unwrap_or_else(|p| p.into_inner()),
            };
        }
    }

    pub(crate) fn send(&self, buf: &[u8]) -> io::Result<usize> {
        self.slot.link.send(buf).map(|()| buf.len())
    }
}
