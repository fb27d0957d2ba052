//! Real MQ clients that no one here wrote, built against FerryMQ's MQI headers and libraries
//! and run against a real `ferry qm start`:
//!
//! - pymqi 1.12.13 from PyPI: its C extension compiled against `cmqc.h`, `cmqxc.h`,
//!   `cmqcfc.h` and `cmqbc.h` (installed by `install.sh` under a temporary prefix), linked with
//!   `libmqic_r.so`, then `tests/clients/pymqi_examples.py` — pymqi's put, get,
//!   request/reply and message-property examples — over tcp.
//! - the Go module github.com/ibm-messaging/mq-golang/v5 (pinned), built with cgo against the
//!   same prefix; `tests/clients/mqgo/main.go` puts and gets a message through it.
//!
//! They need the network once (PyPI and the Go module proxy; the downloads are cached under
//! cargo's target tmp dir) and Python's headers and a Go toolchain, so they are ignored by a
//! plain `cargo test`; `.ci/run` installs what they need and runs them with `--ignored`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Server;

const PYMQI_VERSION: &str = "1.12.13";

/// Where cargo put libmqm_r.so and libmqic_r.so (this crate's dev-dependencies).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_owned()
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// Downloads survive between runs here.
fn cache_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("clients-cache");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `c`, failing the test with its output unless it succeeds; returns stdout + stderr.
fn checked(c: &mut Command, what: &str) -> String {
    let o = c
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {c:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{what} failed ({}):\n{text}", o.status);
    text
}

/// Installs the headers and libraries with `install.sh` under `prefix`, as a user would.
fn install(prefix: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ferry-mqi/install.sh");
    checked(
        Command::new("bash")
            .arg(script)
            .arg("--prefix")
            .arg(prefix)
            .arg("--lib-dir")
            .arg(lib_dir()),
        "install.sh",
    );
}

/// `host(port)` of the server's tcp listener, as MQ connection names are written.
fn conn_name(server: &Server) -> String {
    let (host, port) = server.tcp_addr().rsplit_once(':').unwrap();
    format!("{host}({port})")
}

#[test]
#[ignore = "needs PyPI once and Python headers; .ci/run runs it"]
fn pymqi_from_pypi_builds_against_the_headers_and_its_examples_run() {
    let server = Server::start("pymqi", &[]);
    let work = server.root.join("pymqi");
    let prefix = work.join("prefix");
    install(&prefix);

    let sdist = cache_dir().join(format!("pymqi-{PYMQI_VERSION}.tar.gz"));
    if !sdist.exists() {
        checked(
            Command::new("python3")
                .args(["-m", "pip", "download", "--no-deps", "--no-binary", ":all:"])
                .arg(format!("pymqi=={PYMQI_VERSION}"))
                .arg("-d")
                .arg(cache_dir()),
            "downloading pymqi from PyPI (pip download)",
        );
    }
    checked(
        Command::new("tar")
            .arg("xzf")
            .arg(&sdist)
            .arg("-C")
            .arg(&work),
        "unpacking pymqi",
    );
    let src = work.join(format!("pymqi-{PYMQI_VERSION}"));
    // pymqi's setup.py finds an MQ installation through MQ_FILE_PATH (inc/ and lib64/); it
    // builds in client mode (libmqic_r) by default.
    let build = checked(
        Command::new("python3")
            .args(["setup.py", "build_ext", "--inplace"])
            .current_dir(&src)
            .env("MQ_FILE_PATH", &prefix),
        "building pymqi's C extension against FerryMQ's headers",
    );
    let header_warnings: Vec<&str> = build
        .lines()
        .filter(|l| l.contains("/inc/cmq") && l.contains("warning"))
        .collect();
    assert!(
        header_warnings.is_empty(),
        "FerryMQ's headers warn inside pymqi's build:\n{}",
        header_warnings.join("\n")
    );

    let out = checked(
        Command::new("python3")
            .arg(tests_dir().join("pymqi_examples.py"))
            .arg(&server.qm)
            .arg(conn_name(&server))
            .env("PYTHONPATH", src.join("code"))
            .env("LD_LIBRARY_PATH", prefix.join("lib64"))
            .env("FERRY_TEST_USER", common::TEST_USER)
            .env("FERRY_TEST_PASSWORD", common::TEST_PASSWORD)
            .env("FERRY_USER", common::TEST_USER)
            .env("FERRY_PASSWORD", common::TEST_PASSWORD)
            .env_remove("MQSERVER"),
        "pymqi's examples",
    );
    assert!(out.contains("pymqi examples: all passed"), "{out}");
}

/// One way of running the Go program: what it shows, its arguments, its environment.
type Run<'a> = (&'a str, Vec<String>, Vec<(&'a str, String)>);

#[test]
#[ignore = "needs the Go module proxy once and a Go toolchain; .ci/run runs it"]
fn mq_golang_builds_with_cgo_against_the_headers_and_puts_and_gets() {
    let server = Server::start("mqgo", &[]);
    let work = server.root.join("mqgo");
    let prefix = work.join("prefix");
    install(&prefix);

    // mq-golang's cgo lines name /opt/mqm; CGO_CFLAGS / CGO_LDFLAGS point it at the prefix
    // instead (its README's way), and it links -lmqm_r. The module version is pinned in
    // tests/clients/mqgo/go.mod and go.sum.
    let exe = work.join("mqgo-test");
    checked(
        Command::new("go")
            .args(["build", "-o"])
            .arg(&exe)
            .arg(".")
            .current_dir(tests_dir().join("mqgo"))
            .env("CGO_ENABLED", "1")
            .env("CGO_CFLAGS", format!("-I{}", prefix.join("inc").display()))
            .env(
                "CGO_LDFLAGS",
                format!(
                    "-L{lib} -Wl,-rpath,{lib}",
                    lib = prefix.join("lib64").display()
                ),
            )
            .env("GOTOOLCHAIN", "local")
            .env("GOFLAGS", "-mod=mod"),
        "building mq-golang v5.6.0 with cgo against FerryMQ's headers",
    );

    let elsewhere = work.join("no-local-queue-managers");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let runs: [Run; 3] = [
        (
            // libmqm_r with no local queue manager of that name and MQSERVER set connects as a
            // client, as MQ's server library does: how Go users usually connect.
            "MQSERVER through libmqm_r",
            vec![],
            vec![
                ("FERRY_HOME", elsewhere.display().to_string()),
                (
                    "MQSERVER",
                    format!("DEV.APP.SVRCONN/TCP/{}", conn_name(&server)),
                ),
            ],
        ),
        (
            "an MQCD passed to MQCONNX",
            vec!["-conn".to_owned(), conn_name(&server)],
            vec![("FERRY_HOME", elsewhere.display().to_string())],
        ),
        (
            "the local socket",
            vec![],
            vec![("FERRY_HOME", server.root.display().to_string())],
        ),
    ];
    for (how, args, env) in runs {
        let mut c = Command::new(&exe);
        c.args(["-qmgr", &server.qm])
            .args(&args)
            .env_remove("MQSERVER")
            .env_remove("FERRY_CONNECT")
            .env("FERRY_MQI_LOG", "1") // failing calls' details on stderr, shown on failure
            // The program passes no MQCSP; the client library takes these (CHCKCLNT REQUIRED).
            .env("FERRY_USER", common::TEST_USER)
            .env("FERRY_PASSWORD", common::TEST_PASSWORD)
            // cargo's test environment puts target/debug first on LD_LIBRARY_PATH, where an
            // older copy of the libraries may lie; the installed ones are the ones under test.
            .env("LD_LIBRARY_PATH", prefix.join("lib64"));
        for (k, v) in env {
            c.env(k, v);
        }
        let out = checked(&mut c, &format!("mq-golang test program over {how}"));
        assert!(out.contains("mq-golang: all passed"), "{how}:\n{out}");
    }
}
