// schedlab merge OUT.db IN.db...: databases written apart (one per Slurm
// task, one per machine) joined into one history (Store::merge_from).
#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include "base/text.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/merge_checks.h"

namespace schedlab::cli {
namespace {

struct MergeOptions {
  std::string out;
  std::vector<std::string> inputs;
};

int merge_command(const MergeOptions& o) {
  return guarded<std::invalid_argument>({"schedlab merge"}, [&]() -> int {
    for (const auto& in : o.inputs) {
      std::error_code ec;
      if (std::filesystem::equivalent(in, o.out, ec))
        throw std::invalid_argument(fmt::format("{} is the output database itself", in));
    }
    // Every input is opened (and its schema checked) before OUT is created.
    for (const auto& in : o.inputs) {
      Store::check_mergeable(in, [&](const std::string& path) { check_merge_input(in, path); });
    }
    Store out(o.out);
    for (const auto& in : o.inputs) {
      const auto c = out.merge_from(in);
      // An input's name escaped: `task-*.db` of a shared folder may name
      // anything (hostile18).
      fmt::print("{}",
                 wrap_words(fmt::format("{}: {} new run(s), {} joined; {} iteration(s) and {} "
                                        "sample(s) copied, {} already there",
                                        terminal_safe(in), c.runs_new, c.runs_joined,
                                        c.iterations_new, c.samples, c.iterations_present)));
    }
    return kOk;
  });
}

}  // namespace

void register_merge(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<MergeOptions>();
  auto* cmd = add_command(
      app, "merge", "copy the runs of other databases into one (idempotent; refuses conflicts)",
      {"Copies every run of the input databases (Slurm tasks, other machines) into one database, "
       "with their iterations, monitors and journal rows; a run already there is not copied twice.",
       {{"schedlab merge all.db task-*.db", "bring a job array's databases into all.db"}}});
  cmd->add_option("out", o->out, "the database to merge into (created if missing)")->required();
  cmd->add_option("inputs", o->inputs, "databases to copy from")->required();
  cmd->callback([o, &exit_code] { exit_code = merge_command(*o); });
}

}  // namespace schedlab::cli
