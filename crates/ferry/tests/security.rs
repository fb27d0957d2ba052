//! TLS and authentication against the real `ferry` server: TLS 1.3 with and without client
//! certificates, the Argon2id user file, and the rule that nobody gets in by accident.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use ferry_client::{
    ClientOptions, Connection, GetOptions, Message, OpenOptions, PutOptions, Reason, TlsOptions,
};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};

struct Dir(PathBuf);

impl Dir {
    fn new(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("ferry-sec-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A CA, a server certificate for localhost/127.0.0.1 and a client certificate, as PEM files.
fn make_pki(dir: &Dir) {
    common::make_pki(
        &dir.0,
        &[
            ("server", &["localhost", "127.0.0.1"]),
            ("client", &["client.test"]),
        ],
    );
    // A second, unrelated CA: certificates it signs must be refused.
    let mut other = CertificateParams::new(Vec::<String>::new()).unwrap();
    other.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let other = CertifiedIssuer::self_signed(other, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["client.test".to_owned()])
        .unwrap()
        .signed_by(&key, &other)
        .unwrap();
    std::fs::write(dir.path("rogue.pem"), cert.pem()).unwrap();
    std::fs::write(dir.path("rogue.key"), key.serialize_pem()).unwrap();
}

mod common;
use common::Server;

fn start(dir: &Dir, extra: &[&str]) -> Server {
    if !dir.path("home/qmgrs/QM1").exists() {
        create_qm(dir);
    }
    Server::start_in(&dir.path("home"), &dir.path("server.log"), extra)
}

/// Client options with the test administrator's credentials (CHCKCLNT is REQUIRED).
fn tester() -> ClientOptions {
    ClientOptions {
        user: Some(common::TEST_USER.into()),
        password: Some(common::TEST_PASSWORD.into()),
        ..Default::default()
    }
}

/// Runs MQSC on `server` over its local socket (as the owner); every command must succeed.
fn mqsc(server: &Server, script: &str) {
    let mut c = Connection::connect(&server.endpoint("unix:"), "setup").unwrap();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

fn tls_args(dir: &Dir, client_ca: bool) -> Vec<String> {
    let mut v = vec![
        "--tls-listen".to_owned(),
        "127.0.0.1:0".to_owned(),
        "--tls-cert".to_owned(),
        dir.path("server.pem").display().to_string(),
        "--tls-key".to_owned(),
        dir.path("server.key").display().to_string(),
    ];
    if client_ca {
        v.push("--tls-client-ca".to_owned());
        v.push(dir.path("ca.pem").display().to_string());
    }
    v
}

fn round_trip(c: &mut Connection) {
    let q = c
        .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
        .unwrap();
    c.put(q, Message::new(vec![7u8; 5000]), &PutOptions::default())
        .unwrap();
    c.put(
        q,
        Message::text("async over tls"),
        &PutOptions::default().with_async(),
    )
    .unwrap();
    assert_eq!(c.get(q, &GetOptions::new()).unwrap().data_length, 5000);
    let got = c
        .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
        .unwrap();
    assert_eq!(&got.message.body[..], b"async over tls");
}

#[test]
fn tls_without_client_certificates_carries_the_same_api() {
    let dir = Dir::new("tls");
    make_pki(&dir);
    let args = tls_args(&dir, false);
    let server = start(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let ep = server.endpoint("tls://");
    let opts = ClientOptions {
        tls: Some(TlsOptions {
            ca: dir.path("ca.pem"),
            ..Default::default()
        }),
        compression: vec![ferry_client::Compression::Lz4Fast],
        ..tester()
    };
    let mut c = Connection::connect_with(&ep, "tls", &opts).unwrap();
    assert_eq!(c.mode(), ferry_client::ConnMode::Tls);
    round_trip(&mut c);
    c.disconnect().unwrap();
    // A client that does not trust the server's CA refuses the handshake.
    let wrong = ClientOptions {
        tls: Some(TlsOptions {
            ca: dir.path("rogue.pem"),
            ..Default::default()
        }),
        ..Default::default()
    };
    let e = Connection::connect_with(&ep, "tls", &wrong).unwrap_err();
    assert_eq!(e.reason, Reason::QMgrNotAvailable, "{e}");
    assert!(e.detail.contains("TLS handshake"), "{e}");
    // A tls:// endpoint without TLS options is a clear error, not a hang.
    let e = Connection::connect(&ep, "tls").unwrap_err();
    assert!(e.detail.contains("TLS options"), "{e}");
}

/// Sizes around rustls's 64 KiB plaintext buffer, a megabyte, and the default MAXMSGL (4 MiB,
/// less what the descriptor and properties add to the counted length).
const TLS_SIZES: [usize; 5] = [65_535, 65_536, 65_537, 1 << 20, (4 << 20) - 1024];

fn body(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

#[test]
fn tls_carries_every_message_size_plain_tcp_carries_both_ways() {
    let dir = Dir::new("tls-large");
    make_pki(&dir);
    let args = tls_args(&dir, false);
    let server = start(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let opts = ClientOptions {
        tls: Some(TlsOptions {
            ca: dir.path("ca.pem"),
            ..Default::default()
        }),
        ..tester()
    };
    // The blocking client: each size put (client to server) and got back (server to client).
    let mut c = Connection::connect_with(&server.endpoint("tls://"), "tls-large", &opts).unwrap();
    let q = c
        .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
        .unwrap();
    for n in TLS_SIZES {
        c.put(q, Message::new(body(n)), &PutOptions::default())
            .unwrap_or_else(|e| panic!("put of {n} bytes over TLS: {e}"));
        let got = c
            .get(q, &GetOptions::new().max_len(5 << 20, false))
            .unwrap_or_else(|e| panic!("get of {n} bytes over TLS: {e}"));
        assert_eq!(got.message.body.len(), n);
        assert!(
            got.message.body[..] == body(n)[..],
            "{n} bytes came back changed"
        );
    }
    c.disconnect().unwrap();
    // The async client, the same sizes.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = ferry_client::AsyncConnection::connect(
            &server.endpoint("tls://"),
            "tls-large-async",
            &opts,
        )
        .await
        .unwrap();
        let q = c
            .open_queue("DEV.QUEUE.2", OpenOptions::output().with_input())
            .await
            .unwrap();
        for n in TLS_SIZES {
            c.put(q, Message::new(body(n)), &PutOptions::default())
                .await
                .unwrap_or_else(|e| panic!("async put of {n} bytes over TLS: {e}"));
            let got = c
                .get(q, &GetOptions::new().max_len(5 << 20, false))
                .await
                .unwrap_or_else(|e| panic!("async get of {n} bytes over TLS: {e}"));
            assert!(
                got.message.body[..] == body(n)[..],
                "{n} bytes came back changed"
            );
        }
        c.disconnect().await.unwrap();
    });
}

#[test]
fn tls_with_required_client_certificates_admits_only_certified_clients() {
    let dir = Dir::new("mtls");
    make_pki(&dir);
    let args = tls_args(&dir, true);
    let server = start(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let ep = server.endpoint("tls://");
    let with_cert = |name: &str| ClientOptions {
        tls: Some(TlsOptions {
            ca: dir.path("ca.pem"),
            server_name: Some("localhost".into()),
            client_cert: Some((
                dir.path(&format!("{name}.pem")),
                dir.path(&format!("{name}.key")),
            )),
        }),
        ..tester()
    };
    let mut c = Connection::connect_with(&ep, "mtls", &with_cert("client")).unwrap();
    round_trip(&mut c);
    c.disconnect().unwrap();
    for refused in [
        ClientOptions {
            tls: Some(TlsOptions {
                ca: dir.path("ca.pem"),
                ..Default::default()
            }),
            ..Default::default()
        },
        with_cert("rogue"),
    ] {
        match Connection::connect_with(&ep, "mtls", &refused) {
            Err(e) => assert!(
                matches!(
                    e.reason,
                    Reason::QMgrNotAvailable | Reason::ConnectionBroken
                ),
                "{e}"
            ),
            Ok(_) => panic!("a client without a certificate from the trusted CA got in"),
        }
    }
    let log = std::fs::read_to_string(dir.path("server.log")).unwrap();
    assert!(log.contains("TLS handshake refused"), "{log}");
}

fn add_user(dir: &Dir, user: &str, password: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "user", "add", "QM1", user, "--data-dir"])
        .arg(dir.path("home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "{password}").unwrap();
    assert!(child.wait().unwrap().success());
}

fn create_qm(dir: &Dir) {
    common::create_qm(&dir.path("home"), "QM1");
}

#[test]
fn a_user_file_makes_tcp_clients_authenticate() {
    let dir = Dir::new("auth");
    create_qm(&dir);
    add_user(&dir, "alice", "correct horse");
    let users = std::fs::read_to_string(dir.path("home/qmgrs/QM1/users.toml")).unwrap();
    assert!(
        users.contains("$argon2id$") && !users.contains("correct horse"),
        "{users}"
    );
    let server = start(&dir, &[]);
    let tcp = server.endpoint("tcp://");
    let creds = |u: &str, p: &str| ClientOptions {
        user: Some(u.into()),
        password: Some(p.into()),
        ..Default::default()
    };
    // Authenticated is not authorised: alice may not even connect until she is granted it.
    let e = Connection::connect_with(&tcp, "auth", &creds("alice", "correct horse")).unwrap_err();
    assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    assert!(e.detail.contains("CONNECT"), "{e}");
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('DEV.QUEUE.*') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT, GET, INQ)",
    );
    let mut c = Connection::connect_with(&tcp, "auth", &creds("alice", "correct horse")).unwrap();
    round_trip(&mut c);
    c.disconnect().unwrap();
    for bad in [
        creds("alice", "wrong"),
        creds("mallory", "correct horse"),
        ClientOptions::default(),
    ] {
        let e = Connection::connect_with(&tcp, "auth", &bad).unwrap_err();
        assert_eq!(e.reason, Reason::NotAuthorized, "{e}");
    }
    // The local socket knows its peer's user from the kernel: here the owner.
    let mut local = Connection::connect(&server.endpoint("unix:"), "local").unwrap();
    round_trip(&mut local);
    let log = std::fs::read_to_string(dir.path("server.log")).unwrap();
    assert!(
        log.contains("connection refused") && log.contains("127.0.0.1") && log.contains("mallory"),
        "{log}"
    );
}

#[test]
fn a_non_loopback_listener_needs_authentication() {
    let dir = Dir::new("exposed");
    create_qm(&dir);
    // Clients that need not give a password may not come from the network.
    common::admin_in(
        &dir.path("home"),
        "QM1",
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWFILE) CHCKCLNT(OPTIONAL)",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args([
            "qm",
            "start",
            "--foreground",
            "QM1",
            "--listen",
            "0.0.0.0:0",
            "--data-dir",
        ])
        .arg(dir.path("home"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("refusing to listen on 0.0.0.0") && err.contains("authentication"),
        "{err}"
    );
    // With CHCKCLNT(REQUIRED), the default, the same listener is allowed.
    common::admin_in(
        &dir.path("home"),
        "QM1",
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWFILE) CHCKCLNT(REQUIRED)",
    );
    let server = start(&dir, &["--listen", "0.0.0.0:0"]);
    assert!(
        server.tcp_bare.starts_with("tcp://0.0.0.0:"),
        "{}",
        server.endpoints
    );
}

#[test]
fn the_command_line_authenticates_with_user_and_ferry_password() {
    let dir = Dir::new("cliauth");
    create_qm(&dir);
    add_user(&dir, "alice", "s3cret");
    let server = start(&dir, &[]);
    mqsc(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
         SET AUTHREC PROFILE('DEV.QUEUE.1') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT)",
    );
    let run = |user: Option<&str>, password: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferry"));
        cmd.args(["put", "--connect", &server.tcp_bare, "DEV.QUEUE.1"]);
        if let Some(u) = user {
            cmd.args(["--user", u]);
        }
        match password {
            Some(p) => cmd.env("FERRY_PASSWORD", p),
            None => cmd.env_remove("FERRY_PASSWORD"),
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"hello\n").unwrap();
        child.wait_with_output().unwrap()
    };
    let ok = run(Some("alice"), Some("s3cret"));
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let refused = run(Some("alice"), Some("wrong"));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("MQRC_NOT_AUTHORIZED (2035)"));
    let anonymous = run(None, None);
    assert_eq!(anonymous.status.code(), Some(2));
}

fn mode_of(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

#[test]
fn a_queue_managers_files_are_its_owners_only() {
    let dir = Dir::new("private");
    create_qm(&dir);
    add_user(&dir, "alice", "pw");
    let mut server = start(&dir, &[]);
    let mut c = Connection::connect(&server.endpoint("unix:"), "private").unwrap();
    let q = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    c.put(
        q,
        Message::text("secret").with_persistence(ferry_client::Persistence::Persistent),
        &PutOptions::default(),
    )
    .unwrap();
    c.disconnect().unwrap();
    let qm = dir.path("home/qmgrs/QM1");
    for f in ["endpoints", "ferry.lock"] {
        assert_eq!(mode_of(&qm.join(f)), 0o600, "{f} while running");
    }
    assert_eq!(mode_of(&qm.join("ferry.sock")), 0o660, "the local socket");
    // A clean stop writes a checkpoint, so the log directory holds every kind of file.
    let st = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "stop", "QM1", "--data-dir"])
        .arg(dir.path("home"))
        .status()
        .unwrap();
    assert!(st.success());
    let _ = server.child.wait();
    assert_eq!(mode_of(&qm), 0o700, "the queue manager's directory");
    assert_eq!(mode_of(&qm.join("log")), 0o700, "the log directory");
    for f in ["qm.toml", "users.toml"] {
        assert_eq!(mode_of(&qm.join(f)), 0o600, "{f}");
    }
    let log_files: Vec<_> = std::fs::read_dir(qm.join("log"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(log_files
        .iter()
        .any(|p| p.extension().is_some_and(|x| x == "flog")));
    assert!(log_files
        .iter()
        .any(|p| p.extension().is_some_and(|x| x == "fckp")));
    for f in &log_files {
        assert_eq!(mode_of(f), 0o600, "{}", f.display());
    }
}

#[test]
fn secrets_other_users_can_read_are_refused_and_loosened_files_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new("public");
    create_qm(&dir);
    add_user(&dir, "alice", "pw");
    let users = dir.path("home/qmgrs/QM1/users.toml");
    std::fs::set_permissions(&users, std::fs::Permissions::from_mode(0o644)).unwrap();
    let start_out = |extra: &[String]| {
        Command::new(env!("CARGO_BIN_EXE_ferry"))
            .args([
                "qm",
                "start",
                "--foreground",
                "QM1",
                "--listen",
                "127.0.0.1:0",
                "--data-dir",
            ])
            .arg(dir.path("home"))
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = start_out(&[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("user file") && err.contains("chmod 600"),
        "{err}"
    );
    std::fs::set_permissions(&users, std::fs::Permissions::from_mode(0o600)).unwrap();
    make_pki(&dir);
    std::fs::set_permissions(
        dir.path("server.key"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let out = start_out(&tls_args(&dir, false));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("TLS private key") && err.contains("chmod 600"),
        "{err}"
    );
    // A loosened file in the queue manager's directory starts, with a warning naming it.
    std::fs::set_permissions(
        dir.path("home/qmgrs/QM1/qm.toml"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let server = start(&dir, &[]);
    let log = std::fs::read_to_string(dir.path("server.log")).unwrap();
    assert!(
        log.contains("other users of this machine can reach") && log.contains("qm.toml"),
        "{log}"
    );
    drop(server);
}

/// `GET /metrics` at `addr`, with `token` as a bearer token if given: the status line and body.
fn scrape(addr: &str, token: Option<&str>) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(s, "GET /metrics HTTP/1.1\r\nHost: x\r\n{auth}\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn the_metrics_endpoint_wants_its_token_and_a_token_to_leave_loopback() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new("metrics");
    create_qm(&dir);
    // Off loopback without a token: the server refuses to start, and says what to do.
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "start", "--foreground", "QM1", "--data-dir"])
        .arg(dir.path("home"))
        .args(["--listen", "127.0.0.1:0", "--metrics-listen", "0.0.0.0:0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("token_file"), "{err}");
    // With a token: a scrape without it, or with another, gets 401; with it, the metrics.
    let token = "s3cret-metrics-token-0123456789";
    let file = dir.path("metrics.token");
    std::fs::write(&file, format!("{token}\n")).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let setting = format!("metrics.token_file=\"{}\"", file.display());
    let server = start(
        &dir,
        &["--metrics-listen", "127.0.0.1:0", "--set", &setting],
    );
    let url = server.endpoint("http://");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/metrics");
    for wrong in [None, Some("s3cret-metrics-token-0123456788"), Some("short")] {
        let r = scrape(addr, wrong);
        assert!(r.starts_with("HTTP/1.1 401"), "{r}");
        assert!(r.contains("WWW-Authenticate: Bearer"), "{r}");
        assert!(!r.contains("ferry_"), "{r}");
    }
    let r = scrape(addr, Some(token));
    assert!(r.starts_with("HTTP/1.1 200"), "{r}");
    assert!(r.contains("ferry_"), "{r}");
    drop(server);
    // A token file others can read is refused.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "start", "--foreground", "QM1", "--data-dir"])
        .arg(dir.path("home"))
        .args(["--metrics-listen", "127.0.0.1:0", "--set", &setting])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("chmod"),
        "{out:?}"
    );
}

#[test]
fn the_metrics_endpoint_speaks_https_with_its_token() {
    let dir = Dir::new("metrics-tls");
    make_pki(&dir);
    create_qm(&dir);
    let token = "s3cret-metrics-token-for-https-0";
    let file = dir.path("metrics.token");
    std::fs::write(&file, format!("{token}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let sets = [
        format!("metrics.token_file=\"{}\"", file.display()),
        format!("metrics.tls_cert=\"{}\"", dir.path("server.pem").display()),
        format!("metrics.tls_key=\"{}\"", dir.path("server.key").display()),
    ];
    let mut args = vec!["--metrics-listen", "127.0.0.1:0"];
    for s in &sets {
        args.extend(["--set", s.as_str()]);
    }
    let server = start(&dir, &args);
    let url = server.endpoint("https://");
    assert!(
        url.starts_with("https://127.0.0.1:"),
        "{}",
        server.endpoints
    );
    let curl = |extra: &[&str]| {
        Command::new("curl")
            .args(["-s", "--cacert"])
            .arg(dir.path("ca.pem"))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap()
    };
    let auth = format!("Authorization: Bearer {token}");
    let ok = curl(&["-H", &auth]);
    let body = String::from_utf8_lossy(&ok.stdout);
    assert!(body.contains("ferry_qmgr_info"), "{body}");
    let denied = curl(&["-o", "/dev/null", "-w", "%{http_code}"]);
    assert_eq!(String::from_utf8_lossy(&denied.stdout), "401");
    // Plain HTTP to the HTTPS port gets nothing.
    let plain = Command::new("curl")
        .args(["-s", "-m", "5", "-H", &auth])
        .arg(url.replacen("https://", "http://", 1))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("ferry_"));
}
