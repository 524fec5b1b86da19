// history --changes over a real temporary store: runs with a planted shift
// (a kernel built from a tree: its commit named), a flat history, one
// outlier run, and too few runs; the text marks, the JSON and the plot.
#include "analysis/history/history_changes.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <limits>
#include <nlohmann/json.hpp>

#include "analysis/history/cell_summaries.h"
#include "results/cell_cache.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "tests/support/raw_sql.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

// Night-to-night wobble of about 1% (fixed, so the test is exact).
const double kWobble[] = {0.4, -0.8, 1.1, -0.3, 0.9, -1.2, 0.2, 0.7, -0.6, 1.0, -0.9, 0.3, -0.1, 0.8, -0.4, 0.5};

struct NightsDb {
  test::TempDir dir;
  Store store{dir.file("h.db")};
  // One run a night of hackbench time (lower is better), its kernel built
  // from commit c<night>; `level` is the night's true time.
  std::int64_t night(int k, double level) {
    const std::string commit = fmt::format("c{:02}{}", k, std::string(38, 'a'));
    const auto run = store.runs_table().create_run(
        {.name = fmt::format("night-{:02}", k),
         .config_path = "c.yaml",
         .config_text = "x",
         .config_sha256 = "s",
         .manifest_json = nlohmann::json{{"kernel_release", fmt::format("6.12.0-n{}", k)},
                                         {"lab", {{"build", {{"commit", commit}}}}}}
                              .dump(),
         .status = RunStatus::kFinished, .started_at = fmt::format("2026-02-{:02}T00:00:00Z", k + 1)});
    const auto v = store.variants_table().add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    store.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    for (int i = 0; i < 5; ++i)
      store.iterations_table().add_iteration(
          {.run_id = run,
           .variant_id = v,
           .workload = "hackbench",
           .block = "hackbench-process-pipes",
           .row = "4",
           .params_json = R"({"groups":4})",
           .iteration = i,
           .status = IterationStatus::kOk,
           .started_at = "x",
           .samples = {{"time", level * (1 + (i - 2) * 0.002), std::nullopt}}});
    return run;
  }
  // `nights` nights; the time goes up by `shift` % from night `at` on.
  void series(int nights, int at, double shift) {
    for (int k = 0; k < nights; ++k) night(k, (1 + kWobble[k % 16] / 100) * (k >= at ? 1 + shift / 100 : 1));
  }
  // The nights' hackbench time as `schedlab history` reads it.
  History time_history() { return history(store, "hackbench", "time", ""); }
  // Its changes as `history --changes` finds them at alpha 0.05, 2% at least.
  HistoryChanges changes(const History& h) {
    return find_history_changes(store.runs_table(), h, {.alpha = 0.05, .min_change_pct = 2});
  }
};

}  // namespace

TEST_CASE("history --changes finds a planted shift and names its run, kernel and commit") {
  NightsDb db;
  db.series(16, 8, 10);
  const History h = db.time_history();
  const HistoryChanges c = db.changes(h);
  CHECK(c.series_searched == 1);
  REQUIRE(c.changes.size() == 1);
  const HistoryChange& x = c.changes[0];
  CHECK(x.after.run == "night-08");
  CHECK(x.after.kernel == "6.12.0-n8");
  CHECK(x.after.commit == "c08" + std::string(38, 'a'));
  CHECK(x.before.run == "night-07");
  CHECK(x.before.commit.starts_with("c07"));
  CHECK(x.pct == Approx(10).margin(1.5));
  CHECK(x.worse);  // time, lower is better
  CHECK(x.p_value < 0.05);
  CHECK(x.series.variant == "default");
  CHECK(x.series.block == "hackbench-process-pipes");
  CHECK(x.series.row == "4");
  CHECK(x.series.set == 1);

  const std::string text = render_history_text(h, &c);
  INFO(text);
  // The first run after the change carries the mark, on the line under it
  // (its line has no room left in 100 columns); the change is listed.
  std::size_t marked = 0;
  for (std::size_t at = 0; (at = text.find("^ change 1", at)) != std::string::npos; ++at) ++marked;
  CHECK(marked == 1);
  // The marked line is the first run after the change (the table names runs by id and kernel).
  const std::size_t mark = text.find("\n      ^ change 1\n");
  REQUIRE(mark != std::string::npos);
  const std::size_t line_start = text.rfind('\n', mark - 1) + 1;
  CHECK_THAT(text.substr(line_start, mark - line_start), Contains("r9 ") && Contains("6.12.0-n8"));
  // With --wide, at the end of the line.
  const std::string wide = render_history_text(h, &c, true);
  const std::size_t wide_mark = wide.find("  <- change 1\n");
  REQUIRE(wide_mark != std::string::npos);
  CHECK_THAT(wide.substr(wide.rfind('\n', wide_mark) + 1), Contains("night-08"));
  CHECK_THAT(text, Contains("1 change in 1 series") &&
                       Contains("change 1: default hackbench-process-pipes/4 set 1:") &&
                       Contains("first run after: run 9 night-08 (6.12.0-n8) commit c08aaaaaaaaa") &&
                       Contains("last run before: run 8 night-07 (6.12.0-n7) commit c07aaaaaaaaa"));

  const auto j = nlohmann::json::parse(render_history_json(h, &c));
  REQUIRE(j["changes"].size() == 1);
  CHECK(j["changes"][0]["run"] == "night-08");
  CHECK(j["changes"][0]["run_id"] == 9);
  CHECK(j["changes"][0]["kernel"] == "6.12.0-n8");
  CHECK(j["changes"][0]["commit"] == "c08" + std::string(38, 'a'));
  CHECK(j["changes"][0]["series"]["variant"] == "default");
  CHECK(j["changes"][0]["series"]["row"] == "4");
  CHECK(j["changes"][0]["pct"].get<double>() == Approx(x.pct));
  CHECK(j["changes"][0]["before"].get<double>() == Approx(x.centre_before));
  CHECK(j["points"].size() == 16);  // the points as without --changes

  const std::string html = render_history_html(h, "/* vega */", &c);
  CHECK_THAT(html, Contains("\"strokeDash\"") && Contains("change 1: +") && Contains("data-change-run=\"9\""));
}

TEST_CASE("history --changes on a flat history finds nothing, and one outlier run is no change") {
  SECTION("flat") {
    NightsDb db;
    db.series(16, 99, 0);
    const History h = db.time_history();
    const HistoryChanges c = db.changes(h);
    CHECK(c.changes.empty());
    CHECK(c.series_searched == 1);
    CHECK_THAT(render_history_text(h, &c), Contains("0 changes in 1 series"));
    CHECK(render_history_text(h, &c).find("^ change") == std::string::npos);
  }
  SECTION("one outlier night") {
    NightsDb db;
    for (int k = 0; k < 16; ++k) db.night(k, (1 + kWobble[k] / 100) * (k == 9 ? 1.5 : 1));
    const History h = db.time_history();
    CHECK(db.changes(h).changes.empty());
  }
}

TEST_CASE("history --changes with fewer runs than a window is a one-line error") {
  NightsDb db;
  db.series(7, 99, 0);
  const History h = db.time_history();
  CHECK_THROWS_WITH(find_history_changes(db.store.runs_table(), h, {}),
                    "change points need at least 8 runs with a value in a series (4 either side of "
                    "a change); the "
                    "longest series (default hackbench-process-pipes/4 set 1) has 7");
}

// A crafted database's cached summaries holding inf: that run has no value
// and no interval (not "[-nan, inf]"), and the search of the series goes
// on without it, rather than failing for the whole database. The cells are
// put with their mark as one who writes with this user's secret would (a
// mark vouches only for the cells it was put with: hostile17): the reader's
// own check is what is tested.
TEST_CASE(
    "history: a stored summary that is not finite is no value; --changes still searches "
    "(issue 44)") {
  NightsDb db;
  db.series(16, 8, 10);
  std::vector<RunCells> computed;
  history(db.store, "hackbench", "time", "", &computed);
  const double inf = std::numeric_limits<double>::infinity();
  for (RunCells& run : computed)
    if (run.run_id == 3)
      for (CellSummary& c : run.cells) {
        c.centre = inf;
        c.ci_low = -inf;
        c.ci_high = inf;
      }
  db.store.cell_cache().put_cell_summaries("hackbench", "time", kCellSummaryVersion, computed);
  CHECK(test::raw(db.store.path(), "SELECT count(*) FROM cell_summary_marks WHERE run_id = 3") ==
        "1");
  const History hist = db.time_history();
  REQUIRE(hist.points.size() == 16);
  CHECK_FALSE(hist.points[2].centre);
  CHECK_FALSE(hist.points[2].ci);
  CHECK(hist.points[2].ci_reason == "not finite in the database's cell summaries");
  const HistoryChanges c = db.changes(hist);
  REQUIRE(c.changes.size() == 1);
  CHECK(c.changes[0].after.run == "night-08");
  const std::string text = render_history_text(hist, &c);
  CHECK_THAT(text,
             !Contains("nan") && !Contains("inf]") && !Contains("[inf") && !Contains(" inf "));
}
