//! The local (Unix socket) and tcp connection modes against the real `ferry` server process:
//! the same application code over both, and a server that survives bad clients.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use ferry_client::{
    Connection, CorrelId, GetOptions, Message, MessageType, OpenOptions, PutOptions, Reason,
    Selector,
};

mod common;
use common::Server;

impl Server {
    fn both(&self) -> [&str; 2] {
        [&self.unix, &self.tcp]
    }
}

fn connect(endpoint: &str, app: &str) -> Connection {
    Connection::connect(endpoint, app).unwrap_or_else(|e| panic!("connect {endpoint}: {e}"))
}

#[test]
fn put_and_get_work_the_same_over_unix_and_tcp() {
    let server = Server::start("basic", &[]);
    for ep in server.both() {
        let mut c = connect(ep, "basic");
        assert_eq!(c.queue_manager_name().as_str(), "QM1");
        let q = c
            .open_queue(
                "DEV.QUEUE.1",
                OpenOptions::output().with_input().with_inquire(),
            )
            .unwrap();
        let mut m = Message::text("hello").with_priority(3);
        m.properties
            .set("colour", ferry_client::PropertyValue::String("blue".into()))
            .unwrap();
        let out = c.put(q, m, &PutOptions::default()).unwrap();
        assert!(!out.msg_id.is_none());
        assert_eq!(out.priority, 3);
        let depth = c.inquire(q, &[Selector::CurrentDepth]).unwrap();
        assert_eq!(depth, vec![ferry_client::AttrValue::Int(1)]);
        let got = c.get(q, &GetOptions::new()).unwrap();
        assert_eq!(&got.message.body[..], b"hello");
        assert_eq!(got.message.descriptor.msg_id, out.msg_id);
        assert_eq!(got.message.descriptor.put_appl_name.as_str(), "basic");
        assert_eq!(
            got.message.properties.get("colour"),
            Some(&ferry_client::PropertyValue::String("blue".into()))
        );
        let e = c.get(q, &GetOptions::new()).unwrap_err();
        assert_eq!(e.reason, Reason::NoMsgAvailable, "{ep}");
        let e = c
            .open_queue("NO.SUCH.QUEUE", OpenOptions::output())
            .unwrap_err();
        assert_eq!(e.reason, Reason::UnknownObjectName, "{ep}");
        assert!(e.detail.contains("NO.SUCH.QUEUE"), "{e}");
        c.disconnect().unwrap();
    }
}

#[test]
fn a_waiting_get_is_served_by_a_put_from_another_connection() {
    let server = Server::start("wait", &[]);
    for ep in server.both() {
        let ep2 = ep.to_owned();
        let getter = std::thread::spawn(move || {
            let mut c = connect(&ep2, "getter");
            let q = c.open_queue("DEV.QUEUE.2", OpenOptions::input()).unwrap();
            let started = Instant::now();
            let got = c
                .get(q, &GetOptions::new().wait(Duration::from_secs(10)))
                .unwrap();
            (got, started.elapsed())
        });
        std::thread::sleep(Duration::from_millis(200));
        let mut p = connect(ep, "putter");
        p.put1(
            "DEV.QUEUE.2",
            Message::text("wake up"),
            &PutOptions::default(),
        )
        .unwrap();
        let (got, waited) = getter.join().unwrap();
        assert_eq!(&got.message.body[..], b"wake up");
        assert!(waited < Duration::from_secs(5), "{waited:?}");
        // And a wait with nothing arriving ends with 2033 after about the interval.
        let mut c = connect(ep, "timeout");
        let q = c.open_queue("DEV.QUEUE.2", OpenOptions::input()).unwrap();
        let t = Instant::now();
        let e = c
            .get(q, &GetOptions::new().wait(Duration::from_millis(300)))
            .unwrap_err();
        assert_eq!(e.reason, Reason::NoMsgAvailable);
        assert!(
            t.elapsed() >= Duration::from_millis(250),
            "{:?}",
            t.elapsed()
        );
    }
}

#[test]
fn request_reply_by_correl_id_over_both_modes() {
    let server = Server::start("rr", &[]);
    for ep in server.both() {
        let ep2 = ep.to_owned();
        let responder = std::thread::spawn(move || {
            let mut c = connect(&ep2, "responder");
            let q = c.open_queue("DEV.QUEUE.3", OpenOptions::input()).unwrap();
            for _ in 0..20 {
                let req = c
                    .get(q, &GetOptions::new().wait(Duration::from_secs(10)))
                    .unwrap();
                let d = &req.message.descriptor;
                let mut reply = Message::new(req.message.body.clone());
                reply.descriptor.correl_id = CorrelId::from(d.msg_id);
                reply.descriptor.message_type = MessageType::Reply;
                c.put1(d.reply_to_queue.as_str(), reply, &PutOptions::default())
                    .unwrap();
            }
        });
        let mut c = connect(ep, "requester");
        let reply_q = c
            .open_dynamic(
                "SYSTEM.DEFAULT.MODEL.QUEUE",
                "REPLY.*",
                OpenOptions::input(),
            )
            .unwrap();
        let reply_name = c.queue_name(reply_q).unwrap();
        assert!(reply_name.as_str().starts_with("REPLY."), "{reply_name}");
        let req_q = c.open_queue("DEV.QUEUE.3", OpenOptions::output()).unwrap();
        for i in 0..20u32 {
            let m = Message::new(i.to_le_bytes().to_vec()).with_reply_to(reply_name);
            let out = c.put(req_q, m, &PutOptions::default()).unwrap();
            let got = c
                .get(
                    reply_q,
                    &GetOptions::new()
                        .wait(Duration::from_secs(10))
                        .correl_id(CorrelId::from(out.msg_id)),
                )
                .unwrap();
            assert_eq!(&got.message.body[..], &i.to_le_bytes());
        }
        responder.join().unwrap();
        c.disconnect().unwrap();
    }
}

#[test]
fn syncpoint_commit_backout_and_a_dropped_connection_back_out() {
    let server = Server::start("uow", &[]);
    for ep in server.both() {
        let mut c = connect(ep, "uow");
        let q = c
            .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
            .unwrap();
        c.put(q, Message::text("a"), &PutOptions::syncpoint())
            .unwrap();
        let mut other = connect(ep, "other");
        let oq = other
            .open_queue("DEV.QUEUE.1", OpenOptions::input())
            .unwrap();
        assert_eq!(
            other.get(oq, &GetOptions::new()).unwrap_err().reason,
            Reason::NoMsgAvailable
        );
        c.commit().unwrap();
        let got = other.get(oq, &GetOptions::new().syncpoint()).unwrap();
        assert_eq!(&got.message.body[..], b"a");
        other.backout().unwrap();
        let got = other.get(oq, &GetOptions::new().syncpoint()).unwrap();
        assert_eq!(got.message.descriptor.backout_count, 1);
        // The connection goes away with the get uncommitted: the message comes back.
        drop(other);
        let got = c
            .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
            .unwrap();
        assert_eq!(&got.message.body[..], b"a");
        assert_eq!(got.message.descriptor.backout_count, 2);
        c.disconnect().unwrap();
    }
}

#[test]
fn async_puts_are_pipelined_and_counted_by_the_status_call() {
    let server = Server::start("async", &[]);
    for ep in server.both() {
        let mut c = connect(ep, "async");
        let q = c
            .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
            .unwrap();
        let mut ids = Vec::new();
        for i in 0..1000u32 {
            let out = c
                .put(
                    q,
                    Message::new(i.to_le_bytes().to_vec()),
                    &PutOptions::default().with_async(),
                )
                .unwrap();
            ids.push(out.msg_id);
        }
        let s = c.async_put_status().unwrap();
        assert_eq!((s.succeeded, s.failed), (1000, 0), "{s:?}");
        for (i, id) in ids.iter().enumerate() {
            let got = c.get(q, &GetOptions::new()).unwrap();
            assert_eq!(&got.message.body[..], &(i as u32).to_le_bytes());
            assert_eq!(
                got.message.descriptor.msg_id, *id,
                "the id returned by an async put is the message's id"
            );
        }
        // Failures are counted, and the first one reported, without failing the put call.
        let missing = c.put1(
            "NO.SUCH.QUEUE",
            Message::text("x"),
            &PutOptions::default().with_async(),
        );
        assert!(missing.is_ok());
        let s = c.async_put_status().unwrap();
        assert_eq!((s.succeeded, s.failed), (0, 1), "{s:?}");
        assert_eq!(s.first_failure.unwrap().reason, Reason::UnknownObjectName);
        assert_eq!(
            c.async_put_status().unwrap().failed,
            0,
            "the status call resets the counts"
        );
        // A failed async put inside a unit of work makes the commit back it out.
        c.put(
            q,
            Message::text("in uow"),
            &PutOptions::syncpoint().with_async(),
        )
        .unwrap();
        c.put1(
            "NO.SUCH.QUEUE",
            Message::text("x"),
            &PutOptions::syncpoint().with_async(),
        )
        .unwrap();
        let e = c.commit().unwrap_err();
        assert_eq!(e.reason, Reason::BackedOut, "{e}");
        assert_eq!(
            c.get(q, &GetOptions::new()).unwrap_err().reason,
            Reason::NoMsgAvailable
        );
        c.disconnect().unwrap();
    }
}

/// An async put the application follows with no other call still reaches the queue: the
/// process's flushing thread writes it, for every connection that left one.
#[test]
fn async_puts_left_alone_are_written_soon_for_every_connection() {
    let server = Server::start("async-soon", &[]);
    for ep in server.both() {
        let putters: Vec<Connection> = (0..5)
            .map(|i| {
                let mut c = connect(ep, "soon");
                let q = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
                c.put(
                    q,
                    Message::text(&format!("left {i}")),
                    &PutOptions::default().with_async(),
                )
                .unwrap();
                c
            })
            .collect();
        let mut getter = connect(ep, "getter");
        let q = getter
            .open_queue("DEV.QUEUE.1", OpenOptions::input())
            .unwrap();
        let start = Instant::now();
        let mut got: Vec<String> = (0..5)
            .map(|_| {
                let g = getter.get(q, &GetOptions::new().wait(Duration::from_secs(5)));
                String::from_utf8(g.unwrap().message.body.to_vec()).unwrap()
            })
            .collect();
        got.sort();
        assert_eq!(got, (0..5).map(|i| format!("left {i}")).collect::<Vec<_>>());
        // Soon: before the heartbeat thread's next look (half a second), which writes it too.
        let took = start.elapsed();
        assert!(took < Duration::from_millis(400), "{took:?}");
        drop(putters);
        getter.disconnect().unwrap();
    }
}

/// The CONNAME of each connection whose APPLTAG starts with `tag`, by APPLTAG.
fn connames(admin_ep: &str, tag: &str) -> std::collections::BTreeMap<String, String> {
    let mut c = connect(admin_ep, "admin");
    let listing = c.admin("DISPLAY CONN(*) APPLTAG CONNAME").unwrap();
    listing[0]
        .messages
        .iter()
        .filter_map(|m| {
            let value = |k: &str| {
                let f = m.fields.iter().find(|f| f.key == k)?;
                f.value.clone()
            };
            Some((value("APPLTAG")?, value("CONNAME")?))
        })
        .filter(|(app, _)| app.starts_with(tag))
        .collect()
}

/// Blocking connections that may share (MQ's SHARECNV) start their conversations on one
/// socket, as many as they allow, each with its own handles and unit of work; one that goes
/// leaves the socket to the others; read-ahead works over a shared socket; the queue manager's
/// end breaks every conversation on it with 2009.
#[test]
fn blocking_connections_share_sockets_each_with_its_own_unit_of_work() {
    let mut server = Server::start("sharecnv-blocking", &[]);
    let opts = ferry_client::ClientOptions {
        share_conversations: 3,
        ..Default::default()
    };
    let open = |i: usize| {
        let c = Connection::connect_with(&server.tcp, &format!("share-{i}"), &opts);
        c.unwrap_or_else(|e| panic!("connect share-{i}: {e}"))
    };
    let mut conns: Vec<Connection> = (0..4).map(open).collect();
    let names = connames(&server.unix, "share-");
    assert_eq!(names.len(), 4, "{names:?}");
    assert_eq!(names["share-0"], names["share-1"], "{names:?}");
    assert_eq!(names["share-0"], names["share-2"], "{names:?}");
    assert_ne!(
        names["share-0"], names["share-3"],
        "a fourth needs a socket: {names:?}"
    );
    // Each conversation its own unit of work.
    let q: Vec<_> = conns
        .iter_mut()
        .map(|c| {
            let o = OpenOptions::output().with_input();
            c.open_queue("DEV.QUEUE.3", o).unwrap()
        })
        .collect();
    conns[0]
        .put(q[0], Message::text("from 0"), &PutOptions::syncpoint())
        .unwrap();
    conns[1]
        .put(q[1], Message::text("from 1"), &PutOptions::syncpoint())
        .unwrap();
    conns[0].commit().unwrap();
    conns[1].backout().unwrap();
    let got = conns[2].get(q[2], &GetOptions::new()).unwrap();
    assert_eq!(&got.message.body[..], b"from 0");
    let none = conns[2].get(q[2], &GetOptions::new()).unwrap_err();
    assert_eq!(none.reason, Reason::NoMsgAvailable);
    // Read-ahead over the shared socket, while a neighbour waits on another queue.
    let ra = OpenOptions {
        read_ahead: Some(true),
        ..OpenOptions::input()
    };
    let h = conns[1].open_queue("DEV.QUEUE.2", ra).unwrap();
    for i in 0..50u32 {
        let m = Message::new(i.to_le_bytes().to_vec());
        conns[0]
            .put1("DEV.QUEUE.2", m, &PutOptions::default())
            .unwrap();
    }
    for i in 0..50u32 {
        let g = conns[1].get(h, &GetOptions::new().wait(Duration::from_secs(5)));
        assert_eq!(&g.unwrap().message.body[..], &i.to_le_bytes());
    }
    // One that disconnects leaves the socket to the others, and its place to a newcomer.
    conns.remove(2).disconnect().unwrap();
    conns[0]
        .put(q[0], Message::text("still fine"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        &conns[1].get(q[1], &GetOptions::new()).unwrap().message.body[..],
        b"still fine"
    );
    conns.push(open(4));
    let names = connames(&server.unix, "share-");
    assert_eq!(names["share-4"], names["share-0"], "{names:?}");
    // The queue manager's end: every conversation on the socket hears it.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    for c in conns.iter_mut().take(2) {
        let e = c.put1("DEV.QUEUE.3", Message::text("x"), &PutOptions::default());
        let e = e.map(|_| ()).unwrap_err();
        assert_eq!(e.reason, Reason::ConnectionBroken, "{e}");
    }
}

/// Sends raw bytes on a fresh TCP socket and reports whether the server closed it.
fn server_closes_after(addr: &str, bytes: &[u8]) -> bool {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(bytes);
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // the server's preamble or an answer: keep reading
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
    false
}

fn preamble() -> Vec<u8> {
    ferry_proto::Preamble::ours(1 << 20).encode().to_vec()
}

fn frame(opcode: u8, conv: u16, payload: &[u8]) -> Vec<u8> {
    let mut b = bytes::BytesMut::new();
    let h = ferry_proto::FrameHeader {
        opcode,
        flags: 0,
        conv,
        request_id: 1,
    };
    ferry_proto::encode_frame(&mut b, h, payload);
    b.to_vec()
}

#[test]
fn bad_clients_are_disconnected_and_nobody_else_notices() {
    let mut server = Server::start("garbage", &[]);
    let addr = server.tcp_addr().to_owned();
    // A good client with work in progress.
    let mut good = connect(&server.tcp, "good");
    let q = good
        .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
        .unwrap();
    for i in 0..10u8 {
        good.put(q, Message::new(vec![i]), &PutOptions::default())
            .unwrap();
    }
    let connect_payload = {
        let mut p = bytes::BytesMut::new();
        ferry_proto::Request::Connect {
            app_name: "x".into(),
            user: String::new(),
            password: String::new(),
            flags: 0,
            compression: vec![],
            channel: String::new(),
        }
        .encode(&mut p);
        p.to_vec()
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "garbage instead of a preamble",
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
        ),
        (
            "oversized frame",
            [preamble(), u32::MAX.to_le_bytes().to_vec()].concat(),
        ),
        (
            "frame shorter than a header",
            [preamble(), 3u32.to_le_bytes().to_vec(), vec![0; 3]].concat(),
        ),
        ("unknown opcode", [preamble(), frame(200, 1, b"")].concat()),
        (
            "request before connect",
            [preamble(), frame(10, 1, b"")].concat(),
        ),
        (
            "truncated payload",
            [preamble(), frame(1, 1, &connect_payload[..3])].concat(),
        ),
        (
            "trailing garbage in a payload",
            [
                preamble(),
                frame(1, 1, &[connect_payload.clone(), b"junk".to_vec()].concat()),
            ]
            .concat(),
        ),
        (
            "connect twice on one conversation",
            [
                preamble(),
                frame(1, 1, &connect_payload),
                frame(1, 1, &connect_payload),
            ]
            .concat(),
        ),
    ];
    for (what, bytes) in cases {
        assert!(
            server_closes_after(&addr, &bytes),
            "the server kept a connection that sent: {what}"
        );
        assert!(server.alive(), "the server died after: {what}");
    }
    // A truncated frame followed by the client vanishing.
    {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(&[preamble(), 100u32.to_le_bytes().to_vec(), vec![1; 10]].concat())
            .unwrap();
    }
    // The good client carries on and nothing it put was lost.
    for i in 0..10u8 {
        let got = good.get(q, &GetOptions::new()).unwrap();
        assert_eq!(&got.message.body[..], &[i]);
    }
    good.disconnect().unwrap();
    let log = server.log();
    assert!(
        log.contains("protocol error"),
        "refusals are logged with a reason: {log}"
    );
    assert!(
        log.contains("127.0.0.1"),
        "refusals are logged with the peer address: {log}"
    );
}

#[test]
fn the_local_socket_is_only_for_our_user_and_group() {
    use std::os::unix::fs::PermissionsExt;
    let server = Server::start("perms", &[]);
    let path = Path::new(server.unix.trim_start_matches("unix:"));
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode & 0o007,
        0,
        "others have no access to {}: mode {mode:o}",
        path.display()
    );
}

#[test]
fn read_ahead_streams_in_order_and_close_discards_what_was_not_consumed() {
    let server = Server::start("readahead", &[]);
    for ep in server.both() {
        let mut p = connect(ep, "putter");
        let pq = p.open_queue("DEV.QUEUE.2", OpenOptions::output()).unwrap();
        for i in 0..300u32 {
            p.put(
                pq,
                Message::new(i.to_le_bytes().to_vec()),
                &PutOptions::default(),
            )
            .unwrap();
        }
        let mut c = connect(ep, "reader");
        let opts = OpenOptions {
            read_ahead: Some(true),
            ..OpenOptions::input()
        };
        let q = c.open_queue("DEV.QUEUE.2", opts).unwrap();
        for i in 0..200u32 {
            let got = c
                .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
                .unwrap();
            assert_eq!(&got.message.body[..], &i.to_le_bytes(), "{ep}");
        }
        // Options a read-ahead handle cannot honour are refused, not silently reordered.
        let e = c.get(q, &GetOptions::new().syncpoint()).unwrap_err();
        assert_eq!(e.reason, Reason::OptionsError);
        // One more put while the rest sit streamed or in flight: it must stay behind them.
        p.put(
            pq,
            Message::new(300u32.to_le_bytes().to_vec()),
            &PutOptions::default(),
        )
        .unwrap();
        // MQCO_QUIESCE with messages still buffered: 2458, a warning, and the handle stays open.
        let e = c.close(q, ferry_client::CloseOptions::Quiesce).unwrap_err();
        assert_eq!(e.reason, Reason::ReadAheadMsgs, "{ep}");
        // An ordinary close discards what was streamed and never got, as MQ does: those
        // messages left the queue when they were sent (the buffer's oldest, 200, among them —
        // the quiesce just saw it non-empty). What was never streamed stays, in order.
        c.close(q, ferry_client::CloseOptions::None).unwrap();
        let mut other = connect(ep, "other");
        let oq = other
            .open_queue("DEV.QUEUE.2", OpenOptions::input())
            .unwrap();
        let mut left = Vec::new();
        while let Ok(got) = other.get(oq, &GetOptions::new()) {
            left.push(u32::from_le_bytes(
                got.message.body[..4].try_into().unwrap(),
            ));
        }
        assert!(left.len() < 100 && !left.contains(&200), "{ep}: {left:?}");
        assert!(left.windows(2).all(|w| w[1] == w[0] + 1), "{ep}: {left:?}");
        if let Some(last) = left.last() {
            assert_eq!(*last, 300, "{ep}: {left:?}");
        }
        // Messages put while a read-ahead getter waits reach it; persistent ones are fetched
        // directly rather than streamed.
        let mut c = connect(ep, "reader2");
        let q = c.open_queue("DEV.QUEUE.2", opts).unwrap();
        let e = c.get(q, &GetOptions::new()).unwrap_err();
        assert_eq!(e.reason, Reason::NoMsgAvailable);
        p.put(pq, Message::text("later"), &PutOptions::default())
            .unwrap();
        let got = c
            .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
            .unwrap();
        assert_eq!(&got.message.body[..], b"later");
        p.put(
            pq,
            Message::text("durable").with_persistence(ferry_client::Persistence::Persistent),
            &PutOptions::default(),
        )
        .unwrap();
        let got = c
            .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
            .unwrap();
        assert_eq!(&got.message.body[..], b"durable");
        // Persistent messages in a row: once a look finds one, the next get looks at once
        // rather than a probe interval (100 ms) later — 100 of them well within 10 s.
        for i in 0..100u32 {
            let m = Message::new(i.to_le_bytes().to_vec())
                .with_persistence(ferry_client::Persistence::Persistent);
            p.put(pq, m, &PutOptions::default()).unwrap();
        }
        let began = std::time::Instant::now();
        for i in 0..100u32 {
            let got = c
                .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
                .unwrap();
            assert_eq!(&got.message.body[..], &i.to_le_bytes(), "{ep}");
        }
        let took = began.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "{ep}: 100 persistent read-ahead gets took {took:?}"
        );
        c.disconnect().unwrap();
    }
}

#[test]
fn a_put_as_queue_default_on_a_sync_queue_is_answered_at_once() {
    let server = Server::start("defpresp", &[]);
    // DEV.QUEUE.1 is DEFPRESP(SYNC): a put as queue default waits for the answer and its
    // failure is reported at once.
    for ep in server.both() {
        let mut c = connect(ep, "defpresp");
        let q = c
            .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
            .unwrap();
        let out = c
            .put(q, Message::text("x"), &PutOptions::default())
            .unwrap();
        assert!(!out.msg_id.is_none());
        assert_eq!(
            c.async_put_status().unwrap().succeeded,
            0,
            "a sync put is not counted as async"
        );
        c.get(q, &GetOptions::new()).unwrap();
        c.disconnect().unwrap();
    }
}

#[test]
fn each_compression_algorithm_is_negotiated_and_saves_bytes() {
    use ferry_client::{ClientOptions, Compression};
    let server = Server::start("compress", &[]);
    let text = br#"{"order":12345,"customer":"ACME Widgets","lines":[{"sku":"X-100","qty":3,"price":9.99}]}"#
        .repeat(50);
    for ep in server.both() {
        for alg in Compression::ALL {
            let opts = ClientOptions {
                compression: vec![alg],
                ..Default::default()
            };
            let mut c = ferry_client::Connection::connect_with(ep, "compress", &opts).unwrap();
            let q = c
                .open_queue("DEV.QUEUE.3", OpenOptions::output().with_input())
                .unwrap();
            c.put(q, Message::new(text.clone()), &PutOptions::default())
                .unwrap();
            let got = c.get(q, &GetOptions::new()).unwrap();
            assert_eq!(&got.message.body[..], &text[..], "{ep} {alg:?}");
            let (used, rate) = c.compression();
            assert_eq!(used, Some(alg), "{ep}");
            let rate = rate.expect("bytes were compressed");
            assert!(
                rate > 0.8,
                "{alg:?} saved only {:.0}% of JSON text",
                rate * 100.0
            );
            c.disconnect().unwrap();
        }
        // A client that asks for nothing gets nothing.
        let c = connect(ep, "plain");
        assert_eq!(c.compression(), (None, None));
    }
}

#[test]
fn reconnect_reopens_handles_and_reports_the_lost_unit_of_work() {
    use ferry_client::{ClientOptions, ReconnectOptions};
    let mut server = Server::start("reconnect", &[]);
    let unix = server.unix.clone();
    let opts = ClientOptions {
        reconnect: Some(ReconnectOptions {
            timeout: Duration::from_secs(20),
            initial_backoff: Duration::from_millis(20),
            max_backoff: Duration::from_millis(200),
        }),
        ..Default::default()
    };
    let mut c = ferry_client::Connection::connect_with(&unix, "survivor", &opts).unwrap();
    let mut fragile = connect(&unix, "fragile");
    let fq = fragile
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .unwrap();
    let q = c
        .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
        .unwrap();
    let reply = c
        .open_dynamic(
            "SYSTEM.DEFAULT.MODEL.QUEUE",
            "REPLY.*",
            OpenOptions::input(),
        )
        .unwrap();
    let reply_name = c.queue_name(reply).unwrap();
    c.put(
        q,
        Message::text("in a unit of work"),
        &PutOptions::syncpoint(),
    )
    .unwrap();

    // The queue manager dies and comes back (same home, same local socket).
    server.restart(&[]);

    // The call that meets the broken connection says the unit of work was lost...
    let e = c
        .put(q, Message::text("x"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::BackedOut, "{e}");
    assert_eq!(c.reconnections(), 1);
    // ...and so does the commit of that unit of work, rather than pretending it succeeded.
    assert_eq!(c.commit().unwrap_err().reason, Reason::BackedOut);
    // The same handles work on the new connection, and the reply queue kept its name.
    c.put(q, Message::text("after"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        &c.get(q, &GetOptions::new()).unwrap().message.body[..],
        b"after"
    );
    assert_eq!(c.queue_name(reply).unwrap(), reply_name);
    c.put1(
        reply_name.as_str(),
        Message::text("reply"),
        &PutOptions::default(),
    )
    .unwrap();
    assert_eq!(
        &c.get(reply, &GetOptions::new()).unwrap().message.body[..],
        b"reply"
    );
    // Without reconnection configured, the connection stays broken and says so.
    let e = fragile
        .put(fq, Message::text("x"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::ConnectionBroken, "{e}");
    c.disconnect().unwrap();
}

#[test]
fn heartbeats_keep_idle_clients_and_end_silent_ones() {
    let server = Server::start("heartbeat", &["--heartbeat", "1"]);
    // An application that makes no call for several intervals keeps its connection: its
    // client library sends heartbeats for it.
    let mut idle = connect(&server.tcp, "idle");
    let q = idle
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .unwrap();
    std::thread::sleep(Duration::from_millis(3500));
    idle.put(q, Message::text("still here"), &PutOptions::default())
        .unwrap();
    // A peer that promised heartbeats and then fell silent is ended within about two intervals.
    let mut s = TcpStream::connect(server.tcp_addr()).unwrap();
    let mut payload = bytes::BytesMut::new();
    ferry_proto::Request::Connect {
        app_name: "silent".into(),
        user: common::TEST_USER.into(),
        password: common::TEST_PASSWORD.into(),
        flags: ferry_proto::msg::connect_flags::HEARTBEATS,
        compression: vec![],
        channel: String::new(),
    }
    .encode(&mut payload);
    s.write_all(&[preamble(), frame(1, 1, &payload)].concat())
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => continue,
            Err(e) => panic!("the server never closed the silent connection: {e}"),
        }
    }
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(2) && waited < Duration::from_secs(8),
        "closed after {waited:?}"
    );
    assert!(
        server.log().contains("no heartbeat from the client"),
        "{}",
        server.log()
    );
}

#[test]
fn a_clean_stop_ends_waiting_gets_with_a_quiescing_code() {
    let mut server = Server::start("quiesce", &[]);
    // One waiter on each socket kind, then SIGTERM: both waits end with a stopping code.
    let mut waiters = Vec::new();
    for ep in server.both() {
        let ep = ep.to_owned();
        waiters.push(std::thread::spawn(move || {
            let mut c = connect(&ep, "waiter");
            let q = c.open_queue("DEV.QUEUE.2", OpenOptions::input()).unwrap();
            c.get(q, &GetOptions::new().wait_unlimited()).unwrap_err()
        }));
    }
    std::thread::sleep(Duration::from_millis(500));
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    for w in waiters {
        let e = w.join().unwrap();
        assert!(
            matches!(e.reason, Reason::QMgrQuiescing | Reason::QMgrStopping),
            "a waiting get ended with {e}"
        );
    }
    let status = server.child.wait().unwrap();
    assert!(status.success(), "the server exited with {status}");
}

#[test]
fn connection_and_message_limits_answer_with_their_reason_codes() {
    let root = std::env::temp_dir().join(format!("ferry-it-limits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    common::create_qm(&root, "QM1");
    let config = root.join("qmgrs/QM1/qm.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text.replace("max_connections = 10000", "max_connections = 2");
    std::fs::write(&config, text).unwrap();
    let server = Server::start_in(&root, &root.join("server.log"), &[]);
    let mut first = connect(&server.tcp, "one");
    let _second = connect(&server.unix, "two");
    let e = ferry_client::Connection::connect(&server.tcp, "three").unwrap_err();
    assert_eq!(e.reason, Reason::MaxConnsLimitReached, "{e}");
    // A message over the queue manager's MAXMSGL (4 MiB) is refused whole, and the connection
    // carries on.
    let q = first
        .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
        .unwrap();
    let e = first
        .put(
            q,
            Message::new(vec![0u8; 5 * 1024 * 1024]),
            &PutOptions::default(),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::MsgTooBigForQMgr, "{e}");
    first
        .put(q, Message::text("small"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        &first.get(q, &GetOptions::new()).unwrap().message.body[..],
        b"small"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&root);
}

/// The batch get (`Connection::get_many`): one call takes what the queue holds, in order, each
/// as an MQGET would — in the unit of work under syncpoint, the first waiting as the options
/// say, a message too long for the buffer left where it is — the same over both sockets and
/// in this process.
#[test]
fn a_batch_get_takes_what_the_queue_holds_in_order_within_the_unit_of_work() {
    let server = Server::start("getmany", &[]);
    for ep in server.both() {
        batch_gets(connect(ep, "batch"), ep);
    }
    let qm = ferry_client::QueueManager::with_name("SCRATCH").unwrap();
    batch_gets(Connection::embedded(&qm, "batch").unwrap(), "embedded");
}

fn batch_gets(mut c: Connection, ep: &str) {
    let q = c
        .open_queue(
            "DEV.QUEUE.1",
            OpenOptions::output().with_input().with_browse(),
        )
        .unwrap();
    let put = |c: &mut Connection, text: &str| {
        c.put(q, Message::text(text), &PutOptions::default())
            .unwrap();
    };
    let bodies = |got: &[ferry_client::Got]| -> Vec<String> {
        got.iter()
            .map(|g| String::from_utf8_lossy(&g.message.body).into_owned())
            .collect()
    };
    for i in 0..10 {
        put(&mut c, &format!("m{i}"));
    }
    // Browsing from the first goes on with the next; nothing leaves the queue.
    let mut browse = GetOptions::new();
    browse.browse = ferry_client::BrowseMode::First;
    let seen = c.get_many(q, &browse, 3).unwrap();
    assert_eq!(bodies(&seen), ["m0", "m1", "m2"], "{ep}");
    // Under syncpoint: four, then backed out, then all ten in one call, in order.
    let sync = GetOptions::new().syncpoint();
    let four = c.get_many(q, &sync, 4).unwrap();
    assert_eq!(bodies(&four), ["m0", "m1", "m2", "m3"], "{ep}");
    c.backout().unwrap();
    let all = c.get_many(q, &sync, 100).unwrap();
    assert_eq!(
        bodies(&all),
        (0..10).map(|i| format!("m{i}")).collect::<Vec<_>>(),
        "{ep}"
    );
    assert!(
        all.iter()
            .all(|g| g.message.descriptor.backout_count == u32::from(g.message.body[1] < b'4')),
        "{ep}"
    );
    c.commit().unwrap();
    // An empty queue: the first get waits as asked, then says there is none.
    let started = Instant::now();
    let waited = GetOptions::new().wait(Duration::from_millis(300));
    let none = c.get_many(q, &waited, 50).unwrap_err();
    assert_eq!(none.reason, Reason::NoMsgAvailable, "{ep}");
    assert!(started.elapsed() >= Duration::from_millis(300), "{ep}");
    // A message longer than the buffer ends the batch and stays; alone, it is refused (2080).
    put(&mut c, "ab");
    put(&mut c, "cd");
    put(&mut c, "a longer one");
    put(&mut c, "ef");
    let mut short = GetOptions::new();
    short.max_len = Some(4);
    let two = c.get_many(q, &short, 10).unwrap();
    assert_eq!(bodies(&two), ["ab", "cd"], "{ep}");
    let refused = c.get_many(q, &short, 10).unwrap_err();
    assert_eq!(refused.reason, Reason::TruncatedMsgFailed, "{ep}");
    let rest = c.get_many(q, &GetOptions::new(), 10).unwrap();
    assert_eq!(bodies(&rest), ["a longer one", "ef"], "{ep}");
    c.disconnect().unwrap();
}
