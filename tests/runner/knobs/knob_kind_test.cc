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

TEST_CASE("knob kinds: policy and nice by role, and threads by name") {
  const Config c = parse_config(R"(workloads: [hackbench]
variants:
  server:
    policy: {server: batch}
  both:
    policy: {server: idle, client: other}
    nice: {server: 5, client: -2}
  named:
    policy: {tasks: {comm: mysqld, policy: batch}}
  bare-nice-roles:
    policy: batch
    nice: {server: 3}
)",
                                "v.yaml");
  const ProcessKnobs server = process_knobs(c.variants[0].knobs);
  REQUIRE(server.server_policy);
  CHECK(server.server_policy->describe() == "SCHED_BATCH");
  CHECK_FALSE(server.policy);  // the clients keep schedlab's own
  CHECK_FALSE(server.tasks);
  CHECK(server.claims_policy());
  CHECK(knobs_json(c.variants[0].knobs).dump() ==
        R"({"policy":{"server":{"policy":"SCHED_BATCH"}}})");
  CHECK(describe_knobs(c.variants[0].knobs) == " policy server=SCHED_BATCH");

  const ProcessKnobs both = process_knobs(c.variants[1].knobs);
  REQUIRE(both.server_policy);
  REQUIRE(both.policy);
  CHECK(both.server_policy->describe() == "SCHED_IDLE nice 5");
  CHECK(both.policy->describe() == "SCHED_OTHER nice -2");
  CHECK(knobs_json(c.variants[1].knobs).dump() ==
        R"({"policy":{"client":{"nice":-2,"policy":"SCHED_OTHER"},)"
        R"("server":{"nice":5,"policy":"SCHED_IDLE"}}})");
  CHECK(describe_knobs(c.variants[1].knobs) ==
        " policy server=SCHED_IDLE nice 5 policy client=SCHED_OTHER nice -2");

  const ProcessKnobs named = process_knobs(c.variants[2].knobs);
  REQUIRE(named.tasks);
  CHECK(named.tasks->comm == "mysqld");
  CHECK(named.tasks->policy.describe() == "SCHED_BATCH");
  CHECK_FALSE(named.policy);
  CHECK_FALSE(named.server_policy);
  CHECK(knobs_json(c.variants[2].knobs).dump() ==
        R"({"policy":{"tasks":{"comm":"mysqld","policy":"SCHED_BATCH"}}})");
  CHECK(describe_knobs(c.variants[2].knobs) == " policy tasks mysqld=SCHED_BATCH");

  // A bare policy is the clients' (as before roles), beside a server's nice.
  const ProcessKnobs mixed = process_knobs(c.variants[3].knobs);
  REQUIRE(mixed.policy);
  REQUIRE(mixed.server_policy);
  CHECK(mixed.policy->describe() == "SCHED_BATCH");
  CHECK(mixed.server_policy->describe() == "SCHED_OTHER nice 3");
}

TEST_CASE("knob kinds: a bare policy keeps its settings, JSON and words") {
  const Config c = parse_config(
      "workloads: [hackbench]\nvariants:\n  b: {policy: batch}\n  n: {nice: 5}\n", "v.yaml");
  const KnobSettings& b = c.variants[0].knobs;
  REQUIRE(b.of("policy").size() == 1);
  CHECK(b.of("policy")[0].name == "policy");
  CHECK(b.of("policy")[0].value == "batch");
  CHECK(knobs_json(b).dump() == R"({"policy":"SCHED_BATCH"})");
  CHECK(describe_knobs(b) == " policy SCHED_BATCH");
  const ProcessKnobs p = process_knobs(b);
  REQUIRE(p.policy);
  CHECK(p.policy->describe() == "SCHED_BATCH");
  CHECK_FALSE(p.server_policy);
  CHECK(knobs_json(c.variants[1].knobs).dump() == R"({"nice":5,"policy":"SCHED_OTHER"})");
  CHECK(describe_knobs(c.variants[1].knobs) == " policy SCHED_OTHER nice 5");
}

TEST_CASE("knob kinds: a bad role, policy or task name is an error at its line and key") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"    policy: {sever: batch}\n",
       "v.yaml:4: variants.b.policy: unknown key 'sever' (did you mean 'server'?)"},
      {"    policy: {server: bacth}\n",
       "v.yaml:4: variants.b.policy.server: unknown scheduling policy 'bacth' (did you mean "
       "'batch'?); known: other, batch, idle"},
      {"    policy: {}\n",
       "v.yaml:4: variants.b.policy: empty: give server, client or tasks, e.g. {server: batch}"},
      {"    nice: {clinet: 5}\n",
       "v.yaml:4: variants.b.nice: unknown key 'clinet' (did you mean 'client'?)"},
      {"    nice: {tasks: 5}\n", "v.yaml:4: variants.b.nice: unknown key 'tasks'"},
      {"    nice: {server: 20}\n",
       "v.yaml:4: variants.b.nice.server: 20 is out of range: expected a whole number from -20 to "
       "19"},
      {"    policy:\n      tasks: {comm: mysqld}\n",
       "v.yaml:5: variants.b.policy.tasks: no 'policy': give both, e.g. {comm: mysqld, policy: "
       "batch}"},
      {"    policy:\n      tasks: {comm: mysqld, policy: fifo}\n",
       "v.yaml:5: variants.b.policy.tasks.policy: unknown scheduling policy 'fifo'; known: other, "
       "batch, idle"},
      {"    policy:\n      tasks: {comm: mysqld, polcy: batch}\n",
       "v.yaml:5: variants.b.policy.tasks: unknown key 'polcy' (did you mean 'policy'?)"},
      {"    policy:\n      tasks: {comm: a-name-of-sixteen, policy: batch}\n",
       "v.yaml:5: variants.b.policy.tasks.comm: 'a-name-of-sixteen' is no task name: the kernel "
       "keeps at most 15 bytes of one, on one line"},
  };
  for (const auto& [variant, error] : cases) {
    INFO(variant);
    try {
      parse_config("workloads: [hackbench]\nvariants:\n  b:\n" + variant, "v.yaml");
      FAIL("accepted");
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()) == error);
    }
  }
}
