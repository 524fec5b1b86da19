// Reliability under concurrency and kill -9, end to end on this
// host with the real binary: one run per SUT (a second run, any database,
// is refused naming the holder; restore refuses while a run lives; list
// tells a dead run from a live one), read-only databases, unique work
// directories, servers that die with schedlab, and the torture test: kill
// -9 at random moments, restore, resume.
//
// The test process is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever
// a killed schedlab leaves running is reparented to it, so "no orphan" is
// checked on this test's own descendants, never on names machine-wide.
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/history/cell_summaries.h"
#include "results/cell_cache.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/asan.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/sleeper_config.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr const char* kKnob = "kernel.sched_autogroup_enabled";

// A schedlab process started in the background, its stderr in a file.
struct Spawned {
  pid_t pid = -1;
  std::string err_path;
  int status = 0;
  bool reaped = false;

  int wait(std::chrono::seconds limit = 120s) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    while (!reaped) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) reaped = true;
      else if (std::chrono::steady_clock::now() > give_up) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        reaped = true;
        FAIL("schedlab did not finish in time: " << err());
      } else
        std::this_thread::sleep_for(20ms);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::string err() const { return test::read_text(err_path); }
};

Spawned spawn(const std::vector<std::string>& args, const std::string& err_path) {
  Spawned s{.err_path = err_path};
  s.pid = test::fork_schedlab(args, err_path);
  REQUIRE(s.pid >= 0);
  return s;
}

// `schedlab run DIR/c.yaml --db DIR/DB --name NAME`, its stderr in DIR/NAME.err.
Spawned spawn_run(const test::TempDir& dir, const std::string& db, const std::string& name) {
  return spawn({"run", dir.file("c.yaml"), "--db", dir.file(db), "--name", name},
               dir.file(name + ".err"));
}

// Processes whose parent is this test (non-zombie), after reaping zombies
// that are not in KEEP.
std::vector<pid_t> own_children() {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    if (ppid == ::getpid() && state != 'Z') out.push_back(std::stoi(name));
  }
  return out;
}

std::string comm_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string c;
  std::getline(in, c);
  return c;
}

// Orphans of killed runs: every descendant reparented to this test. Waits
// a moment (SIGKILL from PDEATHSIG is asynchronous), reaping zombies.
std::vector<std::string> orphans(std::chrono::milliseconds grace = 3000ms) {
  const auto until = std::chrono::steady_clock::now() + grace;
  std::vector<pid_t> left;
  while (true) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    left = own_children();
    if (left.empty() || std::chrono::steady_clock::now() > until) break;
    std::this_thread::sleep_for(20ms);
  }
  std::vector<std::string> out;
  for (pid_t p : left) out.push_back(std::to_string(p) + " " + comm_of(p));
  return out;
}

void subreaper() { REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0); }

std::string flipped_of(const std::string& original) { return original == "0" ? "1" : "0"; }

// A command workload under a sysctl variant; each iteration sleeps SECONDS
// and prints its work directory and whether it found it empty.
std::string sleeper_config(const std::string& flipped, const std::string& seconds,
                           int iterations = 1) {
  return test::sleeper_config(
      iterations,
      R"([sh, -c, 'ls -A {workdir} | grep -q . && echo dirty; touch {workdir}/mine; echo "dir {workdir}"; sleep )" +
          seconds + "; echo 1']",
      flipped);
}

// Waits until the SUT's lock names a run (the run exists and holds it).
void wait_for_holder(const std::string& needle) {
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < give_up) {
    std::ifstream in("/run/schedlab/sut.holder");
    std::string line;
    std::getline(in, line);
    if (line.find(needle) != std::string::npos) return;
    std::this_thread::sleep_for(20ms);
  }
  FAIL("no holder " << needle);
}

}  // namespace

TEST_CASE("a second run on the same SUT is refused, naming the holder; restore refuses too") {
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to write " << kKnob);
  LocalHost local;
  const std::string original = read_sysctl(local, kKnob);
  const std::string flipped = flipped_of(original);
  test::TempDir dir;
  test::write_text(dir.file("c.yaml"), sleeper_config(flipped, "3"));
  Spawned first = spawn_run(dir, "c.db", "c1");
  wait_for_holder("\"run 1 'c1'\"");
  // The run holds the SUT from before its knobs are tried (written and put
  // back) to its end: its variant's value shows once it is applied.
  const auto give_up = std::chrono::steady_clock::now() + 60s;
  while (read_sysctl(local, kKnob) != flipped && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(10ms);
  CHECK(read_sysctl(local, kKnob) == flipped);

  // The same database and another: both refused, the knob untouched.
  for (const std::string db : {"c.db", "d.db"}) {
    const auto second =
        test::schedlab_cmd({"run", dir.file("c.yaml"), "--db", dir.file(db), "--name", "c2"});
    INFO(second.err);
    CHECK(second.exit_code == 1);
    CHECK(test::one_line(second.err)
              .find(test::one_line("local is in use by run 1 'c1' (database " + dir.file("c.db") +
                                   ", PID " + std::to_string(first.pid) + " on host ")) !=
          std::string::npos);
    CHECK(second.err.find(", since 20") != std::string::npos);
  }
  // restore must not put the knob back under a live run.
  const auto restore = test::schedlab_cmd({"restore", "--db", dir.file("c.db")});
  INFO(restore.err);
  CHECK(restore.exit_code == 1);
  CHECK(restore.err.find("is in use by run 1 'c1'") != std::string::npos);
  CHECK(read_sysctl(local, kKnob) == flipped);
  // list: running while it lives.
  const auto listed = test::schedlab_cmd({"list", "--db", dir.file("c.db")});
  CHECK(listed.out.find("running") != std::string::npos);

  INFO(first.err());
  CHECK(first.wait() == 0);
  CHECK(read_sysctl(local, kKnob) == original);
  Store c(dir.file("c.db"), Store::Access::kReadOnly);
  REQUIRE(c.runs_table().list_runs().size() == 1);  // c2 never got as far as a run
  CHECK(c.iterations_table().count_iterations(1, IterationStatus::kOk) == 1);
  for (const auto& e : c.journal().unrestored("local"))
    FAIL("unrestored " << e.kind << " " << e.name);
  CHECK_FALSE(
      (fs::exists(dir.file("d.db")) && !Store(dir.file("d.db")).runs_table().list_runs().empty()));
}

TEST_CASE("two runs started together on one SUT: exactly one is refused") {
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to write " << kKnob);
  LocalHost local;
  const std::string original = read_sysctl(local, kKnob);
  test::TempDir dir;
  test::write_text(dir.file("c.yaml"), sleeper_config(flipped_of(original), "1"));
  Spawned a = spawn_run(dir, "a.db", "a");
  Spawned b = spawn_run(dir, "b.db", "b");
  const int ca = a.wait(), cb = b.wait();
  INFO(a.err() << "\n---\n" << b.err());
  CHECK(std::multiset<int>{ca, cb} == std::multiset<int>{0, 1});
  const Spawned& refused = ca == 1 ? a : b;
  // The holder may not have created its run yet ("a run starting").
  const std::string why = refused.err();
  CHECK((why.find("local is in use by run 1 '") != std::string::npos ||
         why.find("local is in use by a run starting (database ") != std::string::npos));
  CHECK(read_sysctl(local, kKnob) == original);
}

TEST_CASE("a killed run is listed as interrupted, its leftovers go with restore") {
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to write " << kKnob);
  subreaper();
  LocalHost local;
  const std::string original = read_sysctl(local, kKnob);
  test::TempDir dir;
  test::write_text(dir.file("c.yaml"), sleeper_config(flipped_of(original), "30"));
  Spawned run = spawn_run(dir, "k.db", "k");
  wait_for_holder("\"run 1 'k'\"");
  // The iteration is under way: its work directory exists.
  std::string workdir;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (workdir.empty() && std::chrono::steady_clock::now() < give_up) {
    for (const auto& e : fs::directory_iterator("/tmp"))
      if (e.path().filename().string().starts_with("schedlab-run1-w0-") &&
          fs::exists(e.path() / "mine"))
        workdir = e.path();
    std::this_thread::sleep_for(20ms);
  }
  REQUIRE(!workdir.empty());
  ::kill(run.pid, SIGKILL);
  run.wait();
  // The workload's leader (sh) died with schedlab (PR_SET_PDEATHSIG); its
  // child (sleep) lives on in the journaled process group until restore.
  const auto left = orphans(200ms);
  CHECK(left.size() == 1);
  const auto listed = test::schedlab_cmd({"list", "--db", dir.file("k.db")});
  INFO(listed.out << listed.err);
  CHECK(listed.out.find("interrupted") != std::string::npos);
  CHECK(listed.out.find("running") == std::string::npos);

  // Another database's run 1 gets a work directory of its own, empty.
  test::write_text(dir.file("quick.yaml"), sleeper_config(flipped_of(original), "0"));
  const auto other = test::schedlab_cmd({"run", dir.file("quick.yaml"), "--db", dir.file("o.db"), "--name", "o"});
  INFO(other.err);
  CHECK(other.exit_code == 0);
  Store o(dir.file("o.db"), Store::Access::kReadOnly);
  const auto its = o.iterations_table().iterations(1, true);
  REQUIRE(its.size() == 1);
  CHECK(its[0].stdout_text.find("dirty") == std::string::npos);
  CHECK(its[0].stdout_text.find("dir " + workdir) == std::string::npos);

  // The dead run's knob and work directory are put back by restore.
  CHECK(read_sysctl(local, kKnob) == flipped_of(original));
  const auto restore = test::schedlab_cmd({"restore", "--db", dir.file("k.db")});
  INFO(restore.out << restore.err);
  CHECK(restore.exit_code == 0);
  CHECK(read_sysctl(local, kKnob) == original);
  CHECK_FALSE(fs::exists(workdir));
  CHECK(restore.out.find("work directory " + workdir + " removed (run 1)") != std::string::npos);
  CHECK(restore.out.find("(sh) killed (run 1)") != std::string::npos);
  CHECK(orphans() == std::vector<std::string>{});
}

namespace {

// The perf sessions' directories now in /tmp (runner/monitors/perf_session.cc).
std::set<std::string> perf_dirs() {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator("/tmp"))
    if (e.path().filename().string().starts_with("schedlab-perf.")) out.insert(e.path());
  return out;
}

bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && line.substr(close + 2, 1) != "Z";
}

}  // namespace

TEST_CASE("perf sessions a killed run left are stopped and removed by the next run") {
  // Hostile pass 3: perf's directory (a profile's perf.data) was left by
  // kill -9, and a perf that outlived schedlab (a lost PDEATHSIG, a
  // connection that did not drop) was stopped by nothing.
  if (geteuid() != 0) SCHEDLAB_SKIP("perf -a needs root here");
  LocalHost local;
  if (!local.find_program("perf")) SCHEDLAB_SKIP("perf is not installed (Debian: linux-perf)");
  subreaper();
  test::TempDir dir;
  const auto config = [&](const std::string& seconds, const std::string& monitors) {
    test::write_text(dir.file("c.yaml"), R"(iterations: 1
workloads:
  - command:
      name: sleeper
      package: coreutils
      argv: [sh, -c, 'sleep )" + seconds + R"(; echo 1']
      metrics:
        t: {regex: '^(?<value>[0-9]+)$', direction: lower}
      monitors: [)" + monitors + "]\n");
  };
  const auto before = perf_dirs();
  config("30", "perf-stat");
  Spawned run = spawn_run(dir, "p.db", "p");
  // perf counting: a new session directory whose perf is running.
  std::string killed_dir;
  for (int i = 0; i < 1500 && killed_dir.empty(); ++i, std::this_thread::sleep_for(20ms))
    for (const auto& d : perf_dirs())
      if (!before.contains(d) && fs::exists(d + "/pid")) killed_dir = d;
  REQUIRE_FALSE(killed_dir.empty());
  std::this_thread::sleep_for(500ms);
  ::kill(run.pid, SIGKILL);
  run.wait();
  orphans();
  CHECK(fs::exists(killed_dir));

  // A perf that outlived its run, as PerfSession starts one, and a session
  // whose PID is now a stranger's (a sleep): the stranger lives on.
  const std::string orphan_dir = ::mkdtemp(std::string("/tmp/schedlab-perf.XXXXXX").data());
  REQUIRE(local.run({.argv = {"mkfifo", orphan_dir + "/ctl", orphan_dir + "/ack"}}).ok());
  const auto perf_id = local.start_background(
      {.argv = {"sh", "-c",
                "echo $$ > \"$0/pid\" && exec perf stat -a -x, -o \"$0/stat.csv\" -D -1 "
                "--control \"fifo:$0/ctl,$0/ack\"",
                orphan_dir}});
  const auto perf_pid = local.background_pgid(perf_id);
  REQUIRE(perf_pid);
  const std::string stranger_dir = ::mkdtemp(std::string("/tmp/schedlab-perf.XXXXXX").data());
  const auto stranger_id = local.start_background({.argv = {"sleep", "300"}});
  const auto stranger = local.background_pgid(stranger_id);
  REQUIRE(stranger);
  test::write_text(stranger_dir + "/pid", std::to_string(*stranger) + "\n");
  std::this_thread::sleep_for(300ms);
  REQUIRE(alive(*perf_pid));

  config("0", "");
  Spawned next = spawn_run(dir, "p.db", "q");
  CHECK(next.wait() == 0);
  const std::string err = next.err();
  INFO(err);
  CHECK(err.find("perf session " + killed_dir + ": directory removed") != std::string::npos);
  CHECK(err.find(fmt::format("perf session {}: perf (pid {}) stopped, directory removed",
                             orphan_dir, *perf_pid)) != std::string::npos);
  CHECK(err.find("perf session " + stranger_dir + ": directory removed") != std::string::npos);
  for (const auto& d : {killed_dir, orphan_dir, stranger_dir}) CHECK_FALSE(fs::exists(d));
  local.poll_background(perf_id);
  CHECK_FALSE(alive(*perf_pid));
  CHECK(alive(*stranger));
  local.stop_background(stranger_id);
}

TEST_CASE("another user's perf session is left alone by root's run (hostile12)") {
  // Each user's runs hold a SUT lock of their own (/run/schedlab for root,
  // /tmp/schedlab-UID else), so a session another user owns may be a live
  // run's: root's run killed its perf and removed its profile.
  if (geteuid() != 0) SCHEDLAB_SKIP("making another user's session needs root");
  LocalHost local;
  test::TempDir dir;
  const std::string theirs = ::mkdtemp(std::string("/tmp/schedlab-perf.XXXXXX").data());
  REQUIRE(local.run({.argv = {"mkfifo", theirs + "/ctl", theirs + "/ack"}}).ok());
  test::write_text(theirs + "/perf.data", "their profile");
  // Their "perf": a process of user 65534 whose command line names the
  // session's control FIFO, as perf's does.
  const auto id = local.start_background(
      {.argv = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                "sleep 300; :", "fifo:" + theirs + "/ctl," + theirs + "/ack"}});
  const auto pid = local.background_pgid(id);
  REQUIRE(pid);
  test::write_text(theirs + "/pid", std::to_string(*pid) + "\n");
  REQUIRE(local.run({.argv = {"chown", "-R", "65534:65534", theirs}}).ok());
  std::this_thread::sleep_for(200ms);
  REQUIRE(alive(*pid));
  test::write_text(dir.file("c.yaml"), R"(iterations: 1
workloads:
  - command:
      name: one
      argv: [echo, '1']
      metrics:
        t: {regex: '^(?<value>[0-9]+)$', direction: lower}
)");
  // A lock folder of the test's own: other runs on this machine hold
  // /run/schedlab's (the preflight's cleanup runs under any).
  struct OwnLocks {
    explicit OwnLocks(const std::string& d) { ::setenv("SCHEDLAB_LOCK_DIR", d.c_str(), 1); }
    ~OwnLocks() { ::unsetenv("SCHEDLAB_LOCK_DIR"); }
  } own_locks(dir.file("locks"));
  Spawned run = spawn_run(dir, "p.db", "p");
  const int status = run.wait();
  INFO(run.err());
  CHECK(status == 0);
  CHECK(run.err().find("perf session " + theirs) == std::string::npos);
  CHECK(alive(*pid));
  CHECK(fs::exists(theirs + "/perf.data"));
  local.stop_background(id);
  fs::remove_all(theirs);
}

TEST_CASE("commands that only read never write: 0444 file, read-only mount, no database") {
  test::TempDir dir;
  const std::string db = dir.file("r.db");
  test::write_text(dir.file("q.yaml"), R"(iterations: 2
workloads:
  - command:
      name: one
      package: coreutils
      argv: [echo, "1"]
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
)");
  REQUIRE(test::schedlab_cmd({"run", dir.file("q.yaml"), "--db", db, "--name", "r"}).exit_code == 0);

  SECTION("no database: an error, and none is created") {
    for (const std::string cmd : {"list", "compare", "history", "restore"}) {
      std::vector<std::string> args = {cmd, "--db", dir.file("none.db")};
      if (cmd == "compare") args.push_back("r");
      if (cmd == "history") args.insert(args.end(), {"--workload", "one", "--metric", "t"});
      const auto r = test::schedlab_cmd(args);
      INFO(cmd << ": " << r.err);
      CHECK(r.exit_code != 0);
      CHECK(test::one_line(r.err).find(test::one_line("no database at " + dir.file("none.db") +
                                                      " (run 'schedlab run CONFIG' first)")) !=
            std::string::npos);
      CHECK_FALSE(fs::exists(dir.file("none.db")));
    }
  }
  SECTION("history keeps the cells it computed where it may write, the same text after") {
    const std::vector<std::string> args = {"history", "--db", db, "--workload", "one", "--metric", "t"};
    const auto first = test::schedlab_cmd(args);
    REQUIRE(first.exit_code == 0);
    std::size_t kept = 0;
    Store(db, Store::Access::kReadOnly)
        .cell_cache()
        .for_each_run_cell_summaries(
            "one", "t", kCellSummaryVersion,
            [&](const RunLabel&, std::span<const CellSummary> c) { kept += c.size(); });
    CHECK(kept == 1);
    const auto again = test::schedlab_cmd(args);
    CHECK(again.exit_code == 0);
    CHECK(again.out == first.out);
  }
  SECTION("a 0444 file in a directory the reader cannot write") {
    if (geteuid() != 0) SCHEDLAB_SKIP("needs root to switch to user nobody");
    ::chmod(db.c_str(), 0444);
    ::chmod(dir.path().c_str(), 0755);
    // history too: it keeps cell summaries only where it may write.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"list"}, {"compare", "r"},
          {"history", "--workload", "one", "--metric", "t"}}) {
      std::vector<std::string> argv = {"setpriv", "--reuid=65534", "--regid=65534",
                                       "--clear-groups", SCHEDLAB_BINARY};
      argv.insert(argv.end(), args.begin(), args.end());
      argv.insert(argv.end(), {"--db", db});
      const auto r = LocalHost().run({.argv = argv});
      INFO(args[0] << ": " << r.err);
      CHECK(r.exit_code == 0);
      CHECK(r.out.find('r') != std::string::npos);
    }
  }
  SECTION("a read-only mount") {
    if (geteuid() != 0) SCHEDLAB_SKIP("needs root to mount");
    const std::string mnt = dir.file("ro");
    fs::create_directory(mnt);
    if (::mount(dir.path().c_str(), mnt.c_str(), nullptr, MS_BIND, nullptr) != 0)
      SCHEDLAB_SKIP("cannot bind-mount here: " << std::strerror(errno));
    const bool ro =
        ::mount(nullptr, mnt.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    if (ro) {
      for (const std::vector<std::string>& args :
           {std::vector<std::string>{"list"}, {"compare", "r"},
            {"history", "--workload", "one", "--metric", "t"}}) {
        std::vector<std::string> argv = args;
        argv.insert(argv.end(), {"--db", mnt + "/r.db"});
        const auto r = test::schedlab_cmd(argv);
        INFO(args[0] << ": " << r.err);
        CHECK(r.exit_code == 0);
      }
    }
    ::umount2(mnt.c_str(), MNT_DETACH);
    if (!ro) SCHEDLAB_SKIP("cannot remount read-only here");
  }
}

// One iteration of `echo 1`: a database of one's own, made by a real run.
const char* const kEchoOne = R"(iterations: 1
workloads:
  - command:
      name: one
      argv: [echo, "1"]
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
      monitors: []
)";

TEST_CASE(
    "rm of a database this user may not write says so, naming it; nothing removed (issue 44)") {
  // Hostile13 #19: rm as nobody on a 0444 file said "attempt to write a
  // readonly database", and in a folder it may not write quoted an internal
  // SELECT. Root ignores modes: the commands run as nobody.
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to switch to user nobody");
  test::TempDir dir;
  const std::string db = dir.file("r.db");
  test::write_text(dir.file("q.yaml"), kEchoOne);
  REQUIRE(test::schedlab_cmd({"run", dir.file("q.yaml"), "--db", db, "--name", "r"}).exit_code ==
          0);
  ::chmod(dir.path().c_str(), 0755);
  std::string why;
  SECTION("a 0444 file") {
    ::chmod(db.c_str(), 0444);
    why = "the file cannot be written: Permission denied";
  }
  SECTION("a file of its own in a folder it may not write") {
    REQUIRE(::chown(db.c_str(), 65534, 65534) == 0);
    why = "its folder " + dir.path().string() +
          " cannot be written, where SQLite makes its -wal and -shm files: Permission denied";
  }
  const auto r =
      LocalHost().run({.argv = {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                SCHEDLAB_BINARY, "rm", "--db", db, "r"}});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab rm: " + db + ": the database is read-only for this user (" + why +
                       "); nothing removed\n"));
  CHECK(r.err.find("SELECT") == std::string::npos);
  CHECK(Store(db, Store::Access::kReadOnly).runs_table().list_runs().size() == 1);
}

TEST_CASE(
    "a database reached by a link is checked where SQLite writes: the file it names, its folder, "
    "for the effective user (hostile15)") {
  // SQLite follows a link and makes the -wal and -shm beside the file it
  // names. The check looked at the link's folder: a link in a folder nobody
  // may not write, to a database of its own in a folder it may, was refused
  // as "its folder ... cannot be written" (rm, run, import, restore locked
  // out); the other way round it passed and SQLite's error quoted a SELECT.
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to switch to user nobody");
  test::TempDir dir;
  ::chmod(dir.path().c_str(), 0755);  // root's: nobody may not write here
  const std::string own = dir.file("own");
  std::filesystem::create_directory(own);
  test::write_text(dir.file("q.yaml"), kEchoOne);
  const std::string db = own + "/r.db", theirs = dir.file("t.db");
  for (const std::string& d : {db, theirs}) {
    REQUIRE(test::schedlab_cmd({"run", dir.file("q.yaml"), "--db", d, "--name", "r"}).exit_code ==
            0);
    for (const char* end : {"", "-wal", "-shm"})
      if (std::filesystem::exists(d + end)) REQUIRE(::chown((d + end).c_str(), 65534, 65534) == 0);
  }
  REQUIRE(::chown(own.c_str(), 65534, 65534) == 0);
  // SQLite leaves an empty -wal (and the -shm) after a run: without them,
  // it must make them in root's folder.
  for (const char* end : {"-wal", "-shm"}) {
    if (!std::filesystem::exists(theirs + end)) continue;
    if (std::string(end) == "-wal") REQUIRE(std::filesystem::file_size(theirs + end) == 0);
    std::filesystem::remove(theirs + end);
  }
  const auto rm_as = [](const char* who, const std::string& path) {
    return LocalHost().run({.argv = {"setpriv", who, "--regid=65534", "--clear-groups",
                                     SCHEDLAB_BINARY, "rm", "--db", path, "r"}});
  };
  // A link in root's folder to nobody's database in nobody's folder.
  std::filesystem::create_symlink(db, dir.file("link.db"));
  const auto ok = rm_as("--reuid=65534", dir.file("link.db"));
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(Store(db, Store::Access::kReadOnly).runs_table().list_runs().empty());
  // A link in nobody's folder to nobody's database in root's folder.
  std::filesystem::create_symlink(theirs, own + "/link.db");
  const auto no = rm_as("--reuid=65534", own + "/link.db");
  CHECK(no.exit_code == 2);
  CHECK(test::one_line(no.err) ==
        test::one_line("schedlab rm: " + own +
                       "/link.db: the database is read-only for this user "
                       "(its folder " +
                       std::filesystem::canonical(dir.path()).string() +
                       " cannot be written, where SQLite makes its -wal and -shm files: "
                       "Permission denied); nothing removed\n"));
  // Another effective user than the real one (root): the file is root's.
  REQUIRE(::chown(theirs.c_str(), 0, 0) == 0);
  const auto eff =
      LocalHost().run({.argv = {"setpriv", "--euid=65534", "--egid=65534", "--clear-groups",
                                SCHEDLAB_BINARY, "rm", "--db", theirs, "r"}});
  const std::string refused = test::one_line(
      "schedlab rm: " + theirs +
      ": the database is read-only for this user (the file cannot be written: Permission "
      "denied); nothing removed\n");
#if defined(SCHEDLAB_TEST_ASAN)
  // LeakSanitizer cannot run in a process whose effective user is not its
  // real one (not dumpable: it cannot read its own /proc files, nor
  // ASAN_OPTIONS there): its fatal error at exit follows the message and
  // makes the status. The status is checked in the plain build.
  CHECK(test::one_line(eff.err).starts_with(refused));
#else
  CHECK(eff.exit_code == 2);
  CHECK(test::one_line(eff.err) == refused);
#endif
  CHECK(Store(theirs, Store::Access::kReadOnly).runs_table().list_runs().size() == 1);
}

TEST_CASE("a server step refuses a port someone else listens on") {
  if (!LocalHost().find_program("tbench_srv")) SCHEDLAB_SKIP("tbench_srv not installed (dbench)");
  subreaper();
  // A listener schedlab did not start, on tbench's fixed port.
  LocalHost local;
  const auto foreign = local.start_background({.argv = {"tbench_srv"}});
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (!local.port_accepts(7003) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(20ms);
  REQUIRE(local.port_accepts(7003));
  test::TempDir dir;
  test::write_text(dir.file("t.yaml"), R"(iterations: 1
workloads:
  - tbench: {clients: [1], duration: 2s}
)");
  const auto r = test::schedlab_cmd({"run", dir.file("t.yaml"), "--db", dir.file("t.db")});
  local.stop_background(foreign);
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(test::one_line(r.err).find(
            test::one_line("port 7003 on local already has a listener schedlab did not start")) !=
        std::string::npos);
  Store t(dir.file("t.db"), Store::Access::kReadOnly);
  CHECK(t.iterations_table().count_iterations(1, IterationStatus::kOk) == 0);
}

TEST_CASE("torture: kill -9 at 20 random moments, restore, resume", "[heavy]") {
  if (geteuid() != 0) SCHEDLAB_SKIP("needs root to write " << kKnob);
  if (!LocalHost().find_program("tbench_srv")) SCHEDLAB_SKIP("tbench_srv not installed (dbench)");
  subreaper();
  LocalHost local;
  const std::string original = read_sysctl(local, kKnob);
  test::TempDir dir;
  const int iterations = 4;
  test::write_text(dir.file("t.yaml"), "iterations: " + std::to_string(iterations) + R"(
workloads:
  - tbench: {clients: [1], duration: 2s}
variants:
  default: {}
  autogroup-off:
    sysctl:
      kernel.sched_autogroup_enabled: )" + flipped_of(original) + "\n");
  const std::string db = dir.file("t.db");
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> moment_ms(50, 2500);
  const auto start = std::chrono::steady_clock::now();
  int kills = 0, finished_early = 0, attempts = 0;
  auto counts_ok = [&] {
    // Per variant and point: iteration indices 0..n-1, each once.
    if (!std::filesystem::exists(db)) return;
    Store s(db, Store::Access::kReadOnly);
    std::map<std::int64_t, std::vector<int>> by_variant;
    for (const auto& it : s.iterations_table().iterations(1))
      by_variant[it.variant_id].push_back(it.iteration);
    for (auto& [v, idx] : by_variant) {
      std::sort(idx.begin(), idx.end());
      for (std::size_t i = 0; i < idx.size(); ++i) REQUIRE(idx[i] == static_cast<int>(i));
      REQUIRE(idx.size() <= static_cast<std::size_t>(iterations));
    }
  };
  auto run_args = [&] {
    // A kill before the run was recorded (a busy machine, an early moment)
    // leaves nothing to resume: the next attempt starts it again.
    std::vector<std::string> args = {"run", "--db", db};
    const bool recorded = std::filesystem::exists(db) &&
                          Store(db, Store::Access::kReadOnly).runs_table().find_run_by_name("t");
    if (!recorded)
      args.insert(args.end(), {dir.file("t.yaml"), "--name", "t"});
    else
      args.insert(args.end(), {"--resume", "t"});
    return args;
  };
  bool done = false;
  while (kills < 20 && !done) {
    ++attempts;
    Spawned s = spawn(run_args(), dir.file("t.err"));
    std::this_thread::sleep_for(std::chrono::milliseconds(moment_ms(rng)));
    if (::waitpid(s.pid, &s.status, WNOHANG) == s.pid) {
      s.reaped = true;
      INFO(s.err());
      REQUIRE(s.wait() == 0);  // it finished before the moment came
      done = true;
      ++finished_early;
      break;
    }
    ::kill(s.pid, SIGKILL);
    s.wait();
    ++kills;
    // Killed before the database existed: no knob was journaled, so none
    // was flipped, and restore rightly has nothing to open.
    if (std::filesystem::exists(db)) {
      const auto restore = test::schedlab_cmd({"restore", "--db", db});
      INFO("kill " << kills << ": " << restore.out << restore.err);
      REQUIRE(restore.exit_code == 0);
    }
    CHECK(read_sysctl(local, kKnob) == original);
    CHECK(orphans() == std::vector<std::string>{});
    CHECK_FALSE(local.port_accepts(7003));
    counts_ok();
  }
  if (!done) {
    Spawned s = spawn(run_args(), dir.file("t.err"));
    INFO(s.err());
    REQUIRE(s.wait() == 0);
  }
  CHECK(read_sysctl(local, kKnob) == original);
  CHECK(orphans() == std::vector<std::string>{});
  counts_ok();
  Store s(db, Store::Access::kReadOnly);
  CHECK(s.iterations_table().count_iterations(1, IterationStatus::kOk) == 2 * iterations);
  CHECK(s.iterations_table().iterations(1).size() == static_cast<std::size_t>(2 * iterations));
  for (const auto& e : s.journal().unrestored("local"))
    FAIL("unrestored " << e.kind << " " << e.name);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("torture: " << kills << " kills, " << attempts << " starts, " << seconds << " s");
}
