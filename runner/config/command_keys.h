// The keys of a `- command:` workload entry and of each of its metrics,
// one row each with what it means: config validation checks keys against
// these rows, and `schedlab workloads command` prints them. The generic
// workload has no ParamSpec rows of its own (the config declares its
// parameters and metrics), so these rows are its documentation.
#pragma once

#include <string>
#include <vector>

namespace schedlab {

struct ConfigKeyHelp {
  const char* key;
  const char* meaning;
};

inline constexpr const char* kCommandWorkloadDescription =
    "any tool that prints its result as text (schbench, sysbench, stress-ng, perf bench): an argv "
    "template with {param} placeholders, and a regular expression per metric";

inline constexpr ConfigKeyHelp kCommandKeys[] = {
    {"name", "the workload's name in tables and the database (required)"},
    {"description", "one line for `schedlab workloads` and reports"},
    {"package", "the Debian package with the tool, named when it is missing (default: the name)"},
    {"role", "sut or loadgen: where the command runs (default: sut)"},
    {"argv",
     "the program and its arguments, one per list element, never a shell: {PARAM} is the point's value of "
     "a parameter, {sut_address}, {port} and {workdir} the runner's, {{ and }} literal braces (required)"},
    {"params", "NAME: VALUE (fixed) or NAME: [VALUES] (swept: one table row per value); the type is inferred"},
    {"metrics", "NAME: {regex, direction, ...}, one or more (the keys below)"},
    {"error", "a regular expression: an output line matching it is the tool reporting an error"},
    {"timeout", "an iteration still running after this is killed and recorded as failed (default: 5m)"},
    {"iterations", "as at the top level, for this workload"},
    {"monitors", "as at the top level, for this workload (see Monitors)"},
    {"task_monitor", "as at the top level, for this workload (see Monitors)"},
};

inline constexpr ConfigKeyHelp kCommandMetricKeys[] = {
    {"regex", "Perl syntax, matched against each output line, with a (?<value>...) group (required); an "
              "interval metric may add (?<offset>...) with the seconds into the run"},
    {"direction", "higher or lower: which is better (required)"},
    {"unit", "shown in tables (default: none)"},
    {"centre", "amean, hmean, gmean or median (default: hmean when higher is better, else amean)"},
    {"kind", "run (one sample per iteration) or interval (time slices of one run) (default: run)"},
    {"domain", "nonnegative (a time, latency, rate or count: a value below 0 is a parse error, intervals "
               "are cut at 0) or unbounded (default: unbounded)"},
    {"match", "one (exactly one matching line), each (every match a sample) or last (default: one for a run "
              "metric, each for an interval metric)"},
    {"stream", "stdout, stderr or both (default: both)"},
    {"help", "what the metric means, for reports"},
};

// The key names of a table, for check_keys.
template <std::size_t N>
std::vector<std::string> key_names(const ConfigKeyHelp (&rows)[N]) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.emplace_back(r.key);
  return out;
}

}  // namespace schedlab
