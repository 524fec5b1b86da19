// The hosts a config names, as HostSet takes them: its `hosts:` pair or one
// of its `pairs:`.
#pragma once

#include "runner/config/config.h"
#include "runner/lab/host_set.h"

namespace schedlab {

// The config's hosts: pair; a lab SUT boots sut_lab->kernel.
HostSpec hosts_of(const Config& config);
// One pair of its `pairs:`.
HostSpec hosts_of(const Config& config, const PairConfig& pair);

}  // namespace schedlab
