// `schedlab schedstat diff ... --style perf`: the table `perf sched stats
// diff` prints (and, for one side, `perf sched stats report`), so a
// schedstat comparison pastes into a thread where perf's is expected.
//
// Shape, wording and ratios follow perf's source as merged in torvalds/linux
// (the series "perf sched: Introduce stats tool", Swapnil Sapkal and Ravi
// Bangoria, AMD, 2025): the DESC strings and the order of fields per version
// are those of tools/lib/perf/include/perf/schedstat-v15.h, -v16.h and
// -v17.h (CPU_FIELD, DOMAIN_FIELD, DERIVED_CNT_FIELD, DERIVED_AVG_FIELD,
// DOMAIN_CATEGORY), and the layout that of print_cpu_stats,
// print_domain_stats and show_schedstat_data in tools/perf/builtin-sched.c
// (patch "perf sched stats: Add support for diff subcommand", v4, Aug 2025):
//
//   "%-65s: %11u,%11u  | %8.2f%% |"           a field: COUNT1, COUNT2 | PCT_CHANGE |
//   "  ( %8.2f%%,  %8.2f%% )"                 CPU ratio columns (PCT_CHANGE1, PCT_CHANGE2):
//       schedule() left the processor idle   / schedule() called
//       try_to_wake_up() ... local cpu        / try_to_wake_up() was called
//       total waittime ...                    / total runtime ...
//   "  $ %11.2f, %11.2f $"                   domain AVG_JIFFIES1/2: elapsed jiffies / count, for
//                                              lb_count, lb_balanced, lb_failed, lb_nobusyq/g
//   "*%-64s: ..."                             derived: success = count - balanced - failed;
//                                              avg pulled = lb_gained / success
//   PCT_CHANGE = (COUNT2 - COUNT1) / COUNT1 * 100
//
// Sections: the all-CPU summary ("CPU <ALL CPUS SUMMARY>") and its domain
// levels summed over CPUs ("CPU <ALL CPUS SUMMARY>, DOMAIN MC"), then each
// CPU and each of its domains ("CPU 3, DOMAIN MC CPUS 0-7"). perf's diff
// prints the summary only; the per-CPU sections are its `report`'s, kept
// here because a comparison of stored runs has no other per-CPU view. They
// are left out, with a line saying so, when the two sides' CPUs or domains
// differ. The all-CPU and per-level counts are schedstat_diff.h's summarize():
// the same numbers schedlab's own table prints.
//
// Where perf prints a number that is not one, this prints "n/a": perf's
// PCT_CHNG and CALC_PCT give 0.00% for a zero base or denominator, and
// CALC_AVG 0.00 jiffies for a zero count; a change from 0 to 1898 is not
// 0.00%. A change from 0 to 0 stays 0.00%, as perf prints it.
//
// The two sides must have the same domain layout (v15 and v16 may be
// compared, their canonical fields being the same; v17 splits the
// imbalance and cannot be set against them): std::invalid_argument
// otherwise, as perf refuses two schedstat versions.
#pragma once

#include <optional>
#include <string>

#include "analysis/counters/schedstat.h"

namespace schedlab::schedstat {

// `a` alone: perf's report shape (COUNT and the ratio); with `b`: its diff
// shape. Each side is a delta (or a sum of deltas): timestamp is the
// elapsed jiffies. Ends with a newline.
std::string render_perf_text(const Snapshot& a, const Snapshot* b);

}  // namespace schedlab::schedstat
