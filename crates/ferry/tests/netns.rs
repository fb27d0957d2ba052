//! Two queue managers on two "hosts": each in its own network namespace, joined by a veth
//! pair, so the channel between them crosses a real (virtual) network interface rather than
//! loopback. The receiver listens on its namespace's address with TLS and required client
//! certificates (a non-loopback listener must authenticate); the sender checks the receiver's
//! certificate name and presents its own.
//!
//! Making namespaces needs root (CAP_NET_ADMIN) and iproute2, so the test is ignored by a plain
//! `cargo test`; `.ci/run` runs it with `--ignored` on machines that allow it (and fails if
//! they do not).

mod common;

use std::process::Command;
use std::time::Duration;

use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};

fn ip(args: &[&str]) {
    let out = Command::new("ip").args(args).output().expect("run ip");
    assert!(
        out.status.success(),
        "ip {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two namespaces joined by a veth pair, removed on drop.
struct Hosts {
    ns: [String; 2],
    addr: [String; 2],
}

impl Hosts {
    fn new() -> Hosts {
        let id = std::process::id() % 10_000;
        let ns = [format!("ferry-a-{id}"), format!("ferry-b-{id}")];
        let veth = [format!("fva{id}"), format!("fvb{id}")];
        let net = format!("10.{}.{}", 100 + id / 256 % 100, id % 256);
        let addr = [format!("{net}.1"), format!("{net}.2")];
        let hosts = Hosts { ns, addr };
        for n in &hosts.ns {
            ip(&["netns", "add", n]);
        }
        ip(&[
            "link", "add", &veth[0], "type", "veth", "peer", "name", &veth[1],
        ]);
        for ((v, n), a) in veth.iter().zip(&hosts.ns).zip(&hosts.addr) {
            ip(&["link", "set", v, "netns", n]);
            ip(&["-n", n, "addr", "add", &format!("{a}/24"), "dev", v]);
            ip(&["-n", n, "link", "set", v, "up"]);
            ip(&["-n", n, "link", "set", "lo", "up"]);
        }
        hosts
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        for n in &self.ns {
            let _ = Command::new("ip").args(["netns", "del", n]).status();
        }
    }
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn a_channel_crosses_a_network_between_two_namespaces_over_mutual_tls() {
    let hosts = Hosts::new();
    let home = std::env::temp_dir().join(format!("ferry-it-netns-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let port = 15414;
    let (qm1, qm2) = common::nsqm::tls_pair(
        [hosts.ns[0].as_str(), hosts.ns[1].as_str()],
        [hosts.addr[0].as_str(), hosts.addr[1].as_str()],
        &home,
        (hosts.addr[1].as_str(), port),
    );
    qm2.admin(
        "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) SSLCIPH(ANY_TLS13) SSLPEER('CN=qm1')
         DEFINE QLOCAL(APP.IN)",
    );
    qm1.admin(&format!(
        "DEFINE QLOCAL(QM2) USAGE(XMITQ)
         DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('{}({port})') XMITQ(QM2) SSLCIPH(ANY_TLS13) SSLPEER('CN=qm2') SHORTTMR(1)
         DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM2)",
        hosts.addr[1]
    ));
    let mut c1 = Connection::connect(&qm1.unix(), "netns-putter").unwrap();
    for i in 0..100u32 {
        c1.put1(
            "APP.FAR",
            Message::new(i.to_le_bytes().to_vec()).with_persistence(Persistence::Persistent),
            &PutOptions::default(),
        )
        .unwrap();
    }
    let mut c2 = Connection::connect(&qm2.unix(), "netns-getter").unwrap();
    let h = c2.open_queue("APP.IN", OpenOptions::input()).unwrap();
    for i in 0..100u32 {
        let g = c2
            .get(h, &GetOptions::new().wait(Duration::from_secs(30)))
            .unwrap_or_else(|e| panic!("message {i}: {e}\nQM1: {}\nQM2: {}", qm1.log(), qm2.log()));
        assert_eq!(&g.message.body[..], &i.to_le_bytes());
    }
    assert_eq!(
        c2.get(h, &GetOptions::new()).unwrap_err().reason,
        Reason::NoMsgAvailable
    );
    // The receiver saw the sender arrive from the other host's address.
    let mut c = Connection::connect(&qm2.unix(), "netns-test").unwrap();
    let r = c.admin("DISPLAY CHSTATUS(QM1.TO.QM2) CONNAME").unwrap();
    let conname = r[0].messages[0]
        .fields
        .iter()
        .find(|f| f.key == "CONNAME")
        .and_then(|f| f.value.clone())
        .unwrap();
    assert!(conname.starts_with(&hosts.addr[0]), "{conname}");
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}
