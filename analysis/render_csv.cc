// compare --format csv: the long form, one line per sample of the compared
// columns, for pandas (read_csv) and R (read.csv). Every number is the
// stored sample, not a summary.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/render.h"
#include "analysis/render_parts.h"

namespace schedlab {
namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

nlohmann::json params_of(const Row& r) {
  auto p = nlohmann::json::parse(r.params_json, nullptr, false);
  return p.is_object() ? p : nlohmann::json::object();
}

}  // namespace

std::string render_csv(const Comparison& c) {
  // Every parameter of any point is a column, in order of first appearance.
  std::vector<std::string> params;
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows) {
      const nlohmann::json p = params_of(r);
      for (auto it = p.begin(); it != p.end(); ++it)
        if (std::find(params.begin(), params.end(), it.key()) == params.end())
          params.push_back(it.key());
    }
  std::vector<std::string> kernels;
  for (std::size_t i = 0; i < c.columns.size(); ++i)
    kernels.push_back(field(render_parts::kernel_release(render_parts::column_run(c, i))));

  std::string out = "run,run_id,kernel,variant,pair,workload,block,row";
  for (const auto& p : params) out += "," + field(p);
  out += ",metric,unit,iteration,value\n";
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows) {
      const nlohmann::json p = params_of(r);
      std::string point;  // the parameters' fields, the same for every sample of the row
      for (const auto& key : params) point += "," + (p.contains(key) ? field(param_text(p[key])) : "");
      const std::string metric = field(b.metric.name) + "," + field(b.metric.unit);
      for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const ColumnRef& col = c.columns[i];
        const Cell& cell = r.cells[i];
        const std::string head = fmt::format("{},{},{},{},", field(col.run_name), col.run_id,
                                             kernels[i], field(col.variant));
        const std::string tail = fmt::format(",{},{},{}{},{},", field(b.workload), field(b.name),
                                             field(r.label), point, metric);
        for (std::size_t k = 0; k < cell.samples.size(); ++k) {
          const SampleOrigin* o = k < cell.origins.size() ? &cell.origins[k] : nullptr;
          // Full precision: the CSV is data, not a table for people.
          out += fmt::format("{}{}{}{},{}\n", head, o ? field(o->pair) : "", tail,
                             o ? std::to_string(o->iteration) : "", cell.samples[k]);
        }
      }
    }
  return out;
}

}  // namespace schedlab
