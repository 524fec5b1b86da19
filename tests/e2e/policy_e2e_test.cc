// The policy a variant claims is the policy the work ran with, on the real
// dbench tbench: `policy: {server: batch}` puts tbench_srv (and every task
// it forks) under SCHED_BATCH and leaves the tbench client alone, as `ps
// -eLo cls` shows while the run goes on; the run's own check agrees and the
// manifest records it. Only this run's processes are looked at: the
// descendants of the schedlab process the test started.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

struct PsRow {
  int pid = 0, ppid = 0;
  std::string cls, comm;
};

std::vector<PsRow> ps(LocalHost& host) {
  const auto r = host.run({.argv = {"ps", "-eLo", "pid=,ppid=,cls=,comm="}});
  REQUIRE(r.ok());
  std::vector<PsRow> rows;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    PsRow row;
    if (l >> row.pid >> row.ppid >> row.cls && std::getline(l >> std::ws, row.comm))
      rows.push_back(row);
  }
  return rows;
}

// The rows of ROOT's descendants (threads included).
std::vector<PsRow> descendants(const std::vector<PsRow>& rows, int root) {
  std::map<int, int> parent;
  for (const auto& r : rows) parent[r.pid] = r.ppid;
  std::vector<PsRow> out;
  for (const auto& r : rows) {
    int p = r.ppid;
    for (int hops = 0; hops < 64 && p > 1; ++hops, p = parent.count(p) ? parent[p] : 0)
      if (p == root) {
        out.push_back(r);
        break;
      }
  }
  return out;
}

}  // namespace

TEST_CASE("policy: {server: batch} runs tbench_srv under SCHED_BATCH and the client as it was",
          "[heavy]") {
  LocalHost host;
  for (const char* tool : {"tbench", "tbench_srv", "ps"})
    if (!host.find_program(tool)) SCHEDLAB_SKIP(tool << " is not installed");
  test::TempDir dir;
  test::write_text(dir.file("t.yaml"), R"(iterations: 2
workloads:
  - tbench: {clients: [2], duration: 3s}
variants:
  server-batch:
    policy: {server: batch}
)");
  const std::string db = dir.file("t.db");
  // The class the client should keep: what this test (and so schedlab)
  // runs under, TS unless the test itself was started under chrt.
  std::string own_cls;
  for (const auto& r : ps(host))
    if (r.pid == ::getpid()) own_cls = r.cls;
  REQUIRE_FALSE(own_cls.empty());

  const auto id = host.start_background(
      {.argv = {SCHEDLAB_BINARY, "run", dir.file("t.yaml"), "--db", db, "--name", "sb"}});
  const auto schedlab_pid = host.background_pgid(id);
  REQUIRE(schedlab_pid);
  std::map<std::string, std::set<std::string>> classes;  // comm -> classes seen
  std::optional<ExecResult> done;
  for (int i = 0; i < 1200 && !(done = host.poll_background(id)); ++i) {
    for (const auto& r : descendants(ps(host), *schedlab_pid))
      if (r.comm == "tbench_srv" || r.comm == "tbench") classes[r.comm].insert(r.cls);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(done);
  INFO(done->out << done->err);
  REQUIRE(done->ok());
  CHECK(classes["tbench_srv"] == std::set<std::string>{"B"});
  CHECK(classes["tbench"] == std::set<std::string>{own_cls});

  // The run checked the same, and says what it checked.
  Store store(db);
  const auto run = store.runs_table().find_run_by_name("sb");
  REQUIRE(run);
  const auto its = store.iterations_table().iterations(run->id, false);
  REQUIRE(its.size() == 2);
  for (const auto& it : its) CHECK(to_string(it.status) == "ok");
  const auto checks =
      nlohmann::json::parse(run->manifest_json).at("policy_checks").at("server-batch");
  INFO(checks.dump());
  CHECK(checks.at("claimed") == nlohmann::json{{"server", "SCHED_BATCH"}});
  CHECK(checks.at("iterations") == 2);
  CHECK(checks.at("failed_iterations") == 0);
  // tbench_srv and the child it forks per client, at least.
  CHECK(checks.at("tasks_checked").at("server").get<int>() >= 3 * 2);
  CHECK(checks.at("tasks_checked").at("client").get<int>() >= 1);
}
