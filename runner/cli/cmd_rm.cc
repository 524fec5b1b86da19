// schedlab rm: delete runs from the database (an import that went wrong, a
// smoke run): every row of each, its journal rows kept as history.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/hosts/locks.h"
#include "runner/run/run_group.h"

namespace schedlab::cli {
namespace {

struct RmOptions {
  std::vector<std::string> runs;
  DbOption db;
};

int rm_command(const RmOptions& o) {
  return guarded<StoreError>({.prefix = "schedlab rm"}, [&]() -> int {
    const std::string path = o.db.resolve();
    std::optional<Store> opened;
    try {
      opened.emplace(path, Store::Access::kExisting);
    } catch (const ReadOnlyDatabase& e) {
      throw StoreError(fmt::format(
          "{}: the database is read-only for this user ({}); nothing removed", path, e.reason()));
    }
    Store& store = *opened;
    // Every argument is checked before anything is deleted.
    std::vector<RunInfo> doomed;
    for (const auto& arg : o.runs) {
      auto run = store.runs_table().find_run_arg(arg);
      std::vector<RunInfo> found;
      if (run)
        found.push_back(*run);
      else
        found = group_runs(store.runs_table(), arg);  // a multi-kernel plan by its name
      if (found.empty())
        throw StoreError(
            fmt::format("{} has no run '{}'", store.path(), terminal_safe(excerpt(arg, 80))));
      for (auto& r : found) {
        // Named twice (by id and name): removed once, not "no run" the
        // second time.
        if (std::any_of(doomed.begin(), doomed.end(),
                        [&](const RunInfo& d) { return d.id == r.id; }))
          continue;
        if (r.status == RunStatus::kRunning && RunAlive::held(store.path(), r.id))
          throw StoreError(
              fmt::format("run {} '{}' is being written by a live schedlab; nothing removed", r.id,
                          terminal_safe(r.name)));
        doomed.push_back(std::move(r));
      }
    }
    Store::WriteBatch batch(store);
    for (const auto& r : doomed) store.delete_run(r.id);
    batch.commit();
    for (const auto& r : doomed)
      print_message(fmt::format("removed run {} '{}'\n", r.id, terminal_safe(r.name)));
    return kOk;
  });
}

}  // namespace

void register_rm(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RmOptions>();
  auto* cmd =
      add_command(app, "rm", "delete runs (ids or names) and everything stored of them",
                  {"Deletes runs (by id or name, or a multi-kernel plan's name) and every row of "
                   "them, keeping their journal rows as history; it refuses a run a live schedlab "
                   "is writing or one with knobs still to restore.",
                   {{"schedlab rm smoke", "delete the run named smoke"},
                    {"schedlab rm 3 4", "delete runs 3 and 4"}}});
  cmd->add_option("runs", o->runs, "run ids or names, or a multi-kernel plan's name")->required();
  add_db_option(*cmd, o->db);
  cmd->callback([o, &exit_code] { exit_code = rm_command(*o); });
}

}  // namespace schedlab::cli
