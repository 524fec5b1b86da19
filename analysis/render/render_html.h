// schedlab report: one self-contained HTML page of a comparison, with the
// tables of `compare` and Vega plots of every sample. The page fetches
// nothing: the Vega script is passed in and inlined (runner/cli/vega_assets.h
// reads Debian's libjs-vega).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/render/html_escape.h"

namespace schedlab {

// The Vega specs of one metric block (report_plots.cc): change (% change
// against the baseline per row and column, with intervals; two columns or
// more), scaling (centre and interval against the swept row, a line per
// column), samples (strip + box per row and column, in panels of at most
// 64 boxes), order (samples in the order they ran; runs that ran here
// only). Exposed for tests.
struct PlotSpec {
  std::string id;       // the element the plot goes into
  std::string kind;     // change | scaling | samples | order | cpus
  std::string caption;  // what the page says above it
  nlohmann::ordered_json spec;
};
std::vector<PlotSpec> block_plots(const Comparison& c, std::size_t block,
                                  const std::string& id_prefix = "");

// The page. vega_script is JavaScript that defines the global `vega`;
// `lead` is HTML put after the header, before the tables (report --summary).
std::string render_html(const Comparison& c, const std::string& vega_script,
                        const std::string& page_title, const std::string& lead = "");

// The shell every schedlab page shares (report, history): title, style, the
// inlined Vega, BODY, and `plots` ([{id, kind, spec}], each drawn into the
// element of its id; window.schedlabReport counts each plot's marks for
// tests/browser/check_report.py). With `flames` (render_profiles.h's flame
// graphs), the page also inlines d3 and d3-flame-graph, the graphs' data and
// the script that draws them; without, none of it is there.
std::string html_page(const std::string& page_title, const std::string& vega_script,
                      const std::string& body, const nlohmann::ordered_json& plots,
                      const nlohmann::ordered_json& flames = nlohmann::ordered_json());
// TEXT made safe to put between <script> and </script>: every "<!--",
// "<script" and "</script" (in any case) has its '<' written as \u003c, which
// JSON and JavaScript literals read back as '<'. html_page passes every
// script it writes (Vega, the plots' JSON, its own code) through it.
std::string script_safe(std::string_view text);

// Pieces of the Vega specs of a centre with its interval: the spec's frame;
// data "points" (fields y and, where there is an interval, lo and hi) with
// "ci", the points that have one; the y scale over both.
nlohmann::ordered_json vega_base_spec(int width, int height);
nlohmann::ordered_json points_with_ci_data(nlohmann::ordered_json values);
nlohmann::ordered_json y_scale_with_ci();
// One comparison's tables and plots (no page header): what report shows per
// workload. Plot element ids start with id_prefix (unique per comparison on
// a page of several); their specs are appended to `plots`. With `flames`,
// the profiles section (c.profiles) too, its graphs appended there.
std::string comparison_html(const Comparison& c, const std::string& id_prefix,
                            nlohmann::ordered_json& plots,
                            nlohmann::ordered_json* flames = nullptr);

}  // namespace schedlab
