// How often and what a workload measures: its `iterations:` (a count, an
// adaptive interval-width rule or `stop: sequential`), its `monitors:` and
// its `task_monitor:` settings, each read at the top level (the default)
// or per workload; and the perf monitors' `perf_stat:` and `perf_profile:`
// (top level only).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/input/yaml_reader.h"

namespace schedlab {

// `5`, `{min: 3, max: 30, ci_width_pct: 2}`, or `{min: 3, max: 60, stop:
// sequential, alpha: 0.05, power: 0.8, min_effect_pct: 3}`.
IterationPolicy parse_iterations(const YamlReader& r, const YAML::Node& n, const std::string& key);
// `[schedstat, stat]`: names from the monitor registry, each once; `[]`
// turns a top-level default off for one workload.
std::vector<std::string> parse_monitors(const YamlReader& r, const YAML::Node& n,
                                        const std::string& key);
// `{interval: 100ms, comm: [myprog, helper]}`: sets the keys given.
void parse_task_monitor(const YamlReader& r, const YAML::Node& n, const std::string& key,
                        TaskMonitorConfig& out);

// `perf_stat: {events: [context-switches, sched:sched_switch]}`: the
// events perf-stat counts (each once; checked on the SUT by preflight).
void parse_perf_stat(const YamlReader& r, const YAML::Node& n, const std::string& key,
                     PerfConfig& out);
// `perf_profile: {frequency: 99}`: perf-profile's samples per second.
void parse_perf_profile(const YamlReader& r, const YAML::Node& n, const std::string& key,
                        PerfConfig& out);

}  // namespace schedlab
