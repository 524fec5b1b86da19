// What `schedlab history` says when it is asked for a series the database
// does not have: the workload, metric or row it names is none of the
// stored ones, and the nearest name and the ones there are.
#pragma once

#include <optional>
#include <string>

#include "results/metrics_table.h"
#include "results/store.h"

namespace schedlab {

// A workload or metric no run in the database (named DB) has, as the
// error that names what it has, and the nearest name ("no run in t.db has
// metric 'tim' of workload 'hackbench' (did you mean 'time'?); its
// metrics there: time"); none when runs have it.
std::optional<std::string> unknown_series(const MetricsTable& metrics, const std::string& db,
                                          const std::string& workload, const std::string& metric);

// "hackbench-process-pipes/1, .../2, ... (and 12 more)": the rows the
// workload's metric has, for the error that names a row there is not.
std::string row_list(const Store& store, const std::string& workload, const std::string& metric);

}  // namespace schedlab
