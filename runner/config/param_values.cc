#include "runner/config/param_values.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <boost/regex.hpp>

#include "runner/config/suggest.h"
#include "runner/config/units.h"

namespace schedlab {

std::int64_t parse_integer(const std::string& text, std::int64_t min) {
  static const boost::regex int_re(R"(^[+-]?[0-9]+$)");
  if (!boost::regex_match(text, int_re))
    throw ValueError(fmt::format("expected an integer, got '{}'", text));
  std::int64_t v = 0;
  try {
    v = std::stoll(text);
  } catch (const std::out_of_range&) {
    throw ValueError(fmt::format("'{}' is out of range", text));
  }
  if (v < min) throw ValueError(fmt::format("must be at least {}, got {}", min, v));
  return v;
}

std::optional<double> parse_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double d = std::stod(text, &used);
    if (used == text.size() && std::isfinite(d)) return d;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

bool parse_bool(const std::string& text) {
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  throw ValueError(fmt::format("expected true or false, got '{}'", text));
}

ParamValue parse_param_value(const ParamSpec& spec, const std::string& text) {
  switch (spec.type) {
    case ParamType::kInt:
      return parse_integer(text, spec.min.value_or(INT64_MIN));
    case ParamType::kDuration:
      if (const auto d = parse_duration(text)) return *d;
      throw ValueError(fmt::format("expected a duration such as 30s or 500ms, got '{}'", text));
    case ParamType::kBool:
      return parse_bool(text);
    case ParamType::kDouble:
      if (const auto d = parse_number(text)) return *d;
      throw ValueError(fmt::format("expected a number, got '{}'", text));
    case ParamType::kString:
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        throw ValueError(fmt::format("'{}' is not one of: {}{}", text,
                                     fmt::join(spec.choices, ", "),
                                     did_you_mean(text, spec.choices)));
      return text;
  }
  throw ValueError("unsupported parameter type");
}

Point point_from_overrides(const Workload& w, const std::vector<std::string>& overrides) {
  Point p;
  for (const auto& spec : w.params()) p.values[spec.name] = spec.default_value;
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(fmt::format("--param {}: expected name=value", o));
    const std::string name = o.substr(0, eq), value = o.substr(eq + 1);
    const ParamSpec* spec = w.find_param(name);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& s : w.params()) names.push_back(s.name);
      throw std::invalid_argument(fmt::format("--param {}: {} has no parameter '{}'{}", o, w.name(),
                                              name, did_you_mean(name, names)));
    }
    try {
      p.values[name] = parse_param_value(*spec, value);
    } catch (const ValueError& e) {
      throw std::invalid_argument(fmt::format("--param {}: {}", o, e.what()));
    }
  }
  return p;
}

}  // namespace schedlab
