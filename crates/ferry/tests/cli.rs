//! End-to-end tests of the real `ferry` binary, each in its own temporary FerryMQ home.
//!
//! Every wait is bounded: commands run with a deadline and are killed (failing the test) if they
//! overrun, and a background `qm start` is killed when its guard drops.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ferry");
/// Generous: the machine may be busy compiling other things.
const DEADLINE: Duration = Duration::from_secs(60);

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A temporary directory holding a FerryMQ home (`home/`) and captured output (`io/`).
struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    fn new(tag: &str) -> Sandbox {
        let root = std::env::temp_dir().join(format!(
            "ferry-cli-{tag}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("io")).unwrap();
        Sandbox { root }
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    fn qm_dir(&self, name: &str) -> PathBuf {
        self.home().join("qmgrs").join(name)
    }

    /// A `ferry` command with this sandbox's home in FERRY_HOME, output going to files.
    fn command(&self, args: &[&str]) -> (Command, PathBuf, PathBuf) {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let out = self.root.join("io").join(format!("{n}.out"));
        let err = self.root.join("io").join(format!("{n}.err"));
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .env("FERRY_HOME", self.home())
            .env_remove("FERRY_LOG")
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&err).unwrap());
        (cmd, out, err)
    }

    /// Runs `ferry args` with `input` on stdin, to completion (bounded).
    fn run(&self, args: &[&str], input: &str) -> Output {
        let (mut cmd, out, err) = self.command(args);
        let mut child = cmd.stdin(Stdio::piped()).spawn().unwrap();
        {
            let mut stdin = child.stdin.take().unwrap();
            // A command that fails early closes its stdin; that is not this test's concern.
            let _ = stdin.write_all(input.as_bytes());
        }
        let status = wait_bounded(&mut child, DEADLINE).unwrap_or_else(|| {
            panic!(
                "ferry {args:?} did not finish within {DEADLINE:?}; stderr: {}",
                read(&err)
            )
        });
        Output {
            status,
            stdout: read(&out),
            stderr: read(&err),
        }
    }

    /// Starts `ferry qm start args...` in the background.
    fn start(&self, args: &[&str]) -> Background {
        let mut all = vec!["qm", "start", "--foreground"];
        all.extend_from_slice(args);
        let (mut cmd, _, err) = self.command(&all);
        let child = cmd.stdin(Stdio::null()).spawn().unwrap();
        Background { child, stderr: err }
    }

    /// Polls `ferry qm list` until `name` shows as running with `pid` (bounded).
    fn wait_running(&self, name: &str, pid: u32, bg: &mut Background) {
        let deadline = Instant::now() + DEADLINE;
        let want = format!("running (pid {pid})");
        loop {
            let list = self.run(&["qm", "list"], "");
            if list
                .stdout
                .lines()
                .any(|l| l.starts_with(name) && l.contains(&want))
            {
                return;
            }
            if let Ok(Some(status)) = bg.child.try_wait() {
                panic!(
                    "qm start exited early with {status}; stderr: {}",
                    read(&bg.stderr)
                );
            }
            assert!(
                Instant::now() < deadline,
                "{name} not shown running within {DEADLINE:?}; list: {}; stderr: {}",
                list.stdout,
                read(&bg.stderr)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // A queue manager a test left running in the background (it failed half way) stops.
        for qm in fs::read_dir(self.home().join("qmgrs"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let _ = Command::new(BIN)
                .args(["qm", "stop"])
                .arg(qm.file_name())
                .env("FERRY_HOME", self.home())
                .output();
        }
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// A background `ferry qm start`; killed on drop if still running.
struct Background {
    child: Child,
    stderr: PathBuf,
}

impl Background {
    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (bounded) for the process to exit.
    fn wait(&mut self) -> ExitStatus {
        wait_bounded(&mut self.child, DEADLINE).unwrap_or_else(|| {
            panic!(
                "qm start did not exit within {DEADLINE:?}; stderr: {}",
                read(&self.stderr)
            )
        })
    }

    fn log(&self) -> String {
        read(&self.stderr)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[derive(Debug)]
struct Output {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Output {
    fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_default()
}

/// Waits for `child` until `limit`; kills it and returns `None` if it overruns.
fn wait_bounded(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn create_then_list_shows_it_stopped() {
    let sb = Sandbox::new("create");
    let out = sb.run(&["qm", "create", "QM1"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(out.stdout.contains("created queue manager QM1"), "{out:?}");
    assert!(sb.qm_dir("QM1").join("qm.toml").is_file());

    let list = sb.run(&["qm", "list"], "");
    assert_eq!(list.code(), Some(0), "{list:?}");
    let line = list
        .stdout
        .lines()
        .find(|l| l.starts_with("QM1"))
        .unwrap_or_else(|| panic!("{list:?}"));
    assert!(line.contains("stopped"), "{line}");
    assert!(
        line.contains(&sb.qm_dir("QM1").display().to_string()),
        "{line}"
    );
}

#[test]
fn creating_twice_fails_with_exit_2_naming_the_queue_manager() {
    let sb = Sandbox::new("twice");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let out = sb.run(&["qm", "create", "QM1"], "");
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.starts_with("ferry: "), "{out:?}");
    assert!(
        out.stderr.contains("MQRC_OBJECT_ALREADY_EXISTS (2100)"),
        "{out:?}"
    );
    assert!(
        out.stderr.contains("queue manager QM1 already exists"),
        "{out:?}"
    );
}

#[test]
fn data_dir_flag_and_home_fallback_choose_where_queue_managers_live() {
    let sb = Sandbox::new("homes");
    let explicit = sb.root.join("elsewhere");
    let out = sb.run(
        &[
            "qm",
            "create",
            "QMX",
            "--data-dir",
            explicit.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(explicit.join("qmgrs/QMX/qm.toml").is_file());
    let list = sb.run(
        &["qm", "list", "--data-dir", explicit.to_str().unwrap()],
        "",
    );
    assert!(list.stdout.contains("QMX"), "{list:?}");
    // FERRY_HOME's list does not see it.
    let list = sb.run(&["qm", "list"], "");
    assert!(!list.stdout.contains("QMX"), "{list:?}");

    // Neither flag nor FERRY_HOME: ~/.ferry.
    let (mut cmd, _, err) = sb.command(&["qm", "create", "QMH"]);
    cmd.env_remove("FERRY_HOME")
        .env("HOME", sb.root.join("user"));
    let mut child = cmd.stdin(Stdio::null()).spawn().unwrap();
    let status = wait_bounded(&mut child, DEADLINE).expect("qm create finished");
    assert!(status.success(), "{}", read(&err));
    assert!(sb.root.join("user/.ferry/qmgrs/QMH/qm.toml").is_file());
}

#[test]
fn invalid_queue_manager_names_are_refused() {
    let sb = Sandbox::new("names");
    for bad in ["..", "a/b", "BAD NAME"] {
        let out = sb.run(&["qm", "create", bad], "");
        assert_eq!(out.code(), Some(2), "{bad}: {out:?}");
        assert!(
            out.stderr.contains("MQRC_Q_MGR_NAME_ERROR (2058)"),
            "{bad}: {out:?}"
        );
    }
    assert!(
        !sb.home().join("qm.toml").exists(),
        "'..' must not escape qmgrs/"
    );
}

#[test]
fn start_list_second_start_put_and_stop() {
    let sb = Sandbox::new("lifecycle");
    // `qm start` creates the queue manager when it does not exist.
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM1", pid, &mut bg);
    assert!(sb.qm_dir("QM1").join("qm.toml").is_file());
    let endpoints = wait_for_file(&sb.qm_dir("QM1").join("endpoints"));
    assert!(endpoints.contains("unix:"), "{endpoints}");
    let tcp = endpoints
        .lines()
        .find(|l| l.starts_with("tcp://127.0.0.1:"))
        .expect("a loopback tcp endpoint")
        .to_owned();

    // A second start of the same queue manager names the running pid.
    let second = sb.run(&["qm", "start", "QM1"], "");
    assert_eq!(second.code(), Some(2), "{second:?}");
    assert!(
        second
            .stderr
            .contains(&format!("already running in process {pid}")),
        "{second:?}"
    );

    // By name, a running queue manager is reached over its local socket...
    let put = sb.run(&["put", "QM1", "DEV.QUEUE.1"], "hello\nworld\n");
    assert_eq!(put.code(), Some(0), "{put:?}");
    assert!(put.stdout.contains("2 messages put"), "{put:?}");
    assert!(
        !put.stderr.contains("embedded"),
        "no embedded note over a socket: {put:?}"
    );
    // ...and by connection string over tcp, as a user added while it runs (tcp clients give
    // a password); the messages outlive the putting process.
    let add = sb.run(&["qm", "user", "add", "QM1", "ops"], "ops-pw\n");
    assert_eq!(add.code(), Some(0), "{add:?}");
    let grant = sb.run(
        &[
            "admin",
            "QM1",
            "-c",
            "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('ops') AUTHADD(CONNECT)\nSET AUTHREC PROFILE('DEV.QUEUE.1') OBJTYPE(QUEUE) PRINCIPAL('ops') AUTHADD(GET)",
        ],
        "",
    );
    assert_eq!(grant.code(), Some(0), "{grant:?}");
    let anonymous = sb.run(&["get", "--connect", &tcp, "DEV.QUEUE.1"], "");
    assert_eq!(anonymous.code(), Some(2), "{anonymous:?}");
    assert!(anonymous.stderr.contains("2035"), "{anonymous:?}");
    let tcp = tcp.replacen("tcp://", "tcp://ops:ops-pw@", 1);
    let get = sb.run(&["get", "--connect", &tcp, "DEV.QUEUE.1"], "");
    assert_eq!(get.code(), Some(0), "{get:?}");
    assert_eq!(get.stdout, "hello\nworld\n");

    // An explicit embedded connection cannot host a queue manager another process runs.
    let url = format!("embedded:{}", sb.qm_dir("QM1").display());
    let put = sb.run(&["put", "--connect", &url, "DEV.QUEUE.1"], "x\n");
    assert_eq!(put.code(), Some(2), "{put:?}");
    assert!(
        put.stderr
            .contains(&format!("already running in process {pid}")),
        "{put:?}"
    );
    assert!(put.stderr.contains("hint:"), "{put:?}");

    // Stop: SIGTERM, the process exits 0 and lets go of the lock.
    let stop = sb.run(&["qm", "stop", "QM1"], "");
    assert_eq!(stop.code(), Some(0), "{stop:?}");
    assert!(
        stop.stdout
            .contains(&format!("queue manager QM1 (process {pid}) stopped")),
        "{stop:?}"
    );
    let status = bg.wait();
    assert_eq!(
        status.code(),
        Some(0),
        "qm start exit: {status}; log: {}",
        bg.log()
    );
    let log = bg.log();
    assert!(
        log.contains("SIGTERM") && log.contains("queue manager stopped"),
        "{log}"
    );

    let list = sb.run(&["qm", "list"], "");
    assert!(
        list.stdout
            .lines()
            .any(|l| l.starts_with("QM1") && l.contains("stopped")),
        "{list:?}"
    );

    // The lock is free again: the queue manager can be hosted embedded.
    let put = sb.run(&["put", "QM1", "DEV.QUEUE.1"], "hello\n");
    assert_eq!(put.code(), Some(0), "{put:?}");

    // Stopping a stopped queue manager is a clear error.
    let again = sb.run(&["qm", "stop", "QM1"], "");
    assert_eq!(again.code(), Some(2), "{again:?}");
    assert!(
        again.stderr.contains("queue manager QM1 is not running"),
        "{again:?}"
    );
}

#[test]
fn ctrl_c_stops_a_running_queue_manager_cleanly() {
    let sb = Sandbox::new("sigint");
    assert_eq!(sb.run(&["qm", "create", "QM2"], "").code(), Some(0));
    let mut bg = sb.start(&["QM2", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM2", pid, &mut bg);
    let mut kill = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .spawn()
        .unwrap();
    assert!(wait_bounded(&mut kill, DEADLINE).is_some_and(|s| s.success()));
    let status = bg.wait();
    assert_eq!(status.code(), Some(0), "log: {}", bg.log());
    assert!(bg.log().contains("SIGINT"), "{}", bg.log());
    let list = sb.run(&["qm", "list"], "");
    assert!(list.stdout.contains("stopped"), "{list:?}");
}

#[test]
fn stop_modes_controlled_waits_for_applications_immediate_ends_them_preemptive_kills() {
    let sb = Sandbox::new("stopmodes");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM1", pid, &mut bg);
    // qm list names the network endpoints of a running queue manager.
    let list = sb.run(&["qm", "list"], "");
    assert!(list.stdout.contains("tcp://127.0.0.1:"), "{list:?}");

    // An application stays connected (an admin shell reading its script from a pipe).
    let (mut cmd, _, _) = sb.command(&["admin", "QM1"]);
    let mut app = cmd.stdin(Stdio::piped()).spawn().unwrap();
    let mut app_in = app.stdin.take().unwrap();
    writeln!(app_in, "DISPLAY QMGR QMNAME").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    // Controlled (SIGUSR1, what 'qm stop -c' sends): new connections are refused with
    // QUIESCING while the application stays; the queue manager runs on.
    let kill = Command::new("kill")
        .args(["-USR1", &pid.to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    std::thread::sleep(Duration::from_millis(500));
    let put = sb.run(&["put", "QM1", "DEV.QUEUE.1"], "x\n");
    assert_eq!(put.code(), Some(2), "{put:?}");
    assert!(put.stderr.contains("(2161)"), "{put:?}");
    assert!(bg.child.try_wait().unwrap().is_none(), "{}", bg.log());
    // The application leaves: the queue manager stops by itself.
    drop(app_in);
    assert!(wait_bounded(&mut app, DEADLINE).is_some());
    let status = bg.wait();
    assert_eq!(status.code(), Some(0), "log: {}", bg.log());
    assert!(
        bg.log().contains("every application has disconnected"),
        "{}",
        bg.log()
    );

    // 'qm stop -c' with nobody connected stops at once and says what it did.
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    sb.wait_running("QM1", bg.pid(), &mut bg);
    let stop = sb.run(&["qm", "stop", "-c", "QM1"], "");
    assert_eq!(stop.code(), Some(0), "{stop:?}");
    assert!(
        stop.stdout.contains("quiescing") && stop.stdout.contains("stopped"),
        "{stop:?}"
    );
    assert_eq!(bg.wait().code(), Some(0));

    // Preemptive: killed like a crash; the persistent message put before is there after.
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    sb.wait_running("QM1", bg.pid(), &mut bg);
    let put = sb.run(&["put", "QM1", "DEV.QUEUE.1", "--persistent"], "kept\n");
    assert_eq!(put.code(), Some(0), "{put:?}");
    let stop = sb.run(&["qm", "stop", "--preemptive", "QM1"], "");
    assert_eq!(stop.code(), Some(0), "{stop:?}");
    assert!(stop.stdout.contains("killed"), "{stop:?}");
    assert_eq!(bg.wait().code(), None, "ended by a signal");
    let get = sb.run(&["get", "QM1", "DEV.QUEUE.1"], "");
    assert_eq!(get.code(), Some(0), "{get:?}");
    assert_eq!(get.stdout, "kept\n");
    let list = sb.run(&["qm", "list"], "");
    assert!(
        list.stdout.contains("stopped  listens on 127.0.0.1:"),
        "{list:?}"
    );
}

#[test]
fn stopping_an_unknown_queue_manager_says_how_to_create_it() {
    let sb = Sandbox::new("stopunknown");
    let out = sb.run(&["qm", "stop", "NOPE"], "");
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(
        out.stderr.contains("no queue manager NOPE") && out.stderr.contains("ferry qm create NOPE"),
        "{out:?}"
    );
}

#[test]
fn put_to_an_unknown_queue_exits_2_naming_the_reason() {
    let sb = Sandbox::new("unknownq");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let out = sb.run(&["put", "QM1", "NO.SUCH.QUEUE"], "x\n");
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(
        out.stderr.contains("MQRC_UNKNOWN_OBJECT_NAME (2085)"),
        "{out:?}"
    );
    assert!(out.stderr.contains("NO.SUCH.QUEUE"), "{out:?}");
}

#[test]
fn persistent_messages_outlive_the_process_that_put_them_and_others_do_not() {
    let sb = Sandbox::new("put");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let out = sb.run(
        &["put", "QM1", "DEV.QUEUE.1", "--persistent"],
        "one\ntwo\nthree\n",
    );
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(
        out.stdout.contains("3 messages put to DEV.QUEUE.1"),
        "{out:?}"
    );
    // Non-persistent messages die with the embedded queue manager's process, and it says so.
    let out = sb.run(&["put", "QM1", "DEV.QUEUE.1"], "fleeting\n");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.contains("only until this process exits"),
        "{out:?}"
    );
    // The next process finds the persistent ones, in order, through the recovery log.
    let get = sb.run(&["get", "QM1", "DEV.QUEUE.1"], "");
    assert_eq!(get.code(), Some(0), "{get:?}");
    assert_eq!(get.stdout, "one\ntwo\nthree\n", "{get:?}");
    // ...and their gets were durable too.
    let again = sb.run(&["get", "QM1", "DEV.QUEUE.1"], "");
    assert_eq!(again.stdout, "", "{again:?}");
}

#[test]
fn get_from_an_empty_queue_exits_0_printing_nothing() {
    let sb = Sandbox::new("get");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let out = sb.run(&["get", "QM1", "DEV.QUEUE.2"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "");
    // Waiting is bounded by --wait.
    let started = Instant::now();
    let out = sb.run(&["get", "QM1", "DEV.QUEUE.2", "--wait", "1"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "");
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[test]
fn browse_an_empty_queue_by_name_and_by_connection_string() {
    let sb = Sandbox::new("browse");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let out = sb.run(&["browse", "QM1", "DEV.QUEUE.3"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "");
    let url = format!("embedded:{}", sb.qm_dir("QM1").display());
    let out = sb.run(&["browse", "--connect", &url, "DEV.QUEUE.3"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(out.stdout, "");
}

#[test]
fn message_commands_on_a_missing_queue_manager_or_remote_url_fail_clearly() {
    let sb = Sandbox::new("missing");
    let out = sb.run(&["get", "NOPE", "DEV.QUEUE.1"], "");
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("ferry qm create"), "{out:?}");

    // Port 1 on loopback: nothing listens there.
    let out = sb.run(
        &["put", "--connect", "tcp://127.0.0.1:1", "DEV.QUEUE.1"],
        "x\n",
    );
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(
        out.stderr.contains("MQRC_Q_MGR_NOT_AVAILABLE (2059)"),
        "{out:?}"
    );
    assert!(out.stderr.contains("listening"), "{out:?}");
}

#[test]
fn usage_errors_exit_1_and_help_exits_0() {
    let sb = Sandbox::new("usage");
    for args in [
        &["put"][..],
        &["put", "QM1"][..],
        &["get", "--connect", "embedded:/x", "QM1", "Q"][..],
        &["qm", "frobnicate"][..],
        &["get", "QM1", "Q", "--wait", "soon"][..],
        &[][..],
    ] {
        let out = sb.run(args, "");
        assert_eq!(out.code(), Some(1), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: {out:?}");
    }
    for args in [
        &["--help"][..],
        &["qm", "start", "--help"][..],
        &["browse", "--help"][..],
    ] {
        let out = sb.run(args, "");
        assert_eq!(out.code(), Some(0), "{args:?}: {out:?}");
        assert!(out.stdout.contains("Usage"), "{args:?}: {out:?}");
    }
}

/// Waits (bounded) for a file to appear with content, and returns it.
fn wait_for_file(path: &std::path::Path) -> String {
    let deadline = std::time::Instant::now() + DEADLINE;
    loop {
        if let Ok(s) = std::fs::read_to_string(path) {
            if !s.is_empty() {
                return s;
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Runs `ferry args` on a real pseudo-terminal (util-linux `script`), typing `keys`; what the
/// terminal showed.
fn on_a_terminal(sb: &Sandbox, args: &str, keys: &str) -> Output {
    let script = ["/usr/bin/script", "/bin/script"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("util-linux `script` (package bsdutils) gives the test its pseudo-terminal");
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let (out, err) = (
        sb.root.join(format!("io/t{n}.out")),
        sb.root.join(format!("io/t{n}.err")),
    );
    let mut child = Command::new(script)
        .args(["-qec", &format!("{BIN} {args}"), "/dev/null"])
        .env("FERRY_HOME", sb.home())
        .env("TERM", "xterm")
        .env_remove("FERRY_LOG")
        .stdin(Stdio::piped())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for line in keys.split_inclusive('\n') {
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.flush().unwrap();
            // One line at a time, as a person types: each is answered before the next.
            std::thread::sleep(Duration::from_millis(400));
        }
    }
    let status = wait_bounded(&mut child, DEADLINE).expect("the shell on a terminal finishes");
    Output {
        status,
        stdout: read(&out),
        stderr: read(&err),
    }
}

#[test]
fn the_admin_shell_works_on_a_terminal_and_keeps_its_history() {
    let sb = Sandbox::new("pty-admin");
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM1", pid, &mut bg);
    let first = on_a_terminal(&sb, "admin QM1", "DEFINE QLOCAL(PTY.Q) MAXDEPTH(7)\nEND\n");
    assert_eq!(first.code(), Some(0), "{first:?}");
    assert!(first.stdout.contains("QM1> "), "a prompt: {first:?}");
    assert!(!first.stdout.contains("panicked"), "{first:?}");
    let history = fs::read_to_string(sb.home().join("admin_history")).unwrap();
    assert!(
        history.contains("DEFINE QLOCAL(PTY.Q) MAXDEPTH(7)"),
        "{history}"
    );
    // The next session recalls it with the up arrow: run again, the queue now exists.
    let second = on_a_terminal(&sb, "admin QM1", "\x1b[A\nEND\n");
    assert!(
        second.stdout.contains("AMQ8150E"),
        "the recalled DEFINE ran again: {second:?}"
    );
    let shown = sb.run(
        &["admin", "QM1", "-c", "DISPLAY QLOCAL(PTY.Q) MAXDEPTH"],
        "",
    );
    assert!(shown.stdout.contains("MAXDEPTH(7)"), "{shown:?}");
    // Tab completes the verb, the object type, the queue's name and the attribute.
    let third = on_a_terminal(&sb, "admin QM1", "DISP\t QLOC\t(PTY\t) MAXDE\t\nEND\n");
    assert!(
        third.stdout.contains("DISPLAY QLOCAL(PTY.Q) MAXDEPTH")
            && third.stdout.contains("MAXDEPTH(7)"),
        "{third:?}"
    );
}

#[test]
fn printing_commands_end_quietly_when_the_reader_goes() {
    let sb = Sandbox::new("pipe");
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM1", pid, &mut bg);
    let lines: String = (0..50).map(|i| format!("message {i}\n")).collect();
    assert_eq!(
        sb.run(&["put", "QM1", "DEV.QUEUE.1"], &lines).code(),
        Some(0)
    );
    let script = sb.home().join("show.mqsc");
    fs::write(&script, "DISPLAY QLOCAL(DEV.*)\nDISPLAY QMGR\n").unwrap();
    let script = script.display();
    // Commands that only read: each through `head -n 0` (the reader gone before the first
    // line) and `head -1` (gone after it).
    let reading = [
        "qm list".to_owned(),
        "qm check QM1".into(),
        "status".into(),
        "queues QM1".into(),
        "queues QM1 --watch --interval 0.1".into(),
        "admin QM1 -c 'DISPLAY QUEUE(*)'".into(),
        "admin QM1 --json -c 'DISPLAY QUEUE(*)'".into(),
        "admin QM1 --dump".into(),
        format!("admin QM1 -f {script}"),
        "browse QM1 DEV.QUEUE.1".into(),
        "browse QM1 DEV.QUEUE.1 --dump".into(),
        "unload QM1 DEV.QUEUE.1 --browse".into(),
        "perf put QM1 -d 0.3s --warmup 0s".into(),
        "perf get QM1 -d 0.3s --warmup 0s".into(),
        "perf putget QM1 -d 0.3s --warmup 0s".into(),
        "perf rr QM1 -d 0.3s --warmup 0s".into(),
        "perf forward QM1 -d 0.3s --warmup 0s".into(),
        "perf publish QM1 -d 0.3s --warmup 0s".into(),
        "perf limits -d 0.3s".into(),
        "--help".into(),
        "--version".into(),
    ];
    for args in &reading {
        ends_quietly(&sb, args, "head -n 0");
        ends_quietly(&sb, args, "head -1");
    }
    // Commands that change something: once each, through `head -1`. (QM9 listens on a port
    // of the kernel's choosing: a default one would race the side-by-side test's 1414/1415.)
    for args in [
        "qm create QM9 --listen 127.0.0.1:0",
        "qm start QM9",
        "qm stop QM9",
        "qm delete QM9",
        "put QM1 DEV.QUEUE.2 < /etc/hostname",
        "copy QM1 DEV.QUEUE.1 DEV.QUEUE.3 -n 5",
        "move QM1 DEV.QUEUE.3 DEV.QUEUE.2 -n 2",
    ] {
        ends_quietly(&sb, args, "head -1");
    }
    // A get whose reader has already gone puts the message back: nothing is lost. (Through
    // `head -n 0` the write may win the race and land in the pipe, so the reader is gone first.)
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(BIN)
        .args(["get", "QM1", "DEV.QUEUE.1", "-n", "2"])
        .env("FERRY_HOME", sb.home())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked"),
        "ferry get to a closed pipe: {err}"
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "ferry get to a closed pipe: {err}"
    );
    let q = sb.run(&["queues", "QM1", "DEV.QUEUE.1"], "");
    let row: Vec<&str> = q
        .stdout
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row[1], "50", "{q:?}");
}

/// `ferry ARGS | READER` ends with status 0 and no panic, whenever the reader goes.
fn ends_quietly(sb: &Sandbox, args: &str, reader: &str) {
    let o = Command::new("bash")
        .args(["-c", &format!("set -o pipefail; {BIN} {args} | {reader}")])
        .env("FERRY_HOME", sb.home())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "ferry {args} | {reader}: {err}");
    assert_eq!(o.status.code(), Some(0), "ferry {args} | {reader}: {err}");
}

/// `ferry perf` whose reader goes stops early and still removes what it made: the queue it
/// defined on a running queue manager, the temporary queue manager it hosted.
#[test]
fn perf_cut_short_by_its_reader_removes_what_it_made() {
    let sb = Sandbox::new("perfpipe");
    let mut bg = sb.start(&["QM1", "--listen", "127.0.0.1:0"]);
    let pid = bg.pid();
    sb.wait_running("QM1", pid, &mut bg);
    let tmp = sb.home().join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    for (args, what) in [
        ("perf put QM1 -d 60s --warmup 0s", "against QM1"),
        ("perf put -d 60s --warmup 0s", "hosted"),
    ] {
        let began = Instant::now();
        let o = Command::new("bash")
            .args(["-c", &format!("set -o pipefail; {BIN} {args} | head -1")])
            .env("FERRY_HOME", sb.home())
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{what}: {err}");
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "{what}: a 60 s run went on after its reader left ({:?})",
            began.elapsed()
        );
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(if what == "hosted" {
                "embedded: hosting a queue manager in this process"
            } else {
                "over the local socket"
            }),
            "{what}: the banner names the connection mode: {o:?}"
        );
    }
    let left: Vec<_> = fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "the hosted run left {left:?}");
    let q = sb.run(&["admin", "QM1", "-c", "DISPLAY QLOCAL(PERF*)"], "");
    assert!(
        !q.stdout.contains("QUEUE(PERF"),
        "PERF queues left: {}",
        q.stdout
    );
}

/// An embedded connection carries the account the process runs as, whatever `$USER` says
/// (as a local socket connection does through the socket's credentials).
#[test]
fn embedded_connections_carry_the_processes_account_not_user_from_the_environment() {
    let sb = Sandbox::new("whoami");
    assert_eq!(sb.run(&["qm", "create", "QM1"], "").code(), Some(0));
    let me = Command::new("id").arg("-un").output().unwrap();
    let me = String::from_utf8_lossy(&me.stdout).trim().to_owned();
    let o = Command::new(BIN)
        .args([
            "put",
            "QM1",
            "DEV.QUEUE.1",
            "--persistent",
            "--file",
            "/etc/hostname",
        ])
        .env("FERRY_HOME", sb.home())
        .env("USER", "somebody-else")
        .env("LOGNAME", "somebody-else")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let b = sb.run(&["browse", "QM1", "DEV.QUEUE.1", "--dump"], "");
    assert_eq!(
        dumped(&b.stdout, "UserIdentifier"),
        format!("'{me}'"),
        "{b:?}"
    );
}

/// The `[server] listen` a queue manager was created with.
fn configured_listen(sb: &Sandbox, qm: &str) -> String {
    let toml = fs::read_to_string(sb.qm_dir(qm).join("qm.toml")).unwrap();
    let line = toml
        .lines()
        .find(|l| l.starts_with("listen = "))
        .expect("a listen line");
    line.trim_start_matches("listen = ")
        .trim_matches('"')
        .to_owned()
}

#[test]
fn two_queue_managers_start_side_by_side_with_the_defaults_and_a_clash_names_its_holder() {
    let sb = Sandbox::new("side-by-side");
    for qm in ["QA", "QB"] {
        let out = sb.run(&["qm", "create", qm], "");
        assert_eq!(out.code(), Some(0), "{out:?}");
        assert!(out.stdout.contains("will listen on 127.0.0.1:"), "{out:?}");
    }
    let (a, b) = (configured_listen(&sb, "QA"), configured_listen(&sb, "QB"));
    assert_ne!(a, b, "each gets its own port");
    let mut qa = sb.start(&["QA"]);
    let mut qb = sb.start(&["QB"]);
    let (pa, pb) = (qa.pid(), qb.pid());
    sb.wait_running("QA", pa, &mut qa);
    sb.wait_running("QB", pb, &mut qb);
    // A third given QA's address is refused before it opens anything, naming QA and the flag.
    let made = sb.run(&["qm", "create", "QC", "--listen", &a], "");
    assert_eq!(made.code(), Some(0), "{made:?}");
    let clash = sb.run(&["qm", "start", "QC"], "");
    assert_eq!(clash.code(), Some(1), "{clash:?}");
    assert!(
        clash
            .stderr
            .contains(&format!("in use by queue manager QA (pid {pa})"))
            && clash.stderr.contains("--listen 127.0.0.1:"),
        "{clash:?}"
    );
    assert!(!clash.stderr.contains("queue manager started"), "{clash:?}");
    let bad = sb.run(&["qm", "create", "QD", "--listen", "localhost"], "");
    assert_eq!(bad.code(), Some(1), "{bad:?}");
}

#[test]
fn qm_start_returns_once_the_queue_manager_accepts_connections_and_leaves_it_running() {
    let sb = Sandbox::new("background");
    let started = Instant::now();
    let out = sb.run(&["qm", "start", "QM1", "--listen", "127.0.0.1:0"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(started.elapsed() < DEADLINE);
    assert!(
        out.stdout.contains("queue manager QM1 started (process "),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("listening: tcp://127.0.0.1:"),
        "{out:?}"
    );
    // The command has returned; the queue manager serves on, and answers at once.
    let put = sb.run(&["put", "QM1", "DEV.QUEUE.1"], "still here\n");
    assert_eq!(put.code(), Some(0), "{put:?}");
    let list = sb.run(&["qm", "list"], "");
    assert!(list.stdout.contains("running (pid"), "{list:?}");
    let log = fs::read_to_string(sb.qm_dir("QM1").join("qm.log")).unwrap();
    assert!(log.contains("queue manager started"), "{log}");
    let stop = sb.run(&["qm", "stop", "QM1"], "");
    assert_eq!(stop.code(), Some(0), "{stop:?}");
    let list = sb.run(&["qm", "list"], "");
    assert!(!list.stdout.contains("running (pid"), "{list:?}");
    // A log file of the caller's choosing is where a background start logs.
    let mine = sb.root.join("io/mine.log");
    let args = [
        "qm",
        "start",
        "QM1",
        "--listen",
        "127.0.0.1:0",
        "--log-file",
    ];
    let out = sb.run(&[&args[..], &[mine.to_str().unwrap()]].concat(), "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert!(
        out.stdout.contains(&format!("log: {}", mine.display())),
        "{out:?}"
    );
    let log = fs::read_to_string(&mine).unwrap();
    assert!(log.contains("queue manager started"), "{log}");
    assert_eq!(sb.run(&["qm", "stop", "QM1"], "").code(), Some(0));
}

/// The value of a `--dump` field line (`  Name   value`).
fn dumped(dump: &str, field: &str) -> String {
    let line = dump.lines().find(|l| l.trim_start().starts_with(field));
    let line = line.unwrap_or_else(|| panic!("no {field} in {dump}"));
    line.trim_start()[field.len()..].trim().to_owned()
}

#[test]
fn message_tools_set_every_field_show_it_and_keep_it_through_move_copy_unload_and_load() {
    let sb = Sandbox::new("msgtools");
    let out = sb.run(&["qm", "start", "QM1", "--listen", "127.0.0.1:0"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    let put = sb.run(
        &[
            "put",
            "QM1",
            "DEV.QUEUE.1",
            "--priority",
            "7",
            "--correl-id",
            "order-7",
            "--property",
            "colour=blue",
            "--property",
            "n:i32=5",
            "--expiry",
            "600",
            "--type",
            "request",
            "--reply-to",
            "DEV.QUEUE.3",
        ],
        "hello\nworld\n",
    );
    assert_eq!(put.code(), Some(0), "{put:?}");
    let file = sb.root.join("io/body.bin");
    fs::write(&file, b"\x00\x01binary\xff").unwrap();
    let put = sb.run(
        &[
            "put",
            "QM1",
            "DEV.QUEUE.1",
            "--file",
            file.to_str().unwrap(),
            "--format",
            "NONE",
            "--msg-id",
            "bin-1",
            "--report",
            "exception,pass-msg-id",
            "--reply-to",
            "DEV.QUEUE.3",
            "--feedback",
            "quit",
            "--ccsid",
            "819",
            "--encoding",
            "273",
        ],
        "",
    );
    assert_eq!(put.code(), Some(0), "{put:?}");
    let bin = |q: &str| {
        let b = sb.run(&["browse", "QM1", q, "--dump", "--msg-id", "bin-1"], "");
        assert!(
            dumped(&b.stdout, "MsgId").starts_with("62696e2d31"),
            "{b:?}"
        );
        assert_eq!(
            dumped(&b.stdout, "Report"),
            "0x01000080 (exception,pass-msg-id)",
            "{b:?}"
        );
        assert_eq!(dumped(&b.stdout, "Feedback"), "256", "{b:?}");
        assert_eq!(dumped(&b.stdout, "CodedCharSetId"), "819", "{b:?}");
        assert_eq!(dumped(&b.stdout, "Encoding"), "273", "{b:?}");
    };
    bin("DEV.QUEUE.1");
    let wrong = sb.run(&["put", "QM1", "DEV.QUEUE.1", "--report", "coa,cob"], "x\n");
    assert!(
        wrong.code() != Some(0) && wrong.stderr.contains("\"cob\" is not a report option"),
        "{wrong:?}"
    );

    let b = sb.run(&["browse", "QM1", "DEV.QUEUE.1", "--dump", "-n", "1"], "");
    assert_eq!(dumped(&b.stdout, "Priority"), "7", "{b:?}");
    assert!(
        dumped(&b.stdout, "CorrelId").starts_with("6f726465722d37"),
        "{b:?}"
    );
    assert_eq!(dumped(&b.stdout, "MsgType"), "request (1)");
    assert_eq!(dumped(&b.stdout, "ReplyToQ"), "'DEV.QUEUE.3'");
    assert!(
        b.stdout.contains("colour = \"blue\" (string)") && b.stdout.contains("n = 5 (i32)"),
        "{b:?}"
    );
    assert!(
        b.stdout.contains("6865 6c6c 6f") && !b.stdout.contains("world"),
        "one message: {b:?}"
    );
    let msg_id = dumped(&b.stdout, "MsgId");

    // Unload (leaving them), load into another queue: the same messages, context and all.
    let saved = sb.root.join("io/saved.jsonl");
    let u = sb.run(
        &[
            "unload",
            "QM1",
            "DEV.QUEUE.1",
            "--browse",
            "--file",
            saved.to_str().unwrap(),
        ],
        "",
    );
    assert!(u.stderr.contains("3 messages unloaded (left)"), "{u:?}");
    let l = sb.run(
        &[
            "load",
            "QM1",
            "DEV.QUEUE.2",
            "--file",
            saved.to_str().unwrap(),
        ],
        "",
    );
    assert!(l.stdout.contains("3 messages loaded"), "{l:?}");
    let again = sb.run(&["browse", "QM1", "DEV.QUEUE.2", "--dump"], "");
    assert_eq!(dumped(&again.stdout, "MsgId"), msg_id, "{again:?}");
    bin("DEV.QUEUE.2");
    assert_eq!(dumped(&again.stdout, "PutApplName"), "'ferry put'");
    assert!(
        again.stdout.contains("0001 6269 6e61 7279 ff"),
        "the binary body: {again:?}"
    );

    // Copy two, then move all: the copy leaves them, the move takes them; ids kept.
    let c = sb.run(
        &["copy", "QM1", "DEV.QUEUE.1", "DEV.QUEUE.3", "-n", "2"],
        "",
    );
    assert!(c.stdout.contains("2 messages copied"), "{c:?}");
    let m = sb.run(&["move", "QM1", "DEV.QUEUE.1", "DEV.QUEUE.3"], "");
    assert!(m.stdout.contains("3 messages moved"), "{m:?}");
    let left = sb.run(&["get", "QM1", "DEV.QUEUE.1"], "");
    assert!(left.stderr.contains("0 messages got"), "{left:?}");
    // Getting by correl id takes the two with it, one at a time with -n.
    let one = sb.run(
        &[
            "get",
            "QM1",
            "DEV.QUEUE.3",
            "--correl-id",
            "order-7",
            "-n",
            "1",
        ],
        "",
    );
    assert_eq!(one.stdout, "hello\n", "{one:?}");
    let dumped_get = sb.run(
        &["get", "QM1", "DEV.QUEUE.3", "--msg-id", &msg_id, "--dump"],
        "",
    );
    assert_eq!(
        dumped(&dumped_get.stdout, "MsgId"),
        msg_id,
        "{dumped_get:?}"
    );
    assert_eq!(sb.run(&["qm", "stop", "QM1"], "").code(), Some(0));
}

#[test]
fn a_request_waits_for_its_reply_by_correlation_id() {
    let sb = Sandbox::new("request");
    let out = sb.run(&["qm", "start", "QM1", "--listen", "127.0.0.1:0"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    // The responder: the ferry command line itself, as a script would answer.
    let home = sb.home();
    let responder = std::thread::spawn(move || {
        let run = |args: &[&str], input: &str| {
            let mut c = Command::new(BIN)
                .args(args)
                .env("FERRY_HOME", &home)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
            String::from_utf8(c.wait_with_output().unwrap().stdout).unwrap()
        };
        let req = run(
            &[
                "get",
                "QM1",
                "DEV.QUEUE.1",
                "--wait",
                "20",
                "-n",
                "1",
                "--dump",
            ],
            "",
        );
        let reply_to = dumped(&req, "ReplyToQ").trim_matches('\'').to_owned();
        let msg_id = dumped(&req, "MsgId");
        run(
            &[
                "put",
                "QM1",
                &reply_to,
                "--correl-id",
                &msg_id,
                "--type",
                "reply",
            ],
            "pong\n",
        );
        reply_to
    });
    let r = sb.run(&["request", "QM1", "DEV.QUEUE.1", "--wait", "20"], "ping\n");
    let reply_to = responder.join().unwrap();
    assert_eq!(r.code(), Some(0), "{r:?}");
    assert_eq!(r.stdout, "pong\n", "{r:?}");
    assert!(
        reply_to.starts_with("FERRY.REPLY."),
        "a temporary dynamic queue: {reply_to}"
    );
    // No one answers: a clear reason, and the hint.
    let none = sb.run(&["request", "QM1", "DEV.QUEUE.2", "--wait", "1"], "ping\n");
    assert_eq!(none.code(), Some(2), "{none:?}");
    assert!(
        none.stderr.contains("2033") && none.stderr.contains("no reply came"),
        "{none:?}"
    );
    assert_eq!(sb.run(&["qm", "stop", "QM1"], "").code(), Some(0));
}

#[test]
fn a_queue_manager_is_deleted_only_when_stopped() {
    let sb = Sandbox::new("delete");
    let out = sb.run(&["qm", "start", "QM1", "--listen", "127.0.0.1:0"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    let refused = sb.run(&["qm", "delete", "QM1"], "");
    assert_eq!(refused.code(), Some(2), "{refused:?}");
    assert!(refused.stderr.contains("ferry qm stop QM1"), "{refused:?}");
    assert!(sb.qm_dir("QM1").join("qm.toml").exists());
    assert_eq!(sb.run(&["qm", "stop", "QM1"], "").code(), Some(0));
    let deleted = sb.run(&["qm", "delete", "QM1"], "");
    assert_eq!(deleted.code(), Some(0), "{deleted:?}");
    assert!(!sb.qm_dir("QM1").exists());
    assert!(!sb.run(&["qm", "list"], "").stdout.contains("QM1"));
    let again = sb.run(&["qm", "delete", "QM1"], "");
    assert_eq!(again.code(), Some(2), "{again:?}");
}

#[test]
fn queues_shows_one_line_per_queue_deepest_first_when_asked() {
    let sb = Sandbox::new("queues");
    let out = sb.run(&["qm", "start", "QM1", "--listen", "127.0.0.1:0"], "");
    assert_eq!(out.code(), Some(0), "{out:?}");
    assert_eq!(
        sb.run(&["put", "QM1", "DEV.QUEUE.2"], "a\nb\nc\n").code(),
        Some(0)
    );
    let q = sb.run(&["queues", "QM1", "--sort", "depth"], "");
    assert_eq!(q.code(), Some(0), "{q:?}");
    let lines: Vec<&str> = q.stdout.lines().collect();
    assert!(
        lines[0].starts_with("QUEUE") && lines[0].contains("MAXDEPTH"),
        "{q:?}"
    );
    let first: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&first[..4], ["DEV.QUEUE.2", "3", "5000", "0.1%"], "{q:?}");
    assert!(!q.stdout.contains("SYSTEM."), "{q:?}");
    let all = sb.run(&["queues", "QM1", "--system"], "");
    assert!(all.stdout.contains("SYSTEM.DEAD.LETTER.QUEUE"), "{all:?}");
    let some = sb.run(&["queues", "QM1", "DEV.QUEUE.1"], "");
    assert_eq!(some.stdout.lines().count(), 2, "{some:?}");
    // --interval: the puts made while it samples show as a rate.
    let (mut cmd, out, _) = sb.command(&["queues", "QM1", "DEV.QUEUE.3", "--interval", "2"]);
    let mut sampler = cmd.stdin(Stdio::null()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let lines: String = (0..100).map(|i| format!("m{i}\n")).collect();
    assert_eq!(
        sb.run(&["put", "QM1", "DEV.QUEUE.3"], &lines).code(),
        Some(0)
    );
    assert!(wait_bounded(&mut sampler, DEADLINE).is_some_and(|s| s.success()));
    let rated = read(&out);
    let head: Vec<&str> = rated.lines().next().unwrap().split_whitespace().collect();
    let row: Vec<&str> = rated.lines().nth(1).unwrap().split_whitespace().collect();
    let at = head
        .iter()
        .position(|h| *h == "PUT/s")
        .expect("a PUT/s column");
    let rate: f64 = row[at].parse().unwrap();
    assert!((20.0..=100.0).contains(&rate), "100 puts in ~2 s: {rated}");
    // --watch --count 2: two tables, each under its time.
    let watch = sb.run(
        &[
            "queues",
            "QM1",
            "DEV.*",
            "--watch",
            "--interval",
            "0.2",
            "--count",
            "2",
        ],
        "",
    );
    assert_eq!(
        watch.stdout.matches("UTC, rates over").count(),
        2,
        "{watch:?}"
    );
    assert_eq!(sb.run(&["qm", "stop", "QM1"], "").code(), Some(0));
}
