#include "results/nightly_log.h"

#include <catch2/catch.hpp>
#include <string>

#include "results/store.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("the latest nightly measurement of a target, config and kernel commit is the current one") {
  test::TempDir dir;
  Store s(dir.file("n.db"));
  NightlyLog& log = s.nightly_log();
  const NightlyMeasurement attempt{
      .nightly = "nightly.yaml", .target = "6.12", .config_path = "c.yaml", .config_sha256 = "abc"};
  const auto first = log.add_nightly_measurement(attempt);
  auto m = log.latest_nightly_measurement("6.12", "abc");
  REQUIRE(m);
  CHECK(m->id == first);
  CHECK(m->status == NightlyStatus::kMeasuring);
  CHECK_FALSE(m->run_id);
  CHECK_FALSE(m->started_at.empty());  // now, when not given
  CHECK(m->ended_at.empty());
  m->status = NightlyStatus::kFailed;
  m->error = "hook failed";
  m->ended_at = "2026-01-01T00:00:00Z";
  log.update_nightly_measurement(*m);

  auto on_branch = attempt;
  on_branch.kernel_commit = "deadbeef";
  const auto second = log.add_nightly_measurement(on_branch);
  CHECK(log.latest_nightly_measurement("6.12", "abc")->error == "hook failed");  // commit '' still
  CHECK(log.latest_nightly_measurement("6.12", "abc", "deadbeef")->id == second);
  CHECK_FALSE(log.latest_nightly_measurement("6.12", "other"));
  const auto third = log.add_nightly_measurement(attempt);
  CHECK(log.latest_nightly_measurement("6.12", "abc")->id == third);

  const auto all = log.nightly_measurements();
  REQUIRE(all.size() == 3);
  CHECK(all[0].id == first);
  CHECK(all[0].status == NightlyStatus::kFailed);
  CHECK(all[0].ended_at == "2026-01-01T00:00:00Z");
  CHECK(all[1].kernel_commit == "deadbeef");
  CHECK(all[2].id == third);
}
