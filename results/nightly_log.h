// The nightly_measurements table: each attempt of `schedlab nightly` to
// measure a target with a config, appended; the latest per target, config
// and kernel commit is the current one.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/status.h"

namespace schedlab {

// schedlab nightly: one attempt to measure a target (a kernel) with a config.
struct NightlyMeasurement {
  std::int64_t id = 0;
  std::string nightly;  // the nightly file's name, for people
  std::string target;   // the target's name in that file
  std::string config_path;
  std::string config_sha256;           // of the config file's text: the same config
  std::optional<std::int64_t> run_id;  // once the run exists
  NightlyStatus status = NightlyStatus::kMeasuring;
  std::string error;           // why it failed (hook, ssh, kernel check, run)
  std::string hook_output;     // the hook's stdout and stderr
  std::string kernel_release;  // what the SUT ran (from the run's manifest)
  // The commit a git:PATH@BRANCH lab target was resolved to when the nightly
  // started; empty for any other target.
  std::string kernel_commit;
  std::string started_at;
  std::string ended_at;
};

class NightlyLog {
 public:
  explicit NightlyLog(sqlite3* db) : db_(db) {}

  // Nightly measurements (append; the latest per target, config and kernel
  // commit wins; the commit is '' for targets that are not a git branch).
  std::int64_t add_nightly_measurement(const NightlyMeasurement& m);
  void update_nightly_measurement(const NightlyMeasurement& m);  // by id
  std::optional<NightlyMeasurement> latest_nightly_measurement(
      const std::string& target, const std::string& config_sha256,
      const std::string& kernel_commit = "") const;
  std::vector<NightlyMeasurement> nightly_measurements() const;  // oldest first

 private:
  sqlite3* db_;
};

}  // namespace schedlab
