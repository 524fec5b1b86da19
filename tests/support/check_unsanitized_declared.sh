#!/bin/sh
# Every test executable with fast cases that the sanitizer run leaves out
# ([netns], [lab], [heavy], [simulation]) is declared NETNS or UNSANITIZED
# in tests/CMakeLists.txt: scripts/test.sh builds only those in build/ for
# CI's fast tier, so an undeclared one's cases would run nowhere there.
# In an executable declared LONG, a [long] case is in the long tier.
# Usage: check_unsanitized_declared.sh TESTS_BUILD_DIR
set -eu
dir=$1
status=0
for exe in "$dir"/*_test; do
  name=$(basename "$exe")
  if grep -qx "$name" "$dir/long_executables.txt"; then
    spec='[netns]~[long],[lab]~[long],[heavy]~[long],[simulation]~[long]'
  else
    spec='[netns],[lab],[heavy],[simulation]'
  fi
  cases=$("$exe" "$spec" --list-test-names-only | grep -c . || true)
  if [ "$cases" -gt 0 ] && ! grep -qx "$name" "$dir/unsanitized_executables.txt"; then
    echo "$name: $cases fast case(s) tagged [netns], [lab], [heavy] or [simulation]:" \
      "declare it NETNS or UNSANITIZED in tests/CMakeLists.txt" >&2
    status=1
  fi
done
[ "$status" -ne 0 ] || echo "every executable with unsanitized fast cases is declared"
exit "$status"
