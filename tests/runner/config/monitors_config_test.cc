// `monitors:` in a config: per workload entry, a top-level default, errors.
#include <catch2/catch.hpp>

#include "runner/config/config.h"
#include "tests/support/config_error.h"

using namespace schedlab;

namespace {
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
  CHECK(test::config_error_of("workloads:\n  - hackbench:\n      monitors: [schedstats]\n") ==
        "exp.yaml:3: workloads[0].hackbench.monitors: unknown monitor 'schedstats' (did you "
        "mean 'schedstat'?); known: schedstat, stat, interrupts, softirqs, pressure, vmstat, "
        "sched-debug, cpuidle, cpufreq, tasks, perf-stat, perf-profile");
  CHECK(test::config_error_of("monitors: [stat, stat]\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: monitors: monitor 'stat' is listed twice");
  CHECK(test::config_error_of("monitors: stat\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: monitors: expected a list of monitors, e.g. [schedstat, stat]; known: "
        "schedstat, stat, interrupts, softirqs, pressure, vmstat, sched-debug, cpuidle, cpufreq, "
        "tasks, perf-stat, perf-profile");
  CHECK(test::config_error_of("monitor: [stat]\nworkloads: [hackbench]\n").find(
            "unknown key 'monitor' (did you mean 'monitors'?)") != std::string::npos);
  CHECK(test::config_error_of("workloads:\n  - hackbench:\n      monitor: [stat]\n")
            .find("unknown key 'monitor' (did you mean 'monitors'?)") != std::string::npos);
}

TEST_CASE("task_monitor: interval and comm names, per workload over the top level",
          "[config][monitors]") {
  const Config c = parse_config(R"(
monitors: [tasks]
task_monitor: {interval: 50ms}
workloads:
  - hackbench:
      groups: [1]
  - command:
      name: sleeper
      argv: [sh, -c, "sleep 1; echo 1"]
      metrics:
        x: {regex: '(?<value>[0-9]+)', direction: higher}
      task_monitor: {comm: [sleep, a-very-long-program-name]}
)",
                                "t.yaml");
  using std::chrono::milliseconds;
  CHECK(c.task_monitor.interval == milliseconds(50));
  CHECK(c.workloads[0].task_monitor.interval == milliseconds(50));
  CHECK(c.workloads[0].task_monitor.comm.empty());
  CHECK(c.workloads[1].task_monitor.interval == milliseconds(50));
  CHECK(c.workloads[1].task_monitor.comm == Names{"sleep", "a-very-long-program-name"});
  const Config d = parse_config("monitors: [tasks]\nworkloads: [hackbench]\n", "d.yaml");
  CHECK(d.workloads[0].task_monitor.interval == milliseconds(100));

  CHECK(test::config_error_of("monitors: [stat]\ntask_monitor: {interval: 50ms}\nworkloads: [hackbench]\n") ==
        "exp.yaml:2: task_monitor: no workload uses the tasks monitor: add it (monitors: [tasks])");
  CHECK(test::config_error_of("workloads:\n  - hackbench:\n      task_monitor: {interval: 50ms}\n") ==
        "exp.yaml:3: workloads[0].hackbench.task_monitor: the tasks monitor is not among this "
        "workload's monitors: add it (monitors: [tasks])");
  CHECK(test::config_error_of("monitors: [tasks]\ntask_monitor: {interval: 1ms}\nworkloads: [hackbench]\n") ==
        "exp.yaml:2: task_monitor.interval: expected a duration from 10ms to 168h, such as 30m or "
        "90s, got '1ms'");
  CHECK(test::config_error_of("monitors: [tasks]\ntask_monitor: {comms: [x]}\nworkloads: [hackbench]\n") ==
        "exp.yaml:2: task_monitor: unknown key 'comms' (did you mean 'comm'?)");
  CHECK(test::config_error_of("monitors: [tasks]\ntask_monitor: {comm: x}\nworkloads: [hackbench]\n") ==
        "exp.yaml:2: task_monitor.comm: expected a list of process names, e.g. [myprog, helper]");
}
