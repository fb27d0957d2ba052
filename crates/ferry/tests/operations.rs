//! Running a queue manager: LISTENER objects opening and closing real ports, the Prometheus
//! endpoint scraped while a workload runs and checked against DISPLAY QSTATUS, layered
//! configuration (file, environment, flags) refusing what it does not know, and `ferry status`.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{free_port, Server};
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions};
use serde_json::Value;

fn ferry() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferry"))
}

fn admin(server: &Server, args: &[&str]) -> Output {
    ferry()
        .args(["admin", "QM1", "--data-dir"])
        .arg(&server.root)
        .args(args)
        .output()
        .unwrap()
}

fn admin_ok(server: &Server, cmd: &str) -> String {
    let out = admin(server, &["-c", cmd]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn admin_json(server: &Server, cmd: &str) -> Value {
    let out = admin(server, &["--json", "-c", cmd]);
    assert!(
        out.status.success(),
        "{cmd}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `ferry qm check QM1` in `root` with `env` and `--set` settings.
fn check(root: &std::path::Path, env: &[(&str, &str)], sets: &[&str]) -> Output {
    let mut c = ferry();
    c.args(["qm", "check", "QM1", "--data-dir"]).arg(root);
    for (k, v) in env {
        c.env(k, v);
    }
    for set in sets {
        c.args(["--set", set]);
    }
    c.output().unwrap()
}

/// GET `path` from `addr` (host:port): (status line, body).
fn http_get(addr: &str, path: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// The value of the sample `series` (name with labels, exactly as exposed).
fn sample(metrics: &str, series: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {series} in:\n{metrics}"))
        .parse()
        .unwrap()
}

#[test]
fn listener_objects_open_and_close_real_ports() {
    let mut server = Server::start("listeners", &[]);
    let port = free_port();
    let ep = format!(
        "tcp://{}:{}@127.0.0.1:{port}",
        common::TEST_USER,
        common::TEST_PASSWORD
    );
    admin_ok(
        &server,
        &format!("DEFINE LISTENER(APP.LSR) TRPTYPE(TCP) PORT({port}) CONTROL(QMGR)"),
    );
    assert!(Connection::connect(&ep, "before").is_err());
    admin_ok(&server, "START LISTENER(APP.LSR)");
    let mut c = Connection::connect(&ep, "via-listener").unwrap();
    c.put1(
        "DEV.QUEUE.1",
        Message::new(b"hello".to_vec()),
        &PutOptions::default(),
    )
    .unwrap();
    let j = admin_json(&server, "DISPLAY LSSTATUS(APP.LSR) ALL");
    let attrs = &j[0]["messages"][0]["attributes"];
    assert_eq!(attrs["STATUS"], "RUNNING", "{j}");
    assert_eq!(attrs["PORT"], port, "{j}");
    // The connection shows up as a tcp connection.
    let conns = admin_json(
        &server,
        "DISPLAY CONN(*) WHERE(APPLTAG EQ 'via-listener') CONNOPTS",
    );
    let text = conns.to_string();
    assert!(text.contains("\"CONNOPTS\":\"TCP\""), "{text}");
    // Starting it twice, deleting it while it runs: clear errors, non-zero exits.
    let out = admin(&server, &["-c", "START LISTENER(APP.LSR)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("already running"));
    let out = admin(&server, &["-c", "DELETE LISTENER(APP.LSR)"]);
    assert_eq!(out.status.code(), Some(2));
    admin_ok(&server, "STOP LISTENER(APP.LSR)");
    assert!(Connection::connect(&ep, "after-stop").is_err());
    // Connections it accepted carry on.
    c.put1(
        "DEV.QUEUE.1",
        Message::new(b"still".to_vec()),
        &PutOptions::default(),
    )
    .unwrap();
    let out = admin(&server, &["-c", "STOP LISTENER(APP.LSR)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3234"));
    drop(c);
    // CONTROL(QMGR): it starts with the queue manager.
    server.restart(&[]);
    server.wait_ready();
    let deadline = Instant::now() + common::DEADLINE;
    loop {
        match Connection::connect(&ep, "after-restart") {
            Ok(_) => break,
            Err(e) => assert!(Instant::now() < deadline, "{e}: {}", server.log()),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // A listener on a port already taken says so.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = taken.local_addr().unwrap().port();
    admin_ok(&server, &format!("DEFINE LISTENER(APP.BUSY) PORT({busy})"));
    let out = admin(&server, &["-c", "START LISTENER(APP.BUSY)"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("cannot listen"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn metrics_agree_with_display_qstatus_while_a_workload_runs() {
    let server = Server::start("metrics", &["--metrics-listen", "127.0.0.1:0"]);
    let url = server.endpoint("http://");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/metrics")
        .to_owned();
    assert!(
        !addr.is_empty(),
        "no metrics endpoint in {}",
        server.endpoints
    );
    admin_ok(&server, "DEFINE QLOCAL(APP.METRICS) MAXDEPTH(1000000)");
    let (status, _) = http_get(&addr, "/nothing");
    assert!(status.contains("404"), "{status}");

    // A workload: persistent puts over tcp while we scrape.
    let stop = Arc::new(AtomicBool::new(false));
    let ep = server.tcp.clone();
    let putter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut c = Connection::connect(&ep, "metrics-putter").unwrap();
            let h = c.open_queue("APP.METRICS", OpenOptions::output()).unwrap();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) || n < 200 {
                let m = Message::new(vec![7u8; 256]).with_persistence(Persistence::Persistent);
                c.put(h, m, &PutOptions::default()).unwrap();
                n += 1;
            }
            n
        })
    };
    let mut last = 0.0;
    for _ in 0..5 {
        let (status, body) = http_get(&addr, "/metrics");
        assert!(status.contains("200"), "{status}");
        let depth = sample(&body, "ferry_queue_depth{queue=\"APP.METRICS\"}");
        assert!(depth >= last, "depth went back from {last} to {depth}");
        last = depth;
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    let put = putter.join().unwrap();

    // Quiet now, with one getter holding the queue open for input: the two views agree.
    let mut c = Connection::connect(&server.unix, "metrics-getter").unwrap();
    let h = c.open_queue("APP.METRICS", OpenOptions::input()).unwrap();
    for _ in 0..50 {
        c.get(h, &GetOptions::new()).unwrap();
    }
    let (_, body) = http_get(&addr, "/metrics");
    let j = admin_json(&server, "DISPLAY QSTATUS(APP.METRICS) ALL");
    let q = &j[0]["messages"][0]["attributes"];
    let series = |name: &str| sample(&body, &format!("{name}{{queue=\"APP.METRICS\"}}"));
    assert_eq!(
        series("ferry_queue_depth"),
        q["CURDEPTH"].as_f64().unwrap(),
        "{q}"
    );
    assert_eq!(series("ferry_queue_depth"), (put - 50) as f64);
    assert_eq!(series("ferry_queue_puts_total"), put as f64);
    assert_eq!(series("ferry_queue_gets_total"), 50.0);
    assert_eq!(
        series("ferry_queue_open_input_handles"),
        q["IPPROCS"].as_f64().unwrap()
    );
    assert_eq!(series("ferry_queue_open_input_handles"), 1.0);
    assert_eq!(
        series("ferry_queue_open_output_handles"),
        q["OPPROCS"].as_f64().unwrap()
    );
    assert_eq!(series("ferry_queue_uncommitted_messages"), 0.0);
    assert!(series("ferry_queue_oldest_message_age_seconds") > 0.0);
    // Connections by mode: the getter (local) and the admin shell's own, gone by now.
    assert_eq!(sample(&body, "ferry_connections{mode=\"local\"}"), 1.0);
    // MQI calls: the putter's and the getter's opens at least; none of them failed.
    let calls = |call: &str, result: &str| {
        sample(
            &body,
            &format!("ferry_mqi_calls_total{{call=\"{call}\",result=\"{result}\"}}"),
        )
    };
    assert!(calls("MQOPEN", "ok") >= 2.0, "{body}");
    assert!(calls("MQCONN", "ok") >= 2.0, "{body}");
    assert_eq!(calls("MQOPEN", "failed"), 0.0);
    // The log: every persistent put was a durable record, in synced batches.
    assert!(sample(&body, "ferry_log_records_total") >= put as f64);
    let syncs = sample(&body, "ferry_log_sync_seconds_count");
    assert!(syncs > 0.0);
    assert_eq!(sample(&body, "ferry_log_batch_records_count"), syncs);
    assert_eq!(
        sample(&body, "ferry_log_sync_seconds_bucket{le=\"+Inf\"}"),
        syncs
    );
    assert!(sample(&body, "ferry_log_batch_records_sum") >= put as f64);
}

#[test]
fn layered_configuration_is_checked_and_applied() {
    let root = std::env::temp_dir().join(format!("ferry-it-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let out = ferry()
        .args(["qm", "create", "QM1", "--data-dir"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success());
    let toml_path = root.join("qmgrs/QM1/qm.toml");
    let original = std::fs::read_to_string(&toml_path).unwrap();

    // A misspelt key: check and start both refuse, naming it.
    assert!(original.contains("\nlisten = "), "{original}");
    std::fs::write(&toml_path, original.replace("\nlisten = ", "\nlisen = ")).unwrap();
    let out = check(&root, &[], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("lisen"), "{err}");
    let out = ferry()
        .args(["qm", "start", "--foreground", "QM1", "--data-dir"])
        .arg(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lisen"));

    // Environment and --set: named when wrong, applied in order when right.
    std::fs::write(&toml_path, &original).unwrap();
    let out = check(&root, &[("FERRY_LOG_EXTNT_MIB", "8")], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FERRY_LOG_EXTNT_MIB"));
    let out = check(&root, &[], &["log.extent_mib=5000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("extent_mib = 5000"));
    let out = check(
        &root,
        &[
            ("FERRY_LOG_EXTENT_MIB", "8"),
            ("FERRY_SERVER_MAX_CONVERSATIONS", "3"),
        ],
        &["server.max_conversations=4"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("extent_mib = 8"), "{text}");
    assert!(text.contains("max_conversations = 4"), "{text}");
    assert!(
        text.contains("from environment variable FERRY_LOG_EXTENT_MIB"),
        "{text}"
    );
    // The file is untouched by the layers.
    assert_eq!(std::fs::read_to_string(&toml_path).unwrap(), original);

    // A queue manager started with the environment layer listens where it says, serves metrics
    // when asked, and `ferry status` reports it.
    let port = free_port();
    let mut child = ferry()
        .args(["qm", "start", "--foreground", "QM1", "--data-dir"])
        .arg(&root)
        .env("FERRY_SERVER_LISTEN", format!("127.0.0.1:{port}"))
        .env("FERRY_METRICS_LISTEN", "127.0.0.1:0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let endpoints = root.join("qmgrs/QM1/endpoints");
    let deadline = Instant::now() + common::DEADLINE;
    let text = loop {
        if let Ok(t) = std::fs::read_to_string(&endpoints) {
            if t.contains("http://") {
                break t;
            }
        }
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(text.contains(&format!("tcp://127.0.0.1:{port}")), "{text}");
    // Clients over tcp authenticate (CHCKCLNT is REQUIRED): a user added to the user file of
    // the running queue manager is taken at once.
    common::add_user(&root, "QM1", "ops", "ops-password");
    common::admin_in(
        &root,
        "QM1",
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('ops') AUTHADD(CONNECT)",
    );
    Connection::connect(
        &format!("tcp://ops:ops-password@127.0.0.1:{port}"),
        "env-listen",
    )
    .unwrap();
    let out = ferry()
        .args(["status", "--data-dir"])
        .arg(&root)
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        status.contains("QM1") && status.contains("running"),
        "{status}"
    );
    assert!(
        status.contains(&format!("tcp://127.0.0.1:{port}")),
        "{status}"
    );
    assert!(status.contains("queues"), "{status}");
    let _ = child.kill();
    let _ = child.wait();
    let out = ferry()
        .args(["status", "--data-dir"])
        .arg(&root)
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(
        status.contains("QM1") && status.contains("stopped"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
