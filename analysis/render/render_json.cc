#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/compare/emulation.h"
#include "analysis/render/render.h"
#include "analysis/render/render_changed.h"
#include "base/json_data.h"

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
          {"status", to_string(r.status)},
          {"started_at", r.started_at},
          {"ended_at", text_or_null(r.ended_at)},
          {"config_sha256", r.config_sha256},
          {"manifest", manifest}};
}

Json numbers(const std::vector<double>& v) {
  Json out = Json::array();
  for (double x : v) out.push_back(number(x));
  return out;
}

// The fields added to format_version 1 cells (and the stats columns):
// every summary statistic, the intervals, and why anything is null.
void add_details(Json& j, const Cell& c) {
  const Summary& s = c.summary;
  j["median"] = number(s.median.value);
  j["amean"] = number(s.amean.value);
  j["gmean"] = number(s.gmean.value);
  j["hmean"] = number(s.hmean.value);
  j["coefvar"] = number(s.coefvar.value);
  j["ci_low"] = c.ci.ci ? Json(c.ci.ci->low) : Json(nullptr);
  j["ci_high"] = c.ci.ci ? Json(c.ci.ci->high) : Json(nullptr);
  j["ci_method"] = c.ci.method;
  j["pct_ci_low"] = c.pct_ci ? Json(c.pct_ci->low) : Json(nullptr);
  j["pct_ci_high"] = c.pct_ci ? Json(c.pct_ci->high) : Json(nullptr);
  // Additive (format 1): an interval cut to the values the metric can take.
  j["ci_truncated"] = static_cast<bool>(c.ci.cut);
  j["pct_ci_truncated"] = static_cast<bool>(c.pct_ci_cut);
  // Why a value is null, by field name; only fields that are null and have
  // a reason appear.
  Json why = Json::object();
  const std::pair<const char*, const Stat*> stats[] = {
      {"centre", &s.centre_value}, {"stddev", &s.stddev}, {"median", &s.median},
      {"gmean", &s.gmean},         {"hmean", &s.hmean},   {"coefvar", &s.coefvar}};
  for (const auto& [key, st] : stats)
    if (!st->value && !st->reason.empty()) why[key] = st->reason;
  if (!c.ci.ci && !c.ci.reason.empty()) why["ci"] = c.ci.reason;
  if (!c.pct_ci && !c.pct_ci_reason.empty()) why["pct_ci"] = c.pct_ci_reason;
  if (!c.p_value && !c.p_reason.empty()) why["p_value"] = c.p_reason;
  j["null_reasons"] = why;
}

Json cell_json(std::size_t column, const Cell& c, const Block& b) {
  Json j = {{"column", column},
            {"n", c.n},
            {"failed", c.failed},
            {"unsupported", c.unsupported.empty() ? Json(nullptr) : Json(c.unsupported)},
            {"centre", number(c.centre)},
            {"stddev", number(c.stddev)},
            {"min", number(c.min)},
            {"max", number(c.max)},
            {"pct", number(c.pct)},
            {"p_value", number(c.p_value)},
            {"significant", c.significant},
            {"samples", numbers(c.samples)}};
  add_details(j, c);
  // Additive (format 1): a point the column's run never measured (not a
  // failure: n 0, failed 0), and what makes a cell unlike its baseline.
  j["not_measured"] = !c.measured;
  // An unknown parameter (an imported output that did not state it, and
  // no --param gave it) is null, as the store holds it.
  Json params = Json::object();
  for (const auto& [k, v] : c.params) params[k] = v == kUnknownParam ? Json(nullptr) : Json(v);
  j["params"] = params;
  j["unlike_baseline"] = c.unlike_baseline;
  Json notes = Json::array();
  for (const Cell::Note& n : c.notes) notes.push_back({{"iteration", n.iteration + 1}, {"note", n.text}});
  j["notes"] = notes;
  if (b.metric.kind == SampleKind::kInterval) j["iteration_centres"] = numbers(c.units);
  // Additive (format 1): the stop: sequential test that decided the cell.
  if (c.sequential) {
    const SequentialCell& s = *c.sequential;
    j["sequential"] = {{"decision", s.decision},
                       {"looks", s.looks},
                       {"n", s.n},
                       {"n_baseline", s.n_baseline},
                       {"p_value", number(s.p_value)},
                       {"ci_low", number(s.ci_low)},
                       {"ci_high", number(s.ci_high)},
                       {"level", s.level},
                       {"estimate_pct", number(s.estimate_pct)},
                       {"method", s.method()},
                       {"finished", s.finished},
                       {"reason", s.reason},
                       {"alpha", s.alpha},
                       {"power", s.power},
                       {"min_effect_pct", s.min_effect_pct},
                       {"max", s.max},
                       {"note", text_or_null(s.note)},
                       {"plan_cv_pct", number(s.plan_cv_pct)},
                       {"plan_cv_note", text_or_null(s.plan_cv_note)}};
  } else {
    j["sequential"] = nullptr;
  }
  if (!b.stat_rows.empty()) {
    Json rows = Json::array();
    for (std::size_t k = 0; k < b.stat_rows.size(); ++k) {
      if (k == b.centre_row) continue;  // the cell's own centre and pct
      rows.push_back({{"name", b.stat_rows[k]},
                      {"value", number(c.stat_values[k])},
                      {"pct", number(c.stat_pcts[k])}});
    }
    j["all_stats"] = rows;
  }
  return j;
}

Json block_json(const Block& b) {
  const MetricInfo& m = b.metric;
  Json rows = Json::array();
  for (const auto& r : b.rows) {
    Json cells = Json::array();
    for (std::size_t i = 0; i < r.cells.size(); ++i) cells.push_back(cell_json(i, r.cells[i], b));
    rows.push_back({{"label", r.label}, {"cells", cells}});
  }
  Json ratio = Json::array();
  for (std::size_t i = 0; i < b.ratio.size(); ++i)
    ratio.push_back({{"column", i},
                     {"gmean", number(b.ratio[i].gmean)},
                     {"rows", b.ratio[i].rows},
                     {"skipped", b.ratio[i].skipped}});
  return {{"workload", b.workload},
          {"block", b.name},
          {"metric",
           {{"name", m.name},
            {"unit", m.unit},
            {"direction", to_string(m.direction)},
            {"centre", m.centre},
            {"kind", to_string(m.kind)},
            {"precision", m.precision},
            {"domain", to_string(m.domain.value_or(ValueDomain::kUnbounded))}}},
          {"swept", b.swept},
          {"rows", rows},
          {"units", b.units},
          {"comparisons", b.comparisons},
          {"ratio", ratio}};
}

}  // namespace

std::string render_json(const Comparison& c) {
  Json runs = Json::array();
  for (const auto& r : c.runs) runs.push_back(run_json(r));
  Json columns = Json::array();
  for (const auto& col : c.columns) {
    columns.push_back({{"run_id", col.run_id},
                       {"run", col.run_name},
                       {"variant_id", col.variant_id},
                       {"variant", col.variant},
                       {"label", col.label}});
    // Additive (format 1): the pair of a --by-pair column.
    if (col.pair) columns.back()["pair"] = *col.pair;
  }
  Json blocks = Json::array();
  for (const auto& b : c.blocks) blocks.push_back(block_json(b));
  // Runs measured under TCG (lab SUTs): the numbers are emulated.
  Json emulated = Json::array();
  for (const auto& e : emulated_runs(c.runs))
    emulated.push_back({{"run_id", e.run_id}, {"release", text_or_null(e.release)}, {"board", text_or_null(e.board)}});
  Json differences = Json::array();
  for (const auto& d : c.differences) {
    Json values = Json::array();
    for (const auto& v : d.values) values.push_back(v ? Json(*v) : Json(nullptr));
    differences.push_back({{"kind", d.kind}, {"name", d.name}, {"values", values}});
  }
  const Json doc = {{"format_version", kFormatVersion},
                    {"test", c.test},
                    {"alpha", c.alpha},
                    {"level", c.level},
                    {"runs", runs},
                    {"columns", columns},
                    {"emulated", !emulated.empty()},
                    {"emulated_runs", emulated},
                    {"differences", differences},
                    {"unlike", unlike_cells(c)},
                    {"blocks", blocks}};
  if (c.monitors.empty() && !c.changed) return json_output(doc) + "\n";
  Json with = doc;
  if (!c.monitors.empty()) with["monitors"] = monitors_json(c);  // compare --monitors
  if (c.changed) {                                               // compare --changed
    with["changed_test"] = changed_json_summary(*c.changed);
    with["changed"] = changed_json_rows(*c.changed);
  }
  return json_output(with) + "\n";
}

}  // namespace schedlab

namespace schedlab {

std::string render_stats_json(const Comparison& c) {
  Json columns = Json::array();
  const Block* b = c.blocks.empty() ? nullptr : &c.blocks.front();
  if (b && !b->rows.empty()) {
    const Row& row = b->rows.front();
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const Cell& cell = row.cells[i];
      const Summary& s = cell.summary;
      Json j = {{"label", c.columns[i].label},
                {"n", cell.n},
                {"min", number(cell.min)},
                {"max", number(cell.max)},
                {"median", number(s.median.value)},
                {"amean", number(s.amean.value)},
                {"gmean", number(s.gmean.value)},
                {"hmean", number(s.hmean.value)},
                {"stddev", number(cell.stddev)},
                {"coefvar", number(s.coefvar.value)},
                {"centre", number(cell.centre)},
                {"ci_low", cell.ci.ci ? Json(cell.ci.ci->low) : Json(nullptr)},
                {"ci_high", cell.ci.ci ? Json(cell.ci.ci->high) : Json(nullptr)},
                {"pct", number(cell.pct)},
                {"pct_ci_low", cell.pct_ci ? Json(cell.pct_ci->low) : Json(nullptr)},
                {"pct_ci_high", cell.pct_ci ? Json(cell.pct_ci->high) : Json(nullptr)},
                {"p_value", number(cell.p_value)},
                {"significant", cell.significant}};
      add_details(j, cell);
      if (!b->stat_rows.empty()) j["all_stats"] = cell_json(i, cell, *b)["all_stats"];
      j["samples"] = numbers(cell.samples);
      columns.push_back(std::move(j));
    }
  }
  Json doc = {{"format_version", kFormatVersion}, {"test", c.test}, {"alpha", c.alpha},
              {"level", c.level}};
  if (b)
    doc["metric"] = {{"direction", to_string(b->metric.direction)}, {"centre", b->metric.centre}};
  doc["comparisons"] = b ? b->comparisons : 0;
  doc["columns"] = columns;
  return json_output(doc) + "\n";
}

}  // namespace schedlab
