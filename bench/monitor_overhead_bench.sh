#!/bin/sh
# What the monitors cost: hackbench (process-pipes) and tbench (loopback,
# 2 clients) run by schedlab with a set of monitors on and with none, in
# PAIRS pairs (off/on, then on/off, to cancel drift), ITERATIONS iterations
# a run. Per workload and set it prints the mean metric off and on, the
# cost in % of the metric (hackbench's time up, tbench's throughput down)
# and in % of the run's user+sys CPU (schedlab and everything it ran: the
# benchmark, perf, the samplers), each with a 95% t interval over the
# pairs. Goals (issue 46): the default set <= 1% of the metric,
# perf-profile at 99 Hz <= 3%. Needs root for perf -a and sched-debug's
# debugfs.
#   bench/monitor_overhead_bench.sh [BUILD_DIR] [PAIRS] [ITERATIONS]   (default: build 5 5)
# SETS overrides the sets (";" between sets, spaces inside one; "default"
# is the default set); WORKLOADS the workloads ("hackbench tbench");
# LOOPS hackbench's loops (default 400); TBENCH_SECONDS tbench's -t
# (default 5, of which tbench measures the last four fifths).
set -eu
build=${1:-build}
pairs=${2:-5}
loops=${LOOPS:-400}
iterations=${3:-5}
tbench_seconds=${TBENCH_SECONDS:-5}
workloads=${WORKLOADS:-hackbench tbench}
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
default_set="schedstat stat interrupts softirqs pressure vmstat sched-debug perf-stat"
sets=${SETS:-"default;perf-profile;perf-stat;sched-debug;vmstat"}

# Writes a config of WORKLOAD with MONITORS (space-separated; empty: none)
# to $dir/c.yaml.
config() {
  list=$(printf '%s' "$2" | sed 's/ /, /g')
  case "$1" in
    hackbench) body="  - hackbench:
      modes: [process-pipes]
      groups: [4]
      loops: $loops
      timeout: 120s" ;;
    tbench) body="  - tbench:
      clients: [2]
      duration: ${tbench_seconds}s" ;;
  esac
  cat > "$dir/c.yaml" <<YAML
iterations: $iterations
workloads:
$body
      monitors: [$list]
YAML
}

# One run: prints "MEAN_METRIC CPU_SECONDS".
run() {
  config "$1" "$2"
  rm -f "$dir/r.db"
  /usr/bin/time -f '%U %S' -o "$dir/time" "$schedlab" run "$dir/c.yaml" --db "$dir/r.db" \
    --name r > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
  metric=time
  [ "$1" = tbench ] && metric=throughput
  mean=$(sqlite3 "$dir/r.db" "SELECT avg(value) FROM samples WHERE metric = '$metric'")
  cpu=$(awk '{ print $1 + $2 }' "$dir/time")
  echo "$mean $cpu"
}

echo "default: $default_set"
printf '%-9s %-16s %11s %11s %16s %16s\n' workload "monitors on" "off" "on" "metric cost %" \
  "CPU cost %"
for workload in $workloads; do
  echo "$sets" | tr ';' '\n' | while IFS= read -r set; do
    [ -n "$set" ] || continue
    monitors=$set
    [ "$set" = default ] && monitors=$default_set
    : > "$dir/pairs"
    i=0
    while [ "$i" -lt "$pairs" ]; do
      if [ $((i % 2)) -eq 0 ]; then off=$(run "$workload" ""); on=$(run "$workload" "$monitors")
      else on=$(run "$workload" "$monitors"); off=$(run "$workload" ""); fi
      echo "$off $on" >> "$dir/pairs"
      i=$((i + 1))
    done
    # Per pair: cost = (on - off) / off for a time, (off - on) / off for a
    # throughput; mean and a 95% t interval over pairs.
    sign=1
    [ "$workload" = tbench ] && sign=-1
    awk -v set="$set" -v workload="$workload" -v sign="$sign" '
      function tq(df) { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ");
                        return df <= 10 ? t[df] : 2.0 }
      { n++; offm += $1; onm += $3
        m[n] = sign * 100 * ($3 - $1) / $1; c[n] = 100 * ($4 - $2) / $2 }
      END {
        for (i = 1; i <= n; i++) { sm += m[i]; sc += c[i] }
        am = sm / n; ac = sc / n
        for (i = 1; i <= n; i++) { vm += (m[i] - am) ^ 2; vc += (c[i] - ac) ^ 2 }
        hm = n > 1 ? tq(n - 1) * sqrt(vm / (n - 1) / n) : 0
        hc = n > 1 ? tq(n - 1) * sqrt(vc / (n - 1) / n) : 0
        printf "%-9s %-16s %11.4f %11.4f %7.2f +- %5.2f %7.2f +- %5.2f\n", workload, set,
          offm / n, onm / n, am, hm, ac, hc
      }' "$dir/pairs"
  done
done
