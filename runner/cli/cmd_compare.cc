// schedlab compare: the mmtests-style table of one or more runs.
#include <fmt/format.h>

#include "analysis/compare.h"
#include "analysis/render.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/cli/stats_options.h"
#include "runner/run/run_group.h"

namespace schedlab::cli {
namespace {

struct CompareCmdOptions {
  std::vector<std::string> runs;
  std::string group;  // a multi-kernel plan's runs (kernel_runs.h)
  std::string format = "text";
  bool monitors = false;
  bool by_pair = false;
  StatsOptions stats;
  DbOption db;
};

int compare_command(const CompareCmdOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    // A multi-kernel plan: by --group, or by its name alone.
    std::string group = o.group;
    if (group.empty() && o.runs.size() == 1 && !store.find_run_by_name(o.runs[0]) &&
        !group_runs(store, o.runs[0]).empty())
      group = o.runs[0];
    std::vector<ColumnRef> group_cols;
    if (!group.empty()) {
      if (!o.runs.empty() && o.runs != std::vector<std::string>{group}) {
        fmt::print(stderr, "schedlab compare: give --group or runs, not both\n");
        return kBadInput;
      }
      const auto runs = group_runs(store, group);
      if (runs.empty()) {
        fmt::print(stderr, "schedlab compare: no runs of group '{}' in {}\n", group, store.path());
        return kBadInput;
      }
      group_cols = group_columns(store, runs);
    }
    std::vector<std::int64_t> ids;
    for (const auto& arg : group.empty() ? o.runs : std::vector<std::string>{}) {
      std::optional<RunInfo> run;
      if (arg.find_first_not_of("0123456789") == std::string::npos)
        run = store.find_run(std::stoll(arg));
      if (!run) run = store.find_run_by_name(arg);
      if (!run) {
        fmt::print(stderr, "schedlab compare: no run '{}' in {}\n", arg, store.path());
        return kBadInput;
      }
      ids.push_back(run->id);
    }
    if (ids.empty() && group_cols.empty()) {
      const auto all = store.list_runs();
      if (all.empty()) {
        fmt::print(stderr, "schedlab compare: no runs in {}\n", store.path());
        return kBadInput;
      }
      ids.push_back(all.back().id);  // the latest run, like `perf report`
    }
    // A multi-kernel group has its own kernel/variant columns; pairs split
    // ordinary runs only.
    Comparison c = compare(store, group_cols.empty() ? default_columns(store, ids, o.by_pair) : group_cols,
                           o.stats.to_options());
    if (o.monitors) add_monitors(store, c);
    fmt::print("{}", o.format == "json" ? render_json(c) : render_text(c));
    return kOk;
  });
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareCmdOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "compare the variants of a run, or several runs (first column is the baseline)");
  cmd->add_option("runs", o->runs, "run ids or names (default: the latest run)");
  cmd->add_option("--group", o->group,
                  "the runs of a multi-kernel plan (its --name), kernels and variants as columns; "
                  "naming the plan alone does the same");
  add_format_option(*cmd, o->format);
  cmd->add_flag("--monitors", o->monitors,
                "under each table: context switches, load-balance migrations and interrupts per "
                "second, and wakeup locality, from the monitors' stored deltas");
  cmd->add_flag("--by-pair", o->by_pair,
                "runs of a pairs: config: one column per variant and pair (default@rack1), "
                "instead of every pair's samples pooled per variant");
  add_stats_options(*cmd, o->stats);
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = compare_command(*o); });
}

}  // namespace schedlab::cli
