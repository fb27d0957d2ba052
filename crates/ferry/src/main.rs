//! `ferry`: the FerryMQ command line.
//!
//! Queue manager control (`ferry qm create|start|stop|list`) and the sample-style message tools
//! (`ferry put|get|browse`, after MQ's amqsput, amqsget and amqsbcg).
//!
//! Exit status: 0 on success, 1 for usage errors and system failures (I/O, signals, time-outs),
//! 2 when the queue manager answered with an MQ reason code.

#[cfg(not(unix))]
compile_error!("the ferry command line needs a Unix-like system (signals and process ids)");

/// mimalloc rather than the C library's allocator: the queue manager and the benchmark harness
/// allocate and free small buffers on every message, across threads (measured in docs/perf.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod admin;
mod detach;
mod messages;
mod qm;
mod queues;
mod signals;
mod status;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};
use ferry_client::{MqError, Reason};

/// FerryMQ: an open, fast queue manager in the tradition of IBM MQ.
#[derive(Debug, Parser)]
#[command(
    name = "ferry",
    version,
    propagate_version = true,
    after_help = "Queue managers live in HOME/qmgrs/NAME, where HOME is --data-dir, else $FERRY_HOME, \
                  else ~/.ferry.\nExit status: 0 success, 1 usage or system error, 2 MQ reason code \
                  (the message names it).\nLogging: set FERRY_LOG (e.g. FERRY_LOG=debug)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create, start, stop and list queue managers.
    #[command(subcommand)]
    Qm(QmCommand),
    /// Put one message per line of standard input on a queue (like amqsput), or one message
    /// from a file; every descriptor field and properties may be set.
    #[command(
        override_usage = "ferry put [OPTIONS] <QM> <QUEUE>\n       ferry put [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Put(PutArgs),
    /// Get (destructively) the messages of a queue, printing each body as a line (like amqsget),
    /// or each in full with --dump; how many on standard error.
    #[command(
        override_usage = "ferry get [OPTIONS] <QM> <QUEUE>\n       ferry get [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Get(GetArgs),
    /// Browse (without removing) the messages of a queue: a header line and the body, or with
    /// --dump every field, the properties and a hex dump (like amqsbcg).
    #[command(
        override_usage = "ferry browse [OPTIONS] <QM> <QUEUE>\n       ferry browse [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Browse(BrowseArgs),
    /// Send each line of standard input as a request and print its reply (like amqsreq): the
    /// reply comes to a temporary dynamic queue (or --reply-to) with CorrelId = the request's
    /// MsgId.
    #[command(
        override_usage = "ferry request [OPTIONS] <QM> <QUEUE>\n       ferry request [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Request(RequestArgs),
    /// Move messages from one queue to another, each in a unit of work, keeping their context
    /// (msg id, user, put time).
    #[command(
        override_usage = "ferry move [OPTIONS] <QM> <FROM> <TO>\n       ferry move [OPTIONS] --connect <URL> <FROM> <TO>"
    )]
    Move(TransferArgs),
    /// Copy messages from one queue to another (browsing them), keeping their context.
    #[command(
        override_usage = "ferry copy [OPTIONS] <QM> <FROM> <TO>\n       ferry copy [OPTIONS] --connect <URL> <FROM> <TO>"
    )]
    Copy(TransferArgs),
    /// Save a queue's messages to a file of JSON lines (every descriptor field, the properties,
    /// the body in hex), getting them or with --browse leaving them (like dmpmqmsg).
    #[command(
        override_usage = "ferry unload [OPTIONS] <QM> <QUEUE>\n       ferry unload [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Unload(UnloadArgs),
    /// Put the messages of a file made by 'ferry unload' on a queue, keeping their context.
    #[command(
        override_usage = "ferry load [OPTIONS] <QM> <QUEUE>\n       ferry load [OPTIONS] --connect <URL> <QUEUE>"
    )]
    Load(LoadArgs),
    /// A short summary of every queue manager on this machine (like MQ's dspmq, with more to
    /// say): running or stopped, endpoints, connections, queues and messages, the recovery log.
    Status {
        #[command(flatten)]
        home: HomeArgs,
    },
    /// One line per local queue: depth against MAXDEPTH, open handles, uncommitted messages,
    /// the oldest message's age, puts and gets. QUEUE may be a generic name (default *);
    /// SYSTEM.* queues only with --system.
    #[command(
        override_usage = "ferry queues [OPTIONS] <QM> [QUEUE]\n       ferry queues [OPTIONS] --connect <URL> [QUEUE]"
    )]
    Queues(QueuesArgs),
    /// Run MQSC-style administrative commands: interactively, from -c, from a script (-f), or
    /// from standard input. Exit status 2 when a command fails.
    Admin(admin::AdminArgs),
    /// Measure performance: the reference workloads (put, get, putget, rr, forward) with live
    /// statistics and a JSON report, the machine's raw limits, sweeps to an SLA with charts, and
    /// comparison with a baseline. Without --connect it hosts a queue manager itself.
    #[command(subcommand)]
    Perf(ferry_perf::PerfCommand),
    /// An MQTT front end, started by the queue manager for `[mqtt] front_ends` (not run by
    /// hand): accepts clients on the shared port and passes them over inherited links.
    #[command(hide = true)]
    MqttFrontEnd {
        /// MQTT in the clear: the port the front ends share.
        #[arg(long)]
        listen: Option<std::net::SocketAddr>,
        /// MQTT over TLS.
        #[arg(long)]
        tls_listen: Option<std::net::SocketAddr>,
        /// MQTT over WebSocket.
        #[arg(long)]
        ws_listen: Option<std::net::SocketAddr>,
        /// MQTT over secure WebSocket.
        #[arg(long)]
        wss_listen: Option<std::net::SocketAddr>,
        /// The server's certificate chain (PEM), for the TLS listeners.
        #[arg(long)]
        tls_cert: Option<PathBuf>,
        /// The server's private key (PEM).
        #[arg(long)]
        tls_key: Option<PathBuf>,
        /// The CA certificates (PEM) client certificates must be signed by.
        #[arg(long)]
        tls_client_ca: Option<PathBuf>,
        /// The longest a TLS handshake may take, in milliseconds.
        #[arg(long, default_value_t = 10_000)]
        handshake_ms: u64,
        /// Each listener's backlog.
        #[arg(long, default_value_t = 4096)]
        backlog: u32,
        /// Links inherited at descriptors 3, 4, ...
        #[arg(long, default_value_t = 2)]
        links: usize,
    },
}

#[derive(Debug, Subcommand)]
enum QmCommand {
    /// Create a queue manager: its directory HOME/qmgrs/QM and configuration file qm.toml.
    Create {
        /// Queue manager name (1-48 characters from A-Z a-z 0-9 . _ %).
        #[arg(value_name = "QM")]
        name: String,
        /// TCP address to listen on ([server] listen; "" for none). Default: the first free
        /// loopback port from 127.0.0.1:1414 up that no other queue manager here is given.
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        #[command(flatten)]
        home: HomeArgs,
    },
    /// Start a queue manager: in the background, returning once it accepts connections
    /// (--foreground: in this process until SIGINT, Ctrl-C, or SIGTERM, 'ferry qm stop').
    /// Creates it first if it does not exist.
    Start {
        /// Queue manager name.
        #[arg(value_name = "QM")]
        name: String,
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        settings: qm::StartSettings,
        /// Start even if the recovery log is damaged: recover up to its last good record and
        /// log exactly what was dropped (without this, a damaged log stops the start).
        #[arg(long)]
        recover_to_last_good: bool,
        /// Run in this process until SIGINT (Ctrl-C) or SIGTERM, logging to standard error (for
        /// containers and service managers). Without it the queue manager runs as a process of
        /// its own, logging to QMDIR/qm.log, and the command returns once it accepts connections.
        #[arg(long)]
        foreground: bool,
        /// Write the log to this file instead of standard error, rotated at 16 MiB with three
        /// older files kept (FILE.1 … FILE.3), as MQ's error logs are. A background start logs
        /// to QMDIR/qm.log this way.
        #[arg(long, value_name = "FILE")]
        log_file: Option<PathBuf>,
    },
    /// Check a queue manager's configuration without starting anything: qm.toml with the
    /// FERRY_<SECTION>_<KEY> environment variables and --set settings applied. Prints the
    /// effective configuration and where each setting came from; exit status 2 if it is not valid.
    Check {
        /// Queue manager name (checks HOME/qmgrs/QM/qm.toml).
        #[arg(value_name = "QM", required_unless_present = "file")]
        name: Option<String>,
        /// Check this file instead.
        #[arg(long, value_name = "PATH", conflicts_with = "name")]
        file: Option<PathBuf>,
        #[command(flatten)]
        home: HomeArgs,
        /// A setting that overrides the file and environment: section.key=value (repeatable).
        #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
        sets: Vec<String>,
    },
    /// Manage the users of the queue manager's user file (QMDIR/users.toml, Argon2id hashes):
    /// AUTHINFO AUTHTYPE(IDPWFILE), the default CONNAUTH. A running queue manager reads it again
    /// when it changes.
    User {
        #[command(subcommand)]
        action: UserCommand,
    },
    /// Stop a running queue manager and wait (up to 30 s) until it has stopped, like endmqm:
    /// immediate by default (SIGTERM), controlled with -c (SIGUSR1), preemptive with -p
    /// (SIGKILL)
    Stop {
        /// Queue manager name.
        #[arg(value_name = "QM")]
        name: String,
        /// Controlled (endmqm -c): new connections are refused with MQRC_Q_MGR_QUIESCING,
        /// waits and channels end, and the queue manager stops once every application has
        /// disconnected. A later immediate stop ends the wait.
        #[arg(short = 'c', long, group = "mode")]
        controlled: bool,
        /// Immediate (endmqm -i, the default): calls in progress end, every connection is
        /// told to finish (units of work back out), then the queue manager stops.
        #[arg(short = 'i', long, group = "mode")]
        immediate: bool,
        /// Preemptive (endmqm -p): the process is killed at once, like a crash. Nothing
        /// committed is lost (the next start recovers from the log); uncommitted work backs
        /// out and non-persistent messages are gone.
        #[arg(short = 'p', long, group = "mode")]
        preemptive: bool,
        #[command(flatten)]
        home: HomeArgs,
    },
    /// Delete a stopped queue manager: its directory, configuration, log and messages (like
    /// dltmqm). A running one is refused.
    Delete {
        /// Queue manager name.
        #[arg(value_name = "QM")]
        name: String,
        #[command(flatten)]
        home: HomeArgs,
    },
    /// List the queue managers in HOME: name, running (with its pid) or stopped, directory.
    List {
        #[command(flatten)]
        home: HomeArgs,
    },
}

/// `ferry qm user ...`.
#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Add a user (or change its password), reading the password from the first line of stdin.
    Add {
        /// Queue manager name.
        #[arg(value_name = "QM")]
        qm: String,
        /// User name.
        #[arg(value_name = "USER")]
        user: String,
        /// Also put the user in this group of the user file (repeatable). Authority records
        /// granted to the group apply to it; the queue manager owner's primary group
        /// administers.
        #[arg(long = "group", value_name = "GROUP")]
        groups: Vec<String>,
        #[command(flatten)]
        home: HomeArgs,
    },
    /// Remove a user.
    Remove {
        /// Queue manager name.
        #[arg(value_name = "QM")]
        qm: String,
        /// User name.
        #[arg(value_name = "USER")]
        user: String,
        #[command(flatten)]
        home: HomeArgs,
    },
}

/// Where queue managers live.
#[derive(Debug, Clone, Args)]
pub(crate) struct HomeArgs {
    /// FerryMQ home directory holding qmgrs/ [default: $FERRY_HOME, else ~/.ferry].
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

impl HomeArgs {
    fn home(&self) -> PathBuf {
        self.data_dir
            .clone()
            .unwrap_or_else(ferry_host::home::default_home)
    }
}

/// Which queue manager and queue a message command works on.
#[derive(Debug, Clone, Args)]
pub(crate) struct Target {
    /// Connection string instead of a queue manager name: embedded:PATH, unix:PATH,
    /// tcp://HOST:PORT or tls://HOST:PORT.
    #[arg(long, value_name = "URL")]
    pub(crate) connect: Option<String>,
    /// User to connect as over tcp or tls; the password is read from $FERRY_PASSWORD.
    #[arg(long, value_name = "USER")]
    pub(crate) user: Option<String>,
    /// For tls://: PEM file with the CA that signs the server's certificate.
    #[arg(long, value_name = "PEM")]
    pub(crate) tls_ca: Option<PathBuf>,
    /// For tls:// servers that require client certificates: this client's certificate chain
    /// and key (PEM).
    #[arg(long, value_names = ["CERT", "KEY"], num_args = 2)]
    pub(crate) tls_client_cert: Option<Vec<PathBuf>>,
    /// Queue manager name, hosted in this process from HOME/qmgrs/QM (omit it with --connect).
    #[arg(value_name = "QM")]
    pub(crate) qm: Option<String>,
    /// Queue name.
    #[arg(value_name = "QUEUE")]
    pub(crate) queue: Option<String>,
    #[command(flatten)]
    pub(crate) home: HomeArgs,
}

#[derive(Debug, Args)]
struct PutArgs {
    #[command(flatten)]
    target: Target,
    /// Put persistent messages [default: the queue's default persistence, DEFPSIST].
    #[arg(long)]
    persistent: bool,
    /// One message whose body is this file ("-": all of standard input), instead of one
    /// message per line.
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    #[command(flatten)]
    spec: messages::spec::Spec,
}

/// Which messages `get` and `browse` take and how they show them.
#[derive(Debug, Args)]
struct ReadArgs {
    /// At most this many messages [default: all].
    #[arg(short = 'n', long, value_name = "N")]
    count: Option<usize>,
    /// Each message in full: every descriptor field, the properties, the body in hex and text.
    #[arg(long)]
    dump: bool,
    /// Only the message with this msg id (48 hex digits, or text).
    #[arg(long, value_name = "ID")]
    msg_id: Option<String>,
    /// Only messages with this correl id (48 hex digits, or text).
    #[arg(long, value_name = "ID")]
    correl_id: Option<String>,
}

impl ReadArgs {
    fn reading(&self, wait: u64) -> messages::Reading {
        messages::Reading {
            wait: std::time::Duration::from_secs(wait),
            count: self.count,
            dump: self.dump,
            msg_id: self.msg_id.clone(),
            correl_id: self.correl_id.clone(),
        }
    }
}

#[derive(Debug, Args)]
struct GetArgs {
    #[command(flatten)]
    target: Target,
    /// Seconds to wait for each message before deciding the queue is empty.
    #[arg(long, value_name = "SECS", default_value_t = 0)]
    wait: u64,
    #[command(flatten)]
    read: ReadArgs,
}

#[derive(Debug, Args)]
struct BrowseArgs {
    #[command(flatten)]
    target: Target,
    #[command(flatten)]
    read: ReadArgs,
}

#[derive(Debug, Args)]
struct QueuesArgs {
    #[command(flatten)]
    target: Target,
    /// Show the SYSTEM.* queues too.
    #[arg(long)]
    system: bool,
    /// Order of the lines.
    #[arg(long, value_enum, default_value_t = queues::Sort::Name)]
    sort: queues::Sort,
    /// Sample twice, this many seconds apart, and add each queue's puts and gets a second
    /// (PUT/s, GET/s) over the interval.
    #[arg(long, value_name = "SECS")]
    interval: Option<f64>,
    /// Print a table every --interval (default 2 s) until interrupted, with the rates since the
    /// last one.
    #[arg(long)]
    watch: bool,
    /// With --watch: stop after this many tables.
    #[arg(long, value_name = "N", requires = "watch")]
    count: Option<u64>,
}

#[derive(Debug, Args)]
struct RequestArgs {
    #[command(flatten)]
    target: Target,
    /// Seconds to wait for each reply.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    wait: u64,
    #[command(flatten)]
    spec: messages::spec::Spec,
}

#[derive(Debug, Args)]
struct TransferArgs {
    #[command(flatten)]
    target: Target,
    /// The queue the messages go to.
    #[arg(value_name = "TO")]
    to: Option<String>,
    /// At most this many messages [default: all].
    #[arg(short = 'n', long, value_name = "N")]
    count: Option<usize>,
}

#[derive(Debug, Args)]
struct UnloadArgs {
    #[command(flatten)]
    target: Target,
    /// The file to write [default: standard output].
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
    /// Leave the messages on the queue (browse them).
    #[arg(long)]
    browse: bool,
    /// At most this many messages [default: all].
    #[arg(short = 'n', long, value_name = "N")]
    count: Option<usize>,
}

#[derive(Debug, Args)]
struct LoadArgs {
    #[command(flatten)]
    target: Target,
    /// The file to read [default: standard input].
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
}

/// Why a command failed, which decides the exit status.
#[derive(Debug)]
enum CliError {
    /// The queue manager answered with a reason code (exit 2), perhaps with advice for this tool.
    Mq {
        error: MqError,
        hint: Option<String>,
    },
    /// The command line is wrong in a way clap cannot see (exit 1).
    Usage(Box<clap::Error>),
    /// A system failure: I/O, signals, a time-out (exit 1).
    Other(String),
    /// Commands ran and some failed; their replies say why (exit 2).
    Failed(String),
    /// A process this command ran has said why it failed: exit with its status.
    Exit(u8),
}

impl CliError {
    fn other(msg: impl Into<String>) -> Self {
        CliError::Other(msg.into())
    }

    /// A failed write to standard output: `what` — or, when the reader has gone (`| head`), a
    /// quiet end with status 0 as Unix tools end, after the caller has put back what it had
    /// not written.
    fn output(e: &std::io::Error, what: String) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Exit(0)
        } else {
            CliError::Other(what)
        }
    }

    fn with_hint(self, hint: impl Into<String>) -> Self {
        match self {
            CliError::Mq { error, .. } => CliError::Mq {
                error,
                hint: Some(hint.into()),
            },
            e => e,
        }
    }
}

impl From<MqError> for CliError {
    fn from(error: MqError) -> Self {
        CliError::Mq { error, hint: None }
    }
}

/// A usage error for subcommand `sub`, formatted (and with its usage) the way clap does it.
fn usage_error(sub: &str, msg: impl std::fmt::Display) -> CliError {
    let mut cmd = Cli::command();
    cmd.build();
    let err = match cmd.find_subcommand_mut(sub) {
        Some(sub) => sub.error(clap::error::ErrorKind::ArgumentConflict, msg),
        None => cmd.error(clap::error::ErrorKind::ArgumentConflict, msg),
    };
    CliError::Usage(Box::new(err))
}

/// Checks a queue manager name: an MQ object name that is also a single directory name.
fn qm_name(name: &str) -> Result<&str, MqError> {
    let bad = |why: String| {
        MqError::new(
            Reason::QMgrNameError,
            format!("'{name}' is not a valid queue manager name: {why}"),
        )
    };
    ferry_core::object_name(name).map_err(|e| bad(e.detail))?;
    if name.contains('/') || name == "." || name == ".." {
        return Err(bad(
            "it would not be a single directory name (no '/', not '.' or '..')".into(),
        ));
    }
    Ok(name)
}

/// The queue manager directory for `name` under `home`.
fn qm_dir(home: &Path, name: &str) -> Result<PathBuf, MqError> {
    Ok(ferry_host::home::qm_dir(home, qm_name(name)?))
}

fn init_logging(default_level: &str) {
    use tracing_subscriber::EnvFilter;
    let filter =
        EnvFilter::try_from_env("FERRY_LOG").unwrap_or_else(|_| EnvFilter::new(default_level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// Logging to a size-rotated file (`qm start --log-file`).
fn init_logging_to(path: &std::path::Path, default_level: &str) -> Result<(), CliError> {
    use ferry_host::logfile::{LogWriter, RotatingLog, KEEP, ROTATE_BYTES};
    use tracing_subscriber::EnvFilter;
    let log = RotatingLog::open(path, ROTATE_BYTES, KEEP)
        .map_err(|e| CliError::other(format!("cannot open the log {}: {e}", path.display())))?;
    let filter =
        EnvFilter::try_from_env("FERRY_LOG").unwrap_or_else(|_| EnvFilter::new(default_level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(move || LogWriter(log.clone()))
        .with_ansi(false)
        .try_init();
    Ok(())
}

/// `ferry put|get|browse|request|move|copy|unload|load`.
fn message_command(c: Command) -> Result<(), CliError> {
    use messages::transfer as t;
    use messages::Resolved;
    match c {
        Command::Put(a) => {
            let target = Resolved::from_target(&a.target, "put")?;
            messages::put(&target, a.persistent, &a.spec, a.file.as_deref())?;
        }
        Command::Get(a) => {
            let target = Resolved::from_target(&a.target, "get")?;
            messages::get(&target, &a.read.reading(a.wait))?;
        }
        Command::Browse(a) => {
            let target = Resolved::from_target(&a.target, "browse")?;
            messages::browse(&target, &a.read.reading(0))?;
        }
        c @ (Command::Unload(_) | Command::Load(_)) => unload_or_load(c)?,
        Command::Request(a) => {
            let target = Resolved::from_target(&a.target, "request")?;
            a.spec.check()?;
            let wait = std::time::Duration::from_secs(a.wait);
            let (input, mut out) = (std::io::stdin().lock(), std::io::stdout().lock());
            let reply_to = a.spec.reply_to.clone();
            let n = t::request(&target, &a.spec, reply_to.as_deref(), wait, input, &mut out)?;
            eprintln!("{n} repl{} received", if n == 1 { "y" } else { "ies" });
        }
        Command::Move(a) => move_or_copy(&a, false)?,
        Command::Copy(a) => move_or_copy(&a, true)?,
        _ => unreachable!("only the message commands come here"),
    }
    Ok(())
}

/// `ferry unload` and `ferry load`.
fn unload_or_load(c: Command) -> Result<(), CliError> {
    use messages::transfer as t;
    use messages::Resolved;
    match c {
        Command::Unload(a) => {
            let target = Resolved::from_target(&a.target, "unload")?;
            let n = match &a.file {
                Some(p) => {
                    let mut f = std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| {
                        CliError::other(format!("cannot create {}: {e}", p.display()))
                    })?);
                    t::unload(&target, &mut f, a.browse, a.count)?
                }
                None => t::unload(&target, &mut std::io::stdout().lock(), a.browse, a.count)?,
            };
            let what = if a.browse {
                "unloaded (left) from"
            } else {
                "unloaded from"
            };
            eprintln!(
                "{n} message{} {what} {}",
                if n == 1 { "" } else { "s" },
                target.queue
            );
        }
        Command::Load(a) => {
            let target = Resolved::from_target(&a.target, "load")?;
            let n = match &a.file {
                Some(p) => {
                    let f = std::fs::File::open(p).map_err(|e| {
                        CliError::other(format!("cannot open {}: {e}", p.display()))
                    })?;
                    t::load(&target, std::io::BufReader::new(f))?
                }
                None => t::load(&target, std::io::stdin().lock())?,
            };
            ferry_host::outln!(
                "{n} message{} loaded to {}",
                if n == 1 { "" } else { "s" },
                target.queue
            );
        }
        _ => unreachable!("only unload and load come here"),
    }
    Ok(())
}

/// `ferry move` (`keep` false) and `ferry copy`: QM FROM TO, or --connect URL FROM TO.
fn move_or_copy(a: &TransferArgs, keep: bool) -> Result<(), CliError> {
    let sub = if keep { "copy" } else { "move" };
    let mut target = a.target.clone();
    let to = match (&target.connect, &a.to) {
        (Some(_), None) => target.queue.take(),
        (None, Some(to)) => Some(to.clone()),
        _ => None,
    };
    let Some(to) = to else {
        return Err(usage_error(
            sub,
            "give the queue the messages come from and the queue they go to",
        ));
    };
    let from = messages::Resolved::from_target(&target, sub)?;
    let n = messages::transfer::transfer(&from, &to, a.count, keep)?;
    let done = if keep { "copied" } else { "moved" };
    ferry_host::outln!(
        "{n} message{} {done} from {} to {to}",
        if n == 1 { "" } else { "s" },
        from.queue
    );
    Ok(())
}

/// `ferry queues`: QM [PATTERN], or --connect URL [PATTERN]; the pattern defaults to *.
fn queues_command(a: &QueuesArgs) -> Result<(), CliError> {
    let mut target = a.target.clone();
    // The pattern is optional: `QM` alone, or `--connect URL` alone, means every queue.
    if target.connect.is_none() && target.queue.is_none() {
        target.queue = Some("*".into());
    }
    if target.connect.is_some() && target.qm.is_none() {
        target.qm = Some("*".into());
    }
    let t = messages::Resolved::from_target(&target, "queues")?;
    let interval = match (a.interval, a.watch) {
        (Some(s), _) if !(s.is_finite() && s > 0.0 && s <= 3600.0) => {
            return Err(CliError::other(format!(
                "--interval {s}: give a number of seconds above 0 and at most 3600"
            )))
        }
        (Some(s), _) => Some(std::time::Duration::from_secs_f64(s)),
        (None, true) => Some(std::time::Duration::from_secs(2)),
        (None, false) => None,
    };
    let sampling = queues::Sampling {
        interval,
        watch: a.watch,
        count: a.count,
    };
    queues::queues(&t, a.system, a.sort, sampling)
}

fn qm_command(cmd: QmCommand) -> Result<(), CliError> {
    match cmd {
        QmCommand::Create { name, listen, home } => {
            qm::create(&home.home(), &name, listen.as_deref())
        }
        QmCommand::Start {
            name,
            home,
            settings,
            recover_to_last_good,
            foreground,
            log_file,
        } => {
            if !foreground {
                return detach::start(&home.home(), &name, log_file.as_deref());
            }
            match log_file {
                Some(path) => init_logging_to(&path, "info")?,
                None => init_logging("info"),
            }
            qm::start(&home.home(), &name, settings, recover_to_last_good)
        }
        QmCommand::Check {
            name,
            file,
            home,
            sets,
        } => qm::check(&home.home(), name.as_deref(), file.as_deref(), sets),
        QmCommand::User { action } => match action {
            UserCommand::Add {
                qm,
                user,
                groups,
                home,
            } => qm::user_add(&home.home(), &qm, &user, &groups),
            UserCommand::Remove { qm, user, home } => qm::user_remove(&home.home(), &qm, &user),
        },
        QmCommand::Stop {
            name,
            home,
            controlled,
            immediate: _,
            preemptive,
        } => {
            let mode = if controlled {
                qm::StopHow::Controlled
            } else if preemptive {
                qm::StopHow::Preemptive
            } else {
                qm::StopHow::Immediate
            };
            qm::stop(&home.home(), &name, mode)
        }
        QmCommand::Delete { name, home } => qm::delete(&home.home(), &name),
        QmCommand::List { home } => qm::list(&home.home()),
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Qm(cmd) => qm_command(cmd),
        c @ (Command::Put(_)
        | Command::Get(_)
        | Command::Browse(_)
        | Command::Request(_)
        | Command::Move(_)
        | Command::Copy(_)
        | Command::Unload(_)
        | Command::Load(_)) => {
            init_logging("warn");
            message_command(c)
        }
        Command::Queues(a) => {
            init_logging("warn");
            queues_command(&a)
        }
        Command::Status { home } => {
            init_logging("warn");
            status::status(&home.home())
        }
        Command::Admin(args) => {
            init_logging("warn");
            admin::run(&args)
        }
        Command::Perf(cmd) => {
            init_logging("warn");
            ferry_perf::main(&cmd).map_err(CliError::other)
        }
        Command::MqttFrontEnd {
            listen,
            tls_listen,
            ws_listen,
            wss_listen,
            tls_cert,
            tls_key,
            tls_client_ca,
            handshake_ms,
            backlog,
            links,
        } => {
            // Its clients' memory is given back when they leave, as the queue manager's.
            qm::start_giving_back_memory()?;
            let tls = tls_cert
                .zip(tls_key)
                .map(|(cert_chain, key)| ferry_server::TlsSettings {
                    cert_chain,
                    key,
                    client_ca: tls_client_ca,
                });
            let front = ferry_server::FrontEnd {
                listen,
                tls_listen,
                ws_listen,
                wss_listen,
                tls,
                handshake: std::time::Duration::from_millis(handshake_ms),
                backlog,
                links,
            };
            ferry_server::run_front_end(front)
                .map_err(|e| CliError::other(format!("MQTT front end: {e}")))
        }
    }
}

fn main() -> ExitCode {
    // Embedded queue managers this process hosts answer MQSC through ferry-admin.
    ferry_admin::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Help and version go to stdout and succeed; real usage errors exit 1.
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Mq { error, hint }) => {
            eprintln!("ferry: {error}");
            if let Some(hint) = hint {
                eprintln!("ferry: hint: {hint}");
            }
            ExitCode::from(2)
        }
        Err(CliError::Usage(e)) => {
            let _ = e.print();
            ExitCode::from(1)
        }
        Err(CliError::Other(msg)) => {
            eprintln!("ferry: {msg}");
            ExitCode::from(1)
        }
        Err(CliError::Failed(msg)) => {
            eprintln!("ferry: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Exit(code)) => ExitCode::from(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn queue_manager_names_must_be_single_directories() {
        assert!(qm_name("QM1").is_ok());
        assert!(qm_name("QM.A_1%").is_ok());
        for bad in ["", "a/b", ".", "..", "QM 1", &"Q".repeat(49)] {
            assert_eq!(
                qm_name(bad).unwrap_err().reason,
                Reason::QMgrNameError,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn every_subcommand_and_flag_has_help() {
        fn check(cmd: &clap::Command, path: &str) {
            for arg in cmd.get_arguments() {
                if arg.get_id() == "help" || arg.get_id() == "version" {
                    continue;
                }
                assert!(
                    arg.get_help().is_some(),
                    "{path} {} has no help",
                    arg.get_id()
                );
            }
            for sub in cmd.get_subcommands() {
                if sub.get_name() == "help" {
                    continue;
                }
                assert!(
                    sub.get_about().is_some(),
                    "{path} {} has no help",
                    sub.get_name()
                );
                check(sub, &format!("{path} {}", sub.get_name()));
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        check(&cmd, "ferry");
    }
}
