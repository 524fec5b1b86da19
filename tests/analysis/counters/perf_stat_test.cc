// perf-stat's parser on real `perf stat -a -x, -o FILE` output recorded here
// (tests/fixtures/perf/README.md: Debian's perf 6.1 on a VM without a PMU,
// so cycles and instructions are "<not supported>").
#include "analysis/counters/perf_stat.h"

#include <catch2/catch.hpp>

#include "tests/support/delta_rows.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("perf stat CSV from a real hackbench run", "[perf][monitors]") {
  const auto events = perf_stat::parse(test::own_fixture("perf/stat-hackbench-g2.csv"));
  REQUIRE(events.size() == 9);
  CHECK(events[0].name == "context-switches");
  CHECK(events[2].unit == "msec");
  CHECK(events[7].name == "cycles");
  CHECK(events[7].status == "not supported");
  CHECK_FALSE(events[7].value);
  const MonitorDelta d = perf_stat::delta(events);
  CHECK(d.rows.size() == 7);  // cycles and instructions have no row, not a 0
  CHECK(test::delta_row(d, "context-switches") == 9557);
  CHECK(test::delta_row(d, "cpu-migrations") == 52);
  CHECK(test::delta_row(d, "task-clock") == Approx(387.11));
  CHECK(test::delta_row(d, "sched:sched_switch") == 9557);
  CHECK(test::delta_row(d, "sched:sched_wakeup") == 6716);
  CHECK(test::delta_row(d, "sched:sched_wakeup_new") == 80);
  CHECK(test::delta_row(d, "sched:sched_migrate_task") == 50);
  CHECK(d.json["not_counted"]["instructions"] == "not supported");
}

TEST_CASE("perf stat CSV: an event name with commas, not counted, and bad lines",
          "[perf][monitors]") {
  const auto e = perf_stat::parse(
      "12,,cpu/event=0x3c,umask=0x0/,1000,100.00,,\n"
      "<not counted>,,sched:sched_switch,0,0.00,,\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0].name == "cpu/event=0x3c,umask=0x0/");
  CHECK(*e[0].value == 12);
  CHECK(e[1].status == "not counted");

  CHECK_THROWS_WITH(
      perf_stat::parse("# started\n\nhello world\n"),
      "line 3: expected perf stat -x, CSV (value,unit,event,...), found 'hello world'");
  CHECK_THROWS_WITH(perf_stat::parse("x12,,cycles,1,100.00,,\n"),
                    "line 1: cycles: 'x12' is not a count");
  CHECK_THROWS_WITH(perf_stat::parse("1,,cycles,1,100.00,,\n2,,cycles,1,100.00,,\n"),
                    "line 2: event 'cycles' is given twice");
  CHECK_THROWS_WITH(perf_stat::parse("# started on Sun\n"), "no events: not perf stat -x, output");
}

TEST_CASE("perf stat's argv lists the events as one -e", "[perf][monitors]") {
  CHECK(perf_stat::stat_args({"a", "b:c"}) ==
        std::vector<std::string>{"stat", "-a", "-x,", "-e", "a,b:c"});
  CHECK(perf_stat::default_events().front() == "context-switches");
}
