// Which kernel a lab boots: `debian:6.1` and `debian:6.12` (the latest
// package of that series), an exact package name
// (linux-image-6.12.117+deb12-amd64-unsigned), or a path to a vmlinuz with
// its modules directory. Packages are downloaded through the private apt
// configuration, unpacked with dpkg-deb -x, given their modules.dep with
// depmod -b, and kept in the cache keyed by release and .deb hash.
#pragma once

#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/lab/board.h"
#include "runner/lab/kernel_entry.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

struct KernelSeries {
  std::string name;           // debian:6.12
  std::string release_regex;  // of the package name's release, before the flavour
  std::string help;
};
const std::vector<KernelSeries>& kernel_series();
// The series' packages for a board (apt-cache search --names-only):
// ^linux-image-6\.1\.0-[0-9]+-armmp$
std::string package_regex(const KernelSeries& series, const Board& board);

// Throws std::runtime_error; an unknown name lists the known ones. A
// Debian kernel gets its board's modules (board.h: board_modules) built
// out of tree (out_of_tree_module.h) before it is returned.
Kernel resolve_kernel(const std::string& spec, const std::string& modules_dir, const Board& board,
                      const LabPaths& paths, Host& local, const Log& log);

// A Debian package's cache key (kernels/KEY): <release>-<sha12 of the
// .deb>. Pure; tests/runner/lab/cache_keys_test.cc pins it.
std::string package_kernel_key(const std::string& release, const std::string& deb_sha256);

// The kernels in the cache, newest release last.
std::vector<Kernel> cached_kernels(const LabPaths& paths);

// A short name for tables and run names: debian:6.12 -> 6.12,
// linux-image-6.12.9+bpo-amd64-unsigned -> 6.12.9+bpo-amd64, a path
// /boot/vmlinuz-6.5.0 -> 6.5.0. Never contains '/'.
std::string kernel_label(const std::string& spec);

}  // namespace schedlab::lab
