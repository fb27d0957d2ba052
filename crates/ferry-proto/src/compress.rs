//! Payload compression, negotiated per connection: LZ4 (fast, high) and zlib (fast, high).
//!
//! A compressed payload (frame flag COMPRESSED) is `u32 LE uncompressed length` followed by the
//! compressed bytes. The length is checked against the receiver's limit before anything is
//! allocated, and the decompressed size must match it exactly.

use bytes::{BufMut, Bytes, BytesMut};

use crate::WireError;

/// A compression algorithm, numbered as on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Compression {
    /// LZ4, fastest setting.
    Lz4Fast = 1,
    /// LZ4 HC, higher ratio at more CPU.
    Lz4High = 2,
    /// zlib level 1.
    ZlibFast = 3,
    /// zlib level 9.
    ZlibHigh = 4,
}

impl Compression {
    /// Every algorithm, in the default preference order.
    pub const ALL: [Compression; 4] = [
        Compression::Lz4Fast,
        Compression::ZlibFast,
        Compression::Lz4High,
        Compression::ZlibHigh,
    ];

    /// The algorithm with this wire number.
    pub fn from_u8(b: u8) -> Option<Compression> {
        Some(match b {
            1 => Compression::Lz4Fast,
            2 => Compression::Lz4High,
            3 => Compression::ZlibFast,
            4 => Compression::ZlibHigh,
            _ => return None,
        })
    }

    /// The configuration name (`lz4-fast`, `lz4-high`, `zlib-fast`, `zlib-high`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::Lz4Fast => "lz4-fast",
            Compression::Lz4High => "lz4-high",
            Compression::ZlibFast => "zlib-fast",
            Compression::ZlibHigh => "zlib-high",
        }
    }

    /// The algorithm with this configuration name.
    pub fn from_name(s: &str) -> Option<Compression> {
        Compression::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The first of `client` (in the client's order of preference) that `server` accepts.
    pub fn negotiate(client: &[Compression], server: &[Compression]) -> Option<Compression> {
        client.iter().copied().find(|c| server.contains(c))
    }
}

/// Payloads smaller than this are sent as they are: compression would not pay for itself.
pub const MIN_COMPRESS_LEN: usize = 512;

/// Appends `u32 length` + the compressed form of `data` to `out`.
pub fn compress(alg: Compression, data: &[u8], out: &mut BytesMut) {
    out.put_u32_le(data.len() as u32);
    match alg {
        Compression::Lz4Fast | Compression::Lz4High => {
            let mode = match alg {
                Compression::Lz4High => lz4::block::CompressionMode::HIGHCOMPRESSION(9),
                _ => lz4::block::CompressionMode::FAST(1),
            };
            // Fails only for input over 2 GiB, which no frame carries; the receiver would then
            // reject the empty block as bad compression rather than accept wrong data.
            out.put_slice(&lz4::block::compress(data, Some(mode), false).unwrap_or_default());
        }
        Compression::ZlibFast | Compression::ZlibHigh => {
            let level = if alg == Compression::ZlibHigh { 9 } else { 1 };
            let mut w =
                flate2::write::ZlibEncoder::new(out.writer(), flate2::Compression::new(level));
            // Writing to memory cannot fail.
            let _ = std::io::Write::write_all(&mut w, data);
            let _ = w.finish();
        }
    }
}

/// Decompresses a payload written by [`compress`], refusing anything that would exceed `max_len`.
pub fn decompress(alg: Compression, payload: &[u8], max_len: usize) -> Result<Bytes, WireError> {
    if payload.len() < 4 {
        return Err(WireError::Truncated {
            what: "compressed payload",
            needed: 4,
            available: payload.len(),
        });
    }
    let len = u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]) as usize;
    if len > max_len {
        return Err(WireError::FrameTooLarge {
            length: len,
            max: max_len,
        });
    }
    let data = &payload[4..];
    let out = match alg {
        Compression::Lz4Fast | Compression::Lz4High => {
            lz4::block::decompress(data, Some(len as i32)).map_err(|_| {
                WireError::BadCompression {
                    algorithm: alg.name(),
                }
            })?
        }
        Compression::ZlibFast | Compression::ZlibHigh => {
            let mut out = Vec::with_capacity(len);
            let d = flate2::read::ZlibDecoder::new(data);
            // Read one byte past the announced length to detect a lie.
            std::io::Read::read_to_end(&mut std::io::Read::take(d, len as u64 + 1), &mut out)
                .map_err(|_| WireError::BadCompression {
                    algorithm: alg.name(),
                })?;
            out
        }
    };
    if out.len() != len {
        return Err(WireError::BadCompression {
            algorithm: alg.name(),
        });
    }
    Ok(Bytes::from(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_round_trips_and_shrinks_text() {
        let text: Vec<u8> =
            br#"{"order":12345,"customer":"ACME","lines":[{"sku":"X1","qty":3}]}"#.repeat(40);
        for alg in Compression::ALL {
            let mut out = BytesMut::new();
            compress(alg, &text, &mut out);
            assert!(
                out.len() < text.len() / 4,
                "{alg:?} compressed {} to {}",
                text.len(),
                out.len()
            );
            assert_eq!(
                &decompress(alg, &out, 1 << 20).unwrap()[..],
                &text[..],
                "{alg:?}"
            );
        }
    }

    #[test]
    fn a_lying_length_or_a_bomb_is_refused() {
        let mut out = BytesMut::new();
        compress(Compression::ZlibFast, &[0u8; 100_000], &mut out);
        assert!(decompress(Compression::ZlibFast, &out, 1000).is_err());
        let mut lie = out.to_vec();
        lie[..4].copy_from_slice(&10u32.to_le_bytes());
        assert!(decompress(Compression::ZlibFast, &lie, 1 << 20).is_err());
        assert!(decompress(Compression::Lz4Fast, b"\x05\x00\x00\x00garbage", 100).is_err());
    }

    #[test]
    fn negotiation_takes_the_clients_first_choice_the_server_accepts() {
        use Compression::*;
        assert_eq!(
            Compression::negotiate(&[ZlibHigh, Lz4Fast], &[Lz4Fast, ZlibHigh]),
            Some(ZlibHigh)
        );
        assert_eq!(Compression::negotiate(&[ZlibHigh], &[Lz4Fast]), None);
        assert_eq!(Compression::from_name("lz4-high"), Some(Lz4High));
    }
}
