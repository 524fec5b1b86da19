// The iterations and samples tables: each measured iteration with its raw
// output and the numbers parsed from it, written in one transaction with
// its monitor rows; read per run, or streamed a run at a time for history.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/monitor_rows.h"
#include "results/status.h"

namespace schedlab {

struct SampleRow {
  std::string metric;
  double value = 0;
  std::optional<double> offset_s;
};

// One measured iteration of one point of the plan.
struct IterationRow {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string pair;  // the SUT/loadgen pair of a pairs: run; empty otherwise
  std::string workload;
  std::string block;        // table label, e.g. hackbench-process-pipes
  std::string row;          // row label, e.g. "4"
  int row_order = 0;        // position of the row within its block
  std::string params_json;  // every parameter of the point
  int iteration = 0;        // 0-based index within the point
  IterationStatus status = IterationStatus::kOk;
  std::string started_at;
  double duration_s = 0;
  std::optional<int> exit_code;
  std::string stdout_text;
  std::string stderr_text;
  std::string error;  // why the iteration failed, empty when ok
  // What a successful iteration's output says about its own quality, one
  // line each (Workload::notes: netperf's confidence not reached); empty
  // when nothing.
  std::string notes;
  std::vector<SampleRow> samples;
  // Monitor data of the iteration, written in its transaction (not read
  // back by iterations(); see monitor_snapshots/monitor_deltas).
  std::vector<MonitorSnapshotRow> monitor_snapshots;
  std::vector<MonitorDeltaRow> monitor_deltas;
};

class IterationsTable {
 public:
  explicit IterationsTable(sqlite3* db) : db_(db) {}

  // Iterations: each one is written with its samples in one transaction,
  // so a finished iteration survives anything that happens after it.
  std::int64_t add_iteration(const IterationRow& it);
  // Iterations of a run with their samples, in insertion order.
  std::vector<IterationRow> iterations(std::int64_t run_id, bool with_output = false) const;
  // Every run's iterations of one workload, one run at a time in run id
  // order, each with its samples of one metric only; only what a cell of
  // compare needs is filled in (id, run, variant, block, row and its order,
  // status, iteration): a year of history in two scans, one run in memory.
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric,
      const std::function<void(std::span<const IterationRow>)>& visit) const;
  // The same for the given runs only (ascending ids), from the indexes: what
  // history reads of the few runs without cell summaries.
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric, std::span<const std::int64_t> runs,
      const std::function<void(std::span<const IterationRow>)>& visit) const;
  // Number of stored iterations per status, for summaries.
  std::int64_t count_iterations(std::int64_t run_id, IterationStatus status) const;

 private:
  // Inside add_iteration's transaction.
  void add_samples(std::int64_t iteration_id, const std::vector<SampleRow>& samples);

  sqlite3* db_;
};

}  // namespace schedlab
