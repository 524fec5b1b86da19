#include "runner/run/pairs_run.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "results/runs_table.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/one_pair.h"
#include "runner/run/run_record.h"

namespace schedlab {
namespace {

// What one pair's thread left behind.
struct PairOutcome {
  std::optional<RunSummary> summary;
  std::string error;  // why the pair stopped early, empty when it did not
};

}  // namespace

RunSummary run_pairs(Store& store, const RunShape& shape, const KernelShape& kernel,
                     const ExecOptions& options) {
  const Config& config = shape.config;
  RunSummary total;
  if (options.resume_run) {
    const auto run = store.runs_table().find_run(*options.resume_run);
    if (!run)
      throw PreflightError(fmt::format("no run {} in {}", *options.resume_run, store.path()));
    total.run_id = run->id;
    total.name = run->name;
  } else {
    nlohmann::json manifest = {
        {"order", config.order == Order::kInterleaved ? "interleaved" : "sequential"},
        {"pairs", nlohmann::json::object()}};
    manifest["pair_order"] = nlohmann::json::array();  // "pairs" is an object: no order
    for (const auto& p : config.pairs) {
      manifest["pairs"][p.name] = {{"sut", p.sut}, {"loadgen", p.loadgen}};
      manifest["pair_order"].push_back(p.name);
    }
    manifest.update(options.manifest);
    total.name = options.name;
    total.run_id = create_run_record(store, config, kernel.plan, options.name, manifest.dump(), config.pairs.size());
  }
  store.runs_table().set_run_status(total.run_id, RunStatus::kRunning, false);

  std::vector<PairOutcome> outcomes(config.pairs.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < config.pairs.size(); ++i)
      threads.emplace_back([&, i] {
        const PairConfig& pc = config.pairs[i];
        try {
          Store own(store.path());  // a connection per thread (WAL, busy timeout)
          ExecOptions o = options;
          o.resume_run = total.run_id;
          o.pair = pc.name;
          o.progress = ProgressStyle::kNone;  // one status line cannot show several pairs
          outcomes[i].summary = run_on_pair(own, shape, kernel, shape.hosts(kernel, i), o);
        } catch (const std::exception& e) {
          outcomes[i].error = e.what();
          try {
            Store own(store.path());
            own.runs_table().set_manifest_member(total.run_id, {"pairs", pc.name, "error"},
                                                 nlohmann::json(e.what()).dump());
          } catch (const std::exception&) {
            // The summary still carries it.
          }
        }
      });
  }  // joined

  bool any_failed = false;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const std::string& name = config.pairs[i].name;
    const PairOutcome& o = outcomes[i];
    if (!o.error.empty()) {
      any_failed = true;
      total.errors.push_back(fmt::format("pair {}: {}", name, o.error));
      continue;
    }
    total.measured += o.summary->measured;
    total.skipped += o.summary->skipped;
    total.failed += o.summary->failed;
    for (const auto& e : o.summary->errors)
      total.errors.push_back(fmt::format("pair {}: {}", name, e));
  }
  total.status = interrupted() ? RunStatus::kInterrupted
                 : any_failed  ? RunStatus::kFailed
                               : RunStatus::kFinished;
  store.runs_table().set_run_status(total.run_id, total.status, true);
  return total;
}

}  // namespace schedlab
