//! Bounds-checked little-endian primitives shared by every message encoder and decoder.
//!
//! Decoding never panics and never allocates more than the input holds: every length is checked
//! against the bytes remaining before anything is read or allocated.

use bytes::{BufMut, Bytes, BytesMut};

use crate::WireError;

/// Longest short string on the wire (MQ's object-name length).
pub const SHORT_STR_MAX: usize = 48;

/// A name-like string of at most 48 bytes, stored inline so descriptors decode without
/// allocating. Always valid UTF-8.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShortStr {
    len: u8,
    bytes: [u8; SHORT_STR_MAX],
}

impl AsRef<str> for ShortStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl ShortStr {
    /// `s`, cut to 48 bytes at a character boundary.
    pub fn new(s: &str) -> ShortStr {
        let mut end = s.len().min(SHORT_STR_MAX);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; SHORT_STR_MAX];
        bytes[..end].copy_from_slice(&s.as_bytes()[..end]);
        ShortStr {
            len: end as u8,
            bytes,
        }
    }

    /// The contents.
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        let bytes = &self.bytes[..self.len as usize];
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a ShortStr is only built by `new`, from a &str cut at a character boundary,
        // and never changed after: its bytes are valid UTF-8 (checked once, when decoded).
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }
}

impl Default for ShortStr {
    fn default() -> ShortStr {
        ShortStr {
            len: 0,
            bytes: [0; SHORT_STR_MAX],
        }
    }
}

impl std::fmt::Debug for ShortStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for ShortStr {
    fn from(s: &str) -> ShortStr {
        ShortStr::new(s)
    }
}

/// Reads primitives from a frame payload. Byte strings are returned as zero-copy slices of the
/// payload `Bytes`.
#[derive(Debug, Clone)]
pub struct Reader {
    buf: Bytes,
    pos: usize,
}

impl Reader {
    /// A reader over `buf`.
    pub fn new(buf: Bytes) -> Self {
        Reader { buf, pos: 0 }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Skips `prefix` if the unread bytes start with it (true), else reads nothing (false).
    pub fn skip_if_next(&mut self, prefix: &[u8]) -> bool {
        let hit = self.buf[self.pos..].starts_with(prefix);
        if hit {
            self.pos += prefix.len();
        }
        hit
    }

    /// Where the next byte is read from.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Goes back to `pos` (a position read from before) to read again from there.
    pub fn rewind(&mut self, pos: usize) {
        debug_assert!(pos <= self.pos, "rewinding forward");
        self.pos = pos;
    }

    /// The bytes between `from` and `to` (positions already read), borrowed.
    pub fn between(&self, from: usize, to: usize) -> &[u8] {
        debug_assert!(from <= to && to <= self.pos, "bytes not read yet");
        &self.buf[from..to]
    }

    /// The bytes read from `from` up to now, as a zero-copy slice.
    pub fn read_since(&self, from: usize) -> Bytes {
        self.buf.slice(from..self.pos)
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], WireError> {
        if self.remaining() < n {
            return Err(WireError::Truncated {
                what,
                needed: n,
                available: self.remaining(),
            });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A `u8`.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, WireError> {
        Ok(self.take(1, what)?[0])
    }

    /// A `u8` of at most `max` (a larger one is a bad value).
    pub fn u8_at_most(&mut self, what: &'static str, max: u8) -> Result<u8, WireError> {
        match self.u8(what)? {
            v if v > max => Err(WireError::BadValue {
                what,
                value: u64::from(v),
            }),
            v => Ok(v),
        }
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, WireError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A little-endian `i32`.
    pub fn i32(&mut self, what: &'static str) -> Result<i32, WireError> {
        Ok(self.u32(what)? as i32)
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self, what: &'static str) -> Result<u64, WireError> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A little-endian `i64`.
    pub fn i64(&mut self, what: &'static str) -> Result<i64, WireError> {
        Ok(self.u64(what)? as i64)
    }

    /// A fixed-size array.
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], WireError> {
        let b = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        Ok(a)
    }

    /// A string with a `u8` length prefix.
    pub fn str8(&mut self, what: &'static str) -> Result<String, WireError> {
        let n = self.u8(what)? as usize;
        let b = self.take(n, what)?;
        std::str::from_utf8(b)
            .map(str::to_owned)
            .map_err(|_| WireError::BadUtf8 { what })
    }

    /// A short string (u8 length prefix, at most 48 bytes), without allocating.
    pub fn short_str(&mut self, what: &'static str) -> Result<ShortStr, WireError> {
        self.short_str_with(what, ShortStr::new)
    }

    /// A short string checked as [`Reader::short_str`] checks it, handed to `f` where it lies
    /// rather than copied (a decoder that converts it at once saves the copy).
    #[inline]
    pub fn short_str_with<T>(
        &mut self,
        what: &'static str,
        f: impl FnOnce(&str) -> T,
    ) -> Result<T, WireError> {
        let n = self.u8(what)? as usize;
        if n > SHORT_STR_MAX {
            return Err(WireError::BadValue {
                what,
                value: n as u64,
            });
        }
        let b = self.take(n, what)?;
        let s = std::str::from_utf8(b).map_err(|_| WireError::BadUtf8 { what })?;
        Ok(f(s))
    }

    /// A string with a `u16` length prefix.
    pub fn str16(&mut self, what: &'static str) -> Result<String, WireError> {
        let n = self.u16(what)? as usize;
        let b = self.take(n, what)?;
        std::str::from_utf8(b)
            .map(str::to_owned)
            .map_err(|_| WireError::BadUtf8 { what })
    }

    /// Bytes with a `u32` length prefix, as a zero-copy slice.
    pub fn bytes32(&mut self, what: &'static str) -> Result<Bytes, WireError> {
        let n = self.u32(what)? as usize;
        if self.remaining() < n {
            return Err(WireError::Truncated {
                what,
                needed: n,
                available: self.remaining(),
            });
        }
        let b = self.buf.slice(self.pos..self.pos + n);
        self.pos += n;
        Ok(b)
    }

    /// A count of following items, each at least `min_item_len` bytes, checked against what
    /// remains so a hostile count cannot make the decoder allocate.
    pub fn count(&mut self, what: &'static str, min_item_len: usize) -> Result<usize, WireError> {
        let n = self.u32(what)? as usize;
        if n.saturating_mul(min_item_len.max(1)) > self.remaining() {
            return Err(WireError::Truncated {
                what,
                needed: n * min_item_len.max(1),
                available: self.remaining(),
            });
        }
        Ok(n)
    }

    /// Fails unless every byte was consumed (trailing garbage is an error).
    pub fn finish(&self, what: &'static str) -> Result<(), WireError> {
        if self.remaining() != 0 {
            return Err(WireError::TrailingBytes {
                what,
                extra: self.remaining(),
            });
        }
        Ok(())
    }
}

/// Writes primitives into a frame buffer.
pub trait WriteExt {
    /// A string with a `u8` length prefix (cut at 255 bytes on a char boundary).
    fn put_str8(&mut self, s: &str);
    /// A string with a `u16` length prefix (cut at 65,535 bytes on a char boundary).
    fn put_str16(&mut self, s: &str);
    /// Bytes with a `u32` length prefix.
    fn put_bytes32(&mut self, b: &[u8]);
}

fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

impl WriteExt for BytesMut {
    fn put_str8(&mut self, s: &str) {
        let s = cut(s, u8::MAX as usize);
        self.put_u8(s.len() as u8);
        self.put_slice(s.as_bytes());
    }
    fn put_str16(&mut self, s: &str) {
        let s = cut(s, u16::MAX as usize);
        self.put_u16_le(s.len() as u16);
        self.put_slice(s.as_bytes());
    }
    fn put_bytes32(&mut self, b: &[u8]) {
        self.put_u32_le(b.len() as u32);
        self.put_slice(b);
    }
}
