//! Writes seed inputs for the frame-decoder fuzzer: a preamble followed by one valid frame of
//! each request kind, and a few responses. Run from the repository root:
//! `cargo run -p ferry-proto --example seed_corpus`.

use bytes::{Bytes, BytesMut};
use ferry_proto::*;

fn main() {
    let dir = std::path::Path::new("fuzz/corpus/frame_decoder");
    std::fs::create_dir_all(dir).expect("corpus directory");
    let msg = WireMessage {
        descriptor: WireDescriptor {
            reply_to_queue: "REPLY.Q".into(),
            format: "MQSTR".into(),
            ..Default::default()
        },
        properties: vec![
            ("k".into(), WireValue::I32(7)),
            ("s".into(), WireValue::String("v".into())),
        ],
        dead_letter: None,
        transmission: None,
        body: Bytes::from_static(b"hello"),
    };
    let object = WireObject {
        kind: 0,
        name: "DEV.QUEUE.1".into(),
        ..Default::default()
    };
    let requests = vec![
        Request::Connect {
            app_name: "seed".into(),
            user: "u".into(),
            password: String::new(),
            flags: 0,
            compression: vec![1, 3],
            channel: "DEV.APP.SVRCONN".into(),
        },
        Request::Open {
            object: object.clone(),
            options: 9,
            alternate_user: String::new(),
            selector: String::new(),
        },
        Request::Open {
            object: object.clone(),
            options: 1,
            alternate_user: String::new(),
            selector: "region = 'EMEA' AND Root.MQMD.Priority > 4".into(),
        },
        Request::Put {
            hobj: 1,
            options: WirePutOptions::default(),
            msg: msg.clone(),
        },
        Request::Put1 {
            object,
            options: WirePutOptions {
                flags: 8,
                ..Default::default()
            },
            msg: msg.clone(),
        },
        Request::Get {
            hobj: 1,
            options: WireGetOptions {
                flags: 1,
                wait_ms: 100,
                msg_id: None,
                correl_id: Some([1; 24]),
                max_len: 10,
                more: 0,
            },
        },
        Request::Inquire {
            hobj: 1,
            selectors: vec![3, 2016],
        },
        Request::Set {
            hobj: 1,
            values: vec![(9, 1)],
            texts: vec![(2023, "TRIG".into())],
        },
        Request::Stream {
            hobj: 1,
            credit: 10,
            consumed: 2,
        },
        Request::Commit,
        Request::Disconnect,
    ];
    for (i, req) in requests.iter().enumerate() {
        let mut payload = BytesMut::new();
        req.encode(&mut payload);
        let mut out = BytesMut::from(&Preamble::ours(1 << 20).encode()[..]);
        encode_frame(
            &mut out,
            FrameHeader {
                opcode: req.opcode() as u8,
                flags: 0,
                conv: 1,
                request_id: i as u64,
            },
            &payload,
        );
        std::fs::write(dir.join(format!("request-{i:02}")), &out).expect("write");
    }
    let mut out = BytesMut::new();
    encode_response(
        &mut out,
        &Status::OK,
        &Reply::Got {
            msg,
            data_length: 5,
        },
    );
    let mut framed = BytesMut::new();
    encode_frame(
        &mut framed,
        FrameHeader {
            opcode: Opcode::Get as u8,
            flags: FLAG_RESPONSE,
            conv: 1,
            request_id: 1,
        },
        &out,
    );
    std::fs::write(dir.join("response-got"), &framed).expect("write");
    std::fs::write(dir.join("garbage-http"), b"GET / HTTP/1.1\r\n\r\n").expect("write");
    println!("wrote seeds to {}", dir.display());
}
