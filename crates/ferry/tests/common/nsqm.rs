//! A queue manager started with `ferry qm start --foreground` inside a network namespace (a
//! "host" of the namespace tests), killed on drop.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ferry_client::Connection;

/// `ferry qm start` inside namespace `ns`, killed on drop.
pub struct Qm {
    child: Child,
    home: PathBuf,
    name: String,
    ns: String,
    args: Vec<String>,
}

/// Starts `ferry qm start --foreground NAME` in namespace `ns`, its log appended to
/// HOME/NAME.log.
fn spawn(ns: &str, home: &Path, name: &str, args: &[String]) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.join(format!("{name}.log")))
        .unwrap();
    Command::new("ip")
        .args([
            "netns",
            "exec",
            ns,
            env!("CARGO_BIN_EXE_ferry"),
            "qm",
            "start",
            "--foreground",
            name,
            "--data-dir",
        ])
        .arg(home)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap()
}

impl Qm {
    pub fn start(ns: &str, home: &Path, name: &str, args: &[String]) -> Qm {
        let _ = std::fs::remove_file(home.join("qmgrs").join(name).join("endpoints"));
        let qm = Qm {
            child: spawn(ns, home, name, args),
            home: home.to_owned(),
            name: name.to_owned(),
            ns: ns.to_owned(),
            args: args.to_vec(),
        };
        qm.await_ready();
        qm
    }

    fn await_ready(&self) {
        let endpoints = self.home.join("qmgrs").join(&self.name).join("endpoints");
        let deadline = Instant::now() + super::DEADLINE;
        while !endpoints.exists() {
            assert!(
                Instant::now() < deadline,
                "{} did not start: {}",
                self.name,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL: the process ends at once, with whatever it was doing.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.pkill();
        let _ = std::fs::remove_file(self.home.join("qmgrs").join(&self.name).join("endpoints"));
    }

    /// Starts the queue manager again (after [`Qm::kill`]) with the same arguments.
    pub fn restart(&mut self) {
        self.child = spawn(&self.ns, &self.home, &self.name, &self.args);
        self.await_ready();
    }

    /// `ip netns exec` runs ferry as its child: ends that too.
    fn pkill(&self) {
        let _ = Command::new("pkill")
            .args([
                "-KILL",
                "-f",
                &format!(
                    "qm start --foreground {} --data-dir {}",
                    self.name,
                    self.home.display()
                ),
            ])
            .status();
    }

    pub fn unix(&self) -> String {
        format!(
            "unix:{}",
            self.home
                .join("qmgrs")
                .join(&self.name)
                .join("ferry.sock")
                .display()
        )
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.home.join(format!("{}.log", self.name))).unwrap_or_default()
    }

    pub fn admin(&self, script: &str) {
        let mut c = Connection::connect(&self.unix(), "netns-test").unwrap();
        for r in c.admin(script).unwrap() {
            assert!(r.ok, "{}: {:?}", r.command, r.messages);
        }
    }
}

impl Drop for Qm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.pkill();
    }
}

/// QM2 on host `ns[1]` listening with TLS on `listen:port` (client certificates required) and
/// QM1 on host `ns[0]` with its own certificate to connect with; certificates for both (CN qm1,
/// qm2, each also for its address `addr`) made in HOME/pki.
pub fn tls_pair(
    ns: [&str; 2],
    addr: [&str; 2],
    home: &Path,
    (listen, port): (&str, u16),
) -> (Qm, Qm) {
    tls_pair_setting(ns, addr, home, (listen, port), &[])
}

/// [`tls_pair`] with QM1 started with `qm1_sets` too (`section.key=value` settings).
pub fn tls_pair_setting(
    ns: [&str; 2],
    addr: [&str; 2],
    home: &Path,
    (listen, port): (&str, u16),
    qm1_sets: &[&str],
) -> (Qm, Qm) {
    let pki = home.join("pki");
    super::make_pki(
        &pki,
        &[("qm1", &["qm1", addr[0]]), ("qm2", &["qm2", addr[1]])],
    );
    let p = |n: &str| pki.join(n).display().to_string();
    let qm2 = Qm::start(
        ns[1],
        home,
        "QM2",
        &[
            "--tls-listen".into(),
            format!("{listen}:{port}"),
            // QUIC on the TLS port's number (UDP), for senders with TRPTYPE(QUIC).
            "--quic-listen".into(),
            format!("{listen}:{port}"),
            "--tls-cert".into(),
            p("qm2.pem"),
            "--tls-key".into(),
            p("qm2.key"),
            "--tls-client-ca".into(),
            p("ca.pem"),
        ],
    );
    let mut qm1_args = vec![
        "--set".into(),
        format!("server.tls_ca=\"{}\"", p("ca.pem")),
        "--set".into(),
        format!("server.tls_cert=\"{}\"", p("qm1.pem")),
        "--set".into(),
        format!("server.tls_key=\"{}\"", p("qm1.key")),
    ];
    for s in qm1_sets {
        qm1_args.extend(["--set".to_owned(), (*s).to_owned()]);
    }
    let qm1 = Qm::start(ns[0], home, "QM1", &qm1_args);
    (qm1, qm2)
}
