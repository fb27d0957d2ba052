//! Replays the fuzzer's corpus (`fuzz/corpus/mqtt_packets/`) through the MQTT decoders on every
//! test run: each input, and each of its prefixes, ends in an error or a packet — never a panic.

#[test]
fn mqtt_fuzz_corpus_replays_without_panics() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/mqtt_packets");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the fuzz corpus directory exists") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        for end in 0..=data.len().min(512) {
            ferry_mqtt::wire::decode_everything(&data[..end]);
        }
        ferry_mqtt::wire::decode_everything(&data);
        n += 1;
    }
    assert!(
        n >= 3,
        "the corpus holds its seeds ({n} files in {})",
        dir.display()
    );
}
