// sched-debug's parser and delta on real /sys/kernel/debug/sched/debug
// snapshots recorded here around a hackbench run (Linux 6.18, two CPUs;
// tests/fixtures/perf/README.md). Expected values from
// tests/fixtures/perf/reference.py (plain Python).
#include "analysis/counters/sched_debug.h"

#include <catch2/catch.hpp>

#include "tests/support/delta_rows.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("sched debug snapshots around a real hackbench run", "[monitors]") {
  const auto b = sched_debug::parse(test::own_fixture("sched_debug/6.18-before.txt"));
  const auto a = sched_debug::parse(test::own_fixture("sched_debug/6.18-after.txt"));
  REQUIRE(a.cpus.size() == 2);
  CHECK(a.cpus[1].cpu == 1);
  const MonitorDelta d = sched_debug::delta(b, a);
  CHECK(test::delta_row(d, "cpu0.nr_switches") == 145);
  CHECK(test::delta_row(d, "cpu1.nr_switches") == 2866);
  CHECK(test::delta_row(d, "all.nr_switches") == 145 + 2866);
  CHECK(test::delta_row(d, "cpu0.nr_running") == 4);  // a level: the value after
  CHECK(test::delta_row(d, "all.nr_running") == 6);
  CHECK(test::delta_row(d, "cpu1.cfs.nr_queued") == 2);
  CHECK(test::delta_row(d, "all.cfs.load_avg") == 1991 + 3269);
  // Task groups' cfs_rq blocks and clocks are not kept.
  for (const auto& r : d.rows) {
    CHECK(r.counter.find("clock") == std::string::npos);
    CHECK(r.counter.find("vruntime") == std::string::npos);
  }
  CHECK(sched_debug::is_counter("nr_switches"));
  CHECK_FALSE(sched_debug::is_counter("nr_running"));
}

TEST_CASE("sched debug: bad input and snapshots that do not fit", "[monitors]") {
  CHECK_THROWS_WITH(sched_debug::parse("hello\n"),
                    "line 1: no 'Sched Debug Version:' line: not a sched debug file");
  CHECK_THROWS_WITH(sched_debug::parse("Sched Debug Version: v0.11\n"),
                    "no cpu#N block: not a sched debug file");
  CHECK_THROWS_WITH(
      sched_debug::parse("Sched Debug Version: v0.11\ncpu#0, 1 MHz\n  .nr_switches : x1\n"),
      "line 3: .nr_switches: 'x1' is not a number");
  CHECK_THROWS_WITH(sched_debug::parse("Sched Debug Version: v0.11\ncpu#0, 1 MHz\ncpu#0, 1 MHz\n"),
                    "line 3: cpu#0 is given twice");
  const auto b =
      sched_debug::parse("Sched Debug Version: v0.11\ncpu#0, 1 MHz\n  .nr_switches : 10\n");
  const auto a =
      sched_debug::parse("Sched Debug Version: v0.11\ncpu#0, 1 MHz\n  .nr_switches : 4\n");
  CHECK_THROWS_WITH(sched_debug::delta(b, a),
                    "sched debug cpu#0 .nr_switches went backwards (10 -> 4)");
}
