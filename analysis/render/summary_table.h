// The summary table of the EEVDF thread: a row per compared column (kernel
// x variant), a column per chosen metric and sweep point, each cell the
// change against one baseline cell (the first column's), `*` where the
// comparison's test calls it significant. `compare --summary NOPM,p50`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"

namespace schedlab {

struct SummaryColumn {
  std::string metric;  // as the workload declared it
  std::string block, row;
  std::string label;   // "nopm" for a one-row block, else "nopm 4"
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
};

struct SummaryCell {
  bool measured = true;
  std::optional<double> value, pct, p_value;
  bool significant = false;
  bool unlike = false;  // measured with other parameters than the baseline
};

struct SummaryTable {
  std::vector<std::string> rows;       // the comparison's column labels
  std::vector<SummaryColumn> columns;  // per chosen metric, its blocks' rows
  std::vector<std::vector<SummaryCell>> cells;  // [row][column]
  std::string test;
  double alpha = 0.05;
  // What the rows' short labels stand for (column_key_text's lines); empty
  // with the full labels.
  std::string key;
};

// Throws std::invalid_argument naming the metrics the comparison has when
// one of `metrics` is none of them.
SummaryTable summary_table(const Comparison& c, const std::vector<std::string>& metrics);

std::string render_summary_text(const SummaryTable& t);
std::string render_summary_markdown(const SummaryTable& t);
std::string render_summary_json(const SummaryTable& t);  // {"summary": {...}}, format_version 1
// A <section> for report --summary: the table, each cell coloured by its
// change when significant (green better, red worse), and the legend.
std::string render_summary_html(const SummaryTable& t);

}  // namespace schedlab
