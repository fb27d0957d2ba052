//! `ferry admin` against a running server, locally (Unix socket) and over tcp: define, alter,
//! display, delete; dump one queue manager and replay the script into a fresh one; restart and
//! display again; errors give a non-zero exit.

mod common;

use std::process::{Command, Output};

use common::Server;
use serde_json::Value;

fn ferry() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferry"))
}

fn admin(server: &Server, via: &str, args: &[&str]) -> Output {
    let mut c = ferry();
    c.arg("admin");
    match via {
        "name" => {
            c.arg("QM1").arg("--data-dir").arg(&server.root);
        }
        url => {
            c.arg("--connect").arg(url);
        }
    }
    c.args(args).output().unwrap()
}

fn ok(server: &Server, via: &str, cmd: &str) -> String {
    let out = admin(server, via, &["-c", cmd]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd} over {via}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn json(server: &Server, via: &str, cmd: &str) -> Value {
    let out = admin(server, via, &["--json", "-c", cmd]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn define_alter_display_delete_locally_and_over_tcp() {
    let server = Server::start("admin", &[]);
    for via in ["name", server.tcp.as_str(), server.unix.as_str()] {
        let q = format!(
            "APP.{}",
            if via == "name" {
                "LOCAL"
            } else if via.starts_with("tcp") {
                "TCP"
            } else {
                "UNIX"
            }
        );
        let text = ok(
            &server,
            via,
            &format!("DEFINE QLOCAL({q}) MAXDEPTH(1234) DESCR('made over {via}')"),
        );
        assert!(text.contains("AMQ8006I"), "{text}");
        ok(&server, via, &format!("ALTER QLOCAL({q}) MAXDEPTH(4321)"));
        let j = json(&server, via, &format!("DISPLAY QLOCAL({q}) MAXDEPTH DESCR"));
        let attrs = &j[0]["messages"][0]["attributes"];
        assert_eq!(attrs["MAXDEPTH"], 4321, "{j}");
        assert!(attrs["DESCR"].as_str().unwrap().starts_with("made over"));
        // Errors exit non-zero and name the keyword and position.
        let out = admin(
            &server,
            via,
            &["-c", &format!("ALTER QLOCAL({q}) MAXDPETH(1)")],
        );
        assert_eq!(out.status.code(), Some(2));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("MAXDPETH") && text.contains("position"),
            "{text}"
        );
        let out = admin(&server, via, &["-c", "DISPLAY QLOCAL(NOT.THERE)"]);
        assert_eq!(out.status.code(), Some(2));
        ok(&server, via, &format!("DELETE QLOCAL({q})"));
    }
    // Connection status shows the mode of each connection.
    let j = json(
        &server,
        &server.tcp,
        "DISPLAY CONN(*) WHERE(APPLTAG EQ 'ferry admin')",
    );
    let modes: Vec<&str> = j[0]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["attributes"]["CONNOPTS"].as_str().unwrap())
        .collect();
    assert_eq!(modes, vec!["TCP"], "{j}");
}

#[test]
fn dump_replays_into_a_fresh_queue_manager_and_definitions_survive_a_restart() {
    let mut a = Server::start("admin-dump-a", &[]);
    let script = "DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(777) DESCR('orders') DEFPSIST(YES) BOTHRESH(3) BOQNAME(ORDERS.BO)
DEFINE QLOCAL(ORDERS.BO)
DEFINE QALIAS(ORDERS) TARGET(ORDERS.IN)
DEFINE QREMOTE(ORDERS.REMOTE) RNAME(ORDERS.IN) RQMNAME(QM2)
DEFINE QMODEL(ORDERS.MODEL) DEFTYPE(PERMDYN)
DEFINE CHANNEL(QM1.SVRCONN) CHLTYPE(SVRCONN) SHARECNV(4)
DEFINE LISTENER(EXTRA) PORT(0)
ALTER QMGR DESCR('source')
";
    let file = a.root.join("setup.mqsc");
    std::fs::write(&file, script).unwrap();
    let out = admin(&a, &a.unix.clone(), &["-f", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Definitions survive a crash of the server (they went through the recovery log).
    a.restart(&[]);
    a.wait_ready();
    let check = |s: &Server| {
        let j = json(s, &s.unix, "DISPLAY QUEUE(ORDERS*) ALL");
        let mut got: Vec<(String, String)> = j[0]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let a = &m["attributes"];
                (
                    a["QUEUE"].as_str().unwrap().to_owned(),
                    a["TYPE"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(
            got,
            vec![
                ("ORDERS".into(), "QALIAS".into()),
                ("ORDERS.BO".into(), "QLOCAL".into()),
                ("ORDERS.IN".into(), "QLOCAL".into()),
                ("ORDERS.MODEL".into(), "QMODEL".into()),
                ("ORDERS.REMOTE".into(), "QREMOTE".into()),
            ]
        );
        let j = json(
            s,
            &s.unix,
            "DISPLAY QLOCAL(ORDERS.IN) MAXDEPTH BOTHRESH DEFPSIST",
        );
        let at = &j[0]["messages"][0]["attributes"];
        assert_eq!(
            (at["MAXDEPTH"].clone(), at["BOTHRESH"].clone()),
            (777.into(), 3.into())
        );
        let j = json(s, &s.unix, "DISPLAY CHANNEL(QM1.SVRCONN) SHARECNV");
        assert_eq!(j[0]["messages"][0]["attributes"]["SHARECNV"], 4);
    };
    check(&a);
    // Dump, and replay into a fresh queue manager.
    let out = admin(&a, &a.unix.clone(), &["--dump"]);
    assert!(out.status.success());
    let dump = String::from_utf8(out.stdout).unwrap();
    assert!(dump.contains("DEFINE QLOCAL('ORDERS.IN')"), "{dump}");
    let b = Server::start("admin-dump-b", &[]);
    let file = b.root.join("replay.mqsc");
    std::fs::write(&file, &dump).unwrap();
    let out = admin(&b, &b.unix.clone(), &["-f", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    check(&b);
    let j = json(&b, &b.unix, "DISPLAY QMGR DESCR");
    assert_eq!(j[0]["messages"][0]["attributes"]["DESCR"], "source");
    // ALTER QMGR is written to qm.toml.
    let toml = std::fs::read_to_string(b.root.join("qmgrs/QM1/qm.toml")).unwrap();
    assert!(toml.contains("description = \"source\""), "{toml}");
}
