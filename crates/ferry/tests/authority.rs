//! Object authority and connection authentication against the real `ferry` server: users of
//! the user file who can do nothing until authority records say so, generic profiles and
//! groups, what DISPLAY shows a user, the message identity, records that survive a restart, a
//! second operating-system user authenticated through PAM, and a password guesser who costs
//! the right user nothing.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use common::Server;
use ferry_client::{
    ClientOptions, Connection, GetOptions, Message, OpenOptions, PutOptions, Reason,
};
use ferry_model::options::PutContext;

fn owner(server: &Server) -> Connection {
    Connection::connect(&server.unix, "owner").unwrap()
}

/// Runs MQSC as the owner; every command must succeed.
fn mqsc(server: &Server, script: &str) -> Vec<ferry_admin::Reply> {
    let replies = owner(server).admin(script).unwrap();
    for r in &replies {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
    replies
}

fn as_user(
    server: &Server,
    user: &str,
    password: &str,
) -> Result<Connection, ferry_client::MqError> {
    let opts = ClientOptions {
        user: Some(user.into()),
        password: Some(password.into()),
        ..Default::default()
    };
    Connection::connect_with(&server.tcp_bare, "authority-test", &opts)
}

/// `e` is NOT_AUTHORIZED, naming what was missing.
fn needs(e: &ferry_client::MqError, what: &str) {
    assert!(
        e.reason == Reason::NotAuthorized && e.detail.contains(what),
        "{e}"
    );
}

fn fields(r: &ferry_admin::Reply, key: &str) -> Vec<String> {
    r.messages
        .iter()
        .flat_map(|m| m.fields.iter())
        .filter(|f| f.key == key)
        .filter_map(|f| f.value.clone())
        .collect()
}

#[test]
fn authority_records_decide_what_a_user_may_do() {
    let server = Server::start_with_users("oam", "QM1", &[("alice", "alice-pw")], &[]);
    mqsc(&server, "DEFINE QLOCAL(APP.IN)\nDEFINE QLOCAL(OTHER.Q)");
    // Authenticated is not authorised: no CONNECT yet.
    let e = as_user(&server, "alice", "alice-pw").unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    assert!(e.detail.contains("CONNECT"), "{e}");
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)",
    );
    let mut alice = as_user(&server, "alice", "alice-pw").unwrap();
    let e = alice
        .open_queue("APP.IN", OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    // A group record counts once the user file puts alice in the group (a running queue
    // manager reads the file again when it changes).
    mqsc(
        &server,
        "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT, GET, BROWSE)",
    );
    assert!(alice.open_queue("APP.IN", OpenOptions::output()).is_err());
    common::add_user_in(&server.root, "QM1", "alice", "alice-pw", &["apps"]);
    let mut alice = as_user(&server, "alice", "alice-pw").unwrap();
    let q = alice.open_queue("APP.IN", OpenOptions::output()).unwrap();
    assert_eq!(
        alice
            .open_queue("OTHER.Q", OpenOptions::output())
            .unwrap_err()
            .reason,
        Reason::NotAuthorized
    );
    // The message carries alice's identity; setting another needs SETID, which she lacks.
    alice
        .put(q, Message::text("from alice"), &PutOptions::default())
        .unwrap();
    let set_id = OpenOptions {
        set_identity_context: true,
        ..OpenOptions::output()
    };
    let e = alice.open_queue("APP.IN", set_id).unwrap_err();
    needs(&e, "SETID");
    let forged = PutOptions {
        context: PutContext::SetIdentity,
        ..Default::default()
    };
    let mut msg = Message::text("forged");
    msg.descriptor.user_id = ferry_model::name::UserId::truncating("treasurer");
    let e = alice.put1("APP.IN", msg, &forged).unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    let mut o = owner(&server);
    let oq = o.open_queue("APP.IN", OpenOptions::input()).unwrap();
    let got = o.get(oq, &GetOptions::new()).unwrap();
    assert_eq!(got.message.descriptor.user_id.as_str(), "alice");
    assert!(
        o.get(oq, &GetOptions::new()).is_err(),
        "nothing forged arrived"
    );

    // A handle keeps what it was granted at open; new opens see the change at once.
    mqsc(
        &server,
        "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHRMV(PUT)",
    );
    alice
        .put(q, Message::text("still open"), &PutOptions::default())
        .unwrap();
    let e = alice
        .open_queue("APP.IN", OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    alice.disconnect().unwrap();
    // MATCH(MEMBERSHIP): alice's own records and her groups'.
    let r = mqsc(
        &server,
        "DISPLAY AUTHREC PRINCIPAL('alice') MATCH(MEMBERSHIP)",
    );
    let entities = fields(&r[0], "ENTITY");
    assert!(entities.contains(&"alice".to_owned()) && entities.contains(&"apps".to_owned()));
    let r = mqsc(&server, "DISPLAY AUTHREC PRINCIPAL('alice')");
    assert!(!fields(&r[0], "ENTITY").contains(&"apps".to_owned()));
}

#[test]
fn commands_need_authority_and_displays_show_only_what_a_user_may_see() {
    let server = Server::start_with_users("oam-admin", "QM1", &[("bob", "bob-pw")], &[]);
    mqsc(
        &server,
        "DEFINE QLOCAL(APP.ONE)
         DEFINE QLOCAL(PAYROLL.SECRET)
         SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT)",
    );
    let mut bob = as_user(&server, "bob", "bob-pw").unwrap();
    let r = bob.admin("DEFINE QLOCAL(APP.TWO)").unwrap();
    assert!(!r[0].ok && r[0].messages[0].code == "AMQ8135E", "{r:?}");
    assert!(r[0].messages[0].text.contains("CRT"), "{r:?}");
    let r = bob.admin("DISPLAY QMGR").unwrap();
    assert!(!r[0].ok, "{r:?}");
    let r = bob
        .admin("SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(ALL)")
        .unwrap();
    assert!(!r[0].ok, "bob may not grant himself anything: {r:?}");
    // A generic DISPLAY shows nothing bob may not display.
    let r = bob.admin("DISPLAY QLOCAL(*)").unwrap();
    assert!(fields(&r[0], "QUEUE").is_empty(), "{r:?}");
    // Creating is held on the type's @class profile, as in MQ, not on a name.
    let r = owner(&server)
        .admin("SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CRT)")
        .unwrap();
    assert!(
        !r[0].ok && r[0].messages[0].text.contains("@class"),
        "{r:?}"
    );
    mqsc(
        &server,
        "SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP, CHG, DLT)
         SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CRT)",
    );
    let r = bob.admin("DISPLAY QLOCAL(*)").unwrap();
    assert_eq!(fields(&r[0], "QUEUE"), ["APP.ONE"], "{r:?}");
    let r = bob.admin("DISPLAY QLOCAL(PAYROLL.SECRET)").unwrap();
    // docs/security.md shows this refusal as `AMQ8135E Not authorized: …`.
    assert!(
        !r[0].ok
            && r[0].messages[0].code == "AMQ8135E"
            && r[0].messages[0].text.starts_with("Not authorized: "),
        "{r:?}"
    );
    let r = bob
        .admin("DEFINE QLOCAL(APP.TWO)\nALTER QLOCAL(APP.TWO) MAXDEPTH(10)\nDEFINE QLOCAL(OTHER)\nALTER QLOCAL(OTHER) MAXDEPTH(10)\nDEFINE CHANNEL(TO.X) CHLTYPE(SDR) CONNAME('x') XMITQ(OTHER)")
        .unwrap();
    assert!(
        r[0].ok && r[1].ok && r[2].ok && !r[3].ok && !r[4].ok,
        "{r:?}"
    );
    // The records as MQ shows them: DISPLAY AUTHREC (profiles matching a name) and ENTAUTH.
    let r = mqsc(&server, "DISPLAY AUTHREC PROFILE(APP.TWO) OBJTYPE(QUEUE)");
    assert_eq!(fields(&r[0], "PROFILE"), ["APP.*"], "{r:?}");
    assert_eq!(fields(&r[0], "AUTHLIST"), ["CHG,DLT,DSP"], "{r:?}");
    let r = mqsc(
        &server,
        "DISPLAY ENTAUTH PRINCIPAL('bob') OBJNAME(APP.TWO) OBJTYPE(QUEUE)",
    );
    assert_eq!(fields(&r[0], "AUTHLIST"), ["CHG,DLT,DSP"], "{r:?}");
    let r = mqsc(
        &server,
        "DISPLAY ENTAUTH PRINCIPAL('bob') OBJNAME('@class') OBJTYPE(QUEUE)",
    );
    assert_eq!(fields(&r[0], "AUTHLIST"), ["CRT"], "{r:?}");
    // Bad records say what is wrong.
    let r = owner(&server)
        .admin("SET AUTHREC PROFILE('A.B**') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET)\nSET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(GET)\nSET AUTHREC PROFILE(X) OBJTYPE(NOPE) PRINCIPAL('bob') AUTHADD(GET)")
        .unwrap();
    assert!(r.iter().all(|r| !r.ok), "{r:?}");
    assert!(
        r[1].messages[0]
            .text
            .contains("does not apply to OBJTYPE(QMGR)"),
        "{r:?}"
    );
    // DELETE AUTHREC takes it away.
    mqsc(
        &server,
        "DELETE AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) PRINCIPAL('bob')",
    );
    let r = bob.admin("DISPLAY QLOCAL(APP.ONE)").unwrap();
    assert!(!r[0].ok, "{r:?}");
    bob.disconnect().unwrap();
}

#[test]
fn authority_records_survive_a_restart() {
    let mut server = Server::start_with_users("oam-restart", "QM1", &[("carol", "carol-pw")], &[]);
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('carol') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('DEV.**') OBJTYPE(QUEUE) PRINCIPAL('carol') AUTHADD(PUT)",
    );
    server.restart(&[]);
    server.wait_ready();
    let mut carol = as_user(&server, "carol", "carol-pw").unwrap();
    carol
        .put1(
            "DEV.QUEUE.1",
            Message::text("after restart"),
            &PutOptions::default(),
        )
        .unwrap();
    let r = mqsc(&server, "DISPLAY AUTHREC PRINCIPAL('carol')");
    assert_eq!(fields(&r[0], "PROFILE").len(), 2, "{r:?}");
}

/// Connects from `from` (a loopback address other than 127.0.0.1 is another origin) and
/// tries `password` for alice; whether the server refused it.
fn guess(server: SocketAddr, from: &str, password: &str) -> bool {
    let mut s = common::raw::connect_from(server, from);
    let _ = s.write_all(&common::raw::hello("guesser", "alice", password));
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut all = Vec::new();
    // A refusal closes the socket (after its answer, or at once when the address already has
    // as many unopened sockets as it may); a success would keep it open until the timeout.
    match s.read_to_end(&mut all) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        ),
    }
}

fn login_ms(server: &Server) -> f64 {
    let t = Instant::now();
    as_user(server, "alice", "right-password")
        .unwrap()
        .disconnect()
        .unwrap();
    t.elapsed().as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn a_thousand_wrong_passwords_cost_the_right_user_nothing() {
    let server = Server::start_with_users(
        "brute",
        "QM1",
        &[("alice", "right-password")],
        &["--metrics-listen", "127.0.0.1:0"],
    );
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)",
    );
    let addr: SocketAddr = server.tcp_addr().parse().unwrap();
    let before: Vec<f64> = (0..5).map(|_| login_ms(&server)).collect();
    let rss_before = common::raw::rss_kib(server.child.id());
    // 1,000 wrong passwords from 127.0.0.2 on 100 connections at a time.
    let started = Instant::now();
    let guessers: Vec<_> = (0..100)
        .map(|t| {
            std::thread::spawn(move || {
                (0..10)
                    .filter(|i| guess(addr, "127.0.0.2", &format!("guess-{t}-{i}")))
                    .count()
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    let during: Vec<f64> = (0..5).map(|_| login_ms(&server)).collect();
    let refused: usize = guessers.into_iter().map(|g| g.join().unwrap()).sum();
    let took = started.elapsed();
    assert_eq!(refused, 1000, "every guess was answered and refused");
    // Each refusal waited FAILDLAY (1 s): a guesser gets through at most its connections a
    // second, and the throttle stopped hashing its guesses after the first few.
    assert!(
        took >= Duration::from_secs(10),
        "1,000 guesses took only {took:?}"
    );
    let (b, d) = (median(before), median(during));
    assert!(
        d - b < 100.0,
        "the right user's login took {d:.1} ms during the attack, {b:.1} ms before"
    );
    let rss_after = common::raw::rss_kib(server.child.id());
    assert!(
        rss_after < rss_before + 16 * 1024,
        "memory grew from {rss_before} KiB to {rss_after} KiB"
    );
    let log = server.log();
    assert!(log.contains("throttled"), "the throttle said nothing");
    let lines = log.matches("authentication failed").count();
    assert!(
        lines < 200,
        "{lines} log lines for 1,000 refusals: not rate-limited"
    );
    let metrics = mqsc_metrics(&server);
    assert!(
        metrics >= 1000,
        "ferry_security_refusals_total{{kind=authentication|slot}} = {metrics}"
    );
    eprintln!("login before {b:.1} ms, during {d:.1} ms; 1,000 guesses in {took:?}; RSS {rss_before} -> {rss_after} KiB; {lines} log lines");
}

/// The authentication and slot refusals the server's metrics endpoint counts.
fn mqsc_metrics(server: &Server) -> u64 {
    let url = server.endpoint("http://");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/metrics");
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let count = |kind: &str| -> u64 {
        let key = format!("ferry_security_refusals_total{{kind=\"{kind}\"}} ");
        text.lines()
            .find_map(|l| l.strip_prefix(key.as_str()))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {kind} refusals in {text}"))
    };
    // Guesses beyond what one address may have unopened are refused a slot, not a password.
    count("authentication") + count("slot")
}

/// A second account on this machine, made for one test (needs root) and removed after it.
struct OsUser {
    name: String,
    uid: u32,
    gid: u32,
}

impl OsUser {
    fn create(name: &str, password: &str) -> OsUser {
        let _ = Command::new("userdel").arg(name).output();
        let ok = Command::new("useradd")
            .args(["--no-create-home", "--shell", "/usr/sbin/nologin", name])
            .status()
            .unwrap();
        assert!(ok.success(), "useradd {name}");
        let mut chpasswd = Command::new("chpasswd")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        writeln!(chpasswd.stdin.take().unwrap(), "{name}:{password}").unwrap();
        assert!(chpasswd.wait().unwrap().success(), "chpasswd {name}");
        let id = |flag: &str| -> u32 {
            let out = Command::new("id").args([flag, name]).output().unwrap();
            String::from_utf8(out.stdout)
                .unwrap()
                .trim()
                .parse()
                .unwrap()
        };
        OsUser {
            name: name.to_owned(),
            uid: id("-u"),
            gid: id("-g"),
        }
    }

    /// `ferry ARGS` run as this user, with `FERRY_PASSWORD` set to `password`.
    fn ferry(&self, args: &[&str], password: &str, input: &str) -> std::process::Output {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferry"))
            .args(args)
            .uid(self.uid)
            .gid(self.gid)
            .env("FERRY_PASSWORD", password)
            .env("HOME", "/tmp")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        child.wait_with_output().unwrap()
    }
}

impl Drop for OsUser {
    fn drop(&mut self) {
        let _ = Command::new("userdel").arg(&self.name).output();
    }
}

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
#[ignore = "needs root to create a second operating-system user; .ci/run runs it with --ignored"]
fn a_second_os_user_reaches_nothing_until_granted() {
    let other = OsUser::create("ferryoam", "Os-Password-42");
    let server = Server::start("os-user", &[]);
    // Passwords checked against this machine's accounts (PAM), as MQ's IDPWOS does.
    mqsc(
        &server,
        "ALTER QMGR CONNAUTH(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)",
    );
    let tcp = server.tcp_bare.clone();
    let user = other.name.as_str();
    let get = |password: &str| {
        other.ferry(
            &["get", "--connect", &tcp, "--user", user, "DEV.QUEUE.1"],
            password,
            "",
        )
    };
    let admin = |password: &str, command: &str| {
        other.ferry(
            &["admin", "--connect", &tcp, "--user", user, "-c", command],
            password,
            "",
        )
    };
    mqsc(&server, "DEFINE QLOCAL(OTHERS.Q)");
    owner(&server)
        .put1(
            "DEV.QUEUE.1",
            Message::text("for the other user"),
            &PutOptions::default(),
        )
        .unwrap();
    // The local socket's directory is the owner's alone: the other user cannot reach it.
    let local = other.ferry(&["get", "--connect", &server.unix, "DEV.QUEUE.1"], "", "");
    assert!(!local.status.success(), "{}", text(&local));
    // Over loopback tcp: a wrong password, then the right one without any authority record.
    let wrong = get("not-the-password");
    assert!(
        !wrong.status.success() && text(&wrong).contains("2035"),
        "{}",
        text(&wrong)
    );
    let unauthorised = get("Os-Password-42");
    assert!(
        !unauthorised.status.success() && text(&unauthorised).contains("CONNECT"),
        "{}",
        text(&unauthorised)
    );
    mqsc(
        &server,
        &format!("SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('{user}') AUTHADD(CONNECT)"),
    );
    let no_queue = get("Os-Password-42");
    assert!(text(&no_queue).contains("2035"), "{}", text(&no_queue));
    let no_admin = admin("Os-Password-42", "DISPLAY QLOCAL(DEV.QUEUE.1)");
    assert!(text(&no_admin).contains("AMQ8135E"), "{}", text(&no_admin));
    // Granted, by principal and through its operating-system group (its primary group,
    // named after it).
    mqsc(
        &server,
        &format!(
            "SET AUTHREC PROFILE('DEV.QUEUE.1') OBJTYPE(QUEUE) PRINCIPAL('{user}') AUTHADD(GET, DSP)
             SET AUTHREC PROFILE('OTHERS.*') OBJTYPE(QUEUE) GROUP('{user}') AUTHADD(PUT)"
        ),
    );
    let got = get("Os-Password-42");
    assert!(got.status.success(), "{}", text(&got));
    assert_eq!(String::from_utf8_lossy(&got.stdout), "for the other user\n");
    let shown = admin("Os-Password-42", "DISPLAY QLOCAL(DEV.QUEUE.1) CURDEPTH");
    assert!(
        shown.status.success() && text(&shown).contains("CURDEPTH(0)"),
        "{}",
        text(&shown)
    );
    let put = other.ferry(
        &["put", "--connect", &tcp, "--user", user, "OTHERS.Q"],
        "Os-Password-42",
        "from the group\n",
    );
    assert!(put.status.success(), "{}", text(&put));
    let still_no_admin = admin("Os-Password-42", "DEFINE QLOCAL(OTHERS.NEW)");
    assert!(
        text(&still_no_admin).contains("AMQ8135E"),
        "{}",
        text(&still_no_admin)
    );
    // What it put carries its own name.
    let mut o = owner(&server);
    let q = o.open_queue("OTHERS.Q", OpenOptions::input()).unwrap();
    let m = o.get(q, &GetOptions::new()).unwrap();
    assert_eq!(m.message.descriptor.user_id.as_str(), user);
}

/// Connects from `from` as `user` with `password` over the wire protocol; whether the server
/// let the conversation in (it answers Connected and keeps the socket open).
fn connects_from(server: SocketAddr, from: &str, user: &str, password: &str) -> bool {
    let mut s = common::raw::connect_from(server, from);
    s.write_all(&common::raw::hello("from-elsewhere", user, password))
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = vec![0u8; 4096];
    let mut got = Vec::new();
    // The preamble and the answer, then either the socket closes (refused) or stays open.
    while got.len() < ferry_proto::PREAMBLE_LEN + 8 {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return false,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    s.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    !matches!(s.read(&mut buf), Ok(0))
}

#[test]
fn channel_authentication_records_block_map_and_warn() {
    let server = Server::start_with_users(
        "chlauth",
        "QM1",
        &[("alice", "alice-pw"), ("bob", "bob-pw")],
        &[],
    );
    let addr: SocketAddr = server.tcp_addr().parse().unwrap();
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT)
         SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
         SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('appuser') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('DEV.QUEUE.1') OBJTYPE(QUEUE) PRINCIPAL('appuser') AUTHADD(PUT)
         SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT)",
    );
    // A new queue manager has MQ's back-stop records.
    let r = mqsc(&server, "DISPLAY CHLAUTH('*')");
    let types = fields(&r[0], "TYPE");
    assert!(
        types.iter().filter(|t| *t == "ADDRESSMAP").count() >= 2,
        "{r:?}"
    );
    assert!(
        fields(&r[0], "USERLIST").contains(&"*MQADMIN".to_owned()),
        "{r:?}"
    );
    // A client names its server-connection channel: SYSTEM.* is closed by the back-stop, and
    // records of one channel's profile leave the others alone.
    let named = |channel: &str| {
        let opts = ClientOptions {
            user: Some("alice".into()),
            password: Some("alice-pw".into()),
            svrconn: Some(channel.into()),
            ..Default::default()
        };
        Connection::connect_with(&server.tcp_bare, "named", &opts)
    };
    assert_eq!(
        named("SYSTEM.DEF.SVRCONN").unwrap_err().reason,
        Reason::NotAuthorized
    );
    assert!(named("APP1.SVRCONN").is_ok());
    mqsc(
        &server,
        "SET CHLAUTH('APP1.*') TYPE(BLOCKUSER) USERLIST('alice')",
    );
    assert!(named("APP1.SVRCONN").is_err());
    assert!(named("DEV.APP.SVRCONN").is_ok());
    // Without the tests' own list for the application channel, the back-stop refuses an
    // administrator over tcp, and RUNCHECK says so without a connection.
    mqsc(
        &server,
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(BLOCKUSER) ACTION(REMOVE)",
    );
    let e = Connection::connect(&server.tcp, "admin-over-tcp").unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    assert!(as_user(&server, "alice", "alice-pw").is_ok());
    let r = mqsc(
        &server,
        &format!(
            "DISPLAY CHLAUTH('DEV.APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('127.0.0.1') CLNTUSER('{}')",
            common::TEST_USER
        ),
    );
    let last = r[0].messages.last().unwrap();
    // docs/security.md shows it as `AMQ9777E Channel was blocked by …`.
    assert!(
        last.code == "AMQ9777E"
            && last.text.starts_with("Channel was blocked by")
            && last.text.contains("*MQADMIN"),
        "{r:?}"
    );
    assert!(server.log().contains("AMQ9777E"), "{}", server.log());
    // USERMAP: alice runs as appuser; an ADDRESSMAP NOACCESS turns everyone else away.
    mqsc(
        &server,
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(USERMAP) CLNTUSER('alice') USERSRC(MAP) MCAUSER('appuser')
         SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS)",
    );
    let mut alice = as_user(&server, "alice", "alice-pw").unwrap();
    alice
        .put1(
            "DEV.QUEUE.1",
            Message::text("mapped"),
            &PutOptions::default(),
        )
        .unwrap();
    let mut o = owner(&server);
    let q = o.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    let m = o.get(q, &GetOptions::new()).unwrap();
    assert_eq!(m.message.descriptor.user_id.as_str(), "appuser");
    assert_eq!(
        as_user(&server, "bob", "bob-pw").unwrap_err().reason,
        Reason::NotAuthorized
    );
    let r = mqsc(
        &server,
        "DISPLAY CHLAUTH('DEV.APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('10.1.2.3') CLNTUSER('alice')",
    );
    assert!(
        r[0].messages
            .last()
            .unwrap()
            .text
            .contains("MCAUSER('appuser')"),
        "{r:?}"
    );
    // BLOCKADDR turns an address away before anything else; WARN(YES) only says so.
    mqsc(
        &server,
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVE)",
    );
    assert!(connects_from(addr, "127.0.0.3", "bob", "bob-pw"));
    mqsc(
        &server,
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.3', '10.9.9.1-20')",
    );
    assert!(!connects_from(addr, "127.0.0.3", "bob", "bob-pw"));
    assert!(connects_from(addr, "127.0.0.4", "bob", "bob-pw"));
    mqsc(
        &server,
        "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.3') WARN(YES) ACTION(REPLACE)",
    );
    assert!(connects_from(addr, "127.0.0.3", "bob", "bob-pw"));
    assert!(server
        .log()
        .contains("CHLAUTH would block this address (WARN)"));
    // QMGR CHLAUTH(DISABLED) sets every record aside.
    mqsc(&server, "ALTER QMGR CHLAUTH(DISABLED)");
    Connection::connect(&server.tcp, "admin-again").unwrap();
    let r = mqsc(&server, "DISPLAY QMGR CHLAUTH");
    assert_eq!(fields(&r[0], "CHLAUTH"), ["DISABLED"]);
}

/// The PCF words of an event message's header: [type, command, reason].
fn event_header(body: &[u8]) -> [i32; 3] {
    let word = |i: usize| i32::from_ne_bytes(body[i * 4..i * 4 + 4].try_into().unwrap());
    [word(0), word(3), word(7)]
}

#[test]
fn refusals_raise_authority_and_channel_events_when_enabled() {
    let server = Server::start_with_users("events", "QM1", &[("alice", "alice-pw")], &[]);
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)",
    );
    // Off by default, as in MQ: a refusal leaves no event.
    let mut alice = as_user(&server, "alice", "alice-pw").unwrap();
    assert!(alice
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .is_err());
    let depth = |q: &str| {
        let r = mqsc(&server, &format!("DISPLAY QLOCAL({q}) CURDEPTH"));
        fields(&r[0], "CURDEPTH")[0].clone()
    };
    assert_eq!(depth("SYSTEM.ADMIN.QMGR.EVENT"), "0");
    mqsc(&server, "ALTER QMGR AUTHOREV(ENABLED) CHLEV(ENABLED)");
    assert!(alice
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .is_err());
    mqsc(
        &server,
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(USERMAP) CLNTUSER('alice') USERSRC(NOACCESS)",
    );
    assert!(as_user(&server, "alice", "alice-pw").is_err());
    let mut o = owner(&server);
    let q = o
        .open_queue("SYSTEM.ADMIN.QMGR.EVENT", OpenOptions::input())
        .unwrap();
    let ev = o.get(q, &GetOptions::new()).unwrap();
    assert_eq!(ev.message.descriptor.format.as_str(), "MQEVENT");
    // MQCFT_EVENT, MQCMD_Q_MGR_EVENT, MQRC_NOT_AUTHORIZED; the user and the queue inside.
    assert_eq!(event_header(&ev.message.body), [7, 44, 2035]);
    let text = String::from_utf8_lossy(&ev.message.body);
    assert!(
        text.contains("alice") && text.contains("DEV.QUEUE.1"),
        "{text}"
    );
    let q = o
        .open_queue("SYSTEM.ADMIN.CHANNEL.EVENT", OpenOptions::input())
        .unwrap();
    let ev = o.get(q, &GetOptions::new()).unwrap();
    // MQCMD_CHANNEL_EVENT, MQRC_CHANNEL_BLOCKED.
    assert_eq!(event_header(&ev.message.body), [7, 46, 2577]);
    assert!(String::from_utf8_lossy(&ev.message.body).contains("DEV.APP.SVRCONN"));
}

/// A server where alice may connect and bob may put to DEV.QUEUE.1; alice connected.
fn alice_and_bob(tag: &str) -> (Server, Connection) {
    let server = Server::start_with_users(tag, "QM1", &[("alice", "alice-pw")], &[]);
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('DEV.QUEUE.1') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)",
    );
    let alice = as_user(&server, "alice", "alice-pw").unwrap();
    (server, alice)
}

#[test]
fn an_alternate_user_needs_altusr_and_its_own_authority() {
    let (server, mut alice) = alice_and_bob("altusr");
    let as_other = |user: &str| OpenOptions {
        alternate_user: Some(ferry_model::name::UserId::truncating(user)),
        ..OpenOptions::output()
    };
    let e = alice
        .open_queue("DEV.QUEUE.1", as_other("bob"))
        .unwrap_err();
    needs(&e, "ALTUSR");
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(ALTUSR)",
    );
    let h = alice.open_queue("DEV.QUEUE.1", as_other("bob")).unwrap();
    alice
        .put(
            h,
            Message::text("on bob's authority"),
            &PutOptions::default(),
        )
        .unwrap();
    // The alternate user's own authority counts, not alice's.
    let e = alice
        .open_queue("DEV.QUEUE.1", as_other("carol"))
        .unwrap_err();
    needs(&e, "carol");
    let e = alice
        .open_queue("DEV.QUEUE.1", OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
}

/// What alice got from a queue, with its user and application.
fn identity_of(conn: &mut Connection, queue: &str) -> (String, String, std::time::SystemTime) {
    let h = conn.open_queue(queue, OpenOptions::input()).unwrap();
    let got = conn.get(h, &GetOptions::new()).unwrap().message.descriptor;
    (
        got.user_id.as_str().to_owned(),
        got.put_appl_name.as_str().to_owned(),
        got.put_time,
    )
}

#[test]
fn passing_context_needs_passid_or_passall_and_a_handle_that_saved_it() {
    let server = Server::start_with_users("passctx", "QM1", &[("alice", "alice-pw")], &[]);
    mqsc(
        &server,
        "DEFINE QLOCAL(APP.IN)\nDEFINE QLOCAL(APP.OUT)
         SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT, GET, BROWSE)",
    );
    // The request comes from "treasurer" (the owner sets that identity).
    let mut o = owner(&server);
    let set_all = PutOptions {
        context: PutContext::SetAll,
        ..Default::default()
    };
    for body in ["first", "second", "third"] {
        let mut m = Message::text(body);
        m.descriptor.user_id = ferry_model::name::UserId::truncating("treasurer");
        m.descriptor.put_appl_name = ferry_model::name::ApplName::truncating("PAYROLL.BATCH");
        m.descriptor.put_time = std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        o.put1("APP.IN", m, &set_all).unwrap();
    }
    let mut alice = as_user(&server, "alice", "alice-pw").unwrap();
    let pass_id = OpenOptions {
        pass_identity_context: true,
        ..OpenOptions::output()
    };
    let e = alice.open_queue("APP.OUT", pass_id).unwrap_err();
    needs(&e, "PASSID");
    mqsc(
        &server,
        "SET AUTHREC PROFILE('APP.OUT') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT, PASSID)",
    );
    let out = alice.open_queue("APP.OUT", pass_id).unwrap();
    let saving = alice
        .open_queue(
            "APP.IN",
            OpenOptions {
                save_all_context: true,
                browse: true,
                ..OpenOptions::input()
            },
        )
        .unwrap();
    let plain = alice.open_queue("APP.IN", OpenOptions::input()).unwrap();
    let pass = |h| PutOptions {
        context: PutContext::PassIdentity(h),
        ..Default::default()
    };
    let put = |c: &mut Connection, ctx| c.put(out, Message::text("reply"), &pass(ctx));
    // Nothing got yet; a handle that saves nothing; no handle at all.
    assert_eq!(
        put(&mut alice, saving).unwrap_err().reason,
        Reason::ContextNotAvailable
    );
    assert_eq!(
        put(&mut alice, plain).unwrap_err().reason,
        Reason::ContextHandleError
    );
    let nowhere = ferry_client::Hobj(9_999);
    assert_eq!(
        put(&mut alice, nowhere).unwrap_err().reason,
        Reason::ContextHandleError
    );
    alice.get(saving, &GetOptions::new()).unwrap();
    put(&mut alice, saving).unwrap();
    // A browse leaves no context to pass (MQ's rule).
    alice
        .get(
            saving,
            &GetOptions::new().browse(ferry_model::options::BrowseMode::First),
        )
        .unwrap();
    assert_eq!(
        put(&mut alice, saving).unwrap_err().reason,
        Reason::ContextNotAvailable
    );
    // Passing all context needs a handle opened for it, and PASSALL to open one.
    let pass_all = PutOptions {
        context: PutContext::PassAll(saving),
        ..Default::default()
    };
    let e = alice.put(out, Message::text("x"), &pass_all).unwrap_err();
    assert_eq!(e.reason, Reason::NotOpenForPassAll, "{e}");
    let plain_out = alice.open_queue("APP.OUT", OpenOptions::output()).unwrap();
    let e = alice
        .put(plain_out, Message::text("x"), &pass(saving))
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotOpenForPassIdent, "{e}");
    alice.get(saving, &GetOptions::new()).unwrap();
    let e = alice
        .put1("APP.OUT", Message::text("x"), &pass_all)
        .unwrap_err();
    needs(&e, "PASSALL");
    mqsc(
        &server,
        "SET AUTHREC PROFILE('APP.OUT') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PASSALL)",
    );
    alice
        .put1("APP.OUT", Message::text("all"), &pass_all)
        .unwrap();

    // The first reply carries treasurer's identity with alice's application as its origin;
    // the second treasurer's whole context, put time included.
    let (user, appl, _) = identity_of(&mut o, "APP.OUT");
    assert_eq!(
        (user.as_str(), appl.as_str()),
        ("treasurer", "authority-test")
    );
    let (user, appl, time) = identity_of(&mut o, "APP.OUT");
    assert_eq!(
        (user.as_str(), appl.as_str()),
        ("treasurer", "PAYROLL.BATCH")
    );
    assert_eq!(
        time,
        std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    );
}

#[test]
fn put1_on_an_alternate_users_authority_needs_altusr() {
    let (server, mut alice) = alice_and_bob("put1alt");
    let as_user = |user: &str| PutOptions {
        alternate_user: Some(ferry_model::name::UserId::truncating(user)),
        ..Default::default()
    };
    let e = alice
        .put1("DEV.QUEUE.1", Message::text("x"), &as_user("bob"))
        .unwrap_err();
    needs(&e, "ALTUSR");
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(ALTUSR)",
    );
    alice
        .put1("DEV.QUEUE.1", Message::text("as bob"), &as_user("bob"))
        .unwrap();
    let e = alice
        .put1("DEV.QUEUE.1", Message::text("x"), &as_user("carol"))
        .unwrap_err();
    needs(&e, "carol");
    let e = alice
        .put1("DEV.QUEUE.1", Message::text("x"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    // An MQPUT takes the authority its handle was opened with.
    let mut o = owner(&server);
    let h = o.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    let e = o.put(h, Message::text("x"), &as_user("bob")).unwrap_err();
    assert_eq!(e.reason, Reason::OptionsError, "{e}");
    let q = o.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    assert_eq!(
        o.get(q, &GetOptions::new()).unwrap().message.body.as_ref(),
        b"as bob"
    );
}
