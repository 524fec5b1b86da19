#include "results/bisect_log.h"

#include <catch2/catch.hpp>
#include <string>

#include "results/store.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a bisection and its decisions come back as made, in order") {
  test::TempDir dir;
  Store s(dir.file("b.db"));
  BisectLog& log = s.bisect_log();
  CHECK_FALSE(log.latest_bisect());
  const auto a = log.create_bisect({.spec_json = R"({"candidates":["v1","v2","v3"]})"});
  const auto b = log.create_bisect({.spec_json = "{}"});
  CHECK(log.latest_bisect()->id == b);
  CHECK_FALSE(log.find_bisect(b + 1));
  const auto started = log.find_bisect(a);
  REQUIRE(started);
  CHECK(started->status == BisectStatus::kRunning);
  CHECK(started->result_json == "{}");
  CHECK(started->spec_json == R"({"candidates":["v1","v2","v3"]})");
  log.set_bisect_status(a, BisectStatus::kDone, R"({"first_bad":"v2"})");
  CHECK(log.find_bisect(a)->status == BisectStatus::kDone);
  CHECK(log.find_bisect(a)->result_json == R"({"first_bad":"v2"})");

  log.add_bisect_decision({.session_id = a, .position = 0, .candidate = "v1", .verdict = "REF-GOOD",
                           .decided_by = "reference", .n = 5, .centre = 1.5});
  log.add_bisect_decision({.session_id = b, .position = 0, .candidate = "x", .verdict = "SKIP"});
  log.add_bisect_decision({.session_id = a, .position = 1, .candidate = "v2", .verdict = "BAD",
                           .decided_by = "test", .n = 10, .centre = 2.5, .p_good = 0.001, .p_bad = 0.6,
                           .run_ids_json = "[4,5]", .note = "", .level_good = 0.01, .level_bad = 0.01,
                           .error_rates = "at most 5% of BAD verdicts on a good candidate"});
  const auto ds = log.bisect_decisions(a);
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].verdict == "REF-GOOD");
  CHECK(ds[0].run_ids_json == "[]");
  CHECK_FALSE(ds[0].p_good);
  CHECK_FALSE(ds[0].level_good);
  CHECK(ds[1].candidate == "v2");
  CHECK(ds[1].centre == 2.5);
  CHECK(ds[1].p_good == 0.001);
  CHECK(ds[1].level_bad == 0.01);
  CHECK(ds[1].error_rates == "at most 5% of BAD verdicts on a good candidate");
  CHECK(log.bisect_decisions(b).size() == 1);
}
