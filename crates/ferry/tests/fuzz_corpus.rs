//! Replays the fuzzers' corpora (`fuzz/corpus/<target>/`) through what they fuzz on every test
//! run — the MQSC parser, the recovery log's readers and the `qm.toml` reader — so inputs the
//! fuzzers found (and the seeds) stay covered where nobody runs the fuzzers. The wire decoders'
//! corpus is replayed by `crates/ferry-proto/tests/fuzz_corpus.rs`.

fn replay(target: &str, mut run: impl FnMut(&[u8])) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the fuzz corpus directory exists") {
        run(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 3, "{target}: {n} files in {}", dir.display());
}

#[test]
fn the_mqsc_parser_corpus_replays_without_panics() {
    replay("mqsc_parser", |d| {
        ferry_admin::parse::parse_everything(&String::from_utf8_lossy(d))
    });
}

#[test]
fn the_log_records_corpus_replays_without_panics() {
    replay("log_records", ferry_core::durable::replay::read_everything);
}

#[test]
fn the_config_corpus_replays_without_panics_and_reads_the_good_files() {
    let mut good = 0;
    replay("config", |d| {
        good += usize::from(ferry_host::home::QmFile::parse(&String::from_utf8_lossy(d)).is_ok())
    });
    assert!(good >= 2, "the seeds include good files");
}
