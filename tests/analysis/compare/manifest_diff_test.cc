// What differs between compared columns, from hand-made manifests.
#include "analysis/compare/manifest_diff.h"

#include <catch2/catch.hpp>

using namespace schedlab;
using nlohmann::json;

namespace {

json state(json features, json sysctls, json tunables, json governors = nullptr) {
  json reasons = json::object();
  if (features.is_null()) reasons["sched_features"] = "debugfs is not mounted on /sys/kernel/debug";
  if (tunables.is_null()) reasons["debugfs_tunables"] = "debugfs is not mounted on /sys/kernel/debug";
  if (governors.is_null()) reasons["cpufreq_governors"] = "no cpufreq policies under /sys/devices/system/cpu/cpufreq";
  return {{"captured_at", "2024-05-01T10:00:00Z"},
          {"sched_features", features},
          {"sysctls", sysctls},
          {"debugfs_tunables", tunables},
          {"cpufreq_governors", governors},
          {"null_reasons", reasons}};
}

json manifest(const std::string& kernel, const std::string& cmdline, json state_before) {
  json m = {{"kernel_release", kernel}, {"cmdline", cmdline}, {"hostname", "sut1"},
            {"cpu_model", "Xeon"},      {"cpu_count", 16}};
  if (!state_before.is_null()) m["state_before"] = state_before;
  return m;
}

}  // namespace

TEST_CASE("manifest differences: one run, two variants differ only by their knobs") {
  const json m = manifest("6.12.9-amd64", "root=/dev/vda1", nullptr);
  const std::vector<ManifestColumn> cols = {
      {"default", m, json::object()},
      {"autogroup-off", m, {{"sysctl", {{"kernel.sched_autogroup_enabled", "0"}}}}},
      {"batch", m, {{"policy", "batch"}, {"nice", 5}}}};
  const auto d = manifest_differences(cols);
  REQUIRE(d.size() == 3);
  CHECK(d[0].what() == "knob nice");
  CHECK(d[1].what() == "knob policy");
  CHECK(d[2].what() == "knob sysctl kernel.sched_autogroup_enabled");
  CHECK(render_differences_text(d, {"default", "autogroup-off", "batch"}) ==
        "What differs between the columns:\n"
        "                                              default  autogroup-off  batch\n"
        "  knob nice                                   -        -              5\n"
        "  knob policy                                 -        -              batch\n"
        "  knob sysctl kernel.sched_autogroup_enabled  -        0              -\n");
}

TEST_CASE("manifest differences: kernels, cmdlines and the state before the runs") {
  const json a = manifest(
      "6.1.0-18-amd64", "root=/dev/vda1 quiet",
      state({"PLACE_LAG", "RUN_TO_PARITY", "NO_HRTICK"},
            {{"kernel.sched_autogroup_enabled", "1"}, {"kernel.numa_balancing", "0"}},
            {{"base_slice_ns", "3000000"}, {"migration_cost_ns", "500000"}},
            {{"performance", "0-15"}}));
  const json b = manifest(
      "6.12.9-amd64", "root=/dev/vda1 quiet mitigations=off",
      state({"PLACE_LAG", "NO_RUN_TO_PARITY", "NO_HRTICK", "DELAY_DEQUEUE"},
            {{"kernel.sched_autogroup_enabled", "1"}, {"kernel.numa_balancing", "1"},
             {"kernel.sched_schedstats", "0"}},
            {{"base_slice_ns", "2800000"}, {"migration_cost_ns", "500000"}},
            {{"performance", "0-7"}, {"powersave", "8-15"}}));
  const json knobs = {{"sched_features", {"NO_PLACE_LAG"}}};
  const auto d = manifest_differences({{"base", a, knobs}, {"new", b, knobs}});
  CHECK(render_differences_text(d, {"base", "new"}) ==
        "What differs between the columns:\n"
        "                                  base                  new\n"
        "  kernel                          6.1.0-18-amd64        6.12.9-amd64\n"
        "  cmdline                         root=/dev/vda1 quiet  root=/dev/vda1 quiet mitigations=off\n"
        "  feature RUN_TO_PARITY           RUN_TO_PARITY         NO_RUN_TO_PARITY\n"
        "  feature DELAY_DEQUEUE           -                     DELAY_DEQUEUE\n"
        "  sysctl kernel.numa_balancing    0                     1\n"
        "  sysctl kernel.sched_schedstats  -                     0\n"
        "  tunable base_slice_ns           3000000               2800000\n"
        "  governor                        performance 0-15      performance 0-7, powersave 8-15\n");
}

TEST_CASE("manifest differences: parts readable on one side only, and runs without state") {
  const json readable = manifest("6.12.9", "q", state({"PLACE_LAG"}, json::object(), json::object()));
  const json unmounted = manifest("6.12.9", "q", state(nullptr, json::object(), nullptr));
  const json old = manifest("6.12.9", "q", nullptr);
  const auto d = manifest_differences(
      {{"a", readable, json::object()}, {"b", unmounted, json::object()}, {"c", old, json::object()}});
  // Wider than 100 columns: in pieces, the first column in each.
  CHECK(render_differences_text(d, {"a", "b", "c"}) ==
        "What differs between the columns:\n"
        "                                 a         b\n"
        "  availability sched_features    readable  unavailable: debugfs is not mounted on "
        "/sys/kernel/debug\n"
        "  availability debugfs_tunables  readable  unavailable: debugfs is not mounted on "
        "/sys/kernel/debug\n"
        "                                 a         c\n"
        "  availability sched_features    readable  -\n"
        "  availability debugfs_tunables  readable  -\n");
  // A run recorded before states were captured compares as nothing differing.
  CHECK(manifest_differences({{"a", old, json::object()}, {"b", readable, json::object()}}).empty());
  CHECK(render_differences_text({}, {"a"}).empty());
  // Manifests that are not objects (unreadable) are empty.
  CHECK(manifest_differences({{"a", json("garbage"), json()}, {"b", json(), json()}}).empty());
}

TEST_CASE("state differences: what a run left changed on the SUT") {
  const json before = state({"PLACE_LAG", "RUN_TO_PARITY"}, {{"kernel.sched_autogroup_enabled", "1"}},
                            {{"base_slice_ns", "3000000"}});
  const json same = before;
  CHECK(state_differences(before, same).empty());
  const json after = state({"PLACE_LAG", "NO_RUN_TO_PARITY"}, {{"kernel.sched_autogroup_enabled", "0"}},
                           {{"base_slice_ns", "3000000"}});
  std::vector<std::string> lines;
  for (const auto& d : state_differences(before, after)) lines.push_back(describe_change(d));
  CHECK(lines == std::vector<std::string>{"feature RUN_TO_PARITY: RUN_TO_PARITY -> NO_RUN_TO_PARITY",
                                          "sysctl kernel.sched_autogroup_enabled: 1 -> 0"});
  // debugfs mounted during the run: an availability change only.
  const json unmounted = state(nullptr, {{"kernel.sched_autogroup_enabled", "1"}}, nullptr);
  lines.clear();
  for (const auto& d : state_differences(unmounted, before)) lines.push_back(describe_change(d));
  CHECK(lines == std::vector<std::string>{
                     "availability sched_features: unavailable: debugfs is not mounted on "
                     "/sys/kernel/debug -> readable",
                     "availability debugfs_tunables: unavailable: debugfs is not mounted on "
                     "/sys/kernel/debug -> readable"});
}
