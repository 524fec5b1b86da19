// `stop: sequential` in a comparison: each variant's stored sequential test
// (results/store.h PointStop::sequential) attached to the cell it decided,
// replacing that cell's fixed-n p-value and interval by the test's
// sequentially adjusted ones (stage-wise ordering) and its `*` by the
// decision. A cell gets the test only when the comparison is the test's
// own: the cell's variant against its run's baseline (the run's first
// variant in column 0), pairs pooled, on the metric the test judged, at
// the point it judged; any other comparison of the same samples (against
// another run, a --by-pair column) keeps its fixed-n numbers.
#pragma once

#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/store.h"

namespace schedlab {

void attach_sequential(const Store& store, Comparison& c);

// What attach_sequential refuses in a stored test (std::invalid_argument
// naming the run, variant and point): a metric none of the run's METRICS
// at its workload, a p-value outside [0, 1], figures not finite, a design
// that is not JSON or not one design accepts. Merge checks its inputs by it.
void check_stored_sequential(const PointStop& stop, const std::vector<MetricInfo>& metrics);

// The designs the comparison's sequential cells were run with, one line
// each for the notes under a table: "stop: sequential (alpha 0.05, power
// 0.8, min effect 3%, at most 60 iterations)".
std::vector<std::string> sequential_designs(const Block& b);

// The text marker of a cell's decision: D different, S same, ? undecided.
char sequential_marker(const SequentialCell& s);

}  // namespace schedlab
