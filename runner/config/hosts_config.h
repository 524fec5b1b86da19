// Where a config runs: `hosts:` (one SUT/loadgen pair, the SUT perhaps a
// lab VM), `pairs:` (several, each SUT once) and `ssh:` (how ssh:// hosts
// are reached).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/input/yaml_reader.h"

namespace schedlab {

// `local` or `ssh://[user@]host[:port]`.
std::string parse_host(const YamlReader& r, const YAML::Node& n, const std::string& key);
// `hosts: {sut, loadgen, sut_address}` into the config's one pair.
void parse_hosts(const YamlReader& r, const YAML::Node& h, Config& c);
std::vector<PairConfig> parse_pairs(const YamlReader& r, const YAML::Node& n);
SshConfig parse_ssh(const YamlReader& r, const YAML::Node& n);

}  // namespace schedlab
