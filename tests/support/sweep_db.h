// A database of hackbench sweeps written through the Store, for the report's
// plot tests: runs of one variant each, a row per swept group count, every
// cell's samples spread around a centre that grows with the row.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"

namespace schedlab::test {

struct SweepDb {
  std::vector<std::string> runs;  // run names, one variant ("default") each
  std::vector<int> groups;        // the rows
  int samples = 3;                // per cell
  bool imported = false;          // stored as `schedlab import` stores runs
};

inline void write_sweep_db(const std::string& path, const SweepDb& d) {
  Store store(path);
  for (std::size_t k = 0; k < d.runs.size(); ++k) {
    const auto run =
        store.runs_table().create_run({.name = d.runs[k],
                                       .config_path = d.imported ? "(import)" : "sweep.yaml",
                                       .config_text = "",
                                       .config_sha256 = "0",
                                       .manifest_json = d.imported ? R"({"imported":true})" : "{}",
                                       .status = RunStatus::kFinished,
                                       .started_at = fmt::format("2026-12-0{}T10:00:00Z", k + 1)});
    const auto variant = store.variants_table().add_variant({0, run, "default", 0, "{}"});
    store.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    for (std::size_t r = 0; r < d.groups.size(); ++r)
      for (int s = 0; s < d.samples; ++s) {
        IterationRow it;
        it.run_id = run;
        it.variant_id = variant;
        it.workload = "hackbench";
        it.block = "hackbench-process-pipes";
        it.row = std::to_string(d.groups[r]);
        it.row_order = static_cast<int>(r);
        it.params_json = fmt::format(R"({{"modes":"process-pipes","groups":{},"loops":100}})", d.groups[r]);
        it.iteration = s;
        // The later run 5% slower; the samples 2% apart.
        it.samples = {{"time", 0.05 * d.groups[r] * (1 + 0.05 * double(k)) * (1 + 0.02 * (s - 1)), std::nullopt}};
        store.iterations_table().add_iteration(it);
      }
  }
}

}  // namespace schedlab::test
