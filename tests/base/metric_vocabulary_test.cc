#include "base/metric_vocabulary.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("directions and sample kinds by their stored words, both ways") {
  for (const Direction d : {Direction::kLowerIsBetter, Direction::kHigherIsBetter})
    CHECK(direction_from_string(to_string(d)) == d);
  for (const SampleKind k : {SampleKind::kRun, SampleKind::kInterval})
    CHECK(sample_kind_from_string(to_string(k)) == k);
  CHECK(to_string(Direction::kLowerIsBetter) == "lower");
  CHECK(to_string(Direction::kHigherIsBetter) == "higher");
  CHECK(to_string(SampleKind::kRun) == "run");
  CHECK(to_string(SampleKind::kInterval) == "interval");
  CHECK_FALSE(direction_from_string("Higher"));
  CHECK_FALSE(direction_from_string("worse"));
  CHECK_FALSE(sample_kind_from_string("intervals"));
  CHECK_FALSE(sample_kind_from_string(""));
}

TEST_CASE("domains by their stored words, both ways") {
  for (const ValueDomain d : {ValueDomain::kUnbounded, ValueDomain::kNonNegative})
    CHECK(domain_from_string(to_string(d)) == d);
  CHECK(to_string(ValueDomain::kNonNegative) == "nonnegative");
  CHECK(to_string(ValueDomain::kUnbounded) == "unbounded");
  CHECK(domain_words() == std::vector<std::string>{"unbounded", "nonnegative"});
  CHECK_FALSE(domain_from_string("positive"));
  CHECK_FALSE(domain_from_string(""));
}
