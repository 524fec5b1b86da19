#include "runner/session.h"

#include "runner/hosts.h"

namespace schedlab {

RunSummary run_config(Store& store, const Config& config, const Plan& plan, const ExecOptions& options) {
  const HostSet hosts(config);
  const Pair pair = hosts.pair();
  preflight(store, pair, config, plan);
  return execute(store, pair, config, plan, options);
}

}  // namespace schedlab
