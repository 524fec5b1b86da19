// A config run through the schedlab binary, as a user runs it, and what it
// stored: the common start of the e2e tests of a workload.
#pragma once

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

namespace schedlab::test {

struct ConfigRun {
  std::string config, db;  // DIR/NAME.yaml and DIR/NAME.db
  RunInfo run;
  std::vector<IterationRow> iterations;  // with their samples
};

// Each failed iteration of the run NAME in DB, a line each ("BLOCK
// iteration I: STATUS: ERROR"): what a failed run's message starts with,
// since a CI log keeps only the head of a long one.
inline std::string failed_iterations(const std::string& db, const std::string& name) {
  std::string out;
  try {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name(name);
    if (!run) return "no run '" + name + "' stored\n";
    for (const auto& it : store.iterations_table().iterations(run->id, false))
      if (it.status != IterationStatus::kOk)
        out += fmt::format("{} iteration {}: {}: {}\n", it.block, it.iteration,
                           to_string(it.status), it.error);
  } catch (const std::exception& e) {
    out = std::string("the database: ") + e.what() + "\n";
  }
  return out;
}

// Writes CONFIG_TEXT to DIR/NAME.yaml and runs it into DIR/NAME.db as the
// run NAME. A failed run fails the test with its failed iterations and
// schedlab's output. ERR, when given, receives what schedlab printed on
// stderr (its warnings and notes), for a test that checks them.
inline ConfigRun run_config(const TempDir& dir, const std::string& name,
                            const std::string& config_text, std::chrono::seconds timeout,
                            std::string* err = nullptr) {
  ConfigRun out{.config = dir.file(name + ".yaml"), .db = dir.file(name + ".db")};
  write_text(out.config, config_text);
  const auto r = schedlab_cmd({"run", out.config, "--db", out.db, "--name", name}, {}, timeout);
  INFO(failed_iterations(out.db, name) << r.out << r.err);
  REQUIRE(r.ok());
  Store store(out.db);
  const auto run = store.runs_table().find_run_by_name(name);
  REQUIRE(run);
  out.run = *run;
  out.iterations = store.iterations_table().iterations(run->id, true);
  if (err) *err = r.err;
  return out;
}

}  // namespace schedlab::test
