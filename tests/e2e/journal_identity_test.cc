// The knob journal is a record of this host's changes: a
// merged database's rows are history; a crafted database's rows of another
// machine or boot are never acted on; a row naming a program the kernel
// runs, a path beside its knob, a work directory through a symlink or a
// process group whose leader is not what was journaled is refused. Hostile
// databases are written in the test with the Store API, as an attacker's
// would be; `schedlab restore` and `schedlab run` are the real binary.
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/text.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "runner/run/leftovers.h"
#include "tests/support/journal_tag.h"
#include "tests/support/one_line.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"
#include "tests/support/terminal_run.h"

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
  CHECK(test::one_line(r.out).find(
            test::one_line("journaled by another machine (sut, machine-id "
                           "0123456789abcdef0123456789abcdef); left alone")) != std::string::npos);
  CHECK(read_sysctl(local, kJournalKnob) == before);
  // An earlier boot of this machine: closed, nothing written.
  auto old = sysctl_row(kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled", other);
  old.boot_id = "00000000-0000-0000-0000-000000000000";
  const std::string rebooted = crafted_db(dir, "rebooted.db", {old});
  r = test::schedlab_cmd({"restore", "--db", rebooted});
  CHECK(r.ok());
  CHECK(
      test::one_line(r.out).find(test::one_line(
          "journaled in an earlier boot (00000000-0000-0000-0000-000000000000) of this machine")) !=
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
  CHECK(test::one_line(r.err).find(test::one_line(
            "'kernel.core_pattern' is not a sysctl schedlab may change (kernel.sched_*, ")) !=
        std::string::npos);
  CHECK(r.err.find("vm.swappiness); not written") != std::string::npos);
  CHECK(test::read_text("/proc/sys/kernel/core_pattern") == pattern);
  const std::string beside = crafted_db(
      dir, "beside.db",
      {sysctl_row(kJournalKnob, "/proc/sys/kernel/core_pattern", "|/tmp/pwned")});
  r = test::schedlab_cmd({"restore", "--db", beside});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "names the file /proc/sys/kernel/core_pattern, not its own "
            "/proc/sys/kernel/sched_autogroup_enabled; not written")) != std::string::npos);
  CHECK(test::read_text("/proc/sys/kernel/core_pattern") == pattern);
  // A config may not name them either.
  const std::string cfg = dir.file("c.yaml");
  test::write_text(cfg, "workloads: [hackbench]\nvariants:\n  x:\n    sysctl: {kernel.core_pattern: core}\n");
  r = test::schedlab_cmd({"run", cfg, "--db", dir.file("n.db"), "--dry-run"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("'kernel.core_pattern' is not a sysctl schedlab may change") !=
        std::string::npos);
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

namespace {

// Field 22 of /proc/PID/stat: the start time a journaled process group row
// carries (run/leftovers.cc), so a row of this machine and boot would kill it.
std::string start_time_of(int pid) {
  const std::string stat = test::read_text(fmt::format("/proc/{}/stat", pid));
  std::istringstream in(stat.substr(stat.rfind(')') + 1));
  std::string field;
  for (int i = 3; i <= 22 && in >> field; ++i) {
  }
  return field;
}

// A row as a database from elsewhere (or from before migration 13) holds it:
// no machine id, boot id or hostname.
JournalEntry unidentified(std::string kind, std::string name, std::string path,
                          std::string original) {
  return {.host = "local",
          .kind = std::move(kind),
          .name = std::move(name),
          .path = std::move(path),
          .original = std::move(original),
          .target = "x"};
}

std::string other_than(const std::string& value, const std::string& a, const std::string& b) {
  return value == a ? b : a;
}

// A server of the test's own, in a process group of its own, and a work
// directory named as schedlab names them: what a crafted row would kill and
// remove.
struct Victims {
  LocalHost local;
  Host::BackgroundId server;
  int pgid = 0;
  std::string workdir;
  Victims() {
    server = local.start_background({.argv = {"sleep", "300"}});
    pgid = local.background_pgid(server).value_or(0);
    std::string tmpl = fmt::format("/tmp/schedlab-run{}-w0-XXXXXX", ::getpid());
    workdir = ::mkdtemp(tmpl.data()) ? tmpl : "";
    test::write_text(workdir + "/keep", "precious\n");
  }
  ~Victims() {
    local.stop_background(server);
    fs::remove_all(workdir);
  }
  std::vector<JournalEntry> rows() const {
    return {unidentified("pgroup", "server", std::to_string(pgid), start_time_of(pgid)),
            unidentified("workdir", workdir, workdir, "")};
  }
  bool untouched() const { return ::kill(pgid, 0) == 0 && fs::exists(workdir + "/keep"); }
};

}  // namespace

TEST_CASE(
    "journal: rows with no identity are listed with what they would do, and nothing is touched") {
  LocalHost local;
  const std::string aslr = read_sysctl(local, "kernel.randomize_va_space");
  const std::string mmap_min = read_sysctl(local, "vm.mmap_min_addr");
  const std::string paranoid = read_sysctl(local, "kernel.perf_event_paranoid");
  const std::string autogroup = read_sysctl(local, kJournalKnob);
  test::TempDir dir;
  Victims victims;
  REQUIRE(victims.pgid > 1);
  REQUIRE(!victims.workdir.empty());
  const std::string aslr_row = other_than(aslr, "1", "2");
  const std::string mmap_row = std::to_string(std::stoll(mmap_min) + 4096);
  const std::string paranoid_row = other_than(paranoid, "1", "2");
  auto rows = victims.rows();
  rows.push_back(unidentified("sysctl", "kernel.randomize_va_space",
                              "/proc/sys/kernel/randomize_va_space", aslr_row));
  rows.push_back(
      unidentified("sysctl", "vm.mmap_min_addr", "/proc/sys/vm/mmap_min_addr", mmap_row));
  rows.push_back(unidentified("sysctl", "kernel.perf_event_paranoid",
                              "/proc/sys/kernel/perf_event_paranoid", paranoid_row));
  rows.push_back(unidentified("sysctl", kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled",
                              other_than(autogroup, "0", "1")));
  const std::string db = crafted_db(dir, "crafted.db", rows);
  const auto untouched = [&] {
    CHECK(read_sysctl(local, "kernel.randomize_va_space") == aslr);
    CHECK(read_sysctl(local, "vm.mmap_min_addr") == mmap_min);
    CHECK(read_sysctl(local, "kernel.perf_event_paranoid") == paranoid);
    CHECK(read_sysctl(local, kJournalKnob) == autogroup);
    CHECK(victims.untouched());
    CHECK(Store(db).journal().unrestored("local").size() == rows.size());
  };

  auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.ok());
  const std::string left =
      "carries no identity of this machine and boot (a database from elsewhere, or from "
      "before schedlab recorded it); would ";
  CHECK(test::one_line(r.out).find(test::one_line(
            "pgroup server (run 1): " + left +
            fmt::format("kill process group {} (server); left alone", victims.pgid))) !=
        std::string::npos);
  CHECK(test::one_line(r.out).find(test::one_line("remove the work directory " + victims.workdir +
                                                  "; left alone")) != std::string::npos);
  CHECK(test::one_line(r.out).find(test::one_line(
            "sysctl kernel.randomize_va_space (run 1): " + left + "write '" + aslr_row +
            "' to /proc/sys/kernel/randomize_va_space; left alone")) != std::string::npos);
  CHECK(test::one_line(r.out).find(
            test::one_line("write '" + mmap_row + "' to /proc/sys/vm/mmap_min_addr; left alone")) !=
        std::string::npos);
  CHECK(test::one_line(r.out).find(test::one_line(
            "to /proc/sys/kernel/perf_event_paranoid; left alone")) != std::string::npos);
  untouched();

  // Adopting them is refused: three are no knob a config may set.
  r = test::schedlab_cmd({"restore", "--db", db, "--adopt-unidentified"});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "--adopt-unidentified refused: journal entry 5: 'kernel.perf_event_paranoid' is "
            "not a sysctl "
            "schedlab may change")) != std::string::npos);
  CHECK(r.err.find("journal entry 4: 'vm.mmap_min_addr' is not a sysctl schedlab may change") !=
        std::string::npos);
  CHECK(test::one_line(r.err).find(test::one_line(
            "journal entry 3: 'kernel.randomize_va_space' is not a sysctl schedlab may change")) !=
        std::string::npos);
  CHECK(test::one_line(r.err).find(test::one_line("; nothing adopted")) != std::string::npos);
  untouched();

  // A run on that database is refused before it touches anything.
  const std::string cfg = dir.file("c.yaml");
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n");
  r = test::schedlab_cmd({"run", cfg, "--db", db});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "local: the database journals knobs this user did not journal on this machine and boot "
            "(no identity or tag of this user's): "
            "kernel.sched_autogroup_enabled (run 1), kernel.perf_event_paranoid (run 1), "
            "vm.mmap_min_addr "
            "(run 1), kernel.randomize_va_space (run 1); 'schedlab restore' lists them")) !=
        std::string::npos);
  untouched();
}

TEST_CASE(
    "journal: a row with this machine's and boot's ids but not this user's tag is left alone: a "
    "crafted one naming a process group, or one edited since (hostile15 #12)") {
  if (this_machine().empty()) {
    SCHEDLAB_SKIP("no /etc/machine-id on this machine");
  }
  test::TempDir dir;
  Victims victims;  // the crafted row's and the edited row's target
  REQUIRE(victims.pgid > 1);
  // A server schedlab journaled itself: still killed.
  LocalHost local;
  const auto own = local.start_background({.argv = {"sleep", "300"}});
  const int own_pgid = local.background_pgid(own).value_or(0);
  REQUIRE(own_pgid > 1);
  const auto pgroup = [](int pgid, std::string what) {
    return JournalEntry{.host = "local",
                        .kind = "pgroup",
                        .name = std::move(what),
                        .path = std::to_string(pgid),
                        .original = start_time_of(pgid),
                        .machine_id = this_machine(),
                        .boot_id = this_boot(),
                        .hostname = "sut"};
  };
  // Row 1: schedlab's own. Row 2: journaled for the test's own server, then
  // its group id edited to the victim's (with its start time).
  const std::string db =
      crafted_db(dir, "s3.db", {pgroup(own_pgid, "own"), pgroup(own_pgid, "edited")});
  REQUIRE(test::exec_raw(
      db, fmt::format("UPDATE knob_journal SET path = '{}', original = '{}' WHERE id = 2",
                      victims.pgid, start_time_of(victims.pgid))));
  // Row 3: as another user writes it, by SQL with this machine's and boot's
  // ids (both world-readable), the victim's group and its leader's start time.
  REQUIRE(test::exec_raw(
      db, fmt::format(
              "INSERT INTO knob_journal (run_id, host, kind, name, path, original, target, state, "
              "applied_at, machine_id, boot_id, hostname) VALUES (1, 'local', 'pgroup', 'crafted', "
              "'{}', '{}', '', 'applied', '2026-01-01T00:00:00Z', '{}', '{}', 'sut')",
              victims.pgid, start_time_of(victims.pgid), this_machine(), this_boot())));
  auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.ok());
  CHECK(victims.untouched());
  // schedlab's own row acted on: its leader killed (a zombie until the test reaps it).
  const std::string own_stat = test::read_text(fmt::format("/proc/{}/stat", own_pgid));
  CHECK(own_stat.substr(own_stat.rfind(')') + 2, 1) == "Z");
  const std::string out = test::one_line(r.out);
  CHECK(out.find(test::one_line(fmt::format("process group {} (own) killed (run 1)", own_pgid))) !=
        std::string::npos);
  CHECK(out.find(test::one_line(
            "pgroup crafted (run 1): not journaled by this user on this machine: it has no tag")) !=
        std::string::npos);
  CHECK(out.find(test::one_line(fmt::format(
            "pgroup edited (run 1): not journaled by this user on this machine: its tag "
            "is not this user's (another user's row, a database from elsewhere, or a row "
            "edited since); would kill process group {} (edited); left alone",
            victims.pgid))) != std::string::npos);
  CHECK(out.find(test::one_line("check it by hand")) != std::string::npos);
  CHECK(Store(db).journal().unrestored("local").size() == 2);
  local.stop_background(own);
}

TEST_CASE(
    "journal: restore --adopt-unidentified takes a 'yes' at a terminal, and only rows of a knob's "
    "own file") {
  if (::geteuid() != 0) SCHEDLAB_SKIP("needs root to write " << kJournalKnob);
  LocalHost local;
  const std::string before = read_sysctl(local, kJournalKnob);
  const std::string flipped = other_than(before, "0", "1");
  test::TempDir dir;
  Victims victims;
  auto rows = victims.rows();
  rows.push_back(
      unidentified("sysctl", kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled", before));
  const std::string db = crafted_db(dir, "old.db", rows);
  // What an old schedlab killed mid-run leaves: the knob still flipped.
  local.write_file(sysctl_path(kJournalKnob), flipped + "\n");
  const auto put_back = [&] { local.write_file(sysctl_path(kJournalKnob), before + "\n"); };

  // Not at a terminal: refused.
  auto r = test::schedlab_cmd({"restore", "--db", db, "--adopt-unidentified"});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "--adopt-unidentified asks for a 'yes' at a terminal, and stdin is not one; "
            "nothing adopted")) != std::string::npos);
  CHECK(read_sysctl(local, kJournalKnob) == flipped);
  const std::string prompt = "Act on these 3 rows on local as this host's own? Type yes to go on: ";
  // At a terminal, anything but yes: nothing.
  auto t = test::schedlab_on_terminal({"restore", "--db", db, "--adopt-unidentified"}, prompt, "y");
  INFO(t.output);
  CHECK(t.answered);
  CHECK(t.exit_code == 0);
  CHECK(t.output.find("nothing adopted") != std::string::npos);
  CHECK(read_sysctl(local, kJournalKnob) == flipped);
  CHECK(Store(db).journal().unrestored("local").size() == 3);
  // yes: the knob is put back; the process and the directory are only named.
  t = test::schedlab_on_terminal({"restore", "--db", db, "--adopt-unidentified"}, prompt, "yes");
  INFO(t.output);
  CHECK(t.exit_code == 0);
  CHECK(read_sysctl(local, kJournalKnob) == before);
  // Each line of restore wraps at 100 columns: read as one line.
  CHECK(test::one_line(t.output).find(
            "local: restored sysctl kernel.sched_autogroup_enabled: x -> " + before + " (run 1)") !=
        std::string::npos);
  CHECK(test::one_line(t.output).find(fmt::format(
            "pgroup server (run 1): closed without acting; kill process group {} (server) "
            "yourself if it is yours",
            victims.pgid)) != std::string::npos);
  CHECK(victims.untouched());
  CHECK(Store(db).journal().unrestored("local").empty());
  put_back();

  // A row whose path is not its knob's own: refused before the question.
  const std::string beside = crafted_db(
      dir, "beside.db", {unidentified("sysctl", kJournalKnob, "/proc/sys/vm/mmap_min_addr", "0")});
  const std::string mmap_min = read_sysctl(local, "vm.mmap_min_addr");
  t = test::schedlab_on_terminal({"restore", "--db", beside, "--adopt-unidentified"}, prompt,
                                 "yes");
  INFO(t.output);
  CHECK_FALSE(t.answered);
  CHECK(t.exit_code == 1);
  CHECK(test::one_line(t.output).find(
            test::one_line("--adopt-unidentified refused: journal entry 1: sysctl "
                           "kernel.sched_autogroup_enabled names "
                           "the file /proc/sys/vm/mmap_min_addr, not its own "
                           "/proc/sys/kernel/sched_autogroup_enabled; "
                           "not written; nothing adopted")) != std::string::npos);
  CHECK(read_sysctl(local, "vm.mmap_min_addr") == mmap_min);
}

TEST_CASE("journal: restore never dials a host named like an ssh option") {
  test::TempDir dir;
  // What ssh -Fevil.conf would run, from the directory restore runs in.
  const std::string marker = dir.file("evil-ran");
  test::write_text(dir.file("evil.conf"), "Host *\n  ProxyCommand touch " + marker + "\n");
  std::vector<JournalEntry> rows;
  for (const std::string host : {"ssh://-V", "ssh://-Fevil.conf", "ssh://-oX@sut1"}) {
    auto e = sysctl_row(kJournalKnob, "/proc/sys/kernel/sched_autogroup_enabled", "0");
    e.host = host;
    rows.push_back(e);
  }
  const std::string db = crafted_db(dir, "hosts.db", rows);
  LocalHost local;
  const auto r = local.run({.argv = {SCHEDLAB_BINARY, "restore", "--db", db},
                            .cwd = dir.path().string(),
                            .timeout = 60s});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "schedlab: ssh://-V: 'ssh://-V' is not a host: use local or "
            "ssh://[user@]host[:port] (the host "
            "'-V' starts with '-': ssh would take it for an option)")) != std::string::npos);
  CHECK(r.err.find("schedlab: ssh://-Fevil.conf: 'ssh://-Fevil.conf' is not a host") !=
        std::string::npos);
  CHECK(test::one_line(r.err).find(test::one_line("(the user '-oX' starts with '-'")) !=
        std::string::npos);
  CHECK(r.out.find("OpenSSH") == std::string::npos);
  CHECK(r.err.find("OpenSSH") == std::string::npos);
  CHECK_FALSE(fs::exists(marker));
  CHECK(Store(db).journal().unrestored_hosts().size() == 3);
}

namespace {

// A process group whose leader has exited, leaving one member (sleep 300)
// started with MARK as its group mark, or none: what a run's group holds
// after PDEATHSIG killed its leader, or what a daemon's double fork (or
// `(cmd &)` in a shell) leaves, whose group may take a number a dead run's
// group had.
// A file of /proc, or "" when it is gone.
std::string proc_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

struct LeaderlessGroup {
  int pgid = 0, member = 0;
  explicit LeaderlessGroup(const std::string& mark) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t leader = ::fork();
    REQUIRE(leader >= 0);
    if (leader == 0) {
      ::setpgid(0, 0);
      const pid_t m = ::fork();
      if (m == 0) {
        if (!mark.empty()) ::setenv(kGroupMarkVariable, mark.c_str(), 1);
        ::execlp("sleep", "sleep", "300", nullptr);
        ::_exit(127);
      }
      (void)!::write(fds[1], &m, sizeof m);
      ::_exit(0);
    }
    ::close(fds[1]);
    pid_t m = 0;
    (void)!::read(fds[0], &m, sizeof m);
    ::close(fds[0]);
    ::waitpid(leader, nullptr, 0);
    pgid = leader;
    member = m;
    // The member has exec'ed sleep (its environment is the one read).
    for (int i = 0; i < 200 && proc_text(fmt::format("/proc/{}/comm", m)) != "sleep\n"; ++i)
      ::usleep(10'000);
  }
  ~LeaderlessGroup() {
    if (member > 0) ::kill(member, SIGKILL);
  }
  // Running (a killed member is a zombie until its new parent reaps it).
  bool alive() const {
    const std::string stat = proc_text(fmt::format("/proc/{}/stat", member));
    return !stat.empty() && stat.substr(stat.rfind(')') + 2, 1) != "Z";
  }
};

}  // namespace

TEST_CASE(
    "journal: a process group whose leader is gone is killed only while a process of it carries "
    "the run's mark (hostile17)") {
  if (this_machine().empty()) {
    SCHEDLAB_SKIP("no /etc/machine-id on this machine");
  }
  test::TempDir dir;
  // This user's rows, as schedlab journals them (crafted_db tags them).
  const auto pgroup = [](int pgid, std::string what, std::string mark) {
    return JournalEntry{.host = "local",
                        .kind = "pgroup",
                        .name = std::move(what),
                        .path = std::to_string(pgid),
                        .original = "1",  // the start time of a leader now gone
                        .target = std::move(mark),
                        .machine_id = this_machine(),
                        .boot_id = this_boot(),
                        .hostname = "sut"};
  };
  // The run's group: its leader died with schedlab, its child lives on.
  const LeaderlessGroup own("mark0123456789ab");
  // Groups that took the numbers of run groups gone since: a process
  // without the mark, one with another run's, and one a row of a schedlab
  // that did not mark its groups names.
  const LeaderlessGroup stranger(""), other_mark("anotherMark01234"), unmarked("");
  REQUIRE(own.alive());
  REQUIRE(stranger.alive());
  const std::string db = crafted_db(
      dir, "reused.db",
      {pgroup(own.pgid, "own", "mark0123456789ab"),
       pgroup(stranger.pgid, "stranger", "mark0123456789ab"),
       pgroup(other_mark.pgid, "other", "mark0123456789ab"), pgroup(unmarked.pgid, "old", "")});
  auto r = test::schedlab_cmd({"restore", "--db", db});
  INFO(r.out << r.err);
  CHECK(r.ok());
  CHECK_FALSE(own.alive());
  CHECK(stranger.alive());
  CHECK(other_mark.alive());
  CHECK(unmarked.alive());
  const std::string out = test::one_line(r.out);
  CHECK(out.find(fmt::format("process group {} (own) killed (run 1)", own.pgid)) !=
        std::string::npos);
  CHECK(out.find(test::one_line(fmt::format(
            "process group {} (stranger): its leader is gone and none of its processes carries "
            "the mark the run started them with, so it may be another group that took the number "
            "since; left alone (run 1)",
            stranger.pgid))) != std::string::npos);
  CHECK(out.find(test::one_line(fmt::format(
            "process group {} (old): its leader is gone and none of its processes carries the "
            "mark the run started them with (a row of a schedlab that did not mark its groups)",
            unmarked.pgid))) != std::string::npos);
  CHECK(Store(db).journal().unrestored("local").empty());
}
