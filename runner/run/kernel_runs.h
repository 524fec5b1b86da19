// Multi-kernel plans: a lab config with `kernels: [debian:6.1, debian:6.12]`
// boots each kernel in turn (sequentially) and runs the plan on it with the
// variants that apply to it, each kernel as its own run named NAME@LABEL
// (LABEL = lab::kernel_label: 6.1, 6.12). The runs share "group": NAME in
// their manifests, so `schedlab compare NAME` rebuilds the combined table,
// `schedlab run --resume NAME` continues with the kernels not finished, and
// a single kernel's run (nightly) stays an ordinary run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/run_group.h"

namespace schedlab {

// A config whose lab lists `kernels:` (even one).
bool is_multi_kernel(const Config& config);

// Whether a variant runs on a kernel (by the spec as the config spells it).
bool variant_applies(const VariantConfig& v, const std::string& kernel);

// The config one kernel runs: sut_lab->kernel set, `kernels:` cleared, and
// only the variants that apply. PreflightError when none does.
Config config_for_kernel(const Config& config, const std::string& kernel);

struct KernelRunsResult {
  std::vector<RunSummary> runs;     // one per kernel run now (resumed or new)
  std::vector<std::string> done;    // kernels skipped: their run had finished
  std::vector<std::string> errors;  // "debian:6.1: lab: ..." per kernel that failed
  bool interrupted = false;         // stopped by a signal; later kernels not started
};

// Runs the group: each kernel in config order; a kernel whose run is
// finished is skipped, an unfinished one resumed, a missing one started.
// A kernel that fails (boot, preflight) is reported and the next one runs;
// a signal stops the loop. Each guest is powered off before the next boots
// (run_config). `base` gives progress; name/resume/group are set here.
KernelRunsResult run_kernels(Store& store, const Config& config, const std::string& group,
                             const ExecOptions& base);

}  // namespace schedlab
