// A comparison as `compare` prints it, in each of its formats; `run` prints
// its run's table the same way when it finishes.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare.h"
#include "runner/cli/output_format.h"

namespace schedlab::cli {

struct CompareOutput {
  Format format = Format::kText;  // text | markdown | csv | json
  std::string style = "mmtests";  // text layout: mmtests | amd
  bool wide = false;  // full column labels (text and markdown shorten long ones)
  bool csv_raw = false;
  std::vector<std::string> summary;  // --summary METRIC,...: the thread's summary table
};

// The text for stdout. Text and markdown get short column labels (unless
// wide) and names made terminal-safe; JSON and CSV keep the names as stored.
std::string comparison_output(Comparison c, const CompareOutput& o);

}  // namespace schedlab::cli
