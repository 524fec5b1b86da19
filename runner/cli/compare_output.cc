#include "runner/cli/compare_output.h"

#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/summary_table.h"
#include "base/text.h"

namespace schedlab::cli {
namespace {

// Text and markdown are for a terminal: short column labels where asked
// (`shorten`, unless wide or a summary), and names (and whatever else a
// database brought) never reaching it as escape sequences.
std::string for_terminal(Comparison& c, const CompareOutput& o, bool shorten,
                         std::string (*table)(const Comparison&, const CompareOutput&)) {
  if (!o.wide && o.summary.empty() && shorten) shorten_column_labels(c);
  make_names_terminal_safe(c);
  return terminal_safe(table(c, o), true);
}

}  // namespace

const Renderers<RenderComparison>& comparison_outputs() {
  static const Renderers<RenderComparison> outputs{
      {Format::kText,
       [](Comparison c, const CompareOutput& o) {
         // The mmtests tables print the key under each table.
         return for_terminal(c, o, o.style == "mmtests",
                             [](const Comparison& c, const CompareOutput& o) {
                               if (!o.summary.empty())
                                 return render_summary_text(summary_table(c, o.summary));
                               return o.style == "amd" ? render_amd(c) : render_text(c);
                             });
       }},
      {Format::kMarkdown,
       [](Comparison c, const CompareOutput& o) {
         // Markdown prints the key under each table.
         return for_terminal(c, o, true, [](const Comparison& c, const CompareOutput& o) {
           return o.summary.empty() ? render_markdown(c)
                                    : render_summary_markdown(summary_table(c, o.summary));
         });
       }},
      {Format::kCsv,
       [](Comparison c, const CompareOutput& o) {
         return render_csv(c, o.csv_raw ? CsvCells::kRaw : CsvCells::kNeutralised);
       }},
      {Format::kJson,
       [](Comparison c, const CompareOutput& o) {
         return o.summary.empty() ? render_json(c)
                                  : render_summary_json(summary_table(c, o.summary));
       }},
  };
  return outputs;
}

std::string comparison_output(Comparison c, const CompareOutput& o) {
  return comparison_outputs().of(o.format)(std::move(c), o);
}

}  // namespace schedlab::cli
