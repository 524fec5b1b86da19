// The policy check: the judgement of observed tasks against a variant's
// claims, and a watch of real servers and clients started here by the step
// runner (a client that resets its own policy is caught, by name).
#include "runner/run/policy_check.h"

#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

TaskState task(int tid, const std::string& comm, int policy, int nice = 0) {
  return {.pid = 100, .tid = tid, .comm = comm, .nice = nice, .start = "7", .policy = policy};
}

// A sleep that runs under a name of its own (see task_policies_test.cc).
std::string named_sleep(const test::TempDir& dir, const std::string& prefix) {
  const std::string comm = fmt::format("{}{}", prefix, ::getpid()).substr(0, 15);
  std::filesystem::create_symlink("/bin/sleep", dir.file(comm));
  return dir.file(comm);
}

}  // namespace

TEST_CASE("policy check: each task judged once against its role's claim") {
  ProcessKnobs claims{.server_policy = SchedPolicy{SCHED_BATCH, 5}};
  const PolicyCheckResult r = judge_policies(
      claims, {{"server",
                {task(1, "srv", SCHED_BATCH, 5), task(2, "srv", SCHED_OTHER, 5),
                 task(2, "srv", SCHED_OTHER, 5), task(3, "srv", SCHED_BATCH, 0)}},
               // The clients claim nothing: counted, not judged.
               {"client", {task(4, "cli", SCHED_IDLE), task(4, "cli", SCHED_IDLE)}}});
  CHECK(r.checked == std::map<std::string, int>{{"client", 1}, {"server", 3}});
  CHECK(r.wrong ==
        std::vector<std::string>{
            "srv (pid 100, tid 2): SCHED_OTHER nice 5, claimed SCHED_BATCH nice 5 (server)",
            "srv (pid 100, tid 3): SCHED_BATCH nice 0, claimed SCHED_BATCH nice 5 (server)"});
  CHECK(r.error() ==
        "policy check: 2 of the workload's tasks did not have the claimed policy: srv (pid 100, "
        "tid 2): SCHED_OTHER nice 5, claimed SCHED_BATCH nice 5 (server); srv (pid 100, tid 3): "
        "SCHED_BATCH nice 0, claimed SCHED_BATCH nice 5 (server)");
  // Many wrong: the first five named, the rest counted.
  std::vector<TaskState> many;
  for (int i = 0; i < 8; ++i) many.push_back(task(10 + i, "db", SCHED_OTHER));
  const PolicyCheckResult m =
      judge_policies({.tasks = TaskPolicyKnob{"db", {SCHED_BATCH, {}}}}, {{"tasks", many}});
  CHECK(m.error().ends_with(
      "db (pid 100, tid 14): SCHED_OTHER, claimed SCHED_BATCH (tasks) and 3 more"));
  CHECK(judge_policies(claims, {{"server", {}}}).error().empty());
}

TEST_CASE(
    "policy check: real servers and clients watched, a client that resets its policy caught") {
  test::TempDir dir;
  LocalHost host;
  const Pair pair{host, host, "127.0.0.1"};
  const std::string server = named_sleep(dir, "pcsrv");
  const std::string client = named_sleep(dir, "pccli");
  const std::string server_comm = std::filesystem::path(server).filename();
  const std::string client_comm = std::filesystem::path(client).filename();
  const ProcessKnobs claims{.policy = SchedPolicy{SCHED_BATCH, {}},
                            .server_policy = SchedPolicy{SCHED_BATCH, {}}};
  StepRunner servers(pair);
  REQUIRE(servers.run({Step{.argv = {server, "60"}, .measured = false, .background = true}}, claims)
              .ok());
  REQUIRE(servers.groups().size() == 1);
  REQUIRE(servers.groups()[0].pgid);

  const auto watched = [&](const std::vector<std::string>& client_argv) {
    PolicyWatch watch(pair, claims, {client_comm, server_comm}, servers.groups(),
                      dir.path().string());
    watch.start();
    StepRunner steps(pair);
    steps.on_group([&](const StepRunner::Group& g) { watch.add_group(g); });
    REQUIRE(steps.run({Step{.argv = client_argv}}, claims).ok());
    return watch.finish(steps.groups());
  };
  // The client runs 2.5 s: the poller (once a second) sees it.
  const PolicyCheckResult ok = watched({client, "2.5"});
  CHECK(ok.wrong.empty());
  CHECK(ok.checked.at("server") == 1);
  CHECK(ok.checked.at("client") == 1);
  // chrt resets the policy before it execs the client: caught, by name.
  const PolicyCheckResult reset = watched({"chrt", "--other", "0", client, "2.5"});
  REQUIRE(reset.wrong.size() == 1);
  CHECK(reset.wrong[0].starts_with(client_comm + " (pid "));
  CHECK(reset.wrong[0].ends_with("SCHED_OTHER, claimed SCHED_BATCH (client)"));
  CHECK(reset.checked.at("server") == 1);
  servers.stop_background();
}
