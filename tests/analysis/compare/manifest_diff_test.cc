// What differs between compared columns, from hand-made manifests.
#include "analysis/compare/manifest_diff.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "base/json_data.h"

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

// Kernels as columns: one run, one manifest; each column's differences come
// from its own guest's build (kernel_columns), @WORKTREE's edits included.
TEST_CASE("manifest differences: kernels as columns name each build and the edit measured") {
  const std::string patch =
      "diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n"
      "index 325e7542f..c09f40208 100644\n"
      "--- a/kernel/sched/fair.c\n"
      "+++ b/kernel/sched/fair.c\n"
      "@@ -52,6 +52,7 @@\n"
      " #include <linux/sched/cond_resched.h>\n"
      "+#include <linux/delay.h>\n"
      "@@ -7470,6 +7471,7 @@\n"
      "+\tudelay(10);\n"
      "-\t/* gone */\n"
      "diff --git a/NOTES b/NOTES\n"
      "new file mode 100644\n"
      "--- /dev/null\n"
      "+++ b/NOTES\n"
      "@@ -0,0 +1 @@\n"
      "+a note\n";
  const json head_build = {{"spec", "git:/src/linux@HEAD"},
                           {"commit", "334d98fc6ec52d6f32cbb283919265172863c733"},
                           {"describe", "334d98f"},
                           {"config_sha", "b5ee1f839618"}};
  json tree_build = {
      {"spec", "git:/src/linux@WORKTREE"},
      {"commit", "334d98fc6ec52d6f32cbb283919265172863c733"},
      {"describe", "334d98fc6-dirty-59060ae"},
      {"config_sha", "b5ee1f839618"},
      {"edits_sha256", "59060aec203104bd55863ff910a6ae07ffd27145aca8fc494636ed9f2360d405"},
      {"edits_bytes", patch.size()},
      {"edits_truncated", false},
      {"edits", patch}};
  json run = manifest("6.1.192+", "console=ttyS0", nullptr);
  run["lab"] = {{"release", "6.1.192+"}, {"build", head_build}};  // the baseline's guest
  run["kernel_columns"] =
      json::array({{{"column", "HEAD"},
                    {"kernel", "git:/src/linux@HEAD"},
                    {"lab", {{"release", "6.1.192+"}, {"build", head_build}}}},
                   {{"column", "WORKTREE"},
                    {"kernel", "git:/src/linux@WORKTREE"},
                    {"lab", {{"release", "6.1.192+"}, {"build", tree_build}}}}});
  // As compare gives them: each column its kernel's manifest.
  const std::vector<ManifestColumn> cols = {
      {"HEAD/default", kernel_column_manifest(run, "HEAD/default"), json::object()},
      {"WORKTREE/default", kernel_column_manifest(run, "WORKTREE/default"), json::object()}};
  CHECK(cols[1].manifest["lab"]["build"]["describe"] == "334d98fc6-dirty-59060ae");
  CHECK(cols[1].manifest["hostname"] == "sut1");  // the rest is the run's
  // The same commit, so no commit row: the ref, the describe and the edit.
  const auto d = manifest_differences(cols);
  CHECK(render_differences_text(d, {"HEAD/default", "WORKTREE/default"}) ==
        "What differs between the columns:\n"
        "                       HEAD/default         WORKTREE/default\n"
        "  kernel ref           git:/src/linux@HEAD  git:/src/linux@WORKTREE\n"
        "  kernel describe      334d98f              334d98fc6-dirty-59060ae\n"
        "  kernel edits         -                    sha256 59060aec2031\n"
        "  kernel edited files  -                    kernel/sched/fair.c +2 -1, NOTES +1 -0\n");
  // Two commits: the commit row; a truncated patch says so.
  json other = head_build;
  other["commit"] = "9d1694dc91ce7b80bc96d6d8eaf1a1eca668d847";
  other["describe"] = "v6.1";
  tree_build["edits_truncated"] = true;
  run["kernel_columns"][0]["lab"]["build"] = other;
  run["kernel_columns"][1]["lab"]["build"] = tree_build;
  const auto d2 = manifest_differences(
      {{"a", kernel_column_manifest(run, "HEAD/default"), json::object()},
       {"b", kernel_column_manifest(run, "WORKTREE/default"), json::object()}});
  REQUIRE(d2.size() == 5);
  CHECK(d2[1].what() == "kernel commit");
  CHECK(d2[1].values[0] == "9d1694dc91ce");
  CHECK(d2[1].values[1] == "334d98fc6ec5");
  CHECK(d2[4].values[1] ==
        fmt::format("kernel/sched/fair.c +2 -1, NOTES +1 -0 (first {} bytes)", patch.size()));
  // A manifest without kernel_columns, or a variant of no listed kernel, is as it was.
  CHECK(kernel_column_manifest(manifest("6.1", "", nullptr), "HEAD/default") ==
        manifest("6.1", "", nullptr));
  CHECK(kernel_column_manifest(run, "other/default") == run);
}

TEST_CASE("manifest differences: a manifest that is not JSON says so, not '-' everywhere") {
  // Issue 44: a number past a double ({"monitor_cpu_s":{"stat":1e999}})
  // makes the whole manifest unreadable; its column's kernel, host and state
  // read as absent without a word.
  const json bad =
      schedlab::parse_json_data(R"({"kernel_release":"6.1","monitor_cpu_s":{"stat":1e999}})");
  REQUIRE(bad.is_discarded());
  const auto d = manifest_differences(
      {{"a", json{{"kernel_release", "6.1"}}, json::object()}, {"b", bad, json::object()}});
  REQUIRE(d.size() >= 2);
  CHECK(d[0].what() == "manifest");
  CHECK_FALSE(d[0].values[0]);
  CHECK(d[0].values[1] == "unreadable (not JSON)");
  CHECK(d[1].what() == "kernel");
}
