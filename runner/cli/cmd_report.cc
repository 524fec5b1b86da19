// schedlab report: the comparison of `compare` as one self-contained HTML
// page with Vega plots (analysis/render/render_html.h), for a mail or a bug.
#include <fmt/format.h>

#include "analysis/compare/changed.h"
#include "analysis/compare/compare.h"
#include "analysis/compare/profiles.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/render/render_html.h"
#include "analysis/render/summary_table.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/compare_columns.h"
#include "runner/cli/compare_output.h"
#include "runner/cli/output_file.h"
#include "runner/cli/stats_options.h"
#include "runner/cli/vega_assets.h"

namespace schedlab::cli {
namespace {

struct ReportCmdOptions {
  std::vector<std::string> runs;
  std::string group;
  std::string output;
  bool by_pair = false;
  StatsOptions stats;
  std::vector<std::string> summary;  // --summary METRIC,...
  double fdr = 0.05;                 // of the "what changed" section (two columns)
  DbOption db;
};

int report_command(const ReportCmdOptions& o) {
  return guarded({.prefix = "schedlab report"}, [&]() -> int {
    // Before any work: without Vega there is no page.
    const std::string vega = vega_script();
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto columns = compare_columns(store, o.runs, o.group, o.by_pair, "report");
    if (!columns) return kBadInput;
    Comparison c = compare(store, *columns, o.stats.to_options());
    add_monitors(store, c);
    // Two columns: what else changed between them (compare --changed).
    if (c.columns.size() == 2)
      c.changed = what_changed(store, c, {.test = *test_from_name(o.stats.test), .fdr = o.fdr});
    // The columns' perf-profile stacks, for the flame graphs: a stored
    // profile that does not load stops the report, naming its iteration.
    c.profiles = column_profiles(store, c);
    // The runs' names, each after a comma: a name may hold spaces.
    std::string title = "schedlab report:";
    for (std::size_t i = 0; i < c.runs.size(); ++i)
      title += fmt::format("{} {}", i ? "," : "", c.runs[i].name);
    // A metric the comparison has not is a usage error, as in compare.
    if (const int rc =
            guarded<std::invalid_argument>({.prefix = "schedlab report", .other = kPropagate}, [&] {
              check_summary_metrics(c, o.summary);
              return kOk;
            }))
      return rc;
    const std::string lead = o.summary.empty() ? "" : render_summary_html(summary_table(c, o.summary));
    // Short column labels (a key above the tables), as compare's text; the
    // names the plots draw shown as the cells show them (html_escape).
    shorten_column_labels(c);
    make_names_terminal_safe(c);
    const std::string page = render_html(c, vega, title, lead);
    OutputFile out(o.output);
    out.write(page);
    out.close();
    if (!out.is_stdout())
      print_message(fmt::format("schedlab report: wrote {} ({} KiB)\n", terminal_safe(o.output),
                                page.size() / 1024));
    return kOk;
  });
}

}  // namespace

void register_report(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ReportCmdOptions>();
  auto* cmd =
      add_command(app, "report",
                  "the comparison of `compare` as one offline HTML page with plots of every sample",
                  {"Writes the comparison of compare as one self-contained HTML page: the tables "
                   "with each cell's interval, the % change against the baseline, the centre "
                   "against the swept parameter, every sample, the monitors, and what differs "
                   "between the runs; nothing is fetched when it is opened.",
                   {{"schedlab report baseline patched -o report.html",
                     "two runs' comparison as a page to attach to a mail"},
                    {"schedlab report -o - > latest.html", "the latest run, on stdout"}}});
  cmd->add_option("runs", o->runs, "run ids or names (default: the latest run)");
  cmd->add_option("--group", o->group, "the runs of a multi-kernel plan, as for compare");
  cmd->add_option("-o,--output", o->output, "the HTML file to write; - for stdout")->required();
  cmd->add_flag("--by-pair", o->by_pair, "one column per variant and pair, as for compare");
  cmd->add_option("--summary", o->summary, "METRIC,...: the summary table of compare --summary at the top")
      ->delimiter(',');
  cmd->add_option("--fdr", o->fdr,
                  "two columns: the false-discovery rate of the 'what changed' section "
                  "(compare --changed)")
      ->check(number_range(1e-6, 0.5))
      ->capture_default_str();
  add_stats_options(*cmd, o->stats);
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = report_command(*o); });
}

}  // namespace schedlab::cli
