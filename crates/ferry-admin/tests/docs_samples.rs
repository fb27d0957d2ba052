//! The sample outputs in docs/admin.md are what the executor prints: each block after a
//! `<!-- output of the commands below, checked by crates/ferry-admin/tests/docs_samples.rs -->`
//! marker is run (its numbered command lines, as one script, against a fresh in-memory queue
//! manager QM1) and must come out byte for byte.

use ferry_admin::{format, run_script};
use ferry_core::QueueManager;

const MARKER: &str =
    "<!-- output of the commands below, checked by crates/ferry-admin/tests/docs_samples.rs -->";

/// The fenced blocks that follow a marker.
fn samples(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find(MARKER) {
        rest = &rest[i + MARKER.len()..];
        let open = rest.find("```\n").expect("a fenced block after the marker") + 4;
        let close = rest[open..].find("```").expect("the block ends") + open;
        out.push(rest[open..close].to_owned());
        rest = &rest[close..];
    }
    out
}

#[test]
fn the_admin_guides_sample_output_is_what_ferry_admin_prints() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/admin.md"))
        .unwrap();
    let blocks = samples(&doc);
    assert!(!blocks.is_empty(), "docs/admin.md has no checked sample");
    for block in blocks {
        let script: Vec<&str> = block
            .lines()
            .filter_map(|l| {
                let (n, cmd) = l.split_once(" : ")?;
                n.trim().parse::<usize>().ok().map(|_| cmd)
            })
            .collect();
        let qm = QueueManager::with_name("QM1").unwrap();
        let printed = format::text(&run_script(&qm, &script.join("\n")));
        assert_eq!(
            printed, block,
            "docs/admin.md is stale; ferry admin prints:\n{printed}"
        );
    }
}
