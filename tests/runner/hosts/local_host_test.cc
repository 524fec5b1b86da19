#include "runner/hosts/local_host.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

#include "runner/hosts/interrupt.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

TEST_CASE("local host runs an argv and captures stdout, stderr and the exit code") {
  LocalHost host;
  const auto r = host.run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  CHECK(r.outcome == ExecResult::Outcome::kExited);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK_FALSE(r.ok());
}

TEST_CASE("arguments reach the program unchanged, no shell in between") {
  LocalHost host;
  const std::string nasty = "a b;$(touch /tmp/schedlab-pwned)`id`*'\"\n";
  const auto r = host.run({.argv = {"printf", "%s", nasty}});
  CHECK(r.ok());
  CHECK(r.out == nasty);
  CHECK(::access("/tmp/schedlab-pwned", F_OK) != 0);
}

TEST_CASE("a workload inherits no open file of schedlab's but its three streams") {
  // Not close-on-exec, as a lock or log opened by a library may be.
  const int fd = ::open("/dev/null", O_RDONLY);
  REQUIRE(fd >= 3);
  LocalHost host;
  // ls opens its own fd for the directory it lists: only 0-2 and that one.
  const auto r = host.run({.argv = {"ls", "/proc/self/fd"}});
  // A shell's own descriptors, listed by its child.
  const auto shell = host.run({.argv = {"sh", "-c", "ls /proc/$$/fd"}});
  ::close(fd);
  REQUIRE(r.ok());
  CHECK(r.out == "0\n1\n2\n3\n");
  REQUIRE(shell.ok());
  CHECK(shell.out == "0\n1\n2\n");
}

TEST_CASE("a missing program is a spawn failure, not an exception") {
  LocalHost host;
  const auto r = host.run({.argv = {"schedlab-no-such-tool"}});
  CHECK(r.outcome == ExecResult::Outcome::kSpawnFailed);
  CHECK(r.describe() == "could not start: 'schedlab-no-such-tool' not found on PATH");
}

TEST_CASE("a timeout kills the whole process group, grandchildren included") {
  LocalHost host;
  test::TempDir dir;
  const std::string pidfile = dir.file("grandchild.pid");
  // The grandchild records its pid, then both sleep far past the timeout.
  const auto r = host.run({.argv = {"sh", "-c", "sleep 60 & echo $! > \"$0\"; sleep 60", pidfile},
                           .timeout = 300ms});
  CHECK(r.outcome == ExecResult::Outcome::kTimedOut);
  CHECK(r.seconds < 5);
  const pid_t grandchild = std::stoi(test::read_text(pidfile));
  // Give the kernel a moment to tear it down; it was SIGKILLed with its group.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ::kill(grandchild, 0) != 0 || test::read_text("/proc/" + std::to_string(grandchild) + "/stat").find(" Z ") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(10ms);
  }
  CHECK(gone);
}

TEST_CASE("the variant's policy is applied to the workload process") {
  // SCHED_OTHER first: a command with no policy inherits this process's,
  // which is SCHED_IDLE under scripts/idle-priority.sh.
  const sched_param normal{.sched_priority = 0};
  REQUIRE(::sched_setscheduler(0, SCHED_OTHER, &normal) == 0);
  LocalHost host;
  // chrt -p reads the scheduling policy of the calling shell.
  Command cmd{.argv = {"sh", "-c", "chrt -p $$; cat /proc/self/stat | cut -d' ' -f19"}};
  cmd.policy = SchedPolicy{SCHED_BATCH, 5};
  const auto r = host.run(cmd);
  REQUIRE(r.ok());
  CHECK(r.out.find("SCHED_BATCH") != std::string::npos);
  CHECK(r.out.find("\n5\n") != std::string::npos);  // the nice value, field 19

  cmd.policy = SchedPolicy{SCHED_IDLE, std::nullopt};
  CHECK(host.run(cmd).out.find("SCHED_IDLE") != std::string::npos);
  cmd.policy.reset();
  CHECK(host.run(cmd).out.find("SCHED_OTHER") != std::string::npos);
}

TEST_CASE("an interrupt kills the running command") {
  LocalHost host;
  reset_interrupted();
  install_interrupt_handlers();
  std::thread killer([] {
    std::this_thread::sleep_for(200ms);
    ::kill(::getpid(), SIGINT);
  });
  const auto r = host.run({.argv = {"sleep", "30"}, .timeout = 60s});
  killer.join();
  CHECK(r.outcome == ExecResult::Outcome::kInterrupted);
  CHECK(r.seconds < 5);
  reset_interrupted();
}

TEST_CASE("the CPU of reaped processes adds up as the kernel counts this process's children") {
  LocalHost host;
  CHECK(host.reaped_cpu_seconds() == 0.0);
  const auto children = [] {
    rusage ru{};
    ::getrusage(RUSAGE_CHILDREN, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
  };
  const double before = children();
  // Busy in itself and in a child it waits for; in the foreground, then in
  // the background and then stopped.
  const std::string busy = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
  REQUIRE(host.run({.argv = {"sh", "-c", busy + "; sh -c '" + busy + "'"}}).ok());
  const auto id = host.start_background({.argv = {"sh", "-c", busy}});
  while (!host.poll_background(id)) std::this_thread::sleep_for(5ms);
  const auto stopped = host.start_background({.argv = {"sh", "-c", busy + "; sleep 30"}});
  std::this_thread::sleep_for(100ms);
  host.stop_background(stopped);
  CHECK(*host.reaped_cpu_seconds() > 0);
  CHECK(*host.reaped_cpu_seconds() == Approx(children() - before).margin(1e-3));
}

// The SUT lock waits for its remote script's line this way, with no round
// trip: a running background's stdout so far, nothing once it is reaped.
TEST_CASE("a background process's output so far, read while it runs") {
  LocalHost host;
  const auto id = host.start_background({.argv = {"sh", "-c", "echo ready; exec sleep 30"}});
  std::optional<std::string> out;
  for (int i = 0; i < 1000 && out != "ready\n"; ++i) {
    out = host.background_output(id);
    std::this_thread::sleep_for(5ms);
  }
  CHECK(out == "ready\n");
  CHECK_FALSE(host.poll_background(id));  // still running
  host.stop_background(id);
  CHECK_FALSE(host.background_output(id));
}

TEST_CASE("files: read, write, missing, list") {
  LocalHost host;
  test::TempDir dir;
  host.write_file(dir.file("a"), "hello\n");
  CHECK(host.read_file(dir.file("a")) == "hello\n");
  CHECK(host.read_file(dir.file("missing")) == std::nullopt);
  CHECK(host.list_dir(dir.path().string()) == std::vector<std::string>{"a"});
  CHECK_THROWS_AS(host.write_file(dir.file("no/such/dir"), "x"), HostError);
  // /proc files have size 0 but content.
  CHECK_FALSE(host.read_file("/proc/self/stat")->empty());
  CHECK(host.find_program("sh").has_value());
  CHECK_FALSE(host.find_program("schedlab-no-such-tool").has_value());
}
