// History's cells of one run (CellSummary, results/cell_cache.h): compare's cell of each
// variant, block and row, from the run's iterations of one workload with
// one metric's samples. history computes them for the runs whose summaries
// are not stored (or stale) and keeps them where it may write, so the next
// history reads a row per cell instead of every iteration and sample.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "results/cell_cache.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/variants_table.h"

namespace schedlab {

// The version of what a summary holds and how compare computes it: bump it
// when a cell's numbers or reasons change (compare_blocks, analyse_block,
// the intervals), so stored summaries are recomputed, never reused.
inline constexpr int kCellSummaryVersion = 2;  // 2: the parameter set (params)

// A cell's parameter set as history keys its series: a JSON object of its
// parameters' text values, keys sorted, without the swept parameter (the
// row names it): {"loops":"500","modes":"process-pipes"}.
std::string params_text(const std::map<std::string, std::string>& params, const std::string& swept);

// Appends to `out` one run's cells (its iterations as
// IterationsTable::for_each_run_iterations gives them, with the run's declaration of
// the metric): variants in configuration order, then compare's blocks and
// rows; a row the variant never ran (no sample, no failure) is left out.
void summarise_cells(std::span<const IterationRow> iterations,
                     const std::vector<VariantInfo>& variants, const MetricInfo& metric,
                     std::vector<CellSummary>& out);

}  // namespace schedlab
