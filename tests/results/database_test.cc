#include "results/database.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/text.h"
#include "results/store.h"
#include "tests/support/raw_sql.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a database newer than this binary is refused") {
  test::TempDir dir;
  const std::string path = dir.file("new.db");
  REQUIRE(test::exec_raw(path, "PRAGMA user_version = 99"));
  CHECK_THROWS_WITH(Store(path), Catch::Contains("database schema version 99 is newer than this schedlab"));
}

TEST_CASE("a --db that is a loop of links is said to be one, not a missing database (hostile16)") {
  test::TempDir dir;
  const std::string a = dir.file("a.db"), b = dir.file("b.db");
  std::filesystem::create_symlink(b, a);
  std::filesystem::create_symlink(a, b);
  for (const auto access :
       {Store::Access::kCreate, Store::Access::kExisting, Store::Access::kReadOnly})
    CHECK_THROWS_WITH(
        Store(a, access),
        a + ": cannot be resolved: a loop of symbolic links (or too many of them); no "
            "database read or written");
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(dir.file("a.db-wal"))));
}

TEST_CASE("a database of a negative schema version is refused before any migration (hostile10)") {
  // -1 read the pointer before the first migration as SQL ("near Mann:
  // syntax error"), -2 crashed: every command that migrates, and merge.
  test::TempDir dir;
  const std::string path = dir.file("negative.db");
  REQUIRE(test::exec_raw(path, "CREATE TABLE t (x); PRAGMA user_version = -2"));
  const std::string why = path +
                          ": database schema version -2 is no version of schedlab's (they count "
                          "up from 1: a damaged or crafted database); nothing written";
  CHECK_THROWS_WITH(Store(path), why);
  CHECK_THROWS_WITH(Store(path, Store::Access::kReadOnly), why);
  CHECK_THROWS_WITH(Store(dir.file("out.db")).merge_from(path),
                    path +
                        ": database schema version -2 is no version of schedlab's (a damaged "
                        "or crafted database); nothing merged");
}

namespace {

// A new database of schedlab's, then SQL of a crafter's run on it.
std::string crafted(const test::TempDir& dir, const std::string& name, const std::string& sql) {
  const std::string path = dir.file(name);
  { Store s(path); }
  REQUIRE(test::exec_raw(path, sql));
  return path;
}

}  // namespace

TEST_CASE("a trigger schedlab did not make, or a view in a table's place, is refused (hostile12)") {
  test::TempDir dir;
  const auto fresh = [&](const std::string& name, const std::string& sql) {
    return crafted(dir, name, sql);
  };
  // An endless view as samples: compare and list never ended.
  const std::string view = fresh(
      "view.db",
      "DROP TABLE samples; CREATE VIEW samples(iteration_id, metric, value, offset_s) AS WITH "
      "RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 1, 'seconds', 1.0, NULL "
      "FROM c");
  CHECK_THROWS_WITH(Store(view, Store::Access::kReadOnly),
                    view +
                        ": its 'samples' is a view, not schedlab's table (a damaged or crafted "
                        "database); nothing read");
  CHECK_THROWS_WITH(Store(view), view +
                                     ": its 'samples' is a view, not schedlab's table (a "
                                     "damaged or crafted database); nothing written");
  // The same view under another case of the name ("Samples", "RUN_kernel_releases"): SQLite
  // reads it as the table, and compare and list never ended (hostile13).
  const std::string cased = fresh(
      "cased.db",
      "DROP TABLE run_kernel_releases; CREATE VIEW RUN_kernel_releases(run_id, kernel_release) "
      "AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 1, '6.1' FROM c");
  CHECK_THROWS_WITH(Store(cased, Store::Access::kReadOnly),
                    cased +
                        ": its 'RUN_kernel_releases' is a view, not schedlab's table (a damaged "
                        "or crafted database); nothing read");
  CHECK_THROWS_WITH(Store(dir.file("out2.db")).merge_from(cased),
                    Catch::Contains("its 'RUN_kernel_releases' is a view"));
  // An endless trigger on a delete: rm never ended.
  const std::string trigger = fresh(
      "trigger.db",
      "CREATE TRIGGER evil AFTER DELETE ON samples BEGIN INSERT INTO variants(run_id, name, "
      "position, knobs_json) SELECT 1, 'x' || x, 9, '{}' FROM (WITH RECURSIVE c(x) AS (SELECT 1 "
      "UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END");
  const std::string why = trigger +
                          ": it has a trigger 'evil' that schedlab did not make (it would run on "
                          "schedlab's writes) (a damaged or crafted database); nothing ";
  CHECK_THROWS_WITH(Store(trigger), why + "written");
  CHECK_THROWS_WITH(Store(trigger, Store::Access::kReadOnly), why + "read");
  CHECK_THROWS_WITH(Store(dir.file("out.db")).merge_from(trigger), why + "merged");
  // One of schedlab's triggers with another body is not schedlab's.
  const std::string changed = fresh("changed.db",
                                    "DROP TRIGGER run_kernel_release_delete; CREATE TRIGGER "
                                    "run_kernel_release_delete AFTER DELETE ON runs BEGIN "
                                    "SELECT 1; END");
  CHECK_THROWS_WITH(Store(changed), Catch::Contains("a trigger 'run_kernel_release_delete' that "
                                                    "schedlab did not make"));
  // An index on an expression: an endless instr() made on an empty samples hung the next
  // import (hostile13); a WHERE, a CHECK, a computed default and a generated column run on
  // writes too.
  const std::string endless =
      "instr(printf('%.*c', 100000000 + iteration_id, 'a'), printf('%.*c', 50000, 'a') || 'b')";
  const std::string constant =
      "instr(printf('%.*c', 100000000, 'a'), printf('%.*c', 50000, 'a') || 'b')";
  const std::string expression =
      fresh("expression.db", "CREATE INDEX slow ON samples(" + endless + ")");
  CHECK_THROWS_WITH(Store(expression),
                    expression +
                        ": it has an index 'slow' on an expression or with a WHERE that schedlab "
                        "did not make (it would run on schedlab's writes) (a damaged or crafted "
                        "database); nothing written");
  CHECK_THROWS_WITH(Store(dir.file("out3.db")).merge_from(expression),
                    Catch::Contains("it has an index 'slow' on an expression"));
  CHECK_THROWS_WITH(Store(fresh("partial.db", "CREATE INDEX p ON samples(metric) WHERE value > 0")),
                    Catch::Contains("it has an index 'p' on an expression or with a WHERE"));
  CHECK_THROWS_WITH(Store(fresh("check.db", "ALTER TABLE samples ADD COLUMN c INTEGER CHECK (" +
                                                endless + " >= 0)")),
                    Catch::Contains("its table 'samples' has a CHECK, ON CONFLICT or foreign key "
                                    "action that schedlab did not make"));
  // A UNIQUE ... ON CONFLICT REPLACE: each journal row written deleted the one before.
  CHECK_THROWS_WITH(
      Store(fresh("replace.db",
                  "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; "
                  "CREATE TABLE knob_journal (id INTEGER PRIMARY KEY, run_id INTEGER, host TEXT "
                  "NOT NULL, UNIQUE (host) ON CONFLICT REPLACE)")),
      Catch::Contains("its table 'knob_journal' has a CHECK, ON CONFLICT or foreign key action"));
  // One of schedlab's CHECKs swapped for another (the count of them unchanged).
  CHECK_THROWS_WITH(
      Store(fresh("swapped.db",
                  "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; "
                  "CREATE TABLE knob_journal (id INTEGER PRIMARY KEY, run_id INTEGER, host TEXT "
                  "NOT NULL, merged INTEGER CHECK (" +
                      constant + " >= merged))")),
      Catch::Contains("its table 'knob_journal' has a CHECK, ON CONFLICT or foreign key action"));
  CHECK_THROWS_WITH(
      Store(fresh("commented.db",
                  "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; "
                  "CREATE TABLE knob_journal (id INTEGER PRIMARY KEY, host TEXT, merged INTEGER "
                  "CHECK/**/(length(host) >= 0))")),
      Catch::Contains("its table 'knob_journal' has a CHECK, ON CONFLICT or foreign key action"));
  CHECK_THROWS_WITH(
      Store(fresh("cascade.db",
                  "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; "
                  "CREATE TABLE knob_journal (id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES "
                  "runs(id) ON DELETE CASCADE)")),
      Catch::Contains("its table 'knob_journal' has a CHECK, ON CONFLICT or foreign key action"));
  CHECK_THROWS_WITH(
      Store(fresh("generated.db", "ALTER TABLE samples ADD COLUMN g INTEGER AS (" + endless + ")"),
            Store::Access::kReadOnly),
      Catch::Contains("its table 'samples' has a column 'g' generated from an expression"));
  CHECK_THROWS_WITH(
      Store(fresh("default.db",
                  "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; "
                  "CREATE TABLE knob_journal (id INTEGER PRIMARY KEY, run_id INTEGER, host TEXT "
                  "NOT NULL DEFAULT (" +
                      constant + "))")),
      Catch::Contains("its table 'knob_journal' has a column 'host' with a computed default"));
  // A column of one's own with a plain default is left alone.
  CHECK_NOTHROW(Store(fresh("plain.db", "ALTER TABLE runs ADD COLUMN note TEXT DEFAULT 'x'")));
  // A view of one's own under another name, and an index, are left alone.
  const std::string own = fresh("own.db",
                                "CREATE VIEW my_runs AS SELECT name FROM runs; CREATE INDEX "
                                "my_index ON samples (metric)");
  CHECK_NOTHROW(Store(own));
  CHECK_NOTHROW(Store(own, Store::Access::kReadOnly));
}

TEST_CASE(
    "a column's type, key or collation, or a unique key, schedlab did not make is refused "
    "(hostile14)") {
  test::TempDir dir;
  const auto fresh = [&](const std::string& name, const std::string& sql) {
    return crafted(dir, name, sql);
  };
  // runs.name under NOCASE: `rm SECOND` removed run 'second'.
  const std::string nocase = fresh(
      "nocase.db",
      "DROP TABLE runs; CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE "
      "NOCASE, config_path TEXT NOT NULL, config_text TEXT NOT NULL, config_sha256 TEXT NOT NULL, "
      "manifest_json TEXT NOT NULL DEFAULT '{}', status TEXT NOT NULL, started_at TEXT NOT NULL, "
      "ended_at TEXT)");
  const std::string why = nocase +
                          ": its table 'runs' has a column 'name' of a type, key or collation "
                          "schedlab did not make (TEXT 1 0 nocase: it would change what "
                          "schedlab's statements do) (a damaged or crafted database); nothing ";
  CHECK_THROWS_WITH(Store(nocase), why + "written");
  CHECK_THROWS_WITH(Store(nocase, Store::Access::kReadOnly), why + "read");
  CHECK_THROWS_WITH(Store(dir.file("out.db")).merge_from(nocase),
                    Catch::Contains("its table 'runs' has a column 'name'"));
  // An id that is no rowid (INT PRIMARY KEY): the rows a run journaled were never closed, and
  // restore wrote its knobs again after the run had.
  const std::string journal_as =
      "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE knob_journal; CREATE TABLE "
      "knob_journal (id ";
  const std::string rest =
      ", run_id INTEGER REFERENCES runs(id), host TEXT NOT NULL, kind TEXT NOT NULL)";
  CHECK_THROWS_WITH(Store(fresh("int.db", journal_as + "INT PRIMARY KEY" + rest)),
                    Catch::Contains("its table 'knob_journal' has a column 'id' of a type, key or "
                                    "collation schedlab did not make (INT 0 1 binary"));
  CHECK_THROWS_WITH(Store(fresh("desc.db", journal_as + "INTEGER PRIMARY KEY DESC" + rest)),
                    Catch::Contains("its table 'knob_journal' has a unique key or layout "
                                    "schedlab did not make (id binary,"));
  CHECK_THROWS_WITH(
      Store(fresh("without.db", journal_as + "INTEGER PRIMARY KEY" + rest + " WITHOUT ROWID")),
      Catch::Contains("its table 'knob_journal' has a column 'id' of a type, key or collation "
                      "schedlab did not make (INTEGER 1 1 binary"));
  // point_stops read in rowid order: its own key, without rowid.
  CHECK_THROWS_WITH(
      Store(fresh("stops.db",
                  "DROP TABLE point_stops; CREATE TABLE point_stops (run_id INTEGER NOT NULL, "
                  "variant_id INTEGER NOT NULL, workload TEXT NOT NULL, params_json TEXT NOT "
                  "NULL, PRIMARY KEY (run_id, variant_id, workload, params_json)) WITHOUT ROWID")),
      Catch::Contains("its table 'point_stops' has a unique key or layout schedlab did not make "
                      "(without rowid"));
  CHECK_THROWS_WITH(Store(fresh("notkey.db", journal_as + "INTEGER" + rest)),
                    Catch::Contains("has a column 'id' of a type, key or collation"));
  // A UNIQUE index: INSERT OR REPLACE of a run's point stops deleted the other runs' rows.
  const std::string unique =
      fresh("unique.db", "CREATE UNIQUE INDEX one ON point_stops (workload)");
  CHECK_THROWS_WITH(Store(unique),
                    unique +
                        ": its table 'point_stops' has a unique key or layout schedlab did not "
                        "make (workload binary,: it would change what schedlab's writes keep) (a "
                        "damaged or crafted database); nothing written");
  CHECK_THROWS_WITH(Store(dir.file("out2.db")).merge_from(unique),
                    Catch::Contains("its table 'point_stops' has a unique key"));
  // A declared type in other letters, and a unique index on a table of one's own, are left
  // alone.
  CHECK_NOTHROW(Store(fresh("own.db",
                            "CREATE TABLE mine (a TEXT); CREATE UNIQUE INDEX m ON mine (a); "
                            "CREATE TABLE t AS SELECT * FROM knob_journal; DROP TABLE "
                            "knob_journal; CREATE TABLE knob_journal (id integer PRIMARY KEY" +
                                rest + "")));
}

TEST_CASE(
    "a column named rowid, oid or _rowid_ in one of schedlab's tables is refused "
    "(hostile14 #7)") {
  // It hides the row id: `ORDER BY rowid` read the crafted column (-rowid).
  test::TempDir dir;
  for (const auto& [table, column] : std::vector<std::pair<std::string, std::string>>{
           {"samples", "rowid"}, {"metrics", "OID"}, {"point_stops", "_rowid_"}}) {
    const std::string path =
        crafted(dir, table + ".db", "ALTER TABLE " + table + " ADD COLUMN " + column + " INTEGER");
    const std::string why =
        path + ": its table '" + table + "' has a column '" + ascii_lower(column) +
        "', a name SQLite gives the row id (schedlab reads rows in row id order: it would change "
        "that order) (a damaged or crafted database); nothing ";
    CHECK_THROWS_WITH(Store(path), why + "written");
    CHECK_THROWS_WITH(Store(path, Store::Access::kReadOnly), why + "read");
  }
  // A table of one's own may have one.
  CHECK_NOTHROW(Store(crafted(dir, "mine.db", "CREATE TABLE mine (rowid INTEGER)")));
}

TEST_CASE(
    "a database of thousands of plain indexes is checked in time linear in them (hostile14)") {
  // A statement an index, each listing all its table's indexes: 3000 took
  // 6 s at every open (4000: 24 s; 40,000: past 8 minutes). Three times the
  // indexes must cost about three times the CPU (this process's, not the
  // clock's: the machine may be busy), not nine.
  test::TempDir dir;
  const auto open_cpu_s = [&](int indexes) {
    std::string sql = "BEGIN;";
    for (int i = 0; i < indexes; ++i)
      sql += "CREATE INDEX i" + std::to_string(i) + " ON samples (metric, value);";
    const std::string path = crafted(dir, std::to_string(indexes) + ".db", sql + "COMMIT;");
    const std::clock_t start = std::clock();
    CHECK_NOTHROW(Store(path, Store::Access::kReadOnly));
    return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  };
  const double small = open_cpu_s(1000), large = open_cpu_s(3000);
  INFO("1000 indexes: " << small << " s of CPU, 3000: " << large << " s");
  CHECK(large < 5 * small + 0.05);
}

TEST_CASE("processes opening a new database at the same time migrate it once") {
  // A nightly runner and a reader (history, a test polling progress) may
  // open a fresh file together; each connection here is what a process has.
  test::TempDir dir;
  for (int round = 0; round < 20; ++round) {
    const std::string path = dir.file("race" + std::to_string(round) + ".db");
    std::atomic<int> failures{0};
    std::mutex m;
    std::string why;
    std::vector<std::thread> openers;
    for (int i = 0; i < 4; ++i)
      openers.emplace_back([&] {
        try {
          Store s(path);
          if (s.schema_version() != Store::kSchemaVersion) ++failures;
        } catch (const StoreError& e) {
          ++failures;
          const std::lock_guard lock(m);
          why = e.what();
        }
      });
    for (auto& t : openers) t.join();
    INFO(why);
    CHECK(failures == 0);
  }
}
