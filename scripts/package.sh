#!/usr/bin/env bash
# Makes FerryMQ's release archive: dist/ferrymq-VERSION-OS-ARCH.tar.gz with
#
#   bin/ferry                          the command line and queue manager
#   lib64/libmqm_r.so, libmqic_r.so    the MQI libraries (and libmqm.so, libmqic.so links)
#   lib64/pkgconfig/ferry-mqi.pc
#   inc/cmqc.h … cmqstrc.h             the MQI headers
#   share/doc/ferrymq/                 README.md and docs/
#
#   scripts/package.sh [--debug]       --debug packs the unoptimised build (what CI checks)
# Unpack anywhere; put bin/ on PATH; build MQ programs with -I inc -L lib64 -lmqic_r.
set -euo pipefail

profile=release
build=(--release)
case "${1:-}" in
    --debug) profile=debug; build=() ;;
    "") ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "package.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
version=$(cargo pkgid -p ferry | sed 's/.*[#@]//')
name="ferrymq-$version-$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)"
cargo build --quiet "${build[@]}" --locked -p ferry -p ferry-mqm -p ferry-mqic

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/share/doc/ferrymq"
install -m 0755 "target/$profile/ferry" "$root/bin/"
crates/ferry-mqi/install.sh --prefix "$root" --lib-dir "target/$profile" >/dev/null
# The pkg-config file names the staging prefix; an unpacked archive's is found relative to it.
sed -i "s|^prefix=.*|prefix=\${pcfiledir}/../..|" "$root/lib64/pkgconfig/ferry-mqi.pc"
cp README.md "$root/share/doc/ferrymq/"
cp -r docs "$root/share/doc/ferrymq/"
mkdir -p dist
tar -C "$stage" -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz"
