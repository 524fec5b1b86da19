#include "base/metric_vocabulary.h"

#include "base/word_table.h"

namespace schedlab {
namespace {

constexpr WordTable<Direction, 2> kDirectionWords = {
    {{Direction::kLowerIsBetter, "lower"}, {Direction::kHigherIsBetter, "higher"}}};
constexpr WordTable<SampleKind, 2> kSampleKindWords = {
    {{SampleKind::kRun, "run"}, {SampleKind::kInterval, "interval"}}};
constexpr WordTable<ValueDomain, 2> kDomainWords = {
    {{ValueDomain::kUnbounded, "unbounded"}, {ValueDomain::kNonNegative, "nonnegative"}}};

}  // namespace

std::string_view to_string(Direction d) {
  return word_of(kDirectionWords, d);
}

std::string_view to_string(SampleKind k) {
  return word_of(kSampleKindWords, k);
}

std::string_view to_string(ValueDomain d) {
  return word_of(kDomainWords, d);
}

std::optional<Direction> direction_from_string(std::string_view s) {
  return from_word(kDirectionWords, s);
}

std::optional<SampleKind> sample_kind_from_string(std::string_view s) {
  return from_word(kSampleKindWords, s);
}

std::optional<ValueDomain> domain_from_string(std::string_view s) {
  return from_word(kDomainWords, s);
}

std::vector<std::string> domain_words() {
  std::vector<std::string> out;
  for (const auto& [d, w] : kDomainWords) out.emplace_back(w);
  return out;
}

}  // namespace schedlab
