#!/usr/bin/env bash
# MQTT end to end, FerryMQ beside Eclipse Mosquitto (the broker from Debian's package), same
# clients for both: one `mosquitto_pub -l` publishing N messages of 256 bytes (IBM's MQTT figure's
# size) to one topic, one `mosquitto_sub` taking all N; the rate is N over the time from the
# publisher's start to the subscriber's last message. Medians of RUNS, each broker in turn.
#
#   benches/mqtt-vs-mosquitto.sh [N] [RUNS [WINDOWED_N [WINDOW]]]   (defaults 20000 3 200000 1000)
#
# Then the windowed runs: benches/mqttload (Eclipse Paho's Go client) publishing WINDOWED_N
# messages of 256 B with at most WINDOW QoS 1 publications unacknowledged (QoS 0: as fast as it
# writes) to one subscriber, against Mosquitto at its default limits (a second instance: 20
# messages in flight to a subscriber, 1,000 queued, the rest dropped) and FerryMQ; delivered
# rate and messages lost, medians of RUNS.
#
# Needs: mosquitto and mosquitto-clients (apt), Go (for benches/mqttload, built here), a release
# build of ferry (cargo build --release).
# Mosquitto keeps QoS 1 messages in memory (persistence off, its default); FerryMQ's QoS 1 are
# persistent messages, acknowledged once on disk — the figures say what each promises.
set -euo pipefail
N=${1:-20000}
RUNS=${2:-3}
WN=${3:-200000}
WINDOW=${4:-1000}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FERRY=${FERRY:-target/release/ferry}
work=$(mktemp -d /tmp/ferry-mqtt-bench.XXXXXX)
mosq_pid=""
mosq_default_pid=""
cleanup() {
    [ -n "$mosq_pid" ] && kill "$mosq_pid" 2>/dev/null || true
    [ -n "$mosq_default_pid" ] && kill "$mosq_default_pid" 2>/dev/null || true
    FERRY_HOME="$work/home" "$FERRY" qm stop -i BENCH >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
mport=$(free_port)
fport=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages %s\n' "$mport" "$N" > "$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" > "$work/mosquitto.log" 2>&1 &
mosq_pid=$!
dport=$(free_port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$dport" > "$work/mosquitto-default.conf"
/usr/sbin/mosquitto -c "$work/mosquitto-default.conf" > "$work/mosquitto-default.log" 2>&1 &
mosq_default_pid=$!
(cd benches/mqttload && go build -o "$work/mqttload" .)
export FERRY_HOME="$work/home"
"$FERRY" qm create BENCH --listen 127.0.0.1:0 > /dev/null
echo 'bench-pw' | "$FERRY" qm user add BENCH bench > /dev/null
"$FERRY" qm start BENCH --mqtt-listen "127.0.0.1:$fport" > /dev/null
"$FERRY" admin BENCH > /dev/null <<'EOF'
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bench') AUTHADD(CONNECT)
SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('bench') AUTHADD(PUB,SUB)
EOF
python3 -c "
for i in range($N): print(f'{i:08d}' + 'x' * 248)
" > "$work/lines.txt"

# One run: prints the rate, or 0 when the subscriber did not get all N within 60 s.
one() {
    local port=$1 qos=$2
    shift 2
    mosquitto_sub -h 127.0.0.1 -p "$port" "$@" -t bench/t -q "$qos" -C "$N" -W 60 > "$work/got.txt" 2>/dev/null &
    local sub=$!
    sleep 0.5
    local t0 t1
    t0=$(date +%s.%N)
    mosquitto_pub -h 127.0.0.1 -p "$port" "$@" -t bench/t -q "$qos" -l < "$work/lines.txt"
    wait "$sub" || true
    t1=$(date +%s.%N)
    if [ "$(wc -l < "$work/got.txt")" -eq "$N" ]; then
        python3 -c "print(round($N / ($t1 - $t0)))"
    else
        echo 0
    fi
}
median() { python3 -c "import statistics,sys; print(int(statistics.median(map(int, sys.argv[1:]))))" "$@"; }

echo "# $N messages of 256 B, 1 publisher -> 1 subscriber, medians of $RUNS (msg/s)"
for qos in 0 1; do
    m=()
    f=()
    for _ in $(seq "$RUNS"); do
        m+=("$(one "$mport" "$qos")")
        f+=("$(one "$fport" "$qos" -u bench -P bench-pw)")
    done
    echo "QoS $qos: mosquitto $(median "${m[@]}") (${m[*]})   FerryMQ $(median "${f[@]}") (${f[*]})"
done

# One windowed run: "rate lost" from mqttload's JSON ("0 WN" when it failed).
windowed() {
    local port=$1 qos=$2
    shift 2
    "$work/mqttload" -broker "tcp://127.0.0.1:$port" -qos "$qos" -n "$WN" -window "$WINDOW" \
        -wait 30s "$@" 2>/dev/null |
        python3 -c "import json,sys; r=json.load(sys.stdin); print(round(r['per_second']), r['lost'])" ||
        echo "0 $WN"
}

echo "# windowed: $WN messages of 256 B, Paho Go publisher (QoS 1 window $WINDOW) -> 1 subscriber, medians of $RUNS (msg/s delivered, lost)"
for qos in 0 1; do
    m=() ml=() f=() fl=()
    for _ in $(seq "$RUNS"); do
        read -r rate lost <<<"$(windowed "$dport" "$qos")"
        m+=("$rate") ml+=("$lost")
        read -r rate lost <<<"$(windowed "$fport" "$qos" -user bench -password bench-pw)"
        f+=("$rate") fl+=("$lost")
    done
    echo "QoS $qos: mosquitto (default limits) $(median "${m[@]}") (${m[*]}; lost ${ml[*]})   FerryMQ $(median "${f[@]}") (${f[*]}; lost ${fl[*]})"
done
