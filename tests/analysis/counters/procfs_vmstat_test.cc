// /proc/vmstat's parser and delta on real snapshots recorded here around a
// hackbench run (tests/fixtures/perf/README.md); expected values from
// tests/fixtures/perf/reference.py.
#include "analysis/counters/procfs_vmstat.h"

#include <catch2/catch.hpp>

#include "analysis/counters/monitors.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("vmstat snapshots around a real hackbench run", "[monitors]") {
  const std::vector<std::string> b = {test::own_fixture("vmstat/6.18-before.txt")};
  const std::vector<std::string> a = {test::own_fixture("vmstat/6.18-after.txt")};
  const MonitorSpec* m = find_monitor("vmstat");
  REQUIRE(m);
  m->check(b);
  const MonitorDelta d = m->diff(b, a);
  CHECK(d.rows.size() == 192);
  auto value = [&](const std::string& name) {
    for (const auto& r : d.rows)
      if (r.counter == name) return r.value;
    FAIL("no row " << name);
    return 0.0;
  };
  CHECK(value("pgfault") == 3132);
  CHECK(value("nr_free_pages") == -497);  // a level moves either way
}

TEST_CASE("vmstat: bad lines and snapshots that do not fit", "[monitors]") {
  CHECK_THROWS_WITH(procfs::parse_vmstat("pgfault 1\npgfault 2\n"),
                    "line 2: 'pgfault' is given twice");
  CHECK_THROWS_WITH(procfs::parse_vmstat("pgfault one\n"),
                    "line 1: expected 'name value', found 'pgfault one'");
  CHECK_THROWS_WITH(procfs::parse_vmstat(""), "no counters: not a /proc/vmstat file");
  CHECK_THROWS_WITH(
      procfs::diff(procfs::parse_vmstat("a 1\nb 2\n"), procfs::parse_vmstat("a 1\nc 2\n")),
      "/proc/vmstat counter 'c' appeared");
}
