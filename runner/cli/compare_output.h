// A comparison as `compare` prints it, in each of its formats; `run` prints
// its run's table the same way when it finishes.
#pragma once

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

// The text for stdout: the renderer of o.format. Text and markdown get short column labels (unless
// wide) and names made terminal-safe; JSON and CSV keep the names as stored.
std::string comparison_output(Comparison c, const CompareOutput& o);

}  // namespace schedlab::cli
