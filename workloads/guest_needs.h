// What a workload needs of a lab guest and its kernel, declared by the
// workload (Workload::guest_needs) and read by the lab (runner/lab/), which
// names no workload. Its own header: a lab board (runner/lab/board.h) reads
// the kernel modules without the whole workload interface.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace schedlab {

// A kernel module a workload loads (modprobe) that kernels may not ship:
// Debian builds CONFIG_DMATEST on no architecture, for one. The lab builds
// it for every board that has the hardware it drives, whatever the run's
// workloads (a cached kernel serves every run; `lab shell` users load it by
// hand): out of tree from the kernel's linux-source-SERIES against its
// headers for a Debian kernel (lib/modules/REL/extra/NAME.ko), as
// CONFIG=m in the guest fragment of a kernel built from a tree.
struct KernelModule {
  std::string name;      // modprobe's name, and NAME.ko: dmatest
  std::string source;    // its one source file in the kernel tree: drivers/dma/dmatest.c
  std::string config;    // the symbol that builds it as a module in a tree: CONFIG_DMATEST
  std::string hardware;  // what a board must have for it (runner/lab/board.h): dma-engines
};

// What a lab guest needs, beyond the `guest` programs, for a workload's SUT
// side (a database server: its programs, modules, share files and user).
// The lab copies it into the initramfs of a run that has the workload.
struct GuestNeeds {
  struct Program {
    std::string host_path;
    bool on_path = false;  // in the guest's /usr/bin; else at host_path
  };
  std::vector<Program> programs;   // copied with their libraries (ldd)
  std::vector<std::string> files;  // files or whole directories, as they are
  std::vector<std::string> users;  // OS users its steps switch to
  // Kernel options a kernel built from source needs for it (added to the
  // build's config for a run that has the workload, before the config's own).
  std::vector<std::pair<std::string, std::string>> kernel_config;
  // Ports its server listens on whatever port the runner reserves (a tool
  // that hard-codes its port): a lab guest forwards each one that is free on
  // this machine, and never hands it out as a free port.
  std::vector<int> fixed_ports;
  // Kernel modules it loads that the lab builds for a board with their hardware.
  std::vector<KernelModule> kernel_modules;
};

}  // namespace schedlab
