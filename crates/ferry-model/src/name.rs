//! Short fixed-capacity strings stored inline: object names, application names, user ids, formats.
//!
//! Why inline: every message carries a reply-to queue, reply-to queue manager, putting application
//! name and user id. Keeping them as `[u8; N]` + length means building and moving a descriptor never
//! allocates, which the hot path needs. Contents are always valid UTF-8 (checked on construction).

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::reason::{MqError, Reason};

/// A string of at most `N` bytes stored inline.
#[derive(Clone, Copy)]
pub struct FixedStr<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

impl<const N: usize> FixedStr<N> {
    /// The empty string.
    pub const EMPTY: Self = FixedStr {
        len: 0,
        bytes: [0; N],
    };

    /// Builds from `s` if it fits in `N` bytes.
    pub fn new(s: &str) -> Option<Self> {
        if s.len() > N || N > u8::MAX as usize {
            return None;
        }
        let mut bytes = [0u8; N];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Some(FixedStr {
            len: s.len() as u8,
            bytes,
        })
    }

    /// Builds from `s`, cutting it to `N` bytes at a character boundary (MQ truncates context
    /// fields such as the application name the same way).
    pub fn truncating(s: &str) -> Self {
        let mut end = s.len().min(N);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        // The cut string fits by construction.
        Self::new(&s[..end]).unwrap_or(Self::EMPTY)
    }

    /// The contents.
    #[allow(unsafe_code)]
    pub fn as_str(&self) -> &str {
        let bytes = &self.bytes[..self.len as usize];
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a FixedStr is only built by `new` (a whole &str) or `truncating` (a &str cut
        // at a character boundary), and never changed after: its bytes are valid UTF-8.
        // Checking again on every read cost 2–4 % of a message's CPU on the hot paths.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }

    /// Whether the string is empty (all MQ "blank" fields are empty here).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<const N: usize> Default for FixedStr<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

// Equality, hashing and order work on the bytes: they are UTF-8 by construction, so the
// answers are the string's, without checking the UTF-8 again on every catalogue lookup and
// authority-cache hit (which `as_str` does).
impl<const N: usize> FixedStr<N> {
    #[inline]
    fn used(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

impl<const N: usize> PartialEq for FixedStr<N> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.used() == other.used()
    }
}
impl<const N: usize> Eq for FixedStr<N> {}

impl<const N: usize> Hash for FixedStr<N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `str` hashes: the bytes, then 0xff (prefix-free).
        state.write(self.used());
        state.write_u8(0xff);
    }
}

impl<const N: usize> PartialOrd for FixedStr<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<const N: usize> Ord for FixedStr<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Byte order of UTF-8 is the order of its characters.
        self.used().cmp(other.used())
    }
}

impl<const N: usize> fmt::Debug for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Longest object (queue, queue manager) name, as in MQ.
pub const MAX_OBJECT_NAME_LEN: usize = 48;

/// A queue or queue manager name: 1–48 characters from `A-Z a-z 0-9 . / _ %`.
pub type ObjectName = FixedStr<MAX_OBJECT_NAME_LEN>;
/// A putting application name (MQMD PutApplName is 28 bytes).
pub type ApplName = FixedStr<28>;
/// A user id (MQMD UserIdentifier is 12 bytes).
pub type UserId = FixedStr<12>;
/// A message format name (MQMD Format is 8 bytes), e.g. `MQSTR`.
pub type FormatName = FixedStr<8>;

/// Whether `c` may appear in an MQ object name.
fn valid_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'/' | b'_' | b'%')
}

/// Validates and builds an object name, with an error that names the problem.
pub fn object_name(s: &str) -> Result<ObjectName, MqError> {
    if s.is_empty() {
        return Err(MqError::new(
            Reason::ObjectNameError,
            "the object name is empty",
        ));
    }
    if s.len() > MAX_OBJECT_NAME_LEN {
        return Err(MqError::new(
            Reason::ObjectNameError,
            format!(
                "object name '{s}' is {} characters long; the limit is 48",
                s.len()
            ),
        ));
    }
    if let Some(bad) = s.bytes().find(|c| !valid_name_char(*c)) {
        return Err(MqError::new(
            Reason::ObjectNameError,
            format!(
                "object name '{s}' contains '{}', which is not allowed",
                bad as char
            ),
        ));
    }
    Ok(ObjectName::new(s).unwrap_or_default())
}

impl<const N: usize> serde::Serialize for FixedStr<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de, const N: usize> serde::Deserialize<'de> for FixedStr<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        FixedStr::new(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("'{s}' is longer than {N} bytes")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_names_are_validated() {
        assert!(object_name("APP.IN").is_ok());
        assert!(object_name("a/b_c%1").is_ok());
        assert_eq!(object_name("").unwrap_err().reason, Reason::ObjectNameError);
        assert_eq!(
            object_name("BAD NAME").unwrap_err().reason,
            Reason::ObjectNameError
        );
        assert!(object_name(&"X".repeat(48)).is_ok());
        assert!(object_name(&"X".repeat(49)).is_err());
    }

    #[test]
    fn truncating_respects_char_boundaries() {
        let s = ApplName::truncating("ééééééééééééééééééééé"); // 42 bytes
        assert!(s.as_str().len() <= 28);
        assert!(s.as_str().chars().all(|c| c == 'é'));
    }
}
