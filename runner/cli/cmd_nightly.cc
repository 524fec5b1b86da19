// schedlab nightly: measure the targets of a nightly file that are not yet
// measured, compare each with the baseline and the previous target, report.
// Its exit codes are its own (README.md, "Nightly"): 0 no regression,
// 1 a regression, 2 an error (bad input, a target not measured, a failure),
// 128+N interrupted.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>

#include "analysis/nightly/nightly_report.h"
#include "base/file.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/vega_assets.h"
#include "runner/hosts/interrupt.h"
#include "runner/nightly/nightly.h"
#include "runner/nightly/nightly_config.h"
#include "runner/run/progress.h"
#include "runner/slurm/nightly_jobs.h"
#include "runner/slurm/slurm_tools.h"

namespace schedlab::cli {
namespace {

enum NightlyExit : int { kNoRegression = 0, kRegression = 1, kNightlyError = 2 };

struct NightlyCmdOptions {
  std::string file;
  bool force = false;
  std::string report_md;
  std::string report_json;
  std::string report_html;
  bool slurm = false;  // each target's runs as Slurm jobs, all submitted before any is waited for
  std::string partition;
  std::string time;
  std::string slurm_results;
  DbOption db;
};

int nightly_command(const NightlyCmdOptions& o) {
  // Every error exits 2 here: 1 means a regression.
  return guarded({.other = kNightlyError}, [&]() -> int {
    const NightlyConfig nightly = load_nightly_file(o.file);
    Store store(o.db.resolve());
    install_interrupt_handlers();
    const auto note = [](const std::string& line) {
      print_message(fmt::format("schedlab nightly: {}\n", line));
    };
    NightlyOptions options{.force = o.force,
                           .progress = default_progress_style() == ProgressStyle::kLine,
                           .note = note};
    if (o.slurm) {
      slurm::tool("sbatch");  // no Slurm: one line, before any hook runs
      options.remote = slurm::nightly_jobs(
          {.results = o.slurm_results.empty() ? nightly.name + "-slurm" : o.slurm_results,
           .partition = o.partition,
           .time_limit = o.time,
           .note = note});
    }
    const NightlyRun run = run_nightly(store, nightly, options);
    // The bisect command the report prints names the database (--db or
    // $SCHEDLAB_DB) unless it is ./schedlab.db, the default.
    const std::string db = o.db.resolve() == "schedlab.db" ? "" : o.db.resolve();
    const NightlyReport report = build_nightly_report(store, report_input(nightly, run, db));
    const std::string md = render_nightly_markdown(report);
    if (!o.report_md.empty())
      write_whole_file(o.report_md, md);
    else
      fmt::print("{}", md);
    if (!o.report_json.empty()) write_whole_file(o.report_json, render_nightly_json(report));
    if (!o.report_html.empty())
      write_whole_file(o.report_html, render_nightly_html(report, vega_script()));

    int measured_now = 0;
    for (const auto& c : run.cells) measured_now += c.new_now && c.status == CellStatus::kMeasured;
    print_message(fmt::format(
        "schedlab nightly: {} measured now, {} reused, {} failed; {} regression{}; {} change "
        "point{} in history\n",
        measured_now,
        std::count_if(run.cells.begin(), run.cells.end(),
                      [](auto& c) { return !c.new_now && c.status == CellStatus::kMeasured; }),
        report.failures.size(), report.regressions.size(),
        report.regressions.size() == 1 ? "" : "s", report.changes.size(),
        report.changes.size() == 1 ? "" : "s"));
    if (run.interrupted) {
      print_message("schedlab nightly: interrupted; run the same command again to resume\n");
      return 128 + interrupt_signal();
    }
    if (!report.failures.empty()) return kNightlyError;
    return report.regressed() ? kRegression : kNoRegression;
  });
}

}  // namespace

void register_nightly(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<NightlyCmdOptions>();
  auto* cmd = add_command(
      app, "nightly",
      "measure each kernel of a nightly file not yet measured, compare "
      "with the baseline and the previous one; "
      "exit 0 no regression, 1 regression, 2 error",
      {"Measures each target (kernel) of a nightly file that the database does not hold yet, "
       "compares it with the baseline and the previous target, looks for change points in the "
       "history, and writes a report; the exit code says whether something regressed.",
       {{"schedlab nightly nightly.yaml --report-html report.html",
         "tonight's targets, with the HTML report"},
        {"schedlab nightly nightly.yaml --slurm --partition bench",
         "each target's runs as Slurm jobs"}}});
  cmd->add_option("file", o->file, "nightly file (YAML; see README.md, Nightly)")->required();
  cmd->add_flag("--force", o->force, "measure again what the database already holds");
  cmd->add_option("--report-md", o->report_md, "write the markdown report here (default: stdout)");
  cmd->add_option("--report-json", o->report_json, "also write the JSON report here");
  cmd->add_option("--report-html", o->report_html,
                  "also write one offline HTML page here (regressions first, with plots)");
  auto* slurm = cmd->add_flag(
      "--slurm", o->slurm,
      "run each target's configs as Slurm jobs (one task, --exclusive), all submitted "
      "first, then merged into the database");
  cmd->add_option("--partition", o->partition,
                  "with --slurm: the partition (default: the cluster's)")
      ->needs(slurm);
  cmd->add_option("--time", o->time, "with --slurm: sbatch --time per job")->needs(slurm);
  cmd->add_option("--slurm-results", o->slurm_results,
                  "with --slurm: where the submissions go (default: ./NAME-slurm)")
      ->needs(slurm);
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = nightly_command(*o); });
}

}  // namespace schedlab::cli
