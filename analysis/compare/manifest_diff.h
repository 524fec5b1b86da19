// What differs between the runs behind compared columns, from their stored
// manifests and the variants' knobs: kernel, cmdline, host, CPU, knobs, and
// the SUT's state before the run (sched features, sched sysctls, debugfs
// tunables, cpufreq governors; see runner/knobs/sut_state.h). Also what changed
// on a SUT between the start and the end of one run. Pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedlab {

struct Difference {
  // kernel | cmdline | host | cpu | knob | feature | sysctl | tunable |
  // governor | availability (a part of the state readable on one side only)
  std::string kind;
  // e.g. "sysctl kernel.sched_autogroup_enabled" (knob), "PLACE_LAG"
  // (feature), "kernel.numa_balancing" (sysctl); empty for kernel, cmdline,
  // host, cpu, governor.
  std::string name;
  // One per column (or before, after): nothing when absent or not recorded.
  std::vector<std::optional<std::string>> values;

  std::string what() const;  // "knob sysctl kernel.x", "feature PLACE_LAG", "kernel"
};

struct ManifestColumn {
  std::string label;
  nlohmann::json manifest;  // the run's manifest; anything but an object counts as empty
  nlohmann::json knobs;     // the variant's knobs_json
};

// The differences between the columns, in this order: kernel (release;
// for a kernel built from a tree its ref, commit, describe, @WORKTREE's
// edits and the files they touch, config), cmdline,
// host, cpu, knobs, then state_before: availability, features (in the
// kernel's order), sysctls, tunables, governors. State is compared only
// between columns whose manifest has state_before.
std::vector<Difference> manifest_differences(const std::vector<ManifestColumn>& columns);

// A column of a kernels-as-columns run (its variant LABEL/VARIANT, the
// run's manifest with `kernel_columns`): the manifest with `lab` and
// `kernel_release` those of that kernel's guest (its build, @WORKTREE's
// edits), the rest the run's. Any other manifest as it is.
nlohmann::json kernel_column_manifest(nlohmann::json manifest, const std::string& variant);

// A kernels-as-columns run's kernels, in its manifest's order: each
// column's label and its guest's release ("" when its lab records none).
// Nothing for any other manifest (its kernel_release is the run's only one).
std::vector<std::pair<std::string, std::string>> column_kernels(const nlohmann::json& manifest);

// "HEAD 6.1.0, WORKTREE 6.1.0+": each kernel of such a run by its label and
// a fact of it (release, commit; "?" when empty), as list and Otava's export
// name every kernel of the run, not the first guest's alone.
std::string labelled_kernels(const std::vector<std::pair<std::string, std::string>>& kernels);

// What differs between two captured states (values: before, after);
// nothing when either is not an object (not recorded).
std::vector<Difference> state_differences(const nlohmann::json& before, const nlohmann::json& after);

// "sysctl kernel.x: 1 -> 0" for a two-valued difference ("-" when absent).
std::string describe_change(const Difference& d);

// The table printed at the top of `schedlab compare`: a header of labels,
// one row per difference, "-" for absent; empty when nothing differs.
std::string render_differences_text(const std::vector<Difference>& differences,
                                    const std::vector<std::string>& labels);

}  // namespace schedlab
