// SUT state capture: on this machine (real sysctls; its debugfs sched files
// are not there), and on a directory tree that mimics the kernel's files (a
// test double, named as such) for the parts this machine does not have.
#include "runner/knobs/sut_state.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "runner/knobs/knobs.h"
#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("cpu lists print as ranges") {
  CHECK(cpu_list_text({}) == "");
  CHECK(cpu_list_text({0}) == "0");
  CHECK(cpu_list_text({3, 0, 1, 2, 6, 8, 9, 9}) == "0-3,6,8-9");
}

TEST_CASE("SUT state on this machine: the sched sysctls as the kernel prints them") {
  LocalHost host;
  const json s = capture_sut_state(host);
  INFO(s.dump(2));
  REQUIRE(s["sysctls"].is_object());
  // Every kernel.sched_* file, numa_balancing and timer_migration when present.
  for (const auto& e : fs::directory_iterator("/proc/sys/kernel")) {
    const std::string name = e.path().filename();
    if (!(name.starts_with("sched_") || name == "numa_balancing" || name == "timer_migration")) continue;
    if (e.is_directory()) continue;
    const std::string key = "kernel." + name;
    REQUIRE(s["sysctls"].contains(key));
    CHECK(s["sysctls"][key] == read_sysctl(host, key));
  }
  CHECK(s["sysctls"].contains("kernel.sched_autogroup_enabled"));
  CHECK_FALSE(s["sysctls"].contains("kernel.hostname"));
  CHECK(s["captured_at"].get<std::string>().size() == 20);

  // Features: a list when this machine's debugfs gives one, else null with
  // the reason. Here debugfs is not mounted (and schedlab does not mount it
  // just to look).
  const bool mounted = debugfs_unmounted_reason(host).empty();
  if (s["sched_features"].is_null()) {
    const std::string why = s["null_reasons"]["sched_features"];
    if (!mounted) {
      CHECK(why == "debugfs is not mounted on /sys/kernel/debug");
      CHECK(s["debugfs_tunables"].is_null());
      CHECK(s["null_reasons"]["debugfs_tunables"] == "debugfs is not mounted on /sys/kernel/debug");
    } else {
      CHECK_FALSE(why.empty());
    }
  } else {
    CHECK(s["sched_features"].is_array());
    CHECK_FALSE(s["null_reasons"].contains("sched_features"));
  }
  if (!fs::exists("/sys/devices/system/cpu/cpufreq/policy0")) {
    CHECK(s["cpufreq_governors"].is_null());
    CHECK(s["null_reasons"]["cpufreq_governors"] ==
          "no cpufreq policies under /sys/devices/system/cpu/cpufreq");
  }
}

TEST_CASE("SUT state on a test double of the kernel's files") {
  test::TempDir dir;
  const fs::path root = dir.path();
  SutStatePaths paths{.proc_sys_kernel = (root / "proc/sys/kernel").string(),
                      .debugfs = (root / "debug").string(),
                      .cpufreq = (root / "cpufreq").string(),
                      .mounts = (root / "mounts").string()};
  fs::create_directories(paths.proc_sys_kernel + "/sched_domain/cpu0");  // before 5.13: a tree
  test::write_text(paths.proc_sys_kernel + "/sched_autogroup_enabled", "1\n");
  test::write_text(paths.proc_sys_kernel + "/sched_rt_runtime_us", "950000\n");
  test::write_text(paths.proc_sys_kernel + "/sched_util_clamp_min_rt_default", "1024\n");
  test::write_text(paths.proc_sys_kernel + "/numa_balancing", "0\n");
  test::write_text(paths.proc_sys_kernel + "/hostname", "sut1\n");
  test::write_text(paths.mounts, "proc /proc proc rw 0 0\n");
  LocalHost host;

  SECTION("debugfs not mounted") {
    const json s = capture_sut_state(host, paths);
    json expected = {
        {"sched_features", nullptr},
        {"sysctls",
         {{"kernel.numa_balancing", "0"},
          {"kernel.sched_autogroup_enabled", "1"},
          {"kernel.sched_rt_runtime_us", "950000"},
          {"kernel.sched_util_clamp_min_rt_default", "1024"}}},
        {"debugfs_tunables", nullptr},
        {"cpufreq_governors", nullptr},
        {"null_reasons",
         {{"sched_features", "debugfs is not mounted on " + paths.debugfs},
          {"debugfs_tunables", "debugfs is not mounted on " + paths.debugfs},
          {"cpufreq_governors", "no cpufreq policies under " + paths.cpufreq}}}};
    json got = s;
    got.erase("captured_at");
    CHECK(got == expected);
  }

  SECTION("debugfs mounted: features, one-value tunables, governors") {
    test::write_text(paths.mounts, "proc /proc proc rw 0 0\ndebugfs " + paths.debugfs +
                                       " debugfs rw,nosuid,nodev,noexec,relatime 0 0\n");
    fs::create_directories(paths.sched_dir() + "/numa_balancing");
    fs::create_directories(paths.sched_dir() + "/domains");
    test::write_text(paths.features(), "PLACE_LAG NO_RUN_TO_PARITY DELAY_DEQUEUE \n");
    test::write_text(paths.sched_dir() + "/base_slice_ns", "3000000\n");
    test::write_text(paths.sched_dir() + "/migration_cost_ns", "500000\n");
    test::write_text(paths.sched_dir() + "/nr_migrate", "32\n");
    test::write_text(paths.sched_dir() + "/preempt", "none voluntary (full) lazy\n");
    test::write_text(paths.sched_dir() + "/verbose", "N\n");
    test::write_text(paths.sched_dir() + "/debug", "Sched Debug Version: v0.11\nktime: 1\n");
    test::write_text(paths.sched_dir() + "/latency_warn_ms", "100\n");
    for (int p = 0; p < 4; ++p) {
      const std::string dir = paths.cpufreq + "/policy" + std::to_string(p);
      fs::create_directories(dir);
      test::write_text(dir + "/scaling_governor", p < 3 ? "performance\n" : "powersave\n");
      test::write_text(dir + "/affected_cpus", std::to_string(p) + " " + std::to_string(p + 4) + "\n");
    }
    const json s = capture_sut_state(host, paths);
    CHECK(s["sched_features"] == json{"PLACE_LAG", "NO_RUN_TO_PARITY", "DELAY_DEQUEUE"});
    CHECK(s["debugfs_tunables"] == json{{"base_slice_ns", "3000000"},
                                        {"latency_warn_ms", "100"},
                                        {"migration_cost_ns", "500000"},
                                        {"nr_migrate", "32"},
                                        {"preempt", "none voluntary (full) lazy"},
                                        {"verbose", "N"}});
    CHECK(s["cpufreq_governors"] == json{{"performance", "0-2,4-6"}, {"powersave", "3,7"}});
    CHECK(s["null_reasons"] == json::object());
  }

  SECTION("mounted, but the kernel has no sched debug files") {
    test::write_text(paths.mounts, "debugfs " + paths.debugfs + " debugfs rw 0 0\n");
    fs::create_directories(paths.debugfs);
    const json s = capture_sut_state(host, paths);
    CHECK(s["null_reasons"]["sched_features"] ==
          paths.features() + " does not exist (kernel without CONFIG_SCHED_DEBUG?)");
    CHECK(s["null_reasons"]["debugfs_tunables"].get<std::string>().starts_with("cannot list " + paths.sched_dir()));
  }

  SECTION("an unreadable features file is null with the kernel's reason") {
    if (::geteuid() == 0) {
      // root reads a 0200 file anyway; a directory stands in for an error.
      fs::create_directories(paths.features());
    } else {
      test::write_text(paths.features(), "PLACE_LAG\n");
      fs::permissions(paths.features(), fs::perms::owner_write);
    }
    test::write_text(paths.mounts, "debugfs " + paths.debugfs + " debugfs rw 0 0\n");
    const json s = capture_sut_state(host, paths);
    CHECK(s["sched_features"].is_null());
    CHECK(s["null_reasons"]["sched_features"].get<std::string>().starts_with("cannot read " + paths.features() + ": "));
  }

  SECTION("a sched directory holding only directories has no tunables") {
    test::write_text(paths.mounts, "debugfs " + paths.debugfs + " debugfs rw 0 0\n");
    fs::create_directories(paths.sched_dir() + "/fair_server");
    const json s = capture_sut_state(host, paths);
    CHECK(s["debugfs_tunables"] == json::object());  // a directory is not an error

  }
}
