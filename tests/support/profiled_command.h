// The config of the tests that profile a program of tests/support/programs
// with perf-profile: ITERATIONS of one `command` workload NAME running ARGV
// (a YAML flow list), whose metric `seconds` is the program's own
// "seconds: N" line; EXTRA: top-level lines (e.g. the profile's frequency).
#pragma once

#include <fmt/format.h>

#include <string>

namespace schedlab::test {

inline std::string profiled_command_config(int iterations, const std::string& name,
                                           const std::string& argv,
                                           const std::string& extra = "") {
  return fmt::format(R"(
iterations: {}
{}workloads:
  - command:
      name: {}
      argv: {}
      metrics:
        seconds:
          regex: '^seconds: (?<value>[0-9.]+)$'
          direction: lower
      timeout: 120s
      monitors: [perf-profile]
)",
                     iterations, extra, name, argv);
}

}  // namespace schedlab::test
