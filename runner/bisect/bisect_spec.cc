#include "runner/bisect/bisect_spec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "analysis/sequential/bisect_looks.h"
#include "base/json_data.h"
#include "base/local_secret.h"
#include "base/placeholders.h"
#include "base/suggest.h"
#include "base/text.h"
#include "runner/bisect/bisect_git.h"
#include "runner/config/config.h"
#include "runner/input/param_values.h"
#include "runner/nightly/hook.h"
#include "runner/run/plan.h"

namespace schedlab {

using nlohmann::json;

namespace {

// The tag of a spec without its tag (keys in json's sorted order).
std::int64_t spec_tag(const json& untagged) {
  return local_tag("bisect spec\n" + untagged.dump());
}

}  // namespace

std::string spec_to_json(const BisectSpec& s) {
  json j = {{"mode", s.mode},
            {"candidates", s.candidates},
            {"labels", s.labels},
            {"config_path", s.config_path},
            {"config_text", s.config_text},
            {"metric", s.metric},
            {"params", s.params},
            {"repo", s.repo},
            {"hook_reboots", s.hook_reboots},
            {"reboot_timeout_s", s.reboot_timeout.count()},
            {"uname", s.uname},
            {"test", s.test},
            {"hook",
             {{"argv", s.hook_argv}, {"cwd", s.hook_cwd}, {"timeout_ms", s.hook_timeout.count()}}},
            {"alpha", s.alpha},
            {"min_effect_pct", s.min_effect_pct},
            {"max_iterations", s.max_iterations},
            {"direction", s.direction}};
  j["local_tag"] = spec_tag(j);
  return j.dump();
}

bool spec_made_here(const std::string& text) {
  json j = parse_json_data(text);
  if (!j.is_object() || !j.contains("local_tag") || !j["local_tag"].is_number_integer())
    return false;
  const auto tag = j["local_tag"].get<std::int64_t>();
  j.erase("local_tag");
  return tag == spec_tag(j);
}

namespace {

// j[key] as a T; BisectError naming the key when it is missing or of
// another type (a crafted row), not nlohmann's type_error.
template <typename T>
T stored_field(const json& j, const char* key, const char* in = "") {
  const auto it = j.find(key);
  if (it == j.end()) throw BisectError(fmt::format("its stored spec has no {}{}", in, key));
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    if (!it->is_number_integer())
      throw BisectError(fmt::format("its stored spec's {}{} is not a whole number", in, key));
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw BisectError(fmt::format("its stored spec's {}{} is not {}", in, key,
                                  std::is_same_v<T, std::string> ? "text" : "of the right type"));
  }
}

}  // namespace

BisectSpec spec_from_json(const std::string& text) {
  const json j = require_json_data(text, "a bisection's stored spec");
  if (!j.is_object()) throw BisectError("its stored spec is not a JSON object");
  BisectSpec s;
  s.mode = stored_field<std::string>(j, "mode");
  s.candidates = stored_field<std::vector<std::string>>(j, "candidates");
  s.labels = stored_field<std::vector<std::string>>(j, "labels");
  s.config_path = stored_field<std::string>(j, "config_path");
  s.config_text = stored_field<std::string>(j, "config_text");
  s.metric = stored_field<std::string>(j, "metric");
  s.params = stored_field<std::map<std::string, std::string>>(j, "params");
  s.repo = stored_field<std::string>(j, "repo");
  s.hook_reboots = stored_field<bool>(j, "hook_reboots");
  s.reboot_timeout = std::chrono::seconds(stored_field<std::int64_t>(j, "reboot_timeout_s"));
  s.uname = stored_field<std::string>(j, "uname");
  s.test = stored_field<std::string>(j, "test");
  s.alpha = stored_field<double>(j, "alpha");
  s.min_effect_pct = stored_field<double>(j, "min_effect_pct");
  const auto cap = stored_field<std::int64_t>(j, "max_iterations");
  if (cap < 1 || cap > std::numeric_limits<int>::max())
    throw BisectError(fmt::format("its stored spec's max_iterations {} is not a count", cap));
  s.max_iterations = static_cast<int>(cap);
  s.direction = j.contains("direction") ? stored_field<std::string>(j, "direction") : "worse";
  const auto h = stored_field<json>(j, "hook");
  if (!h.is_object()) throw BisectError("its stored spec's hook is not a JSON object");
  s.hook_argv = stored_field<std::vector<std::string>>(h, "argv", "hook.");
  s.hook_cwd = stored_field<std::string>(h, "cwd", "hook.");
  s.hook_timeout = std::chrono::milliseconds(stored_field<std::int64_t>(h, "timeout_ms", "hook."));
  return s;
}

void set_bisect_config(BisectSpec& spec, const std::string& path) {
  Config config;
  try {
    config = load_config_file(path);
  } catch (const ConfigError& e) {
    throw BisectError(e.what());
  }
  spec.config_path = path;
  spec.config_text = config.text;
  std::vector<std::string> metrics;
  bool known = false;
  for (const auto& w : config.workloads)
    for (const auto& m : w.workload->metrics()) {
      metrics.push_back(m.name);
      known = known || m.name == spec.metric;
    }
  if (!known)
    throw BisectError(fmt::format("{}: no workload has metric '{}'{}; its metrics are: {}", path,
                                  spec.metric, did_you_mean(spec.metric, metrics),
                                  fmt::join(metrics, ", ")));
  // The hook's reboot is waited for over SSH: with any other SUT it would
  // be ignored, and the next candidate measured on the old kernel.
  if (spec.hook_reboots && !config.sut.starts_with("ssh://"))
    throw BisectError(
        fmt::format("{}: --reboots waits for an ssh:// SUT to come back, and the SUT is '{}'", path,
                    config.sut));
  // --uname is checked over SSH after the hook, likewise.
  if (!spec.uname.empty() && !spec.hook_argv.empty() && !config.sut.starts_with("ssh://"))
    throw BisectError(fmt::format(
        "{}: --uname is checked on an ssh:// SUT after its hook, and the SUT is '{}'", path,
        config.sut));
  const Plan plan = expand_plan(config);
  for (auto& [name, value] : spec.params) {
    const ParamSpec* param = nullptr;
    for (const auto& w : config.workloads)
      if (!param) param = w.workload->find_param(name);
    if (!param)
      throw BisectError(fmt::format("{}: --param {}: no workload has a parameter '{}'", path,
                                    excerpt(name), excerpt(name)));
    // Typed as the config types it, then written as the store writes it:
    // 1000, +1000 and 1e3 pick the same point of an int parameter.
    try {
      value = stored_param_text(parse_param_value(*param, value));
    } catch (const ValueError& e) {
      throw BisectError(fmt::format("{}: --param {}={}: {}", path, name, excerpt(value), e.what()));
    }
  }
  int iterations = 0;
  for (const auto& p : plan.points) iterations = std::max(iterations, p.iterations.max);
  if (spec.max_iterations <= 0) spec.max_iterations = 3 * iterations;
  if (spec.mode == "git" && spec.hook_argv.empty() && !config.sut_lab)
    throw BisectError(fmt::format(
        "{}: --repo with no hook builds each commit as a lab kernel: give the config a lab SUT "
        "(hosts: sut: {{lab: {{kernel: 'git:{}'}}}}), or a hook that builds and installs "
        "{{commit}} (after --)",
        path, spec.repo));
  if (spec.mode == "kernels" && !config.sut_lab && spec.hook_argv.empty())
    throw BisectError(
        fmt::format("{}: a kernel list needs a lab SUT (hosts: sut: {{lab: ...}}) or "
                    "a hook that installs {{kernel}}",
                    path));
  if (!spec.hook_argv.empty()) {
    const std::string known_name = spec.mode == "git" ? "commit" : "kernel";
    std::vector<std::string> unknown;
    try {
      unknown = unknown_placeholders(spec.hook_argv, {known_name});
    } catch (const PlaceholderError& e) {
      throw BisectError(fmt::format("hook: {}", e.what()));
    }
    if (!unknown.empty())
      throw BisectError(fmt::format("hook: unknown placeholder {{{}}} (it may use {{{}}})",
                                    unknown.front(), known_name));
  }
}

void fill_git_candidates(BisectSpec& spec, const std::string& good, const std::string& bad) {
  const std::string g = resolve_commit(spec.repo, good);
  const std::string b = resolve_commit(spec.repo, bad);
  const auto path = first_parent_path(spec.repo, g, b);
  if (path.empty() || path.back() != b)
    throw BisectError(
        fmt::format("{}: bad {} is not a descendant of good {}", spec.repo, bad, good));
  spec.candidates = {g};
  spec.candidates.insert(spec.candidates.end(), path.begin(), path.end());
  spec.labels.clear();
  for (const auto& c : spec.candidates) spec.labels.push_back(commit_label(spec.repo, c));
}

void fill_kernel_candidates(BisectSpec& spec, const std::vector<std::string>& kernels,
                            const std::string& good, const std::string& bad) {
  const auto g = std::find(kernels.begin(), kernels.end(), good);
  const auto b = std::find(kernels.begin(), kernels.end(), bad);
  if (g == kernels.end())
    throw BisectError(fmt::format("good kernel '{}' is not in the list", good));
  if (b == kernels.end()) throw BisectError(fmt::format("bad kernel '{}' is not in the list", bad));
  if (b <= g)
    throw BisectError(
        fmt::format("good kernel '{}' must come before bad kernel '{}' in the list", good, bad));
  spec.candidates.assign(g, b + 1);
  spec.labels = spec.candidates;
}

std::string error_rates_statement(const BisectSpec& spec) {
  return fmt::format(
      "each candidate's verdict by the tests: at most {:g}% of GOOD verdicts on a bad candidate "
      "and of BAD verdicts "
      "on a good one, over all its looks ({} at alpha {:g} spent across the batches, Lan-DeMets "
      "O'Brien-Fleming "
      "type); a verdict by the nearer median at the cap holds no such rate",
      spec.alpha * 100, verdict_test_title(spec.test), spec.alpha);
}

std::vector<CandidateState> candidate_states(const BisectSpec& spec,
                                             const std::vector<BisectDecision>& decisions) {
  std::vector<CandidateState> states(spec.candidates.size(), CandidateState::kUntested);
  states.front() = CandidateState::kGood;
  states.back() = CandidateState::kBad;
  for (const auto& d : decisions) {
    if (d.position <= 0 || d.position + 1 >= static_cast<int>(states.size())) continue;
    auto& s = states[static_cast<std::size_t>(d.position)];
    if (d.verdict == "GOOD") s = CandidateState::kGood;
    if (d.verdict == "BAD") s = CandidateState::kBad;
    if (d.verdict == "SKIP") s = CandidateState::kSkipped;
  }
  return states;
}

}  // namespace schedlab
