//! Every request and response survives encode → frame → decode unchanged, and arbitrary bytes
//! never make the decoders panic.

use bytes::{Bytes, BytesMut};
use ferry_proto::msg::{open_flags, put_flags};
use ferry_proto::*;
use proptest::prelude::*;

fn arb_str(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[A-Za-z0-9._ é]{{0,{max}}}")).unwrap()
}

fn arb_descriptor() -> impl Strategy<Value = WireDescriptor> {
    (
        any::<[u8; 24]>(),
        any::<[u8; 24]>(),
        0u8..3,
        any::<u8>(),
        any::<u64>(),
        (
            any::<u8>(),
            any::<u32>(),
            arb_str(48),
            arb_str(48),
            arb_str(8),
        ),
        (
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u64>(),
            arb_str(28),
            arb_str(12),
        ),
    )
        .prop_map(
            |(m, c, p, pr, e, (mt, fb, rq, rqm, f), (cc, en, bo, pt, an, u))| WireDescriptor {
                msg_id: m,
                correl_id: c,
                persistence: p,
                priority: pr,
                expiry_ms: e,
                message_type: mt,
                feedback: fb,
                // Any report options, none included: a message encodes them only when set.
                report: bo.rotate_left(13) & cc,
                reply_to_queue: rq.as_str().into(),
                reply_to_qmgr: rqm.as_str().into(),
                format: f.as_str().into(),
                ccsid: cc,
                encoding: en,
                backout_count: bo,
                put_time_ms: pt,
                put_appl_name: an.as_str().into(),
                user_id: u.as_str().into(),
            },
        )
}

fn arb_value() -> impl Strategy<Value = WireValue> {
    prop_oneof![
        Just(WireValue::Null),
        any::<bool>().prop_map(WireValue::Bool),
        any::<i8>().prop_map(WireValue::I8),
        any::<i16>().prop_map(WireValue::I16),
        any::<i32>().prop_map(WireValue::I32),
        any::<i64>().prop_map(WireValue::I64),
        (-1.0e6f32..1.0e6).prop_map(WireValue::F32),
        (-1.0e12f64..1.0e12).prop_map(WireValue::F64),
        arb_str(20).prop_map(WireValue::String),
        proptest::collection::vec(any::<u8>(), 0..20)
            .prop_map(|v| WireValue::Bytes(Bytes::from(v))),
    ]
}

fn arb_message() -> impl Strategy<Value = WireMessage> {
    (
        arb_descriptor(),
        proptest::collection::vec((arb_str(12), arb_value()), 0..4),
        proptest::option::of((
            any::<u32>(),
            arb_str(48),
            arb_str(48),
            arb_str(8),
            arb_str(28),
            any::<u64>(),
        )),
        proptest::option::of((arb_str(48), arb_str(48), any::<[u8; 24]>())),
        proptest::collection::vec(any::<u8>(), 0..300),
    )
        .prop_map(|(descriptor, properties, dl, xmit, body)| WireMessage {
            descriptor,
            properties,
            dead_letter: dl.map(
                |(reason, dest_queue, dest_qmgr, original_format, put_appl_name, put_time_ms)| {
                    Box::new(WireDeadLetter {
                        reason,
                        dest_queue: dest_queue.as_str().into(),
                        dest_qmgr: dest_qmgr.as_str().into(),
                        original_format: original_format.as_str().into(),
                        put_appl_name: put_appl_name.as_str().into(),
                        put_time_ms,
                    })
                },
            ),
            transmission: xmit.map(|(q, m, id)| {
                Box::new(WireTransmission {
                    remote_queue: q.as_str().into(),
                    remote_qmgr: m.as_str().into(),
                    xmit_id: id,
                })
            }),
            body: Bytes::from(body),
        })
}

fn arb_object() -> impl Strategy<Value = WireObject> {
    (0u8..4, arb_str(48), arb_str(48), arb_str(300)).prop_map(
        |(kind, name, dynamic_name, topic)| WireObject {
            kind,
            name,
            // Only a topic (kind 3) carries a topic string.
            topic: if kind == 3 { topic } else { String::new() },
            dynamic_name,
        },
    )
}

fn arb_request() -> impl Strategy<Value = Request> {
    prop_oneof![
        (
            arb_str(28),
            arb_str(12),
            arb_str(20),
            any::<u32>(),
            proptest::collection::vec(1u8..5, 0..4),
            arb_str(20),
        )
            .prop_map(|(app_name, user, password, flags, compression, channel)| {
                Request::Connect {
                    app_name,
                    user,
                    password,
                    // The SVRCONN flag says whether a channel name follows: the codec's own.
                    flags: flags & !ferry_proto::msg::connect_flags::SVRCONN,
                    compression,
                    channel,
                }
            }),
        Just(Request::Disconnect),
        (arb_object(), 0..=open_flags::ALL, "[a-z =']{0,40}").prop_map(
            |(object, options, selector)| Request::Open {
                object,
                // The codec's own bits: set exactly when their strings are there.
                options: options
                    & !(ferry_proto::msg::open_flags::ALTERNATE_USER
                        | ferry_proto::msg::open_flags::SELECTOR),
                alternate_user: String::new(),
                selector,
            }
        ),
        (any::<u32>(), any::<u8>()).prop_map(|(hobj, options)| Request::Close { hobj, options }),
        (any::<u32>(), arb_put_options(), arb_message())
            .prop_map(|(hobj, options, msg)| Request::Put { hobj, options, msg }),
        (arb_object(), arb_put_options(), arb_message()).prop_map(|(object, options, msg)| {
            Request::Put1 {
                object,
                options,
                msg,
            }
        }),
        (
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            proptest::option::of(any::<[u8; 24]>()),
            proptest::option::of(any::<[u8; 24]>()),
            any::<u32>(),
            prop_oneof![Just(0u32), any::<u32>()],
        )
            .prop_map(|(hobj, flags, wait_ms, msg_id, correl_id, max_len, more)| {
                Request::Get {
                    hobj,
                    options: WireGetOptions {
                        flags,
                        wait_ms,
                        msg_id,
                        correl_id,
                        max_len,
                        more,
                    },
                }
            }),
        (any::<u32>(), proptest::collection::vec(any::<i32>(), 0..8))
            .prop_map(|(hobj, selectors)| Request::Inquire { hobj, selectors }),
        (
            any::<u32>(),
            proptest::collection::vec((any::<i32>(), any::<i64>()), 0..8),
            proptest::collection::vec((any::<i32>(), "[ -~]{0,64}"), 0..3)
        )
            .prop_map(|(hobj, values, texts)| Request::Set {
                hobj,
                values,
                texts
            }),
        Just(Request::Commit),
        Just(Request::Backout),
        Just(Request::Status),
        Just(Request::Heartbeat),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(hobj, credit, consumed)| {
            Request::Stream {
                hobj,
                credit,
                consumed,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn requests_round_trip_through_frames(req in arb_request(), conv in any::<u16>(), id in any::<u64>()) {
        let mut payload = BytesMut::new();
        req.encode(&mut payload);
        let mut wire = BytesMut::new();
        let header = FrameHeader { opcode: req.opcode() as u8, flags: 0, conv, request_id: id };
        encode_frame(&mut wire, header, &payload);
        let frame = decode_frame(&mut wire, DEFAULT_MAX_FRAME).unwrap().unwrap();
        prop_assert_eq!(frame.header, header);
        let back = Request::decode(frame.header.opcode, frame.payload).unwrap();
        prop_assert_eq!(back, req);
    }

    #[test]
    fn got_responses_round_trip(msg in arb_message(), data_length in any::<u64>(), warn in any::<bool>()) {
        let status = if warn {
            Status { completion: 1, reason: 2079, detail: "truncated".into(), data_length }
        } else {
            Status::OK
        };
        let reply = Reply::Got { msg, data_length };
        let mut out = BytesMut::new();
        encode_response(&mut out, &status, &reply);
        let (s, r) = decode_response(Opcode::Get as u8, out.freeze()).unwrap();
        prop_assert_eq!(s, status);
        prop_assert_eq!(r, reply);
    }

    /// A push decodes straight into the engine's message as the wire message would convert,
    /// and decoding a run of pushes through one memo gives what decoding each alone gives:
    /// pushes that repeat the last one's descriptor parts or properties (another publication
    /// from the same publisher), ones that do not, and broken frames between them.
    #[test]
    fn got_responses_decode_straight_into_messages(
        mut a in arb_message(),
        accepted in any::<bool>(),
        b in arb_message(),
        ids in proptest::collection::vec((any::<[u8; 24]>(), any::<u64>(), any::<u32>(), any::<u64>(), any::<bool>()), 1..4),
    ) {
        use ferry_proto::map::{decode_got_message, message_from_wire, PushMemo};
        let encode = |m: &WireMessage| {
            let mut out = BytesMut::new();
            encode_response(&mut out, &Status::OK, &Reply::Got { msg: m.clone(), data_length: 9 });
            out.freeze()
        };
        let alone = |m: &WireMessage| {
            let (_, got) = decode_got_message(encode(m), &mut PushMemo::default()).unwrap();
            got.unwrap().message.map_err(|e| e.reason)
        };
        prop_assert_eq!(alone(&a), message_from_wire(a.clone()).map_err(|e| e.reason));
        if accepted {
            // One the engine's types accept (most random ones are refused), as publications are.
            a.descriptor.message_type = 8;
            (a.descriptor.reply_to_queue, a.descriptor.reply_to_qmgr) = ("".into(), "".into());
            a.properties = vec![("MQTopicString".into(), WireValue::String("a/b".into()))];
            (a.dead_letter, a.transmission) = (None, None);
            prop_assert!(alone(&a).is_ok());
        }
        // a, then a's publisher again (new ids, expiry, backout, put time; the same properties
        // or b's), then b, then broken bytes, then a again.
        let mut run = vec![a.clone()];
        for (id, expiry, backout, put_time, same_props) in ids {
            let mut m = a.clone();
            (m.descriptor.msg_id, m.descriptor.expiry_ms) = (id, expiry);
            (m.descriptor.backout_count, m.descriptor.put_time_ms) = (backout, put_time);
            if !same_props {
                m.properties = b.properties.clone();
            }
            run.push(m);
        }
        run.push(b.clone());
        let mut memo = PushMemo::default();
        for m in run.iter().chain([&a]) {
            let (_, got) = decode_got_message(encode(m), &mut memo).unwrap();
            let got = got.unwrap();
            prop_assert_eq!(got.data_length, 9);
            prop_assert_eq!(got.message.map_err(|e| e.reason), alone(m));
            prop_assert!(decode_got_message(Bytes::from_static(&[0, 0]), &mut memo).is_err());
            let mut cut = encode(m);
            cut.truncate(cut.len() - 1);
            prop_assert!(decode_got_message(cut, &mut memo).is_err());
        }
    }

    #[test]
    fn garbage_never_panics_the_decoders(bytes in proptest::collection::vec(any::<u8>(), 0..512), op in any::<u8>()) {
        let b = Bytes::from(bytes.clone());
        let _ = Request::decode(op, b.clone());
        let _ = decode_response(op, b);
        let mut buf = BytesMut::from(&bytes[..]);
        while let Ok(Some(f)) = decode_frame(&mut buf, 4096) {
            let _ = Request::decode(f.header.opcode, f.payload);
        }
    }
}

#[test]
fn failed_responses_carry_only_the_status() {
    let status = Status {
        completion: 2,
        reason: 2053,
        detail: "queue APP.IN is full (MAXDEPTH 5000)".into(),
        data_length: 0,
    };
    let mut out = BytesMut::new();
    encode_response(
        &mut out,
        &status,
        &Reply::Opened {
            hobj: 1,
            name: "X".into(),
            flags: 0,
        },
    );
    let (s, r) = decode_response(Opcode::Open as u8, out.freeze()).unwrap();
    assert_eq!(s, status);
    assert_eq!(r, Reply::Empty);
}

#[test]
fn hostile_counts_are_refused_without_allocating() {
    let mut p = BytesMut::new();
    p.extend_from_slice(&7u32.to_le_bytes()); // hobj
    p.extend_from_slice(&u32::MAX.to_le_bytes()); // selector count
    let e = Request::decode(Opcode::Inquire as u8, p.freeze()).unwrap_err();
    assert!(
        matches!(
            e,
            WireError::Truncated {
                what: "selector count",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut p = BytesMut::new();
    Request::Commit.encode(&mut p);
    p.extend_from_slice(b"junk");
    assert!(matches!(
        Request::decode(Opcode::Commit as u8, p.freeze()),
        Err(WireError::TrailingBytes { .. })
    ));
}

/// Put options as a client sends them: at most one pass bit, the codec's own alternate-user
/// bit clear, and a context handle only beside a pass bit.
fn arb_put_options() -> impl Strategy<Value = WirePutOptions> {
    (0..=put_flags::ALL, any::<u32>(), "[A-Za-z0-9]{0,12}").prop_map(
        |(flags, context, alternate_user)| {
            let mut flags = flags & !put_flags::ALTERNATE_USER;
            if flags & put_flags::PASS == put_flags::PASS {
                flags &= !put_flags::PASS_ALL_CONTEXT;
            }
            let context = if flags & put_flags::PASS != 0 {
                context
            } else {
                0
            };
            WirePutOptions {
                flags,
                context,
                alternate_user,
            }
        },
    )
}

#[test]
fn a_subscription_descriptor_and_its_answer_round_trip() {
    use ferry_model::{CorrelId, SubAction, SubDescriptor};
    let sd = SubDescriptor {
        topic: "Price/Fruit/#".repeat(500),
        name: Some("a durable name with spaces/and slashes".into()),
        user_data: Some("market".into()),
        correl_id: Some(CorrelId::from_slice(b"CORREL")),
        action: SubAction::CreateOrResume,
        durable: true,
        managed: true,
        char_wildcards: true,
        any_user: true,
        new_publications_only: true,
        read_ahead: Some(true),
        selector: Some("region = 'EMEA' AND qty > 10".into()),
        ..Default::default()
    };
    let req = Request::Subscribe {
        sub: map::sub_to_wire(&sd),
        hobj: 7,
    };
    let mut p = BytesMut::new();
    req.encode(&mut p);
    let back = Request::decode(Opcode::Subscribe as u8, p.freeze()).unwrap();
    assert_eq!(back, req);
    let Request::Subscribe { sub, .. } = back else {
        unreachable!()
    };
    assert_eq!(map::sub_from_wire(&sub).unwrap(), sd);
    let reply = Reply::Subscribed {
        hobj: 3,
        hsub: 4,
        queue: "SYSTEM.MANAGED.DURABLE.X".into(),
        flags: 1,
    };
    let mut out = BytesMut::new();
    encode_response(&mut out, &Status::OK, &reply);
    let (_, back) = decode_response(Opcode::Subscribe as u8, out.freeze()).unwrap();
    assert_eq!(back, reply);
    // Unknown option bits are refused.
    let mut bad = map::sub_to_wire(&sd);
    bad.flags |= 1 << 20;
    let mut p = BytesMut::new();
    Request::Subscribe { sub: bad, hobj: 0 }.encode(&mut p);
    assert!(Request::decode(Opcode::Subscribe as u8, p.freeze()).is_err());
    // MQSUBRQ and its answer.
    let req = Request::SubRequest { hsub: 4 };
    let mut p = BytesMut::new();
    req.encode(&mut p);
    assert_eq!(
        Request::decode(Opcode::SubRequest as u8, p.freeze()).unwrap(),
        req
    );
    let reply = Reply::SubRequested { count: 2 };
    let mut out = BytesMut::new();
    encode_response(&mut out, &Status::OK, &reply);
    let (_, back) = decode_response(Opcode::SubRequest as u8, out.freeze()).unwrap();
    assert_eq!(back, reply);
}

#[test]
fn a_message_encoded_straight_from_the_engine_is_the_wire_messages_bytes() {
    use ferry_model::{DeadLetterHeader, Message, PropertyValue, Reason};
    let mut m = Message::text("body");
    m.properties
        .set("MQTopicString", PropertyValue::String("a/b".into()))
        .unwrap();
    m.properties.set("n", PropertyValue::I32(7)).unwrap();
    m.properties
        .set(
            "raw",
            PropertyValue::Bytes(bytes::Bytes::from_static(b"\x00\x01")),
        )
        .unwrap();
    m.dead_letter = Some(Box::new(DeadLetterHeader {
        reason: Reason::QFull,
        dest_queue: ferry_model::name::object_name("Q").unwrap(),
        dest_qmgr: ferry_model::name::object_name("QM").unwrap(),
        original_format: ferry_model::name::FormatName::truncating("MQSTR"),
        put_appl_name: ferry_model::name::ApplName::truncating("app"),
        put_time: std::time::UNIX_EPOCH + std::time::Duration::from_millis(5),
    }));
    let status = Status::OK;
    let mut old = BytesMut::new();
    encode_response(
        &mut old,
        &status,
        &Reply::Got {
            msg: map::message_to_wire(&m),
            data_length: 4,
        },
    );
    let mut new = BytesMut::new();
    map::encode_got(&mut new, &status, 4, &m);
    assert_eq!(old, new);
    // The head and the body sent after it are the same bytes.
    let mut head = BytesMut::new();
    assert!(map::encode_got_head(&mut head, &status, 4, &m));
    head.extend_from_slice(&m.body);
    assert_eq!(head, new);
}

/// A sender's ChannelStart and the receiver's ChannelStarted round trip with the window of
/// recoverable batches and the batches committed ahead of the sender; the forms without them
/// (a partner that waits for each batch) still decode, as a window of 1 with none ahead.
#[test]
fn channel_start_and_its_answer_round_trip_with_and_without_a_window() {
    let req = Request::ChannelStart {
        channel: "QM1.TO.QM2".into(),
        sender_qmgr: "QM1".into(),
        batch_size: 50,
        max_msg_length: 4 << 20,
        seq: 7,
        window: 16,
        lanes: 4,
    };
    let mut p = BytesMut::new();
    req.encode(&mut p);
    let full = p.clone().freeze();
    assert_eq!(
        Request::decode(Opcode::ChannelStart as u8, full).unwrap(),
        req
    );
    let no_lanes = p.clone().split_to(p.len() - 4).freeze();
    let Request::ChannelStart { window, lanes, .. } =
        Request::decode(Opcode::ChannelStart as u8, no_lanes).unwrap()
    else {
        panic!("not a ChannelStart")
    };
    assert_eq!((window, lanes), (16, 1), "a sender without lanes");
    let short = p.split_to(p.len() - 8).freeze();
    let Request::ChannelStart {
        window, seq, lanes, ..
    } = Request::decode(Opcode::ChannelStart as u8, short).unwrap()
    else {
        panic!("not a ChannelStart")
    };
    assert_eq!((window, seq, lanes), (1, 7, 1));

    let reply = Reply::ChannelStarted {
        qmgr: "QM2".into(),
        batch_size: 50,
        max_msg_length: 4 << 20,
        seq: 9,
        ids: vec![[9; 24], [10; 24]],
        luwid: [9; 16],
        window: 16,
        more: vec![WireBatchRecord {
            seq: 8,
            luwid: [8; 16],
            ids: vec![[8; 24]],
        }],
        lanes: 4,
    };
    let mut out = BytesMut::new();
    encode_response(&mut out, &Status::OK, &reply);
    let all = out.clone().freeze();
    let (_, back) = decode_response(Opcode::ChannelStart as u8, all).unwrap();
    assert_eq!(back, reply);
    // Without the lanes, the window and the earlier batches (the last 4 + 4 + 4 + 8 + 16 +
    // 4 + 24 bytes).
    let old = out
        .split_to(out.len() - (4 + 4 + 4 + 8 + 16 + 4 + 24))
        .freeze();
    let (_, back) = decode_response(Opcode::ChannelStart as u8, old).unwrap();
    let Reply::ChannelStarted {
        window,
        more,
        seq,
        ids,
        lanes,
        ..
    } = back
    else {
        panic!("not a ChannelStarted")
    };
    assert_eq!((window, more.len(), seq, ids.len(), lanes), (1, 0, 9, 2, 1));
}
