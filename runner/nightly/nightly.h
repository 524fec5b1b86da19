// schedlab nightly, the runner side: measure every target of a nightly file
// with every config not yet measured (same target name, same config text by
// sha256), reusing what the database already holds unless forced, and
// resuming a run a previous invocation left unfinished. A target's hook runs
// once before its first unmeasured config; a hook that fails or hangs, an
// SUT that does not come back, or a kernel that is not the expected one
// makes that target failed (nothing measured), and the others go on.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/nightly/nightly_input.h"
#include "results/store.h"
#include "runner/config/config.h"
#include "runner/nightly/nightly_config.h"

namespace schedlab {

// Measuring elsewhere (schedlab nightly --slurm): start() hands one
// target's config over (to be run under RUN_NAME) and returns at once;
// collect() waits for everything started, brings those runs into the store
// by name, and returns the error of each run it could not bring, by name.
// A throwing start() fails that measurement only.
struct RemoteMeasure {
  std::function<void(const Config& target_config, const NightlyTarget& target,
                     const std::string& run_name)>
      start;
  std::function<std::map<std::string, std::string>(Store& store)> collect;
};

struct NightlyOptions {
  bool force = false;     // measure again even what is already measured
  bool progress = false;  // executor's status line
  std::optional<RemoteMeasure> remote;  // unset: every run here, in turn
  std::function<void(const std::string&)> note = [](const std::string&) {
  };  // progress lines for people
};

struct NightlyRun {
  std::vector<NightlyCell> cells;  // per target x config, file order
  bool interrupted = false;        // stopped by SIGINT/SIGTERM; resume by running again
};

// A target's lab kernel as the nightly runs it. `git:PATH@REF` (a branch,
// tag or commit) is resolved once, when the nightly starts, to
// `git:PATH@<sha>`, so the kernel built is exactly that commit and each new
// head of a branch is measured once (measurements are reused by target,
// config sha256 and commit). Other kernels, and `git:PATH` (the work tree as
// it is), are kept as written with no commit.
struct ResolvedKernel {
  std::string lab_kernel;  // what config_for_target uses
  std::string repo;        // PATH, ~ expanded (git:PATH@REF only)
  std::string commit;      // the full sha REF named (git:PATH@REF only)
  std::string error;       // one line: an unknown ref, no repository; the target fails
};
ResolvedKernel resolve_lab_kernel(const std::string& lab_kernel);

// The config a target runs: a copy of `config` with its SUT replaced by the
// target's lab kernel or ssh:// SUT (unchanged for a target with neither).
Config config_for_target(const Config& config, const NightlyTarget& target);

// Loads the configs the nightly file names and checks what needs both
// files (per_metric keys name a metric of a config; lab targets need the
// loadgen here) before anything runs: ConfigError. Then measures. The
// interrupt handlers must be installed by the caller. Throws StoreError for
// database failures; everything about one target is recorded instead.
NightlyRun run_nightly(Store& store, const NightlyConfig& nightly, const NightlyOptions& options);

// What the report needs, from the run's cells. `db`: the --db (or
// $SCHEDLAB_DB) the nightly used, empty for the default, for the bisect
// command the report prints.
NightlyReportInput report_input(const NightlyConfig& nightly, const NightlyRun& run,
                                const std::string& db = "");

}  // namespace schedlab
