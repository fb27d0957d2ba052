//! `ferry put|get|browse|request|move|copy|unload|load`: the sample programs amqsput, amqsget,
//! amqsbcg and amqsreq, and dmpmqmsg's moving and saving of messages, as subcommands.

mod dump;
pub mod spec;
pub mod transfer;

use std::io::{self, BufRead, Read, Write};
use std::path::Path;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use ferry_client::{
    BrowseMode, CloseOptions, ConnMode, Connection, Endpoint, GetOptions, Got, Hobj, Message,
    OpenOptions, Persistence, PutOptions, Reason,
};

use crate::{qm_dir, usage_error, CliError, Target};

/// A message command's target, resolved to a connection string and a queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The connection string.
    pub endpoint: String,
    /// How to name the queue manager in messages: its name, or the connection string.
    pub label: String,
    /// The queue.
    pub queue: String,
    /// Credentials and TLS settings for remote connection strings.
    pub options: ferry_client::ClientOptions,
}

impl Resolved {
    /// `QM QUEUE` means `embedded:HOME/qmgrs/QM`; `--connect URL QUEUE` means that URL.
    pub fn from_target(t: &Target, sub: &str) -> Result<Resolved, CliError> {
        match (&t.connect, &t.qm, &t.queue) {
            (Some(url), Some(queue), None) => {
                Ok(Resolved {
                    endpoint: url.clone(),
                    label: url.clone(),
                    queue: queue.clone(),
                    options: client_options(t),
                })
            }
            (Some(_), Some(_), Some(_)) => Err(usage_error(
                sub,
                "give either a queue manager name or --connect URL, not both; with --connect, only the QUEUE follows",
            )),
            (None, Some(qm), Some(queue)) => {
                let dir = qm_dir(&t.home.home(), qm)?;
                // A running queue manager is reached over its local socket; a stopped one is
                // hosted in this process.
                let endpoint = if ferry_host::home::running_pid(&dir).is_some() {
                    format!("unix:{}", dir.join(ferry_server::SOCKET_FILE).display())
                } else {
                    format!("embedded:{}", dir.display())
                };
                Ok(Resolved { endpoint, label: qm.clone(), queue: queue.clone(), options: client_options(t) })
            }
            (Some(_), None, _) => Err(usage_error(sub, "the QUEUE is missing")),
            (None, _, _) => Err(usage_error(sub, "give a queue manager name and a queue (or --connect URL and a queue)")),
        }
    }

    /// The queue manager directory, for an embedded endpoint.
    fn embedded_dir(&self) -> Option<PathBuf> {
        match Endpoint::parse(&self.endpoint) {
            Ok(Endpoint::Embedded(dir)) => Some(dir),
            _ => None,
        }
    }
}

/// The client options the command line asks for.
fn client_options(t: &Target) -> ferry_client::ClientOptions {
    ferry_client::ClientOptions {
        user: t.user.clone(),
        password: t
            .user
            .as_ref()
            .and_then(|_| std::env::var("FERRY_PASSWORD").ok()),
        tls: t.tls_ca.as_ref().map(|ca| ferry_client::TlsOptions {
            ca: ca.clone(),
            server_name: None,
            client_cert: t
                .tls_client_cert
                .as_ref()
                .and_then(|v| Some((v.first()?.clone(), v.get(1)?.clone()))),
        }),
        ..Default::default()
    }
}

/// Connects, adding advice for this tool to the errors people will meet.
fn connect(t: &Resolved, app: &str) -> Result<Connection, CliError> {
    Connection::connect_with(&t.endpoint, app, &t.options).map_err(|e| {
        let reason = e.reason;
        let err = CliError::from(e);
        match reason {
            Reason::QMgrDataError
                if t.embedded_dir()
                    .is_some_and(|d| ferry_host::home::running_pid(&d).is_some()) =>
            {
                err.with_hint(format!(
                    "queue manager {} is running in another process; connect to it by name \
                     (without --connect) or with --connect unix:PATH or tcp://HOST:PORT",
                    t.label
                ))
            }
            Reason::FunctionNotSupported => err.with_hint(
                "TLS connections arrive with the TLS work; use unix:PATH or tcp://HOST:PORT",
            ),
            _ => err,
        }
    })
}

/// Says plainly what embedded mode without persistence means for the messages.
fn embedded_note(conn: &Connection, t: &Resolved, persistent: bool) {
    if conn.mode() == ConnMode::Embedded && !persistent {
        eprintln!(
            "ferry: note: queue manager {} is hosted in this process (embedded); messages that are \
             not persistent live only until this process exits (use --persistent to keep them)",
            t.label
        );
    }
}

/// `ferry put`: one message per line of standard input, or one message of a whole file
/// (`-`: all of standard input).
pub fn put(
    t: &Resolved,
    persistent: bool,
    s: &spec::Spec,
    file: Option<&Path>,
) -> Result<(), CliError> {
    s.check()?;
    let mut conn = connect(t, "ferry put")?;
    let h = conn.open_queue(&t.queue, OpenOptions::output())?;
    embedded_note(&conn, t, persistent);
    let n = match file {
        Some(path) => {
            let body = read_whole(path)?;
            let mut msg = Message::new(body);
            s.apply(&mut msg, persistent)?;
            conn.put(h, msg, &PutOptions::default())?;
            1
        }
        None => put_lines(&mut conn, h, io::stdin().lock(), persistent, s)?,
    };
    conn.close(h, CloseOptions::None)?;
    conn.disconnect()?;
    ferry_host::outln!(
        "{n} message{} put to {}",
        if n == 1 { "" } else { "s" },
        t.queue
    );
    Ok(())
}

/// A file's bytes, or all of standard input for `-`.
fn read_whole(path: &Path) -> Result<Vec<u8>, CliError> {
    let mut body = Vec::new();
    let r = if path == Path::new("-") {
        io::stdin().lock().read_to_end(&mut body)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut body))
    };
    r.map_err(|e| CliError::other(format!("cannot read {}: {e}", path.display())))?;
    Ok(body)
}

/// Puts each line of `input` (without its line ending) as one message on `h`. Returns how many.
fn put_lines(
    conn: &mut Connection,
    h: Hobj,
    input: impl BufRead,
    persistent: bool,
    s: &spec::Spec,
) -> Result<usize, CliError> {
    let opts = PutOptions::default();
    let mut n = 0;
    for line in input.split(b'\n') {
        let mut line =
            line.map_err(|e| CliError::other(format!("cannot read standard input: {e}")))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let mut msg = Message::new(line);
        s.apply(&mut msg, persistent)?;
        conn.put(h, msg, &opts).map_err(|e| {
            let err = CliError::from(e);
            if n > 0 {
                err.with_hint(format!(
                    "{n} message{} had been put before this one",
                    if n == 1 { "" } else { "s" }
                ))
            } else {
                err
            }
        })?;
        n += 1;
    }
    Ok(n)
}

/// What `ferry get` and `ferry browse` take and show.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// How long to wait for each message.
    pub wait: Duration,
    /// At most this many.
    pub count: Option<usize>,
    /// Every field, the properties and a hex dump, not the bare body.
    pub dump: bool,
    /// Only messages with this msg id.
    pub msg_id: Option<String>,
    /// Only messages with this correl id.
    pub correl_id: Option<String>,
}

impl Reading {
    fn options(&self) -> Result<GetOptions, CliError> {
        let mut opts = GetOptions::new();
        if !self.wait.is_zero() {
            opts = opts.wait(self.wait);
        }
        if let Some(id) = &self.msg_id {
            opts = opts.msg_id(ferry_client::MsgId(spec::id_bytes(id)?));
        }
        if let Some(id) = &self.correl_id {
            opts = opts.correl_id(ferry_client::CorrelId(spec::id_bytes(id)?));
        }
        Ok(opts)
    }

    fn write(&self, n: usize, got: &Got, out: &mut impl Write) -> io::Result<()> {
        if self.dump {
            return out.write_all(dump::message(n, got).as_bytes());
        }
        out.write_all(&got.message.body)?;
        out.write_all(b"\n")
    }
}

/// `ferry get`: the messages' bodies (or dumps) on standard output; how many on standard
/// error.
pub fn get(t: &Resolved, r: &Reading) -> Result<(), CliError> {
    let mut conn = connect(t, "ferry get")?;
    let h = conn.open_queue(&t.queue, OpenOptions::input())?;
    let n = get_all(&mut conn, h, &t.queue, r, &mut io::stdout().lock())?;
    conn.close(h, CloseOptions::None)?;
    conn.disconnect()?;
    summary(n, "got from", &t.queue);
    Ok(())
}

/// `N messages got from Q` on standard error: the count, never mixed with the bodies.
fn summary(n: usize, what: &str, queue: &str) {
    eprintln!(
        "{n} message{} {what} {queue}",
        if n == 1 { "" } else { "s" }
    );
}

/// Gets messages (all, or `r.count`), writing each to `out`, until none arrives within the
/// wait. Each get is committed only once it has been written, so a failed write (a closed
/// pipe) leaves the message on the queue. Returns how many were got.
fn get_all(
    conn: &mut Connection,
    h: Hobj,
    queue: &str,
    r: &Reading,
    out: &mut impl Write,
) -> Result<usize, CliError> {
    let opts = r.options()?.syncpoint();
    let mut n = 0;
    while r.count.is_none_or(|c| n < c) {
        let got = match conn.get(h, &opts) {
            Ok(got) => got,
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(e.into()),
        };
        if let Err(e) = r.write(n + 1, &got, out).and_then(|()| out.flush()) {
            conn.backout()?;
            return Err(CliError::output(
                &e,
                format!("cannot write to standard output: {e}; the message was left on {queue}"),
            ));
        }
        conn.commit()?;
        n += 1;
    }
    Ok(n)
}

/// `ferry browse`.
pub fn browse(t: &Resolved, r: &Reading) -> Result<(), CliError> {
    let mut conn = connect(t, "ferry browse")?;
    let h = conn.open_queue(&t.queue, OpenOptions::browse())?;
    let n = browse_all(&mut conn, h, r, &mut io::stdout().lock())?;
    conn.close(h, CloseOptions::None)?;
    conn.disconnect()?;
    summary(n, "browsed on", &t.queue);
    Ok(())
}

/// Browses the messages: a header line then the body (or the whole dump). Returns how many.
fn browse_all(
    conn: &mut Connection,
    h: Hobj,
    r: &Reading,
    out: &mut impl Write,
) -> Result<usize, CliError> {
    let base = r.options()?;
    let mut mode = BrowseMode::First;
    let mut n = 0;
    let io_err =
        |e: io::Error| CliError::output(&e, format!("cannot write to standard output: {e}"));
    while r.count.is_none_or(|c| n < c) {
        let got = match conn.get(h, &base.browse(mode)) {
            Ok(got) => got,
            Err(e) if e.reason == Reason::NoMsgAvailable => break,
            Err(e) => return Err(e.into()),
        };
        mode = BrowseMode::Next;
        n += 1;
        if !r.dump {
            writeln!(out, "{}", header(n, &got)).map_err(io_err)?;
        }
        r.write(n, &got, out).map_err(io_err)?;
    }
    out.flush().map_err(io_err)?;
    Ok(n)
}

/// One line describing a browsed message.
fn header(n: usize, got: &Got) -> String {
    let d = &got.message.descriptor;
    let mut s = format!("message {n}: msg_id={}", d.msg_id.to_hex());
    if !d.correl_id.is_none() {
        s.push_str(&format!(" correl_id={}", d.correl_id.to_hex()));
    }
    let priority = match d.priority {
        ferry_client::Priority::Value(p) => p.to_string(),
        ferry_client::Priority::AsQueueDef => "as-queue-def".to_owned(),
    };
    let persistence = match d.persistence {
        Persistence::Persistent => "persistent",
        Persistence::NotPersistent => "not-persistent",
        Persistence::AsQueueDef => "as-queue-def",
    };
    let format = if d.format.is_empty() {
        "none"
    } else {
        d.format.as_str()
    };
    s.push_str(&format!(
        " priority={priority} persistence={persistence} put_time={} appl_name={:?} backout_count={} format={format} length={}",
        utc_timestamp(d.put_time),
        d.put_appl_name.as_str(),
        d.backout_count,
        got.data_length,
    ));
    if let Some(dlh) = &got.message.dead_letter {
        s.push_str(&format!(
            " dead_letter_reason={} dest_queue={}",
            dlh.reason, dlh.dest_queue
        ));
    }
    s
}

/// `t` as an ISO 8601 UTC timestamp with milliseconds, e.g. `2025-01-31T13:45:07.250Z`.
pub(crate) fn utc_timestamp(t: SystemTime) -> String {
    let (secs, millis) = match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_millis()),
        Err(_) => return "before-1970".to_owned(),
    };
    let rem = secs.rem_euclid(86_400);
    let (year, month, day) = ferry_model::clock::civil_date(secs.div_euclid(86_400));
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferry_client::QueueManager;

    fn conn() -> (QueueManager, Connection) {
        let qm = QueueManager::with_name("QM1").unwrap();
        let conn = Connection::embedded(&qm, "ferry test").unwrap();
        (qm, conn)
    }

    fn put_q(
        c: &mut Connection,
        q: &str,
        input: &[u8],
        persistent: bool,
    ) -> Result<usize, CliError> {
        let h = c.open_queue(q, OpenOptions::output())?;
        let n = put_lines(c, h, input, persistent, &spec::Spec::default())?;
        c.close(h, CloseOptions::None)?;
        Ok(n)
    }

    fn get_q(
        c: &mut Connection,
        q: &str,
        wait: Duration,
        out: &mut impl Write,
    ) -> Result<usize, CliError> {
        let h = c.open_queue(q, OpenOptions::input())?;
        let r = Reading {
            wait,
            ..Default::default()
        };
        let n = get_all(c, h, q, &r, out)?;
        c.close(h, CloseOptions::None)?;
        Ok(n)
    }

    fn browse_q(c: &mut Connection, q: &str, out: &mut impl Write) -> Result<usize, CliError> {
        let h = c.open_queue(q, OpenOptions::browse())?;
        let n = browse_all(c, h, &Reading::default(), out)?;
        c.close(h, CloseOptions::None)?;
        Ok(n)
    }

    #[test]
    fn timestamps_are_iso8601_utc() {
        assert_eq!(
            utc_timestamp(SystemTime::UNIX_EPOCH),
            "1970-01-01T00:00:00.000Z"
        );
        let t = SystemTime::UNIX_EPOCH + Duration::from_millis(951_782_400_250); // leap day 2000
        assert_eq!(utc_timestamp(t), "2000-02-29T00:00:00.250Z");
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_735_689_599); // last second of 2024
        assert_eq!(utc_timestamp(t), "2024-12-31T23:59:59.000Z");
    }

    #[test]
    fn put_browse_get_round_trip_one_message_per_line() {
        let (_qm, mut c) = conn();
        let n = put_q(&mut c, "DEV.QUEUE.1", &b"one\r\ntwo\n\nfour"[..], false).unwrap();
        assert_eq!(
            n, 4,
            "an empty line is an empty message; a last line without newline counts"
        );

        let mut out = Vec::new();
        assert_eq!(browse_q(&mut c, "DEV.QUEUE.1", &mut out).unwrap(), 4);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8, "{text}");
        assert!(lines[0].starts_with("message 1: msg_id="), "{text}");
        for field in [
            "priority=0",
            "persistence=not-persistent",
            "appl_name=\"ferry test\"",
            "format=MQSTR",
        ] {
            assert!(lines[0].contains(field), "missing {field} in {}", lines[0]);
        }
        assert!(
            !lines[0].contains("correl_id="),
            "a none correl id is not shown"
        );
        assert_eq!(
            [lines[1], lines[3], lines[5], lines[7]],
            ["one", "two", "", "four"]
        );

        let mut out = Vec::new();
        assert_eq!(
            get_q(&mut c, "DEV.QUEUE.1", Duration::ZERO, &mut out).unwrap(),
            4
        );
        assert_eq!(out, b"one\ntwo\n\nfour\n");
        let mut out = Vec::new();
        assert_eq!(
            get_q(&mut c, "DEV.QUEUE.1", Duration::ZERO, &mut out).unwrap(),
            0
        );
        assert!(out.is_empty());
    }

    #[test]
    fn persistent_flag_and_correl_id_show_in_the_header() {
        let (_qm, mut c) = conn();
        put_q(&mut c, "DEV.QUEUE.2", &b"p\n"[..], true).unwrap();
        let h = c.open_queue("DEV.QUEUE.2", OpenOptions::output()).unwrap();
        let correl = ferry_client::CorrelId::from_slice(b"ABC");
        c.put(
            h,
            Message::text("c").with_correl_id(correl),
            &PutOptions::default(),
        )
        .unwrap();
        let mut out = Vec::new();
        browse_q(&mut c, "DEV.QUEUE.2", &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("persistence=persistent"), "{text}");
        assert!(
            lines[2].contains(&format!("correl_id={}", correl.to_hex())),
            "{text}"
        );
    }

    /// Standard output that fails every write with `kind`.
    struct Broken(io::ErrorKind);

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(self.0, "cannot write"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_leaves_the_message_on_the_queue() {
        let (qm, mut c) = conn();
        put_q(&mut c, "DEV.QUEUE.3", &b"keep me\n"[..], false).unwrap();
        let mut full = Broken(io::ErrorKind::StorageFull);
        let e = get_q(&mut c, "DEV.QUEUE.3", Duration::ZERO, &mut full).unwrap_err();
        assert!(
            matches!(e, CliError::Other(ref m) if m.contains("left on DEV.QUEUE.3")),
            "{e:?}"
        );
        assert_eq!(qm.queue_status("DEV.QUEUE.3").unwrap().available, 1);
        // A reader that has gone ends the command quietly; the message stays all the same.
        let mut gone = Broken(io::ErrorKind::BrokenPipe);
        let e = get_q(&mut c, "DEV.QUEUE.3", Duration::ZERO, &mut gone).unwrap_err();
        assert!(matches!(e, CliError::Exit(0)), "{e:?}");
        assert_eq!(qm.queue_status("DEV.QUEUE.3").unwrap().available, 1);
    }

    #[test]
    fn unknown_queue_is_an_mq_error() {
        let (_qm, mut c) = conn();
        let e = put_q(&mut c, "NO.SUCH.QUEUE", &b"x\n"[..], false).unwrap_err();
        assert!(
            matches!(e, CliError::Mq { ref error, .. } if error.reason == Reason::UnknownObjectName),
            "{e:?}"
        );
    }
}
