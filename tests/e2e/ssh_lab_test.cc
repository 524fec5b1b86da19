// SSH hosts against real sshds in two network namespaces (tests/support/
// netns): quoting, files, process groups, dropped connections, connection
// errors, knobs, and a real SUT/loadgen tbench run driven by schedlab.
// Needs root; skipped with the lab's reason otherwise.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <tuple>

#include "base/text.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/config/config.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/locks.h"
#include "runner/hosts/package_versions.h"
#include "runner/hosts/ssh_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/config_run.h"
#include "tests/support/netns_lab.h"
#include "tests/support/one_line.h"
#include "tests/support/run_processes.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

test::NetnsLab& lab() {
  static test::NetnsLab instance;
  return instance;
}

#define REQUIRE_LAB()                                             \
  do {                                                            \
    if (lab().skip_reason()) SCHEDLAB_SKIP(*lab().skip_reason()); \
  } while (0)

SshOptions options() {
  return {.identity_file = lab().env("KEY"), .known_hosts = lab().env("KNOWN_HOSTS")};
}

SshHost sut() { return SshHost(*parse_ssh_url(lab().sut_url()), options()); }

// Alive and not a zombie: pid 1 here may reap orphans late.
bool remote_alive(Host& h, const std::string& pid) {
  const auto status = h.read_file("/proc/" + pid + "/status");
  return status && status->find("State:\tZ") == std::string::npos;
}

// Running (not zombie) processes with this exact command name inside the
// lab's own namespaces (tests/support/netns/lab.sh: sl-sut, sl-lg): what
// the test's SSH commands started, not what else runs on the machine.
int running(const std::string& comm) {
  LocalHost local;
  int n = 0;
  for (const char* ns : {"sl-sut", "sl-lg"}) {
    std::istringstream pids(local.run({.argv = {"ip", "netns", "pids", ns}}).out);
    for (std::string pid; pids >> pid;) {
      const auto status = local.read_file("/proc/" + pid + "/status");
      if (!status || status->find("State:\tZ") != std::string::npos) continue;
      const auto name = local.read_file("/proc/" + pid + "/comm");
      if (name && *name == comm + "\n") ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("ssh URLs parse") {
  auto t = parse_ssh_url("ssh://root@10.0.0.1:2222");
  REQUIRE(t);
  CHECK(t->user == "root");
  CHECK(t->host == "10.0.0.1");
  CHECK(t->port == 2222);
  CHECK(t->url() == "ssh://root@10.0.0.1:2222");
  CHECK(parse_ssh_url("ssh://sut1")->url() == "ssh://sut1");
  CHECK_FALSE(parse_ssh_url("sut1"));
  CHECK_FALSE(parse_ssh_url("ssh://root@sut1:99999"));
  CHECK_FALSE(parse_ssh_url("ssh://ro ot@sut1"));
  CHECK_FALSE(parse_ssh_url("ssh://sut1;reboot"));
  // 1 MiB: std::regex overflowed the stack here; Boost.Regex answers.
  const std::string long_host(1 << 20, 'a');
  CHECK(parse_ssh_url("ssh://" + long_host)->host == long_host);
  CHECK_FALSE(parse_ssh_url("ssh://" + long_host + ";"));
}

TEST_CASE(
    "an ssh URL whose host or user starts with '-' is no host: ssh would take it for an option") {
  CHECK_FALSE(parse_ssh_url("ssh://-V"));
  CHECK_FALSE(parse_ssh_url("ssh://-Fevil.conf"));
  CHECK_FALSE(parse_ssh_url("ssh://-oProxyCommand@sut1"));
  CHECK(ssh_url_option_note("ssh://-V") ==
        " (the host '-V' starts with '-': ssh would take it for an option)");
  CHECK(ssh_url_option_note("ssh://-Fevil.conf:2222") ==
        " (the host '-Fevil.conf' starts with '-': ssh would take it for an option)");
  CHECK(ssh_url_option_note("ssh://-oX@sut1") ==
        " (the user '-oX' starts with '-': ssh would take it for an option)");
  CHECK(ssh_url_option_note("ssh://sut1") == "");
  CHECK(ssh_url_option_note("sut1") == "");
  // A '-' inside a name is a name.
  CHECK(parse_ssh_url("ssh://build-bot@sut-1.lab")->host == "sut-1.lab");
}

TEST_CASE("every byte of every argument reaches the remote side unchanged (property)", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  // "--" ends ssh's options before the destination: nothing a URL names is
  // read as one.
  const auto client = host.ssh_argv("true");
  REQUIRE(client.size() > 3);
  CHECK(client[client.size() - 3] == "--");
  const auto target = parse_ssh_url(lab().sut_url());
  CHECK(client[client.size() - 2] ==
        (target->user.empty() ? "" : target->user + "@") + target->host);
  CHECK(client.back() == "true");
  // Characters the remote shell would otherwise interpret, plus UTF-8.
  const std::string alphabet = " \t\n'\"$`;&|*?[]{}()<>\\!#~%^=,.-_aZ09\xc3\xa9";
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1), len(0, 12);
  std::vector<std::string> args = {"", "'", "''", "\\'", "$(touch /tmp/schedlab-pwned)", "`id`",
                                   "a b", "*", "-n", "--", "\n", "x;y", "$HOME", "%s"};
  for (int i = 0; i < 200; ++i) {
    std::string a;
    for (std::size_t n = len(rng); n > 0; --n) a += alphabet[pick(rng)];
    args.push_back(a);
  }
  for (std::size_t start = 0; start < args.size(); start += 40) {
    const std::vector<std::string> batch(args.begin() + start,
                                         args.begin() + std::min(args.size(), start + 40));
    // printf's own escape: \0 in the format prints a NUL after each.
    std::vector<std::string> argv = {"printf", "%s\\0"};
    argv.insert(argv.end(), batch.begin(), batch.end());
    const auto r = host.run({.argv = argv, .timeout = 30s});
    REQUIRE(r.ok());
    std::string expected;
    for (const auto& a : batch) expected += a + '\0';
    CHECK(r.out == expected);
  }
  CHECK(host.run({.argv = {"test", "-e", "/tmp/schedlab-pwned"}}).exit_code == 1);
}

TEST_CASE("remote files: write, read back, missing, list, and stdin reaches the command", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  const std::string path = "/tmp/schedlab ssh 'test' file";
  const std::string content = "line 1\n$HOME `x` 'q'\n";
  host.write_file(path, content);
  CHECK(host.read_file(path) == content);
  CHECK(host.read_file("/tmp/schedlab-no-such-file") == std::nullopt);
  CHECK_THROWS_AS(host.write_file("/nonexistent-dir/x", "1"), HostError);
  // Several at once (one round trip), each as read_file reads it: a file
  // with no newline at its end, an empty one, a missing one, a directory
  // (its error, as read_file throws it), in the order asked.
  host.write_file("/tmp/schedlab-no-newline", "a\n\nb");
  host.write_file("/tmp/schedlab-empty", "");
  const auto many = host.read_files({path, "/tmp/schedlab-no-newline", "/tmp/schedlab-no-such-file",
                                     "/tmp", "/tmp/schedlab-empty", path});
  REQUIRE(many.size() == 6);
  CHECK(many[0].text == content);
  CHECK(many[1].text == "a\n\nb");
  CHECK_FALSE(many[2].text);
  CHECK(many[2].error.empty());
  CHECK_FALSE(many[3].text);
  CHECK(many[3].error.starts_with(host.name() + ": /tmp: "));
  CHECK(many[3].error.find("directory") != std::string::npos);
  CHECK(many[4].text == "");
  CHECK(many[5].text == content);
  host.run({.argv = {"rm", "-f", "--", "/tmp/schedlab-no-newline", "/tmp/schedlab-empty"}});
  const auto r = host.run({.argv = {"cat"}, .stdin_data = "fed through stdin\n"});
  CHECK(r.out == "fed through stdin\n");
  host.run({.argv = {"rm", "-f", "--", path}});
  CHECK_FALSE(host.list_dir("/proc/sys/kernel").empty());
  CHECK(host.find_program("sh").has_value());
  CHECK_FALSE(host.find_program("schedlab-no-such-tool").has_value());
  const auto missing = host.run({.argv = {"schedlab-no-such-tool"}});
  CHECK(missing.outcome == ExecResult::Outcome::kSpawnFailed);
  // Package versions (the run manifest's tools): the SUT's own dpkg, asked
  // once for all of them; this lab's SUT shares this machine's files.
  LocalHost local;
  const std::vector<std::string> packages = {"bash", "schedlab-no-such-package", "coreutils"};
  const auto remote = installed_versions(host, packages);
  CHECK(remote.size() == 2);
  CHECK(remote == installed_versions(local, packages));
}

TEST_CASE("exit codes, stderr and the variant's policy cross the connection", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  auto r = host.run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 7"}});
  CHECK(r.exit_code == 7);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  Command cmd{.argv = {"sh", "-c", "chrt -p $$; cut -d' ' -f19 /proc/self/stat"}};
  cmd.policy = SchedPolicy{SCHED_BATCH, 3};
  r = host.run(cmd);
  CHECK(r.out.find("SCHED_BATCH") != std::string::npos);
  CHECK(r.out.find("\n3\n") != std::string::npos);
  {
    // The nice value is absolute: under an sshd at nice 4 (the lab's own
    // listener, by its pidfile), `nice: 3` is 3, not 4 + 3.
    std::ifstream pidfile(lab().dir() + "/sshd_sut.pid");
    pid_t sshd = 0;
    REQUIRE(pidfile >> sshd);
    errno = 0;
    const int before = ::getpriority(PRIO_PROCESS, sshd);
    REQUIRE(errno == 0);
    REQUIRE(::setpriority(PRIO_PROCESS, sshd, 4) == 0);
    r = host.run(cmd);
    ::setpriority(PRIO_PROCESS, sshd, before);
    CHECK(r.out.find("\n3\n") != std::string::npos);
  }
  // The affinity knob, through taskset, together with the policy.
  cmd = Command{.argv = {"grep", "Cpus_allowed_list", "/proc/self/status"}, .cpus = {0}};
  cmd.policy = SchedPolicy{SCHED_BATCH, std::nullopt};
  r = host.run(cmd);
  CHECK(r.out == "Cpus_allowed_list:\t0\n");
}

TEST_CASE("a remote timeout kills the remote process group, grandchildren included", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  const auto r = host.run({.argv = {"sh", "-c", "sleep 300 & echo $! > /tmp/schedlab-gc.pid; sleep 300"},
                           .timeout = 1500ms});
  CHECK(r.outcome == ExecResult::Outcome::kTimedOut);
  const std::string pid = host.read_file("/tmp/schedlab-gc.pid").value();
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i, std::this_thread::sleep_for(100ms))
    gone = !remote_alive(host, pid.substr(0, pid.size() - 1));
  CHECK(gone);
  host.run({.argv = {"rm", "-f", "/tmp/schedlab-gc.pid"}});
}

// What ends a background command, as its result says: the remote command
// killed (the wrapper's watcher's TERM, a kill from elsewhere) is the
// wrapper's exit 128+N, never ssh's 255; 255 with a silent ssh is the
// wrapper's own shell killed (the connection still up) or the shared
// connection gone, and the result says which. Its output so far is read
// here with no round trip (the SUT lock waits for its line so).
TEST_CASE("a background command killed, or its wrapper killed: exit 143, or 255 that says why",
          "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  const auto started = [&] {
    const auto id = host.start_background(
        {.argv = {"sh", "-c", "echo $$ $PPID; exec sleep 302"}, .interruptible = false});
    std::string said;
    for (int i = 0; i < 400 && said.find('\n') == std::string::npos; ++i) {
      said = host.background_output(id).value_or("");
      std::this_thread::sleep_for(5ms);
    }
    REQUIRE(said.find('\n') != std::string::npos);
    std::istringstream in(said);
    std::string command, wrapper;
    in >> command >> wrapper;
    return std::tuple{id, command, wrapper};
  };
  const auto finished = [&](Host::BackgroundId id) {
    std::optional<ExecResult> r;
    for (int i = 0; i < 400 && !r; ++i, std::this_thread::sleep_for(10ms))
      r = host.poll_background(id);
    REQUIRE(r);
    return *r;
  };
  const auto [id1, command1, wrapper1] = started();
  REQUIRE(host.run({.argv = {"kill", "-TERM", "--", "-" + command1}}).ok());  // its group
  const ExecResult term = finished(id1);
  CHECK(term.describe() == "exit 143");
  // The wrapper's shell itself; sshd ends the session once the command,
  // which holds its output, is gone too.
  const auto [id2, command2, wrapper2] = started();
  REQUIRE(host.run({.argv = {"kill", "-KILL", wrapper2}}).ok());
  REQUIRE(host.run({.argv = {"kill", "-TERM", "--", "-" + command2}}).ok());
  const ExecResult killed = finished(id2);
  CHECK(killed.describe() == "exit 255");
  CHECK(killed.err == "the connection is up: the remote shell died of a signal");
}

// A command that exits 255 itself (netperf without a netserver, exit(-1))
// is that command's exit, neither ssh failing nor its shell killed
// (hostile10: "ssh failed: said", and a silent one "the connection is up:
// the remote shell died of a signal").
TEST_CASE("a command's own exit 255 is its exit, in the foreground and the background", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  const ExecResult r = host.run({.argv = {"sh", "-c", "echo said >&2; exit 255"}});
  CHECK(r.describe() == "exit 255");
  CHECK(r.err == "said\n");
  const auto id = host.start_background({.argv = {"sh", "-c", "exit 255"}});
  std::optional<ExecResult> done;
  for (int i = 0; i < 400 && !done; ++i, std::this_thread::sleep_for(10ms))
    done = host.poll_background(id);
  REQUIRE(done);
  CHECK(done->describe() == "exit 255");
  CHECK(done->err == "");  // printed when it fails
}

TEST_CASE("a dropped connection leaves no orphan on the remote host", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  host.run({.argv = {"rm", "-f", "/tmp/schedlab-bg.pid"}});
  const auto id = host.start_background({.argv = {"sh", "-c", "echo $$ > /tmp/schedlab-bg.pid; exec sleep 301"}});
  std::string pid;
  for (int i = 0; i < 50 && pid.empty(); ++i, std::this_thread::sleep_for(100ms))
    pid = host.read_file("/tmp/schedlab-bg.pid").value_or("");
  REQUIRE_FALSE(pid.empty());
  pid.pop_back();
  REQUIRE(remote_alive(host, pid));
  // Kill the local ssh client as a dropped link would: only the client,
  // whose argv starts with the ssh binary, not the remote processes.
  LocalHost local;
  CHECK(local.run({.argv = {"pkill", "-KILL", "-f", "^/usr/bin/ssh .*sleep 301"}}).ok());
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i, std::this_thread::sleep_for(100ms)) gone = !remote_alive(host, pid);
  CHECK(gone);
  CHECK(host.poll_background(id).has_value());
  host.run({.argv = {"rm", "-f", "/tmp/schedlab-bg.pid"}});
}

// hostile18: in the shared /tmp, a user of the SUT who read the pidfile's
// name on the wrapper's command line could plant a link there (written
// through) or a pid of their choosing (journaled, then killed).
TEST_CASE("a background command's pidfile is in the host's own 0700 folder, removed with it",
          "[netns]") {
  REQUIRE_LAB();
  std::string dir;
  {
    SshHost host = sut();
    const std::string user(trim(host.run({.argv = {"id", "-un"}}).out));
    // The command's parent is the wrapper, whose arguments name the pidfile.
    const auto id = host.start_background(
        {.argv = {"sh", "-c", "tr '\\0' '\\n' < /proc/$PPID/cmdline; exec sleep 30"}});
    std::string args;
    for (int i = 0; i < 200 && args.find("\n/tmp/schedlab-bg-") == std::string::npos; ++i) {
      std::this_thread::sleep_for(10ms);
      args = host.background_output(id).value_or("");
    }
    const auto at = args.find("\n/tmp/schedlab-bg-");
    REQUIRE(at != std::string::npos);
    const std::string pidfile = args.substr(at + 1, args.find('\n', at + 1) - at - 1);
    dir = pidfile.substr(0, pidfile.rfind('/'));
    CHECK(dir.starts_with("/tmp/schedlab-bg-"));
    CHECK(host.run({.argv = {"stat", "-c", "%a %U %F", dir}}).out ==
          "700 " + user + " directory\n");
    host.stop_background(id);
  }
  CHECK(sut().run({.argv = {"test", "-e", dir}}).exit_code == 1);
}

TEST_CASE("connection failures are clear errors before anything runs", "[netns]") {
  REQUIRE_LAB();
  test::TempDir dir;
  SECTION("unknown host key") {
    test::write_text(dir.file("empty_known_hosts"), "");
    CHECK_THROWS_WITH(SshHost(*parse_ssh_url(lab().sut_url()),
                              {.identity_file = lab().env("KEY"), .known_hosts = dir.file("empty_known_hosts")}),
                      Catch::Contains("cannot connect: Host key verification failed."));
  }
  SECTION("refused key") {
    LocalHost local;
    REQUIRE(local.run({.argv = {"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.file("other")}}).ok());
    CHECK_THROWS_WITH(SshHost(*parse_ssh_url(lab().sut_url()),
                              {.identity_file = dir.file("other"), .known_hosts = lab().env("KNOWN_HOSTS")}),
                      Catch::Contains("Permission denied (publickey)"));
  }
  SECTION("unreachable host") {
    CHECK_THROWS_WITH(SshHost(*parse_ssh_url("ssh://root@10.231.0.3"),
                              {.identity_file = lab().env("KEY"), .known_hosts = lab().env("KNOWN_HOSTS"),
                               .connect_timeout = 3s}),
                      Catch::Contains("ssh://root@10.231.0.3: cannot connect:"));
  }
}

TEST_CASE("sysctl knobs over SSH are journaled, verified and restored", "[netns]") {
  REQUIRE_LAB();
  SshHost host = sut();
  const std::string knob = "kernel.sched_autogroup_enabled";
  test::TempDir dir;
  Store store(dir.file("k.db"));
  const auto run = store.runs_table().create_run(
      {.name = "k", .config_path = "", .config_text = "", .config_sha256 = ""});
  const std::string original = read_sysctl(host, knob);
  const std::string flipped = original == "0" ? "1" : "0";
  {
    KnobJournal journal(store.journal(), host, run);
    journal.apply_sysctl({knob, flipped, 1});
    CHECK(read_sysctl(host, knob) == flipped);
    CHECK(store.journal().unrestored(host.name()).size() == 1);
    CHECK_THROWS_WITH(journal.apply_sysctl({knob, "banana", 1}), Catch::Contains("Invalid argument"));
  }
  CHECK(read_sysctl(host, knob) == original);
  CHECK(store.journal().unrestored(host.name()).empty());
}

TEST_CASE("tbench: server on the SUT, client on the loadgen, driven over SSH", "[netns]") {
  REQUIRE_LAB();
  test::TempDir dir;
  const auto [cfg, db, run, its] = test::run_config(
      dir, "tb",
      lab().pair_yaml() +
          "iterations: 2\nworkloads:\n  - tbench: {clients: [1, 2], duration: 3s}\n",
      180s);
  REQUIRE(its.size() == 4);
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "ok");
    CHECK_FALSE(it.samples.empty());
  }
  const auto m = nlohmann::json::parse(run.manifest_json);
  CHECK(m["sut"] == lab().sut_url());
  // Nothing of tbench is left in either namespace.
  CHECK(running("tbench_srv") == 0);
  CHECK(running("tbench") == 0);
}

TEST_CASE("the policy check over SSH judges the measured step's group, not a namesake", "[netns]") {
  // Hostile pass 3: with no remote group, the check judged every task named
  // like the step's program, a stranger's process included. The lab's
  // namespaces share this machine's PIDs: the decoy runs where the SUT's
  // poller looks.
  REQUIRE_LAB();
  test::TempDir dir;
  const std::string decoy = dir.file("hackbench");
  std::filesystem::copy_file("/bin/sleep", decoy);
  std::filesystem::permissions(decoy, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  LocalHost local;
  const auto decoy_id = local.start_background({.argv = {decoy, "300"}});
  const auto [cfg, db, run, its] =
      test::run_config(dir, "ns",
                       "hosts:\n  sut: " + lab().sut_url() + "\n" + lab().ssh_yaml() +
                           "iterations: 2\nworkloads:\n  - hackbench: {groups: [1], loops: 20000}\n"
                           "variants:\n  batch: {policy: batch}\n",
                       120s);
  local.stop_background(decoy_id);
  REQUIRE(its.size() == 2);
  for (const auto& it : its) CHECK(to_string(it.status) == "ok");
  const auto checks = nlohmann::json::parse(run.manifest_json).at("policy_checks").at("batch");
  INFO(checks.dump());
  CHECK(checks.at("failed_iterations") == 0);
  // hackbench's tasks, seen by the poller while they ran (20000 loops: a
  // second or more).
  CHECK(checks.at("tasks_checked").at("client").get<int>() >= 2);
}

// netperf across the namespaces: netserver in the SUT's, netperf in the
// loadgen's, the data connection on the second reserved port.
TEST_CASE("netperf: netserver on the SUT, netperf on the loadgen, driven over SSH", "[netns][long]") {
  REQUIRE_LAB();
  if (!LocalHost().find_program("netperf") || !LocalHost().find_program("netserver"))
    SCHEDLAB_SKIP("netperf is not installed (Debian non-free package netperf: scripts/install-deps.sh)");
  test::TempDir dir;
  const auto [cfg, db, run, its] = test::run_config(
      dir, "np",
      lab().pair_yaml() +
          "iterations: 2\nworkloads:\n  - netperf: {test: [TCP_STREAM, UDP_STREAM, TCP_RR], "
          "duration: 2s, latency: true}\n",
      180s);
  REQUIRE(its.size() == 6);
  const std::string sut_host = parse_ssh_url(lab().sut_url())->host;
  for (const auto& it : its) {
    INFO(it.block << ": " << it.error << it.stdout_text);
    CHECK(to_string(it.status) == "ok");
    CHECK_FALSE(it.samples.empty());
    // Against the SUT's address, the data port pinned (netperf shows port 0 otherwise).
    CHECK(it.stdout_text.find("to " + sut_host + " () port ") != std::string::npos);
    CHECK(it.stdout_text.find("() port 0 ") == std::string::npos);
  }
  CHECK(running("netserver") == 0);
  CHECK(running("netperf") == 0);
}

TEST_CASE("pgbench: cluster on the SUT, client on the loadgen over TCP, driven over SSH", "[netns][long]") {
  REQUIRE_LAB();
  test::TempDir dir;
  const auto [cfg, db, run, its] =
      test::run_config(dir, "pg",
                       lab().pair_yaml() +
                           "iterations: 2\nworkloads:\n  - pgbench: {clients: [2], duration: 3s, "
                           "scale: 1, client: loadgen}\n",
                       300s);
  REQUIRE(its.size() == 2);
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "ok");
    CHECK(it.stderr_text.find("progress:") != std::string::npos);
    bool tps = false;
    for (const auto& s : it.samples) tps = tps || s.metric == "tps";
    CHECK(tps);
  }
  // No server and no cluster of this run left behind (the namespaces share
  // this host's /tmp and process table).
  const auto dirs = test::workdirs(db, run.id);
  REQUIRE_FALSE(dirs.empty());
  CHECK(test::processes_in(dirs).empty());
  for (const auto& d : dirs) CHECK_FALSE(std::filesystem::exists(d));
}

TEST_CASE("sysbench: MariaDB on the SUT, sysbench on the loadgen over TCP, driven over SSH", "[netns][long]") {
  REQUIRE_LAB();
  test::TempDir dir;
  const auto [cfg, db, run, its] = test::run_config(
      dir, "sb",
      lab().pair_yaml() +
          "iterations: 2\nworkloads:\n  - sysbench: {test: [oltp_read_only], "
          "threads: [1, 2], duration: 3s, tables: 2, table_size: 1000, client: loadgen}\n",
      600s);
  REQUIRE(its.size() == 4);
  std::map<std::string, double> tps;
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "ok");
    double t = 0, errors = -1;
    for (const auto& s : it.samples) {
      if (s.metric == "tps") t = s.value;
      if (s.metric == "errors") errors = s.value;
    }
    CHECK(t > 0);
    CHECK(errors == 0);
    tps[it.row] += t / 2;
    // The client ran on the loadgen: sysbench's TCP connection to the SUT.
    CHECK(it.stdout_text.find("transactions:") != std::string::npos);
  }
  WARN("sysbench oltp_read_only over SSH (client on the loadgen over TCP), tps by threads: 1 -> "
       << tps["1"] << ", 2 -> " << tps["2"]);
  const auto dirs = test::workdirs(db, run.id);
  REQUIRE_FALSE(dirs.empty());
  CHECK(test::processes_in(dirs).empty());
  for (const auto& d : dirs) CHECK_FALSE(std::filesystem::exists(d));
}

TEST_CASE("pairs: one plan on two pairs at once, one run, compare pooled and by pair", "[netns]") {
  REQUIRE_LAB();
  test::TempDir dir;
  const std::string cfg = dir.file("pairs.yaml"), db = dir.file("pairs.db");
  // Pair ns: SUT and loadgen in the two namespaces; pair self: this host.
  // A third pair cannot be reached: it fails alone and is recorded.
  test::write_text(
      cfg, "pairs:\n  - {name: ns, sut: " + lab().sut_url() + ", loadgen: " + lab().loadgen_url() +
               "}\n  - {name: self, sut: local}\n  - {name: gone, sut: ssh://root@10.231.0.99}\n" +
               lab().ssh_yaml() + "  connect_timeout: 1s\n" +
               "iterations: 2\nworkloads:\n  - hackbench: {groups: [1], loops: 50}\n"
               "variants:\n  default: {}\n  batch: {policy: batch}\n");
  LocalHost local;
  const auto dry = local.run({.argv = {SCHEDLAB_BINARY, "run", cfg, "--dry-run"}});
  CHECK(test::one_line(dry.out).find("on each of 3 pairs at once") != std::string::npos);
  CHECK(dry.out.find("pair ns: sut " + lab().sut_url() + ", loadgen " + lab().loadgen_url()) !=
        std::string::npos);
  CHECK(dry.out.find("pair self: sut local, loadgen local") != std::string::npos);

  const auto start = std::chrono::steady_clock::now();
  const auto r = local.run(
      {.argv = {SCHEDLAB_BINARY, "run", cfg, "--db", db, "--name", "p"}, .timeout = 120s});
  WARN("two pairs of hackbench: "
       << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
  INFO(r.err);
  CHECK(r.exit_code == 1);  // the unreachable pair
  CHECK(r.err.find("pair gone: ssh://root@10.231.0.99: cannot connect") != std::string::npos);
  Store store(db);
  const auto run = store.runs_table().find_run_by_name("p");
  REQUIRE(run);
  CHECK(to_string(run->status) == "failed");
  std::map<std::string, int> per_pair;
  for (const auto& it : store.iterations_table().iterations(run->id)) {
    CHECK(to_string(it.status) == "ok");
    ++per_pair[it.pair];
  }
  CHECK(per_pair == std::map<std::string, int>{{"ns", 4}, {"self", 4}});
  const auto m = nlohmann::json::parse(run->manifest_json);
  CHECK(m["pairs"]["ns"]["sut"] == lab().sut_url());
  CHECK(m["pairs"]["ns"]["kernel_release"].is_string());
  CHECK(m["pairs"]["ns"]["state_after"].is_object());
  CHECK(m["pairs"]["self"]["loadgen"] == "local");
  CHECK(m["pairs"]["gone"]["error"].get<std::string>().find("cannot connect") != std::string::npos);

  // Pooled: one column per variant with both pairs' samples.
  const auto pooled =
      local.run({.argv = {SCHEDLAB_BINARY, "compare", "p", "--db", db, "--format", "json"}});
  INFO(pooled.err);
  REQUIRE(pooled.ok());
  const auto pj = nlohmann::json::parse(pooled.out);
  REQUIRE(pj["columns"].size() == 2);
  CHECK(pj["blocks"][0]["rows"][0]["cells"][0]["n"] == 4);
  CHECK_FALSE(pj["columns"][0].contains("pair"));
  // By pair: one column per variant and pair.
  const auto split = local.run(
      {.argv = {SCHEDLAB_BINARY, "compare", "p", "--db", db, "--by-pair", "--format", "json"}});
  REQUIRE(split.ok());
  const auto sj = nlohmann::json::parse(split.out);
  std::vector<std::string> labels;
  for (const auto& c : sj["columns"]) labels.push_back(c["label"]);
  CHECK(labels == std::vector<std::string>{"default@ns", "default@self", "batch@ns", "batch@self"});
  CHECK(sj["columns"][1]["pair"] == "self");
  for (const auto& cell : sj["blocks"][0]["rows"][0]["cells"]) CHECK(cell["n"] == 2);
  const auto text = local.run({.argv = {SCHEDLAB_BINARY, "compare", "p", "--db", db, "--by-pair"}});
  CHECK(text.out.find("default@ns") != std::string::npos);
  CHECK(text.out.find("batch@self") != std::string::npos);

  // Resume continues each pair: the unreachable one is still unreachable,
  // the others are complete and skipped.
  const auto resumed =
      local.run({.argv = {SCHEDLAB_BINARY, "run", "--resume", "p", "--db", db}, .timeout = 60s});
  INFO(resumed.err);
  CHECK(resumed.err.find("0 iterations measured") != std::string::npos);
  CHECK(store.iterations_table().iterations(run->id).size() == 8);
}

TEST_CASE("the SUT lock over SSH: another process is refused; the lock dies with its holder", "[netns]") {
  REQUIRE_LAB();
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t holder = ::fork();
  REQUIRE(holder >= 0);
  if (holder == 0) {
    // A schedlab about to be killed by -9: its ssh client goes with it
    // (PR_SET_PDEATHSIG), the remote wrapper then kills the flock.
    try {
      SshHost host = sut();
      const auto lock = SutLock::acquire(host, "run 1 'a'", "/a.db");
      [[maybe_unused]] auto w = ::write(ready[1], "1", 1);
      ::pause();
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(ready[1]);
  char c = 0;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  ::close(ready[0]);
  SshHost host = sut();
  CHECK_THROWS_WITH(SutLock::acquire(host, "run 2 'b'", "/b.db"),
                    Catch::Contains(lab().sut_url() + " is in use by run 1 'a' (database /a.db, PID " +
                                    std::to_string(holder) + " on host "));
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  std::shared_ptr<SutLock> lock;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (!lock && std::chrono::steady_clock::now() < give_up) {
    try {
      lock = SutLock::acquire(host, "run 2 'b'", "/b.db");
    } catch (const SutBusy&) {
      std::this_thread::sleep_for(100ms);
    }
  }
  CHECK(lock);
}
