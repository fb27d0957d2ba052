#!/usr/bin/env bash
# Installs FerryMQ for this user and starts a queue manager: the README's first command.
#
#   scripts/install.sh [--qm NAME] [--no-start] [--debug] [--root DIR]
#
# 1. checks what the build needs (cargo and a C linker) and says how to get what is missing;
# 2. builds and installs `ferry` with the lock file (cargo install --locked) into
#    CARGO_HOME/bin (~/.cargo/bin, where rustup puts the shell's PATH);
# 3. installs the MQI headers and libraries (crates/ferry-mqi/install.sh) under
#    ~/.local/ferry-mqi (FERRY_MQI_PREFIX to choose);
# 4. starts queue manager QM1 (or --qm NAME) in the background with the defaults, creating it.
# --debug builds without optimisation, sharing this checkout's target/ (what CI does);
# --root DIR installs ferry into DIR/bin instead.
set -euo pipefail

qm=QM1
start=1
profile=(--release)
root="${CARGO_HOME:-$HOME/.cargo}"
while [ $# -gt 0 ]; do
    case "$1" in
        --qm) qm="$2"; shift 2 ;;
        --no-start) start=0; shift ;;
        --debug) profile=(--debug); shift ;;
        --root) root="$2"; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
missing=()
command -v cargo >/dev/null 2>&1 || missing+=("cargo (Rust: https://rustup.rs, or apt install cargo)")
command -v cc >/dev/null 2>&1 || missing+=("a C compiler and linker (apt install gcc)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "install.sh: FerryMQ needs, and this machine lacks:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

bin="$root/bin"
echo "==> building and installing ferry into $bin (cargo install --locked)"
if [ "${profile[0]}" = --debug ]; then
    CARGO_TARGET_DIR="$here/target" cargo install --locked --debug --path "$here/crates/ferry" \
        --root "$root" --force --quiet
else
    cargo install --locked --path "$here/crates/ferry" --root "$root" --force --quiet
fi

mqi="${FERRY_MQI_PREFIX:-$HOME/.local/ferry-mqi}"
echo "==> installing the MQI headers and libraries under $mqi"
if [ "${profile[0]}" = --debug ]; then
    (cd "$here" && cargo build --quiet -p ferry-mqm -p ferry-mqic)
    "$here/crates/ferry-mqi/install.sh" --prefix "$mqi" --lib-dir "$here/target/debug" >/dev/null
else
    "$here/crates/ferry-mqi/install.sh" --prefix "$mqi" >/dev/null
fi
echo "    C programs: cc -I$mqi/inc prog.c -L$mqi/lib64 -lmqic_r -Wl,-rpath,$mqi/lib64"

if ! command -v ferry >/dev/null 2>&1 || [ "$(command -v ferry)" != "$bin/ferry" ]; then
    echo "==> note: this shell does not find $bin/ferry first; add it to PATH:" >&2
    echo "    export PATH=\"$bin:\$PATH\"" >&2
fi
if [ "$start" = 1 ]; then
    if "$bin/ferry" qm list | grep -q "^$qm .*running"; then
        echo "==> queue manager $qm is already running"
    else
        echo "==> starting queue manager $qm"
        "$bin/ferry" qm start "$qm"
    fi
fi
