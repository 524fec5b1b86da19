// Executes a plan on a host: applies each variant's knobs through the
// journal, runs every iteration's steps, parses the output and commits each
// finished iteration at once. Interrupts unwind through here so the knobs are
// restored on every exit path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/config.h"
#include "runner/host.h"
#include "runner/plan.h"

namespace schedlab {

class PreflightError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExecOptions {
  std::string name;  // run name; must be unique in the database
  std::optional<std::int64_t> resume_run;  // continue this run instead of starting one
  bool progress = false;                   // one status line on stderr
};

struct RunSummary {
  std::int64_t run_id = 0;
  std::string name;
  std::string status;  // finished | interrupted | failed
  int measured = 0;    // iterations run now, any status
  int skipped = 0;     // already stored (resume)
  int failed = 0;      // iterations run now that did not produce samples
  std::vector<std::string> errors;  // one line per failed iteration
};

// Checks everything that can be checked before touching the host: tools
// installed, sysctls present, no knob left unrestored by an earlier run.
void preflight(Store& store, Host& host, const Config& config, const Plan& plan);

RunSummary execute(Store& store, Host& host, const Config& config, const Plan& plan,
                   const ExecOptions& options);

}  // namespace schedlab
