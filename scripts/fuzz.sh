#!/bin/sh
# Builds the libFuzzer targets (fuzz/) in the sanitized build, build-asan/
# (scripts/sanitize.sh: clang, ASan and UBSan), and runs each for
# FUZZ_SECONDS (default 10), seeded from the shared fixtures; the corpus,
# logs and crashes go to build-fuzz/. Prints each target's executions; a
# crash leaves its input in build-fuzz/crashes/ and fails the script (commit
# it under fuzz/regressions/ with the fix).
set -eu
cd "$(dirname "$0")/.."
[ "$#" -eq 0 ] || { echo "usage: scripts/fuzz.sh (FUZZ_SECONDS, FUZZ_TARGETS in the environment)" >&2; exit 2; }
FIXTURES=${SCHEDLAB_FIXTURES:-$(cd .. && pwd)/shared/fixtures}
SECONDS_EACH=${FUZZ_SECONDS:-10}
./scripts/sanitize.sh configure
# Every target fuzz/CMakeLists.txt makes (it writes their list), unless
# FUZZ_TARGETS names some.
targets=${FUZZ_TARGETS:-$(cat build-asan/fuzz/targets.txt)}
cmake --build build-asan -j"$(nproc)" --target $targets
mkdir -p build-fuzz/crashes
seeds_of() {
  case $1 in
    fuzz_parse_command) echo "$FIXTURES/sysbench $FIXTURES/stress-ng" ;;
    # schedlab's own program: its output lines are the seeds.
    fuzz_parse_seccomp-notify) echo fuzz/seeds/seccomp-notify ;;
    # The shared outputs and this machine's (omni confidence columns, CPU rows).
    fuzz_parse_netperf) echo "$FIXTURES/netperf tests/fixtures/netperf" ;;
    fuzz_parse_*) echo "$FIXTURES/${1#fuzz_parse_}" ;;
    fuzz_monitors) echo "$FIXTURES/schedstat $FIXTURES/proc" ;;
    fuzz_config) echo configs ;;
    # SQL statements that craft an input database (fuzz/merge_fuzz.cc).
    fuzz_merge) echo fuzz/seeds/merge ;;
    # The same, crafting a database of two runs to export (fuzz/export_fuzz.cc).
    fuzz_export) echo fuzz/seeds/export ;;
    # Trees written from each input (fuzz/mmtests_tree_fuzz.cc says how).
    fuzz_mmtests_tree) echo fuzz/seeds/mmtests-tree ;;
    # Two sample files an input, split at a form feed (fuzz/sample_file_fuzz.cc).
    fuzz_sample_file) echo fuzz/seeds/sample-file ;;
    *) return 1 ;;
  esac
}
for t in $targets; do
  seeds_of "$t" >/dev/null || { echo "fuzz.sh: no seeds named for $t (add them to seeds_of)" >&2; exit 1; }
done

# One target: its regression inputs, then FUZZ_SECONDS of fuzzing. Its
# findings go to stderr; its status to build-fuzz/$t.status.
fuzz_one() {
  t=$1
  seeds=$(seeds_of "$t")
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  one=0
  # The inputs that crashed or hung a target once, each run once first.
  if [ -d "fuzz/regressions/$t" ] && ! build-asan/fuzz/$t -timeout=30 -rss_limit_mb=1024 \
      fuzz/regressions/$t/* >build-fuzz/$t.regressions.log 2>&1; then
    one=1
    echo "$t: a committed regression input fails again:" >&2
    tail -40 build-fuzz/$t.regressions.log >&2
  fi
  # -max_len: the 1 MiB lines are tested by unit tests; fuzzing wants many
  # small inputs.
  # -timeout and -rss_limit_mb: a hang or a runaway allocation is a finding
  # too (yaml-cpp's LoadAll loop was one), reported in seconds, not minutes.
  # 30 s: at -O0 with ASan and coverage, fuzz_export's seed of 120,000-
  # character names (fuzz/seeds/export/huge-strings.sql) takes 9 s here.
  if ! build-asan/fuzz/$t "$corpus" $seeds -max_total_time="$SECONDS_EACH" -max_len=65536 \
      -timeout=30 -rss_limit_mb=1024 -artifact_prefix=build-fuzz/crashes/$t- -print_final_stats=1 2>build-fuzz/$t.log; then
    one=1
    tail -40 build-fuzz/$t.log >&2
  fi
  echo "$one" >build-fuzz/$t.status
}

# A libFuzzer process uses one core: the targets run in nproc lanes, each
# lane one target after another, so every target still gets FUZZ_SECONDS
# of a core and the whole takes 1/nproc of the time.
lanes=$(nproc)
lane=0
rm -f build-fuzz/*.status
while [ "$lane" -lt "$lanes" ]; do
  (
    i=0
    for t in $targets; do
      [ $((i % lanes)) -eq "$lane" ] && fuzz_one "$t"
      i=$((i + 1))
    done
  ) &
  lane=$((lane + 1))
done
wait
status=0
for t in $targets; do
  [ "$(cat "build-fuzz/$t.status" 2>/dev/null)" = 0 ] || status=1
  printf '%s\t%s executions\n' "$t" "$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/$t.log)"
done
exit $status
