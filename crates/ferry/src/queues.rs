//! `ferry queues`: one line per local queue — depth against its limit, handles, uncommitted
//! messages, the oldest message's age, puts and gets — the view an operator wants before any
//! DISPLAY. Asked through the same MQSC as `ferry admin` (DISPLAY QSTATUS and QLOCAL), so a
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

/// `ferry queues`: the table, SYSTEM.* queues left out unless `system`.
pub fn queues(t: &Resolved, system: bool, sort: Sort) -> Result<(), CliError> {
    let mut conn = ferry_client::Connection::connect_with(&t.endpoint, "ferry queues", &t.options)?;
    let q = if t.queue.contains('\'') {
        "*".to_owned()
    } else {
        t.queue.clone()
    };
    let script = format!("DISPLAY QSTATUS('{q}') TYPE(QUEUE) ALL\nDISPLAY QLOCAL('{q}') MAXDEPTH");
    let replies = conn.admin(&script)?;
    let _ = conn.disconnect();
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
    order(&mut rows, sort);
    print(&rows);
    Ok(())
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
    ferry_host::outln!(
        "{:<width$}  {:>9}  {:>10}  {:>6}  {:>4}  {:>4}  {:>6}  {:>8}  {:>10}  {:>10}",
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
        ferry_host::outln!(
            "{:<width$}  {:>9}  {:>10}  {:>5.1}%  {:>4}  {:>4}  {:>6}  {:>8}  {:>10}  {:>10}",
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
    if rows.is_empty() {
        eprintln!("no queue matches");
    }
}
