#!/bin/sh
# Installs everything schedlab needs to build, test and run its demo, from
# Debian's own packages only. Idempotent: apt-get skips what is installed.
set -eu

BUILD_PKGS="build-essential cmake ninja-build pkg-config git
  libboost-dev libboost-filesystem-dev libboost-math-dev
  libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev sqlite3
  catch2 libcli11-dev libfmt-dev libssl-dev
  libboost-regex-dev"
# Tools the workloads run (rt-tests: hackbench; dbench: tbench; postgresql:
# pgbench and its server; sysbench and mariadb-server: sysbench OLTP and the
# hammerdb server; linux-perf: perf, for the perf-stat and perf-profile
# monitors and hackbench's backend perf).
# libjs-vega: Vega 5, inlined into `schedlab report`'s HTML pages.
RUNTIME_PKGS="rt-tests procps dbench postgresql sysbench mariadb-server linux-perf libjs-vega"
# The real-components SSH test lab (tests/support/netns/lab.sh): sshd + ssh,
# ip netns/veth/bridge, python3 for its smoke test's TCP server. Installing
# openssh-server may start a system sshd on port 22 of the root namespace
# where an init system runs; the lab neither needs nor conflicts with it
# (its sshds listen on 10.231.0.x inside their own namespaces only).
# The report's tests: headless chromium driven over DevTools by
# python3-websocket, python3-markdown for compare --format markdown,
# python3-pandas for compare --format csv read back as the README says,
# python3-jsonschema and python3-dateparser for schedlab export's files read
# as their tools read them (tests/export/check_export.py: KCIDB and BMF
# validated against their schemas, Otava's CSV with its time parser).
# clang: the libFuzzer targets (scripts/fuzz.sh, run by scripts/test.sh);
# lld links that sanitized build (a fifth of ld.bfd's CPU a link).
# slurm-wlm and munge: schedlab slurm's test cluster (tests/support/slurm/lab.sh
# starts its own munged, slurmctld and slurmd, on ports of its own).
# r-cran-rpact (brings r-base-core): R's group sequential package, which
# tests/analysis/sequential/sequential_r_reference.R runs to regenerate the reference
# boundaries, p-values and intervals the sequential test is checked against
# (the committed JSON is what the test reads; R also regenerates r_reference.json).
# man-db and groff-base: the generated man pages rendered by man -l and
# checked by groff (`script`, which gives `run` a terminal in the status
# line's test, is bsdutils': essential, always there).
TEST_PKGS="openssh-server openssh-client iproute2 python3 chromium python3-websocket python3-markdown
  python3-pandas python3-jsonschema python3-dateparser clang lld slurm-wlm munge r-cran-rpact man-db groff-base"
# Lab SUTs (runner/lab/): qemu boots Debian kernels it downloads at run time
# through a private apt configuration; busybox-static, dropbear-bin, bash and
# util-linux go into the guest's initramfs; kmod for depmod; zlib and liblzma
# to write the initramfs and read .ko.xz modules;
# debian-archive-keyring verifies the private apt lists.
LAB_PKGS="qemu-system-x86 busybox-static dropbear-bin kmod cpio xz-utils zstd
  zlib1g-dev liblzma-dev debian-archive-keyring util-linux bash"
# Lab kernels built from source (kernel: git:PATH, runner/lab/kernel_build.h):
# Kconfig's parser and the kernel's host tools; ccache for rebuilds. The test's
# source is Debian's linux-source-6.1, fetched through the private apt configuration.
KERNEL_BUILD_PKGS="bc bison flex libelf-dev libssl-dev make gcc ccache"
# The lab's exynos4210 board (runner/lab/board.h): qemu's smdkc210 with
# its PL330 DMA engines (qemu-system-arm), dtc to fix the board's DTB at boot
# (device-tree-compiler), and the cross compiler for its kernels built from
# source and for the dmatest.ko built against Debian's armhf headers. The
# guest's armhf kernels and userland come through the lab's private apt
# configuration (APT::Architecture armhf); this machine's dpkg is untouched.
ARM_LAB_PKGS="qemu-system-arm device-tree-compiler gcc-arm-linux-gnueabihf"

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi

missing=""
for p in $BUILD_PKGS $RUNTIME_PKGS $TEST_PKGS $LAB_PKGS $KERNEL_BUILD_PKGS $ARM_LAB_PKGS ${SCHEDLAB_EXTRA_PKGS:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-deps: installing:$missing" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# netperf (netperf and netserver, for the netperf workload) is in Debian's
# non-free component, which the system's sources need not list. A private apt
# configuration fetches it the way the lab fetches kernels
# (runner/lab/apt.cc): its own sources.list, lists and archives under
# $NONFREE_DIR, the system's sources and apt state untouched; dpkg installs
# the downloaded .deb (it needs only libc6). Its postinst starts the
# package's own netserver on port 12865 where an init system runs; schedlab
# starts its own on a port it reserves and never uses that one.
NONFREE_PKGS="netperf"
NONFREE_DIR=${SCHEDLAB_NONFREE_APT_DIR:-/var/cache/schedlab/apt-nonfree}
nonfree_missing=""
for p in $NONFREE_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || nonfree_missing="$nonfree_missing $p"
done
if [ -n "$nonfree_missing" ]; then
  echo "install-deps: installing from Debian non-free (private apt configuration in $NONFREE_DIR):$nonfree_missing" >&2
  . /etc/os-release
  mirror=${SCHEDLAB_LAB_MIRROR:-http://deb.debian.org/debian}
  $SUDO mkdir -p "$NONFREE_DIR/lists/partial" "$NONFREE_DIR/cache/archives/partial" "$NONFREE_DIR/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $VERSION_CODENAME non-free" |
    $SUDO tee "$NONFREE_DIR/sources.list" >/dev/null
  set -- -o "Dir::Etc::SourceList=$NONFREE_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o "Dir::State::Lists=$NONFREE_DIR/lists" -o "Dir::Cache=$NONFREE_DIR/cache" \
    -o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root
  $SUDO apt-get "$@" -qq update
  for p in $nonfree_missing; do
    $SUDO rm -f "$NONFREE_DIR/debs/${p}_"*.deb
    (cd "$NONFREE_DIR/debs" && $SUDO apt-get "$@" -qq download -- "$p")
    DEBIAN_FRONTEND=noninteractive $SUDO dpkg -i "$NONFREE_DIR/debs/${p}_"*.deb >/dev/null
  done
fi
