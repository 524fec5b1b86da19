// The point_stops table: why a sweep point stopped iterating for a variant
// (adaptive and sequential iterations), with its sequential test.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedlab {

// The sequential A/B test of one variant against the baseline at one
// point (`stop: sequential`, analysis/sequential/sequential.h), as its latest look
// left it (migration 15).
struct SequentialRecord {
  std::string metric;    // the point's first metric, which the test judged
  std::string decision;  // different | same | undecided
  int looks = 0;         // looks analysed
  int n_baseline = 0;    // the baseline's units at the latest look
  int n = 0;             // the variant's units at the latest look
  // Of the latest look: the stage-wise ordering p-value, and the adjusted
  // interval of the % change (positive is better) at `level` = 1 - alpha,
  // with its median-unbiased estimate; empty when no look was analysed.
  std::optional<double> p_value, estimate_pct, ci_low, ci_high;
  double level = 0.95;
  // {"alpha", "power", "min_effect_pct", "min", "max"}: the design.
  std::string design_json = "{}";
  // [{"n", "fraction", "needed_n"}, ...]: the looks taken, which a resumed
  // run passes back to SequentialTest's constructor.
  std::string looks_json = "[]";
  std::string note;  // why a test stopped without a decision (samples it refused)
};

// Why a sweep point stopped iterating for one variant.
struct PointStop {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string workload;
  std::string params_json;
  int iterations = 0;  // measured, any status
  // fixed | ci_reached | max_reached | failed; with stop: sequential, a
  // variant's row is decided | max_reached (undecided at the cap) | failed |
  // refused (the test refused its samples: `sequential.note`) | looking
  // (not stopped: the looks so far, for a resumed run), and the baseline's
  // all_decided | max_reached | failed.
  std::string reason;
  std::optional<double> ci_halfwidth_pct;      // at the stop, when adaptive
  std::optional<SequentialRecord> sequential;  // a variant's test (not the baseline's row)
};

class PointStopsTable {
 public:
  explicit PointStopsTable(sqlite3* db) : db_(db) {}

  // Adaptive and sequential iterations: the stop reason per point and
  // variant, with the sequential test's state (upsert).
  void record_point_stop(const PointStop& p);
  std::vector<PointStop> point_stops(std::int64_t run_id) const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
