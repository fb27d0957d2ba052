//! Shared by the integration tests: a real `ferry qm start` process with its own FerryMQ home,
//! found through the endpoints file it writes, killed (and its home removed) on drop.

#![allow(dead_code)] // each test file uses a different part

pub mod nsqm;
pub mod raw;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long any wait in the tests may last before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// The administrator every test queue manager is created with, in its user file and in the
/// owner's group, so tests can reach it over tcp (CHCKCLNT is REQUIRED by default).
pub const TEST_USER: &str = "tester";
/// [`TEST_USER`]'s password.
pub const TEST_PASSWORD: &str = "tester-password-1";

/// The name of this process's primary group (the queue manager owner's group, which
/// administers it).
pub fn owner_group() -> String {
    let out = Command::new("id").arg("-gn").output().expect("run id -gn");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// A running server.
pub struct Server {
    pub child: Child,
    /// The FerryMQ home (`--data-dir`).
    pub root: PathBuf,
    /// Its endpoints, one connection string a line.
    pub endpoints: String,
    /// The local socket endpoint.
    pub unix: String,
    /// The TCP endpoint, with [`TEST_USER`]'s credentials (`tcp://USER:PASSWORD@HOST:PORT`).
    pub tcp: String,
    /// The TCP endpoint without credentials.
    pub tcp_bare: String,
    /// The queue manager's name.
    pub qm: String,
    log: PathBuf,
    owns_root: bool,
}

impl Server {
    /// A server for queue manager QM1 in a fresh home named after `tag`, TCP on a free loopback
    /// port, with `extra` arguments.
    pub fn start(tag: &str, extra: &[&str]) -> Server {
        Server::start_named(tag, "QM1", extra)
    }

    /// A server for queue manager `qm` in a fresh home named after `tag`.
    pub fn start_named(tag: &str, qm: &str, extra: &[&str]) -> Server {
        let root = std::env::temp_dir().join(format!("ferry-it-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        create_qm(&root, qm);
        let mut s = Server::start_qm_in(&root, qm, &root.join("server.log"), extra);
        s.owns_root = true;
        s
    }

    /// Queue manager `qm` in a fresh home named after `tag`, created with `users` (name,
    /// password) in its user file before it starts.
    pub fn start_with_users(tag: &str, qm: &str, users: &[(&str, &str)], extra: &[&str]) -> Server {
        let root = std::env::temp_dir().join(format!("ferry-it-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        create_qm(&root, qm);
        for (u, p) in users {
            add_user(&root, qm, u, p);
        }
        let mut s = Server::start_qm_in(&root, qm, &root.join("server.log"), extra);
        s.owns_root = true;
        s
    }

    /// A server in an existing home, logging to `log`; the home is left in place on drop.
    pub fn start_in(root: &Path, log: &Path, extra: &[&str]) -> Server {
        Server::start_qm_in(root, "QM1", log, extra)
    }

    /// QM1 in a fresh home named after `tag`, started under `prlimit --as=AS_BYTES` (its
    /// address space capped as `ulimit -v` would), with `qmgr_keys` (`key = value` lines) in
    /// the `[qmgr]` section of its qm.toml.
    pub fn start_capped(tag: &str, as_bytes: u64, qmgr_keys: &[&str], extra: &[&str]) -> Server {
        let root = std::env::temp_dir().join(format!("ferry-it-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        create_qm(&root, "QM1");
        set_qmgr_keys(&root, "QM1", qmgr_keys);
        let log = root.join("server.log");
        let child = spawn_with(&root, "QM1", &log, extra, Some(as_bytes));
        Server::adopt(child, &root, "QM1", &log, extra, true)
    }

    /// The server removes its home when it is dropped (a home made for it alone).
    #[allow(dead_code)] // not every test binary makes homes of its own
    pub fn owning_root(mut self) -> Server {
        self.owns_root = true;
        self
    }

    /// Queue manager `qm` in an existing home.
    pub fn start_qm_in(root: &Path, qm: &str, log: &Path, extra: &[&str]) -> Server {
        let child = spawn(root, qm, log, extra);
        Server::adopt(child, root, qm, log, extra, false)
    }

    /// The server `child` just started, once it has written its endpoints.
    fn adopt(
        child: Child,
        root: &Path,
        qm: &str,
        log: &Path,
        extra: &[&str],
        owns_root: bool,
    ) -> Server {
        let want_tls = extra.contains(&"--tls-listen");
        let mut s = Server {
            child,
            root: root.to_owned(),
            endpoints: String::new(),
            unix: String::new(),
            tcp: String::new(),
            tcp_bare: String::new(),
            qm: qm.to_owned(),
            log: log.to_owned(),
            owns_root,
        };
        s.await_endpoints(want_tls);
        s
    }

    /// Waits until the server has written its endpoints (with a TLS one if `want_tls`), and
    /// takes them.
    fn await_endpoints(&mut self, want_tls: bool) {
        let file = self.dir().join("endpoints");
        let deadline = Instant::now() + DEADLINE;
        loop {
            // The file, or — when a full disk would not take it — the log, where the queue
            // manager then says its endpoints (`listening endpoint="..."`).
            let said = std::fs::read_to_string(&file)
                .ok()
                .filter(|t| t.lines().count() >= 2)
                .or_else(|| self.logged_endpoints());
            if let Some(t) = said.filter(|t| !want_tls || t.contains("tls://")) {
                self.endpoints = t;
                break;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the server exited with {status}: {}", self.log());
            }
            assert!(
                Instant::now() < deadline,
                "the server never wrote its endpoints: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.unix = self.endpoint("unix:");
        self.tcp_bare = self.endpoint("tcp://");
        self.tcp =
            self.tcp_bare
                .replacen("tcp://", &format!("tcp://{TEST_USER}:{TEST_PASSWORD}@"), 1);
    }

    /// The endpoints the server's log lists when it could not write its endpoints file (two or
    /// more), one a line.
    fn logged_endpoints(&self) -> Option<String> {
        let log = self.log();
        if !log.contains("cannot write") && !log.contains("endpoints file") {
            return None;
        }
        let found: Vec<&str> = log
            .lines()
            .filter_map(|l| l.split("listening endpoint=\"").nth(1))
            .filter_map(|rest| rest.split('"').next())
            .collect();
        (found.len() >= 2).then(|| found.join("\n") + "\n")
    }

    /// Kills the server and starts it again in the same home (same local socket).
    pub fn restart(&mut self, extra: &[&str]) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(self.dir().join("endpoints"));
        self.child = spawn(&self.root, &self.qm, &self.log, extra);
    }

    /// Waits until a restarted server accepts connections again, and takes its new endpoints
    /// (its TCP port may have changed).
    pub fn wait_ready(&mut self) {
        self.await_endpoints(false);
    }

    /// The queue manager's directory.
    pub fn dir(&self) -> PathBuf {
        self.root.join("qmgrs").join(&self.qm)
    }

    /// The endpoint whose connection string starts with `scheme`.
    pub fn endpoint(&self, scheme: &str) -> String {
        self.endpoints
            .lines()
            .find(|l| l.starts_with(scheme))
            .unwrap_or_default()
            .to_owned()
    }

    /// The TCP address (host:port).
    pub fn tcp_addr(&self) -> &str {
        self.tcp_bare.trim_start_matches("tcp://")
    }

    /// What the server has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

fn spawn(root: &Path, qm: &str, log: &Path, extra: &[&str]) -> Child {
    spawn_with(root, qm, log, extra, None)
}

/// As [`spawn`], under `prlimit --as=CAP` when a cap is given.
fn spawn_with(root: &Path, qm: &str, log: &Path, extra: &[&str], cap: Option<u64>) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .unwrap();
    let listen: &[&str] = if extra.contains(&"--listen") {
        &[]
    } else {
        &["--listen", "127.0.0.1:0"]
    };
    let mut cmd = match cap {
        Some(bytes) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--as={bytes}"))
                .arg("--")
                .arg(env!("CARGO_BIN_EXE_ferry"));
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_ferry")),
    };
    cmd.args(["qm", "start", "--foreground", qm, "--data-dir"])
        .arg(root)
        .args(listen)
        .args(extra)
        .env("RUST_LOG", "info")
        // Monitoring data (published only on topics some subscription matches) soon enough
        // for a test to wait for it.
        .env("FERRY_MONITOR_INTERVAL_MS", "300")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start ferry")
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.owns_root {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

/// A loopback port nobody listens on right now.
/// A port that is free now, below Linux's ephemeral range (32768–60999), so that a server's
/// own ephemeral binds (a metrics or console port of 0, started in the meantime) cannot take it
/// before the server it is meant for binds it.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let seed = (std::process::id() % 1000) as u16 * 12;
    for _ in 0..2000 {
        let port = 20_000 + (seed + NEXT.fetch_add(1, Ordering::Relaxed)) % 12_000;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A test CA (`dir/ca.pem`) and, for each (name, subject alternative names), a certificate it
/// signs with common name `name` (`dir/NAME.pem`, `dir/NAME.key`).
pub fn make_pki(dir: &Path, certs: &[(&str, &[&str])]) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    std::fs::create_dir_all(dir).unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "FerryMQ test CA");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    for (name, sans) in certs {
        let key = KeyPair::generate().unwrap();
        let sans: Vec<String> = sans.iter().map(|s| s.to_string()).collect();
        let mut params = CertificateParams::new(sans).unwrap();
        params.distinguished_name.push(DnType::CommonName, *name);
        let cert = params.signed_by(&key, &ca).unwrap();
        std::fs::write(dir.join(format!("{name}.pem")), cert.pem()).unwrap();
        let key_file = dir.join(format!("{name}.key"));
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        // A private key others can read is refused by the server, as it should be.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

/// `ferry qm create QM` in the home `root`, with [`TEST_USER`] as an administrator.
pub fn create_qm(root: &Path, qm: &str) {
    let ok = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "create", qm, "--data-dir"])
        .arg(root)
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(ok, "qm create {qm}");
    add_user_in(root, qm, TEST_USER, TEST_PASSWORD, &[&owner_group()]);
    // MQ's back-stop CHLAUTH record refuses administrators on every client channel; the tests
    // administer over tcp as TEST_USER, so the application channel gets its own BLOCKUSER list
    // (the more specific profile wins), as an MQ administrator would allow it.
    admin_in(
        root,
        qm,
        "SET CHLAUTH('DEV.APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') DESCR('tests administer over tcp')",
    );
}

/// Sets `key = value` lines in the `[qmgr]` section of queue manager `qm`'s qm.toml (replacing
/// a key already there).
pub fn set_qmgr_keys(root: &Path, qm: &str, lines: &[&str]) {
    let path = root.join("qmgrs").join(qm).join("qm.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let key = |l: &str| l.split('=').next().unwrap_or("").trim().to_owned();
    let keys: Vec<String> = lines.iter().map(|l| key(l)).collect();
    let mut out = String::new();
    for l in text.lines().filter(|l| !keys.contains(&key(l))) {
        out.push_str(l);
        out.push('\n');
        if l.trim() == "[qmgr]" {
            for n in lines {
                out.push_str(n);
                out.push('\n');
            }
        }
    }
    std::fs::write(&path, out).unwrap();
}

/// `ferry admin QM --data-dir ROOT -c COMMANDS` (the queue manager hosted in that process when
/// it is not running, its local socket when it is); every command must succeed.
pub fn admin_in(root: &Path, qm: &str, commands: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["admin", qm, "--data-dir"])
        .arg(root)
        .args(["-c", commands])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{commands}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `ferry qm user add QM USER` in the home `root`, the password on standard input.
pub fn add_user(root: &Path, qm: &str, user: &str, password: &str) {
    add_user_in(root, qm, user, password, &[]);
}

/// `ferry qm user add QM USER --group G...`.
pub fn add_user_in(root: &Path, qm: &str, user: &str, password: &str, groups: &[&str]) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(["qm", "user", "add", qm, user, "--data-dir"])
        .arg(root)
        .args(groups.iter().flat_map(|g| ["--group", g]))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{password}").unwrap();
    assert!(child.wait().unwrap().success(), "qm user add {user}");
}

/// The MQSC that authenticates a channel from `from` to `to` by password: the sender's USERID
/// and PASSWORD, and the receiver's MCAUSER and RQMNAME, for a user `<from>chl` (lower case)
/// whose password is [`channel_password`], defined in `to`'s user file.
pub fn channel_user(from: &str) -> (String, String) {
    (
        format!("{}chl", from.to_ascii_lowercase()),
        channel_password(from),
    )
}

/// The password of [`channel_user`].
pub fn channel_password(from: &str) -> String {
    format!("pw-{from}-channel")
}

/// Sender attributes authenticating as [`channel_user`] of `from`.
pub fn sdr_auth(from: &str) -> String {
    let (u, p) = channel_user(from);
    format!("USERID('{u}') PASSWORD('{p}')")
}

/// Receiver attributes accepting only `from` authenticated as its [`channel_user`].
pub fn rcvr_auth(from: &str) -> String {
    let (u, _) = channel_user(from);
    format!("MCAUSER('{u}') RQMNAME({from})")
}

/// Lets the receiving channels that run as `from`'s [`channel_user`] (their MCAUSER) put, with
/// the context the sender gives, to every queue of `server` and on towards every other queue
/// manager (PUTAUT(DEF) needs PUT and SETALL).
pub fn grant_channel_user(server: &Server, from: &str) {
    let (u, _) = channel_user(from);
    let mut c = ferry_client::Connection::connect(&server.unix, "tests-grant").unwrap();
    let script = format!(
        "SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('{u}') AUTHADD(PUT,SETALL)
         SET AUTHREC PROFILE('**') OBJTYPE(RQMNAME) PRINCIPAL('{u}') AUTHADD(PUT)"
    );
    for r in c.admin(&script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

/// The first value of `key` in what the DISPLAY `command` answers on `server`.
pub fn display(server: &Server, command: &str, key: &str) -> Option<String> {
    let mut c = ferry_client::Connection::connect(&server.unix, "tests-display").unwrap();
    let replies = c.admin(command).unwrap();
    replies[0]
        .messages
        .iter()
        .flat_map(|m| m.fields.iter())
        .find(|f| f.key == key)
        .and_then(|f| f.value.clone())
}

/// Waits until `f` holds; fails the test after [`DEADLINE`].
/// The Prometheus text of `server`'s metrics endpoint.
#[allow(dead_code)]
pub fn scrape(server: &Server) -> String {
    use std::io::{Read, Write};
    let url = server
        .endpoints
        .lines()
        .find(|l| l.starts_with("http://") && l.ends_with("/metrics"))
        .expect("a metrics endpoint");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/metrics");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

pub fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A raw MQTT 3.1.1 client: CONNECT to `addr` as client `id` (with `user`, and `password` when
/// given; `clean` session or not; `keep_alive` seconds), the CONNACK read. Returns the stream
/// and the CONNACK's four bytes (byte 2: session present; byte 3: the return code).
#[allow(dead_code)] // not every test binary connects MQTT clients
pub fn mqtt_connect(
    addr: &str,
    id: &str,
    (user, password): (&str, Option<&str>),
    clean: bool,
    keep_alive: u16,
) -> (std::net::TcpStream, [u8; 4]) {
    use std::io::{Read, Write};
    let mut t = std::net::TcpStream::connect(addr).unwrap();
    t.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let field = |b: &[u8]| [&(b.len() as u16).to_be_bytes()[..], b].concat();
    let flags = 0x80 | if password.is_some() { 0x40 } else { 0 } | if clean { 0x02 } else { 0 };
    let mut body = [&[0, 4][..], b"MQTT", &[4, flags]].concat();
    body.extend(keep_alive.to_be_bytes());
    body.extend(field(id.as_bytes()));
    body.extend(field(user.as_bytes()));
    if let Some(p) = password {
        body.extend(field(p.as_bytes()));
    }
    t.write_all(&[&[0x10, body.len() as u8][..], &body].concat())
        .unwrap();
    let mut ack = [0u8; 4];
    t.read_exact(&mut ack).unwrap();
    (t, ack)
}
