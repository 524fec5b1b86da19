// The kernel kinds: files on the SUT, journaled and restored. A variant
// gives them as `sysctl: {NAME: VALUE}`, `debugfs: {NAME: VALUE}` and
// `sched_features: [TOKEN, ...]`.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "runner/input/yaml_reader.h"
#include "runner/knobs/knob_kind_rows.h"
#include "runner/knobs/sysctl_values.h"

namespace schedlab {
namespace {

// `KIND: {NAME: VALUE, ...}`: each name checked by the kind's rule, each
// value by `value_problem` (nullptr: any scalar); the setting's line is its
// name's.
std::vector<KnobSetting> name_values(
    const YamlReader& r, const YAML::Node& variant, const std::string& key, const char* kind,
    std::optional<std::string> (*name_problem)(const std::string&),
    std::optional<std::string> (*value_problem)(const std::string&, const std::string&)) {
  const YAML::Node m = variant[kind];
  r.expect_map(m, key + "." + kind);
  std::vector<KnobSetting> out;
  for (const auto& kv : m) {
    const std::string name = kv.first.as<std::string>();
    const std::string nkey = key + "." + kind + "." + name;
    if (auto problem = name_problem(name)) r.fail(kv.first, nkey, *problem);
    const std::string value = r.scalar(kv.second, nkey);
    if (value_problem)
      if (auto problem = value_problem(name, value)) r.fail(kv.second, nkey, *problem);
    out.push_back({name, value, YamlReader::line_of(kv.first)});
  }
  return out;
}

// {"kernel.x": "1", ...} in config order's keys (the JSON sorts them).
nlohmann::json name_value_object(const std::vector<KnobSetting>& settings) {
  nlohmann::json o = nlohmann::json::object();
  for (const auto& s : settings) o[s.name] = s.value;
  return o;
}

// " WORD name=value" per setting.
std::string describe_name_values(const char* word, const std::vector<KnobSetting>& settings) {
  std::string out;
  for (const auto& s : settings) out += fmt::format(" {} {}={}", word, s.name, s.value);
  return out;
}

}  // namespace

KnobKind sysctl_kind() {
  return {
      .name = "sysctl",
      .config_keys = {"sysctl"},
      .kernel = true,
      .parse =
          [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
            return name_values(r, variant, key, "sysctl", sysctl_name_problem,
                               sysctl_value_problem);
          },
      .knob =
          [](const std::string& name) {
            return KnobRef{"sysctl", name, sysctl_path(name)};
          },
      .separator = '.',
      .journal_problem = [](const std::string& name,
                            const std::string& original) -> std::optional<std::string> {
        if (auto problem = sysctl_name_problem(name)) return problem;
        return sysctl_value_problem(name, original);
      },
      // An integer sysctl takes integers, as many as it holds.
      .verify = [](const KernelSetting& s, const std::string& now) -> std::optional<std::string> {
        if (const auto problem = sysctl_value_against(s.knob.name, s.value, now))
          return fmt::format("sysctl {}: {}", s.knob.name, *problem);
        return std::nullopt;
      },
      .to_json = [](const std::vector<KnobSetting>& settings,
                    nlohmann::json& j) { j["sysctl"] = name_value_object(settings); },
      .describe =
          [](const std::vector<KnobSetting>& settings) {
            return describe_name_values("sysctl", settings);
          }};
}

KnobKind debugfs_kind() {
  return {.name = "debugfs",
          .config_keys = {"debugfs"},
          .kernel = true,
          .parse =
              [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
                return name_values(r, variant, key, "debugfs", debugfs_name_problem,
                                   [](const std::string&, const std::string& value) {
                                     return one_line_problem(value);
                                   });
              },
          .knob =
              [](const std::string& name) {
                return KnobRef{"debugfs", name, "/sys/kernel/debug/" + name};
              },
          .separator = '/',
          .journal_problem = [](const std::string& name,
                                const std::string& original) -> std::optional<std::string> {
            if (auto problem = debugfs_name_problem(name)) return problem;
            return one_line_problem(original);
          },
          .to_json = [](const std::vector<KnobSetting>& settings,
                        nlohmann::json& j) { j["debugfs"] = name_value_object(settings); },
          .describe =
              [](const std::vector<KnobSetting>& settings) {
                return describe_name_values("debugfs", settings);
              }};
}

// A setting's name and value are both the token (NO_PLACE_LAG turns
// PLACE_LAG off).
KnobKind sched_feature_kind() {
  return {.name = "sched_feature",
          .config_keys = {"sched_features"},
          .kernel = true,
          .parse =
              [](const YamlReader& r, const YAML::Node& variant, const std::string& key) {
                const YAML::Node f = variant["sched_features"];
                const std::string fkey = key + ".sched_features";
                if (!f.IsSequence())
                  r.fail(f, fkey, "expected a list such as [NO_PLACE_LAG, NO_RUN_TO_PARITY]");
                std::set<std::string> bases;
                std::vector<KnobSetting> out;
                for (const auto& t : f) {
                  const std::string token = r.scalar(t, fkey);
                  if (const auto problem = feature_name_problem(token)) r.fail(t, fkey, *problem);
                  const std::string base = feature_name(token);
                  if (!bases.insert(base).second)
                    r.fail(t, fkey, fmt::format("{} is set twice", base));
                  out.push_back({token, token, YamlReader::line_of(t)});
                }
                return out;
              },
          .knob =
              [](const std::string& token) {
                return KnobRef{"sched_feature", feature_name(token), kSchedFeaturesPath};
              },
          .token = true,
          // A feature's row puts back its own token, on or off: never another feature.
          .journal_problem = [](const std::string& name,
                                const std::string& original) -> std::optional<std::string> {
            if (auto problem = feature_name_problem(name)) return problem;
            if (original != name && original != "NO_" + name)
              return fmt::format("'{}' is not feature {} on or off", original, name);
            return std::nullopt;
          },
          .to_json =
              [](const std::vector<KnobSetting>& settings, nlohmann::json& j) {
                nlohmann::json f = nlohmann::json::array();
                for (const auto& s : settings) f.push_back(s.value);
                j["sched_features"] = f;
              },
          .describe =
              [](const std::vector<KnobSetting>& settings) {
                std::string out;
                for (const auto& s : settings) out += " feature " + s.value;
                return out;
              }};
}

}  // namespace schedlab
