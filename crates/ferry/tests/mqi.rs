//! The MQI-compatible C interface end to end: C programs in the spirit of IBM's samples
//! (crates/ferry-mqi/samples: put, get, browse, request/reply, message properties, a message mover that passes context, a selecting get, layouts), compiled against `cmqc.h` with `-Wall -Wextra -Werror` (the
//! layout checks also as C++), run against a real `ferry qm start` through both libraries —
//! libmqm_r.so over the local socket, libmqic_r.so over tcp from MQSERVER.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::Server;

/// Where cargo put libmqm_r.so and libmqic_r.so (this crate's dev-dependencies).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_owned();
    for lib in ["libmqm_r.so", "libmqic_r.so"] {
        assert!(
            dir.join(lib).exists(),
            "{lib} not built in {}",
            dir.display()
        );
    }
    dir
}

fn mqi_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ferry-mqi")
}

/// Compiles `sample` (C, or C++ with `cpp`) linked with `lib` (mqm_r or mqic_r, or none).
fn compile(out_dir: &Path, sample: &str, lib: Option<&str>, cpp: bool) -> PathBuf {
    let src = mqi_dir().join("samples").join(format!("{sample}.c"));
    let out = out_dir.join(format!(
        "{sample}-{}{}",
        lib.unwrap_or("none"),
        if cpp { "-cpp" } else { "" }
    ));
    let mut c = Command::new(if cpp { "c++" } else { "cc" });
    if cpp {
        c.args(["-std=c++17", "-x", "c++"]);
    } else {
        c.arg("-std=c11");
    }
    if lib.is_none() {
        // The header checks (no library): ISO C and C++ as well.
        c.arg("-pedantic");
    }
    c.args(["-Wall", "-Wextra", "-Werror", "-I"])
        .arg(mqi_dir().join("include"))
        .arg(&src)
        .arg("-o")
        .arg(&out);
    if let Some(lib) = lib {
        let dir = lib_dir();
        c.arg("-L")
            .arg(&dir)
            .arg(format!("-l{lib}"))
            .arg(format!("-Wl,-rpath,{}", dir.display()));
    }
    let o = c.output().expect("run the C compiler");
    assert!(
        o.status.success(),
        "compiling {sample}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn run(exe: &Path, args: &[&str], env: &[(&str, String)], stdin: &str) -> (bool, String) {
    let mut c = Command::new(exe);
    // cargo's test environment may put target/debug, where an older copy of the libraries can
    // lie, on LD_LIBRARY_PATH ahead of the rpath: name the libraries under test.
    c.args(args)
        .env("LD_LIBRARY_PATH", lib_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    // A program that stops early (a failed MQCONN) closes its stdin: that is not our failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let o = child.wait_with_output().unwrap();
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// What a program using libmqm_r.so needs: the queue manager's home.
fn local_env(server: &Server) -> [(&'static str, String); 1] {
    [("FERRY_HOME", server.root.display().to_string())]
}

/// What a program using libmqic_r.so needs: MQSERVER, and the user and password it sends.
fn client_env(server: &Server) -> [(&'static str, String); 3] {
    [
        (
            "MQSERVER",
            format!(
                "DEV.APP.SVRCONN/TCP/{}",
                server.tcp_addr().replacen(':', "(", 1) + ")"
            ),
        ),
        // The samples pass no MQCSP: the client library takes these (CHCKCLNT is REQUIRED).
        ("FERRY_USER", common::TEST_USER.to_owned()),
        ("FERRY_PASSWORD", common::TEST_PASSWORD.to_owned()),
    ]
}

fn admin(server: &Server, script: &str) {
    let mut c = ferry_client::Connection::connect(&server.unix, "mqi-test").unwrap();
    for r in c.admin(script).unwrap() {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

#[test]
fn the_header_compiles_cleanly_as_c_and_cpp_with_the_documented_layouts() {
    let out = std::env::temp_dir().join(format!("ferry-mqi-layout-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    for cpp in [false, true] {
        for check in ["layout", "structs_check"] {
            let exe = compile(&out, check, None, cpp);
            let (ok, text) = run(&exe, &[], &[], "");
            assert!(ok, "{check}: {text}");
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn c_samples_put_get_and_request_reply_through_both_libraries() {
    let pki = std::env::temp_dir().join(format!("ferry-mqi-pki-{}", std::process::id()));
    common::make_pki(&pki, &[("qm", &["localhost", "127.0.0.1"])]);
    let tls_port = common::free_port();
    let server = Server::start(
        "mqi",
        &[
            "--tls-listen",
            &format!("127.0.0.1:{tls_port}"),
            "--tls-cert",
            &pki.join("qm.pem").display().to_string(),
            "--tls-key",
            &pki.join("qm.key").display().to_string(),
        ],
    );
    admin(
        &server,
        "DEFINE QLOCAL(APP.REQ)
         DEFINE QLOCAL(APP.REPLY)
         DEFINE QLOCAL(APP.REQ.TCP)
         DEFINE QLOCAL(APP.REPLY.TCP)",
    );
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    let local = local_env(&server);
    let client = client_env(&server);

    // put and get, local library.
    let put = compile(&out, "put", Some("mqm_r"), false);
    let get = compile(&out, "get", Some("mqm_r"), false);
    let (ok, text) = run(
        &put,
        &["DEV.QUEUE.1", "QM1"],
        &local,
        "first line\nsecond line\n",
    );
    assert!(ok && text.contains("put 2 messages"), "{text}");
    // Browse (both libraries) shows them and leaves them.
    for (lib, env) in [("mqm_r", &local[..]), ("mqic_r", &client[..])] {
        let browse = compile(&out, "browse", Some(lib), false);
        let args: &[&str] = if lib == "mqm_r" {
            &["DEV.QUEUE.1", "QM1"]
        } else {
            &["DEV.QUEUE.1"]
        };
        let (ok, text) = run(&browse, args, env, "");
        assert!(
            ok && text.contains("data 'first line'")
                && text.contains("data 'second line'")
                && text.contains("browsed 2 messages; depth still 2"),
            "{lib}: {text}"
        );
    }
    let (ok, text) = run(&get, &["DEV.QUEUE.1", "QM1"], &local, "");
    assert!(ok, "{text}");
    assert!(text.starts_with("first line\nsecond line\n"), "{text}");
    // A queue manager that is not there: the reason, not a crash.
    let (ok, text) = run(&put, &["DEV.QUEUE.1", "NOSUCHQM"], &local, "x\n");
    assert!(
        !ok && text.contains("MQCONN failed with reason 2059"),
        "{text}"
    );
    let (ok, text) = run(&put, &["NO.SUCH.QUEUE", "QM1"], &local, "x\n");
    assert!(
        !ok && text.contains("MQOPEN failed with reason 2085"),
        "{text}"
    );

    // request/reply with every edge case, through each library.
    let rr_local = compile(&out, "rr", Some("mqm_r"), false);
    let (ok, text) = run(&rr_local, &["APP.REQ", "APP.REPLY", "QM1"], &local, "");
    assert!(ok, "local: {text}");
    let rr_client = compile(&out, "rr", Some("mqic_r"), false);
    let (ok, text) = run(&rr_client, &["APP.REQ.TCP", "APP.REPLY.TCP"], &client, "");
    assert!(ok, "client: {text}");
    // Message properties through message handles, each library.
    for (lib, env) in [("mqm_r", &local[..]), ("mqic_r", &client[..])] {
        let props = compile(&out, "props", Some(lib), false);
        let args: &[&str] = if lib == "mqm_r" {
            &["DEV.QUEUE.3", "QM1"]
        } else {
            &["DEV.QUEUE.3"]
        };
        let (ok, text) = run(&props, args, env, "");
        assert!(ok && text.contains("0 failures"), "{lib}: {text}");
        assert!(text.contains("type conversion checked"), "{lib}: {text}");
        assert!(
            text.contains("property app.colour type 1024 length 4"),
            "{text}"
        );
    }
    // A client channel definition (MQCD) instead of MQSERVER.
    let connx = compile(&out, "connx", Some("mqic_r"), false);
    let conname = server.tcp_addr().replacen(':', "(", 1) + ")";
    let ca = pki.join("ca.pem").display().to_string();
    let tls_conname = format!("127.0.0.1({tls_port})");
    let (ok, text) = run(
        &connx,
        &[&conname, "DEV.QUEUE.1", &ca, &tls_conname],
        &client[1..],
        "",
    );
    assert!(ok && text.contains("0 failures"), "{text}");
    let _ = std::fs::remove_dir_all(&pki);
    // The same program as C++.
    let put_cpp = compile(&out, "put", Some("mqic_r"), true);
    let (ok, text) = run(&put_cpp, &["DEV.QUEUE.2"], &client, "from c++\n");
    assert!(ok && text.contains("put 1 messages"), "{text}");
}

#[test]
fn a_message_mover_passes_all_context_on() {
    let server = Server::start("mqi-forward", &[]);
    admin(
        &server,
        "DEFINE QLOCAL(APP.FWD.IN)\nDEFINE QLOCAL(APP.FWD.OUT)",
    );
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    // Put locally (as this OS user), forward over tcp as the test user.
    let put = compile(&out, "put", Some("mqm_r"), false);
    let (ok, text) = run(
        &put,
        &["APP.FWD.IN", "QM1"],
        &local_env(&server),
        "one\ntwo\n",
    );
    assert!(ok, "{text}");
    let forward = compile(&out, "forward", Some("mqic_r"), false);
    let args = ["APP.FWD.IN", "APP.FWD.OUT"];
    let (ok, text) = run(&forward, &args, &client_env(&server), "");
    assert!(
        ok && text.contains("a pass before any get: reason 2098")
            && text.contains("forwarded 2 messages"),
        "{text}"
    );
    let me = Command::new("id").arg("-un").output().unwrap();
    let me = String::from_utf8_lossy(&me.stdout).trim().to_owned();
    assert_ne!(me, common::TEST_USER);
    let mut c = ferry_client::Connection::connect(&server.unix, "mqi-test").unwrap();
    let h = c
        .open_queue("APP.FWD.OUT", ferry_client::OpenOptions::input())
        .unwrap();
    for body in ["one", "two"] {
        let got = c.get(h, &ferry_client::GetOptions::new()).unwrap().message;
        assert_eq!(got.body.as_ref(), body.as_bytes());
        let d = &got.descriptor;
        assert_eq!(
            d.user_id.as_str(),
            me,
            "the putter's identity, not the mover's"
        );
        assert!(d.put_appl_name.as_str().contains("put"), "{d:?}");
    }
}

#[test]
fn the_install_command_lays_out_an_mq_style_prefix_that_builds_find() {
    let prefix = std::env::temp_dir().join(format!("ferry-mqi-prefix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&prefix);
    let o = Command::new(mqi_dir().join("install.sh"))
        .arg("--prefix")
        .arg(&prefix)
        .arg("--lib-dir")
        .arg(lib_dir())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in [
        "inc/cmqc.h",
        "include/cmqc.h",
        "lib64/libmqm_r.so",
        "lib64/libmqic_r.so",
        "lib64/libmqm.so",
        "lib/libmqic.so",
        "lib64/pkgconfig/ferry-mqi.pc",
    ] {
        assert!(prefix.join(f).exists(), "{f} missing");
    }
    // A build the way MQ build scripts do it: -I$MQ/inc -L$MQ/lib64 -lmqm_r.
    let out = prefix.join("sample");
    let o = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(prefix.join("inc"))
        .arg(mqi_dir().join("samples/put.c"))
        .arg("-L")
        .arg(prefix.join("lib64"))
        .arg("-lmqm")
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // And through pkg-config.
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "ferry-mqi"])
        .env("PKG_CONFIG_PATH", prefix.join("lib64/pkgconfig"))
        .output()
        .expect("pkg-config (.ci/run installs it)");
    assert!(
        flags.status.success(),
        "{}",
        String::from_utf8_lossy(&flags.stderr)
    );
    let flags = String::from_utf8_lossy(&flags.stdout).into_owned();
    assert!(
        flags.contains("-lmqm_r") && flags.contains("/inc"),
        "{flags}"
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "cc -Wall -Werror {} -o {} {}",
            mqi_dir().join("samples/get.c").display(),
            prefix.join("get").display(),
            flags.trim()
        ))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&prefix);
}

#[test]
fn a_c_program_subscribes_publishes_and_receives_through_both_libraries() {
    let server = Server::start("mqi-pubsub", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "pubsub", Some(lib), false);
        // Managed and non-durable: what it publishes comes back, then the subscription ends.
        let (ok, text) = run(&exe, &["Sample/News", "QM1"], &env, "first\nsecond\n");
        assert!(
            ok && text.contains("published 2, received 2"),
            "{lib}: {text}"
        );
        assert!(
            text.contains("publication: first") && text.contains("publication: second"),
            "{text}"
        );
        // Durable: kept between runs, it receives what was published while it was away.
        let sub = format!("SAMPLE.{lib}");
        let (ok, text) = run(&exe, &["Sample/Durable", "QM1", &sub], &env, "one\n");
        assert!(ok && text.contains("received 1"), "{lib}: {text}");
        let mut c = ferry_client::Connection::connect(&server.unix, "publisher").unwrap();
        let h = c
            .open(
                &ferry_client::ObjectDescriptor::topic("Sample/Durable"),
                ferry_client::OpenOptions::output(),
            )
            .unwrap();
        c.put(
            h,
            ferry_client::Message::text("while away"),
            &Default::default(),
        )
        .unwrap();
        let (ok, text) = run(&exe, &["Sample/Durable", "QM1", &sub], &env, "");
        assert!(
            ok && text.contains("publication: while away"),
            "{lib}: {text}"
        );
    }
}

#[test]
fn a_c_program_moves_properties_into_an_mqrfh2_and_back() {
    let server = Server::start("mqi-rfh2", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "rfh2", Some(lib), false);
        let (ok, text) = run(&exe, &["QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "StrucId RFH , StrucLength",
            "inner format MQSTR   , md format MQHRF2  ",
            "folder: <usr><colour>blue &lt;&amp;&gt;</colour><count dt='i4'>42</count></usr>",
            "MQBUFMH: data 7 bytes \"payload\", md format MQSTR",
            "colour = blue <&>",
            "count = 42 (type 64)",
            "MQMHBUF without MQMHBO_PROPERTIES_IN_MQRFH2: reason 2501",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
}

#[test]
fn a_c_program_gets_through_a_read_ahead_handle_with_an_ordinary_buffer() {
    let server = Server::start("mqi-readahead", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "readahead", Some(lib), false);
        let (ok, text) = run(&exe, &["DEV.QUEUE.2", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "first: reason 0, length 10, returned 10",
            "too long: reason 2080, length 5000",
            "quiesce with messages buffered: completion 1, reason 2458",
            "truncated: reason 2079, length 5000, returned 100",
            "third: reason 0, length 20, returned 20",
            "none: reason 2033",
            "quiesce with the buffer empty: completion 0, reason 0",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
}

#[test]
fn a_c_program_intercepts_publications_with_subscription_levels() {
    let server = Server::start("mqi-levels", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "intercept", Some(lib), false);
        let topic = format!("Sample/Orders/{lib}");
        let (ok, text) = run(&exe, &[&topic, "raw", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "interceptor got: raw",
            "final got before: (none)",
            "final got after: checked",
            "interceptor got again: (none)",
            "SubLevel 10: reason 2424",
            "PubLevel 10: reason 2173",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
}

#[test]
fn a_c_program_retains_a_publication_and_asks_for_it_again() {
    let server = Server::start("mqi-retain", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "retain", Some(lib), false);
        let topic = format!("Sample/Retained/{lib}");
        let (ok, text) = run(&exe, &[&topic, "1.25", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "retained: 1.25",
            "on subscribing: 1",
            "MQSUBRQ sent 1",
            "again: 1.25",
            "selected: 0",
            "MQSUBRQ with the selector: reason 2437",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
}

#[test]
fn a_c_program_opens_a_queue_with_a_selection_string_and_gets_only_what_it_selects() {
    let server = Server::start("mqi-select", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let mut c = ferry_client::Connection::connect(&server.unix, "putter").unwrap();
        let h = c
            .open_queue("DEV.QUEUE.2", ferry_client::OpenOptions::output())
            .unwrap();
        for (i, region) in ["APAC", "EMEA", "AMER", "EMEA"].iter().enumerate() {
            let mut m = ferry_client::Message::text(&format!("{lib}-{i}"));
            m.properties
                .set(
                    "region",
                    ferry_client::PropertyValue::String((*region).into()),
                )
                .unwrap();
            c.put(h, m, &ferry_client::PutOptions::default()).unwrap();
        }
        let exe = compile(&out, "select", Some(lib), false);
        let (ok, text) = run(&exe, &["DEV.QUEUE.2", "region = 'EMEA'", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        assert!(
            text.contains(&format!(
                "selected: {lib}-1\nselected: {lib}-3\ngot 2 selected"
            )),
            "{lib}: {text}"
        );
        let (ok, text) = run(&exe, &["DEV.QUEUE.2", "region = = 'x'", "QM1"], &env, "");
        assert!(!ok && text.contains("reason 2459"), "{lib}: {text}");
        // The two it passed over are still there.
        let g = c
            .open_queue("DEV.QUEUE.2", ferry_client::OpenOptions::input())
            .unwrap();
        let left = std::iter::from_fn(|| c.get(g, &ferry_client::GetOptions::new()).ok()).count();
        assert_eq!(left, 2, "{lib}");
    }
}

#[test]
fn a_c_program_consumes_asynchronously_with_mqcb_and_mqctl() {
    let server = Server::start("mqi-consume", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "consume", Some(lib), false);
        for mode in ["wait", "thread"] {
            let mut c = ferry_client::Connection::connect(&server.unix, "putter").unwrap();
            let h = c
                .open_queue("DEV.QUEUE.3", ferry_client::OpenOptions::output())
                .unwrap();
            for i in 0..3 {
                let m = ferry_client::Message::text(&format!("{lib}-{mode}-{i}"));
                c.put(h, m, &ferry_client::PutOptions::default()).unwrap();
            }
            let (ok, text) = run(&exe, &["DEV.QUEUE.3", "3", "QM1", mode], &env, "");
            assert!(ok, "{lib} {mode}: {text}");
            assert!(
                text.contains("MQCTL start with no consumer: reason 2448"),
                "{text}"
            );
            let suspended = "START_WAIT with every consumer suspended: reason 2446";
            assert!(text.contains(suspended), "{text}");
            assert!(
                !text.contains("call type"),
                "no failed gets reach the consumer: {text}"
            );
            if mode == "thread" {
                assert!(
                    text.contains("deregister after close: reason 2448"),
                    "{text}"
                );
            }
            for i in 0..3 {
                let line = format!("consumed: {lib}-{mode}-{i} (area mine)");
                assert!(text.contains(&line), "{lib} {mode}: {text}");
            }
            assert!(
                text.contains("consumed 3 messages; start calls 1, stop calls 1"),
                "{lib} {mode}: {text}"
            );
        }
    }
}

/// An MQCB consumer that waits is told each time its wait interval passes with no message;
/// the event handler is told when the queue manager stops under the connection.
#[test]
fn a_c_programs_event_handler_and_waiting_consumer_are_called() {
    for lib in ["mqm_r", "mqic_r"] {
        let server = Server::start(&format!("mqi-events-{lib}"), &[]);
        let out = server.root.join("c");
        std::fs::create_dir_all(&out).unwrap();
        let env = if lib == "mqm_r" {
            local_env(&server).to_vec()
        } else {
            client_env(&server).to_vec()
        };
        let exe = compile(&out, "events", Some(lib), false);
        let log = out.join("events.out");
        let mut c = Command::new(&exe);
        c.args(["DEV.QUEUE.2", "QM1"])
            .env("LD_LIBRARY_PATH", lib_dir())
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(Stdio::inherit());
        for (k, v) in &env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        let text = || std::fs::read_to_string(&log).unwrap_or_default();
        common::eventually("two idle calls", || {
            text().matches("idle: call type 5 reason 2033").count() >= 2
        });
        let pid = server.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(std::time::Instant::now() < deadline, "{lib}: {}", text());
            std::thread::sleep(Duration::from_millis(50));
        };
        let t = text();
        assert!(status.success(), "{lib}: {t}");
        let told = [2009, 2161, 2162, 2202, 2203]
            .iter()
            .any(|r| t.contains(&format!("event: call type 5 reason {r} area events")));
        assert!(
            told,
            "{lib}: the event handler hears the queue manager go: {t}"
        );
        assert!(!t.contains("consumer: call type"), "{lib}: {t}");
    }
}

#[test]
fn a_c_program_asks_for_confirmations_of_arrival_and_delivery_and_gets_them() {
    let server = Server::start("mqi-report", &[]);
    admin(&server, "DEFINE QLOCAL(APP.REPORTS)");
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "report", Some(lib), false);
        let (ok, text) = run(&exe, &["DEV.QUEUE.1", "APP.REPORTS", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        assert!(
            text.contains("got the message back, Report kept\n")
                && text.contains(
                    "report: MsgType 4 Feedback MQFB_COA CorrelId = MsgId data 0 bytes\n"
                )
                && text.contains(
                    "report: MsgType 4 Feedback MQFB_COD CorrelId = MsgId data 100 bytes\n"
                )
                && text.contains("2 reports"),
            "{lib}: {text}"
        );
    }
}

#[test]
fn a_c_client_finds_its_queue_manager_in_a_json_ccdt() {
    let server = Server::start("mqi-ccdt", &[]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    let dead = common::free_port();
    let port = server.tcp_addr().rsplit(':').next().unwrap().to_owned();
    // QM1's channel lists a dead address first: the client goes on to the next. Trailing
    // commas, as MQ's own examples have them, are accepted.
    let table = format!(
        r#"{{"channel": [
          {{"name": "DEV.APP.SVRCONN", "type": "clientConnection",
            "clientConnection": {{"connection": [{{"host": "127.0.0.1", "port": {dead}}},
                                                 {{"host": "127.0.0.1", "port": {port}}},],
                                  "queueManager": "QM1"}}}},
          {{"name": "ELSEWHERE", "clientConnection": {{"connection": [{{"host": "127.0.0.1", "port": {dead}}}],
                                                      "queueManager": "QM9"}}}}
        ]}}"#
    );
    std::fs::write(out.join("ccdt.json"), table).unwrap();
    std::fs::write(out.join("binary.tab"), [0u8, 1, 2, 0xff]).unwrap();
    let env = |tab: &str| {
        vec![
            ("MQCHLLIB", out.display().to_string()),
            ("MQCHLTAB", tab.to_owned()),
            ("FERRY_USER", common::TEST_USER.to_owned()),
            ("FERRY_PASSWORD", common::TEST_PASSWORD.to_owned()),
        ]
    };
    let put = compile(&out, "put", Some("mqic_r"), false);
    let (ok, text) = run(
        &put,
        &["DEV.QUEUE.1", "QM1"],
        &env("ccdt.json"),
        "through the ccdt\n",
    );
    assert!(ok && text.contains("put 1 messages"), "{text}");
    assert_eq!(
        common::display(&server, "DISPLAY QLOCAL(DEV.QUEUE.1) CURDEPTH", "CURDEPTH").as_deref(),
        Some("1")
    );
    let (ok, text) = run(&put, &["DEV.QUEUE.1", "QM7"], &env("ccdt.json"), "x\n");
    assert!(
        !ok && text.contains("reason 2058"),
        "no channel for QM7: {text}"
    );
    let (ok, text) = run(&put, &["DEV.QUEUE.1", "QM9"], &env("ccdt.json"), "x\n");
    assert!(
        !ok && text.contains("reason 2059"),
        "QM9's address is dead: {text}"
    );
    let (ok, text) = run(&put, &["DEV.QUEUE.1", "QM1"], &env("binary.tab"), "x\n");
    assert!(
        !ok && text.contains("reason 2278") && text.contains("binary table format is not read"),
        "{text}"
    );
    // MQCNO version 6 names the table itself (CCDTUrl), with no MQCHLLIB/MQCHLTAB.
    let url = compile(&out, "ccdturl", Some("mqic_r"), false);
    let creds = &env("ccdt.json")[2..];
    let file_url = format!("file://{}", out.join("ccdt.json").display());
    let (ok, text) = run(&url, &[&file_url, "QM1", "DEV.QUEUE.1"], creds, "");
    assert!(ok && text.contains("MQPUT completion 0 reason 0"), "{text}");
    let (ok, text) = run(
        &url,
        &["https://example.invalid/ccdt.json", "QM1", "DEV.QUEUE.1"],
        creds,
        "",
    );
    assert!(
        !ok && text.contains("reason 2278") && text.contains("only file://"),
        "{text}"
    );
    // The local library without a local QM1 in its home connects as a client through it too.
    let put_local = compile(&out, "put", Some("mqm_r"), false);
    let mut local = env("ccdt.json");
    local.push(("FERRY_HOME", out.display().to_string()));
    let (ok, text) = run(&put_local, &["DEV.QUEUE.1", "QM1"], &local, "and again\n");
    assert!(ok && text.contains("put 1 messages"), "{text}");
}

/// Every entry point the headers declare is exported by both libraries: a C program taking the
/// address of each links against libmqm_r and libmqic_r and calls MQXEP and mqExecute, which
/// FerryMQ cannot honour, to see 2298.
#[test]
fn every_entry_point_the_headers_declare_links_against_both_libraries() {
    let include = mqi_dir().join("include");
    let mut names = std::collections::BTreeSet::new();
    for h in ["cmqc.h", "cmqxc.h", "cmqbc.h"] {
        let text = std::fs::read_to_string(include.join(h)).unwrap();
        for l in text.lines() {
            let Some(rest) = l.strip_prefix("void ") else {
                continue;
            };
            let rest = rest.strip_prefix("MQENTRY ").unwrap_or(rest);
            if let Some((name, _)) = rest.split_once('(') {
                if name.starts_with("MQ") || name.starts_with("mq") {
                    names.insert(name.to_owned());
                }
            }
        }
    }
    assert!(names.len() >= 60, "{names:?}");
    let refs: Vec<String> = names
        .iter()
        .map(|n| format!("    (void (*)(void))&{n},"))
        .collect();
    let src = format!(
        "#include <stdio.h>\n#include \"cmqc.h\"\n#include \"cmqxc.h\"\n#include \"cmqbc.h\"\n\
         static void (*const entries[])(void) = {{\n{}\n}};\n\
         int main(void) {{\n    MQLONG cc = 0, rc = 0;\n\
         MQXEP(NULL, 0, 0, NULL, NULL, &cc, &rc);\n    printf(\"MQXEP %d %d\\n\", (int)cc, (int)rc);\n\
         mqExecute(MQHC_UNUSABLE_HCONN, 0, 0, 0, 0, 0, 0, &cc, &rc);\n\
         printf(\"mqExecute %d %d\\n\", (int)cc, (int)rc);\n\
         printf(\"%d entry points\\n\", (int)(sizeof(entries) / sizeof(entries[0])));\n    return 0;\n}}\n",
        refs.join("\n")
    );
    let out = std::env::temp_dir().join(format!("ferry-mqi-entries-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let c = out.join("entries.c");
    std::fs::write(&c, src).unwrap();
    for lib in ["mqm_r", "mqic_r"] {
        let exe = out.join(format!("entries-{lib}"));
        let o = Command::new("cc")
            .args([
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-Wno-cast-function-type",
                "-I",
            ])
            .arg(&include)
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .arg("-L")
            .arg(lib_dir())
            .arg(format!("-l{lib}"))
            .arg(format!("-Wl,-rpath,{}", lib_dir().display()))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{lib}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let (ok, text) = run(&exe, &[], &[], "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "MQXEP 2 2298",
            "mqExecute 2 2298",
            &format!("{} entry points", names.len()),
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
        assert!(
            text.contains("MQXEP is not offered by FerryMQ"),
            "{lib}: the log line: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// MQSET of a queue's trigger attributes, the character one too, through both libraries;
/// MQINQ of a remote queue definition and of the queue manager's alteration date.
#[test]
fn a_c_program_sets_trigger_attributes_and_inquires_a_remote_definition() {
    let server = Server::start("mqi-trigset", &[]);
    admin(
        &server,
        "DEFINE QLOCAL(APP.TRIG) INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE)\n\
         DEFINE QLOCAL(QM2.XMIT) USAGE(XMITQ)\n\
         DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2.XMIT)",
    );
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "trigset", Some(lib), false);
        let (ok, text) = run(&exe, &["APP.TRIG", "APP.FAR", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "depth 0: reason 2076",
            "short data: reason 2006",
            "control 1 type 3 depth 5",
            "data: run-me --now",
            "remote type 6",
            "rname: APP.IN",
            "rqmname: QM2",
            "xmitq: QM2.XMIT",
            "qmgr altered: 10 characters",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
    let mut c = ferry_client::Connection::connect(&server.unix, "mqi-test").unwrap();
    let r = c
        .admin("DISPLAY QLOCAL(APP.TRIG) TRIGGER TRIGTYPE TRIGDPTH TRIGDATA")
        .unwrap();
    let shown: Vec<(String, Option<String>)> = r[0].messages[0]
        .fields
        .iter()
        .map(|f| (f.key.clone(), f.value.clone()))
        .collect();
    for (key, value) in [
        ("TRIGGER", None),
        ("TRIGTYPE", Some("DEPTH")),
        ("TRIGDPTH", Some("5")),
        ("TRIGDATA", Some("run-me --now")),
    ] {
        let want = (key.to_owned(), value.map(str::to_owned));
        assert!(shown.contains(&want), "no {want:?} in {shown:?}");
    }
}

/// A trigger monitor in C (as runmqtrm): started late it is sent the trigger message of a
/// queue already waiting (FIRST), then one for each message put while it runs (EVERY).
#[test]
fn a_c_trigger_monitor_receives_trigger_messages() {
    let server = Server::start("mqi-trigmon", &[]);
    admin(
        &server,
        "DEFINE QLOCAL(APP.INITQ) LIKE(SYSTEM.DEFAULT.INITIATION.QUEUE)\n\
         DEFINE PROCESS(APP.PROC) APPLTYPE(UNIX) APPLICID('/opt/app/serve') ENVRDATA('&') USERDATA('--fast')\n\
         DEFINE QLOCAL(APP.FIRST) TRIGGER TRIGTYPE(FIRST) INITQ(APP.INITQ) PROCESS(APP.PROC) TRIGDATA('first data')\n\
         DEFINE QLOCAL(APP.EVERY) TRIGGER TRIGTYPE(EVERY) INITQ(APP.INITQ) PROCESS(APP.PROC) TRIGDATA('every data')",
    );
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    let put = |q: &str| {
        let mut c = ferry_client::Connection::connect(&server.unix, "mqi-test").unwrap();
        let h = c
            .open_queue(q, ferry_client::OpenOptions::output())
            .unwrap();
        c.put(h, ferry_client::Message::text("work"), &Default::default())
            .unwrap();
    };
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        put("APP.FIRST");
        let exe = compile(&out, "trigmon", Some(lib), false);
        let every = std::thread::scope(|s| {
            let monitor = s.spawn(|| run(&exe, &["APP.INITQ", "2", "QM1"], &env, ""));
            std::thread::sleep(std::time::Duration::from_millis(700));
            put("APP.EVERY");
            monitor.join().unwrap()
        });
        let (ok, text) = every;
        assert!(ok, "{lib}: {text}");
        for want in [
            "persistent: 0",
            "queue: APP.FIRST",
            "trigger data: first data",
            "queue: APP.EVERY",
            "trigger data: every data",
            "process: APP.PROC",
            "appl type:    6",
            "appl id: /opt/app/serve",
            "env data: &",
            "user data: --fast",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
        let mut c = ferry_client::Connection::connect(&server.unix, "mqi-test").unwrap();
        c.admin("CLEAR QLOCAL(APP.FIRST)\nCLEAR QLOCAL(APP.EVERY)")
            .unwrap();
    }
}

#[test]
fn a_c_program_inquires_a_namelist_and_a_process_definition() {
    let server = Server::start("mqi-namelist", &[]);
    admin(
        &server,
        "DEFINE NAMELIST(APP.NL) NAMES(APP.IN, APP.OUT, APP.DLQ) DESCR('queues of app')\n\
         DEFINE PROCESS(APP.PROC) APPLTYPE(UNIX) APPLICID('/opt/app/bin/start') USERDATA('--fast')",
    );
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    for (lib, env) in [
        ("mqm_r", local_env(&server).to_vec()),
        ("mqic_r", client_env(&server).to_vec()),
    ] {
        let exe = compile(&out, "inqnl", Some(lib), false);
        let (ok, text) = run(&exe, &["APP.NL", "APP.PROC", "QM1"], &env, "");
        assert!(ok, "{lib}: {text}");
        for want in [
            "names: 3",
            "name: APP.IN\nname: APP.OUT\nname: APP.DLQ",
            "description: queues of app",
            "open for output: reason 2045",
            "unknown namelist: reason 2085",
            "appl type: 6",
            "appl id: /opt/app/bin/start",
            "user data: --fast",
            "altered: 10 characters",
        ] {
            assert!(text.contains(want), "{lib}: no {want:?} in {text}");
        }
    }
}

/// The client library over QUIC: MQSERVER=CHANNEL/QUIC/host(port) reaches a queue manager's
/// `quic_listen` (a self-signed certificate: no TLS options needed), authenticated as over TCP.
#[test]
fn a_c_client_program_puts_and_gets_over_quic_from_mqserver() {
    let port = common::free_port();
    let server = Server::start("mqi-quic", &["--quic-listen", &format!("127.0.0.1:{port}")]);
    let out = server.root.join("c");
    std::fs::create_dir_all(&out).unwrap();
    let mut env = client_env(&server);
    env[0].1 = format!("DEV.APP.SVRCONN/QUIC/127.0.0.1({port})");
    let put = compile(&out, "put", Some("mqic_r"), false);
    let get = compile(&out, "get", Some("mqic_r"), false);
    let (ok, text) = run(&put, &["DEV.QUEUE.1"], &env, "over quic\nand back\n");
    assert!(ok && text.contains("put 2 messages"), "{text}");
    let (ok, text) = run(&get, &["DEV.QUEUE.1"], &env, "");
    assert!(ok && text.starts_with("over quic\nand back\n"), "{text}");
    // A wrong password is refused over QUIC as over TCP.
    env[2].1 = "not-the-password".to_owned();
    let (ok, text) = run(&put, &["DEV.QUEUE.1"], &env, "x\n");
    assert!(!ok && text.contains("2035"), "{text}");
}
