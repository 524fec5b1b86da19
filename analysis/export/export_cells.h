// What `schedlab export` states of a run: compare's cell of each variant,
// block, row and metric the run measured (analysis/compare/compare.h), and
// the kernel facts its manifest records. Every exporter (kcidb.h, bmf.h,
// otava.h) formats these and nothing else, so the three say the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "results/store.h"

namespace schedlab {

struct ExportCell {
  std::string workload, block, row;
  std::string swept;  // the parameter the rows sweep ("groups"), or "point"
  std::string variant;
  MetricInfo metric;
  std::map<std::string, std::string> params;  // as compare's cell has them ("?": unknown)
  std::size_t n = 0;                          // successful samples
  std::size_t failed = 0;                     // iterations that did not finish ok
  std::string unsupported;  // why the SUT cannot measure the point; empty when it can
  std::vector<double> samples;
  std::optional<double> centre;
  std::string centre_reason;  // why centre is empty
  CentreInterval ci;          // of the centre, at the export's level
};

// What a cell is: measured (a sample at least), failed (it ran and no
// iteration succeeded) or unsupported (the SUT cannot measure it).
enum class CellOutcome { kMeasured, kFailed, kUnsupported };
CellOutcome outcome(const ExportCell& c);

struct ExportRun {
  RunInfo run;
  // A run of kernels as columns (runner/run/kernel_columns.h): the label of
  // the kernel whose columns these cells are (kernel_column_runs); empty
  // for any other run.
  std::string kernel_column;
  // The manifest's kernel_release; empty when it records none (an import
  // without one): never a guess.
  std::string kernel_release;
  // A kernel built from a tree (manifest lab.build): its commit and `git
  // describe`; empty otherwise.
  std::string commit, describe;
  // @WORKTREE: the sha256 of the edits built on the commit (lab.build.edits_sha256).
  std::string edits_sha256;
  std::optional<double> build_seconds;  // lab.build.seconds
  std::vector<ExportCell> cells;        // by block, row, then variant, as compare orders them
};

// Each run's cells, computed as `compare RUN` computes them (each run on its
// own: its first variant the baseline, pairs pooled); only the blocks of
// `workload` when it is not empty. A cell no iteration of the variant ran is
// left out. Throws StoreError for an unknown run.
std::vector<ExportRun> export_runs(const Store& store, std::span<const std::int64_t> run_ids,
                                   const std::string& workload, const CompareOptions& options);

// A run of kernels as columns measured each kernel on its own guest: one
// ExportRun a kernel, its facts (release, commit, describe, build) those of
// that guest's build and its cells that kernel's columns (LABEL/VARIANT),
// so an exporter states each cell's own kernel (hostile9: a @WORKTREE
// column's numbers were exported under HEAD's build). Any other run as it is.
std::vector<ExportRun> kernel_column_runs(const ExportRun& r);

// "hackbench-process-pipes/groups=4/default": a cell's block, row and
// variant, what BMF names a benchmark and Otava's columns start with.
std::string cell_point_name(const ExportCell& c);

// "time (s)", or "time" for a metric without a unit.
std::string metric_with_unit(const MetricInfo& m);

}  // namespace schedlab
