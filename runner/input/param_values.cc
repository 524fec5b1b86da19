#include "runner/input/param_values.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "base/suggest.h"
#include "base/text.h"
#include "runner/input/units.h"

namespace schedlab {

std::int64_t parse_integer(const std::string& text, std::int64_t min, std::int64_t max) {
  // from_chars takes a '-' but no '+'; "+-3" is no integer.
  const bool plus = text.starts_with('+');
  const char* begin = text.data() + (plus ? 1 : 0);
  const char* end = text.data() + text.size();
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, v);
  const bool whole = ptr == end && begin != end && !(plus && *begin == '-');
  if (!whole || (ec != std::errc() && ec != std::errc::result_out_of_range))
    throw ValueError(fmt::format("expected a whole number from {} to {}, got '{}'", min, max,
                                 excerpt(text)));
  if (ec == std::errc::result_out_of_range || v < min || v > max)
    throw ValueError(fmt::format("{} is out of range: expected a whole number from {} to {}",
                                 excerpt(text), min, max));
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
  throw ValueError(fmt::format("expected true or false, got '{}'", excerpt(text)));
}

ParamValue parse_param_value(const ParamSpec& spec, const std::string& text) {
  switch (spec.type) {
    case ParamType::kInt:
      return parse_integer(text, spec.min.value_or(kIntParamMin), spec.max.value_or(kIntParamMax));
    case ParamType::kDuration:
      if (const auto d = parse_duration(text)) {
        if (spec.min && d->count() < *spec.min)
          throw ValueError(fmt::format("must be at least {}, got {}",
                                       format_duration(std::chrono::milliseconds(*spec.min)),
                                       excerpt(text)));
        return *d;
      }
      throw ValueError(fmt::format("expected a duration from 0s to {} such as 30s or 500ms, got '{}'",
                                   format_duration(kMaxDuration), excerpt(text)));
    case ParamType::kBool:
      return parse_bool(text);
    case ParamType::kDouble:
      if (const auto d = parse_number(text)) return *d;
      throw ValueError(fmt::format("expected a number, got '{}'", excerpt(text)));
    case ParamType::kString:
      if (!spec.choices.empty() &&
          std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
        throw ValueError(fmt::format("'{}' is not one of: {}{}", excerpt(text),
                                     fmt::join(spec.choices, ", "),
                                     did_you_mean(text, spec.choices)));
      return text;
  }
  throw ValueError("unsupported parameter type");
}

Point point_from_overrides(const Workload& w, const std::vector<std::string>& overrides) {
  Point p = default_point(w);
  std::map<std::string, std::string> given;  // name -> its --param, for one given twice
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(fmt::format("--param {}: expected name=value", excerpt(o)));
    const std::string name = o.substr(0, eq), value = o.substr(eq + 1);
    // Which one the user meant is theirs to say: none is taken unsaid
    // (hostile16: the last was).
    if (const auto [first, added] = given.emplace(name, o); !added)
      throw std::invalid_argument(
          fmt::format("--param {} and --param {}: '{}' is given twice; give it once",
                      excerpt(first->second), excerpt(o), excerpt(name)));
    const ParamSpec* spec = w.find_param(name);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& s : w.params()) names.push_back(s.name);
      throw std::invalid_argument(fmt::format("--param {}: {} has no parameter '{}'{}", excerpt(o),
                                              w.name(), excerpt(name), did_you_mean(name, names)));
    }
    try {
      p.values[name] = parse_param_value(*spec, value);
    } catch (const ValueError& e) {
      throw std::invalid_argument(fmt::format("--param {}={}: {}", name, excerpt(value), e.what()));
    }
  }
  return p;
}

Point point_from_given(const Workload& w, const std::vector<std::string>& overrides) {
  Point p = point_from_overrides(w, overrides);
  const auto given = [&](const std::string& name) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const std::string& o) { return o.substr(0, o.find('=')) == name; });
  };
  for (const auto& spec : w.params())
    if (!spec.reading && !given(spec.name)) p.unknown.insert(spec.name);
  return p;
}

Point point_from_output(const Workload& w, const std::vector<std::string>& overrides, const std::string& out,
                        const std::string& err) {
  Point p = point_from_given(w, overrides);
  for (const auto& stated : w.stated_params(p, out, err)) {
    const auto eq = stated.find('=');
    const std::string name = stated.substr(0, eq);
    const ParamSpec* spec = w.find_param(name);
    if (!spec)
      throw std::logic_error(
          fmt::format("{} states an undeclared parameter: {}", w.name(), stated));
    ParamValue value;
    try {
      value = parse_param_value(*spec, stated.substr(eq + 1));
    } catch (const ValueError& e) {
      throw std::invalid_argument(fmt::format("the output states {}, which {} cannot be: {}",
                                              excerpt(stated), name, e.what()));
    }
    // Compared as values (loops=0200 is loops=200).
    if (p.known(name) && format_param(value) != format_param(p.values.at(name))) {
      const auto user = std::find_if(overrides.rbegin(), overrides.rend(), [&](const auto& o) {
        return o.substr(0, o.find('=')) == name;
      });
      // Two lines of one output that disagree (two banners) are its
      // parser's to refuse; only a --param is checked here.
      if (user == overrides.rend()) continue;
      throw std::invalid_argument(
          fmt::format("the output states {}, not --param {}", excerpt(stated), excerpt(*user)));
    }
    p.values[name] = std::move(value);
    p.unknown.erase(name);
  }
  return p;
}

nlohmann::json point_json(const Point& p) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [k, v] : p.values)
    json[k] = p.known(k) ? nlohmann::json(format_param(v)) : nlohmann::json(nullptr);
  return json;
}

}  // namespace schedlab
