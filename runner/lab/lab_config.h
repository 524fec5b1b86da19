// A lab SUT as a config names it:
//   hosts: {sut: {lab: {kernel: debian:6.12, cpus: 2, memory: 1G, accel: auto}}}
// or, for a multi-kernel plan (each kernel booted in turn, one run each):
//   hosts: {sut: {lab: {kernels: [debian:6.1, debian:6.12], cpus: 2}}}
// and on an emulated ARM board with DMA engines (e.g. for dmatest):
//   hosts: {sut: {lab: {kernel: debian:6.1, board: exynos4210}}}
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace schedlab {

struct LabConfig {
  // The kernel one boot uses: debian:6.1 | debian:6.12 | package name |
  // /path/vmlinuz-REL | git:PATH[@REF] (built from source). With `kernels:` it starts as the first of them; the
  // multi-kernel loop (runner/run/kernel_runs.h) and nightly set it per run.
  std::string kernel;
  // `kernels:`, in config order: the plan's kernels, each its own run.
  // Empty when the config names one `kernel:`.
  std::vector<std::string> kernels;
  std::string modules;       // a path kernel's lib/modules/REL; empty: beside it
  // The machine qemu emulates (runner/lab/board.h): x86, exynos4210.
  std::string board = "x86";
  int cpus = 2;
  int sockets = 1;           // >1 splits the CPUs into sockets (one more domain level)
  std::string memory = "1G"; // qemu -m: 512M, 1G, ...
  std::string accel = "auto";  // auto | kvm | tcg
  std::chrono::seconds boot_timeout{180};  // kernel start to SSH readiness
  std::vector<std::string> programs;  // more host programs copied into the guest
  // The run's workloads: the guest gets what they need (Workload::guest_needs).
  std::vector<std::string> workloads;
  // The run's monitors: perf-stat and perf-profile bring perf into the guest
  // (and a built kernel's symbols: runner/lab/monitor_needs.h).
  std::vector<std::string> monitors;
  std::string cmdline;       // appended to the kernel command line
  // A git: kernel's config additions (runner/lab/kernel_build.h):
  // fragment files and CONFIG_X: value pairs, in config order.
  std::vector<std::string> config_fragments;
  std::vector<std::pair<std::string, std::string>> config;
  int line = 0;              // in the config, for messages
};

}  // namespace schedlab
