// `monitors:` in a config: per workload entry, a top-level default, errors.
#include <catch2/catch.hpp>

#include "runner/config.h"

using namespace schedlab;

namespace {
std::string error_of(const std::string& yaml) {
  try {
    parse_config(yaml, "exp.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}
using Names = std::vector<std::string>;
}  // namespace

TEST_CASE("monitors per workload, with a top-level default", "[config][monitors]") {
  const Config c = parse_config(R"(
monitors: [stat, interrupts]
workloads:
  - hackbench:
      groups: [1]
  - hackbench:
      groups: [2]
      monitors: [schedstat, stat, softirqs, pressure]
  - hackbench:
      groups: [4]
      monitors: []
  - command:
      name: true-cmd
      argv: ["true"]
      metrics:
        x: {regex: '(?<value>[0-9]+)', direction: higher}
      monitors: [pressure]
)",
                                "m.yaml");
  CHECK(c.monitors == Names{"stat", "interrupts"});
  REQUIRE(c.workloads.size() == 4);
  CHECK(c.workloads[0].monitors == Names{"stat", "interrupts"});
  CHECK(c.workloads[1].monitors == Names{"schedstat", "stat", "softirqs", "pressure"});
  CHECK(c.workloads[2].monitors.empty());
  CHECK(c.workloads[3].monitors == Names{"pressure"});

  const Config none = parse_config("workloads: [hackbench]\n", "n.yaml");
  CHECK(none.workloads.at(0).monitors.empty());
}

TEST_CASE("monitor errors name file, line and key, with a suggestion", "[config][monitors]") {
  CHECK(error_of("workloads:\n  - hackbench:\n      monitors: [schedstats]\n") ==
        "exp.yaml:3: workloads[0].hackbench.monitors: unknown monitor 'schedstats' (did you "
        "mean 'schedstat'?); known: schedstat, stat, interrupts, softirqs, pressure");
  CHECK(error_of("monitors: [stat, stat]\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: monitors: monitor 'stat' is listed twice");
  CHECK(error_of("monitors: stat\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: monitors: expected a list of monitors, e.g. [schedstat, stat]; known: "
        "schedstat, stat, interrupts, softirqs, pressure");
  CHECK(error_of("monitor: [stat]\nworkloads: [hackbench]\n").find(
            "unknown key 'monitor' (did you mean 'monitors'?)") != std::string::npos);
  CHECK(error_of("workloads:\n  - hackbench:\n      monitor: [stat]\n")
            .find("unknown key 'monitor' (did you mean 'monitors'?)") != std::string::npos);
}
