//! The cheap hasher for tables keyed by ids, handles and other small numbers.

use std::hash::{BuildHasherDefault, Hasher};

/// Hasher for 24-byte ids and small numeric keys (handles, conversation ids): a multiply-rotate
/// fold (FxHash's scheme), far cheaper than SipHash and adequate because no table it serves can
/// be grown by an attacker beyond a bound (an index's entries by MAXDEPTH, a connection's handles
/// and conversations by their limits), so colliding keys cost at most that bound.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

impl IdHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by handles, conversation ids or other small numbers, hashed with [`IdHasher`]
/// (SipHash's DoS resistance buys nothing for tables bounded by limits, and costs on every
/// message).
pub type IdKeyed<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IdHasher>>;
