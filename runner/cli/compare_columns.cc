#include "runner/cli/compare_columns.h"

#include <fmt/format.h>

#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/run/run_group.h"

namespace schedlab::cli {

std::optional<std::vector<ColumnRef>> compare_columns(const Store& store,
                                                      const std::vector<std::string>& runs,
                                                      const std::string& group_arg, bool by_pair,
                                                      const std::string& command) {
  // A multi-kernel plan: by --group, or by its name alone.
  std::string group = group_arg;
  if (group.empty() && runs.size() == 1 && !store.runs_table().find_run_by_name(runs[0]) &&
      !group_runs(store.runs_table(), runs[0]).empty())
    group = runs[0];
  if (!group.empty()) {
    if (!runs.empty() && runs != std::vector<std::string>{group}) {
      print_message(fmt::format("schedlab {}: give --group or runs, not both\n", command));
      return std::nullopt;
    }
    const auto ids = group_runs(store.runs_table(), group);
    if (ids.empty()) {
      print_message(fmt::format("schedlab {}: no runs of group '{}' in {}\n", command,
                                terminal_safe(excerpt(group, 80)), store.path()));
      return std::nullopt;
    }
    // A multi-kernel group has its own kernel/variant columns; pairs split
    // ordinary runs only.
    return group_columns(store.variants_table(), ids);
  }
  std::vector<std::int64_t> ids;
  for (const auto& arg : runs) {
    const std::optional<RunInfo> run = store.runs_table().find_run_arg(arg);
    if (!run) {
      print_message(fmt::format("schedlab {}: no run '{}' in {}\n", command,
                                terminal_safe(excerpt(arg, 80)), store.path()));
      return std::nullopt;
    }
    if (const auto why = named_twice(ids, runs, run->id, run->name, arg)) {
      print_message(fmt::format("schedlab {}: {}\n", command, *why));
      return std::nullopt;
    }
    ids.push_back(run->id);
  }
  if (ids.empty()) {
    const auto all = store.runs_table().list_runs();
    if (all.empty()) {
      print_message(fmt::format("schedlab {}: no runs in {}\n", command, store.path()));
      return std::nullopt;
    }
    ids.push_back(all.back().id);  // the latest run, like `perf report`
  }
  return default_columns(store, ids, by_pair);
}

}  // namespace schedlab::cli
