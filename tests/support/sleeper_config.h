// The config of the tests that interrupt or break a run with a knob applied:
// one command workload, `sleeper` (its metric t: a number on a line of its
// own), and one variant, `flipped`, that sets
// kernel.sched_autogroup_enabled (a knob any root may flip and restore).
#pragma once

#include <string>

namespace schedlab::test {

// ARGV: the workload's argv as a YAML flow list; FLIPPED: the variant's
// value of the knob.
inline std::string sleeper_config(int iterations, const std::string& argv,
                                  const std::string& flipped) {
  return "iterations: " + std::to_string(iterations) + R"(
workloads:
  - command:
      name: sleeper
      package: coreutils
      argv: )" +
         argv + R"(
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
variants:
  flipped:
    sysctl:
      kernel.sched_autogroup_enabled: )" +
         flipped + "\n";
}

}  // namespace schedlab::test
