#!/bin/sh
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer
# in build-asan/ (SCHEDLAB_SANITIZE: the first finding fails its test) and
# its fast tier run without the tests that boot kernels under qemu, start
# the network namespace lab, or spend their time in real workloads and
# simulated trials ([heavy], [simulation]: tests/CMakeLists.txt). CI runs it after
# scripts/test.sh.
# Usage: scripts/sanitize.sh [build]: with "build", only the build (CI
# builds while test.sh runs, at the lowest priority, then runs this again
# to test).
set -eu
cd "$(dirname "$0")/.."
step=${1:-all}
case $step in all|build) ;; *) echo "usage: scripts/sanitize.sh [build]" >&2; exit 2 ;; esac
./scripts/install-deps.sh >/dev/null
# -O1: a third quicker to build and to run than -O2 under ASan, and still
# inlines enough to find what optimisation exposes; asserts stay on.
./scripts/configure.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDLAB_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g"
# The tests and what they run (tests/CMakeLists.txt's schedlab_tests), not
# the bench/ programs.
cmake --build build-asan -j "$(nproc)" --target schedlab_tests
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
