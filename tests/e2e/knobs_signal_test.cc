// End to end on this host: the affinity knob seen from inside the workload,
// a CPU the host does not have refused before anything runs, and a second
// Ctrl-C that restores the SUT and exits at once.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/sleeper_config.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

// The workload reports the CPUs it may run on, as the kernel sees them.
std::string affinity_config(const std::string& client_cpus) {
  return R"(iterations: 2
workloads:
  - command:
      name: where
      package: grep
      argv: [grep, Cpus_allowed_list, /proc/self/status]
      metrics:
        cpu:
          regex: '^Cpus_allowed_list:\s+(?<value>[0-9]+)$'
          direction: higher
variants:
  pinned:
    affinity: {client: ")" +
         client_cpus + R"("}
)";
}

// Children of `pid` whose command is `comm`.
std::vector<pid_t> children_named(pid_t pid, const std::string& comm) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    const auto open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    if (ppid == pid && line.substr(open + 1, close - open - 1) == comm && state != 'Z')
      out.push_back(std::stoi(name));
  }
  return out;
}

bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  return std::getline(in, line) && line.find(") Z ") == std::string::npos;
}

}  // namespace

TEST_CASE("affinity pins the workload's process to the CPU listed (real host)") {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
    SCHEDLAB_SKIP("needs 2 CPUs");
  }
  test::TempDir dir;
  const std::string db = dir.file("a.db"), cfg = dir.file("a.yaml");
  test::write_text(cfg, affinity_config("1"));
  const auto run = test::schedlab_cmd({"run", cfg, "--db", db, "--name", "a"});
  INFO(run.err);
  REQUIRE(run.ok());
  Store store(db);
  const auto r = store.runs_table().find_run_by_name("a");
  for (const auto& it : store.iterations_table().iterations(r->id, true)) {
    CHECK(to_string(it.status) == "ok");
    CHECK(it.stdout_text == "Cpus_allowed_list:\t1\n");
  }
  CHECK(store.variants_table().variants(r->id)[0].knobs_json == R"({"affinity":{"client":"1"}})");
  const auto dry = test::schedlab_cmd({"run", cfg, "--dry-run"});
  CHECK(dry.out.find("variant pinned: affinity client=1") != std::string::npos);
}

TEST_CASE("an affinity CPU the host does not have is refused before anything runs") {
  test::TempDir dir;
  const std::string db = dir.file("a.db"), cfg = dir.file("a.yaml");
  test::write_text(cfg, affinity_config("4000"));
  const auto run = test::schedlab_cmd({"run", cfg, "--db", db});
  CHECK(run.exit_code == 1);
  CHECK(test::one_line(run.err).find(test::one_line(
            cfg +
            ":13: variants.pinned.affinity.client: CPU 4000 is not online on local (online: ")) !=
        std::string::npos);
  Store store(db);
  CHECK(store.runs_table().list_runs().empty());
}

TEST_CASE("a second SIGINT restores the knobs, kills the workload and exits at once (real host)") {
  if (geteuid() != 0) {
    SCHEDLAB_SKIP("needs root to write kernel.sched_autogroup_enabled");
  }
  LocalHost local;
  const std::string knob = "kernel.sched_autogroup_enabled";
  const std::string original = read_sysctl(local, knob);
  const std::string flipped = original == "0" ? "1" : "0";
  test::TempDir dir;
  const std::string db = dir.file("s.db"), cfg = dir.file("s.yaml"), err = dir.file("err");
  test::write_text(
      cfg, test::sleeper_config(
               1, R"([sh, -c, "cd {workdir} && seq 1 100000 | xargs touch && exec sleep 60"])",
               flipped));

  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 2);
    ::execl(SCHEDLAB_BINARY, SCHEDLAB_BINARY, "run", cfg.c_str(), "--db", db.c_str(), "--name", "s",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait for the workload: the knob is flipped and sleep runs.
  std::vector<pid_t> sleepers;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while ((sleepers = children_named(pid, "sleep")).empty() &&
         std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(50ms);
  REQUIRE(sleepers.size() == 1);
  CHECK(read_sysctl(local, knob) == flipped);

  // The first signal starts the graceful unwinding, slowed here by the
  // teardown (removing 100000 files from the work directory runs to the
  // end after Ctrl-C); the second must not wait for it.
  const auto start = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  // Not synchronisation: two signals under 100 ms apart are one request
  // (runner/hosts/interrupt.cc's kSameRequestNs), this one must be a second.
  std::this_thread::sleep_for(150ms);
  CHECK(::waitpid(pid, nullptr, WNOHANG) == 0);  // still unwinding
  ::kill(pid, SIGINT);
  int status = 0;
  pid_t done = 0;
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() - start < 10s)
    std::this_thread::sleep_for(10ms);
  if (done == 0) ::kill(pid, SIGKILL), ::waitpid(pid, &status, 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(err);
  const std::string stderr_text((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  INFO(stderr_text);
  REQUIRE(done == pid);
  CHECK(seconds < 3.0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  CHECK(stderr_text.find("second signal: stopping workloads, restoring knobs, exiting now") !=
        std::string::npos);
  CHECK(read_sysctl(local, knob) == original);
  Store store(db);
  CHECK(to_string(store.runs_table().find_run_by_name("s")->status) == "interrupted");
  CHECK_FALSE(alive(sleepers[0]));
  // No knob is left; the interrupted teardown left part of the work
  // directory behind, journaled, and restore removes it.
  std::vector<std::string> workdirs;
  for (const auto& e : store.journal().unrestored("local")) {
    CHECK(e.kind == "workdir");
    workdirs.push_back(e.path);
  }
  const auto restore = test::schedlab_cmd({"restore", "--db", db});
  CHECK(restore.exit_code == 0);
  for (const auto& w : workdirs) CHECK_FALSE(std::filesystem::exists(w));
  WARN("second SIGINT to exit: " << seconds << " s");
}
