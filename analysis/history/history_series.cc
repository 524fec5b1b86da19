#include "analysis/history/history_series.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "analysis/history/history.h"
#include "base/suggest.h"
#include "base/text.h"

namespace schedlab {

std::optional<std::string> unknown_series(const MetricsTable& metrics, const std::string& db,
                                          const std::string& workload, const std::string& metric) {
  const auto names = metrics.metric_names();
  const auto safe = [](const std::vector<std::string>& words) {
    std::vector<std::string> out;
    for (const auto& w : words) out.push_back(terminal_safe(w));
    return fmt::format("{}", fmt::join(out, ", "));
  };
  const auto it = names.find(workload);
  if (it == names.end()) {
    std::vector<std::string> workloads;
    for (const auto& [w, declared] : names) workloads.push_back(w);
    return fmt::format("no run in {} has workload '{}'{}; {}", db, terminal_safe(workload),
                       terminal_safe(did_you_mean(workload, workloads)),
                       workloads.empty() ? "it has no runs" : "its workloads: " + safe(workloads));
  }
  if (std::find(it->second.begin(), it->second.end(), metric) != it->second.end())
    return std::nullopt;
  return fmt::format("no run in {} has metric '{}' of workload '{}'{}; its metrics there: {}", db,
                     terminal_safe(metric), terminal_safe(workload),
                     terminal_safe(did_you_mean(metric, it->second)), safe(it->second));
}

std::string row_list(const Store& store, const std::string& workload, const std::string& metric) {
  HistoryReader all(store, workload, metric, "");
  std::vector<std::string> rows;
  all.for_each_point(nullptr, [&](const HistoryPoint& p) {
    std::string row = fmt::format("{}/{}", p.block, p.row);
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(std::move(row));
  });
  const std::size_t shown = std::min<std::size_t>(rows.size(), 12);
  std::string out;
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + terminal_safe(rows[i]);
  if (rows.size() > shown) out += fmt::format(" (and {} more)", rows.size() - shown);
  return out;
}

}  // namespace schedlab
