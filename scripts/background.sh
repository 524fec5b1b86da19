#!/bin/sh
# A build that runs beside the tests at the lowest priority
# (idle-priority.sh), in a session of its own: it takes only the CPU the
# tests leave idle (qemu's one TCG thread, servers starting, timeouts waited
# out) and yields the rest, so the tests run as on an idle machine (their
# busy loops against the build's: 98% to 1.5% of a core) and the build costs
# little time. scripts/test.sh starts the fuzz build with it, .ci/run the
# sanitizer build.
#   scripts/background.sh start LOG CMD [ARG...]  start CMD, its output in LOG
#   scripts/background.sh wait LOG                wait for it to end; if it failed,
#                                                 print LOG on stderr and fail
#   scripts/background.sh stop LOG                kill it (its whole session) if it runs
# LOG.pid holds its session's id and command, LOG.status its exit status
# once it has ended.
set -eu
here=$(dirname "$0")
usage() {
  echo "usage: scripts/background.sh start LOG CMD [ARG...] | wait LOG | stop LOG" >&2
  exit 2
}
[ "$#" -ge 2 ] || usage
step=$1 log=$2
shift 2
session() { sed -n 1p "$log.pid"; }
# Running: no status yet, and its first process is there (a zombie is not).
running() {
  [ ! -e "$log.status" ] || return 1
  case $(ps -o stat= -p "$(session)" 2>/dev/null) in '' | Z*) return 1 ;; esac
}
case $step in
  start)
    [ "$#" -ge 1 ] || usage
    rm -f "$log.status"
    # Started in the background of a shell without job control, setsid is
    # not a process group leader: it makes the session without forking, so
    # $! is the session's id, and the shell below (at the lowest priority)
    # writes the command's status.
    setsid "$here/idle-priority.sh" sh -c '"$@"; echo $? >"$0"' "$log.status" "$@" \
      >"$log" 2>&1 </dev/null &
    printf '%s\n%s\n' "$!" "$*" >"$log.pid"
    ;;
  wait)
    [ "$#" -eq 0 ] || usage
    while running; do sleep 1; done
    status=$(cat "$log.status" 2>/dev/null || echo killed)
    [ "$status" = 0 ] && exit 0
    echo "background.sh: '$(sed -n 2p "$log.pid")' failed ($status); its output, $log:" >&2
    cat "$log" >&2
    case $status in *[!0-9]*) exit 1 ;; *) exit "$status" ;; esac
    ;;
  stop)
    [ "$#" -eq 0 ] || usage
    if [ -e "$log.pid" ] && running; then kill -- "-$(session)" 2>/dev/null || true; fi
    ;;
  *) usage ;;
esac
