#include "runner/bisect/bisect_search.h"

#include <stdexcept>

namespace schedlab {

namespace {

struct Interval {
  std::size_t last_good = 0, first_bad = 0;
};

Interval interval(const std::vector<CandidateState>& states) {
  if (states.size() < 2 || states.front() != CandidateState::kGood ||
      states.back() != CandidateState::kBad)
    throw std::invalid_argument("bisect: the first candidate must be good and the last bad");
  Interval in;
  in.first_bad = states.size() - 1;
  for (std::size_t i = 0; i < states.size(); ++i)
    if (states[i] == CandidateState::kBad) {
      in.first_bad = i;
      break;
    }
  for (std::size_t i = 0; i < in.first_bad; ++i)
    if (states[i] == CandidateState::kGood) in.last_good = i;
  return in;
}

}  // namespace

SearchStep next_candidate(const std::vector<CandidateState>& states) {
  const Interval in = interval(states);
  SearchStep step{.next = std::nullopt, .last_good = in.last_good, .first_bad = in.first_bad};
  // Twice the middle, so a half-way middle compares exactly.
  const std::size_t mid2 = in.last_good + in.first_bad;
  std::size_t best_dist = 0;
  for (std::size_t i = in.last_good + 1; i < in.first_bad; ++i) {
    if (states[i] != CandidateState::kUntested) continue;
    const std::size_t dist = 2 * i > mid2 ? 2 * i - mid2 : mid2 - 2 * i;
    if (!step.next || dist < best_dist) {
      step.next = i;
      best_dist = dist;
    }
  }
  return step;
}

std::size_t remaining(const std::vector<CandidateState>& states) {
  const Interval in = interval(states);
  std::size_t n = 0;
  for (std::size_t i = in.last_good + 1; i < in.first_bad; ++i)
    if (states[i] == CandidateState::kUntested) ++n;
  return n;
}

}  // namespace schedlab
