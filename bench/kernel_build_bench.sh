#!/bin/sh
# Kernel-from-source figures for the lab (goals: cold build <= 8 min on 2
# cores, incremental after touching kernel/sched/fair.c <= 60 s, boot to SSH
# under TCG <= 5 s):
#
#   bench/kernel_build_bench.sh [TREE] [SCHEDLAB]
#   BOARD=exynos4210 bench/kernel_build_bench.sh   # cross-built ARCH=arm; the
#                                                  # incremental step touches dmatest.c
#
# TREE: a Linux git tree (default: the test's Debian 6.1 tree,
# ~/.cache/schedlab/test-kernel/linux-6.1, made by kernel_build_test). Cold
# means a fresh lab cache and ccache disabled; the incremental build touches
# fair.c in that cache's checkout of the work tree. Prints wall and
# user+sys CPU seconds per step.
set -eu
TREE=${1:-$HOME/.cache/schedlab/test-kernel/linux-6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
CACHE=$(mktemp -d /var/tmp/schedlab-kbench-XXXXXX)
trap 'rm -rf "$CACHE"' EXIT
export SCHEDLAB_LAB_CACHE="$CACHE"
BOARD=${BOARD:-x86}
if [ "$BOARD" = x86 ]; then TOUCH=kernel/sched/fair.c; MEMORY="--memory 512M"; else TOUCH=drivers/dma/dmatest.c; MEMORY=; fi

step() {  # NAME CMD...: wall and CPU of CMD and its children
  name=$1; shift
  /usr/bin/time -f "$name: wall %es, user+sys %Us+%Ss" "$@" >/dev/null 2>"$CACHE/$name.err" || {
    tail -20 "$CACHE/$name.err" >&2; exit 1; }
  tail -1 "$CACHE/$name.err"
}

# The work tree as it is (git:TREE): fair.c is then touched in TREE itself,
# so copy nothing and put the file's mtime back afterwards.
CCACHE_DISABLE=1 step cold "$SCHEDLAB" lab build "git:$TREE" --board "$BOARD"
touch "$TREE/$TOUCH"
echo '/* bench */' >> "$TREE/$TOUCH"
CCACHE_DISABLE=1 step "$(basename $TOUCH)" "$SCHEDLAB" lab build "git:$TREE" --board "$BOARD"
git -C "$TREE" checkout -q -- "$TOUCH"
# Boot to SSH: schedlab logs "up [on BOARD (...)] (...) in N.Ns".
# shellcheck disable=SC2086
timeout 300 "$SCHEDLAB" lab boot "git:$TREE" --board "$BOARD" --accel tcg $MEMORY 2>"$CACHE/boot.err" >/dev/null &
pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q " up " "$CACHE/boot.err"; do sleep 1; done
grep -o "up .* in [0-9.]*s" "$CACHE/boot.err" | sed 's/^/boot: /' || tail -20 "$CACHE/boot.err"
kill -INT $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
