// bisect status --format html: one offline page of a bisection: every
// candidate by position with its centre and interval (from the samples of
// the runs behind its last decision), coloured by verdict, skips marked on
// the axis, then the decisions as a table; once done, the last good against
// the first bad as report shows a comparison (bisect_ends.h), with the flame
// graphs of their stored perf-profiles.
#pragma once

#include <string>

#include "results/bisect_log.h"
#include "results/store.h"

namespace schedlab {

// vega_script defines the global `vega` (runner/cli/vega_assets.h).
std::string bisect_page(const Store& store, const BisectSession& session,
                        const std::string& vega_script);

}  // namespace schedlab
