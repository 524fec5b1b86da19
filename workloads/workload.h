// The workload interface: what to run where (steps) and how to read the
// output (parser). A workload never starts a process or opens a file itself;
// the runner executes its steps on hosts. That keeps every workload testable
// from fixture text alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "workloads/metric.h"

namespace schedlab {

enum class ParamType { kInt, kString, kDuration };

// How a swept parameter shapes the comparison table: a block parameter
// starts a new table (hackbench's mode), a row parameter is one table row
// (hackbench's group count), a fixed parameter takes one value per run.
enum class Axis { kFixed, kBlock, kRow };

using ParamValue = std::variant<std::int64_t, std::string, std::chrono::milliseconds>;

std::string format_param(const ParamValue& v);

// One row of a workload's parameter table: config validation, defaults and
// the help text all come from these rows.
struct ParamSpec {
  std::string name;
  ParamType type;
  Axis axis = Axis::kFixed;
  ParamValue default_value;
  std::string help;
  std::string unit;
  std::vector<std::string> choices;  // for kString; empty = any
  std::optional<std::int64_t> min;   // for kInt
  bool sweep() const { return axis != Axis::kFixed; }
};

// One fully resolved point of a sweep: every parameter has one value.
struct Point {
  std::map<std::string, ParamValue> values;

  const ParamValue& at(const std::string& name) const;
  std::int64_t int_at(const std::string& name) const;
  const std::string& string_at(const std::string& name) const;
  std::chrono::milliseconds duration_at(const std::string& name) const;
};

enum class Role { kSut, kLoadgen };

struct SchedPolicy;  // runner knows how to apply it; steps only say "workload process"

// One process to run. `measured` steps are the workload processes a variant's
// policy knob applies to.
struct Step {
  Role role = Role::kSut;
  std::vector<std::string> argv;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  bool measured = true;
};

struct Sample {
  std::string metric;
  double value = 0;
  std::optional<double> offset_s;  // for interval samples: seconds into the run
};

// Output that does not parse: names the line that did not match.
class ParseError : public std::runtime_error {
 public:
  ParseError(const std::string& workload, int line, const std::string& what)
      : std::runtime_error(what), workload_(workload), line_(line) {}
  const std::string& workload() const { return workload_; }
  int line() const { return line_; }  // 1-based; 0 = whole output

 private:
  std::string workload_;
  int line_;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual const std::vector<ParamSpec>& params() const = 0;
  virtual const std::vector<MetricSpec>& metrics() const = 0;
  // The Debian package that provides the tool, for "not installed" errors.
  virtual std::string package() const = 0;
  // Label of the table a point belongs to, e.g. "hackbench-process-pipes".
  virtual std::string block_label(const Point& p) const;
  // Label of the row within the table, e.g. "4" for four groups.
  virtual std::string row_label(const Point& p) const;
  // The steps of one measured iteration.
  virtual std::vector<Step> iteration_steps(const Point& p) const = 0;
  // Samples from one iteration's output. Throws ParseError.
  virtual std::vector<Sample> parse(const Point& p, const std::string& out,
                                    const std::string& err) const = 0;

  const ParamSpec* find_param(const std::string& name) const;
  const MetricSpec* find_metric(const std::string& name) const;
};

}  // namespace schedlab
