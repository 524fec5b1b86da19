// schedlab list: the runs in the database.
#include <fmt/format.h>

#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/list_output.h"
#include "runner/cli/output_format.h"

namespace schedlab::cli {
namespace {

struct ListOptions {
  DbOption db;
  Format format = Format::kText;
  bool wide = false;  // full names, however wide the lines
};

const Renderers<void (*)(const Store&, const Overviews&, bool wide)> kListOutputs{
    {Format::kText, list_text},
    {Format::kJson,
     [](const Store& store, const Overviews& overview, bool) { list_json(store, overview); }},
};

int list_command(const ListOptions& o) {
  return guarded({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kReadOnly);
    kListOutputs.of(o.format)(store, Overviews(store), o.wide);
    return kOk;
  });
}

}  // namespace

void register_list(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ListOptions>();
  auto* cmd =
      add_command(app, "list", "list the runs in the database",
                  {"Lists the runs of the database, oldest first: id, name, status (a run whose "
                   "process died shows as interrupted), start, iterations ok, failed and planned, "
                   "kernel release and variants.",
                   {{"schedlab list", "the runs of ./schedlab.db"},
                    {"schedlab list --db nightly.db --format json",
                     "every run with its manifest, for a script"}}});
  add_db_option(*cmd, o->db);
  kListOutputs.add_option(*cmd, o->format);
  cmd->add_flag(
      "--wide", o->wide,
      "text: full run names, however wide; without it a line fits 100 columns, a long name "
      "becoming its run's short label (r3) with the name in a key under the list");
  cmd->callback([o, &exit_code] {
    if (o->wide && o->format != Format::kText) {
      print_message(
          fmt::format("schedlab list: --wide does nothing with --format {}: it applies to --format "
                      "text; json always has the full names\n",
                      format_name(o->format)));
      exit_code = kBadInput;
      return;
    }
    exit_code = list_command(*o);
  });
}

}  // namespace schedlab::cli
