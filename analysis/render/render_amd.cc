// compare --style amd: the tables of AMD's scheduler reports on LKML (the
// sync-wakeup thread), for people who paste that form:
//
//   Test:              tip            sis_core
//    1-groups:   4.22 (0.00 pct)   4.48 (-6.16 pct) *
//
// The numbers are compare's: the centre, the change in percent (positive
// is better, as everywhere), `*` after a change the test calls significant.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/compare/emulation.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/render_parts.h"
#include "analysis/stats/significance.h"
#include "base/text.h"

namespace schedlab {

std::string render_amd(const Comparison& c) {
  using namespace render_parts;
  std::string out;
  for (const auto& r : c.runs) out += wrap_words(describe_run(r));  // 100 columns
  out += emulation_note(c.runs);
  for (const Block& b : c.blocks) {
    const int p = b.metric.precision > 2 ? 2 : b.metric.precision;
    std::vector<std::string> labels;
    std::size_t label_width = 5;  // "Test:"
    for (const auto& r : b.rows) {
      labels.push_back(fmt::format(" {}{}:", r.label, b.swept == "point" ? "" : "-" + b.swept));
      label_width = std::max(label_width, labels.back().size());
    }
    // Each cell's text first, then the columns' widths.
    std::vector<std::vector<std::string>> cells(b.rows.size());
    std::vector<std::size_t> widths(c.columns.size());
    for (std::size_t i = 0; i < c.columns.size(); ++i) widths[i] = c.columns[i].label.size();
    for (std::size_t r = 0; r < b.rows.size(); ++r)
      for (std::size_t i = 0; i < b.rows[r].cells.size(); ++i) {
        const Cell& cell = b.rows[r].cells[i];
        std::string t = !cell.measured                             ? ""
                        : cell.n == 0 && !cell.unsupported.empty() ? "n/a"
                        : cell.n == 0                              ? "FAIL"
                        : cell.centre
                            ? fmt::format("{} ({} pct){}", fixed_text(*cell.centre, p),
                                          cell.pct ? fixed_text(*cell.pct, 2, kPctLimit) : "n/a",
                                          !cell.unlike_baseline.empty() ? " !"
                                          : cell.significant            ? " *"
                                                                        : "  ")
                            : "n/a";
        widths[i] = std::max(widths[i], t.size());
        cells[r].push_back(std::move(t));
      }
    out += fmt::format("\n{}\n", title(b));
    // Many columns: in pieces within a mail's 100 columns, the baseline first in each.
    std::vector<std::size_t> spaced;
    for (const std::size_t w : widths) spaced.push_back(w + 3);
    const auto pieces = table_pieces(label_width, spaced);
    for (const auto& piece : pieces) {
      if (&piece != &pieces.front()) out += '\n';
      out += fmt::format("{:<{}}", "Test:", label_width);
      for (const std::size_t i : piece)
        out += fmt::format("   {:>{}}", c.columns[i].label, widths[i]);
      out += '\n';
      for (std::size_t r = 0; r < b.rows.size(); ++r) {
        out += fmt::format("{:<{}}", labels[r], label_width);
        for (const std::size_t i : piece)
          if (i < cells[r].size()) out += fmt::format("   {:>{}}", cells[r][i], widths[i]);
        out += '\n';
      }
    }
    out += column_key_text(c);  // what short column labels stand for, under each table
  }
  const std::string f = footer(c);
  const auto test = test_from_name(c.test);
  return out +
         fmt::format("\n* = significant ({}, alpha {:g}); pct: positive is better\n",
                     test ? std::string(test_title(*test)) : c.test, c.alpha) +
         f;
}

}  // namespace schedlab
