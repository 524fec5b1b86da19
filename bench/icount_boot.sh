#!/bin/sh
# Does the inner loop's guest boot under qemu's icount (-icount: the guest's
# clocks advance with the instructions executed, so a guest-timed hackbench
# would measure work, not host jitter)? Boots HEAD's kernel of TREE (built
# and cached by the lab) as the lab's x86 board boots it under TCG
# (single-threaded, -cpu max, 512M; no initramfs: the kernel needs none to
# bring its CPUs up), once per icount setting and vCPU count, and prints a
# row each: whether the kernel brought its CPUs up within BOOT_SECONDS, qemu's
# own word that icount was on (its monitor's `info jit` prints "Host - Guest
# clock" only under icount), the TSC rate the kernel detected (under icount
# qemu's TSC counts virtual nanoseconds: 1000 MHz) and, for a guest still
# booting, where each vCPU is (its RIP, looked at twice a second apart: map
# them with the build's System.map).
#
#   bench/icount_boot.sh [TREE] [SCHEDLAB]      BOOT_SECONDS=30 by default;
#   ICOUNTS="none shift=0,sleep=off" CPUS=2 choose the settings and vCPU counts
#   KERNEL=/path/vmlinuz bench/icount_boot.sh   another kernel (e.g. Debian's)
set -eu
TREE=${1:-/work/linux-6.1}
SCHEDLAB=${2:-$(dirname "$0")/../build/runner/schedlab}
SECONDS_MAX=${BOOT_SECONDS:-30}
KERNEL=${KERNEL:-$("$SCHEDLAB" lab build "git:$TREE@HEAD")}
WORK=$(mktemp -d /tmp/schedlab-icount-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
monitor() { printf '%s\n' "$@" | socat - "unix-connect:$WORK/mon" 2>/dev/null | tr -d '\r'; }
echo "icount | vCPUs | CPUs up | s | qemu says icount | TSC | vCPU RIPs if stuck"
for icount in ${ICOUNTS:-none shift=0,sleep=off shift=0,sleep=on shift=3,sleep=off shift=auto}; do
  for smp in ${CPUS:-1 2}; do
    set -- -accel tcg,thread=single -cpu max -smp "$smp" -m 512M -kernel "$KERNEL" \
      -append "console=ttyS0 panic=-1" -nodefaults -no-user-config -display none \
      -monitor "unix:$WORK/mon,server,nowait" -serial "file:$WORK/serial" -no-reboot
    [ "$icount" = none ] || set -- "$@" -icount "$icount,align=off"
    rm -f "$WORK/serial" "$WORK/mon"
    qemu-system-x86_64 "$@" 2>"$WORK/err" &
    qemu=$!
    start=$(date +%s.%N) up=no
    while [ "$(echo "$(date +%s.%N) - $start < $SECONDS_MAX" | bc)" = 1 ]; do
      grep -q "smp: Brought up" "$WORK/serial" 2>/dev/null && { up=yes; break; }
      sleep 0.2
    done
    took=$(echo "$(date +%s.%N) - $start" | bc)
    said=$(monitor "info jit" | grep -q "Host - Guest clock" && echo yes || echo no)
    rips=""
    if [ "$up" = no ]; then
      rips=$(monitor "cpu 0" "info registers" "cpu 1" "info registers" | grep -o "RIP=[0-9a-f]*" | tr '\n' ' ')
      sleep 1
      rips="$rips/ $(monitor "cpu 0" "info registers" "cpu 1" "info registers" | grep -o "RIP=[0-9a-f]*" | tr '\n' ' ')"
    fi
    tsc=$(grep -o "tsc: Detected [0-9.]* MHz" "$WORK/serial" | cut -d' ' -f3 || true)
    kill "$qemu" 2>/dev/null || true
    wait "$qemu" 2>/dev/null || true
    printf '%s | %s | %s | %.1f | %s | %s MHz | %s\n' "$icount" "$smp" "$up" "$took" "$said" "$tsc" "$rips"
  done
done
