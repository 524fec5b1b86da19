// Integration: real Debian kernels downloaded from Debian's mirror, booted
// under qemu (TCG here: this machine's /dev/kvm cannot run them), reached
// over SSH. Knobs flipped for real in the guest, and a whole `schedlab run`
// through the real binary with a lab SUT. Skipped, with the reason shown,
// only when qemu cannot start at all.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <map>

#include "results/store.h"
#include "runner/lab/lab_host.h"
#include "runner/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

const char* const kFeatures = "/sys/kernel/debug/sched/features";

// Why qemu cannot run here, or empty.
std::string qemu_problem() {
  LocalHost local;
  const auto r = local.run({.argv = {"qemu-system-x86_64", "--version"}, .timeout = 30s});
  if (r.ok()) return "";
  return "qemu-system-x86_64 cannot start: " + (r.spawn_error.empty() ? r.describe() + " " + r.err : r.spawn_error);
}

lab::Log test_log() {
  return [](const std::string& line) { std::cerr << line << "\n"; };
}

void check_guest(lab::LabHost& host, bool eevdf) {
  const auto schedstat = host.read_file("/proc/schedstat");
  REQUIRE(schedstat);
  CHECK(schedstat->starts_with(eevdf ? "version 16" : "version 15"));
  const auto before = host.read_file(kFeatures);
  REQUIRE(before);
  if (!eevdf) {
    CHECK(before->find("PLACE_LAG") == std::string::npos);
    return;
  }
  REQUIRE(before->find("PLACE_LAG ") != std::string::npos);
  host.write_file(kFeatures, "NO_PLACE_LAG");
  CHECK(host.read_file(kFeatures)->find("NO_PLACE_LAG") != std::string::npos);
  CHECK_THROWS_AS(host.write_file(kFeatures, "NO_SUCH_FEATURE"), HostError);  // EINVAL
  host.write_file(kFeatures, "PLACE_LAG");
  CHECK(*host.read_file(kFeatures) == *before);
}

void run_through_schedlab(const std::string& kernel) {
  test::TempDir dir;
  const std::string cfg = dir.file("lab.yaml");
  test::write_text(cfg, fmt::format(R"(hosts:
  sut: {{lab: {{kernel: {}, cpus: 2, memory: 1G, accel: auto}}}}
iterations: 2
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [1]
      loops: 100
      timeout: 120s
      monitors: [tasks]
      task_monitor: {{interval: 50ms}}
variants:
  default: {{}}
  schedstats:
    sysctl:
      kernel.sched_schedstats: 1
)",
                                    kernel));
  LocalHost local;
  const std::string db = dir.file("lab.db");
  const auto r = local.run({.argv = {SCHEDLAB_BINARY, "run", cfg, "--db", db, "--name", "lab"}, .timeout = 15min});
  INFO(r.err);
  REQUIRE(r.ok());
  Store store(db);
  const auto run = store.find_run_by_name("lab");
  REQUIRE(run);
  CHECK(run->status == "finished");
  CHECK(store.count_iterations(run->id, "ok") == 4);
  const auto m = nlohmann::json::parse(run->manifest_json);
  CHECK(m["lab"]["kernel_spec"] == kernel);
  CHECK(m["lab"]["accel"].is_string());
  CHECK(m["host"].get<std::string>().starts_with("lab:"));
  CHECK(store.unrestored(m["host"].get<std::string>()).empty());  // the sysctl was put back
  // The tasks monitor's sampler runs on the guest's busybox userland (sh, awk).
  CHECK(!m.contains("monitors_unavailable"));
  std::map<std::int64_t, std::map<std::string, double>> tasks;
  for (const auto& d : store.monitor_deltas(run->id, "tasks"))
    tasks[d.iteration_id][d.counter] = d.value;
  REQUIRE(tasks.size() == 4);
  double seen = 0;
  for (const auto& [id, d] : tasks) {
    CHECK(d.at("polls") >= 2);
    for (const auto& [counter, v] : d)
      if (counter.starts_with("cpu_hits.")) CHECK(std::stol(counter.substr(9)) < 2);  // cpus: 2
    seen += d.at("tasks");
  }
  CHECK(seen > 0);
  // How tests/fixtures/tasks/lab-*.txt was captured.
  if (const char* keep = std::getenv("SCHEDLAB_KEEP_TASKS_OUTPUT"))
    test::write_text(fmt::format("{}/{}.txt", keep, kernel),
                     store.monitor_snapshots(run->id, "tasks").at(0).text);
}

void lab_case(const std::string& kernel, bool eevdf) {
  if (const auto why = qemu_problem(); !why.empty()) {
    WARN("SKIPPED: " << why);
    return;
  }
  {
    lab::LabHost host(LabConfig{.kernel = kernel}, test_log());
    WARN(fmt::format("{}: boot to SSH {:.1f}s ({}), initramfs {} in {:.2f}s", kernel, host.boot_seconds(),
                     host.accel(), host.image().cached ? "cached" : "built", host.image().seconds));
    check_guest(host, eevdf);
  }
  run_through_schedlab(kernel);
}

}  // namespace

TEST_CASE("lab: debian:6.12 boots, flips NO_PLACE_LAG and back, runs hackbench through schedlab", "[lab]") {
  lab_case("debian:6.12", true);
}

TEST_CASE("lab: debian:6.1 boots (CFS, schedstat v15), runs hackbench through schedlab", "[lab]") {
  lab_case("debian:6.1", false);
}
