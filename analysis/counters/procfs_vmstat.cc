#include "analysis/counters/procfs_vmstat.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <set>

namespace schedlab::procfs {

std::vector<std::pair<std::string, std::int64_t>> parse_vmstat(std::string_view text) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  std::set<std::string, std::less<>> seen;
  const auto lines = split_lines(text);
  std::vector<std::string_view> t;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    split_ws(lines[i], t);
    if (t.empty()) continue;
    auto bad = [&] {
      return CounterParseError(i + 1, fmt::format("expected 'name value', found '{}'", lines[i]));
    };
    if (t.size() != 2) throw bad();
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(t[1].data(), t[1].data() + t[1].size(), v);
    if (ec != std::errc() || ptr != t[1].data() + t[1].size()) throw bad();
    if (!seen.emplace(t[0]).second)
      throw CounterParseError(i + 1, fmt::format("'{}' is given twice", t[0]));
    out.emplace_back(std::string(t[0]), v);
  }
  if (out.empty()) throw CounterParseError(0, "no counters: not a /proc/vmstat file");
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> diff(
    const std::vector<std::pair<std::string, std::int64_t>>& before,
    const std::vector<std::pair<std::string, std::int64_t>>& after) {
  if (before.size() != after.size())
    throw CounterMismatchError(fmt::format("/proc/vmstat has {} counters before and {} after",
                                           before.size(), after.size()));
  const std::map<std::string_view, std::int64_t> b(before.begin(), before.end());
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& [name, v] : after) {
    const auto it = b.find(name);
    if (it == b.end())
      throw CounterMismatchError(fmt::format("/proc/vmstat counter '{}' appeared", name));
    out.emplace_back(name, v - it->second);
  }
  return out;
}

}  // namespace schedlab::procfs
