// What a run being resumed already has in the store: its ids of the plan's
// variants, each point's iterations so far and its stop rows, so the stop
// rules go on from where the interrupted run left them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "results/iterations_table.h"
#include "results/point_stops_table.h"
#include "results/variants_table.h"
#include "runner/run/plan.h"

namespace schedlab {

// The iterations of one point for one variant, stored or just run.
struct PointState {
  int attempted = 0;
  int next_index = 0;
  std::vector<double>
      ok;  // the primary metric's unit of each successful iteration (iteration_unit)
  bool stopped = false;
};

using PointKey = std::tuple<std::int64_t, std::string, std::string>;  // variant, workload, params

// The run's variant ids in the plan's order (by name); PreflightError when
// the run has no variant of that name.
std::vector<std::int64_t> stored_variant_ids(const VariantsTable& variants, std::int64_t run_id,
                                             const Plan& plan);

// Each point's stored iterations of `pair` (each pair resumes its own
// points): how many, the next index, the ok ones' units of the metric its
// stop rule follows.
std::map<PointKey, PointState> stored_point_states(const IterationsTable& iterations,
                                                   std::int64_t run_id, const Plan& plan,
                                                   const std::string& pair);

// The run's stop rows (stop: sequential resumes its tests from their
// stored looks).
std::map<PointKey, PointStop> stored_point_stops(const PointStopsTable& table, std::int64_t run_id);

}  // namespace schedlab
