// What one measured quantity means: declared once per workload, read by the
// store, the analysis and the renderers. Nothing decides direction elsewhere.
#pragma once

#include <string>

#include "base/metric_vocabulary.h"

namespace schedlab {

struct MetricSpec {
  std::string name;
  std::string unit;
  Direction direction;
  // The values it can take: times, latencies, rates and counts are
  // kNonNegative; its intervals are cut to them.
  ValueDomain domain = ValueDomain::kUnbounded;
  Centre centre;
  SampleKind kind = SampleKind::kRun;
  int precision = 4;  // digits after the point in tables
  std::string help;
};

}  // namespace schedlab
