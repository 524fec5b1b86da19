// The knob journal is a record of this host's changes: a
// merged database's rows are history; a crafted database's rows of another
// machine or boot are never acted on; a row naming a program the kernel
// runs, a path beside its knob, a work directory through a symlink or a
// process group whose leader is not what was journaled is refused. Hostile
// databases are written in the test with the Store API, as an attacker's
// would be; `schedlab restore` and `schedlab run` are the real binary.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>

#include <fstream>

#include "base/text.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr const char* kJournalKnob = "kernel.sched_autogroup_enabled";

std::string this_machine() {
  std::ifstream in("/etc/machine-id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::string this_boot() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

// A database with one run and the given journal rows, as a crafted file
// would hold them.
std::string crafted_db(const test::TempDir& dir, const std::string& name, std::vector<JournalEntry> rows) {
  const std::string db = dir.file(name);
  Store store(db);
  const auto run = store.runs_table().create_run({.name = "crafted",
                                                  .config_path = "c.yaml",
                                                  .config_text = "x\n",
                                                  .config_sha256 = "0",
                                                  .manifest_json = "{}",
                                                  .status = RunStatus::kInterrupted});
  for (auto& e : rows) {
    e.run_id = run;
    store.journal().journal_applied(e);
  }
  return db;
}

JournalEntry sysctl_row(const std::string& name, const std::string& path, const std::string& original) {
  return {.host = "local", .kind = "sysctl", .name = name, .path = path, .original = original, .target = "0",
          .machine_id = this_machine(), .boot_id = this_boot(), .hostname = "sut"};
}

}  // namespace

TEST_CASE("journal: merged rows are history; another machine's or boot's rows are never written") {
  if (this_machine().empty()) {
    SCHEDLAB_SKIP("no /etc/machine-id on this machine");
  }
  LocalHost local;
  const std::string before = read_sysctl(local, kJournalKnob);
  const std::string other = before == "0" ? "1" : "0";
  test::TempDir dir;
  // A task node's database, merged: its applied row names this host too.
  auto node = sysctl_row(kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled", other);
  node.machine_id = "0123456789abcdef0123456789abcdef";
  const std::string task = crafted_db(dir, "task.db", {node});
  const std::string all = dir.file("all.db");
  REQUIRE(test::schedlab_cmd({"merge", all, task}).ok());
  auto r = test::schedlab_cmd({"restore", "--db", all});
  CHECK(r.ok());
  CHECK(r.err == "nothing to restore\n");
  CHECK(read_sysctl(local, kJournalKnob) == before);
  // Not merged: another machine's row under "local" is left alone and said.
  const std::string foreign = crafted_db(dir, "foreign.db", {node});
  r = test::schedlab_cmd({"restore", "--db", foreign});
  INFO(r.out << r.err);
  CHECK(r.ok());
  CHECK(r.out.find("journaled by another machine (sut, machine-id 0123456789abcdef0123456789abcdef); left alone") !=
        std::string::npos);
  CHECK(read_sysctl(local, kJournalKnob) == before);
  // An earlier boot of this machine: closed, nothing written.
  auto old = sysctl_row(kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled", other);
  old.boot_id = "00000000-0000-0000-0000-000000000000";
  const std::string rebooted = crafted_db(dir, "rebooted.db", {old});
  r = test::schedlab_cmd({"restore", "--db", rebooted});
  CHECK(r.ok());
  CHECK(r.out.find("journaled in an earlier boot (00000000-0000-0000-0000-000000000000) of this machine") !=
        std::string::npos);
  CHECK(read_sysctl(local, kJournalKnob) == before);
  CHECK(Store(rebooted).journal().unrestored("local").empty());
  // A run on the merged database is not refused by the task node's row.
  const std::string cfg = dir.file("c.yaml");
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n");
  r = test::schedlab_cmd({"run", cfg, "--db", all});
  INFO(r.err);
  CHECK(r.ok());
}

TEST_CASE("journal: a row naming a program the kernel runs, or a file beside its knob, is refused") {
  if (this_machine().empty()) {
    SCHEDLAB_SKIP("no /etc/machine-id on this machine");
  }
  test::TempDir dir;
  LocalHost local;
  const std::string pattern = test::read_text("/proc/sys/kernel/core_pattern");
  const std::string db = crafted_db(
      dir, "core.db", {sysctl_row("kernel.core_pattern", "/proc/sys/kernel/core_pattern", "|/tmp/pwned")});
  auto r = test::schedlab_cmd({"restore", "--db", db});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("'kernel.core_pattern' names a program the kernel runs; schedlab never changes it; not written") !=
        std::string::npos);
  CHECK(test::read_text("/proc/sys/kernel/core_pattern") == pattern);
  const std::string beside = crafted_db(
      dir, "beside.db",
      {sysctl_row(kJournalKnob, "/proc/sys/kernel/core_pattern", "|/tmp/pwned")});
  r = test::schedlab_cmd({"restore", "--db", beside});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("names the file /proc/sys/kernel/core_pattern, not its own "
                   "/proc/sys/kernel/sched_autogroup_enabled; not written") != std::string::npos);
  CHECK(test::read_text("/proc/sys/kernel/core_pattern") == pattern);
  // A config may not name them either.
  const std::string cfg = dir.file("c.yaml");
  test::write_text(cfg, "workloads: [hackbench]\nvariants:\n  x:\n    sysctl: {kernel.core_pattern: core}\n");
  r = test::schedlab_cmd({"run", cfg, "--db", dir.file("n.db"), "--dry-run"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("names a program the kernel runs") != std::string::npos);
}

TEST_CASE("journal: a work directory through a symlink, or a process group that is not the one journaled, is "
          "left alone") {
  if (this_machine().empty()) {
    SCHEDLAB_SKIP("no /etc/machine-id on this machine");
  }
  test::TempDir dir;
  // /tmp/schedlab-run<N>-w0-... as a symlink to a directory outside.
  fs::create_directories(dir.path() / "victim");
  test::write_text(dir.path() / "victim" / "keep", "precious\n");
  const std::string link = fmt::format("/tmp/schedlab-run{}-w0-link", ::getpid());
  fs::remove(link);
  fs::create_directory_symlink(dir.path() / "victim", link);
  // A process of ours, in a group of its own, journaled with a wrong start
  // time and then with a wrong program.
  LocalHost local;
  const auto id = local.start_background({.argv = {"sleep", "300"}});
  const auto pgid = local.background_pgid(id);
  REQUIRE(pgid);
  JournalEntry workdir{.host = "local", .kind = "workdir", .name = link, .path = link,
                       .machine_id = this_machine(), .boot_id = this_boot()};
  JournalEntry wrong_time{.host = "local", .kind = "pgroup", .name = "server", .path = std::to_string(*pgid),
                          .original = "1", .machine_id = this_machine(), .boot_id = this_boot()};
  const std::string db = crafted_db(dir, "leftovers.db", {workdir, wrong_time});
  auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.ok());
  CHECK(fs::exists(dir.path() / "victim" / "keep"));
  CHECK(fs::is_symlink(link));
  CHECK(::kill(*pgid, 0) == 0);  // still alive
  fs::remove(link);
  local.stop_background(id);
}
