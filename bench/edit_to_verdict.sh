#!/bin/sh
# A kernel developer's inner loop, timed: a one-line edit in
# select_task_rq_fair that slows every wake-up placement to a printed,
# decided verdict for hackbench process-pipes 2 groups, HEAD against the
# work tree (goal <= 30 s wall on 2 cores, HEAD built and cached, nothing
# else running):
#
#   bench/edit_to_verdict.sh [TREE] [SCHEDLAB]
#
# TREE: a Linux 6.1 git tree, clean at HEAD (default /work/linux-6.1:
# Debian's linux-source-6.1 unpacked, its "ignore every top-level entry"
# .gitignore block dropped, committed). HEAD is built first if it is not in
# the lab cache (a cold build, not timed); the work tree's build directory
# is the one HEAD was built in, so the edit rebuilds incrementally. Prints
# each phase: incremental build, boots (both guests at once), iterations,
# analysis and table, and within them the last guest's "up" to the first
# iteration (SUT locks, manifest, facts, ports); then the verdict line, and what an idle guest's qemu
# costs while the other is measured. The edit is taken back on every exit.
# E2V_KEEP=DIR keeps the run's database there (DIR/db) for compare.
#
# The edit (E2V_EDIT, one statement) is by default a busy loop of 100,000
# empty turns, not udelay(10): under TCG udelay waits host time, 10 us
# against wake-ups emulated tens of times slower, and what it costs a
# wake-up varied from run to run (bench/edit_noise.sh, 2 vCPUs: udelay(10)
# +47% with a CV of 46% against HEAD's 23%, udelay(100) +22%; likely its
# spin's `pause`, on which single-threaded TCG may switch vCPUs: not
# checked). A loop costs instructions, slowed by emulation as the rest of
# the wake-up is (2.1-3.1x HEAD's time in twelve runs). E2V_EDIT='udelay(10);'
# plants the old edit (with the #include <linux/delay.h> fair.c lacks).
#
# The design: min effect 50% (MIN_EFFECT) and Pocock-type spending
# (SPENDING): hackbench's CV under TCG is 22-26% an iteration and the time
# is an arithmetic mean, so the slow kernel's variance sets the needed n;
# with min effect 25% it decided only at n 14-20 (32.1-41.5 s), with
# O'Brien-Fleming bounds at 50% at n 5-14 (21.7-33.9 s); Pocock
# decided at n 4-7 (README.md has the runs).
set -eu
TREE=${1:-/work/linux-6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
WORK=$(mktemp -d /tmp/schedlab-e2v-XXXXXX)
. "$(dirname "$0")/planted_edit.sh"

"$SCHEDLAB" lab build "git:$TREE@HEAD" >/dev/null 2>"$WORK/head.err" || { cat "$WORK/head.err" >&2; exit 1; }

cat >"$WORK/inner.yaml" <<YAML
hosts:
  sut: {lab: {kernels: ['git:$TREE@HEAD', 'git:$TREE@WORKTREE'], cpus: 2, memory: 512M, accel: tcg}}
  loadgen: local
iterations: {stop: sequential, min: 3, max: 20, min_effect_pct: ${MIN_EFFECT:-50}, spending: ${SPENDING:-pocock}}
workloads:
  - hackbench: {modes: [process-pipes], groups: [2], loops: ${LOOPS:-20}, timeout: 2m}
YAML

now() { date +%s.%N; }
t0=$(now)
# The edit, a new comment each time: built, not found cached.
plant_edit "${E2V_EDIT:-for (int i = 0; i < 100000; i++) barrier();}" "$(date +%s%N)"

# stderr a line an iteration (--progress), each line also kept with the
# time it came: the last guest's "up" line to the first iteration's line is
# the setup between them (SUT locks, preflight, manifests, facts, ports).
stamp() {
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$WORK/run.err"
    printf '%s %s\n' "$(now)" "$line" >>"$WORK/run.stamped"
  done
}
{ "$SCHEDLAB" run "$WORK/inner.yaml" --db "$WORK/db" --name inner --progress 2>&1 >"$WORK/table" ||
  echo $? >"$WORK/status"; } | stamp
status=$(cat "$WORK/status" 2>/dev/null || echo 0)
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
up=$(grep -E '^[0-9.]+ lab: .* up \(' "$WORK/run.stamped" | tail -1 | cut -d' ' -f1)
first=$(grep -E '^[0-9.]+ \[1/' "$WORK/run.stamped" | head -1 | cut -d' ' -f1)
[ -z "$up" ] || [ -z "$first" ] ||
  printf '  last guest up to the first iteration: %.2fs\n' "$(echo "$first - $up" | bc)"
grep "lab: built" "$WORK/run.err" | sed 's/^/  /' || true
jq -r '.runs[0].manifest.kernel_columns_cpu.guests[] | "  guest \(.column): qemu \(.qemu_cpu_seconds) s of CPU over the iterations"' "$WORK/json"
sed -n '/^hackbench/,$p' "$WORK/table"
grep "WORKTREE/default time:" "$WORK/table" | grep -q -E ": (different|same) " || { echo "not decided" >&2; exit 3; }
