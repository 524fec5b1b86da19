// What `schedlab merge` refuses in an input before writing anything: what
// every reader of the merged database would refuse later (report, compare,
// resume, run's name checks), so a merge never stores a run that can no
// longer be read (issue 44). Store::merge_from checks the rows SQL can
// judge (statuses, sample ranges); these need the readers' own code.
#pragma once

#include <string>

namespace schedlab::cli {

// Throws std::invalid_argument "IN: run 'NAME' ...; nothing merged" for the
// first of: a run or variant name no run or variant may be given
// (run_name_problem, name_problem), a manifest whose monitor_cpu_s is no
// CPU time (monitor_cpu_problem), a stored point stop the readers refuse
// (its counts, figures, level, sequential design and metric), a perf
// profile that does not load, or a column's profiles whose samples summed
// overflow a 64-bit count (report's column_profiles).
// PATH is what a read-only Store opens (IN, or its migrated copy:
// Store::check_mergeable); messages name IN.
void check_merge_input(const std::string& in, const std::string& path);

}  // namespace schedlab::cli
