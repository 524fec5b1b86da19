#include "analysis/counters/schedstat_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/counters/schedstat_diff.h"
#include "results/iterations_table.h"
#include "results/monitor_rows.h"

namespace schedlab {

RunSchedstat run_schedstat(const Store& store, const RunSchedstatSelection& sel) {
  std::map<std::int64_t, std::pair<std::string, std::string>> texts;  // iteration: before, after
  for (auto& s : store.monitor_rows().monitor_snapshots(sel.run_id, "schedstat"))
    (s.phase == "before" ? texts[s.iteration_id].first : texts[s.iteration_id].second) =
        std::move(s.text);
  const auto parse = [&](const std::string& text, const std::string& where) {
    try {
      auto s = schedstat::parse(text);
      if (!sel.level_names.empty()) schedstat::set_level_names(s, sel.level_names);
      return s;
    } catch (const CounterParseError& e) {
      throw CounterParseError(e, where);
    }
  };
  RunSchedstat out;
  for (const auto& it : store.iterations_table().iterations(sel.run_id)) {
    if (sel.variant_id && it.variant_id != *sel.variant_id) continue;
    const std::string block_row = it.block + "/" + it.row;
    if (std::find(out.rows.begin(), out.rows.end(), block_row) == out.rows.end())
      out.rows.push_back(block_row);
    if (!sel.row.empty() && sel.row != it.row && sel.row != block_row) continue;
    const auto t = texts.find(it.id);
    if (it.status != IterationStatus::kOk || t == texts.end() || t->second.first.empty() ||
        t->second.second.empty())
      continue;
    const std::string where =
        fmt::format("{} iteration {}",
                    sel.label.empty() ? fmt::format("run {}", sel.run_id) : sel.label, it.id);
    try {
      const auto d = schedstat::diff(parse(t->second.first, where + " before"),
                                     parse(t->second.second, where + " after"));
      if (out.sum)
        schedstat::accumulate(*out.sum, d);
      else
        out.sum = d;
    } catch (const CounterMismatchError& e) {
      throw CounterMismatchError(fmt::format("{}: {}", where, e.what()));
    }
    ++out.iterations;
  }
  return out;
}

}  // namespace schedlab
