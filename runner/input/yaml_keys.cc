#include "runner/input/yaml_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/suggest.h"
#include "base/text.h"

namespace schedlab {

std::optional<KeyProblem> key_problem(const YAML::Node& map, const std::vector<std::string>& allowed) {
  std::set<std::string> seen;
  for (const auto& kv : map) {
    const std::string k = kv.first.as<std::string>();
    if (!seen.insert(k).second)
      return KeyProblem{kv.first, fmt::format("duplicate key '{}'", excerpt(k, 80))};
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end())
      return KeyProblem{
          kv.first, fmt::format("unknown key '{}'{}", excerpt(k, 80), did_you_mean(k, allowed))};
  }
  return std::nullopt;
}

}  // namespace schedlab
