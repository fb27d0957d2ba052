//! Fuzzes the MQTT service's decoders with arbitrary bytes: `cargo +nightly fuzz run
//! mqtt_packets`. New inputs that find new paths land in `corpus/mqtt_packets/`; the normal
//! test run replays that corpus (crates/ferry-mqtt/tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    ferry_mqtt::wire::decode_everything(data);
});
