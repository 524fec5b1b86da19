// What merge refuses in an input because a reader of the merged database
// would refuse it later (runner/cli/merge_checks.h), and those readers
// (compare, report, run --resume) on the same crafted rows: the sixth
// hostile pass of issue 44, findings 11, 12, 27, 32, 33 and 39, each on
// the input its reproduction used.
#include <fmt/format.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <span>
#include <string>

#include "base/base64.h"
#include "base/compression.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/decided_stop.h"
#include "tests/support/one_line.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

using test::schedlab_cmd;

// seq.yaml's run as it stored it: "seq1", variants a (the baseline) and b
// of workload echoer, metric t, three ok iterations each, b's stop decided
// by its sequential test; perf profiles in a's first two iterations when
// PROFILES holds their counts.
void write_seq_db(const std::string& db, const std::vector<std::string>& profiles = {}) {
  Store s(db);
  const auto run = test::plain_run(s, "seq1");
  s.metrics_table().add_metric(
      run, {"echoer", "t", "", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  std::int64_t b = 0;
  for (int k = 0; k < 2; ++k) {
    const auto v = s.variants_table().add_variant({0, run, k ? "b" : "a", k, "{}"});
    b = v;
    for (int i = 0; i < 3; ++i) {
      IterationRow it = test::plain_iteration(run, v, "echoer");
      it.iteration = i;
      it.samples = {{"t", 100.0 + i + 5 * k, std::nullopt}};
      if (k == 0 && i < static_cast<int>(profiles.size()))
        it.monitor_snapshots = {{0, "perf-profile", "after",
                                 "perf script (folded stacks, gzip+base64)",
                                 base64_encode(gzip("w;main " + profiles[i] + "\n"))}};
      s.iterations_table().add_iteration(it);
    }
  }
  PointStop stop = test::decided_stop(run, b, "echoer", "{}", 3, "different", 2, 0.197);
  stop.sequential->metric = "t";
  stop.sequential->level = 0.51;
  stop.sequential->design_json =
      R"({"alpha":0.49,"max":10,"min":3,"min_effect_pct":3.0,"power":0.51,"spending":"obf"})";
  s.point_stops_table().record_point_stop(stop);
}

void exec(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err);
  INFO((err ? err : ""));
  sqlite3_free(err);
  sqlite3_close(h);
  REQUIRE(rc == SQLITE_OK);
}

// merge OUT IN refused with WHY (one line), nothing written.
void check_refused(const std::string& in, const std::string& why) {
  const std::string out = in + ".out";
  const auto r = schedlab_cmd({"merge", out, in});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find(test::one_line(why)) != std::string::npos);
  CHECK(test::one_line(r.err).find("; nothing merged") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

// For each {SET, WHY} of CRAFTED: a fresh seq.db changed by UPDATE (its
// SET clause as {}), which merge refuses with WHY.
void check_each_refused(const test::TempDir& dir, const char* update,
                        std::span<const std::pair<const char*, const char*>> crafted) {
  for (const auto& [set, why] : crafted) {
    const std::string in = dir.file(fmt::format("in{}.db", &set - &crafted[0].first));
    write_seq_db(in);
    exec(in, fmt::format(fmt::runtime(update), set));
    INFO(set);
    check_refused(in, why);
  }
}

}  // namespace

TEST_CASE("merge: a stored point stop the readers refuse is refused, naming run and field") {
  test::TempDir dir;
  const std::string good = dir.file("good.db");
  write_seq_db(good);
  REQUIRE(schedlab_cmd({"merge", dir.file("good.out"), good}).ok());
  const std::pair<const char*, const char*> crafted[] = {
      {"seq_p_value = 9e999",
       "run 'seq1' cannot be read back: run 1: the stop of echoer has "
       "seq_p_value inf: not a finite number"},
      {"seq_p_value = 7", "has p-value 7: not in [0, 1]"},
      // hostile7: compare printed it as "51% interval [+50.00%, -50.00%]".
      {"seq_ci_low = 50, seq_ci_high = -50",
       "has ci_low 50 above its ci_high -50: not an interval"},
      {"seq_level = 7", "the stop of echoer has seq_level 7: not a level between 0 and 1"},
      {"seq_looks = 1e11", "the stop of echoer has seq_looks 100000000000: not a count"},
      {"seq_design_json = 'not json'",
       "run 'seq1' cannot be read back: run 1: the stored "
       "sequential test of variant id 2 at echoer {} is not a "
       "JSON object"},
      // hostile8 A18: copied by merge before.
      {"seq_design_json = json_set(seq_design_json, '$.min', 30, '$.max', 12)",
       "has min 30 above its max 12: no iteration count is both"},
      {"seq_metric = 'x' || char(27) || ']0;p' || char(7)",
       "judged metric 'x\\x1b]0;p\\x07': no metric of its run at that workload"},
  };
  check_each_refused(dir, "UPDATE point_stops SET {} WHERE seq_metric IS NOT NULL", crafted);
}

TEST_CASE(
    "compare: a stored sequential test judging no metric of its run is refused, not dropped") {
  test::TempDir dir;
  const std::string db = dir.file("seq.db");
  write_seq_db(db);
  const auto fine = schedlab_cmd({"compare", "seq1", "--db", db});
  INFO(fine.err);
  REQUIRE(fine.ok());
  CHECK(fine.out.find("stop: sequential") != std::string::npos);
  exec(db,
       "UPDATE point_stops SET seq_metric = char(27) || ']0;p' || char(7) "
       "WHERE seq_metric IS NOT NULL");
  const auto r = schedlab_cmd({"compare", "seq1", "--db", db});
  CHECK_FALSE(r.ok());
  CHECK(test::one_line(r.err).find(
            "the stored sequential test of variant id 2 at echoer {} judged metric "
            "'\\x1b]0;p\\x07': no metric of its run at that workload") != std::string::npos);
}

TEST_CASE("merge: a run whose start or end is no time is refused (hostile7)") {
  // merge keeps min(started_at) of a run from two pairs: '' or 'yesterday'
  // won, and history and Otava's export ordered by it.
  test::TempDir dir;
  const std::pair<const char*, const char*> crafted[] = {
      {"started_at = 'yesterday'", "run 'seq1' has started_at 'yesterday': not a UTC time"},
      {"started_at = ''", "run 'seq1' has started_at '': not a UTC time"},
      {"ended_at = '2026-13-01T00:00:00Z'",
       "run 'seq1' has ended_at '2026-13-01T00:00:00Z': not a UTC time"},
  };
  check_each_refused(dir, "UPDATE runs SET {}", crafted);
}

TEST_CASE("merge and resume: a manifest's monitor_cpu_s that is no CPU time is refused") {
  test::TempDir dir;
  const std::pair<const char*, const char*> crafted[] = {
      {R"({"monitor_cpu_s":{"stat":-100}})",
       "run 'seq1' is refused: its manifest's monitor_cpu_s has stat -100: not CPU seconds in "
       "[0, 1e+12]"},
      {R"({"monitor_cpu_s":{"stat":1.7e308}})",
       "its manifest's monitor_cpu_s has stat 1.7e+308: not CPU"},
      {R"({"monitor_cpu_s":{"stat":1e999}})",
       "run 'seq1' is refused: its manifest is not JSON (a number past a double, such as "
       "1e999?)"},
      {R"({"monitor_cpu_s":[1]})", "its manifest's monitor_cpu_s is [1], not an object"},
  };
  for (const auto& [manifest, why] : crafted) {
    INFO(manifest);
    const std::string in = dir.file(fmt::format("in{}.db", &manifest - &crafted[0].first));
    write_seq_db(in);
    exec(in, fmt::format("UPDATE runs SET manifest_json = '{}', status = 'interrupted'", manifest));
    check_refused(in, why);
    const auto r = schedlab_cmd({"run", "--resume", "seq1", "--db", in});
    CHECK(r.exit_code == 2);
    CHECK(test::one_line(r.err).find("run 1 'seq1' cannot be resumed:") != std::string::npos);
    CHECK(test::one_line(r.err).find(test::one_line(why).substr(
              test::one_line(why).find("its manifest"))) != std::string::npos);
  }
}

TEST_CASE("merge: run and variant names get the checks they get on write") {
  test::TempDir dir;
  const std::pair<const char*, const char*> crafted[] = {
      {"UPDATE variants SET name = 'a' || char(10) || 'b' WHERE name = 'a'",
       "run 'seq1' has a variant 'a\\x0ab' no variant may be called: it holds a control "
       "character (U+000A at byte 1)"},
      {"UPDATE runs SET name = 'r' || char(27) || '[2J'",
       "run 'r\\x1b[2J' has a name no run may be given: it holds a control character (U+001B "
       "at byte 1)"},
      {"UPDATE runs SET name = '12'", "run '12' has a name no run may be given: it is all digits"},
  };
  for (const auto& [sql, why] : crafted) {
    INFO(sql);
    const std::string in = dir.file(fmt::format("in{}.db", &sql - &crafted[0].first));
    write_seq_db(in);
    exec(in, sql);
    check_refused(in, why);
  }
}

TEST_CASE("report and merge: a column's profiles whose samples summed overflow are refused") {
  // Two profiles, 2^64-1 and 2 samples, each loading alone: summed, they
  // wrapped to 1 sample and shares of 1.8e21 percentage points.
  test::TempDir dir;
  const std::string db = dir.file("prof.db");
  write_seq_db(db, {"18446744073709551615", "2"});
  const auto r = schedlab_cmd({"report", "seq1", "--db", db, "-o", dir.file("r.html")});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab report: run seq1 variant a b 1 iteration 1 (id 2): the column's "
                       "profiles summed (its iterations' samples in all) overflow a 64-bit "
                       "count\n"));
  CHECK_FALSE(std::filesystem::exists(dir.file("r.html")));
  check_refused(db,
                "run seq1 iteration id 2: with the other profiles of its variant (variant id "
                "1) summed, the samples overflow a 64-bit count");
  // Each alone is fine.
  const std::string one = dir.file("one.db");
  write_seq_db(one, {"18446744073709551615"});
  CHECK(schedlab_cmd({"report", "seq1", "--db", one, "-o", dir.file("one.html")}).ok());
}

TEST_CASE("merge: an input of an older schema is checked in its migrated copy, and merged") {
  // The checks open the input as the readers do: one of schema 9 cannot be
  // opened read-only as it is, only once migrated (in a temporary copy).
  test::TempDir dir;
  const std::string old = dir.file("old.db"), bad = dir.file("bad.db");
  write_seq_db(old);
  exec(old, test::kBackToSchemaVersion9);
  // The copy is made in a folder of its own under TMPDIR, and goes with it.
  const std::string tmp = dir.file("tmp");
  std::filesystem::create_directory(tmp);
  const auto r = schedlab_cmd({"merge", dir.file("out.db"), old}, {{"TMPDIR", tmp}});
  INFO(r.err);
  CHECK(r.ok());
  CHECK(std::filesystem::is_empty(tmp));
  write_seq_db(bad);
  exec(bad, "UPDATE variants SET name = 'a' || char(10) WHERE name = 'a'");
  exec(bad, test::kBackToSchemaVersion9);
  check_refused(bad, "run 'seq1' has a variant 'a\\x0a' no variant may be called");
}

TEST_CASE("merge: a perf-stat count below 0 is refused, naming run, iteration and counter") {
  // hostile9: a crafted database's perf-stat context-switches of 100 and
  // -294 merged, and compare --changed printed -394.0%.
  test::TempDir dir;
  const std::string in = dir.file("neg.db");
  write_seq_db(in);
  exec(in,
       "INSERT INTO monitor_deltas VALUES (1, 'perf-stat', 'context-switches', 100), "
       "(4, 'perf-stat', 'context-switches', -294)");
  check_refused(in,
                "run 'seq1' has a perf-stat count of context-switches (iteration id 4) that is no "
                "count: -294 is negative: no count is");
  // A vmstat gauge's delta may be below 0: not a perf-stat count.
  const std::string gauge = dir.file("gauge.db");
  write_seq_db(gauge);
  exec(gauge, "INSERT INTO monitor_deltas VALUES (4, 'vmstat', 'nr_free_pages', -294)");
  CHECK(schedlab_cmd({"merge", gauge + ".out", gauge}).ok());
}

TEST_CASE("merge: a perf-profile share outside 0-100 is refused, naming run, iteration and row") {
  // hostile11: a crafted database's shares of 500 and -50 were merged.
  test::TempDir dir;
  const std::string big = dir.file("big.db"), neg = dir.file("neg.db"), ok = dir.file("ok.db");
  write_seq_db(big);
  exec(big,
       "INSERT INTO monitor_deltas VALUES (1, 'perf-profile', 'children.hot', 100), "
       "(4, 'perf-profile', 'children.hot', 500)");
  check_refused(big,
                "run 'seq1' has a perf-profile share of children.hot (iteration id 4) that is no "
                "share: 500 is outside 0-100: no share is");
  write_seq_db(neg);
  exec(neg, "INSERT INTO monitor_deltas VALUES (4, 'perf-profile', 'self.hot', -50)");
  check_refused(neg,
                "run 'seq1' has a perf-profile share of self.hot (iteration id 4) that is no "
                "share: -50 is outside 0-100: no share is");
  write_seq_db(ok);
  exec(ok, "INSERT INTO monitor_deltas VALUES (4, 'perf-profile', 'children.main', 100)");
  CHECK(schedlab_cmd({"merge", ok + ".out", ok}).ok());
}
