// `schedlab bisect start`, `continue` and `reset` on a database's
// bisections: one runs at a time, and `status`, `continue` and `reset` act
// on the latest (BisectLog::latest_bisect). Messages go to stderr, each
// "schedlab bisect: ...", as the driver's do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "results/bisect_log.h"
#include "runner/bisect/bisect.h"
#include "runner/bisect/bisect_spec.h"

namespace schedlab {

// Why no bisection may start in LOG (the database DB): the latest one is
// still running, to continue or reset first; none when one may start.
std::optional<std::string> bisect_start_refusal(const BisectLog& log, const std::string& db);

// Records a new bisection of SPEC, running, and says what it searches
// (candidates, references, the test); returns its id.
std::int64_t start_bisect(BisectLog& log, const BisectSpec& spec);

// Why `continue` has nothing to drive: session S is not running; none
// when it is.
std::optional<std::string> bisect_continue_refusal(const BisectSession& s);

// `bisect reset`: session S ends as it stands (its decisions and runs
// stay), and says so (or what it already was).
void reset_bisect(BisectLog& log, const BisectSession& s);

// What a drive that stopped short says: interrupted (a signal) or stopped
// as asked (--max-candidates), and that `continue` goes on; kDone and
// kRefused say nothing here.
void print_drive_end(BisectOutcome outcome);

}  // namespace schedlab
