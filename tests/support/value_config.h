// A command config whose one metric is a number in a file, and a nightly
// that reuses two of its runs: the start of the tests that craft stored
// rows around real runs (e2e/quoted_text_test.cc, e2e/stored_rows_test.cc).
#pragma once

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>

#include "base/hash.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

namespace schedlab::test {

// DIR/c.yaml: workload `reader`, metric t (lower is better), 5 iterations of
// `cat DIR/value` (100).
inline std::string value_config(const TempDir& dir) {
  write_text(dir.file("value"), "100\n");
  write_text(dir.file("c.yaml"), fmt::format(R"(iterations: 5
workloads:
  - command:
      name: reader
      argv: [cat, {}]
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
      monitors: []
)",
                                             dir.file("value")));
  return dir.file("c.yaml");
}

// value_config's runs r1 and r2 in DB (ids 1 and 2); returns the config.
inline std::string two_value_runs(const TempDir& dir, const std::string& db) {
  const std::string config = value_config(dir);
  for (const char* name : {"r1", "r2"})
    REQUIRE(schedlab_cmd({"run", config, "--db", db, "--name", name}).exit_code == 0);
  return config;
}

// DIR/night.yaml: nightly hn over CONFIG, targets t1 (the baseline) and t2
// whose hooks fail; in DB, t1 and t2 measured by runs 1 and 2, so the next
// `schedlab nightly` reuses both. Returns the nightly file.
inline std::string reused_nightly(const TempDir& dir, const std::string& db,
                                  const std::string& config) {
  write_text(dir.file("night.yaml"), fmt::format(R"(name: hn
baseline: t1
targets:
  - name: t1
    hook: ["false"]
  - name: t2
    hook: ["false"]
configs: [{}]
)",
                                                 config));
  const std::string sha = sha256_file(config);
  for (int t = 1; t <= 2; ++t)
    REQUIRE(exec_raw(
        db, fmt::format("INSERT INTO nightly_measurements (nightly, target, config_path, "
                        "config_sha256, run_id, status, error, hook_output, kernel_release, "
                        "started_at, ended_at) VALUES ('hn', 't{0}', '{1}', '{2}', {0}, "
                        "'measured', '', '', '6.1', '2026-12-06T17:00:00Z', "
                        "'2026-12-06T17:00:01Z')",
                        t, config, sha)));
  return dir.file("night.yaml");
}

}  // namespace schedlab::test
