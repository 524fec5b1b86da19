// schedlab history's points are the cells compare prints for each run and
// variant, oldest run first, read in bulk (analysis/history.cc).
#include "analysis/history.h"

#include <catch2/catch.hpp>

#include "analysis/compare.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// A run started at `date`, its variants, two rows of one block (and a row
// the second variant never ran), `time` samples per iteration.
std::int64_t add_run(Store& s, const std::string& name, const std::string& date,
                     const std::string& unit, double scale) {
  const auto run = s.create_run({.name = name, .config_path = "c.yaml", .config_text = "",
                                 .config_sha256 = "x",
                                 .manifest_json = R"({"kernel_release":"6.1.0-)" + name + "\"}",
                                 .started_at = date});
  const auto base = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto batch = s.add_variant({.run_id = run, .name = "batch", .position = 1, .knobs_json = "{}"});
  s.add_metric(run, {"hackbench", "time", unit, "lower", "amean", "run", 4});
  int order = 0;
  for (const std::string row : {"8", "2"}) {  // configuration order, not sorted
    for (int i = 0; i < 3; ++i)
      for (const auto v : {base, batch}) {
        if (v == batch && row == "8") continue;  // batch never ran row 8
        const double x = scale * std::stod(row) * (1 + 0.1 * i) * (v == batch ? 0.9 : 1.0);
        s.add_iteration({.run_id = run, .variant_id = v, .workload = "hackbench",
                         .block = "hackbench-process-pipes", .row = row, .row_order = order,
                         .params_json = "{\"groups\":" + row + "}", .iteration = i,
                         .status = i == 2 && row == "2" && v == base ? IterationStatus::kFailed
                                                                     : IterationStatus::kOk,
                         .started_at = date,
                         .samples = {{"time", x, std::nullopt}, {"other", 99, std::nullopt}}});
      }
    ++order;
  }
  return run;
}

}  // namespace

TEST_CASE("history: compare's cells per run and variant, oldest run first") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  // Stored out of date order: the second run is the oldest.
  const auto late = add_run(s, "late", "2026-03-02T00:00:00Z", "ms", 1.0);
  const auto early = add_run(s, "early", "2026-03-01T00:00:00Z", "s", 2.0);
  const History h = history(s, "hackbench", "time", "");
  CHECK(h.unit == "ms");  // the latest run's declaration
  CHECK(h.direction == "lower");
  // early: default 8, default 2, batch 2; then late the same.
  REQUIRE(h.points.size() == 6);
  CHECK(h.points[0].run_id == early);
  CHECK(h.points[3].run_id == late);
  CHECK(h.points[0].kernel_release == "6.1.0-early");
  std::vector<std::string> labels;
  for (std::size_t i = 0; i < 3; ++i) labels.push_back(h.points[i].variant + "/" + h.points[i].row);
  CHECK(labels == std::vector<std::string>{"default/8", "default/2", "batch/2"});
  for (const auto& p : h.points) {
    INFO(p.run << " " << p.variant << " " << p.row);
    const auto vars = s.variants(p.run_id);
    const auto v = std::find_if(vars.begin(), vars.end(),
                                [&](const VariantInfo& x) { return x.name == p.variant; });
    const Comparison c = compare(s, {ColumnRef{.run_id = p.run_id, .variant_id = v->id}});
    const auto& rows = c.blocks.at(0).rows;
    const auto r = std::find_if(rows.begin(), rows.end(), [&](const Row& x) { return x.label == p.row; });
    REQUIRE(r != rows.end());
    const Cell& cell = r->cells.front();
    CHECK(p.n == cell.n);
    CHECK(p.centre == cell.centre);
    REQUIRE(p.ci.has_value() == cell.ci.ci.has_value());
    if (p.ci) CHECK(p.ci->low == cell.ci.ci->low);
    CHECK(p.block == "hackbench-process-pipes");
  }
  CHECK(h.points[1].n == 2);  // default/2: one of three iterations failed
  CHECK(*h.points[0].centre == Approx(2.0 * 8 * 1.1));

  const History only = history(s, "hackbench", "time", "hackbench-process-pipes/2");
  CHECK(only.points.size() == 4);
  CHECK(history(s, "hackbench", "time", "8").points.size() == 2);
  CHECK_THROWS_WITH(history(s, "hackbench", "nope", ""),
                    Catch::Contains("no run in") && Catch::Contains("metric 'nope'"));
}
