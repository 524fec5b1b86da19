// sched-debug's parser and delta on real /sys/kernel/debug/sched/debug
// snapshots recorded here around a hackbench run (Linux 6.18, two CPUs;
// tests/fixtures/perf/README.md). Expected values from
// tests/fixtures/perf/reference.py (plain Python). The pre-5.13 layout
// (/proc/sched_debug) on Linux 5.4.22's, as pasted to LKML
// (tests/fixtures/sched_debug/5.4.22-imx6q-lkml.txt, its source in its
// header): expected values read off the text.
#include "analysis/counters/sched_debug.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

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

TEST_CASE("sched debug: Linux 5.4.22's /proc/sched_debug (pre-5.13 layout) as pasted to LKML",
          "[monitors]") {
  const std::string text = test::own_fixture_body("sched_debug/5.4.22-imx6q-lkml.txt");
  const auto s = sched_debug::parse(text);
  REQUIRE(s.cpus.size() == 2);  // the sender kept cpu#0 and cpu#1 of four
  CHECK(s.cpus[0].cpu == 0);
  CHECK(s.cpus[1].cpu == 1);
  // Every kept line of each CPU's blocks, and nothing of the sysctl_sched
  // block, the task lists or the clocks. rt_rq[N]: has no path (no
  // CONFIG_RT_GROUP_SCHED); its lines are kept as the root's.
  const std::map<std::string, double> cpu0 = {{"nr_running", 1},
                                              {"nr_switches", 2616061},
                                              {"nr_uninterruptible", 3},
                                              {"avg_idle", 1000000},
                                              {"cfs.exec_clock", 0},
                                              {"cfs.nr_spread_over", 0},
                                              {"cfs.nr_running", 0},
                                              {"cfs.load", 0},
                                              {"cfs.load_avg", 137},
                                              {"cfs.util_avg", 111},
                                              {"cfs.util_est_enqueued", 0},
                                              {"rt.rt_nr_running", 0},
                                              {"rt.rt_throttled", 0},
                                              {"dl.dl_nr_running", 0}};
  CHECK(s.cpus[0].values == cpu0);
  CHECK(s.cpus[1].values.at("nr_switches") == 1951962);
  CHECK(s.cpus[1].values.at("nr_uninterruptible") == -17);
  CHECK(s.cpus[1].values.at("cfs.load") == 11916);
  CHECK(s.cpus[1].values.at("cfs.load_avg") == 1200);
  CHECK(s.cpus[1].values.size() == cpu0.size());
  // Against itself: counters move by 0, levels are the values.
  const MonitorDelta d = sched_debug::delta(s, s);
  CHECK(test::delta_row(d, "all.nr_switches") == 0);
  CHECK(test::delta_row(d, "all.nr_uninterruptible") == 3 - 17);
  CHECK(test::delta_row(d, "all.cfs.load_avg") == 137 + 1200);
  CHECK(test::delta_row(d, "cpu1.cfs.load") == 11916);

  // Cut copies (a read that stopped early) are errors, never a smaller
  // snapshot taken for a whole one.
  const auto cut_at = [&](const std::string& mark, std::size_t keep) {
    const auto at = text.find(mark);
    REQUIRE(at != std::string::npos);
    return text.substr(0, at + keep);
  };
  // In the middle of cpu#1's .nr_switches line (line 108).
  CHECK_THROWS_WITH(sched_debug::parse(cut_at("  .nr_switches                   : 1951962", 9)),
                    "line 108: expected '.key : value', found '  .nr_swi'");
  // Before the first CPU: the sysctl block only.
  CHECK_THROWS_WITH(sched_debug::parse(cut_at("cpu#0\n", 0)),
                    "no cpu#N block: not a sched debug file");
  // After cpu#1's first line: it parses, and its delta says what is missing.
  const auto cut =
      sched_debug::parse(cut_at("  .nr_running                    : 0\n  .nr_switches  "
                                "                 : 1951962",
                                36));
  CHECK(cut.cpus.at(1).values.size() == 1);
  CHECK_THROWS_WITH(sched_debug::delta(s, cut),
                    "sched debug cpu#1 .avg_idle is in the snapshot before, not after");
}
