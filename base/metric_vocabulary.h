// How a metric is read: which way is better and what one sample is, beside
// its centre (centre.h). One vocabulary for every layer: workloads declare it
// (MetricSpec), the store keeps its words (MetricInfo; a CHECK on each
// column), analysis and the renderers test the enums, never the words.
#pragma once

#include <optional>
#include <string_view>

#include "base/centre.h"

namespace schedlab {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
// Independent runs versus time slices of one run (autocorrelated).
enum class SampleKind { kRun, kInterval };

// The words as stored and shown: "lower", "higher"; "run", "interval".
std::string_view to_string(Direction d);
std::string_view to_string(SampleKind k);
std::optional<Direction> direction_from_string(std::string_view s);
std::optional<SampleKind> sample_kind_from_string(std::string_view s);

}  // namespace schedlab
