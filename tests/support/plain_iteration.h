// The store tests' plainest rows: a run with only a name, an ok iteration
// (block "b", row "1", no parameters, started "t"), and hackbench's
// process-pipes row of a group count; a test sets what it checks on top.
// Header only, so the fuzz build (no test libraries) can use it too.
#pragma once

#include <cstdint>
#include <string>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"

namespace schedlab::test {

inline std::int64_t plain_run(Store& s, const std::string& name,
                              const std::string& manifest_json = "{}") {
  return s.runs_table().create_run({.name = name,
                                    .config_path = "c.yaml",
                                    .config_text = "",
                                    .config_sha256 = "x",
                                    .manifest_json = manifest_json});
}

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

// Row GROUPS of block hackbench-process-pipes, ok, at ROW_ORDER.
inline IterationRow hackbench_iteration(std::int64_t run, std::int64_t variant, int groups,
                                        int row_order, int iteration) {
  return {.run_id = run,
          .variant_id = variant,
          .workload = "hackbench",
          .block = "hackbench-process-pipes",
          .row = std::to_string(groups),
          .row_order = row_order,
          .params_json = R"({"groups":)" + std::to_string(groups) + "}",
          .iteration = iteration,
          .status = IterationStatus::kOk};
}

}  // namespace schedlab::test
