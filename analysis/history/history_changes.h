// schedlab history --changes (and nightly): the change points of each
// series of a history (analysis/history/change_points.h), a series being one
// variant, block/row and parameter set in run order, oldest first. Each
// change names the first run after it with its kernel and, when the run
// built its kernel from a tree, its commit (manifest lab.build.commit), and
// the last run before it, whose commit starts the range to bisect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/history/change_points.h"
#include "analysis/history/history.h"
#include "results/runs_table.h"

namespace schedlab {

struct HistorySeries {
  std::string variant, block, row;
  std::string params;  // the parameter set (HistoryPoint::params)
  std::size_t set = 0;  // its number in the history, from 1 (as the text's `set` column)
};

// A run at one end of a change.
struct ChangeRun {
  std::int64_t run_id = 0;
  std::string run, date, target, kernel;
  std::string commit;  // its manifest's lab.build.commit; empty when not built from a tree
};

struct HistoryChange {
  HistorySeries series;
  ChangeRun after;   // the first run after the change
  ChangeRun before;  // the last run with a value before it
  double centre_before = 0, centre_after = 0;  // medians of the runs either side (ChangePoint)
  std::size_t runs_before = 0, runs_after = 0;
  double pct = 0;      // (after / before - 1) * 100, the plain change
  bool worse = false;  // in the metric's direction
  double p_value = 1;
};

struct HistoryChanges {
  ChangePointOptions options;
  std::vector<HistoryChange> changes;  // series by first appearance, each in run order
  std::size_t series_searched = 0;
  // Series with too few runs to search, one line each
  // ("default hackbench-process-pipes/4 set 1: 5 runs with a value").
  std::vector<std::string> too_short;
};

// Throws std::invalid_argument with one line when no series has 2 x
// min_segment runs with a value (nothing could be searched), or for options
// change_points refuses.
HistoryChanges find_history_changes(const RunsTable& runs, const History& h,
                                    const ChangePointOptions& options);

// The commit a run's kernel was built from (manifest lab.build.commit), or "".
std::string run_commit(const RunInfo& run);

// What history's text prints after its table: a line per change (and the
// series too short to search). Ends with a newline.
std::string render_changes_text(const HistoryChanges& c);
// The mark of the first point after a change in history's text ("change 1"),
// empty for any other point.
std::string change_mark(const HistoryChanges& c, const HistoryPoint& p);

}  // namespace schedlab
