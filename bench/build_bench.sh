#!/bin/sh
# Build time: a clean build of schedlab and every test in a
# fresh build directory, as the unity build does it (the default) and one
# file a unit, each with its wall time and user+sys CPU (what holds on a
# shared machine). About 15 minutes on 2 cores.
#   bench/build_bench.sh [unity|files]...     (default: both)
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for mode in ${*:-unity files}; do
  case $mode in
    unity) unity=ON ;;
    files) unity=OFF ;;
    *) echo "bench/build_bench.sh: unknown mode '$mode' (unity or files)" >&2; exit 2 ;;
  esac
  cmake -S . -B "$dir/$mode" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=$unity >/dev/null
  /usr/bin/time -f "%e %U %S" -o "$dir/time" cmake --build "$dir/$mode" -j "$(nproc)" >/dev/null
  read -r wall user sys < "$dir/time"
  echo "$mode: $wall s wall, $(echo "$user + $sys" | bc) s CPU (user $user, sys $sys)"
  rm -rf "${dir:?}/$mode"
done
