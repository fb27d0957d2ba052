//! `ferry queues`: one line per local queue — depth against its limit, handles, uncommitted
//! messages, the oldest message's age, puts and gets, and with `--interval` the rates of puts
//! and gets between two samples (`--watch` repeats, a top-like view) — the view an operator
//! wants before any DISPLAY. Asked through the same MQSC as `ferry admin` (DISPLAY QSTATUS and QLOCAL), so a
//! user sees only the queues their authority shows.

use ferry_admin::Reply;

use crate::messages::Resolved;
use crate::CliError;

/// One queue's line.
#[derive(Debug, Default, Clone)]
struct Row {
    name: String,
    depth: u64,
    max: u64,
    input: u64,
    output: u64,
    uncommitted: u64,
    age: String,
    puts: u64,
    gets: u64,
    /// Puts and gets a second since the previous sample, when there was one.
    rates: Option<(f64, f64)>,
}

/// How often `ferry queues` samples: once, or with rates over an interval (repeatedly with
/// `watch`, `count` tables at most).
#[derive(Debug, Clone, Copy)]
pub struct Sampling {
    pub interval: Option<std::time::Duration>,
    pub watch: bool,
    pub count: Option<u64>,
}

/// How the lines are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Sort {
    /// By name.
    Name,
    /// Deepest first.
    Depth,
    /// Fullest (depth against MAXDEPTH) first.
    Full,
}

fn fields(r: &Reply) -> impl Iterator<Item = &[ferry_model::admin::Field]> {
    r.messages
        .iter()
        .filter(|m| !m.fields.is_empty())
        .map(|m| m.fields.as_slice())
}

fn value<'a>(f: &'a [ferry_model::admin::Field], key: &str) -> &'a str {
    f.iter()
        .find(|x| x.key == key)
        .and_then(|x| x.value.as_deref())
        .unwrap_or("")
}

fn num(f: &[ferry_model::admin::Field], key: &str) -> u64 {
    value(f, key).trim().parse().unwrap_or(0)
}

/// `ferry queues`: the table, SYSTEM.* queues left out unless `system`; with an interval, the
/// rates over it (and with `watch`, a table every interval).
pub fn queues(t: &Resolved, system: bool, sort: Sort, sampling: Sampling) -> Result<(), CliError> {
    let mut conn = ferry_client::Connection::connect_with(&t.endpoint, "ferry queues", &t.options)?;
    let q = if t.queue.contains('\'') {
        "*".to_owned()
    } else {
        t.queue.clone()
    };
    let mut before = sample(&mut conn, &q, system)?;
    let Some(interval) = sampling.interval else {
        order(&mut before, sort);
        print(&before);
        let _ = conn.disconnect();
        return Ok(());
    };
    let mut tables = 0u64;
    loop {
        let started = std::time::Instant::now();
        std::thread::sleep(interval);
        let mut now = sample(&mut conn, &q, system)?;
        with_rates(&mut now, &before, started.elapsed().as_secs_f64());
        before = now.clone();
        order(&mut now, sort);
        if sampling.watch {
            ferry_host::outln!(
                "{} UTC, rates over {:.1} s",
                clock(),
                interval.as_secs_f64()
            );
        }
        print(&now);
        tables += 1;
        if !sampling.watch || sampling.count.is_some_and(|n| tables >= n) {
            let _ = conn.disconnect();
            return Ok(());
        }
        ferry_host::outln!();
    }
}

/// The time of day, UTC, as HH:MM:SS.
fn clock() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let day = secs % 86_400;
    format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
}

/// One reading of the queues' status and limits.
fn sample(
    conn: &mut ferry_client::Connection,
    q: &str,
    system: bool,
) -> Result<Vec<Row>, CliError> {
    let script = format!("DISPLAY QSTATUS('{q}') TYPE(QUEUE) ALL\nDISPLAY QLOCAL('{q}') MAXDEPTH");
    let replies = conn.admin(&script)?;
    if let Some(r) = replies.iter().find(|r| !r.ok) {
        let m = r
            .messages
            .first()
            .map_or_else(String::new, |m| format!("{}: {}", m.code, m.text));
        return Err(CliError::Failed(m));
    }
    let mut rows: Vec<Row> = fields(&replies[0])
        .map(|f| Row {
            name: value(f, "QUEUE").to_owned(),
            depth: num(f, "CURDEPTH"),
            input: num(f, "IPPROCS"),
            output: num(f, "OPPROCS"),
            uncommitted: num(f, "UNCOM"),
            age: value(f, "MSGAGE").to_owned(),
            puts: num(f, "PUTS"),
            gets: num(f, "GETS"),
            ..Row::default()
        })
        .filter(|r| system || !r.name.starts_with("SYSTEM."))
        .collect();
    for f in fields(&replies[1]) {
        if let Some(r) = rows.iter_mut().find(|r| r.name == value(f, "QUEUE")) {
            r.max = num(f, "MAXDEPTH");
        }
    }
    Ok(rows)
}

/// Sets each row's rates from the counts of the same queue `seconds` earlier (a queue new since
/// then counts from zero).
fn with_rates(rows: &mut [Row], before: &[Row], seconds: f64) {
    let seconds = seconds.max(1e-3);
    for r in rows {
        let (p, g) = before
            .iter()
            .find(|b| b.name == r.name)
            .map_or((0, 0), |b| (b.puts, b.gets));
        r.rates = Some((
            r.puts.saturating_sub(p) as f64 / seconds,
            r.gets.saturating_sub(g) as f64 / seconds,
        ));
    }
}

fn fullness(r: &Row) -> f64 {
    if r.max == 0 {
        0.0
    } else {
        r.depth as f64 * 100.0 / r.max as f64
    }
}

fn order(rows: &mut [Row], sort: Sort) {
    match sort {
        Sort::Name => rows.sort_by(|a, b| a.name.cmp(&b.name)),
        Sort::Depth => rows.sort_by(|a, b| b.depth.cmp(&a.depth).then(a.name.cmp(&b.name))),
        Sort::Full => rows.sort_by(|a, b| {
            fullness(b)
                .total_cmp(&fullness(a))
                .then(a.name.cmp(&b.name))
        }),
    }
}

fn print(rows: &[Row]) {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(5).max(5);
    let rated = rows.iter().any(|r| r.rates.is_some());
    let rate_head = if rated {
        format!("  {:>9}  {:>9}", "PUT/s", "GET/s")
    } else {
        String::new()
    };
    ferry_host::outln!(
        "{:<width$}  {:>9}  {:>10}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}{rate_head}  {:>10}  {:>10}",
        "QUEUE",
        "DEPTH",
        "MAXDEPTH",
        "FULL",
        "IN",
        "OUT",
        "UNCOM",
        "AGE(s)",
        "PUTS",
        "GETS"
    );
    for r in rows {
        let age = if r.age.is_empty() {
            "-"
        } else {
            r.age.as_str()
        };
        let rates = match r.rates {
            Some((p, g)) => format!("  {p:>9.0}  {g:>9.0}"),
            None => String::new(),
        };
        ferry_host::outln!(
            "{:<width$}  {:>9}  {:>10}  {:>5.1}%  {:>4}  {:>4}  {:>6}  {:>8}{rates}  {:>10}  {:>10}",
            r.name,
            r.depth,
            r.max,
            fullness(r),
            r.input,
            r.output,
            r.uncommitted,
            age,
            r.puts,
            r.gets
        );
    }
}
