// Bisect verdicts on noisy numbers, in the spirit of Chromium Pinpoint's
// SAME / DIFFERENT / UNKNOWN: a candidate's samples are tested against the
// good reference and against the bad reference with the same two-sided test
// at the same alpha.
//
//   differs from bad, not from good  -> GOOD
//   differs from good, not from bad  -> BAD
//   anything else (both, or neither) -> UNKNOWN: measure more and pool
//
// A test verdict also needs the candidate's median nearer the reference it
// is called like: with 5 noisy samples under TCG a candidate at 1.5x the
// good reference, with the bad one at 3.3x, "differs from good, not from
// bad" by the tests alone; it is UNKNOWN until more samples settle it.
//
// "Differs" means p < alpha and, when a minimum effect is set, medians at
// least that many percent apart (of the reference's median; the median so
// that a few outliers do not make the effect): on a quiet measurement
// (CV ~1%) a test alone calls a percent of drift between two measurements
// significant.
//
// At the iteration cap an UNKNOWN candidate takes the verdict of the
// reference whose median is nearer to its own (decided_by "nearest-median";
// the median, not the metric's mean, because timings on a shared machine
// come in modes, and a few slow-mode runs pull a mean across); a tie leaves
// it UNKNOWN and the search skips it.
//
// The test is named as a bisection stores it ("mwu", "welch").
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "analysis/stats/significance.h"
#include "base/centre.h"

namespace schedlab {

enum class Verdict { kGood, kBad, kUnknown };
std::string_view verdict_name(Verdict v);  // GOOD | BAD | UNKNOWN

struct VerdictOptions {
  std::string test = "mwu";  // mwu | welch (analysis/stats/significance.h)
  double alpha = 0.05;
  Centre centre = Centre::kAmean;  // the metric's
  double min_effect_pct = 0;       // 0: the test alone decides
};
// Throws std::invalid_argument for an unknown test name.
void check_verdict_options(const VerdictOptions& o);
// "Mann-Whitney U test", for messages.
std::string verdict_test_title(const std::string& test);

struct VerdictResult {
  Verdict verdict = Verdict::kUnknown;
  PValue vs_good;                // candidate against the good reference
  PValue vs_bad;                 // candidate against the bad reference
  std::optional<double> centre;  // of the candidate
  std::optional<double> good_centre, bad_centre;
  std::optional<double> median, good_median, bad_median;
  std::string decided_by;  // "test" | "nearest-median" | "" while UNKNOWN
};

// The verdict of the tests alone (never "nearest-median").
VerdictResult judge(std::span<const double> good, std::span<const double> bad,
                    std::span<const double> candidate, const VerdictOptions& options);

// The same with each test at its own level (p < alpha_vs_good: differs
// from good): a candidate judged again after each batch takes its levels
// from the alpha spending of analysis/sequential/bisect_looks.h.
VerdictResult judge_at(std::span<const double> good, std::span<const double> bad,
                       std::span<const double> candidate, const VerdictOptions& options,
                       double alpha_vs_good, double alpha_vs_bad);

// The rule at the iteration cap: an UNKNOWN result becomes GOOD or BAD by
// the nearer median; GOOD and BAD results are returned as they are.
VerdictResult decide_at_cap(VerdictResult r);

// Whether the references are far enough apart to bisect between them.
struct ReferenceCheck {
  bool differ = false;
  PValue p;
  std::optional<double> good_centre, bad_centre;
  std::size_t n_good = 0, n_bad = 0;
  std::string describe() const;  // "good 1.000 (n=8), bad 1.200 (n=8), p = 0.0002"
};
ReferenceCheck check_references(std::span<const double> good, std::span<const double> bad,
                                const VerdictOptions& options);

}  // namespace schedlab
