// The workloads schedlab knows, by name. The only static data in schedlab.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

const std::vector<const Workload*>& all_workloads();
// nullptr when no workload has that name.
const Workload* find_workload(const std::string& name);
// The domain a known workload declares for one of its metrics; empty for
// an unknown workload (a `command`'s name is the config's) or metric. How
// a run stored before domains were recorded gets its metrics' domains.
std::optional<ValueDomain> declared_domain(const std::string& workload, const std::string& metric);
// Their names, in registry order.
std::vector<std::string> workload_names();
// The programs a lab guest gets a copy of: each workload's `guest` programs,
// in registry order.
std::vector<std::string> guest_programs();

}  // namespace schedlab
