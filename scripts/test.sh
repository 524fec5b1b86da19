#!/bin/sh
# The README's second command (and CI's): install, build, run the fast tier
# of the tests (its cases that sanitizers cannot usefully watch here, the
# rest in the sanitized build: scripts/sanitize.sh), then each fuzz target
# (scripts/fuzz.sh). With --long, the long tier after the fast one (nightly
# and before a release). Each step's time is printed, and the tests that
# took over 60 s.
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
# The sanitized build (clang: the tests and the fuzz targets) runs beside
# the build of build/ and then ctest, at the lowest priority, in the CPU
# time they leave idle (links, configuring, the tests' waits).
mkdir -p build
./scripts/background.sh start build/sanitize-build.log ./scripts/sanitize.sh build
trap './scripts/background.sh stop build/sanitize-build.log' EXIT
trap 'exit 130' INT TERM
# The fast tier needs in build/ only schedlab and the test executables with
# cases the sanitizer run leaves out (tests/CMakeLists.txt); the long one,
# every executable.
if [ "$tiers" = fast ]; then
  ./scripts/build.sh schedlab schedlab_unsanitized_tests
else
  ./scripts/build.sh
fi

# One ctest run: its time and the tests over 60 s (from ctest's lines
# "  3/9 Test  #3: NAME ....   Passed   61.20 sec").
# Usage: run_ctest NAME DIR CTEST_ARGS...
run_ctest() {
  name=$1 dir=$2
  shift 2
  log=$dir/ctest-$name.log
  start=$(date +%s)
  status=0
  (cd "$dir" && ctest --output-on-failure --output-log "ctest-$name.log" "$@") || status=$?
  echo "test.sh: $name (ctest $*) took $(($(date +%s) - start)) s" >&2
  sed -n -E 's/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: (.*) \.+ *[^ ].* ([0-9]+\.[0-9]+) sec$/\2 s  \1/p' "$log" |
    awk '$1 > 60' | sort -rn | sed "s/^/test.sh: over 60 s in $name: /" >&2
  return "$status"
}
# The fast tier, each case once: what the sanitizer run leaves out (qemu
# boots, the network namespace lab, real workloads, simulated trials:
# ctest's label "unsanitized") here, one at a time; every other case in the
# sanitized build (scripts/sanitize.sh), once it is built. `ctest -LE long`
# in build/ runs the whole fast tier here.
failed=
run_ctest fast-unsanitized build -j1 -L unsanitized -LE long || failed="$failed fast-unsanitized"
start=$(date +%s)
./scripts/background.sh wait build/sanitize-build.log
echo "test.sh: the sanitized build ended $(($(date +%s) - start)) s after those tests" >&2
start=$(date +%s)
./scripts/sanitize.sh || failed="$failed fast-sanitized"
echo "test.sh: the sanitizer run (the rest of the fast tier) took $(($(date +%s) - start)) s" >&2
if [ "$tiers" = "fast long" ]; then
  run_ctest long build -j1 -L long || failed="$failed long"
fi
[ -z "$failed" ] || { echo "test.sh: failed:$failed" >&2; exit 1; }
# Each fuzz target 5 s in the fast tier (a smoke run from the seeds and
# the committed regressions, for CI's time), 30 s with the long tier.
fuzz_seconds=5
[ "$tiers" = fast ] || fuzz_seconds=30
if [ "${FUZZ_SECONDS:-$fuzz_seconds}" != 0 ]; then
  start=$(date +%s)
  FUZZ_SECONDS=${FUZZ_SECONDS:-$fuzz_seconds} ./scripts/fuzz.sh
  echo "test.sh: fuzzing took $(($(date +%s) - start)) s" >&2
fi
