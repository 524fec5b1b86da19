#include "runner/config/iterations_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "analysis/counters/monitors.h"
#include "base/suggest.h"
#include "runner/input/param_values.h"
#include "runner/input/units.h"

namespace schedlab {
namespace {

// The keys of `stop: sequential` alone.
const std::vector<std::string> kSequentialKeys = {"alpha", "power", "min_effect_pct", "spending",
                                                  "plan_cv_pct"};
// An iterations mapping: the counts, the stop rules, and the sequential design's keys.
const std::vector<std::string> kIterationKeys = [] {
  std::vector<std::string> keys = {"min", "max", "ci_width_pct", "stop"};
  keys.insert(keys.end(), kSequentialKeys.begin(), kSequentialKeys.end());
  return keys;
}();
// The stop rules a mapping may name (the interval-width rule is ci_width_pct alone).
const std::vector<std::string> kStopRules = {"sequential"};
const std::vector<std::string> kTaskMonitorKeys = {"interval", "comm"};
const std::vector<std::string> kPerfStatKeys = {"events"};
const std::vector<std::string> kPerfProfileKeys = {"frequency"};

// NAME cut at each comma outside a pair of slashes (a PMU event's terms,
// cpu/event=0x3c,umask=0/, are one name).
std::vector<std::string> split_outside_slashes(const std::string& name) {
  std::vector<std::string> parts(1);
  bool in_terms = false;
  for (const char c : name) {
    if (c == '/') in_terms = !in_terms;
    if (c == ',' && !in_terms)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// alpha, power, min_effect_pct and plan_cv_pct of `stop: sequential`, each checked by
// the design's own rule (design_error), the error at the key it names.
SequentialStop sequential_stop(const YamlReader& r, const YAML::Node& n, const std::string& key,
                               const IterationPolicy& p) {
  SequentialStop s;
  s.line = r.line_of(n["stop"]);
  s.key = key + ".stop";
  s.design.min_n = static_cast<std::size_t>(p.min);
  const std::pair<const char*, double SequentialDesign::*> fields[] = {
      {"alpha", &SequentialDesign::alpha},
      {"power", &SequentialDesign::power},
      {"min_effect_pct", &SequentialDesign::min_effect_pct},
      {"plan_cv_pct", &SequentialDesign::plan_cv_pct}};
  for (const auto& [name, field] : fields) {
    const YAML::Node v = n[name];
    if (!v) continue;
    std::string text = r.scalar(v, key + "." + name);
    // A CV is % of the mean: `4` or `4%`, no other unit.
    const bool pct = std::string_view(name).ends_with("_pct");
    if (pct && text.ends_with('%')) text.pop_back();
    const auto value = parse_number(text);
    if (!value || !std::isfinite(*value))
      r.fail(v, key + "." + name,
             pct ? fmt::format("expected a percentage of the mean such as 4 or 4%, got '{}'",
                               r.scalar(v, key + "." + name))
                 : fmt::format("expected a number, got '{}'", text));
    s.design.*field = *value;
  }
  if (const YAML::Node v = n["spending"]) {
    const std::string name = r.scalar(v, key + ".spending");
    const auto f = gs::parse_spending(name);
    if (!f)
      r.fail(v, key + ".spending",
             fmt::format("unknown spending function '{}'; known: obf (O'Brien-Fleming-type, the "
                         "default), pocock, "
                         "kd(RHO) (Kim-DeMets, alpha t^RHO, RHO from 0.5 to 5; kd is kd(2))",
                         name));
    s.design.spending = *f;
  }
  // 0 is the design's "none": given, it is no CV.
  if (n["plan_cv_pct"] && s.design.plan_cv_pct == 0)
    r.fail(n["plan_cv_pct"], key + ".plan_cv_pct",
           "plan_cv_pct must be from 0.01 to under 1000 (% of the mean), not 0");
  if (const std::string e = design_error(s.design); !e.empty()) {
    // The line names its field first ("power must be in (0.5, 0.999999], not 1.5").
    for (const auto& [name, field] : fields)
      if (e.starts_with(std::string(name) + " "))
        r.fail(n[name] ? n[name] : n, key + "." + name, e);
    r.fail(n, key, e);
  }
  if (s.design.plan_cv_pct > 0) {
    // Looks fixed before any data: a cap before the planned last one cuts
    // the power the stated CV plans, which is known now.
    const SequentialPlan plan = plan_sequential(s.design);
    const double last = plan.stated->looks.back();
    if (last > p.max)
      r.fail(n["plan_cv_pct"], key + ".plan_cv_pct",
             fmt::format("a CV of {:g}% plans looks up to {:g} iterations a side, past max ({}): "
                         "raise max to {:g}, or leave plan_cv_pct out (the looks then follow the "
                         "samples' variance and max caps them)",
                         s.design.plan_cv_pct, last, p.max, last));
  }
  return s;
}

}  // namespace

// `{interval: 100ms, comm: [myprog, helper]}`: sets the keys given.
void parse_task_monitor(const YamlReader& r, const YAML::Node& n, const std::string& key,
                        TaskMonitorConfig& out) {
  r.expect_map(n, key);
  r.check_keys(n, key, kTaskMonitorKeys);
  if (const auto i = n["interval"]) {
    out.interval = r.duration(i, key + ".interval", std::chrono::milliseconds(10));
  }
  if (const auto c = n["comm"]) {
    if (!c.IsSequence() || c.size() == 0)
      r.fail(c, key + ".comm", "expected a list of process names, e.g. [myprog, helper]");
    out.comm.clear();
    for (const auto& item : c) {
      const std::string name = r.scalar(item, key + ".comm");
      if (name.empty() || name.find('\n') != std::string::npos)
        r.fail(item, key + ".comm", "a process name is one non-empty line");
      out.comm.push_back(name);
    }
  }
}

void parse_perf_stat(const YamlReader& r, const YAML::Node& n, const std::string& key,
                     PerfConfig& out) {
  r.expect_map(n, key);
  r.check_keys(n, key, kPerfStatKeys);
  const auto e = n["events"];
  if (!e) return;
  const std::string k = key + ".events";
  if (!e.IsSequence() || e.size() == 0)
    r.fail(e, k, "expected a list of perf events, e.g. [context-switches, sched:sched_switch]");
  out.events.clear();
  out.event_lines.clear();
  for (const auto& item : e) {
    const std::string name = r.scalar(item, k);
    // perf takes the list as one -e argument, so an event is one token.
    if (name.empty() || name.front() == '-' || name.find_first_of(" \t\n") != std::string::npos)
      r.fail(item, k, fmt::format("'{}' is not a perf event name (see perf list)", name));
    // perf's own list syntax would take 'cycles,instructions' as two
    // events, which schedlab then probes, counts and drops as one: each is
    // its own item. A comma between a PMU event's slashes
    // (cpu/event=0x3c,umask=0/) is part of its one name.
    if (const auto parts = split_outside_slashes(name); parts.size() > 1)
      r.fail(item, k,
             fmt::format("'{}' is {} events: list each as its own item ([{}])", name, parts.size(),
                         fmt::join(parts, ", ")));
    if (std::find(out.events.begin(), out.events.end(), name) != out.events.end())
      r.fail(item, k, fmt::format("event '{}' is listed twice", name));
    out.events.push_back(name);
    out.event_lines.push_back(YamlReader::line_of(item));
  }
}

void parse_perf_profile(const YamlReader& r, const YAML::Node& n, const std::string& key,
                        PerfConfig& out) {
  r.expect_map(n, key);
  r.check_keys(n, key, kPerfProfileKeys);
  // perf's default ceiling (kernel.perf_event_max_sample_rate) is in the
  // tens of thousands; a profile above 10 kHz costs more than it tells.
  if (const auto f = n["frequency"])
    out.frequency = static_cast<int>(r.integer(f, key + ".frequency", 1, 10000));
}

// `[schedstat, stat]`: names from the monitor registry, each once; `[]`
// turns a top-level default off for one workload.
std::vector<std::string> parse_monitors(const YamlReader& r, const YAML::Node& n,
                                        const std::string& key) {
  std::vector<std::string> known;
  for (const auto& m : monitor_names()) known.emplace_back(m);
  if (!n.IsSequence())
    r.fail(n, key,
           fmt::format("expected a list of monitors, e.g. [schedstat, stat]; known: {}",
                       fmt::join(known, ", ")));
  std::vector<std::string> out;
  for (const auto& item : n) {
    const std::string name = r.scalar(item, key);
    if (std::find(known.begin(), known.end(), name) == known.end())
      r.fail(item, key,
             fmt::format("unknown monitor '{}'{}; known: {}", name, did_you_mean(name, known),
                         fmt::join(known, ", ")));
    if (std::find(out.begin(), out.end(), name) != out.end())
      r.fail(item, key, fmt::format("monitor '{}' is listed twice", name));
    out.push_back(name);
  }
  return out;
}

// `5`, `{min: 3, max: 30, ci_width_pct: 2}`, or `{min: 3, max: 60, stop:
// sequential, alpha: 0.05, power: 0.8, min_effect_pct: 3, plan_cv_pct: 4}`.
IterationPolicy parse_iterations(const YamlReader& r, const YAML::Node& n, const std::string& key) {
  IterationPolicy p;
  if (n.IsScalar()) {
    p.min = p.max = static_cast<int>(r.integer(n, key, 1, kMaxIterations));
    return p;
  }
  r.expect_map(n, key);
  r.check_keys(n, key, kIterationKeys);
  const YAML::Node stop = n["stop"];
  if (stop) {
    const std::string rule = r.scalar(stop, key + ".stop");
    if (std::find(kStopRules.begin(), kStopRules.end(), rule) == kStopRules.end())
      r.fail(stop, key + ".stop",
             fmt::format("unknown stop rule '{}'{}; known: {} (the interval-width rule is "
                         "ci_width_pct alone)",
                         rule, did_you_mean(rule, kStopRules), fmt::join(kStopRules, ", ")));
    if (n["ci_width_pct"])
      r.fail(n["ci_width_pct"], key + ".ci_width_pct",
             "ci_width_pct and stop: sequential are two stop rules: give one");
  } else {
    for (const auto& k : kSequentialKeys)
      if (n[k])
        r.fail(n[k], key + "." + k,
               fmt::format("{} belongs to stop: sequential (give stop: sequential)", k));
    if (!n["ci_width_pct"])
      r.fail(n, key,
             "a mapping makes iterations adaptive: give ci_width_pct (and min, max), or stop: "
             "sequential");
  }
  const int default_max = stop ? 60 : 30;
  p.min = n["min"] ? static_cast<int>(r.integer(n["min"], key + ".min", 2, kMaxIterations)) : 3;
  p.max = n["max"] ? static_cast<int>(r.integer(n["max"], key + ".max", 2, kMaxIterations))
                   : default_max;
  if (p.max < p.min)
    r.fail(n["max"] ? n["max"] : n, key + ".max",
           fmt::format("max ({}) is below min ({})", p.max, p.min));
  if (stop) {
    p.sequential = sequential_stop(r, n, key, p);
    return p;
  }
  const std::string s = r.scalar(n["ci_width_pct"], key + ".ci_width_pct");
  const double pct = parse_number(s).value_or(-1);
  if (!(pct > 0 && pct < 100))
    r.fail(n["ci_width_pct"], key + ".ci_width_pct",
           fmt::format("expected a percentage between 0 and 100, got '{}'", s));
  p.ci_width_pct = pct;
  return p;
}

}  // namespace schedlab
