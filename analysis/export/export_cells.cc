#include "analysis/export/export_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/compare/manifest_diff.h"
#include "analysis/history/history_changes.h"
#include "analysis/render/render_parts.h"
#include "base/json_data.h"

namespace schedlab {
namespace {

// The manifest's lab.build object (a kernel built from a tree), or null.
nlohmann::json lab_build(const RunInfo& run) {
  const auto m = parse_json_data(run.manifest_json);
  if (!m.is_object() || !m.contains("lab") || !m["lab"].is_object()) return nullptr;
  const auto& lab = m["lab"];
  return lab.contains("build") && lab["build"].is_object() ? lab["build"] : nlohmann::json(nullptr);
}

ExportRun run_facts(const RunInfo& run) {
  ExportRun r{
      .run = run, .kernel_release = render_parts::kernel_release(run), .commit = run_commit(run)};
  const nlohmann::json build = lab_build(run);
  if (build.is_object()) {
    if (build.contains("describe") && build["describe"].is_string())
      r.describe = build["describe"].get<std::string>();
    if (build.contains("edits_sha256") && build["edits_sha256"].is_string())
      r.edits_sha256 = build["edits_sha256"].get<std::string>();
    if (build.contains("seconds") && build["seconds"].is_number())
      r.build_seconds = build["seconds"].get<double>();
  }
  return r;
}

ExportCell export_cell(const Comparison& c, const Block& b, const Row& row, std::size_t column) {
  const Cell& cell = row.cells[column];
  return {.workload = b.workload,
          .block = b.name,
          .row = row.label,
          .swept = b.swept,
          .variant = c.columns[column].variant,
          .metric = b.metric,
          .params = cell.params,
          .n = cell.n,
          .failed = cell.failed,
          .unsupported = cell.unsupported,
          .samples = cell.samples,
          .centre = cell.centre,
          .centre_reason = cell.centre ? "" : cell.summary.centre_value.reason,
          .ci = cell.ci};
}

}  // namespace

std::vector<ExportRun> kernel_column_runs(const ExportRun& r) {
  const auto m = parse_json_data(r.run.manifest_json);
  if (!m.is_object() || !m.contains("kernel_columns") || !m["kernel_columns"].is_array())
    return {r};
  std::vector<ExportRun> out;
  for (const auto& k : m["kernel_columns"]) {
    if (!k.is_object() || !k.contains("column") || !k["column"].is_string()) continue;
    const std::string prefix = k["column"].get<std::string>() + "/";
    RunInfo run = r.run;
    run.manifest_json = kernel_column_manifest(m, prefix).dump();
    ExportRun one = run_facts(run);
    one.run = r.run;
    one.kernel_column = k["column"].get<std::string>();
    for (const ExportCell& c : r.cells)
      if (c.variant.starts_with(prefix)) one.cells.push_back(c);
    out.push_back(std::move(one));
  }
  // Every cell in exactly one kernel's part, or the run as it is: a crafted
  // manifest whose labels name no variant of a cell loses no cell, and one
  // whose labels overlap (a and a/b) puts none under two kernels (hostile10:
  // the counts agreed while one cell was dropped and another doubled).
  const bool once_each = std::ranges::all_of(r.cells, [&](const ExportCell& c) {
    return std::ranges::count_if(out, [&](const ExportRun& one) {
             return c.variant.starts_with(one.kernel_column + "/");
           }) == 1;
  });
  return once_each && !out.empty() ? out : std::vector<ExportRun>{r};
}

CellOutcome outcome(const ExportCell& c) {
  if (c.n > 0) return CellOutcome::kMeasured;
  return c.unsupported.empty() ? CellOutcome::kFailed : CellOutcome::kUnsupported;
}

std::vector<ExportRun> export_runs(const Store& store, std::span<const std::int64_t> run_ids,
                                   const std::string& workload, const CompareOptions& options) {
  std::vector<ExportRun> out;
  for (const std::int64_t id : run_ids) {
    const auto columns = default_columns(store, {id});
    if (columns.empty()) {  // a run that stored no variant has no cell
      if (const auto run = store.runs_table().find_run(id)) out.push_back(run_facts(*run));
      continue;
    }
    const Comparison c = compare(store, columns, options);
    ExportRun r = run_facts(c.runs.at(0));
    for (const Block& b : c.blocks) {
      if (!workload.empty() && b.workload != workload) continue;
      for (const Row& row : b.rows)
        for (std::size_t i = 0; i < row.cells.size(); ++i)
          if (row.cells[i].measured) r.cells.push_back(export_cell(c, b, row, i));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string cell_point_name(const ExportCell& c) {
  const std::string row = c.swept == "point" ? c.row : fmt::format("{}={}", c.swept, c.row);
  return fmt::format("{}/{}/{}", c.block, row, c.variant);
}

std::string metric_with_unit(const MetricInfo& m) {
  return m.unit.empty() ? m.name : fmt::format("{} ({})", m.name, m.unit);
}

}  // namespace schedlab
