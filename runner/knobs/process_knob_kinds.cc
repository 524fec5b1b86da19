// The process kinds: applied to the workload's own processes as they start
// (hosts/: between fork and exec locally, chrt/taskset over SSH), nothing
// to journal. A variant gives them as `policy: batch`, `nice: 5` and
// `affinity: {server: CPUS, client: CPUS}`.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "base/suggest.h"
#include "runner/input/units.h"
#include "runner/input/yaml_reader.h"
#include "runner/knobs/knob_kind_rows.h"

namespace schedlab {
namespace {

// Settings `policy` (a config name: batch) and `nice`; nice alone is
// SCHED_OTHER at that nice value.
SchedPolicy sched_policy_of(const std::vector<KnobSetting>& settings) {
  SchedPolicy p;
  for (const auto& s : settings) {
    if (s.name == "policy") p.policy = *sched_policy_from_name(s.value);
    if (s.name == "nice") p.nice = std::stoi(s.value);
  }
  return p;
}

// A setting's value is the CPU list as format_cpu_list writes it.
std::vector<int> cpus_of(const KnobSetting& s) {
  return parse_cpu_list(s.value).value_or(std::vector<int>{});
}

}  // namespace

KnobKind policy_kind() {
  return {.name = "policy",
          .config_keys = {"policy", "nice"},
          .parse =
              [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
                std::vector<KnobSetting> out;
                if (const auto p = variant["policy"]) {
                  const std::string s = r.scalar(p, key + ".policy");
                  if (!sched_policy_from_name(s))
                    r.fail(p, key + ".policy",
                           fmt::format("unknown scheduling policy '{}'{}; known: {}", s,
                                       did_you_mean(s, sched_policy_names()),
                                       fmt::join(sched_policy_names(), ", ")));
                  out.push_back({"policy", s, YamlReader::line_of(p)});
                }
                if (const auto n = variant["nice"]) {
                  const auto nice = r.integer(n, key + ".nice", -20, 19);
                  out.push_back({"nice", std::to_string(nice), YamlReader::line_of(n)});
                }
                return out;
              },
          .process =
              [](const std::vector<KnobSetting>& settings, ProcessKnobs& k) {
                if (!settings.empty()) k.policy = sched_policy_of(settings);
              },
          .to_json =
              [](const std::vector<KnobSetting>& settings, nlohmann::json& j) {
                const SchedPolicy p = sched_policy_of(settings);
                j["policy"] = sched_policy_name(p.policy);
                if (p.nice) j["nice"] = *p.nice;
              },
          .describe =
              [](const std::vector<KnobSetting>& settings) {
                return " policy " + sched_policy_of(settings).describe();
              }};
}

// Settings `server` and `client`, in that order, each a CPU list.
KnobKind affinity_kind() {
  return {.name = "affinity",
          .config_keys = {"affinity"},
          .parse =
              [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
                static const std::vector<std::string> kAffinityKeys = {"server", "client"};
                const YAML::Node n = variant["affinity"];
                const std::string akey = key + ".affinity";
                r.expect_map(n, akey);
                r.check_keys(n, akey, kAffinityKeys);
                if (n.size() == 0)
                  r.fail(
                      n, akey,
                      "empty: give server, client or both, e.g. {server: \"0\", client: \"1-3\"}");
                std::vector<KnobSetting> out;
                for (const auto& role : kAffinityKeys) {
                  const auto v = n[role];
                  if (!v) continue;
                  const std::string k = akey + "." + role;
                  const std::string text = r.scalar(v, k);
                  const auto parsed = parse_cpu_list(text);
                  if (!parsed)
                    r.fail(v, k, fmt::format("'{}' is not a CPU list such as 0-3,8", text));
                  out.push_back({role, format_cpu_list(*parsed), YamlReader::line_of(v)});
                }
                return out;
              },
          .process =
              [](const std::vector<KnobSetting>& settings, ProcessKnobs& k) {
                for (const auto& s : settings)
                  (s.name == "server" ? k.server_cpus : k.client_cpus) = cpus_of(s);
              },
          .to_json =
              [](const std::vector<KnobSetting>& settings, nlohmann::json& j) {
                nlohmann::json a = nlohmann::json::object();
                for (const auto& s : settings) a[s.name] = s.value;
                j["affinity"] = a;
              },
          .describe =
              [](const std::vector<KnobSetting>& settings) {
                std::string out;
                for (const auto& s : settings)
                  out += fmt::format(" affinity {}={}", s.name, s.value);
                return out;
              }};
}

}  // namespace schedlab
