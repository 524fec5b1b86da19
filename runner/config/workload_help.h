// What each workload accepts and measures, from its spec rows alone
// (ParamSpec, MetricSpec, ProgramSpec): `schedlab workloads [NAME]`, like
// fio's --enghelp. The README's workload section is the markdown form,
// pasted between marker comments; a test checks that the two agree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

std::string workloads_text(const std::vector<const Workload*>& workloads);
std::string workloads_markdown(const std::vector<const Workload*>& workloads);
// [{name, description, package, programs, params, metrics}]: see the README,
// "schedlab workloads".
nlohmann::ordered_json workloads_json(const std::vector<const Workload*>& workloads);

// The markers around the generated section in README.md.
inline constexpr const char* kWorkloadsBegin =
    "<!-- begin: schedlab workloads --format markdown (generated; a test checks it) -->";
inline constexpr const char* kWorkloadsEnd = "<!-- end: schedlab workloads -->";

}  // namespace schedlab
