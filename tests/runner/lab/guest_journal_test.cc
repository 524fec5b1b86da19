// Journal entries of lab guests: once a guest is powered off they can never
// be restored, and must not block a later run or `schedlab restore`.
#include "runner/lab/guest_journal.h"

#include <catch2/catch.hpp>

#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "runner/config/host_specs.h"
#include "runner/hosts/forwarding_host.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/journal_rows.h"
#include "runner/run/executor.h"
#include "runner/run/plan.h"
#include "runner/run/preflight.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

const std::string kGuest = "lab:6.12.9+bpo-amd64/tcg@127.0.0.1:40001";

// A row journaled for HOST; stamped with WRITER's identity (the machine and
// boot it runs in) when given, else with none.
std::int64_t applied(Store& store, const std::string& host, const std::string& name,
                     Host* writer = nullptr) {
  const auto run = store.runs_table().create_run({.name = "r-" + name,
                                                  .config_path = "x.yaml",
                                                  .config_text = "",
                                                  .config_sha256 = "",
                                                  .manifest_json = "{}",
                                                  .status = RunStatus::kFailed});
  JournalEntry e{.run_id = run,
                 .host = host,
                 .kind = "sched_feature",
                 .name = name,
                 .path = "/sys/kernel/debug/sched/features",
                 .original = name,
                 .target = "NO_" + name};
  if (writer) e = stamped(e, *writer);
  return store.journal().journal_applied(e);
}

// TEST DOUBLE: this machine under another name (a lab guest's, an ssh
// host's), so the preflight's journal check can be driven without a boot.
class RenamedLocalHost final : public ForwardingHost {
 public:
  explicit RenamedLocalHost(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }

 private:
  Host& inner() override { return local_; }
  std::string name_;
  LocalHost local_;
};

}  // namespace

TEST_CASE("preflight: a lab guest's stale entries do not block a run, an ssh host's do") {
  test::TempDir dir;
  Store store(dir.file("p.db"));
  const Config config = parse_config("workloads: [hackbench]\n", "p.yaml");
  const Plan plan = expand_plan(config);
  RenamedLocalHost guest(kGuest);
  RenamedLocalHost local("local");
  applied(store, kGuest, "PLACE_LAG");
  const HostSpec hosts = hosts_of(config);
  const ExecOptions options;
  auto context = [&](const Pair& pair) {
    return RunContext{.store = store,
                      .pair = pair,
                      .hosts = hosts,
                      .config = config,
                      .plan = plan,
                      .options = options};
  };
  const Pair guest_pair{guest, local, "127.0.0.1"};
  CHECK_NOTHROW(preflight(context(guest_pair)));
  CHECK(store.journal().unrestored(kGuest).empty());  // discarded, with a note on stderr
  RenamedLocalHost ssh("ssh://root@sut9");
  applied(store, "ssh://root@sut9", "RUN_TO_PARITY", &ssh);  // that host's, in this boot
  const Pair ssh_pair{ssh, local, "sut9"};
  CHECK_THROWS_WITH(preflight(context(ssh_pair)),
                    Catch::Contains("ssh://root@sut9 still has knobs changed by an earlier run"));
}

TEST_CASE("guest journal: a powered-off guest's entries are discarded with a note naming them") {
  test::TempDir dir;
  Store store(dir.file("j.db"));
  CHECK(lab::is_lab_host_name(kGuest));
  CHECK_FALSE(lab::is_lab_host_name("local"));
  CHECK_FALSE(lab::is_lab_host_name("ssh://root@lab1"));
  const auto id = applied(store, kGuest, "PLACE_LAG");
  const std::string note = lab::discard_guest_journal(store.journal(), kGuest);
  CHECK(note == "note: " + kGuest +
                    " is a lab guest, powered off: its kernel state went with it, so 1 "
                    "journaled knob needs no restore: sched_feature PLACE_LAG (run 1)");
  CHECK(store.journal().unrestored(kGuest).empty());
  CHECK(store.journal().unrestored_hosts().empty());
  CHECK(lab::discard_guest_journal(store.journal(), kGuest).empty());  // nothing left
  CHECK(id > 0);
}

TEST_CASE("guest journal: a crafted guest name and row are escaped in the note") {
  test::TempDir dir;
  Store store(dir.file("j.db"));
  const std::string guest = "lab:\x1b]0;pwned\x07";
  applied(store, guest, "PLACE\x1b[2J");
  CHECK(lab::discard_guest_journal(store.journal(), guest) ==
        "note: lab:\\x1b]0;pwned\\x07 is a lab guest, powered off: its kernel state went with "
        "it, so 1 journaled knob needs no restore: sched_feature PLACE\\x1b[2J (run 1)");
}

TEST_CASE("schedlab restore skips lab guests with a note and leaves nothing pending") {
  test::TempDir dir;
  const std::string db = dir.file("j.db");
  {
    Store store(db);
    applied(store, kGuest, "PLACE_LAG");
    applied(store, kGuest, "RUN_TO_PARITY");
    REQUIRE(store.journal().unrestored_hosts() == std::vector<std::string>{kGuest});
  }
  const auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("note: " + kGuest + " is a lab guest, powered off") != std::string::npos);
  CHECK(r.out.find("2 journaled knobs need no restore") != std::string::npos);
  Store store(db);
  CHECK(store.journal().unrestored_hosts().empty());
  const auto again = test::schedlab_cmd({"restore", "--db", db});
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("nothing to restore") != std::string::npos);
}
