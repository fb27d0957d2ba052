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
}

impl Qm {
    pub fn start(ns: &str, home: &Path, name: &str, args: &[String]) -> Qm {
        let log = std::fs::File::create(home.join(format!("{name}.log"))).unwrap();
        let child = Command::new("ip")
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
            .unwrap();
        let qm = Qm {
            child,
            home: home.to_owned(),
            name: name.to_owned(),
        };
        let endpoints = home.join("qmgrs").join(name).join("endpoints");
        let deadline = Instant::now() + super::DEADLINE;
        while !endpoints.exists() {
            assert!(
                Instant::now() < deadline,
                "{name} did not start: {}",
                qm.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        qm
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
        // `ip netns exec` runs ferry as its child: stop that too.
        let _ = Command::new("pkill")
            .args([
                "-f",
                &format!("qm start {} --data-dir {}", self.name, self.home.display()),
            ])
            .status();
    }
}
