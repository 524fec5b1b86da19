// What a SUT offers before an experiment is written for it: kernel,
// schedstat, the sched features and whether they can be flipped, which knobs
// are writable, cpufreq, SMT, and which workload tools are installed (with
// the Debian package for each missing one). `schedlab doctor` prints it.
//
// It changes nothing. The only write is the features probe: the current
// token of one feature written back as it is (setting a feature that is
// already set), which is what tells a locked-down kernel from a writable one.
#pragma once

#include <nlohmann/json.hpp>

#include "runner/hosts/host.h"

namespace schedlab {

// The whole report, as `schedlab doctor --format json` prints it. Throws
// HostError when the host fails on a command (not on a missing file).
nlohmann::ordered_json probe_sut(Host& host);

// Every program the registered workloads declare (workloads/registry.h), then
// the few schedlab itself and the shipped command configs use: {tool,
// workload (null for the latter), path (null when missing), package}.
nlohmann::ordered_json probe_tools(Host& host);

}  // namespace schedlab
