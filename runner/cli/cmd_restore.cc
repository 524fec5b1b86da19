// schedlab restore: put back knobs a run that died left changed, on every
// host the journal names. Lab guests are skipped with a note: they are
// powered off, and their knobs went with them. A host a live run holds
// (its SUT lock, runner/hosts/locks.h) is refused: its knobs are that run's.
// Only rows of this machine and boot with this user's tag are acted on
// (knobs/journal_rows.h); other rows are listed, and adopted only with
// --adopt-unidentified and a "yes" typed at a terminal.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <iostream>

#include "base/text.h"
#include "results/knob_journal_table.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/hosts/locks.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/knobs.h"
#include "runner/lab/guest_journal.h"
#include "runner/lab/host_set.h"
#include "runner/run/leftovers.h"

namespace schedlab::cli {
namespace {

struct RestoreOptions {
  DbOption db;
  std::string config;  // for the ssh options of remote hosts
  bool adopt = false;  // --adopt-unidentified
};

// What was done on a host, a line each on stdout ("HOST: restored ..."),
// within 100 columns (a knob's path or value wraps under it).
void print_host_lines(const std::string& host, const std::vector<std::string>& lines) {
  for (const auto& line : lines) fmt::print("{}", wrap_words(fmt::format("{}: {}", host, line)));
}

// The user's "yes" at a terminal, for rows no identity and tag say are this
// host's. A script cannot give it: without a terminal on stdin, no.
bool confirmed(const std::string& host, std::size_t rows) {
  // A prompt, answered at its end: one line, not wrapped.
  fmt::print(stderr,
             "Act on these {} on {} as this host's own? Type yes to go on: ", count_of(rows, "row"),
             host);
  std::fflush(stderr);
  std::string answer;
  std::getline(std::cin, answer);
  return std::string(trim(answer)) == "yes";
}

// Whether the host's unidentified rows were adopted; throws when they may
// not be (a row whose path is not its knob's own, no terminal).
void adopt(Store& store, Host& host) {
  const auto rows = journal_rows(store.journal(), host).unidentified;
  if (rows.empty()) return;
  if (const auto problems = adoption_problems(rows); !problems.empty())
    throw KnobError(fmt::format("--adopt-unidentified refused: {}; nothing adopted",
                                fmt::join(problems, "; ")));
  if (!::isatty(0))
    throw KnobError(
        "--adopt-unidentified asks for a 'yes' at a terminal, and stdin is not one; nothing "
        "adopted");
  if (!confirmed(host.name(), rows.size())) {
    print_message("nothing adopted\n");
    return;
  }
  print_host_lines(host.name(), adopt_unidentified(store.journal(), host, rows));
}

int restore_command(const RestoreOptions& o) {
  return guarded<ConfigError>({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kExisting);
    const SshConfig ssh = o.config.empty() ? SshConfig{} : load_config_file(o.config).ssh;
    const auto hosts = store.journal().unrestored_hosts();
    if (hosts.empty()) print_message("nothing to restore\n");
    int failures = 0;
    for (const auto& name : hosts) {
      if (lab::is_lab_host_name(name)) {
        fmt::print("{}", wrap_words(lab::discard_guest_journal(store.journal(), name)));
        continue;
      }
      try {
        auto host = HostSet::connect(name, ssh);
        const auto lock = SutLock::acquire(*host, "schedlab restore", store.path());
        print_host_lines(name, clean_leftovers(store.journal(), *host));
        print_host_lines(name, stop_perf_leftovers(*host));
        try {
          print_host_lines(name, restore_journal(store.journal(), *host));
        } catch (const RestoreIncomplete& e) {  // what it did, then why not the rest
          print_host_lines(name, e.done);
          throw;
        }
        if (o.adopt) adopt(store, *host);
      } catch (const std::exception& e) {
        print_message(
            fmt::format("schedlab: {}: {}\n", terminal_safe(name), terminal_safe(e.what())));
        ++failures;
      }
    }
    return failures ? kError : kOk;
  });
}

}  // namespace

void register_restore(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RestoreOptions>();
  auto* cmd =
      add_command(app, "restore", "restore knobs left changed by a run that died",
                  {"Puts back the knobs a run left changed when it died (kill -9, power loss): the "
                   "journal rows this host and boot wrote are restored and verified.",
                   {{"schedlab restore", "restore this machine's knobs from ./schedlab.db"},
                    {"schedlab restore --config remote.yaml",
                     "reach the config's ssh:// hosts to restore theirs"}}});
  add_db_option(*cmd, o->db);
  cmd->add_option("--config", o->config, "experiment file whose ssh: options reach remote hosts");
  cmd->add_flag(
      "--adopt-unidentified", o->adopt,
      "also put back knobs of journal rows that carry no machine and boot identity or no tag of "
      "this user (a database from an older schedlab), after a 'yes' typed at a terminal; their "
      "processes and work directories are only listed");
  cmd->callback([o, &exit_code] { exit_code = restore_command(*o); });
}

}  // namespace schedlab::cli
