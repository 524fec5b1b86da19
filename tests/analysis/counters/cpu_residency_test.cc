// cpuidle's parser and delta on this VM's real sysfs text (the haltpoll
// driver, two CPUs) recorded around a hackbench run by the monitor's own
// script (tests/fixtures/perf/README.md); expected values from
// tests/fixtures/perf/reference.py. This VM has no cpufreq: its parser is
// tested on bad input and the monitor's absence in monitor_runner_test.cc.
#include "analysis/counters/cpu_residency.h"

#include <catch2/catch.hpp>

#include "analysis/counters/monitors.h"
#include "tests/support/delta_rows.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("cpuidle residency around a real hackbench run", "[monitors]") {
  const auto b = residency::parse_cpuidle(test::own_fixture("cpuidle/6.18-haltpoll-before.txt"));
  const auto a = residency::parse_cpuidle(test::own_fixture("cpuidle/6.18-haltpoll-after.txt"));
  REQUIRE(a.size() == 2);
  CHECK(a.at(1).count("haltpoll_idle.time_us") == 1);
  const MonitorDelta d = residency::delta(b, a, "us");
  CHECK(test::delta_row(d, "cpu0.haltpoll_idle.time_us") == 2968689);
  CHECK(test::delta_row(d, "cpu1.haltpoll_idle.time_us") == 2472);
  CHECK(test::delta_row(d, "all.haltpoll_idle.time_us") == 2968689 + 2472);
  CHECK(test::delta_row(d, "all.haltpoll_idle.usage") == 569 + 2);
  CHECK(test::delta_row(d, "all.POLL.usage") == 0);  // totals always, per CPU when not zero
  CHECK_FALSE(test::delta_has_row(d, "cpu0.POLL.usage"));
  // Through the registry, as the runner calls it.
  const MonitorSpec* m = find_monitor("cpuidle");
  REQUIRE(m != nullptr);
  CHECK(!m->script.empty());
  const auto d2 = m->diff({test::own_fixture("cpuidle/6.18-haltpoll-before.txt")},
                          {test::own_fixture("cpuidle/6.18-haltpoll-after.txt")});
  CHECK(test::delta_row(d2, "all.haltpoll_idle.time_us") == 2968689 + 2472);
}

TEST_CASE("cpuidle and cpufreq: bad input and snapshots that do not fit", "[monitors]") {
  CHECK_THROWS_WITH(residency::parse_cpuidle("hello\n"), "line 1: not a CPU's sysfs file: 'hello'");
  CHECK_THROWS_WITH(
      residency::parse_cpuidle("/sys/devices/system/cpu/cpu0/cpuidle/state1/time:-4\n"),
      "line 1: cpuidle time: '-4' is not a counter");
  CHECK_THROWS_WITH(residency::parse_cpufreq("/sys/devices/system/cpu/cpu0/cpufreq/stats/"
                                             "time_in_state:2400000\n"),
                    "line 1: expected 'FREQ TIME', found '2400000'");
  const auto before =
      residency::parse_cpuidle("/sys/devices/system/cpu/cpu0/cpuidle/state1/time:10\n");
  const auto after =
      residency::parse_cpuidle("/sys/devices/system/cpu/cpu0/cpuidle/state1/time:9\n");
  CHECK_THROWS_AS(residency::delta(before, after, ""), CounterMismatchError);
  // A file error names the monitor's files.
  const MonitorSpec* m = find_monitor("cpufreq");
  REQUIRE(m != nullptr);
  CHECK_THROWS_WITH(m->check({"x\n"}),
                    "/sys/devices/system/cpu/cpu*/cpufreq/stats/time_in_state:1: not a CPU's "
                    "sysfs file: 'x'");
}
