// The perf-profile monitor's folded stacks of a comparison's columns, for
// report's flame graphs (issue 46): per column, the stored profile of every
// ok iteration that ran the monitor (every point of the column) loaded and
// merged, a stack's samples summed.
#pragma once

#include <vector>

#include "analysis/compare/column_profile.h"
#include "results/store.h"

namespace schedlab {

struct Comparison;

// One per column of c, in its order; empty when no column has a stored
// profile. A stored profile that does not load (not base64, not gzip, not
// folded stacks) throws CounterParseError naming its run, variant, point
// and iteration.
std::vector<ColumnProfile> column_profiles(const Store& store, const Comparison& c);

}  // namespace schedlab
