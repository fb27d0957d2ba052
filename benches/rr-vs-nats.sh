#!/usr/bin/env bash
# Request/reply, FerryMQ beside NATS on this machine, in one session: R requesters, each its own
# connection waiting for each reply before the next request, 2 KB requests and replies, loopback
# TCP. NATS: nats-server with its own bench tool (`nats bench service serve` answers as a queue
# group, `nats bench service request` asks). FerryMQ: `ferry perf rr` with the blocking client
# (one thread a requester: the MQI's shape; synchronous puts, then MQPMO_ASYNC_RESPONSE puts
# with MQOO_READ_AHEAD responders, a socket each and ten a socket) and with the async client (a
# socket a conversation, and ten a socket: MQ's default SHARECNV(10)). Runs are taken in turns
# (NATS, then each FerryMQ client), RUNS times for each requester count; prints every run and
# the medians of round trips per second.
#
# Needs: nats-server (apt install nats-server), the nats CLI (go install
# github.com/nats-io/natscli/nats@v0.5.0), a release build of ferry (cargo build --release -p ferry).
# Usage: benches/rr-vs-nats.sh [RUNS [SECONDS [REQUESTERS...]]]   (default: 3 5 16 64)
set -euo pipefail

RUNS=${1:-3}
SECS=${2:-5}
shift $(($# > 2 ? 2 : $#))
COUNTS=("${@:-16 64}")
read -r -a COUNTS <<<"${COUNTS[*]}"
NATS_PORT=14223
FERRY_PORT=14142
# shellcheck source=beside-nats.sh
source "$(dirname "$0")/beside-nats.sh"
# As many sockets may connect at once as there are requesters and responders.
beside_nats_start rr-vs-nats $NATS_PORT $FERRY_PORT \
    --set server.max_unopened_per_address=1024 <<'MQSC'
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('perf') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('perf') AUTHADD(ALLMQI,DSP)
SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('perf') AUTHADD(CRT)
MQSC

# Round trips per second of one NATS run: R requesters, R responders in a queue group.
nats_run() {
    local r=$1
    "$NATS" bench service serve rr -s "nats://127.0.0.1:$NATS_PORT" --clients "$r" --size 2KB \
        --no-progress >"$WORK/serve.txt" 2>&1 &
    SERVE_PID=$!
    sleep 1
    timeout $((SECS * 6 + 30)) "$NATS" bench service request rr \
        -s "nats://127.0.0.1:$NATS_PORT" --clients "$r" --msgs $((SECS * 20000)) --size 2KB \
        --no-progress >"$WORK/req.txt" 2>&1 || true
    kill "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
    SERVE_PID=
    { grep -E "aggregated stats|Requester stats|stats:" "$WORK/req.txt" | head -1 |
        sed -E 's/.*stats: ([0-9,]+) msgs\/sec.*/\1/' | tr -d , | grep -E '^[0-9]+$'; } || echo 0
}

# Round trips per second of one FerryMQ run; the options after $1 choose the client
# (--blocking-client, or --async-client with --share-conv N).
ferry_run() {
    local r=$1
    shift
    "$FERRY" perf rr --threads "$r" "$@" -c "tcp://127.0.0.1:$FERRY_PORT" --user perf \
        --qm-pid "$QM_PID" -d "${SECS}s" --warmup 1s 2>&1 |
        grep -E "per second" | head -1 | sed -E 's/.*: ([0-9,]+) per.*/\1/' | tr -d , || echo 0
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The FerryMQ clients measured: a label, then ferry perf rr's options.
VARIANTS=(
    "blocking client (MQI shape, synchronous puts)|--blocking-client"
    "blocking, async put + read-ahead|--blocking-client --async-put --read-ahead"
    "blocking, async put + read-ahead, 10 a socket|--blocking-client --async-put --read-ahead --share-conv 10"
    "async client, a socket each|--async-client"
    "async client, 10 a socket|--async-client --share-conv 10"
)

for r in "${COUNTS[@]}"; do
    n=()
    declare -A got=()
    for i in $(seq "$RUNS"); do
        n+=("$(nats_run "$r")")
        line="$r requesters, run $i: NATS ${n[-1]}"
        for k in "${!VARIANTS[@]}"; do
            read -r -a opts <<<"${VARIANTS[$k]#*|}"
            v=$(ferry_run "$r" "${opts[@]}")
            got[$k]="${got[$k]:-} $v"
            line="$line; ${VARIANTS[$k]%%|*} $v"
        done
        echo "$line (round trips/s)"
    done
    mn=$(median "${n[@]}")
    echo "$r requesters, 2 KB, medians of $RUNS runs (round trips/s):"
    echo "  NATS (nats-server $("$NATS_SERVER" --version | awk '{print $NF}'), nats bench service): $mn"
    for k in "${!VARIANTS[@]}"; do
        # shellcheck disable=SC2086
        m=$(median ${got[$k]})
        awk -v m="$m" -v n="$mn" -v l="${VARIANTS[$k]%%|*}" 'BEGIN {
            printf "  FerryMQ, %-48s %7d  (%.2f x NATS)\n", l ":", m, (n > 0 ? m / n : 0) }'
    done
    unset got
done
