// schedlab list: the runs in the database.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/hosts/locks.h"

namespace schedlab::cli {
namespace {

struct ListOptions {
  DbOption db;
  std::string format = "text";
};

// A run stored as running whose process is gone (kill -9, power loss) is
// shown as interrupted; the database is not changed (list only reads).
RunStatus shown_status(const Store& store, const RunInfo& r) {
  if (r.status == RunStatus::kRunning && !RunAlive::held(store.path(), r.id))
    return RunStatus::kInterrupted;
  return r.status;
}

int list_command(const ListOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto runs = store.list_runs();
    const auto overviews = store.run_overviews();
    const auto overview = [&](std::int64_t id) {
      const auto it = overviews.find(id);
      return it == overviews.end() ? Store::RunOverview{} : it->second;
    };
    if (o.format == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& r : runs) {
        const auto ov = overview(r.id);
        out.push_back({{"id", r.id},
                       {"name", r.name},
                       {"status", to_string(shown_status(store, r))},
                       {"started_at", r.started_at},
                       {"ended_at", r.ended_at},
                       {"config_path", r.config_path},
                       {"config_sha256", r.config_sha256},
                       {"variants", ov.variants},
                       {"iterations_ok", ov.iterations_ok},
                       {"manifest", nlohmann::json::parse(r.manifest_json)}});
      }
      fmt::print("{}\n", out.dump(2));
      return kOk;
    }
    if (runs.empty()) {
      fmt::print(stderr, "no runs in {}\n", store.path());
      return kOk;
    }
    fmt::print("{:>4}  {:<32} {:<11} {:<20} {:>5}  {:<20} {}\n", "id", "name", "status",
               "started", "ok", "kernel", "variants");
    for (const auto& r : runs) {
      const auto m = nlohmann::json::parse(r.manifest_json);
      const auto ov = overview(r.id);
      fmt::print("{:>4}  {:<32} {:<11} {:<20} {:>5}  {:<20} {}\n", r.id, r.name,
                 to_string(shown_status(store, r)), r.started_at,
                 ov.iterations_ok, m.value("kernel_release", std::string("?")), fmt::join(ov.variants, ","));
    }
    return kOk;
  });
}

}  // namespace

void register_list(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ListOptions>();
  auto* cmd = app.add_subcommand("list", "list the runs in the database");
  add_db_option(*cmd, o->db);
  add_format_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = list_command(*o); });
}

}  // namespace schedlab::cli
