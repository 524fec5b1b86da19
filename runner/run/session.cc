#include "runner/run/session.h"

#include <fmt/format.h>

#include <algorithm>

#include "runner/hosts/hosts.h"
#include "runner/run/kernel_runs.h"
#include "runner/hosts/lab/guest_journal.h"
#include "runner/run/pairs_run.h"

namespace schedlab {
namespace {

// After a lab guest powered off: knobs still journaled on it (a restore
// that failed, an error mid-variant) went with its kernel.
void discard_guest_knobs(Store& store, const std::string& lab_host) noexcept {
  if (lab_host.empty()) return;
  try {
    if (const auto note = lab::discard_guest_journal(store, lab_host); !note.empty())
      fmt::print(stderr, "schedlab: {}\n", note);
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedlab: warning: {}: {}\n", lab_host, e.what());
  }
}

}  // namespace

RunSummary run_config(Store& store, const Config& config, const Plan& plan,
                      const ExecOptions& options) {
  // A lab config whose variants name kernels (nightly sets sut_lab->kernel
  // on a copy): only the variants for the kernel booted, on their own plan.
  if (config.sut_lab &&
      !std::all_of(config.variants.begin(), config.variants.end(), [&](const VariantConfig& v) {
        return variant_applies(v, config.sut_lab->kernel);
      })) {
    const Config one = config_for_kernel(config, config.sut_lab->kernel);
    return run_config(store, one, expand_plan(one), options);
  }
  if (!config.pairs.empty()) return run_pairs(store, config, plan, options);
  std::string lab_host;
  RunSummary summary;
  try {
    const HostSet hosts(config);  // a lab guest boots here and powers off at scope end
    const Pair pair = hosts.pair();
    if (config.sut_lab) lab_host = pair.sut.name();
    preflight(store, pair, config, plan);
    summary = execute(store, pair, config, plan, options);
  } catch (...) {
    discard_guest_knobs(store, lab_host);
    throw;
  }
  discard_guest_knobs(store, lab_host);
  return summary;
}

}  // namespace schedlab
