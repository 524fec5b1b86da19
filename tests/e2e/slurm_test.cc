// schedlab slurm on a real Slurm (tests/support/slurm/lab.sh: munged,
// slurmctld and two slurmd, nodes n1 and n2 in network namespaces with
// their own sshd): a two-pair submission runs hackbench over SSH with a
// per-namespace sysctl variant, both nodes get their knob back, `merge`
// makes one run whose compare --by-pair shows both pairs; a task cancelled
// mid-run leaves its node restored and its run resumable.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/netns_lab.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

test::NetnsLab& lab() {
  static test::NetnsLab instance(test::NetnsLab::Kind::kSlurm);
  return instance;
}

#define REQUIRE_SLURM()                                           \
  do {                                                            \
    if (lab().skip_reason()) SCHEDLAB_SKIP(*lab().skip_reason()); \
  } while (0)

// kernel.msgmax is per IPC namespace, and each node's sshd has its own
// (lab.sh with LAB_PRIVATE_RUN): read through the node's sshd, as the run
// writes it.
std::string msgmax(const std::string& node) {
  LocalHost local;
  const auto r = local.run({.argv = {"ssh", "-i", lab().env("KEY"), "-o",
                                     "UserKnownHostsFile=" + lab().env("KNOWN_HOSTS"), "-o",
                                     "BatchMode=yes",
                                     node == "n1" ? "root@10.231.0.1" : "root@10.231.0.2", "cat",
                                     "/proc/sys/kernel/msgmax"}});
  REQUIRE(r.ok());
  return std::string(r.out.substr(0, r.out.find('\n')));
}

ExecResult run_schedlab(const std::vector<std::string>& args, std::chrono::seconds timeout = 120s) {
  return test::schedlab_cmd(args, {{"SLURM_CONF", lab().env("SLURM_CONF")}}, timeout);
}

// The config of every submission here: one SUT over SSH (any host name:
// the task puts its node there), the loadgen local on the node.
std::string config(const test::TempDir& dir, int iterations, const std::string& variants) {
  const std::string path = dir.file("fleet.yaml");
  test::write_text(path, "hosts:\n  sut: ssh://root@any-node\n  loadgen: local\n" +
                             lab().ssh_yaml() + "iterations: " + std::to_string(iterations) +
                             "\nworkloads:\n  - hackbench: {groups: [1], loops: 50}\n"
                             "variants:\n" +
                             variants);
  return path;
}

bool queued(const std::string& job) {
  LocalHost local;
  const auto r = local.run({.argv = {"squeue", "-h", "-j", job},
                            .env = {{"SLURM_CONF", lab().env("SLURM_CONF")}}});
  return r.ok() && !r.out.empty();
}

void wait_gone(const std::string& job, std::chrono::seconds limit = 300s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (queued(job)) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(500ms);
  }
}

std::string job_of(const ExecResult& r) { return r.out.substr(0, r.out.find('\n')); }

std::string read_nodes(const std::string& results, int task) {
  const auto text = test::read_text(results + "/slurm/task-" + std::to_string(task) + ".nodes");
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE("slurm: two pairs as a job array, knobs restored on both nodes, merged into one run by pair", "[netns][long]") {
  REQUIRE_SLURM();
  test::TempDir dir;
  const std::string results = dir.file("fleet");
  const std::string before_n1 = msgmax("n1"), before_n2 = msgmax("n2");
  const auto cfg = config(dir, 2, "  default: {}\n  small-msgmax: {sysctl: {kernel.msgmax: 4000}}\n");

  const auto dry = run_schedlab({"slurm", "submit", cfg, "--pairs", "2", "--results", results,
                             "--name", "fleet", "--dry-run"});
  INFO(dry.err);
  REQUIRE(dry.ok());
  CHECK(dry.out.find("exec '" + std::string(SCHEDLAB_BINARY) + "' slurm task '" + results + "'\n") !=
        std::string::npos);
  CHECK(dry.out.find("--array=0-1 --nodes=1") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(results));  // a dry run writes nothing

  const auto sub =
      run_schedlab({"slurm", "submit", cfg, "--pairs", "2", "--results", results, "--name", "fleet"});
  INFO(sub.err);
  REQUIRE(sub.ok());
  const std::string job = job_of(sub);
  wait_gone(job);

  const auto status = run_schedlab({"slurm", "status", job});
  INFO(status.out << status.err);
  REQUIRE(status.ok());
  CHECK(status.out.find("every task finished") != std::string::npos);
  const std::string a = read_nodes(results, 0), b = read_nodes(results, 1);
  CHECK(a != b);  // --exclusive: one task a node
  CHECK(std::set<std::string>{a, b} == std::set<std::string>{"n1", "n2"});
  for (int t = 0; t < 2; ++t) {
    Store task(results + "/task-" + std::to_string(t) + ".db", Store::Access::kReadOnly);
    const auto run = task.runs_table().find_run_by_name("fleet");
    REQUIRE(run);
    CHECK(run->status == RunStatus::kFinished);
    const auto m = nlohmann::json::parse(run->manifest_json);
    const std::string node = read_nodes(results, t);
    CHECK(m["pairs"][node]["sut"] == (node == "n1" ? "ssh://root@10.231.0.1" : "ssh://root@10.231.0.2"));
    CHECK(m["pairs"][node]["slurm"]["task"] == t);
    CHECK(m["pairs"][node]["slurm"]["job"] == job);
    // Every iteration is the pair's; the journal has nothing left to restore.
    const auto its = task.iterations_table().iterations(run->id, false);
    CHECK(its.size() == 4);
    for (const auto& it : its) CHECK(it.pair == node);
    CHECK(task.journal().unrestored_hosts().empty());
  }
  CHECK(msgmax("n1") == before_n1);
  CHECK(msgmax("n2") == before_n2);

  const std::string merged = dir.file("merged.db");
  const auto mg = run_schedlab({"merge", merged, results + "/task-0.db", results + "/task-1.db"});
  INFO(mg.out << mg.err);
  REQUIRE(mg.ok());
  const auto again = run_schedlab({"merge", merged, results + "/task-0.db", results + "/task-1.db"});
  REQUIRE(again.ok());
  CHECK(again.out.find("0 iteration(s) and 0 sample(s) copied, 4 already there") != std::string::npos);

  const auto cmp = run_schedlab({"compare", "fleet", "--db", merged, "--by-pair", "--format", "json"});
  INFO(cmp.err);
  REQUIRE(cmp.ok());
  const auto j = nlohmann::json::parse(cmp.out);
  std::set<std::string> labels;
  for (const auto& c : j["columns"]) labels.insert(c["label"]);
  CHECK(labels == std::set<std::string>{"default@n1", "default@n2", "small-msgmax@n1",
                                        "small-msgmax@n2"});
  for (const auto& cell : j["blocks"][0]["rows"][0]["cells"]) CHECK(cell["n"] == 2);
}

TEST_CASE("slurm: a task cancelled mid-run restores its node's knob and resumes where it stopped", "[netns][long]") {
  REQUIRE_SLURM();
  test::TempDir dir;
  const std::string results = dir.file("cancel");
  const std::string before_n1 = msgmax("n1"), before_n2 = msgmax("n2");
  const auto cfg = config(dir, 40, "  small-msgmax: {sysctl: {kernel.msgmax: 4000}}\n");
  const auto sub = run_schedlab({"slurm", "submit", cfg, "--results", results, "--name", "long"});
  INFO(sub.err);
  REQUIRE(sub.ok());
  const std::string job = job_of(sub);

  // Until the task has measured something with the knob set on its node.
  const std::string db = results + "/task-0.db";
  const auto deadline = std::chrono::steady_clock::now() + 180s;
  std::string node;
  std::int64_t measured = 0;
  while (true) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(300ms);
    if (node.empty() && std::filesystem::exists(results + "/slurm/task-0.nodes"))
      node = read_nodes(results, 0);
    if (node.empty() || !std::filesystem::exists(db)) continue;
    try {
      Store s(db, Store::Access::kReadOnly);
      const auto run = s.runs_table().find_run_by_name("long");
      measured =
          run ? static_cast<std::int64_t>(s.iterations_table().iterations(run->id, false).size())
              : 0;
    } catch (const StoreError&) {
      continue;  // created but not yet migrated
    }
    if (measured >= 2 && msgmax(node) == "4000") break;
  }
  const auto cancel = run_schedlab({"slurm", "cancel", job});
  INFO(cancel.err);
  REQUIRE(cancel.ok());
  wait_gone(job, 120s);

  // SIGTERM from Slurm: schedlab restored the knob and kept the run.
  CHECK(msgmax("n1") == before_n1);
  CHECK(msgmax("n2") == before_n2);
  std::int64_t kept = 0;
  {
    Store s(db, Store::Access::kReadOnly);
    const auto run = s.runs_table().find_run_by_name("long");
    REQUIRE(run);
    CHECK(run->status == RunStatus::kInterrupted);
    kept = static_cast<std::int64_t>(s.iterations_table().iterations(run->id, false).size());
    CHECK(kept >= measured);
    CHECK(kept < 40);
    CHECK(s.journal().unrestored_hosts().empty());
  }
  const auto status = run_schedlab({"slurm", "status", results});
  INFO(status.out);
  CHECK(status.out.find("CANCELLED") != std::string::npos);
  CHECK(status.out.find("interrupted") != std::string::npos);
  CHECK(status.out.find("slurm submit --resume") != std::string::npos);

  // Resubmitted on the node it ran on; the run goes on from where it was.
  const auto resumed = run_schedlab({"slurm", "submit", "--resume", results});
  INFO(resumed.err);
  REQUIRE(resumed.ok());
  CHECK(resumed.err.find("on " + node) != std::string::npos);
  wait_gone(job_of(resumed));
  Store s(db, Store::Access::kReadOnly);
  const auto run = s.runs_table().find_run_by_name("long");
  CHECK(run->status == RunStatus::kFinished);
  const auto its = s.iterations_table().iterations(run->id, false);
  CHECK(its.size() == 40);
  std::set<int> indexes;
  for (const auto& it : its) indexes.insert(it.iteration);
  CHECK(indexes.size() == 40);  // each index once: nothing measured twice
  CHECK(read_nodes(results, 0) == node);
  const auto nothing = run_schedlab({"slurm", "submit", "--resume", results});
  CHECK(nothing.ok());
  CHECK(nothing.err.find("nothing to resume") != std::string::npos);
}

TEST_CASE("slurm: bad input is a one-line error and submits nothing", "[netns]") {
  REQUIRE_SLURM();
  test::TempDir dir;
  const auto cfg = config(dir, 1, "  default: {}\n");
  const auto part = run_schedlab({"slurm", "submit", cfg, "--partition", "nosuch", "--results", dir.file("a")});
  CHECK(part.exit_code == 2);
  CHECK(part.err == "schedlab slurm submit: no partition 'nosuch' in the cluster (partitions: lab)\n");
  const auto many = run_schedlab({"slurm", "submit", cfg, "--pairs", "3", "--results", dir.file("b")});
  CHECK(many.exit_code == 2);
  CHECK(many.err == "schedlab slurm submit: 3 pair(s) of 1 node(s) need 3 nodes; partition 'lab' has 2\n");
  CHECK_FALSE(std::filesystem::exists(dir.file("a")));
  CHECK_FALSE(std::filesystem::exists(dir.file("b")));
  const std::string pairs = dir.file("pairs.yaml");
  test::write_text(pairs, "pairs:\n  - {name: a, sut: ssh://root@x}\nworkloads:\n  - hackbench: {groups: [1]}\n");
  const auto p = run_schedlab({"slurm", "submit", pairs});
  CHECK(p.exit_code == 2);
  CHECK(p.err.find("under Slurm the allocation decides the pairs") != std::string::npos);
  const auto who = run_schedlab({"slurm", "status", "424242"});
  CHECK(who.exit_code != 0);
  CHECK(who.err.find("neither a results directory") != std::string::npos);

  // No Slurm on PATH: the Debian package is named.
  LocalHost local;
  const auto none = local.run({.argv = {SCHEDLAB_BINARY, "slurm", "submit", cfg, "--results", dir.file("c")},
                               .env = {{"PATH", "/nonexistent"}}});
  CHECK(none.exit_code == 1);
  CHECK(none.err.find("sbatch not found on PATH") != std::string::npos);
  CHECK(none.err.find("slurm-client") != std::string::npos);
}

TEST_CASE("slurm: nightly --slurm submits every target before waiting, merges their runs and judges them", "[netns]") {
  REQUIRE_SLURM();
  test::TempDir dir;
  config(dir, 4, "  default: {}\n");
  const std::string file = dir.file("n.yaml"), db = dir.file("nightly.db"), jobs = dir.file("jobs");
  // Two targets on the config's own SUT: each task puts it on its node.
  test::write_text(file, "baseline: base\ntargets:\n  - name: base\n  - name: next\n"
                         "configs: [fleet.yaml]\nrule: {test: mwu, alpha: 0.05, min_effect_pct: 5}\n");
  const std::vector<std::string> args = {"nightly", file, "--slurm", "--slurm-results", jobs,
                                         "--db", db, "--report-json", dir.file("report.json")};
  const auto first = run_schedlab(args, 300s);
  INFO(first.err);
  CHECK((first.exit_code == 0 || first.exit_code == 1));  // 1: a regression, by chance
  CHECK(first.err.find("2 measured now, 0 reused, 0 failed") != std::string::npos);
  // Both submitted before either was waited for: the second job went to the other node.
  std::set<std::string> nodes;
  for (const auto& e : std::filesystem::directory_iterator(jobs))
    nodes.insert(read_nodes(e.path().string(), 0));
  CHECK(nodes == std::set<std::string>{"n1", "n2"});
  {
    Store store(db, Store::Access::kReadOnly);
    int finished = 0;
    for (const auto& r : store.runs_table().list_runs()) {
      CHECK(r.name.starts_with("nightly n "));
      finished += r.status == RunStatus::kFinished;
      const auto m = nlohmann::json::parse(r.manifest_json);
      CHECK(m["pair_order"].size() == 1);
      CHECK(m["pairs"][m["pair_order"][0].get<std::string>()]["slurm"]["task"] == 0);
      CHECK(store.iterations_table().iterations(r.id, false).size() == 4);
    }
    CHECK(finished == 2);
  }
  const auto report = nlohmann::json::parse(test::read_text(dir.file("report.json")));
  CHECK(report.dump().find("\"next\"") != std::string::npos);

  // Again: both measurements are reused, nothing is submitted.
  const auto second = run_schedlab(args, 120s);
  INFO(second.err);
  CHECK(second.exit_code == first.exit_code);
  CHECK(second.err.find("0 measured now, 2 reused, 0 failed") != std::string::npos);
  CHECK(second.err.find("job ") == std::string::npos);
}

TEST_CASE(
    "slurm: nightly --slurm boots a lab kernel target on the task's node, sched features flipped there",
    "[netns][long]") {
  REQUIRE_SLURM();
  test::TempDir dir;
  const std::string cfg = dir.file("lab.yaml"), file = dir.file("lab-n.yaml"), db = dir.file("lab.db");
  test::write_text(cfg, "hosts:\n  sut: {lab: {kernel: debian:6.1, cpus: 1, memory: 1G}}\n"
                        "iterations: 2\nworkloads:\n  - hackbench: {groups: [1], loops: 50}\n"
                        "variants:\n  default: {}\n  nolag: {sched_features: [NO_PLACE_LAG]}\n");
  // The target's kernel replaces the config's: 6.12 (EEVDF, which has PLACE_LAG).
  test::write_text(file, "baseline: debian:6.12\ntargets: [debian:6.12]\nconfigs: [lab.yaml]\n"
                         "rule: {test: mwu, alpha: 0.05, min_effect_pct: 5}\n");
  const auto r = run_schedlab({"nightly", file, "--slurm", "--slurm-results", dir.file("jobs"), "--db", db},
                              900s);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("1 measured now, 0 reused, 0 failed") != std::string::npos);
  Store store(db, Store::Access::kReadOnly);
  const auto runs = store.runs_table().list_runs();
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].status == RunStatus::kFinished);
  const auto m = nlohmann::json::parse(runs[0].manifest_json);
  CHECK(m["kernel_release"].get<std::string>().starts_with("6.12"));
  CHECK(m["slurm"]["task"] == 0);
  const std::string node = m["slurm"]["nodes"][0];
  CHECK((node == "n1" || node == "n2"));
  const auto its = store.iterations_table().iterations(runs[0].id, false);
  CHECK(its.size() == 4);
  for (const auto& it : its) CHECK(to_string(it.status) == "ok");
  CHECK(store.journal().unrestored_hosts().empty());
}
