#!/bin/sh
# A kernel developer's inner loop, timed: a one-line edit in
# select_task_rq_fair (a planted udelay(10): every wake-up placement 10 us
# slower) to a printed, decided verdict for hackbench process-pipes 2
# groups, HEAD against the work tree (goal <= 30 s wall on 2 cores, HEAD
# built and cached, nothing else running):
#
#   bench/edit_to_verdict.sh [TREE] [SCHEDLAB]
#
# TREE: a Linux 6.1 git tree, clean at HEAD (default /work/linux-6.1:
# Debian's linux-source-6.1 unpacked, its "ignore every top-level entry"
# .gitignore block dropped, committed). HEAD is built first if it is not in
# the lab cache (a cold build, not timed); the work tree's build directory
# is the one HEAD was built in, so the edit rebuilds incrementally. Prints
# each phase: incremental build, boots (both guests at once), iterations,
# analysis and table; then the verdict line, and what an idle guest's qemu
# costs while the other is measured. The edit is taken back on every exit.
# E2V_KEEP=DIR keeps the run's database there (DIR/db) for compare.
set -eu
TREE=${1:-/work/linux-6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
WORK=$(mktemp -d /tmp/schedlab-e2v-XXXXXX)
FAIR=kernel/sched/fair.c
cleanup() {
  git -C "$TREE" checkout -q -- "$FAIR"
  [ -z "${E2V_KEEP:-}" ] || { mkdir -p "$E2V_KEEP" && cp "$WORK/db" "$E2V_KEEP/db" 2>/dev/null; } || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
[ -z "$(git -C "$TREE" status --porcelain)" ] || { echo "$TREE has edits; give a clean tree" >&2; exit 2; }

"$SCHEDLAB" lab build "git:$TREE@HEAD" >/dev/null 2>"$WORK/head.err" || { cat "$WORK/head.err" >&2; exit 1; }

cat >"$WORK/inner.yaml" <<YAML
hosts:
  sut: {lab: {kernels: ['git:$TREE@HEAD', 'git:$TREE@WORKTREE'], cpus: 2, memory: 512M, accel: tcg}}
  loadgen: local
iterations: {stop: sequential, min: 3, max: 20, min_effect_pct: ${MIN_EFFECT:-25}}
workloads:
  - hackbench: {modes: [process-pipes], groups: [2], loops: ${LOOPS:-20}, timeout: 2m}
YAML

now() { date +%s.%N; }
t0=$(now)
# The edit (a new comment each time, so it is built, not found cached):
# udelay(10) the first thing select_task_rq_fair does, and the
# header that declares it (fair.c does not include it: without it the build
# fails, naming fair.c's line, the compiler's first error).
awk '
  /^#include "sched.h"$/ && !included { print "#include <linux/delay.h>"; included = 1 }
  /^select_task_rq_fair\(struct task_struct \*p, int prev_cpu, int wake_flags\)$/ { in_fn = 1 }
  in_fn && /^\tlockdep_assert_held\(&p->pi_lock\);$/ { print "\tudelay(10); /* " stamp " */"; in_fn = 0 }
  { print }' stamp="$(date +%s%N)" "$TREE/$FAIR" >"$WORK/fair.c"
cp "$WORK/fair.c" "$TREE/$FAIR"
[ "$(git -C "$TREE" diff --numstat | cut -f1)" = 2 ] || { echo "the edit did not land" >&2; exit 1; }

status=0
"$SCHEDLAB" run "$WORK/inner.yaml" --db "$WORK/db" --name inner >"$WORK/table" 2>"$WORK/run.err" || status=$?
t1=$(now)
if [ "$status" != 0 ]; then tail -30 "$WORK/run.err" >&2; exit "$status"; fi

"$SCHEDLAB" compare inner --db "$WORK/db" --format json >"$WORK/json"
# Phases from what the run recorded (manifest) and the run's own lines.
built=$(jq -r '.runs[0].manifest.kernel_columns_timing.build_seconds' "$WORK/json")
booted=$(jq -r '.runs[0].manifest.kernel_columns_timing.boot_seconds' "$WORK/json")
measured=$(jq -r '.runs[0].manifest.kernel_columns_cpu.wall_seconds' "$WORK/json")
total=$(echo "$t1 - $t0" | bc)
printf 'edit to verdict: %.1fs wall\n' "$total"
printf '  incremental build: %.1fs\n  boots (both at once): %.1fs\n  iterations: %.1fs\n  analysis, table and the rest: %.1fs\n' \
  "$built" "$booted" "$measured" "$(echo "$total - $built - $booted - $measured" | bc)"
grep "lab: built" "$WORK/run.err" | sed 's/^/  /' || true
jq -r '.runs[0].manifest.kernel_columns_cpu.guests[] | "  guest \(.column): qemu \(.qemu_cpu_seconds) s of CPU over the iterations"' "$WORK/json"
sed -n '/^hackbench/,$p' "$WORK/table"
grep "WORKTREE/default time:" "$WORK/table" | grep -q -E ": (different|same) " || { echo "not decided" >&2; exit 3; }
