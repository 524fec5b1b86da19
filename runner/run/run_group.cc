#include "runner/run/run_group.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/compare.h"
#include "analysis/render.h"
#include "runner/hosts/lab/kernel.h"

namespace schedlab {

std::string kernel_run_name(const std::string& group, const std::string& kernel) {
  return group + "@" + lab::kernel_label(kernel);
}

std::optional<std::string> run_group(const RunInfo& run) {
  const auto m = nlohmann::json::parse(run.manifest_json, nullptr, false);
  if (!m.is_object() || !m.contains("group") || !m["group"].is_string()) return std::nullopt;
  return m["group"].get<std::string>();
}

std::vector<RunInfo> group_runs(const Store& store, const std::string& group) {
  std::vector<RunInfo> out;
  for (auto& r : store.list_runs())
    if (run_group(r) == group) out.push_back(std::move(r));
  std::sort(out.begin(), out.end(), [](const RunInfo& a, const RunInfo& b) { return a.id < b.id; });
  return out;
}

std::vector<ColumnRef> group_columns(const Store& store, const std::vector<RunInfo>& runs) {
  std::vector<ColumnRef> out;
  for (const auto& r : runs) {
    const auto m = nlohmann::json::parse(r.manifest_json, nullptr, false);
    std::string label = r.name;
    if (m.is_object() && m.contains("lab") && m["lab"].value("kernel_spec", "") != "")
      label = m["lab"].contains("build") && m["lab"]["build"].value("describe", "") != ""
                  ? m["lab"]["build"]["describe"].get<std::string>()
                  : lab::kernel_label(m["lab"]["kernel_spec"].get<std::string>());
    for (const auto& v : store.variants(r.id))
      out.push_back({.run_id = r.id,
                     .variant_id = v.id,
                     .run_name = r.name,
                     .variant = v.name,
                     .label = label + "/" + v.name});
  }
  return out;
}

std::string group_table_text(const Store& store, const std::string& group) {
  const auto runs = group_runs(store, group);
  if (runs.empty()) throw StoreError(fmt::format("no runs of group '{}'", group));
  return render_text(compare(store, group_columns(store, runs)));
}

}  // namespace schedlab
