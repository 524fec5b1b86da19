// A nightly file: the kernels ("targets") to measure, the baseline among
// them, the experiment configs to run on each, and the regression rule.
// Validated before anything runs; every error names the file, the line and
// the key, like experiment configs (runner/config/config.h). Format: README.md,
// "Nightly".
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/nightly/regression_rule.h"
#include "runner/nightly/hook.h"

namespace schedlab {

struct NightlyTarget {
  std::string name;  // unique in the file; the key of its measurements
  // Where the configs run:
  std::string lab_kernel;  // a lab kernel (debian:6.12, ...): the SUT becomes a lab VM
  std::string sut;         // ssh://...: replaces the configs' SUT
  // Neither: the configs' own SUT (e.g. local, with a hook that installs a build).
  std::optional<Hook> hook;  // run on this machine before the target's first config
  // After the hook, for an ssh:// SUT: wait this long for it to answer.
  std::chrono::milliseconds ssh_timeout{std::chrono::minutes(10)};
  bool reboots = false;      // the hook reboots the SUT: wait for a new boot_id
  KernelExpectation expect;  // uname / sha / sha_command, checked after the hook
  int line = 0;
};

struct NightlyConfigRef {
  std::string path;  // as written, resolved against the nightly file's folder
  int line = 0;
};

struct NightlyConfig {
  std::string path;
  std::string name;  // the file's stem unless `name:` says otherwise
  std::vector<NightlyTarget> targets;
  std::size_t baseline = 0;  // index into targets
  std::vector<NightlyConfigRef> configs;
  RegressionRule rule;
  // The line of each per_metric key, to report one that matches no metric.
  std::map<std::string, int> per_metric_lines;
};

// Reads and validates (throws ConfigError). Config files are not loaded
// here; their paths are resolved relative to the nightly file.
NightlyConfig load_nightly_file(const std::string& path);
NightlyConfig parse_nightly(const std::string& text, const std::string& path);

// The values a target's hook may use: {name}, {kernel} (the lab kernel,
// else the expected uname, else the name), {uname} and {sha} when given,
// {sut} when it names one.
HookValues hook_values(const NightlyTarget& t);

}  // namespace schedlab
