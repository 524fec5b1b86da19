// Multi-kernel plans: the config keys (lab `kernels:`, a variant's
// `kernels:`) with every bad input, and the config each kernel runs.
#include "runner/run/kernel_runs.h"

#include <catch2/catch.hpp>

#include "runner/run/plan.h"
#include "runner/run/run_shape.h"
#include "tests/support/config_error.h"

using namespace schedlab;

namespace {

const char* const kPlan = R"(hosts:
  sut: {lab: {kernels: [debian:6.1, debian:6.12], cpus: 2}}
workloads: [hackbench]
variants:
  default: {}
  eevdf-nolag:
    kernels: [debian:6.12]
    sched_features: [NO_PLACE_LAG, NO_RUN_TO_PARITY]
  batch: {policy: batch}
)";

std::string k_yaml_error(const std::string& yaml) { return test::config_error_of(yaml, "k.yaml"); }

std::vector<std::string> names(const Plan& p) {
  std::vector<std::string> out;
  for (const VariantConfig* v : p.variants) out.push_back(v->name);
  return out;
}

}  // namespace

TEST_CASE("config: a lab lists kernels, and a variant names the ones it applies to") {
  const Config c = parse_config(kPlan, "k.yaml");
  REQUIRE(c.sut_lab);
  CHECK(c.sut_lab->kernels == std::vector<std::string>{"debian:6.1", "debian:6.12"});
  CHECK(c.sut_lab->kernel == "debian:6.1");  // what one boot uses until a run sets it
  CHECK(is_multi_kernel(c));
  CHECK(c.variants[0].kernels.empty());
  CHECK(c.variants[1].kernels == std::vector<std::string>{"debian:6.12"});
  // `kernel:` alone stays a plain single-kernel config.
  const Config one = parse_config(
      "hosts:\n  sut: {lab: {kernel: debian:6.12}}\nworkloads: [hackbench]\n"
      "variants:\n  x: {kernels: [debian:6.12]}\n",
      "k.yaml");
  CHECK_FALSE(is_multi_kernel(one));
  CHECK(one.variants[0].kernels == std::vector<std::string>{"debian:6.12"});
}

TEST_CASE("config: every bad kernels input names the file, line and key") {
  const std::string wl = "workloads: [hackbench]\n";
  const std::string lab =
      "hosts:\n  sut: {lab: {kernels: [debian:6.1, debian:6.12]}}\n" + wl + "variants:\n";
  // A config, and the whole error it gets.
  const std::pair<std::string, std::string> cases[] = {
      {"hosts:\n  sut: {lab: {kernel: debian:6.1, kernels: [debian:6.12]}}\n" + wl,
       "k.yaml:2: hosts.sut.lab.kernels: give either 'kernel' (one kernel) or 'kernels' (a list, "
       "each booted in turn), not both"},
      {"hosts:\n  sut: {lab: {kernels: []}}\n" + wl,
       "k.yaml:2: hosts.sut.lab.kernels: expected a list of kernels such as [debian:6.1, "
       "debian:6.12]"},
      {"hosts:\n  sut: {lab: {kernels: debian:6.1}}\n" + wl,
       "k.yaml:2: hosts.sut.lab.kernels: expected a list of kernels such as [debian:6.1, "
       "debian:6.12]"},
      {"hosts:\n  sut:\n    lab:\n      kernels:\n        - debian:6.1\n"
       "        - debain:6.12\n" +
           wl,
       "k.yaml:6: hosts.sut.lab.kernels: unknown kernel 'debain:6.12' (did you mean "
       "'debian:6.12'?); known: debian:6.1, debian:6.12, an exact package name (linux-image-...), "
       "a path to a vmlinuz, or git:PATH[@REF] (a kernel tree, built)"},
      {"hosts:\n  sut: {lab: {kernels: [debian:6.1, debian:6.1]}}\n" + wl,
       "k.yaml:2: hosts.sut.lab.kernels: kernel 'debian:6.1' is listed twice"},
      {"hosts:\n  sut: {lab: {kernels: [debian:6.12, /boot/vmlinuz-6.12]}}\n" + wl,
       "k.yaml:2: hosts.sut.lab.kernels: kernel '/boot/vmlinuz-6.12' has the same short name "
       "'6.12' as an earlier one"},
      {"hosts:\n  sut: {lab: {cpus: 2}}\n" + wl,
       "k.yaml:2: hosts.sut.lab: missing 'kernel': debian:6.1, debian:6.12, a package name or a "
       "vmlinuz path (or 'kernels' with a list of them)"},
      // A variant's kernels.
      {lab + "  default: {}\n  x:\n    kernels: [debian:6.11]\n",
       "k.yaml:7: variants.x.kernels: 'debian:6.11' is not among the lab's kernels (did you mean "
       "'debian:6.1'?) (debian:6.1, debian:6.12)"},
      {lab + "  default: {}\n  x:\n    kernels: [debian:6.12, debian:6.12]\n",
       "k.yaml:7: variants.x.kernels: kernel 'debian:6.12' is listed twice"},
      {lab + "  default: {}\n  x:\n    kernels: []\n",
       "k.yaml:7: variants.x.kernels: expected a list of the lab's kernels, e.g. [debian:6.12]"},
      {lab + "  x:\n    kernels: [debian:6.12]\n",
       "k.yaml:5: variants: no variant applies to kernel 'debian:6.1'"},
      {lab + "  x:\n    kernelz: [debian:6.12]\n",
       "k.yaml:6: variants.x: unknown key 'kernelz' (did you mean 'kernels'?)"},
      // An entry must be among the listed kernels, also with `kernel:`.
      {"hosts:\n  sut: {lab: {kernel: debian:6.1}}\n" + wl +
           "variants:\n  x:\n    kernels: [debian:6.12]\n",
       "k.yaml:6: variants.x.kernels: 'debian:6.12' is not among the lab's kernels (did you mean "
       "'debian:6.1'?) (debian:6.1)"},
      // Not a lab: no kernels to choose from.
      {wl + "variants:\n  x:\n    kernels: [debian:6.12]\n",
       "k.yaml:4: variants.x.kernels: only a lab SUT has kernels to choose from (hosts: {sut: "
       "{lab: {kernels: [...]}}})"},
  };
  for (const auto& [yaml, error] : cases) {
    INFO(yaml);
    CHECK(k_yaml_error(yaml) == error);
  }
}

TEST_CASE("the run shape: each kernel with the variants that apply, on a plan of its own") {
  const Config c = parse_config(kPlan, "k.yaml");
  const RunShape group = RunShape::per_kernel(c);
  REQUIRE(group.kernels.size() == 2);
  CHECK(group.kernels[0].kernel == "debian:6.1");
  CHECK(names(group.kernels[0].plan) == std::vector<std::string>{"default", "batch"});
  CHECK(group.kernels[0].plan.max_iterations() == 2 * 5);
  CHECK(group.kernels[1].kernel == "debian:6.12");
  CHECK(names(group.kernels[1].plan) ==
        std::vector<std::string>{"default", "eevdf-nolag", "batch"});
  // The points point into the one config, not into a copy.
  CHECK(group.kernels[1].plan.points.at(0).workload == &c.workloads[0]);
  CHECK(group.kernels[1].plan.variants.at(1) == &c.variants[1]);
  // Each kernel's run boots its kernel, once.
  const HostSpec hosts = group.hosts(group.kernels[1], 0);
  REQUIRE(hosts.sut_lab);
  CHECK(hosts.sut_lab->kernel == "debian:6.12");
  CHECK(hosts.sut_lab->kernels.empty());
  CHECK(hosts.sut == "lab");
  // One run of the kernel sut_lab names (nightly sets it): a kernel no
  // restricted variant names keeps the unrestricted ones.
  Config nightly = c;
  nightly.sut_lab->kernel = "linux-image-6.12.9+bpo-amd64-unsigned";
  const RunShape one = RunShape::one_run(nightly);
  REQUIRE(one.kernels.size() == 1);
  CHECK(names(one.kernels[0].plan) == std::vector<std::string>{"default", "batch"});
  CHECK(one.hosts(one.kernels[0], 0).sut_lab->kernel == "linux-image-6.12.9+bpo-amd64-unsigned");
  CHECK(variant_applies(c.variants[1], "debian:6.12"));
  CHECK_FALSE(variant_applies(c.variants[1], "debian:6.1"));
}

TEST_CASE("the run shape: a kernel no variant applies to is a preflight error") {
  Config c = parse_config(
      "hosts:\n  sut: {lab: {kernel: debian:6.12}}\nworkloads: [hackbench]\n"
      "variants:\n  x: {kernels: [debian:6.12]}\n",
      "k.yaml");
  c.sut_lab->kernel = "debian:6.1";
  CHECK_THROWS_WITH(RunShape::one_run(c), "k.yaml: no variant applies to kernel 'debian:6.1'");
}

TEST_CASE("the run shape: pairs are the config's, each with its own hosts") {
  const Config c = parse_config(
      "pairs:\n  - {sut: local, name: a}\n  - {sut: ssh://root@sut2, loadgen: local, sut_address: "
      "10.1.1.2}\n"
      "workloads: [hackbench]\n",
      "p.yaml");
  const RunShape shape = RunShape::one_run(c);
  CHECK(shape.several_pairs());
  CHECK(shape.pair_count() == 2);
  CHECK(shape.hosts(shape.kernels[0], 0).sut == "local");
  CHECK(shape.hosts(shape.kernels[0], 1).sut == "ssh://root@sut2");
  CHECK(shape.hosts(shape.kernels[0], 1).sut_address == "10.1.1.2");
  const Config plain = parse_config("workloads: [hackbench]\n", "p.yaml");
  CHECK(RunShape::one_run(plain).pair_count() == 1);
  CHECK(RunShape::one_run(plain).kernels.at(0).kernel.empty());
}
