// compare() over a real temporary store, and both renderers over its result.
// Expected numbers were computed independently (python3 + mpmath); see
// stats_test.cc for the method.
#include "analysis/compare/compare.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/render/render.h"
#include "analysis/render/summary_table.h"
#include "analysis/stats/stats.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"

using namespace schedlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// A database file removed (with its WAL files) after the store closes.
struct TempPath {
  std::string path;
  TempPath() {
    static int counter = 0;
    path = (std::filesystem::temp_directory_path() /
            fmt::format("schedlab-analysis-test-{}-{}.db", getpid(), counter++))
               .string();
  }
  ~TempPath() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  }
};

struct Db {
  TempPath tmp;  // declared first: destroyed after the store is closed
  Store store{tmp.path};

  std::int64_t run(const std::string& name, const std::string& manifest = "{}") {
    return store.runs_table().create_run({0, name, "configs/test.yaml", "iterations: 5\n", "abc123",
                                          manifest, RunStatus::kFinished, "2024-05-01T10:00:00Z",
                                          ""});
  }
  std::int64_t variant(std::int64_t run, const std::string& name, int position) {
    return store.variants_table().add_variant({0, run, name, position, "{}"});
  }
  // A run NAME of one METRIC with two variants, "default" and OTHER: the
  // ids of the run, default and OTHER.
  std::array<std::int64_t, 3> run_of_two(const std::string& name, const std::string& other,
                                         const MetricInfo& metric) {
    const auto r = run(name);
    const auto def = variant(r, "default", 0);
    const auto second = variant(r, other, 1);
    store.metrics_table().add_metric(r, metric);
    return {r, def, second};
  }
  // Iterations of one point: one ok iteration per value, then `failed`
  // timed-out ones.
  void point(std::int64_t run, std::int64_t variant, const std::string& workload,
             const std::string& block, const std::string& row, int order, const std::string& metric,
             const std::vector<double>& values, int failed = 0) {
    const std::string params = nlohmann::json{{"block", block}, {"row", row}}.dump();
    const int ok = static_cast<int>(values.size());
    for (int i = 0; i < ok + failed; ++i) {
      IterationRow it{.run_id = run,
                      .variant_id = variant,
                      .workload = workload,
                      .block = block,
                      .row = row,
                      .row_order = order,
                      .params_json = params,
                      .iteration = i,
                      .status = i < ok ? IterationStatus::kOk : IterationStatus::kTimeout};
      if (i < ok)
        it.samples = {{metric, values[static_cast<std::size_t>(i)], std::nullopt}};
      else
        it.error = "killed after 60s";
      store.iterations_table().add_iteration(it);
    }
  }
};

// An interval metric: each iteration stores several time slices.
void slices(Db& db, std::int64_t run, std::int64_t variant, const std::string& row,
            const std::vector<std::vector<double>>& iterations) {
  int i = 0;
  for (const auto& values : iterations) {
    IterationRow it{.run_id = run,
                    .variant_id = variant,
                    .workload = "pgbench",
                    .block = "pgbench",
                    .row = row,
                    .params_json = nlohmann::json{{"clients", row}}.dump(),
                    .iteration = i++};
    double t = 0;
    for (double v : values) it.samples.push_back({"tps", v, t += 1});
    db.store.iterations_table().add_iteration(it);
  }
}

const MetricInfo kTime{"hackbench", "time",           "s", Direction::kLowerIsBetter,
                       "amean",     SampleKind::kRun, 4};
const MetricInfo kThroughput{"tbench", "throughput",     "MB/s", Direction::kHigherIsBetter,
                             "hmean",  SampleKind::kRun, 2};

// The design's example: hackbench, default vs sched-batch, groups 1 and 4.
// Row "4" is stored first to check that rows follow row_order.
struct Hackbench : Db {
  std::int64_t run_id = run("base", R"({"kernel_release":"6.12.0","hostname":"sut1"})");
  std::int64_t def = variant(run_id, "default", 0);
  std::int64_t batch = variant(run_id, "sched-batch", 1);
  Hackbench() {
    store.metrics_table().add_metric(run_id, kTime);
    const std::string b = "hackbench-process-pipes";
    point(run_id, def, "hackbench", b, "4", 1, "time", {0.8700, 0.8800, 0.8771});
    point(run_id, batch, "hackbench", b, "4", 1, "time", {0.8730, 0.8800, 0.8792}, 2);
    point(run_id, def, "hackbench", b, "1", 0, "time", {0.430, 0.425, 0.441, 0.428, 0.426});
    point(run_id, batch, "hackbench", b, "1", 0, "time", {0.442, 0.447, 0.439, 0.445, 0.437});
  }
};

}  // namespace

TEST_CASE("compare: pct, significance, failures and row order", "[compare]") {
  Hackbench db;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}));

  REQUIRE(c.runs.size() == 1);
  REQUIRE(c.columns.size() == 2);
  CHECK(c.columns[0].label == "default");
  CHECK(c.columns[1].label == "sched-batch");
  REQUIRE(c.blocks.size() == 1);
  const Block& b = c.blocks[0];
  CHECK(b.workload == "hackbench");
  CHECK(b.name == "hackbench-process-pipes");
  CHECK(b.metric.name == "time");
  REQUIRE(b.rows.size() == 2);
  CHECK(b.rows[0].label == "1");
  CHECK(b.rows[1].label == "4");

  const Cell& base1 = b.rows[0].cells[0];
  CHECK(base1.n == 5);
  CHECK(base1.failed == 0);
  CHECK_THAT(*base1.centre, WithinRel(0.43, 1e-12));
  CHECK_THAT(*base1.stddev, WithinRel(0.00644204936336256847, 1e-10));
  CHECK(*base1.min == 0.425);
  CHECK(*base1.max == 0.441);
  CHECK(*base1.pct == 0.0);
  CHECK_FALSE(base1.p_value);
  CHECK_FALSE(base1.significant);

  const Cell& batch1 = b.rows[0].cells[1];
  CHECK_THAT(*batch1.centre, WithinRel(0.442, 1e-12));
  // Lower is better and the time grew: negative.
  CHECK_THAT(*batch1.pct, WithinRel(-2.79069767441860717303, 1e-9));
  CHECK_THAT(*batch1.p_value, WithinRel(0.0103416877583205046211, 1e-8));
  CHECK(batch1.significant);

  const Cell& batch4 = b.rows[1].cells[1];
  CHECK(batch4.n == 3);
  CHECK(batch4.failed == 2);
  CHECK(batch4.samples == std::vector<double>{0.8730, 0.8800, 0.8792});
  CHECK_THAT(*batch4.pct, WithinRel(-0.194130409957747837745, 1e-9));
  CHECK_THAT(*batch4.p_value, WithinRel(0.671905813672024998014, 1e-8));
  CHECK_FALSE(batch4.significant);
}

TEST_CASE("compare: alpha decides the marker", "[compare]") {
  Hackbench db;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}), {0.01});
  CHECK(c.alpha == 0.01);
  CHECK_FALSE(c.blocks[0].rows[0].cells[1].significant);  // p = 0.0103
  CHECK_THROWS_WITH(compare(db.store, default_columns(db.store, {db.run_id}), {1.5}),
                    "alpha must be between 0 and 1, not 1.5");
  CHECK_THROWS_AS(compare(db.store, {}), std::invalid_argument);
}

TEST_CASE("render_text: the mmtests table", "[render]") {
  Hackbench db;
  const std::string expected =
      "run 1 base: kernel 6.12.0, host sut1, finished\n"
      "\n"
      "hackbench-process-pipes (time in s, lower is better)\n"
      "                           default            sched-batch\n"
      "Amean     1      0.4300 (   0.00%)      0.4420 *  -2.79%*\n"
      "Amean     4      0.8757 (   0.00%)      0.8774 (  -0.19%)\n"
      "Ratio            1.0000                 1.0148           \n"
      "Welch's t-test, alpha 0.05, * = p < alpha; 2 comparisons (~0.1 false * expected by "
      "chance);\n"
      "  n = 3 to 5 per cell\n"  // within 100 columns
      "Ratio: geometric mean over the rows of centre / baseline centre\n"
      "\n"
      "2 failed iterations: hackbench-process-pipes sched-batch 4 (2)\n";
  CHECK(render_text(compare(db.store, default_columns(db.store, {db.run_id}))) == expected);
}

TEST_CASE("render_text: FAIL, n/a and no marker below two samples", "[render]") {
  Db db;
  const auto [r, def, batch] = db.run_of_two("tb", "batch", kThroughput);
  db.point(r, def, "tbench", "tbench", "1", 0, "throughput", {100, 110, 105});
  db.point(r, batch, "tbench", "tbench", "1", 0, "throughput", {120, 118, 125});
  db.point(r, def, "tbench", "tbench", "2", 1, "throughput", {200, 210, 205});
  db.point(r, batch, "tbench", "tbench", "2", 1, "throughput", {400});
  db.point(r, def, "tbench", "tbench", "4", 2, "throughput", {}, 3);
  db.point(r, batch, "tbench", "tbench", "4", 2, "throughput", {390, 395});
  db.point(r, def, "tbench", "tbench", "8", 3, "throughput", {380, 385});
  const Comparison c = compare(db.store, default_columns(db.store, {r}));
  const auto& rows = c.blocks.at(0).rows;
  REQUIRE(rows.size() == 4);

  // Higher is better, hmean centre: positive when throughput grew.
  CHECK_THAT(*rows[0].cells[0].centre, WithinRel(104.841149773071104387, 1e-12));
  CHECK_THAT(*rows[0].cells[1].pct, WithinRel(15.3451422182918425232, 1e-9));
  CHECK_THAT(*rows[0].cells[1].p_value, WithinRel(0.0134768369905854791642, 1e-8));
  // One sample: a big change, but no test and no marker.
  CHECK(*rows[1].cells[1].pct > 90);
  CHECK_FALSE(rows[1].cells[1].p_value);
  CHECK_FALSE(rows[1].cells[1].significant);
  // Baseline failed everywhere: no centre, so no pct for the other side.
  CHECK(rows[2].cells[0].n == 0);
  CHECK(rows[2].cells[0].failed == 3);
  CHECK_FALSE(rows[2].cells[0].centre);
  CHECK_FALSE(rows[2].cells[0].pct);
  CHECK_FALSE(rows[2].cells[1].pct);
  // Not run at all on one side: not measured, so blank (not FAIL).
  CHECK(rows[3].cells[1].n == 0);
  CHECK(rows[3].cells[1].failed == 0);
  CHECK_FALSE(rows[3].cells[1].measured);

  const std::string expected =
      "run 1 tb: finished\n"
      "\n"
      "tbench (throughput in MB/s, higher is better)\n"
      "                           default                  batch\n"
      "Hmean     1      104.84 (   0.00%)      120.93 *  15.35%*\n"
      "Hmean     2      204.92 (   0.00%)      400.00 (  95.20%)\n"
      "Hmean     4        FAIL                 392.48 (     n/a)\n"
      "Hmean     8      382.48 (   0.00%)                       \n"
      "Ratio            1.0000                 1.5005           \n"
      "Welch's t-test, alpha 0.05, * = p < alpha; 1 comparison; n = 0 to 3 per cell\n"
      "Ratio: geometric mean over the rows of centre / baseline centre (rows without both "
      "centres left out)\n"
      "\n"
      "3 failed iterations: tbench default 4 (3)\n"
      "blank: the column's run never measured that row\n";
  CHECK(render_text(c) == expected);
}

TEST_CASE("render_json: schema fields, nulls for absent values", "[render]") {
  Hackbench db;
  const auto doc =
      nlohmann::json::parse(render_json(compare(db.store, default_columns(db.store, {db.run_id}))));
  CHECK(doc["format_version"] == 1);
  CHECK(doc["test"] == "welch");
  CHECK(doc["alpha"] == 0.05);

  const auto& run = doc["runs"].at(0);
  CHECK(run["id"] == db.run_id);
  CHECK(run["name"] == "base");
  CHECK(run["status"] == "finished");
  CHECK(run["started_at"] == "2024-05-01T10:00:00Z");
  CHECK(run["ended_at"].is_null());
  CHECK(run["config_sha256"] == "abc123");
  CHECK(run["manifest"] == nlohmann::json{{"kernel_release", "6.12.0"}, {"hostname", "sut1"}});

  const auto& col = doc["columns"].at(1);
  CHECK(col["run_id"] == db.run_id);
  CHECK(col["run"] == "base");
  CHECK(col["variant_id"] == db.batch);
  CHECK(col["variant"] == "sched-batch");
  CHECK(col["label"] == "sched-batch");

  const auto& block = doc["blocks"].at(0);
  CHECK(block["workload"] == "hackbench");
  CHECK(block["block"] == "hackbench-process-pipes");
  CHECK(block["metric"] == nlohmann::json{{"name", "time"},
                                          {"unit", "s"},
                                          {"direction", "lower"},
                                          {"centre", "amean"},
                                          {"kind", "run"},
                                          {"precision", 4},
                                          {"domain", "unbounded"}});
  const auto& row = block["rows"].at(0);
  CHECK(row["label"] == "1");
  const auto& base = row["cells"].at(0);
  CHECK(base["column"] == 0);
  CHECK(base["pct"] == 0.0);
  CHECK(base["p_value"].is_null());
  CHECK(base["significant"] == false);
  const auto& cell = row["cells"].at(1);
  CHECK(cell["column"] == 1);
  CHECK(cell["n"] == 5);
  CHECK(cell["failed"] == 0);
  CHECK_THAT(cell["centre"].get<double>(), WithinRel(0.442, 1e-12));
  CHECK(cell["min"] == 0.437);
  CHECK(cell["max"] == 0.447);
  CHECK_THAT(cell["stddev"].get<double>(), WithinRel(0.00412310562561766421, 1e-10));
  CHECK_THAT(cell["pct"].get<double>(), WithinRel(-2.79069767441860717303, 1e-9));
  CHECK_THAT(cell["p_value"].get<double>(), WithinRel(0.0103416877583205046211, 1e-8));
  CHECK(cell["significant"] == true);
  CHECK(cell["samples"] == nlohmann::json{0.442, 0.447, 0.439, 0.445, 0.437});
  CHECK(block["rows"].at(1)["cells"].at(1)["failed"] == 2);
}

TEST_CASE("render_json: a cell without samples is all nulls", "[render]") {
  Db db;
  const auto r = db.run("x");
  const auto def = db.variant(r, "default", 0);
  db.store.metrics_table().add_metric(r, kTime);
  db.point(r, def, "hackbench", "hb", "1", 0, "time", {}, 1);
  const auto doc =
      nlohmann::json::parse(render_json(compare(db.store, default_columns(db.store, {r}))));
  const auto& cell = doc["blocks"][0]["rows"][0]["cells"][0];
  CHECK(cell["n"] == 0);
  CHECK(cell["failed"] == 1);
  for (const char* key : {"centre", "stddev", "min", "max", "pct", "p_value"})
    CHECK(cell[key].is_null());
  CHECK(cell["samples"] == nlohmann::json::array());
}

TEST_CASE("default_columns: labels for one run and for several", "[compare]") {
  Db db;
  const auto a = db.run("base");
  db.variant(a, "default", 0);
  db.variant(a, "batch", 1);
  const auto b = db.run("patched");
  db.variant(b, "default", 0);

  auto labels = [&](const std::vector<std::int64_t>& runs) {
    std::vector<std::string> out;
    for (const auto& c : default_columns(db.store, runs)) out.push_back(c.label);
    return out;
  };
  CHECK(labels({a}) == std::vector<std::string>{"default", "batch"});
  CHECK(labels({b}) == std::vector<std::string>{"default"});
  CHECK(labels({a, b}) == std::vector<std::string>{"base/default", "base/batch", "patched"});
  CHECK(labels({b, a}) == std::vector<std::string>{"patched", "base/default", "base/batch"});
}

TEST_CASE("compare across runs: blocks in order of first appearance", "[compare]") {
  Db db;
  const auto a = db.run("base");
  const auto av = db.variant(a, "default", 0);
  db.store.metrics_table().add_metric(a, kTime);
  db.store.metrics_table().add_metric(a, kThroughput);
  db.point(a, av, "tbench", "tbench", "1", 0, "throughput", {100, 101});
  db.point(a, av, "hackbench", "hackbench-thread-sockets", "1", 0, "time", {1.0, 1.1});
  const auto b = db.run("patched");
  const auto bv = db.variant(b, "default", 0);
  db.store.metrics_table().add_metric(b, kTime);
  db.point(b, bv, "hackbench", "hackbench-thread-sockets", "1", 0, "time", {0.9, 1.0});
  db.point(b, bv, "hackbench", "hackbench-process-pipes", "1", 0, "time", {0.5, 0.6});

  const Comparison c = compare(db.store, default_columns(db.store, {a, b}));
  CHECK(c.runs.size() == 2);
  REQUIRE(c.blocks.size() == 3);
  CHECK(c.blocks[0].name == "tbench");
  CHECK(c.blocks[1].name == "hackbench-thread-sockets");
  CHECK(c.blocks[2].name == "hackbench-process-pipes");
  // Run-to-run: the patched run is the second column of the same row.
  const Cell& patched = c.blocks[1].rows[0].cells[1];
  CHECK_THAT(*patched.pct, WithinRel((1.05 - 0.95) / 1.05 * 100, 1e-9));
  CHECK(c.blocks[0].rows[0].cells[1].n == 0);
  CHECK(c.blocks[2].rows[0].cells[0].n == 0);
}

TEST_CASE("compare: unknown runs and variants are errors", "[compare]") {
  Hackbench db;
  CHECK_THROWS_WITH(compare(db.store, {{99, db.def, "", "", ""}}),
                    db.store.path() + ": no run with id 99");
  CHECK_THROWS_WITH(default_columns(db.store, {db.run_id, 42}),
                    db.store.path() + ": no run with id 42");
  const auto other = db.run("other");
  const auto foreign = db.variant(other, "default", 0);
  CHECK_THROWS_AS(compare(db.store, {{db.run_id, foreign, "", "", ""}}), StoreError);
  CHECK_THROWS_WITH(compare(db.store, {{db.run_id, foreign, "", "", ""}}),
                    fmt::format("run 'base' (id {}) has no variant id {} (variants: default, "
                                "sched-batch)",
                                db.run_id, foreign));
  CHECK_THROWS_WITH(compare(db.store, {{db.run_id, 0, "", "batch", ""}}),
                    Contains("has no variant 'batch'"));
  // A variant named instead of numbered is resolved.
  const Comparison c = compare(db.store, {{db.run_id, 0, "", "sched-batch", ""}});
  CHECK(c.columns[0].variant_id == db.batch);
  CHECK(c.columns[0].label == "sched-batch");
}

TEST_CASE("render_text: a label longer than the cell widens its column", "[render]") {
  Db db;
  const auto [r, def, lng] = db.run_of_two("x", "no-place-lag-no-run-to-parity", kTime);
  db.point(r, def, "hackbench", "hb", "1", 0, "time", {1.0});
  db.point(r, lng, "hackbench", "hb", "1", 0, "time", {0.5});
  const std::string text = render_text(compare(db.store, default_columns(db.store, {r})));
  CHECK_THAT(text, Contains("                           default no-place-lag-no-run-to-parity\n"
                            "Amean     1      1.0000 (   0.00%)             0.5000 (  50.00%)\n"));
}

TEST_CASE("compare --test mwu: Mann-Whitney p-values and the table says so", "[compare]") {
  Hackbench db;
  CompareOptions o;
  o.test = Test::kMwu;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}), o);
  CHECK(c.test == "mwu");
  const Cell& batch1 = c.blocks[0].rows[0].cells[1];
  // R: wilcox.test(c(.430,.425,.441,.428,.426), c(.442,.447,.439,.445,.437)), exact.
  CHECK_THAT(*batch1.p_value, WithinRel(0.031746031746031744, 1e-9));
  CHECK(batch1.significant);
  CHECK_THAT(render_text(c), Contains("Mann-Whitney U test, alpha 0.05, * = p < alpha; 2 "
                                      "comparisons"));
  CHECK(nlohmann::json::parse(render_json(c))["test"] == "mwu");
}

TEST_CASE("compare --mmtests --all-stats over a store: mmtests rows and marker", "[compare]") {
  Hackbench db;
  CompareOptions o;
  o.mmtests = true;
  o.all_stats = true;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}), o);
  CHECK(c.test == "mmtests");
  const Block& b = c.blocks[0];
  CHECK(b.stat_rows == std::vector<std::string>{"Min", "", "Stddev", "CoeffVar", "Max",
                                                "BAmean-95"});
  const Cell& batch1 = b.rows[0].cells[1];
  CHECK_FALSE(batch1.significant);  // mmtests' rule, although Welch says p = 0.0103
  CHECK_THAT(*batch1.p_value, WithinRel(0.0103416877583205046211, 1e-8));
  const std::string text = render_text(c);
  CHECK_THAT(text, Contains("Amean     1      0.4300 (   0.00%)      0.4420 (  -2.79%)\n"));
  CHECK_THAT(text, Contains("CoeffVar  1      1.4982 (   0.00%)      0.9328 (  37.73%)\n"));
  CHECK_THAT(text, Contains("BAmean-95 1      0.4272 (   0.00%)      0.4408 (  -3.16%)\n"));
  const auto doc = nlohmann::json::parse(render_json(c));
  const auto& rows = doc["blocks"][0]["rows"][0]["cells"][1]["all_stats"];
  REQUIRE(rows.size() == 5);
  CHECK(rows[1]["name"] == "Stddev");
  CHECK_THAT(rows[1]["pct"].get<double>(), WithinRel(35.9965, 1e-4));
}

TEST_CASE("compare: every cell carries its summary, intervals and reasons in JSON", "[compare]") {
  Hackbench db;
  const auto doc =
      nlohmann::json::parse(render_json(compare(db.store, default_columns(db.store, {db.run_id}))));
  CHECK(doc["level"] == 0.95);
  const auto& block = doc["blocks"][0];
  CHECK(block["comparisons"] == 2);
  CHECK(block["units"] == "samples");
  CHECK_THAT(block["ratio"][1]["gmean"].get<double>(),
             WithinRel(std::sqrt(0.442 / 0.43 * (0.8774 / 0.8757)), 1e-3));
  const auto& cell = block["rows"][0]["cells"][1];
  CHECK_THAT(cell["median"].get<double>(), WithinRel(0.442, 1e-12));
  CHECK(cell["ci_method"] == "student-t");
  // R: t.test(c(.442,.447,.439,.445,.437))$conf.int
  CHECK_THAT(cell["ci_low"].get<double>(), WithinRel(0.43688048818387915, 1e-9));
  CHECK(cell["pct_ci_low"].get<double>() < cell["pct"].get<double>());
  CHECK(cell["pct_ci_high"].get<double>() > cell["pct"].get<double>());
  CHECK(cell["null_reasons"] == nlohmann::json::object());
  const auto& base = block["rows"][0]["cells"][0];
  CHECK(base["pct_ci_low"].is_null());
}

TEST_CASE("compare: a confidence level outside (0, 1) is an error", "[compare]") {
  Hackbench db;
  CompareOptions o;
  o.level = 1.0;
  CHECK_THROWS_WITH(compare(db.store, default_columns(db.store, {db.run_id}), o),
                    "confidence level must be between 0 and 1, not 1");
}

TEST_CASE("interval metrics: tested on one centre per iteration, and the table says why",
          "[compare]") {
  Db db;
  const auto r = db.run("pg");
  const auto base = db.variant(r, "default", 0);
  const auto patched = db.variant(r, "patched", 1);
  db.store.metrics_table().add_metric(
      r, {"pgbench", "tps", "", Direction::kHigherIsBetter, "hmean", SampleKind::kInterval, 2});
  // Per-second tps: 3 iterations of 4 slices each per side.
  slices(db, r, base, "8", {{100, 101, 99, 100}, {104, 103, 105, 104}, {98, 97, 99, 98}});
  slices(db, r, patched, "8", {{106, 107, 105, 106}, {103, 104, 102, 103}, {108, 109, 107, 108}});
  slices(db, r, base, "16", {{200, 202, 201, 199}});
  slices(db, r, patched, "16", {{210, 212, 211, 209}});
  const Comparison c = compare(db.store, default_columns(db.store, {r}));
  const Block& b = c.blocks.at(0);
  CHECK(b.units == "iteration centres");
  const Cell& p8 = b.rows[0].cells[1];
  CHECK(p8.n == 12);
  REQUIRE(p8.units.size() == 3);
  // The test sees the 3 iteration hmeans, not the 12 correlated slices.
  const auto t = stats::welch_t_test(b.rows[0].cells[0].units, p8.units);
  CHECK_THAT(*p8.p_value, WithinRel(t->p_value, 1e-12));
  // One iteration a side: 4 slices each, but no test.
  const Cell& p16 = b.rows[1].cells[1];
  CHECK(p16.n == 4);
  CHECK_FALSE(p16.p_value);
  CHECK(p16.p_reason == "interval metric, tested per iteration: needs 2 samples per side");
  CHECK_FALSE(p16.ci.ci);
  CHECK_THAT(render_text(c),
             Contains(wrap_words("interval metric: samples are time slices of one iteration "
                                 "(autocorrelated), so tests and intervals use one centre "
                                 "per iteration\n")));
  const auto doc = nlohmann::json::parse(render_json(c));
  CHECK(doc["blocks"][0]["rows"][0]["cells"][1]["iteration_centres"].size() == 3);
}

TEST_CASE("compare_samples: plain samples, one row, the first the baseline", "[compare]") {
  const MetricInfo m{"", "latency", "us", Direction::kLowerIsBetter, "median", SampleKind::kRun, 1};
  const Comparison c = compare_samples(
      {{"a.txt", {10, 12, 11, 13, 12, 11}}, {"b.txt", {9, 10, 9, 8, 10, 9}}}, m);
  REQUIRE(c.blocks.size() == 1);
  REQUIRE(c.blocks[0].rows.size() == 1);
  const Cell& b = c.blocks[0].rows[0].cells[1];
  CHECK(*b.centre == 9);
  CHECK_THAT(*b.pct, WithinRel((11.5 - 9) / 11.5 * 100, 1e-12));
  CHECK(b.ci.method == "order statistics");
  CHECK(b.pct_ci_reason == "no interval for a change of medians");
  const auto doc = nlohmann::json::parse(render_stats_json(c));
  const auto& col = doc["columns"][1];
  for (const char* key : {"label", "n", "min", "max", "median", "amean", "gmean", "hmean",
                          "stddev", "coefvar", "ci_low", "ci_high", "pct", "p_value",
                          "significant"})
    CHECK(col.contains(key));
  CHECK(col["label"] == "b.txt");
  CHECK(doc["metric"]["direction"] == "lower");
  CHECK_THROWS_AS(compare_samples({}, m), std::invalid_argument);
}

TEST_CASE("a run measured under TCG: the text header and the JSON say the numbers are emulated", "[render]") {
  Db db;
  const auto real = db.run("real", R"({"kernel_release":"6.12.0"})");
  const auto lab = db.run("lab", R"({"kernel_release":"6.12.9","lab":{"release":"6.12.9+bpo-amd64","accel":"tcg","emulated":true}})");
  const auto kvm = db.run("kvm", R"({"lab":{"release":"6.1.0-28-amd64","accel":"kvm","emulated":false}})");
  for (const auto r : {real, lab, kvm}) {
    db.store.metrics_table().add_metric(r, kTime);
    db.point(r, db.variant(r, "default", 0), "hackbench", "hackbench-process-pipes", "1", 0, "time",
             {0.43, 0.42, 0.44});
  }
  const std::string note = "note: lab SUT under TCG: numbers are emulated (6.12.9+bpo-amd64)\n";
  // Only the emulated run's presence brings the note.
  const auto without = compare(db.store, default_columns(db.store, {real, kvm}));
  CHECK(render_text(without).find("emulated") == std::string::npos);
  CHECK(nlohmann::json::parse(render_json(without))["emulated"] == false);
  const auto with = compare(db.store, default_columns(db.store, {real, lab, kvm}));
  const std::string text = render_text(with);
  INFO(text);
  // In the header: after the run lines, before the first table.
  REQUIRE(text.find(note) != std::string::npos);
  CHECK(text.find(note) < text.find("hackbench-process-pipes"));
  const auto doc = nlohmann::json::parse(render_json(with));
  CHECK(doc["emulated"] == true);
  REQUIRE(doc["emulated_runs"].size() == 1);
  CHECK(doc["emulated_runs"][0]["run_id"] == lab);
  CHECK(doc["emulated_runs"][0]["release"] == "6.12.9+bpo-amd64");
}

namespace {

// Two runs of one config shape, hackbench with loops 500 and loops 200:
// params as `run` stores them (numbers), and an
// import's (text).
void hackbench_point(Db& db, std::int64_t run, std::int64_t variant, const std::string& groups, int order,
                     const nlohmann::json& params, const std::vector<double>& values) {
  int i = 0;
  for (double v : values) {
    IterationRow it;
    it.run_id = run;
    it.variant_id = variant;
    it.workload = "hackbench";
    it.block = "hackbench-process-pipes";
    it.row = groups;
    it.row_order = order;
    it.params_json = params.dump();
    it.iteration = i++;
    it.status = IterationStatus::kOk;
    it.samples = {{"time", v, std::nullopt}};
    db.store.iterations_table().add_iteration(it);
  }
}

nlohmann::json hackbench_params(int groups, const nlohmann::json& loops) {
  return {{"groups", groups}, {"loops", loops}, {"modes", "process-pipes"}, {"timeout", "60s"}};
}

}  // namespace

TEST_CASE("like with like: cells measured with other parameters are marked, named and refused by strict",
          "[compare]") {
  Db db;
  const auto a =
      db.store.runs_table().create_run({0, "loops500", "c.yaml", "loops: 500\n", "aaaaaaaaaaaaaaaa",
                                        "{}", RunStatus::kFinished, "2024-05-01T10:00:00Z", ""});
  const auto b =
      db.store.runs_table().create_run({0, "loops200", "c.yaml", "loops: 200\n", "bbbbbbbbbbbbbbbb",
                                        "{}", RunStatus::kFinished, "2024-05-01T11:00:00Z", ""});
  const auto va = db.variant(a, "default", 0), vb = db.variant(b, "default", 0);
  db.store.metrics_table().add_metric(a, kTime);
  db.store.metrics_table().add_metric(b, kTime);
  hackbench_point(db, a, va, "4", 0, hackbench_params(4, 500), {1.70, 1.72, 1.69, 1.71});
  // An import stores text; the same value is alike.
  hackbench_point(db, b, vb, "4", 0, hackbench_params(4, "200"), {0.51, 0.52, 0.50, 0.52});
  const Comparison c = compare(db.store, default_columns(db.store, {a, b}));
  REQUIRE(c.blocks.size() == 1);
  const Block& blk = c.blocks[0];
  CHECK(blk.swept == "groups");
  const Cell& cell = blk.rows[0].cells[1];
  CHECK(cell.unlike_baseline == std::vector<std::string>{"loops 200 (baseline 500)"});
  CHECK(cell.params.at("timeout") == "60s");
  // "What differs": the parameter with each column's value, and the config's hash.
  const auto diff = std::find_if(c.differences.begin(), c.differences.end(),
                                 [](const Difference& d) { return d.kind == "param"; });
  REQUIRE(diff != c.differences.end());
  CHECK(diff->what() == "param hackbench loops");
  CHECK(diff->values == std::vector<std::optional<std::string>>{"500", "200"});
  const auto config = std::find_if(c.differences.begin(), c.differences.end(),
                                   [](const Difference& d) { return d.kind == "config"; });
  REQUIRE(config != c.differences.end());
  CHECK(config->values == std::vector<std::optional<std::string>>{"aaaaaaaaaaaa", "bbbbbbbbbbbb"});
  CHECK(unlike_cells(c) == std::vector<std::string>{"hackbench-process-pipes 4 loops200: loops 200 (baseline 500)"});
  // Text: "!" instead of the significance marker, and the footnote.
  const std::string text = render_text(c);
  CHECK_THAT(text, Contains("param hackbench loops"));
  CHECK_THAT(text, Contains("0.5125 !  69.94%!"));  // significant, but not like with like: no *
  CHECK_THAT(text, Contains(wrap_words(
                       "! measured with other parameters than its baseline (not like with like; "
                       "compare --strict refuses): hackbench-process-pipes 4 loops200: loops 200 "
                       "(baseline 500)")));
  const auto j = nlohmann::json::parse(render_json(c));
  CHECK(j["blocks"][0]["swept"] == "groups");
  CHECK(j["blocks"][0]["rows"][0]["cells"][1]["unlike_baseline"][0] == "loops 200 (baseline 500)");
  CHECK(j["unlike"].size() == 1);
  CHECK_THAT(render_markdown(c), Contains(" !"));
  // Alike parameters: nothing marked, nothing named.
  Db same;
  const auto x = same.store.runs_table().create_run(
      {0, "x", "c.yaml", "t\n", "cccc", "{}", RunStatus::kFinished, "2024-05-01T10:00:00Z", ""});
  const auto vx = same.variant(x, "default", 0), vy = same.variant(x, "batch", 1);
  same.store.metrics_table().add_metric(x, kTime);
  hackbench_point(same, x, vx, "4", 0, hackbench_params(4, 500), {1.0, 1.1});
  hackbench_point(same, x, vy, "4", 0, hackbench_params(4, "500"), {1.0, 1.1});
  const Comparison alike = compare(same.store, default_columns(same.store, {x}));
  CHECK(unlike_cells(alike).empty());
  CHECK(std::none_of(alike.differences.begin(), alike.differences.end(),
                     [](const Difference& d) { return d.kind == "param" || d.kind == "config"; }));
}

TEST_CASE("a row a run never measured prints blank, not FAIL; n is in the table note", "[render]") {
  Db db;
  const auto a = db.run("abc");
  const auto b = db.run("abcd");
  const auto va = db.variant(a, "default", 0), vb = db.variant(b, "default", 0);
  db.store.metrics_table().add_metric(a, kTime);
  db.store.metrics_table().add_metric(b, kTime);
  for (int g : {1, 2}) {
    hackbench_point(db, a, va, std::to_string(g), g, hackbench_params(g, 500), {0.5, 0.6, 0.55});
    hackbench_point(db, b, vb, std::to_string(g), g, hackbench_params(g, 500), {0.5, 0.6});
  }
  hackbench_point(db, b, vb, "8", 8, hackbench_params(8, 500), {0.9, 1.0});
  const Comparison c = compare(db.store, default_columns(db.store, {a, b}));
  const Row& row8 = c.blocks[0].rows.back();
  CHECK(row8.label == "8");
  CHECK_FALSE(row8.cells[0].measured);
  CHECK(row8.cells[1].measured);
  const std::string text = render_text(c);
  CHECK(text.find("FAIL") == std::string::npos);
  // The baseline's cell of row 8 is 23 blanks, then the other cell.
  CHECK_THAT(text, Contains("Amean     8" + std::string(23 + 6, ' ') + "0.9500 (     n/a)"));
  CHECK_THAT(text, Contains("blank: the column's run never measured that row"));
  CHECK_THAT(text,
             Contains("\n  n = 2 to 3 per cell\n"));  // the clause wrapped, within 100 columns
  const auto j = nlohmann::json::parse(render_json(c));
  CHECK(j["blocks"][0]["rows"][2]["cells"][0]["not_measured"] == true);
  CHECK(j["blocks"][0]["rows"][2]["cells"][1]["not_measured"] == false);
  CHECK(render_markdown(c).find("FAIL") == std::string::npos);
}

TEST_CASE("compare --summary: a row per column, a column per metric and point, % against the first", "[render]") {
  Hackbench db;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}));
  const SummaryTable t = summary_table(c, {"time"});
  CHECK(t.rows == std::vector<std::string>{"default", "sched-batch"});
  REQUIRE(t.columns.size() == 2);
  CHECK(t.columns[0].label == "time 1");
  CHECK(t.columns[1].label == "time 4");
  CHECK(t.cells[1][0].significant);
  CHECK_THAT(*t.cells[1][0].pct, WithinRel(-2.79069767441860717303, 1e-9));
  const std::string text = render_summary_text(t);
  CHECK_THAT(text, Contains("sched-batch     -2.79%*      -0.19%"));
  CHECK_THAT(text, Contains("% change against default (positive is better); * = Welch's t-test p < 0.05"));
  CHECK_THAT(render_summary_markdown(t), Contains("| sched-batch | -2.79%\\* | -0.19% |"));
  const auto j = nlohmann::json::parse(render_summary_json(t));
  CHECK(j["summary"]["rows"][1]["cells"][0]["significant"] == true);
  CHECK_THAT(render_summary_html(t), Contains("<td class=\"worse\">-2.79%*</td>"));
  CHECK_THROWS_WITH(summary_table(c, {"tps"}), "--summary: no metric 'tps' in the comparison (it has: time)");
  CHECK_THROWS_WITH(summary_table(c, {std::string(5000, 'q') + "\x1b"}),
                    "--summary: no metric '" + std::string(40, 'q') +
                        "... (5001 characters)' in the comparison (it has: time)");
}

TEST_CASE("compare --style amd: a line per row, value (pct pct) and the marker", "[render]") {
  Hackbench db;
  const std::string text = render_amd(compare(db.store, default_columns(db.store, {db.run_id})));
  CHECK_THAT(text, Contains("\nTest:               default          sched-batch\n"
                            " 1-row:   0.43 (0.00 pct)     0.44 (-2.79 pct) *\n"
                            " 4-row:   0.88 (0.00 pct)     0.88 (-0.19 pct)  \n"));
  CHECK_THAT(text, Contains("* = significant (Welch's t-test, alpha 0.05); pct: positive is better\n"));
}

TEST_CASE("an iteration's notes reach the comparison: under the tables in text, per cell in JSON", "[render]") {
  Db db;
  const auto r = db.run("np");
  const auto def = db.variant(r, "default", 0);
  db.store.metrics_table().add_metric(r, {"netperf", "throughput", "10^6bits/s", Direction::kHigherIsBetter,
                          "hmean", SampleKind::kRun, 2});
  db.store.metrics_table().add_metric(r, {"netperf", "send_throughput", "10^6bits/s", Direction::kHigherIsBetter,
                          "hmean", SampleKind::kRun, 2});
  for (int i = 0; i < 2; ++i) {
    IterationRow it{.run_id = r,
                    .variant_id = def,
                    .workload = "netperf",
                    .block = "netperf-UDP_STREAM",
                    .row = "default",
                    .params_json = R"({"test":"UDP_STREAM"})",
                    .iteration = i,
                    .samples = {{"throughput", 580.0 + i, std::nullopt},
                                {"send_throughput", 9800.0 + i, std::nullopt}}};
    if (i == 1) it.notes = "netperf: desired confidence not achieved (+/-2.500% @ 95% conf. wanted)";
    db.store.iterations_table().add_iteration(it);
  }
  const Comparison c = compare(db.store, default_columns(db.store, {r}));
  REQUIRE(c.blocks.size() == 2);  // throughput and send_throughput, one point
  for (const auto& b : c.blocks) {
    REQUIRE(b.rows.at(0).cells.at(0).notes.size() == 1);
    CHECK(b.rows[0].cells[0].notes[0].iteration == 1);
  }
  const std::string text = render_text(c);
  // Once per point, however many metric tables share its iterations.
  const std::string line =
      "note netperf-UDP_STREAM default default iteration 2: netperf: desired confidence not achieved "
      "(+/-2.500% @ 95% conf. wanted)\n";
  CHECK_THAT(text, Contains(wrap_words(line)));  // within 100 columns
  CHECK(text.find(wrap_words(line)) == text.rfind(wrap_words(line)));
  const auto j = nlohmann::json::parse(render_json(c));
  const auto& cell = j["blocks"][0]["rows"][0]["cells"][0];
  CHECK(cell["notes"] == nlohmann::json::parse(
                             R"j([{"iteration": 2, "note": "netperf: desired confidence not achieved (+/-2.500% @ 95% conf. wanted)"}])j"));
  CHECK(j["blocks"][1]["rows"][0]["cells"][0]["notes"].size() == 1);
  CHECK_THAT(render_markdown(c), Contains("note netperf-UDP\\_STREAM default default iteration 2"));
}

TEST_CASE(
    "compare and render_text over a crafted params_json and manifest nested 300,000 deep: "
    "read as unreadable, not a crash",
    "[compare]") {
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  Db db;
  const auto run = db.run("deep", R"({"kernel":)" + deep + "}");
  const auto def = db.variant(run, "default", 0);
  db.store.metrics_table().add_metric(run, kTime);
  IterationRow it{.run_id = run,
                  .variant_id = def,
                  .workload = "hackbench",
                  .block = "hackbench",
                  .row = "1",
                  .params_json = R"({"groups":)" + deep + "}",
                  .iteration = 0};
  it.samples = {{"time", 0.5, std::nullopt}};
  db.store.iterations_table().add_iteration(it);
  const Comparison c = compare(db.store, default_columns(db.store, {run}));
  CHECK_THAT(render_text(c), Contains("run 1 deep: manifest unreadable"));
}
