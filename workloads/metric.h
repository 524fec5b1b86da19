// What one measured quantity means: declared once per workload, read by the
// store, the analysis and the renderers. Nothing decides direction elsewhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/centre.h"

namespace schedlab {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
// Independent runs versus time slices of one run (autocorrelated).
enum class SampleKind { kRun, kInterval };

struct MetricSpec {
  std::string name;
  std::string unit;
  Direction direction;
  Centre centre;
  SampleKind kind = SampleKind::kRun;
  int precision = 4;  // digits after the point in tables
  std::string help;
};

std::string_view to_string(Direction d);
std::string_view to_string(SampleKind k);
std::optional<Direction> direction_from_string(std::string_view s);
std::optional<SampleKind> sample_kind_from_string(std::string_view s);

}  // namespace schedlab
