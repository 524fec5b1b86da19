// How a metric is read: which way is better and what one sample is, beside
// its centre (centre.h). One vocabulary for every layer: workloads declare it
// (MetricSpec), the store keeps its words (MetricInfo; a CHECK on each
// column), analysis and the renderers test the enums, never the words.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/centre.h"

namespace schedlab {

enum class Direction { kLowerIsBetter, kHigherIsBetter };
// Independent runs versus time slices of one run (autocorrelated).
enum class SampleKind { kRun, kInterval };
// The values a metric can take. An interval of its centre is cut to them (a
// time, a latency, a rate or a count is never below 0), which keeps its
// coverage, since the true value lies inside; kUnbounded where nothing is
// known.
enum class ValueDomain { kUnbounded, kNonNegative };

// The words as stored and shown: "lower", "higher"; "run", "interval";
// "unbounded", "nonnegative".
std::string_view to_string(Direction d);
std::string_view to_string(SampleKind k);
std::string_view to_string(ValueDomain d);
std::optional<Direction> direction_from_string(std::string_view s);
std::optional<SampleKind> sample_kind_from_string(std::string_view s);
std::optional<ValueDomain> domain_from_string(std::string_view s);
// Every domain's word, in the table's order: what a config's `domain` key
// accepts.
std::vector<std::string> domain_words();

}  // namespace schedlab
