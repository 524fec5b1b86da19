// The keys of a YAML mapping against the ones a config section allows.
// Every config loader (experiments, nightly files) reports the same way;
// each turns the problem into its own file:line:key error.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

namespace schedlab {

struct KeyProblem {
  YAML::Node at;        // the offending key, for its line
  std::string message;  // "duplicate key 'x'" or "unknown key 'x' (did you mean 'y'?)"
};

// The first duplicate or unknown key of `map`, or nothing.
std::optional<KeyProblem> key_problem(const YAML::Node& map, const std::vector<std::string>& allowed);

}  // namespace schedlab
