// `schedlab import`'s writes: checked inputs (import_inputs.h) stored as
// runs, each input an iteration judged as `run` judges the same output.
// An import is one transaction (Store::WriteBatch): a killed or failed
// import leaves nothing behind, and no name already taken is written to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runner/import/import_inputs.h"
#include "runner/import/mmtests_tree.h"

namespace schedlab {

// A stored run: its id, its outputs and how many failed (did not parse,
// or failed by their workload's judgement: each kept, with its error, as
// a failed iteration, and said on stderr).
struct ImportedRun {
  std::int64_t run = 0;
  std::size_t outputs = 0;
  int failed = 0;
};

// `schedlab import WORKLOAD ...`: the files read and checked, then stored
// in DB as one run named NAME, its "config" what was imported
// (reproducible provenance: each file as VARIANT=FILE). Throws
// std::invalid_argument, before writing anything, for a bad input or
// name, or a name DB already has.
ImportedRun import_files(const std::string& db, const Workload& workload, const std::string& name,
                         const ImportFiles& files);

// `schedlab import --mmtests DIR`: every run of the tree as a run of its
// name with one variant ("default"). The whole tree is read, and every
// name checked free, before anything is written; what a run skips is said
// on stderr as it is stored. Returns the line to print of each run stored
// (once all are committed) and the failed outputs of all.
struct ImportedTree {
  std::vector<std::string> lines;
  int failed = 0;
};
// KERNEL (--kernel, checked) names the kernel of the runs whose tree
// records none; a tree that records another is std::invalid_argument.
ImportedTree import_mmtests(const std::string& db, const std::string& dir,
                            const MmtestsLimits& limits, const std::string& kernel = "");

}  // namespace schedlab
