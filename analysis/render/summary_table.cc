#include "analysis/render/summary_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/render/column_labels.h"
#include "analysis/render/render_html.h"
#include "analysis/stats/significance.h"
#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {

SummaryTable summary_table(const Comparison& c, const std::vector<std::string>& metrics) {
  SummaryTable t;
  t.test = c.test;
  t.alpha = c.alpha;
  t.key = column_key_text(c);
  for (const auto& col : c.columns) t.rows.push_back(col.label);
  t.cells.resize(t.rows.size());
  for (const auto& m : metrics) {
    bool found = false;
    for (const auto& b : c.blocks) {
      if (b.metric.name != m) continue;
      found = true;
      for (const auto& r : b.rows) {
        const bool one = b.rows.size() == 1;
        t.columns.push_back({m, b.name, r.label, one ? m : fmt::format("{} {}", m, r.label), b.metric.unit,
                             b.metric.direction});
        for (std::size_t i = 0; i < r.cells.size() && i < t.cells.size(); ++i) {
          const Cell& cell = r.cells[i];
          t.cells[i].push_back({cell.measured, cell.centre, cell.pct, cell.p_value, cell.significant,
                                !cell.unlike_baseline.empty()});
        }
      }
    }
    if (!found) {
      std::vector<std::string> names;
      for (const auto& b : c.blocks)
        if (std::find(names.begin(), names.end(), b.metric.name) == names.end()) names.push_back(b.metric.name);
      throw std::invalid_argument(fmt::format(
          "--summary: no metric '{}' in the comparison (it has: {})", terminal_safe(excerpt(m)),
          terminal_safe(fmt::format("{}", fmt::join(names, ", ")))));
    }
  }
  return t;
}

namespace {

// "+12.34%*", "-3.10%", "!+70.00%" (not like with like), blank when not
// measured, "n/a" without a change.
std::string cell_text(const SummaryCell& c) {
  if (!c.measured) return "";
  if (!c.pct) return "n/a";
  // Past a million per cent in scientific notation, as the tables.
  const std::string pct = signed_fixed_text(*c.pct, 2);
  return fmt::format("{}{}%{}", c.unlike ? "!" : "", pct, c.significant && !c.unlike ? "*" : "");
}

std::string legend(const SummaryTable& t) {
  const auto test = test_from_name(t.test);
  return fmt::format("% change against {} (positive is better); * = {} p < {:g}; ! = measured with other "
                     "parameters than the baseline",
                     t.rows.empty() ? "the first row" : t.rows.front(), test ? test_title(*test) : t.test, t.alpha);
}

}  // namespace

std::string render_summary_text(const SummaryTable& t) {
  std::size_t first = 0;
  for (const auto& r : t.rows) first = std::max(first, r.size());
  std::vector<std::size_t> widths;
  for (const auto& c : t.columns) widths.push_back(std::max<std::size_t>(c.label.size(), 10) + 2);
  std::string out = fmt::format("{:<{}}", "", first);
  for (std::size_t k = 0; k < t.columns.size(); ++k) out += fmt::format("{:>{}}", t.columns[k].label, widths[k]);
  out += '\n';
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    out += fmt::format("{:<{}}", t.rows[i], first);
    for (std::size_t k = 0; k < t.columns.size(); ++k)
      out += fmt::format("{:>{}}", k < t.cells[i].size() ? cell_text(t.cells[i][k]) : "", widths[k]);
    out += '\n';
  }
  return out + t.key + wrap_words(legend(t));
}

std::string render_summary_markdown(const SummaryTable& t) {
  std::vector<std::string> head{""}, rule{"---"};
  for (const auto& c : t.columns) {
    head.push_back(c.label);
    rule.push_back("---:");
  }
  std::string out = fmt::format("| {} |\n| {} |\n", fmt::join(head, " | "), fmt::join(rule, " | "));
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    std::vector<std::string> cells{t.rows[i]};
    for (std::size_t k = 0; k < t.columns.size(); ++k) {
      std::string text = k < t.cells[i].size() ? cell_text(t.cells[i][k]) : "";
      std::string escaped;
      for (char ch : text) {
        if (ch == '*' || ch == '|' || ch == '!') escaped += '\\';
        escaped += ch;
      }
      cells.push_back(escaped);
    }
    out += fmt::format("| {} |\n", fmt::join(cells, " | "));
  }
  return out + "\n" + t.key + wrap_words(legend(t));
}

std::string render_summary_json(const SummaryTable& t) {
  using Json = nlohmann::ordered_json;
  const auto num = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  Json columns = Json::array();
  for (const auto& c : t.columns)
    columns.push_back({{"metric", c.metric},
                       {"block", c.block},
                       {"row", c.row},
                       {"label", c.label},
                       {"unit", c.unit},
                       {"direction", to_string(c.direction)}});
  Json rows = Json::array();
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    Json cells = Json::array();
    for (const auto& c : t.cells[i])
      cells.push_back({{"not_measured", !c.measured}, {"value", num(c.value)}, {"pct", num(c.pct)},
                       {"p_value", num(c.p_value)}, {"significant", c.significant}, {"unlike_baseline", c.unlike}});
    rows.push_back({{"label", t.rows[i]}, {"cells", cells}});
  }
  const Json doc = {{"format_version", 1},
                    {"summary", {{"test", t.test}, {"alpha", t.alpha}, {"columns", columns}, {"rows", rows}}}};
  return json_output(doc) + "\n";
}

std::string render_summary_html(const SummaryTable& t) {
  std::string out = "<section class=\"summary\"><h2>summary</h2><table class=\"summary\"><thead><tr><th></th>";
  for (const auto& c : t.columns) out += "<th>" + html_escape(c.label) + "</th>";
  out += "</tr></thead><tbody>";
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    out += "<tr><th>" + html_escape(t.rows[i]) + "</th>";
    for (std::size_t k = 0; k < t.columns.size(); ++k) {
      const SummaryCell* c = k < t.cells[i].size() ? &t.cells[i][k] : nullptr;
      const char* cls = !c || !c->pct || !c->significant || c->unlike ? "" : *c->pct >= 0 ? "better" : "worse";
      out += fmt::format("<td class=\"{}\">{}</td>", cls, html_escape(c ? cell_text(*c) : ""));
    }
    out += "</tr>";
  }
  return out + "</tbody></table><p class=\"note\">" + html_escape(legend(t)) + "</p></section>\n";
}

}  // namespace schedlab
