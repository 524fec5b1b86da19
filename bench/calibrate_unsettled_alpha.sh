#!/bin/sh
# How SequentialDesign::unsettled_alpha_ratio (0.7) was chosen: type I at no
# change and power at min_effect of the unsettled settings (CV 2% and 4%;
# normal and log-normal; min 3 and 5) for each candidate ratio, by
# bench_sequential's seeded trials. The ratio kept is the largest whose type
# I stays below alpha + 2 SE with the margin of a 20,000-trial run, and whose
# power stays above 0.8 - 2 SE (analysis/README.md has the figures).
#   bench/calibrate_unsettled_alpha.sh [BUILD_DIR] [TRIALS] [RATIO...]
# Defaults: build, 2000 trials, ratios 0.6 0.7 0.8. Takes about a minute of
# CPU a ratio at 2000 trials.
set -eu
build=${1:-build}
trials=${2:-2000}
[ $# -ge 2 ] && shift 2 || shift $#
ratios=${*:-0.6 0.7 0.8}
for ratio in $ratios; do
  for cv in 2 4; do
    echo "unsettled_ratio=$ratio cv=$cv"
    "$build/bench/bench_sequential" "$trials" "cv=$cv" "change=0" "unsettled_ratio=$ratio" | grep -E '^(normal|lognormal) '
    "$build/bench/bench_sequential" "$trials" "cv=$cv" "change=1" "unsettled_ratio=$ratio" | grep -E '^(normal|lognormal) '
  done
done
