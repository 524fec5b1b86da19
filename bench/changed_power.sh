#!/bin/sh
# Real runs for bench/changed_power.R (issue 46: what "what changed" lists
# at 6 iterations a side, Welch against Mann-Whitney). hackbench
# (process-pipes, 2 groups, 300 loops) with the default monitor set and the
# tasks monitor, ITERATIONS a variant, twice: an A/A run (two variants
# without knobs, interleaved) and the default against SCHED_BATCH. Each
# run's ok iterations are written as CSV (variant, iteration, counter,
# value, kind; per-CPU rows left out, as --changed does), then resampled by
# the R script: DRAWS comparisons of 6 iterations a side. The model of 124
# counters: `Rscript bench/changed_power.R model 500`.
#   bench/changed_power.sh [BUILD_DIR] [ITERATIONS] [DRAWS]   (default: build 40 1000)
set -eu
build=${1:-build}
iterations=${2:-40}
draws=${3:-1000}
# KEEP=DIR keeps the runs' databases and CSVs there.
if [ -n "${KEEP:-}" ]; then
  dir=$KEEP
  mkdir -p "$dir"
else
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
here=$(dirname "$0")

for name in aa ba; do
  if [ "$name" = aa ]; then variants="  default: {}
  again: {}"
  else variants="  default: {}
  sched-batch: {policy: batch}"
  fi
  cat > "$dir/$name.yaml" <<YAML
iterations: $iterations
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [2]
      loops: 300
      timeout: 60s
      monitors: [schedstat, stat, interrupts, softirqs, pressure, vmstat, sched-debug, tasks]
      task_monitor: {interval: 20ms}
variants:
$variants
YAML
  "$build/runner/schedlab" run "$dir/$name.yaml" --db "$dir/$name.db" --name "$name" \
    > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
  # kind: what --changed makes of an absent row (analysis/compare/changed.cc):
  # a ratio was undefined there, a count or share is 0.
  sqlite3 -csv "$dir/$name.db" "
    SELECT v.name, i.iteration, 'bench', s.value, 'bench'
      FROM iterations i JOIN variants v ON v.id = i.variant_id
      JOIN samples s ON s.iteration_id = i.id WHERE i.status = 'ok' AND s.metric = 'time'
    UNION ALL
    SELECT v.name, i.iteration, d.monitor || '.' || d.counter, d.value,
      CASE WHEN d.counter LIKE '%\_pct' ESCAPE '\' OR d.counter LIKE '%\_pct\_%' ESCAPE '\'
             OR (d.monitor = 'pressure' AND (d.counter LIKE '%.avg10' OR d.counter LIKE '%.avg60'
                                             OR d.counter LIKE '%.avg300')) THEN 'ratio'
           WHEN d.monitor = 'perf-profile' THEN 'share' ELSE 'count' END
      FROM iterations i JOIN variants v ON v.id = i.variant_id
      JOIN monitor_deltas d ON d.iteration_id = i.id
      WHERE i.status = 'ok' AND d.counter NOT GLOB 'cpu[0-9]*' AND d.counter NOT GLOB '*.cpu[0-9]*'" \
    > "$dir/$name.csv"
  Rscript "$here/changed_power.R" "$name" "$dir/$name.csv" "$draws"
done
