// The centre statistic a metric declares: amean for times, hmean for rates.
// One enum for every layer: workloads declare it (MetricSpec), the store
// keeps its name, analysis computes it and its interval, the runner's
// adaptive stop rule asks analysis for that interval.
#pragma once

#include <optional>
#include <string_view>

namespace schedlab {

enum class Centre { kAmean, kHmean, kGmean, kMedian };

// The name as stored and shown: "amean", "hmean", "gmean", "median".
std::string_view to_string(Centre c);
std::optional<Centre> centre_from_string(std::string_view name);

}  // namespace schedlab
