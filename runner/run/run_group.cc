#include "runner/run/run_group.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"
#include "base/json_data.h"
#include "runner/lab/kernel.h"

namespace schedlab {

std::string kernel_run_name(const std::string& group, const std::string& kernel) {
  return group + "@" + lab::kernel_label(kernel);
}

std::optional<std::string> run_group(const RunInfo& run) {
  const auto m = parse_json_data(run.manifest_json);
  if (!m.is_object() || !m.contains("group") || !m["group"].is_string()) return std::nullopt;
  return m["group"].get<std::string>();
}

std::vector<RunInfo> group_runs(const RunsTable& runs, const std::string& group) {
  std::vector<RunInfo> out;
  for (auto& r : runs.list_runs())
    if (run_group(r) == group) out.push_back(std::move(r));
  std::sort(out.begin(), out.end(), [](const RunInfo& a, const RunInfo& b) { return a.id < b.id; });
  return out;
}

std::vector<ColumnRef> group_columns(const VariantsTable& variants,
                                     const std::vector<RunInfo>& runs) {
  // A kernel's column is named as the config named it (git:~/linux@patched:
  // "patched", debian:6.12: "6.12"); two kernels of one name get the git
  // describe of what was built after it ("main v6.1-12-gabc").
  std::vector<std::string> labels, describes;
  for (const auto& r : runs) {
    const auto m = parse_json_data(r.manifest_json);
    std::string label = r.name, describe;
    if (m.is_object() && m.contains("lab") && m["lab"].is_object() && m["lab"].value("kernel_spec", "") != "") {
      label = lab::kernel_label(m["lab"]["kernel_spec"].get<std::string>());
      if (m["lab"].contains("build") && m["lab"]["build"].is_object())
        describe = m["lab"]["build"].value("describe", "");
    }
    labels.push_back(label);
    describes.push_back(describe);
  }
  std::vector<ColumnRef> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunInfo& r = runs[i];
    std::string label = labels[i];
    if (std::count(labels.begin(), labels.end(), label) > 1 && !describes[i].empty())
      label += " " + describes[i];
    for (const auto& v : variants.variants(r.id))
      out.push_back({.run_id = r.id,
                     .variant_id = v.id,
                     .run_name = r.name,
                     .variant = v.name,
                     .label = label + "/" + v.name});
  }
  return out;
}

}  // namespace schedlab
