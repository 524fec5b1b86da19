#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/render.h"

namespace schedlab {
namespace {

// Insertion order keeps the document in schema order for people reading it.
using Json = nlohmann::ordered_json;

constexpr int kFormatVersion = 1;  // bump when a field changes meaning

// Absent or non-finite values are null: JSON has no NaN.
Json number(std::optional<double> v) {
  return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
}
Json text_or_null(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json run_json(const RunInfo& r) {
  // A manifest that is not a JSON object is shown as null, not passed on raw.
  Json manifest = Json::parse(r.manifest_json, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) manifest = nullptr;
  return {{"id", r.id},
          {"name", r.name},
          {"status", r.status},
          {"started_at", r.started_at},
          {"ended_at", text_or_null(r.ended_at)},
          {"config_sha256", r.config_sha256},
          {"manifest", manifest}};
}

Json cell_json(std::size_t column, const Cell& c) {
  Json samples = Json::array();
  for (double v : c.samples) samples.push_back(number(v));
  return {{"column", column},
          {"n", c.n},
          {"failed", c.failed},
          {"centre", number(c.centre)},
          {"stddev", number(c.stddev)},
          {"min", number(c.min)},
          {"max", number(c.max)},
          {"pct", number(c.pct)},
          {"p_value", number(c.p_value)},
          {"significant", c.significant},
          {"samples", samples}};
}

Json block_json(const Block& b) {
  const MetricInfo& m = b.metric;
  Json rows = Json::array();
  for (const auto& r : b.rows) {
    Json cells = Json::array();
    for (std::size_t i = 0; i < r.cells.size(); ++i) cells.push_back(cell_json(i, r.cells[i]));
    rows.push_back({{"label", r.label}, {"cells", cells}});
  }
  return {{"workload", b.workload},
          {"block", b.name},
          {"metric",
           {{"name", m.name},
            {"unit", m.unit},
            {"direction", m.direction},
            {"centre", m.centre},
            {"kind", m.kind},
            {"precision", m.precision}}},
          {"rows", rows}};
}

}  // namespace

std::string render_json(const Comparison& c) {
  Json runs = Json::array();
  for (const auto& r : c.runs) runs.push_back(run_json(r));
  Json columns = Json::array();
  for (const auto& col : c.columns)
    columns.push_back({{"run_id", col.run_id},
                       {"run", col.run_name},
                       {"variant_id", col.variant_id},
                       {"variant", col.variant},
                       {"label", col.label}});
  Json blocks = Json::array();
  for (const auto& b : c.blocks) blocks.push_back(block_json(b));
  const Json doc = {{"format_version", kFormatVersion},
                    {"test", c.test},
                    {"alpha", c.alpha},
                    {"runs", runs},
                    {"columns", columns},
                    {"blocks", blocks}};
  return doc.dump(2) + "\n";
}

}  // namespace schedlab
