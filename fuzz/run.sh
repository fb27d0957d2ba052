#!/usr/bin/env bash
# Runs every fuzz target in turn, each for SECONDS (default 600), keeping what it finds in
# fuzz/corpus/<target>/ (replayed by the normal test run). Needs a nightly toolchain and
# cargo-fuzz (`cargo install cargo-fuzz`). Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
secs="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(frame_decoder mqsc_parser log_records config mqtt_packets)
fi
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    echo "==> $t for ${secs}s"
    cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 2>&1 \
        | grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|panicked|SUMMARY|Done" || true
done
