//! Fuzzes the MQTT service's decoders with arbitrary bytes: `cargo +nightly fuzz run
//! mqtt_packets`. New inputs that find new paths land in `corpus/mqtt_packets/`; the normal
//! test run replays that corpus (crates/ferry-mqtt/tests/fuzz_corpus.rs).
//!
//! The codec (mqute-codec) panics on some malformed packets; the service runs it under
//! `catch_unwind` and answers such a packet as malformed (`wire::guarded`). libfuzzer-sys's
//! panic hook would abort at the codec's panic even though it is caught, so the hook is made
//! silent here: a panic that is not caught still ends the run (libfuzzer-sys aborts on it).
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: {
        std::panic::set_hook(Box::new(|_| {}));
    },
    |data: &[u8]| {
        ferry_mqtt::wire::decode_everything(data);
    }
);
