// The lab's initramfs: busybox (static), dropbear as the SSH server, bash
// and util-linux's setsid/chrt (the SSH host's remote wrapper and policy
// prefix use them), the workloads' guest programs (workloads/registry.h)
// found in the board's userland (guest_userland.h: this machine's, or
// Debian packages of the board's architecture) with their shared
// libraries, the kernel
// modules the virtual hardware needs (virtio_net and its dependencies,
// uncompressed), what the run's workloads need in the guest
// (Workload::guest_needs: e.g. PostgreSQL's server for pgbench), and an init
// that mounts
// proc/sys/debugfs, brings up the network, starts dropbear and prints a
// readiness line on the serial console.
//
// The base image depends only on the kernel and the host's binaries and is
// cached by the hash of its uncompressed content; per-boot secrets (the
// guest's host key, the authorized client key) go into a small overlay
// archive appended to it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/cpio.h"
#include "runner/lab/guest_userland.h"
#include "runner/lab/kernel.h"
#include "runner/lab/paths.h"
#include "workloads/workload.h"

namespace schedlab::lab {

// What the init prints on the serial console once dropbear listens.
inline constexpr const char* kReadyLine = "schedlab-lab: ready";

// The workloads' guest programs, then chrt, nice and taskset (the SSH
// host's policy and affinity prefixes).
std::vector<std::string> default_guest_programs();

struct InitramfsSpec {
  // Programs copied in when found on this machine's PATH (missing ones are
  // reported; the run's preflight then names them per workload).
  std::vector<std::string> optional_programs = default_guest_programs();
  std::vector<std::string> extra_programs;  // from the config: must exist
  std::vector<std::string> modules = {"virtio_pci", "virtio_net"};  // the board's (board.h), loaded by init
  // Loaded later with modprobe (e.g. dmatest): kept in lib/modules/REL with their modules.dep.
  std::vector<std::string> probe_modules;
  // The run's workloads' needs: their programs and files when found here
  // (else reported as missing), their users in /etc/passwd.
  std::vector<GuestNeeds> needs;
};

struct BaseImage {
  std::filesystem::path path;  // <cache>/initramfs/<sha16>.cpio.gz
  std::string sha256;          // of the uncompressed archive
  bool cached = false;         // found in the cache, not compressed now
  std::vector<std::string> missing;  // optional programs not found here
  double seconds = 0;          // time taken
};

BaseImage build_base_image(const Kernel& kernel, const InitramfsSpec& spec, GuestUserland& userland,
                           const LabPaths& paths, const Log& log);

// The init script (pure; for tests). link_applets: busybox links its
// applets first (it could not list them here).
std::string init_script(const std::vector<std::string>& module_files, bool link_applets = false);

// Per-boot overlay: host key (dropbear format) and the authorized public key.
std::string overlay_image(const std::string& dropbear_host_key, const std::string& authorized_key);

}  // namespace schedlab::lab
