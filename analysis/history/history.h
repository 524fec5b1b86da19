// schedlab history: one metric's centre across the runs of a database,
// oldest first, with its interval and n: the series a nightly builds up,
// one point per run, variant and row. The kernel of a point is the nightly
// target that measured it (when one did) and the run's kernel release.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "analysis/stats/stats.h"
#include "base/metric_vocabulary.h"
#include "results/cell_cache.h"
#include "results/runs_table.h"
#include "results/store.h"

namespace schedlab {

// A point's strings are views of its History's labels: a year of
// nightlies is tens of thousands of points naming a few thousand distinct
// strings, and a copy of each in each point cost more than the rest of
// history together (allocation and the first touch of its pages).
struct HistoryPoint {
  std::string_view date;  // the run's start, ISO 8601 UTC
  std::int64_t run_id = 0;
  std::string_view run;
  std::string_view target;          // nightly target name; empty when no nightly measured it
  std::string_view kernel_release;  // from the run's manifest
  std::string_view variant;
  std::string_view block, row;
  // The parameters the cell was measured with, but the swept one
  // ({"loops":"500","modes":"process-pipes"}, analysis/history/cell_summaries.h): a series is one variant, row and
  // parameter set, so a change of parameters is never drawn as a change
  // of the kernel.
  std::string_view params;
  std::size_t n = 0;
  std::optional<double> centre;
  std::optional<stats::Interval> ci;
  std::string_view ci_reason;  // why ci is empty
};

struct History {
  std::string workload, metric;
  std::string unit, centre;            // as the runs' metric declares it (the latest run's)
  std::optional<Direction> direction;  // likewise; none when no declaration was read
  // Decimals of its numbers in text and HTML, as `compare` prints the
  // metric (MetricInfo::precision).
  int precision = 4;
  double level = 0.95;
  std::vector<HistoryPoint> points;

  // One copy of each string a point names; a node's string never moves
  // (not on a rehash, not when the History moves), so the views stay valid.
  // A History moves but does not copy: a copy's points would view the
  // original's labels.
  std::string_view label(std::string_view s);
  // `p` with its strings views of this history's labels, for points: a
  // point a HistoryReader visits views the reader's strings.
  HistoryPoint keep(const HistoryPoint& p);
  // The direction's word as text and JSON show it; "" without one.
  std::string_view direction_word() const { return direction ? to_string(*direction) : ""; }

  History() = default;
  History(History&&) = default;
  History& operator=(History&&) = default;
  History(const History&) = delete;
  History& operator=(const History&) = delete;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> labels_;
  // The last label kept of each of a point's strings: a run's points share
  // theirs, and its cells mostly repeat their neighbour's variant and block.
  std::array<std::string_view, 9> last_{};
};

// Reads one metric's history from a database, a point at a time, by
// kernel (the numbers its release begins with: 6.9 before 6.12), then
// oldest first, without holding them: `schedlab history` writes a year of
// nightlies a line per point as it reads them. Reads from one state of the
// database (Store::ReadSnapshot) while it lives; the caller writes the
// computed summaries after.
class HistoryReader {
 public:
  // `row` filters rows by label ("4") or BLOCK/ROW; empty: every row.
  // Throws std::invalid_argument when no run has the workload's metric.
  HistoryReader(const Store& store, std::string workload, std::string metric, std::string row);
  // The history without its points: what it is of, its unit and direction
  // as the latest run declaring the metric says.
  History header() const;
  // Each point, by kernel then oldest first; its views live as long as the call. The
  // cells of runs without current stored summaries are computed from their
  // iterations; with `computed`, they are appended to it (every row,
  // whatever `row` is) for the caller to keep (CellCache::put_cell_summaries
  // with kCellSummaryVersion). Once per reader.
  void for_each_point(std::vector<RunCells>* computed,
                      const std::function<void(const HistoryPoint&)>& visit);

 private:
  void emit(const RunLabel& run, std::span<const CellSummary> cells,
            const std::function<void(const HistoryPoint&)>& visit) const;

  const Store& store_;
  Store::ReadSnapshot snapshot_;
  std::int64_t data_version_ = 0;  // the snapshot's (CellBasis::data_version)
  std::string workload_, metric_, row_;
  std::vector<std::int64_t> declared_;           // the runs declaring the metric, ascending
  std::map<std::int64_t, std::string> targets_;   // run -> nightly target
  // A run of kernels as columns (runner/run/kernel_columns.h): each
  // kernel's label and release; its variants are LABEL/VARIANT.
  std::map<std::int64_t, std::vector<std::pair<std::string, std::string>>> column_kernels_;
};

// Every point in memory, for the JSON and HTML renderers (and tests).
History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row, std::vector<RunCells>* computed = nullptr);

struct HistoryChanges;  // analysis/history/history_changes.h

// With `changes` (history --changes): each changed series' line after a
// change marked, and the changes listed after the table.
// Lines fit 100 columns (runs by short label, r3, with a key after the
// table); `wide`: the run's date, name and target in each line.
std::string render_history_text(const History& h, const HistoryChanges* changes = nullptr,
                                bool wide = false);
// The text of a history, handed to `write` a chunk at a time as points
// come (schedlab history): the header's two lines first, then a line a point.
class HistoryTextWriter {
 public:
  HistoryTextWriter(const History& header, std::function<void(std::string_view)> write,
                    bool wide = false);
  ~HistoryTextWriter();
  // `mark` ("change 1") ends the point's line ("  <- change 1") with `wide`;
  // else, where the line has no room left in 100 columns, it is the next
  // line ("      ^ change 1").
  void point(const HistoryPoint& p, std::string_view mark = {});
  void finish();  // the last chunk (and a note when no point came)

 private:
  struct Columns;
  std::function<void(std::string_view)> write_;
  std::unique_ptr<Columns> columns_;
  bool any_ = false;
  std::vector<std::string> sets_;  // the distinct parameter sets, in order of first appearance
};

// What tells a history's parameter sets apart: for each set, the
// "key value" pairs of the keys whose values differ between sets (all of
// its pairs when there is one set). Shared by the text legend, JSON and HTML.
std::vector<std::string> parameter_set_labels(const std::vector<std::string>& sets);
// format_version 1; with `changes`, a "changes" array beside the points.
std::string render_history_json(const History& h, const HistoryChanges* changes = nullptr);
// One offline page: a Vega plot per row (centre, interval band, a line per
// variant) and every point in a table; vega_script defines the global `vega`
// (runner/cli/vega_assets.h).
// With `changes`, a rule on each changed series' plot at the first run
// after the change, and the changes in a table.
std::string render_history_html(const History& h, const std::string& vega_script,
                                const HistoryChanges* changes = nullptr);

}  // namespace schedlab
