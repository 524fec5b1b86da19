#include "results/cell_cache.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <span>
#include <string>
#include <vector>

#include "base/local_secret.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/raw_sql.h"
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
  SECTION("a mark vouches only for the cells it was put with (hostile17)") {
    // A crafted database holding this user's mark, read from one of their
    // databases: with other cells, or with the version's old mark (one
    // number in every database), it is not current.
    const auto mark = [&] {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
      sqlite3_stmt* st = nullptr;
      REQUIRE(sqlite3_prepare_v2(db, "SELECT version FROM cell_summary_marks", -1, &st, nullptr) ==
              SQLITE_OK);
      REQUIRE(sqlite3_step(st) == SQLITE_ROW);
      const auto m = sqlite3_column_int64(st, 0);
      sqlite3_finalize(st);
      sqlite3_close(db);
      return m;
    }();
    // Cells written first, then the mark (a write to cells drops it:
    // migration 18's triggers), as a crafted database holds them.
    const auto crafted = [&](const std::string& centre) {
      REQUIRE(test::exec_raw(path, "UPDATE cell_summaries SET centre = " + centre +
                                       "; INSERT OR REPLACE INTO cell_summary_marks VALUES (" +
                                       std::to_string(run) + ", 'hackbench', 'time', " +
                                       std::to_string(mark) + ")"));
    };
    crafted("0.5");
    CHECK(cells_read().empty());
    crafted("1.0");  // the cells the mark was put with
    CHECK(cells_read().size() == 1);
    // Another run of the database (its cells and the mark copied to it).
    const auto other = s.runs_table().create_run(
        {.name = "r2", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x"});
    REQUIRE(test::exec_raw(
        path, "INSERT INTO cell_summaries SELECT workload, metric, " + std::to_string(other) +
                  ", position, variant_id, block, row, n, centre, ci_low, ci_high, ci_reason, "
                  "params FROM cell_summaries"));
    REQUIRE(test::exec_raw(path, "INSERT INTO cell_summary_marks VALUES (" + std::to_string(other) +
                                     ", 'hackbench', 'time', " + std::to_string(mark) + ")"));
    CHECK(cells_read().size() == 1);
    // The mark a schedlab before this one stored: the version's tag alone.
    REQUIRE(test::exec_raw(path, "UPDATE cell_summary_marks SET version = " +
                                     std::to_string(local_tag("cell summaries, version 1"))));
    CHECK(cells_read().empty());
  }
  SECTION("a replaced set has no rows of the old one") {
    const std::vector<RunCells> runs{{run, {1, first}, {}}};
    CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", 1, runs) == 1);
    CHECK(cells_read().empty());
  }
}
