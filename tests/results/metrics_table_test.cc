#include "results/metrics_table.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>

#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/raw_sql.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("the latest run declaring a metric is the latest by start, not by id") {
  test::TempDir dir;
  Store s(dir.file("m.db"));
  const auto run = [&](const std::string& name, const std::string& started, const std::string& unit) {
    const auto id = s.runs_table().create_run({.name = name, .config_path = "c.yaml", .config_text = "",
                                  .config_sha256 = "x", .manifest_json = "{}",
                                  .started_at = started});
    s.metrics_table().add_metric(
        id, {"hackbench", "time", unit, Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    return id;
  };
  run("new", "2026-03-02T00:00:00Z", "ms");
  run("imported-late", "2026-03-01T00:00:00Z", "s");
  const auto m = s.metrics_table().latest_metric("hackbench", "time");
  REQUIRE(m.has_value());
  CHECK(m->unit == "ms");
  CHECK_FALSE(s.metrics_table().latest_metric("hackbench", "other").has_value());
}

TEST_CASE("the metric names of each workload, once each, in the order runs first declared them") {
  test::TempDir dir;
  Store s(dir.file("m.db"));
  const auto declare = [&](const std::string& name,
                           const std::vector<std::pair<std::string, std::string>>& metrics) {
    const auto id = s.runs_table().create_run({.name = name,
                                               .config_path = "c.yaml",
                                               .config_text = "",
                                               .config_sha256 = "x",
                                               .manifest_json = "{}"});
    for (const auto& [workload, metric] : metrics)
      s.metrics_table().add_metric(
          id, {workload, metric, "", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  };
  CHECK(s.metrics_table().metric_names().empty());
  declare("a", {{"pgbench", "tps"}, {"pgbench", "latency"}, {"hackbench", "time"}});
  declare("b", {{"pgbench", "latency"}, {"pgbench", "connect"}, {"tbench", "throughput"}});
  const std::map<std::string, std::vector<std::string>> want = {
      {"hackbench", {"time"}},
      {"pgbench", {"tps", "latency", "connect"}},
      {"tbench", {"throughput"}}};
  CHECK(s.metrics_table().metric_names() == want);
}

namespace {

// SQL run past the Store; what SQLite says of it ("" when it ran).
std::string run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  char* err = nullptr;
  std::string out;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK)
    out = err ? err : "failed";
  sqlite3_free(err);
  sqlite3_close(db);
  return out;
}

// Back to schema 15 (from 17: tests/support/schema_version_9.h): the
// metrics table without migration 16's CHECK on kind, as migration 1 made it.
const char* const kBackToSchemaVersion15 = R"sql(
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, ' CHECK (kind IN (''run'', ''interval''))', '')
  WHERE name = 'metrics';
PRAGMA writable_schema = OFF;
PRAGMA user_version = 15;
)sql";

// A metric with a kind that is none of ours.
const char* const kInsertSlices =
    "INSERT INTO metrics (run_id, workload, name, unit, direction, centre, kind, precision) "
    "VALUES (1, 'pgbench', 'clients', '', 'higher', 'hmean', 'slices', 0)";

// Run 1 declaring two metrics, out of name order (a run's metrics are read
// in declaration order, the table's rowid).
void declare_two(Store& s) {
  const auto run = s.runs_table().create_run({.name = "r",
                                 .config_path = "c.yaml",
                                 .config_text = "",
                                 .config_sha256 = "x",
                                 .manifest_json = "{}"});
  s.metrics_table().add_metric(
      run, {"pgbench", "tps", "", Direction::kHigherIsBetter, "hmean", SampleKind::kInterval, 2});
  s.metrics_table().add_metric(
      run, {"pgbench", "latency", "ms", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 3});
}

void check_two(const Store& s) {
  const auto m = s.metrics_table().metrics(1);
  REQUIRE(m.size() == 2);
  CHECK(m[0].name == "tps");
  CHECK(m[0].unit.empty());
  CHECK(m[0].direction == Direction::kHigherIsBetter);
  CHECK(m[0].centre == "hmean");
  CHECK(m[0].kind == SampleKind::kInterval);
  CHECK(m[0].precision == 2);
  CHECK(m[1].name == "latency");
  CHECK(m[1].direction == Direction::kLowerIsBetter);
  CHECK(m[1].kind == SampleKind::kRun);
}

}  // namespace

TEST_CASE("a metric's direction and kind are read back as enums; a word neither has is refused") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  Store s(path);
  declare_two(s);
  check_two(s);
  CHECK(test::raw(path, "SELECT direction || ' ' || kind FROM metrics ORDER BY rowid") ==
        "higher interval");

  // The schema refuses another word; one written past it (a CHECK switched
  // off) is refused on every read, naming run, metric and word.
  CHECK(run_sql(path, kInsertSlices) == "CHECK constraint failed: kind IN ('run', 'interval')");
  REQUIRE(
      run_sql(path, std::string("PRAGMA ignore_check_constraints = ON; ") + kInsertSlices).empty());
  const std::string bad_kind =
      "unknown metric kind 'slices' in the database (run 1, metric pgbench clients)";
  CHECK_THROWS_WITH(s.metrics_table().metrics(1), bad_kind);
  CHECK_THROWS_WITH(s.metrics_table().latest_metric("pgbench", "clients"), bad_kind);
  CHECK_THROWS_WITH(s.metrics_table().metric_by_run("pgbench", "clients"), bad_kind);
  // The other metrics still read.
  CHECK(s.metrics_table().latest_metric("pgbench", "tps")->kind == SampleKind::kInterval);
  const char* const bad_direction =
      "PRAGMA ignore_check_constraints = ON; "
      "UPDATE metrics SET kind = 'interval', direction = 'better' WHERE name = 'clients'";
  REQUIRE(run_sql(path, bad_direction).empty());
  CHECK_THROWS_WITH(
      s.metrics_table().metrics(1),
      "unknown metric direction 'better' in the database (run 1, metric pgbench clients)");
}

TEST_CASE("migration 16 puts a CHECK on an old database's metric kinds, rows and order kept") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  {
    Store s(path);
    declare_two(s);
  }
  REQUIRE(run_sql(path, test::kBackToSchemaVersion17).empty());
  REQUIRE(run_sql(path, kBackToSchemaVersion15).empty());
  {
    Store s(path);
    CHECK(s.schema_version() == Store::kSchemaVersion);
    check_two(s);
  }
  CHECK(run_sql(path, kInsertSlices) == "CHECK constraint failed: kind IN ('run', 'interval')");

  // An old database holding a kind that is none of ours is not migrated:
  // the error says why, and the database is left as it was.
  REQUIRE(run_sql(path, test::kBackToSchemaVersion17).empty());
  REQUIRE(run_sql(path, kBackToSchemaVersion15).empty());
  REQUIRE(run_sql(path, "UPDATE metrics SET kind = 'slices' WHERE name = 'tps'").empty());
  CHECK_THROWS_WITH(Store(path),
                    Catch::Contains("CHECK constraint failed: kind IN ('run', 'interval')"));
  CHECK(test::raw(path, "SELECT user_version FROM pragma_user_version") == "15");
  CHECK(
      test::raw(path, "SELECT group_concat(kind) FROM (SELECT kind FROM metrics ORDER BY rowid)") ==
      "slices,run");
}

TEST_CASE("a metric's domain is stored as declared; a run from before migration 17 has none") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  {
    Store s(path);
    declare_two(s);
    const auto run = s.runs_table().create_run({.name = "r2",
                                                .config_path = "c.yaml",
                                                .config_text = "",
                                                .config_sha256 = "x",
                                                .manifest_json = "{}"});
    s.metrics_table().add_metric(run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean",
                                       SampleKind::kRun, 4, ValueDomain::kNonNegative});
    CHECK(s.metrics_table().metrics(run).front().domain == ValueDomain::kNonNegative);
    CHECK(s.metrics_table().latest_metric("hackbench", "time")->domain ==
          ValueDomain::kNonNegative);
    // Declared without one: stored as NULL, read back as not recorded.
    CHECK_FALSE(s.metrics_table().metrics(1).front().domain.has_value());
  }
  CHECK(test::raw(path, "SELECT group_concat(ifnull(domain, 'NULL')) FROM metrics") ==
        "NULL,NULL,nonnegative");
  CHECK(run_sql(path, "UPDATE metrics SET domain = 'positive'") ==
        "CHECK constraint failed: domain IN ('unbounded', 'nonnegative')");

  // Back to schema 16 (no domain column): the migration adds it, the rows
  // kept, their domains not recorded.
  REQUIRE(run_sql(path, test::kBackToSchemaVersion17).empty());
  REQUIRE(
      run_sql(path, "ALTER TABLE metrics DROP COLUMN domain; PRAGMA user_version = 16").empty());
  {
    Store s(path);
    CHECK(s.schema_version() == Store::kSchemaVersion);
    check_two(s);
    const auto time = s.metrics_table().latest_metric("hackbench", "time");
    REQUIRE(time.has_value());
    CHECK(time->unit == "s");
    CHECK_FALSE(time->domain.has_value());
  }

  // A word past the CHECK is refused on read, naming run, metric and word.
  REQUIRE(run_sql(path,
                  "PRAGMA ignore_check_constraints = ON; UPDATE metrics SET domain = 'positive' "
                  "WHERE name = 'time'")
              .empty());
  CHECK_THROWS_WITH(
      Store(path).metrics_table().metrics(2),
      "unknown metric domain 'positive' in the database (run 2, metric hackbench time)");
}

TEST_CASE(
    "a metric's precision past 0 to 12 is refused on read: a crafted one would print a "
    "billion digits a cell") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  Store s(path);
  declare_two(s);
  for (const char* precision : {"1000000000", "-5", "4294967299"}) {
    INFO(precision);
    REQUIRE(run_sql(path, std::string("UPDATE metrics SET precision = ") + precision +
                              " WHERE name = 'latency'")
                .empty());
    CHECK_THROWS_WITH(s.metrics_table().metrics(1),
                      std::string("metric pgbench latency of run 1 has precision ") + precision +
                          ": not from 0 to 12 (a damaged or crafted database)");
  }
  REQUIRE(run_sql(path, "UPDATE metrics SET precision = 12 WHERE name = 'latency'").empty());
  CHECK(s.metrics_table().metrics(1).size() == 2);
}
