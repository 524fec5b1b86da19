#!/bin/sh
# Builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each
# for FUZZ_SECONDS (default 15), seeded from the shared fixtures. Prints each
# target's executions; a crash leaves its input in build-fuzz/crashes/ and
# fails the script (commit it under fuzz/regressions/ with the fix).
set -eu
cd "$(dirname "$0")/.."
# clang with its fuzzer and ASan runtimes (install-deps.sh's TEST_PKGS).
./scripts/install-deps.sh >/dev/null
FIXTURES=${SCHEDLAB_FIXTURES:-$(cd .. && pwd)/shared/fixtures}
SECONDS_EACH=${FUZZ_SECONDS:-15}
./scripts/configure.sh build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEDLAB_FUZZ=ON -DBUILD_TESTING=OFF -DCMAKE_UNITY_BUILD=ON
# Every target fuzz/CMakeLists.txt makes (it writes their list), unless
# FUZZ_TARGETS names some.
targets=${FUZZ_TARGETS:-$(cat build-fuzz/fuzz/targets.txt)}
cmake --build build-fuzz -j"$(nproc)" --target $targets
mkdir -p build-fuzz/crashes
status=0
for t in $targets; do
  case $t in
    fuzz_parse_command) seeds="$FIXTURES/sysbench $FIXTURES/stress-ng" ;;
    # schedlab's own program: its output lines are the seeds.
    fuzz_parse_seccomp-notify) seeds=fuzz/seeds/seccomp-notify ;;
    # The shared outputs and this machine's (omni confidence columns, CPU rows).
    fuzz_parse_netperf) seeds="$FIXTURES/netperf tests/fixtures/netperf" ;;
    fuzz_parse_*) seeds="$FIXTURES/${t#fuzz_parse_}" ;;
    fuzz_monitors) seeds="$FIXTURES/schedstat $FIXTURES/proc" ;;
    fuzz_config) seeds="configs" ;;
    # SQL statements that craft an input database (fuzz/merge_fuzz.cc).
    fuzz_merge) seeds=fuzz/seeds/merge ;;
    # Trees written from each input (fuzz/mmtests_tree_fuzz.cc says how).
    fuzz_mmtests_tree) seeds=fuzz/seeds/mmtests-tree ;;
    *) echo "fuzz.sh: no seeds named for $t (add them to the case above)" >&2; exit 1 ;;
  esac
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  # The inputs that crashed or hung a target once, each run once first.
  if [ -d "fuzz/regressions/$t" ] && ! build-fuzz/fuzz/$t -timeout=10 -rss_limit_mb=1024 \
      fuzz/regressions/$t/* >build-fuzz/$t.regressions.log 2>&1; then
    status=1
    echo "$t: a committed regression input fails again:" >&2
    tail -40 build-fuzz/$t.regressions.log >&2
  fi
  # -max_len: the 1 MiB lines are tested by unit tests; fuzzing wants many
  # small inputs.
  # -timeout and -rss_limit_mb: a hang or a runaway allocation is a finding
  # too (yaml-cpp's LoadAll loop was one), reported in seconds, not minutes.
  if ! build-fuzz/fuzz/$t "$corpus" $seeds -max_total_time="$SECONDS_EACH" -max_len=65536 \
      -timeout=10 -rss_limit_mb=1024 -artifact_prefix=build-fuzz/crashes/$t- -print_final_stats=1 2>build-fuzz/$t.log; then
    status=1
    tail -40 build-fuzz/$t.log >&2
  fi
  printf '%s\t%s executions\n' "$t" "$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/$t.log)"
done
exit $status
