#!/usr/bin/env bash
# Installs FerryMQ's MQI interface: the headers, libmqm_r.so and libmqic_r.so, and a
# pkg-config file, under PREFIX (default /opt/ferry) in the layout MQ tooling expects:
#
#   PREFIX/inc/cmqc.h                    (PREFIX/include -> inc)
#   PREFIX/lib64/libmqm_r.so, libmqic_r.so, and libmqm.so / libmqic.so links
#                                        (PREFIX/lib -> lib64)
#   PREFIX/lib64/pkgconfig/ferry-mqi.pc
#
# Usage: install.sh [--prefix PREFIX] [--lib-dir DIR]
#   --lib-dir DIR  take the libraries from DIR instead of building them (cargo build --release)
set -euo pipefail

prefix=/opt/ferry
lib_dir=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="$2"; shift 2 ;;
        --lib-dir) lib_dir="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -z "$lib_dir" ]; then
    (cd "$here/../.." && cargo build --release -p ferry-mqm -p ferry-mqic)
    lib_dir="$here/../../target/release"
fi
for lib in libmqm_r.so libmqic_r.so; do
    [ -f "$lib_dir/$lib" ] || { echo "install.sh: $lib_dir/$lib not found" >&2; exit 1; }
done

mkdir -p "$prefix/inc" "$prefix/lib64/pkgconfig"
install -m 0644 "$here"/include/*.h "$prefix/inc/"
install -m 0755 "$lib_dir/libmqm_r.so" "$lib_dir/libmqic_r.so" "$prefix/lib64/"
ln -sfn libmqm_r.so "$prefix/lib64/libmqm.so"
ln -sfn libmqic_r.so "$prefix/lib64/libmqic.so"
ln -sfn inc "$prefix/include"
ln -sfn lib64 "$prefix/lib"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/../../Cargo.toml" | head -1)"
cat > "$prefix/lib64/pkgconfig/ferry-mqi.pc" <<PC
prefix=$prefix
includedir=\${prefix}/inc
libdir=\${prefix}/lib64

Name: ferry-mqi
Description: FerryMQ's MQI-compatible C interface (local: -lmqm_r; client: -lmqic_r)
Version: ${version:-0}
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lmqm_r
PC
echo "installed FerryMQ's MQI interface under $prefix (inc/, lib64/, lib64/pkgconfig/ferry-mqi.pc)"
