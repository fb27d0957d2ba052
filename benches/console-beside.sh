#!/usr/bin/env bash
# What the web console costs the queue manager, and how fast its pages load with many queues.
#
# One queue manager with the console on and QUEUES queues defined (default 10,000). First the
# Overview and the Queues page are loaded fresh in headless Chromium and timed. Then the
# `ferry perf put` ladder (async put, read-ahead getters, 2 KB, over the local socket) runs RUNS
# times with no browser and RUNS times with Chromium holding the Overview open (it refreshes
# every 2 s; the history sampler runs in both), in turn; the medians side by side.
#
#   benches/console-beside.sh [RUNS] [DURATION] [QUEUES]     (defaults 3, 10s, 10000)
#
# Needs: a release build of ferry (cargo build --release), Debian's chromium, Node.js with
# `npm ci` in tests/browser.
set -euo pipefail
RUNS=${1:-3}
DUR=${2:-10s}
QUEUES=${3:-10000}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FERRY=${FERRY:-$PWD/target/release/ferry}
work=$(mktemp -d /tmp/ferry-console-bench.XXXXXX)
holder=""
cleanup() {
    [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
    FERRY_HOME="$work/home" "$FERRY" qm stop -i BENCH >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
export FERRY_HOME="$work/home"
"$FERRY" qm create BENCH > /dev/null
echo 'ops-pw' | "$FERRY" qm user add BENCH ops --group "$(id -gn)" > /dev/null
"$FERRY" qm start BENCH --console-listen 127.0.0.1:0 > /dev/null
url=$(grep -m1 '^http://.*/$' "$FERRY_HOME/qmgrs/BENCH/endpoints")
python3 -c "
for i in range($QUEUES):
    print(f'DEFINE QLOCAL(APP.BENCH.{i:05d}) MAXDEPTH(5000)')
" | "$FERRY" admin BENCH > /dev/null
echo "queue manager BENCH: $QUEUES queues defined, console at $url"

hold() {
    (cd tests/browser && CONSOLE_URL="$url" USER=ops PASSWORD=ops-pw PAGE=overview node hold-open.mjs) &
    holder=$!
}
rate() {
    "$FERRY" perf put BENCH --helpers 2 --async-put -d "$DUR" --warmup 2s 2>/dev/null \
        | python3 -c "
import re, sys
text = sys.stdin.read()
m = re.findall(r'puts: ([0-9][0-9,]*) per second', text)
print(m[-1].replace(',', '') if m else 'none')"
}
hold
sleep 8
kill "$holder"; wait "$holder" 2>/dev/null || true; holder=""
without=(); with=()
for i in $(seq "$RUNS"); do
    without+=("$(rate)")
    hold
    sleep 4
    with+=("$(rate)")
    kill "$holder"; wait "$holder" 2>/dev/null || true; holder=""
    echo "run $i: without console open ${without[-1]} msg/s, with it open ${with[-1]} msg/s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median: without console open $(median "${without[@]}") msg/s, with the Overview open $(median "${with[@]}") msg/s"
echo "the raw limit of this machine now (ferry perf limits):"
"$FERRY" perf limits 2>/dev/null | grep -E 'median|unix socket relay'
