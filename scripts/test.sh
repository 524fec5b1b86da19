#!/bin/sh
# The README's second command (and CI's): install, build, run the fast tier
# of the tests, then the sanitizer run (scripts/sanitize.sh) and each fuzz
# target (scripts/fuzz.sh). With --long, the long tier after the fast one
# (nightly and before a release). Each step's time is printed, and the
# tests that took over 60 s.
# Usage: scripts/test.sh [--long]
# The tiers are ctest labels (tests/CMakeLists.txt): a test labelled "long"
# is in the long tier, every other one in the fast tier.
set -eu
cd "$(dirname "$0")/.."
case ${1:-} in
  '') tiers=fast ;;
  --long) tiers="fast long" ;;
  *) echo "usage: scripts/test.sh [--long]" >&2; exit 2 ;;
esac
./scripts/install-deps.sh
./scripts/build.sh
# The sanitized build (clang: the tests and the fuzz targets) runs beside
# ctest at the lowest priority, in the CPU time the tests leave idle.
./scripts/background.sh start build/sanitize-build.log ./scripts/sanitize.sh build
trap './scripts/background.sh stop build/sanitize-build.log' EXIT
trap 'exit 130' INT TERM

# One tier: its tests, then its time and the tests over 60 s (from ctest's
# lines "  3/9 Test  #3: NAME ....   Passed   61.20 sec").
run_tier() {
  case $1 in fast) select=-LE ;; long) select=-L ;; esac
  log=build/ctest-$1.log
  start=$(date +%s)
  status=0
  (cd build && ctest --output-on-failure -j1 "$select" long --output-log "../$log") || status=$?
  echo "test.sh: the $1 tier (ctest $select long) took $(($(date +%s) - start)) s" >&2
  sed -n -E 's/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: (.*) \.+ *[^ ].* ([0-9]+\.[0-9]+) sec$/\2 s  \1/p' "$log" |
    awk '$1 > 60' | sort -rn | sed "s/^/test.sh: over 60 s in the $1 tier: /" >&2
  return "$status"
}
failed=
for tier in $tiers; do
  run_tier "$tier" || failed="$failed $tier"
done
[ -z "$failed" ] || { echo "test.sh: failed in the tier(s):$failed" >&2; exit 1; }
start=$(date +%s)
./scripts/background.sh wait build/sanitize-build.log
echo "test.sh: the sanitized build ended $(($(date +%s) - start)) s after the tests" >&2
start=$(date +%s)
./scripts/sanitize.sh
echo "test.sh: the sanitizer run took $(($(date +%s) - start)) s" >&2
if [ "${FUZZ_SECONDS:-15}" != 0 ]; then
  start=$(date +%s)
  ./scripts/fuzz.sh
  echo "test.sh: fuzzing took $(($(date +%s) - start)) s" >&2
fi
