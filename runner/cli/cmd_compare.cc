// schedlab compare: the mmtests-style table of one or more runs.
#include <fmt/format.h>

#include "analysis/compare.h"
#include "analysis/render.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/cli/compare_columns.h"
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
  bool csv_raw = false;
  StatsOptions stats;
  DbOption db;
};

}  // namespace

std::optional<std::vector<ColumnRef>> compare_columns(const Store& store,
                                                      const std::vector<std::string>& runs,
                                                      const std::string& group_arg, bool by_pair,
                                                      const std::string& command) {
  // A multi-kernel plan: by --group, or by its name alone.
  std::string group = group_arg;
  if (group.empty() && runs.size() == 1 && !store.find_run_by_name(runs[0]) &&
      !group_runs(store, runs[0]).empty())
    group = runs[0];
  if (!group.empty()) {
    if (!runs.empty() && runs != std::vector<std::string>{group}) {
      fmt::print(stderr, "schedlab {}: give --group or runs, not both\n", command);
      return std::nullopt;
    }
    const auto ids = group_runs(store, group);
    if (ids.empty()) {
      fmt::print(stderr, "schedlab {}: no runs of group '{}' in {}\n", command, group, store.path());
      return std::nullopt;
    }
    // A multi-kernel group has its own kernel/variant columns; pairs split
    // ordinary runs only.
    return group_columns(store, ids);
  }
  std::vector<std::int64_t> ids;
  for (const auto& arg : runs) {
    std::optional<RunInfo> run;
    if (arg.find_first_not_of("0123456789") == std::string::npos)
      run = store.find_run(std::stoll(arg));
    if (!run) run = store.find_run_by_name(arg);
    if (!run) {
      fmt::print(stderr, "schedlab {}: no run '{}' in {}\n", command, arg, store.path());
      return std::nullopt;
    }
    ids.push_back(run->id);
  }
  if (ids.empty()) {
    const auto all = store.list_runs();
    if (all.empty()) {
      fmt::print(stderr, "schedlab {}: no runs in {}\n", command, store.path());
      return std::nullopt;
    }
    ids.push_back(all.back().id);  // the latest run, like `perf report`
  }
  return default_columns(store, ids, by_pair);
}

namespace {

int compare_command(const CompareCmdOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto columns = compare_columns(store, o.runs, o.group, o.by_pair, "compare");
    if (!columns) return kBadInput;
    Comparison c = compare(store, *columns, o.stats.to_options());
    if (o.monitors) add_monitors(store, c);
    if (o.format == "json") {
      fmt::print("{}", render_json(c));
    } else if (o.format == "csv") {
      fmt::print("{}", render_csv(c, o.csv_raw ? CsvCells::kRaw : CsvCells::kNeutralised));
    } else {
      // For a terminal: names (and whatever else a database brought) never
      // reach it as escape sequences.
      make_names_terminal_safe(c);
      fmt::print("{}",
                 terminal_safe(o.format == "markdown" ? render_markdown(c) : render_text(c), true));
    }
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
  add_format_option(*cmd, o->format, {"text", "markdown", "csv", "json"});
  cmd->add_flag("--monitors", o->monitors,
                "under each table: context switches, load-balance migrations and interrupts per "
                "second, and wakeup locality, from the monitors' stored deltas");
  cmd->add_flag("--by-pair", o->by_pair,
                "runs of a pairs: config: one column per variant and pair (default@rack1), "
                "instead of every pair's samples pooled per variant");
  cmd->add_flag("--csv-raw", o->csv_raw,
                "--format csv: text cells as stored, without the ' that keeps a spreadsheet from "
                "reading a cell beginning with = + - @ (or tab, CR, ') as a formula");
  add_stats_options(*cmd, o->stats);
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = compare_command(*o); });
}

}  // namespace schedlab::cli
