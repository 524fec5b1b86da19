#!/bin/sh
# The README's second command (and CI's): install, build, run every test.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
(cd build && ctest --output-on-failure -j1)
# Every fuzz target for a bounded time, after its regression inputs.
if [ "${FUZZ_SECONDS:-15}" != 0 ]; then FUZZ_SECONDS=${FUZZ_SECONDS:-15} ./scripts/fuzz.sh; fi
