#include "runner/run/step_runner.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {
bool alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  const std::string stat = test::read_text("/proc/" + std::to_string(pid) + "/stat");
  return stat.find(") Z ") == std::string::npos;
}
}  // namespace

TEST_CASE("a background server is started, awaited, and stopped with its group") {
  LocalHost host;
  test::TempDir dir;
  const std::string ready = dir.file("ready"), pidfile = dir.file("pid");
  // A "server" that becomes ready after a moment and forks a helper.
  Step server{.argv = {"sh", "-c", "sleep 0.2; sleep 60 & echo $! > \"$1\"; touch \"$0\"; wait", ready, pidfile},
              .background = true,
              .ready = ReadyCheck{.argv = {"test", "-e", ready}, .timeout = 10s, .what = "ready file"}};
  Step client{.argv = {"cat", pidfile}};
  pid_t helper = 0;
  {
    StepRunner runner(Pair{host, host, "127.0.0.1"});
    const PhaseResult r = runner.run({server, client}, std::nullopt);
    REQUIRE(r.ok());
    helper = std::stoi(r.out);
    CHECK(alive(helper));
  }  // the runner goes out of scope: the server's whole group is stopped
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i, std::this_thread::sleep_for(10ms)) gone = !alive(helper);
  CHECK(gone);
}

TEST_CASE("a server that never becomes ready is a timeout error naming the check") {
  LocalHost host;
  StepRunner runner(Pair{host, host, "127.0.0.1"});
  Step server{.argv = {"sh", "-c", "echo starting; exec sleep 60"},
              .background = true,
              .ready = ReadyCheck{.tcp_port = host.free_port(), .timeout = 500ms, .what = "sleep accepting on its port"}};
  const PhaseResult r = runner.run({server}, std::nullopt);
  CHECK(r.status == PhaseStatus::kNotReady);
  CHECK(r.error.find("sh: not ready after 0s (readiness check: sleep accepting on its port); its last output: starting") == 0);
}

TEST_CASE("a server that dies before it is ready reports its output") {
  LocalHost host;
  StepRunner runner(Pair{host, host, "127.0.0.1"});
  Step server{.argv = {"sh", "-c", "echo 'bind: address in use' >&2; exit 1"},
              .background = true,
              .ready = ReadyCheck{.tcp_port = host.free_port(), .timeout = 10s}};
  const PhaseResult r = runner.run({server}, std::nullopt);
  CHECK(r.status == PhaseStatus::kNotReady);
  CHECK(r.error == "sh exited before it was ready (exit 1): bind: address in use");
}

TEST_CASE("a TCP readiness check sees a listening port") {
  LocalHost host;
  const int port = host.free_port();
  CHECK_FALSE(host.port_accepts(port));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(fd, 1) == 0);
  CHECK(host.port_accepts(port));
  ::close(fd);
}

TEST_CASE("steps stop at the first failure unless told to ignore it, and stdin reaches the step") {
  LocalHost host;
  test::TempDir dir;
  StepRunner runner(Pair{host, host, "127.0.0.1"});
  const std::string file = dir.file("written");
  PhaseResult r = runner.run({Step{.argv = {"tee", file}, .measured = false, .stdin_data = "value 1\n"},
                              Step{.argv = {"false"}, .ignore_failure = true},
                              Step{.argv = {"cat", file}}},
                             std::nullopt);
  CHECK(r.ok());
  CHECK(r.out == "value 1\n");
  r = runner.run({Step{.argv = {"sh", "-c", "echo no such table >&2; exit 2"}}, Step{.argv = {"echo", "never"}}},
                 std::nullopt);
  CHECK(r.status == PhaseStatus::kFailed);
  CHECK(r.error == "sh: exit 2: no such table");
  CHECK(r.out.empty());
}
