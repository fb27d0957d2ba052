//! `ferry admin`: the MQSC-style shell. Commands come from `-c`, a script file (`-f`), standard
//! input when it is not a terminal, or an interactive prompt with line editing and history.
//! The same commands work locally (embedded or the Unix socket) and remotely (tcp, tls).

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::Args;
use ferry_client::{Connection, MqError};

use crate::{messages, CliError, HomeArgs};

/// `ferry admin` arguments.
#[derive(Debug, Args)]
pub struct AdminArgs {
    /// Queue manager name (reached over its local socket when running, else hosted in this
    /// process); omit it with --connect.
    #[arg(value_name = "QM")]
    pub qm: Option<String>,
    /// Connection string instead of a name: unix:PATH, tcp://HOST:PORT or tls://HOST:PORT.
    #[arg(long, value_name = "URL")]
    pub connect: Option<String>,
    /// Run this command (or several, separated by ';') and exit.
    #[arg(short = 'c', long = "command", value_name = "MQSC")]
    pub command: Option<String>,
    /// Run the commands in this script file and exit.
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Print replies as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print every definition as a replayable script (DUMP QMGR) and nothing else, e.g.
    /// `ferry admin QM1 --dump > qm1.mqsc`, then `ferry admin QM2 -f qm1.mqsc`.
    #[arg(long, conflicts_with_all = ["command", "file", "json"])]
    pub dump: bool,
    /// User to connect as over tcp or tls; the password is read from $FERRY_PASSWORD.
    #[arg(long, value_name = "USER")]
    pub user: Option<String>,
    /// For tls://: PEM file with the CA that signs the server's certificate.
    #[arg(long, value_name = "PEM")]
    pub tls_ca: Option<PathBuf>,
    #[command(flatten)]
    pub home: HomeArgs,
}

fn connect(a: &AdminArgs) -> Result<(Connection, String), CliError> {
    let target = crate::Target {
        connect: a.connect.clone(),
        user: a.user.clone(),
        tls_ca: a.tls_ca.clone(),
        tls_client_cert: None,
        qm: a.qm.clone(),
        queue: Some(String::new()),
        home: a.home.clone(),
    };
    let target = match (&a.connect, &a.qm) {
        // With --connect the positional QM slot is not used.
        (Some(_), None) => crate::Target {
            qm: Some(String::new()),
            queue: None,
            ..target
        },
        (Some(_), Some(_)) => {
            return Err(CliError::other(
                "give either a queue manager name or --connect URL, not both",
            ))
        }
        (None, None) => {
            return Err(CliError::other(
                "name the queue manager (ferry admin QM1) or give --connect URL",
            ))
        }
        _ => target,
    };
    let r = messages::Resolved::from_target(&target, "admin")?;
    let c = Connection::connect_with(&r.endpoint, "ferry admin", &r.options)?;
    Ok((c, r.label))
}

fn print(replies: &[ferry_admin::Reply], json: bool, summary: bool) {
    if json {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let written = serde_json::to_writer_pretty(&mut out, &ferry_admin::format::Json(replies))
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush());
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => eprintln!("ferry: cannot write the answer: {e}"),
            Ok(()) => {}
        }
    } else if summary {
        ferry_host::out!("{}", ferry_admin::format::text(replies));
    } else {
        for r in replies {
            ferry_host::out!("{}", ferry_admin::format::reply_text(r));
        }
    }
}

/// Commands sent in one administrative request (a server takes at most 10,000).
const SCRIPT_PART: usize = 5_000;

/// Runs `script`, printing the replies; fails (exit 2) if any command failed.
fn run_script(c: &mut Connection, script: &str, json: bool) -> Result<(), CliError> {
    // A server takes at most 10,000 commands a request: a longer script goes in parts.
    let commands = ferry_admin::parse::split_script(script);
    let mut replies = Vec::with_capacity(commands.len());
    for part in commands.chunks(SCRIPT_PART) {
        let text: Vec<&str> = part.iter().map(|(_, t)| t.as_str()).collect();
        for mut r in c.admin(&text.join("\n"))? {
            r.number = replies.len() + 1;
            replies.push(r);
        }
    }
    print(&replies, json, true);
    let failed = replies.iter().filter(|r| !r.ok).count();
    if failed > 0 {
        return Err(CliError::Failed(format!(
            "{failed} of {} commands failed",
            replies.len()
        )));
    }
    Ok(())
}

/// `ferry admin`.
pub fn run(a: &AdminArgs) -> Result<(), CliError> {
    let (mut c, label) = connect(a)?;
    if a.dump {
        let replies = c.admin("DUMP QMGR")?;
        let _ = c.disconnect();
        let r = replies
            .first()
            .ok_or_else(|| CliError::other("the queue manager gave no answer to DUMP"))?;
        if !r.ok {
            return Err(CliError::Failed(
                r.messages.first().map_or(String::new(), |m| m.text.clone()),
            ));
        }
        for line in &r.script {
            ferry_host::outln!("{line}");
        }
        return Ok(());
    }
    let script = match (&a.command, &a.file) {
        (Some(cmd), None) => Some(cmd.clone()),
        (None, Some(f)) => Some(
            std::fs::read_to_string(f)
                .map_err(|e| CliError::other(format!("cannot read {}: {e}", f.display())))?,
        ),
        (Some(_), Some(_)) => return Err(CliError::other("give -c or -f, not both")),
        (None, None) if !std::io::stdin().is_terminal() => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| CliError::other(format!("reading standard input: {e}")))?;
            Some(s)
        }
        (None, None) => None,
    };
    let result = match script {
        Some(s) => run_script(&mut c, &s, a.json),
        None => interactive(&mut c, &label, a.json, &a.home.home()),
    };
    let _ = c.disconnect();
    result
}

/// Tab completion in the shell: verbs, object types, the queue manager's object names and
/// attribute keywords (`ferry_admin::suggest::complete`).
struct Completion {
    names: Vec<String>,
}

impl rustyline::completion::Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(ferry_admin::suggest::complete(line, pos, &self.names))
    }
}

impl rustyline::hint::Hinter for Completion {
    type Hint = String;
}

impl rustyline::highlight::Highlighter for Completion {}

impl rustyline::validate::Validator for Completion {}

impl rustyline::Helper for Completion {}

/// The names of the queues, channels and topic objects the user may see, for completion.
fn object_names(c: &mut Connection) -> Vec<String> {
    let script = "DISPLAY QUEUE(*)\nDISPLAY CHANNEL(*)\nDISPLAY TOPIC(*)";
    let replies = c.admin(script).unwrap_or_default();
    let first = |m: &ferry_admin::Message| m.fields.first().and_then(|f| f.value.clone());
    let mut names: Vec<String> = (replies.iter().flat_map(|r| &r.messages))
        .filter_map(first)
        .collect();
    names.sort();
    names.dedup();
    names
}

fn interactive(
    c: &mut Connection,
    label: &str,
    json: bool,
    home: &std::path::Path,
) -> Result<(), CliError> {
    use rustyline::error::ReadlineError;
    let mut rl = rustyline::Editor::<Completion, rustyline::history::DefaultHistory>::new()
        .map_err(|e| CliError::other(format!("cannot start the line editor: {e}")))?;
    rl.set_helper(Some(Completion {
        names: object_names(c),
    }));
    let history = home.join("admin_history");
    let _ = rl.load_history(&history);
    ferry_host::outln!(
        "FerryMQ administration of {label}. End a line with + or - to continue it; END, EXIT or Ctrl-D to leave."
    );
    let mut pending = String::new();
    let mut tally = Tally::default();
    loop {
        let prompt = if pending.is_empty() {
            format!("{label}> ")
        } else {
            "...> ".to_owned()
        };
        let line = match rl.readline(&prompt) {
            Ok(l) => l,
            Err(ReadlineError::Interrupted) => {
                pending.clear();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(CliError::other(format!("reading a command: {e}"))),
        };
        let trimmed = line.trim();
        if pending.is_empty()
            && matches!(
                trimmed.to_ascii_uppercase().as_str(),
                "END" | "EXIT" | "QUIT"
            )
        {
            break;
        }
        let _ = rl.add_history_entry(line.as_str());
        pending.push_str(&line);
        pending.push('\n');
        if trimmed.ends_with('+') || trimmed.ends_with('-') {
            continue;
        }
        let script = std::mem::take(&mut pending);
        if script.trim().is_empty() || script.trim_start().starts_with('*') {
            continue;
        }
        if !tally.run(c, &script, json) {
            break;
        }
        if tally.changed {
            if let Some(h) = rl.helper_mut() {
                h.names = object_names(c);
            }
        }
    }
    let _ = std::fs::create_dir_all(home);
    let _ = rl.save_history(&history);
    ferry_host::outln!(
        "{} MQSC commands read; {} failed.",
        tally.number,
        tally.failed
    );
    Ok(())
}

/// What the shell has run so far.
#[derive(Default)]
struct Tally {
    number: usize,
    failed: usize,
    /// The last script may have defined or deleted objects (names to complete changed).
    changed: bool,
}

impl Tally {
    /// Runs one entered script and prints its replies; false when the connection is gone.
    fn run(&mut self, c: &mut Connection, script: &str, json: bool) -> bool {
        let verb = script.trim_start().to_ascii_uppercase();
        self.changed = verb.starts_with("DEF") || verb.starts_with("DELE");
        match c.admin(script) {
            Ok(mut replies) => {
                for r in &mut replies {
                    self.number += 1;
                    r.number = self.number;
                    if !r.ok {
                        self.failed += 1;
                    }
                }
                print(&replies, json, false);
                true
            }
            Err(e) => {
                eprintln!("ferry: {e}");
                !is_broken(&e)
            }
        }
    }
}

fn is_broken(e: &MqError) -> bool {
    e.reason == ferry_client::Reason::ConnectionBroken
}
