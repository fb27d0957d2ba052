//! A QUIC connection's streams merged into the one byte stream a connection is served from
//! (`conn::serve`): the first stream (preamble, then frames) and, once a receiver channel has
//! agreed to them, the sender's lanes — unidirectional streams carrying whole frames (fast
//! batches, `ferry_client::quic::LANES`). A packet lost on one stream then holds up only the
//! frames on that stream: the others' frames are served as they complete.
//!
//! Layout of what comes out: the first stream's preamble, then frames, each whole; a frame
//! from a lane is put only between two frames of the first stream, never inside one.
//!
//! Invariants and limits:
//! - The first stream is read in the socket task itself (no hop through another task: its
//!   bytes come as fast as a TCP socket's) and cut at frame boundaries. Until the lanes are
//!   granted (a receiver channel started on the connection, authenticated), frames up to
//!   [`GATHER`] (the frame limit before a Connect: what any client may make the server hold)
//!   are passed on whole and a larger one as it arrives (the frame parser refuses one over the
//!   limit as soon as its length arrives, as on TCP). Once they are granted, every frame up to
//!   the connection's largest is gathered whole: the lanes never wait inside a frame of the
//!   first stream, whose missing bytes might wait for flow-control credit that only reading
//!   the lanes frees.
//! - Each lane has a reader task that passes on whole frames only, so a lane stalled by a
//!   lost packet never leaves half a frame in the way of the others; a frame longer than the
//!   connection's largest fails the connection. A lane's reader holds at most one frame
//!   besides [`QUEUED`] in the lanes' channel: memory is bounded, and a slow server stops
//!   reading, so QUIC's flow control pushes back on the sender.
//! - Lanes are taken in turn with the first stream, so neither starves the other.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use ferry_proto::PREAMBLE_LEN;
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

/// The largest frame the first stream's reader gathers whole.
pub(crate) const GATHER: usize = crate::conn::PRE_CONNECT_MAX_FRAME;
/// Whole frames waiting in the lanes' channel.
const QUEUED: usize = 4;
/// How much a reader asks its stream for at once.
const READ_AT_ONCE: usize = 64 * 1024;

/// A lane's whole frame, or its failure.
type Sent = io::Result<Bytes>;

/// The merged byte stream (see the module head).
#[derive(Debug)]
pub(crate) struct Merged<R> {
    first: R,
    /// The first stream's bytes read and not yet passed on.
    buf: BytesMut,
    /// The preamble is still to be passed on (its length).
    preamble: usize,
    /// Bytes of a frame larger than [`GATHER`] still to pass on as they come.
    passing: usize,
    lanes: mpsc::Receiver<Sent>,
    /// Whether the lanes are granted (then the first stream's frames are gathered whole).
    granted: watch::Receiver<bool>,
    /// The connection's largest frame.
    max_frame: usize,
    /// What is being read out now: a piece of the first stream or a lane's frame.
    current: Bytes,
    /// The first stream's last piece ended inside a frame: only it may come next.
    inside_frame: bool,
    /// Every lane sender is gone (the connection is ending).
    lanes_closed: bool,
    /// Whose turn it is to be looked at first.
    lanes_first: bool,
}

/// Adds lanes to a [`Merged`] stream.
#[derive(Debug, Clone)]
pub(crate) struct Feed {
    tx: mpsc::Sender<Sent>,
    max_frame: usize,
}

impl Feed {
    /// Reads whole frames from `lane` into the merged stream, in a task of `set`.
    pub(crate) fn spawn<L>(&self, set: &mut JoinSet<()>, lane: L)
    where
        L: AsyncRead + Unpin + Send + 'static,
    {
        let (tx, max) = (self.tx.clone(), self.max_frame);
        set.spawn(read_lane(lane, tx, max));
    }
}

/// The merged stream of `first` (the connection's first stream) and the lanes its [`Feed`]
/// adds once `granted`; frames may be up to `max_frame` bytes.
pub(crate) fn merge<R: AsyncRead + Unpin>(
    first: R,
    max_frame: usize,
    granted: watch::Receiver<bool>,
) -> (Merged<R>, Feed) {
    let (tx, rx) = mpsc::channel(QUEUED);
    let merged = Merged {
        first,
        buf: BytesMut::with_capacity(READ_AT_ONCE),
        preamble: PREAMBLE_LEN,
        passing: 0,
        lanes: rx,
        granted,
        max_frame,
        current: Bytes::new(),
        inside_frame: false,
        lanes_closed: false,
        lanes_first: false,
    };
    (merged, Feed { tx, max_frame })
}

/// A lane's reader task: its whole frames into `tx`, then its failure if it fails.
async fn read_lane<L: AsyncRead + Unpin>(mut lane: L, tx: mpsc::Sender<Sent>, max_frame: usize) {
    if let Err(e) = pump_lane(&mut lane, &tx, max_frame).await {
        let _ = tx.send(Err(e)).await;
    }
}

async fn pump_lane<L: AsyncRead + Unpin>(
    lane: &mut L,
    tx: &mpsc::Sender<Sent>,
    max_frame: usize,
) -> io::Result<()> {
    let mut buf = BytesMut::with_capacity(READ_AT_ONCE);
    loop {
        match scan(&buf, max_frame) {
            (0, Some(total)) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a frame of {total} bytes on a lane is over the connection's limit of {max_frame} bytes"),
                ))
            }
            (0, None) => {}
            (n, _) => {
                let frames = buf.split_to(n).freeze();
                if tx.send(Ok(frames)).await.is_err() {
                    return Ok(()); // the connection is ending
                }
                continue;
            }
        }
        if buf.capacity() - buf.len() < READ_AT_ONCE / 4 {
            buf.reserve(READ_AT_ONCE);
        }
        if lane.read_buf(&mut buf).await? == 0 {
            return match buf.is_empty() {
                true => Ok(()),
                false => Err(io::ErrorKind::UnexpectedEof.into()),
            };
        }
    }
}

/// Where the whole frames at the head of `buf` end (`whole`), and the size of the frame
/// after them when it is larger than `gather` (`large`).
fn scan(buf: &[u8], gather: usize) -> (usize, Option<usize>) {
    let mut at = 0;
    while buf.len() - at >= 4 {
        let len = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]) as usize;
        let total = len.saturating_add(4);
        if total > gather {
            return (at, Some(total));
        }
        if buf.len() - at < total {
            break;
        }
        at += total;
    }
    (at, None)
}

impl<R: AsyncRead + Unpin> Merged<R> {
    /// The next piece of the first stream that its bytes read so far make: (length, whether
    /// it ends at a frame boundary); length 0 when more must be read first.
    fn first_piece(&mut self) -> (usize, bool) {
        if self.preamble > 0 {
            return match self.buf.len() >= self.preamble {
                true => (std::mem::take(&mut self.preamble), true),
                false => (0, true),
            };
        }
        if self.passing > 0 {
            let n = self.passing.min(self.buf.len());
            self.passing -= n;
            return (n, self.passing == 0);
        }
        let gather = match *self.granted.borrow() {
            true => self.max_frame,
            false => GATHER,
        };
        match scan(&self.buf, gather) {
            (0, Some(total)) => {
                self.passing = total;
                self.first_piece()
            }
            (n, _) => (n, true),
        }
    }

    /// Reads more of the first stream: Ready(true) at its end.
    fn poll_first(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<bool>> {
        if self.buf.capacity() - self.buf.len() < READ_AT_ONCE / 4 {
            self.buf.reserve(READ_AT_ONCE);
        }
        match tokio_util::io::poll_read_buf(Pin::new(&mut self.first), cx, &mut self.buf) {
            Poll::Ready(Ok(n)) => Poll::Ready(Ok(n == 0)),
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    }

    /// A lane's next frames, unless the first stream is inside a frame.
    fn poll_lanes(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<Bytes>> {
        if self.inside_frame || self.lanes_closed {
            return Poll::Pending;
        }
        match self.lanes.poll_recv(cx) {
            Poll::Ready(Some(r)) => Poll::Ready(r),
            Poll::Ready(None) => {
                self.lanes_closed = true;
                Poll::Pending
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// The next bytes to read out: `None` at the end of the first stream.
    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<io::Result<Bytes>>> {
        self.lanes_first = !self.lanes_first;
        loop {
            if self.lanes_first {
                if let Poll::Ready(r) = self.poll_lanes(cx) {
                    return Poll::Ready(Some(r));
                }
            }
            let (n, whole) = self.first_piece();
            if n > 0 {
                self.inside_frame = !whole;
                return Poll::Ready(Some(Ok(self.buf.split_to(n).freeze())));
            }
            match self.poll_first(cx) {
                Poll::Ready(Ok(false)) => continue,
                Poll::Ready(Ok(true)) if self.buf.is_empty() && self.passing == 0 => {
                    return Poll::Ready(None)
                }
                Poll::Ready(Ok(true)) => {
                    return Poll::Ready(Some(Err(io::ErrorKind::UnexpectedEof.into())))
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Some(Err(e))),
                Poll::Pending => {}
            }
            return match self.poll_lanes(cx) {
                Poll::Ready(r) => Poll::Ready(Some(r)),
                Poll::Pending => Poll::Pending,
            };
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Merged<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let me = &mut *self;
        while me.current.is_empty() {
            match me.poll_next(cx) {
                Poll::Ready(Some(Ok(b))) => me.current = b,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        let n = me.current.len().min(out.remaining());
        out.put_slice(&me.current.split_to(n));
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    /// A frame of `payload` bytes of `fill` (a 16-byte header: length, then 12 bytes).
    fn frame(payload: usize, fill: u8) -> Vec<u8> {
        let mut f = ((12 + payload) as u32).to_le_bytes().to_vec();
        f.extend_from_slice(&[fill; 12]);
        f.extend(std::iter::repeat_n(fill, payload));
        f
    }

    type M = Merged<DuplexStream>;

    async fn read_exactly(m: &mut M, n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        tokio::time::timeout(Duration::from_secs(5), m.read_exact(&mut out))
            .await
            .expect("bytes within 5 s")
            .expect("read");
        out
    }

    async fn nothing_for_a_while(m: &mut M) {
        let mut b = [0u8; 1];
        let r = tokio::time::timeout(Duration::from_millis(200), m.read(&mut b)).await;
        assert!(r.is_err(), "nothing may be read yet");
    }

    /// A merged stream whose lanes are granted (`granted`) or not yet, and the gate.
    fn started_with(granted: bool) -> (M, Feed, DuplexStream, watch::Sender<bool>) {
        let (first, client) = tokio::io::duplex(1 << 20);
        let (gate, opened) = watch::channel(granted);
        let (m, feed) = merge(first, 1 << 20, opened);
        (m, feed, client, gate)
    }

    /// A lane added to `m` (its reader's task set, and its writing end), and the first
    /// stream's preamble through.
    async fn lane_after_preamble(
        m: &mut M,
        feed: &Feed,
        first: &mut DuplexStream,
    ) -> (JoinSet<()>, DuplexStream) {
        let mut set = JoinSet::new();
        let (lane, lane_w) = tokio::io::duplex(1 << 20);
        feed.spawn(&mut set, lane);
        first.write_all(&[0u8; PREAMBLE_LEN]).await.unwrap();
        assert_eq!(read_exactly(m, PREAMBLE_LEN).await, [0u8; PREAMBLE_LEN]);
        (set, lane_w)
    }

    fn started() -> (M, Feed, DuplexStream) {
        let (m, feed, client, _) = started_with(true);
        (m, feed, client)
    }

    #[tokio::test]
    async fn a_stream_stalled_inside_a_frame_holds_up_only_its_own_frames() {
        let (mut m, feed, mut first) = started();
        let mut set = JoinSet::new();
        let (lane, mut lane_w) = tokio::io::duplex(1 << 20);
        feed.spawn(&mut set, lane);
        first.write_all(&[7u8; PREAMBLE_LEN]).await.unwrap();
        assert_eq!(
            read_exactly(&mut m, PREAMBLE_LEN).await,
            [7u8; PREAMBLE_LEN]
        );
        // The lane's frame is half there (a packet lost): the first stream's frame passes it.
        let big = frame(20_000, 2);
        lane_w.write_all(&big[..5_000]).await.unwrap();
        let one = frame(100, 1);
        first.write_all(&one).await.unwrap();
        assert_eq!(read_exactly(&mut m, one.len()).await, one);
        // And the other way round: the first stream's frame half there, the lane's whole.
        let two = frame(3_000, 3);
        first.write_all(&two[..1_000]).await.unwrap();
        nothing_for_a_while(&mut m).await;
        lane_w.write_all(&big[5_000..]).await.unwrap();
        assert_eq!(read_exactly(&mut m, big.len()).await, big);
        first.write_all(&two[1_000..]).await.unwrap();
        assert_eq!(read_exactly(&mut m, two.len()).await, two);
    }

    #[tokio::test]
    async fn before_the_lanes_are_granted_a_large_first_stream_frame_is_passed_on_as_it_comes() {
        let (mut m, feed, mut first, _gate) = started_with(false);
        let (_set, mut lane_w) = lane_after_preamble(&mut m, &feed, &mut first).await;
        let large = frame(GATHER + 1_000, 4);
        first.write_all(&large[..1_000]).await.unwrap();
        // Its head comes at once (a frame parser can refuse it by its length)...
        assert_eq!(read_exactly(&mut m, 1_000).await, large[..1_000]);
        // ...and a lane's frame waits until its last byte.
        let small = frame(10, 5);
        lane_w.write_all(&small).await.unwrap();
        nothing_for_a_while(&mut m).await;
        first.write_all(&large[1_000..]).await.unwrap();
        assert_eq!(
            read_exactly(&mut m, large.len() - 1_000).await,
            large[1_000..]
        );
        assert_eq!(read_exactly(&mut m, small.len()).await, small);
    }

    #[tokio::test]
    async fn a_lane_frame_over_the_limit_fails_the_stream_and_the_first_streams_end_ends_it() {
        let (mut m, feed, mut first) = started();
        let (_set, mut lane_w) = lane_after_preamble(&mut m, &feed, &mut first).await;
        lane_w.write_all(&(2u32 << 20).to_le_bytes()).await.unwrap();
        let mut b = [0u8; 16];
        let e = m.read(&mut b).await.expect_err("over the limit");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("over the connection's limit"), "{e}");

        let (mut m, _feed, mut first) = started();
        first.write_all(&[0u8; PREAMBLE_LEN]).await.unwrap();
        let one = frame(1, 1);
        first.write_all(&one).await.unwrap();
        drop(first);
        let mut all = Vec::new();
        m.read_to_end(&mut all).await.unwrap();
        assert_eq!(
            all.len(),
            PREAMBLE_LEN + one.len(),
            "the end of the first stream ends it"
        );
    }

    #[tokio::test]
    async fn once_the_lanes_are_granted_a_large_first_stream_frame_waits_whole_and_lanes_pass_it() {
        let (mut m, feed, mut first, gate) = started_with(false);
        let (_set, mut lane_w) = lane_after_preamble(&mut m, &feed, &mut first).await;
        gate.send_replace(true);
        // A large frame half there (its rest held up, say, by flow control): a lane's frame
        // goes ahead of it, and it comes whole once its last byte is in.
        let large = frame(GATHER + 1_000, 4);
        first.write_all(&large[..1_000]).await.unwrap();
        let small = frame(10, 5);
        lane_w.write_all(&small).await.unwrap();
        assert_eq!(read_exactly(&mut m, small.len()).await, small);
        nothing_for_a_while(&mut m).await;
        first.write_all(&large[1_000..]).await.unwrap();
        assert_eq!(read_exactly(&mut m, large.len()).await, large);
    }

    #[test]
    fn scan_finds_whole_frames_and_the_first_too_large_to_gather() {
        let mut b = frame(4, 1);
        b.extend(frame(8, 2));
        let whole = b.len();
        b.extend(&frame(100, 3)[..20]);
        assert_eq!(scan(&b, 1_000), (whole, None));
        assert_eq!(scan(&b, 50), (whole, Some(116)));
        assert_eq!(scan(&b[..3], 50), (0, None));
    }
}
