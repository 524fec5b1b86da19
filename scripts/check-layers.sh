#!/bin/sh
# runner/'s folders are layers: a folder includes only folders below it, so
# each can be read, tested and changed without the ones above. This reads
# the folder graph from the #include lines (runner/A/... including
# "runner/B/..." is the edge A -> B; subfolders count as their folder) and
# fails naming each cycle tsort finds in it, with an include per edge.
# Run by ctest (runner_layers, label lint) and by hand: scripts/check-layers.sh
set -eu
cd "$(dirname "$0")/.."

# "FROM TO FILE:LINE" for every include of another runner/ folder.
includes=$(grep -rn --include='*.h' --include='*.cc' '^#include "runner/[a-z_]*/' runner |
  sed -E 's|^runner/([a-z_]+)/([^:]*):([0-9]+):#include "runner/([a-z_]+)/.*|\1 \4 runner/\1/\2:\3|' |
  awk '$1 != $2')
edges=$(printf '%s\n' "$includes" | awk '{print $1, $2}' | sort -u)

loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null || true)
[ -z "$loops" ] && exit 0

# tsort names each loop's folders in order, after a line saying a loop starts.
printf '%s\n' "$loops" | sed 's/^tsort: //' | awk -v edges="$edges" -v includes="$includes" '
  function report(   i, j, from, to, line, n, lines) {
    if (count == 0) return
    line = "runner/ has a cycle: " members[1]
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
  END { report() }' >&2
echo "check-layers: a folder of runner/ may include only folders below it (runner/README.md)" >&2
exit 1
