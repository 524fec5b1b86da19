#!/bin/sh
# The README's second command (and CI's): install, build, run every test.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cd build && ctest --output-on-failure -j1
