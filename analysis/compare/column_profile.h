// One column's merged perf-profile stacks (profiles.h loads them): its own
// header so that a Comparison carries them without compare.h including the
// code that loads them from one, as changed_table.h does for What changed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "analysis/counters/perf_profile.h"

namespace schedlab {

struct ColumnProfile {
  std::size_t iterations = 0;  // profiles merged; 0: the column has none
  std::uint64_t samples = 0;
  perf_profile::Folded folded;
};

}  // namespace schedlab
