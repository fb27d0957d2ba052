//! Fuzzes the recovery log's readers with arbitrary bytes — the record and extent format, the
//! recovery scan, and the engine's record decoders: `cargo +nightly fuzz run log_records`. The
//! corpus is replayed by `crates/ferry-core/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ferry_core::durable::replay::read_everything(data);
});
