// Everything one execution of a plan on one SUT/loadgen pair works with,
// built once by the caller (runner/run/one_pair.h) and passed down by
// reference: preflight and the executor take nothing else.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/time.h"
#include "results/store.h"
#include "runner/config/config.h"
#include "runner/hosts/locks.h"
#include "runner/lab/host_set.h"
#include "runner/run/plan.h"
#include "runner/run/progress.h"
#include "runner/run/step_runner.h"

namespace schedlab {

class PreflightError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExecOptions {
  std::string name;                        // run name; unique in the database
  std::optional<std::int64_t> resume_run;  // continue this run instead of starting one
  ProgressStyle progress = ProgressStyle::kNone;  // the status line on stderr (progress.h)
  // Members a new run's manifest gets besides what the executor collects:
  // "group" for the runs of a multi-kernel plan (kernel_runs.h),
  // "iterations_override" for `run --iterations N`.
  nlohmann::json manifest = nlohmann::json::object();
  // One pair of a `pairs:` run (runner/run/pairs_run.h): the run exists
  // (resume_run), this execution records its iterations under the pair's
  // name and its manifest under manifest.pairs.NAME, and leaves the run's
  // status to the caller.
  std::string pair;
};

// Time as a run sees it: iteration durations and start stamps. Tests give
// a clock of their own.
class RunClock {
 public:
  virtual ~RunClock() = default;
  virtual std::chrono::steady_clock::time_point now() const {
    return std::chrono::steady_clock::now();
  }
  virtual std::string utc_now() const { return utc_now_iso8601(); }
};

inline const RunClock& system_clock() {
  static const RunClock clock;
  return clock;
}

struct RunContext {
  Store& store;           // this thread's connection
  const Pair& pair;       // the connected hosts
  const HostSpec& hosts;  // the same as the config names them (manifest "sut", "loadgen")
  const Config& config;   // workloads, monitors, path and text
  const Plan& plan;       // the points and the variants that apply
  const ExecOptions& options;
  const RunClock& clock = system_clock();
  // The SUT's lock (locks.h), held by the caller for the run's life; told
  // the run's id once it exists. Nothing in tests that drive a fake host.
  SutLock* sut_lock = nullptr;
  // Kernels as columns (kernel_columns.h): the pair each variant of the
  // plan runs on, one booted guest per kernel (`pair` is the baseline's).
  // Empty: every variant runs on `pair`.
  std::vector<const Pair*> variant_pairs = {};

  const Pair& pair_of(std::size_t variant) const {
    return variant_pairs.empty() ? pair : *variant_pairs.at(variant);
  }
};

}  // namespace schedlab
