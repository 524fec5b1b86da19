// The report's plots on the shapes real data has: sweeps on
// log2 axes, intervals of n = 2 cut to the samples, box plots in panels,
// no run order for imports, the % change chart.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render_html.h"
#include "tests/support/sweep_db.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Json = nlohmann::ordered_json;

namespace {

Comparison sweep(test::TempDir& dir, const test::SweepDb& d) {
  const std::string db = dir.file("sweep.db");
  test::write_sweep_db(db, d);
  const Store store(db, Store::Access::kReadOnly);
  std::vector<std::int64_t> ids;
  for (const auto& r : store.runs_table().list_runs()) ids.push_back(r.id);
  return compare(store, default_columns(store, ids));
}

const PlotSpec* find(const std::vector<PlotSpec>& plots, const std::string& kind) {
  for (const auto& p : plots)
    if (p.kind == kind) return &p;
  return nullptr;
}

const Json& named(const Json& list, const std::string& name) {
  for (const auto& x : list)
    if (x.contains("name") && x["name"] == name) return x;
  FAIL("no " << name);
  throw;
}

}  // namespace

TEST_CASE("report plots: groups 1 2 4 8 on a log2 axis with ticks at the groups only") {
  test::TempDir dir;
  const Comparison c = sweep(dir, {.runs = {"a", "b"}, .groups = {1, 2, 4, 8}});
  const auto plots = block_plots(c, 0);
  const PlotSpec* scaling = find(plots, "scaling");
  REQUIRE(scaling);
  const Json& x = named(scaling->spec["scales"], "x");
  CHECK(x["type"] == "log");
  CHECK(x["base"] == 2);
  CHECK(scaling->spec["axes"][0]["values"] == Json::array({1, 2, 4, 8}));
  CHECK(scaling->spec["axes"][0]["format"] == "d");
  // 1..6: evenly spaced integers stay linear, still ticked at whole numbers.
  test::TempDir dir2;
  const Comparison lin = sweep(dir2, {.runs = {"a"}, .groups = {1, 2, 3, 4, 5, 6}});
  const auto lin_plots = block_plots(lin, 0);  // s2 points into it
  const PlotSpec* s2 = find(lin_plots, "scaling");
  REQUIRE(s2);
  CHECK(named(s2->spec["scales"], "x")["type"] == "linear");
  CHECK(s2->spec["axes"][0]["values"] == Json::array({1, 2, 3, 4, 5, 6}));
  // The legend never cuts a label.
  CHECK(scaling->spec["legends"][0]["labelLimit"] == 0);
}

TEST_CASE("report plots: an interval of n = 2 is cut to the samples' range and marked") {
  test::TempDir dir;
  const Comparison c = sweep(dir, {.runs = {"a", "b"}, .groups = {1, 2}, .samples = 2});
  const Cell& cell = c.blocks[0].rows[0].cells[0];
  REQUIRE(cell.ci.ci);
  REQUIRE(cell.ci.ci->low < cell.min.value());  // t at 1 df: 12.7 standard errors
  const auto plots = block_plots(c, 0);  // scaling points into it
  const PlotSpec* scaling = find(plots, "scaling");
  REQUIRE(scaling);
  const Json& points = named(scaling->spec["data"], "points")["values"];
  double lowest_sample = 1e9, highest_sample = -1e9;
  for (const auto& r : c.blocks[0].rows)
    for (const auto& x : r.cells)
      for (double v : x.samples) {
        lowest_sample = std::min(lowest_sample, v);
        highest_sample = std::max(highest_sample, v);
      }
  for (const auto& p : points) {
    INFO(p.dump());
    CHECK(p["lo_c"].get<double>() >= lowest_sample);
    CHECK(p["hi_c"].get<double>() <= highest_sample);
    CHECK(p["clip_lo"] == (p["lo"].get<double>() < lowest_sample));
    CHECK(p["n"] == 2);
  }
  CHECK(points[0]["clip_lo"] == true);
  // The y scale is over the drawn ends, not the full intervals.
  const auto domain = named(scaling->spec["scales"], "y")["domain"]["fields"];
  CHECK(domain[1]["field"] == "lo_c");
}

TEST_CASE("report plots: 128 rows become box-plot panels no wider than 900 pixels") {
  test::TempDir dir;
  std::vector<int> groups;
  for (int g = 1; g <= 128; ++g) groups.push_back(g);
  const Comparison c = sweep(dir, {.runs = {"a", "b"}, .groups = groups, .samples = 2});
  std::size_t panels = 0, rows = 0;
  for (const auto& p : block_plots(c, 0)) {
    if (p.kind != "samples") continue;
    ++panels;
    CHECK(p.spec["width"].get<int>() <= 900);
    rows += named(p.spec["scales"], "xrow")["domain"].size();
  }
  CHECK(panels == 4);  // 256 boxes, 64 a panel
  CHECK(rows == 128);
}

TEST_CASE("report plots: no run order for imported runs; the % change chart for two columns") {
  test::TempDir dir;
  const Comparison imported = sweep(dir, {.runs = {"a", "b"}, .groups = {1, 2, 4}, .imported = true});
  const auto plots = block_plots(imported, 0);
  CHECK_FALSE(find(plots, "order"));
  const PlotSpec* change = find(plots, "change");
  REQUIRE(change);
  CHECK(plots.front().kind == "change");  // at the top of the block
  const Json& values = named(change->spec["data"], "changes")["values"];
  REQUIRE(values.size() == 3);  // a row each for the one non-baseline column
  for (std::size_t r = 0; r < 3; ++r) {
    INFO(r);
    CHECK(values[r]["pct"].get<double>() == Approx(*imported.blocks[0].rows[r].cells[1].pct));
  }
  test::TempDir dir2;
  const Comparison ran = sweep(dir2, {.runs = {"a"}, .groups = {1, 2}});
  const auto own = block_plots(ran, 0);
  CHECK(find(own, "order"));
  CHECK_FALSE(find(own, "change"));  // one column: nothing to change against
  CHECK(named(find(own, "order")->spec["scales"], "x")["type"] == "linear");
  CHECK(find(own, "order")->spec["axes"][0]["tickMinStep"] == 1);
}

TEST_CASE("report plots: legends show short labels, tooltips the full names") {
  test::TempDir dir;
  const std::string prefix = "nightly-6.13-rc1-eevdf-sched-batch-2026-12-";  // 40+ characters
  Comparison c = sweep(dir, {.runs = {prefix + "04T220811Z", prefix + "05T220811Z"}, .groups = {1, 2}});
  shorten_column_labels(c);
  const auto plots = block_plots(c, 0);  // scaling points into it
  const PlotSpec* scaling = find(plots, "scaling");
  REQUIRE(scaling);
  CHECK(named(scaling->spec["scales"], "colour")["domain"] == Json::array({"r1", "r2"}));
  const Json& names = named(scaling->spec["data"], "columns")["values"];
  CHECK(names[0]["name"] == prefix + "04T220811Z");
  CHECK(names[1]["c"] == "r2");
}

TEST_CASE("report plots: a change interval cut to the metric's domain gets a bar at its cut end") {
  // Lower is better, a tight baseline against a noisy variant: the change
  // interval reaches past +100% (a ratio below 0) and is cut there.
  const MetricInfo time{"hackbench", "time",           "s", Direction::kLowerIsBetter,
                        "amean",     SampleKind::kRun, 4,   ValueDomain::kNonNegative};
  const Comparison c =
      compare_samples({{"base", {1.0, 1.1, 0.9}}, {"noisy", {0.1, 0.2, 3.0}}}, time);
  REQUIRE(c.blocks[0].rows[0].cells[1].pct_ci_cut.high);
  const auto plots = block_plots(c, 0);  // change points into it
  const PlotSpec* change = find(plots, "change");
  REQUIRE(change);
  const Json& values = named(change->spec["data"], "changes")["values"];
  REQUIRE(values.size() == 1);
  CHECK(values[0]["hi"] == 100.0);
  CHECK(values[0]["cut_hi"] == true);
  CHECK(values[0]["cut_lo"] == false);
  const Json& group = change->spec["marks"][0];
  CHECK(named(group["data"], "domain_cut_row")["transform"][0]["expr"] ==
        "datum.cut_lo || datum.cut_hi");
  int bars = 0;
  for (const auto& m : group["marks"])
    bars += m.contains("from") && m["from"]["data"] == "domain_cut_row";
  CHECK(bars == 2);  // one per end, shown where the end is cut and not clipped
}
