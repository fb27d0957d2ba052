# Sourced by the benches that run FerryMQ beside NATS (pubsub-vs-nats.sh, rr-vs-nats.sh): the
# tools, a work directory removed at exit, nats-server and a queue manager PERFQM on loopback
# ports, and a user `perf` (password in FERRY_PASSWORD) with the authorities the MQSC on stdin
# grants.
#
# Usage: beside_nats_start NAME NATS_PORT FERRY_PORT [qm start options...] <<MQSC ... MQSC
# Sets FERRY, NATS, NATS_SERVER, WORK, FERRY_HOME, NATS_PID, QM_PID; a script may set SERVE_PID
# for a helper the cleanup stops too.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FERRY=${FERRY:-$HERE/target/release/ferry}
NATS=${NATS:-$(command -v nats || echo "$HOME/go/bin/nats")}
NATS_SERVER=${NATS_SERVER:-$(command -v nats-server)}

beside_nats_cleanup() {
    local pid
    for pid in "${SERVE_PID:-}" "${NATS_PID:-}" "${QM_PID:-}"; do
        [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    [[ -n "${WORK:-}" ]] && rm -rf "$WORK"
}

beside_nats_start() {
    local name=$1 nats_port=$2 ferry_port=$3 port
    shift 3
    for port in "$nats_port" "$ferry_port"; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "port $port is in use: stop what listens there first" >&2
            exit 1
        fi
    done
    WORK=$(mktemp -d "/tmp/$name.XXXXXX")
    export FERRY_HOME=$WORK/home
    trap beside_nats_cleanup EXIT
    "$NATS_SERVER" -a 127.0.0.1 -p "$nats_port" >"$WORK/nats.log" 2>&1 &
    NATS_PID=$!
    "$FERRY" qm start --foreground PERFQM --listen "127.0.0.1:$ferry_port" "$@" \
        >"$WORK/qm.log" 2>&1 &
    QM_PID=$!
    sleep 2
    echo "perf-pw" | "$FERRY" qm user add PERFQM perf >/dev/null
    "$FERRY" admin PERFQM >/dev/null
    export FERRY_PASSWORD=perf-pw
}
