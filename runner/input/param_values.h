// Typed parameter values from text, by the workload's ParamSpec rows: one
// rule for an experiment file's YAML scalars, `--param name=value` on a
// command line (parse, import) and bisect's `--param`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
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

// The point of a saved output before it is read: the user's overrides, and
// every other parameter unknown (Point::unknown; its default kept for labels
// and steps), but for those that say how schedlab reads (ParamSpec::reading),
// which take their default. `parse` records a file's point so when the
// output contradicts a --param.
Point point_from_given(const Workload& w, const std::vector<std::string>& overrides);

// The point a saved output was made at (parse, import): the user's
// overrides, then what the output states about itself for every parameter
// they leave out (Workload::stated_params); the rest stays unknown, never a
// default (point_from_given). A parameter the user gives and the output
// states otherwise is std::invalid_argument naming both ("the output states
// groups=2, not --param groups=4"), and so is a stated value the parameter
// cannot take.
Point point_from_output(const Workload& w, const std::vector<std::string>& overrides, const std::string& out,
                        const std::string& err);

// A saved output's point as `parse --format json` prints it and `import`
// stores it (params_json): each value as format_param writes it, an unknown
// one as null (shown as "?" by compare and list).
nlohmann::json point_json(const Point& p);

}  // namespace schedlab
