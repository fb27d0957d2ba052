//! Fuzzes the MQSC parser with arbitrary text: `cargo +nightly fuzz run mqsc_parser`. The
//! corpus is replayed by `crates/ferry-admin/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ferry_admin::parse::parse_everything(&String::from_utf8_lossy(data));
});
