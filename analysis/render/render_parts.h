// The pieces of a comparison's text that every human-facing renderer
// (text, markdown, HTML) says the same way: one of each, in render_text.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/compare/compare.h"

namespace schedlab::render_parts {

// mmtests' operation name of the metric's centre: Amean, Hmean, ...
std::string_view operation(const MetricInfo& m);
// "run 3 NAME: kernel K, host H, finished" (no newline).
std::string describe_run(const RunInfo& r);
// The manifest's kernel_release; "" when it has none.
std::string kernel_release(const RunInfo& r);
// The run behind a column (c.runs holds every column's run).
const RunInfo& column_run(const Comparison& c, std::size_t column);
// "BLOCK (METRIC in UNIT, lower is better)" (no newline).
std::string title(const Block& b);
// The test, alpha and number of comparisons under a table, and the notes on
// interval metrics and the ratio row; lines end with a newline.
std::string table_note(const Comparison& c, const Block& b);
// stop: sequential: one line per cell a sequential test decided, its
// decision, looks, n a side, adjusted p-value and interval and their method
// (no newlines); empty when there is none.
std::vector<std::string> sequential_lines(const Comparison& c);
// The failed iterations and empty cells of the whole comparison, each point
// once; empty when there are none. Lines end with a newline.
std::string footer(const Comparison& c);

}  // namespace schedlab::render_parts
