#include "runner/cli/compare_output.h"

#include "analysis/column_labels.h"
#include "analysis/render.h"
#include "analysis/summary_table.h"
#include "base/text.h"

namespace schedlab::cli {

std::string comparison_output(Comparison c, const CompareOutput& o) {
  if (o.format == Format::kJson)
    return o.summary.empty() ? render_json(c) : render_summary_json(summary_table(c, o.summary));
  if (o.format == Format::kCsv) return render_csv(c, o.csv_raw ? CsvCells::kRaw : CsvCells::kNeutralised);
  // The mmtests tables and markdown print the key under each table.
  if (!o.wide && o.summary.empty() && (o.format == Format::kMarkdown || o.style == "mmtests")) shorten_column_labels(c);
  // For a terminal: names (and whatever else a database brought) never
  // reach it as escape sequences.
  make_names_terminal_safe(c);
  std::string text;
  if (!o.summary.empty()) {
    const SummaryTable t = summary_table(c, o.summary);
    text = o.format == Format::kMarkdown ? render_summary_markdown(t) : render_summary_text(t);
  } else {
    text = o.format == Format::kMarkdown ? render_markdown(c) : o.style == "amd" ? render_amd(c) : render_text(c);
  }
  return terminal_safe(text, true);
}

}  // namespace schedlab::cli
