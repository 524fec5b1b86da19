// schedlab history: one metric across the runs (kernels) of the database.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

#include "analysis/history/cell_summaries.h"
#include "analysis/history/history.h"
#include "analysis/history/history_changes.h"
#include "analysis/history/history_series.h"
#include "base/text.h"
#include "results/cell_cache.h"
#include "results/metrics_table.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_file.h"
#include "runner/cli/output_format.h"
#include "runner/cli/vega_assets.h"

namespace schedlab::cli {
namespace {

struct HistoryCmdOptions {
  std::string workload;
  std::string metric;
  std::string param;
  Format format = Format::kText;
  std::string output;  // -o FILE; empty or "-": stdout
  DbOption db;
  // --changes: the change points of each series (analysis/history/history_changes.h).
  bool changes = false;
  double changes_alpha = 0.05;
  double min_change_pct = 2;
  bool wide = false;  // text: each run's date, name and target in its lines
};

// A history in each format; `streams`: written a point at a time as the
// points are read (when no --changes needs the whole series first).
struct HistoryRender {
  std::string (*whole)(const History&, const HistoryChanges* changes, bool wide);
  bool streams = false;
};
const Renderers<HistoryRender> kHistoryOutputs{
    {Format::kText, {render_history_text, true}},
    {Format::kJson, {[](const History& h, const HistoryChanges* changes, bool) {
       return render_history_json(h, changes);
     }}},
    {Format::kHtml, {[](const History& h, const HistoryChanges* changes, bool) {
       return render_history_html(h, vega_script(), changes);
     }}},
};

int history_command(const HistoryCmdOptions& o) {
  if (o.wide && o.format != Format::kText) {
    fmt::print(
        stderr,
        "schedlab history: --wide does nothing with --format {}: it applies to --format text\n",
        format_name(o.format));
    return kBadInput;
  }
  return guarded({}, [&]() -> int {
    bool writable = false;
    const auto store = Store::open_keeping(o.db.resolve(), writable);
    std::vector<RunCells> computed;
    std::optional<HistoryReader> reader;
    if (const auto error =
            unknown_series(store->metrics_table(), store->path(), o.workload, o.metric)) {
      print_message(fmt::format("schedlab history: {}\n", *error));
      return kBadInput;
    }
    // Bad input names the subcommand; a database failure goes to the outer guard.
    if (const int rc = guarded<std::invalid_argument>(
            {.prefix = "schedlab history", .other = kPropagate}, [&]() -> int {
              reader.emplace(*store, o.workload, o.metric, o.param);
              return kOk;
            }))
      return rc;
    auto* keep = writable ? &computed : nullptr;
    // Written only once a point came: a row that names nothing is an error,
    // with nothing on stdout and no file made.
    OutputFile out(o.output);
    std::size_t points = 0;
    const HistoryRender& render = kHistoryOutputs.of(o.format);
    if (!o.changes && render.streams) {
      // A line a point as they are read: a year of nightlies is never in memory.
      HistoryTextWriter text(
          reader->header(), [&](std::string_view chunk) { out.write(chunk); }, o.wide);
      reader->for_each_point(keep, [&](const HistoryPoint& p) {
        ++points;
        text.point(p);
      });
      if (points || o.param.empty()) text.finish();
    } else {
      // Every point first: a series is searched as a whole.
      History h = reader->header();
      reader->for_each_point(keep, [&](const HistoryPoint& p) { h.points.push_back(h.keep(p)); });
      points = h.points.size();
      std::optional<HistoryChanges> changes;
      if (o.changes)
        if (const int rc = guarded<std::invalid_argument>(
                {.prefix = "schedlab history --changes", .other = kPropagate}, [&]() -> int {
                  changes = find_history_changes(
                      store->runs_table(), h,
                      {.alpha = o.changes_alpha, .min_change_pct = o.min_change_pct});
                  return kOk;
                }))
          return rc;
      if (points || o.param.empty())
        out.write(render.whole(h, changes ? &*changes : nullptr, o.wide));
    }
    if (!points && !o.param.empty()) {
      reader.reset();
      print_message(fmt::format("schedlab history: no row '{}' of {} {} in {}; its rows: {}\n",
                                terminal_safe(o.param), terminal_safe(o.workload),
                                terminal_safe(o.metric), store->path(),
                                row_list(*store, o.workload, o.metric)));
      return kBadInput;
    }
    out.close();
    reader.reset();  // its read snapshot ends before the summaries are written
    if (!computed.empty()) {
      // The summaries are a cache: failing to keep them (the database busy
      // past the timeout) costs the next history time, not this answer.
      try {
        store->cell_cache().put_cell_summaries(o.workload, o.metric, kCellSummaryVersion, computed);
      } catch (const StoreError& e) {
        print_message(fmt::format("schedlab history: cell summaries not kept: {}\n", e.what()));
      }
    }
    return kOk;
  });
}

}  // namespace

void register_history(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<HistoryCmdOptions>();
  auto* cmd = add_command(
      app, "history", "one metric's centre and interval across runs and kernels, oldest first",
      {"Prints one metric across the runs of the database, by kernel (6.9 before 6.12), then "
       "oldest first: a series per "
       "variant, row and parameter set, each point its centre, interval and n; with "
       "--changes, where each series shifted.",
       {{"schedlab history --workload hackbench --metric time", "every run's hackbench time"},
        {"schedlab history --workload tbench --metric throughput --changes",
         "where tbench's throughput shifted"},
        {"schedlab history --workload hackbench --metric time --format html -o history.html",
         "an offline page with a plot per row"}}});
  cmd->add_option("--workload", o->workload, "workload name as in tables (e.g. hackbench)")
      ->required();
  cmd->add_option("--metric", o->metric, "metric name (e.g. time)")->required();
  cmd->add_option("--param", o->param,
                  "only this row: its label (4) or BLOCK/ROW (hackbench-process-pipes/4)");
  auto* changes = cmd->add_flag("--changes", o->changes,
                 "find where each series shifted (a variant, row and parameter set across runs): a rank scan with "
                 "a permutation p-value, robust to one outlier run; the changes are listed and marked");
  cmd->add_option("--changes-alpha", o->changes_alpha,
                  "with --changes: the false-alarm rate of each segment searched (default 0.05)")
      ->check(number_range(0.001, 0.5))
      ->needs(changes);
  cmd->add_option(
         "--min-change-pct", o->min_change_pct,
         "with --changes: the smallest change in % of the medians either side reported (default 2)")
      ->check(number_range(0.0, 1000.0))
      ->needs(changes);
  kHistoryOutputs.add_option(*cmd, o->format);
  cmd->add_flag(
      "--wide", o->wide,
      "text: each line with its run's date, name and nightly target, however wide; without "
      "it a line fits 100 columns, a run named by its short label (r3) with a key after the "
      "table");
  cmd->add_option("-o,--output", o->output, "write to this file instead of stdout (- for stdout)");
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = history_command(*o); });
}

}  // namespace schedlab::cli
