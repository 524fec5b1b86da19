#include "workloads/metric.h"

namespace schedlab {

std::string_view to_string(Direction d) {
  return d == Direction::kLowerIsBetter ? "lower" : "higher";
}

std::string_view to_string(SampleKind k) { return k == SampleKind::kRun ? "run" : "interval"; }

std::optional<Direction> direction_from_string(std::string_view s) {
  if (s == "lower") return Direction::kLowerIsBetter;
  if (s == "higher") return Direction::kHigherIsBetter;
  return std::nullopt;
}

std::optional<SampleKind> sample_kind_from_string(std::string_view s) {
  if (s == "run") return SampleKind::kRun;
  if (s == "interval") return SampleKind::kInterval;
  return std::nullopt;
}

}  // namespace schedlab
