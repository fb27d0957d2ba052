//! Channels against an attacker on the network (docs/security.md, "Channels"): a receiver
//! starts a channel only for the partner its definition names, proved by password or
//! certificate; whoever else knows the channel's name, guesses its sequence numbers, replays
//! its start or holds another credential is refused and told nothing; and a sender removes from
//! its transmission queue only a batch it knows it sent. Afterwards every message crosses
//! exactly once. (Certificates, wrong names and a byte-for-byte replay over TLS are in
//! channels.rs, `a_channel_over_tls_checks_its_partners_certificate_name`.)

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{free_port, Server};
use ferry_client::{
    ClientOptions, Connection, GetOptions, Message, MsgId, OpenOptions, Persistence, PutOptions,
    Reason,
};

fn admin(server: &Server, script: &str) {
    let mut c = Connection::connect(&server.unix, "chsec-admin").unwrap();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

fn depth(server: &Server, q: &str) -> u64 {
    common::display(server, &format!("DISPLAY QLOCAL({q}) CURDEPTH"), "CURDEPTH")
        .unwrap()
        .parse()
        .unwrap()
}

/// QM2 on `port`: the user file holds QM1's channel user and an application user, alice; the
/// receiver QM1.TO.QM2 accepts only QM1 authenticated as its channel user.
fn receiving_qm2(tag: &str, port: u16) -> Server {
    let (u, p) = common::channel_user("QM1");
    let qm2 = Server::start_with_users(
        tag,
        "QM2",
        &[(&u, &p), ("alice", "alice-password")],
        &["--listen", &format!("127.0.0.1:{port}")],
    );
    common::grant_channel_user(&qm2, "QM1");
    admin(
        &qm2,
        &format!(
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) {}
             DEFINE QLOCAL(APP.IN)
             SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)",
            common::rcvr_auth("QM1")
        ),
    );
    qm2
}

/// QM1 with a transmission queue to QM2 holding `n` persistent messages (no channel yet).
fn sending_qm1(tag: &str, n: u32) -> Server {
    let qm1 = Server::start_named(tag, "QM1", &[]);
    admin(
        &qm1,
        "DEFINE QLOCAL(QM2) USAGE(XMITQ)
         DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM2)",
    );
    let mut c = Connection::connect(&qm1.unix, "chsec-putter").unwrap();
    for i in 0..n {
        c.put1(
            "APP.FAR",
            Message::text(&format!("m{i}")).with_persistence(Persistence::Persistent),
            &PutOptions::default(),
        )
        .unwrap();
    }
    qm1
}

/// Defines QM1's sender to `port`, authenticating as QM1's channel user.
fn define_sender(qm1: &Server, port: u16) {
    admin(
        qm1,
        &format!(
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ(QM2) SHORTTMR(1) DISCINT(0) {}",
            common::sdr_auth("QM1")
        ),
    );
}

/// Every message reaches QM2's APP.IN exactly once, and QM1's transmission queue empties.
fn all_arrive_once(qm1: &Server, qm2: &Server, n: u32) {
    let mut c = Connection::connect(&qm2.unix, "chsec-getter").unwrap();
    let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
    let mut seen = BTreeMap::new();
    for _ in 0..n {
        let g = c
            .get(h, &GetOptions::new().wait(common::DEADLINE))
            .expect("every message arrives");
        *seen
            .entry(String::from_utf8_lossy(&g.message.body).into_owned())
            .or_insert(0) += 1;
    }
    let extra = c.get(h, &GetOptions::new().wait(Duration::from_millis(700)));
    assert_eq!(extra.unwrap_err().reason, Reason::NoMsgAvailable);
    let want: BTreeMap<String, i32> = (0..n).map(|i| (format!("m{i}"), 1)).collect();
    assert_eq!(seen, want);
    common::eventually("the transmission queue to empty", || depth(qm1, "QM2") == 0);
}

fn as_channel(user: Option<(&str, &str)>) -> ClientOptions {
    ClientOptions {
        channel: true,
        user: user.map(|(u, _)| u.to_owned()),
        password: user.map(|(_, p)| p.to_owned()),
        ..Default::default()
    }
}

/// Starts QM1.TO.QM2 at `ep` with `opts`, claiming queue manager `claim`: must be refused
/// with CHANNEL_NOT_AVAILABLE and no sequence number, and the socket closed.
fn start_refused(ep: &str, opts: &ClientOptions, claim: &str, seq: u64) {
    let mut c = Connection::connect_with(ep, "outsider", opts).unwrap();
    let e = c
        .channel_start(
            "QM1.TO.QM2",
            claim,
            ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, seq),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::ChannelNotAvailable, "{e}");
    let told = e.detail.replace("QM1.TO.QM2", "");
    assert!(
        !told.contains("sequence") && !told.chars().any(|c| c.is_ascii_digit()),
        "a refusal tells nothing: {e}"
    );
    let after = c.channel_start(
        "QM1.TO.QM2",
        claim,
        ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, seq),
    );
    assert_eq!(after.unwrap_err().reason, Reason::ConnectionBroken);
}

#[test]
fn outsiders_cannot_start_a_receiver_and_every_message_crosses_exactly_once() {
    let p2 = free_port();
    let qm2 = receiving_qm2("chsec-out-2", p2);
    let qm1 = sending_qm1("chsec-out-1", 10);
    let ep = qm2.endpoint("tcp://");
    let (chl_user, chl_pw) = common::channel_user("QM1");
    let genuine = as_channel(Some((&chl_user, &chl_pw)));

    // Knowing the channel's name and guessing sequence numbers, with no credential.
    for seq in [0, 1, 2, 5, 10, 1000] {
        start_refused(&ep, &as_channel(None), "QM1", seq);
    }
    // Another user's valid password; the right credential claiming another queue manager.
    start_refused(
        &ep,
        &as_channel(Some(("alice", "alice-password"))),
        "QM1",
        0,
    );
    start_refused(&ep, &genuine, "QM9", 0);
    // A wrong password is refused at connect.
    let e =
        Connection::connect_with(&ep, "x", &as_channel(Some((&chl_user, "guess")))).unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    // An application conversation may not carry channel requests, nor open the sync queue by
    // any name.
    let alice = ClientOptions {
        user: Some("alice".into()),
        password: Some("alice-password".into()),
        ..Default::default()
    };
    let mut app = Connection::connect_with(&ep, "app", &alice).unwrap();
    admin(
        &qm2,
        "DEFINE QALIAS(SYNC.ALIAS) TARGET(SYSTEM.CHANNEL.SYNCQ)",
    );
    for name in ["SYSTEM.CHANNEL.SYNCQ", "SYNC.ALIAS"] {
        let e = app.open_queue(name, OpenOptions::browse()).unwrap_err();
        assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
        let e = app
            .put1(name, Message::text("forged"), &PutOptions::default())
            .unwrap_err();
        assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    }
    let e = app
        .channel_start(
            "QM1.TO.QM2",
            "QM1",
            ferry_client::SenderOffer::waiting_for_each(50, 4 << 20, 0),
        )
        .unwrap_err();
    assert_eq!(e.reason, Reason::ChannelNotAvailable, "{e}");
    // A channel conversation with the right credential carries only channel requests: no
    // opening queues, and no batch before a start.
    let mut ch = Connection::connect_with(&ep, "x", &genuine).unwrap();
    let e = ch.open_queue("APP.IN", OpenOptions::output()).unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    let mut ch = Connection::connect_with(&ep, "x", &genuine).unwrap();
    let forged = Message::text("forged").with_persistence(Persistence::Persistent);
    let e = ch.channel_batch(1, [0; 16], &[forged]).unwrap_err();
    assert_eq!(e.reason, Reason::ChannelNotAvailable, "{e}");

    // Nothing reached QM2; its log says why each start was refused.
    assert_eq!(depth(&qm2, "APP.IN"), 0);
    let log = qm2.log();
    assert!(log.matches("channel start refused").count() >= 8, "{log}");
    assert!(
        log.contains("gave no password the user file verified"),
        "{log}"
    );
    assert!(log.contains("authenticated as user 'alice'"), "{log}");
    the_security_guides_log_line_is_the_logs(&log);
    assert!(log.contains("claims to be queue manager 'QM9'"), "{log}");

    // The genuine sender starts: every message crosses once.
    define_sender(&qm1, p2);
    all_arrive_once(&qm1, &qm2, 10);
    let st = common::display(&qm2, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL", "RQMNAME");
    assert_eq!(st.as_deref(), Some("QM1"));
}

/// A receiver that is not QM2: it answers every channel start claiming to have committed the
/// batch after the sender's, holding `ids` — the transmission ids of the messages waiting on
/// the sender's transmission queue, which it learnt somehow.
fn rogue_receiver(ids: Vec<MsgId>) -> u16 {
    use bytes::BytesMut;
    use ferry_proto::{Preamble, Reply, Request, Status, FLAG_RESPONSE, PREAMBLE_LEN};
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let mut pre = [0u8; PREAMBLE_LEN];
            if s.read_exact(&mut pre).is_err() {
                continue;
            }
            s.write_all(&Preamble::ours(1 << 20).encode()).unwrap();
            let mut buf = BytesMut::new();
            let mut chunk = [0u8; 65536];
            'conn: loop {
                while let Ok(Some(f)) = ferry_proto::decode_frame(&mut buf, 8 << 20) {
                    let reply = match Request::decode(f.header.opcode, f.payload) {
                        Ok(Request::Connect { .. }) => Reply::Connected {
                            conn_id: 1,
                            qmgr: "QM2".into(),
                            heartbeat_ms: 30_000,
                            compression: 0,
                        },
                        Ok(Request::ChannelStart { seq, .. }) => Reply::ChannelStarted {
                            qmgr: "QM2".into(),
                            batch_size: 50,
                            max_msg_length: 4 << 20,
                            seq: seq + 1,
                            ids: ids.iter().map(|i| i.0).collect(),
                            luwid: [7; 16],
                            window: 1,
                            more: Vec::new(),
                            lanes: 1,
                        },
                        _ => Reply::Empty,
                    };
                    let mut out = BytesMut::new();
                    let h = ferry_proto::FrameHeader {
                        flags: FLAG_RESPONSE,
                        ..f.header
                    };
                    let at = ferry_proto::begin_frame(&mut out, h);
                    ferry_proto::encode_response(&mut out, &Status::OK, &reply);
                    ferry_proto::finish_frame(&mut out, at);
                    if s.write_all(&out).is_err() {
                        break 'conn;
                    }
                }
                match s.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
        }
    });
    port
}

#[test]
fn a_sender_removes_nothing_that_a_receiver_it_never_sent_to_claims() {
    let qm1 = sending_qm1("chsec-rogue-1", 10);
    // The worst case: the impostor knows every transmission id on the queue.
    let mut c = Connection::connect(&qm1.unix, "chsec-browser").unwrap();
    let h = c.open_queue("QM2", OpenOptions::browse()).unwrap();
    let mut ids = Vec::new();
    let mut mode = ferry_client::BrowseMode::First;
    while let Ok(g) = c.get(h, &GetOptions::new().browse(mode)) {
        ids.push(g.message.transmission.as_ref().unwrap().xmit_id);
        mode = ferry_client::BrowseMode::Next;
    }
    assert_eq!(ids.len(), 10);
    let rogue = rogue_receiver(ids);
    define_sender(&qm1, rogue);
    common::eventually("the sender to refuse the impostor's claim", || {
        qm1.log()
            .contains("the receiver reports a committed batch this sender did not send")
    });
    let err = common::display(&qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL", "LASTERR").unwrap();
    assert!(err.contains("not one this sender sent"), "{err}");
    assert_eq!(depth(&qm1, "QM2"), 10, "nothing was removed");

    // Pointed at the genuine QM2, the same sender delivers every message once.
    let p2 = free_port();
    let qm2 = receiving_qm2("chsec-rogue-2", p2);
    admin(
        &qm1,
        &format!("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({p2})')"),
    );
    all_arrive_once(&qm1, &qm2, 10);
}

/// docs/security.md shows the refusal of alice's start as it is logged: the same line but for
/// the time, the peer's address and the channel's MCAUSER.
fn the_security_guides_log_line_is_the_logs(log: &str) {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/security.md"),
    )
    .unwrap();
    let at = doc
        .find("checked by crates/ferry/tests/channel_security.rs")
        .unwrap();
    let shown = doc[at..].lines().nth(2).unwrap();
    let logged = log
        .lines()
        .find(|l| l.contains("authenticated as user 'alice'"))
        .unwrap();
    assert_eq!(
        mask(logged),
        mask(shown),
        "docs/security.md is stale; the log has:\n{logged}"
    );
}

/// A log line with its time, peer address and MCAUSER value replaced by placeholders.
fn mask(line: &str) -> String {
    line.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i == 0 {
                "TIME".to_owned()
            } else if w.starts_with("peer=") {
                "peer=ADDR".to_owned()
            } else if let Some(at) = w.find("MCAUSER(") {
                format!("{}MCAUSER(USER)", &w[..at])
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
