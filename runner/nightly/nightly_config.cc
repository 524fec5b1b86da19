#include "runner/nightly/nightly_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <filesystem>
#include <set>

#include "analysis/stats/significance.h"
#include "base/file.h"
#include "base/placeholders.h"
#include "runner/config/config.h"
#include "runner/lab/kernel.h"
#include "runner/hosts/ssh_host.h"
#include "base/suggest.h"
#include "runner/input/units.h"
#include "runner/input/yaml_reader.h"

namespace schedlab {
namespace {

const std::vector<std::string> kTopKeys = {"name", "baseline", "targets", "configs", "rule"};
const std::vector<std::string> kTargetKeys = {"name",     "kernel",       "sut",         "hook",
                                              "hook_cwd", "hook_timeout", "ssh_timeout", "reboots",
                                              "uname",    "sha",          "sha_command"};
const std::vector<std::string> kRuleKeys = {"test", "alpha", "min_effect_pct", "per_metric"};
const std::vector<std::string> kMetricRuleKeys = {"alpha", "min_effect_pct"};

// A lab kernel as a config's hosts.sut.lab.kernel accepts it.
bool is_lab_kernel(const std::string& k) {
  if (k.find('/') != std::string::npos || k.starts_with("linux-image-")) return true;
  for (const auto& s : lab::kernel_series())
    if (s.name == k) return true;
  return false;
}

std::vector<std::string> lab_kernel_names() {
  std::vector<std::string> names;
  for (const auto& s : lab::kernel_series()) names.push_back(s.name);
  return names;
}

class Parser : YamlReader {
 public:
  Parser(std::string path) : YamlReader(std::move(path)) {
    dir_ = std::filesystem::path(path_).parent_path();
  }

  std::vector<std::string> argv(const YAML::Node& n, const std::string& key) const {
    if (!n.IsSequence() || n.size() == 0)
      fail(
          n, key,
          "expected a list: the program and its arguments, one per element (never a shell string)");
    std::vector<std::string> out;
    for (const auto& a : n) {
      if (!a.IsScalar()) fail(a, key, "expected a single value per argument");
      out.push_back(a.Scalar());
    }
    return out;
  }

  NightlyTarget target(const YAML::Node& n, std::size_t i) const {
    const std::string where = fmt::format("targets[{}]", i);
    NightlyTarget t;
    t.line = line_of(n);
    if (n.IsScalar()) {
      // A bare name is a lab kernel.
      t.name = t.lab_kernel = word(n, where);
      if (!is_lab_kernel(t.lab_kernel))
        fail(n, where,
             fmt::format("'{}' is not a lab kernel{} (known: {}, linux-image-..., or a vmlinuz "
                         "path); another "
                         "kind of target is a mapping with name: and sut: or hook:",
                         t.name, did_you_mean(t.name, lab_kernel_names()),
                         fmt::join(lab_kernel_names(), ", ")));
      return t;
    }
    check_keys(n, where, kTargetKeys);
    if (!n["name"])
      fail(n, where, "missing 'name': the target's name in reports and in the database");
    t.name = word(n["name"], where + ".name");
    const std::string key = fmt::format("targets[{}] ({})", i, t.name);
    if (const auto k = n["kernel"]) {
      t.lab_kernel = word(k, key + ".kernel");
      if (!is_lab_kernel(t.lab_kernel))
        fail(k, key + ".kernel",
             fmt::format("unknown lab kernel '{}'{}; known: {}, linux-image-..., or a vmlinuz path",
                         t.lab_kernel, did_you_mean(t.lab_kernel, lab_kernel_names()),
                         fmt::join(lab_kernel_names(), ", ")));
    }
    if (const auto s = n["sut"]) {
      t.sut = word(s, key + ".sut");
      if (!t.lab_kernel.empty())
        fail(s, key + ".sut", "a target runs on a lab kernel or on an ssh SUT, not both");
      if (!parse_ssh_url(t.sut))
        fail(s, key + ".sut",
             fmt::format("expected ssh://[user@]host[:port], got '{}'{}", t.sut,
                         ssh_url_option_note(t.sut)));
    }
    if (const auto h = n["hook"]) {
      t.hook = Hook{.argv = argv(h, key + ".hook"), .cwd = dir_.empty() ? "." : dir_.string()};
      if (!t.lab_kernel.empty())
        fail(h, key + ".hook",
             "a lab kernel target boots its kernel itself; a hook needs sut: or the configs' SUT");
    }
    for (const char* k : {"hook_cwd", "hook_timeout"})
      if (n[k] && !t.hook) fail(n[k], key + "." + k, "only with a hook");
    if (const auto c = n["hook_cwd"]) {
      const std::filesystem::path p = word(c, key + ".hook_cwd");
      t.hook->cwd = p.is_absolute() ? p.string() : (dir_ / p).string();
    }
    if (const auto d = n["hook_timeout"]) t.hook->timeout = duration(d, key + ".hook_timeout");
    for (const char* k : {"ssh_timeout", "reboots"})
      if (n[k] && t.sut.empty()) fail(n[k], key + "." + k, "only for an ssh:// sut");
    if (const auto d = n["ssh_timeout"]) t.ssh_timeout = duration(d, key + ".ssh_timeout");
    if (const auto r = n["reboots"]) {
      t.reboots = boolean(r, key + ".reboots");
      if (t.reboots && !t.hook)
        fail(r, key + ".reboots", "only with a hook (what would reboot the SUT?)");
    }
    if (const auto u = n["uname"]) t.expect.release = word(u, key + ".uname");
    if (const auto s = n["sha"]) {
      t.expect.sha = word(s, key + ".sha");
      if (!boost::regex_match(t.expect.sha, boost::regex("^[0-9a-fA-F]{7,40}$")))
        fail(s, key + ".sha",
             fmt::format("expected a git sha of 7 to 40 hex digits, got '{}'", t.expect.sha));
    }
    if (const auto c = n["sha_command"]) {
      t.expect.sha_command = argv(c, key + ".sha_command");
      if (t.expect.sha.empty())
        fail(c, key + ".sha_command", "only with sha: (what would it be compared with?)");
    }
    if (!t.lab_kernel.empty() && (!t.expect.release.empty() || !t.expect.sha.empty()))
      fail(n["uname"] ? n["uname"] : n["sha"], key,
           "uname and sha are checked on ssh or local SUTs, not lab kernels");
    if (t.hook) {
      std::vector<std::string> known;
      for (const auto& [k, v] : hook_values(t)) known.push_back(k);
      std::vector<std::string> unknown;
      try {
        unknown = unknown_placeholders(t.hook->argv, known);
      } catch (const PlaceholderError& e) {
        fail(n["hook"], key + ".hook", e.what());
      }
      if (!unknown.empty())
        fail(n["hook"], key + ".hook",
             fmt::format("unknown placeholder {{{}}}{}; this target has: {{{}}}", unknown.front(),
                         did_you_mean(unknown.front(), known), fmt::join(known, "}, {")));
    }
    return t;
  }

  RegressionRule rule(const YAML::Node& n, std::map<std::string, int>& lines) const {
    RegressionRule r;
    check_keys(n, "rule", kRuleKeys);
    if (const auto t = n["test"]) r.test = one_of(t, "rule.test", test_names());
    if (const auto a = n["alpha"]) r.alpha = number(a, "rule.alpha", 0, 0.5, true);
    if (const auto m = n["min_effect_pct"])
      r.min_effect_pct = number(m, "rule.min_effect_pct", 0, 1000, false);
    if (const auto pm = n["per_metric"]) {
      if (!pm.IsMap())
        fail(pm, "rule.per_metric",
             "expected a mapping such as {hackbench/time: {min_effect_pct: 5}}");
      for (const auto& kv : pm) {
        const std::string name = kv.first.as<std::string>();
        const std::string key = "rule.per_metric." + name;
        check_keys(kv.second, key, kMetricRuleKeys);
        MetricRule m;
        if (const auto a = kv.second["alpha"]) m.alpha = number(a, key + ".alpha", 0, 0.5, true);
        if (const auto e = kv.second["min_effect_pct"])
          m.min_effect_pct = number(e, key + ".min_effect_pct", 0, 1000, false);
        r.per_metric[name] = m;
        lines[name] = line_of(kv.first);
      }
    }
    return r;
  }

  NightlyConfig parse(const std::string& text) const {
    const YAML::Node root = load(text);
    if (!root.IsMap())
      throw ConfigError(path_, line_of(root), "",
                        "expected a mapping with targets:, baseline:, configs:");
    check_keys(root, "", kTopKeys);
    NightlyConfig c;
    c.path = path_;
    c.name =
        root["name"] ? word(root["name"], "name") : std::filesystem::path(path_).stem().string();
    const auto targets = root["targets"];
    if (!targets || !targets.IsSequence() || targets.size() == 0)
      fail(targets ? targets : root, "targets",
           "expected a list of kernels to measure (at least the baseline)");
    std::set<std::string> names;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      c.targets.push_back(target(targets[i], i));
      if (!names.insert(c.targets.back().name).second)
        fail(targets[i], fmt::format("targets[{}]", i),
             fmt::format("target '{}' is listed twice", c.targets.back().name));
    }
    std::vector<std::string> target_names;
    for (const auto& t : c.targets) target_names.push_back(t.name);
    if (const auto b = root["baseline"]) {
      const std::string base = word(b, "baseline");
      const auto it = std::find(target_names.begin(), target_names.end(), base);
      if (it == target_names.end())
        fail(b, "baseline",
             fmt::format("'{}' is not one of the targets{}; they are: {}", base,
                         did_you_mean(base, target_names), fmt::join(target_names, ", ")));
      c.baseline = static_cast<std::size_t>(it - target_names.begin());
    } else {
      fail(root, "baseline", "missing 'baseline': the target every other one is compared with");
    }
    const auto configs = root["configs"];
    if (!configs || !configs.IsSequence() || configs.size() == 0)
      fail(configs ? configs : root, "configs", "expected a list of experiment config files");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < configs.size(); ++i) {
      const std::string key = fmt::format("configs[{}]", i);
      const std::filesystem::path p = word(configs[i], key);
      const std::string resolved =
          p.is_absolute() || dir_.empty() ? p.string() : (dir_ / p).string();
      if (!seen.insert(resolved).second)
        fail(configs[i], key, fmt::format("'{}' is listed twice", p.string()));
      if (const std::string problem = regular_file_problem(resolved); problem == "no such file")
        fail(configs[i], key, fmt::format("no such config file: {}", resolved));
      else if (!problem.empty())
        fail(configs[i], key, fmt::format("{}: {}", resolved, problem));
      c.configs.push_back({resolved, line_of(configs[i])});
    }
    if (const auto r = root["rule"]) {
      c.rule = rule(r, c.per_metric_lines);
    }
    return c;
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

HookValues hook_values(const NightlyTarget& t) {
  HookValues v{{"name", t.name}};
  v["kernel"] = !t.lab_kernel.empty()       ? t.lab_kernel
                : !t.expect.release.empty() ? t.expect.release
                                            : t.name;
  if (!t.expect.release.empty()) v["uname"] = t.expect.release;
  if (!t.expect.sha.empty()) v["sha"] = t.expect.sha;
  if (!t.sut.empty()) v["sut"] = t.sut;
  return v;
}

NightlyConfig parse_nightly(const std::string& text, const std::string& path) {
  return Parser(path).parse(text);
}

NightlyConfig load_nightly_file(const std::string& path) {
  return parse_nightly(read_config_text(path), path);
}

}  // namespace schedlab
