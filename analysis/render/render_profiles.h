// report's profiles section (issue 46), for a comparison whose columns have
// stored perf-profile stacks (Comparison::profiles): the symbols whose share
// of samples moved (the profile rows of "what changed", two columns), a
// flame graph per column (its iterations merged), and for each column after
// the first a differential one against the baseline (flame_graph.h: widths
// from the column, red where a frame's share grew, blue where it shrank, as
// flamegraph.pl colours difffolded.pl's output). d3-flame-graph draws them
// (flame_assets.h); render_html.cc puts the scripts in the page.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/compare/compare.h"

namespace schedlab {

// The section; each graph is appended to `flames` as {id, kind (column |
// diff), max_pp (diff: the change of the deepest colour), tree}.
std::string profiles_html(const Comparison& c, const std::string& id_prefix,
                          nlohmann::ordered_json& flames);

// What a page of several comparisons (nightly --report-html, bisect status
// --format html) says where a comparison's flame graphs would be when its
// columns have no stored profile, or (`error` not empty) when one did not
// load: a sentence, never an empty graph. report says nothing then.
std::string no_profiles_html(const std::string& error = "");

// The script that draws the graphs of the JSON element "schedlab-flames"
// (after d3 and d3-flame-graph) and records what it drew for
// tests/browser/check_report.py: window.schedlabFlames = {done, graphs:
// [{id, kind, frames}]}, or {done, error}. The library's global is
// `flamegraph`, its chart `flamegraph.default` (the UMD build of 5.0).
std::string_view flame_boot_script();

}  // namespace schedlab
