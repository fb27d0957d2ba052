//! Framing: the connection preamble (version handshake) and length-prefixed frames.
//!
//! Every frame is a 16-byte header followed by its payload:
//!
//! ```text
//! offset size field
//!  0     4    length      u32 LE: bytes after this field (12 + payload); checked against the
//!                         negotiated maximum before any allocation
//!  4     1    opcode      what the frame asks or answers (see `Opcode`)
//!  5     1    flags       bit 0 RESPONSE, bit 1 COMPRESSED (payload is compressed), bit 2 PUSH
//!                         (server-initiated, e.g. read-ahead), bit 3 MORE (another response
//!                         to the same request follows: a batch get), others zero
//!  6     2    conv        u16 LE conversation id: several connections may share a socket
//!  8     8    request id  u64 LE, chosen by the requester, echoed in the response
//! 16     ...  payload
//! ```

use bytes::{Buf, BufMut, Bytes, BytesMut};

use crate::WireError;

/// Size of the frame header.
pub const HEADER_LEN: usize = 16;
/// Bytes of the header counted in `length` (everything after the length field).
const HEADER_AFTER_LEN: usize = HEADER_LEN - 4;
/// The default and largest frame size: a 100 MiB message plus its descriptor fits.
pub const DEFAULT_MAX_FRAME: usize = 100 * 1024 * 1024 + 64 * 1024;

/// Frame flag: this frame answers a request.
pub const FLAG_RESPONSE: u8 = 0x01;
/// Frame flag: the payload is compressed with the connection's negotiated algorithm.
pub const FLAG_COMPRESSED: u8 = 0x02;
/// Frame flag: the server sent this frame unasked (read-ahead delivery, notices).
pub const FLAG_PUSH: u8 = 0x04;
/// Frame flag: another response to the same request follows (a batch get's messages: every
/// one but the last).
pub const FLAG_MORE: u8 = 0x08;
const KNOWN_FLAGS: u8 = FLAG_RESPONSE | FLAG_COMPRESSED | FLAG_PUSH | FLAG_MORE;

/// A frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHeader {
    /// Opcode.
    pub opcode: u8,
    /// Flags.
    pub flags: u8,
    /// Conversation id.
    pub conv: u16,
    /// Request id.
    pub request_id: u64,
}

impl FrameHeader {
    /// Whether this frame is a response.
    pub fn is_response(&self) -> bool {
        self.flags & FLAG_RESPONSE != 0
    }
}

/// A decoded frame: header plus payload (a zero-copy slice of the read buffer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Header.
    pub header: FrameHeader,
    /// Payload.
    pub payload: Bytes,
}

/// Appends a frame with `payload` to `out`.
pub fn encode_frame(out: &mut BytesMut, header: FrameHeader, payload: &[u8]) {
    out.reserve(HEADER_LEN + payload.len());
    out.put_u32_le((HEADER_AFTER_LEN + payload.len()) as u32);
    out.put_u8(header.opcode);
    out.put_u8(header.flags);
    out.put_u16_le(header.conv);
    out.put_u64_le(header.request_id);
    out.put_slice(payload);
}

/// Starts a frame whose payload the caller then appends to `out`; finish it with
/// [`finish_frame`]. Avoids building the payload in a separate buffer.
pub fn begin_frame(out: &mut BytesMut, header: FrameHeader) -> usize {
    let start = out.len();
    out.put_u32_le(0);
    out.put_u8(header.opcode);
    out.put_u8(header.flags);
    out.put_u16_le(header.conv);
    out.put_u64_le(header.request_id);
    start
}

/// Writes the length of the frame begun at `start`.
pub fn finish_frame(out: &mut BytesMut, start: usize) {
    finish_frame_before(out, start, 0);
}

/// Writes the length of the frame begun at `start` whose last `after` bytes are not in `out`
/// but sent straight after it (a message body written from where it lies, not copied).
pub fn finish_frame_before(out: &mut BytesMut, start: usize, after: usize) {
    let len = (out.len() - start - 4 + after) as u32;
    out[start..start + 4].copy_from_slice(&len.to_le_bytes());
}

/// Appends a pushed heartbeat: a sign of life that asks for no answer.
pub fn encode_heartbeat(out: &mut BytesMut) {
    let h = FrameHeader {
        opcode: crate::msg::Opcode::Heartbeat as u8,
        flags: FLAG_PUSH,
        conv: 0,
        request_id: 0,
    };
    let start = begin_frame(out, h);
    finish_frame(out, start);
}

/// Takes one complete frame off the front of `buf`, if there is one. Checks the length against
/// `max_frame` from the 4-byte prefix alone, before waiting for (or allocating) the rest, so a
/// hostile length cannot make the reader buffer it.
pub fn decode_frame(buf: &mut BytesMut, max_frame: usize) -> Result<Option<Frame>, WireError> {
    if buf.len() < 4 {
        return Ok(None);
    }
    let len = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize;
    if len < HEADER_AFTER_LEN {
        return Err(WireError::BadLength { length: len });
    }
    if len + 4 > max_frame {
        return Err(WireError::FrameTooLarge {
            length: len + 4,
            max: max_frame,
        });
    }
    if buf.len() < len + 4 {
        return Ok(None);
    }
    let mut frame = buf.split_to(len + 4);
    frame.advance(4);
    let opcode = frame.get_u8();
    let flags = frame.get_u8();
    let conv = frame.get_u16_le();
    let request_id = frame.get_u64_le();
    if flags & !KNOWN_FLAGS != 0 {
        return Err(WireError::BadFlags { flags });
    }
    Ok(Some(Frame {
        header: FrameHeader {
            opcode,
            flags,
            conv,
            request_id,
        },
        payload: frame.freeze(),
    }))
}

/// Bytes the next frame needs in total, if its length prefix has arrived (to size reads).
pub fn pending_frame_len(buf: &[u8]) -> Option<usize> {
    (buf.len() >= 4).then(|| u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as usize + 4)
}

/// Magic bytes opening a connection, in both directions.
pub const MAGIC: [u8; 4] = *b"FMQW";
/// Length of the preamble.
pub const PREAMBLE_LEN: usize = 16;
/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u16 = 1;

/// The first 16 bytes each side sends: magic, the version range it speaks (the server answers
/// with the chosen version as both min and max, or 0 if none fits), and the largest frame it
/// accepts.
///
/// ```text
/// 0 4 magic "FMQW"   4 2 min version   6 2 max version   8 4 max frame   12 4 reserved (0)
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preamble {
    /// Lowest version spoken.
    pub min_version: u16,
    /// Highest version spoken.
    pub max_version: u16,
    /// Largest frame (bytes, header included) this side accepts.
    pub max_frame: u32,
}

impl Preamble {
    /// This build's preamble.
    pub fn ours(max_frame: u32) -> Self {
        Preamble {
            min_version: PROTOCOL_VERSION,
            max_version: PROTOCOL_VERSION,
            max_frame,
        }
    }

    /// Encodes to 16 bytes.
    pub fn encode(&self) -> [u8; PREAMBLE_LEN] {
        let mut b = [0u8; PREAMBLE_LEN];
        b[..4].copy_from_slice(&MAGIC);
        b[4..6].copy_from_slice(&self.min_version.to_le_bytes());
        b[6..8].copy_from_slice(&self.max_version.to_le_bytes());
        b[8..12].copy_from_slice(&self.max_frame.to_le_bytes());
        b
    }

    /// Decodes 16 bytes.
    pub fn decode(b: &[u8; PREAMBLE_LEN]) -> Result<Preamble, WireError> {
        if b[..4] != MAGIC {
            return Err(WireError::BadMagic);
        }
        let p = Preamble {
            min_version: u16::from_le_bytes([b[4], b[5]]),
            max_version: u16::from_le_bytes([b[6], b[7]]),
            max_frame: u32::from_le_bytes([b[8], b[9], b[10], b[11]]),
        };
        if p.min_version > p.max_version {
            return Err(WireError::BadVersionRange {
                min: p.min_version,
                max: p.max_version,
            });
        }
        Ok(p)
    }

    /// The version both sides speak, if any (the highest common one).
    pub fn negotiate(&self, peer: &Preamble) -> Option<u16> {
        let lo = self.min_version.max(peer.min_version);
        let hi = self.max_version.min(peer.max_version);
        (lo <= hi && lo != 0).then_some(hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr() -> FrameHeader {
        FrameHeader {
            opcode: 5,
            flags: FLAG_RESPONSE,
            conv: 3,
            request_id: 42,
        }
    }

    #[test]
    fn frames_round_trip_and_wait_for_the_rest() {
        let mut buf = BytesMut::new();
        encode_frame(&mut buf, hdr(), b"hello");
        encode_frame(&mut buf, hdr(), b"");
        let mut partial = BytesMut::from(&buf[..10]);
        assert_eq!(decode_frame(&mut partial, 1024).unwrap(), None);
        let f = decode_frame(&mut buf, 1024).unwrap().unwrap();
        assert_eq!(f.header, hdr());
        assert_eq!(&f.payload[..], b"hello");
        let f = decode_frame(&mut buf, 1024).unwrap().unwrap();
        assert!(f.payload.is_empty());
        assert!(buf.is_empty());
    }

    #[test]
    fn oversized_length_is_refused_before_the_body_arrives() {
        let mut buf = BytesMut::new();
        buf.put_u32_le(10_000_000);
        assert!(matches!(
            decode_frame(&mut buf, 1024),
            Err(WireError::FrameTooLarge { .. })
        ));
    }

    #[test]
    fn begin_and_finish_frame_match_encode_frame() {
        let mut a = BytesMut::new();
        encode_frame(&mut a, hdr(), b"xyz");
        let mut b = BytesMut::new();
        let s = begin_frame(&mut b, hdr());
        b.put_slice(b"xyz");
        finish_frame(&mut b, s);
        assert_eq!(a, b);
    }

    #[test]
    fn preamble_negotiates_the_highest_common_version() {
        let a = Preamble {
            min_version: 1,
            max_version: 3,
            max_frame: 1,
        };
        let b = Preamble {
            min_version: 2,
            max_version: 5,
            max_frame: 1,
        };
        assert_eq!(a.negotiate(&b), Some(3));
        let c = Preamble {
            min_version: 4,
            max_version: 5,
            max_frame: 1,
        };
        assert_eq!(a.negotiate(&c), None);
        assert_eq!(Preamble::decode(&a.encode()).unwrap(), a);
        assert!(matches!(
            Preamble::decode(&[0u8; 16]),
            Err(WireError::BadMagic)
        ));
    }
}
