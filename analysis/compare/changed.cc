#include "analysis/compare/changed.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "analysis/compare/compare.h"
#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "analysis/stats/stats.h"
#include "base/sample_range.h"
#include "base/text.h"

namespace schedlab {
namespace {

// The name a monitor's counter gets in the table.
std::string row_name(const std::string& monitor, const std::string& counter) {
  if (monitor == "perf-profile") return "profile." + counter;
  return monitor + "." + counter;
}

bool is_ratio(const std::string& monitor, const std::string& counter) {
  if (counter.ends_with("_pct") || counter.find("_pct_") != std::string::npos) return true;
  return monitor == "pressure" && (counter.ends_with(".avg10") || counter.ends_with(".avg60") ||
                                   counter.ends_with(".avg300"));
}

bool is_share(const std::string& monitor, const std::string& counter) {
  return monitor == "perf-profile" || is_ratio(monitor, counter);
}

using Point = std::tuple<std::string, std::string, std::string>;  // workload, block, row

// One iteration's stored rows: monitor -> counter -> value.
using IterationRows = std::map<std::string, std::map<std::string, double>>;

// What is wrong with a stored row of `monitor` ("count" or "share", and
// why), when its monitor's values have a range: perf-stat's are counts,
// perf-profile's shares.
std::optional<std::pair<std::string, std::string>> stored_row_problem(const std::string& monitor,
                                                                      double value) {
  std::optional<std::string> why;
  if (monitor == perf_stat::kMonitorName) {
    if ((why = count_out_of_range(value))) return std::pair{std::string("count"), *why};
  } else if (monitor == perf_profile::kMonitorName) {
    if ((why = share_out_of_range(value))) return std::pair{std::string("share"), *why};
  }
  return std::nullopt;
}

// A column's ok iterations with monitor rows, per benchmark point.
std::map<Point, std::vector<IterationRows>> column_rows(const Store& store, const ColumnRef& col) {
  std::map<std::int64_t, Point> points;
  for (const auto& it : store.iterations_table().iterations(col.run_id))
    if (it.variant_id == col.variant_id && it.status == IterationStatus::kOk &&
        (!col.pair || it.pair == *col.pair))
      points.emplace(it.id, Point{it.workload, it.block, it.row});
  std::map<std::int64_t, IterationRows> rows;
  for (const auto& d : store.monitor_rows().monitor_deltas(col.run_id, "", true)) {
    if (!points.count(d.iteration_id)) continue;
    // A perf-stat row is a count, never below 0, and a perf-profile row a
    // share of 0-100%, as their parsers and merge hold them; a crafted
    // database's -294 printed -394.0% (hostile9), a share of 500 was read
    // (hostile11).
    if (const auto why = stored_row_problem(d.monitor, d.value))
      throw std::invalid_argument(fmt::format(
          "run {} iteration id {}: {} {} {} is no {}: {} (a damaged or crafted database)",
          col.run_id, d.iteration_id, d.monitor, why->first, terminal_safe(excerpt(d.counter, 60)),
          why->first, why->second));
    rows[d.iteration_id][d.monitor][d.counter] = d.value;
  }
  std::map<Point, std::vector<IterationRows>> out;
  for (auto& [id, r] : rows) out[points[id]].push_back(std::move(r));
  return out;
}

// Monitors whose rows are sparse: a profile's symbol under its floor, a
// task name or CPU the sampler never saw, has no row, and is 0 there. The
// other monitors write every total of their file (analysis/counters/
// monitors.h; the per-CPU rows, sparse too, are not read here), so a total
// absent from an iteration was not recorded: the kernel's file has no such
// line, or perf could not count the event.
bool is_sparse(const std::string& monitor) {
  return monitor == "perf-profile" || monitor == "tasks";
}

// One value per iteration that ran the monitor: the stored one, or 0 for an
// absent row of a sparse monitor; an absent ratio was undefined there, and
// any other absent row not recorded.
std::vector<double> values_of(const std::vector<IterationRows>& its, const std::string& monitor,
                              const std::string& counter) {
  std::vector<double> out;
  for (const IterationRows& it : its) {
    const auto ran = it.find(monitor);
    if (ran == it.end()) continue;
    const auto v = ran->second.find(counter);
    if (v != ran->second.end())
      out.push_back(v->second);
    else if (is_sparse(monitor) && !is_ratio(monitor, counter))
      out.push_back(0);
  }
  return out;
}

std::optional<double> stddev_pct(std::span<const double> x, double mean) {
  const auto sd = stats::stddev(x);
  if (!sd || mean == 0) return std::nullopt;
  return *sd / std::abs(mean) * 100;
}

bool constant(std::span<const double> x) {
  return std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); });
}

// The row of one counter, or none when it is below the floors; `p` empty
// when untestable.
struct Candidate {
  ChangedRow row;
  bool below_floor = false;
  std::optional<double> p;
};

Candidate candidate(std::span<const double> a, std::span<const double> b, bool share,
                    bool benchmark, Test test) {
  Candidate c;
  ChangedRow& r = c.row;
  r.benchmark = benchmark;
  r.share = share;
  r.n_base = a.size();
  r.n = b.size();
  if (a.empty() || b.empty()) return c;
  r.base_mean = stats::amean(a);
  r.mean = stats::amean(b);
  r.base_stddev_pct = stddev_pct(a, r.base_mean);
  r.stddev_pct = stddev_pct(b, r.mean);
  if (share)
    r.change_pp = r.mean - r.base_mean;
  else if (r.base_mean != 0)
    r.change_pct = (r.mean - r.base_mean) / std::abs(r.base_mean) * 100;
  if (!benchmark) {
    const double big = std::max(std::abs(r.base_mean), std::abs(r.mean));
    if (big < (share ? kShareFloorPct : kCountFloor)) {
      c.below_floor = true;
      return c;
    }
  }
  const std::size_t min_n = test == Test::kWelch ? 2 : 1;
  if (a.size() < min_n || b.size() < min_n) return c;
  c.p = p_value(test, a, b).p;
  // Welch is undefined without variance: two constant sides that differ
  // have no noise at all.
  if (!c.p && constant(a) && constant(b) && a.front() != b.front()) c.p = 0;
  return c;
}

// Larger first; a change from a base of 0 is the largest.
double effect(const ChangedRow& r) {
  if (r.base_mean == 0) return r.mean == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::abs((r.mean - r.base_mean) / r.base_mean);
}

}  // namespace

std::vector<double> benjamini_hochberg(std::span<const double> p) {
  const std::size_t m = p.size();
  for (const double v : p)
    if (!(v >= 0 && v <= 1))
      throw std::invalid_argument("benjamini_hochberg: a p-value outside [0, 1]");
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return p[i] > p[j]; });
  // From the largest p down: q_(i) = min over j >= i of m / j * p_(j).
  std::vector<double> q(m);
  double running = 1;
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t rank = m - k;  // 1-based rank from the smallest
    running = std::min(running, static_cast<double>(m) / static_cast<double>(rank) * p[order[k]]);
    q[order[k]] = std::min(running, 1.0);
  }
  return q;
}

ChangedTable what_changed(const Store& store, const Comparison& c, const ChangedOptions& o) {
  if (c.columns.size() != 2)
    throw std::invalid_argument("--changed compares two columns; this comparison has " +
                                std::to_string(c.columns.size()) +
                                " (name two runs, or a run with two variants)");
  if (!(o.fdr > 0 && o.fdr < 1)) throw std::invalid_argument("--fdr must be in (0, 1)");
  ChangedTable t;
  t.base_label = c.columns[0].name();
  t.label = c.columns[1].name();
  t.test = o.test;
  t.fdr = o.fdr;

  // Points in the benchmark tables' order; the benchmark's metrics first.
  std::vector<Point> order;
  std::map<Point, std::vector<Candidate>> per_point;
  for (const Block& b : c.blocks)
    for (const Row& row : b.rows) {
      const Point p{b.workload, b.name, row.label};
      if (std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
      if (row.cells.size() != 2) continue;
      Candidate cand = candidate(row.cells[0].units, row.cells[1].units, false, true, o.test);
      cand.row.counter = b.workload + "." + b.metric.name;
      per_point[p].push_back(std::move(cand));
    }
  const auto base = column_rows(store, c.columns[0]);
  const auto other = column_rows(store, c.columns[1]);
  static const std::vector<IterationRows> kNone;
  for (const Point& p : order) {
    const auto a = base.find(p);
    const auto b = other.find(p);
    const auto& its_a = a == base.end() ? kNone : a->second;
    const auto& its_b = b == other.end() ? kNone : b->second;
    // Every (monitor, counter) either column stored at this point.
    std::map<std::pair<std::string, std::string>, bool> names;
    for (const auto* its : {&its_a, &its_b})
      for (const IterationRows& it : *its)
        for (const auto& [monitor, counters] : it)
          for (const auto& [counter, v] : counters) names[{monitor, counter}] = true;
    t.monitor_counters += names.size();
    for (const auto& [key, unused] : names) {
      const auto& [monitor, counter] = key;
      const std::vector<double> a_values = values_of(its_a, monitor, counter);
      const std::vector<double> b_values = values_of(its_b, monitor, counter);
      // Recorded in one column only (the monitor ran there alone, or the
      // other's kernel or perf has no such counter): nothing to compare it
      // with, and never a change from or to 0.
      if (a_values.empty() != b_values.empty()) {
        t.one_sided.insert(row_name(monitor, counter));
        continue;
      }
      Candidate cand = candidate(a_values, b_values, is_share(monitor, counter), false, o.test);
      cand.row.counter = row_name(monitor, counter);
      per_point[p].push_back(std::move(cand));
    }
  }

  // One family: every tested counter of every point.
  std::vector<double> ps;
  // Each tested row's iterations (units) a side: the counters' and the
  // benchmark metrics' apart, for the floor (changed_floor.h).
  std::vector<std::pair<std::size_t, std::size_t>> counter_sizes, benchmark_sizes;
  for (const Point& p : order)
    for (const Candidate& cand : per_point[p]) {
      if (cand.below_floor) {
        ++t.below_floor;
      } else if (!cand.p) {
        ++t.untestable;
      } else {
        ps.push_back(*cand.p);
        (cand.row.benchmark ? benchmark_sizes : counter_sizes)
            .emplace_back(cand.row.n_base, cand.row.n);
      }
    }
  t.tested = ps.size();
  t.p_floor = binding_floor(o.test, counter_sizes, benchmark_sizes, o.fdr);
  const std::vector<double> qs = benjamini_hochberg(ps);
  std::size_t k = 0;
  for (const Point& p : order) {
    std::vector<ChangedRow> kept;
    for (Candidate& cand : per_point[p]) {
      if (cand.below_floor || !cand.p) continue;
      cand.row.p = *cand.p;
      cand.row.q = qs[k++];
      if (cand.row.q > o.fdr) continue;
      std::tie(cand.row.workload, cand.row.block, cand.row.row) = p;
      kept.push_back(std::move(cand.row));
    }
    std::stable_sort(kept.begin(), kept.end(), [](const ChangedRow& x, const ChangedRow& y) {
      if (x.benchmark != y.benchmark) return x.benchmark;
      if (x.benchmark) return false;  // in the tables' order
      return effect(x) > effect(y);
    });
    t.rows.insert(t.rows.end(), kept.begin(), kept.end());
  }
  return t;
}

}  // namespace schedlab
