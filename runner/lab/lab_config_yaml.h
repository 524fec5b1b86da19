// Reads the mapping form of hosts.sut, `{lab: {kernel: debian:6.12, ...}}`;
// errors are ConfigErrors naming the file, line and key.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "runner/lab/lab_config.h"

namespace schedlab {

LabConfig parse_lab_config(const YAML::Node& sut, const std::string& file);

}  // namespace schedlab
