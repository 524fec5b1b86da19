#include "runner/bisect/bisect_request.h"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "base/file.h"
#include "base/text.h"
#include "runner/input/units.h"

namespace schedlab {
namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const FileError& e) {
    throw BisectError(e.what());
  }
  std::vector<std::string> out;
  for (const std::string_view line : split_lines(text)) {
    const std::string_view kept = trim_end(line);
    if (!kept.empty() && kept.front() != '#') out.emplace_back(kept);
  }
  return out;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::chrono::milliseconds duration_arg(const std::string& text, const char* option) {
  const auto d = parse_duration(text);
  if (!d) throw BisectError(fmt::format("{}: '{}' is not a duration (30s, 5m, ...)", option, text));
  return *d;
}

}  // namespace

BisectSpec make_bisect_spec(const BisectRequest& o) {
  BisectSpec spec;
  const int sources = !o.kernels.empty() + !o.kernels_file.empty() + !o.repo.empty();
  if (sources != 1) throw BisectError("give exactly one of --kernels, --kernels-file and --repo");
  spec.mode = o.repo.empty() ? "kernels" : "git";
  spec.metric = o.metric;
  for (const auto& p : o.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw BisectError(fmt::format("--param '{}': want NAME=VALUE", p));
    const std::string name = p.substr(0, eq);
    if (const auto [first, added] = spec.params.emplace(name, p.substr(eq + 1)); !added)
      throw BisectError(
          fmt::format("--param {}={} and --param {}: '{}' is given twice; give it once",
                      excerpt(name), excerpt(first->second), excerpt(p), excerpt(name)));
  }
  spec.test = o.test;
  spec.alpha = o.alpha;
  spec.min_effect_pct = o.min_effect;
  spec.direction = o.direction;
  spec.max_iterations = o.max_iterations;
  spec.hook_argv = o.hook;
  if (!o.hook_file.empty()) {
    if (!spec.hook_argv.empty())
      throw BisectError("give the hook either after -- or with --hook-file");
    spec.hook_argv = read_lines(o.hook_file);
  }
  // Options of a hook, given with none, would change nothing.
  if (spec.hook_argv.empty())
    for (const auto& [given, option] :
         {std::pair{!o.hook_cwd.empty(), "--hook-cwd"},
          std::pair{o.hook_timeout_given, "--hook-timeout"}, std::pair{o.reboots, "--reboots"},
          std::pair{!o.uname.empty(), "--uname"}})
      if (given)
        throw BisectError(fmt::format(
            "{} does nothing without a hook: give its argv after -- or with --hook-file", option));
  if (!o.repo.empty()) spec.repo = std::filesystem::absolute(o.repo).string();
  spec.hook_cwd = o.hook_cwd.empty() ? spec.repo : o.hook_cwd;
  spec.hook_timeout = duration_arg(o.hook_timeout, "--hook-timeout");
  spec.hook_reboots = o.reboots;
  spec.reboot_timeout = std::chrono::duration_cast<std::chrono::seconds>(
      duration_arg(o.reboot_timeout, "--reboot-timeout"));
  spec.uname = o.uname;
  set_bisect_config(spec, o.config);
  if (spec.mode == "git")
    fill_git_candidates(spec, o.good, o.bad);
  else
    fill_kernel_candidates(spec,
                           o.kernels.empty() ? read_lines(o.kernels_file) : split_list(o.kernels),
                           o.good, o.bad);
  return spec;
}

}  // namespace schedlab
