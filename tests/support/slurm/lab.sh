#!/bin/bash
# schedlab test cluster: a real Slurm (munged, slurmctld, two slurmd) on one
# machine, on top of the netns SSH lab (../netns/lab.sh): node n1 is the
# namespace sl-sut (10.231.0.1), n2 is sl-lg (10.231.0.2), each with its sshd.
# munged and slurmctld run in the root namespace; each slurmd runs in its
# node's network and UTS namespace, so a job's processes see the node's
# address and hostname (nsenter, not `ip netns exec`: that remounts /sys and
# slurmd then finds no cgroup mount).
#
#   lab.sh up DIR     start everything, print "ready" and KEY=VALUE lines
#   lab.sh down DIR   stop everything, remove DIR; never fails
#
# Exit codes: 0 ok; 1 failure; 77 this machine cannot host the cluster (no
# Slurm or munge installed, or the netns lab is unavailable) - callers skip.
# Clients need SLURM_CONF=DIR/slurm.conf (printed). Ports 6917 (slurmctld)
# and 6918 (slurmd, in the node namespaces) keep clear of a real cluster's.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NETLAB=$HERE/../netns/lab.sh
TIMEOUT=${LAB_TIMEOUT:-30}

log()  { printf 'slurm-lab: %s\n' "$*" >&2; }
die()  { log "error: $*"; exit 1; }
skip() { log "unavailable: $*"; exit 77; }

[ $# -eq 2 ] || { echo "usage: $0 {up|down} DIR" >&2; exit 2; }
CMD=$1
case $2 in /*) DIR=${2%/} ;; *) DIR=$PWD/${2%/} ;; esac
case $DIR in ''|/|*[!A-Za-z0-9._/+-]*) die "DIR must be a plain path: '$2'" ;; esac

pid_from() {  # pidfile -> pid if that process is alive
  local pid
  [ -r "$1" ] && read -r pid <"$1" 2>/dev/null && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
    echo "$pid"
}

stop_pid() {  # pid: TERM, then KILL after 3 s
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
}

down() {
  local f pid
  for f in "$DIR"/slurmd-n1.pid "$DIR"/slurmd-n2.pid "$DIR"/slurmctld.pid "$DIR"/munge/munged.pid; do
    pid=$(pid_from "$f") && stop_pid "$pid"
  done
  [ -d "$DIR/net" ] && "$NETLAB" down "$DIR/net" >/dev/null 2>&1
  [ -e "$DIR/.schedlab-slurm-lab" ] && rm -rf "$DIR"
  return 0
}

up() {
  local b
  for b in sbatch squeue scontrol scancel sinfo; do
    command -v $b >/dev/null || skip "$b not found (Debian package slurm-client; slurm-wlm for the daemons)"
  done
  for b in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged /usr/sbin/mungekey; do
    [ -x $b ] || skip "$b not found (Debian packages slurm-wlm and munge)"
  done
  id munge >/dev/null 2>&1 || skip "no munge user (Debian package munge)"
  command -v nsenter >/dev/null && command -v unshare >/dev/null || skip "nsenter/unshare missing (util-linux)"
  if [ -e "$DIR" ] && [ ! -e "$DIR/.schedlab-slurm-lab" ] && [ -n "$(ls -A "$DIR")" ]; then
    die "$DIR exists and is not a slurm lab directory"
  fi
  mkdir -p "$DIR" && touch "$DIR/.schedlab-slurm-lab" && chmod 0755 "$DIR" || die "cannot create $DIR"
  local env rc
  env=$(LAB_PRIVATE_RUN=1 "$NETLAB" up "$DIR/net"); rc=$?
  [ $rc -eq 0 ] || exit $rc

  # munge: its own key and socket; munged refuses to run as root, and the key
  # must be 0600 and owned by munge.
  mkdir -p "$DIR/munge" && chown munge:munge "$DIR/munge" && chmod 0711 "$DIR/munge" || die "munge dir"
  mungekey -c -k "$DIR/munge/munge.key" >/dev/null 2>&1 || die "mungekey failed"
  chown munge:munge "$DIR/munge/munge.key" && chmod 0600 "$DIR/munge/munge.key"
  runuser -u munge -- /usr/sbin/munged --socket="$DIR/munge/munge.socket" \
    --key-file="$DIR/munge/munge.key" --pid-file="$DIR/munge/munged.pid" \
    --log-file="$DIR/munge/munged.log" --seed-file="$DIR/munge/munged.seed" ||
    die "munged did not start: $(tail -3 "$DIR/munge/munged.log" 2>/dev/null)"

  mkdir -p "$DIR/ctld" "$DIR/spool/n1" "$DIR/spool/n2"
  cat >"$DIR/slurm.conf" <<CONF
ClusterName=schedlablab
SlurmctldHost=$(hostname -s)(10.231.0.254)
SlurmctldPort=6917
SlurmdPort=6918
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd-%n.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
KillWait=10
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=n1 NodeAddr=10.231.0.1 CPUs=$(nproc) State=UNKNOWN
NodeName=n2 NodeAddr=10.231.0.2 CPUs=$(nproc) State=UNKNOWN
PartitionName=lab Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$DIR/slurm.conf
  /usr/sbin/slurmctld -f "$SLURM_CONF" || die "slurmctld did not start: $(tail -5 "$DIR/slurmctld.log")"
  local n ns
  for n in 1 2; do
    ns=sl-sut; [ $n = 2 ] && ns=sl-lg
    setsid nsenter --net=/run/netns/$ns unshare --uts \
      sh -c "hostname n$n && exec /usr/sbin/slurmd -D -N n$n -f '$SLURM_CONF'" \
      </dev/null >"$DIR/slurmd-n$n.out" 2>&1 &
  done
  local i
  for i in $(seq $((TIMEOUT * 10))); do
    [ "$(sinfo -h -p lab -t idle -o %D 2>/dev/null)" = 2 ] && break
    sleep 0.1
  done
  [ "$(sinfo -h -p lab -t idle -o %D 2>/dev/null)" = 2 ] ||
    die "nodes not idle after ${TIMEOUT}s: $(sinfo 2>&1); slurmd: $(tail -3 "$DIR"/slurmd-n*.log 2>&1)"
  echo ready
  printf '%s\n' "$env" | grep -v '^ready$'
  echo "SLURM_CONF=$SLURM_CONF"
  echo "PARTITION=lab"
  echo "NODES=n1 n2"
}

case $CMD in
  up)   (up) ; rc=$?; [ $rc -eq 0 ] || down; exit $rc ;;
  down) down ;;
  *)    echo "usage: $0 {up|down} DIR" >&2; exit 2 ;;
esac
