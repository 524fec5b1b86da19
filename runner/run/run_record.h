// A run's record in the store as a run starts it: the run row, its
// variants in the plan's order and the metrics its workloads declare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/plan.h"
#include "workloads/workload.h"

namespace schedlab {

// What a new run is recorded with: the run row's texts, its variants in
// order (name, knobs as JSON) and the workloads whose declared metrics it
// measures.
struct RunRecord {
  std::string name;
  std::string config_path, config_text;  // config_sha256 is the text's
  std::string manifest_json;
  std::vector<std::pair<std::string, std::string>> variants;  // name, knobs_json
  std::vector<const Workload*> workloads;
};

// The run (status "running"), its variants and its metrics; the run's id.
// `run` and `import` both start their runs here.
std::int64_t create_run_record(Store& store, const RunRecord& record);

// A new run with the plan's variants and the config's metrics, status
// "running"; its manifest gets `planned_iterations` {min, max} (the plan's
// on each of `pairs` pairs), so `list` can say how much of it ran.
std::int64_t create_run_record(Store& store, const Config& config, const Plan& plan,
                               const std::string& name, const std::string& manifest_json,
                               std::size_t pairs = 1);

}  // namespace schedlab
