// A bisection as its database holds it, checked before status, its page or
// `continue` reads it: the spec against itself (two candidates at least, a
// label each, a known test, alpha in (0,1)), every decision against the
// spec (a position among its candidates, finite numbers, p-values in
// [0,1], levels in (0,1), run ids a list of ids) and a done session's
// result against both (its ends among the candidates, last good before
// first bad). A row crafted or broken by hand is a BisectError naming the
// session and the field, never a crash or a read past a vector.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "results/bisect_log.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

struct StoredBisection {
  BisectSpec spec;
  std::vector<BisectDecision> decisions;
  nlohmann::json result;  // {} while running
};

// Session S of LOG, checked; BisectError "bisection N: ..." when it does not hold.
StoredBisection load_bisection(const BisectLog& log, const BisectSession& s);

// The last decision of each position (what the candidate is now), by position.
std::map<int, const BisectDecision*> latest_decisions(const std::vector<BisectDecision>& decisions);

}  // namespace schedlab
