//! Replays the fuzzer's corpus (`fuzz/corpus/frame_decoder/`) through the decoders on every
//! test run: inputs the fuzzer found stay covered even where nobody runs the fuzzer.

#[test]
fn fuzz_corpus_replays_without_panics() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/frame_decoder");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the fuzz corpus directory exists") {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        ferry_proto::decode_everything(&data);
        n += 1;
    }
    assert!(
        n >= 10,
        "the corpus holds its seeds ({n} files in {})",
        dir.display()
    );
}
