#!/bin/sh
# Runs a command at the lowest CPU priority, so that it takes only the CPU
# time nothing else wants: scripts/idle-priority.sh CMD [ARG...].
# Started under setsid (a session of its own), where the kernel groups a
# session's tasks for fairness (sched_autogroup_enabled, on in Debian's
# kernels), nice alone ranks tasks only within their group, and that new
# group would get as much CPU as the tests' own: the group is set to nice
# 19 as well. SCHED_IDLE (chrt --idle) and nice 19 rank its tasks below
# every normal task where autogroup is off. Lowering priority needs no
# privilege.
set -eu
echo 19 >/proc/self/autogroup 2>/dev/null || true
exec chrt --idle 0 nice -n 19 "$@"
