//! What a socket owes its peer: encoded frames in one buffer, with large message bodies
//! spliced in by reference instead of copied into it. A message pushed to ten subscribers is
//! then copied once per subscriber (by the kernel, from the one body they share), not twice.
//!
//! Layout: the bytes to send are `bytes` with each `(at, body)` of `bodies` inserted just
//! before byte `at` of `bytes`. A body ends its frame: the frame's length, written in `bytes`,
//! counts it, and the next frame (if any) starts at `at`.
//!
//! Invariants: the `at`s are non-decreasing and ≤ `bytes.len()`; no body is empty;
//! `spliced` is the sum of the bodies' lengths.

use std::collections::VecDeque;
use std::io::IoSlice;

use bytes::{Buf, Bytes, BytesMut};

/// Bodies at least this long are spliced; shorter ones are cheaper to copy than to point at.
pub(super) const SPLICE_MIN: usize = 1024;

/// The most pieces one vectored write is given.
pub(super) const MAX_SLICES: usize = 256;

pub(super) struct OutBuf {
    bytes: BytesMut,
    bodies: VecDeque<(usize, Bytes)>,
    spliced: usize,
}

impl OutBuf {
    pub(super) fn with_capacity(cap: usize) -> OutBuf {
        OutBuf {
            bytes: BytesMut::with_capacity(cap),
            bodies: VecDeque::new(),
            spliced: 0,
        }
    }

    /// The buffer frames are encoded into.
    pub(super) fn buf(&mut self) -> &mut BytesMut {
        &mut self.bytes
    }

    /// Where the next encoded byte goes in the buffer (the offsets `writable` limits are in).
    pub(super) fn mark(&self) -> usize {
        self.bytes.len()
    }

    /// Everything owed, spliced bodies included.
    pub(super) fn len(&self) -> usize {
        self.bytes.len() + self.spliced
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sends `body` straight after what is encoded so far.
    pub(super) fn splice(&mut self, body: &Bytes) {
        if body.is_empty() {
            return;
        }
        self.bodies.push_back((self.bytes.len(), body.clone()));
        self.spliced += body.len();
    }

    /// How many bytes are owed before buffer offset `mark` (bodies spliced at `mark` end the
    /// frame before it, so they count).
    pub(super) fn len_before(&self, mark: usize) -> usize {
        debug_assert!(mark <= self.bytes.len());
        let bodies: usize = (self.bodies.iter())
            .take_while(|(at, _)| *at <= mark)
            .map(|(_, b)| b.len())
            .sum();
        mark + bodies
    }

    /// The first `n` owed bytes (or as many as [`MAX_SLICES`] pieces hold), in `out`; how many
    /// slices were filled.
    pub(super) fn slices<'a>(&'a self, n: usize, out: &mut [IoSlice<'a>; MAX_SLICES]) -> usize {
        let (mut pos, mut left, mut k) = (0, n, 0);
        for (at, body) in &self.bodies {
            if *at > pos && left > 0 && k < MAX_SLICES {
                let run = (*at - pos).min(left);
                out[k] = IoSlice::new(&self.bytes[pos..pos + run]);
                (pos, left, k) = (pos + run, left - run, k + 1);
            }
            if pos < *at || left == 0 || k == MAX_SLICES {
                return k;
            }
            let b = body.len().min(left);
            out[k] = IoSlice::new(&body[..b]);
            (left, k) = (left - b, k + 1);
        }
        if left > 0 && k < MAX_SLICES {
            let run = left.min(self.bytes.len() - pos);
            out[k] = IoSlice::new(&self.bytes[pos..pos + run]);
            k += 1;
        }
        k
    }

    /// Drops the first `n` owed bytes (written); returns how many of them were the buffer's, by
    /// which its offsets move down.
    pub(super) fn consume(&mut self, n: usize) -> usize {
        debug_assert!(n <= self.len());
        let (mut left, mut cut) = (n, 0);
        loop {
            let next = self.bodies.front().map_or(self.bytes.len(), |(at, _)| *at);
            let run = (next - cut).min(left);
            (cut, left) = (cut + run, left - run);
            if left == 0 {
                break;
            }
            let Some((_, body)) = self.bodies.front_mut() else {
                break;
            };
            let k = body.len().min(left);
            body.advance(k);
            (self.spliced, left) = (self.spliced - k, left - k);
            if body.is_empty() {
                self.bodies.pop_front();
            }
        }
        debug_assert_eq!(left, 0, "consumed more than was owed");
        self.bytes.advance(cut);
        for (at, _) in self.bodies.iter_mut() {
            *at -= cut;
        }
        if self.bytes.is_empty() && self.bodies.is_empty() {
            self.bytes.clear();
        }
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owed(o: &OutBuf, n: usize) -> Vec<u8> {
        let mut sl = [IoSlice::new(&[]); MAX_SLICES];
        let k = o.slices(n, &mut sl);
        sl[..k].iter().flat_map(|s| s.iter().copied()).collect()
    }

    fn sample() -> OutBuf {
        let mut o = OutBuf::with_capacity(16);
        o.buf().extend_from_slice(b"ab");
        o.splice(&Bytes::from_static(b"XYZ"));
        o.splice(&Bytes::from_static(b"Q"));
        o.buf().extend_from_slice(b"cd");
        o.splice(&Bytes::from_static(b"W"));
        o
    }

    #[test]
    fn the_owed_bytes_are_the_buffer_with_the_bodies_spliced_in() {
        let o = sample();
        assert_eq!(o.len(), 9);
        assert_eq!(owed(&o, 9), b"abXYZQcdW");
        assert_eq!(owed(&o, 4), b"abXY");
        assert_eq!(o.len_before(2), 6);
        assert_eq!(o.len_before(1), 1);
        assert_eq!(o.len_before(4), 9);
    }

    #[test]
    fn consuming_at_every_split_leaves_the_rest_in_order() {
        let all = b"abXYZQcdW";
        for first in 0..=all.len() {
            let mut o = sample();
            let cut = o.consume(first);
            assert_eq!(
                cut,
                all[..first]
                    .iter()
                    .filter(|c| c.is_ascii_lowercase())
                    .count()
            );
            assert_eq!(o.len(), all.len() - first);
            assert_eq!(owed(&o, o.len()), &all[first..]);
            o.consume(o.len());
            assert!(o.is_empty());
        }
    }
}
