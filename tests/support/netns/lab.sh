#!/bin/bash
# schedlab test lab: two network namespaces (SUT and loadgen) on a private
# bridge, each running its own Debian openssh-server, keys made for the test.
#
#   lab.sh up DIR       build the lab (idempotent), print "ready" + env lines
#   lab.sh down DIR     tear everything down (idempotent, never fails)
#   lab.sh status DIR   show what exists; exit 0 only if the lab is fully up
#
# Exit codes: 0 ok; 1 failure; 77 this machine cannot host the lab (not root,
# network namespaces/veth/bridge unavailable, openssh-server missing) - callers
# should skip, printing the reason from stderr.
# All diagnostics go to stderr; stdout of "up" is only "ready" and KEY=VALUE lines.
# See README.md next to this file.
set -u

BR=slbr0
NET=10.231.0
BR_ADDR=$NET.254
NS_SUT=sl-sut SUT_ADDR=$NET.1 VETH_SUT=slv-sut
NS_LG=sl-lg   LG_ADDR=$NET.2  VETH_LG=slv-lg
SSHD=/usr/sbin/sshd
PRIVSEP_DIR=/run/sshd
MARKER=.schedlab-netns-lab
TIMEOUT=${LAB_TIMEOUT:-30}     # seconds for sshd readiness

log()  { printf 'lab: %s\n' "$*" >&2; }
die()  { log "error: $*"; exit 1; }
skip() { log "unavailable: $*"; exit 77; }

usage() { echo "usage: $0 {up|down|status} DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
CMD=$1
case $2 in
  /*) DIR=$2 ;;
  *)  DIR=$PWD/$2 ;;
esac
DIR=${DIR%/}
case $DIR in
  ''|*[!A-Za-z0-9._/+-]*) die "DIR must be a plain path (letters, digits, ._/+-): '$2'" ;;
esac
[ "$DIR" != / ] || die "DIR must not be /"

# Serialise concurrent lab.sh invocations (lock on this script; leaves nothing behind).
if command -v flock >/dev/null 2>&1; then
  exec 9<"$0" && flock 9
fi

ns_exists()   { [ -e "/run/netns/$1" ]; }
link_exists() { ip link show dev "$1" >/dev/null 2>&1; }
nsx()         { ip netns exec "$@"; }

# proc_cmdline PID -> its argv joined by spaces (empty if gone)
proc_cmdline() { tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline"; }

# pid_of_lab_sshd ROLE -> pid from our pidfile if that pid is really our sshd
pid_of_lab_sshd() {
  local pf=$DIR/sshd_$1.pid pid
  [ -r "$pf" ] || return 1
  read -r pid <"$pf" 2>/dev/null || return 1
  case $pid in ''|*[!0-9]*) return 1 ;; esac
  case $(proc_cmdline "$pid") in
    *"$DIR/sshd_$1.conf"*) echo "$pid" ;;
    *) return 1 ;;
  esac
}

# tcp_probe NS ADDR PORT: TCP connect from inside NS (or root ns if NS=-)
tcp_probe() {
  local ns=$1 addr=$2 port=$3
  local prog="exec 3<>/dev/tcp/$addr/$port"
  if [ "$ns" = - ]; then timeout 3 bash -c "$prog" 2>/dev/null
  else timeout 3 ip netns exec "$ns" bash -c "$prog" 2>/dev/null; fi
}

SSH_OPTS=()
ssh_opts() {
  SSH_OPTS=(-F /dev/null -i "$DIR/id_ed25519" -o IdentitiesOnly=yes -o BatchMode=yes
            -o UserKnownHostsFile="$DIR/known_hosts" -o GlobalKnownHostsFile=/dev/null
            -o StrictHostKeyChecking=yes -o ConnectTimeout=3 -o ControlMaster=no
            -o ControlPath=none -o LogLevel=ERROR)
}

diagnose_net() {
  log "--- network diagnosis ---"
  {
    echo "# root ns:"; ip -br addr show 2>&1; ip route 2>&1
    for ns in $NS_SUT $NS_LG; do
      echo "# $ns:"; nsx "$ns" ip -br addr show 2>&1; nsx "$ns" ip route 2>&1
    done
    echo "# bridge ports:"; ip -br link show master $BR 2>&1
    if [ -r /proc/sys/net/bridge/bridge-nf-call-iptables ]; then
      echo "# br_netfilter loaded: net.bridge.bridge-nf-call-iptables=$(cat /proc/sys/net/bridge/bridge-nf-call-iptables)"
    fi
    if command -v iptables >/dev/null 2>&1; then echo "# iptables FORWARD/INPUT:"; iptables -S FORWARD 2>&1; iptables -S INPUT 2>&1; fi
    if command -v nft >/dev/null 2>&1; then echo "# nft ruleset:"; nft list ruleset 2>&1 | head -50; fi
  } | sed 's/^/lab:   /' >&2
}

# ------------------------------------------------------------------ bridge netfilter
# With br_netfilter loaded and net.bridge.bridge-nf-call-iptables=1 (the default
# once loaded; Docker loads it and sets FORWARD policy DROP), frames bridged
# between sl-lg and sl-sut traverse the root namespace's iptables FORWARD chain.
# The per-bridge "nf_call_iptables 0" option cannot opt out: the kernel calls
# iptables if either the sysctl or the bridge option is on. So, rather than
# flipping a global sysctl, we insert one ACCEPT rule for slbr0<->slbr0 and
# remove it in down. Anything else (nft-only rulesets) is diagnosed, not changed.
NF_RULE="-i $BR -o $BR -m comment --comment schedlab-netns-lab -j ACCEPT"
NF_RULE_PLAIN="-i $BR -o $BR -j ACCEPT"
nf_active() { [ "$(cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null)" = 1 ]; }
nf_allow_up() {
  nf_active || return 0
  if ! command -v iptables >/dev/null 2>&1; then
    log "note: br_netfilter is active but iptables is not installed; assuming no FORWARD rules"
    return 0
  fi
  iptables -C FORWARD $NF_RULE 2>/dev/null && return 0
  iptables -C FORWARD $NF_RULE_PLAIN 2>/dev/null && return 0
  iptables -I FORWARD 1 $NF_RULE 2>/dev/null || iptables -I FORWARD 1 $NF_RULE_PLAIN ||
    log "warning: could not add iptables FORWARD accept rule for $BR"
}
nf_allow_down() {
  command -v iptables >/dev/null 2>&1 || return 0
  local i
  for i in 1 2 3 4 5; do iptables -D FORWARD $NF_RULE 2>/dev/null || break; done
  for i in 1 2 3 4 5; do iptables -D FORWARD $NF_RULE_PLAIN 2>/dev/null || break; done
}

# ------------------------------------------------------------------ up
net_up() {
  # Refuse to fight over the subnet with something that is not our bridge.
  local other
  other=$(ip -o -4 addr show 2>/dev/null | awk -v br=$BR -v net="$NET." '$2!=br && index($4,net)==1 {print $2}')
  [ -z "$other" ] || die "$NET.0/24 is already used by interface(s): $other"

  if ! link_exists $BR; then
    ip link add $BR type bridge 2>/dev/null || skip "cannot create bridge $BR (ip link add type bridge failed)"
  fi
  nf_allow_up
  ip addr show dev $BR | grep -q "inet $BR_ADDR/24" || ip addr add $BR_ADDR/24 dev $BR || die "cannot address $BR"
  ip link set $BR up || die "cannot bring $BR up"

  local ns addr veth
  for spec in "$NS_SUT $SUT_ADDR $VETH_SUT" "$NS_LG $LG_ADDR $VETH_LG"; do
    set -- $spec; ns=$1 addr=$2 veth=$3
    if ! ns_exists "$ns"; then
      ip netns add "$ns" 2>/dev/null || skip "ip netns add $ns failed (no CAP_SYS_ADMIN / no netns support?)"
    fi
    nsx "$ns" ip link set lo up || die "cannot bring lo up in $ns"
    if ! link_exists "$veth"; then
      nsx "$ns" ip link del eth0 2>/dev/null   # stale half of an old pair (cannot normally happen)
      ip link add "$veth" type veth peer name eth0 netns "$ns" 2>/dev/null ||
        skip "cannot create veth pair $veth <-> $ns/eth0"
    fi
    ip link set "$veth" master $BR || die "cannot attach $veth to $BR"
    ip link set "$veth" up || die "cannot bring $veth up"
    nsx "$ns" ip addr show dev eth0 | grep -q "inet $addr/24" || nsx "$ns" ip addr add "$addr/24" dev eth0 ||
      die "cannot address eth0 in $ns"
    nsx "$ns" ip link set eth0 up || die "cannot bring eth0 up in $ns"
  done
}

keys_up() {
  local role ns addr
  [ -f "$DIR/id_ed25519" ] ||
    ssh-keygen -q -t ed25519 -N '' -C schedlab-lab-client -f "$DIR/id_ed25519" </dev/null || die "ssh-keygen (client) failed"
  chmod 600 "$DIR/id_ed25519"
  cp "$DIR/id_ed25519.pub" "$DIR/authorized_keys"
  : >"$DIR/known_hosts.tmp"
  for spec in "sut $NS_SUT $SUT_ADDR" "lg $NS_LG $LG_ADDR"; do
    set -- $spec; role=$1 ns=$2 addr=$3
    mkdir -p "$DIR/hostkeys_$role"
    [ -f "$DIR/hostkeys_$role/ssh_host_ed25519_key" ] ||
      ssh-keygen -q -t ed25519 -N '' -C "schedlab-lab-$role" -f "$DIR/hostkeys_$role/ssh_host_ed25519_key" </dev/null ||
      die "ssh-keygen (host $role) failed"
    chmod 600 "$DIR/hostkeys_$role/ssh_host_ed25519_key"   # sshd refuses group/world-readable host keys
    printf '%s %s\n' "$addr" "$(cut -d' ' -f1,2 "$DIR/hostkeys_$role/ssh_host_ed25519_key.pub")" >>"$DIR/known_hosts.tmp"
    # UsePAM no makes sshd refuse accounts whose shadow password starts with '!'
    # (locked), even for public keys; fall back to PAM in that case.
    local usepam=no
    case $(getent shadow root 2>/dev/null | cut -d: -f2) in '!'*) usepam=yes ;; esac
    cat >"$DIR/sshd_$role.conf" <<CONF
# schedlab netns lab: sshd for $ns (generated by lab.sh; do not edit)
ListenAddress $addr:22
AddressFamily inet
HostKey $DIR/hostkeys_$role/ssh_host_ed25519_key
PidFile $DIR/sshd_$role.pid
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
AuthorizedKeysFile $DIR/authorized_keys
StrictModes no
UsePAM $usepam
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
# Many parallel sessions over one ControlMaster connection, many quick connects.
MaxSessions 100
MaxStartups 100:30:200
# Detect dropped clients so their sessions get SIGHUP quickly.
ClientAliveInterval 5
ClientAliveCountMax 3
# scp (SFTP protocol by default since OpenSSH 9) and sftp need this.
Subsystem sftp internal-sftp
LogLevel VERBOSE
CONF
  done
  mv "$DIR/known_hosts.tmp" "$DIR/known_hosts"
}

sshd_up() {
  [ -x $SSHD ] || skip "$SSHD not installed (apt-get install openssh-server)"
  if [ ! -d $PRIVSEP_DIR ]; then
    mkdir -m 0755 $PRIVSEP_DIR || die "cannot create $PRIVSEP_DIR"
    touch "$DIR/created_run_sshd"
  fi
  local role ns
  for spec in "sut $NS_SUT" "lg $NS_LG"; do
    set -- $spec; role=$1 ns=$2
    if pid=$(pid_of_lab_sshd $role); then
      kill -HUP "$pid"   # re-read (regenerated) config
      continue
    fi
    $SSHD -t -f "$DIR/sshd_$role.conf" || die "sshd config check failed for $role"
    # bash sources ~/.bashrc for a command sshd runs; this machine's root
    # .bashrc (pyenv init) took 9 s a command with both CPUs busy, which made
    # the SSH tests time out. The lab's hosts stand for remote machines, whose
    # root has no such rc: inside the sshd's own mount namespace (ip netns
    # exec makes one, not propagated back), the file reads as empty.
    local rc; rc=$(getent passwd root | cut -d: -f6)/.bashrc
    [ -f "$rc" ] || rc=""
    # LAB_PRIVATE_RUN=1 (the Slurm lab): each host also gets a /run/schedlab
    # and an IPC namespace of its own, as separate machines have: two
    # schedlab processes driving the two hosts do not share one SUT lock,
    # and the IPC sysctls (kernel.msgmax...) are each host's.
    nsx "$ns" env LAB_PRIVATE_RUN="${LAB_PRIVATE_RUN:-}" sh -c '
      [ -z "$1" ] || mount --bind /dev/null "$1" || exit 1
      shift
      if [ -n "$LAB_PRIVATE_RUN" ]; then
        mkdir -p /run/schedlab && mount -t tmpfs -o mode=0755 schedlab-lab /run/schedlab || exit 1
        exec unshare --ipc "$@"
      fi
      exec "$@"' \
      sh "$rc" $SSHD -f "$DIR/sshd_$role.conf" -E "$DIR/sshd_$role.log" 9<&- ||
      { tail -n 20 "$DIR/sshd_$role.log" >&2; die "sshd failed to start in $ns"; }
  done
}

wait_ready() {
  ssh_opts
  local deadline=$(( $(date +%s) + TIMEOUT )) addr ok
  for addr in $SUT_ADDR $LG_ADDR; do
    ok=
    while [ "$(date +%s)" -lt $deadline ]; do
      if ssh "${SSH_OPTS[@]}" root@$addr true </dev/null 2>"$DIR/ssh_probe.err"; then ok=1; break; fi
      sleep 0.2
    done
    if [ -z "$ok" ]; then
      log "ssh root@$addr not ready after ${TIMEOUT}s; last ssh error:"; sed 's/^/lab:   /' "$DIR/ssh_probe.err" >&2
      for r in sut lg; do log "--- sshd_$r.log (tail)"; tail -n 15 "$DIR/sshd_$r.log" 2>/dev/null | sed 's/^/lab:   /' >&2; done
      diagnose_net; die "sshd not reachable"
    fi
  done
  rm -f "$DIR/ssh_probe.err"
  # Namespace <-> namespace over the bridge (clients in sl-lg reach servers in sl-sut).
  tcp_probe $NS_LG $SUT_ADDR 22 || { diagnose_net; die "TCP $NS_LG -> $SUT_ADDR:22 failed (bridge forwarding / netfilter?)"; }
  tcp_probe $NS_SUT $LG_ADDR 22 || { diagnose_net; die "TCP $NS_SUT -> $LG_ADDR:22 failed (bridge forwarding / netfilter?)"; }
}

env_lines() {
  cat <<ENV
SUT=root@$SUT_ADDR
LOADGEN=root@$LG_ADDR
KEY=$DIR/id_ed25519
KNOWN_HOSTS=$DIR/known_hosts
SUT_ADDR=$SUT_ADDR
LOADGEN_ADDR=$LG_ADDR
SUT_NETNS=$NS_SUT
LOADGEN_NETNS=$NS_LG
ENV
}

# owner_of_dir DIR -> the PID in its name (tests name it .../schedlab-netns-lab-PID)
owner_of_dir() {
  local pid=${1##*-}
  case $pid in ''|*[!0-9]*) return 1 ;; esac
  echo "$pid"
}

check_owner() {
  # The lab is a singleton (fixed names/addresses). Refuse if another DIR's sshd
  # owns it, unless the process that named that DIR is gone (a test killed at
  # its timeout never ran "down"): then that lab is torn down first.
  local ns pid cl other owner
  for ns in $NS_SUT $NS_LG; do
    ns_exists "$ns" || continue
    for pid in $(ip netns pids "$ns" 2>/dev/null); do
      cl=$(proc_cmdline "$pid")
      case $cl in
        *"$DIR/sshd_"*) ;;
        *"$SSHD -f "*)
          other=${cl#*"$SSHD -f "}
          other=${other%%/sshd_*}
          if owner=$(owner_of_dir "$other") && [ ! -e "/proc/$owner" ] && [ -e "$other/$MARKER" ]; then
            log "reclaiming the lab of $other (its owner, PID $owner, is gone)"
            (DIR=$other; do_down)
            return 0
          fi
          die "lab is in use by another DIR ($cl); run: $0 down <that DIR>" ;;
      esac
    done
  done
}

do_up() {
  [ "$(id -u)" -eq 0 ] || skip "must run as root (uid $(id -u))"
  for c in ip ssh ssh-keygen timeout; do command -v $c >/dev/null 2>&1 || skip "$c not installed"; done
  [ -x $SSHD ] || skip "$SSHD not installed (apt-get install openssh-server)"
  if [ -d "$DIR" ] && [ ! -e "$DIR/$MARKER" ] && [ -n "$(ls -A "$DIR")" ]; then
    die "$DIR exists, is not empty and is not a lab dir; refusing to use it (down would delete it)"
  fi
  check_owner
  mkdir -p "$DIR" && chmod 700 "$DIR" && touch "$DIR/$MARKER" || die "cannot create $DIR"
  local t0; t0=$(date +%s%N)
  net_up
  keys_up
  sshd_up
  wait_ready
  env_lines >"$DIR/env"
  log "up in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  echo ready
  env_lines
}

# ------------------------------------------------------------------ down
kill_ns_procs() {
  local ns=$1 pids i sig
  ns_exists "$ns" || return 0
  pids=$(ip netns pids "$ns" 2>/dev/null)
  [ -n "$pids" ] || return 0
  for sig in TERM KILL; do
    [ $sig = TERM ] || log "SIGKILL to processes left in $ns: $pids"
    kill -$sig $pids 2>/dev/null
    # Up to 3 s for them to go.
    for i in $(seq 30); do
      pids=$(ip netns pids "$ns" 2>/dev/null); [ -n "$pids" ] || return 0
      sleep 0.1
    done
  done
  log "warning: processes still in $ns: $pids"
}

do_down() {
  [ "$(id -u)" -eq 0 ] || skip "must run as root (uid $(id -u))"
  local role pid p
  # 1. Our sshds, by pidfile (validated), then any sshd with our config path
  #    (covers a namespace deleted behind our back while sshd was still running).
  for role in sut lg; do
    pid=$(pid_of_lab_sshd $role) && kill -TERM "$pid" 2>/dev/null
  done
  for p in /proc/[0-9]*; do
    case $(proc_cmdline "${p#/proc/}") in
      *"$SSHD -f $DIR/sshd_"*) kill -TERM "${p#/proc/}" 2>/dev/null ;;
    esac
  done
  # 2. Everything else still running inside the namespaces, then the namespaces.
  for ns in $NS_SUT $NS_LG; do
    kill_ns_procs "$ns"
    if ns_exists "$ns"; then ip netns del "$ns" 2>/dev/null || log "warning: ip netns del $ns failed"; fi
  done
  # 3. Root-side links (veth peers vanish with their namespace; delete anyway).
  #    Namespace teardown is asynchronous in the kernel: give the veths a moment.
  local i
  for i in $(seq 20); do
    link_exists $VETH_SUT || link_exists $VETH_LG || break
    sleep 0.05
  done
  for l in $VETH_SUT $VETH_LG $BR; do
    link_exists "$l" && ip link del "$l" 2>/dev/null
    link_exists "$l" && log "warning: cannot delete link $l"
  done
  nf_allow_down
  # 4. /run/sshd if we created it and no sshd is using it.
  if [ -e "$DIR/created_run_sshd" ] && [ -d $PRIVSEP_DIR ]; then
    # (zombies do not count: killed daemons are reaped by pid 1, sometimes lazily)
    if [ -z "$(ps -e -o stat=,comm= | awk '$1 !~ /^Z/ && $2 == "sshd"')" ]; then
      rmdir $PRIVSEP_DIR 2>/dev/null
    fi
  fi
  # 5. DIR (only if it is ours).
  if [ -d "$DIR" ]; then
    if [ -e "$DIR/$MARKER" ]; then rm -rf -- "$DIR"
    else rmdir -- "$DIR" 2>/dev/null || log "warning: $DIR is not a lab dir; left in place"
    fi
  fi
  # Report anything left (informational; down never fails).
  local left=""
  for ns in $NS_SUT $NS_LG; do ns_exists "$ns" && left="$left netns:$ns"; done
  for l in $VETH_SUT $VETH_LG $BR; do link_exists "$l" && left="$left link:$l"; done
  [ -z "$left" ] || log "warning: left behind:$left"
  return 0
}

# ------------------------------------------------------------------ status
do_status() {
  local rc=0 role ns addr pid
  if link_exists $BR; then echo "bridge $BR: $(ip -br addr show dev $BR | awk '{print $2, $3}')"
  else echo "bridge $BR: absent"; rc=3; fi
  for spec in "sut $NS_SUT $SUT_ADDR" "lg $NS_LG $LG_ADDR"; do
    set -- $spec; role=$1 ns=$2 addr=$3
    if ns_exists "$ns"; then
      echo "netns $ns: present, eth0 $(nsx "$ns" ip -br -4 addr show dev eth0 2>/dev/null | awk '{print $2, $3}'), pids: $(ip netns pids "$ns" | tr '\n' ' ')"
    else echo "netns $ns: absent"; rc=3; fi
    if pid=$(pid_of_lab_sshd $role); then echo "sshd $role: running, pid $pid"
    else echo "sshd $role: not running"; rc=3; fi
    if [ -r "$DIR/id_ed25519" ]; then
      ssh_opts
      if ssh "${SSH_OPTS[@]}" root@$addr true </dev/null 2>/dev/null; then echo "ssh root@$addr: ok"
      else echo "ssh root@$addr: FAILED"; rc=3; fi
    fi
  done
  [ $rc -ne 0 ] || { echo ready; env_lines; }
  return $rc
}

case $CMD in
  up)     do_up ;;
  down)   do_down ;;
  status) do_status ;;
  *)      usage ;;
esac
