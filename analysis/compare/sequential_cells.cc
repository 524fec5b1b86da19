#include "analysis/compare/sequential_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "analysis/sequential/group_sequential.h"
#include "analysis/sequential/sequential.h"
#include "base/centre.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/variants_table.h"

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

// The design a point's test was run with, as its row stores it: data from
// a database, read like any input. Every member present must be what the
// design accepts (design_error, gs::parse_spending), else an error names
// the run and row: not a JSON type_error, not a NaN in the table notes.
// Its numbers too: a p-value in [0, 1], the rest finite, an interval
// whose low end is not above its high one.
[[noreturn]] void refuse_test(const PointStop& stop, const std::string& why) {
  throw std::invalid_argument(fmt::format(
      "run {}: the stored sequential test of variant id {} at {} {} {}", stop.run_id,
      stop.variant_id, terminal_safe(stop.workload), terminal_safe(stop.params_json), why));
}

void read_design(const PointStop& stop, SequentialCell& s) {
  const auto refuse = [&](const std::string& why) { refuse_test(stop, why); };
  const SequentialRecord& r = *stop.sequential;
  if (r.p_value && !(*r.p_value >= 0 && *r.p_value <= 1))
    refuse(fmt::format("has p-value {}: not in [0, 1]", *r.p_value));
  for (const auto& [name, v] : {std::pair{"estimate", r.estimate_pct}, std::pair{"ci_low", r.ci_low},
                                std::pair{"ci_high", r.ci_high}})
    if (v && !std::isfinite(*v)) refuse(fmt::format("has {} {}: not finite", name, *v));
  if (r.ci_low && r.ci_high && *r.ci_low > *r.ci_high)
    refuse(
        fmt::format("has ci_low {} above its ci_high {}: not an interval", *r.ci_low, *r.ci_high));
  const auto d = parse_json_data(stop.sequential->design_json);
  if (!d.is_object()) refuse("is not a JSON object");
  SequentialDesign design;
  const std::pair<const char*, double SequentialDesign::*> numbers[] = {
      {"alpha", &SequentialDesign::alpha},
      {"power", &SequentialDesign::power},
      {"min_effect_pct", &SequentialDesign::min_effect_pct},
      {"plan_cv_pct", &SequentialDesign::plan_cv_pct}};
  for (const auto& [name, field] : numbers) {
    if (!d.contains(name)) continue;
    if (!d[name].is_number())
      refuse(fmt::format("has {} {}: not a number", name, terminal_safe(d[name].dump())));
    design.*field = d[name].get<double>();
  }
  if (const std::string e = design_error(design); !e.empty())
    refuse(fmt::format("is refused: {}", e));
  s.alpha = design.alpha;
  s.power = design.power;
  s.min_effect_pct = design.min_effect_pct;
  if (design.plan_cv_pct > 0) s.plan_cv_pct = design.plan_cv_pct;
  // The iteration counts: each a count, and min not above max (the
  // config refuses that; a stored one is checked as any input).
  const auto count = [&](const char* name) -> std::optional<int> {
    if (!d.contains(name)) return std::nullopt;
    if (!d[name].is_number_unsigned() ||
        d[name].get<std::uint64_t>() > std::numeric_limits<int>::max())
      refuse(fmt::format("has {} {}: not an iteration count", name, terminal_safe(d[name].dump())));
    return d[name].get<int>();
  };
  const auto min = count("min");
  s.max = count("max").value_or(0);
  if (min && s.max && *min > s.max)
    refuse(fmt::format("has min {} above its max {}: no iteration count is both", *min, s.max));
  if (d.contains("spending")) {  // runs stored before the key: obf
    if (!d["spending"].is_string() || !gs::parse_spending(d["spending"].get<std::string>()))
      refuse(fmt::format("has spending {}: no spending function",
                         terminal_safe(d["spending"].dump())));
    s.spending = d["spending"].get<std::string>();
  }
}

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
  read_design(stop, s);
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

// The samples' CV against the one the looks were planned from: pooled over
// the two sides on the test's scale (sequential.h: log for gmean, 1/x for
// hmean), its 99% interval from the chi-square of the pooled variance. A
// stated CV outside it is a note: the decision and its alpha stand (the
// level is the looks'), the power the design states does not.
std::string plan_cv_note(double stated, const Cell& base, const Cell& cell, const MetricInfo& m) {
  const auto centre = centre_from_string(m.centre);
  if (!centre || *centre == Centre::kMedian || base.units.size() < 2 || cell.units.size() < 2)
    return {};
  try {
    const SideMoments a = side_moments(base.units, *centre), b = side_moments(cell.units, *centre);
    const double df = static_cast<double>(a.n + b.n - 2);
    const double pooled = ((a.n - 1.0) * a.variance + (b.n - 1.0) * b.variance) / df;
    const double scale = *centre == Centre::kGmean ? 1 : std::fabs(a.mean);
    if (!(scale > 0) || !std::isfinite(pooled)) return {};
    const double cv = 100 * std::sqrt(pooled) / scale;
    const boost::math::chi_squared chi2(df);
    const double low = cv * std::sqrt(df / boost::math::quantile(chi2, 0.995));
    const double high = cv * std::sqrt(df / boost::math::quantile(chi2, 0.005));
    if (stated >= low && stated <= high) return {};
    return fmt::format(
        "the samples' CV is {:.3g}% (99% interval {:.3g}-{:.3g}%), not the {:g}% the looks were "
        "planned from: the decision and its alpha stand, the power at min effect the design "
        "states does not ({})",
        cv, low, high, stated,
        stated < low ? "fewer iterations than the CV needs" : "more iterations than it needed");
  } catch (const std::exception&) {
    return {};  // samples side_moments refuses: the test said so already
  }
}

// A test judges one of its run's metrics at its workload; one naming
// anything else (a crafted seq_metric) would match no block and be dropped
// without a word, its cell shown as fixed-n.
void check_metric(const PointStop& stop, const std::vector<MetricInfo>& metrics) {
  const std::string& name = stop.sequential->metric;
  if (std::none_of(metrics.begin(), metrics.end(), [&](const MetricInfo& m) {
        return m.workload == stop.workload && m.name == name;
      }))
    refuse_test(stop, fmt::format("judged metric '{}': no metric of its run at that workload",
                                  terminal_safe(excerpt(name, 60))));
}

}  // namespace

void check_stored_sequential(const PointStop& stop, const std::vector<MetricInfo>& metrics) {
  if (!stop.sequential) return;
  check_metric(stop, metrics);
  SequentialCell s;
  read_design(stop, s);
}

void attach_sequential(const Store& store, Comparison& c) {
  if (c.columns.size() < 2 || c.columns[0].pair) return;
  const std::int64_t run = c.columns[0].run_id;
  const auto variants = store.variants_table().variants(run);
  const auto baseline = std::find_if(variants.begin(), variants.end(), [](const VariantInfo& v) { return v.position == 0; });
  if (baseline == variants.end() || baseline->id != c.columns[0].variant_id) return;
  // (variant, workload, params) -> its test
  std::map<std::tuple<std::int64_t, std::string, std::string>, const PointStop*> tests;
  const auto stops = store.point_stops_table().point_stops(run);
  const auto metrics = store.metrics_table().metrics(run);
  for (const auto& s : stops)
    if (s.sequential) {
      check_metric(s, metrics);
      tests[{s.variant_id, s.workload, s.params_json}] = &s;
    }
  if (tests.empty()) return;
  for (auto& b : c.blocks)
    for (auto& row : b.rows)
      for (std::size_t i = 1; i < row.cells.size() && i < c.columns.size(); ++i) {
        const ColumnRef& col = c.columns[i];
        if (col.run_id != run || col.pair) continue;
        const auto t = tests.find({col.variant_id, b.workload, row.params_json});
        if (t == tests.end() || t->second->sequential->metric != b.metric.name) continue;
        if (!row.cells[i].measured) continue;
        SequentialCell s = cell_of(*t->second);
        if (s.plan_cv_pct && s.finished)
          s.plan_cv_note = plan_cv_note(*s.plan_cv_pct, row.cells[0], row.cells[i], b.metric);
        apply(row.cells[i], std::move(s), b.metric);
      }
}

std::vector<std::string> sequential_designs(const Block& b) {
  std::set<std::tuple<double, double, double, int, double>> seen;
  std::vector<std::string> out;
  for (const auto& r : b.rows)
    for (const auto& cell : r.cells) {
      if (!cell.sequential) continue;
      const SequentialCell& s = *cell.sequential;
      if (!seen.insert({s.alpha, s.power, s.min_effect_pct, s.max, s.plan_cv_pct.value_or(0)})
               .second)
        continue;
      out.push_back(fmt::format(
          "stop: sequential (alpha {:g}, power {:g}, min effect {:g}%{}{})", s.alpha, s.power,
          s.min_effect_pct, s.max ? fmt::format(", at most {} iterations", s.max) : "",
          s.plan_cv_pct
              ? fmt::format(
                    "; looks planned from a stated CV of {:g}%: the power holds only near it",
                    *s.plan_cv_pct)
              : ""));
    }
  return out;
}

}  // namespace schedlab
