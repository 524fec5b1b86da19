// Tasks' policies read from /proc and set by name: the stat parser on a real
// fixture and on this process's own threads (a comm with blanks and
// parentheses), the poller on real processes started here, and the threads
// of a real multi-threaded process set, journaled and put back.
#include "runner/knobs/task_policies.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <thread>

#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/knobs.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

// A name only this test's processes have: the kernel takes a task's comm
// from the file it executes, so a link named so runs the real program
// under that name (other processes of the same program are never touched).
std::string unique_comm(const char* prefix) {
  return fmt::format("{}{}", prefix, ::getpid()).substr(0, 15);
}

std::string linked(const test::TempDir& dir, const std::string& name, const std::string& program) {
  const std::string path = dir.file(name);
  std::filesystem::create_symlink(program, path);
  return path;
}

// What a test that journals task policies on this machine starts from: the
// local host, a temporary directory, and a database there with one run,
// whose id the journal's rows name.
class LocalRun {
 protected:
  test::TempDir dir;
  LocalHost host;
  Store store{dir.file("t.db")};
  const std::int64_t run = store.runs_table().create_run(
      {.name = "t", .config_path = "x", .config_text = "", .config_sha256 = ""});
};

int own_policy() {
  return ::sched_getscheduler(0);
}
int other_than(int policy) {
  return policy == SCHED_BATCH ? SCHED_OTHER : SCHED_BATCH;
}

// Polls until `pred` holds on the tasks named `comm` (a process just
// started has not exec'ed yet, its threads not all created).
std::vector<TaskState> wait_for(Host& host, const std::string& comm,
                                const std::function<bool(const std::vector<TaskState>&)>& pred) {
  std::vector<TaskState> tasks;
  for (int i = 0; i < 200; ++i) {
    tasks.clear();
    for (auto& t : read_tasks(host, {comm}, {}))
      if (t.comm == comm) tasks.push_back(t);
    if (pred(tasks)) return tasks;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  FAIL("the tasks named " << comm << " never got there; last read " << tasks.size());
  return tasks;
}

// A python3 (run under its own name) with `threads` threads besides its
// main one; SIGUSR1 makes the main thread start one more.
constexpr const char* kThreads = R"(
import signal, sys, threading, time
def idle(): time.sleep(600)
def more(signum, frame): threading.Thread(target=idle, daemon=True).start()
signal.signal(signal.SIGUSR1, more)
for _ in range(int(sys.argv[1])): threading.Thread(target=idle, daemon=True).start()
time.sleep(600)
)";

}  // namespace

TEST_CASE("task stat: a real line's fields after the comm") {
  const std::string line =
      test::read_text(test::fixture("proc/pid-stat.hackbench-child.during.txt"));
  const auto t = parse_task_stat(16165, line.substr(0, line.find('\n')));
  REQUIRE(t);
  CHECK(t->pid == 16165);
  CHECK(t->tid == 16165);
  CHECK(t->comm == "hackbench");
  CHECK(t->ppid == 16163);
  CHECK(t->pgrp == 16086);
  CHECK(t->nice == 0);
  CHECK(t->start == "41620");
  CHECK(t->policy == 0);
  CHECK(t->describe() == "hackbench (pid 16165, tid 16165)");
  // Cut short before field 41, or not a stat line at all.
  CHECK_FALSE(parse_task_stat(1, line.substr(0, line.find(" 17 0 0 0"))));
  CHECK_FALSE(parse_task_stat(1, "x (a) S 1 1"));
  CHECK_FALSE(parse_task_stat(1, "hackbench"));
}

TEST_CASE("task stat: a thread named with blanks and parentheses, under SCHED_BATCH") {
  std::atomic<pid_t> tid{0};
  std::atomic<bool> done{false};
  std::thread t([&] {
    ::pthread_setname_np(::pthread_self(), "a) (b c) d");
    const sched_param sp{};
    REQUIRE(::sched_setscheduler(0, SCHED_BATCH, &sp) == 0);  // this thread only
    tid = static_cast<pid_t>(::syscall(SYS_gettid));
    while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  while (!tid) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const std::string stat =
      test::read_text(fmt::format("/proc/{}/task/{}/stat", ::getpid(), tid.load()));
  done = true;
  t.join();
  const auto parsed = parse_task_stat(::getpid(), stat.substr(0, stat.find('\n')));
  REQUIRE(parsed);
  CHECK(parsed->comm == "a) (b c) d");
  CHECK(parsed->tid == tid);
  CHECK(parsed->pid == ::getpid());
  CHECK(parsed->ppid == ::getppid());
  CHECK(parsed->pgrp == ::getpgrp());
  CHECK(parsed->nice == ::getpriority(PRIO_PROCESS, 0));
  CHECK(parsed->policy == SCHED_BATCH);
}

TEST_CASE("task stats: the poller finds a process group's tasks and the names asked for") {
  test::TempDir dir;
  LocalHost host;
  const std::string comm = unique_comm("tpsl");
  const std::string sleeper = linked(dir, comm, "/bin/sleep");
  const int policy = other_than(own_policy());
  const auto id =
      host.start_background({.argv = {sleeper, "30"}, .policy = SchedPolicy{policy, {}}});
  const auto pgid = host.background_pgid(id);
  REQUIRE(pgid);
  const auto by_name = wait_for(host, comm, [](const auto& t) { return t.size() == 1; });
  CHECK(by_name[0].policy == policy);
  CHECK(by_name[0].pgrp == *pgid);
  const auto by_group = read_tasks(host, {}, {*pgid});
  REQUIRE(by_group.size() == 1);
  CHECK(by_group[0].comm == comm);
  CHECK(by_group[0].tid == by_name[0].tid);
  // Neither asked for: none of this machine's other tasks.
  CHECK(read_tasks(host, {unique_comm("tpnone")}, {}).empty());
  host.stop_background(id);
}

TEST_CASE("task stats: a group's tasks and its descendants in groups of their own") {
  // 10 leads group 10 and forks 11 (same group), which made a session of
  // its own (12, like a PostgreSQL backend) and a thread; 20 is unrelated.
  const auto task = [](int pid, int tid, int ppid, int pgrp) {
    return TaskState{.pid = pid, .tid = tid, .comm = "x", .ppid = ppid, .pgrp = pgrp, .start = "1"};
  };
  const std::vector<TaskState> all = {task(10, 10, 1, 10), task(11, 11, 10, 10),
                                      task(12, 12, 11, 12), task(12, 13, 11, 12),
                                      task(20, 20, 1, 20)};
  std::vector<int> tids;
  for (const auto& t : tasks_of_groups(all, {10})) tids.push_back(t.tid);
  CHECK(tids == std::vector<int>{10, 11, 12, 13});
  CHECK(tasks_of_groups(all, {30}).empty());
  // A parent cycle in rows from two polls never loops.
  CHECK(tasks_of_groups({task(5, 5, 6, 5), task(6, 6, 5, 6)}, {7}).empty());
}

TEST_CASE_METHOD(LocalRun,
                 "task policies: every thread of a name set, journaled, and put back (real "
                 "threads)") {
  const std::string comm = unique_comm("tpthr");
  const std::string python = linked(dir, comm, "/usr/bin/python3");
  const auto id = host.start_background({.argv = {python, "-c", kThreads, "3"}});
  const auto before = wait_for(host, comm, [](const auto& t) { return t.size() == 4; });
  const int original = before[0].policy;
  const int target = other_than(original);
  {
    TaskPolicies policies(store.journal(), host, run);
    REQUIRE_FALSE(policies.apply(comm, target));
    const auto set = wait_for(host, comm, [](const auto& t) { return t.size() == 4; });
    for (const auto& t : set) CHECK(t.policy == target);
    const auto rows = store.journal().unrestored("local");
    REQUIRE(rows.size() == 4);
    for (const auto& r : rows) {
      CHECK(r.kind == "task_policy");
      CHECK(r.name == comm);
      CHECK(r.target == sched_policy_name(target));
      CHECK(r.original.starts_with(sched_policy_name(original) + " "));
    }
    // A thread its main thread starts now inherits the policy.
    const int pid = before[0].pid;
    REQUIRE(::kill(pid, SIGUSR1) == 0);
    const auto grown = wait_for(host, comm, [](const auto& t) { return t.size() == 5; });
    for (const auto& t : grown) CHECK(t.policy == target);
    policies.restore();
  }
  // Every thread has its own policy back, the newcomer too; nothing left.
  const auto after = wait_for(host, comm, [](const auto& t) { return t.size() == 5; });
  for (const auto& t : after) CHECK(t.policy == original);
  CHECK(store.journal().unrestored("local").empty());
  host.stop_background(id);
}

TEST_CASE("task policies: a name no task has fails, setting nothing") {
  test::TempDir dir;
  LocalHost host;
  Store store(dir.file("t.db"));
  TaskPolicies policies(store.journal(), host, 1);
  const std::string comm = unique_comm("tpnone");
  CHECK(policies.apply(comm, SCHED_BATCH) ==
        fmt::format("policy.tasks: no task named '{}' on local at the iteration's start", comm));
  CHECK(store.journal().unrestored("local").empty());
}

TEST_CASE_METHOD(LocalRun,
                 "task policies: restore puts back a thread a dead run set, and refuses other "
                 "rows") {
  const std::string comm = unique_comm("tpdead");
  const std::string sleeper = linked(dir, comm, "/bin/sleep");
  const auto id = host.start_background({.argv = {sleeper, "30"}});
  const TaskState t = wait_for(host, comm, [](const auto& v) { return v.size() == 1; })[0];
  const int target = other_than(t.policy);
  // What TaskPolicies journals before it sets a thread, then the run died.
  const auto row = [&](const std::string& path, const std::string& original) {
    return store.journal().journal_applied(stamped({.run_id = run,
                                                    .kind = kTaskPolicyKind,
                                                    .name = comm,
                                                    .path = path,
                                                    .original = original,
                                                    .target = sched_policy_name(target)},
                                                   host));
  };
  row(fmt::format("/proc/{}/task/{}", t.pid, t.tid),
      fmt::format("{} {}", sched_policy_name(t.policy), t.start));
  set_task_policy(host, t.tid, target);
  CHECK(read_tasks(host, {comm}, {}).at(0).policy == target);
  const auto lines = restore_journal(store.journal(), host);
  CHECK(lines == std::vector<std::string>{fmt::format(
                     "restored task_policy {} (pid {}, tid {}): {} -> {} (run {})", comm, t.pid,
                     t.tid, sched_policy_name(target), sched_policy_name(t.policy), run)});
  CHECK(read_tasks(host, {comm}, {}).at(0).policy == t.policy);
  CHECK(store.journal().unrestored("local").empty());
  // A thread since gone (another start time): closed, nothing written.
  row(fmt::format("/proc/{}/task/{}", t.pid, t.tid), "SCHED_BATCH 1");
  CHECK(restore_journal(store.journal(), host) ==
        std::vector<std::string>{fmt::format(
            "task_policy {} (/proc/{}/task/{}): the thread is gone, nothing to put back (run {})",
            comm, t.pid, t.tid, run)});
  // Rows schedlab never writes are refused.
  const auto bad_path = row("/etc/passwd", "SCHED_OTHER 1");
  CHECK_THROWS_WITH(
      restore_journal(store.journal(), host),
      fmt::format("journal entry {}: task_policy names '/etc/passwd', not a task; not "
                  "written",
                  bad_path));
  store.journal().journal_restored(bad_path);
  const auto bad_policy =
      row(fmt::format("/proc/{}/task/{}", t.pid, t.tid), "SCHED_FIFO " + t.start);
  CHECK_THROWS_WITH(restore_journal(store.journal(), host),
                    fmt::format("journal entry {}: task_policy original 'SCHED_FIFO {}' is not a "
                                "policy schedlab sets; not written",
                                bad_policy, t.start));
  store.journal().journal_restored(bad_policy);
  host.stop_background(id);
}
