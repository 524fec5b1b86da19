#include "runner/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <set>

#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "analysis/counters/task_samples.h"
#include "base/suggest.h"
#include "runner/config/command_config.h"
#include "runner/config/hosts_config.h"
#include "runner/config/iterations_config.h"
#include "runner/input/param_values.h"
#include "runner/input/yaml_reader.h"
#include "runner/knobs/knob_kind.h"
#include "runner/lab/lab_config_yaml.h"
#include "workloads/registry.h"

namespace schedlab {

namespace {

const std::vector<std::string> kTopKeys = {
    "description", "hosts",    "pairs",    "ssh",          "iterations", "order",
    "workloads",   "variants", "monitors", "task_monitor", "perf_stat",  "perf_profile"};
// A variant's keys: one row per knob kind (runner/knobs/knob_kind.h).
const std::vector<std::string> kVariantKeys = variant_keys();
// Keys every workload accepts besides its own parameters.
const std::vector<std::string> kCommonWorkloadKeys = {"iterations", "monitors", "task_monitor"};

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


  WorkloadConfig workload_body(const YAML::Node& name_node, const std::string& name,
                               const YAML::Node& body, const std::string& where) const {
    if (name == "command") {
      YAML::Node params = YAML::Node(YAML::NodeType::Map);
      auto owned = parse_command_workload(*this, body, where + ".command", params);
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
      wc.iterations = parse_iterations(*this, body["iterations"], key + ".iterations");
    else
      wc.iterations = default_iterations_;
    if (body.IsMap() && body["monitors"])
      wc.monitors = parse_monitors(*this, body["monitors"], key + ".monitors");
    else
      wc.monitors = default_monitors_;
    wc.task_monitor = default_task_monitor_;
    if (body.IsMap() && body["task_monitor"]) {
      const YAML::Node t = body["task_monitor"];
      if (std::find(wc.monitors.begin(), wc.monitors.end(), tasks::kMonitorName) ==
          wc.monitors.end())
        fail(t, key + ".task_monitor",
             "the tasks monitor is not among this workload's monitors: add it (monitors: [tasks])");
      parse_task_monitor(*this, t, key + ".task_monitor", wc.task_monitor);
    }
    return wc;
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
    if (const auto h = root["hosts"]) parse_hosts(*this, h, c);
    if (const auto p = root["pairs"]) {
      if (root["hosts"])
        fail(p, "pairs", "give either hosts: (one pair) or pairs: (several), not both");
      c.pairs = parse_pairs(*this, p);
    }
    if (root["ssh"]) c.ssh = parse_ssh(*this, root["ssh"]);
    if (root["iterations"]) c.iterations = parse_iterations(*this, root["iterations"], "iterations");
    default_iterations_ = c.iterations;
    if (root["monitors"]) c.monitors = parse_monitors(*this, root["monitors"], "monitors");
    default_monitors_ = c.monitors;
    if (const auto t = root["task_monitor"]) {
      parse_task_monitor(*this, t, "task_monitor", c.task_monitor);
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
    for (const auto& [key, monitor] : {std::pair{"perf_stat", perf_stat::kMonitorName},
                                       {"perf_profile", perf_profile::kMonitorName}}) {
      const auto t = root[key];
      if (!t) continue;
      if (std::string_view(key) == "perf_stat")
        parse_perf_stat(*this, t, key, c.perf);
      else
        parse_perf_profile(*this, t, key, c.perf);
      // A copy for the lambda: clang (C++20 as it implements it) captures no structured binding.
      const std::string_view name = monitor;
      const bool used = std::any_of(c.workloads.begin(), c.workloads.end(), [&](const auto& wc) {
        return std::find(wc.monitors.begin(), wc.monitors.end(), name) != wc.monitors.end();
      });
      if (!used)
        fail(t, key,
             fmt::format("no workload uses the {} monitor: add it (monitors: [{}])", monitor,
                         monitor));
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
      // Two kernels or more are columns of one run (runner/run/kernel_columns.h):
      // each kernel x variant is tested against the first kernel's first variant.
      const bool kernel_columns = plan_kernels(c.sut_lab).size() >= 2;
      if (c.variants.size() < 2 && !kernel_columns)
        refuse(
            "stop: sequential tests each variant against the baseline, and the config has one "
            "variant "
            "(add one under variants:, list two kernels, or stop on ci_width_pct)");
      for (const auto& k : kernel_columns ? std::vector<std::string>{} : plan_kernels(c.sut_lab)) {
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
