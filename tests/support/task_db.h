// A task's database as a Slurm task writes it (run "fleet" on one pair): two
// variants with samples, notes, monitors, a journaled and restored knob and a
// point stop. The merge tests and the merge fuzz target start from it; header
// only, so the fuzz build (no test libraries) can use it too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"

namespace schedlab::test {

// ITERATIONS per variant; SHA is the config's hash (two tasks of one run
// share it), BASE the first iteration's sample (each next one is 1 more).
inline void write_task_db(const std::string& path, const std::string& pair, int iterations,
                          const std::string& sha = "sha-1", double base = 1.0) {
  Store s(path);
  const auto run = s.runs_table().create_run(
      {.name = "fleet",
       .config_path = "fleet.yaml",
       .config_text = "text",
       .config_sha256 = sha,
       .manifest_json = R"({"kernel_release":"6.1.0","pairs":{")" + pair + R"(":{"sut":"ssh://)" +
                        pair + R"("}},"pair_order":[")" + pair + R"("]})",
       .started_at = pair == "n1" ? "2026-12-03T10:00:00Z" : "2026-12-03T09:00:00Z"});
  const auto v0 = s.variants_table().add_variant(
      {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto v1 = s.variants_table().add_variant(
      {.run_id = run, .name = "somaxconn", .position = 1, .knobs_json = R"({"sysctl":1})"});
  s.metrics_table().add_metric(run,
               {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  for (const auto v : {v0, v1})
    for (int i = 0; i < iterations; ++i) {
      IterationRow it = hackbench_iteration(run, v, 2, 0, i);
      it.pair = pair;
      it.started_at = "2026-12-03T10:00:0" + std::to_string(i) + "Z";
      it.duration_s = 0.5;
      it.exit_code = 0;
      it.stdout_text = "Time: " + std::to_string(base + i) + "\n";
      it.notes = i == 0 ? "note of iteration 0" : "";
      it.samples = {{"time", base + i, std::nullopt}};
      it.monitor_snapshots = {{0, "stat", "before", "/proc/stat", "ctxt 1\n"}};
      it.monitor_deltas = {{0, "stat", "ctxt", 10.0 + i}};
      s.iterations_table().add_iteration(it);
    }
  s.point_stops_table().record_point_stop({.run_id = run,
                                           .variant_id = v0,
                                           .workload = "hackbench",
                                           .params_json = R"({"groups":2})",
                                           .iterations = iterations,
                                           .reason = "fixed"});
  const auto j = s.journal().journal_applied({.run_id = run,
                                              .host = "ssh://root@" + pair,
                                              .kind = "sysctl",
                                              .name = "net.core.somaxconn",
                                              .path = "/proc/sys/net/core/somaxconn",
                                              .original = "4096",
                                              .target = "1024"});
  s.journal().journal_restored(j);
  s.runs_table().set_run_status(run, RunStatus::kFinished, true);
}

}  // namespace schedlab::test
