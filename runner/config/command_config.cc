#include "runner/config/command_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "runner/config/command_keys.h"
#include "runner/input/param_values.h"
#include "runner/input/units.h"
#include "workloads/command.h"

namespace schedlab {
namespace {

// A command parameter's type from its value: int, duration, bool,
// number, else string.
// Throws ValueError for an integer outside int64 (the command's own
// parameters are text on its argv, so they may be wider than a C int).
ParamValue infer(const std::string& s) {
  const std::string_view digits =
      std::string_view(s).substr(s.starts_with('+') || s.starts_with('-'));
  if (!digits.empty() &&
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return parse_integer(s, INT64_MIN, INT64_MAX);
  if (s == "true" || s == "false") return s == "true";
  if (auto d = parse_duration(s);
      d && !s.empty() && !std::isdigit(static_cast<unsigned char>(s.back())))
    return *d;
  if (const auto d = parse_number(s)) return *d;
  return s;
}

ParamType type_of(const ParamValue& v) {
  if (std::holds_alternative<std::int64_t>(v)) return ParamType::kInt;
  if (std::holds_alternative<bool>(v)) return ParamType::kBool;
  if (std::holds_alternative<double>(v)) return ParamType::kDouble;
  if (std::holds_alternative<std::chrono::milliseconds>(v)) return ParamType::kDuration;
  return ParamType::kString;
}

}  // namespace

// `- command: {name, argv, params, metrics, ...}`: the workload is made
// from the config. Its params become ParamSpec rows (a list sweeps as
// table rows), then validated like any workload's.
std::shared_ptr<const Workload> parse_command_workload(const YamlReader& r, const YAML::Node& body,
                                                       const std::string& key,
                                                       YAML::Node& params_out) {
  static const std::vector<std::string> keys = key_names(kCommandKeys);
  static const std::vector<std::string> metric_keys = key_names(kCommandMetricKeys);
  r.expect_map(body, key);
  r.check_keys(body, key, keys);
  CommandSpec spec;
  if (!body["name"]) r.fail(body, key, "missing 'name': the workload's name in tables");
  spec.name = r.scalar(body["name"], key + ".name");
  if (body["description"]) spec.description = r.scalar(body["description"], key + ".description");
  spec.package = body["package"] ? r.scalar(body["package"], key + ".package") : spec.name;
  if (const auto role = body["role"]) {
    static constexpr Choice<Role> kRoles[] = {{"sut", Role::kSut}, {"loadgen", Role::kLoadgen}};
    spec.role = r.choice(role, key + ".role", kRoles);
  }
  const auto argv = body["argv"];
  if (!argv || !argv.IsSequence() || argv.size() == 0)
    r.fail(argv ? argv : body, key + ".argv",
           "expected a list: the program and its arguments, one per element");
  for (const auto& a : argv) spec.argv.push_back(r.scalar(a, key + ".argv"));
  if (const auto p = body["params"]) {
    r.expect_map(p, key + ".params");
    params_out = p;
    for (const auto& kv : p) {
      const std::string pname = kv.first.as<std::string>();
      const YAML::Node first =
          kv.second.IsSequence() && kv.second.size() > 0 ? kv.second[0] : kv.second;
      const std::string pkey = key + ".params." + pname;
      ParamValue v;
      try {
        v = infer(r.scalar(first, pkey));
      } catch (const ValueError& e) {
        r.fail(first, pkey, e.what());
      }
      spec.params.push_back({.name = pname,
                             .type = type_of(v),
                             .axis = kv.second.IsSequence() ? Axis::kRow : Axis::kFixed,
                             .default_value = v,
                             .help = "command parameter",
                             .min = INT64_MIN,
                             .max = INT64_MAX});
    }
  }
  const auto metrics = body["metrics"];
  if (!metrics || !metrics.IsMap() || metrics.size() == 0)
    r.fail(metrics ? metrics : body, key + ".metrics", "expected at least one metric with a regex");
  for (const auto& kv : metrics) {
    const std::string mname = kv.first.as<std::string>();
    const std::string mkey = key + ".metrics." + mname;
    const YAML::Node m = kv.second;
    r.expect_map(m, mkey);
    r.check_keys(m, mkey, metric_keys);
    CommandMetric cm;
    cm.name = mname;
    if (!m["regex"]) r.fail(m, mkey, "missing 'regex' with a (?<value>...) group");
    cm.regex = r.scalar(m["regex"], mkey + ".regex");
    cm.unit = m["unit"] ? r.scalar(m["unit"], mkey + ".unit") : "";
    if (!m["direction"]) r.fail(m, mkey, "missing 'direction': higher or lower is better");
    cm.direction =
        *direction_from_string(r.one_of(m["direction"], mkey + ".direction", {"higher", "lower"}));
    if (m["centre"])
      cm.centre = centre_from_string(
          r.one_of(m["centre"], mkey + ".centre", {"amean", "hmean", "gmean", "median"}));
    if (m["kind"])
      cm.kind = *sample_kind_from_string(r.one_of(m["kind"], mkey + ".kind", {"run", "interval"}));
    if (m["domain"]) {
      cm.domain = *domain_from_string(r.one_of(m["domain"], mkey + ".domain", domain_words()));
    }
    using Match = CommandMetric::Match;
    static constexpr Choice<Match> kMatches[] = {
        {"one", Match::kOne}, {"each", Match::kEach}, {"last", Match::kLast}};
    if (m["match"]) cm.match = r.choice(m["match"], mkey + ".match", kMatches);
    using Stream = CommandMetric::Stream;
    static constexpr Choice<Stream> kStreams[] = {
        {"stdout", Stream::kStdout}, {"stderr", Stream::kStderr}, {"both", Stream::kBoth}};
    if (m["stream"]) cm.stream = r.choice(m["stream"], mkey + ".stream", kStreams);
    if (m["help"]) cm.help = r.scalar(m["help"], mkey + ".help");
    spec.metrics.push_back(std::move(cm));
  }
  if (body["error"]) spec.error_regex = r.scalar(body["error"], key + ".error");
  if (const auto t = body["timeout"]) {
    spec.timeout = r.duration(t, key + ".timeout", std::chrono::milliseconds(0));
  }
  try {
    return make_command_workload(spec);
  } catch (const std::invalid_argument& e) {
    r.fail(body, key, e.what());
  }
}

}  // namespace schedlab
