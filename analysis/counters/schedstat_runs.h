// The schedstat counters of stored runs: the sum of the schedstat monitor's
// per-iteration deltas (ok iterations only) over a selection of a run.
// Shared by `schedlab schedstat diff RUN...` and the nightly report's
// evidence for a regression.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/counters/schedstat.h"
#include "results/store.h"

namespace schedlab {

struct RunSchedstatSelection {
  std::int64_t run_id = 0;
  std::optional<std::int64_t> variant_id;  // empty: every variant
  std::string row;                         // a row label ("4") or BLOCK/ROW; empty: every row
  std::vector<std::string> level_names;    // domain level names to apply, if any
  std::string label;  // names the run in errors ("<label> iteration N"); empty: "run <id>"
};

struct RunSchedstat {
  std::optional<schedstat::Snapshot> sum;  // empty: no ok iteration with both snapshots
  int iterations = 0;                      // summed
  std::vector<std::string> rows;           // every BLOCK/ROW of the selection's variant(s)
};

// Throws CounterParseError / CounterMismatchError (with the iteration named)
// for a snapshot that does not parse or a delta across a topology change.
RunSchedstat run_schedstat(const Store& store, const RunSchedstatSelection& sel);

}  // namespace schedlab
