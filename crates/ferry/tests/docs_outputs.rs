//! The sample outputs the README and docs/ show from the `ferry` binary, produced by running the
//! same commands and compared (docs/admin.md's runmqsc samples are checked in
//! crates/ferry-admin/tests/docs_samples.rs; the channel refusal in docs/security.md by
//! channel_security.rs, its `AMQ8135E Not authorized: …` and `AMQ9777E Channel was blocked by
//! …` by authority.rs; docs/console.md's error body by console.rs; docs/operations.md's port
//! clash by cli.rs). A stale sample fails here with what the binary prints now.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ferry");

fn repo_file(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The body of the first fenced block after the line containing `marker` (an HTML comment).
fn block_after(doc: &str, marker: &str) -> String {
    let at = doc
        .find(marker)
        .unwrap_or_else(|| panic!("no marker {marker}"));
    let rest = &doc[at..];
    let open = rest.find("```").expect("a fence after the marker");
    let body_start = open + rest[open..].find('\n').unwrap() + 1;
    let len = rest[body_start..].find("```").expect("a closing fence");
    rest[body_start..body_start + len].to_owned()
}

/// A fresh FERRY_HOME with QM1 created (not started: commands run it embedded).
fn home(tag: &str) -> PathBuf {
    let h = std::env::temp_dir().join(format!("ferry-docs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&h);
    let out = ferry(&h, &["qm", "create", "QM1"], "", &[]);
    assert!(out.status.success(), "{out:?}");
    h
}

fn ferry(home: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("FERRY_HOME", home)
        .env_remove("FERRY_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_readmes_unknown_queue_error_is_what_ferry_put_prints() {
    let doc = block_after(
        &repo_file("README.md"),
        "checked by crates/ferry/tests/docs_outputs.rs",
    );
    let mut lines = doc.lines();
    assert_eq!(
        lines.next(),
        Some("$ echo hi | ferry put QM1 NO.SUCH.QUEUE")
    );
    let shown: Vec<&str> = lines.collect();
    let h = home("readme");
    let out = ferry(&h, &["put", "QM1", "NO.SUCH.QUEUE"], "hi\n", &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let printed = String::from_utf8_lossy(&out.stderr);
    // The command's own lines; the embedded queue manager may log a warning first (a disk
    // with less free space than its log may take, on some machines).
    let said: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with("ferry:"))
        .collect();
    assert_eq!(
        said, shown,
        "README.md is stale; ferry put prints:\n{printed}"
    );
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn the_config_guides_qm_check_sample_is_what_ferry_prints() {
    let doc = block_after(
        &repo_file("docs/config.md"),
        "checked by crates/ferry/tests/docs_outputs.rs",
    );
    let mut lines = doc.lines();
    assert_eq!(
        lines.next(),
        Some("$ FERRY_LOG_EXTENT_MIB=16 ferry qm check QM1 --set server.max_conversations=4")
    );
    let shown: Vec<&str> = lines.take_while(|l| *l != "...").collect();
    let h = home("config");
    let out = ferry(
        &h,
        &["qm", "check", "QM1", "--set", "server.max_conversations=4"],
        "",
        &[("FERRY_LOG_EXTENT_MIB", "16")],
    );
    assert!(out.status.success(), "{out:?}");
    // The doc's home is /home/me/.ferry; this run's is a temporary directory.
    let printed =
        String::from_utf8_lossy(&out.stdout).replace(&h.display().to_string(), "/home/me/.ferry");
    let head: Vec<&str> = printed.lines().take(shown.len()).collect();
    assert_eq!(
        head, shown,
        "docs/config.md is stale; ferry qm check prints:\n{printed}"
    );
    let _ = std::fs::remove_dir_all(&h);
}

#[test]
fn the_admin_guides_json_sample_is_what_ferry_admin_json_prints() {
    let marker = "`ferry admin QM1 --json -c \"DISPLAY QSTATUS(APP.ORDERS) CURDEPTH\"`, checked by";
    let doc = block_after(&repo_file("docs/admin.md"), marker);
    let shown: serde_json::Value = serde_json::from_str(&doc).expect("the sample is JSON");
    let h = home("json");
    let define = ferry(
        &h,
        &["admin", "QM1", "-c", "DEFINE QLOCAL(APP.ORDERS)"],
        "",
        &[],
    );
    assert!(define.status.success(), "{define:?}");
    let command = "DISPLAY QSTATUS(APP.ORDERS) CURDEPTH";
    let out = ferry(&h, &["admin", "QM1", "--json", "-c", command], "", &[]);
    assert!(out.status.success(), "{out:?}");
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        printed,
        shown,
        "docs/admin.md is stale; ferry admin --json prints:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&h);
}
