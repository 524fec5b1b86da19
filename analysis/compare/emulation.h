// Runs measured on an emulated machine: a lab SUT under TCG (manifest
// `lab.emulated: true`, see runner/lab/lab_host.h). Their numbers say little
// about real hardware, so every table that shows them says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/runs_table.h"

namespace schedlab {

struct EmulatedRun {
  std::int64_t run_id = 0;
  std::string release;  // the guest kernel's release, "" when not recorded
  std::string board;    // the lab board when not the x86 PC ("exynos4210": its DMA engine is emulated too)
};

// The runs whose manifest says lab.emulated, in the given order.
std::vector<EmulatedRun> emulated_runs(const std::vector<RunInfo>& runs);

// "note: lab SUT under TCG: numbers are emulated (6.1.0-28-amd64,
// 6.1.0-57-armmp on exynos4210, ...)\n", or "" when no run is emulated.
std::string emulation_note(const std::vector<RunInfo>& runs);

}  // namespace schedlab
