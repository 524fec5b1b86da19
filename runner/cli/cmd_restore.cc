// schedlab restore: put back knobs a run that died left changed, on every
// host the journal names. Lab guests are skipped with a note: they are
// powered off, and their knobs went with them. A host a live run holds
// (its SUT lock, runner/hosts/locks.h) is refused: its knobs are that run's.
#include <fmt/format.h>

#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/lab/host_set.h"
#include "runner/lab/guest_journal.h"
#include "runner/hosts/locks.h"
#include "runner/knobs/knobs.h"
#include "runner/run/leftovers.h"

namespace schedlab::cli {
namespace {

struct RestoreOptions {
  DbOption db;
  std::string config;  // for the ssh options of remote hosts
};

int restore_command(const RestoreOptions& o) {
  return guarded<ConfigError>({}, [&]() -> int {
    Store store(o.db.resolve(), Store::Access::kExisting);
    const SshConfig ssh = o.config.empty() ? SshConfig{} : load_config_file(o.config).ssh;
    const auto hosts = store.journal().unrestored_hosts();
    if (hosts.empty()) fmt::print(stderr, "nothing to restore\n");
    int failures = 0;
    for (const auto& name : hosts) {
      if (lab::is_lab_host_name(name)) {
        fmt::print("{}\n", lab::discard_guest_journal(store.journal(), name));
        continue;
      }
      try {
        auto host = HostSet::connect(name, ssh);
        const auto lock = SutLock::acquire(*host, "schedlab restore", store.path());
        for (const auto& line : clean_leftovers(store, *host))
          fmt::print("{}: {}\n", name, line);
        for (const auto& line : restore_journal(store, *host))
          fmt::print("{}: {}\n", name, line);
      } catch (const std::exception& e) {
        fmt::print(stderr, "schedlab: {}: {}\n", name, e.what());
        ++failures;
      }
    }
    return failures ? kError : kOk;
  });
}

}  // namespace

void register_restore(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RestoreOptions>();
  auto* cmd = app.add_subcommand("restore", "restore knobs left changed by a run that died");
  document(*cmd, {"Puts back the knobs a run left changed when it died (kill -9, power loss): the "
                  "journal rows this host and boot wrote are restored and verified.",
                  {{"schedlab restore", "restore this machine's knobs from ./schedlab.db"},
                   {"schedlab restore --config remote.yaml",
                    "reach the config's ssh:// hosts to restore theirs"}}});
  add_db_option(*cmd, o->db);
  cmd->add_option("--config", o->config, "experiment file whose ssh: options reach remote hosts");
  cmd->callback([o, &exit_code] { exit_code = restore_command(*o); });
}

}  // namespace schedlab::cli
