#include "runner/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <boost/regex.hpp>
#include <set>

#include "analysis/monitors.h"
#include "analysis/task_samples.h"
#include "runner/config/command_keys.h"
#include "runner/config/param_values.h"
#include "runner/config/suggest.h"
#include "runner/config/units.h"
#include "runner/config/yaml_reader.h"
#include "runner/hosts/lab/lab_config_yaml.h"
#include "runner/hosts/ssh_host.h"
#include "runner/knobs/knob_kind.h"
#include "runner/config/yaml_keys.h"
#include "workloads/command.h"
#include "workloads/registry.h"

namespace schedlab {

ConfigError::ConfigError(const std::string& file, int line, const std::string& key,
                         const std::string& msg)
    : std::runtime_error(fmt::format("{}{}{}{}", file, line > 0 ? fmt::format(":{}", line) : "",
                                     key.empty() ? ": " : ": " + key + ": ", msg)),
      file_(file),
      line_(line),
      key_(key) {}

namespace {

const std::vector<std::string> kTopKeys = {"description", "hosts",      "pairs",
                                           "ssh",         "iterations", "order",
                                           "workloads",   "variants",   "monitors",
                                           "task_monitor"};
const std::vector<std::string> kPairKeys = {"name", "sut", "loadgen", "sut_address"};
// The keys of `stop: sequential` alone.
const std::vector<std::string> kSequentialKeys = {"alpha", "power", "min_effect_pct", "spending"};
// An iterations mapping: the counts, the stop rules, and the sequential design's keys.
const std::vector<std::string> kIterationKeys = [] {
  std::vector<std::string> keys = {"min", "max", "ci_width_pct", "stop"};
  keys.insert(keys.end(), kSequentialKeys.begin(), kSequentialKeys.end());
  return keys;
}();
// The stop rules a mapping may name (the interval-width rule is ci_width_pct alone).
const std::vector<std::string> kStopRules = {"sequential"};
const std::vector<std::string> kHostKeys = {"sut", "loadgen", "sut_address"};
const std::vector<std::string> kSshKeys = {"identity", "known_hosts", "host_key_policy",
                                           "connect_timeout"};
// A variant's keys: one row per knob kind (runner/knobs/knob_kind.h).
const std::vector<std::string> kVariantKeys = variant_keys();
// Keys every workload accepts besides its own parameters.
const std::vector<std::string> kCommonWorkloadKeys = {"iterations", "monitors", "task_monitor"};
const std::vector<std::string> kTaskMonitorKeys = {"interval", "comm"};

class Loader : YamlReader {
 public:
  Loader(std::string path) : YamlReader(std::move(path)) {}

  ParamValue param_value(const ParamSpec& spec, const YAML::Node& n, const std::string& key) const {
    try {
      return parse_param_value(spec, scalar(n, key));
    } catch (const ValueError& e) {
      fail(n, key, e.what());
    }
  }

  WorkloadConfig workload(const YAML::Node& entry, std::size_t index) const {
    const std::string where = fmt::format("workloads[{}]", index);
    if (entry.IsScalar()) {
      // "- hackbench" alone: every parameter at its default.
      return workload_body(entry, entry.Scalar(), YAML::Node(YAML::NodeType::Map), where);
    }
    if (!entry.IsMap() || entry.size() != 1)
      fail(entry, where, "expected one workload name with its parameters, e.g. '- hackbench: {...}'");
    const auto kv = *entry.begin();
    return workload_body(kv.first, kv.first.as<std::string>(), kv.second, where);
  }

  // A command parameter's type from its value: int, duration, bool,
  // number, else string.
  // Throws ValueError for an integer outside int64 (the command's own
  // parameters are text on its argv, so they may be wider than a C int).
  static ParamValue infer(const std::string& s) {
    const std::string_view digits = std::string_view(s).substr(s.starts_with('+') || s.starts_with('-'));
    if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return parse_integer(s, INT64_MIN, INT64_MAX);
    if (s == "true" || s == "false") return s == "true";
    if (auto d = parse_duration(s); d && !s.empty() && !std::isdigit(static_cast<unsigned char>(s.back())))
      return *d;
    if (const auto d = parse_number(s)) return *d;
    return s;
  }

  static ParamType type_of(const ParamValue& v) {
    if (std::holds_alternative<std::int64_t>(v)) return ParamType::kInt;
    if (std::holds_alternative<bool>(v)) return ParamType::kBool;
    if (std::holds_alternative<double>(v)) return ParamType::kDouble;
    if (std::holds_alternative<std::chrono::milliseconds>(v)) return ParamType::kDuration;
    return ParamType::kString;
  }

  // `- command: {name, argv, params, metrics, ...}`: the workload is made
  // from the config. Its params become ParamSpec rows (a list sweeps as
  // table rows), then validated like any workload's.
  std::shared_ptr<const Workload> command(const YAML::Node& body, const std::string& key,
                                          YAML::Node& params_out) const {
    static const std::vector<std::string> keys = key_names(kCommandKeys);
    static const std::vector<std::string> metric_keys = key_names(kCommandMetricKeys);
    expect_map(body, key);
    check_keys(body, key, keys);
    CommandSpec spec;
    if (!body["name"]) fail(body, key, "missing 'name': the workload's name in tables");
    spec.name = scalar(body["name"], key + ".name");
    if (body["description"]) spec.description = scalar(body["description"], key + ".description");
    spec.package = body["package"] ? scalar(body["package"], key + ".package") : spec.name;
    if (const auto r = body["role"]) {
      static constexpr Choice<Role> kRoles[] = {{"sut", Role::kSut}, {"loadgen", Role::kLoadgen}};
      spec.role = choice(r, key + ".role", kRoles);
    }
    const auto argv = body["argv"];
    if (!argv || !argv.IsSequence() || argv.size() == 0)
      fail(argv ? argv : body, key + ".argv", "expected a list: the program and its arguments, one per element");
    for (const auto& a : argv) spec.argv.push_back(scalar(a, key + ".argv"));
    if (const auto p = body["params"]) {
      expect_map(p, key + ".params");
      params_out = p;
      for (const auto& kv : p) {
        const std::string pname = kv.first.as<std::string>();
        const YAML::Node first = kv.second.IsSequence() && kv.second.size() > 0 ? kv.second[0] : kv.second;
        const std::string pkey = key + ".params." + pname;
        ParamValue v;
        try {
          v = infer(scalar(first, pkey));
        } catch (const ValueError& e) {
          fail(first, pkey, e.what());
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
      fail(metrics ? metrics : body, key + ".metrics", "expected at least one metric with a regex");
    for (const auto& kv : metrics) {
      const std::string mname = kv.first.as<std::string>();
      const std::string mkey = key + ".metrics." + mname;
      const YAML::Node m = kv.second;
      expect_map(m, mkey);
      check_keys(m, mkey, metric_keys);
      CommandMetric cm;
      cm.name = mname;
      if (!m["regex"]) fail(m, mkey, "missing 'regex' with a (?<value>...) group");
      cm.regex = scalar(m["regex"], mkey + ".regex");
      cm.unit = m["unit"] ? scalar(m["unit"], mkey + ".unit") : "";
      if (!m["direction"]) fail(m, mkey, "missing 'direction': higher or lower is better");
      cm.direction =
          *direction_from_string(one_of(m["direction"], mkey + ".direction", {"higher", "lower"}));
      if (m["centre"])
        cm.centre = centre_from_string(
            one_of(m["centre"], mkey + ".centre", {"amean", "hmean", "gmean", "median"}));
      if (m["kind"])
        cm.kind = *sample_kind_from_string(one_of(m["kind"], mkey + ".kind", {"run", "interval"}));
      using Match = CommandMetric::Match;
      static constexpr Choice<Match> kMatches[] = {
          {"one", Match::kOne}, {"each", Match::kEach}, {"last", Match::kLast}};
      if (m["match"]) cm.match = choice(m["match"], mkey + ".match", kMatches);
      using Stream = CommandMetric::Stream;
      static constexpr Choice<Stream> kStreams[] = {
          {"stdout", Stream::kStdout}, {"stderr", Stream::kStderr}, {"both", Stream::kBoth}};
      if (m["stream"]) cm.stream = choice(m["stream"], mkey + ".stream", kStreams);
      if (m["help"]) cm.help = scalar(m["help"], mkey + ".help");
      spec.metrics.push_back(std::move(cm));
    }
    if (body["error"]) spec.error_regex = scalar(body["error"], key + ".error");
    if (const auto t = body["timeout"]) {
      spec.timeout = duration(t, key + ".timeout", std::chrono::milliseconds(0));
    }
    try {
      return make_command_workload(spec);
    } catch (const std::invalid_argument& e) {
      fail(body, key, e.what());
    }
  }

  WorkloadConfig workload_body(const YAML::Node& name_node, const std::string& name,
                               const YAML::Node& body, const std::string& where) const {
    if (name == "command") {
      YAML::Node params = YAML::Node(YAML::NodeType::Map);
      auto owned = command(body, where + ".command", params);
      // Validate the params against the rows just made, like any workload.
      YAML::Node flat(YAML::NodeType::Map);
      for (const auto& kv : params) flat[kv.first] = kv.second;
      if (body["iterations"]) flat["iterations"] = body["iterations"];
      if (body["monitors"]) flat["monitors"] = body["monitors"];
      if (body["task_monitor"]) flat["task_monitor"] = body["task_monitor"];
      WorkloadConfig wc = workload_values(*owned, name_node, flat, where + ".command");
      wc.owned = owned;
      return wc;
    }
    std::vector<std::string> names = {"command"};
    for (const Workload* w : all_workloads()) names.push_back(w->name());
    const Workload* w = find_workload(name);
    if (!w)
      fail(name_node, where,
           fmt::format("unknown workload '{}'{}; known: {}", name, did_you_mean(name, names),
                       fmt::join(names, ", ")));
    return workload_values(*w, name_node, body, where + "." + name);
  }

  WorkloadConfig workload_values(const Workload& workload, const YAML::Node& name_node,
                                 const YAML::Node& body, const std::string& key) const {
    const Workload* w = &workload;
    WorkloadConfig wc;
    wc.workload = w;
    wc.line = line_of(name_node);
    if (!body.IsNull()) expect_map(body, key);
    std::vector<std::string> allowed = kCommonWorkloadKeys;
    for (const auto& p : w->params()) allowed.push_back(p.name);
    if (body.IsMap()) check_keys(body, key, allowed);
    for (const auto& spec : w->params()) {
      const YAML::Node v = body.IsMap() ? body[spec.name] : YAML::Node();
      const std::string pkey = key + "." + spec.name;
      std::vector<ParamValue> values;
      if (!v) {
        values.push_back(spec.default_value);
      } else if (v.IsSequence()) {
        if (!spec.sweep())
          fail(v, pkey, "takes a single value, not a list (only swept parameters take lists)");
        if (v.size() == 0) fail(v, pkey, "an empty list sweeps nothing");
        for (const auto& item : v) values.push_back(param_value(spec, item, pkey));
      } else {
        values.push_back(param_value(spec, v, pkey));
      }
      std::set<std::string> seen;
      for (const auto& value : values)
        if (!seen.insert(format_param(value)).second)
          fail(v, pkey, fmt::format("value '{}' is listed twice", format_param(value)));
      wc.values[spec.name] = std::move(values);
    }
    Point fixed;
    for (const auto& spec : w->params())
      if (!spec.sweep()) fixed.values[spec.name] = wc.values.at(spec.name).front();
    if (std::string why = w->check_fixed(fixed); !why.empty())
      fail(body.IsMap() ? body : name_node, key, why);
    if (body.IsMap() && body["iterations"])
      wc.iterations = iterations(body["iterations"], key + ".iterations");
    else
      wc.iterations = default_iterations_;
    if (body.IsMap() && body["monitors"])
      wc.monitors = monitors(body["monitors"], key + ".monitors");
    else
      wc.monitors = default_monitors_;
    wc.task_monitor = default_task_monitor_;
    if (body.IsMap() && body["task_monitor"]) {
      const YAML::Node t = body["task_monitor"];
      if (std::find(wc.monitors.begin(), wc.monitors.end(), tasks::kMonitorName) ==
          wc.monitors.end())
        fail(t, key + ".task_monitor",
             "the tasks monitor is not among this workload's monitors: add it (monitors: [tasks])");
      task_monitor(t, key + ".task_monitor", wc.task_monitor);
    }
    return wc;
  }

  // `{interval: 100ms, comm: [myprog, helper]}`: sets the keys given.
  void task_monitor(const YAML::Node& n, const std::string& key, TaskMonitorConfig& out) const {
    expect_map(n, key);
    check_keys(n, key, kTaskMonitorKeys);
    if (const auto i = n["interval"]) {
      out.interval = duration(i, key + ".interval", std::chrono::milliseconds(10));
    }
    if (const auto c = n["comm"]) {
      if (!c.IsSequence() || c.size() == 0)
        fail(c, key + ".comm", "expected a list of process names, e.g. [myprog, helper]");
      out.comm.clear();
      for (const auto& item : c) {
        const std::string name = scalar(item, key + ".comm");
        if (name.empty() || name.find('\n') != std::string::npos)
          fail(item, key + ".comm", "a process name is one non-empty line");
        out.comm.push_back(name);
      }
    }
  }

  // `[schedstat, stat]`: names from the monitor registry, each once; `[]`
  // turns a top-level default off for one workload.
  std::vector<std::string> monitors(const YAML::Node& n, const std::string& key) const {
    std::vector<std::string> known;
    for (const auto& m : monitor_names()) known.emplace_back(m);
    if (!n.IsSequence())
      fail(n, key, fmt::format("expected a list of monitors, e.g. [schedstat, stat]; known: {}",
                               fmt::join(known, ", ")));
    std::vector<std::string> out;
    for (const auto& item : n) {
      const std::string name = scalar(item, key);
      if (std::find(known.begin(), known.end(), name) == known.end())
        fail(item, key,
             fmt::format("unknown monitor '{}'{}; known: {}", name, did_you_mean(name, known),
                         fmt::join(known, ", ")));
      if (std::find(out.begin(), out.end(), name) != out.end())
        fail(item, key, fmt::format("monitor '{}' is listed twice", name));
      out.push_back(name);
    }
    return out;
  }

  // `5`, `{min: 3, max: 30, ci_width_pct: 2}`, or `{min: 3, max: 60, stop:
  // sequential, alpha: 0.05, power: 0.8, min_effect_pct: 3}`.
  IterationPolicy iterations(const YAML::Node& n, const std::string& key) const {
    IterationPolicy p;
    if (n.IsScalar()) {
      p.min = p.max = static_cast<int>(integer(n, key, 1, kMaxIterations));
      return p;
    }
    expect_map(n, key);
    check_keys(n, key, kIterationKeys);
    const YAML::Node stop = n["stop"];
    if (stop) {
      const std::string rule = scalar(stop, key + ".stop");
      if (std::find(kStopRules.begin(), kStopRules.end(), rule) == kStopRules.end())
        fail(stop, key + ".stop",
             fmt::format("unknown stop rule '{}'{}; known: {} (the interval-width rule is "
                         "ci_width_pct alone)",
                         rule, did_you_mean(rule, kStopRules), fmt::join(kStopRules, ", ")));
      if (n["ci_width_pct"])
        fail(n["ci_width_pct"], key + ".ci_width_pct",
             "ci_width_pct and stop: sequential are two stop rules: give one");
    } else {
      for (const auto& k : kSequentialKeys)
        if (n[k]) fail(n[k], key + "." + k, fmt::format("{} belongs to stop: sequential (give stop: sequential)", k));
      if (!n["ci_width_pct"])
        fail(n, key,
             "a mapping makes iterations adaptive: give ci_width_pct (and min, max), or stop: sequential");
    }
    const int default_max = stop ? 60 : 30;
    p.min = n["min"] ? static_cast<int>(integer(n["min"], key + ".min", 2, kMaxIterations)) : 3;
    p.max = n["max"] ? static_cast<int>(integer(n["max"], key + ".max", 2, kMaxIterations)) : default_max;
    if (p.max < p.min)
      fail(n["max"] ? n["max"] : n, key + ".max",
           fmt::format("max ({}) is below min ({})", p.max, p.min));
    if (stop) {
      p.sequential = sequential_stop(n, key, p);
      return p;
    }
    const std::string s = scalar(n["ci_width_pct"], key + ".ci_width_pct");
    const double pct = parse_number(s).value_or(-1);
    if (!(pct > 0 && pct < 100))
      fail(n["ci_width_pct"], key + ".ci_width_pct",
           fmt::format("expected a percentage between 0 and 100, got '{}'", s));
    p.ci_width_pct = pct;
    return p;
  }

  // alpha, power and min_effect_pct of `stop: sequential`, each checked by
  // the design's own rule (design_error), the error at the key it names.
  SequentialStop sequential_stop(const YAML::Node& n, const std::string& key,
                                 const IterationPolicy& p) const {
    SequentialStop s;
    s.line = line_of(n["stop"]);
    s.key = key + ".stop";
    s.design.min_n = static_cast<std::size_t>(p.min);
    const std::pair<const char*, double SequentialDesign::*> fields[] = {
        {"alpha", &SequentialDesign::alpha},
        {"power", &SequentialDesign::power},
        {"min_effect_pct", &SequentialDesign::min_effect_pct}};
    for (const auto& [name, field] : fields) {
      const YAML::Node v = n[name];
      if (!v) continue;
      const std::string text = scalar(v, key + "." + name);
      const auto value = parse_number(text);
      if (!value || !std::isfinite(*value))
        fail(v, key + "." + name, fmt::format("expected a number, got '{}'", text));
      s.design.*field = *value;
    }
    if (const YAML::Node v = n["spending"]) {
      const std::string name = scalar(v, key + ".spending");
      const auto f = gs::parse_spending(name);
      if (!f)
        fail(v, key + ".spending",
             fmt::format("unknown spending function '{}'; known: obf (O'Brien-Fleming-type, the default), pocock, "
                         "kd(RHO) (Kim-DeMets, alpha t^RHO, RHO from 0.5 to 5; kd is kd(2))",
                         name));
      s.design.spending = *f;
    }
    if (const std::string e = design_error(s.design); !e.empty()) {
      // The line names its field first ("power must be in (0.5, 1), not 1.5").
      for (const auto& [name, field] : fields)
        if (e.starts_with(std::string(name) + " "))
          fail(n[name] ? n[name] : n, key + "." + name, e);
      fail(n, key, e);
    }
    return s;
  }

  VariantConfig variant(const YAML::Node& name_node, const YAML::Node& body,
                        const std::optional<LabConfig>& lab) const {
    VariantConfig vc;
    vc.name = name_node.as<std::string>();
    vc.line = line_of(name_node);
    const std::string key = "variants." + vc.name;
    static const boost::regex name_re(R"(^[A-Za-z0-9][A-Za-z0-9_.+-]*$)");
    if (!boost::regex_match(vc.name, name_re))
      fail(name_node, key, "a variant name uses letters, digits and _ . + - only");
    if (body.IsNull()) return vc;
    expect_map(body, key);
    check_keys(body, key, kVariantKeys);
    vc.knobs = parse_knobs(*this, body, key);
    if (const auto k = body["kernels"]) vc.kernels = parse_variant_kernels(k, key + ".kernels", lab, path_);
    return vc;
  }

  std::string host(const YAML::Node& n, const std::string& key) const {
    const std::string s = scalar(n, key);
    if (s != "local" && !parse_ssh_url(s))
      fail(n, key,
           fmt::format("'{}' is not a host: use local or ssh://[user@]host[:port]", s));
    return s;
  }

  std::vector<PairConfig> pairs(const YAML::Node& n) const {
    if (!n.IsSequence() || n.size() == 0)
      fail(n, "pairs", "expected a list of pairs, e.g. '- {sut: ssh://root@sut1, loadgen: local}'");
    std::vector<PairConfig> out;
    std::set<std::string> names, suts;
    for (std::size_t i = 0; i < n.size(); ++i) {
      const YAML::Node e = n[i];
      const std::string key = fmt::format("pairs[{}]", i);
      expect_map(e, key);
      check_keys(e, key, kPairKeys);
      PairConfig pc;
      pc.line = line_of(e);
      const auto sut = e["sut"];
      if (!sut) fail(e, key, "missing 'sut': local or ssh://[user@]host[:port]");
      if (sut.IsMap())
        fail(sut, key + ".sut",
             "a lab SUT cannot be one of several pairs; run it on its own with hosts.sut");
      pc.sut = host(sut, key + ".sut");
      if (e["loadgen"]) pc.loadgen = host(e["loadgen"], key + ".loadgen");
      if (e["sut_address"]) pc.sut_address = scalar(e["sut_address"], key + ".sut_address");
      if (pc.sut == "local" && pc.loadgen != "local" && pc.sut_address.empty())
        fail(e, key + ".sut_address",
             "the SUT is local and the loadgen remote; say how the loadgen reaches the SUT");
      if (const auto nm = e["name"]) {
        pc.name = scalar(nm, key + ".name");
        static const boost::regex name_re(R"(^[A-Za-z0-9][A-Za-z0-9_-]*$)");
        if (!boost::regex_match(pc.name, name_re))
          fail(nm, key + ".name", "a pair name uses letters, digits, _ and - only");
      } else {
        // The SUT's host name when it makes a valid name, else pairN.
        const auto target = parse_ssh_url(pc.sut);
        std::string derived = target ? target->host : "";
        std::replace(derived.begin(), derived.end(), '.', '-');
        std::replace(derived.begin(), derived.end(), ':', '-');
        static const boost::regex ok_re(R"(^[A-Za-z0-9][A-Za-z0-9_-]*$)");
        pc.name = boost::regex_match(derived, ok_re) ? derived : fmt::format("pair{}", i + 1);
      }
      if (!names.insert(pc.name).second)
        fail(e["name"] ? e["name"] : e, key + ".name",
             fmt::format("pair name '{}' is used twice; give each pair its own name", pc.name));
      // Two pairs on one SUT would flip each other's knobs.
      if (!suts.insert(pc.sut).second)
        fail(sut, key + ".sut", fmt::format("SUT {} is already in another pair", pc.sut));
      out.push_back(std::move(pc));
    }
    return out;
  }

  SshConfig ssh(const YAML::Node& n) const {
    SshConfig c;
    expect_map(n, "ssh");
    check_keys(n, "ssh", kSshKeys);
    if (n["identity"]) c.identity = scalar(n["identity"], "ssh.identity");
    if (n["known_hosts"]) c.known_hosts = scalar(n["known_hosts"], "ssh.known_hosts");
    if (const auto p = n["host_key_policy"])
      c.host_key_policy = one_of(p, "ssh.host_key_policy", {"strict", "accept-new"});
    if (const auto t = n["connect_timeout"]) {
      c.connect_timeout = std::chrono::duration_cast<std::chrono::seconds>(
          duration(t, "ssh.connect_timeout", std::chrono::seconds(1)));
    }
    return c;
  }

  // Two entries of one workload whose parameter lists overlap in every
  // parameter share a point (the same workload and params): the store keeps
  // them as one, so the second would silently add iterations to the first.
  void check_distinct_workloads(const YAML::Node& entries,
                                const std::vector<WorkloadConfig>& ws) const {
    for (std::size_t j = 0; j < ws.size(); ++j)
      for (std::size_t i = 0; i < j; ++i) {
        if (ws[i].workload->name() != ws[j].workload->name()) continue;
        std::vector<std::string> shared;  // one common value per parameter
        for (const auto& [name, values] : ws[j].values) {
          const auto& other = ws[i].values.at(name);
          const auto same = std::find_if(values.begin(), values.end(), [&](const ParamValue& v) {
            return std::find(other.begin(), other.end(), v) != other.end();
          });
          if (same == values.end()) break;
          shared.push_back(fmt::format("{}={}", name, format_param(*same)));
        }
        if (shared.size() == ws[j].values.size())
          fail(entries[j], fmt::format("workloads[{}]", j),
               fmt::format("runs {} points workloads[{}] (line {}) already runs, e.g. {}; they "
                           "would be stored as one. Merge the two entries or change a parameter",
                           ws[j].workload->name(), i, ws[i].line, fmt::join(shared, " ")));
      }
  }

  Config load(const std::string& text) {
    Config c;
    c.path = path_;
    c.text = text;
    const YAML::Node root = YamlReader::load(text);
    if (!root.IsMap()) throw ConfigError(path_, 0, "", "expected a mapping at the top level");
    check_keys(root, "", kTopKeys);
    if (root["description"]) c.description = scalar(root["description"], "description");
    if (const auto h = root["hosts"]) {
      expect_map(h, "hosts");
      check_keys(h, "hosts", kHostKeys);
      if (h["sut"] && h["sut"].IsMap()) {
        c.sut_lab = parse_lab_config(h["sut"], path_);
        c.sut = "lab";
      } else if (h["sut"]) {
        c.sut = host(h["sut"], "hosts.sut");
      }
      if (h["loadgen"]) c.loadgen = host(h["loadgen"], "hosts.loadgen");
      if (h["sut_address"]) c.sut_address = scalar(h["sut_address"], "hosts.sut_address");
    }
    if (const auto p = root["pairs"]) {
      if (root["hosts"])
        fail(p, "pairs", "give either hosts: (one pair) or pairs: (several), not both");
      c.pairs = pairs(p);
    }
    if (root["ssh"]) c.ssh = ssh(root["ssh"]);
    if (root["iterations"]) c.iterations = iterations(root["iterations"], "iterations");
    default_iterations_ = c.iterations;
    if (root["monitors"]) c.monitors = monitors(root["monitors"], "monitors");
    default_monitors_ = c.monitors;
    if (const auto t = root["task_monitor"]) {
      task_monitor(t, "task_monitor", c.task_monitor);
      default_task_monitor_ = c.task_monitor;
    }
    static constexpr Choice<Order> kOrders[] = {{"interleaved", Order::kInterleaved},
                                                {"sequential", Order::kSequential}};
    if (const auto o = root["order"]) c.order = choice(o, "order", kOrders);
    const auto w = root["workloads"];
    if (!w) throw ConfigError(path_, 0, "workloads", "missing: a config runs at least one workload");
    if (!w.IsSequence() || w.size() == 0)
      fail(w, "workloads", "expected a list of workloads, e.g. '- hackbench: {groups: [1, 4]}'");
    for (std::size_t i = 0; i < w.size(); ++i) c.workloads.push_back(workload(w[i], i));
    check_distinct_workloads(w, c.workloads);
    if (const auto t = root["task_monitor"]) {
      const bool used = std::any_of(c.workloads.begin(), c.workloads.end(), [](const auto& wc) {
        return std::find(wc.monitors.begin(), wc.monitors.end(), tasks::kMonitorName) !=
               wc.monitors.end();
      });
      if (!used)
        fail(t, "task_monitor", "no workload uses the tasks monitor: add it (monitors: [tasks])");
    }
    if (const auto v = root["variants"]) {
      expect_map(v, "variants");
      if (v.size() == 0) fail(v, "variants", "empty: leave the key out for one default variant");
      std::set<std::string> names;
      for (const auto& kv : v) {
        const std::string n = kv.first.as<std::string>();
        if (!names.insert(n).second) fail(kv.first, "variants", fmt::format("duplicate variant '{}'", n));
        c.variants.push_back(variant(kv.first, kv.second, c.sut_lab));
      }
      // Every kernel of a lab plan runs at least one variant.
      for (const auto& k : plan_kernels(c.sut_lab))
        if (std::none_of(c.variants.begin(), c.variants.end(), [&](const VariantConfig& vc) {
              return vc.kernels.empty() || std::find(vc.kernels.begin(), vc.kernels.end(), k) != vc.kernels.end();
            }))
          fail(v, "variants", fmt::format("no variant applies to kernel '{}'", k));
    } else {
      c.variants.push_back(VariantConfig{.name = "default"});
    }
    check_sequential(c);
    return c;
  }

  // What `stop: sequential` needs of the whole file: a baseline and another
  // variant (on every lab kernel), interleaved rounds, one pair (each pair
  // of a pairs: run would decide on its own samples), and a first metric
  // with a mean (the test compares means).
  void check_sequential(const Config& c) const {
    for (const auto& wc : c.workloads) {
      if (!wc.iterations.sequential) continue;
      const SequentialStop& s = *wc.iterations.sequential;
      auto refuse = [&](const std::string& msg) { throw ConfigError(path_, s.line, s.key, msg); };
      if (c.variants.size() < 2)
        refuse("stop: sequential tests each variant against the baseline, and the config has one variant "
               "(add one under variants:, or stop on ci_width_pct)");
      for (const auto& k : plan_kernels(c.sut_lab)) {
        const auto applies = std::count_if(c.variants.begin(), c.variants.end(), [&](const VariantConfig& vc) {
          return vc.kernels.empty() || std::find(vc.kernels.begin(), vc.kernels.end(), k) != vc.kernels.end();
        });
        if (applies < 2)
          refuse(fmt::format("stop: sequential needs two variants on every kernel; kernel '{}' runs one", k));
      }
      if (c.order == Order::kSequential)
        refuse("stop: sequential decides after each interleaved round; order: sequential runs each variant's "
               "iterations at once (use order: interleaved)");
      if (!c.pairs.empty())
        refuse("stop: sequential decides on one pair's samples; a pairs: run measures each pair on its own "
               "(give one pair, or stop on ci_width_pct)");
      const MetricSpec& m = wc.workload->metrics().front();
      if (m.centre == Centre::kMedian)
        refuse(fmt::format("stop: sequential compares means, and {}'s first metric '{}' is centred on the median",
                           wc.workload->name(), m.name));
    }
  }

 private:
  IterationPolicy default_iterations_;
  std::vector<std::string> default_monitors_;
  TaskMonitorConfig default_task_monitor_;
};

}  // namespace

Config parse_config(const std::string& text, const std::string& path) {
  return Loader(path).load(text);
}

Config load_config_file(const std::string& path) {
  return parse_config(read_config_text(path), path);
}

}  // namespace schedlab
