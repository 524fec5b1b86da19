#include "analysis/compare/analyse.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/stats/mmtests.h"

namespace schedlab {
namespace {

// Operation names as mmtests prints them (its stat_names).
struct MeanRows {
  mmtests::Mean mean;
  const char* stddev;
  const char* coeffvar;
  const char* best;
};
const MeanRows kAmeanRows{mmtests::Mean::kAmean, "Stddev", "CoeffVar", "BAmean-95"};
const MeanRows kHmeanRows{mmtests::Mean::kHmean, "HStddev", "HCoeffVar", "BHmean-95"};

// The --all-stats values of one cell, in the order of the row names: Min,
// (centre), stddev, coeffvar, Max, best 95%.
std::vector<std::optional<double>> stat_values(const Cell& c, const MeanRows& rows,
                                               bool higher) {
  const auto& x = c.samples;
  return {c.min,
          c.centre,
          mmtests::stddev(x, rows.mean),
          mmtests::coeffvar(x, rows.mean),
          c.max,
          mmtests::best_mean(x, rows.mean, 95, higher)};
}

// % change of one --all-stats row. Spread rows (stddev, coeffvar) are better
// when lower, the others follow the metric.
std::optional<double> stat_pct(std::size_t row, std::optional<double> base,
                                std::optional<double> x, bool higher, bool mmtests_mode) {
  const bool spread = row == 2 || row == 3;
  const bool row_higher = spread ? false : higher;
  if (!mmtests_mode) return pct_better(row_higher, base, x);
  if (!base || !x) return std::nullopt;
  return row_higher ? mmtests::pdiff(*x, *base) : mmtests::pndiff(*x, *base);
}

// Cuts a centre's interval to the metric's domain, recording the cut.
void cut_centre_interval(CentreInterval& ci, ValueDomain domain) {
  if (ci.ci) ci.cut = cut_to_domain(*ci.ci, domain);
}

void fill_cell(Cell& c, Centre centre, bool interval, double level, ValueDomain domain) {
  c.n = c.samples.size();
  c.summary = summarize(c.samples, centre, level);
  cut_centre_interval(c.summary.ci, domain);
  c.centre = c.summary.centre_value.value;
  c.stddev = c.summary.stddev.value;
  c.min = c.summary.min.value;
  c.max = c.summary.max.value;
  if (!interval) {
    c.units = c.samples;
    c.ci = c.summary.ci;
  } else {
    c.ci = centre_interval(c.units, centre, level);
    cut_centre_interval(c.ci, domain);
    if (!c.ci.ci && c.units.size() < 2)
      c.ci.reason = fmt::format("{} iteration{}: interval samples are autocorrelated, no interval",
                                c.units.size(), c.units.size() == 1 ? "" : "s");
  }
}

void compare_cell(const Cell& base, Cell& c, Centre centre, bool higher, bool interval,
                  ValueDomain domain, const CompareOptions& o, std::size_t& comparisons) {
  c.pct = pct_better(higher, base.centre, c.centre);
  PValue p = p_value(o.test, base.units, c.units);
  if (!p.p && interval) p.reason = "interval metric, tested per iteration: " + p.reason;
  c.p_value = p.p;
  c.p_reason = p.reason;
  if (o.mmtests) {
    const auto mean = mmtests::mean_for(higher);
    const auto sa = mmtests::stddev(base.samples, mean), sb = mmtests::stddev(c.samples, mean);
    if (base.centre && c.centre && sa && sb) {
      c.significant = mmtests::significant(*base.centre, *sa, *c.centre, *sb, o.alpha);
      ++comparisons;
    }
  } else {
    c.significant = p.p && *p.p < o.alpha;
    if (p.p) ++comparisons;
  }
  auto ci = pct_interval(centre, higher, base.units, c.units, o.level, domain);
  c.pct_ci = ci.ci;
  c.pct_ci_reason = ci.reason;
  c.pct_ci_cut = ci.cut;
}

bool has_negative_sample(const Block& b) {
  for (const Row& row : b.rows)
    for (const Cell& c : row.cells)
      for (double v : c.samples)
        if (v < 0) return true;
  return false;
}

RatioSummary ratio_summary(const Block& b, std::size_t column) {
  RatioSummary r;
  double logs = 0;
  for (const Row& row : b.rows) {
    const auto& base = row.cells.front().centre;
    const auto& x = row.cells[column].centre;
    if (base && x && *base > 0 && *x > 0) {
      logs += std::log(*x / *base);
      ++r.rows;
    } else {
      ++r.skipped;
    }
  }
  if (r.rows) r.gmean = std::exp(logs / static_cast<double>(r.rows));
  return r;
}

}  // namespace

Centre declared_centre(const MetricInfo& m) {
  if (auto c = centre_from_string(m.centre)) return *c;
  throw StoreError(fmt::format("metric '{}' of workload '{}' has unknown centre '{}'", m.name,
                               m.workload, m.centre));
}

Centre effective_centre(const MetricInfo& m, const CompareOptions& o) {
  if (o.mmtests) return m.direction == Direction::kHigherIsBetter ? Centre::kHmean : Centre::kAmean;
  return declared_centre(m);
}

ValueDomain metric_domain(const MetricInfo& m, const CompareOptions& o) {
  if (m.domain) return *m.domain;
  if (o.known_domain)
    if (const auto d = o.known_domain(m.workload, m.name)) return *d;
  return ValueDomain::kUnbounded;
}

void analyse_block(Block& b, const CompareOptions& o) {
  const Centre centre = effective_centre(b.metric, o);
  ValueDomain domain = metric_domain(b.metric, o);
  // A sample below 0 (a database edited by hand, a parser's bug) belies a
  // nonnegative domain: then nothing is cut, and the block says unbounded.
  if (domain == ValueDomain::kNonNegative && has_negative_sample(b))
    domain = ValueDomain::kUnbounded;
  b.metric.domain = domain;
  b.metric.centre = std::string(to_string(centre));
  const bool higher = b.metric.direction == Direction::kHigherIsBetter;
  const bool interval = b.metric.kind == SampleKind::kInterval;
  b.units = interval ? "iteration centres" : "samples";
  const MeanRows& mean_rows = centre == Centre::kHmean ? kHmeanRows : kAmeanRows;
  if (o.all_stats) {
    b.stat_rows = {"Min", "", mean_rows.stddev, mean_rows.coeffvar, "Max", mean_rows.best};
    b.centre_row = 1;
  }
  b.comparisons = 0;
  for (Row& row : b.rows) {
    for (Cell& c : row.cells) {
      fill_cell(c, centre, interval, o.level, domain);
      if (o.all_stats) c.stat_values = stat_values(c, mean_rows, higher);
    }
    const Cell& base = row.cells.front();
    if (base.centre) row.cells.front().pct = 0.0;
    for (std::size_t i = 1; i < row.cells.size(); ++i)
      compare_cell(base, row.cells[i], centre, higher, interval, domain, o, b.comparisons);
    if (o.all_stats) {
      for (Cell& c : row.cells) {
        c.stat_pcts.clear();
        for (std::size_t k = 0; k < c.stat_values.size(); ++k)
          c.stat_pcts.push_back(stat_pct(k, base.stat_values[k], c.stat_values[k], higher, o.mmtests));
      }
    }
  }
  b.ratio.clear();
  const std::size_t columns = b.rows.empty() ? 0 : b.rows.front().cells.size();
  for (std::size_t i = 0; i < columns; ++i) b.ratio.push_back(ratio_summary(b, i));
}

}  // namespace schedlab
