// The "what changed" table (changed.h computes it, analysis/render/
// render_changed.h prints it): its own header so that a Comparison carries
// one without compare.h including the code that computes it from one.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/compare/changed_floor.h"
#include "analysis/stats/significance.h"

namespace schedlab {

struct ChangedRow {
  std::string workload, block, row;  // the benchmark point
  std::string counter;               // "hackbench.time", "stat.ctxt", "profile.self.SYM"
  bool benchmark = false;            // the workload's own metric
  bool share = false;                // a percentage: change_pp, not change_pct
  std::size_t n_base = 0, n = 0;     // iterations (units) a side
  double base_mean = 0, mean = 0;
  // Sample stddev (n - 1) in percent of |mean|: LKP's %stddev. Empty for
  // n < 2 or a mean of 0.
  std::optional<double> base_stddev_pct, stddev_pct;
  std::optional<double> change_pct;  // counts: (mean - base) / |base| * 100
  std::optional<double> change_pp;   // shares: mean - base
  double p = 1, q = 1;
};

struct ChangedTable {
  std::string base_label, label;  // the two columns
  Test test = Test::kWelch;
  double fdr = 0.05;
  std::size_t tested = 0;        // counters tested: the false-discovery family
  std::size_t below_floor = 0;   // left out by the floors
  std::size_t untestable = 0;    // too few iterations, or no test defined
  std::size_t monitor_counters = 0;  // monitor counters either column stored (0: none ran)
  // Counters recorded in one column's iterations only, by name: not tested,
  // never compared with 0.
  std::set<std::string> one_sided;
  std::vector<ChangedRow> rows;  // the rows kept (q <= fdr), points in block order
  // Mann-Whitney's floor when it is over BH's first threshold: why a table
  // at few iterations may list nothing (changed_floor.h).
  std::optional<PFloor> p_floor;
};

}  // namespace schedlab
