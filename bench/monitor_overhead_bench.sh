#!/bin/sh
# What the monitors cost: hackbench (process-pipes) run by schedlab with a
# set of monitors on and with none, in PAIRS pairs (off/on, then on/off, to
# cancel drift), ITERATIONS iterations a run. Per set it prints the mean
# hackbench time off and on, the cost in % of the metric and in % of the
# run's user+sys CPU (schedlab and everything it ran: hackbench, perf, the
# samplers), each with a 95% t interval over the pairs. Goals (issue 46):
# the default set <= 1% of the metric, perf-profile at 99 Hz <= 3%.
# Needs root for perf -a and sched-debug's debugfs.
#   bench/monitor_overhead_bench.sh [BUILD_DIR] [PAIRS] [ITERATIONS]   (default: build 5 5)
# SETS overrides the sets (";" between sets, spaces inside one); LOOPS
# hackbench's loops (default 400).
set -eu
build=${1:-build}
pairs=${2:-5}
loops=${LOOPS:-400}
iterations=${3:-5}
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
default_set="schedstat stat interrupts softirqs pressure vmstat sched-debug perf-stat"
sets=${SETS:-"$default_set;perf-profile;perf-stat;sched-debug;vmstat"}

# Writes a config with MONITORS (space-separated; empty: none) to $dir/c.yaml.
config() {
  list=$(printf '%s' "$1" | sed 's/ /, /g')
  cat > "$dir/c.yaml" <<YAML
iterations: $iterations
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [4]
      loops: $loops
      timeout: 120s
      monitors: [$list]
YAML
}

# One run: prints "MEAN_TIME CPU_SECONDS".
run() {
  config "$1"
  rm -f "$dir/r.db"
  /usr/bin/time -f '%U %S' -o "$dir/time" "$schedlab" run "$dir/c.yaml" --db "$dir/r.db" \
    --name r > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
  mean=$(sqlite3 "$dir/r.db" "SELECT avg(value) FROM samples WHERE metric = 'time'")
  cpu=$(awk '{ print $1 + $2 }' "$dir/time")
  echo "$mean $cpu"
}

printf '%-72s %9s %9s %16s %16s\n' "monitors on" "off (s)" "on (s)" "metric cost %" "CPU cost %"
echo "$sets" | tr ';' '\n' | while IFS= read -r set; do
  [ -n "$set" ] || continue
  : > "$dir/pairs"
  i=0
  while [ "$i" -lt "$pairs" ]; do
    if [ $((i % 2)) -eq 0 ]; then off=$(run ""); on=$(run "$set")
    else on=$(run "$set"); off=$(run ""); fi
    echo "$off $on" >> "$dir/pairs"
    i=$((i + 1))
  done
  # Per pair: cost = (on - off) / off; mean and a 95% t interval over pairs.
  awk -v set="$set" '
    function tq(df) { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ");
                      return df <= 10 ? t[df] : 2.0 }
    { n++; offm += $1; onm += $3
      m[n] = 100 * ($3 - $1) / $1; c[n] = 100 * ($4 - $2) / $2 }
    END {
      for (i = 1; i <= n; i++) { sm += m[i]; sc += c[i] }
      am = sm / n; ac = sc / n
      for (i = 1; i <= n; i++) { vm += (m[i] - am) ^ 2; vc += (c[i] - ac) ^ 2 }
      hm = n > 1 ? tq(n - 1) * sqrt(vm / (n - 1) / n) : 0
      hc = n > 1 ? tq(n - 1) * sqrt(vc / (n - 1) / n) : 0
      printf "%-72s %9.4f %9.4f %7.2f +- %5.2f %7.2f +- %5.2f\n", set, offm / n, onm / n, am, hm, ac, hc
    }' "$dir/pairs"
done
