//! `ferry qm start` as MQ's strmqm behaves: the queue manager runs as a process of its own
//! (this command again, with `--foreground --log-file QMDIR/qm.log`, in its own process group;
//! the log rotates by size, and anything written outside it, such as a panic, is appended to
//! the same file) and the command returns once it accepts connections — or, if it ends first,
//! with its error and exit status.
//!
//! Ready means: the directory lock names the new process and the endpoints file was written
//! after it was started (a stale one from a killed run does not count).

use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use ferry_host::home;

use crate::qm::ENDPOINTS_FILE;
use crate::CliError;

/// Where a background queue manager's output goes.
pub const LOG_FILE: &str = "qm.log";

/// Starts `name` in the background with this process's arguments and `--foreground`, logging
/// to `log_file` (default QMDIR/qm.log); returns once it is ready.
pub fn start(home: &Path, name: &str, log_file: Option<&Path>) -> Result<(), CliError> {
    let dir = crate::qm::create_if_missing(home, name)?;
    let log_path = log_file.map_or_else(|| dir.join(LOG_FILE), Path::to_path_buf);
    let mut log = ferry_host::private::open_file(&log_path)
        .map_err(|e| CliError::other(format!("cannot open {}: {e}", log_path.display())))?;
    let from = log.seek(SeekFrom::End(0)).unwrap_or(0);
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    args.push("--foreground".into());
    // A --log-file of the caller's is among the arguments already.
    if log_file.is_none() {
        args.push("--log-file".into());
        args.push(log_path.clone().into());
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::other(format!("cannot find the ferry executable: {e}")))?;
    let out = log
        .try_clone()
        .map_err(|e| CliError::other(e.to_string()))?;
    let began = SystemTime::now();
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(log)
        // Its own process group: the shell's Ctrl-C and hang-up are not for it.
        .process_group(0)
        .spawn()
        .map_err(|e| CliError::other(format!("cannot start the queue manager process: {e}")))?;
    loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| CliError::other(e.to_string()))?
        {
            let said = since(&log_path, from);
            eprint!("{said}");
            return Err(CliError::Exit(status.code().unwrap_or(1) as u8));
        }
        if home::running_pid(&dir) == Some(child.id()) && written_since(&dir, began) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let endpoints = std::fs::read_to_string(dir.join(ENDPOINTS_FILE)).unwrap_or_default();
    ferry_host::outln!("queue manager {name} started (process {})", child.id());
    for e in endpoints.lines() {
        ferry_host::outln!("  listening: {e}");
    }
    ferry_host::outln!("  log: {}", log_path.display());
    ferry_host::outln!("  stop it with 'ferry qm stop {name}'");
    Ok(())
}

/// Whether the endpoints file was written at or after `began`.
fn written_since(dir: &Path, began: SystemTime) -> bool {
    let modified = std::fs::metadata(dir.join(ENDPOINTS_FILE)).and_then(|m| m.modified());
    modified.is_ok_and(|m| m >= began)
}

/// What the log gained from byte `from` on: the child's own account of why it ended.
fn since(path: &Path, from: u64) -> String {
    let mut text = String::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.seek(SeekFrom::Start(from));
        let _ = f.read_to_string(&mut text);
    }
    text
}
