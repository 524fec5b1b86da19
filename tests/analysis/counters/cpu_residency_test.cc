// cpuidle's parser and delta on this VM's real sysfs text (the haltpoll
// driver, two CPUs) recorded around a hackbench run by the monitor's own
// script (tests/fixtures/perf/README.md); expected values from
// tests/fixtures/perf/reference.py. This VM has no cpufreq: its parser is
// tested on Linux 5.7.8's time_in_state as mailed to linux-pm
// (tests/fixtures/cpufreq/5.7.8-athlon-3000g-linux-pm.txt, its source in its
// header), on bad input, and the monitor's absence in monitor_runner_test.cc.
#include "analysis/counters/cpu_residency.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

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

TEST_CASE("cpufreq: Linux 5.7.8's time_in_state as mailed to linux-pm", "[monitors]") {
  // `grep -H .` ran in /sys/devices/system/cpu there; the monitor's script
  // greps the absolute paths, so its lines carry them. The monitor reads
  // time_in_state only (not total_trans or trans_table).
  const std::string mail = test::own_fixture_body("cpufreq/5.7.8-athlon-3000g-linux-pm.txt");
  std::string text;
  for (const auto line : split_lines(mail))
    if (line.find("/time_in_state:") != std::string_view::npos)
      text += "/sys/devices/system/cpu/" + std::string(line) + "\n";
  REQUIRE(text.size() > 0);
  const auto s = residency::parse_cpufreq(text);
  REQUIRE(s.size() == 1);
  // TIME is in 10 ms units: 3869872 is 38698720 ms at 3.5 GHz.
  const std::map<std::string, double> cpu0 = {
      {"3500000kHz.ms", 38698720}, {"2300000kHz.ms", 5819950}, {"1600000kHz.ms", 68959370}};
  CHECK(s.at(0) == cpu0);
  const MonitorDelta d = residency::delta(s, s, "ms");
  CHECK(test::delta_row(d, "all.3500000kHz.ms") == 0);
  // Through the registry, as the runner calls it.
  const MonitorSpec* m = find_monitor("cpufreq");
  REQUIRE(m != nullptr);
  CHECK_NOTHROW(m->check({text}));

  // A cut copy: in the middle of a line it is an error naming the line; cut
  // between lines, its delta against the whole one is.
  const auto second = text.find("/sys/devices/system/cpu/cpu0/cpufreq/stats/time_in_state:2300000");
  REQUIRE(second != std::string::npos);
  const std::string mid = text.substr(0, second + 64);
  CHECK_THROWS_WITH(residency::parse_cpufreq(mid), "line 2: expected 'FREQ TIME', found '2300000'");
  CHECK_THROWS_WITH(residency::parse_cpufreq(text.substr(0, second + 40)),
                    Catch::Contains("line 2: ") && Catch::Contains("expected PATH:VALUE"));
  CHECK_THROWS_WITH(residency::delta(s, residency::parse_cpufreq(text.substr(0, second)), "ms"),
                    "cpu0 1600000kHz.ms is in the snapshot before, not after");
}
