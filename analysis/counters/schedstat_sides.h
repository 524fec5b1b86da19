// What `schedlab schedstat` shows or compares: a side is a snapshot's
// counters since boot, the delta of a before/after pair of files, or the
// sum of a run selection's stored per-iteration deltas (the schedstat
// monitor's, ok iterations only: RUN[:VARIANT[:ROW]]).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/counters/schedstat.h"
#include "results/store.h"

namespace schedlab {

// Bad input: an unreadable file, a parse error, a topology change, a
// selection that names nothing or has no snapshots.
struct SchedstatInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One side of a comparison: what it is and its counters (a delta, a sum of
// deltas, or a snapshot's counters since boot).
struct SchedstatSide {
  std::string label;
  schedstat::Snapshot counters;
  std::optional<int> iterations;  // summed, for a run selection
};

// `level_names`: the names of domain0, domain1, ... (empty: the kernel's v17
// names, else inferred from the cpumasks).
schedstat::Snapshot load_snapshot(const std::string& path,
                                  const std::vector<std::string>& level_names);
SchedstatSide side_from_files(const std::string& before, const std::string& after,
                              const std::vector<std::string>& level_names);
// RUN[:VARIANT[:ROW]]: a run (id or name), optionally one variant (empty:
// all), optionally one row (its label, e.g. "4", or BLOCK/ROW such as
// hackbench-process-pipes/4).
SchedstatSide side_from_selection(const Store& store, const std::string& selection,
                                  const std::vector<std::string>& level_names);

// What `schedstat diff FILES...` compares: with `delta`, the delta of
// files 0-1 against that of 2-3; else two existing files are one side
// (their delta, `second` empty), and two run selections of the database
// DB are two sides. One file and one selection, or selections with no
// database, are SchedstatInputError.
struct DiffSides {
  SchedstatSide first;
  std::optional<SchedstatSide> second;
};
DiffSides diff_sides(const std::vector<std::string>& files, bool delta, const std::string& db,
                     const std::vector<std::string>& level_names);

}  // namespace schedlab
