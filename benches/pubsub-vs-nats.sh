#!/usr/bin/env bash
# Publish/subscribe fan-out, FerryMQ beside NATS on this machine, in one session: one publisher,
# N subscribers (each its own connection), 2 KB messages, loopback. Runs are taken in turns
# (NATS, FerryMQ over the local socket, FerryMQ over TCP), RUNS times; prints every run and the
# medians of deliveries per second (what all subscribers received, per second).
#
# Needs: nats-server (apt install nats-server), the nats CLI (go install
# github.com/nats-io/natscli/nats@v0.5.0), a release build of ferry (cargo build --release -p ferry).
# Usage: benches/pubsub-vs-nats.sh [SUBSCRIBERS [RUNS [SECONDS]]]
set -euo pipefail

SUBS=${1:-10}
RUNS=${2:-3}
SECS=${3:-5}
NATS_PORT=14222
FERRY_PORT=14141
# shellcheck source=beside-nats.sh
source "$(dirname "$0")/beside-nats.sh"
beside_nats_start pubsub-vs-nats $NATS_PORT $FERRY_PORT <<'MQSC'
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('perf') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE('**') OBJTYPE(TOPIC) PRINCIPAL('perf') AUTHADD(PUB,SUB,DSP)
SET AUTHREC PROFILE('@class') OBJTYPE(TOPIC) PRINCIPAL('perf') AUTHADD(CRT)
SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('perf') AUTHADD(PUB,SUB,DSP)
SET AUTHREC PROFILE('SYSTEM.NDURABLE.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('perf') AUTHADD(GET,DSP)
MQSC
SOCK=$FERRY_HOME/qmgrs/PERFQM/ferry.sock
MSGS=$((SECS * 60000))

nats_run() {
    # A subscriber NATS cut off as a slow consumer never sees its last messages and would wait
    # for ever: the run is bounded, and then counts as none.
    timeout $((SECS * 4 + 30)) "$NATS" bench sub fanout -s "nats://127.0.0.1:$NATS_PORT" \
        --clients "$SUBS" --msgs "$MSGS" --size 2KB --no-progress >"$WORK/sub.txt" 2>&1 &
    local sub=$!
    sleep 1
    "$NATS" bench pub fanout -s "nats://127.0.0.1:$NATS_PORT" --clients 1 --msgs "$MSGS" \
        --size 2KB --no-progress >"$WORK/pub.txt" 2>&1
    wait "$sub" || true
    grep "aggregated stats" "$WORK/sub.txt" | sed -E 's/.*stats: ([0-9,]+) msgs\/sec.*/\1/' | tr -d , |
        grep . || echo 0
}

ferry_run() {
    "$FERRY" perf publish --subscribers "$SUBS" --async-put --read-ahead --async-client \
        -c "$1" --user perf --qm-pid "$QM_PID" -d "${SECS}s" --warmup 1s >"$WORK/ferry.txt" 2>&1
    grep "deliveries to subscribers" "$WORK/ferry.txt" | sed -E 's/.*subscribers: ([0-9,]+) per.*/\1/' | tr -d ,
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: >"$WORK/nats.runs"
: >"$WORK/unix.runs"
: >"$WORK/tcp.runs"
for i in $(seq "$RUNS"); do
    n=$(nats_run)
    u=$(ferry_run "unix:$SOCK")
    t=$(ferry_run "tcp://127.0.0.1:$FERRY_PORT")
    echo "run $i: NATS $n, FerryMQ unix $u, FerryMQ tcp $t deliveries/s"
    echo "$n" >>"$WORK/nats.runs"
    echo "$u" >>"$WORK/unix.runs"
    echo "$t" >>"$WORK/tcp.runs"
done
echo "1 publisher -> $SUBS subscribers, 2 KB, medians of $RUNS runs (deliveries/s):"
echo "  NATS (nats-server $("$NATS_SERVER" --version | awk '{print $NF}'), nats bench): $(median <"$WORK/nats.runs")"
echo "  FerryMQ, local socket (ferry perf publish):  $(median <"$WORK/unix.runs")"
echo "  FerryMQ, tcp (ferry perf publish):           $(median <"$WORK/tcp.runs")"
