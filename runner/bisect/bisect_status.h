// `schedlab bisect status` as text: the session's spec, every decision so
// far (a row per look, with the levels its tests were held to), and once
// done the first bad and last good with the error rates the verdicts held,
// their comparison table and their schedstat diff; a refusal says why.
#pragma once

#include <string>

#include "results/bisect_log.h"
#include "results/store.h"

namespace schedlab {

// Within 100 columns: a long candidate name is cut, a long note goes on
// below its row.
std::string bisect_status_text(const Store& store, const BisectSession& session);
// The same, to stdout.
void print_bisect_status(const Store& store, const BisectSession& session);

}  // namespace schedlab
