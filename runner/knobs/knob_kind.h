// The kinds of knob a variant sets, one row each: its name (the journal's
// kind and the variants' knobs JSON), its config keys, and what each part
// of schedlab does with it - config parsing and validation (the keys and
// their values), the journal (which file, how a value is written and
// compared), preflight (every kernel knob must exist on the SUT and take
// the value), the run's knobs JSON, the workload's process knobs, `run
// --dry-run`. A new kind is a new row: a kernel kind touches seven files,
// its row function (kernel_knob_kinds.cc), its declaration
// (knob_kind_rows.h), its place in the apply order (knob_kind.cc), its test
// (tests/runner/knobs/knob_kind_test.cc), the table below, runner/README.md's
// knobs/ row and README.md's variant keys; a process kind the same with
// process_knob_kinds.cc, plus its ProcessKnobs field (here) and where
// processes start with it (run/step_runner.cc), and run/preflight.cc if the
// SUT must be checked first.
//
//   sysctl         /proc/sys/..., value + newline        kernel state, journaled
//   debugfs        /sys/kernel/debug/sched/...           kernel state, journaled
//   sched_feature  one token of /sys/kernel/debug/sched/features (NO_X: off)
//   policy         SCHED_BATCH/IDLE/OTHER and nice       the workload's processes
//   affinity       CPU lists for servers and clients     the workload's processes
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/hosts/sched_policy.h"
#include "runner/knobs/knob_names.h"
#include "runner/knobs/knob_settings.h"

namespace YAML {
class Node;
}

namespace schedlab {

class YamlReader;

constexpr const char* kSchedFeaturesPath = "/sys/kernel/debug/sched/features";

// One piece of kernel state: its kind ("sysctl", "debugfs",
// "sched_feature"), its name (kernel.sched_autogroup_enabled,
// sched/base_slice_ns, PLACE_LAG) and the file behind it.
struct KnobRef {
  std::string kind;
  std::string name;
  std::string path;
};

// A kernel knob a variant sets: the knob, the value to write (a feature's
// token), and the config line that set it.
struct KernelSetting {
  KnobRef knob;
  std::string value;
  int line = 0;
};

// A policy set on tasks schedlab does not start (`policy: {tasks: {comm:
// mysqld, policy: batch}}`): every thread whose comm is `comm`, at each
// iteration's start, journaled and put back at its end.
struct TaskPolicyKnob {
  std::string comm;
  SchedPolicy policy;
  bool operator==(const TaskPolicyKnob&) const = default;
};

// A variant's knobs on the workload's own processes: `policy` applies to
// the clients (measured steps: a bare `policy`/`nice`, or their `client`
// role), `server_policy` to servers (background steps, at spawn, so every
// thread they create inherits it), `tasks` to running threads by name;
// server_cpus to servers, client_cpus to measured foreground steps (the
// clients). Empty lists leave affinity alone.
struct ProcessKnobs {
  std::optional<SchedPolicy> policy;
  std::optional<SchedPolicy> server_policy;
  std::optional<TaskPolicyKnob> tasks;
  std::vector<int> server_cpus;
  std::vector<int> client_cpus;
  // Whether the variant claims a policy anywhere (the run then checks it).
  bool claims_policy() const { return policy || server_policy || tasks; }
};

struct KnobKind {
  std::string_view name;
  // The variant's keys for it (`variants: {NAME: {sysctl: ...}}`); the first
  // names it in errors.
  std::vector<std::string_view> config_keys;
  // Kernel state on the SUT, journaled and restored (else: applied to the
  // workload's processes as they start).
  bool kernel = false;

  // Reads the kind's keys of a variant's mapping (at `key`, variants.NAME),
  // called when it has one of them: its settings in config order. A bad
  // name or value is the reader's ConfigError at file:line:key.
  std::vector<KnobSetting> (*parse)(const YamlReader&, const YAML::Node& variant,
                                    const std::string& key) = nullptr;

  // Kernel kinds. The knob a setting's name (a feature's token) refers to;
  // the setting's value is written to it.
  KnobRef (*knob)(const std::string& name) = nullptr;
  // One token per write, compared as a token (the features file); else the
  // value and a newline, compared as the kernel prints it.
  bool token = false;
  // Between a name's parts, for "did you mean" among a file's siblings.
  char separator = '/';
  // Why a journal row of this kind may not be written back: its name
  // (the knob's, as `knob` takes it) is not one a config may set, or the
  // value it restores is not one the knob holds; nothing when it may.
  std::optional<std::string> (*journal_problem)(const std::string& name,
                                                const std::string& original) = nullptr;
  // At preflight, against the knob's current value on the SUT: why the
  // value cannot be written, or nothing (nullptr: any value the config
  // took).
  std::optional<std::string> (*verify)(const KernelSetting&, const std::string& now) = nullptr;

  // Process kinds: the variant's part of the process knobs.
  void (*process)(const std::vector<KnobSetting>&, ProcessKnobs&) = nullptr;

  // The kind's settings as members of the variant's knobs JSON (the
  // variants table); called only when the variant sets the kind.
  void (*to_json)(const std::vector<KnobSetting>&, nlohmann::json&) = nullptr;
  // ` sysctl kernel.x=1`, ` feature NO_PLACE_LAG`, ... for `run --dry-run`.
  std::string (*describe)(const std::vector<KnobSetting>&) = nullptr;
};

// The rows, in the order a variant's knobs are applied, checked and shown.
const std::vector<KnobKind>& knob_kinds();
// A row by its name, or nothing.
const KnobKind* find_knob_kind(std::string_view name);

// Every kernel knob a variant sets, kind by kind (the apply order), with the
// row it belongs to.
struct VariantKernelSetting {
  const KnobKind* kind;
  KernelSetting setting;
};
std::vector<VariantKernelSetting> kernel_settings(const KnobSettings& knobs);
ProcessKnobs process_knobs(const KnobSettings& knobs);
nlohmann::json knobs_json(const KnobSettings& knobs);
// What `run --dry-run` says of a variant's knobs: " (no knobs)" when none.
std::string describe_knobs(const KnobSettings& knobs);
// A variant's knobs from its mapping (at `key`), each kind's keys read by
// its row, in row order.
KnobSettings parse_knobs(const YamlReader& reader, const YAML::Node& variant,
                         const std::string& key);
// Every key a variant may have: the kinds' and `kernels`.
std::vector<std::string> variant_keys();

KnobRef sysctl_knob(const std::string& name);
KnobRef debugfs_knob(const std::string& name);
// From a token: NO_PLACE_LAG and PLACE_LAG both name feature PLACE_LAG.
KnobRef feature_knob(const std::string& token);
std::string feature_name(const std::string& token);  // NO_PLACE_LAG -> PLACE_LAG

}  // namespace schedlab
