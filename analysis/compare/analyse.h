// The statistics of one block, once its cells hold their samples: shared by
// compare() (samples from the store) and compare_samples() (from files).
#pragma once

#include "analysis/compare/compare.h"

namespace schedlab {

// Fills in every computed field of the block's cells (summary, centre,
// intervals, pct, p-value, marker, --all-stats rows) and the block's ratio
// summary, comparison count and stat row names. Expects each cell's
// `samples`, and for "interval" metrics its `units` (one centre per
// iteration). Intervals are cut to the metric's domain (metric_domain),
// which the block's metric then holds. Throws StoreError for a metric with
// an unknown centre.
void analyse_block(Block& block, const CompareOptions& options);

// The centre the metric declared, from its stored name. Throws StoreError
// for an unknown name.
Centre declared_centre(const MetricInfo& metric);

// The centre a block of this metric shows: the metric's own, or in mmtests
// mode the mean mmtests picks from the direction. Throws StoreError for an
// unknown centre name.
Centre effective_centre(const MetricInfo& metric, const CompareOptions& options);

// The values a metric can take: as its run recorded them, else as
// options.known_domain knows them, else kUnbounded.
ValueDomain metric_domain(const MetricInfo& metric, const CompareOptions& options);

}  // namespace schedlab
