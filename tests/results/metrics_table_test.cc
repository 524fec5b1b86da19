#include "results/metrics_table.h"

#include <catch2/catch.hpp>
#include <string>

#include "results/store.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("the latest run declaring a metric is the latest by start, not by id") {
  test::TempDir dir;
  Store s(dir.file("m.db"));
  const auto run = [&](const std::string& name, const std::string& started,
                       const std::string& unit) {
    const auto id = s.runs_table().create_run({.name = name,
                                               .config_path = "c.yaml",
                                               .config_text = "",
                                               .config_sha256 = "x",
                                               .manifest_json = "{}",
                                               .started_at = started});
    s.metrics_table().add_metric(id, {"hackbench", "time", unit, "lower", "amean", "run", 4});
    return id;
  };
  run("new", "2026-03-02T00:00:00Z", "ms");
  run("imported-late", "2026-03-01T00:00:00Z", "s");
  const auto m = s.metrics_table().latest_metric("hackbench", "time");
  REQUIRE(m.has_value());
  CHECK(m->unit == "ms");
  CHECK_FALSE(s.metrics_table().latest_metric("hackbench", "other").has_value());
}
