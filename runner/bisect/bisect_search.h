// Which candidate a bisection measures next: pure, from the states alone.
//
// Candidates are in order, oldest first; index 0 is the good reference and
// the last index the bad one. The search interval is (last good, first bad]:
// first_bad is the lowest BAD index, last_good the highest GOOD index below
// it (a GOOD above the first BAD is noise and is ignored). The next candidate
// is the untested one inside the interval nearest to its middle (the lower
// one on a tie), so a skipped candidate is replaced by a neighbour, as `git
// bisect skip` does. When nothing untested is left inside, the search is
// done: first_bad is the answer when it follows last_good directly, else the
// first bad is one of the skipped candidates in between or first_bad itself.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace schedlab {

enum class CandidateState { kUntested, kGood, kBad, kSkipped };

struct SearchStep {
  std::optional<std::size_t> next;  // empty: done
  std::size_t last_good = 0;
  std::size_t first_bad = 0;
  // Done, and skipped candidates lie between last_good and first_bad.
  bool ambiguous() const { return !next && first_bad - last_good > 1; }
};

// Throws std::invalid_argument unless there are at least two states, the
// first GOOD and the last BAD.
SearchStep next_candidate(const std::vector<CandidateState>& states);

// Untested candidates left inside the interval (for progress messages).
std::size_t remaining(const std::vector<CandidateState>& states);

}  // namespace schedlab
