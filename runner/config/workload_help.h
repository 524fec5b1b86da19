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

// The generic `command` workload: the keys its config entry and each of its
// metrics take (command_keys.h), in each format. `schedlab workloads`
// lists it after the registered workloads; `schedlab workloads command`
// shows it alone.
std::string command_workload_text();
std::string command_workload_markdown();
nlohmann::ordered_json command_workload_json();

// The whole listing of `schedlab workloads --format markdown`: every
// registered workload, then `command`. README.md holds it between markers.
std::string all_workloads_markdown();

// The markers around the generated section in README.md.
inline constexpr const char* kWorkloadsBegin =
    "<!-- begin: schedlab workloads --format markdown (generated; a test checks it) -->";
inline constexpr const char* kWorkloadsEnd = "<!-- end: schedlab workloads -->";

}  // namespace schedlab
