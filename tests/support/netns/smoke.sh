#!/bin/bash
# Smoke test for lab.sh, no C++ involved:
#   up -> ssh to the SUT -> TCP server in sl-sut reached from sl-lg
#   (plus a short tbench run over SSH if dbench is installed) -> down
#   -> verify the machine is exactly as before.
# Usage: smoke.sh [MODE]   MODE: normal (default) | kill-halfway | interrupt-up
#   kill-halfway: after up, break the lab by hand (SIGKILL the SUT sshd,
#                 delete the sl-lg namespace under its running sshd, delete the bridge)
#                 and check down still cleans up everything.
#   interrupt-up: SIGKILL lab.sh up part-way through, then down.
# Exit 0 = pass, 77 = skipped (not root / no netns), else fail.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
LAB=$HERE/lab.sh
MODE=${1:-normal}
DIR=$(mktemp -u /tmp/schedlab-netns-smoke.XXXXXX)
fail() { echo "smoke: FAIL: $*" >&2; exit 1; }

snapshot() {   # machine state that down must restore
  echo "netns: $(ip netns list 2>/dev/null | awk '{print $1}' | sort | tr '\n' ' ')"
  echo "links: $(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | sort | tr '\n' ' ')"
  echo "run_sshd: $([ -d /run/sshd ] && echo yes || echo no)"
  command -v iptables >/dev/null 2>&1 && echo "iptables: $(iptables -S 2>&1 | tr '\n' ';')"
  echo "sshd_pids: $(ps -e -o pid=,stat=,comm= | awk '$2 !~ /^Z/ && $3 == "sshd" {print $1}' | sort | tr '\n' ' ')"
}
before=$(snapshot)
cleanup() { "$LAB" down "$DIR"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$MODE" = interrupt-up ]; then
  "$LAB" up "$DIR" >/dev/null 2>&1 & p=$!
  sleep "$(( RANDOM % 2 )).$(( RANDOM % 10 ))"   # 0.0 .. 1.9 s: network, keys or sshd stage
  kill -KILL $p 2>/dev/null; wait $p 2>/dev/null
  echo "smoke: killed up after partial progress: $(ip netns list | tr '\n' ' ') $(ip -br link show type bridge | awk '{print $1}') procs in sl-sut/sl-lg: $(ip netns pids sl-sut 2>/dev/null | wc -l)/$(ip netns pids sl-lg 2>/dev/null | wc -l)"
else
  t0=$(date +%s%N)
  out=$("$LAB" up "$DIR"); rc=$?
  [ $rc -ne 77 ] || { trap - EXIT; echo "smoke: SKIP (lab unavailable)"; exit 77; }
  [ $rc -eq 0 ] || fail "lab.sh up exited $rc"
  echo "smoke: up took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  [ "$(printf '%s\n' "$out" | head -1)" = ready ] || fail "up did not print ready: $out"
  eval "$(printf '%s\n' "$out" | grep -E '^[A-Z_]+=')"
  S=(ssh -F /dev/null -i "$KEY" -o BatchMode=yes -o UserKnownHostsFile="$KNOWN_HOSTS" -o StrictHostKeyChecking=yes)

  # 1. plain ssh to the SUT
  got=$("${S[@]}" "$SUT" "printf '%s\n' hello") || fail "ssh $SUT failed"
  [ "$got" = hello ] || fail "ssh printf gave '$got'"
  echo "smoke: ssh $SUT printf -> $got"

  # 2. a TCP server in sl-sut (started over SSH, left running on purpose so that
  #    down has to kill it), reached from a client in sl-lg.
  "${S[@]}" "$SUT" "setsid /usr/bin/python3 -c 'import socket
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((\"0.0.0.0\", 5555)); s.listen(8)
while True:
    c, a = s.accept(); c.sendall(b\"hello-from-sut to %s\\n\" % a[0].encode()); c.close()' </dev/null >/dev/null 2>&1 &" ||
    fail "could not start TCP server in sl-sut"
  got=
  for i in $(seq 50); do
    got=$(ip netns exec "$LOADGEN_NETNS" timeout 3 bash -c "exec 3<>/dev/tcp/$SUT_ADDR/5555 && read -r l <&3 && echo \"\$l\"" 2>/dev/null) && break
    sleep 0.1
  done
  [ "$got" = "hello-from-sut to $LOADGEN_ADDR" ] || fail "sl-lg -> $SUT_ADDR:5555 gave '$got'"
  echo "smoke: TCP sl-lg -> $SUT_ADDR:5555 -> $got"

  # 3. the real shape: tbench_srv on the SUT, tbench client on the loadgen, both over SSH.
  if "${S[@]}" "$SUT" "command -v tbench_srv" >/dev/null && "${S[@]}" "$LOADGEN" "command -v tbench" >/dev/null; then
    "${S[@]}" "$SUT" "setsid tbench_srv </dev/null >/dev/null 2>&1 &"
    sleep 0.3
    res=$("${S[@]}" "$LOADGEN" "tbench -t 3 1 $SUT_ADDR 2>&1 | grep -E '^Throughput'") || fail "tbench over the lab failed"
    echo "smoke: tbench 1 client sl-lg -> sl-sut: $res"
  else
    echo "smoke: (dbench not installed; tbench check skipped)"
  fi

  if [ "$MODE" = kill-halfway ]; then
    kill -KILL "$(cat "$DIR/sshd_sut.pid")"
    ip netns del sl-lg            # its sshd keeps running in an anonymous netns
    ip link del slbr0
    echo "smoke: broke the lab by hand (SIGKILL sut sshd, deleted sl-lg netns and slbr0)"
  fi
fi

trap - EXIT
t0=$(date +%s%N)
"$LAB" down "$DIR" || fail "down exited $?"
echo "smoke: down took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
"$LAB" down "$DIR" || fail "second down exited $?"

after=$(snapshot)
[ "$before" = "$after" ] || fail "machine state differs after down:
--- before
$before
--- after
$after"
[ ! -e "$DIR" ] || fail "$DIR still exists"
left=
for c in /proc/[0-9]*/cmdline; do   # bash builtins only, so we do not match ourselves
  pid=${c#/proc/}; pid=${pid%/cmdline}
  [ "$pid" = $$ ] && continue
  cl=$(tr '\0' ' ' 2>/dev/null <"$c") || continue
  case $cl in *"$DIR"*) left="$left $pid($cl)" ;; esac
done
[ -z "$left" ] || fail "processes referencing $DIR still running: $left"
ip -o link show | grep -E 'slbr0|slv-' && fail "lab links left"
echo "smoke: PASS ($MODE)"
