// A lab SUT as a config names it:
//   hosts: {sut: {lab: {kernel: debian:6.12, cpus: 2, memory: 1G, accel: auto}}}
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace schedlab {

struct LabConfig {
  std::string kernel;        // debian:6.1 | debian:6.12 | package name | /path/vmlinuz-REL
  std::string modules;       // a path kernel's lib/modules/REL; empty: beside it
  int cpus = 2;
  int sockets = 1;           // >1 splits the CPUs into sockets (one more domain level)
  std::string memory = "1G"; // qemu -m: 512M, 1G, ...
  std::string accel = "auto";  // auto | kvm | tcg
  std::chrono::seconds boot_timeout{180};  // kernel start to SSH readiness
  std::vector<std::string> programs;  // more host programs copied into the guest
  std::string cmdline;       // appended to the kernel command line
  int line = 0;              // in the config, for messages
};

}  // namespace schedlab
