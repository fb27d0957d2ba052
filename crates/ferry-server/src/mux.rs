//! Many byte streams over one local connection: how MQTT front-end processes hand their clients'
//! connections to the queue manager (`front_end.rs`), a few links each, so that the clients'
//! sockets are the front ends' file descriptors and not the queue manager's.
//!
//! ## Frames
//!
//! `[stream id: u32][kind: u8][length: u32][payload]`, big-endian:
//! - `OPEN` (front end → queue manager): a new stream; the payload says who the client is
//!   (`front_end.rs`: the listener, its address and any client certificate).
//! - `DATA`: bytes of the stream, at most [`MAX_DATA`].
//! - `CREDIT`: the payload is a `u32`, bytes of `DATA` the sender has consumed and may be sent
//!   again.
//! - `CLOSE`: the stream ended (either side; the other closes its end too).
//!
//! ## Invariants
//!
//! - Flow control is per stream and per direction: a side sends at most its window of `DATA`
//!   not yet given back by `CREDIT` — [`WINDOW`] at first. So a stream whose reader is slow
//!   holds up only itself, and the link's reader never waits for a stream.
//! - A busy stream's window grows: when its reader has taken half its window within
//!   [`GROW_WITHIN`] of the last time, the receiving side doubles it (gives that much more
//!   credit), up to [`MAX_WINDOW`], while the link's budget of [`LINK_EXTRA`] bytes beyond the
//!   first windows lasts; a stream gives its growth back when it closes. (One subscriber of
//!   13,000 messages a second is 3.5 MB/s: 64 KiB is 18 ms of it, and a credit's round trip
//!   through two busy processes takes longer.) What a side of a link buffers is so bounded by
//!   `WINDOW` times its streams (those by the front end's and the queue manager's client
//!   limits) plus `LINK_EXTRA`.
//! - A stream's id is chosen by the side that opens it and is not reused while it is open.
//! - A link that ends (EOF or a bad frame) ends every stream on it: their reads see the end,
//!   their writes fail.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::mpsc;

/// Bytes of `DATA` in flight per stream and direction, at first.
pub(crate) const WINDOW: usize = 64 << 10;
/// The most a stream's window grows to.
pub(crate) const MAX_WINDOW: usize = 2 << 20;
/// Bytes of window a side of a link may grant beyond its streams' first windows, in all.
pub(crate) const LINK_EXTRA: usize = 16 << 20;
/// A stream whose reader takes half its window within this of the last time gets a larger one.
pub(crate) const GROW_WITHIN: std::time::Duration = std::time::Duration::from_millis(50);
/// The largest `DATA` frame.
pub(crate) const MAX_DATA: usize = 16 << 10;
const HEADER: usize = 9;
/// The largest frame of any kind (an `OPEN`'s payload, with a client certificate, at most
/// [`MAX_DATA`] too).
const MAX_FRAME: usize = MAX_DATA + 256;

const OPEN: u8 = 1;
const DATA: u8 = 2;
const CREDIT: u8 = 3;
const CLOSE: u8 = 4;

/// One decoded frame.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    pub(crate) id: u32,
    pub(crate) kind: u8,
    pub(crate) payload: Bytes,
}

/// Encodes a frame.
fn frame(id: u32, kind: u8, payload: &[u8]) -> Bytes {
    debug_assert!(payload.len() <= MAX_FRAME);
    let mut b = BytesMut::with_capacity(HEADER + payload.len());
    b.put_u32(id);
    b.put_u8(kind);
    b.put_u32(payload.len() as u32);
    b.put_slice(payload);
    b.freeze()
}

/// The next whole frame in `buf`, taken off it; an error for a frame no link sends.
pub(crate) fn decode(buf: &mut BytesMut) -> io::Result<Option<Frame>> {
    if buf.len() < HEADER {
        return Ok(None);
    }
    let len = u32::from_be_bytes([buf[5], buf[6], buf[7], buf[8]]) as usize;
    let kind = buf[4];
    if len > MAX_FRAME || !(OPEN..=CLOSE).contains(&kind) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a bad link frame: kind {kind}, {len} bytes"),
        ));
    }
    if buf.len() < HEADER + len {
        return Ok(None);
    }
    let id = buf.get_u32();
    buf.advance(5);
    let payload = buf.split_to(len).freeze();
    Ok(Some(Frame { id, kind, payload }))
}

/// A stream's state, shared by its handle and its link's reader.
#[derive(Default)]
struct State {
    /// `DATA` received and not yet read.
    inbox: VecDeque<Bytes>,
    reader: Option<Waker>,
    /// Bytes this side may still send.
    credit: usize,
    writer: Option<Waker>,
    /// Bytes read since the last `CREDIT` sent.
    consumed: usize,
    /// Bytes in `inbox`.
    held: usize,
    /// The window this side grants the other: [`WINDOW`], more once grown.
    window: usize,
    /// When this side last sent `CREDIT`.
    credited_at: Option<std::time::Instant>,
    /// The other side closed it, or the link ended.
    ended: bool,
}

impl State {
    fn wake(&mut self) {
        for w in [self.reader.take(), self.writer.take()]
            .into_iter()
            .flatten()
        {
            w.wake();
        }
    }
}

/// One side of a link: its streams and its frames to send.
pub(crate) struct Link {
    out: mpsc::UnboundedSender<Bytes>,
    streams: Mutex<HashMap<u32, Arc<Mutex<State>>>>,
    /// Window granted beyond [`WINDOW`] over all streams, at most [`LINK_EXTRA`].
    extra: std::sync::atomic::AtomicUsize,
    /// Set when the link has ended.
    gone: std::sync::atomic::AtomicBool,
}

impl Link {
    /// Starts a link over `socket`: a task writing its frames and one reading them. Streams the
    /// other side opens are sent to `opened` with their `OPEN` payload (the queue manager's
    /// side); without it they are refused (the front end's).
    pub(crate) fn start(
        socket: tokio::net::UnixStream,
        opened: Option<mpsc::UnboundedSender<(Stream, Bytes)>>,
    ) -> Arc<Link> {
        let (rd, wr) = socket.into_split();
        let (out, frames) = mpsc::unbounded_channel();
        let link = Arc::new(Link {
            out,
            streams: Mutex::new(HashMap::new()),
            extra: Default::default(),
            gone: Default::default(),
        });
        tokio::spawn(write_frames(wr, frames));
        tokio::spawn(read_frames(rd, link.clone(), opened));
        link
    }

    /// Opens stream `id` for a client `about` whom the payload says (the front end's side;
    /// at most [`MAX_DATA`] bytes).
    pub(crate) fn open(self: &Arc<Self>, id: u32, about: &[u8]) -> Stream {
        debug_assert!(about.len() <= MAX_DATA, "an OPEN's payload fits a frame");
        let s = self.add(id);
        let _ = self.out.send(frame(id, OPEN, about));
        s
    }

    /// Whether the link has ended.
    pub(crate) fn ended(&self) -> bool {
        self.gone.load(std::sync::atomic::Ordering::Acquire)
    }

    fn add(self: &Arc<Self>, id: u32) -> Stream {
        let state = Arc::new(Mutex::new(State {
            credit: WINDOW,
            window: WINDOW,
            ..Default::default()
        }));
        self.streams.lock().insert(id, state.clone());
        Stream {
            id,
            state,
            link: self.clone(),
            closed: false,
        }
    }

    /// Applies one received frame; `Some` for a stream the other side opened.
    fn receive(self: &Arc<Self>, f: Frame) -> io::Result<Option<(Stream, Bytes)>> {
        if f.kind == OPEN {
            return Ok(Some((self.add(f.id), f.payload)));
        }
        let Some(state) = self.streams.lock().get(&f.id).cloned() else {
            // A stream this side has closed: what was in flight is dropped.
            return Ok(None);
        };
        let mut st = state.lock();
        match f.kind {
            DATA => {
                if st.held + f.payload.len() > st.window {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a stream sent more than its window",
                    ));
                }
                st.held += f.payload.len();
                st.inbox.push_back(f.payload);
                if let Some(w) = st.reader.take() {
                    w.wake();
                }
            }
            CREDIT if f.payload.len() == 4 => {
                let n =
                    u32::from_be_bytes([f.payload[0], f.payload[1], f.payload[2], f.payload[3]]);
                st.credit = (st.credit + n as usize).min(MAX_WINDOW);
                if let Some(w) = st.writer.take() {
                    w.wake();
                }
            }
            CLOSE => {
                st.ended = true;
                st.wake();
            }
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "a bad CREDIT frame",
                ))
            }
        }
        Ok(None)
    }

    /// The link ended: so does every stream on it.
    fn end_all(&self) {
        self.gone.store(true, std::sync::atomic::Ordering::Release);
        for (_, s) in self.streams.lock().drain() {
            let mut st = s.lock();
            st.ended = true;
            st.wake();
        }
    }
}

/// Writes the link's frames as they come, gathered into one write when several wait.
async fn write_frames(
    mut wr: tokio::net::unix::OwnedWriteHalf,
    mut frames: mpsc::UnboundedReceiver<Bytes>,
) {
    let mut batch = Vec::with_capacity(64);
    let mut buf = BytesMut::new();
    while frames.recv_many(&mut batch, 64).await > 0 {
        // Let the other ready tasks (the rest of the clients) run before writing, so that
        // their frames go in the same write: a write a scheduler pass, not a write a frame.
        tokio::task::yield_now().await;
        while batch.len() < 256 {
            match frames.try_recv() {
                Ok(f) => batch.push(f),
                Err(_) => break,
            }
        }
        for f in batch.drain(..) {
            buf.extend_from_slice(&f);
        }
        if wr.write_all(&buf).await.is_err() {
            break;
        }
        buf.clear();
        if buf.capacity() > 1 << 20 {
            buf = BytesMut::new();
        }
    }
}

/// Reads the link's frames and applies them until it ends.
async fn read_frames(
    mut rd: tokio::net::unix::OwnedReadHalf,
    link: Arc<Link>,
    opened: Option<mpsc::UnboundedSender<(Stream, Bytes)>>,
) {
    let mut buf = BytesMut::with_capacity(64 << 10);
    loop {
        match decode(&mut buf).and_then(|f| f.map(|f| link.receive(f)).transpose()) {
            // A stream nobody takes is closed as it drops.
            Ok(Some(Some(s))) => drop(opened.as_ref().map(|o| o.send(s))),
            Ok(Some(None)) => {}
            Ok(None) => {
                buf.reserve(MAX_FRAME);
                match rd.read_buf(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "MQTT front-end link closed: a bad frame");
                break;
            }
        }
    }
    link.end_all();
}

/// One stream of a link: a byte stream to read and write as a socket.
pub(crate) struct Stream {
    id: u32,
    state: Arc<Mutex<State>>,
    link: Arc<Link>,
    closed: bool,
}

impl Stream {
    /// The next bytes received, without copying them; `None` at the end.
    pub(crate) async fn next_chunk(&self) -> Option<Bytes> {
        std::future::poll_fn(|cx| {
            let mut st = self.state.lock();
            match st.inbox.pop_front() {
                Some(b) => {
                    self.consumed(&mut st, b.len());
                    Poll::Ready(Some(b))
                }
                None if st.ended => Poll::Ready(None),
                None => {
                    st.reader = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
        .await
    }

    /// Sends `data`, waiting for credit as needed; an error once the stream has ended.
    pub(crate) async fn send(&self, mut data: &[u8]) -> io::Result<()> {
        while !data.is_empty() {
            let n = std::future::poll_fn(|cx| self.poll_send(cx, data)).await?;
            data = &data[n..];
        }
        Ok(())
    }

    /// Counts `n` bytes read, and gives them back as credit once half the window is owed
    /// (with more, when the stream is busy: [`Stream::grow`]).
    fn consumed(&self, st: &mut State, n: usize) {
        debug_assert!(st.held >= n);
        st.held -= n;
        st.consumed += n;
        if st.consumed >= st.window / 2 {
            let back = (std::mem::take(&mut st.consumed) + self.grow(st)) as u32;
            let _ = self
                .link
                .out
                .send(frame(self.id, CREDIT, &back.to_be_bytes()));
        }
    }

    /// How much the window grows now: doubled (up to [`MAX_WINDOW`]) when half of it was read
    /// within [`GROW_WITHIN`] of the last credit, while the link's budget lasts; else 0.
    fn grow(&self, st: &mut State) -> usize {
        use std::sync::atomic::Ordering::{AcqRel, Acquire};
        let now = std::time::Instant::now();
        let busy = st
            .credited_at
            .replace(now)
            .is_some_and(|t| now.duration_since(t) < GROW_WITHIN);
        let more = st.window.min(MAX_WINDOW - st.window);
        if !busy || more == 0 {
            return 0;
        }
        let budget = self.link.extra.fetch_update(AcqRel, Acquire, |e| {
            (e + more <= LINK_EXTRA).then_some(e + more)
        });
        if budget.is_err() {
            return 0;
        }
        st.window += more;
        debug_assert!(st.window <= MAX_WINDOW);
        more
    }

    fn poll_send(&self, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let mut st = self.state.lock();
        if st.ended || self.closed {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        if st.credit == 0 {
            st.writer = Some(cx.waker().clone());
            return Poll::Pending;
        }
        let n = data.len().min(st.credit).min(MAX_DATA);
        st.credit -= n;
        if self
            .link
            .out
            .send(frame(self.id, DATA, &data[..n]))
            .is_err()
        {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        Poll::Ready(Ok(n))
    }

    fn close(&mut self) {
        if !std::mem::replace(&mut self.closed, true) {
            let grown = self.state.lock().window - WINDOW;
            self.link
                .extra
                .fetch_sub(grown, std::sync::atomic::Ordering::AcqRel);
            self.link.streams.lock().remove(&self.id);
            let _ = self.link.out.send(frame(self.id, CLOSE, &[]));
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.close();
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut st = this.state.lock();
        let Some(front) = st.inbox.front_mut() else {
            if !st.ended {
                st.reader = Some(cx.waker().clone());
                return Poll::Pending;
            }
            return Poll::Ready(Ok(()));
        };
        let n = front.len().min(buf.remaining());
        buf.put_slice(&front[..n]);
        front.advance(n);
        if front.is_empty() {
            st.inbox.pop_front();
        }
        this.consumed(&mut st, n);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_send(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().close();
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_decode_whole_and_refuse_bad_ones() {
        let mut b = BytesMut::new();
        b.extend_from_slice(&frame(7, DATA, b"hello"));
        b.extend_from_slice(&frame(9, CLOSE, b""));
        let half = b.split_to(6);
        let mut part = half.clone();
        assert_eq!(decode(&mut part).unwrap(), None);
        let mut all = half;
        all.unsplit(b);
        let f = decode(&mut all).unwrap().unwrap();
        assert_eq!((f.id, f.kind, &f.payload[..]), (7, DATA, &b"hello"[..]));
        let f = decode(&mut all).unwrap().unwrap();
        assert_eq!((f.id, f.kind, f.payload.len()), (9, CLOSE, 0));
        assert!(all.is_empty());
        let mut bad = BytesMut::from(&[0, 0, 0, 1, 9, 0, 0, 0, 0][..]);
        assert!(decode(&mut bad).is_err());
        let mut huge = BytesMut::from(&[0, 0, 0, 1, DATA, 0x7f, 0, 0, 0][..]);
        assert!(decode(&mut huge).is_err());
    }

    #[tokio::test]
    async fn streams_carry_bytes_both_ways_within_their_windows() {
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let front = Link::start(a, None);
        let (opened, mut accepted) = mpsc::unbounded_channel();
        let _qm = Link::start(b, Some(opened));
        let mut client = front.open(1, b"127.0.0.1:5");
        let (mut served, about) = accepted.recv().await.unwrap();
        assert_eq!(&about[..], b"127.0.0.1:5");
        // More than a window each way: credit must come back for it to finish.
        let big = vec![7u8; 3 * WINDOW + 123];
        let sent = big.clone();
        let writer = tokio::spawn(async move {
            client.write_all(&sent).await.unwrap();
            let mut back = vec![0u8; 5];
            client.read_exact(&mut back).await.unwrap();
            back
        });
        let mut got = vec![0u8; big.len()];
        served.read_exact(&mut got).await.unwrap();
        assert_eq!(got, big);
        served.write_all(b"thanks").await.unwrap();
        assert_eq!(writer.await.unwrap(), b"thank");
        drop(served);
        // The other side sees the stream end.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(front.streams.lock().is_empty());
    }

    #[tokio::test]
    async fn a_busy_streams_window_grows_within_the_links_budget_and_is_given_back() {
        use std::sync::atomic::Ordering::Acquire;
        let (a, b) = tokio::net::UnixStream::pair().unwrap();
        let front = Link::start(a, None);
        let (opened, mut accepted) = mpsc::unbounded_channel();
        let qm = Link::start(b, Some(opened));
        let mut client = front.open(1, b"127.0.0.1:6");
        let (mut served, _) = accepted.recv().await.unwrap();
        // 16 MiB read as fast as it comes: half a window read well within GROW_WITHIN, again
        // and again, so the queue manager's side grants more and the sender may use it.
        let total = 16 << 20;
        let writer = tokio::spawn(async move {
            let chunk = vec![1u8; 1 << 20];
            for _ in 0..16 {
                client.write_all(&chunk).await.unwrap();
            }
            let most = client.state.lock().credit;
            (client, most)
        });
        let mut got = vec![0u8; total];
        served.read_exact(&mut got).await.unwrap();
        let (client, _) = writer.await.unwrap();
        let window = served.state.lock().window;
        assert!(window > WINDOW && window <= MAX_WINDOW, "window {window}");
        assert_eq!(qm.extra.load(Acquire), window - WINDOW);
        assert!(client.state.lock().credit <= MAX_WINDOW);
        // Closing the stream gives its growth back to the link.
        drop(served);
        assert_eq!(qm.extra.load(Acquire), 0);
        drop(client);
    }
}
