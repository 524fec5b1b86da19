#!/bin/sh
# Configures and builds schedlab into ./build. Usage: scripts/build.sh [TARGET...]
set -eu
cd "$(dirname "$0")/.."
./scripts/configure.sh build -DCMAKE_BUILD_TYPE=RelWithDebInfo
if [ "$#" -eq 0 ]; then
  cmake --build build -j "$(nproc)"
else
  for t in "$@"; do cmake --build build -j "$(nproc)" --target "$t"; done
fi
