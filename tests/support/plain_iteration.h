// The store tests' plainest iteration: ok, block "b", row "1", no
// parameters, started "t"; a test sets what it checks on top.
#pragma once

#include <cstdint>
#include <string>

#include "results/store.h"

namespace schedlab::test {

inline IterationRow plain_iteration(std::int64_t run, std::int64_t variant,
                                    const std::string& workload = "hackbench") {
  return {.run_id = run,
          .variant_id = variant,
          .workload = workload,
          .block = "b",
          .row = "1",
          .params_json = "{}",
          .status = IterationStatus::kOk,
          .started_at = "t"};
}

}  // namespace schedlab::test
