//! Fuzzes the `qm.toml` reader with arbitrary text: `cargo +nightly fuzz run config`. The corpus
//! is replayed by `crates/ferry-host/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = ferry_host::home::QmFile::parse(&String::from_utf8_lossy(data));
});
