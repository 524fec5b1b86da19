#include "runner/knobs/knob_kind.h"

#include <fmt/format.h>

#include "runner/input/units.h"

namespace schedlab {
namespace {

// A function's static: other files' static data (config.cc's key list)
// reads the rows during their own initialization.
const std::vector<KnobKind>& rows() {
  static const std::vector<KnobKind> kinds = {
      {.name = "sysctl",
       .config_keys = {"sysctl"},
       .kernel = true,
       .knob =
           [](const std::string& name) {
             return KnobRef{"sysctl", name, sysctl_path(name)};
           },
       .settings =
           [](const VariantConfig& v) {
             std::vector<KernelSetting> out;
             for (const auto& s : v.sysctls) out.push_back({sysctl_knob(s.name), s.value, s.line});
             return out;
           },
       .separator = '.',
       .to_json =
           [](const VariantConfig& v, nlohmann::json& j) {
             if (v.sysctls.empty()) return;
             nlohmann::json s = nlohmann::json::object();
             for (const auto& x : v.sysctls) s[x.name] = x.value;
             j["sysctl"] = s;
           },
       .describe =
           [](const VariantConfig& v) {
             std::string out;
             for (const auto& s : v.sysctls) out += fmt::format(" sysctl {}={}", s.name, s.value);
             return out;
           }},
      {.name = "debugfs",
       .config_keys = {"debugfs"},
       .kernel = true,
       .knob =
           [](const std::string& name) {
             return KnobRef{"debugfs", name, "/sys/kernel/debug/" + name};
           },
       .settings =
           [](const VariantConfig& v) {
             std::vector<KernelSetting> out;
             for (const auto& d : v.debugfs) out.push_back({debugfs_knob(d.name), d.value, d.line});
             return out;
           },
       .separator = '/',
       .to_json =
           [](const VariantConfig& v, nlohmann::json& j) {
             if (v.debugfs.empty()) return;
             nlohmann::json d = nlohmann::json::object();
             for (const auto& x : v.debugfs) d[x.name] = x.value;
             j["debugfs"] = d;
           },
       .describe =
           [](const VariantConfig& v) {
             std::string out;
             for (const auto& d : v.debugfs) out += fmt::format(" debugfs {}={}", d.name, d.value);
             return out;
           }},
      {.name = "sched_feature",
       .config_keys = {"sched_features"},
       .kernel = true,
       .knob =
           [](const std::string& token) {
             return KnobRef{"sched_feature", feature_name(token), kSchedFeaturesPath};
           },
       .settings =
           [](const VariantConfig& v) {
             std::vector<KernelSetting> out;
             for (const auto& f : v.sched_features)
               out.push_back({feature_knob(f.token), f.token, f.line});
             return out;
           },
       .token = true,
       .to_json =
           [](const VariantConfig& v, nlohmann::json& j) {
             if (v.sched_features.empty()) return;
             nlohmann::json f = nlohmann::json::array();
             for (const auto& x : v.sched_features) f.push_back(x.token);
             j["sched_features"] = f;
           },
       .describe =
           [](const VariantConfig& v) {
             std::string out;
             for (const auto& f : v.sched_features) out += " feature " + f.token;
             return out;
           }},
      {.name = "policy",
       .config_keys = {"policy", "nice"},
       .process = [](const VariantConfig& v, ProcessKnobs& k) { k.policy = v.policy; },
       .to_json =
           [](const VariantConfig& v, nlohmann::json& j) {
             if (!v.policy) return;
             j["policy"] = sched_policy_name(v.policy->policy);
             if (v.policy->nice) j["nice"] = *v.policy->nice;
           },
       .describe =
           [](const VariantConfig& v) {
             return v.policy ? " policy " + v.policy->describe() : std::string();
           }},
      {.name = "affinity",
       .config_keys = {"affinity"},
       .process =
           [](const VariantConfig& v, ProcessKnobs& k) {
             if (!v.affinity) return;
             k.server_cpus = v.affinity->server;
             k.client_cpus = v.affinity->client;
           },
       .to_json =
           [](const VariantConfig& v, nlohmann::json& j) {
             if (!v.affinity) return;
             nlohmann::json a = nlohmann::json::object();
             if (!v.affinity->server.empty()) a["server"] = format_cpu_list(v.affinity->server);
             if (!v.affinity->client.empty()) a["client"] = format_cpu_list(v.affinity->client);
             j["affinity"] = a;
           },
       .describe =
           [](const VariantConfig& v) {
             std::string out;
             if (v.affinity && !v.affinity->server.empty())
               out += " affinity server=" + format_cpu_list(v.affinity->server);
             if (v.affinity && !v.affinity->client.empty())
               out += " affinity client=" + format_cpu_list(v.affinity->client);
             return out;
           }},
  };
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

std::vector<VariantKernelSetting> kernel_settings(const VariantConfig& v) {
  std::vector<VariantKernelSetting> out;
  for (const auto& k : rows())
    if (k.kernel)
      for (auto& s : k.settings(v)) out.push_back({&k, std::move(s)});
  return out;
}

ProcessKnobs process_knobs(const VariantConfig& v) {
  ProcessKnobs out;
  for (const auto& k : rows())
    if (k.process) k.process(v, out);
  return out;
}

nlohmann::json knobs_json(const VariantConfig& v) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& k : rows()) k.to_json(v, j);
  return j;
}

std::string describe_knobs(const VariantConfig& v) {
  std::string out;
  for (const auto& k : rows()) out += k.describe(v);
  return out.empty() ? " (no knobs)" : out;
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
