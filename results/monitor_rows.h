// The monitor tables: monitor_snapshots (a monitor's file read before and
// after an iteration, raw) and monitor_deltas (its delta, one counter a
// row); written with their iteration, read per run.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedlab {

// A monitor's file as read on the SUT before or after an iteration (see
// analysis/counters/monitors.h), kept raw so any delta can be recomputed.
struct MonitorSnapshotRow {
  std::int64_t iteration_id = 0;  // filled when read back
  std::string monitor;            // schedstat | stat | interrupts | softirqs | pressure
  std::string phase;              // before | after
  std::string path;               // /proc/schedstat
  std::string text;
};

// One flat counter of a monitor's delta over an iteration (MonitorDelta::rows).
struct MonitorDeltaRow {
  std::int64_t iteration_id = 0;  // filled when read back
  std::string monitor;
  std::string counter;  // "ctxt", "MC.lb_count_newidle", "LOC.cpu1", ...
  double value = 0;
};

class MonitorRows {
 public:
  explicit MonitorRows(sqlite3* db) : db_(db) {}

  // An iteration's snapshots and deltas, inside the caller's transaction
  // (IterationsTable::add_iteration's).
  void add(std::int64_t iteration_id, const std::vector<MonitorSnapshotRow>& snapshots,
           const std::vector<MonitorDeltaRow>& deltas);
  // Monitor data of a run's iterations (one monitor), in insertion order.
  std::vector<MonitorSnapshotRow> monitor_snapshots(std::int64_t run_id,
                                                    const std::string& monitor) const;
  // Deltas of a run's iterations (one monitor, or every monitor when empty).
  // With aggregates_only, per-CPU rows ("cpu3.ttwu_local",
  // "cpu0.domain1.lb_count_idle", "LOC.cpu1") are left out.
  std::vector<MonitorDeltaRow> monitor_deltas(std::int64_t run_id, const std::string& monitor,
                                              bool aggregates_only = false) const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
