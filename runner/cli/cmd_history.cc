// schedlab history: one metric across the runs (kernels) of the database.
#include <fmt/format.h>

#include "analysis/history.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/cli/vega_assets.h"

namespace schedlab::cli {
namespace {

struct HistoryCmdOptions {
  std::string workload;
  std::string metric;
  std::string param;
  std::string format = "text";
  DbOption db;
};

int history_command(const HistoryCmdOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    History h;
    // Bad input names the subcommand; a database failure goes to the outer guard.
    if (const int rc = guarded<std::invalid_argument>(
            {.prefix = "schedlab history", .other = kPropagate}, [&]() -> int {
              h = history(store, o.workload, o.metric, o.param);
              return kOk;
            }))
      return rc;
    if (o.format == "html") fmt::print("{}", render_history_html(h, vega_script()));
    else fmt::print("{}", o.format == "json" ? render_history_json(h) : render_history_text(h));
    return kOk;
  });
}

}  // namespace

void register_history(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<HistoryCmdOptions>();
  auto* cmd = app.add_subcommand(
      "history", "one metric's centre and interval across runs and kernels, oldest first");
  cmd->add_option("--workload", o->workload, "workload name as in tables (e.g. hackbench)")
      ->required();
  cmd->add_option("--metric", o->metric, "metric name (e.g. time)")->required();
  cmd->add_option("--param", o->param,
                  "only this row: its label (4) or BLOCK/ROW (hackbench-process-pipes/4)");
  add_format_option(*cmd, o->format, {"text", "json", "html"});
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = history_command(*o); });
}

}  // namespace schedlab::cli
