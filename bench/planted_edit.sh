# Sourced by bench/edit_to_verdict.sh and bench/edit_noise.sh: the one-line
# edit they plant in TREE's kernel/sched/fair.c, and taking it back.
#
#   . "$(dirname "$0")/planted_edit.sh"   # needs TREE and WORK set
#   plant_edit STMT COMMENT   # STMT the first statement of select_task_rq_fair
#
# The tree must be clean; on every exit (a failure, Ctrl-C) fair.c is
# checked out again, E2V_KEEP=DIR keeps WORK/db as DIR/db, and WORK goes.
FAIR=kernel/sched/fair.c
cleanup() {
  git -C "$TREE" checkout -q -- "$FAIR"
  [ -z "${E2V_KEEP:-}" ] || { mkdir -p "$E2V_KEEP" && cp "$WORK/db" "$E2V_KEEP/db" 2>/dev/null; } || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
[ -z "$(git -C "$TREE" status --porcelain)" ] || { echo "$TREE has edits; give a clean tree" >&2; exit 2; }

# With udelay, also the header that declares it (fair.c does not include
# it: without it the build fails, naming fair.c's line, the compiler's
# first error). A new COMMENT each time makes a new kernel, built, not
# found cached; the same one finds the earlier build.
plant_edit() {
  awk '
    /^#include "sched.h"$/ && !included && stmt ~ /delay\(/ { print "#include <linux/delay.h>"; included = 1 }
    /^select_task_rq_fair\(struct task_struct \*p, int prev_cpu, int wake_flags\)$/ { in_fn = 1 }
    in_fn && /^\tlockdep_assert_held\(&p->pi_lock\);$/ { print "\t" stmt " /* " comment " */"; in_fn = 0 }
    { print }' stmt="$1" comment="$2" "$TREE/$FAIR" >"$WORK/fair.c"
  cp "$WORK/fair.c" "$TREE/$FAIR"
  lines=1
  case "$1" in *delay\(*) lines=2 ;; esac
  [ "$(git -C "$TREE" diff --numstat | cut -f1)" = "$lines" ] || { echo "the edit did not land" >&2; exit 1; }
}
