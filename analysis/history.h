// schedlab history: one metric's centre across the runs of a database,
// oldest first, with its interval and n: the series a nightly builds up,
// one point per run, variant and row. The kernel of a point is the nightly
// target that measured it (when one did) and the run's kernel release.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stats.h"
#include "results/store.h"

namespace schedlab {

struct HistoryPoint {
  std::string date;  // the run's start, ISO 8601 UTC
  std::int64_t run_id = 0;
  std::string run;
  std::string target;          // nightly target name; empty when no nightly measured it
  std::string kernel_release;  // from the run's manifest
  std::string variant;
  std::string block, row;
  std::size_t n = 0;
  std::optional<double> centre;
  std::optional<stats::Interval> ci;
  std::string ci_reason;  // why ci is empty
};

struct History {
  std::string workload, metric;
  std::string unit, direction, centre;  // as the runs' metric declares it (the latest run's)
  double level = 0.95;
  std::vector<HistoryPoint> points;
};

// `row` filters rows by label ("4") or BLOCK/ROW; empty: every row.
// Throws std::invalid_argument when no run has the workload's metric.
// The cells of runs without current stored summaries are computed from
// their iterations; with `computed`, they are appended to it (every row,
// whatever `row` is) for the caller to keep (Store::put_cell_summaries
// with kCellSummaryVersion).
History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row, std::vector<Store::RunCells>* computed = nullptr);

std::string render_history_text(const History& h);
// The same text written to `out` a chunk at a time (schedlab history).
void write_history_text(const History& h, std::FILE* out);
std::string render_history_json(const History& h);  // format_version 1
// One offline page: a Vega plot per row (centre, interval band, a line per
// variant) and every point in a table; vega_script defines the global `vega`
// (runner/cli/vega_assets.h).
std::string render_history_html(const History& h, const std::string& vega_script);

}  // namespace schedlab
