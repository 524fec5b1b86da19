// The "what changed" table (analysis/compare/changed.h) shown: text in
// Intel LKP's shape within 100 columns, the "changed" list of compare's
// JSON, and an HTML table for report.
//
//          default                       batch
// ---------------- ---------------------------
//          %stddev     %change         %stddev
//              \          |                \   (backslashes: LKP's arrows)
//     0.1282 ±  3%     -32.9%      0.0860 ±  2%  hackbench.time
//    1245833 ±  2%     -45.1%      683960 ±  4%  stat.ctxt
//       4.26 ±  3%      -0.42        3.84 ±  4%  profile.self.schedule
//
// %change is in percent of the base; for shares and percentages it is the
// change in percentage points (no % sign), as LKP prints perf-profile rows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/compare/changed.h"

namespace schedlab {

// Ends with a newline; names longer than the line leaves are cut in the
// middle with "..." (JSON has them whole), and the footer says so.
std::string render_changed_text(const ChangedTable& t);
// {"test", "fdr", "tested", "below_floor", "untestable"} and the "changed"
// rows: {counter, benchmark, workload, block, row, base_mean,
// base_stddev_pct, mean, stddev_pct, change_pct | change_pp, p, q}.
nlohmann::ordered_json changed_json_rows(const ChangedTable& t);
nlohmann::ordered_json changed_json_summary(const ChangedTable& t);
// report's section: one table per point, names HTML-escaped.
std::string render_changed_html(const ChangedTable& t);

}  // namespace schedlab
