// `stop: sequential` at one sweep point: one group sequential test
// (analysis/sequential/sequential.h) per non-baseline variant, asked after each
// interleaved round whether the variant differs from the baseline, is the
// same within min_effect_pct, or is undecided. A variant whose test has
// stopped is no longer measured; the point stops when every test has, or
// at the iteration cap. The executor runs the rounds and stores what this
// says (results/store.h PointStop); this file only decides.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/sequential/sequential.h"
#include "results/point_stops_table.h"
#include "runner/config/config.h"
#include "workloads/metric.h"

namespace schedlab {

class SequentialPoint {
 public:
  // `variants` counts the baseline (variant 0). `stored`: each variant's
  // row of an interrupted run being resumed (empty when none): a stopped
  // test stays stopped, a test still looking is rebuilt from its looks.
  // Throws std::invalid_argument for a design plan_sequential refuses or a
  // median centre (config validation refuses both first).
  SequentialPoint(const IterationPolicy& policy, const MetricSpec& metric, std::size_t variants,
                  const std::vector<std::optional<PointStop>>& stored = {});

  // After a round: every variant's units so far (one per ok iteration: the
  // metric's value, or an interval metric's centre) and its iterations
  // run, any status. Each test still running takes its look (the last one
  // at the cap). Returns the variants whose row changed: the caller stores
  // row(v) for each.
  std::vector<std::size_t> after_round(const std::vector<std::vector<double>>& units,
                                       const std::vector<int>& attempted);

  // Whether variant v (0: the baseline) still needs iterations.
  bool measuring(std::size_t v) const;
  // Every test has stopped: the point is done.
  bool done() const;
  // What to store for variant v: its reason and test (the baseline's row
  // has no test); run_id, variant_id, workload and params_json are the
  // caller's.
  const std::string& reason(std::size_t v) const { return states_.at(v).reason; }
  const std::optional<SequentialRecord>& record(std::size_t v) const { return states_.at(v).record; }

  // The JSON kept in SequentialRecord::design_json.
  static std::string design_json(const IterationPolicy& policy);

 private:
  struct State {
    std::optional<SequentialTest> test;
    bool stopped = false;
    std::string reason = "looking";
    std::optional<SequentialRecord> record;
  };
  void stop(std::size_t v, std::string reason);
  void record_look(std::size_t v, const SequentialLook& look);

  IterationPolicy policy_;
  MetricSpec metric_;
  std::vector<State> states_;  // [0] the baseline
};

}  // namespace schedlab
