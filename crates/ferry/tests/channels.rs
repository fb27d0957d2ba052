//! Distributed queuing between real queue-manager processes on loopback: remote puts through
//! sender/receiver channels, request/reply through reply-to resolution, dead-lettering at the
//! receiver, a sender retrying until its receiver comes back, and channel status.

mod common;

use std::time::Duration;

use common::{free_port, Server};
use ferry_client::{
    object_name, ClientOptions, Connection, CorrelId, GetOptions, Message, ObjectDescriptor,
    OpenOptions, Persistence, PutOptions, Reason,
};

/// A queue manager `qm` listening on a fixed port (so its partner's CONNAME survives a
/// restart), whose user file holds the channel users of the queue managers in `partners` (the
/// senders that come to it).
fn start(tag: &str, qm: &str, port: u16, partners: &[&str]) -> Server {
    start_args(tag, qm, port, partners, &[])
}

/// As [`start`], with more start arguments.
fn start_args(tag: &str, qm: &str, port: u16, partners: &[&str], more: &[&str]) -> Server {
    let listen = format!("127.0.0.1:{port}");
    let users: Vec<(String, String)> = partners.iter().map(|p| common::channel_user(p)).collect();
    let users: Vec<(&str, &str)> = users
        .iter()
        .map(|(u, p)| (u.as_str(), p.as_str()))
        .collect();
    let s = Server::start_with_users(
        tag,
        qm,
        &users,
        &[
            &["--listen", &listen, "--metrics-listen", "127.0.0.1:0"],
            more,
        ]
        .concat(),
    );
    for p in partners {
        common::grant_channel_user(&s, p);
    }
    s
}

/// Runs `script` on `server`; every command must succeed.
fn admin(server: &Server, script: &str) -> Vec<ferry_admin::Reply> {
    let mut c = Connection::connect(&server.unix, "channels-test").unwrap();
    let replies = c.admin(script).unwrap();
    for r in &replies {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
    replies
}

/// A channel's status attribute (first instance), if it has one.
fn chstatus(server: &Server, channel: &str, key: &str) -> Option<String> {
    common::display(server, &format!("DISPLAY CHSTATUS({channel}) ALL"), key)
}

/// A numeric status field of `channel` (it must be shown and parse).
fn chstatus_num<T: std::str::FromStr>(server: &Server, channel: &str, key: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    let v = chstatus(server, channel, key).unwrap_or_else(|| panic!("{key} is shown"));
    v.parse().unwrap_or_else(|e| panic!("{key}({v}): {e:?}"))
}

/// Stops `channel` (a sender that is not running refuses, which is fine) and starts it again:
/// it binds anew with its attributes as they are now.
fn rebind(server: &Server, channel: &str) {
    let _ = Connection::connect(&server.unix, "x")
        .unwrap()
        .admin(&format!("STOP CHANNEL({channel})"));
    common::eventually("the channel to stop", || {
        matches!(
            chstatus(server, channel, "STATUS").as_deref(),
            Some("STOPPED") | None
        )
    });
    admin(server, &format!("START CHANNEL({channel})"));
}

/// Two queue managers with channels both ways: QM1.TO.QM2 and QM2.TO.QM1.
fn pair(tag: &str, retry_secs: u32) -> (Server, Server) {
    let (p1, p2) = (free_port(), free_port());
    let qm1 = start(&format!("{tag}-1"), "QM1", p1, &["QM2"]);
    let qm2 = start(&format!("{tag}-2"), "QM2", p2, &["QM1"]);
    for (me, other, port, server) in [("QM1", "QM2", p2, &qm1), ("QM2", "QM1", p1, &qm2)] {
        let (sdr, rcvr) = (common::sdr_auth(me), common::rcvr_auth(other));
        admin(
            server,
            &format!(
                "DEFINE QLOCAL({other}) USAGE(XMITQ) MAXDEPTH(1000000)
                 DEFINE CHANNEL({me}.TO.{other}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ({other}) SHORTTMR({retry_secs}) DISCINT(0) {sdr}
                 DEFINE CHANNEL({other}.TO.{me}) CHLTYPE(RCVR) {rcvr}
                 DEFINE QLOCAL(APP.IN) MAXDEPTH(1000000)
                 DEFINE QLOCAL(APP.REPLY)
                 DEFINE QREMOTE(APP.TO.{other}) RNAME(APP.IN) RQMNAME({other})"
            ),
        );
    }
    (qm1, qm2)
}

use common::scrape;

fn get(c: &mut Connection, queue: &str, wait: Duration) -> Option<ferry_client::Got> {
    let h = c.open_queue(queue, OpenOptions::input()).unwrap();
    let got = match c.get(h, &GetOptions::new().wait(wait)) {
        Ok(g) => Some(g),
        Err(e) if e.reason == Reason::NoMsgAvailable => None,
        Err(e) => panic!("get from {queue}: {e}"),
    };
    c.close(h, Default::default()).unwrap();
    got
}

#[test]
fn remote_puts_request_reply_and_dead_letters_between_two_processes() {
    let (qm1, qm2) = pair("dq", 1);
    let mut c1 = Connection::connect(&qm1.unix, "requester").unwrap();
    let mut c2 = Connection::connect(&qm2.unix, "responder").unwrap();

    // Remote puts arrive, in order, with their descriptors.
    let h = c1.open_queue("APP.TO.QM2", OpenOptions::output()).unwrap();
    let mut ids = Vec::new();
    for i in 0..100u32 {
        let m = Message::new(i.to_le_bytes().to_vec()).with_persistence(Persistence::Persistent);
        ids.push(c1.put(h, m, &PutOptions::default()).unwrap().msg_id);
    }
    for (i, id) in ids.iter().enumerate() {
        let g = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("a forwarded message");
        assert_eq!(&g.message.body[..], &(i as u32).to_le_bytes());
        assert_eq!(g.message.descriptor.msg_id, *id);
        assert_eq!(g.message.descriptor.persistence, Persistence::Persistent);
        assert!(g.message.transmission.is_none());
        assert_eq!(g.message.descriptor.put_appl_name.as_str(), "requester");
    }

    // Request/reply: the reply finds its way back by the reply-to queue manager.
    let request = Message::text("ping").with_reply_to(object_name("APP.REPLY").unwrap());
    let sent = c1.put(h, request, &PutOptions::default()).unwrap();
    let req = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("the request");
    assert_eq!(req.message.descriptor.reply_to_qmgr.as_str(), "QM1");
    let mut reply = Message::text("pong");
    reply.descriptor.correl_id = CorrelId::from(req.message.descriptor.msg_id);
    c2.put1_to(
        &ObjectDescriptor::QueueAt {
            name: req.message.descriptor.reply_to_queue,
            qmgr: req.message.descriptor.reply_to_qmgr,
        },
        reply,
        &PutOptions::default(),
    )
    .unwrap();
    let rh = c1.open_queue("APP.REPLY", OpenOptions::input()).unwrap();
    let back = c1
        .get(
            rh,
            &GetOptions::new()
                .correl_id(CorrelId::from(sent.msg_id))
                .wait(Duration::from_secs(20)),
        )
        .unwrap();
    assert_eq!(&back.message.body[..], b"pong");

    // Undeliverable at the receiver: dead-lettered there with the reason; the channel runs on.
    admin(
        &qm1,
        "DEFINE QREMOTE(APP.BAD) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2)",
    );
    c1.put1_to(
        &ObjectDescriptor::queue(object_name("APP.BAD").unwrap()),
        Message::text("lost?").with_persistence(Persistence::Persistent),
        &PutOptions::default(),
    )
    .unwrap();
    let dead = get(&mut c2, "SYSTEM.DEAD.LETTER.QUEUE", Duration::from_secs(20))
        .expect("a dead-lettered message");
    let dlh = dead
        .message
        .dead_letter
        .as_deref()
        .expect("a dead-letter header");
    assert_eq!(dlh.reason, Reason::UnknownObjectName);
    assert_eq!(dlh.dest_queue.as_str(), "NO.SUCH.QUEUE");
    assert_eq!(&dead.message.body[..], b"lost?");
    c1.put(h, Message::text("after"), &PutOptions::default())
        .unwrap();
    let after = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("the channel runs on");
    assert_eq!(&after.message.body[..], b"after");

    // Status at both ends.
    assert_eq!(
        chstatus(&qm1, "QM1.TO.QM2", "STATUS").as_deref(),
        Some("RUNNING")
    );
    assert_eq!(
        chstatus(&qm1, "QM1.TO.QM2", "RQMNAME").as_deref(),
        Some("QM2")
    );
    let sent_msgs: u64 = chstatus(&qm1, "QM1.TO.QM2", "MSGS")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(sent_msgs, 103);
    assert_eq!(
        chstatus(&qm2, "QM1.TO.QM2", "CHLTYPE").as_deref(),
        Some("RCVR")
    );
    assert_eq!(
        chstatus(&qm2, "QM1.TO.QM2", "DLQMSGS").as_deref(),
        Some("1")
    );
    // The same figures in the metrics.
    let metrics = scrape(&qm1);
    assert!(
        metrics.contains("ferry_channel_messages_total{channel=\"QM1.TO.QM2\"} 103"),
        "{metrics}"
    );
    assert!(metrics.contains("status=\"RUNNING\""), "{metrics}");
    // The transmission queue empties: everything is confirmed (the sender commits its gets
    // when the receiver's answer reaches it, a moment after the receiver's commit made "after"
    // visible — so it is waited for, not read once).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let depth = loop {
        let r = admin(&qm1, "DISPLAY QSTATUS(QM2) CURDEPTH IPPROCS");
        let depth = r[0].messages[0]
            .fields
            .iter()
            .find(|f| f.key == "CURDEPTH")
            .and_then(|f| f.value.clone());
        if depth.as_deref() == Some("0") || std::time::Instant::now() > deadline {
            break depth;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(depth.as_deref(), Some("0"));
}

#[test]
fn a_sender_retries_until_its_receiver_comes_back_and_stop_start_work() {
    let (qm1, mut qm2) = pair("retry", 1);
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    // The receiver goes away; messages wait on the transmission queue.
    let _ = qm2.child.kill();
    let _ = qm2.child.wait();
    let h = c1.open_queue("APP.TO.QM2", OpenOptions::output()).unwrap();
    for i in 0..50u32 {
        let m = Message::new(i.to_le_bytes().to_vec()).with_persistence(Persistence::Persistent);
        c1.put(h, m, &PutOptions::default()).unwrap();
    }
    common::eventually("the sender to retry", || {
        chstatus(&qm1, "QM1.TO.QM2", "STATUS").as_deref() == Some("RETRYING")
    });
    assert!(chstatus(&qm1, "QM1.TO.QM2", "LASTERR")
        .unwrap()
        .contains("2538"));
    // Back: everything arrives, once.
    qm2.restart(&[
        "--listen",
        &format!("127.0.0.1:{}", qm2.tcp_addr().rsplit(':').next().unwrap()),
    ]);
    qm2.wait_ready();
    let mut c2 = Connection::connect(&qm2.unix, "getter").unwrap();
    for i in 0..50u32 {
        let g = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("a message after the retry");
        assert_eq!(&g.message.body[..], &i.to_le_bytes());
    }
    assert!(get(&mut c2, "APP.IN", Duration::from_millis(500)).is_none());

    // STOP CHANNEL holds messages back; START CHANNEL sends them.
    admin(&qm1, "STOP CHANNEL(QM1.TO.QM2)");
    common::eventually("the sender to stop", || {
        chstatus(&qm1, "QM1.TO.QM2", "STATUS").as_deref() == Some("STOPPED")
    });
    c1.put(h, Message::text("held"), &PutOptions::default())
        .unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_millis(800)).is_none());
    admin(&qm1, "START CHANNEL(QM1.TO.QM2)");
    let g = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("released by START CHANNEL");
    assert_eq!(&g.message.body[..], b"held");
}

#[test]
fn three_queue_managers_forward_through_the_middle_one_with_compression() {
    let (p2, p3) = (free_port(), free_port());
    let qm1 = start("hop-1", "QM1", free_port(), &[]);
    let qm2 = start("hop-2", "QM2", p2, &["QM1"]);
    let qm3 = start("hop-3", "QM3", p3, &["QM2"]);
    let (sdr1, rcvr1) = (common::sdr_auth("QM1"), common::rcvr_auth("QM1"));
    let (sdr2, rcvr2) = (common::sdr_auth("QM2"), common::rcvr_auth("QM2"));
    // QM1 knows only QM2; QM3 is reached through it (a queue manager alias on QM1).
    admin(
        &qm1,
        &format!(
            "DEFINE QLOCAL(QM2) USAGE(XMITQ)
             DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({p2})') XMITQ(QM2) COMPMSG(LZ4FAST) SHORTTMR(1) {sdr1}
             DEFINE QREMOTE(QM3) RNAME('') RQMNAME(QM3) XMITQ(QM2)
             DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM3)"
        ),
    );
    admin(
        &qm2,
        &format!(
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) {rcvr1}
             DEFINE QLOCAL(QM3) USAGE(XMITQ)
             DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(SDR) CONNAME('127.0.0.1({p3})') XMITQ(QM3) COMPMSG(ZLIBFAST) SHORTTMR(1) {sdr2}"
        ),
    );
    admin(
        &qm3,
        &format!(
            "DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(RCVR) {rcvr2}
             DEFINE QLOCAL(APP.IN)"
        ),
    );
    // JSON-like text: it compresses well.
    let body: String = (0..40)
        .map(|i| format!("{{\"order\":{i},\"item\":\"widget\",\"qty\":1,\"status\":\"NEW\"}},"))
        .collect();
    let mut c1 = Connection::connect(&qm1.unix, "far-putter").unwrap();
    for _ in 0..20 {
        c1.put1(
            "APP.FAR",
            Message::text(&body).with_persistence(Persistence::Persistent),
            &PutOptions::default(),
        )
        .unwrap();
    }
    let mut c3 = Connection::connect(&qm3.unix, "far-getter").unwrap();
    for _ in 0..20 {
        let g = get(&mut c3, "APP.IN", Duration::from_secs(20)).expect("a message two hops away");
        assert_eq!(&g.message.body[..], body.as_bytes());
        assert_eq!(g.message.descriptor.put_appl_name.as_str(), "far-putter");
    }
    // Both hops compressed, each with its own algorithm, and say how much they saved.
    assert_eq!(
        chstatus(&qm1, "QM1.TO.QM2", "COMPRESS").as_deref(),
        Some("lz4-fast")
    );
    assert_eq!(
        chstatus(&qm2, "QM2.TO.QM3", "COMPRESS").as_deref(),
        Some("zlib-fast")
    );
    for (server, channel) in [(&qm1, "QM1.TO.QM2"), (&qm2, "QM2.TO.QM3")] {
        let rate: i64 = chstatus(server, channel, "COMPRATE")
            .unwrap()
            .parse()
            .unwrap();
        assert!(rate > 50, "{channel} saved only {rate}%");
    }
}

/// A TCP relay on a free port to `to`: it records what the client side sends, for a replay.
fn recording_relay(to: String) -> (u16, std::sync::Arc<std::sync::Mutex<Vec<u8>>>) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    (relay(to, Some(seen.clone())), seen)
}

/// A TCP relay on a free port to `to`. With `seen`, it records what the client side sends and
/// passes a close on; without, it loses resets: when the client side closes, the connection to
/// `to` is left open, as after a crash whose reset never arrived.
fn relay(to: String, seen: Option<std::sync::Arc<std::sync::Mutex<Vec<u8>>>>) -> u16 {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in l.incoming() {
            let Ok(mut client) = client else { return };
            let Ok(mut server) = std::net::TcpStream::connect(&to) else {
                return;
            };
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            let keep_open = seen.is_none();
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
                // A dead client must not close the server side (the stale receiving end the
                // test watches): a write to the dead client ends this copy, not the socket.
                if keep_open {
                    std::mem::forget(s2);
                }
            });
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 16384];
                while let Ok(n) = client.read(&mut buf) {
                    if n == 0 || server.write_all(&buf[..n]).is_err() {
                        break;
                    }
                    if let Some(seen) = &seen {
                        seen.lock().unwrap().extend_from_slice(&buf[..n]);
                    }
                }
                // Losing the reset: the other copy keeps the server side open.
                if seen.is_some() {
                    let _ = server.shutdown(std::net::Shutdown::Both);
                }
            });
        }
    });
    port
}

#[test]
fn a_channel_over_tls_checks_its_partners_certificate_name() {
    let pki = std::env::temp_dir().join(format!("ferry-it-chtls-pki-{}", std::process::id()));
    common::make_pki(
        &pki,
        &[
            ("qm", &["localhost", "127.0.0.1"]),
            ("QM1", &[]),
            ("APP1", &[]),
        ],
    );
    let path = |n: &str| pki.join(n).display().to_string();
    let tls_port = free_port();
    // QM2 requires client certificates; its receiver takes only the certificate named QM1.
    let qm2 = Server::start_named(
        "chtls-2",
        "QM2",
        &[
            "--tls-listen",
            &format!("127.0.0.1:{tls_port}"),
            "--tls-cert",
            &path("qm.pem"),
            "--tls-key",
            &path("qm.key"),
            "--set",
            &format!("server.tls_client_ca=\"{}\"", path("ca.pem")),
        ],
    );
    let qm1 = Server::start_named(
        "chtls-1",
        "QM1",
        &[
            "--set",
            &format!("server.tls_ca=\"{}\"", path("ca.pem")),
            "--set",
            &format!("server.tls_cert=\"{}\"", path("QM1.pem")),
            "--set",
            &format!("server.tls_key=\"{}\"", path("QM1.key")),
        ],
    );
    admin(
        &qm2,
        "DEFINE CHANNEL(TLS.OK) CHLTYPE(RCVR) SSLCIPH(ANY_TLS13) SSLPEER('CN=QM1')
         DEFINE QLOCAL(APP.IN)",
    );
    // The sender goes through a relay that records what it sends.
    let (relay, captured) = recording_relay(format!("127.0.0.1:{tls_port}"));
    admin(
        &qm1,
        &format!(
            "DEFINE QLOCAL(QM2) USAGE(XMITQ)
             DEFINE CHANNEL(TLS.OK) CHLTYPE(SDR) CONNAME('127.0.0.1({relay})') XMITQ(QM2) SSLCIPH(ANY_TLS13) SSLPEER('CN=localhost') SHORTTMR(1)
             DEFINE QREMOTE(APP.SECURE) RNAME(APP.IN) RQMNAME(QM2)"
        ),
    );
    let mut c1 = Connection::connect(&qm1.unix, "tls-putter").unwrap();
    c1.put1(
        "APP.SECURE",
        Message::text("over tls").with_persistence(Persistence::Persistent),
        &PutOptions::default(),
    )
    .unwrap();
    let mut c2 = Connection::connect(&qm2.unix, "tls-getter").unwrap();
    let g = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("a message over TLS");
    assert_eq!(&g.message.body[..], b"over tls");
    assert_eq!(
        chstatus(&qm2, "TLS.OK", "CONNAME").map(|c| c.is_empty()),
        Some(false)
    );
    assert_eq!(chstatus(&qm2, "TLS.OK", "RQMNAME").as_deref(), Some("QM1"));

    // Outsiders with certificates the CA signed: an application's, and QM1's own claiming to
    // be another queue manager. Both refused, told nothing but "not available".
    let tls_ep = format!("tls://127.0.0.1:{tls_port}");
    let as_channel = |cert: &str| ClientOptions {
        channel: true,
        tls: Some(ferry_client::TlsOptions {
            ca: pki.join("ca.pem"),
            server_name: Some("localhost".into()),
            client_cert: Some((
                pki.join(format!("{cert}.pem")),
                pki.join(format!("{cert}.key")),
            )),
        }),
        ..Default::default()
    };
    for (cert, claim) in [("APP1", "QM1"), ("APP1", "APP1"), ("QM1", "QM9")] {
        let mut c = Connection::connect_with(&tls_ep, "outsider", &as_channel(cert)).unwrap();
        for seq in [0, 1, 2] {
            let e = c
                .channel_start(
                    "TLS.OK",
                    claim,
                    ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, seq),
                )
                .unwrap_err();
            if seq == 0 {
                assert_eq!(
                    e.reason,
                    Reason::ChannelNotAvailable,
                    "{cert} as {claim}: {e}"
                );
                assert!(!e.detail.contains("sequence"), "{e}");
            } else {
                assert_eq!(e.reason, Reason::ConnectionBroken, "the socket closed: {e}");
            }
        }
    }
    let log = qm2.log();
    assert!(log.contains("does not match SSLPEER"), "{log}");
    assert!(log.contains("claims to be queue manager 'QM9'"), "{log}");

    // What the genuine sender sent, replayed byte for byte: TLS refuses it.
    let bytes = captured.lock().unwrap().clone();
    assert!(bytes.len() > 100, "the relay saw the sender's start");
    {
        use std::io::{Read, Write};
        let mut raw = std::net::TcpStream::connect(format!("127.0.0.1:{tls_port}")).unwrap();
        raw.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = raw.write_all(&bytes);
        let mut sink = Vec::new();
        let _ = raw.read_to_end(&mut sink);
    }
    common::eventually("the replay to be refused", || {
        qm2.log().matches("TLS handshake refused").count() >= 1
    });
    assert!(get(&mut c2, "APP.IN", Duration::from_millis(300)).is_none());

    // A partner whose certificate does not carry the SSLPEER name is refused; the sender
    // retries and says why.
    admin(
        &qm1,
        "ALTER CHANNEL(TLS.OK) CHLTYPE(SDR) SSLPEER('CN=someone.else.example')
         STOP CHANNEL(TLS.OK)",
    );
    common::eventually("the channel to stop", || {
        chstatus(&qm1, "TLS.OK", "STATUS").as_deref() == Some("STOPPED")
    });
    admin(&qm1, "START CHANNEL(TLS.OK)");
    c1.put1(
        "APP.SECURE",
        Message::text("refused"),
        &PutOptions::default(),
    )
    .unwrap();
    common::eventually("the sender to retry", || {
        chstatus(&qm1, "TLS.OK", "STATUS").as_deref() == Some("RETRYING")
    });
    let err = chstatus(&qm1, "TLS.OK", "LASTERR").unwrap();
    assert!(
        err.contains("someone.else.example") || err.contains("certificate"),
        "{err}"
    );
    assert!(get(&mut c2, "APP.IN", Duration::from_millis(500)).is_none());
    // A CipherSpec FerryMQ does not speak is refused when the channel is defined.
    let e = Connection::connect(&qm2.unix, "x")
        .unwrap()
        .admin("DEFINE CHANNEL(TLS.X) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q) SSLCIPH(TLS_RSA_WITH_NULL)")
        .unwrap();
    assert!(!e[0].ok);
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn a_restarted_sender_replaces_its_stale_receiving_end_at_once() {
    let (mut qm1, qm2) = pair("stale", 1);
    let relay = relay(qm2.tcp_addr().to_owned(), None);
    admin(
        &qm1,
        &format!("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({relay})')"),
    );
    // The sender may have reached QM2 directly before the ALTER (it is refused when it was
    // not running): it restarts through the relay.
    rebind(&qm1, "QM1.TO.QM2");
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    let put = |c: &mut Connection, body: &str| {
        let m = Message::text(body).with_persistence(Persistence::Persistent);
        c.put1("APP.TO.QM2", m, &PutOptions::default()).unwrap();
    };
    put(&mut c1, "before");
    let mut c2 = Connection::connect(&qm2.unix, "getter").unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_secs(20)).is_some());
    // The sender's queue manager dies; its receiving end at QM2 never hears of it.
    let port = qm1.tcp_addr().rsplit(':').next().unwrap().to_owned();
    let _ = qm1.child.kill();
    let _ = qm1.child.wait();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        chstatus(&qm2, "QM1.TO.QM2", "STATUS").as_deref(),
        Some("RUNNING"),
        "the receiving end outlives its sender: {}",
        qm2.log()
    );
    qm1.restart(&["--listen", &format!("127.0.0.1:{port}")]);
    qm1.wait_ready();
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    let t = std::time::Instant::now();
    put(&mut c1, "after");
    let g = get(&mut c2, "APP.IN", Duration::from_secs(20)).expect("the restarted sender runs");
    assert_eq!(&g.message.body[..], b"after");
    assert!(
        t.elapsed() < Duration::from_secs(8),
        "took {:?}",
        t.elapsed()
    );
    assert!(
        qm2.log().contains("ending the stale instance"),
        "{}",
        qm2.log()
    );
}

#[test]
fn an_undeliverable_message_sends_its_exception_report_home_and_is_dead_lettered_or_discarded() {
    let (qm1, qm2) = pair("exception", 1);
    admin(
        &qm1,
        "DEFINE QLOCAL(REPORTS)
         DEFINE QREMOTE(TO.MISSING) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)",
    );
    let mut c1 = Connection::connect(&qm1.unix, "sender").unwrap();
    let ask = |report: u32| {
        let mut m = Message::text(&"e".repeat(150)).with_persistence(Persistence::Persistent);
        m.descriptor.report = report;
        m.descriptor.reply_to_queue = ferry_client::object_name("REPORTS").unwrap();
        m
    };
    let out = c1
        .put1(
            "TO.MISSING",
            ask(ferry_client::report::EXCEPTION_WITH_DATA),
            &PutOptions::default(),
        )
        .unwrap();
    let r = get(&mut c1, "REPORTS", Duration::from_secs(20)).expect("the exception report, home");
    let d = &r.message.descriptor;
    assert_eq!(
        (d.message_type, d.feedback),
        (ferry_client::MessageType::Report, 2085)
    );
    assert_eq!(d.correl_id.0, out.msg_id.0);
    assert_eq!(
        r.message.body.len(),
        100,
        "EXCEPTION_WITH_DATA: the first 100 bytes"
    );
    let dlq_depth = || {
        common::display(
            &qm2,
            "DISPLAY QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) CURDEPTH",
            "CURDEPTH",
        )
    };
    assert_eq!(dlq_depth().as_deref(), Some("1"), "dead-lettered at QM2");
    // MQRO_DISCARD_MSG: the report still comes, the message is not kept.
    let report = ferry_client::report::EXCEPTION | ferry_client::report::DISCARD_MSG;
    c1.put1("TO.MISSING", ask(report), &PutOptions::default())
        .unwrap();
    let r = get(&mut c1, "REPORTS", Duration::from_secs(20)).expect("the second exception report");
    assert!(r.message.body.is_empty());
    assert_eq!(
        dlq_depth().as_deref(),
        Some("1"),
        "discarded, not dead-lettered"
    );
    assert!(qm2.log().contains("MQRO_DISCARD_MSG"), "{}", qm2.log());
}

/// STOP CHANNEL then START CHANNEL at once (one script) is a restart: the running sender ends
/// its connection and binds again — with the attributes ALTERed meanwhile — even though START
/// came before it looked.
#[test]
fn stop_then_start_at_once_restarts_a_running_sender() {
    let (qm1, qm2) = pair("restart", 1);
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    let mut c2 = Connection::connect(&qm2.unix, "getter").unwrap();
    let running = |qm: &Server| qm.log().matches("sender channel running").count();
    c1.put1("APP.TO.QM2", Message::text("one"), &PutOptions::default())
        .unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_secs(20)).is_some());
    let before = running(&qm1);
    admin(
        &qm1,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) BATCHSZ(7)
         STOP CHANNEL(QM1.TO.QM2)
         START CHANNEL(QM1.TO.QM2)",
    );
    // The old connection ends (the sender then waits, INACTIVE, for the next message).
    common::eventually("the running sender to end its connection", || {
        chstatus(&qm1, "QM1.TO.QM2", "STATUS").as_deref() != Some("RUNNING")
    });
    c1.put1("APP.TO.QM2", Message::text("two"), &PutOptions::default())
        .unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_secs(20)).is_some());
    common::eventually("the sender to bind again", || running(&qm1) > before);
    assert!(qm1.log().contains("batch_size=7"), "{}", qm1.log());
}

#[test]
fn a_sender_runs_with_the_congestion_control_it_asks_for_and_shows_its_tcp_figures() {
    let (qm1, qm2) = pair("congctl", 1);
    let offered = ferry_host::net::available_congestion();
    let want = offered
        .iter()
        .find(|a| *a == "bbr")
        .or_else(|| offered.iter().find(|a| *a == "cubic"))
        .cloned()
        .expect("the kernel offers a congestion control");
    admin(
        &qm1,
        &format!("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONGCTL({want})"),
    );
    // The sender may be bound already: it takes the attribute when it binds again.
    rebind(&qm1, "QM1.TO.QM2");
    let shown = common::display(&qm1, "DISPLAY CHANNEL(QM1.TO.QM2) CONGCTL", "CONGCTL");
    assert_eq!(shown, Some(want.to_ascii_uppercase()));
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    c1.put1(
        "APP.TO.QM2",
        Message::text("over the chosen controller"),
        &PutOptions::default(),
    )
    .unwrap();
    let mut c2 = Connection::connect(&qm2.unix, "getter").unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_secs(20)).is_some());
    common::eventually("the sender's status", || {
        chstatus(&qm1, "QM1.TO.QM2", "CONGCTL").as_deref()
            == Some(want.to_ascii_uppercase().as_str())
    });
    assert_eq!(
        chstatus(&qm1, "QM1.TO.QM2", "TRANSPORT").as_deref(),
        Some("TCP")
    );
    let rtt: u64 = chstatus_num(&qm1, "QM1.TO.QM2", "TCPRTT");
    assert!(rtt > 0, "the kernel's round trip after a batch: {rtt} µs");
    let m = common::scrape(&qm1);
    assert!(m.contains("ferry_channel_tcp_rtt_seconds{"), "{m}");
    // A controller the kernel does not have: said in the log, and the channel runs anyway.
    admin(
        &qm1,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONGCTL(nosuchcc)
         STOP CHANNEL(QM1.TO.QM2)",
    );
    common::eventually("the channel to stop", || {
        chstatus(&qm1, "QM1.TO.QM2", "STATUS").as_deref() == Some("STOPPED")
    });
    admin(&qm1, "START CHANNEL(QM1.TO.QM2)");
    c1.put1(
        "APP.TO.QM2",
        Message::text("on the default"),
        &PutOptions::default(),
    )
    .unwrap();
    assert!(get(&mut c2, "APP.IN", Duration::from_secs(20)).is_some());
    assert!(
        qm1.log().contains("kernel's default congestion control"),
        "{}",
        qm1.log()
    );
    let bad = Connection::connect(&qm1.unix, "x")
        .unwrap()
        .admin("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONGCTL('B B R')")
        .unwrap();
    assert!(!bad[0].ok, "{bad:?}");
}

/// QM1 sends to QM2 over TRPTYPE(QUIC); QM2 listens for QUIC on its TCP port number when
/// `quic` is set. Returns both and QM2's port.
fn quic_pair(tag: &str, quic: bool) -> (Server, Server, u16) {
    let p2 = free_port();
    let addr = format!("127.0.0.1:{p2}");
    let more: &[&str] = if quic { &["--quic-listen", &addr] } else { &[] };
    let qm1 = start(&format!("{tag}-1"), "QM1", free_port(), &[]);
    let qm2 = start_args(&format!("{tag}-2"), "QM2", p2, &["QM1"], more);
    let (sdr, rcvr) = (common::sdr_auth("QM1"), common::rcvr_auth("QM1"));
    admin(
        &qm1,
        &format!(
            "DEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(100000)
             DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) TRPTYPE(QUIC) CONNAME('127.0.0.1({p2})') XMITQ(QM2) SHORTTMR(1) DISCINT(0) {sdr}
             DEFINE QREMOTE(APP.TO.QM2) RNAME(APP.IN) RQMNAME(QM2)"
        ),
    );
    admin(
        &qm2,
        &format!(
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) {rcvr}
             DEFINE QLOCAL(APP.IN) MAXDEPTH(100000)"
        ),
    );
    (qm1, qm2, p2)
}

/// Puts `n` messages (every other one persistent) to APP.TO.QM2 on `qm1` and gets them from
/// APP.IN on `qm2`: each once, in order.
fn send_and_check(qm1: &Server, qm2: &Server, n: usize) {
    let mut c1 = Connection::connect(&qm1.unix, "putter").unwrap();
    for i in 0..n {
        let p = if i.is_multiple_of(2) {
            Persistence::Persistent
        } else {
            Persistence::NotPersistent
        };
        let m = Message::text(&format!("m{i}")).with_persistence(p);
        c1.put1("APP.TO.QM2", m, &PutOptions::default()).unwrap();
    }
    let mut c2 = Connection::connect(&qm2.unix, "getter").unwrap();
    let h = c2.open_queue("APP.IN", OpenOptions::input()).unwrap();
    let (mut persistent, mut other) = (Vec::new(), Vec::new());
    for _ in 0..n {
        let g = c2
            .get(h, &GetOptions::new().wait(Duration::from_secs(30)))
            .expect("every message arrives");
        let text = String::from_utf8(g.message.body.to_vec()).unwrap();
        let i: usize = text[1..].parse().unwrap();
        if i.is_multiple_of(2) {
            &mut persistent
        } else {
            &mut other
        }
        .push(i);
    }
    let none = c2.get(h, &GetOptions::new().wait(Duration::from_millis(500)));
    assert_eq!(
        none.unwrap_err().reason,
        Reason::NoMsgAvailable,
        "no duplicate"
    );
    // Each class arrives in order (persistent and fast messages travel in separate batches).
    assert_eq!(persistent, (0..n).step_by(2).collect::<Vec<_>>());
    assert_eq!(other, (1..n).step_by(2).collect::<Vec<_>>());
}

#[test]
fn a_channel_over_quic_moves_messages_once_and_shows_its_path() {
    let (qm1, qm2, _) = quic_pair("quic", true);
    assert_eq!(
        common::display(&qm1, "DISPLAY CHANNEL(QM1.TO.QM2) TRPTYPE", "TRPTYPE").as_deref(),
        Some("QUIC")
    );
    send_and_check(&qm1, &qm2, 400);
    common::eventually("the sender's status", || {
        chstatus(&qm1, "QM1.TO.QM2", "TRANSPORT").as_deref() == Some("QUIC")
    });
    assert_eq!(
        chstatus(&qm1, "QM1.TO.QM2", "CONGCTL").as_deref(),
        Some("BBR")
    );
    // The receiving end says how its sender came.
    assert_eq!(
        chstatus(&qm2, "QM1.TO.QM2", "TRANSPORT").as_deref(),
        Some("QUIC")
    );
    let rtt: u64 = chstatus(&qm1, "QM1.TO.QM2", "TCPRTT")
        .unwrap()
        .parse()
        .unwrap();
    assert!(rtt > 0, "QUIC's round trip: {rtt} µs");
    // Bytes in flight: on loopback the acknowledgements may all be in when the status is
    // taken, so only that it is there (the N3 test in wan.rs sees them in flight).
    let _in_flight: u64 = chstatus_num(&qm1, "QM1.TO.QM2", "INFLIGHT");
    let rate: u64 = chstatus_num(&qm1, "QM1.TO.QM2", "TCPRATE");
    assert!(rate > 0, "QUIC's rate: {rate}");
    let loss: f64 = chstatus_num(&qm1, "QM1.TO.QM2", "LOSSRATE");
    assert!((0.0..=100.0).contains(&loss), "QUIC's loss: {loss} %");
    assert!(
        common::scrape(&qm2).contains("ferry_connections{mode=\"quic\"} 1"),
        "{}",
        common::scrape(&qm2)
    );
    assert!(
        qm2.endpoints.contains("quic://127.0.0.1:"),
        "{}",
        qm2.endpoints
    );
    // A congestion control QUIC does not run is refused when defined.
    let bad = Connection::connect(&qm1.unix, "x")
        .unwrap()
        .admin("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONGCTL(VEGAS)")
        .unwrap();
    assert!(!bad[0].ok, "{bad:?}");
    // CUBIC, chosen, runs in QUIC when the channel binds again.
    admin(
        &qm1,
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONGCTL(CUBIC)",
    );
    rebind(&qm1, "QM1.TO.QM2");
    send_and_check(&qm1, &qm2, 50);
    common::eventually("CUBIC in the status", || {
        chstatus(&qm1, "QM1.TO.QM2", "CONGCTL").as_deref() == Some("CUBIC")
    });
}

#[test]
fn a_quic_sender_falls_back_to_tcp_when_its_partner_has_no_quic() {
    let (qm1, qm2, _) = quic_pair("quic-fallback", false);
    send_and_check(&qm1, &qm2, 100);
    common::eventually("the sender's status", || {
        chstatus(&qm1, "QM1.TO.QM2", "TRANSPORT").as_deref() == Some("TCP")
    });
    assert!(qm1.log().contains("falls back to TCP"), "{}", qm1.log());
}

#[test]
fn a_quic_client_authenticates_like_a_tcp_one() {
    let (_qm1, _qm2, p2) = quic_pair("quic-client", true);
    let (user, password) = common::channel_user("QM1");
    let ep = format!("quic://127.0.0.1:{p2}");
    let opts = |pw: &str| ClientOptions {
        user: Some(user.clone()),
        password: Some(pw.to_owned()),
        channel: true,
        ..Default::default()
    };
    let wrong = Connection::connect_with(&ep, "quic-client", &opts("not-the-password"));
    assert_eq!(
        wrong.err().map(|e| e.reason),
        Some(Reason::NotAuthorized),
        "a wrong password is refused over QUIC too"
    );
    // Garbage datagrams at the QUIC port are dropped; the right password still gets in.
    let junk = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    for i in 0..2000u32 {
        let len = 1 + (i as usize * 7919) % 1400;
        let _ = junk.send_to(&vec![(i % 251) as u8; len], ("127.0.0.1", p2));
    }
    let ok = Connection::connect_with(&ep, "quic-client", &opts(&password))
        .expect("the right password over QUIC, after the junk");
    assert_eq!(ok.mode(), ferry_client::ConnMode::Quic);
    ok.disconnect().unwrap();
    let nobody = Connection::connect_with("quic://127.0.0.1:1", "quic-client", &opts(&password));
    let Err(e) = nobody else {
        panic!("nobody listens there")
    };
    assert_eq!(e.reason, Reason::QMgrNotAvailable, "{e}");
    assert!(e.detail.contains("QUIC"), "{e}");
}
