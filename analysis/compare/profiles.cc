#include "analysis/compare/profiles.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

#include "analysis/compare/compare.h"

namespace schedlab {

std::vector<ColumnProfile> column_profiles(const Store& store, const Comparison& c) {
  std::vector<ColumnProfile> out(c.columns.size());
  const std::string monitor(perf_profile::kMonitorName);
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const ColumnRef& col = c.columns[i];
    std::map<std::int64_t, IterationRow> ok;  // the column's ok iterations by id
    for (auto& it : store.iterations_table().iterations(col.run_id))
      if (it.variant_id == col.variant_id && it.status == IterationStatus::kOk &&
          (!col.pair || it.pair == *col.pair))
        ok.emplace(it.id, std::move(it));
    for (const auto& snap : store.monitor_rows().monitor_snapshots(col.run_id, monitor)) {
      const auto it = ok.find(snap.iteration_id);
      if (it == ok.end() || snap.path != perf_profile::kStoredPath) continue;
      const IterationRow& row = it->second;
      const std::string what =
          fmt::format("run {} variant {} {}{}{} iteration {} (id {})", col.run_name, col.variant,
                      row.block, row.row.empty() ? "" : " ", row.row, row.iteration, row.id);
      ColumnProfile& p = out[i];
      for (const auto& [stack, n] : perf_profile::load(snap.text, what)) {
        // Each profile's sum is checked as it loads; the column's sum of
        // them could still wrap and print shares above 100% (issue 44).
        if (n > std::numeric_limits<std::uint64_t>::max() - p.samples)
          throw CounterParseError(
              0, fmt::format("{}: the column's profiles summed (its iterations' samples "
                             "in all) overflow a 64-bit count",
                             what));
        p.folded[stack] += n;
        p.samples += n;
      }
      ++p.iterations;
    }
  }
  if (std::none_of(out.begin(), out.end(), [](const ColumnProfile& p) { return p.iterations; }))
    out.clear();
  return out;
}

}  // namespace schedlab
