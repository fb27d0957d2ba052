#!/usr/bin/env bash
# The benchmark suite, one step after another (never two benchmarks at once on this machine):
# the machine's raw limits (`ferry perf limits`: medians of five runs with their spread), every
# bench of `cargo bench -p ferry-benches` (each workload beside the raw limit of its own run),
# then the side-by-side scripts with the peers: NATS for request/reply and publish/subscribe
# (rr-vs-nats.sh, pubsub-vs-nats.sh) and Mosquitto for MQTT (mqtt-vs-mosquitto.sh). Each step's
# output goes to OUT/<step>.txt, and OUT/summary.txt gathers the lines that carry the figures.
# A peer that is not installed is reported as skipped, by name; a step that fails is reported
# as failed and the suite goes on, then exits 1.
#
# Usage: benches/suite.sh [OUT]        (default: target/bench-suite/<UTC date and time>)
#   QUICK=1 benches/suite.sh           short runs with smaller fills: a check that every step
#                                      runs here, not figures to quote (about 15 minutes)
# Needs: a release build of ferry (cargo build --release -p ferry); for the peers, what each
# script's head names (nats-server and the nats CLI; mosquitto, mosquitto-clients and Go).
set -uo pipefail

cd "$(dirname "$0")/.."
OUT=${1:-target/bench-suite/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
FERRY=${FERRY:-target/release/ferry}
export FERRY
failed=0
: >"$OUT/summary.txt"

if [[ -n "${QUICK:-}" ]]; then
    BENCH_ARGS=(--secs 1 --runs 1)
    export FERRY_DEEP_MESSAGES=${FERRY_DEEP_MESSAGES:-200000}
    export FERRY_CKPT_MESSAGES=${FERRY_CKPT_MESSAGES:-50000}
    export FERRY_BENCH_QUEUES=${FERRY_BENCH_QUEUES:-1000}
    RR_ARGS=(1 2 16)
    PUBSUB_ARGS=(10 1 2)
    MQTT_ARGS=(5000 1 20000)
else
    BENCH_ARGS=(--secs 3 --runs 3)
    RR_ARGS=(3 5 16 64)
    PUBSUB_ARGS=(10 3 5)
    MQTT_ARGS=()
fi

# Runs one step: a name, then the command; its output to OUT/<name>.txt, its figures (lines
# naming a rate, a ratio or a median) to the summary.
step() {
    local name=$1
    shift
    echo "== $name: $*" | tee -a "$OUT/summary.txt"
    local start=$SECONDS
    if "$@" >"$OUT/$name.txt" 2>&1; then
        grep -E "msg/s|/s |per second|round trips|% of|x NATS|medians?|raw limit|syncs/s" \
            "$OUT/$name.txt" | grep -v "^ *Compiling" >>"$OUT/summary.txt"
        echo "   ok in $((SECONDS - start)) s" | tee -a "$OUT/summary.txt"
    else
        echo "   FAILED (exit $?) after $((SECONDS - start)) s; see $OUT/$name.txt" |
            tee -a "$OUT/summary.txt"
        failed=1
    fi
}

# Skips a step whose peer is missing, naming what is missing.
needs() {
    local missing=()
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || [[ -x "$HOME/go/bin/$c" ]] || missing+=("$c")
    done
    if ((${#missing[@]})); then
        echo "== skipped (not installed: ${missing[*]})" | tee -a "$OUT/summary.txt"
        return 1
    fi
}

if [[ ! -x "$FERRY" ]]; then
    echo "no release build at $FERRY: cargo build --release -p ferry" >&2
    exit 2
fi

step limits "$FERRY" perf limits
for b in embedded remote persistent pubsub mqi admin channels checkpoint deep; do
    step "bench-$b" cargo bench -p ferry-benches --bench "$b" -- "${BENCH_ARGS[@]}"
done
needs nats-server nats && step rr-vs-nats benches/rr-vs-nats.sh "${RR_ARGS[@]}"
needs nats-server nats && step pubsub-vs-nats benches/pubsub-vs-nats.sh "${PUBSUB_ARGS[@]}"
needs mosquitto mosquitto_pub mosquitto_sub go &&
    step mqtt-vs-mosquitto benches/mqtt-vs-mosquitto.sh "${MQTT_ARGS[@]}"

echo "suite output: $OUT (figures in $OUT/summary.txt)"
exit $failed
