#include "runner/knobs/sysctl_values.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <sstream>
#include <string_view>
#include <vector>

#include "base/text.h"

namespace schedlab {
namespace {

// The ranges Documentation/admin-guide/sysctl/kernel.rst (and the proc
// handlers' extra1/extra2 bounds in kernel/sched/) give the scheduler
// sysctls a variant flips.
struct Range {
  std::string_view name;
  std::int64_t min, max;
};
constexpr Range kRanges[] = {
    {"kernel.sched_autogroup_enabled", 0, 1},
    {"kernel.sched_schedstats", 0, 1},
    {"kernel.sched_energy_aware", 0, 1},
    {"kernel.sched_child_runs_first", 0, 1},
    {"kernel.timer_migration", 0, 1},
    {"kernel.numa_balancing", 0, 3},
    {"kernel.sched_util_clamp_min", 0, 1024},
    {"kernel.sched_util_clamp_max", 0, 1024},
    {"kernel.sched_util_clamp_min_rt_default", 0, 1024},
    {"kernel.sched_rt_period_us", 1, 2147483647},
    {"kernel.sched_rt_runtime_us", -1, 2147483647},
};

std::vector<std::string> words(const std::string& v) {
  std::istringstream in(v);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A decimal integer the kernel's proc handlers can read: signed 64-bit, or
// unsigned 64-bit for the unsigned-long sysctls.
bool integer_word(const std::string& w, std::int64_t* value = nullptr) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec == std::errc() && end == w.data() + w.size()) {
    if (value) *value = v;
    return true;
  }
  std::uint64_t u = 0;
  const auto [uend, uec] = std::from_chars(w.data(), w.data() + w.size(), u);
  if (uec == std::errc() && uend == w.data() + w.size()) {
    if (value) *value = u > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(u);
    return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> one_line_problem(const std::string& value) {
  for (char c : value)
    if (static_cast<unsigned char>(c) < 0x20 && c != ' ' && c != '\t')
      return fmt::format("'{}' is not one line of text", excerpt(value));
  return std::nullopt;
}

std::optional<std::string> sysctl_value_problem(const std::string& name, const std::string& value) {
  if (auto problem = one_line_problem(value)) return problem;
  for (const auto& r : kRanges) {
    if (r.name != name) continue;
    const auto w = words(value);
    std::int64_t v = 0;
    if (w.size() != 1 || !integer_word(w[0], &v) || v < r.min || v > r.max)
      return fmt::format("'{}' is not an integer from {} to {}, which {} takes", excerpt(value), r.min, r.max,
                         name);
  }
  return std::nullopt;
}

std::optional<std::string> sysctl_value_against(const std::string& name, const std::string& value,
                                                const std::string& current) {
  const auto now = words(current);
  if (now.empty()) return std::nullopt;
  for (const auto& w : now)
    if (!integer_word(w)) return std::nullopt;  // a text sysctl: the kernel judges the text
  const auto want = words(value);
  for (const auto& w : want)
    if (!integer_word(w))
      return fmt::format("'{}' is not {} (it holds {}: '{}' now)", excerpt(value),
                         now.size() == 1 ? "an integer" : fmt::format("{} integers", now.size()), name,
                         current);
  if (want.size() != now.size())
    return fmt::format("'{}' has {} value{}, {} holds {} ('{}' now)", excerpt(value), want.size(),
                       want.size() == 1 ? "" : "s", name, now.size(), current);
  return std::nullopt;
}

}  // namespace schedlab
