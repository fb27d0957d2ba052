//! MQTT packets as the session sees them, whatever the protocol version: [`In`] from the
//! client, [`Out`] to it. The bytes are the mqute-codec crate's (its v3 = MQTT 3.1, v4 = 3.1.1
//! and v5 packet types); this module only converts, so the session's logic is written once.
//!
//! Reason codes are MQTT 5's numbers throughout; for 3.1 and 3.1.1 they are mapped to the
//! return codes those versions have (a refused CONNECT to its CONNACK return code, a refused
//! filter to SUBACK's 0x80). Decoding never panics: a packet the codec cannot read, or a panic
//! inside it, is [`Refused`] (the session then closes the connection, as MQTT requires for a
//! malformed packet).

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use mqute_codec::codec::{PacketCodec, RawPacket};
use mqute_codec::protocol::{v3, v4, v5, Flags, PacketType, QoS};

/// The protocol version a client connected with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// MQTT 3.1 (protocol name MQIsdp, level 3).
    V31,
    /// MQTT 3.1.1 (level 4).
    V311,
    /// MQTT 5.0 (level 5).
    V5,
}

/// MQTT 5 reason codes the queue manager sends (the same numbers in every version's mapping).
pub mod code {
    pub const SUCCESS: u8 = 0x00;
    pub const NO_MATCHING_SUBSCRIBERS: u8 = 0x10;
    pub const NO_SUBSCRIPTION_EXISTED: u8 = 0x11;
    pub const UNSPECIFIED: u8 = 0x80;
    pub const MALFORMED: u8 = 0x81;
    pub const PROTOCOL_ERROR: u8 = 0x82;
    pub const IMPLEMENTATION_SPECIFIC: u8 = 0x83;
    pub const UNSUPPORTED_VERSION: u8 = 0x84;
    pub const CLIENT_ID_NOT_VALID: u8 = 0x85;
    pub const BAD_USER_OR_PASSWORD: u8 = 0x86;
    pub const NOT_AUTHORIZED: u8 = 0x87;
    pub const SERVER_UNAVAILABLE: u8 = 0x88;
    pub const SERVER_SHUTTING_DOWN: u8 = 0x8B;
    pub const KEEP_ALIVE_TIMEOUT: u8 = 0x8D;
    pub const SESSION_TAKEN_OVER: u8 = 0x8E;
    pub const TOPIC_FILTER_INVALID: u8 = 0x8F;
    pub const TOPIC_NAME_INVALID: u8 = 0x90;
    pub const PACKET_ID_NOT_FOUND: u8 = 0x92;
    pub const PACKET_TOO_LARGE: u8 = 0x95;
    pub const TOPIC_ALIAS_INVALID: u8 = 0x94;
    pub const QUOTA_EXCEEDED: u8 = 0x97;
    pub const SHARED_SUBS_NOT_SUPPORTED: u8 = 0x9E;
}

/// MQTT 5 properties a publication carries (empty for 3.1 and 3.1.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Props {
    pub user: Vec<(String, String)>,
    pub response_topic: Option<String>,
    pub correlation: Option<Bytes>,
    pub expiry: Option<Duration>,
    pub content_type: Option<String>,
    pub format: Option<u8>,
    pub topic_alias: Option<u16>,
}

/// A PUBLISH, either way (and a CONNECT's will).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publication {
    pub topic: String,
    pub qos: u8,
    pub retain: bool,
    pub dup: bool,
    /// 0 at QoS 0.
    pub packet_id: u16,
    pub payload: Bytes,
    pub props: Props,
}

/// A CONNECT.
#[derive(Debug, Clone)]
pub struct Connect {
    pub version: Version,
    pub client_id: String,
    pub clean: bool,
    pub keep_alive: Duration,
    pub user: Option<String>,
    pub password: Option<String>,
    pub will: Option<Publication>,
    /// MQTT 5: how long the session outlives the connection (0: it ends with it).
    pub session_expiry: Option<Duration>,
    /// MQTT 5: how long after an abnormal end the will waits (a new connection of the client
    /// id meanwhile cancels it).
    pub will_delay: Option<Duration>,
    /// MQTT 5: the QoS 1 and 2 publications the client takes unacknowledged at once.
    pub receive_maximum: Option<u16>,
}

/// One SUBSCRIBE filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub topic: String,
    pub qos: u8,
    pub no_local: bool,
    /// 0 send retained, 1 only for a new subscription, 2 never.
    pub retain_handling: u8,
}

/// A packet from the client.
#[derive(Debug, Clone)]
pub enum In {
    Connect(Box<Connect>),
    Publish(Publication),
    PubAck(u16),
    PubRec(u16),
    PubRel(u16),
    PubComp(u16),
    Subscribe { id: u16, filters: Vec<Filter> },
    Unsubscribe { id: u16, filters: Vec<String> },
    PingReq,
    Disconnect { code: u8 },
}

/// A packet to the client.
#[derive(Debug, Clone)]
pub enum Out {
    ConnAck {
        code: u8,
        present: bool,
        assigned_id: Option<String>,
        receive_maximum: u16,
    },
    Publish(Publication),
    PubAck {
        id: u16,
        code: u8,
    },
    PubRec {
        id: u16,
        code: u8,
    },
    PubRel {
        id: u16,
    },
    PubComp {
        id: u16,
    },
    SubAck {
        id: u16,
        codes: Vec<u8>,
    },
    UnsubAck {
        id: u16,
        codes: Vec<u8>,
    },
    PingResp,
    Disconnect {
        code: u8,
    },
}

/// Why a packet could not be read: the session closes the connection (MQTT 5 tells why
/// first, with this reason code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub code: u8,
    pub why: String,
}

impl Refused {
    fn malformed(why: impl std::fmt::Display) -> Refused {
        Refused {
            code: code::MALFORMED,
            why: why.to_string(),
        }
    }
}

/// Whether `buf` begins with a whole packet (its fixed header says how long it is).
pub fn whole_packet(buf: &[u8]) -> bool {
    let mut len = 0usize;
    for (i, b) in buf.iter().skip(1).take(4).enumerate() {
        len |= usize::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return buf.len() >= 2 + i + len;
        }
    }
    false
}

/// Takes one whole packet off the front of `buf` (`Ok(None)`: not all of it is there yet).
/// Packets longer than `max` are refused before they are read.
pub fn frame(buf: &mut BytesMut, max: usize) -> Result<Option<RawPacket>, Refused> {
    let codec = PacketCodec::new(Some(max), None);
    match guarded(|| codec.try_decode(buf)) {
        Ok(Ok(raw)) => Ok(Some(raw)),
        Ok(Err(mqute_codec::Error::NotEnoughBytes(_))) => Ok(None),
        Ok(Err(mqute_codec::Error::PayloadTooLarge)) => Err(Refused {
            code: code::PACKET_TOO_LARGE,
            why: format!("a packet longer than the {max} bytes allowed"),
        }),
        Ok(Err(e)) => Err(Refused::malformed(e)),
        Err(why) => Err(Refused::malformed(why)),
    }
}

/// Runs every decoder of incoming bytes over `data` — framing, the CONNECT's version, each
/// version's packets, topic aliases — for the fuzzer (`fuzz/fuzz_targets/mqtt_packets.rs`)
/// and its corpus replay: whatever the bytes, an error and never a panic.
pub fn decode_everything(data: &[u8]) {
    let mut buf = BytesMut::from(data);
    let mut aliases = crate::alias::Aliases::new();
    aliases.insert(1, "a/b".to_owned());
    for _ in 0..64 {
        let raw = match frame(&mut buf, 1 << 20) {
            Ok(Some(raw)) => raw,
            _ => return,
        };
        let _ = connect_version(&raw);
        for v in [Version::V31, Version::V311, Version::V5] {
            let _ = decode(v, raw.clone());
        }
        if let Ok(r) = crate::alias::resolve(raw, &aliases) {
            let _ = decode(Version::V5, r);
        }
    }
}

/// Runs the codec, turning a panic inside it into an error.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| "the packet could not be decoded".to_owned())
}

/// The version a CONNECT asks for, from its protocol name and level.
pub fn connect_version(raw: &RawPacket) -> Result<Version, Refused> {
    if raw.header.packet_type() != PacketType::Connect {
        return Err(Refused {
            code: code::PROTOCOL_ERROR,
            why: "the first packet was not CONNECT".into(),
        });
    }
    let p = &raw.payload;
    match (p.get(..6), p.get(..8)) {
        (Some(b"\x00\x04MQTT"), _) => match p.get(6) {
            Some(4) => Ok(Version::V311),
            Some(5) => Ok(Version::V5),
            level => Err(unsupported(level.copied())),
        },
        (_, Some(b"\x00\x06MQIsdp")) => match p.get(8) {
            Some(3) => Ok(Version::V31),
            level => Err(unsupported(level.copied())),
        },
        _ => Err(Refused::malformed("CONNECT names no MQTT protocol")),
    }
}

fn unsupported(level: Option<u8>) -> Refused {
    Refused {
        code: code::UNSUPPORTED_VERSION,
        why: format!(
            "protocol level {} is not one of 3 (MQTT 3.1), 4 (3.1.1) or 5 (5.0)",
            level.map_or("?".into(), |l| l.to_string())
        ),
    }
}

/// A 3.1 (`v3`) or 3.1.1 (`v4`) packet as [`In`].
macro_rules! from_v3_or_v4 {
    ($m:ident, $version:expr, $p:expr) => {
        Ok(match $p {
            $m::Packet::Connect(c) => {
                let creds = c.credentials();
                In::Connect(Box::new(Connect {
                    version: $version,
                    client_id: c.client_id(),
                    clean: c.clean_session(),
                    keep_alive: c.keep_alive(),
                    user: creds.as_ref().map(|c| c.username()),
                    password: creds.and_then(|c| c.password()),
                    will: c
                        .will()
                        .map(|w| will(w.topic, w.payload, w.qos, w.retain, Props::default())),
                    session_expiry: None,
                    will_delay: None,
                    receive_maximum: None,
                }))
            }
            $m::Packet::Publish(p) => In::Publish(publication_v4(&p)),
            $m::Packet::PubAck(p) => In::PubAck(p.packet_id()),
            $m::Packet::PubRec(p) => In::PubRec(p.packet_id()),
            $m::Packet::PubRel(p) => In::PubRel(p.packet_id()),
            $m::Packet::PubComp(p) => In::PubComp(p.packet_id()),
            $m::Packet::Subscribe(s) => subscribe_v4(&s),
            $m::Packet::Unsubscribe(u) => In::Unsubscribe {
                id: u.packet_id(),
                filters: u.filters().into_iter().collect(),
            },
            $m::Packet::PingReq(_) => In::PingReq,
            $m::Packet::Disconnect(_) => In::Disconnect {
                code: code::SUCCESS,
            },
            other => return Err(not_from_client(&format!("{other:?}"))),
        })
    };
}

/// Decodes one packet of `version`.
pub fn decode(version: Version, raw: RawPacket) -> Result<In, Refused> {
    match version {
        Version::V31 => match guarded(|| v3::Packet::decode(raw)) {
            Ok(Ok(p)) => from_v3(p),
            Ok(Err(e)) => Err(Refused::malformed(e)),
            Err(why) => Err(Refused::malformed(why)),
        },
        Version::V311 => match guarded(|| v4::Packet::decode(raw)) {
            Ok(Ok(p)) => from_v4(p),
            Ok(Err(e)) => Err(Refused::malformed(e)),
            Err(why) => Err(Refused::malformed(why)),
        },
        Version::V5 => match guarded(|| v5::Packet::decode(raw)) {
            Ok(Ok(p)) => from_v5(p),
            Ok(Err(e)) => Err(Refused::malformed(e)),
            Err(why) => Err(Refused::malformed(why)),
        },
    }
}

fn qos(q: QoS) -> u8 {
    q.into()
}

fn to_qos(q: u8) -> QoS {
    match q {
        0 => QoS::AtMostOnce,
        1 => QoS::AtLeastOnce,
        _ => QoS::ExactlyOnce,
    }
}

fn will(topic: String, payload: Bytes, q: QoS, retain: bool, props: Props) -> Publication {
    Publication {
        topic,
        qos: qos(q),
        retain,
        dup: false,
        packet_id: 0,
        payload,
        props,
    }
}

/// A 3.1 packet: the code 3.1.1's are read with (3.1's types are 3.1.1's, but for CONNECT,
/// CONNACK and SUBACK, whose fields read alike).
fn from_v3(p: v3::Packet) -> Result<In, Refused> {
    from_v3_or_v4!(v3, Version::V31, p)
}

fn not_from_client(what: &str) -> Refused {
    let name = what.split('(').next().unwrap_or(what);
    Refused {
        code: code::PROTOCOL_ERROR,
        why: format!("{name} is a packet only a server sends"),
    }
}

fn publication_v4(p: &v4::Publish) -> Publication {
    let f = p.flags();
    Publication {
        topic: p.topic(),
        qos: qos(f.qos),
        retain: f.retain,
        dup: f.dup,
        packet_id: p.packet_id().unwrap_or(0),
        payload: p.payload(),
        props: Props::default(),
    }
}

fn subscribe_v4(s: &v4::Subscribe) -> In {
    In::Subscribe {
        id: s.packet_id(),
        filters: s
            .filters()
            .into_iter()
            .map(|f| Filter {
                topic: f.topic,
                qos: qos(f.qos),
                no_local: false,
                retain_handling: 0,
            })
            .collect(),
    }
}

fn from_v4(p: v4::Packet) -> Result<In, Refused> {
    from_v3_or_v4!(v4, Version::V311, p)
}

fn props_v5(p: Option<v5::PublishProperties>) -> Props {
    let p = p.unwrap_or_default();
    Props {
        user: p.user_properties,
        response_topic: p.response_topic,
        correlation: p.correlation_data,
        expiry: p.message_expiry_interval,
        content_type: p.content_type,
        format: p.payload_format_indicator,
        topic_alias: p.topic_alias,
    }
}

fn connect_v5(c: &v5::Connect) -> In {
    let creds = c.credentials();
    let props = c.properties().unwrap_or_default();
    In::Connect(Box::new(Connect {
        version: Version::V5,
        client_id: c.client_id(),
        clean: c.clean_session(),
        keep_alive: c.keep_alive(),
        user: creds.as_ref().map(|c| c.username()),
        password: creds.and_then(|c| c.password()),
        will_delay: c
            .will()
            .and_then(|w| w.properties.as_ref().and_then(|p| p.delay_interval)),
        will: c.will().map(|w| {
            let wp = w.properties.unwrap_or_default();
            let props = Props {
                response_topic: wp.response_topic,
                correlation: wp.correlation_data,
                expiry: wp.message_expiry_interval,
                content_type: wp.content_type,
                format: wp.payload_format_indicator,
                user: wp.user_properties,
                topic_alias: None,
            };
            will(w.topic, w.payload, w.qos, w.retain, props)
        }),
        session_expiry: props.session_expiry_interval,
        receive_maximum: props.receive_maximum,
    }))
}

fn from_v5(p: v5::Packet) -> Result<In, Refused> {
    Ok(match p {
        v5::Packet::Connect(c) => connect_v5(&c),
        v5::Packet::Publish(p) => {
            let f = p.flags();
            In::Publish(Publication {
                topic: p.topic(),
                qos: qos(f.qos),
                retain: f.retain,
                dup: f.dup,
                packet_id: p.packet_id().unwrap_or(0),
                payload: p.payload(),
                props: props_v5(p.properties()),
            })
        }
        v5::Packet::PubAck(p) => In::PubAck(p.packet_id()),
        v5::Packet::PubRec(p) => In::PubRec(p.packet_id()),
        v5::Packet::PubRel(p) => In::PubRel(p.packet_id()),
        v5::Packet::PubComp(p) => In::PubComp(p.packet_id()),
        v5::Packet::Subscribe(s) => In::Subscribe {
            id: s.packet_id(),
            filters: s
                .filters()
                .into_iter()
                .map(|f| Filter {
                    topic: f.topic,
                    qos: qos(f.qos),
                    no_local: f.no_local,
                    retain_handling: f.retain_handling as u8,
                })
                .collect(),
        },
        v5::Packet::Unsubscribe(u) => In::Unsubscribe {
            id: u.packet_id(),
            filters: u.filters().into_iter().collect(),
        },
        v5::Packet::PingReq(_) => In::PingReq,
        v5::Packet::Disconnect(d) => In::Disconnect {
            code: d.code().into(),
        },
        other => return Err(not_from_client(&format!("{other:?}"))),
    })
}

/// Appends `out`, encoded for `version`, to `buf`.
pub fn encode(version: Version, out: &Out, buf: &mut BytesMut) -> Result<(), String> {
    let r = guarded(|| match version {
        Version::V5 => encode_v5(out, buf),
        Version::V311 => encode_v4(out, buf),
        Version::V31 => encode_v3(out, buf),
    });
    match r {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(why) => Err(why),
    }
}

/// The CONNACK return code of 3.1 and 3.1.1 for an MQTT 5 reason code.
fn connack_v4(code: u8) -> v4::ConnectReturnCode {
    use v4::ConnectReturnCode as R;
    match code {
        code::SUCCESS => R::Success,
        code::UNSUPPORTED_VERSION => R::UnacceptableProtocolVersion,
        code::CLIENT_ID_NOT_VALID => R::IdentifierRejected,
        code::BAD_USER_OR_PASSWORD => R::BadAuthData,
        code::NOT_AUTHORIZED => R::NotAuthorized,
        _ => R::ServerUnavailable,
    }
}

fn flags(p: &Publication) -> Flags {
    Flags {
        dup: p.dup,
        qos: to_qos(p.qos),
        retain: p.retain,
    }
}

fn suback_v4(code: u8) -> v4::ReturnCode {
    match code {
        0..=2 => v4::ReturnCode::Success(to_qos(code)),
        _ => v4::ReturnCode::Failure,
    }
}

fn encode_v4(out: &Out, buf: &mut BytesMut) -> Result<(), mqute_codec::Error> {
    let p = match out {
        Out::ConnAck { code, present, .. } => {
            v4::Packet::ConnAck(v4::ConnAck::new(connack_v4(*code), *present))
        }
        Out::Publish(p) => v4::Packet::Publish(v4::Publish::new(
            p.topic.clone(),
            p.packet_id,
            p.payload.clone(),
            flags(p),
        )),
        Out::PubAck { id, .. } => v4::Packet::PubAck(v4::PubAck::new(*id)),
        Out::PubRec { id, .. } => v4::Packet::PubRec(v4::PubRec::new(*id)),
        Out::PubRel { id } => v4::Packet::PubRel(v4::PubRel::new(*id)),
        Out::PubComp { id } => v4::Packet::PubComp(v4::PubComp::new(*id)),
        Out::SubAck { id, codes } => {
            v4::Packet::SubAck(v4::SubAck::new(*id, codes.iter().map(|c| suback_v4(*c))))
        }
        Out::UnsubAck { id, .. } => v4::Packet::UnsubAck(v4::UnsubAck::new(*id)),
        Out::PingResp => v4::Packet::PingResp(v4::PingResp::default()),
        // 3.1.1 has no server DISCONNECT: the connection just closes.
        Out::Disconnect { .. } => return Ok(()),
    };
    p.encode(buf)
}

fn encode_v3(out: &Out, buf: &mut BytesMut) -> Result<(), mqute_codec::Error> {
    match out {
        Out::ConnAck { code, .. } => {
            v3::Packet::ConnAck(v3::ConnAck::new(connack_v4(*code))).encode(buf)
        }
        Out::SubAck { id, codes } => v3::Packet::SubAck(v3::SubAck::new(
            *id,
            codes
                .iter()
                .map(|c| v3::ReturnCode::new(to_qos((*c).min(2)))),
        ))
        .encode(buf),
        other => encode_v4(other, buf),
    }
}

fn reason(c: u8) -> Result<v5::ReasonCode, mqute_codec::Error> {
    v5::ReasonCode::try_from(c)
}

fn publish_v5(p: &Publication) -> v5::Publish {
    let props = &p.props;
    let has = !props.user.is_empty()
        || props.response_topic.is_some()
        || props.correlation.is_some()
        || props.expiry.is_some()
        || props.content_type.is_some()
        || props.format.is_some();
    let properties = has.then(|| v5::PublishProperties {
        payload_format_indicator: props.format,
        message_expiry_interval: props.expiry,
        topic_alias: None,
        response_topic: props.response_topic.clone(),
        correlation_data: props.correlation.clone(),
        user_properties: props.user.clone(),
        subscription_id: Vec::new(),
        content_type: props.content_type.clone(),
    });
    v5::Publish::new(
        p.topic.clone(),
        p.packet_id,
        properties,
        p.payload.clone(),
        flags(p),
    )
}

fn encode_v5(out: &Out, buf: &mut BytesMut) -> Result<(), mqute_codec::Error> {
    let p = match out {
        Out::ConnAck {
            code,
            present,
            assigned_id,
            receive_maximum,
        } => {
            let props = v5::ConnAckProperties {
                assigned_client_id: assigned_id.clone(),
                receive_maximum: Some(*receive_maximum),
                maximum_qos: None,
                shared_subscription_available: Some(true),
                topic_alias_maximum: Some(crate::alias::TOPIC_ALIAS_MAXIMUM),
                ..Default::default()
            };
            v5::Packet::ConnAck(v5::ConnAck::new(reason(*code)?, *present, Some(props)))
        }
        Out::Publish(p) => v5::Packet::Publish(publish_v5(p)),
        Out::PubAck { id, code } => v5::Packet::PubAck(v5::PubAck::new(*id, reason(*code)?, None)),
        Out::PubRec { id, code } => v5::Packet::PubRec(v5::PubRec::new(*id, reason(*code)?, None)),
        Out::PubRel { id } => {
            v5::Packet::PubRel(v5::PubRel::new(*id, v5::ReasonCode::Success, None))
        }
        Out::PubComp { id } => {
            v5::Packet::PubComp(v5::PubComp::new(*id, v5::ReasonCode::Success, None))
        }
        Out::SubAck { id, codes } => {
            let codes: Result<Vec<_>, _> = codes.iter().map(|c| reason(*c)).collect();
            v5::Packet::SubAck(v5::SubAck::new(*id, None, codes?))
        }
        Out::UnsubAck { id, codes } => {
            let codes: Result<Vec<_>, _> = codes.iter().map(|c| reason(*c)).collect();
            v5::Packet::UnsubAck(v5::UnsubAck::new(*id, None, codes?))
        }
        Out::PingResp => v5::Packet::PingResp(v5::PingResp::default()),
        Out::Disconnect { code } => {
            v5::Packet::Disconnect(v5::Disconnect::new(reason(*code)?, None))
        }
    };
    p.encode(buf)
}

#[cfg(test)]
mod tests {
    use super::whole_packet;

    #[test]
    fn a_whole_packet_is_told_from_its_fixed_header() {
        assert!(!whole_packet(&[]));
        assert!(!whole_packet(&[0x40]));
        assert!(whole_packet(&[0xc0, 0]), "PINGREQ");
        assert!(!whole_packet(&[0x40, 2, 0]), "PUBACK cut short");
        assert!(whole_packet(&[0x40, 2, 0, 1, 0x30]), "PUBACK and more");
        // Remaining length 200 in two bytes (0xc8 0x01): 203 bytes in all.
        let mut p = vec![0x30, 0xc8, 0x01];
        p.resize(202, 0);
        assert!(!whole_packet(&p));
        p.push(0);
        assert!(whole_packet(&p));
        // A length field that never ends is not a packet.
        assert!(!whole_packet(&[0x30, 0xff, 0xff, 0xff, 0xff, 0x01]));
    }
}
