//! The shape of the code, checked: crate dependencies run one way, ferry-core's layers import
//! only downwards, functions stay short enough to read at once, and the calls we keep out of
//! library code stay out. Each rule names what broke and where (docs/architecture.md has the
//! map these rules keep true).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root()).arg("--offline");
    c
}

// ----- crate dependencies ---------------------------------------------------------------------

/// Each workspace crate's direct normal dependencies among the workspace crates.
fn direct_deps() -> BTreeMap<String, BTreeSet<String>> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let ours: BTreeSet<String> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap().to_owned())
                .filter(|n| ours.contains(n))
                .collect();
            (p["name"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

/// Every crate `package` reaches through normal dependencies, with the given feature flags.
fn reaches(package: &str, flags: &[&str]) -> BTreeSet<String> {
    let out = cargo()
        .args([
            "tree", "-p", package, "-e", "normal", "--prefix", "none", "--format", "{p}",
        ])
        .args(flags)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn crate_dependencies_run_one_way() {
    let deps = direct_deps();
    // What each crate may depend on directly, among the workspace's own crates.
    let allowed: &[(&str, &[&str])] = &[
        ("ferry-model", &[]),
        ("ferry-log", &[]),
        ("ferry-proto", &["ferry-model"]),
        ("ferry-core", &["ferry-model", "ferry-log"]),
        ("ferry-host", &["ferry-model", "ferry-log", "ferry-core"]),
        ("ferry-admin", &["ferry-model", "ferry-core"]),
        // The MQTT service is a client of the engine in its process; the server hosts it.
        ("ferry-mqtt", &["ferry-core"]),
        // The web console acts through the engine and the MQSC executor; the server hosts it.
        ("ferry-console", &["ferry-core", "ferry-admin"]),
        (
            "ferry-client",
            &["ferry-model", "ferry-proto", "ferry-core", "ferry-host"],
        ),
        (
            "ferry-server",
            &[
                "ferry-model",
                "ferry-proto",
                "ferry-log",
                "ferry-core",
                "ferry-host",
                "ferry-admin",
                "ferry-client",
                "ferry-mqtt",
                "ferry-console",
            ],
        ),
        (
            "ferry-perf",
            &["ferry-model", "ferry-core", "ferry-host", "ferry-client"],
        ),
        ("ferry-mqi", &["ferry-model", "ferry-host", "ferry-client"]),
    ];
    let mut broken = Vec::new();
    for (krate, may) in allowed {
        let Some(has) = deps.get(*krate) else {
            broken.push(format!("{krate} is not in the workspace"));
            continue;
        };
        for d in has.iter().filter(|d| !may.contains(&d.as_str())) {
            broken.push(format!("{krate} depends on {d}, which it must not"));
        }
    }
    // Nothing but the command line and the benches stands on the tools and the daemon's top.
    for (krate, has) in &deps {
        for top in ["ferry", "ferry-perf", "ferry-mqi"] {
            let user_ok = matches!(
                krate.as_str(),
                "ferry" | "ferry-benches" | "ferry-mqm" | "ferry-mqic"
            );
            if has.contains(top) && !user_ok {
                broken.push(format!(
                    "{krate} depends on {top}; only the command line and the benches may"
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "crate dependency rules broken:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn the_client_without_embedded_reaches_neither_the_engine_nor_the_admin_crate() {
    let lean = reaches("ferry-client", &["--no-default-features"]);
    for forbidden in [
        "ferry-core",
        "ferry-admin",
        "ferry-host",
        "ferry-log",
        "ferry-server",
    ] {
        assert!(
            !lean.contains(forbidden),
            "ferry-client --no-default-features reaches {forbidden}: {lean:?}"
        );
    }
    let default = reaches("ferry-client", &[]);
    assert!(
        !default.contains("ferry-core"),
        "ferry-client reaches the engine with its default features: {default:?}"
    );
    let full = reaches("ferry-client", &["--features", "embedded"]);
    assert!(
        full.contains("ferry-core"),
        "the embedded feature brings the engine"
    );
    assert!(
        !full.contains("ferry-admin"),
        "ferry-client reaches ferry-admin with its embedded feature"
    );
    let core = reaches("ferry-core", &[]);
    for forbidden in ["ferry-proto", "tokio", "ferry-host", "ferry-admin"] {
        assert!(!core.contains(forbidden), "ferry-core reaches {forbidden}");
    }
}

// ----- source scanning ------------------------------------------------------------------------

/// Rust source with comments, string and character literals blanked out (lengths kept), so
/// braces, paths and calls can be found by scanning text.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        if depth == 0 {
                            out.extend_from_slice(b"  ");
                            i += 2;
                            break;
                        }
                    }
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push(b[i]);
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let start = i;
                i += 2 + hashes;
                while i < b.len() && !b[i..].starts_with(&close) {
                    i += 1;
                }
                i = (i + close.len()).min(b.len());
                for c in &b[start..i] {
                    blank(&mut out, *c);
                }
            }
            b'"' => {
                blank(&mut out, b[i]);
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        blank(&mut out, b[i]);
                        i += 1;
                    }
                    if i < b.len() {
                        blank(&mut out, b[i]);
                        i += 1;
                    }
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{..}') — not a lifetime ('a).
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b[i + 2..]
                        .iter()
                        .position(|c| *c == b'\'')
                        .map(|p| i + 2 + p)
                } else if b.get(i + 2) == Some(&b'\'') {
                    Some(i + 2)
                } else {
                    std::str::from_utf8(&b[i + 1..])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .filter(|c| c.len_utf8() > 1 && b.get(i + 1 + c.len_utf8()) == Some(&b'\''))
                        .map(|c| i + 1 + c.len_utf8())
                };
                match end {
                    Some(e) => {
                        for c in &b[i..=e] {
                            blank(&mut out, *c);
                        }
                        i = e + 1;
                    }
                    None => {
                        out.push(b[i]);
                        i += 1;
                    }
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The source of a library file without its `#[cfg(test)]` module (everything from the
/// attribute on is test code, by this workspace's convention of putting tests last).
fn library_part(code: &str) -> &str {
    match code.find("#[cfg(test)]") {
        Some(i) => &code[..i],
        None => code,
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Library source files of a crate (its `src/`, without unit-test files).
fn library_files(krate: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("crates").join(krate).join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| p.file_name().is_none_or(|n| n != "tests.rs"))
        .map(|p| {
            let code = code_only(&std::fs::read_to_string(&p).unwrap());
            let lib = library_part(&code).to_owned();
            (p, lib)
        })
        .collect()
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root().join("crates"))
        .unwrap_or(p)
        .display()
        .to_string()
}

// ----- layers inside ferry-core ----------------------------------------------------------------

const LAYERS: [&str; 4] = ["engine", "qmgr", "durable", "channel"];

/// The `crate::x::y` module paths a file names (`use crate::x::{y, z::W}` gives x::y and x::z).
fn crate_paths(code: &str) -> BTreeSet<Vec<String>> {
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let module =
        |w: &str| !w.is_empty() && w != "self" && w.starts_with(|c: char| c.is_ascii_lowercase());
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        let first = word(rest);
        if !module(&first) {
            continue;
        }
        let after = &rest[first.len()..];
        let Some(tail) = after.strip_prefix("::") else {
            out.insert(vec![first]);
            continue;
        };
        if let Some(group) = tail.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            let mut any = false;
            for item in group[..end].split(',') {
                let w = word(item);
                if module(&w) && item.trim_start()[w.len()..].trim_start().starts_with("::") {
                    out.insert(vec![first.clone(), w]);
                    any = true;
                }
            }
            if !any {
                out.insert(vec![first]);
            }
            continue;
        }
        let second = word(tail);
        if module(&second) && tail[second.len()..].starts_with("::") {
            out.insert(vec![first, second]);
        } else {
            out.insert(vec![first]);
        }
    }
    out
}

#[test]
fn the_engine_layers_import_only_downwards_and_without_cycles() {
    let src = root().join("crates/ferry-core/src");
    let rank = |l: &str| LAYERS.iter().position(|x| *x == l);
    let mut broken = Vec::new();
    // Edges between files of one layer, for the cycle check: "layer/file" -> "layer/file".
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, code) in library_files("ferry-core") {
        let relp = path.strip_prefix(&src).unwrap();
        let Some(layer) = relp.iter().next().and_then(|s| s.to_str()) else {
            continue;
        };
        let Some(my_rank) = rank(layer) else {
            continue; // lib.rs
        };
        let node = relp.with_extension("").display().to_string();
        for p in crate_paths(&code) {
            let Some(their) = rank(&p[0]) else {
                broken.push(format!(
                    "{}: names crate::{}, which is not a layer",
                    rel(&path),
                    p[0]
                ));
                continue;
            };
            if their > my_rank {
                broken.push(format!(
                    "{}: layer {layer} imports crate::{} (a layer above it)",
                    rel(&path),
                    p.join("::")
                ));
            }
            if their == my_rank && p.len() == 2 && !node.ends_with("/mod") {
                edges
                    .entry(node.clone())
                    .or_default()
                    .insert(format!("{}/{}", p[0], p[1]));
            }
        }
    }
    // Cycles between the files of a layer (its mod.rs, which declares what they share, is the
    // root they all may name).
    for start in edges.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((n, trail)) = stack.pop() {
            for next in edges.get(&n).into_iter().flatten() {
                if next == start {
                    broken.push(format!("import cycle: {} -> {next}", trail.join(" -> ")));
                } else if seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    broken.sort();
    broken.dedup();
    assert!(
        broken.is_empty(),
        "layering rules broken:\n  {}",
        broken.join("\n  ")
    );
}

// ----- function length ------------------------------------------------------------------------

/// Every function in `code` with its first line (1-based) and length in lines.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let Some(name) = fn_name(l) else {
            i += 1;
            continue;
        };
        let (mut depth, mut started, mut j) = (0i32, false, i);
        'scan: while j < lines.len() {
            for c in lines[j].chars() {
                match c {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    ';' if !started && depth == 0 => break 'scan,
                    _ => {}
                }
                if started && depth == 0 {
                    break 'scan;
                }
            }
            j += 1;
        }
        if started {
            out.push((name, i + 1, j - i + 1));
        }
        i += 1;
    }
    out
}

/// The name of the function a line declares, if it does.
fn fn_name(line: &str) -> Option<String> {
    let t = line.trim_start();
    let mut words = t.split_whitespace().peekable();
    while let Some(w) = words.peek() {
        let w = *w;
        if w.starts_with("pub") || ["const", "async", "unsafe", "extern", "\"C\""].contains(&w) {
            words.next();
        } else {
            break;
        }
    }
    if words.next()? != "fn" {
        return None;
    }
    let name: String = words
        .next()?
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Crates whose functions must all be short.
const SHORT: &[&str] = &[
    "ferry-model",
    "ferry-core",
    "ferry-host",
    "ferry-server",
    "ferry-admin",
    "ferry-perf",
];

/// Longest function allowed in them.
const MAX_FN_LINES: usize = 70;

/// Functions elsewhere that are longer than that today, with their length now: the ratchet.
/// One may shrink (then lower its entry or remove it); none may grow, and no new one may join.
const RATCHET: &[(&str, &str, usize)] = &[
    ("ferry-log/src/scan.rs", "scan_from", 152),
    ("ferry-proto/src/msg.rs", "decode", 117),
    ("ferry-client/src/asynch.rs", "run_link", 84),
    ("ferry-proto/src/msg.rs", "decode_response", 104),
    ("ferry-proto/src/msg.rs", "encode_response", 102),
    ("ferry/src/qm.rs", "start", 77),
    ("ferry-proto/src/msg.rs", "encode", 99),
    ("ferry-log/src/writer.rs", "open", 97),
    ("ferry/src/admin.rs", "interactive", 75),
];

#[test]
fn functions_stay_short_enough_to_read_at_once() {
    let mut krates: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    krates.push("ferry-mqi/mqm".into());
    krates.push("ferry-mqi/mqic".into());
    let mut broken = Vec::new();
    for krate in &krates {
        for (path, code) in library_files(krate) {
            for (name, line, len) in functions(&code) {
                if len <= MAX_FN_LINES {
                    continue;
                }
                let file = rel(&path);
                let allowed = RATCHET
                    .iter()
                    .find(|(f, n, _)| *f == file && *n == name)
                    .map(|(_, _, max)| *max);
                match allowed {
                    Some(max) if !SHORT.contains(&krate.as_str()) && len <= max => {}
                    Some(max) => broken.push(format!(
                        "{file}:{line} fn {name} is {len} lines (ratchet {max}; split it)"
                    )),
                    None => broken.push(format!(
                        "{file}:{line} fn {name} is {len} lines (at most {MAX_FN_LINES}; split it)"
                    )),
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "functions too long:\n  {}",
        broken.join("\n  ")
    );
}

// ----- banned calls ---------------------------------------------------------------------------

#[test]
fn library_code_reads_the_clock_only_through_the_clock_module_and_never_unwraps() {
    let mut broken = Vec::new();
    for krate in ["ferry-model", "ferry-core"] {
        for (path, code) in library_files(krate) {
            if rel(&path) == "ferry-model/src/clock.rs" {
                continue;
            }
            for call in ["SystemTime::now", "Instant::now"] {
                for (i, l) in code.lines().enumerate() {
                    if l.contains(call) {
                        broken.push(format!(
                            "{}:{}: {call} (ask a ferry_model::Clock, or clock::monotonic_now for an OS wait)",
                            rel(&path),
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    let krates: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for krate in &krates {
        for (path, code) in library_files(krate) {
            for (i, l) in code.lines().enumerate() {
                if l.contains(".unwrap()") {
                    broken.push(format!(
                        "{}:{}: .unwrap() in library code (return the error, with a sentence)",
                        rel(&path),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "banned calls:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn the_scanner_sees_code_not_comments_or_strings() {
    let src = "fn a() {\n    let s = \"{ fn b() }\"; // { unwrap()\n    let c = '{';\n}\nfn b<'x>(v: &'x str) -> &'x str { v }\n";
    let code = code_only(src);
    assert_eq!(
        functions(&code),
        vec![("a".to_owned(), 1, 4), ("b".to_owned(), 5, 1)]
    );
    assert!(!code.contains("unwrap"));
    let paths = crate_paths(
        "use crate::engine::{Queue, store::Pos};\nlet x = crate::qmgr::journal::deferring;\nuse crate::durable::Persist;",
    );
    let want: BTreeSet<Vec<String>> = [
        vec!["engine", "store"],
        vec!["qmgr", "journal"],
        vec!["durable"],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(str::to_owned).collect())
    .collect();
    assert_eq!(paths, want);
}
