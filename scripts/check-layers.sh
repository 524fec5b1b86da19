#!/bin/sh
# Layers, read from the #include lines and checked for cycles by tsort:
# - runner/'s and analysis/'s folders are layers: a folder includes only
#   folders below it (runner/A/... including "runner/B/..." is the edge
#   A -> B), so each can be read, tested and changed without the ones above;
# - no two files include each other through a loop, in any library (a file
#   is its .h and .cc together: e.g. kernel.cc -> out_of_tree_module.h ->
#   kernel_build.h -> kernel.h would be the loop kernel -> out_of_tree_module
#   -> kernel_build -> kernel).
# Each cycle found is named with an include per edge. The file loops that
# were there when this check began are listed in scripts/known-file-loops.txt,
# each to be taken apart: a loop not listed fails, and so does a listed one
# that is gone (delete its line), so the list only shrinks. Run by ctest
# (runner_layers, label lint) and by hand: scripts/check-layers.sh
set -eu
cd "$(dirname "$0")/.."
known=scripts/known-file-loops.txt
found=$(mktemp)
trap 'rm -f "$found"' EXIT

# check WHAT: reads "FROM TO FILE:LINE" lines, one per include, on stdin;
# prints each cycle of the FROM -> TO graph with the include behind each edge
# (a line "WHAT has a cycle: A -> B -> A" then an include per edge) to $found.
check() {
  includes=$(awk '$1 != $2')
  edges=$(printf '%s\n' "$includes" | awk 'NF {print $1, $2}' | sort -u)
  [ -n "$edges" ] || return 0
  loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null || true)
  [ -z "$loops" ] && return 0
  printf '%s\n' "$loops" | sed 's/^tsort: //' | awk -v what="$1" -v includes="$includes" '
    function report(   i, j, from, to, line, n, lines) {
      if (count == 0) return
      line = what " has a cycle: " members[1]
      for (i = 2; i <= count; i++) line = line " -> " members[i]
      print line " -> " members[1]
      n = split(includes, lines, "\n")
      for (i = 1; i <= count; i++) {
        from = members[i]; to = members[i % count + 1]
        for (j = 1; j <= n; j++) {
          split(lines[j], f, " ")
          if (f[1] == from && f[2] == to) { print "  " from " -> " to ": " f[3]; break }
        }
      }
      count = 0
    }
    /input contains a loop/ { report(); next }
    { members[++count] = $0 }
    END { report() }' >>"$found"
}

# "FILE:LINE:INCLUDED" for every include of one of our own files.
own_includes() {
  grep -rn --include='*.h' --include='*.cc' -E '^#include "(base|results|workloads|analysis|runner)/' \
    base results workloads analysis runner |
    sed -E 's|^([^:]*):([0-9]+):#include "([^"]*)".*|\1:\2:\3|'
}

all=$(own_includes)
for root in runner analysis; do
  printf '%s\n' "$all" |
    awk -F: -v root="$root" '
      index($1, root "/") == 1 && index($3, root "/") == 1 {
        n1 = split($1, a, "/"); n3 = split($3, b, "/")
        if (n1 > 2 && n3 > 2) print a[2], b[2], $1 ":" $2
      }' | check "$root/"
done
# Files: FILE's stem (its path without .h or .cc) -> the included file's stem.
printf '%s\n' "$all" |
  awk -F: '{ from = $1; to = $3; sub(/\.(h|cc)$/, "", from); sub(/\.(h|cc)$/, "", to)
             print from, to, $1 ":" $2 }' | check "the include graph"
# A cycle is named by its members in sorted order (tsort may start it anywhere).
names() { grep ' has a cycle: ' | sed -E 's/ has a cycle: /: /; s/ -> [^ ]*$//' |
  awk -F': ' '{ n = split($2, m, " -> "); s = ""
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (m[j] < m[i]) { t = m[i]; m[i] = m[j]; m[j] = t }
                for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") m[i]
                print $1 ": " s }' | sort -u; }
new=$(names <"$found" | grep -vxF -f "$known" || true)
gone=$(grep -v '^#' "$known" | grep -vxF -f "$(names <"$found" >"$found.names"; echo "$found.names")" || true)
rm -f "$found.names"
status=0
if [ -n "$new" ]; then
  cat "$found" >&2
  printf 'check-layers: a new loop: %s\n' $(printf '%s\n' "$new" | tr ' ' '~') | tr '~' ' ' >&2
  echo "check-layers: a folder of runner/ or analysis/ may include only folders below it, and no file may include itself through others (runner/README.md)" >&2
  status=1
fi
if [ -n "$gone" ]; then
  printf 'check-layers: no longer a loop, delete its line from %s: %s\n' "$known" "$gone" >&2
  status=1
fi
exit "$status"
