// Store::merge_from: the databases of two pairs (as two Slurm tasks write
// them) joined into one run; merging again changes nothing; conflicts are
// refused with the output left as it was.
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "base/file.h"
#include "base/hash.h"
#include "results/iterations_table.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/decided_stop.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/task_db.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::write_task_db;

namespace {

// A, then B, merged into ab.db, and B, then A, into ba.db: the second merge
// of each is refused with a message MATCHING. Returns ab.db and ba.db.
template <class Matcher>
std::vector<std::string> refused_either_way(const test::TempDir& dir, const std::string& a,
                                            const std::string& b, const Matcher& matching) {
  std::vector<std::string> outs;
  for (const auto& [first, second] : {std::pair{a, b}, std::pair{b, a}}) {
    outs.push_back(dir.file(first == a ? "ab.db" : "ba.db"));
    Store merged(outs.back());
    merged.merge_from(first);
    CHECK_THROWS_WITH(merged.merge_from(second), matching);
  }
  return outs;
}

std::int64_t count(const std::string& db, const char* sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const auto n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

void exec(const std::string& db, const char* sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
}

// What a file and the files SQLite would leave beside it are: its bytes'
// hash, its mtime, and which of -wal, -shm, -journal exist.
std::string file_state(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  std::string out = sha256_file(path) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
                    std::to_string(st.st_mtim.tv_nsec);
  for (const char* suffix : {"-wal", "-shm", "-journal"})
    if (std::filesystem::exists(path + suffix)) out += std::string(" ") + suffix;
  return out;
}

// A task's database a.db (pair n1, one iteration) changed by SQL, merged
// into out.db: refused with a message MATCHING, out.db left without a run.
// Returns a.db.
template <class Matcher>
std::string refused_after(const test::TempDir& dir, const char* sql, const Matcher& matching) {
  const auto a = dir.file("a.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 1);
  exec(a, sql);
  {
    Store merged(out);
    CHECK_THROWS_WITH(merged.merge_from(a), matching);
  }
  CHECK(count(out, "SELECT count(*) FROM runs") == 0);
  return a;
}

// Task databases a.db (pair n1) and b.db (pair PAIR_B) of ITERATIONS
// each, b.db then changed by SQL.
std::pair<std::string, std::string> task_dbs_b_changed(const test::TempDir& dir,
                                                       const std::string& pair_b, int iterations,
                                                       const char* sql) {
  const auto a = dir.file("a.db"), b = dir.file("b.db");
  write_task_db(a, "n1", iterations);
  write_task_db(b, pair_b, iterations);
  exec(b, sql);
  return {a, b};
}

// Back to schema version 9 (tests/support/schema_version_9.h).
void to_version_9(const std::string& db) {
  exec(db, (std::string(test::kBackToSchemaVersion9) + "; PRAGMA journal_mode = DELETE").c_str());
}

}  // namespace

TEST_CASE(
    "merge: a 0-byte file, another program's database or a FIFO is refused and left as it was") {
  test::TempDir dir;
  const auto out = dir.file("out.db"), empty = dir.file("empty.db"), other = dir.file("other.db");
  const auto numbered = dir.file("numbered.db"), fifo = dir.file("fifo.db"),
             junk = dir.file("junk.db");
  test::write_text(empty, "");
  exec(other, "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x')");
  // Another program that numbers its schema too (user_version 5).
  exec(numbered, "CREATE TABLE notes (body TEXT); PRAGMA user_version = 5");
  test::write_text(junk, std::string(4096, 'j'));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  write_task_db(dir.file("good.db"), "n1", 1);
  Store merged(out);
  merged.merge_from(dir.file("good.db"));
  const auto out_before = count(out, "SELECT count(*) FROM iterations");

  for (const auto& [input, why] : std::vector<std::pair<std::string, std::string>>{
           {empty,
            "not a schedlab database (no schedlab schema version: an empty file or "
            "another program's SQLite database); nothing merged"},
           {other, "not a schedlab database (no schedlab schema version"},
           {numbered, "schema version 5"},
           {junk, "cannot open database: file is not a database"},
           {fifo, "not a regular file; nothing merged"}}) {
    INFO(input);
    const std::string before = input == fifo ? "" : file_state(input);
    CHECK_THROWS_WITH(Store::check_mergeable(input),
                      Catch::Contains(input + ": ") && Catch::Contains(why));
    CHECK_THROWS_WITH(merged.merge_from(input), Catch::Contains(why));
    if (input != fifo) CHECK(file_state(input) == before);
  }
  CHECK(read_file(empty).empty());
  CHECK(count(other, "SELECT count(*) FROM sqlite_master") == 1);
  CHECK(count(out, "SELECT count(*) FROM iterations") == out_before);
}

TEST_CASE("merge: a database missing a table or column of the schema is not merged") {
  test::TempDir dir;
  const auto a =
      refused_after(dir, "ALTER TABLE samples DROP COLUMN offset_s",
                    Catch::Contains("not a schedlab database of schema version " +
                                    std::to_string(Store::kSchemaVersion) +
                                    " (table samples has no column offset_s); nothing merged"));
  exec(a, "DROP TABLE point_stops");
  CHECK_THROWS_WITH(Store::check_mergeable(a), Catch::Contains("(no table point_stops)"));
}

TEST_CASE("merge: an older schedlab database is migrated in a copy; the input is not written") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 2);
  to_version_9(a);
  const std::string before = file_state(a);
  // The copy goes to TMPDIR: here, a folder of this test's own.
  const auto tmp = dir.path() / "tmp";
  std::filesystem::create_directories(tmp);
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  Store merged(out);
  Store::check_mergeable(a);
  const auto c = merged.merge_from(a);
  if (old_tmpdir)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  CHECK(c.iterations_new == 4);
  CHECK(c.samples == 4);
  CHECK(file_state(a) == before);
  CHECK(count(a, "PRAGMA user_version") == 9);
  CHECK(std::filesystem::is_empty(tmp));  // the copies are gone
}

TEST_CASE("merge: two copies of one run whose samples differ are refused in either order") {
  test::TempDir dir;
  // The same iterations (start, status, duration, output), one sample changed.
  const auto [a, b] =
      task_dbs_b_changed(dir, "n1", 2, "UPDATE samples SET value = value + 0.5 WHERE rowid = 3");
  for (const auto& out : refused_either_way(dir, a, b,
                                            Catch::Contains("iteration 0 of run 'fleet'") &&
                                                Catch::Contains("(its samples); nothing merged")))
    CHECK(count(out, "SELECT count(*) FROM samples") == 4);
  // A sample more (the same values otherwise) differs too, and so does a monitor delta.
  const auto c = dir.file("c.db"), d = dir.file("d.db");
  write_task_db(c, "n1", 2);
  exec(c,
       "INSERT INTO samples (iteration_id, metric, value) SELECT iteration_id, metric, value "
       "FROM samples WHERE rowid = 1");
  write_task_db(d, "n1", 2);
  exec(d, "UPDATE monitor_deltas SET value = 99 WHERE rowid = 2");
  for (const auto& [input, why] :
       {std::pair{c, "(its samples)"}, std::pair{d, "(its monitor deltas)"}}) {
    Store merged(dir.file("x" + std::filesystem::path(input).stem().string() + ".db"));
    merged.merge_from(a);
    CHECK_THROWS_WITH(merged.merge_from(input), Catch::Contains(why));
  }
}

TEST_CASE("merge: the same samples stored in another order are the same iteration") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), b = dir.file("b.db");
  for (const auto& db : {a, b}) {
    write_task_db(db, "n1", 2);
    exec(db, "INSERT INTO samples (iteration_id, metric, value) SELECT iteration_id, metric, "
             "value + 1 FROM samples");
  }
  // b's rows written the other way round.
  exec(b, "CREATE TABLE t AS SELECT * FROM samples ORDER BY rowid DESC; DELETE FROM samples;"
          "INSERT INTO samples SELECT * FROM t ORDER BY rowid; DROP TABLE t");
  Store merged(dir.file("out.db"));
  merged.merge_from(a);
  const auto again = merged.merge_from(b);
  CHECK(again.iterations_new == 0);
  CHECK(again.iterations_present == 4);
}

TEST_CASE("merge: a metric declared otherwise is refused in either order") {
  test::TempDir dir;
  const auto [a, b] = task_dbs_b_changed(dir, "n2", 1, "UPDATE metrics SET direction = 'higher'");
  refused_either_way(dir, a, b,
                     Catch::Contains("metric hackbench time of run 'fleet' is declared otherwise"));
}

TEST_CASE("merge: a metric whose direction or kind is none of ours is refused, not dropped") {
  test::TempDir dir;
  refused_after(
      dir, "PRAGMA ignore_check_constraints = ON; UPDATE metrics SET kind = 'slices'",
      Catch::Contains("metric hackbench time of run 'fleet' has direction 'lower' and kind "
                      "'slices': not both words of ours; nothing merged"));
}

TEST_CASE("merge: two pairs' databases become one run with both pairs, and merging again adds nothing") {
  test::TempDir dir;
  const auto a = dir.file("task-0.db"), b = dir.file("task-1.db"), out = dir.file("merged.db");
  write_task_db(a, "n1", 3);
  write_task_db(b, "n2", 2, "sha-1", 5.0);
  Store merged(out);
  const auto first = merged.merge_from(a);
  CHECK(first.runs_new == 1);
  CHECK(first.runs_joined == 0);
  CHECK(first.iterations_new == 6);
  CHECK(first.samples == 6);
  const auto second = merged.merge_from(b);
  CHECK(second.runs_new == 0);
  CHECK(second.runs_joined == 1);
  CHECK(second.iterations_new == 4);
  CHECK(second.iterations_present == 0);

  const auto run = merged.runs_table().find_run_by_name("fleet");
  REQUIRE(run);
  CHECK(run->status == RunStatus::kFinished);
  CHECK(run->started_at == "2026-12-03T09:00:00Z");  // the earlier of the two
  CHECK(run->manifest_json.find(R"("pair_order":["n1","n2"])") != std::string::npos);
  CHECK(run->manifest_json.find(R"("n2":{"sut":"ssh://n2"})") != std::string::npos);
  REQUIRE(merged.variants_table().variants(run->id).size() == 2);  // joined by name, not doubled
  const auto its = merged.iterations_table().iterations(run->id, true);
  REQUIRE(its.size() == 10);
  int on_n2 = 0;
  for (const auto& it : its) {
    REQUIRE(it.samples.size() == 1);
    if (it.pair == "n2") {
      ++on_n2;
      CHECK(it.samples[0].value >= 5.0);
    }
  }
  CHECK(on_n2 == 4);
  CHECK(count(out, "SELECT count(*) FROM monitor_deltas") == 10);
  CHECK(count(out, "SELECT count(*) FROM monitor_snapshots") == 10);
  CHECK(count(out, "SELECT count(*) FROM knob_journal WHERE state = 'restored'") == 2);
  CHECK(count(out, "SELECT count(*) FROM point_stops") == 1);  // same point, same variant
  // An iteration's notes travel with it (netperf's confidence not reached).
  CHECK(count(out, "SELECT count(*) FROM iterations WHERE notes = 'note of iteration 0'") == 4);

  // Again, both: nothing new, nothing doubled.
  const auto again = merged.merge_from(a);
  CHECK(again.iterations_new == 0);
  CHECK(again.iterations_present == 6);
  CHECK(merged.merge_from(b).iterations_new == 0);
  CHECK(count(out, "SELECT count(*) FROM iterations") == 10);
  CHECK(count(out, "SELECT count(*) FROM samples") == 10);
  CHECK(count(out, "SELECT count(*) FROM knob_journal") == 2);
  CHECK(count(out, "SELECT count(*) FROM runs") == 1);
}

TEST_CASE("merge: a run of the same name with another config is refused, and nothing is written") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 2);
  write_task_db(b, "n2", 2, "sha-other");
  Store merged(out);
  merged.merge_from(a);
  CHECK_THROWS_WITH(merged.merge_from(b), Catch::Contains("run 'fleet' is also in") &&
                                              Catch::Contains("with another config") &&
                                              Catch::Contains("nothing merged"));
  CHECK(count(out, "SELECT count(*) FROM iterations") == 4);
  CHECK(count(out, "SELECT count(*) FROM knob_journal") == 1);
  merged.merge_from(a);  // the connection is usable afterwards (src detached)
}

TEST_CASE("merge: an iteration that differs from the one already there is refused") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 2);
  write_task_db(b, "n1", 3, "sha-1", 7.0);  // same pair, other outputs
  Store merged(out);
  merged.merge_from(a);
  CHECK_THROWS_WITH(merged.merge_from(b), Catch::Contains("iteration 0 of run 'fleet'") &&
                                              Catch::Contains("pair 'n1'") &&
                                              Catch::Contains("differs"));
  CHECK(count(out, "SELECT count(*) FROM iterations") == 4);
}

TEST_CASE("merge: an input of a newer schema, or not a database, is an error before anything is written") {
  test::TempDir dir;
  refused_after(dir, "PRAGMA user_version = 99", Catch::Contains("schema version 99 is newer"));
  CHECK_THROWS_WITH(Store::check_mergeable(dir.file("missing.db")),
                    Catch::Contains("no database at"));
  // A loop of links is said to be one (hostile16: "no database at").
  std::filesystem::create_symlink(dir.file("loop.db"), dir.file("loop.db"));
  CHECK_THROWS_WITH(Store::check_mergeable(dir.file("loop.db")),
                    dir.file("loop.db") +
                        ": cannot be resolved: a loop of symbolic links (or too "
                        "many of them); nothing merged");
}

TEST_CASE("merge: an input still marked running is merged as interrupted, and its cells are recomputed") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 2);
  write_task_db(b, "n2", 1);
  {
    Store s(b);
    s.runs_table().set_run_status(s.runs_table().find_run_by_name("fleet")->id, RunStatus::kRunning,
                                  false);
  }
  Store merged(out);
  merged.merge_from(a);
  exec(out,
       "INSERT INTO cell_summary_marks (run_id, workload, metric, version) "
       "VALUES (1, 'hackbench', 'time', 1)");
  merged.merge_from(b);
  const auto run = merged.runs_table().find_run_by_name("fleet");
  CHECK(run->status == RunStatus::kInterrupted);  // the least finished part
  CHECK(count(out, "SELECT count(*) FROM cell_summary_marks") == 0);  // stale cells dropped
}

TEST_CASE("merge: a task's database merged while it ran, then once it finished, leaves the run finished") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), b = dir.file("b.db"), partial = dir.file("b-partial.db");
  const auto out = dir.file("out.db");
  write_task_db(a, "n1", 2);
  write_task_db(b, "n2", 3);
  // What b held while its task still ran: the run running, its last iteration not yet there.
  std::filesystem::copy_file(b, partial);
  exec(partial,
       "DELETE FROM samples WHERE iteration_id IN (SELECT id FROM iterations WHERE iteration = 2);"
       "DELETE FROM monitor_snapshots WHERE iteration_id IN (SELECT id FROM iterations WHERE iteration = 2);"
       "DELETE FROM monitor_deltas WHERE iteration_id IN (SELECT id FROM iterations WHERE iteration = 2);"
       "DELETE FROM iterations WHERE iteration = 2; UPDATE runs SET status = 'running', ended_at = NULL");
  Store merged(out);
  merged.merge_from(a);
  merged.merge_from(partial);
  CHECK(merged.runs_table().find_run_by_name("fleet")->status == RunStatus::kInterrupted);
  CHECK(merged.merge_from(b).iterations_new == 2);  // n2's third iteration, both variants
  const auto run = merged.runs_table().find_run_by_name("fleet");
  CHECK(run->status == RunStatus::kFinished);
  CHECK(run->manifest_json.find(R"("merged_parts":{"n1":"finished","n2":"finished"})") != std::string::npos);
  CHECK(merged.iterations_table().iterations(run->id, false).size() == 10);
}

TEST_CASE("merge copies a point's sequential test with its stop row") {
  test::TempDir dir;
  const auto a = dir.file("seq.db"), out = dir.file("merged.db");
  write_task_db(a, "n1", 3);
  {
    Store s(a);
    const auto run = s.runs_table().find_run_by_name("fleet");
    const auto v1 = s.variants_table().variants(run->id)[1].id;
    PointStop decided =
        test::decided_stop(run->id, v1, "hackbench", R"({"groups":2})", 3, "different", 1, 0.01);
    decided.sequential->ci_low = 4.0;
    decided.sequential->ci_high = 9.0;
    decided.sequential->looks_json = R"([{"n":3}])";
    s.point_stops_table().record_point_stop(decided);
  }
  Store merged(out);
  merged.merge_from(a);
  const auto run = merged.runs_table().find_run_by_name("fleet");
  const auto stops = merged.point_stops_table().point_stops(run->id);
  REQUIRE(stops.size() == 2);
  const auto seq = std::find_if(stops.begin(), stops.end(), [](const PointStop& p) { return p.sequential.has_value(); });
  REQUIRE(seq != stops.end());
  CHECK(seq->sequential->decision == "different");
  CHECK(*seq->sequential->ci_high == 9.0);
  CHECK(seq->sequential->looks_json == R"([{"n":3}])");
  CHECK(seq->variant_id == merged.variants_table().variants(run->id)[1].id);
}

TEST_CASE("merge: an iteration whose status is none of ours is refused, naming it (issue 44)") {
  refused_after(test::TempDir(),
                "PRAGMA ignore_check_constraints = ON; "
                "UPDATE iterations SET status = 'pwned' WHERE id = 2",
                Catch::Contains("a.db: iteration 0 (id 2) of run 'fleet' has status 'pwned': not "
                                "a word of ours; nothing merged"));
}

TEST_CASE("merge: an iteration number or exit code past an int is refused, naming it") {
  // Hostile pass 3: read back cut to its low 32 bits.
  refused_after(test::TempDir(), "UPDATE iterations SET iteration = 4294967296 WHERE id = 2",
                Catch::Contains("a.db: iteration 4294967296 (id 2) of run 'fleet' cannot be read "
                                "back: iteration 4294967296 is out of range; nothing merged"));
  refused_after(test::TempDir(), "UPDATE iterations SET exit_code = -4294967296 WHERE id = 1",
                Catch::Contains("a.db: iteration 0 (id 1) of run 'fleet' cannot be read "
                                "back: exit_code -4294967296 is out of range; nothing merged"));
}

TEST_CASE(
    "merge: an iteration of a variant the input does not have is refused, not dropped "
    "(issue 44)") {
  refused_after(test::TempDir(), "UPDATE iterations SET variant_id = 77 WHERE id = 1",
                Catch::Contains("a.db: iteration 0 (id 1) of run 'fleet' names variant id 77, no "
                                "variant of its run; nothing merged"));
  refused_after(test::TempDir(), "UPDATE iterations SET run_id = 9 WHERE id = 1",
                Catch::Contains("a.db: iteration 0 (id 1) of run '#9' names no run of the input; "
                                "nothing merged"));
}

TEST_CASE("merge: samples that overflow or are no number are refused, naming the row (issue 44)") {
  refused_after(test::TempDir(), "UPDATE samples SET value = 9e999 WHERE iteration_id = 2",
                Catch::Contains("a.db: iteration 0 (id 2) of run 'fleet' has a sample of time "
                                "that is no sample: inf is not finite; nothing merged"));
  refused_after(test::TempDir(), "UPDATE samples SET value = 1e308",
                Catch::Contains("a.db: iteration 0 (id 1) of run 'fleet' has a sample of time "
                                "that is no sample: 1e+308 is outside +-1e+150; nothing merged"));
  refused_after(test::TempDir(), "UPDATE samples SET value = -9e999", Catch::Contains("-inf is not finite"));
  refused_after(test::TempDir(), "UPDATE samples SET value = 'fast'", Catch::Contains("nan is not finite"));
  refused_after(test::TempDir(), "UPDATE samples SET value = X'00'",
                Catch::Contains("nan is not finite"));
  refused_after(test::TempDir(), "UPDATE monitor_deltas SET value = 9e999 WHERE rowid = 1",
                Catch::Contains("a.db: iteration 0 (id 1) of run 'fleet' has a stat delta of ctxt "
                                "that is no count: inf is not finite; nothing merged"));
  refused_after(test::TempDir(), "UPDATE samples SET offset_s = 9e999",
                Catch::Contains("its offset inf is not finite; nothing merged"));
}

TEST_CASE("merge: an input whose manifest nests 300,000 deep is read as unreadable, not a crash") {
  test::TempDir dir;
  const auto a = dir.file("a.db"), out = dir.file("out.db");
  write_task_db(a, "n1", 1);
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  exec(a, ("UPDATE runs SET manifest_json = '{\"kernel\":" + deep + "}'").c_str());
  Store merged(out);
  CHECK_NOTHROW(merged.merge_from(a));
  CHECK(count(out, "SELECT count(*) FROM runs") == 1);
}
