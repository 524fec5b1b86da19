// schedlab workloads [NAME]: what each workload takes and measures, from its
// spec rows (runner/config/workload_help.h), like fio's --enghelp; the
// generic `command` workload by the keys its config entry takes.
#include <fmt/format.h>

#include "base/json_data.h"
#include "base/text.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/config/workload_help.h"
#include "workloads/registry.h"

namespace schedlab::cli {
namespace {

struct WorkloadsOptions {
  std::string name;  // empty: all
  Format format = Format::kText;
};

// The chosen workloads; `all`: every one, and the command workload after
// them; `command`: the command workload alone.
const Renderers<std::string (*)(const std::vector<const Workload*>&, bool, bool)> kWorkloadsOutputs{
    {Format::kText,
     [](const std::vector<const Workload*>& chosen, bool all, bool command) {
       // A terminal's or a mail's 100 columns: long help continues indented.
       return wrap_words(all       ? workloads_text(chosen) + "\n" + command_workload_text()
                         : command ? command_workload_text()
                                   : workloads_text(chosen));
     }},
    {Format::kMarkdown,
     [](const std::vector<const Workload*>& chosen, bool all, bool command) {
       return all       ? all_workloads_markdown()
              : command ? command_workload_markdown()
                        : workloads_markdown(chosen);
     }},
    {Format::kJson,
     [](const std::vector<const Workload*>& chosen, bool all, bool command) {
       auto j = workloads_json(chosen);
       if (all || command) j.push_back(command_workload_json());
       return json_output(j) + "\n";
     }},
};

int workloads_command(const WorkloadsOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab workloads"}, [&] {
    const bool command = o.name == "command";
    const bool all = o.name.empty();
    std::vector<const Workload*> chosen;
    if (all) chosen = all_workloads();
    else if (!command) chosen = {&workload_arg(o.name, {"command"})};
    fmt::print("{}", kWorkloadsOutputs.of(o.format)(chosen, all, command));
    return kOk;
  });
}

}  // namespace

void register_workloads(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<WorkloadsOptions>();
  auto* cmd = add_command(
      app, "workloads", "each workload's parameters (type, default, unit, values) and metrics",
      {"Lists the workloads schedlab runs, or one of them: its parameters (type, "
       "default, unit, range) and its metrics (unit, direction, centre), the programs "
       "it needs, and the mmtests logs it reads.",
       {{"schedlab workloads", "every workload"},
        {"schedlab workloads hackbench --format markdown",
         "hackbench's parameters and metrics as a table"}}});
  cmd->add_option("workload", o->name, "only this workload (command: the generic one's config keys)");
  kWorkloadsOutputs.add_option(*cmd, o->format);
  cmd->callback([o, &exit_code] { exit_code = workloads_command(*o); });
}

}  // namespace schedlab::cli
