#include "analysis/export/otava.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "analysis/compare/manifest_diff.h"
#include "analysis/render/render.h"

namespace schedlab {

OtavaTable otava_csv(std::span<const ExportRun> runs) {
  // Oldest first, as Otava reads a series.
  std::vector<const ExportRun*> order;
  for (const ExportRun& r : runs) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const ExportRun* a, const ExportRun* b) {
    return std::tie(a->run.started_at, a->run.id) < std::tie(b->run.started_at, b->run.id);
  });

  // Each series' centre per run (by position in `order`), in order of
  // first appearance.
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::optional<double>>> values;
  // A series is in one unit, direction and centre: a run declaring its
  // metric otherwise leaves it out, named (hostile16).
  std::map<std::string, std::pair<const MetricInfo*, std::string>> scales;
  const auto scale = [](const MetricInfo& m) {
    return fmt::format("{}, its centre {}", scale_text(m), m.centre);
  };
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const ExportCell& c : order[i]->cells) {
      const std::string name = cell_point_name(c) + "/" + c.metric.name;
      auto [it, added] = values.try_emplace(name, order.size());
      if (added) names.push_back(name);
      it->second[i] = c.centre;
      auto [was, first] = scales.try_emplace(name, &c.metric, "");
      if (!first && was->second.second.empty() && scale(*was->second.first) != scale(c.metric))
        was->second.second =
            fmt::format("run '{}' declares it {}, an earlier run {}", order[i]->run.name,
                        scale(c.metric), scale(*was->second.first));
    }

  OtavaTable out;
  for (const auto& name : names) {
    const auto& v = values[name];
    const auto missing = std::count(v.begin(), v.end(), std::nullopt);
    if (const std::string& mixed = scales[name].second; !mixed.empty())
      out.left_out.push_back(fmt::format("{}: {}", name, mixed));
    else if (missing == 0)
      out.series.push_back(name);
    else
      out.left_out.push_back(
          fmt::format("{}: no centre in {} of {} runs", name, missing, v.size()));
  }

  const auto text = [](std::string_view s) { return csv_text_cell(s); };
  out.csv = "time,run,kernel,commit";
  for (const auto& s : out.series) out.csv += "," + text(s);
  out.csv += "\n";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ExportRun& r = *order[i];
    // A run of kernels as columns: every kernel, by its columns' label
    // (hostile9: the first guest's release alone was given).
    std::string kernel = r.kernel_release, commit = r.commit;
    if (const auto parts = kernel_column_runs(r); parts.size() > 1) {
      std::vector<std::pair<std::string, std::string>> releases, commits;
      bool any_commit = false;
      for (const ExportRun& k : parts) {
        releases.emplace_back(k.kernel_column, k.kernel_release);
        commits.emplace_back(k.kernel_column, k.commit);
        any_commit = any_commit || !k.commit.empty();
      }
      kernel = labelled_kernels(releases);
      commit = any_commit ? labelled_kernels(commits) : "";
    }
    out.csv += fmt::format("{},{},{},{}", text(r.run.started_at), text(r.run.name), text(kernel),
                           text(commit));
    // Full precision: Otava computes on these.
    for (const auto& s : out.series) out.csv += fmt::format(",{}", *values[s][i]);
    out.csv += "\n";
  }
  return out;
}

}  // namespace schedlab
