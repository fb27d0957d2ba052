//! `ferry status`: every queue manager in the home, one paragraph each — MQ's dspmq, with what
//! an operator looks at next: endpoints, connections, queues and messages held, the recovery
//! log. A running queue manager is asked over its local socket (DISPLAY QMSTATUS and QSTATUS);
//! a stopped one is described from its directory.

use std::path::Path;
use std::time::{Duration, SystemTime};

use ferry_host::home::{self, LOCK_FILE};

use crate::CliError;

/// The value of `key` in the first object message of `reply`.
fn attr<'a>(reply: &'a ferry_admin::Reply, key: &str) -> Option<&'a str> {
    reply
        .messages
        .iter()
        .flat_map(|m| m.fields.iter())
        .find(|f| f.key == key)
        .and_then(|f| f.value.as_deref())
}

/// Bytes in the files directly under `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|it| {
            it.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        3600..=86_399 => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
        _ => format!("{}d{:02}h", s / 86_400, (s % 86_400) / 3600),
    }
}

/// What a running queue manager says about itself over its local socket.
fn ask(dir: &Path) -> Result<Vec<String>, String> {
    let ep = format!("unix:{}", dir.join(ferry_server::SOCKET_FILE).display());
    let mut c =
        ferry_client::Connection::connect(&ep, "ferry status").map_err(|e| e.to_string())?;
    let replies = c
        .admin("DISPLAY QMSTATUS ALL\nDISPLAY QSTATUS(*) TYPE(QUEUE) CURDEPTH UNCOM")
        .map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    if let Some(qms) = replies.first() {
        // Our own connection is one of them.
        let conns = attr(qms, "CONNS")
            .and_then(|v| v.parse::<usize>().ok())
            .map_or(0, |n| n.saturating_sub(1));
        lines.push(format!("connections  {conns}"));
        if let (Some(t), Some(cur), Some(rec)) = (
            attr(qms, "LOGTYPE"),
            attr(qms, "CURRLOG"),
            attr(qms, "RECLOG"),
        ) {
            lines.push(format!(
                "log          {}, {} on disk, current extent {cur}, oldest needed {rec}, {} syncs, {} checkpoints",
                t.to_ascii_lowercase(),
                human_bytes(dir_bytes(&dir.join(home::LOG_DIR))),
                attr(qms, "LOGSYNCS").unwrap_or("0"),
                attr(qms, "CHKPTS").unwrap_or("0"),
            ));
        }
    }
    if let Some(qs) = replies.get(1) {
        let mut queues = 0usize;
        let mut depth = 0u64;
        let mut uncommitted = 0u64;
        let mut deepest: Option<(String, u64)> = None;
        for m in &qs.messages {
            let get = |k: &str| {
                m.fields
                    .iter()
                    .find(|f| f.key == k)
                    .and_then(|f| f.value.as_deref())
            };
            let (Some(name), Some(d)) = (get("QUEUE"), get("CURDEPTH")) else {
                continue;
            };
            let d: u64 = d.parse().unwrap_or(0);
            queues += 1;
            depth += d;
            uncommitted += get("UNCOM").and_then(|v| v.parse().ok()).unwrap_or(0);
            if d > 0 && deepest.as_ref().is_none_or(|(_, best)| d > *best) {
                deepest = Some((name.to_owned(), d));
            }
        }
        let mut line =
            format!("queues       {queues} local, {depth} messages ({uncommitted} uncommitted)");
        if let Some((name, d)) = deepest {
            line.push_str(&format!("; deepest {name} ({d})"));
        }
        lines.push(line);
    }
    Ok(lines)
}

/// `ferry status`.
pub fn status(home_dir: &Path) -> Result<(), CliError> {
    let names = home::list(home_dir);
    if names.is_empty() {
        ferry_host::outln!(
            "no queue managers in {}; 'ferry qm start NAME' creates and starts one",
            home_dir.join("qmgrs").display()
        );
        return Ok(());
    }
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            ferry_host::outln!();
        }
        let dir = home::qm_dir(home_dir, name);
        match home::running_pid(&dir) {
            Some(pid) => {
                let up = std::fs::metadata(dir.join(LOCK_FILE))
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .map(|d| format!(", up {}", human_duration(d)))
                    .unwrap_or_default();
                ferry_host::outln!("{name}  running (pid {pid}{up})");
                ferry_host::outln!("directory    {}", dir.display());
                let endpoints = std::fs::read_to_string(dir.join(crate::qm::ENDPOINTS_FILE))
                    .unwrap_or_default();
                for (j, ep) in endpoints.lines().enumerate() {
                    let label = if j == 0 { "endpoints" } else { "" };
                    ferry_host::outln!("{label:<12} {ep}");
                }
                match ask(&dir) {
                    Ok(lines) => lines.iter().for_each(|l| ferry_host::outln!("{l}")),
                    Err(e) => ferry_host::outln!("status       not available: {e}"),
                }
            }
            None => {
                ferry_host::outln!("{name}  stopped");
                ferry_host::outln!("directory    {}", dir.display());
                ferry_host::outln!(
                    "log          {} on disk; 'ferry qm start {name}' starts it",
                    human_bytes(dir_bytes(&dir.join(home::LOG_DIR)))
                );
            }
        }
    }
    Ok(())
}
