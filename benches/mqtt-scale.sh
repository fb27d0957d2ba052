#!/usr/bin/env bash
# MQTT at scale (issue 26): N MQTT 3.1.1 clients (clean session, keep-alive 300 s) opened by G
# generator processes (`ferry perf mqtt-clients`; GEN=python: benches/mqtt_clients.py, the same
# in Python at ten times the CPU a message), each from its own loopback source address
# (127.0.0.B+1 ... 127.0.0.B+G, so that ephemeral ports suffice), against a queue manager with F
# MQTT front ends (`[mqtt] front_ends`; 0: the queue manager accepts them itself). Prints each
# generator's connect rate, the memory of the queue manager and its front ends (RSS summed, and
# PSS, which counts the binary's shared pages once) before and with the clients, DISPLAY
# CHSTATUS's count, then what MODE measures with them all connected, then the memory for 30 s
# after they leave.
#
#   benches/mqtt-scale.sh [N [F [G [B [MODE ARGS...]]]]]     (defaults 100000 6 6 1 idle)
#
#   idle                 nothing more: connection scale and memory.
#   fan-in RATE SECS     every client publishes in turn, QoS 1, 256 bytes, RATE messages a second
#                        in all for SECS seconds, on scale/in/<i>; one more client (127.0.0.B+G+1)
#                        subscribes to scale/in/# at QoS 1 and reports what it received and the
#                        latency from publication to arrival (p50, p99, p999, max) — IBM's
#                        "multi-publisher, single subscriber" with 100,000 publishers.
#   fan-out MSGS QOS     every client subscribes to its own topic scale/<i> at QOS; five MQI
#                        publishers (`ferry perf mqtt --from mqi --to none --topics N`, each
#                        MSGS/5 publications, every topic in turn; QoS 1 persistent) feed them;
#                        reports the publishers' rates and what the clients received, a second.
#
# A process may hold 20,000 descriptors here: a generator opens N/G, a front end holds its
# share. Clients authenticate without a password (CHCKCLNT(OPTIONAL)), so what is measured is
# the service, not Argon2. A second run soon after needs another B (closed connections wait in
# TIME_WAIT on their source address for a minute). Needs a release build (cargo build --release).
# QM_ARGS adds arguments to `qm start` (e.g. "--metrics-listen 127.0.0.1:9464"); KEEP=1 keeps the
# work directory (the queue manager's log: FERRY_LOG=info,ferry_core::durable::checkpoint=debug).
# WATCH_KEPT=1 (fan-in): the watcher's session is kept (clean session 0), so every publication
# is logged on its way to it (a clean session's queue is not logged, docs/mqtt.md).
# TOP=N (fan-in): `top` every 5 s, N times, from the start of the publications, to $work/top.
# PROFILE=SECS (fan-in): `perf record -g` of the queue manager for the run's first SECS seconds,
# to $work/perf.data (with KEEP=1); PERF_ARGS replaces `-F 499` (e.g. "-e sched:sched_switch").
#
# The run is in a network namespace of its own (`unshare --net`, its loopback brought up): its
# ports, TIME_WAIT pairs and SYN backlogs are its own, not the machine's, so the generators'
# ports suffice whatever else runs (and B may be reused at once). Its sysctls are a new
# namespace's defaults; the congestion control is inherited. NETNS=0 runs on the machine's
# own loopback (QM_ARGS="--metrics-listen ..." is then reachable from outside).
set -euo pipefail
if [ "${NETNS:-1}" = 1 ] && [ -z "${FERRY_SCALE_IN_NETNS:-}" ]; then
    export FERRY_SCALE_IN_NETNS=1
    exec unshare --net -- bash -c 'ip link set lo up && exec "$0" "$@"' "$0" "$@"
fi
N=${1:-100000}
F=${2:-6}
G=${3:-6}
B=${4:-1}
MODE=${5:-idle}
ARG1=${6:-}
ARG2=${7:-}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FERRY=${FERRY:-target/release/ferry}
GEN=${GEN:-ferry}
work=$(mktemp -d /tmp/ferry-mqtt-scale.XXXXXX)
export FERRY_HOME="$work/home"
cleanup() {
    for fd in $(seq 10 $((10 + G + 1))); do eval "exec $fd>&-" 2>/dev/null || true; done
    "$FERRY" qm stop -i BENCH >/dev/null 2>&1 || true
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$FERRY" qm create BENCH --listen 127.0.0.1:0 > /dev/null
"$FERRY" qm start BENCH --mqtt-listen "127.0.0.1:$port" --set "mqtt.max_clients=$((N + 100))" \
    --set "mqtt.front_ends=$F" ${QM_ARGS:-} > "$work/started"
mqi=$(grep -o 'tcp://[0-9.:]*' "$work/started" | head -1)
"$FERRY" admin BENCH > /dev/null <<EOF
ALTER QMGR MAXDYNQ($((N + 1000))) MAXCONNS($((N + 1000)))
ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWFILE) CHCKCLNT(OPTIONAL)
REFRESH SECURITY TYPE(CONNAUTH)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('scale') AUTHADD(CONNECT)
SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('scale') AUTHADD(PUB,SUB)
EOF
qm=$(cat "$FERRY_HOME/qmgrs/BENCH/qm.pid" 2>/dev/null || pgrep -f "qm start BENCH --mqtt-listen 127.0.0.1:$port" | head -1)
procs() { echo "$qm" $(pgrep -P "$qm" -f mqtt-front-end || true); }
rss() { for p in $(procs); do awk '/VmRSS/{print $2}' "/proc/$p/status"; done | paste -sd+ | bc; }
pss() { for p in $(procs); do awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup"; done | paste -sd+ | bc; }
# Generator g (0: the fan-in watcher) reads its lines from descriptor 10+g and writes $work/gen.g.
generator() {
    local g=$1 count=$2 src=$3 mode=$4 a1=${5:-} a2=${6:-}
    local first=$(((g > 0 ? g - 1 : 0) * (N / G)))
    mkfifo "$work/go.$g"
    if [ "$GEN" = python ]; then
        set -- python3 benches/mqtt_clients.py "$port" "$count" scale "$src" "g$g" "$first" "$mode" $a1 $a2
    else
        set -- "$FERRY" perf mqtt-clients --broker "127.0.0.1:$port" -n "$count" --source "$src" \
            --tag "g$g" --first "$first" --mode "$mode"
        case $mode in
            sub) set -- "$@" --qos "$a1" ;;
            watch) set -- "$@" --qos "$a1" $(if [ -n "${WATCH_KEPT:-}" ]; then echo --kept-session; fi) ;;
            pub) set -- "$@" --rate "$a1" --seconds "$a2" ;;
        esac
    fi
    nice -n "$(if [ "$g" = 0 ]; then echo "${WATCH_NICE:-0}"; else echo "${GEN_NICE:-0}"; fi)" "$@" < "$work/go.$g" > "$work/gen.$g" 2>&1 &
    eval "exec $((10 + g))> \"$work/go.$g\""
}
connected() { until grep -q "connected\|Error\|refused\|closed\|ferry:\|error" "$work/gen.$1"; do sleep 0.5; done; cat "$work/gen.$1"; }
say() { echo go >&$((10 + $1)); }
before=$(rss)
case $MODE in
    idle) for g in $(seq 1 "$G"); do generator "$g" $((N / G)) "127.0.0.$((B + g))" idle; done ;;
    fan-in)
        generator 0 1 "127.0.0.$((B + G + 1))" watch 1
        connected 0
        for g in $(seq 1 "$G"); do
            generator "$g" $((N / G)) "127.0.0.$((B + g))" pub "$(echo "$ARG1 / $G" | bc -l)" "$ARG2"
        done ;;
    fan-out) for g in $(seq 1 "$G"); do generator "$g" $((N / G)) "127.0.0.$((B + g))" sub "$ARG2"; done ;;
    *) echo "unknown mode $MODE (idle, fan-in RATE SECS, fan-out MSGS QOS)" >&2; exit 2 ;;
esac
for g in $(seq 1 "$G"); do connected "$g"; done
sleep 3
with=$(rss)
with_pss=$(pss)
echo "queue manager RSS $(awk '/VmRSS/{print $2}' /proc/$qm/status) KiB; front ends:" \
    $(for p in $(pgrep -P "$qm" -f mqtt-front-end || true); do awk '/VmRSS/{print $2}' "/proc/$p/status"; done)
"$FERRY" admin BENCH -c "DISPLAY CHSTATUS(SYSTEM.MQTT.TCP) CHLTYPE(MQTT)" | grep -o "CONNECTIONS([0-9]*)"
received() { for g in $(seq 1 "$G"); do (grep progress "$work/gen.$g" || echo "progress 0") | tail -1 | cut -d' ' -f2; done | paste -sd+ | bc; }
case $MODE in
    fan-in)
        cpu0=$(awk '{print $14 + $15}' /proc/$qm/stat)
        for g in $(seq 1 "$G"); do say "$g"; done
        if [ -n "${TOP:-}" ]; then
            top -b -d 5 -n "$TOP" -w 160 > "$work/top" 2>&1 &
        fi
        if [ -n "${PROFILE:-}" ]; then
            perf record ${PERF_ARGS:--F 499} -g -p "$qm" -o "$work/perf.data" -- sleep "$PROFILE" > /dev/null 2>&1 &
        fi
        for g in $(seq 1 "$G"); do
            until grep -q "published\|Error" "$work/gen.$g"; do sleep 0.5; done
            grep "published\|Error" "$work/gen.$g"
        done
        sleep 2
        say 0
        until grep -q "^received" "$work/gen.0"; do sleep 0.5; done
        sleep 1
        echo "the subscriber: $(grep -v "connected\|progress" "$work/gen.0" | paste -sd' ')"
        echo "queue manager CPU $(( $(awk '{print $14 + $15}' /proc/$qm/stat) - cpu0 )) ticks" ;;
    fan-out)
        t0=$(date +%s.%N)
        pubs=()
        for k in 1 2 3 4 5; do
            "$FERRY" perf mqtt --from mqi --to none --mqi "$mqi" --user scale --broker "127.0.0.1:$port" \
                --topics $((N / G * G)) --topic scale -n $((ARG1 / 5)) --qos "$ARG2" > "$work/pub.$k" &
            pubs+=($!)
        done
        wait "${pubs[@]}"
        for k in 1 2 3 4 5; do cat "$work/pub.$k"; done
        last=-1
        until [ "$(received)" -ge "$ARG1" ] || [ "$(received)" = "$last" ]; do last=$(received); sleep 3; done
        for g in $(seq 1 "$G"); do say "$g"; done
        for g in $(seq 1 "$G"); do until grep -q "^received" "$work/gen.$g"; do sleep 0.5; done; done
        got=$(grep -h "^received" "$work"/gen.* | awk '{n += $2} END {print n}')
        t1=$(grep -h "^received" "$work"/gen.* | awk '$6 > t {t = $6} END {printf "%.6f", t}')
        echo "received $got of $ARG1 in $(echo "$t1 - $t0" | bc) s" \
            "= $(echo "$got / ($t1 - $t0)" | bc) a second (from the first publication to the last arrival)" ;;
esac
# (A generator that has already ended — the watcher, after its report — cannot be told: its
# pipe is closed, and the write must not end this script.)
for g in $(seq 0 "$G"); do if [ -e "$work/go.$g" ]; then (say "$g") 2>/dev/null || true; fi; done
sleep 1
for g in $(seq 0 "$G"); do if [ -e "$work/go.$g" ]; then (say "$g") 2>/dev/null || true; eval "exec $((10 + g))>&-"; fi; done
printf 'RSS after they leave, every 5 s:'
for _ in 1 2 3 4 5 6; do sleep 5; printf ' %s' "$(rss)"; done
echo
echo "N=$N F=$F G=$G: RSS (summed) before $before KiB, with the clients $with KiB" \
    "($(echo "scale=2; ($with - $before) / $N" | bc) KiB a client), PSS with them $with_pss KiB"
