#include "workloads/registry.h"

#include "workloads/dmatest.h"
#include "workloads/hackbench.h"
#include "workloads/hammerdb.h"
#include "workloads/netperf.h"
#include "workloads/pgbench.h"
#include "workloads/schbench.h"
#include "workloads/seccomp_notify.h"
#include "workloads/sysbench.h"
#include "workloads/tbench.h"

namespace schedlab {

// The generic `command` workload is not here: each config entry makes its own
// with make_command_workload (workloads/command.h).
const std::vector<const Workload*>& all_workloads() {
  static const Hackbench hackbench;
  static const Tbench tbench;
  static const Pgbench pgbench;
  static const Dmatest dmatest;
  static const Hammerdb hammerdb;
  static const Sysbench sysbench;
  static const SeccompNotify seccomp_notify;
  static const Netperf netperf;
  static const Schbench schbench;
  static const std::vector<const Workload*> registry = {
      &hackbench, &tbench, &pgbench, &dmatest, &hammerdb, &sysbench, &seccomp_notify, &netperf, &schbench};
  return registry;
}

const Workload* find_workload(const std::string& name) {
  for (const Workload* w : all_workloads())
    if (w->name() == name) return w;
  return nullptr;
}

std::optional<ValueDomain> declared_domain(const std::string& workload, const std::string& metric) {
  const Workload* w = find_workload(workload);
  const MetricSpec* m = w ? w->find_metric(metric) : nullptr;
  if (!m) return std::nullopt;
  return m->domain;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const Workload* w : all_workloads()) names.push_back(w->name());
  return names;
}

std::vector<std::string> guest_programs() {
  std::vector<std::string> names;
  for (const Workload* w : all_workloads())
    for (const ProgramSpec& p : w->programs())
      if (p.guest) names.push_back(p.name);
  return names;
}

}  // namespace schedlab
