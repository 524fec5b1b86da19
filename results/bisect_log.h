// The bisect_sessions and bisect_decisions tables: each bisection and every
// decision it made, so `schedlab bisect continue` picks up where it stood.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/status.h"

namespace schedlab {

// A bisection (runner/bisect/bisect.h): what it searches (spec_json: candidates,
// config, metric, hook, test) and where it stands.
struct BisectSession {
  std::int64_t id = 0;
  BisectStatus status = BisectStatus::kRunning;
  std::string spec_json;
  std::string result_json;  // when done or refused: the answer and its numbers
  std::string created_at;
  std::string updated_at;
};

// One decision about one candidate: a reference measured, a verdict after a
// batch of iterations (UNKNOWN rows are followed by more batches), or a skip.
struct BisectDecision {
  std::int64_t id = 0;
  std::int64_t session_id = 0;
  int position = 0;        // index into the session's candidates
  std::string candidate;   // kernel or commit
  std::string verdict;     // GOOD | BAD | UNKNOWN | SKIP | REF-GOOD | REF-BAD
  std::string decided_by;  // test | nearest-centre | reference | hook | ""
  int n = 0;               // pooled samples behind the verdict
  std::optional<double> centre;
  std::optional<double> p_good;  // against the good reference
  std::optional<double> p_bad;   // against the bad reference
  std::string run_ids_json;      // the runs holding the samples, e.g. [4,5]
  std::string note;              // why: a hook's failure, a p-value's absence
  std::string decided_at;
  // A verdict after repeated looks (analysis/sequential/bisect_looks.h): the nominal
  // level each test was held to at this look (p below it: differs), and
  // the error rates the verdict holds ("at most 5% of GOOD verdicts on a
  // bad candidate ..."); empty for references, skips and older sessions.
  std::optional<double> level_good, level_bad;
  std::string error_rates;
};

class BisectLog {
 public:
  explicit BisectLog(sqlite3* db) : db_(db) {}

  // Bisections and their decisions, in the order they were made.
  std::int64_t create_bisect(const BisectSession& b);
  void set_bisect_status(std::int64_t id, BisectStatus status, const std::string& result_json);
  std::optional<BisectSession> find_bisect(std::int64_t id) const;
  std::optional<BisectSession> latest_bisect() const;
  std::int64_t add_bisect_decision(const BisectDecision& d);
  std::vector<BisectDecision> bisect_decisions(std::int64_t session_id) const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
