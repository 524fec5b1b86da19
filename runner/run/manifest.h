// What a run was measured on: kernel, cmdline, machine, tools, schedlab,
// the SUT's scheduler state at its start and at its end. Read through the
// Host, so a remote SUT reports its own.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/version.h"
#include "results/runs_table.h"
#include "runner/hosts/host.h"
#include "runner/run/run_context.h"

namespace schedlab {

// kernel_release, kernel_version, cmdline, hostname, cpu_model, cpu_count,
// governor (when cpufreq exists), tools (package versions: one dpkg-query
// on the host, or for a lab guest where its programs come from),
// schedlab_version.
nlohmann::json collect_manifest(Host& host, const std::vector<std::string>& packages);

// A run's manifest at its start: collect_manifest of the SUT for the
// config's workloads' packages, the hosts as the config names them, the
// order and the SUT's scheduler state (state_before).
nlohmann::json sut_manifest(const RunContext& ctx);

// A pair's manifest in a resumed run (its member of "pairs"), written once:
// when the pair first starts, not again when it resumes.
void record_pair_manifest(const RunContext& ctx, const RunInfo& run);

// The SUT's state at run end next to state_before in the run's manifest
// (a pair's: its member of "pairs"); what differs is a warning on stderr:
// the SUT was not left as found. Never throws.
void record_state_after(RunsTable& runs, Host& sut, std::int64_t run_id,
                        const std::string& pair_name) noexcept;

}  // namespace schedlab
