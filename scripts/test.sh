#!/bin/sh
# The README's second command (and CI's): install, build, run the fast tier
# of the tests, then each fuzz target. With --long, the long tier after the
# fast one (nightly and before a release). Each tier's time is printed, and
# the tests that took over 60 s.
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
fuzz_seconds=${FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" != 0 ]; then
  # The clang fuzz build runs beside ctest at the lowest priority.
  ./scripts/background.sh start build/fuzz-build.log ./scripts/fuzz.sh build
  trap './scripts/background.sh stop build/fuzz-build.log' EXIT
  trap 'exit 130' INT TERM
fi

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
if [ "$fuzz_seconds" != 0 ]; then
  ./scripts/background.sh wait build/fuzz-build.log
  FUZZ_SECONDS=$fuzz_seconds ./scripts/fuzz.sh
fi
