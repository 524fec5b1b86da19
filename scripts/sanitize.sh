#!/bin/sh
# The sanitized build, in build-asan/: every library, program and test, and
# the libFuzzer targets (fuzz/), built once with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (SCHEDLAB_SANITIZE: the first finding fails its
# test) and libFuzzer's coverage (SCHEDLAB_FUZZ). One build serves the
# sanitizer run and scripts/fuzz.sh: the libraries, two thirds of a build's
# CPU, are compiled once for both.
# The sanitizer run is the fast tier without the tests that boot kernels
# under qemu, start the network namespace lab, or spend their time in real
# workloads and simulated trials ([heavy], [simulation]: tests/CMakeLists.txt).
# scripts/test.sh runs those in build/ first, then this.
# Usage: scripts/sanitize.sh [configure | build]: "configure" only
# configures (scripts/fuzz.sh builds its targets here), "build" builds the
# tests and the fuzz targets (test.sh builds while ctest runs, at the
# lowest priority, then runs this again to test).
set -eu
cd "$(dirname "$0")/.."
step=${1:-all}
case $step in all|configure|build) ;; *) echo "usage: scripts/sanitize.sh [configure | build]" >&2; exit 2 ;; esac
./scripts/install-deps.sh >/dev/null
# -O0: a third of -O1's compile CPU (the largest unit: 39 s against 130 s),
# which CI's time needs more than the tests' speed; asserts stay on. Any
# change here rebuilds everything: fuzz.sh configures through this line.
./scripts/configure.sh build-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDLAB_SANITIZE=ON -DSCHEDLAB_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g"
[ "$step" != configure ] || exit 0
# The tests and what they run (tests/CMakeLists.txt's schedlab_tests) and the
# fuzz targets, not the bench/ programs.
cmake --build build-asan -j "$(nproc)" --target schedlab_tests $(cat build-asan/fuzz/targets.txt)
[ "$step" != build ] || exit 0
# Reports name file:line; a leak at exit is a finding too. Every process a
# test starts (schedlab itself, its own programs) inherits these.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
# Two at a time: a case of the unit lane (parsers, statistics, the store)
# beside one of the host lane (knobs, the SUT lock, servers: one at a time,
# ctest's RESOURCE_LOCK host); tests/CMakeLists.txt says which is which.
cd build-asan && ctest --output-on-failure -j2 -LE long
