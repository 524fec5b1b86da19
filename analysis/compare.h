// A comparison is computed first, then rendered (text, JSON, ...). This file
// is the computed value; renderers only format it.
//
// Columns are (run, variant) pairs in the order given: the first column is
// the baseline. Blocks are one table each (workload block x metric), rows are
// the block's sweep values in configuration order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/store.h"

namespace schedlab {

struct ColumnRef {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string run_name;
  std::string variant;
  std::string label;  // header text: the variant, or run/variant when runs differ
};

struct Cell {
  std::size_t n = 0;       // successful samples
  std::size_t failed = 0;  // iterations at this point whose status is not "ok"
  std::vector<double> samples;
  // The metric's centre (amean, hmean, gmean or median); empty if n == 0, or
  // for hmean/gmean when a sample is not positive.
  std::optional<double> centre;
  std::optional<double> stddev;  // n - 1; empty if n < 2
  std::optional<double> min, max;
  // Against the baseline column, positive is better whatever the direction.
  // 0 for the baseline itself when it has a centre; empty when either side
  // has no centre or the baseline centre is 0.
  std::optional<double> pct;
  // Welch's t-test of baseline vs this cell; empty for the baseline itself,
  // if n < 2 on a side, or if both sides have zero variance.
  std::optional<double> p_value;
  bool significant = false;  // p_value < alpha
};

struct Row {
  std::string label;        // e.g. "4"
  std::vector<Cell> cells;  // one per column
};

struct Block {
  std::string workload;
  std::string name;  // e.g. hackbench-process-pipes
  MetricInfo metric;
  std::vector<Row> rows;
};

struct Comparison {
  std::vector<RunInfo> runs;
  std::vector<ColumnRef> columns;
  std::vector<Block> blocks;
  std::string test = "welch";
  double alpha = 0.05;
};

struct CompareOptions {
  double alpha = 0.05;
};

// Builds the comparison of the given columns from the store. Run and
// variant names are filled in from the store, and an empty label becomes the
// variant name. Throws StoreError if a run or variant does not exist, or a
// metric names an unknown centre; std::invalid_argument for no columns or an
// alpha outside (0, 1).
Comparison compare(const Store& store, const std::vector<ColumnRef>& columns,
                   const CompareOptions& options = {});

// The default columns: every variant of every given run, in order. Labels
// are the variant names for one run; for several runs, the run name when it
// has a single variant, else "run/variant". Throws StoreError for an unknown
// run id.
std::vector<ColumnRef> default_columns(const Store& store, const std::vector<std::int64_t>& runs);

}  // namespace schedlab
