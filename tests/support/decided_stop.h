// A point stopped by its sequential test, as the store tests write one: the
// metric "time" decided at look LOOKS with ITERATIONS a side; a test sets
// the rest of the test's record (interval, design, looks) on top.
#pragma once

#include <cstdint>
#include <string>

#include "results/point_stops_table.h"

namespace schedlab::test {

inline PointStop decided_stop(std::int64_t run, std::int64_t variant, const std::string& workload,
                              const std::string& params_json, int iterations,
                              const std::string& decision, int looks, double p_value) {
  SequentialRecord q{.metric = "time", .decision = decision, .looks = looks};
  q.n_baseline = q.n = iterations;
  q.p_value = p_value;
  return {.run_id = run,
          .variant_id = variant,
          .workload = workload,
          .params_json = params_json,
          .iterations = iterations,
          .reason = "decided",
          .sequential = q};
}

}  // namespace schedlab::test
