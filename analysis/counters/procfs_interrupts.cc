#include "analysis/counters/procfs_interrupts.h"

#include <fmt/format.h>

#include <numeric>
#include <unordered_map>

namespace schedlab::procfs {
namespace {

IrqTable parse_table(std::string_view text, std::string_view file) {
  IrqTable table;
  const auto lines = split_lines(text);
  std::vector<std::string_view> t;
  std::size_t i = 0;
  while (i < lines.size() && split_ws(lines[i]).empty()) ++i;
  if (i == lines.size()) throw CounterParseError(0, fmt::format("empty {} text", file));
  split_ws(lines[i], t);
  for (std::string_view col : t) {
    std::uint64_t n = 0;
    if (!col.starts_with("CPU") || !parse_u64(col.substr(3), n))
      throw CounterParseError(i + 1, fmt::format("{} header: expected CPU columns (CPU0 CPU1 ...), "
                                                 "found '{}'",
                                                 file, col));
    table.cpus.push_back(static_cast<int>(n));
  }
  const std::size_t ncpu = table.cpus.size();
  for (++i; i < lines.size(); ++i) {
    split_ws(lines[i], t);
    if (t.empty()) continue;
    if (t[0].size() < 2 || t[0].back() != ':')
      throw CounterParseError(
          i + 1, fmt::format("{}: expected 'NAME:' then counters, found '{}'", file, lines[i]));
    IrqRow row;
    row.name = std::string(t[0].substr(0, t[0].size() - 1));
    std::size_t k = 1;
    for (std::uint64_t v = 0; k < t.size() && row.per_cpu.size() < ncpu && parse_u64(t[k], v); ++k)
      row.per_cpu.push_back(v);
    if (row.per_cpu.empty())
      throw CounterParseError(i + 1, fmt::format("{}: {} has no counters", file, row.name));
    if (row.per_cpu.size() != ncpu) {
      if (row.per_cpu.size() != 1)
        throw CounterParseError(i + 1, fmt::format("{}: {} has {} counters for {} CPU columns",
                                                   file, row.name, row.per_cpu.size(), ncpu));
      row.total_only = true;
    }
    for (; k < t.size(); ++k)
      row.description += (row.description.empty() ? "" : " ") + std::string(t[k]);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace

std::uint64_t IrqRow::total() const {
  return std::accumulate(per_cpu.begin(), per_cpu.end(), std::uint64_t{0});
}

const IrqRow* IrqTable::find(std::string_view name) const {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

IrqTable parse_interrupts(std::string_view text) {
  return parse_table(text, "/proc/interrupts");
}
IrqTable parse_softirqs(std::string_view text) {
  return parse_table(text, "/proc/softirqs");
}

IrqTable diff(const IrqTable& before, const IrqTable& after) {
  if (before.cpus != after.cpus)
    throw CounterMismatchError(fmt::format("interrupt table CPU columns changed ({} -> {} CPUs)",
                                           before.cpus.size(), after.cpus.size()));
  std::unordered_map<std::string_view, const IrqRow*> old;
  for (const auto& r : before.rows) old.emplace(r.name, &r);
  IrqTable d = after;
  for (IrqRow& r : d.rows) {
    const auto it = old.find(r.name);
    if (it == old.end()) continue;
    const IrqRow& b = *it->second;
    if (b.per_cpu.size() != r.per_cpu.size())
      throw CounterMismatchError(fmt::format("interrupt row {} changed shape", r.name));
    // Interrupt counts are unsigned int per CPU in the kernel.
    for (std::size_t c = 0; c < r.per_cpu.size(); ++c)
      r.per_cpu[c] = counter_delta(b.per_cpu[c], r.per_cpu[c], 32,
                                   fmt::format("interrupt {} column {}", r.name, c));
  }
  return d;
}

}  // namespace schedlab::procfs
