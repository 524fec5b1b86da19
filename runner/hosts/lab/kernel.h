// Which kernel a lab boots: `debian:6.1` and `debian:6.12` (the latest
// package of that series), an exact package name
// (linux-image-6.12.117+deb12-amd64-unsigned), or a path to a vmlinuz with
// its modules directory. Packages are downloaded through the private apt
// configuration, unpacked with dpkg-deb -x, given their modules.dep with
// depmod -b, and kept in the cache keyed by release and .deb hash.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/hosts/lab/paths.h"

namespace schedlab::lab {

struct Kernel {
  std::string spec;             // as asked
  std::string package;          // empty for a path kernel
  std::string package_version;  // Debian version of the package
  std::string release;          // uname -r
  std::string vmlinuz;
  std::string modules_dir;      // .../lib/modules/<release>, with modules.dep; empty: none (built-in)
  std::string key;              // <release>-<sha12>: the cache key
  // A kernel built from source (kernel_build.h); empty for packages and paths.
  std::string tree;             // the source tree
  std::string commit;           // built commit (the work tree's HEAD)
  std::string describe;         // git describe --always (+ "-dirty" for a work tree with edits)
  std::string config_sha;       // sha12 of the resolved .config
  std::string build_log;        // the make output of the build that produced it
  double build_seconds = 0;     // of that build; 0: found in the cache now
  std::vector<std::string> warnings;  // requested config symbols not as asked
  // What was asked of a built kernel beyond the guest fragment (a run's
  // workloads' needs and its config's symbols and fragments), as its cache
  // entry records it: `lab shell` finds the kernel a run built by it.
  std::vector<std::pair<std::string, std::string>> requested_symbols;
  std::vector<std::string> requested_fragments;
};

// A kernel name that names nothing: bad input, not a failure.
class UnknownKernel : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct KernelSeries {
  std::string name;          // debian:6.12
  std::string package_regex; // apt-cache search --names-only
  std::string help;
};
const std::vector<KernelSeries>& kernel_series();

// Throws std::runtime_error; an unknown name lists the known ones.
Kernel resolve_kernel(const std::string& spec, const std::string& modules_dir, const LabPaths& paths,
                      Host& local, const Log& log);

// The kernels in the cache, newest release last.
std::vector<Kernel> cached_kernels(const LabPaths& paths);

// A short name for tables and run names: debian:6.12 -> 6.12,
// linux-image-6.12.9+bpo-amd64-unsigned -> 6.12.9+bpo-amd64, a path
// /boot/vmlinuz-6.5.0 -> 6.5.0. Never contains '/'.
std::string kernel_label(const std::string& spec);

}  // namespace schedlab::lab
