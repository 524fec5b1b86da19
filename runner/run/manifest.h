// What a run was measured on: kernel, cmdline, machine, tools, schedlab.
// Read through the Host, so a remote SUT reports its own.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/version.h"
#include "runner/hosts/host.h"

namespace schedlab {

// kernel_release, kernel_version, cmdline, hostname, cpu_model, cpu_count,
// governor (when cpufreq exists), tools (package versions), schedlab_version.
nlohmann::json collect_manifest(Host& host, const std::vector<std::string>& packages);

}  // namespace schedlab
