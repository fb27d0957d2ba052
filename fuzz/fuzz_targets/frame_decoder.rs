//! Fuzzes the wire decoders with arbitrary bytes: `cargo +nightly fuzz run frame_decoder`.
//! New inputs that find new paths land in `corpus/frame_decoder/`; the normal test run replays
//! that corpus (crates/ferry-proto/tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ferry_proto::decode_everything(data);
});
