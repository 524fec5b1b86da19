// compare --format markdown: the text report as GitHub/GitLab markdown, one
// pipe table per block. The same numbers, markers and notes as render_text.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/compare/emulation.h"
#include "analysis/compare/sequential_cells.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/render_changed.h"
#include "analysis/render/render_parts.h"
#include "base/text.h"

namespace schedlab {
namespace {

using namespace render_parts;

// Text inside a table cell or a line: pipes end a cell, and markdown's
// emphasis and code characters would change what is shown.
std::string escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\n') {
      out += ' ';
      continue;
    }
    if (std::string_view("\\|*_`<>[]#").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

std::string row_line(const std::vector<std::string>& cells) {
  return fmt::format("| {} |\n", fmt::join(cells, " | "));
}

// "value (pct%)", or "value \*pct%\*" when marked, as render_text's cells.
std::string value_md(std::size_t n, std::optional<double> value, std::optional<double> pct,
                     bool marked, int precision) {
  if (n == 0) return "FAIL";
  std::string s = value ? fixed_text(*value, precision) : "n/a";
  if (!pct) return s + " (n/a)";
  const std::string p = fixed_text(*pct, 2, kPctLimit);
  return s + (marked ? fmt::format(" \\*{}%\\*", p) : fmt::format(" ({}%)", p));
}

// Lines of plain text as one paragraph, each line kept; escaped, each
// within 100 columns with its hard break ("  ").
std::string paragraph(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string wrapped = wrap_words(escape(text.substr(at, nl - at)), 98, "");
    for (const std::string_view line : split_lines(wrapped)) lines.emplace_back(line);
  }
  return fmt::format("{}\n", fmt::join(lines, "  \n"));
}

std::string table_md(const Comparison& c, const Block& b) {
  std::vector<std::string> head{"", ""}, rule{"---", "---"};
  for (const auto& col : c.columns) {
    head.push_back(escape(col.label));
    rule.push_back("---:");
  }
  std::string out = fmt::format("### {}\n\n", escape(title(b))) + row_line(head) + row_line(rule);
  const std::size_t stats = std::max<std::size_t>(b.stat_rows.size(), 1);
  for (std::size_t k = 0; k < stats; ++k) {
    const bool centre = b.stat_rows.empty() || k == b.centre_row;
    const std::string op = centre ? std::string(operation(b.metric)) : b.stat_rows[k];
    for (const auto& r : b.rows) {
      std::vector<std::string> cells{escape(op), escape(r.label)};
      for (const Cell& cell : r.cells)
        if (!cell.measured)
          cells.push_back("");  // never planned for this column: blank, not FAIL
        else if (centre && !cell.unlike_baseline.empty() && cell.n > 0)
          cells.push_back(value_md(cell.n, cell.centre, cell.pct, false, b.metric.precision) + " !");
        else if (cell.n == 0 && !cell.unsupported.empty())
          cells.push_back("n/a (" + escape(cell.unsupported) + ")");
        else if (centre && cell.sequential && cell.n > 0)
          // stop: sequential: the decision's letter after the change (the note says which).
          cells.push_back(value_md(cell.n, cell.centre, cell.pct, false, b.metric.precision) + " " +
                          escape(std::string(1, sequential_marker(*cell.sequential))));
        else
          cells.push_back(centre ? value_md(cell.n, cell.centre, cell.pct, cell.significant,
                                          b.metric.precision)
                               : value_md(cell.n, cell.stat_values[k], cell.stat_pcts[k], false,
                                          b.metric.precision));
      out += row_line(cells);
    }
  }
  if (b.rows.size() > 1) {
    std::vector<std::string> cells{"Ratio", ""};
    for (const auto& r : b.ratio) cells.push_back(r.gmean ? fixed_text(*r.gmean, 4) : "n/a");
    out += row_line(cells);
  }
  return out + "\n" + paragraph(column_key_text(c) + table_note(c, b));
}

// What differs between the columns, as a table; empty when nothing does.
std::string differences_md(const Comparison& c) {
  if (c.differences.empty()) return "";
  std::vector<std::string> head{"differs"}, rule{"---"};
  for (const auto& col : c.columns) {
    head.push_back(escape(col.label));
    rule.push_back("---");
  }
  std::string out = row_line(head) + row_line(rule);
  for (const auto& d : c.differences) {
    std::vector<std::string> cells{escape(d.what())};
    for (const auto& v : d.values) cells.push_back(v ? escape(*v) : "-");
    out += row_line(cells);
  }
  return out + "\n";
}

}  // namespace

std::string render_markdown(const Comparison& c) {
  std::string out = differences_md(c);
  for (const auto& r : c.runs) out += wrap_words("- " + escape(describe_run(r)));  // 100 columns
  if (!c.runs.empty()) out += "\n";
  if (const std::string e = emulation_note(c.runs); !e.empty()) out += escape(e) + "\n";
  std::vector<std::size_t> widths;  // the monitors' text table, fenced as it is
  for (const auto& col : c.columns) widths.push_back(std::max<std::size_t>(23, col.label.size() + 1));
  for (std::size_t k = 0; k < c.blocks.size(); ++k) {
    const Block& b = c.blocks[k];
    out += table_md(c, b) + "\n";
    const bool last = k + 1 == c.blocks.size() || c.blocks[k + 1].name != b.name ||
                      c.blocks[k + 1].workload != b.workload;
    for (const auto& m : c.monitors)
      if (last && m.workload == b.workload && m.block == b.name)
        out += "```\n" + render_monitors_text(m, c.columns, widths) + "```\n\n";
  }
  // compare --changed: LKP's table is fixed-width text, fenced as it is.
  if (c.changed) out += "```\n" + render_changed_text(*c.changed) + "```\n\n";
  return out + paragraph(footer(c));
}

}  // namespace schedlab
