#!/bin/sh
# A year of history (goal: each under 100 ms): a database of
# 10,000 runs written through the Store API (bench/report_db year), then
# `schedlab list`, `schedlab history --workload hackbench --metric time`
# (first, then the median of five more) and `schedlab compare` of two runs,
# each timed (wall, user+sys).
#   bench/history_bench.sh [BUILD_DIR]      (default: build)
set -eu
build=${1:-build}
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/time -f "written in %e s (user %U, sys %S)" "$build/bench/report_db" year "$dir/year.db"
measure() {  # label, command...: the median of five runs (wall and user+sys)
  label=$1; shift
  : > "$dir/times"
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > /dev/null 2> "$dir/err" || { cat "$dir/err"; exit 1; }
    read -r wall user sys < "$dir/time"
    echo "$wall $(echo "$user + $sys" | bc)" >> "$dir/times"
  done
  wall=$(cut -d' ' -f1 "$dir/times" | sort -n | sed -n 3p)
  cpu=$(cut -d' ' -f2 "$dir/times" | sort -n | sed -n 3p)
  echo "$label: $wall s wall, $cpu s CPU (median of 5)"
}
measure "list" "$schedlab" list --db "$dir/year.db"
# The first history computes every run's cells and keeps them (migration
# 10's summaries); the next ones read them.
/usr/bin/time -f "history, first (keeps the cell summaries): %e s wall (user %U, sys %S)" \
  "$schedlab" history --workload hackbench --metric time --db "$dir/year.db" > /dev/null
measure "history --workload hackbench --metric time" "$schedlab" history --workload hackbench --metric time --db "$dir/year.db"
measure "compare of two runs" "$schedlab" compare nightly-000-2@6.12.0 nightly-370-0@6.1.0 --db "$dir/year.db"
