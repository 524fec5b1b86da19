#include "runner/session.h"

#include "runner/hosts.h"
#include "runner/pairs_run.h"

namespace schedlab {

RunSummary run_config(Store& store, const Config& config, const Plan& plan, const ExecOptions& options) {
  if (!config.pairs.empty()) return run_pairs(store, config, plan, options);
  const HostSet hosts(config);
  const Pair pair = hosts.pair();
  preflight(store, pair, config, plan);
  return execute(store, pair, config, plan, options);
}

}  // namespace schedlab
