// Typed parameter values from text, by the workload's ParamSpec rows: one
// rule for an experiment file's YAML scalars, `--param name=value` on a
// command line (parse, import) and bisect's `--param`.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace schedlab {

// What is wrong with a value, worded as an experiment file reports it
// ("expected an integer, got 'x'"); the caller says where.
class ValueError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The range of a workload's int parameter without its own bounds: the tools
// read their arguments into a C int, so nothing wider passes.
constexpr std::int64_t kIntParamMin = INT32_MIN;
constexpr std::int64_t kIntParamMax = INT32_MAX;

// A whole decimal integer ("-3", "+12") from min to max. Text that is no
// integer, or one outside the range (however many digits), is a ValueError
// naming the range: nothing wraps.
std::int64_t parse_integer(const std::string& text, std::int64_t min, std::int64_t max);
// The whole text as a finite number (std::stod, the C locale); nothing
// otherwise.
std::optional<double> parse_number(const std::string& text);
// true/yes/on or false/no/off.
bool parse_bool(const std::string& text);

// The value of the parameter `spec` describes: an int from spec.min to
// spec.max (kIntParamMin/Max when unset), a duration up to kMaxDuration, a bool, a finite number, or one of spec.choices. Throws
// ValueError.
ParamValue parse_param_value(const ParamSpec& spec, const std::string& text);

// A point with every parameter at its default, then the overrides applied.
// Throws std::invalid_argument naming the bad override.
Point point_from_overrides(const Workload& w, const std::vector<std::string>& overrides);

// The point a saved output was made at (parse, import): the user's
// overrides, then what the output states about itself for every parameter
// they leave out (Workload::stated_params), then the defaults. A parameter
// the user gives and the output states otherwise is std::invalid_argument
// ("the output states groups=2, not --param groups=4"): only what the user
// gives is checked against the output.
Point point_from_output(const Workload& w, const std::vector<std::string>& overrides, const std::string& out,
                        const std::string& err);

}  // namespace schedlab
