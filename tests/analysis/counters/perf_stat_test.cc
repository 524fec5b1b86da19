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

TEST_CASE("perf stat CSV: counts that are no number a counter holds are refused, lines cut",
          "[perf][monitors]") {
  // Hostile pass 4: from_chars reads "nan" and "inf", and 1e308 passed the
  // parser to be refused by the store, losing the iteration.
  for (const char* v : {"nan", "-nan", "inf", "infinity", "NAN"})
    CHECK_THROWS_WITH(perf_stat::parse(std::string(v) + ",,cycles,1,100.00,,\n"),
                      std::string("line 1: cycles: '") + v + "' is not a count");
  CHECK_THROWS_WITH(perf_stat::parse("1e308,,cycles,1,100.00,,\n"),
                    "line 1: cycles: '1e308' is not a count: 1e+308 is outside +-1e+150");
  // hostile9: a negative count (and its report's -394%) is refused by
  // what it is, on its line; "-0" too.
  CHECK_THROWS_WITH(
      perf_stat::parse("100,,cycles,1,100.00,,\n-294,,context-switches,1,100.00,,\n"),
      "line 2: context-switches: '-294' is not a count: -294 is negative: no count is");
  CHECK_THROWS_WITH(perf_stat::parse("-1,,cycles,1,100.00,,\n"),
                    "line 1: cycles: '-1' is not a count: -1 is negative: no count is");
  CHECK_THROWS_WITH(perf_stat::parse("-0,,cycles,1,100.00,,\n"),
                    "line 1: cycles: '-0' is not a count: -0 is negative: no count is");
  CHECK(*perf_stat::parse("0,,cycles,1,100.00,,\n")[0].value == 0);
  CHECK(*perf_stat::parse("1e12,,cycles,1,100.00,,\n")[0].value == 1e12);
  // "<not supported>" and "<not counted>" are statuses, not counts.
  const auto e = perf_stat::parse(
      "<not supported>,,cycles,0,100.00,,\n<not counted>,,instructions,0,0.00,,\n");
  CHECK(e[0].status == "not supported");
  CHECK_FALSE(e[1].value);
  // A long or hostile line is quoted cut and terminal-safe.
  CHECK_THROWS_WITH(perf_stat::parse(std::string(5000, 'x') + "\n"),
                    "line 1: expected perf stat -x, CSV (value,unit,event,...), found '" +
                        std::string(80, 'x') + "... (5000 characters)'");
  CHECK_THROWS_WITH(perf_stat::parse("x,,\x1b[2J\xe2\x80\xae,1,100.00,,\n"),
                    "line 1: \\x1b[2J\\u202e: 'x' is not a count");
}

TEST_CASE("perf stat's argv lists the events as one -e", "[perf][monitors]") {
  CHECK(perf_stat::stat_args({"a", "b:c"}) ==
        std::vector<std::string>{"stat", "-a", "-x,", "-e", "a,b:c"});
  CHECK(perf_stat::default_events().front() == "context-switches");
}
