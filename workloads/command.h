// The generic workload: any tool that prints its result as text (schbench,
// sysbench, stress-ng, perf bench, netperf). The config gives an argv
// template with {param} placeholders and, per metric, a regular expression
// whose named group `value` captures the number. Made by a factory from a
// plain struct; the runner's config code fills the struct.
#pragma once

#include <memory>
#include <optional>

#include "workloads/workload.h"

namespace schedlab {

struct CommandMetric {
  std::string name;
  // Perl syntax (Boost.Regex), matched against each output line; must hold
  // a named group (?<value>...); an interval metric may add (?<offset>...)
  // with the seconds into the run.
  std::string regex;
  std::string unit;
  Direction direction = Direction::kHigherIsBetter;
  std::optional<Centre> centre;  // default: hmean when higher is better (rates), amean otherwise
  SampleKind kind = SampleKind::kRun;
  // nonnegative: a value below 0 is a parse error, and intervals are cut
  // at 0 (MetricSpec::domain).
  ValueDomain domain = ValueDomain::kUnbounded;
  // one: exactly one matching line (a run metric's default); each: every
  // matching line is a sample (an interval metric's default); last: the last.
  enum class Match { kDefault, kOne, kEach, kLast } match = Match::kDefault;
  enum class Stream { kBoth, kStdout, kStderr } stream = Stream::kBoth;
  std::string help;
};

struct CommandSpec {
  std::string name;  // the workload's name in tables, e.g. "sysbench-cpu"
  std::string description;
  std::string package;  // the Debian package with the tool, for "not installed" errors
  Role role = Role::kSut;
  // One argv element per entry; "{threads}" is replaced by the point's value
  // of parameter threads, and {sut_address}, {port}, {workdir} by the
  // runner's; "{{" and "}}" are literal braces. Never a shell.
  std::vector<std::string> argv;
  std::vector<ParamSpec> params;  // swept or fixed, as for any workload
  std::vector<CommandMetric> metrics;
  // A line matching this is the tool reporting an error (optional).
  std::string error_regex;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
};

// Checks the spec (every placeholder names a parameter, every regex compiles
// and has its `value` group, metric names are unique) and throws
// std::invalid_argument naming the problem.
std::unique_ptr<Workload> make_command_workload(const CommandSpec& spec);

}  // namespace schedlab
