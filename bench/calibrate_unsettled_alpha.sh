#!/bin/sh
# How a row of the calibration of a test not settled at its first look
# (analysis/sequential/sequential_calibration.cc) is chosen: at a stated
# alpha and power and a first look at min a side (min 3: the row of 4
# degrees of freedom; min 5: the row of 8), the type I at no change and the
# power at min_effect with CV 2% and 4% (the CVs whose first looks come at
# min a side), for each candidate alpha ratio and power margin, by
# bench_sequential's seeded trials. A row keeps the ratio whose worst type I
# is near 0.98 alpha (0.049 at 0.05) and the margin whose worst power is
# near power + 0.005: inside issue 43's goals (alpha + 2 SE, power - 2 SE at
# 20,000 trials) with room for the simulation's error (analysis/README.md
# has the figures of each row).
#   bench/calibrate_unsettled_alpha.sh [BUILD_DIR] [TRIALS] MIN RATIO:MARGIN...
# Environment: ALPHA (0.05), POWER (0.8), NOISES ("normal lognormal").
# Defaults: build, 4000 trials. Takes about a minute of CPU a candidate at
# 4000 trials and power 0.8 (CV 4% is three quarters of it).
set -eu
build=${1:-build}
trials=${2:-4000}
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR TRIALS MIN RATIO:MARGIN..." >&2; exit 2; }
min=$3
shift 3
for candidate in "$@"; do
  ratio=${candidate%%:*}
  margin=${candidate#*:}
  for noise in ${NOISES:-normal lognormal}; do
    for cv in 2 4; do
      for change in 0 1; do
        echo "alpha=${ALPHA:-0.05} power=${POWER:-0.8} min=$min ratio=$ratio margin=$margin \
cv=$cv change=$change"
        "$build/bench/bench_sequential" "$trials" "cv=$cv" "change=$change" "min=$min" \
          "noise=$noise" "alpha=${ALPHA:-0.05}" "power=${POWER:-0.8}" \
          "unsettled_ratio=$ratio" "margin=$margin" | grep -E '^(normal|lognormal) '
      done
    done
  done
done
