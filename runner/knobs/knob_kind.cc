#include "runner/knobs/knob_kind.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "runner/input/units.h"
#include "runner/knobs/knob_kind_rows.h"

namespace schedlab {
namespace {

// A function's static: other files' static data (config.cc's key list)
// reads the rows during their own initialization.
const std::vector<KnobKind>& rows() {
  static const std::vector<KnobKind> kinds = {sysctl_kind(), debugfs_kind(), sched_feature_kind(),
                                              policy_kind(), affinity_kind()};
  return kinds;
}

const KnobKind& row(std::string_view name) {
  return *find_knob_kind(name);
}

}  // namespace

const std::vector<KnobKind>& knob_kinds() {
  return rows();
}

const KnobKind* find_knob_kind(std::string_view name) {
  for (const auto& k : rows())
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<VariantKernelSetting> kernel_settings(const KnobSettings& knobs) {
  std::vector<VariantKernelSetting> out;
  for (const auto& k : rows())
    if (k.kernel)
      for (const auto& s : knobs.of(k.name))
        out.push_back({&k, KernelSetting{k.knob(s.name), s.value, s.line}});
  return out;
}

ProcessKnobs process_knobs(const KnobSettings& knobs) {
  ProcessKnobs out;
  for (const auto& k : rows())
    if (k.process) k.process(knobs.of(k.name), out);
  return out;
}

nlohmann::json knobs_json(const KnobSettings& knobs) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& k : rows())
    if (knobs.by_kind.contains(k.name)) k.to_json(knobs.of(k.name), j);
  return j;
}

std::string describe_knobs(const KnobSettings& knobs) {
  std::string out;
  for (const auto& k : rows())
    if (knobs.by_kind.contains(k.name)) out += k.describe(knobs.of(k.name));
  return out.empty() ? " (no knobs)" : out;
}

KnobSettings parse_knobs(const YamlReader& reader, const YAML::Node& variant,
                         const std::string& key) {
  KnobSettings out;
  for (const auto& k : rows()) {
    const bool given =
        std::any_of(k.config_keys.begin(), k.config_keys.end(),
                    [&](std::string_view c) { return static_cast<bool>(variant[std::string(c)]); });
    if (!given) continue;
    auto settings = k.parse(reader, variant, key);
    if (!settings.empty()) out.by_kind.emplace(k.name, std::move(settings));
  }
  return out;
}

std::vector<std::string> variant_keys() {
  std::vector<std::string> out;
  for (const auto& k : rows())
    for (const auto key : k.config_keys) out.emplace_back(key);
  out.emplace_back("kernels");
  return out;
}

KnobRef sysctl_knob(const std::string& name) {
  return row("sysctl").knob(name);
}
KnobRef debugfs_knob(const std::string& name) {
  return row("debugfs").knob(name);
}
KnobRef feature_knob(const std::string& token) {
  return row("sched_feature").knob(token);
}

std::string feature_name(const std::string& token) {
  return token.starts_with("NO_") ? token.substr(3) : token;
}

}  // namespace schedlab
