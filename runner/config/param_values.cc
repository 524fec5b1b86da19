#include "runner/config/param_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "runner/config/suggest.h"
#include "runner/config/units.h"

namespace schedlab {

Point point_from_overrides(const Workload& w, const std::vector<std::string>& overrides) {
  Point p;
  for (const auto& spec : w.params()) p.values[spec.name] = spec.default_value;
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos) throw std::invalid_argument(fmt::format("--param {}: expected name=value", o));
    const std::string name = o.substr(0, eq), value = o.substr(eq + 1);
    const ParamSpec* spec = w.find_param(name);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& s : w.params()) names.push_back(s.name);
      throw std::invalid_argument(fmt::format("--param {}: {} has no parameter '{}'{}", o, w.name(),
                                              name, did_you_mean(name, names)));
    }
    try {
      switch (spec->type) {
        case ParamType::kInt: {
          std::size_t used = 0;
          p.values[name] = static_cast<std::int64_t>(std::stoll(value, &used));
          if (used != value.size()) throw std::invalid_argument("");
          break;
        }
        case ParamType::kDouble: p.values[name] = std::stod(value); break;
        case ParamType::kBool:
          if (value != "true" && value != "false") throw std::invalid_argument("");
          p.values[name] = value == "true";
          break;
        case ParamType::kDuration: {
          auto d = parse_duration(value);
          if (!d) throw std::invalid_argument("");
          p.values[name] = *d;
          break;
        }
        case ParamType::kString:
          if (!spec->choices.empty() &&
              std::find(spec->choices.begin(), spec->choices.end(), value) == spec->choices.end())
            throw std::invalid_argument("");
          p.values[name] = value;
          break;
      }
    } catch (const std::logic_error&) {
      throw std::invalid_argument(fmt::format("--param {}: '{}' is not a valid {}", o, value, name));
    }
  }
  return p;
}

}  // namespace schedlab
