#!/bin/sh
# Peak memory of `schedlab import --mmtests` on hostile trees (it must stay
# bounded whatever a tree holds): each case is an mmtests work/log built
# here, imported into a new database under /usr/bin/time -v. Prints per
# case the exit code, peak RSS, wall time and the first line schedlab wrote
# to stderr.
#   bomb     three hackbench logs, each a gzip of 900 MiB of text (~0.9 MiB)
#   huge     one plain hackbench log of 1000 MiB with a time line at its end
#   many     400 runs x 50 hackbench logs of 1 KiB (20,000 logs, 100,000 samples)
#   big      30 plain hackbench logs of 40 MiB, each ending with one time line
#   bench/mmtests_import_memory.sh [BUILD_DIR] [CASE...]      (default: build, every case)
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
cases=${*:-bomb huge many big}
schedlab="$build/runner/schedlab"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
line=$(printf '%0999d' 0 | tr 0 x)   # a 1000-byte line, no sample in it
run_case() {  # name: builds $dir/NAME/work/log, imports it, prints the figures
  log="$dir/$1/work/log"
  /usr/bin/time -v -o "$dir/$1.time" "$schedlab" import --mmtests "$log" --db "$dir/$1.db" \
    >/dev/null 2>"$dir/$1.err" && rc=0 || rc=$?
  rss=$(sed -n 's/^\tMaximum resident set size (kbytes): //p' "$dir/$1.time")
  wall=$(sed -n 's/^\tElapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/$1.time")
  printf '%-5s exit %s, peak RSS %s MiB, wall %s: %s\n' "$1" "$rc" "$((rss / 1024))" "$wall" \
    "$(grep -v '^\s*Command' "$dir/$1.err" | head -1 | cut -c1-200)"
  rm -rf "${dir:?}/$1" "$dir/$1.db"*
}
for c in $cases; do
  case $c in
    bomb)
      logs="$dir/bomb/work/log/r/iter-0/hackbench-process-pipes/logs"
      mkdir -p "$logs"
      yes "$line" | head -c 900M | gzip -1 > "$logs/hackbench-1.gz"
      cp "$logs/hackbench-1.gz" "$logs/hackbench-2.gz"
      cp "$logs/hackbench-1.gz" "$logs/hackbench-4.gz" ;;
    huge)
      logs="$dir/huge/work/log/r/iter-0/hackbench-process-pipes/logs"
      mkdir -p "$logs"
      { yes "$line" | head -c 1000M; printf '\nTime: 0.5\n'; } > "$logs/hackbench-1" ;;
    many)
      for r in $(seq 1 400); do
        logs="$dir/many/work/log/r$r/iter-0/hackbench-process-pipes/logs"
        mkdir -p "$logs"
        for g in $(seq 1 50); do
          { head -c 900 /dev/zero | tr '\0' y; echo
            for i in 1 2 3 4 5; do printf 'Running with %d*40 (== %d) tasks.\nTime: 0.%d\n' "$g" $((g * 40)) "$i"; done
          } > "$logs/hackbench-$g"
        done
      done ;;
    big)
      logs="$dir/big/work/log/r/iter-0/hackbench-process-pipes/logs"
      mkdir -p "$logs"
      { yes "$line" | head -c 40M; printf '\nTime: 0.5\n'; } > "$logs/hackbench-1"
      for g in $(seq 2 30); do cp "$logs/hackbench-1" "$logs/hackbench-$g"; done ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
  run_case "$c"
done
