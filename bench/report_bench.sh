#!/bin/sh
# schedlab report over 10 runs x 64 points x 30 samples (targets: written in
# < 1 s, opened and rendered in headless Chromium in < 2 s): prints the
# times and the file's size.
#   bench/report_bench.sh [BUILD_DIR]      (default: build)
set -eu
build=${1:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bench/report_db" big "$dir/big.db"
runs="run0 run1 run2 run3 run4 run5 run6 run7 run8 run9"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$build/runner/schedlab" report $runs --db "$dir/big.db" -o "$dir/big.html" 2>/dev/null
end=$(date +%s.%N)
echo "written in $(echo "$end - $start" | bc) s, $(stat -c %s "$dir/big.html") bytes"
/usr/bin/python3 "$(dirname "$0")/../tests/browser/check_report.py" "$dir/big.html" \
  "$build/report-bench.png" | tail -1
