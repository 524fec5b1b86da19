// Multi-kernel plans: the config keys (lab `kernels:`, a variant's
// `kernels:`) with every bad input, and the config each kernel runs.
#include "runner/run/kernel_runs.h"
#include "tests/support/config_error.h"

#include <catch2/catch.hpp>

#include "runner/run/plan.h"

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

std::string error_of(const std::string& yaml) { return test::config_error_of(yaml, "k.yaml"); }

std::vector<std::string> names(const Config& c) {
  std::vector<std::string> out;
  for (const auto& v : c.variants) out.push_back(v.name);
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
  CHECK(error_of("hosts:\n  sut: {lab: {kernel: debian:6.1, kernels: [debian:6.12]}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab.kernels: give either 'kernel' (one kernel) or 'kernels' (a list, "
        "each "
        "booted in turn), not both");
  CHECK(error_of("hosts:\n  sut: {lab: {kernels: []}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab.kernels: expected a list of kernels such as [debian:6.1, "
        "debian:6.12]");
  CHECK(error_of("hosts:\n  sut: {lab: {kernels: debian:6.1}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab.kernels: expected a list of kernels such as [debian:6.1, "
        "debian:6.12]");
  CHECK(error_of("hosts:\n  sut:\n    lab:\n      kernels:\n        - debian:6.1\n        - "
                 "debain:6.12\n" +
                 wl) ==
        "k.yaml:6: hosts.sut.lab.kernels: unknown kernel 'debain:6.12' (did you mean "
        "'debian:6.12'?); known: "
        "debian:6.1, debian:6.12, an exact package name (linux-image-...), or a path to a vmlinuz");
  CHECK(error_of("hosts:\n  sut: {lab: {kernels: [debian:6.1, debian:6.1]}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab.kernels: kernel 'debian:6.1' is listed twice");
  CHECK(error_of("hosts:\n  sut: {lab: {kernels: [debian:6.12, /boot/vmlinuz-6.12]}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab.kernels: kernel '/boot/vmlinuz-6.12' has the same short name "
        "'6.12' as an "
        "earlier one");
  CHECK(error_of("hosts:\n  sut: {lab: {cpus: 2}}\n" + wl) ==
        "k.yaml:2: hosts.sut.lab: missing 'kernel': debian:6.1, debian:6.12, a package name or a "
        "vmlinuz "
        "path (or 'kernels' with a list of them)");
  // A variant's kernels.
  const std::string lab =
      "hosts:\n  sut: {lab: {kernels: [debian:6.1, debian:6.12]}}\n" + wl + "variants:\n";
  CHECK(error_of(lab + "  default: {}\n  x:\n    kernels: [debian:6.11]\n") ==
        "k.yaml:7: variants.x.kernels: 'debian:6.11' is not among the lab's kernels (did you mean "
        "'debian:6.1'?) (debian:6.1, debian:6.12)");
  CHECK(error_of(lab + "  default: {}\n  x:\n    kernels: [debian:6.12, debian:6.12]\n") ==
        "k.yaml:7: variants.x.kernels: kernel 'debian:6.12' is listed twice");
  CHECK(error_of(lab + "  default: {}\n  x:\n    kernels: []\n") ==
        "k.yaml:7: variants.x.kernels: expected a list of the lab's kernels, e.g. [debian:6.12]");
  CHECK(error_of(lab + "  x:\n    kernels: [debian:6.12]\n") ==
        "k.yaml:5: variants: no variant applies to kernel 'debian:6.1'");
  CHECK(error_of(lab + "  x:\n    kernelz: [debian:6.12]\n") ==
        "k.yaml:6: variants.x: unknown key 'kernelz' (did you mean 'kernels'?)");
  // An entry must be among the listed kernels, also with `kernel:`.
  CHECK(error_of("hosts:\n  sut: {lab: {kernel: debian:6.1}}\n" + wl +
                 "variants:\n  x:\n    kernels: [debian:6.12]\n") ==
        "k.yaml:6: variants.x.kernels: 'debian:6.12' is not among the lab's kernels (did you mean "
        "'debian:6.1'?) (debian:6.1)");
  // Not a lab: no kernels to choose from.
  CHECK(
      error_of(wl + "variants:\n  x:\n    kernels: [debian:6.12]\n") ==
      "k.yaml:4: variants.x.kernels: only a lab SUT has kernels to choose from (hosts: {sut: {lab: "
      "{kernels: [...]}}})");
}

TEST_CASE("config_for_kernel: that kernel's variants, on a plan of its own") {
  const Config c = parse_config(kPlan, "k.yaml");
  const Config old = config_for_kernel(c, "debian:6.1");
  CHECK(old.sut_lab->kernel == "debian:6.1");
  CHECK(old.sut_lab->kernels.empty());
  CHECK(names(old) == std::vector<std::string>{"default", "batch"});
  CHECK(expand_plan(old).variants == 2);
  const Config eevdf = config_for_kernel(c, "debian:6.12");
  CHECK(names(eevdf) == std::vector<std::string>{"default", "eevdf-nolag", "batch"});
  // Nightly sets sut_lab->kernel itself: a kernel no restricted variant names
  // keeps the unrestricted ones.
  CHECK(names(config_for_kernel(c, "linux-image-6.12.9+bpo-amd64-unsigned")) ==
        std::vector<std::string>{"default", "batch"});
  CHECK(variant_applies(c.variants[1], "debian:6.12"));
  CHECK_FALSE(variant_applies(c.variants[1], "debian:6.1"));
}
