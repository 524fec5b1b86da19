#!/bin/sh
# The README's second command (and CI's): install, build, run every test,
# then each fuzz target.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
fuzz_seconds=${FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" != 0 ]; then
  # The clang fuzz build runs beside ctest at the lowest priority.
  ./scripts/background.sh start build/fuzz-build.log ./scripts/fuzz.sh build
  trap './scripts/background.sh stop build/fuzz-build.log' EXIT
  trap 'exit 130' INT TERM
fi
(cd build && ctest --output-on-failure -j1)
if [ "$fuzz_seconds" != 0 ]; then
  ./scripts/background.sh wait build/fuzz-build.log
  FUZZ_SECONDS=$fuzz_seconds ./scripts/fuzz.sh
fi
