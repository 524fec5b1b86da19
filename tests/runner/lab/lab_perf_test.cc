// The perf monitors and sched-debug in lab guests (issue 46), through the
// real schedlab binary under qemu (TCG here): this machine's perf (Debian's
// linux-perf 6.1) copied into the guest counts hackbench on Debian's 6.1
// and 6.12 (no PMU under TCG: cycles and instructions named once), and a
// 6.1 tree built by schedlab (CONFIG_KALLSYMS added for perf-profile,
// tracepoints for perf-stat) gives a profile whose kernel frames are
// resolved symbols and counts the sched: tracepoints. The two Debian
// guests take about 45 s here; the built kernel 37 s once built (with
// perf-stat's tracepoints: measured), 8-10 minutes before. Both are in the
// long tier.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/monitor_values.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

void need_qemu() {
  LocalHost local;
  const auto r = local.run({.argv = {"qemu-system-x86_64", "--version"}, .timeout = 30s});
  if (!r.ok()) SCHEDLAB_SKIP("qemu-system-x86_64 cannot start: " + r.describe());
  if (!local.find_program("perf")) SCHEDLAB_SKIP("perf is not installed here (linux-perf)");
}

// iteration -> value of MONITOR's COUNTER in run NAME.
std::map<std::int64_t, double> rows(Store& store, const std::string& run,
                                    const std::string& monitor, const std::string& counter) {
  const auto r = store.runs_table().find_run_by_name(run);
  REQUIRE(r);
  return test::monitor_values(store, r->id, monitor, counter);
}

ExecResult run(const test::TempDir& dir, const std::string& name, const std::string& yaml) {
  const std::string cfg = dir.file(name + ".yaml");
  test::write_text(cfg, yaml);
  return test::schedlab_cmd({"run", cfg, "--db", dir.file("lab.db"), "--name", name}, {}, 40min);
}

}  // namespace

TEST_CASE("lab: perf-stat and sched-debug count hackbench in 6.1 and 6.12 guests",
          "[lab][long][perf]") {
  need_qemu();
  test::TempDir dir;
  const auto r = run(dir, "ps", R"(hosts:
  sut: {lab: {kernels: [debian:6.1, debian:6.12], cpus: 2, memory: 1G}}
iterations: 2
workloads:
  - hackbench: {modes: [process-pipes], groups: [1], loops: 100, timeout: 120s,
                monitors: [perf-stat, sched-debug]}
)");
  INFO(r.err << r.out);
  REQUIRE(r.ok());
  Store store(dir.file("lab.db"));
  for (const char* kernel : {"ps@6.1", "ps@6.12"}) {
    INFO(kernel);
    // hackbench -g 1 -l 100: 20 senders x 100 messages to 20 receivers.
    const auto cs = rows(store, kernel, "perf-stat", "context-switches");
    REQUIRE(cs.size() == 2);
    for (const auto& [it, v] : cs) CHECK(v > 1000);
    // The sched tracepoints, through the guest's tracefs.
    const auto sw = rows(store, kernel, "perf-stat", "sched:sched_switch");
    REQUIRE(sw.size() == 2);
    for (const auto& [it, v] : sw) CHECK(v == cs.at(it));
    CHECK(rows(store, kernel, "perf-stat", "sched:sched_wakeup").size() == 2);
    CHECK(rows(store, kernel, "perf-stat", "cycles").empty());
    const auto nr = rows(store, kernel, "sched-debug", "all.nr_switches");
    REQUIRE(nr.size() == 2);
    for (const auto& [it, v] : nr) CHECK(v > 1000);
    const auto run = store.runs_table().find_run_by_name(kernel);
    const auto manifest = nlohmann::json::parse(run->manifest_json);
    CHECK(manifest["perf_events_unavailable"].contains("cycles"));
    CHECK_FALSE(manifest.contains("monitors_unavailable"));
  }
  // No PMU under TCG: each event named once per kernel's run, not per iteration.
  CHECK(test::occurrences(r.err, "event cycles is unavailable") == 2);
}

TEST_CASE("lab: a kernel built from source profiled with its symbols, its tracepoints counted",
          "[lab][long][perf]") {
  need_qemu();
  const char* tree = std::getenv("SCHEDLAB_TEST_LINUX_TREE");
  const std::string linux_tree = tree && *tree ? tree : "/work/linux-6.1";
  if (!std::filesystem::exists(linux_tree + "/Makefile"))
    SCHEDLAB_SKIP("no kernel tree at " + linux_tree + " (SCHEDLAB_TEST_LINUX_TREE)");
  test::TempDir dir;
  const auto r = run(dir, "pp",
                     fmt::format(R"(hosts:
  sut: {{lab: {{kernel: "git:{}@HEAD", cpus: 2, memory: 1G}}}}
iterations: 2
perf_profile: {{frequency: 499}}
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [1]
      loops: 300
      timeout: 120s
      monitors: [perf-profile, perf-stat]
)",
                                 linux_tree));
  INFO(r.err << r.out);
  REQUIRE(r.ok());
  Store store(dir.file("lab.db"));
  // hackbench through pipes: the kernel's pipe and scheduler functions, by
  // name (an unresolved kernel frame would be [unknown] or [kernel.kallsyms]).
  bool any = false;
  for (const char* symbol :
       {"children.schedule", "children.__schedule", "children.pipe_read", "children.pipe_write"}) {
    const auto share = rows(store, "pp", "perf-profile", symbol);
    for (const auto& [it, v] : share) {
      INFO(symbol << " iteration " << it);
      CHECK(v > 0);
      CHECK(v <= 100);
      any = true;
    }
  }
  CHECK(any);
  CHECK(rows(store, "pp", "perf-profile", "self.[unknown]").empty());
  // tinyconfig has no tracepoints: perf-stat's sched: events exist in this
  // kernel only because perf-stat asked for CONFIG_FTRACE and
  // CONFIG_ENABLE_DEFAULT_TRACERS. Every switch is counted by both.
  const auto cs = rows(store, "pp", "perf-stat", "context-switches");
  const auto sw = rows(store, "pp", "perf-stat", "sched:sched_switch");
  REQUIRE(cs.size() == 2);
  REQUIRE(sw.size() == 2);
  for (const auto& [it, v] : sw) {
    CHECK(v > 1000);
    CHECK(v == cs.at(it));
  }
  // hackbench's processes are forked (wakeup_new) and wake each other.
  for (const char* event : {"sched:sched_wakeup", "sched:sched_wakeup_new"}) {
    INFO(event);
    const auto n = rows(store, "pp", "perf-stat", event);
    CHECK(n.size() == 2);
    for (const auto& [it, v] : n) CHECK(v > 0);
  }
  const auto run = store.runs_table().find_run_by_name("pp");
  const auto manifest = nlohmann::json::parse(run->manifest_json);
  CHECK_FALSE(manifest.contains("monitors_unavailable"));
  for (const char* event : {"sched:sched_switch", "sched:sched_wakeup", "sched:sched_wakeup_new",
                            "sched:sched_migrate_task"})
    CHECK_FALSE(
        manifest.value("perf_events_unavailable", nlohmann::json::object()).contains(event));
}
