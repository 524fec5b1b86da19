#include "runner/cli/compare_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/summary_table.h"
#include "base/text.h"
#include "base/suggest.h"

namespace schedlab::cli {
namespace {

// Text and markdown are for a terminal: short column labels (with their
// key) unless wide, and names (and whatever else a database brought) never
// reaching it as escape sequences.
std::string for_terminal(Comparison& c, const CompareOutput& o,
                         std::string (*table)(const Comparison&, const CompareOutput&)) {
  if (!o.wide) shorten_column_labels(c);
  make_names_terminal_safe(c);
  return terminal_safe(table(c, o), true);
}

// An option that changes some shapes of the output only: the formats it
// applies to, and whether it applies with --summary and with --style amd.
struct ShapeScope {
  const char* option;
  bool (*given)(const CompareOutput&, const ShapeOptions&);
  std::vector<Format> formats;
  bool with_summary;
  bool with_amd;
  const char* note;  // after the formats it applies to: "; ..." or ""
};

const std::vector<ShapeScope>& shape_scopes() {
  static const std::vector<ShapeScope> scopes{
      {"--summary",
       [](const CompareOutput& o, const ShapeOptions&) { return !o.summary.empty(); },
       {Format::kText, Format::kMarkdown, Format::kJson},
       true,
       true,
       ""},
      {"--style amd",
       [](const CompareOutput& o, const ShapeOptions&) { return o.style == "amd"; },
       {Format::kText},
       false,
       true,
       ""},
      {"--wide",
       [](const CompareOutput& o, const ShapeOptions&) { return o.wide; },
       {Format::kText, Format::kMarkdown},
       true,
       true,
       "; json and csv always have the full names"},
      {"--csv-raw",
       [](const CompareOutput& o, const ShapeOptions&) { return o.csv_raw; },
       {Format::kCsv},
       true,
       true,
       ""},
      {"--monitors",
       [](const CompareOutput&, const ShapeOptions& g) { return g.monitors; },
       {Format::kText, Format::kMarkdown, Format::kJson},
       false,
       false,
       ""},
      {"--all-stats",
       [](const CompareOutput&, const ShapeOptions& g) { return g.all_stats; },
       {Format::kText, Format::kMarkdown, Format::kJson},
       false,
       false,
       ""},
      {"--changed",
       [](const CompareOutput&, const ShapeOptions& g) { return g.changed; },
       {Format::kText, Format::kMarkdown, Format::kJson},
       false,
       false,
       ""},
  };
  return scopes;
}

}  // namespace

std::optional<std::string> option_without_effect(const CompareOutput& o,
                                                 const ShapeOptions& given) {
  if (given.fdr && !given.changed)
    return std::string(
        "--fdr does nothing without --changed: it is the false-discovery rate of "
        "its rows");
  for (const ShapeScope& s : shape_scopes()) {
    if (!s.given(o, given)) continue;
    if (std::find(s.formats.begin(), s.formats.end(), o.format) == s.formats.end()) {
      std::vector<std::string> names;
      for (const Format f : s.formats) names.emplace_back(format_name(f));
      return fmt::format("{} does nothing with --format {}: it applies to --format {}{}", s.option,
                         format_name(o.format), or_list(names), s.note);
    }
    if (!s.with_summary && !o.summary.empty())
      return fmt::format("{} does nothing with --summary: it applies to the tables of each block",
                         s.option);
    if (!s.with_amd && o.style == "amd")
      return fmt::format("{} does nothing with --style amd: it applies to the mmtests layout",
                         s.option);
  }
  return std::nullopt;
}

void check_summary_metrics(const Comparison& c, const std::vector<std::string>& metrics) {
  std::vector<std::string> names;
  for (const auto& b : c.blocks)
    if (std::find(names.begin(), names.end(), b.metric.name) == names.end())
      names.push_back(b.metric.name);
  for (const auto& m : metrics)
    if (std::find(names.begin(), names.end(), m) == names.end())
      throw std::invalid_argument(
          fmt::format("--summary: no metric '{}' in the comparison{}; it has: {}",
                      terminal_safe(excerpt(m)), terminal_safe(did_you_mean(m, names)),
                      terminal_safe(fmt::format("{}", fmt::join(names, ", ")))));
}

const Renderers<RenderComparison>& comparison_outputs() {
  static const Renderers<RenderComparison> outputs{
      {Format::kText,
       [](Comparison c, const CompareOutput& o) {
         // Each table prints the key under it, the summary under itself.
         return for_terminal(c, o, [](const Comparison& c, const CompareOutput& o) {
           if (!o.summary.empty()) return render_summary_text(summary_table(c, o.summary));
           return o.style == "amd" ? render_amd(c) : render_text(c);
         });
       }},
      {Format::kMarkdown,
       [](Comparison c, const CompareOutput& o) {
         // Markdown prints the key under each table.
         return for_terminal(c, o, [](const Comparison& c, const CompareOutput& o) {
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
  check_summary_metrics(c, o.summary);
  return comparison_outputs().of(o.format)(std::move(c), o);
}

}  // namespace schedlab::cli
