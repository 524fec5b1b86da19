// Reads the mapping form of hosts.sut, `{lab: {kernel: debian:6.12, ...}}`;
// errors are ConfigErrors naming the file, line and key.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner/lab/lab_config.h"

namespace schedlab {

LabConfig parse_lab_config(const YAML::Node& sut, const std::string& file);

// What qemu would refuse of a lab config (memory not of qemu's form,
// CPUs that do not split into the sockets) and what its board does not
// allow (its fixed CPUs and memory, no KVM, a Debian package of another
// flavour), as "KEY: message"; empty when it fits. The CLI's lab
// boot|shell and the config share it.
std::vector<std::pair<std::string, std::string>> board_problems(const LabConfig& c);

// The kernels a lab SUT's plan boots: `kernels:`, else the one `kernel:`;
// empty when the SUT is not a lab.
std::vector<std::string> plan_kernels(const std::optional<LabConfig>& lab);

// A variant's `kernels:` (the kernels it applies to): a list of entries of
// the lab's kernels, each once. `key` is variants.NAME.kernels.
std::vector<std::string> parse_variant_kernels(const YAML::Node& n, const std::string& key,
                                               const std::optional<LabConfig>& lab,
                                               const std::string& file);

}  // namespace schedlab
