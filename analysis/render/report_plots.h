// The plots of schedlab report beyond a metric block's (render_html.h's
// block_plots, defined with them in report_plots.cc): the tasks monitor's
// CPUs hit, summed over a block's rows, per column.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/compare/compare.h"

namespace schedlab {

nlohmann::ordered_json cpus_spec(const Comparison& c, const MonitorBlock& m);

}  // namespace schedlab
