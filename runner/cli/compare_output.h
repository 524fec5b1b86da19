// A comparison as `compare` prints it, in each of its formats; `run` prints
// its run's table the same way when it finishes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "runner/cli/output_format.h"

namespace schedlab::cli {

struct CompareOutput {
  Format format = Format::kText;  // text | markdown | csv | json
  std::string style = "mmtests";  // text layout: mmtests | amd
  bool wide = false;  // full column labels (text and markdown shorten long ones)
  bool csv_raw = false;
  std::vector<std::string> summary;  // --summary METRIC,...: the thread's summary table
};

// A comparison in each format: text, markdown, csv, json (`run` takes
// all but csv).
using RenderComparison = std::string (*)(Comparison c, const CompareOutput& o);
const Renderers<RenderComparison>& comparison_outputs();

// The options that change a comparison's output only in some of its
// shapes (--style amd, --wide, --csv-raw, --monitors, --all-stats): given
// where they would change nothing, the one-line error that says where they
// apply ("--style amd: the text tables only, not --format markdown"); none
// when each given option applies. Never silently ignored.
struct ShapeOptions {
  bool monitors = false;   // compare --monitors
  bool all_stats = false;  // --all-stats
  bool changed = false;    // compare --changed
  bool fdr = false;        // compare --fdr given (applies to --changed only)
};
std::optional<std::string> option_without_effect(const CompareOutput& o,
                                                 const ShapeOptions& given = {});

// --summary's metrics (compare, report): each one the comparison has; any
// other is std::invalid_argument naming the nearest and those it has.
void check_summary_metrics(const Comparison& c, const std::vector<std::string>& metrics);

// The text for stdout: the renderer of o.format. Text and markdown get short column labels (unless
// wide) and names made terminal-safe; JSON and CSV keep the names as stored.
std::string comparison_output(Comparison c, const CompareOutput& o);

}  // namespace schedlab::cli
