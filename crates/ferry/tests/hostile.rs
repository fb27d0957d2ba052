//! Hostile and careless clients against the real `ferry` server over raw sockets: each case
//! is followed by a check that a well-behaved client still connects and works at once, and
//! that the server's memory stayed within its bounds.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::raw::{frame, hello, preamble, rss_kib};
use common::Server;
use ferry_client::{ClientOptions, Connection, GetOptions, Message, OpenOptions, PutOptions};
use ferry_proto::{Request, WireGetOptions, WireObject};

fn addr(server: &Server) -> SocketAddr {
    server.tcp_addr().parse().unwrap()
}

/// The test user's credentials.
fn tester() -> ClientOptions {
    ClientOptions {
        user: Some(common::TEST_USER.into()),
        password: Some(common::TEST_PASSWORD.into()),
        ..Default::default()
    }
}

/// A well-behaved client over tcp puts and gets a message; how long it took.
fn well_behaved(server: &Server) -> Duration {
    let t = Instant::now();
    let opts = tester();
    let mut c = Connection::connect_with(&server.tcp_bare, "well-behaved", &opts).unwrap();
    c.put1("DEV.QUEUE.2", Message::text("ok"), &PutOptions::default())
        .unwrap();
    let h = c.open_queue("DEV.QUEUE.2", OpenOptions::input()).unwrap();
    c.get(h, &GetOptions::new()).unwrap();
    c.disconnect().unwrap();
    t.elapsed()
}

fn open_browse(queue: &str) -> Request {
    Request::Open {
        object: WireObject {
            kind: 0,
            name: queue.into(),
            ..Default::default()
        },
        options: ferry_proto::msg::open_flags::BROWSE,
        alternate_user: String::new(),
        selector: String::new(),
    }
}

/// Reads until the server closes the socket; whether it did within `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> bool {
    s.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let t = Instant::now();
    let mut buf = vec![0u8; 1 << 20];
    while t.elapsed() < limit {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn pipelined_browses_of_a_large_message_never_read_stay_within_the_answer_budget() {
    let server = Server::start("hostile-browse", &["--set", "server.write_stall_secs=3"]);
    let mut owner = Connection::connect(&server.unix, "owner").unwrap();
    let body = vec![7u8; 4_000_000];
    owner
        .put1("DEV.QUEUE.1", Message::new(body), &PutOptions::default())
        .unwrap();
    let before = rss_kib(server.child.id());
    // 200 browses of a 4 MB message: 800 MB of answers asked for, none read.
    let mut s = TcpStream::connect(addr(&server)).unwrap();
    let mut asked = hello("amplifier", common::TEST_USER, common::TEST_PASSWORD);
    asked.extend(frame(&open_browse("DEV.QUEUE.1"), 1, 2));
    let browse_first = Request::Get {
        hobj: 1,
        options: WireGetOptions {
            flags: 1 << 4,
            wait_ms: 0,
            msg_id: None,
            correl_id: None,
            max_len: u32::MAX,
            more: 0,
        },
    };
    for id in 0..200 {
        asked.extend(frame(&browse_first, 1, 3 + id));
    }
    s.write_all(&asked).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let grown_mib = rss_kib(server.child.id()).saturating_sub(before) / 1024;
    assert!(grown_mib < 64, "the server grew by {grown_mib} MiB");
    let took = well_behaved(&server);
    assert!(took < Duration::from_secs(1), "a good client took {took:?}");
    eprintln!("800 MB of browses asked, none read: RSS +{grown_mib} MiB; a good client {took:?}");
    // A client that reads none of its answers is closed after write_stall_secs.
    std::thread::sleep(Duration::from_secs(5));
    assert!(closed_within(&mut s, Duration::from_secs(10)));
    assert!(
        server.log().contains("has read none of its answers"),
        "{}",
        server.log()
    );
    let grown_mib = rss_kib(server.child.id()).saturating_sub(before) / 1024;
    assert!(grown_mib < 64, "the server grew by {grown_mib} MiB");
}

#[test]
fn before_connect_a_socket_gets_small_frames_and_a_deadline() {
    let server = Server::start(
        "hostile-preconnect",
        &["--set", "server.connect_timeout_secs=2"],
    );
    let before = rss_kib(server.child.id());
    // 20 sockets each declare a 100 MiB frame and send 1 MiB of it: refused at the header.
    let mut big = Vec::new();
    for _ in 0..20 {
        let mut s = TcpStream::connect(addr(&server)).unwrap();
        let mut b = preamble();
        b.extend((100u32 << 20).to_le_bytes());
        s.write_all(&b).unwrap();
        let _ = s.write_all(&vec![0u8; 1 << 20]);
        big.push(s);
    }
    for s in &mut big {
        assert!(closed_within(s, Duration::from_secs(5)));
    }
    // A socket that sends only the preamble is closed after connect_timeout_secs.
    let mut idle = TcpStream::connect(addr(&server)).unwrap();
    idle.write_all(&preamble()).unwrap();
    let t = Instant::now();
    assert!(closed_within(&mut idle, Duration::from_secs(10)));
    assert!(
        t.elapsed() >= Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    let grown_mib = rss_kib(server.child.id()).saturating_sub(before) / 1024;
    assert!(grown_mib < 32, "the server grew by {grown_mib} MiB");
    assert!(well_behaved(&server) < Duration::from_secs(1));
}

#[test]
fn a_hundred_thousand_properties_are_answered_in_well_under_a_second() {
    let server = Server::start("hostile-props", &[]);
    let props = ferry_model::message::Properties::from_pairs(
        (0..100_000).map(|i| (format!("p{i}"), ferry_model::message::PropertyValue::I64(i))),
    )
    .unwrap();
    let mut m = Message::text("many properties");
    m.properties = props;
    let opts = tester();
    let mut c = Connection::connect_with(&server.tcp_bare, "props", &opts).unwrap();
    // Each call's time covers this (debug) client's encoding and decoding too.
    let t = Instant::now();
    c.put1("DEV.QUEUE.1", m, &PutOptions::default()).unwrap();
    let put = t.elapsed();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    let t = Instant::now();
    let got = c.get(h, &GetOptions::new()).unwrap();
    let get = t.elapsed();
    assert_eq!(got.message.properties.len(), 100_000);
    assert!(put < Duration::from_secs(1), "the put took {put:?}");
    assert!(get < Duration::from_secs(1), "the get took {get:?}");
    eprintln!("100,000 properties (debug build, client work included): put {put:?}, get {get:?}");
    assert!(well_behaved(&server) < Duration::from_secs(1));
}

fn admin(server: &Server, script: &str) {
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

fn model(c: &mut Connection, name: &str) -> Result<ferry_client::Hobj, ferry_client::MqError> {
    let od = ferry_model::options::ObjectDescriptor::model(
        ferry_model::name::ObjectName::new(name).unwrap(),
        "HOSTILE.*",
    );
    c.open(&od, OpenOptions::input())
}

#[test]
fn dynamic_queues_and_handles_have_quotas() {
    let server = Server::start("hostile-quotas", &[]);
    admin(
        &server,
        "ALTER QMGR MAXDYNQ(8) MAXDYNQC(5) MAXHANDS(7)
         DEFINE QMODEL(APP.PERM) DEFTYPE(PERMDYN)",
    );
    let mut a = Connection::connect(&server.unix, "quota-a").unwrap();
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(model(&mut a, "SYSTEM.DEFAULT.MODEL.QUEUE").unwrap());
    }
    let e = model(&mut a, "SYSTEM.DEFAULT.MODEL.QUEUE").unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::ResourceProblem && e.detail.contains("MAXDYNQC"),
        "{e}"
    );
    // Closing a temporary queue's handle deletes it and gives the slot back.
    a.close(
        held.pop().unwrap(),
        ferry_model::options::CloseOptions::None,
    )
    .unwrap();
    held.push(model(&mut a, "SYSTEM.DEFAULT.MODEL.QUEUE").unwrap());
    // Permanent dynamic queues outlive their connection and count against MAXDYNQ.
    let mut b = Connection::connect(&server.unix, "quota-b").unwrap();
    for _ in 0..3 {
        let h = model(&mut b, "APP.PERM").unwrap();
        b.close(h, ferry_model::options::CloseOptions::None)
            .unwrap();
    }
    b.disconnect().unwrap();
    let mut c = Connection::connect(&server.unix, "quota-c").unwrap();
    let e = model(&mut c, "SYSTEM.DEFAULT.MODEL.QUEUE").unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::ResourceProblem && e.detail.contains("MAXDYNQ"),
        "{e}"
    );
    a.disconnect().unwrap();
    model(&mut c, "SYSTEM.DEFAULT.MODEL.QUEUE").unwrap();
    // MAXHANDS: the eighth handle is refused with 2017.
    for _ in 0..6 {
        c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    }
    let e = c
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::HandleNotAvailable, "{e}");
}

/// Connects the well-behaved way as the owner over the local socket; how long it took.
fn local_admin(server: &Server) -> Duration {
    let t = Instant::now();
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    c.admin("DISPLAY QMSTATUS").unwrap();
    t.elapsed()
}

#[test]
fn slots_cannot_be_stolen_by_idle_sockets_or_connections() {
    let server = Server::start("hostile-slots", &["--set", "server.connect_timeout_secs=3"]);
    let at = addr(&server);
    // 1,000 sockets from another address send a preamble and nothing more: 64 of them hold a
    // slot until the connect timeout, the rest are turned away at once.
    let mut idle_sockets = Vec::new();
    for _ in 0..1000 {
        let mut s = common::raw::connect_from(at, "127.0.0.2");
        let _ = s.write_all(&preamble());
        idle_sockets.push(s);
    }
    // 1,000 idle connections fill the local pool.
    let mut idle = Vec::new();
    for i in 0..1000 {
        idle.push(Connection::connect(&server.unix, &format!("idle-{i}")).unwrap());
    }
    let took = local_admin(&server);
    assert!(
        took < Duration::from_secs(1),
        "the administrator took {took:?}"
    );
    eprintln!("1,000 preamble-only sockets + 1,000 idle local connections: administrator {took:?}");
    let took = well_behaved(&server);
    assert!(
        took < Duration::from_secs(1),
        "a client from elsewhere took {took:?}"
    );
    eprintln!("1,000 preamble-only sockets + 1,000 idle local connections: a client from elsewhere {took:?}");
    // The preamble-only sockets are all closed within the connect timeout.
    let t = Instant::now();
    for s in &mut idle_sockets {
        assert!(closed_within(s, Duration::from_secs(10)));
    }
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let log = server.log();
    assert!(
        log.contains("no slot free") && log.contains("max_unopened_per_address"),
        "{log}"
    );
}

#[test]
fn a_wrong_password_flood_is_bounded_and_costs_the_right_user_little() {
    let server = Server::start("hostile-guess", &[]);
    let at = addr(&server);
    let before = rss_kib(server.child.id());
    let guessers: Vec<_> = (0..128)
        .map(|i| {
            std::thread::spawn(move || {
                let mut s = common::raw::connect_from(at, "127.0.0.3");
                let hello = hello("guesser", common::TEST_USER, &format!("wrong-{i}"));
                let _ = s.write_all(&hello);
                closed_within(&mut s, Duration::from_secs(60))
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let took = well_behaved(&server);
    assert!(
        took < Duration::from_secs(1),
        "the right user took {took:?}"
    );
    eprintln!("128 parallel wrong passwords: the right user's connect, put and get {took:?}");
    for g in guessers {
        assert!(g.join().unwrap(), "every guesser is answered and closed");
    }
    let grown_mib = rss_kib(server.child.id()).saturating_sub(before) / 1024;
    assert!(grown_mib < 256, "the server grew by {grown_mib} MiB");
}

#[test]
fn a_non_persistent_flood_spills_beyond_the_memory_budget_then_is_refused_not_an_abort() {
    // 3 GiB of address space, as `prlimit --as` or `ulimit -v` would give; the default budget
    // is a quarter of it. Beyond the budget messages go to a 512 MiB spill area, then 2071.
    let server = Server::start_capped("hostile-flood", 3 << 30, &["spill_mib = 512"], &[]);
    admin(&server, "ALTER QLOCAL(DEV.QUEUE.1) MAXDEPTH(100000)");
    let mut c = Connection::connect(&server.unix, "flooder").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    let numbered = |i: u32| {
        let mut body = vec![1u8; 4_000_000];
        body[..4].copy_from_slice(&i.to_le_bytes());
        let mut m = Message::new(body);
        m.descriptor.persistence = ferry_model::message::Persistence::NotPersistent;
        m
    };
    let mut put = 0;
    let refusal = loop {
        match c.put(h, numbered(put), &PutOptions::default()) {
            Ok(_) => put += 1,
            Err(e) => break e,
        }
        assert!(
            put < 2000,
            "3 GiB of address space took {put} messages of 4 MB"
        );
    };
    assert_eq!(
        refusal.reason,
        ferry_client::Reason::StorageNotAvailable,
        "{refusal}"
    );
    assert!(refusal.detail.contains("spill area is full"), "{refusal}");
    let rss_mib = rss_kib(server.child.id()) / 1024;
    assert!(rss_mib < 1500, "the server holds {rss_mib} MiB");
    let spill = server.root.join("qmgrs/QM1/spill");
    let spilled_mib = dir_bytes(&spill) >> 20;
    assert!(
        (400..=520).contains(&spilled_mib),
        "{spilled_mib} MiB spilled"
    );
    eprintln!("4 MB non-persistent flood under prlimit --as=3GiB: {put} put ({spilled_mib} MiB of them spilled to disk), then 2071; RSS {rss_mib} MiB");
    // Consumers drain every one, in order, and the spill area empties.
    let g = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    for i in 0..put {
        let got = c.get(g, &GetOptions::new()).unwrap();
        assert_eq!(
            u32::from_le_bytes(got.message.body[..4].try_into().unwrap()),
            i
        );
        assert_eq!(got.message.body.len(), 4_000_000);
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        dir_bytes(&spill),
        0,
        "the drained spill area keeps no segment"
    );
    c.put(h, numbered(put), &PutOptions::default()).unwrap();
    assert!(well_behaved(&server) < Duration::from_secs(1));
}

/// Bytes of the files in `dir`.
fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.metadata().map_or(0, |m| m.len()))
        .sum()
}

#[test]
fn maxinst_and_maxinstc_bound_a_server_connection_channels_instances() {
    let server = Server::start("hostile-maxinst", &[]);
    admin(
        &server,
        "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MAXINST(5) MAXINSTC(2)
         SET CHLAUTH('APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody')",
    );
    let opts = ClientOptions {
        svrconn: Some("APP.SVRCONN".into()),
        ..tester()
    };
    let connect = || Connection::connect_with(&server.tcp_bare, "maxinst", &opts);
    let (a, _b) = (connect().unwrap(), connect().unwrap());
    let e = connect().unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::ChannelNotAvailable && e.detail.contains("MAXINSTC"),
        "{e}"
    );
    drop(a);
    std::thread::sleep(Duration::from_millis(200));
    let _c = connect().unwrap();
    admin(
        &server,
        "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MAXINST(2) MAXINSTC(10)",
    );
    let e = connect().unwrap_err();
    assert!(e.detail.contains("MAXINST("), "{e}");
    // Other channels, and the local administrator, are not affected.
    assert!(well_behaved(&server) < Duration::from_secs(1));
    assert!(local_admin(&server) < Duration::from_secs(1));
}

#[test]
fn one_admin_request_holds_at_most_ten_thousand_commands_and_the_cli_sends_more_in_parts() {
    let server = Server::start("hostile-admin", &[]);
    let script = "DISPLAY QMGR DESCR\n".repeat(10_001);
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let e = c.admin(&script).unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::ResourceProblem && e.detail.contains("in parts"),
        "{e}"
    );
    // `ferry admin` sends a long script in parts, numbering the replies through.
    let script = "DISPLAY QMGR DESCR\n".repeat(12_000);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["admin", "QM1", "--json", "--data-dir"])
        .arg(&server.root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replies: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let replies = replies.as_array().unwrap();
    assert_eq!(replies.len(), 12_000);
    assert_eq!(replies.last().unwrap()["number"], 12_000);
}

#[test]
fn client_applications_and_message_channels_have_pools_of_their_own() {
    let server = Server::start("hostile-kinds", &["--set", "server.max_client_sockets=3"]);
    let opts = tester();
    let held: Vec<_> = (0..3)
        .map(|_| Connection::connect_with(&server.tcp_bare, "held", &opts).unwrap())
        .collect();
    let e = Connection::connect_with(&server.tcp_bare, "one-more", &opts).unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::MaxConnsLimitReached
            && e.detail.contains("max_client_sockets"),
        "{e}"
    );
    assert!(local_admin(&server) < Duration::from_secs(1));
    drop(held);
    std::thread::sleep(Duration::from_millis(200));
    assert!(well_behaved(&server) < Duration::from_secs(1));
}
