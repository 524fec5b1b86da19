// A comparison is computed first, then rendered (text, JSON, ...). This file
// is the computed value; renderers only format it.
//
// Columns are (run, variant) pairs in the order given: the first column is
// the baseline. Blocks are one table each (workload block x metric), rows are
// the block's sweep values in configuration order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/compare/changed_table.h"
#include "analysis/compare/column_profile.h"
#include "analysis/compare/compare_monitors.h"
#include "analysis/compare/manifest_diff.h"
#include "analysis/stats/significance.h"
#include "analysis/stats/stats.h"
#include "analysis/stats/summary.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"

namespace schedlab {

struct ColumnRef {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string run_name;
  std::string variant;
  std::string label;  // header text: the variant, or run/variant when runs differ
  // Only this pair's iterations (a pairs: run); empty: every pair pooled.
  std::optional<std::string> pair;
  // The label before shorten_column_labels (column_labels.h) made it short;
  // empty when it did not.
  std::string full_label;
  const std::string& name() const { return full_label.empty() ? label : full_label; }
};

// Where one sample came from, for the long CSV form and the report's
// order plot.
struct SampleOrigin {
  std::int64_t iteration_id = 0;  // the store's id: insertion (run) order
  int iteration = 0;              // 0-based index within the point
  std::string pair;               // the iteration's pair; empty outside pairs: runs
};

// The sequential A/B test behind a cell (`stop: sequential`: results/store.h
// SequentialRecord): the column's variant against its own run's baseline at
// this point, on the metric the test judged. Attached only where the cell is
// that comparison (analysis/compare/sequential_cells.h); its p-value and interval
// then replace the fixed-n ones in the cell.
struct SequentialCell {
  std::string decision;  // different | same | undecided
  bool finished = true;  // false: the run stopped while the test was still looking
  std::string reason;    // decided | max_reached | final_look | failed | refused | looking
  int looks = 0;
  int n = 0, n_baseline = 0;  // units a side at the latest look
  std::optional<double> p_value, estimate_pct, ci_low, ci_high;  // adjusted; % positive is better
  double level = 0.95;                                           // of the interval: 1 - alpha
  double alpha = 0.05, power = 0.8, min_effect_pct = 3;          // the design
  int max = 0;                                                   // the iteration cap
  std::string spending = "obf";  // of alpha by the efficacy bounds (gs::spending_name)
  std::string note;  // why a test stopped without a decision
  // The CV (% of the mean) its looks were planned from before any data
  // (`plan_cv_pct`): its power holds only near it. plan_cv_note: set when the
  // samples' CV is clearly elsewhere (its 99% interval excludes the stated one).
  std::optional<double> plan_cv_pct;
  std::string plan_cv_note;
  // "stage-wise ordering, 3 looks" ("stage-wise ordering, pocock spending,
  // 3 looks" for a spending other than the default): how p_value and the
  // interval were adjusted.
  std::string method() const;
};

struct Cell {
  // False when the column never measured this point at all (no iteration,
  // of any status: a run with groups [1,2,4] beside one with [1,2,4,8] has
  // no row 8). Printed blank (JSON: not_measured), never FAIL: FAIL means
  // it ran and nothing succeeded.
  bool measured = true;
  std::size_t n = 0;       // successful samples
  std::size_t failed = 0;  // iterations at this point whose status is not "ok"
  // Why the SUT cannot measure this point (IterationStatus::kUnsupported:
  // "seccomp-notify: mode sync: unsupported: kernel lacks ..."); such a cell
  // prints "n/a", never a number or FAIL.
  std::string unsupported;
  // What the successful iterations' outputs said about their own quality
  // (IterationRow::notes, netperf's confidence not reached), one per line
  // of a note, in iteration order; shown under the table, kept in JSON.
  struct Note {
    int iteration = 0;  // 0-based index within the point
    std::string text;
  };
  std::vector<Note> notes;
  std::vector<double> samples;
  std::vector<SampleOrigin> origins;  // parallel to samples (empty for plain samples)
  // The metric's centre (amean, hmean, gmean or median); empty if n == 0, or
  // for hmean/gmean when a sample is not positive.
  std::optional<double> centre;
  std::optional<double> stddev;  // n - 1; empty if n < 2
  std::optional<double> min, max;
  // Against the baseline column, positive is better whatever the direction.
  // 0 for the baseline itself when it has a centre; empty when either side
  // has no centre or the baseline centre is 0.
  std::optional<double> pct;
  // The test (Welch's t-test unless CompareOptions::test says otherwise) of
  // the baseline's units against this cell's; empty for the baseline
  // itself, or when the test is undefined (p_reason says why).
  std::optional<double> p_value;
  bool significant = false;  // p_value < alpha (mmtests mode: mmtests' rule)

  // Everything else about the samples: median, every mean, CV, and the
  // interval of the centre at CompareOptions::level.
  Summary summary;
  // The interval of the centre. For interval metrics it comes from the
  // per-iteration centres (see `units`), so it may differ from summary.ci.
  CentreInterval ci;
  // Interval of pct at CompareOptions::level (empty for the baseline).
  std::optional<stats::Interval> pct_ci;
  std::string pct_ci_reason;
  // The ends of pct_ci cut to what the metric's domain lets a change be
  // (significance.h pct_interval; a sequential test's interval likewise).
  DomainCut pct_ci_cut;
  std::string p_reason;  // why p_value is empty (not for the baseline)
  // What the test and intervals used: the samples for "run" metrics; the
  // centre of each iteration for "interval" metrics, whose samples are
  // autocorrelated time slices of one iteration.
  std::vector<double> units;
  // --all-stats rows, parallel to Block::stat_rows: value and % change.
  std::vector<std::optional<double>> stat_values;
  std::vector<std::optional<double>> stat_pcts;
  // The workload parameters of this cell's iterations, as text ("500");
  // a parameter whose iterations disagree reads "200|500".
  std::map<std::string, std::string> params;
  // Where they differ from the baseline cell's ("loops 200 (baseline
  // 500)"): the cell is not like with like. Marked in every format;
  // compare --strict refuses the comparison.
  std::vector<std::string> unlike_baseline;
  // stop: sequential: the test that decided this cell; p_value, pct_ci and
  // significant (decision "different") are then its.
  std::optional<SequentialCell> sequential;
};

struct Row {
  std::string label;        // e.g. "4"
  std::string params_json;  // every parameter of the point (its first iteration's); may be empty
  std::vector<Cell> cells;  // one per column
};

// The geometric mean over a block's rows of centre / baseline centre, one
// per column, like mmtests' --print-ratio "Gmean" line. Below 1 is better
// when lower is better. Rows where either centre is missing or not positive
// are left out, and counted.
struct RatioSummary {
  std::optional<double> gmean;
  std::size_t rows = 0;     // rows that entered the mean
  std::size_t skipped = 0;  // rows left out
};

struct Block {
  std::string workload;
  std::string name;  // e.g. hackbench-process-pipes
  MetricInfo metric;  // in mmtests mode, centre is the mean mmtests picks
  std::vector<Row> rows;
  std::vector<RatioSummary> ratio;  // one per column
  std::size_t comparisons = 0;      // cells with a p-value (or mmtests verdict)
  std::string units;                // "samples" or "iteration centres"
  // --all-stats row names in mmtests order; index centre_row is the centre
  // itself (its cells' centre, pct and marker), the rest are in the cells'
  // stat_values.
  std::vector<std::string> stat_rows;
  std::size_t centre_row = 0;
  // The parameter the rows sweep ("groups"): the one whose value is each
  // row's label; "point" when no single parameter is.
  std::string swept = "point";
};

struct Comparison {
  std::vector<RunInfo> runs;
  std::vector<ColumnRef> columns;
  std::vector<Block> blocks;
  // What differs between the columns' runs and variants (one value per
  // column); empty for plain samples.
  std::vector<Difference> differences;
  std::string test = "welch";  // welch | mwu | mmtests
  double alpha = 0.05;
  double level = 0.95;  // of every interval
  bool all_stats = false;
  // compare --monitors: counter deltas per workload block (add_monitors).
  std::vector<MonitorBlock> monitors;
  // compare --changed: what else changed between the two columns.
  std::optional<ChangedTable> changed;
  // report: the columns' perf-profile folded stacks (column_profiles), one
  // per column, or empty when no column has any.
  std::vector<ColumnProfile> profiles;
  // What the short column labels stand for ("r3" -> the run name), when
  // shorten_column_labels (column_labels.h) made them; empty otherwise.
  std::vector<std::pair<std::string, std::string>> column_key;
};

struct CompareOptions {
  double alpha = 0.05;
  double level = 0.95;  // confidence level of intervals, in (0, 1)
  Test test = Test::kWelch;
  // mmtests' own numbers: its mean (hmean when higher is better), and its
  // marker (non-overlap of mean +- z * stddev) instead of p < alpha. The
  // p-value of `test` is still reported.
  bool mmtests = false;
  bool all_stats = false;  // the mmtests rows Min, mean, Stddev, CoeffVar, Max, B*mean-95
  // The domain of a metric whose run did not record one (stored before
  // schema 17), by workload and metric name: the runner asks the workload
  // registry. Unset, or empty for the metric: kUnbounded.
  std::function<std::optional<ValueDomain>(const std::string& workload, const std::string& metric)>
      known_domain;
};

// How an unknown parameter reads (stored as JSON null: `parse` and `import`
// of an output that did not state it, and no --param gave it). Like with
// like: "?" is unlike every known value; two "?" are not told apart.
inline constexpr const char* kUnknownParam = "?";

// A workload parameter's value as text, whichever way it was stored (a
// run stores 500, an import "500"): strings bare, null as "?", anything
// else as JSON.
std::string param_text(const nlohmann::json& v);

// Whether a cell of the comparison has a parameter recorded as unknown
// ("?", alone or in "a|?"): the text footer then says what "?" means.
bool has_unknown_params(const Comparison& c);

// The cells compared against a baseline measured with other parameters,
// one line each ("hackbench-process-pipes 4 patched: loops 200 (baseline
// 500)"); empty when every comparison is like with like.
std::vector<std::string> unlike_cells(const Comparison& c);

// Builds the comparison of the given columns from the store. Run and
// variant names are filled in from the store, and an empty label becomes the
// variant name. Throws StoreError if a run or variant does not exist, or a
// metric names an unknown centre; std::invalid_argument for no columns or an
// alpha outside (0, 1).
Comparison compare(const Store& store, const std::vector<ColumnRef>& columns,
                   const CompareOptions& options = {});

// The comparison's core, outside any store: one column's iterations (its
// run's, of any variant: only ref's variant, and pair when set, count) and
// its run's metrics. Blocks, rows and cells as compare() makes them, without
// names filled in or manifests compared. compare() and history (one column
// per run and variant, from a few bulk queries) share it.
struct ColumnData {
  ColumnRef ref;
  std::span<const IterationRow> iterations;
  std::span<const MetricInfo> metrics;
};
std::vector<Block> compare_blocks(const std::vector<ColumnData>& columns,
                                  const CompareOptions& options = {});

// The default columns: every variant of every given run, in order. Labels
// are the variant names for one run; for several runs, the run name when it
// has a single variant, else "run/variant". Throws StoreError for an unknown
// run id.
// With by_pair, each variant of a pairs: run becomes one column per pair
// with iterations (in configuration order), labelled "LABEL@PAIR".
std::vector<ColumnRef> default_columns(const Store& store, const std::vector<std::int64_t>& runs,
                                       bool by_pair = false);

// One group of samples per column, outside any store (schedlab stats).
struct SampleColumn {
  std::string label;
  std::vector<double> samples;
};
// The same comparison over plain samples: one block named "samples", one
// row labelled "", one column per input, the first the baseline.
Comparison compare_samples(const std::vector<SampleColumn>& columns, const MetricInfo& metric,
                           const CompareOptions& options = {});

}  // namespace schedlab
