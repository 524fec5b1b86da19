// The perf monitors end to end with the real perf (Debian's linux-perf) on
// this machine, through the schedlab binary: hackbench counted by
// perf-stat (and vmstat, sched-debug), a program with one hot function
// profiled by perf-profile, and an event perf does not know refused by
// preflight at its config line. perf -a needs root (or a permissive
// kernel.perf_event_paranoid): elsewhere these are skipped.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/counters/perf_profile.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/config_run.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

void need_perf() {
  LocalHost host;
  if (!host.find_program("perf")) SCHEDLAB_SKIP("perf is not installed (Debian: linux-perf)");
  if (geteuid() != 0) SCHEDLAB_SKIP("perf -a needs root here");
}

// iteration -> value of MONITOR's COUNTER, for every iteration that has it.
std::map<std::int64_t, double> rows(Store& store, std::int64_t run, const std::string& monitor,
                                    const std::string& counter) {
  std::map<std::int64_t, double> out;
  for (const auto& d : store.monitor_rows().monitor_deltas(run, monitor, false))
    if (d.counter == counter) out[d.iteration_id] = d.value;
  return out;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("hackbench counted by perf-stat, vmstat and sched-debug", "[perf][e2e]") {
  need_perf();
  test::TempDir dir;
  std::string err;
  const auto r = test::run_config(dir, "ps", R"(
iterations: 2
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [2]
      loops: 200
      timeout: 60s
      monitors: [perf-stat, vmstat, sched-debug]
)",
                                  300s, &err);
  REQUIRE(r.iterations.size() == 2);
  Store store(r.db);
  const auto cs = rows(store, r.run.id, "perf-stat", "context-switches");
  REQUIRE(cs.size() == 2);
  // 2 groups of 20 senders and receivers, 200 loops: thousands of switches.
  for (const auto& [it, v] : cs) CHECK(v > 1000);
  CHECK(rows(store, r.run.id, "perf-stat", "sched:sched_switch").size() == 2);
  CHECK(rows(store, r.run.id, "perf-stat", "task-clock").size() == 2);
  CHECK(rows(store, r.run.id, "sched-debug", "all.nr_switches").size() == 2);
  for (const auto& [it, v] : rows(store, r.run.id, "sched-debug", "all.nr_switches"))
    CHECK(v > 1000);
  CHECK(rows(store, r.run.id, "vmstat", "pgfault").size() == 2);
  // The raw CSV is kept with each iteration.
  CHECK(store.monitor_rows().monitor_snapshots(r.run.id, "perf-stat").size() == 2);
  // A machine without a PMU (this VM) names cycles once, in the manifest too.
  const auto manifest = nlohmann::json::parse(r.run.manifest_json);
  if (manifest.contains("perf_events_unavailable") &&
      manifest["perf_events_unavailable"].contains("cycles")) {
    CHECK(occurrences(err, "event cycles is unavailable") == 1);
    CHECK(rows(store, r.run.id, "perf-stat", "cycles").empty());
  }
  CHECK_FALSE(manifest.contains("monitors_unavailable"));
  // The comparison's header names the monitors that were on.
  const auto compare = test::schedlab_cmd({"compare", "ps", "--db", r.db});
  REQUIRE(compare.ok());
  CHECK(compare.out.find(", monitors perf-stat vmstat sched-debug, finished\n") !=
        std::string::npos);
}

TEST_CASE("a profiled program's hot function leads its self shares", "[perf][e2e]") {
  need_perf();
  test::TempDir dir;
  const auto r = test::run_config(dir, "pp",
                                  fmt::format(R"(
iterations: 2
perf_profile: {{frequency: 199}}
workloads:
  - command:
      name: hot
      argv: ["{}", "300000000"]
      metrics:
        seconds:
          regex: '^seconds: (?<value>[0-9.]+)$'
          direction: lower
      timeout: 120s
      monitors: [perf-profile]
)",
                                              SCHEDLAB_TEST_HOT),
                                  600s);
  Store store(r.db);
  const auto hot = rows(store, r.run.id, "perf-profile", "self.hot_loop");
  REQUIRE(hot.size() == 2);
  const auto cold = rows(store, r.run.id, "perf-profile", "self.cold_loop");
  for (const auto& [it, v] : hot) {
    INFO("iteration " << it);
    CHECK(v > 5);  // the machine is shared: other processes take samples too
    CHECK(v <= 100);
    CHECK(v > (cold.count(it) ? cold.at(it) : 0.0));
  }
  // The folded stacks are stored with each iteration and load back.
  const auto snaps = store.monitor_rows().monitor_snapshots(r.run.id, "perf-profile");
  REQUIRE(snaps.size() == 2);
  const auto folded = perf_profile::load(snaps[0].text, "iteration");
  bool seen = false;
  for (const auto& [stack, n] : folded)
    if (stack.ends_with(";hot_loop") && stack.starts_with("schedlab-test-h")) seen = true;
  CHECK(seen);
}

TEST_CASE("an event perf does not know is refused at its config line", "[perf][e2e]") {
  need_perf();
  test::TempDir dir;
  const std::string cfg = dir.file("bad.yaml");
  test::write_text(cfg, R"(iterations: 1
perf_stat:
  events: [context-switches,
           "sched:no_such_tracepoint"]
workloads:
  - hackbench:
      groups: [1]
      loops: 10
      monitors: [perf-stat]
)");
  const auto r = test::schedlab_cmd({"run", cfg, "--db", dir.file("bad.db")});
  CHECK_FALSE(r.ok());
  CHECK(r.err.find(cfg + ":4: perf_stat.events: unknown event 'sched:no_such_tracepoint' on local: "
                         "event syntax error: 'sched:no_such_tracepoint'") != std::string::npos);
}
