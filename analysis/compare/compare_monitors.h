// `schedlab compare --monitors`: kernel counter deltas stored by the monitors
// (analysis/counters/monitors.h), summarised per benchmark cell and printed under
// each benchmark table. Per ok iteration of a cell:
//
//   ctxt_per_s        context switches / s        (stat: ctxt)
//   migrations_per_s  tasks moved by the load balancer / s: every domain
//                     level's lb_gained (all idle types) + alb_pushed
//                     (schedstat; wakeup placement is not counted)
//   interrupts_per_s  interrupts / s              (stat: intr; else the sum
//                     of the interrupts monitor's per-source totals)
//   ttwu_local_pct    share of try_to_wake_up() that woke the local CPU,
//                     pooled over the cell's iterations (sum ttwu_local /
//                     sum ttwu_count; schedstat)
//   task_migrations   migrations of the workload's own tasks per iteration
//                     (tasks: nr_migrations, a lower bound; see
//                     analysis/counters/task_samples.h)
//   tasks             the workload's tasks seen per iteration (tasks)
//   cpu_hits          CPU -> samples that found one of the workload's
//                     tasks on it, summed over the cell's iterations (tasks)
//
// Rates divide by the iteration's duration (the measured steps, which the
// snapshots bracket) and are averaged over the cell's iterations that have
// the counter. A value is empty (n/a) when no iteration of the cell has it:
// the monitor was not configured or was unavailable on the SUT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "results/store.h"

namespace schedlab {

struct Comparison;
struct ColumnRef;

struct MonitorCell {
  std::size_t n = 0;  // ok iterations of the cell with any monitor delta
  std::optional<double> ctxt_per_s, migrations_per_s, interrupts_per_s, ttwu_local_pct;
  std::optional<double> task_migrations, tasks;
  std::map<int, std::uint64_t> cpu_hits;
};

struct MonitorRow {
  std::string label;
  std::vector<MonitorCell> cells;  // one per column
};

// One per workload block of the comparison, rows as in its benchmark tables.
struct MonitorBlock {
  std::string workload;
  std::string block;
  std::vector<MonitorRow> rows;
};

// Fills c.monitors from the store (c's runs, columns and blocks are set).
void add_monitors(const Store& store, Comparison& c);

// The table printed under a benchmark table (text; for people).
std::string render_monitors_text(const MonitorBlock& m, const std::vector<ColumnRef>& columns,
                                 const std::vector<std::size_t>& widths);
// The "monitors" array of compare's JSON (docs/compare-json.md).
nlohmann::ordered_json monitors_json(const Comparison& c);

}  // namespace schedlab
