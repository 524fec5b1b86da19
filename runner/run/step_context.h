// The parts of a workload's StepContext that come from the pair it runs on:
// what the SUT is (root or not, its memory), the work directories, and
// the secret its servers are started with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/run/leftovers.h"
#include "runner/run/step_runner.h"
#include "workloads/workload.h"

namespace schedlab {

// sut_address, sut_root (`id -u` is 0) and sut_mem_bytes (MemTotal; left
// unset when /proc/meminfo cannot be read: workloads that need it say so).
StepContext sut_step_context(const Pair& pair);

// A work directory of its own on every host of the pair (mkdtemp of
// `prefix` on the SUT, the same path made new on a separate loadgen),
// journaled so a run that dies leaves none behind (leftovers.h). The SUT's
// comes first. Throws PreflightError when a host cannot make one.
std::vector<Workdir> make_pair_workdirs(KnobJournalTable& journal, const Pair& pair,
                                        std::int64_t run_id, const std::string& prefix);

// 24 random characters of [a-z0-9]: a password a workload's servers and
// clients share for one workload entry.
std::string random_secret();

}  // namespace schedlab
