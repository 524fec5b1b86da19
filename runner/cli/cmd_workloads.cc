// schedlab workloads [NAME]: what each workload takes and measures, from its
// spec rows (runner/config/workload_help.h), like fio's --enghelp.
#include <fmt/format.h>

#include "runner/cli/common.h"
#include "runner/config/workload_help.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

struct WorkloadsOptions {
  std::string name;  // empty: all
  std::string format = "text";
};

int workloads_command(const WorkloadsOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab workloads"}, [&] {
    std::vector<const Workload*> chosen = all_workloads();
    if (!o.name.empty()) chosen = {&workload_arg(o.name)};
    if (o.format == "json")
      fmt::print("{}\n", workloads_json(chosen).dump(2));
    else
      fmt::print("{}",
                 o.format == "markdown" ? workloads_markdown(chosen) : workloads_text(chosen));
    return kOk;
  });
}

}  // namespace

void register_workloads(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<WorkloadsOptions>();
  auto* cmd = app.add_subcommand(
      "workloads", "each workload's parameters (type, default, unit, values) and metrics");
  cmd->add_option("name", o->name, "only this workload");
  add_format_option(*cmd, o->format, {"text", "markdown", "json"});
  cmd->callback([o, &exit_code] { exit_code = workloads_command(*o); });
}

}  // namespace schedlab::cli
