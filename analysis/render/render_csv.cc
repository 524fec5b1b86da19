// compare --format csv: the long form, one line per sample of the compared
// columns, for pandas (read_csv) and R (read.csv). Every number is the
// stored sample, not a summary.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "analysis/render/render.h"
#include "analysis/render/render_parts.h"
#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {
namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string quoted(std::string_view s, bool always) {
  if (!always && s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

// A number as a spreadsheet and pandas read one: "-0.25", "1e-05", "+3".
bool plain_number(std::string_view s) {
  if (s.starts_with('+')) {
    s.remove_prefix(1);
    if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) return false;
  }
  return to_number(s).has_value();
}

nlohmann::json params_of(const Row& r) {
  auto p = parse_json_data(r.params_json);
  return p.is_object() ? p : nlohmann::json::object();
}

}  // namespace

// A text cell (a name, a label, a parameter). Neutralised as OWASP's CSV
// injection page advises: a cell a spreadsheet would take for a formula
// (first character = + - @, tab or CR) gets a leading ' and quotes, unless
// it is a plain number (a negative value stays a number). A cell that
// already began with ' gets one too, so a reader drops exactly one leading
// ' from any text cell that has one (README: compare --format csv).
//
// Control and bidirectional formatting characters (ESC, BEL, CR, NUL,
// U+202E) are escaped first, reversibly (base/text.h escaped_reversibly:
// backslashes doubled): `cat` of the file must not drive the terminal, and
// a reader still gets the names back (README).
std::string csv_text_cell(std::string_view raw, CsvCells cells) {
  if (cells == CsvCells::kRaw) return quoted(raw, false);
  constexpr std::string_view kFormula = "=+-@'";
  const std::string s = escaped_reversibly(raw);
  if (s.empty() || kFormula.find(s[0]) == std::string_view::npos || plain_number(s))
    return quoted(s, false);
  return quoted("'" + s, true);
}

std::string render_csv(const Comparison& c, CsvCells cells) {
  const auto text = [cells](std::string_view s) { return csv_text_cell(s, cells); };
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
    kernels.push_back(text(render_parts::kernel_release(render_parts::column_run(c, i))));

  std::string out = "run,run_id,kernel,variant,pair,workload,block,row";
  for (const auto& p : params) out += "," + text(p);
  out += ",metric,unit,iteration,value\n";
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows) {
      const nlohmann::json p = params_of(r);
      std::string point;  // the parameters' fields, the same for every sample of the row
      for (const auto& key : params)
        point += "," + (p.contains(key) ? text(param_text(p[key])) : "");
      const std::string metric = text(b.metric.name) + "," + text(b.metric.unit);
      for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const ColumnRef& col = c.columns[i];
        const Cell& cell = r.cells[i];
        const std::string head = fmt::format("{},{},{},{},", text(col.run_name), col.run_id,
                                             kernels[i], text(col.variant));
        const std::string tail = fmt::format(",{},{},{}{},{},", text(b.workload), text(b.name),
                                             text(r.label), point, metric);
        for (std::size_t k = 0; k < cell.samples.size(); ++k) {
          const SampleOrigin* o = k < cell.origins.size() ? &cell.origins[k] : nullptr;
          // Full precision: the CSV is data, not a table for people.
          out += fmt::format("{}{}{}{},{}\n", head, o ? text(o->pair) : "", tail,
                             o ? std::to_string(o->iteration) : "", cell.samples[k]);
        }
      }
    }
  return out;
}

}  // namespace schedlab
