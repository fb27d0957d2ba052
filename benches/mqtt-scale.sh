#!/usr/bin/env bash
# MQTT connection scale (issue 26): N idle MQTT 3.1.1 clients (clean session, keep-alive 300 s)
# opened by G Python processes, each from its own loopback source address (127.0.0.B+1 ...
# 127.0.0.B+G, so that ephemeral ports suffice), against a queue manager with F MQTT front ends
# (`[mqtt] front_ends`; 0: the queue manager accepts them itself). Prints each generator's
# connect rate, the memory of the queue manager and its front ends (RSS summed, and PSS, which
# counts the binary's shared pages once) before, with the clients and for 30 s after they
# leave, and DISPLAY CHSTATUS's count.
#
#   benches/mqtt-scale.sh [N [F [G [B]]]]     (defaults 100000 6 6 1)
#
# A process may hold 20,000 descriptors here: a generator opens N/G, a front end holds its
# share. Clients authenticate without a password (CHCKCLNT(OPTIONAL)), so what is measured is
# the service, not Argon2. A second run soon after needs another B (closed connections wait in
# TIME_WAIT on their source address for a minute). Needs a release build (cargo build --release).
set -euo pipefail
N=${1:-100000}
F=${2:-6}
G=${3:-6}
B=${4:-1}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FERRY=${FERRY:-target/release/ferry}
work=$(mktemp -d /tmp/ferry-mqtt-scale.XXXXXX)
export FERRY_HOME="$work/home"
cleanup() {
    exec 3>&- 2>/dev/null || true
    "$FERRY" qm stop -i BENCH >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$FERRY" qm create BENCH --listen 127.0.0.1:0 > /dev/null
"$FERRY" qm start BENCH --mqtt-listen "127.0.0.1:$port" --set "mqtt.max_clients=$((N + 100))" \
    --set "mqtt.front_ends=$F" > /dev/null
"$FERRY" admin BENCH > /dev/null <<EOF
ALTER QMGR MAXDYNQ($((N + 1000))) MAXCONNS($((N + 1000)))
ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWFILE) CHCKCLNT(OPTIONAL)
REFRESH SECURITY TYPE(CONNAUTH)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('scale') AUTHADD(CONNECT)
EOF
qm=$(cat "$FERRY_HOME/qmgrs/BENCH/qm.pid" 2>/dev/null || pgrep -f "qm start BENCH --mqtt-listen 127.0.0.1:$port" | head -1)
procs() { echo "$qm" $(pgrep -P "$qm" -f mqtt-front-end || true); }
rss() { for p in $(procs); do awk '/VmRSS/{print $2}' "/proc/$p/status"; done | paste -sd+ | bc; }
pss() { for p in $(procs); do awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup"; done | paste -sd+ | bc; }
before=$(rss)
mkfifo "$work/go"
for g in $(seq 1 "$G"); do
    python3 benches/mqtt_idle_clients.py "$port" $((N / G)) scale "127.0.0.$((B + g))" "g$g" \
        < "$work/go" > "$work/gen.$g" 2>&1 &
done
exec 3> "$work/go"
for g in $(seq 1 "$G"); do
    until grep -q "connected\|Error\|refused" "$work/gen.$g"; do sleep 0.5; done
    cat "$work/gen.$g"
done
sleep 3
with=$(rss)
with_pss=$(pss)
echo "queue manager RSS $(awk '/VmRSS/{print $2}' /proc/$qm/status) KiB; front ends:" \
    $(for p in $(pgrep -P "$qm" -f mqtt-front-end || true); do awk '/VmRSS/{print $2}' "/proc/$p/status"; done)
"$FERRY" admin BENCH -c "DISPLAY CHSTATUS(SYSTEM.MQTT.TCP) CHLTYPE(MQTT)" | grep -o "CONNECTIONS([0-9]*)"
echo x >&3
exec 3>&-
printf 'RSS after they leave, every 5 s:'
for _ in 1 2 3 4 5 6; do sleep 5; printf ' %s' "$(rss)"; done
echo
echo "N=$N F=$F G=$G: RSS (summed) before $before KiB, with the clients $with KiB" \
    "($(echo "scale=2; ($with - $before) / $N" | bc) KiB a client), PSS with them $with_pss KiB"
