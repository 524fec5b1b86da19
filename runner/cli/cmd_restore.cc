// schedlab restore: put back knobs a crashed run left changed.
#include <fmt/format.h>

#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/knobs.h"
#include "runner/local_host.h"

namespace schedlab::cli {
namespace {

int restore_command(const DbOption& db) {
  try {
    Store store(db.resolve());
    LocalHost host;
    const auto done = restore_journal(store, host);
    for (const auto& line : done) fmt::print("restored {}\n", line);
    if (done.empty()) fmt::print(stderr, "nothing to restore on {}\n", host.name());
    return kOk;
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedlab: {}\n", e.what());
    return kError;
  }
}

}  // namespace

void register_restore(CLI::App& app, int& exit_code) {
  auto db = std::make_shared<DbOption>();
  auto* cmd = app.add_subcommand("restore", "restore knobs left changed by a run that died");
  add_db_option(*cmd, *db);
  cmd->callback([db, &exit_code] { exit_code = restore_command(*db); });
}

}  // namespace schedlab::cli
