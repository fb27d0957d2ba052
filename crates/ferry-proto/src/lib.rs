//! FerryMQ's wire protocol: the connection preamble, frames, and the request/response payloads
//! spoken over the local (Unix socket) and tcp connection modes. No I/O and no async runtime:
//! bytes in, values out, so it can be fuzzed on its own. The byte-level format is documented in
//! `docs/wire.md`.
//!
//! `map` converts between these wire types and FerryMQ's vocabulary (`ferry-model`): the server
//! and the client share it, and neither reaches it through the engine.
//!
//! Invariants: decoding never panics and never allocates in proportion to a length it has not
//! yet checked against the bytes actually present (frame lengths are checked against the
//! negotiated maximum from the 4-byte prefix alone; counts against the bytes remaining).

pub mod codec;
pub mod compress;
pub mod frame;
pub mod map;
pub mod msg;

pub use codec::ShortStr;
pub use frame::{
    begin_frame, decode_frame, encode_frame, encode_heartbeat, finish_frame, finish_frame_before,
    Frame, FrameHeader, Preamble, DEFAULT_MAX_FRAME, FLAG_COMPRESSED, FLAG_MORE, FLAG_PUSH,
    FLAG_RESPONSE, HEADER_LEN, PREAMBLE_LEN, PROTOCOL_VERSION,
};
pub use msg::{
    decode_response, encode_response, Opcode, Reply, Request, Status, WireAttr, WireBatchRecord,
    WireDeadLetter, WireDescriptor, WireGetOptions, WireMessage, WireObject, WirePutOptions,
    WireTransmission, WireValue,
};

/// Why bytes could not be decoded. Each names what was being read, for the connection's log line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The connection did not open with the FerryMQ preamble.
    #[error("the peer did not open with the FerryMQ preamble (magic 'FMQW'); is it speaking another protocol?")]
    BadMagic,
    /// The preamble's version range is inverted.
    #[error("the peer's version range {min}..{max} is not valid")]
    BadVersionRange {
        /// Min.
        min: u16,
        /// Max.
        max: u16,
    },
    /// A frame's length prefix is smaller than a header.
    #[error("frame length {length} is shorter than a frame header")]
    BadLength {
        /// The length read.
        length: usize,
    },
    /// A frame is larger than allowed.
    #[error("frame of {length} bytes exceeds the maximum frame size of {max} bytes")]
    FrameTooLarge {
        /// Length including the header.
        length: usize,
        /// The maximum.
        max: usize,
    },
    /// Unknown flag bits.
    #[error("frame flags {flags:#04x} include unknown bits")]
    BadFlags {
        /// The flags.
        flags: u8,
    },
    /// Unknown opcode.
    #[error("unknown opcode {opcode}")]
    UnknownOpcode {
        /// The opcode.
        opcode: u8,
    },
    /// The payload ended early.
    #[error("payload ended while reading {what}: needed {needed} bytes, {available} left")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// Bytes remained after a complete payload.
    #[error("{extra} unexpected bytes after the {what}")]
    TrailingBytes {
        /// What was decoded.
        what: &'static str,
        /// How many bytes were left.
        extra: usize,
    },
    /// A string was not UTF-8.
    #[error("{what} is not valid UTF-8")]
    BadUtf8 {
        /// What was being read.
        what: &'static str,
    },
    /// A compressed payload did not decompress to its announced length.
    #[error("a {algorithm} compressed payload is damaged")]
    BadCompression {
        /// The algorithm.
        algorithm: &'static str,
    },
    /// A field held a value outside its range.
    #[error("{what} has the invalid value {value}")]
    BadValue {
        /// What was being read.
        what: &'static str,
        /// The value.
        value: u64,
    },
}

/// Runs every decoder over arbitrary bytes, as a server reading a hostile socket would: the
/// preamble, then frames, then each frame's payload as a request and as a response. It must
/// never panic. Shared by the fuzz target (`fuzz/`) and the corpus replay test.
pub fn decode_everything(data: &[u8]) {
    if data.len() >= PREAMBLE_LEN {
        let mut p = [0u8; PREAMBLE_LEN];
        p.copy_from_slice(&data[..PREAMBLE_LEN]);
        let _ = Preamble::decode(&p);
    }
    let mut buf = bytes::BytesMut::from(data);
    while let Ok(Some(frame)) = decode_frame(&mut buf, 1 << 16) {
        let _ = Request::decode(frame.header.opcode, frame.payload.clone());
        let _ = decode_response(frame.header.opcode, frame.payload);
    }
}
