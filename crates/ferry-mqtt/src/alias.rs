//! MQTT 5 topic aliases from the client (§3.3.2.3.4): a PUBLISH may set an alias for its topic
//! (a number from 1 to the Topic Alias Maximum the CONNACK announced) and later PUBLISHes name
//! the topic by the alias alone, with an empty topic name. The codec reads only publications
//! that name their topic, so such a packet is given its topic back before it is decoded.
//!
//! Each connection keeps its own aliases (at most [`TOPIC_ALIAS_MAXIMUM`]); an alias of 0,
//! above the maximum, or used before it was set is a protocol error (0x94 Topic Alias
//! invalid). The server sends no aliases of its own.

use std::collections::HashMap;

use bytes::{BufMut, Bytes, BytesMut};
use mqute_codec::codec::RawPacket;
use mqute_codec::protocol::{FixedHeader, PacketType, QoS};

use crate::wire::{code, Refused};

/// The Topic Alias Maximum every MQTT 5 CONNACK announces.
pub const TOPIC_ALIAS_MAXIMUM: u16 = 64;

/// A connection's aliases: alias → topic.
pub type Aliases = HashMap<u16, String>;

fn invalid(why: String) -> Refused {
    Refused {
        code: code::TOPIC_ALIAS_INVALID,
        why,
    }
}

fn malformed(why: &str) -> Refused {
    Refused {
        code: code::MALFORMED,
        why: why.to_owned(),
    }
}

/// Records the alias a publication of `topic` sets, if any (checked against the maximum).
pub fn note(aliases: &mut Aliases, alias: Option<u16>, topic: &str) -> Result<(), Refused> {
    let Some(a) = alias else {
        return Ok(());
    };
    if a == 0 || a > TOPIC_ALIAS_MAXIMUM {
        return Err(invalid(format!(
            "topic alias {a} is outside 1 to {TOPIC_ALIAS_MAXIMUM}"
        )));
    }
    if !topic.is_empty() {
        aliases.insert(a, topic.to_owned());
    }
    Ok(())
}

/// `raw` with its topic filled in when it is an MQTT 5 PUBLISH naming its topic by alias
/// alone; any other packet as it is.
pub fn resolve(raw: RawPacket, aliases: &Aliases) -> Result<RawPacket, Refused> {
    if raw.header.packet_type() != PacketType::Publish || raw.payload.get(..2) != Some(&[0, 0]) {
        return Ok(raw);
    }
    let p = &raw.payload;
    let mut at = 2 + if raw.header.flags().qos == QoS::AtMostOnce {
        0
    } else {
        2
    };
    let (len, n) = varint(p.get(at..).unwrap_or_default())
        .ok_or_else(|| malformed("bad properties length"))?;
    at += n;
    let props = p
        .get(at..at + len)
        .ok_or_else(|| malformed("properties beyond the packet"))?;
    let alias = topic_alias(props)?
        .ok_or_else(|| invalid("a PUBLISH with neither a topic name nor a topic alias".into()))?;
    let topic = aliases.get(&alias).ok_or_else(|| {
        invalid(format!(
            "topic alias {alias} was never set on this connection"
        ))
    })?;
    let mut out = BytesMut::with_capacity(p.len() + topic.len());
    out.put_u16(topic.len() as u16);
    out.put_slice(topic.as_bytes());
    out.put_slice(&p[2..]);
    let out: Bytes = out.freeze();
    let header = FixedHeader::with_flags(PacketType::Publish, raw.header.flags(), out.len());
    Ok(RawPacket::new(header, out))
}

/// MQTT's Variable Byte Integer at the start of `b`: its value and length.
fn varint(b: &[u8]) -> Option<(usize, usize)> {
    let mut value = 0usize;
    for (i, byte) in b.iter().take(4).enumerate() {
        value |= usize::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// The Topic Alias (0x23) among a PUBLISH's properties, walking the others by their types.
fn topic_alias(props: &[u8]) -> Result<Option<u16>, Refused> {
    let u16_at = |i: usize| -> Result<usize, Refused> {
        let b = props
            .get(i..i + 2)
            .ok_or_else(|| malformed("a property beyond the packet"))?;
        Ok(usize::from(u16::from_be_bytes([b[0], b[1]])))
    };
    let mut i = 0;
    while i < props.len() {
        let id = props[i];
        i += 1;
        i += match id {
            0x01 => 1, // payload format indicator
            0x02 => 4, // message expiry interval
            0x23 => return u16_at(i).map(|a| Some(a as u16)),
            0x03 | 0x08 | 0x09 => 2 + u16_at(i)?, // content type, response topic, correlation
            0x26 => {
                let name = 2 + u16_at(i)?;
                name + 2 + u16_at(i + name)?
            }
            0x0B => {
                varint(&props[i..])
                    .ok_or_else(|| malformed("bad subscription id"))?
                    .1
            }
            other => return Err(malformed(&format!("property {other:#04x} in a PUBLISH"))),
        };
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqute_codec::protocol::Flags;

    fn publish(topic: &str, alias: Option<u16>, qos: QoS) -> RawPacket {
        let mut b = BytesMut::new();
        b.put_u16(topic.len() as u16);
        b.put_slice(topic.as_bytes());
        if qos != QoS::AtMostOnce {
            b.put_u16(7);
        }
        let mut props = BytesMut::new();
        props.put_u8(0x01);
        props.put_u8(1);
        props.put_u8(0x26);
        for s in ["k", "v"] {
            props.put_u16(1);
            props.put_slice(s.as_bytes());
        }
        if let Some(a) = alias {
            props.put_u8(0x23);
            props.put_u16(a);
        }
        b.put_u8(props.len() as u8);
        b.put_slice(&props);
        b.put_slice(b"payload");
        let header = FixedHeader::with_flags(PacketType::Publish, Flags::new(qos), b.len());
        RawPacket::new(header, b.freeze())
    }

    #[test]
    fn an_aliased_publication_gets_its_topic_back() {
        let mut aliases = Aliases::new();
        note(&mut aliases, Some(3), "plant/7/temp").unwrap();
        let raw = resolve(publish("", Some(3), QoS::AtLeastOnce), &aliases).unwrap();
        assert_eq!(&raw.payload[..14], b"\x00\x0cplant/7/temp");
        assert_eq!(raw.header.remaining_len(), raw.payload.len());
        assert!(raw.payload.ends_with(b"payload"));
        // A named topic passes untouched; unknown and out-of-range aliases are refused.
        let named = publish("a/b", Some(3), QoS::AtMostOnce);
        let same = resolve(named.clone(), &aliases).unwrap();
        assert_eq!(same.payload, named.payload);
        let unknown = resolve(publish("", Some(4), QoS::AtMostOnce), &aliases);
        assert_eq!(unknown.unwrap_err().code, code::TOPIC_ALIAS_INVALID);
        assert!(note(&mut aliases, Some(0), "x").is_err());
        assert!(note(&mut aliases, Some(TOPIC_ALIAS_MAXIMUM + 1), "x").is_err());
    }
}
