// schedlab export --format bmf: one run as Bencher Metric Format JSON
// ({benchmark: {measure: {value, lower_value, upper_value}}}), what
// `bencher run --adapter json --file F` reports for a branch and testbed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/export/export_cells.h"

namespace schedlab {

// Bencher's limits (its BMF reference): a benchmark name of at most 1024
// characters, a measure name of at most 64.
inline constexpr std::size_t kBmfBenchmarkMax = 1024;
inline constexpr std::size_t kBmfMeasureMax = 64;

struct BmfReport {
  nlohmann::json json;
  // The cells BMF cannot state (it has no failure): those without a
  // centre, one line each ("hackbench-?/groups=?/patched time: 1 failed
  // iteration, no sample").
  std::vector<std::string> left_out;
};

// A benchmark per cell point (cell_point_name: block/swept=row/variant),
// a measure per metric with its unit ("time (s)": never Bencher's built-in
// latency or throughput, whose units are ns and ops/s), the centre as
// value and its interval, when it has one, as lower_value and upper_value.
// Throws std::invalid_argument naming a benchmark or measure name longer
// than Bencher takes.
BmfReport bmf_report(const ExportRun& run);

}  // namespace schedlab
