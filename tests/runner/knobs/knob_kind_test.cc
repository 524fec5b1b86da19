// The knob kind table: one row per kind, read by config validation, the
// journal, preflight, the variants' knobs JSON, the process knobs and
// `run --dry-run`.
#include "runner/knobs/knob_kind.h"

#include <catch2/catch.hpp>

#include "runner/config/config.h"

using namespace schedlab;

namespace {

const char* kVariants = R"(workloads: [hackbench]
variants:
  plain: {}
  all:
    sysctl: {kernel.sched_autogroup_enabled: 0, vm.stat_interval: 2}
    debugfs: {sched/base_slice_ns: 700000}
    sched_features: [NO_PLACE_LAG, RUN_TO_PARITY]
    policy: batch
    nice: 5
    affinity: {server: "0", client: "1-3"}
)";

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& k : knob_kinds()) out.emplace_back(k.name);
  return out;
}

}  // namespace

TEST_CASE("knob kinds: five rows, kernel state journaled, process knobs applied at start") {
  CHECK(names() ==
        std::vector<std::string>{"sysctl", "debugfs", "sched_feature", "policy", "affinity"});
  for (const auto& k : knob_kinds()) {
    INFO(k.name);
    CHECK_FALSE(k.config_keys.empty());
    CHECK(k.parse != nullptr);
    CHECK(k.to_json != nullptr);
    CHECK(k.describe != nullptr);
    // A kernel kind is a file; a process kind is applied to processes.
    CHECK(k.kernel == (k.knob != nullptr));
    CHECK(k.kernel == (k.process == nullptr));
    CHECK((k.verify == nullptr || k.kernel));
  }
  REQUIRE(find_knob_kind("sched_feature"));
  CHECK(find_knob_kind("sched_feature")->token);
  CHECK_FALSE(find_knob_kind("sysctl")->token);
  CHECK(find_knob_kind("features") == nullptr);
  CHECK(variant_keys() == std::vector<std::string>{"sysctl", "debugfs", "sched_features", "policy",
                                                   "nice", "affinity", "kernels"});
}

TEST_CASE("knob kinds: each kernel knob names its file") {
  const KnobRef s = sysctl_knob("kernel.sched_autogroup_enabled");
  CHECK(s.kind == "sysctl");
  CHECK(s.path == "/proc/sys/kernel/sched_autogroup_enabled");
  const KnobRef d = debugfs_knob("sched/base_slice_ns");
  CHECK(d.kind == "debugfs");
  CHECK(d.path == "/sys/kernel/debug/sched/base_slice_ns");
  const KnobRef f = feature_knob("NO_PLACE_LAG");
  CHECK(f.kind == "sched_feature");
  CHECK(f.name == "PLACE_LAG");
  CHECK(f.path == kSchedFeaturesPath);
}

TEST_CASE("knob kinds: a variant's settings, JSON, process knobs and dry-run words") {
  const Config c = parse_config(kVariants, "v.yaml");
  const KnobSettings& all = c.variants[1].knobs;
  // Kernel settings in the apply order: sysctls, debugfs, features.
  std::vector<std::string> applied;
  for (const auto& [kind, s] : kernel_settings(all))
    applied.push_back(std::string(kind->name) + " " + s.knob.name + "=" + s.value + " @" +
                      std::to_string(s.line));
  CHECK(applied == std::vector<std::string>{"sysctl kernel.sched_autogroup_enabled=0 @5",
                                            "sysctl vm.stat_interval=2 @5",
                                            "debugfs sched/base_slice_ns=700000 @6",
                                            "sched_feature PLACE_LAG=NO_PLACE_LAG @7",
                                            "sched_feature RUN_TO_PARITY=RUN_TO_PARITY @7"});
  CHECK(knobs_json(all).dump() ==
        R"({"affinity":{"client":"1-3","server":"0"},"debugfs":{"sched/base_slice_ns":"700000"},)"
        R"("nice":5,"policy":"SCHED_BATCH","sched_features":["NO_PLACE_LAG","RUN_TO_PARITY"],)"
        R"("sysctl":{"kernel.sched_autogroup_enabled":"0","vm.stat_interval":"2"}})");
  const ProcessKnobs p = process_knobs(all);
  REQUIRE(p.policy);
  CHECK(p.policy->describe() == "SCHED_BATCH nice 5");
  CHECK(p.server_cpus == std::vector<int>{0});
  CHECK(p.client_cpus == std::vector<int>{1, 2, 3});
  CHECK(describe_knobs(all) ==
        " sysctl kernel.sched_autogroup_enabled=0 sysctl vm.stat_interval=2 debugfs "
        "sched/base_slice_ns=700000 feature NO_PLACE_LAG feature RUN_TO_PARITY policy "
        "SCHED_BATCH nice 5 affinity server=0 affinity client=1-3");
  // No knobs at all.
  const KnobSettings& plain = c.variants[0].knobs;
  CHECK(kernel_settings(plain).empty());
  CHECK(knobs_json(plain).dump() == "{}");
  CHECK_FALSE(process_knobs(plain).policy);
  CHECK(describe_knobs(plain) == " (no knobs)");
}
