#include "results/point_stops_table.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>

#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/decided_stop.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a point's stop row keeps its sequential test, and a database of version 14 gains the columns") {
  test::TempDir dir;
  const std::string path = dir.file("seq.db");
  {
    Store s(path);
    const auto run = s.runs_table().create_run(
        {.name = "r", .config_path = "c", .config_text = "", .config_sha256 = "x"});
    const auto v = s.variants_table().add_variant(
        {.run_id = run, .name = "b", .position = 1, .knobs_json = "{}"});
    PointStop decided = test::decided_stop(run, v, "w", "{}", 7, "same", 2, 0.5);
    decided.sequential->estimate_pct = -0.5;
    decided.sequential->ci_low = -2.1;
    decided.sequential->ci_high = 1.2;
    decided.sequential->level = 0.95;
    decided.sequential->design_json = R"({"alpha":0.05})";
    decided.sequential->looks_json = R"([{"n":3,"fraction":0.2,"needed_n":15}])";
    s.point_stops_table().record_point_stop(decided);
    s.point_stops_table().record_point_stop({.run_id = run,
                                             .variant_id = v,
                                             .workload = "w",
                                             .params_json = "{\"x\":1}",
                                             .iterations = 3,
                                             .reason = "fixed"});
    const auto stops = s.point_stops_table().point_stops(run);
    REQUIRE(stops.size() == 2);
    REQUIRE(stops[0].sequential);
    const auto& q = *stops[0].sequential;
    CHECK(q.metric == "time");
    CHECK(q.decision == "same");
    CHECK(q.looks == 2);
    CHECK(q.n == 7);
    CHECK(*q.p_value == 0.5);
    CHECK(*q.ci_low == -2.1);
    CHECK(*q.ci_high == 1.2);
    CHECK(*q.estimate_pct == -0.5);
    CHECK(q.looks_json == R"([{"n":3,"fraction":0.2,"needed_n":15}])");
    CHECK_FALSE(stops[1].sequential);
    CHECK_FALSE(stops[1].ci_halfwidth_pct);
    // A decision the schema does not know is refused by the database itself.
    auto bad = stops[0];
    bad.sequential->decision = "maybe";
    CHECK_THROWS_AS(s.point_stops_table().record_point_stop(bad), StoreError);
  }
  // Version 14: before migration 15 (the columns dropped again).
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, test::kBackToSchemaVersion17, nullptr, nullptr, nullptr) == SQLITE_OK);
  for (const char* c : {"seq_metric", "seq_decision", "seq_looks", "seq_n_baseline", "seq_n", "seq_p_value",
                        "seq_estimate_pct", "seq_ci_low", "seq_ci_high", "seq_level", "seq_design_json",
                        "seq_looks_json", "seq_note"})
    REQUIRE(sqlite3_exec(db, (std::string("ALTER TABLE point_stops DROP COLUMN ") + c).c_str(), nullptr, nullptr,
                         nullptr) == SQLITE_OK);
  for (const char* c : {"level_good", "level_bad", "error_rates"})
    REQUIRE(sqlite3_exec(db, (std::string("ALTER TABLE bisect_decisions DROP COLUMN ") + c).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 14", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  Store s(path);
  CHECK(s.schema_version() == Store::kSchemaVersion);
  const auto stops = s.point_stops_table().point_stops(1);
  REQUIRE(stops.size() == 2);
  CHECK(stops[0].reason == "decided");
  CHECK_FALSE(stops[0].sequential);  // the rows of before keep what they had
  CHECK(stops[0].iterations == 7);
}

TEST_CASE("a stop whose stored figures are no finite number is refused, naming the column (issue 44)") {
  test::TempDir dir;
  const std::string path = dir.file("seq.db");
  std::int64_t run = 0;
  {
    Store s(path);
    run = s.runs_table().create_run(
        {.name = "r", .config_path = "c", .config_text = "", .config_sha256 = "x"});
    const auto v = s.variants_table().add_variant(
        {.run_id = run, .name = "b", .position = 1, .knobs_json = "{}"});
    s.point_stops_table().record_point_stop(test::decided_stop(run, v, "w", "{}", 7, "same", 2, 0.5));
  }
  {
    Store s(path);
    CHECK(s.point_stops_table().point_stops(run).size() == 1);
  }
  for (const auto& [set, says] :
       {std::pair{"ci_halfwidth_pct = 9e999", "ci_halfwidth_pct inf: not a finite number"},
        std::pair{"ci_halfwidth_pct = 'wide'", "ci_halfwidth_pct nan: not a finite number"},
        std::pair{"ci_halfwidth_pct = NULL, seq_p_value = -9e999",
                  "seq_p_value -inf: not a finite number"},
        std::pair{"seq_p_value = 0.5, seq_ci_high = 'x'", "seq_ci_high nan"},
        std::pair{"seq_ci_high = 1, seq_level = 95", "seq_level 95: not a level between 0 and 1"},
        // Counts printed as facts ("after -7 looks, n -3 vs 3"): a crafted
        // row's below 0 or past an int (cut to its low 32 bits) is refused.
        std::pair{"seq_level = 0.95, seq_looks = -7", "seq_looks -7: not a count"},
        std::pair{"seq_looks = 2, seq_n = -3", "seq_n -3: not a count"},
        std::pair{"seq_n = 4294967299", "seq_n 4294967299: not a count"},
        std::pair{"seq_n = 7, seq_n_baseline = -1", "seq_n_baseline -1: not a count"},
        std::pair{"seq_n_baseline = 7, iterations = -5", "iterations -5: not a count"},
        // hostile11: two thousand looks' text under seq_looks 2 was read
        // whole (two million: 670 MB).
        std::pair{"iterations = 7, seq_looks_json = (SELECT '[' || group_concat('{\"n\":3,"
                  "\"fraction\":0.2,\"needed_n\":15}') || ']' FROM (WITH RECURSIVE c(x) AS "
                  "(SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000) SELECT x FROM c))",
                  "seq_looks_json of 74001 bytes: not the text of 2 looks (seq_looks; at most 768 "
                  "bytes)"}}) {
    INFO(set);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, (std::string("UPDATE point_stops SET ") + set).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    Store s(path);
    CHECK_THROWS_WITH(s.point_stops_table().point_stops(run),
                      Catch::Contains(std::string("run ") + std::to_string(run) +
                                      ": the stop of w has " + says));
  }
}
