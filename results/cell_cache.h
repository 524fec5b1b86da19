// The cell-summary cache (cell_summaries, cell_summary_marks; migration 10):
// history's cells of a run, kept while the run's iterations and samples are
// unchanged (the database's triggers drop a run's marks on any write). A
// mark stores a tag, under this user's local secret (base/local_secret.h),
// of the version, the run and the very cells it was put with: summaries in
// a database written elsewhere, crafted or edited are not current here and
// are computed again from the samples.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/runs_table.h"

namespace schedlab {

// One run's cell of one metric as `schedlab history` prints it: compare's
// cell for a variant, block and row (analysis/history/cell_summaries.h computes
// it). Derived data, kept per (run, workload, metric); see
// Store::cell_summaries.
struct CellSummary {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string variant;  // its name, read with the cell (not stored: variants has it)
  std::string block, row;
  std::int64_t n = 0;
  std::optional<double> centre, ci_low, ci_high;
  std::string ci_reason;
  // The workload parameters the cell was measured with, but the swept one
  // ({"loops":"500","modes":"process-pipes"}, analysis/history/cell_summaries.h): history's series are
  // split by it.
  std::string params;
};

// What a run's summaries of a workload were computed from: that
// workload's iterations, their number and the highest id; and, when read
// by history, the database's state then (CellCache::data_version): ids are
// reused, so a run removed and another written under its id and its
// iterations' ids by another schedlab meanwhile had the same number and
// highest id, and was kept with the removed run's cells (hostile18).
struct CellBasis {
  std::int64_t iterations = 0;
  std::int64_t last_id = 0;
  std::optional<std::int64_t> data_version;
};

// One run's summaries of one metric of a workload, and the iterations they
// were computed from.
struct RunCells {
  std::int64_t run_id = 0;
  CellBasis basis;
  std::vector<CellSummary> cells;
};

class CellCache {
 public:
  explicit CellCache(sqlite3* db) : db_(db) {}

  // Cell summaries (migration 10): every run's stored cells of one metric,
  // one run at a time, oldest first (by start, then id), with the run's
  // label, each run's in the order they were put; only
  // runs whose summaries are current: none was put, or the version differs
  // (the computation changed), or an iteration or sample of the run was
  // written since (the database's triggers drop the run's marks) are left
  // out, and the caller computes those.
  void for_each_run_cell_summaries(
      const std::string& workload, const std::string& metric, int version,
      const std::function<void(const RunLabel& run, std::span<const CellSummary>)>& visit) const;
  // The runs whose summaries of one metric are current (the runs
  // for_each_run_cell_summaries visits, and those with no cell), ascending.
  std::vector<std::int64_t> cell_summary_runs(const std::string& workload,
                                              const std::string& metric, int version) const;
  // Replaces runs' summaries of one metric, in one transaction; a run whose
  // iterations of the workload are no longer those of its basis (it went
  // on since they were read), or whose basis names a state of the database
  // another connection has committed to since, is left without. Returns
  // the runs stored.
  std::size_t put_cell_summaries(const std::string& workload, const std::string& metric,
                                 int version, std::span<const RunCells> runs);
  // Drops every summary mark of a run, so its cells are computed afresh.
  // The triggers already do on any write to its iterations or samples; this
  // is for a writer (schedlab merge) changing what else a cell depends on:
  // the run's metric declarations or variants.
  void invalidate_cell_summaries(std::int64_t run_id);
  // PRAGMA data_version: it changes when another connection commits (not
  // on this one's own writes); inside a read snapshot, that snapshot's.
  std::int64_t data_version() const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
