// The runs of one multi-kernel plan (kernel_runs.h): named NAME@LABEL and
// sharing "group": NAME in their manifests. Found again from the store for
// `schedlab compare NAME`, `--group NAME` and `schedlab run --resume NAME`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "results/runs_table.h"
#include "results/variants_table.h"

namespace schedlab {

// NAME@LABEL.
std::string kernel_run_name(const std::string& group, const std::string& kernel);

// The group a run belongs to (manifest "group"), if any.
std::optional<std::string> run_group(const RunInfo& run);
// The runs of a group, oldest first (kernel order, as they were started).
std::vector<RunInfo> group_runs(const RunsTable& runs, const std::string& group);
// Columns for a group's runs: every variant of each, labelled
// KERNEL/VARIANT (6.1/default, 6.12/NO_PLACE_LAG); the first is the baseline.
std::vector<ColumnRef> group_columns(const VariantsTable& variants,
                                     const std::vector<RunInfo>& runs);

}  // namespace schedlab
