// schedlab history's points are the cells compare prints for each run and
// variant, oldest run first, read in bulk (analysis/history/history.cc).
#include "analysis/history/history.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"
#include "analysis/history/cell_summaries.h"
#include "base/text.h"
#include "results/cell_cache.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/raw_sql.h"
#include "tests/support/schema_version_9.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// A run started at `date`, its variants, two rows of one block (and a row
// the second variant never ran), `time` samples per iteration.
std::int64_t add_run(Store& s, const std::string& name, const std::string& date,
                     const std::string& unit, double scale) {
  const auto run =
      s.runs_table().create_run({.name = name,
                                 .config_path = "c.yaml",
                                 .config_text = "",
                                 .config_sha256 = "x",
                                 .manifest_json = R"({"kernel_release":"6.1.0-)" + name + "\"}",
                                 .started_at = date});
  const auto base = s.variants_table().add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto batch = s.variants_table().add_variant({.run_id = run, .name = "batch", .position = 1, .knobs_json = "{}"});
  s.metrics_table().add_metric(
      run, {"hackbench", "time", unit, Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  int order = 0;
  for (const std::string row : {"8", "2"}) {  // configuration order, not sorted
    for (int i = 0; i < 3; ++i)
      for (const auto v : {base, batch}) {
        if (v == batch && row == "8") continue;  // batch never ran row 8
        const double x = scale * std::stod(row) * (1 + 0.1 * i) * (v == batch ? 0.9 : 1.0);
        s.iterations_table().add_iteration(
            {.run_id = run,
             .variant_id = v,
             .workload = "hackbench",
             .block = "hackbench-process-pipes",
             .row = row,
             .row_order = order,
             .params_json = "{\"groups\":" + row + "}",
             .iteration = i,
             .status = i == 2 && row == "2" && v == base ? IterationStatus::kFailed
                                                         : IterationStatus::kOk,
             .started_at = date,
             .samples = {{"time", x, std::nullopt}, {"other", 99, std::nullopt}}});
      }
    ++order;
  }
  return run;
}

// One more ok iteration of add_run's row 8, its time VALUE.
void add_row8_iteration(Store& s, std::int64_t run, std::int64_t variant, int iteration,
                        const std::string& date, double value) {
  IterationRow it = test::hackbench_iteration(run, variant, 8, 0, iteration);
  it.started_at = date;
  it.samples = {{"time", value, std::nullopt}};
  s.iterations_table().add_iteration(it);
}

// Each point is the cell `schedlab compare RUN` prints for its variant.
void check_against_compare(const Store& s, const History& h) {
  for (const auto& p : h.points) {
    INFO(p.run << " " << p.variant << " " << p.row);
    const auto vars = s.variants_table().variants(p.run_id);
    const auto v = std::find_if(vars.begin(), vars.end(),
                                [&](const VariantInfo& x) { return x.name == p.variant; });
    REQUIRE(v != vars.end());
    const Comparison c = compare(s, {ColumnRef{.run_id = p.run_id, .variant_id = v->id}});
    const auto& rows = c.blocks.at(0).rows;
    const auto r = std::find_if(rows.begin(), rows.end(), [&](const Row& x) { return x.label == p.row; });
    REQUIRE(r != rows.end());
    const Cell& cell = r->cells.front();
    CHECK(p.n == cell.n);
    CHECK(p.centre == cell.centre);
    REQUIRE(p.ci.has_value() == cell.ci.ci.has_value());
    if (p.ci) CHECK(p.ci->low == cell.ci.ci->low);
    if (p.ci) CHECK(p.ci->high == cell.ci.ci->high);
    CHECK(p.ci_reason == cell.ci.reason);
    CHECK(p.block == "hackbench-process-pipes");
  }
}

// The same text whether the cells were stored or computed.
void check_same(const History& a, const History& b) {
  CHECK(render_history_text(a) == render_history_text(b));
  CHECK(render_history_json(a) == render_history_json(b));
}

}  // namespace

TEST_CASE("history: compare's cells per run and variant, oldest run first") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  // Stored out of date order: the second run is the oldest.
  const auto late = add_run(s, "late", "2026-03-02T00:00:00Z", "ms", 1.0);
  const auto early = add_run(s, "early", "2026-03-01T00:00:00Z", "ms", 2.0);
  const History h = history(s, "hackbench", "time", "");
  CHECK(h.unit == "ms");  // the runs' one declaration (two are refused: hostile16)
  CHECK(h.direction == Direction::kLowerIsBetter);
  // early: default 8, default 2, batch 2; then late the same.
  REQUIRE(h.points.size() == 6);
  CHECK(h.points[0].run_id == early);
  CHECK(h.points[3].run_id == late);
  CHECK(h.points[0].kernel_release == "6.1.0-early");
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < 3; ++i) labels.push_back(fmt::format("{}/{}", h.points[i].variant, h.points[i].row));
  CHECK(labels == std::vector<std::string>{"default/8", "default/2", "batch/2"});
  check_against_compare(s, h);
  CHECK(h.points[1].n == 2);  // default/2: one of three iterations failed
  CHECK(*h.points[0].centre == Approx(2.0 * 8 * 1.1));

  const History only = history(s, "hackbench", "time", "hackbench-process-pipes/2");
  CHECK(only.points.size() == 4);
  CHECK(history(s, "hackbench", "time", "8").points.size() == 2);
  CHECK_THROWS_WITH(history(s, "hackbench", "nope", ""),
                    Catch::Contains("no run in") && Catch::Contains("metric 'nope'"));
}

// hostile9: a run of kernels as columns (runner/run/kernel_columns.h)
// records the first guest's release as the run's; each column's points are
// its own kernel's, not that one's (a 6.12 column's numbers were printed
// under 6.1's release).
TEST_CASE("history: a run of kernels as columns names each column's kernel") {
  test::TempDir dir;
  {
    Store s(dir.file("h.db"));
    const auto run = add_run(s, "cols", "2026-03-01T00:00:00Z", "s", 1.0);
    s.runs_table().set_manifest_member(run, {"kernel_columns"},
                                       R"([{"column": "6.1", "lab": {"release": "6.1.0-28-amd64"}},
            {"column": "6.12", "lab": {"release": "6.12.9-amd64"}}])");
  }
  REQUIRE(test::exec_raw(dir.file("h.db"),
                         "UPDATE variants SET name = '6.1/default' WHERE name = 'default'; "
                         "UPDATE variants SET name = '6.12/default' WHERE name = 'batch'"));
  Store s(dir.file("h.db"));
  const History h = history(s, "hackbench", "time", "");
  REQUIRE(h.points.size() == 3);
  for (const auto& p : h.points) {
    INFO(p.variant);
    CHECK(p.kernel_release == (p.variant == "6.1/default" ? "6.1.0-28-amd64" : "6.12.9-amd64"));
  }
  // A column whose kernel names no release (a crafted manifest) is the
  // run's, not the column's before it (hostile10: 6.12's under 6.1's).
  s.runs_table().set_manifest_member(h.points[0].run_id, {"kernel_columns"},
                                     R"([{"column": "6.1", "lab": {"release": "6.1.0-28-amd64"}},
            {"column": "6.12", "lab": {"release": ["6.12"]}}])");
  for (const auto& p : history(s, "hackbench", "time", "").points) {
    INFO(p.variant);
    CHECK(p.kernel_release == (p.variant == "6.1/default" ? "6.1.0-28-amd64" : "6.1.0-cols"));
  }
}

TEST_CASE(
    "history keeps no cells read before another schedlab removed their run and wrote another under "
    "its ids (hostile18)") {
  test::TempDir dir;
  const std::string path = dir.file("h.db");
  Store s(path);
  const auto victim = add_run(s, "victim", "2026-03-01T00:00:00Z", "ms", 1.0);
  std::vector<RunCells> computed;
  history(s, "hackbench", "time", "", &computed);
  REQUIRE(computed.size() == 1);
  {
    // Meanwhile, another process: `rm victim`, then an import whose run and
    // iterations take the freed ids, as many iterations as before.
    Store other(path, Store::Access::kExisting);
    other.delete_run(victim);
    REQUIRE(add_run(other, "other", "2026-03-02T00:00:00Z", "ms", 5.0) == victim);
  }
  CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) == 0);
  const History h = history(s, "hackbench", "time", "");
  REQUIRE(!h.points.empty());
  CHECK(h.points.front().run == "other");
  check_against_compare(s, h);  // other's cells, not victim's
}

TEST_CASE("history: kept cell summaries are compare's cells, and a run that went on is recomputed") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  const auto late = add_run(s, "late", "2026-03-02T00:00:00Z", "ms", 1.0);
  const auto early = add_run(s, "early", "2026-03-01T00:00:00Z", "ms", 2.0);
  std::vector<RunCells> computed;
  const History first = history(s, "hackbench", "time", "", &computed);
  REQUIRE(computed.size() == 2);  // nothing was stored: both runs computed
  CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) == 2);

  // Read back: the summaries are what was computed, and history is the same.
  // Oldest run first, whatever the ids say, with each run's name and start.
  std::vector<CellSummary> stored;
  std::vector<std::string> runs;
  s.cell_cache().for_each_run_cell_summaries(
      "hackbench", "time", kCellSummaryVersion,
      [&](const RunLabel& run, std::span<const CellSummary> cells) {
        CHECK(cells.front().run_id == run.id);
        runs.push_back(run.name + " " + run.started_at);
        stored.insert(stored.end(), cells.begin(), cells.end());
      });
  CHECK(runs == std::vector<std::string>{"early 2026-03-01T00:00:00Z", "late 2026-03-02T00:00:00Z"});
  REQUIRE(stored.size() == 6);
  CHECK(stored.front().run_id == early);
  REQUIRE(computed[1].run_id == early);  // computed in id order
  CHECK(stored[0].row == "8");
  CHECK(stored[0].n == computed[1].cells[0].n);
  CHECK(stored[0].centre == computed[1].cells[0].centre);
  CHECK(stored[0].ci_low == computed[1].cells[0].ci_low);
  CHECK(stored[3].run_id == late);
  computed.clear();
  const History again = history(s, "hackbench", "time", "", &computed);
  CHECK(computed.empty());  // every cell read from the store
  check_same(first, again);
  check_against_compare(s, again);
  CHECK(history(s, "hackbench", "time", "2").points.size() == 4);

  SECTION("an iteration added after the summaries: that run is computed afresh") {
    const auto vars = s.variants_table().variants(early);
    add_row8_iteration(s, early, vars[0].id, 3, "2026-03-01T00:00:00Z", 100.0);
    const History fresh = history(s, "hackbench", "time", "", &computed);
    REQUIRE(computed.size() == 1);
    CHECK(computed[0].run_id == early);
    CHECK(fresh.points[0].run_id == early);
    CHECK(fresh.points[0].n == 4);
    CHECK(*fresh.points[0].centre == Approx((16 + 17.6 + 19.2 + 100) / 4));
    check_against_compare(s, fresh);
    // Kept, then read back the same.
    CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) ==
          1);
    computed.clear();
    check_same(fresh, history(s, "hackbench", "time", "", &computed));
    CHECK(computed.empty());
  }
  SECTION("summaries marked elsewhere, or crafted, are computed from the samples again") {
    // Hostile pass 5 (attack 31): a crafted database whose summaries say 5.5
    // where the samples say otherwise, marked with the plain version number,
    // made history print 5.5. A mark holds the version under this user's
    // secret, which a database written elsewhere cannot carry.
    CHECK(test::raw(dir.file("h.db"), "SELECT count(*) FROM cell_summary_marks") == "2");
    CHECK(test::raw(dir.file("h.db"), "SELECT count(*) FROM cell_summary_marks WHERE version = " +
                                          std::to_string(kCellSummaryVersion)) == "0");
    // The edit drops the marks (migration 18); the crafted ones are written
    // after it, as a database made elsewhere holds them.
    REQUIRE(test::exec_raw(dir.file("h.db"),
                           "UPDATE cell_summaries SET centre = 5.5, ci_low = 5, ci_high = 6; "
                           "INSERT INTO cell_summary_marks SELECT DISTINCT run_id, workload, "
                           "metric, " +
                               std::to_string(kCellSummaryVersion) + " FROM cell_summaries"));
    CHECK(test::raw(dir.file("h.db"), "SELECT count(*) FROM cell_summary_marks") == "2");
    computed.clear();
    const History recomputed = history(s, "hackbench", "time", "", &computed);
    CHECK(computed.size() == 2);  // neither run's summaries taken
    check_same(first, recomputed);
    check_against_compare(s, recomputed);
    for (const auto& p : recomputed.points) CHECK(p.centre != 5.5);
  }
  SECTION("summaries edited by hand under this user's own marks are computed again") {
    // Hostile pass 7 (item 6): a database written here and then edited (a
    // centre outside its interval, n -1, a centre of text, an extra
    // position, a cell moved to another variant, a variant renamed or a
    // metric's declaration changed) was read as current. Each write drops
    // the marks it touches (migration 18), and history computes the run
    // from its samples again.
    const auto vars = s.variants_table().variants(early);
    for (const std::string& edit : std::vector<std::string>{
             "UPDATE cell_summaries SET centre = -5, ci_low = 10, ci_high = -10 WHERE run_id = ?",
             "UPDATE cell_summaries SET n = -1 WHERE run_id = ?",
             "UPDATE cell_summaries SET centre = 'abc' WHERE run_id = ?",
             "INSERT INTO cell_summaries SELECT workload, metric, run_id, position + 100, "
             "variant_id, block, row, n, centre, ci_low, ci_high, ci_reason, params "
             "FROM cell_summaries WHERE run_id = ? AND position = 0",
             "DELETE FROM cell_summaries WHERE run_id = ? AND position = 1",
             "UPDATE cell_summaries SET variant_id = " + std::to_string(vars[1].id) +
                 " WHERE run_id = ? AND position = 0",
             "UPDATE variants SET name = 'renamed' WHERE run_id = ? AND position = 0",
             "UPDATE metrics SET precision = precision + 1 WHERE run_id = ?"}) {
      INFO(edit);
      computed.clear();
      history(s, "hackbench", "time", "", &computed);
      REQUIRE(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion,
                                                computed) == computed.size());
      REQUIRE(s.cell_cache().cell_summary_runs("hackbench", "time", kCellSummaryVersion).size() ==
              2);
      std::string sql = edit;
      sql.replace(sql.find('?'), 1, std::to_string(early));
      REQUIRE(test::exec_raw(dir.file("h.db"), sql));
      CHECK(s.cell_cache().cell_summary_runs("hackbench", "time", kCellSummaryVersion) ==
            std::vector<std::int64_t>{late});
      computed.clear();
      const History again = history(s, "hackbench", "time", "", &computed);
      REQUIRE(computed.size() == 1);
      CHECK(computed[0].run_id == early);
      check_against_compare(s, again);
    }
  }
  SECTION("summaries of another version are not read") {
    computed.clear();
    s.cell_cache().for_each_run_cell_summaries(
        "hackbench", "time", kCellSummaryVersion + 1,
        [&](const RunLabel&, std::span<const CellSummary>) { FAIL("read"); });
  }
  SECTION("a run resumed between reading and keeping: its summaries are not kept") {
    computed.clear();
    s.cell_cache().invalidate_cell_summaries(late);
    history(s, "hackbench", "time", "", &computed);
    REQUIRE(computed.size() == 1);
    const auto vars = s.variants_table().variants(late);
    add_row8_iteration(s, late, vars[1].id, 0, "2026-03-02T00:00:00Z", 7.0);
    CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) ==
          0);
    computed.clear();
    const History resumed = history(s, "hackbench", "time", "", &computed);
    REQUIRE(computed.size() == 1);
    CHECK(resumed.points.size() == 7);  // batch now ran row 8 in the late run
    check_against_compare(s, resumed);
  }
}

TEST_CASE("history of a database from schema version 9: migrated, summarised lazily") {
  test::TempDir dir;
  const std::string path = dir.file("old.db");
  std::string before;
  {
    Store s(path);
    add_run(s, "late", "2026-03-02T00:00:00Z", "ms", 1.0);
    add_run(s, "early", "2026-03-01T00:00:00Z", "ms", 2.0);
    before = render_history_text(history(s, "hackbench", "time", ""));
  }
  CHECK_THAT(before, Catch::Contains("6.1.0-late"));  // migration 11 reads the manifests
  // Back to version 9 (tests/support/schema_version_9.h).
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, test::kBackToSchemaVersion9, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);

  CHECK_THROWS_WITH(Store(path, Store::Access::kReadOnly), Catch::Contains("is older"));
  Store s(path, Store::Access::kExisting);
  CHECK(s.schema_version() == Store::kSchemaVersion);
  std::vector<RunCells> computed;
  const History h = history(s, "hackbench", "time", "", &computed);
  CHECK(render_history_text(h) == before);
  check_against_compare(s, h);
  CHECK(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) == 2);
  computed.clear();
  CHECK(render_history_text(history(s, "hackbench", "time", "", &computed)) == before);
  CHECK(computed.empty());
}

TEST_CASE("history merges a run without summaries into the stored ones by date, streaming") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  // Ids and dates disagree: the late run was written first.
  add_run(s, "late", "2026-03-03T00:00:00Z", "s", 1.0);
  add_run(s, "early", "2026-03-01T00:00:00Z", "s", 2.0);
  std::vector<RunCells> computed;
  history(s, "hackbench", "time", "", &computed);
  REQUIRE(s.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed) ==
          2);
  // Imported since: the middle run by date, without summaries.
  const auto middle = add_run(s, "middle", "2026-03-02T00:00:00Z", "s", 3.0);

  computed.clear();
  const History h = history(s, "hackbench", "time", "", &computed);
  REQUIRE(computed.size() == 1);  // only the middle run was computed
  CHECK(computed[0].run_id == middle);
  std::vector<std::string> runs;
  for (const auto& p : h.points)
    if (runs.empty() || runs.back() != p.run) runs.emplace_back(p.run);
  CHECK(runs == std::vector<std::string>{"early", "middle", "late"});
  check_against_compare(s, h);

  // The reader visits the same points, oldest first, and the writer's
  // chunks are render_history_text's text.
  std::string streamed;
  {
    HistoryReader reader(s, "hackbench", "time", "");
    HistoryTextWriter text(reader.header(), [&](std::string_view chunk) { streamed += chunk; });
    std::size_t n = 0;
    reader.for_each_point(nullptr, [&](const HistoryPoint& p) {
      REQUIRE(n < h.points.size());
      CHECK(p.run_id == h.points[n].run_id);
      CHECK(p.variant == h.points[n].variant);
      CHECK(p.row == h.points[n++].row);
      text.point(p);
    });
    CHECK(n == h.points.size());
    text.finish();
  }
  CHECK(streamed == render_history_text(h));
  CHECK(streamed.find("6.1.0-middle") != std::string::npos);  // its kernel release
  const auto second = streamed.find('\n', streamed.find('\n') + 1);
  CHECK(streamed.substr(second + 1, 6) == "r2    ");  // the early run, named after the table
  CHECK(streamed.find("\n  r2   2026-03-01T00:00:00Z early\n") != std::string::npos);

  // A row filter keeps the order; no point: a note, not an empty table.
  const History only = history(s, "hackbench", "time", "8");
  REQUIRE(only.points.size() == 3);
  CHECK(only.points[1].run == "middle");
  CHECK_THAT(render_history_text(history(s, "hackbench", "time", "99")),
             Catch::Contains("(no point matches the row)"));
}

// Runs of loops 500, 200 and an import of loops 1000 (its parameters stored
// as text): three series of one row, never one line, and the text, JSON and
// HTML say which parameters each set holds.
TEST_CASE("history: one series per parameter set, labelled with what differs") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  const auto add = [&](const std::string& name, const std::string& date, const std::string& params, double t) {
    const auto run = s.runs_table().create_run({.name = name, .config_path = "c.yaml", .config_text = "", .config_sha256 = "x",
                                   .manifest_json = "{}", .started_at = date});
    const auto v = s.variants_table().add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    s.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    for (int i = 0; i < 3; ++i)
      s.iterations_table().add_iteration({.run_id = run,
                                          .variant_id = v,
                                          .workload = "hackbench",
                                          .block = "hackbench-process-pipes",
                                          .row = "4",
                                          .params_json = params,
                                          .iteration = i,
                                          .status = IterationStatus::kOk,
                                          .started_at = date,
                                          .samples = {{"time", t + 0.01 * i, std::nullopt}}});
  };
  add("a", "2026-01-01T00:00:00Z", R"({"groups":4,"loops":500,"modes":"process-pipes"})", 1.7);
  add("b", "2026-01-02T00:00:00Z", R"({"groups":4,"loops":200,"modes":"process-pipes"})", 0.5);
  add("c", "2026-01-03T00:00:00Z", R"({"groups":"4","loops":"1000","modes":"process-pipes"})", 3.3);
  add("d", "2026-01-04T00:00:00Z", R"({"groups":4,"loops":500,"modes":"process-pipes"})", 1.72);
  const History h = history(s, "hackbench", "time", "");
  REQUIRE(h.points.size() == 4);
  CHECK(h.points[0].params == h.points[3].params);
  CHECK(h.points[0].params != h.points[1].params);
  CHECK(h.points[0].params.find("groups") == std::string_view::npos);  // the swept one names the row
  const std::string text = render_history_text(h);
  CHECK(text.find("3 parameter sets, one series each (what differs):\n  set 1: loops 500\n  set 2: loops 200\n"
                  "  set 3: loops 1000\n") != std::string::npos);
  const auto j = nlohmann::json::parse(render_history_json(h));
  CHECK(j["points"][0]["set"] == 1);
  CHECK(j["points"][1]["set"] == 2);
  CHECK(j["points"][2]["set"] == 3);
  CHECK(j["points"][3]["set"] == 1);
  CHECK(j["parameter_sets"] == nlohmann::json::array({"loops 500", "loops 200", "loops 1000"}));
  const std::string html = render_history_html(h, "");
  CHECK(html.find("default (loops 200)") != std::string::npos);
  CHECK(html.find("3 parameter sets: a change of parameters is a new line") != std::string::npos);
}

TEST_CASE("history prints an in-range extreme (1e149) in a bounded width (hostile11)") {
  // hostile11: centre and interval printed as 150-digit numbers.
  test::TempDir dir;
  Store s(dir.file("x.db"));
  add_run(s, "huge", "2026-03-01T00:00:00Z", "s", 1e149);
  const std::string text = render_history_text(history(s, "hackbench", "time", "8"));
  INFO(text);
  CHECK(text.find(" 8.800e+149 ") != std::string::npos);
  for (const auto line : split_lines(text)) CHECK(line.size() <= 120);
}
