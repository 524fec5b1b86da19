#!/bin/sh
# What the monitors cost: hackbench (process-pipes) and tbench (loopback,
# 2 clients) run by schedlab with a set of monitors on and with none, in
# PAIRS pairs (each pair's order drawn at random, to cancel drift without
# a pattern drift could follow), ITERATIONS iterations a run. Per workload
# and set it prints the mean metric off and on, the
# cost in % of the metric (hackbench's time up, tbench's throughput down)
# and in % of the run's user+sys CPU (schedlab and everything it ran: the
# benchmark, perf, the samplers), each with a 95% t interval over the
# pairs, and where Rscript is installed, R's t.test interval and
# Wilcoxon's signed-rank estimate and interval of the per-pair metric cost
# (the same differences, checked independently of the awk). Under it, the
# monitors' own CPU as schedlab measured it in the
# run with them on (the manifest's monitor_cpu_s: schedlab's thread while
# it works for a monitor and the processes a monitor ran): CPU seconds per
# second of the run and in % of the rest of the run's CPU (the workload's
# and schedlab's own), with its interval, and per monitor in milliseconds
# an iteration. That figure is robust on a busy machine (CPU time does not
# depend on idle CPUs); what a monitor costs inside the kernel (perf
# counting a tracepoint at every context switch, schedstats accounting) is
# charged to the workload and shows only in the metric and CPU costs.
# Goals (issue 46): the default set <= 1% of the metric, perf-profile at
# 99 Hz <= 3%. The default set is the file monitors, the ones to leave on
# for "what changed"; perf-stat is opt-in beside perf-profile: its
# tracepoints cost tbench 3.8% +- 1.9% (README, "what the monitors cost").
# Shown on tbench: the default set -0.51% over 140 iteration pairs (t.test
# -1.82% to 0.79%, Wilcoxon -0.75% to 0.83%), perf-profile 1.15% over 22
# run pairs (-0.39% to 2.69%). Needs root for perf -a and sched-debug's debugfs.
#   bench/monitor_overhead_bench.sh [BUILD_DIR] [PAIRS] [ITERATIONS]   (default: build 5 5)
# SETS overrides the sets (";" between sets, spaces inside one; "default"
# is the default set); WORKLOADS the workloads ("hackbench tbench");
# LOOPS hackbench's loops (default 400); TBENCH_SECONDS tbench's -t
# (default 5, of which tbench measures the last four fifths); TBENCH_CLIENTS
# its clients (default 2). KEEP=FILE appends each pair ("WORKLOAD SET
# ORDER OFF_METRIC ON_METRIC COST_PCT") to FILE.
# PAIRED=iterations pairs iterations instead of runs: one run of 2 x PAIRS
# entries (ITERATIONS each; 1 is the point), the monitors on in one entry
# of each pair, a coin's choice, the entries differing only in their
# timeout: the two sides of a pair are seconds apart with no run start
# between them, and the pairs cost no schedlab start each. What a monitor switches on
# for the whole run (the schedstat monitor's kernel.sched_schedstats) is
# then on for both sides and not in the cost: use run pairs where
# schedstats can be switched. No CPU cost or own CPU per second (one run);
# the milliseconds an iteration stay.
set -eu
build=${1:-build}
pairs=${2:-5}
loops=${LOOPS:-400}
iterations=${3:-5}
tbench_seconds=${TBENCH_SECONDS:-5}
tbench_clients=${TBENCH_CLIENTS:-2}
workloads=${WORKLOADS:-hackbench tbench}
paired=${PAIRED:-runs}
case "$paired" in runs | iterations) ;; *) echo "PAIRED: runs or iterations" >&2; exit 2 ;; esac
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
default_set="schedstat stat interrupts softirqs pressure vmstat sched-debug"
sets=${SETS:-"default;perf-profile;perf-stat;sched-debug;vmstat"}

# One workload entry of WORKLOAD with MONITORS (space-separated; empty:
# none) and a timeout of TIMEOUT seconds (its default for the run pairs;
# entries of one run differ only there, since schedlab refuses two entries
# that would be stored as one).
entry() {
  list=$(printf '%s' "$2" | sed 's/ /, /g')
  case "$1" in
    hackbench) printf '  - hackbench:\n      modes: [process-pipes]\n      groups: [4]\n      loops: %s\n' \
      "$loops" ;;
    tbench) printf '  - tbench:\n      clients: [%s]\n      duration: %ss\n' "$tbench_clients" \
      "$tbench_seconds" ;;
  esac
  printf '      timeout: %ss\n      monitors: [%s]\n' "$3" "$list"
}

# The timeout of WORKLOAD's entries: hackbench 120 s; tbench's default,
# duration + 60 s.
timeout_of() {
  if [ "$1" = tbench ]; then echo $((tbench_seconds + 60)); else echo 120; fi
}

# Writes a config of WORKLOAD with MONITORS to $dir/c.yaml.
config() {
  { printf 'iterations: %s\nworkloads:\n' "$iterations"
    entry "$1" "$2" "$(timeout_of "$1")"; } > "$dir/c.yaml"
}

# Runs $dir/c.yaml into a fresh $dir/r.db, timed into $dir/time. Exit
# status 3: the run finished with some iterations failed (a busy machine
# can time one out); the ok ones count, and the set's lines say how many
# failed. Any other failure stops the bench, with its output.
run_config() {
  rm -f "$dir/r.db"
  status=0
  /usr/bin/time -f '%U %S %e' -o "$dir/time" "$schedlab" run "$dir/c.yaml" --db "$dir/r.db" \
    --name r > "$dir/out" 2> "$dir/err" || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    cat "$dir/err" "$dir/out" >&2
    exit 1
  fi
  sqlite3 "$dir/r.db" "SELECT count(*) FROM iterations WHERE status != 'ok'" >> "$dir/failed"
  sqlite3 -separator ' ' "$dir/r.db" "SELECT j.key, j.value FROM runs,
    json_each(runs.manifest_json, '$.monitor_cpu_s') AS j" >> "$dir/own"
}

# One run: prints "MEAN_METRIC CPU_SECONDS WALL_SECONDS MONITOR_CPU_SECONDS"
# and appends the monitors' own CPU, "MONITOR SECONDS" a line, to $dir/own.
run() {
  config "$1" "$2"
  run_config
  mean=$(sqlite3 "$dir/r.db" "SELECT avg(s.value) FROM samples s JOIN iterations i
    ON i.id = s.iteration_id WHERE i.status = 'ok' AND s.metric = '$metric'")
  own=$(sqlite3 "$dir/r.db" "SELECT coalesce(sum(j.value), 0) FROM runs,
    json_each(runs.manifest_json, '$.monitor_cpu_s') AS j")
  times=$(awk '{ print $1 + $2, $3 }' "$dir/time")
  echo "$mean $times $own"
}

# PAIRED=iterations: one run of 2 x PAIRS entries, ITERATIONS iterations
# each, the monitors on in one entry of each pair (which, a coin's
# choice). Writes $dir/pairs as run pairs do, the CPU fields 0 (one run:
# not split by entry), and $dir/order.
run_within() {
  base=$(timeout_of "$1")
  : > "$dir/on"
  { printf 'iterations: %s\nworkloads:\n' "$iterations"
    k=0
    while [ "$k" -lt "$pairs" ]; do
      coin=$(($(od -An -N1 -tu1 /dev/urandom) % 2))
      for side in 0 1; do
        t=$((base + 2 * k + side))
        if [ "$side" -eq "$coin" ]; then
          entry "$1" "$2" "$t"
          echo "$k $t" >> "$dir/on"
        else
          entry "$1" "" "$t"
        fi
      done
      k=$((k + 1))
    done; } > "$dir/c.yaml"
  run_config
  # Each entry's mean metric by its timeout; a pair with a side whose
  # iterations all failed is left out.
  sqlite3 -separator ' ' "$dir/r.db" "SELECT CAST(rtrim(json_extract(i.params_json,
    '$.timeout'), 's') AS INTEGER), avg(s.value) FROM samples s JOIN iterations i
    ON i.id = s.iteration_id WHERE i.status = 'ok' AND s.metric = '$metric' GROUP BY 1" \
    > "$dir/entries"
  awk -v base="$base" 'NR == FNR { m[$1] = $2; next }
    { k = $1; on = $2; off = base + 2 * k + (on == base + 2 * k ? 1 : 0)
      if ((on in m) && (off in m)) {
        print m[off], 0, 0, 0, m[on], 0, 0, 0 > pairs
        print (off < on ? "off-on" : "on-off") > order
      } }' pairs="$dir/pairs" order="$dir/order" "$dir/entries" "$dir/on"
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
    : > "$dir/own"
    : > "$dir/failed"
    : > "$dir/order"
    metric=time
    [ "$workload" = tbench ] && metric=throughput
    i=0
    [ "$paired" = iterations ] && { run_within "$workload" "$monitors"; i=$pairs; }
    while [ "$i" -lt "$pairs" ]; do
      # A fair coin from the kernel's random source: off first or on first.
      if [ $(($(od -An -N1 -tu1 /dev/urandom) % 2)) -eq 0 ]; then
        off=$(run "$workload" ""); on=$(run "$workload" "$monitors"); order=off-on
      else
        on=$(run "$workload" "$monitors"); off=$(run "$workload" ""); order=on-off
      fi
      echo "$off $on" >> "$dir/pairs"
      echo "$order" >> "$dir/order"
      i=$((i + 1))
    done
    # Per pair: cost = (on - off) / off for a time, (off - on) / off for a
    # throughput; the monitors' own CPU of the run with them on, per second
    # of it and in % of the rest of its CPU. Means and 95% t intervals over
    # the pairs (a pair: "OFF_METRIC OFF_CPU OFF_WALL OFF_OWN ON_METRIC
    # ON_CPU ON_WALL ON_OWN").
    sign=1
    [ "$workload" = tbench ] && sign=-1
    awk -v set="$set" -v workload="$workload" -v sign="$sign" -v cost="$dir/cost" \
      -v within="$([ "$paired" = iterations ] && echo 1)" '
      # t(0.975, df): the table to 10, then the Cornish-Fisher expansion
      # (2.199 at 11 for 2.201 in R, 2.079 at 21 for 2.080): a flat 2.086 and 2.0
      # above 10 and 20 made the intervals a little too narrow.
      function tq(df,   z) {
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ")
        if (df <= 10) return t[df]
        z = 1.959964
        return z + (z ^ 3 + z) / (4 * df) + (5 * z ^ 5 + 16 * z ^ 3 + 3 * z) / (96 * df ^ 2)
      }
      function mean(x,   i, s) { s = 0; for (i = 1; i <= n; i++) s += x[i]; return s / n }
      function half(x,   i, a, v) {
        if (n < 2) return 0
        a = mean(x); v = 0; for (i = 1; i <= n; i++) v += (x[i] - a) ^ 2
        return tq(n - 1) * sqrt(v / (n - 1) / n)
      }
      { n++; offm += $1; onm += $5
        m[n] = sign * 100 * ($5 - $1) / $1
        if (!within) { c[n] = 100 * ($6 - $2) / $2; r[n] = $8 / $7; w[n] = 100 * $8 / ($6 - $8) }
        printf "%.10g\n", m[n] > cost }
      END {
        if (!n) { printf "%-9s %-16s no pair\n", workload, set; exit }
        printf "%-9s %-16s %11.4f %11.4f %7.2f +- %5.2f", workload, set, offm / n, onm / n,
          mean(m), half(m)
        if (within) { printf " %16s\n", "n/a (one run)"; exit }
        printf " %7.2f +- %5.2f\n", mean(c), half(c)
        printf "%-26s own CPU %.5f +- %.5f s/s, %.3f%% +- %.3f%% of the rest\n", "",
          mean(r), half(r), mean(w), half(w)
      }' "$dir/pairs"
    # The per-pair metric costs in R: t.test's interval (as the awk's, a
    # check on it) and Wilcoxon's signed-rank estimate and interval, which
    # do not assume the costs normal (one slow run makes a long tail).
    if command -v Rscript > /dev/null && [ "$(wc -l < "$dir/cost")" -ge 2 ]; then
      Rscript -e 'x <- scan(commandArgs(TRUE)[1], quiet = TRUE)
        t <- t.test(x)
        w <- suppressWarnings(wilcox.test(x, conf.int = TRUE))
        cat(sprintf("%-26s R, %d pairs: t.test %.2f%% (%.2f%% to %.2f%%), Wilcoxon %.2f%% (%.2f%% to %.2f%%)\n",
          "", length(x), mean(x), t$conf.int[1], t$conf.int[2], w$estimate, w$conf.int[1],
          w$conf.int[2]))' "$dir/cost"
    fi
    if [ -n "${KEEP:-}" ]; then
      paste -d ' ' "$dir/order" "$dir/pairs" "$dir/cost" |
        awk -v w="$workload" -v s="$set" '{ print w, "\"" s "\"", $1, $2, $6, $10 }' >> "$KEEP"
    fi
    # Per monitor: milliseconds of CPU an iteration, over the runs with
    # the monitors on (probes at run start included).
    runs=$pairs
    [ "$paired" = iterations ] && runs=1 && iterations_on=$((pairs * iterations))
    [ -s "$dir/own" ] && sort "$dir/own" | awk -v runs="$runs" \
      -v iterations="${iterations_on:-$iterations}" '
      !($1 in s) { order[++k] = $1 }
      { s[$1] += $2 }
      END {
        line = ""
        for (i = 1; i <= k; i++)
          line = line sprintf(" %s %.2f", order[i], 1000 * s[order[i]] / runs / iterations)
        print "                           ms an iteration:" line
      }'
    awk '{ n += $1 } END { if (n) printf "%-26s %d failed iterations left out\n", "", n }' \
      "$dir/failed"
  done
done
