#!/usr/bin/env bash
# A newcomer's first half hour, as the README tells it, in a fresh FerryMQ home: start a queue
# manager, put and get the first message, start a second one beside it with the defaults, use
# the admin shell, run a short perf workload, stop both and delete them. Fails at the first
# step that does not do what the README says. CI runs it (.ci/run) after the tests.
#
#   scripts/newcomer.sh            uses the `ferry` on PATH (scripts/install.sh put it there)
#   FERRY=target/debug/ferry scripts/newcomer.sh
set -euo pipefail

ferry=${FERRY:-ferry}
command -v "$ferry" >/dev/null 2>&1 || { echo "newcomer.sh: no $ferry; run scripts/install.sh" >&2; exit 1; }
FERRY_HOME=$(mktemp -d /tmp/ferry-newcomer.XXXXXX)
export FERRY_HOME
trap '"$ferry" qm stop QM1 >/dev/null 2>&1 || true; "$ferry" qm stop QM2 >/dev/null 2>&1 || true; rm -rf "$FERRY_HOME"' EXIT

step() { printf '\n==> %s\n' "$*"; }
fail() { echo "newcomer.sh: FAILED: $*" >&2; exit 1; }

step "ferry qm start QM1 (creates it, runs it in the background)"
"$ferry" qm start QM1 | tee "$FERRY_HOME/start1.txt"
grep -q "queue manager QM1 started" "$FERRY_HOME/start1.txt" || fail "QM1 did not say it started"

step "the first message"
echo "hello, FerryMQ" | "$ferry" put QM1 DEV.QUEUE.1
got=$("$ferry" get QM1 DEV.QUEUE.1)
[ "$got" = "hello, FerryMQ" ] || fail "got '$got'"

step "a second queue manager beside it, with the defaults"
"$ferry" qm create QM2
"$ferry" qm start QM2 | tee "$FERRY_HOME/start2.txt"
grep -q "queue manager QM2 started" "$FERRY_HOME/start2.txt" || fail "QM2 did not start beside QM1"
"$ferry" qm list
[ "$("$ferry" qm list | grep -c running)" = 2 ] || fail "both should be running"

step "the admin shell (runmqsc's habits)"
printf 'DEFINE QLOCAL(NEWCOMER.Q) MAXDEPTH(10)\nDISPLAY QLOCAL(NEWCOMER.Q) MAXDEPTH\nEND\n' \
    | "$ferry" admin QM2 | tee "$FERRY_HOME/admin.txt"
grep -q "MAXDEPTH(10)" "$FERRY_HOME/admin.txt" || fail "DISPLAY did not show the new queue"
"$ferry" queues QM2 | grep -q NEWCOMER.Q || fail "ferry queues does not list it"
"$ferry" status | head -1

step "a short perf run against the running QM1"
"$ferry" perf put QM1 -d 1s --warmup 0s | tail -3

step "stop and delete both"
"$ferry" qm stop QM1
"$ferry" qm stop QM2
"$ferry" qm delete QM1
"$ferry" qm delete QM2
[ -z "$("$ferry" qm list)" ] || fail "queue managers left behind"
echo "newcomer.sh: every step did what the README says"
