// The command workload's schema: `- command: {name, argv, params,
// metrics, ...}` makes a workload from the config itself (workloads/
// command.h). Its params become ParamSpec rows (a list sweeps as table
// rows), which the config then validates like any workload's.
#pragma once

#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>

#include "runner/input/yaml_reader.h"
#include "workloads/workload.h"

namespace schedlab {

// The workload `body` (at `key`, workloads[N].command) describes; its
// `params` mapping is left in params_out for the caller to validate.
std::shared_ptr<const Workload> parse_command_workload(const YamlReader& r, const YAML::Node& body,
                                                       const std::string& key,
                                                       YAML::Node& params_out);

}  // namespace schedlab
