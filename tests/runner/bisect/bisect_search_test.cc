// Which candidate bisect measures next, from the states alone.
#include "runner/bisect/bisect_search.h"

#include <catch2/catch.hpp>

using namespace schedlab;

namespace {
constexpr auto U = CandidateState::kUntested;
constexpr auto G = CandidateState::kGood;
constexpr auto B = CandidateState::kBad;
constexpr auto S = CandidateState::kSkipped;
}  // namespace

TEST_CASE("bisect search starts in the middle, lower one on a tie") {
  CHECK(next_candidate({G, U, U, U, B}).next == 2u);
  CHECK(next_candidate({G, U, U, U, U, B}).next == 2u);
  CHECK(next_candidate({G, U, B}).next == 1u);
  CHECK(remaining({G, U, U, U, B}) == 3);
}

TEST_CASE("bisect search narrows to the interval between last good and first bad") {
  const auto s = next_candidate({G, U, G, U, U, U, B, U, B});
  CHECK(s.last_good == 2);
  CHECK(s.first_bad == 6);
  CHECK(s.next == 4u);
  // A GOOD above the first BAD is noise: the interval ends at the first BAD.
  const auto t = next_candidate({G, U, U, B, G, U, B});
  CHECK(t.first_bad == 3);
  CHECK(t.next == 1u);
}

TEST_CASE("bisect search is done when first bad follows last good") {
  const auto s = next_candidate({G, G, G, B, B});
  CHECK_FALSE(s.next);
  CHECK(s.last_good == 2);
  CHECK(s.first_bad == 3);
  CHECK_FALSE(s.ambiguous());
  CHECK_FALSE(next_candidate({G, B}).next);
}

TEST_CASE("bisect search steps around a skipped candidate to its nearest neighbour") {
  // Middle of 0..8 is 4; skipped, so 3 and 5 tie: the lower.
  CHECK(next_candidate({G, U, U, U, S, U, U, U, B}).next == 3u);
  // Middle of 0..7 is 3.5; 3 skipped: 4 is nearer than 2.
  CHECK(next_candidate({G, U, U, S, U, U, U, B}).next == 4u);
  CHECK(next_candidate({G, S, S, U, B}).next == 3u);
}

TEST_CASE("bisect search with only skipped candidates left is done and ambiguous") {
  const auto s = next_candidate({G, G, S, S, B, B});
  CHECK_FALSE(s.next);
  CHECK(s.last_good == 1);
  CHECK(s.first_bad == 4);
  CHECK(s.ambiguous());
  CHECK(remaining({G, G, S, S, B, B}) == 0);
}

TEST_CASE("bisect search wants good first and bad last") {
  CHECK_THROWS_AS(next_candidate({U, U, B}), std::invalid_argument);
  CHECK_THROWS_AS(next_candidate({G, U, U}), std::invalid_argument);
  CHECK_THROWS_AS(next_candidate({G}), std::invalid_argument);
}
