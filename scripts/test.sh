#!/bin/sh
# The README's second command (and CI's): install, build, run every test,
# then each fuzz target.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
fuzz_seconds=${FUZZ_SECONDS:-15}
fuzz_build=
if [ "$fuzz_seconds" != 0 ]; then
  # The clang fuzz build runs beside ctest at the lowest priority
  # (idle-priority.sh): it takes the CPU the tests leave idle (qemu's one
  # TCG thread, servers starting, timeouts waited out) and yields the rest,
  # so the tests run as on an idle machine (the tests' busy loops against
  # its: 98% to 1.5% of a core) and the build costs little time.
  setsid ./scripts/idle-priority.sh ./scripts/fuzz.sh build >build/fuzz-build.log 2>&1 &
  fuzz_build=$!
  trap 'kill -- "-$fuzz_build" 2>/dev/null || true' EXIT
  trap 'exit 130' INT TERM
fi
(cd build && ctest --output-on-failure -j1)
if [ -n "$fuzz_build" ]; then
  if ! wait "$fuzz_build"; then
    cat build/fuzz-build.log >&2
    exit 1
  fi
  FUZZ_SECONDS=$fuzz_seconds ./scripts/fuzz.sh
fi
