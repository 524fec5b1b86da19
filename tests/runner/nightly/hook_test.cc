// Hooks on real processes (placeholders, environment, working directory, a
// hanging hook killed with its children), the kernel check against this
// machine's own kernel, and waiting for a real sshd of the netns lab that
// starts late (the SUT coming back from a reboot).
#include "runner/nightly/hook.h"

#include <signal.h>
#include <sys/utsname.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "base/placeholders.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/ssh_config.h"
#include "tests/support/netns_lab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;

namespace {

std::string this_release() {
  utsname u{};
  ::uname(&u);
  return u.release;
}

}  // namespace

TEST_CASE("placeholders are replaced inside arguments, other braces are kept") {
  const HookValues v{{"kernel", "6.1.0-28-amd64"}, {"commit", "abc1234"}};
  CHECK(substitute("OUT=/b/{kernel}/x-{commit}", v) == "OUT=/b/6.1.0-28-amd64/x-abc1234");
  CHECK(substitute("${HOME} {{kernel}} {} {Kernel} {1}", v) == "${HOME} {kernel} {} {Kernel} {1}");
  // An unclosed brace is most likely a mistyped placeholder (base/placeholders.h).
  CHECK_THROWS_WITH(substitute("{kernel", v), "argv '{kernel': '{' without '}'");
  CHECK_THROWS_AS(unknown_placeholders({"ok", "{kernel"}, {"kernel"}), PlaceholderError);
  CHECK_THROWS_WITH(substitute("--sha={sha}", v),
                    "'--sha={sha}': unknown placeholder {sha} (known: {commit}, {kernel})");
  CHECK(unknown_placeholders({"{a}{b}", "{kernel}", "{a}"}, {"kernel"}) ==
        std::vector<std::string>{"a", "b"});
  CHECK(hook_environment(v) ==
        std::map<std::string, std::string>{{"SCHEDLAB_COMMIT", "abc1234"},
                                           {"SCHEDLAB_KERNEL", "6.1.0-28-amd64"}});
}

TEST_CASE("a hook runs as an argv with the values in its arguments and its environment") {
  test::TempDir dir;
  const std::string nasty = "v1; touch pwned $(id)";
  const HookResult r =
      run_hook({.argv = {"sh", "-c", "pwd; printf '%s|%s\\n' \"$1\" \"$SCHEDLAB_KERNEL\"", "sh",
                         "[{kernel}]"},
                .cwd = dir.path().string()},
               {{"kernel", nasty}});
  REQUIRE(r.ok());
  CHECK(r.output() == dir.path().string() + "\n[" + nasty + "]|" + nasty + "\n");
  CHECK(r.argv.back() == "[" + nasty + "]");
  CHECK_FALSE(std::filesystem::exists(dir.path() / "pwned"));
}

TEST_CASE("a failing hook is described with the end of its output") {
  const HookResult r =
      run_hook({.argv = {"sh", "-c", "echo building; echo 'cc: error: x.c' >&2; exit 2", "{name}"}},
               {{"name", "slow"}});
  CHECK_FALSE(r.ok());
  CHECK(
      r.describe() ==
      "hook sh -c echo building; echo 'cc: error: x.c' >&2; exit 2 slow: exit 2:\ncc: error: x.c");
  CHECK(r.output() == "building\ncc: error: x.c\n");
  const HookResult missing = run_hook({.argv = {"./no-such-hook.sh"}}, {});
  CHECK_FALSE(missing.ok());
  CHECK_THAT(missing.describe(), Contains("could not start"));
  CHECK_THROWS_WITH(run_hook({.argv = {"x", "{kernel}"}}, {}),
                    Contains("unknown placeholder {kernel}"));
}

TEST_CASE("a hanging hook is killed at its timeout with everything it started") {
  test::TempDir dir;
  const std::string pidfile = dir.file("child.pid");
  const auto start = std::chrono::steady_clock::now();
  const HookResult r = run_hook(
      {.argv = {"sh", "-c", "sleep 300 & echo $! > \"$1\"; wait", "sh", pidfile}, .timeout = 1s},
      {});
  CHECK(std::chrono::steady_clock::now() - start < 10s);
  CHECK(r.exec.outcome == ExecResult::Outcome::kTimedOut);
  CHECK_THAT(r.describe(), Contains("killed at its timeout"));
  const std::string pid = test::read_text(pidfile);
  REQUIRE_FALSE(pid.empty());
  // The background sleep was in the hook's process group: gone too (or a
  // zombie: pid 1 here may reap orphans late). SIGKILL is delivered
  // asynchronously: polled, not a fixed wait.
  const auto gone = [&] {
    const auto status = LocalHost().read_file("/proc/" + std::to_string(std::stoi(pid)) + "/status");
    return !status || status->find("State:\tZ") != std::string::npos;
  };
  for (const auto until = std::chrono::steady_clock::now() + 10s; !gone() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(20ms);
  CHECK(gone());
}

TEST_CASE("the running kernel is checked against the expected release and sha") {
  LocalHost host;
  const std::string release = this_release();
  CHECK(verify_kernel(host, {.release = release}).release == release);
  CHECK_THROWS_WITH(verify_kernel(host, {.release = "6.13.0-rc1"}),
                    "local: runs kernel " + release +
                        ", expected 6.13.0-rc1 (the hook did not boot it; nothing measured)");
  // The sha from a user command (on the SUT), matched by prefix either way.
  const auto id =
      verify_kernel(host, {.sha = "1a2b3c4d5e6f", .sha_command = {"echo", "1a2b3c4d5e6f7788"}});
  CHECK(id.sha == "1a2b3c4d5e6f7788");
  CHECK_THROWS_WITH(verify_kernel(host, {.sha = "1a2b3c4", .sha_command = {"echo", "1a2b3c5"}}),
                    "local: runs kernel at 1a2b3c5 (from echo 1a2b3c5), expected 1a2b3c4");
  CHECK_THROWS_WITH(verify_kernel(host, {.sha = "1a2b3c4", .sha_command = {"echo", "1a2b"}}),
                    Contains("runs kernel at 1a2b "));
  CHECK_THROWS_WITH(verify_kernel(host, {.sha = "1a2b3c4", .sha_command = {"false"}}),
                    "local: sha command false: exit 1");
  // Debian's kernels carry no sha in /proc/version.
  CHECK_THROWS_WITH(
      verify_kernel(host, {.sha = "0123456789abcdef"}),
      Contains("expected kernel sha 0123456789abcdef not in /proc/version: Linux version"));
}

TEST_CASE("waiting for ssh gives up at the deadline with the last reason") {
  const auto start = std::chrono::steady_clock::now();
  // 127.0.0.1:1 refuses at once: several attempts, then the deadline.
  CHECK_THROWS_WITH(
      wait_for_ssh("ssh://root@127.0.0.1:1", {}, {.deadline = start + 3s, .poll = 500ms}),
      Contains("ssh://root@127.0.0.1:1: not answering on ssh after") &&
          Contains("Connection refused"));
  CHECK(std::chrono::steady_clock::now() - start < 8s);
  CHECK_THROWS_WITH(wait_for_ssh("sut1", {}, {.deadline = start + 1s}),
                    Contains("is not a host to wait for"));
}

TEST_CASE("waiting for ssh returns once a late sshd answers, and checks the boot", "[netns]") {
  static test::NetnsLab lab;
  if (lab.skip_reason()) {
    SCHEDLAB_SKIP(*lab.skip_reason());
  }
  test::TempDir dir;
  // Its own known_hosts: the late sshd listens on another port, so its key
  // is recorded as new (accept-new), the lab's file is left alone.
  std::filesystem::copy_file(lab.env("KNOWN_HOSTS"), dir.file("known_hosts"));
  const SshConfig ssh{.identity = lab.env("KEY"),
                      .known_hosts = dir.file("known_hosts"),
                      .host_key_policy = "accept-new",
                      .connect_timeout = 5s};
  const std::string sut_ip = lab.env("SUT_ADDR");
  // The lab SUT's sshd config, on port 2222 with a pid file of our own.
  std::string conf_text = test::read_text(lab.dir() + "/sshd_sut.conf");
  const auto listen = conf_text.find(sut_ip + ":22\n");
  REQUIRE(listen != std::string::npos);
  conf_text.replace(listen, sut_ip.size() + 4, sut_ip + ":2222\n");
  const auto pid_line = conf_text.find("PidFile ");
  REQUIRE(pid_line != std::string::npos);
  conf_text.replace(pid_line, conf_text.find('\n', pid_line) - pid_line,
                    "PidFile " + dir.file("sshd.pid"));
  const std::string conf = dir.file("sshd.conf");
  test::write_text(conf, conf_text);
  // sshd -D on port 2222 inside the SUT's namespace, started 2 s from now:
  // the SUT "coming back" while we poll.
  LocalHost local;
  const auto late = local.start_background(
      {.argv = {"sh", "-c", "sleep 2; exec ip netns exec \"$1\" /usr/sbin/sshd -D -f \"$2\"", "sh",
                lab.env("SUT_NETNS"), conf}});
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Host> host;
  REQUIRE_NOTHROW(host = wait_for_ssh("ssh://root@" + sut_ip + ":2222", ssh,
                                      {.deadline = start + 30s, .poll = 300ms}));
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(waited >= 1.5);
  CHECK(host->run({.argv = {"echo", "up"}}).out == "up\n");
  // The same boot does not count when the caller waits for a reboot.
  const std::string id = boot_id(*host);
  CHECK(id.size() == 36);
  CHECK_THROWS_WITH(
      wait_for_ssh(
          "ssh://root@" + sut_ip + ":2222", ssh,
          {.deadline = std::chrono::steady_clock::now() + 2s, .poll = 300ms, .not_boot_id = id}),
      Contains("still up in the boot before the hook"));
  host.reset();
  local.stop_background(late);
}
