#include "analysis/sequential_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace schedlab {

std::string SequentialCell::method() const {
  return fmt::format("stage-wise ordering, {}{} look{}", spending == "obf" ? "" : spending + " spending, ", looks,
                     looks == 1 ? "" : "s");
}

char sequential_marker(const SequentialCell& s) {
  if (s.decision == "different") return 'D';
  if (s.decision == "same") return 'S';
  return '?';
}

namespace {

SequentialCell cell_of(const PointStop& stop) {
  const SequentialRecord& r = *stop.sequential;
  SequentialCell s;
  s.decision = r.decision;
  s.reason = stop.reason;
  s.finished = stop.reason != "looking";
  s.looks = r.looks;
  s.n = r.n;
  s.n_baseline = r.n_baseline;
  s.p_value = r.p_value;
  s.estimate_pct = r.estimate_pct;
  s.ci_low = r.ci_low;
  s.ci_high = r.ci_high;
  s.level = r.level;
  s.note = r.note;
  const auto d = nlohmann::json::parse(r.design_json, nullptr, false);
  if (d.is_object()) {
    s.alpha = d.value("alpha", s.alpha);
    s.power = d.value("power", s.power);
    s.min_effect_pct = d.value("min_effect_pct", s.min_effect_pct);
    s.max = d.value("max", 0);
    s.spending = d.value("spending", s.spending);  // runs stored before the key: obf
  }
  return s;
}

// The test's p-value, interval and decision in place of the fixed-n ones;
// its interval of the % change cut to what the metric's domain lets a
// change be, as the fixed-n one is.
void apply(Cell& cell, SequentialCell s, const MetricInfo& metric) {
  cell.p_value = s.p_value;
  cell.p_reason = s.p_value ? "" : s.looks == 0 ? "the sequential test took no look" : "no adjusted p-value";
  cell.pct_ci_cut = {};
  if (s.ci_low && s.ci_high) {
    stats::Interval ci{*s.ci_low, *s.ci_high};
    cell.pct_ci_cut = cut_pct_to_domain(ci, metric.domain.value_or(ValueDomain::kUnbounded),
                                        metric.direction == Direction::kHigherIsBetter);
    s.ci_low = ci.low;
    s.ci_high = ci.high;
    cell.pct_ci = ci;
    cell.pct_ci_reason.clear();
  } else {
    cell.pct_ci.reset();
    cell.pct_ci_reason = s.note.empty() ? "the sequential test has no adjusted interval" : s.note;
  }
  cell.significant = s.decision == "different";
  cell.sequential = std::move(s);
}

}  // namespace

void attach_sequential(const Store& store, Comparison& c) {
  if (c.columns.size() < 2 || c.columns[0].pair) return;
  const std::int64_t run = c.columns[0].run_id;
  const auto variants = store.variants_table().variants(run);
  const auto baseline = std::find_if(variants.begin(), variants.end(), [](const VariantInfo& v) { return v.position == 0; });
  if (baseline == variants.end() || baseline->id != c.columns[0].variant_id) return;
  // (variant, workload, params) -> its test
  std::map<std::tuple<std::int64_t, std::string, std::string>, const PointStop*> tests;
  const auto stops = store.point_stops_table().point_stops(run);
  for (const auto& s : stops)
    if (s.sequential) tests[{s.variant_id, s.workload, s.params_json}] = &s;
  if (tests.empty()) return;
  for (auto& b : c.blocks)
    for (auto& row : b.rows)
      for (std::size_t i = 1; i < row.cells.size() && i < c.columns.size(); ++i) {
        const ColumnRef& col = c.columns[i];
        if (col.run_id != run || col.pair) continue;
        const auto t = tests.find({col.variant_id, b.workload, row.params_json});
        if (t == tests.end() || t->second->sequential->metric != b.metric.name) continue;
        if (!row.cells[i].measured) continue;
        apply(row.cells[i], cell_of(*t->second), b.metric);
      }
}

std::vector<std::string> sequential_designs(const Block& b) {
  std::set<std::tuple<double, double, double, int>> seen;
  std::vector<std::string> out;
  for (const auto& r : b.rows)
    for (const auto& cell : r.cells) {
      if (!cell.sequential) continue;
      const SequentialCell& s = *cell.sequential;
      if (!seen.insert({s.alpha, s.power, s.min_effect_pct, s.max}).second) continue;
      out.push_back(fmt::format("stop: sequential (alpha {:g}, power {:g}, min effect {:g}%{})", s.alpha, s.power,
                                s.min_effect_pct, s.max ? fmt::format(", at most {} iterations", s.max) : ""));
    }
  return out;
}

}  // namespace schedlab
