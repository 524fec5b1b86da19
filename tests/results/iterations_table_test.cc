#include "results/iterations_table.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/raw_sql.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// An ok netperf UDP_STREAM iteration with its NOTES and throughput VALUE.
IterationRow netperf_iteration(std::int64_t run, std::int64_t variant, int iteration,
                               const std::string& notes, double value) {
  IterationRow it = test::plain_iteration(run, variant, "netperf");
  it.block = "netperf-UDP_STREAM";
  it.row = "default";
  it.iteration = iteration;
  it.notes = notes;
  it.samples = {{"throughput", value, std::nullopt}};
  return it;
}

}  // namespace

TEST_CASE("the same iteration cannot be stored twice") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  auto run = s.runs_table().create_run(
      {.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v);
  s.iterations_table().add_iteration(it);
  CHECK_THROWS_AS(s.iterations_table().add_iteration(it), StoreError);
  CHECK(s.iterations_table().iterations(run).size() == 1);  // the failed insert rolled back whole
}

TEST_CASE(
    "iterations record their pair, numbered per pair, and pairs write their own manifest parts") {
  test::TempDir dir;
  Store s(dir.file("p.db"));
  const auto run = s.runs_table().create_run({.name = "p",
                                              .config_path = "x",
                                              .config_text = "",
                                              .config_sha256 = "",
                                              .manifest_json = R"({"order":"interleaved"})"});
  const auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v);
  it.pair = "rack1";
  s.iterations_table().add_iteration(it);
  it.pair = "rack2";
  s.iterations_table().add_iteration(it);  // the same index on another pair
  CHECK_THROWS_AS(s.iterations_table().add_iteration(it), StoreError);
  const auto its = s.iterations_table().iterations(run);
  REQUIRE(its.size() == 2);
  CHECK(its[0].pair == "rack1");
  CHECK(its[1].pair == "rack2");

  s.runs_table().set_manifest_member(run, {"pairs", "rack1"}, R"({"sut":"ssh://a"})");
  s.runs_table().set_manifest_member(run, {"pairs", "rack-2"}, R"({"sut":"local"})");
  s.runs_table().set_manifest_member(run, {"pairs", "rack1", "error"}, R"("cannot connect")");
  CHECK(
      s.runs_table().find_run(run)->manifest_json ==
      R"({"order":"interleaved","pairs":{"rack1":{"sut":"ssh://a","error":"cannot connect"},"rack-2":{"sut":"local"}}})");
}

// add_iteration writes samples 64 to a statement, then one at a time: 130
// come back in order, none lost at either boundary.
TEST_CASE("an iteration's samples round-trip in order across the insert batches") {
  test::TempDir dir;
  Store s(dir.file("b.db"));
  const auto run = test::plain_run(s, "b");
  const auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v, "pgbench");
  for (int i = 0; i < 130; ++i)
    it.samples.push_back({i % 2 ? "interval_latency" : "interval_tps", 1000.0 + i,
                          i == 129 ? std::nullopt : std::optional<double>(i * 0.5)});
  s.iterations_table().add_iteration(it);
  const auto back = s.iterations_table().iterations(run);
  REQUIRE(back.size() == 1);
  REQUIRE(back[0].samples.size() == 130);
  for (int i = 0; i < 130; ++i) {
    INFO(i);
    CHECK(back[0].samples[i].metric == it.samples[i].metric);
    CHECK(back[0].samples[i].value == it.samples[i].value);
    CHECK(back[0].samples[i].offset_s == it.samples[i].offset_s);
  }
}

// What history reads in bulk: every run's iterations of one workload, a run
// at a time in run id order whatever the insertion order, with the one
// metric's samples in stored order; other workloads and metrics left out.
TEST_CASE("bulk reads for history: a run at a time, one metric's samples, in order") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  const auto a = test::plain_run(s, "a", R"({"kernel_release":"6.1.0"})");
  const auto b = test::plain_run(s, "b", R"({"kernel_release":7})");  // not a string: left out
  const auto c = test::plain_run(s, "c", "not json");
  const auto va = s.variants_table().add_variant({.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto vb = s.variants_table().add_variant({.run_id = b, .name = "default", .position = 0, .knobs_json = "{}"});
  s.metrics_table().add_metric(a,
               {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  s.metrics_table().add_metric(b,
               {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  s.metrics_table().add_metric(b, {"tbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  const auto add = [&](std::int64_t r, std::int64_t v, const std::string& workload, int i,
                       std::vector<SampleRow> samples) {
    s.iterations_table().add_iteration({.run_id = r,
                                        .variant_id = v,
                                        .workload = workload,
                                        .block = workload + "-x",
                                        .row = "1",
                                        .row_order = 3,
                                        .params_json = "{}",
                                        .iteration = i,
                                        .status = IterationStatus::kOk,
                                        .started_at = "t",
                                        .samples = std::move(samples)});
  };
  add(b, vb, "hackbench", 0, {{"time", 2.0, std::nullopt}, {"other", 9.0, std::nullopt}});
  add(a, va, "hackbench", 0, {{"time", 1.0, 0.5}, {"time", 1.5, std::nullopt}});
  add(a, va, "tbench", 0, {{"time", 8.0, std::nullopt}});
  add(b, vb, "hackbench", 1, {});
  std::vector<std::vector<IterationRow>> seen;
  s.iterations_table().for_each_run_iterations(
      "hackbench", "time",
      [&](std::span<const IterationRow> its) { seen.emplace_back(its.begin(), its.end()); });
  REQUIRE(seen.size() == 2);
  REQUIRE(seen[0].size() == 1);
  CHECK(seen[0][0].run_id == a);
  CHECK(seen[0][0].block == "hackbench-x");
  CHECK(seen[0][0].row_order == 3);
  REQUIRE(seen[0][0].samples.size() == 2);
  CHECK(seen[0][0].samples[0].value == 1.0);
  CHECK(seen[0][0].samples[0].offset_s == 0.5);
  CHECK(seen[0][0].samples[1].value == 1.5);
  REQUIRE(seen[1].size() == 2);
  CHECK(seen[1][0].run_id == b);
  CHECK(seen[1][0].iteration == 0);
  REQUIRE(seen[1][0].samples.size() == 1);  // not "other"
  CHECK(seen[1][0].samples[0].value == 2.0);
  CHECK(seen[1][1].samples.empty());

  const auto declared = s.metrics_table().metric_by_run("hackbench", "time");
  CHECK(declared.size() == 2);
  CHECK(declared.at(b).workload == "hackbench");
  CHECK(s.metrics_table().metric_by_run("tbench", "time").count(a) == 0);
  const auto variants = s.variants_table().variants_by_run();
  CHECK(variants.at(a).size() == 1);
  CHECK(variants.at(b).front().id == vb);
  CHECK(variants.count(c) == 0);
  // Each run's kernel release, as its manifest says it (c's manifest is not
  // JSON, b's release not a string: none), and as it changes.
  const auto releases = [&] {
    std::map<std::int64_t, std::string> out;
    for (const auto& l : s.runs_table().run_labels()) out[l.id] = l.kernel_release;
    return out;
  };
  CHECK(releases() == std::map<std::int64_t, std::string>{{a, "6.1.0"}, {b, ""}, {c, ""}});
  s.runs_table().set_manifest_member(b, {"kernel_release"}, R"("6.12.0")");
  s.runs_table().set_manifest_member(a, {"kernel_release"}, "null");
  CHECK(releases() == std::map<std::int64_t, std::string>{{a, ""}, {b, "6.12.0"}, {c, ""}});
  CHECK(s.metrics_table().runs_declaring("hackbench", "time") == std::vector<std::int64_t>{a, b});
  CHECK(s.metrics_table().runs_declaring("tbench", "time") == std::vector<std::int64_t>{b});
  CHECK(s.metrics_table().runs_declaring("hackbench", "other").empty());
  CHECK_THROWS_WITH(s.runs_table().set_manifest_member(a, {"pairs", "x\"y"}, "1"),
                    Catch::Contains("not a plain name"));
}

TEST_CASE("an iteration's notes round-trip; a database from before them reads every old one as none") {
  test::TempDir dir;
  const std::string path = dir.file("n.db");
  std::int64_t run = 0, v = 0;
  {
    Store s(path);
    run = test::plain_run(s, "n");
    v = s.variants_table().add_variant(
        {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    s.iterations_table().add_iteration(netperf_iteration(run, v, 0, "", 581.5));
  }
  // Back to schema 13, the column gone (and migration 15's): as a database written before it.
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, test::kBackToSchemaVersion17, nullptr, nullptr, nullptr) == SQLITE_OK);
  for (const char* c : {"seq_metric", "seq_decision", "seq_looks", "seq_n_baseline", "seq_n", "seq_p_value",
                        "seq_estimate_pct", "seq_ci_low", "seq_ci_high", "seq_level", "seq_design_json",
                        "seq_looks_json", "seq_note"})
    REQUIRE(sqlite3_exec(h, (std::string("ALTER TABLE point_stops DROP COLUMN ") + c).c_str(), nullptr, nullptr,
                         nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h,
                       "ALTER TABLE bisect_decisions DROP COLUMN level_good; ALTER TABLE bisect_decisions DROP "
                       "COLUMN level_bad; ALTER TABLE bisect_decisions DROP COLUMN error_rates;",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "ALTER TABLE iterations DROP COLUMN notes; PRAGMA user_version = 13;", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  Store s(path);
  CHECK(s.schema_version() == Store::kSchemaVersion);
  s.iterations_table().add_iteration(
      netperf_iteration(run, v, 1, "netperf: desired confidence not achieved\nsecond line", 570.0));
  const auto its = s.iterations_table().iterations(run, true);
  REQUIRE(its.size() == 2);
  CHECK(its[0].notes.empty());
  CHECK(its[1].notes == "netperf: desired confidence not achieved\nsecond line");
}

TEST_CASE("samples past the sample range are neither stored nor read back (issue 44)") {
  test::TempDir dir;
  const auto path = dir.file("r.db");
  Store s(path);
  const auto run = test::plain_run(s, "a", "{}");
  const auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  CHECK_THROWS_WITH(
      s.iterations_table().add_iteration(netperf_iteration(run, v, 0, "", 1e308)),
      "run 1 iteration 0 of netperf {}: sample of throughput: 1e+308 is outside +-1e+150; not "
      "stored");
  CHECK(s.iterations_table().iterations(run).empty());
  s.iterations_table().add_iteration(netperf_iteration(run, v, 0, "", 5.0));
  // A crafted database: the value changed behind the store's back.
  // (NULL is refused by the column's NOT NULL; text is kept as text.)
  for (const char* value : {"9e999", "1e308", "'fast'", "X'00'"}) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, (std::string("UPDATE samples SET value = ") + value).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    const Catch::Matchers::StdString::RegexMatcher refused(
        R"(run 1 iteration 0 \(id 1\) of netperf: sample of throughput: (.* is (not finite|outside \+-1e\+150)|its value is (text 'fast'|a blob of 1 bytes), not a number) \(a damaged or crafted database\))",
        Catch::CaseSensitive::Yes);
    CHECK_THROWS_WITH(s.iterations_table().iterations(run), refused);
    const auto visit = [](std::span<const IterationRow>) {};
    CHECK_THROWS_WITH(s.iterations_table().for_each_run_iterations("netperf", "throughput", visit),
                      refused);
    const std::int64_t runs[] = {run};
    CHECK_THROWS_WITH(
        s.iterations_table().for_each_run_iterations("netperf", "throughput", runs, visit),
        refused);
  }
}

TEST_CASE("an iteration number, row order or exit code past an int is refused, naming the row") {
  // Hostile pass 3: 2^32 + 1 in a crafted database was read back as 1.
  test::TempDir dir;
  const auto path = dir.file("r.db");
  Store s(path);
  const auto run = test::plain_run(s, "a", "{}");
  IterationRow it = netperf_iteration(run, 0, 0, "", 5.0);
  it.variant_id = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  it.exit_code = 0;
  s.iterations_table().add_iteration(it);
  const auto visit = [](std::span<const IterationRow>) {};
  const std::int64_t runs[] = {run};
  for (const auto& [set, message] : std::vector<std::pair<std::string, std::string>>{
           {"iteration = 4294967297", "iteration 4294967297 is out of range"},
           {"iteration = -4294967296", "iteration -4294967296 is out of range"},
           {"row_order = 9223372036854775807", "row_order 9223372036854775807 is out of range"},
           {"exit_code = 4294967296", "exit_code 4294967296 is out of range"},
           {"iteration = 2.5", "iteration is not a whole number"},
           {"exit_code = 'zero'", "exit_code is not a whole number"}}) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
                         ("UPDATE iterations SET iteration = 0, row_order = 0, exit_code = 0; "
                          "UPDATE iterations SET " +
                          set)
                             .c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    INFO(set);
    const std::string refused = "iterations row 1: " + message + " (a damaged or crafted database)";
    CHECK_THROWS_WITH(s.iterations_table().iterations(run), refused);
    if (!set.starts_with("exit_code")) {
      CHECK_THROWS_WITH(
          s.iterations_table().for_each_run_iterations("netperf", "throughput", visit), refused);
      CHECK_THROWS_WITH(
          s.iterations_table().for_each_run_iterations("netperf", "throughput", runs, visit),
          refused);
    }
  }
}
