#include "workloads/registry.h"

#include "workloads/hackbench.h"

namespace schedlab {

const std::vector<const Workload*>& all_workloads() {
  static const Hackbench hackbench;
  static const std::vector<const Workload*> registry = {&hackbench};
  return registry;
}

const Workload* find_workload(const std::string& name) {
  for (const Workload* w : all_workloads())
    if (w->name() == name) return w;
  return nullptr;
}

}  // namespace schedlab
