// schedlab list: the runs in the database.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "base/text.h"
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
RunStatus shown_status(const Store& store, std::int64_t id, RunStatus status) {
  if (status == RunStatus::kRunning && !RunAlive::held(store.path(), id))
    return RunStatus::kInterrupted;
  return status;
}

int list_command(const ListOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    const auto overviews = store.run_overviews();
    const Store::RunOverview none;
    const auto overview = [&](std::int64_t id) -> const Store::RunOverview& {
      const auto it = overviews.find(id);
      return it == overviews.end() ? none : it->second;
    };
    if (o.format == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& r : store.list_runs()) {
        const auto& ov = overview(r.id);
        out.push_back({{"id", r.id},
                       {"name", r.name},
                       {"status", to_string(shown_status(store, r.id, r.status))},
                       {"started_at", r.started_at},
                       {"ended_at", r.ended_at},
                       {"config_path", r.config_path},
                       {"config_sha256", r.config_sha256},
                       {"variants", ov.variants},
                       {"iterations_ok", ov.iterations_ok},
                       {"iterations_failed", ov.iterations_failed},
                       {"planned_iterations",
                        ov.planned_max ? nlohmann::json{{"min", ov.planned_min.value_or(*ov.planned_max)},
                                                        {"max", *ov.planned_max}}
                                       : nlohmann::json(nullptr)},
                       {"manifest", nlohmann::json::parse(r.manifest_json)}});
      }
      fmt::print("{}\n", out.dump(2));
      return kOk;
    }
    // A line a run from its label (the kernel release is kept by the
    // database, run_kernel_releases): a year of manifests is not parsed.
    const auto runs = store.run_labels();
    if (runs.empty()) {
      fmt::print(stderr, "no runs in {}\n", store.path());
      return kOk;
    }
    fmt::memory_buffer text;
    // ok, failed and planned iterations: a run with 4 of 12 failed never
    // reads as plain "ok 8".
    const auto planned = [](const Store::RunOverview& ov) -> std::string {
      if (!ov.planned_max) return "-";
      const std::int64_t min = ov.planned_min.value_or(*ov.planned_max);
      return min == *ov.planned_max ? std::to_string(min) : fmt::format("{}-{}", min, *ov.planned_max);
    };
    fmt::format_to(fmt::appender(text), "{:>4}  {:<32} {:<11} {:<20} {:>5} {:>6} {:>7}  {:<20} {}\n", "id",
                   "name", "status", "started", "ok", "failed", "planned", "kernel", "variants");
    // Names come from whoever wrote the database (a merged task, an
    // import): escaped before padding, so an ESC neither reaches the
    // terminal nor shifts the columns.
    for (const auto& r : runs) {
      const auto& ov = overview(r.id);
      fmt::format_to(fmt::appender(text), "{:>4}  {:<32} {:<11} {:<20} {:>5} {:>6} {:>7}  {:<20} {}\n", r.id,
                     terminal_safe(r.name), to_string(shown_status(store, r.id, r.status)),
                     terminal_safe(r.started_at), ov.iterations_ok, ov.iterations_failed, planned(ov),
                     r.kernel_release.empty() ? "?" : terminal_safe(r.kernel_release),
                     terminal_safe(fmt::format("{}", fmt::join(ov.variants, ","))));
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
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
