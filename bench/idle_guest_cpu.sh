#!/bin/sh
# What an idle lab guest costs the machine: boots KERNEL under TCG (2 vCPUs,
# 512M), waits 3 s after SSH answers, and prints the CPU its qemu uses per
# second of wall over the next 10 s (utime + stime from /proc). Kernels as
# columns keep every guest up while another is measured; this is what the
# idle ones take from it.
#
#   bench/idle_guest_cpu.sh [KERNEL] [SCHEDLAB]     # KERNEL: debian:6.1 by default
set -eu
KERNEL=${1:-debian:6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
WORK=$(mktemp -d /tmp/schedlab-idle-XXXXXX)
pid=
cleanup() { [ -z "$pid" ] || { kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }; rm -rf "$WORK"; }
trap cleanup EXIT
"$SCHEDLAB" lab boot "$KERNEL" --accel tcg --memory 512M >"$WORK/out" 2>"$WORK/err" &
pid=$!
while ! grep -q " up " "$WORK/err"; do
  sleep 0.5
  kill -0 "$pid" 2>/dev/null || { tail -20 "$WORK/err" >&2; exit 1; }
done
sleep 3
port=$(grep -o "ssh on 127.0.0.1:[0-9]*" "$WORK/err" | head -1 | cut -d: -f2)
qemu=$(pgrep -f "hostfwd=tcp:127.0.0.1:$port-:22" | head -1)
ticks=$(getconf CLK_TCK)
a=$(awk '{print $14 + $15}' "/proc/$qemu/stat")
sleep 10
b=$(awk '{print $14 + $15}' "/proc/$qemu/stat")
printf 'idle %s guest: qemu used %.3f CPU-seconds per second over 10 s\n' "$KERNEL" "$(echo "($b - $a) / $ticks / 10" | bc -l)"
