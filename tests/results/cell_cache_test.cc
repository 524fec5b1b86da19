#include "results/cell_cache.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <span>
#include <string>
#include <vector>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("cell summaries are read only while the run's iterations and samples are unchanged") {
  test::TempDir dir;
  const std::string path = dir.file("c.db");
  Store s(path);
  const auto run = s.runs_table().create_run(
      {.name = "r", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x"});
  const auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto add = [&](int i) {
    return s.iterations_table().add_iteration({.run_id = run,
                                               .variant_id = v,
                                               .workload = "hackbench",
                                               .block = "b",
                                               .row = "1",
                                               .params_json = "{}",
                                               .iteration = i,
                                               .started_at = "2026-01-01T00:00:00Z",
                                               .samples = {{"time", 1.0 + i, std::nullopt}}});
  };
  const auto first = add(0);
  const auto cells_read = [&] {
    std::vector<CellSummary> out;
    s.cell_cache().for_each_run_cell_summaries(
        "hackbench", "time", 1, [&](const RunLabel&, std::span<const CellSummary> c) {
          out.insert(out.end(), c.begin(), c.end());
        });
    return out;
  };
  const CellSummary cell{.run_id = run, .variant_id = v, .block = "b", .row = "1", .n = 1,
                         .centre = 1.0, .ci_reason = "n < 2"};
  const auto put = [&](CellBasis basis) {
    const std::vector<RunCells> runs{{run, basis, {cell}}};
    return s.cell_cache().put_cell_summaries("hackbench", "time", 1, runs);
  };
  CHECK(put({1, first}) == 1);
  REQUIRE(cells_read().size() == 1);
  CHECK(cells_read()[0].centre == 1.0);
  CHECK_FALSE(cells_read()[0].ci_low.has_value());
  CHECK(cells_read()[0].ci_reason == "n < 2");

  SECTION("an iteration added drops them, and an old basis is not kept") {
    const auto second = add(1);
    CHECK(cells_read().empty());
    CHECK(put({1, first}) == 0);
    CHECK(cells_read().empty());
    CHECK(put({2, second}) == 1);
    CHECK(cells_read().size() == 1);
  }
  SECTION("a sample written by any writer drops them") {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    const std::string sql =
        "INSERT INTO samples (iteration_id, metric, value) VALUES (" + std::to_string(first) +
        ", 'time', 5)";
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(cells_read().empty());
  }
  SECTION("invalidate_cell_summaries drops them") {
    s.cell_cache().invalidate_cell_summaries(run);
    CHECK(cells_read().empty());
  }
  SECTION("a replaced set has no rows of the old one") {
    const std::vector<RunCells> runs{{run, {1, first}, {}}};
    CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", 1, runs) == 1);
    CHECK(cells_read().empty());
  }
}
