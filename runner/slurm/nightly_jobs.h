// schedlab nightly --slurm: each target's config submitted as a one-task
// job (the lab kernel booted on the node, the target's ssh:// SUT driven
// from it, or the config's hosts put on the node), all of them before any
// is waited for, so the nightly uses the whole partition; then each task's
// database merged into the nightly's. A submission directory per run name
// under RESULTS: a nightly run again after an interrupt finds it and waits
// for (or resubmits) what is unfinished, nothing twice.
#pragma once

#include <functional>
#include <string>

#include "runner/nightly/nightly.h"

namespace schedlab::slurm {

struct NightlySlurmSettings {
  std::string results;    // where the submissions go
  std::string partition;  // empty: the cluster's default
  std::string time_limit;
  std::function<void(const std::string&)> note;
};

RemoteMeasure nightly_jobs(const NightlySlurmSettings& settings);

}  // namespace schedlab::slurm
