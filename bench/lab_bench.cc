// Lab SUT timings: for one kernel, from an empty cache ("cold":
// package lists, download, unpack, depmod, initramfs build, KVM probe, boot)
// and again with everything cached: total time to a working SSH command,
// qemu-start-to-SSH time, and initramfs time (built vs found by hash).
//   bench_lab [KERNEL] [ROUNDS]    default debian:6.12, 3 cached rounds
// The cold run uses a fresh temporary cache; the machine's own cache is
// untouched. Needs the network (Debian's mirror) and qemu.
#include <fmt/format.h>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "runner/lab/lab_host.h"

using namespace schedlab;
using Clock = std::chrono::steady_clock;

namespace {

struct Sample {
  double total, boot, initramfs;
  bool image_cached;
  std::string accel;
};

Sample boot_once(const std::string& kernel) {
  const auto t0 = Clock::now();
  lab::LabHost host(LabConfig{.kernel = kernel}, [](const std::string& l) { std::cerr << "  " << l << "\n"; });
  const auto r = host.run({.argv = {"true"}, .timeout = std::chrono::seconds(30)});
  if (!r.ok()) throw std::runtime_error("ssh true failed: " + r.describe());
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  return {total, host.boot_seconds(), host.image().seconds, host.image().cached, host.accel()};
}

void print(const char* what, const Sample& s) {
  fmt::print("{:<8} total to SSH {:6.2f} s   qemu start to SSH {:6.2f} s ({})   initramfs {:5.2f} s ({})\n", what,
             s.total, s.boot, s.accel, s.initramfs, s.image_cached ? "cached" : "built");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string kernel = argc > 1 ? argv[1] : "debian:6.12";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  char tmpl[] = "/tmp/schedlab-bench-lab-XXXXXX";
  if (!::mkdtemp(tmpl)) return 1;
  ::setenv("SCHEDLAB_LAB_CACHE", tmpl, 1);
  int rc = 0;
  try {
    fmt::print("bench_lab {} (cache {}; load average shown by uptime matters: 2 shared cores)\n", kernel, tmpl);
    print("cold", boot_once(kernel));
    for (int i = 0; i < rounds; ++i) print("cached", boot_once(kernel));
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lab: {}\n", e.what());
    rc = 1;
  }
  std::filesystem::remove_all(tmpl);
  return rc;
}
