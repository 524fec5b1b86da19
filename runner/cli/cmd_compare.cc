// schedlab compare: the mmtests-style table of one or more runs.
#include <fmt/format.h>

#include "analysis/compare/changed.h"
#include "analysis/compare/compare.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/compare_columns.h"
#include "runner/cli/compare_output.h"
#include "runner/cli/output_format.h"
#include "runner/cli/stats_options.h"

namespace schedlab::cli {
namespace {

struct CompareCmdOptions {
  std::vector<std::string> runs;
  std::string group;  // a multi-kernel plan's runs (kernel_runs.h)
  CompareOutput out;
  bool monitors = false;
  bool changed = false;  // what else changed between two columns (issue 46)
  double fdr = 0.05;
  bool fdr_given = false;
  bool by_pair = false;
  bool strict = false;  // refuse cells measured with other parameters than their baseline
  StatsOptions stats;
  DbOption db;
};

int compare_command(const CompareCmdOptions& o) {
  // An option given where it would change nothing is refused, by name.
  if (const auto error = option_without_effect(o.out, {.monitors = o.monitors,
                                                       .all_stats = o.stats.all_stats,
                                                       .changed = o.changed,
                                                       .fdr = o.fdr_given})) {
    print_message(fmt::format("schedlab compare: {}\n", *error));
    return kBadInput;
  }
  return guarded<std::invalid_argument>({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto columns = compare_columns(store, o.runs, o.group, o.by_pair, "compare");
    if (!columns) return kBadInput;
    Comparison c = compare(store, *columns, o.stats.to_options());
    if (o.monitors) add_monitors(store, c);
    if (o.changed)
      c.changed = what_changed(store, c, {.test = *test_from_name(o.stats.test), .fdr = o.fdr});
    if (const auto unlike = unlike_cells(c); o.strict && !unlike.empty()) {
      print_message(
          fmt::format("schedlab compare: --strict: {} cell{} measured with other parameters than "
                      "the baseline:\n",
                      unlike.size(), unlike.size() == 1 ? "" : "s"));
      for (const auto& line : unlike) print_message(fmt::format("  {}\n", terminal_safe(line)));
      return kBadInput;
    }
    fmt::print("{}", comparison_output(std::move(c), o.out));
    return kOk;
  });
}

}  // namespace

void register_compare(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareCmdOptions>();
  auto* cmd = add_command(
      app, "compare",
      "compare the variants of a run, or several runs (first column is the baseline)",
      {"Prints the mmtests-style table of one or more runs: a row per point, a column per "
       "variant (the first the baseline), the centre of each cell, the change in percent "
       "(positive is better) and * where the significance test says the change is real. What "
       "differs between the columns' runs (kernel, knobs, parameters) comes first.",
       {{"schedlab compare", "the variants of the latest run"},
        {"schedlab compare baseline patched --format markdown",
         "two runs as a pipe table for a mail or a pull request"},
        {"schedlab compare baseline patched --style amd", "the layout of AMD's LKML reports"},
        {"schedlab compare --group nightly-6.12 --summary time",
         "one row per kernel and variant"}}});
  cmd->add_option("runs", o->runs, "run ids or names (default: the latest run)");
  cmd->add_option("--group", o->group,
                  "the runs of a multi-kernel plan (its --name), kernels and variants as columns; "
                  "naming the plan alone does the same");
  comparison_outputs().add_option(*cmd, o->out.format);
  cmd->add_flag(
      "--monitors", o->monitors,
      "under each table: context switches, load-balance migrations and interrupts per "
      "second, and wakeup locality, from the monitors' stored deltas (text, markdown and json "
      "tables; not with --summary or --style amd)");
  cmd->add_flag("--changed", o->changed,
                "for two columns: every monitor counter and the benchmark's metrics that changed, "
                "each tested across iterations (--test) with the false-discovery rate held at "
                "--fdr, in Intel LKP's shape (text, markdown and json; not with --summary or "
                "--style amd)");
  cmd->add_option("--fdr", o->fdr,
                  "--changed: the false-discovery rate (Benjamini-Hochberg) of its rows")
      ->check(number_range(1e-6, 0.5))
      ->capture_default_str()
      ->each([o](const std::string&) { o->fdr_given = true; });
  cmd->add_flag("--by-pair", o->by_pair,
                "runs of a pairs: config: one column per variant and pair (default@rack1), "
                "instead of every pair's samples pooled per variant");
  cmd->add_flag("--strict", o->strict,
                "refuse (exit 2) when a cell would be compared against a baseline measured with other "
                "workload parameters (loops 200 against loops 500); without it such cells are marked !");
  cmd->add_option("--summary", o->out.summary,
                  "METRIC,...: one table, a row per column (kernel x variant) and a column per metric and "
                  "point, each cell the % change against the first column, * where significant (the EEVDF "
                  "thread's summary); text, markdown or json")
      ->delimiter(',');
  cmd->add_option(
         "--style", o->out.style,
         "mmtests (the default) or amd: a line per row, 'value (pct pct) *' as AMD's LKML reports "
         "(--format text, not with --summary)")
      ->check(CLI::IsMember({"mmtests", "amd"}))
      ->capture_default_str();
  cmd->add_flag("--wide", o->out.wide,
                "text and markdown: full column labels (run/variant), however wide; without it a label "
                "longer than 22 characters becomes short (r3/default) with a key under each table");
  cmd->add_flag("--csv-raw", o->out.csv_raw,
                "--format csv: text cells as stored, without the ' that keeps a spreadsheet from "
                "reading a cell beginning with = + - @ (or tab, CR, ') as a formula");
  add_stats_options(*cmd, o->stats);
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = compare_command(*o); });
}

}  // namespace schedlab::cli
