// Bisect verdicts on noisy numbers, in the spirit of Chromium Pinpoint's
// SAME / DIFFERENT / UNKNOWN: a candidate's samples are tested against the
// good reference and against the bad reference with the same two-sided test
// at the same alpha.
//
//   differs from bad, not from good  -> GOOD
//   differs from good, not from bad  -> BAD
//   anything else (both, or neither) -> UNKNOWN: measure more and pool
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
// The interface names the test and the centre by their stored names
// ("mwu", "amean"), so runner code that also sees the workloads' own Centre
// enum (workloads/metric.h) can include it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace schedlab {

// A p-value, or why there is none (as analysis/significance.h's PValue).
struct VerdictP {
  std::optional<double> p;
  std::string reason;
};

enum class Verdict { kGood, kBad, kUnknown };
std::string_view verdict_name(Verdict v);  // GOOD | BAD | UNKNOWN

struct VerdictOptions {
  std::string test = "mwu";  // mwu | welch (analysis/significance.h)
  double alpha = 0.05;
  std::string centre = "amean";  // the metric's centre: amean | hmean | gmean | median
  double min_effect_pct = 0;     // 0: the test alone decides
};
// Throws std::invalid_argument for an unknown test or centre name.
void check_verdict_options(const VerdictOptions& o);
// "Mann-Whitney U test", for messages.
std::string verdict_test_title(const std::string& test);
// The centre of x by its name; empty when undefined (see analysis/summary.h).
std::optional<double> centre_by_name(std::span<const double> x, const std::string& centre);

struct VerdictResult {
  Verdict verdict = Verdict::kUnknown;
  VerdictP vs_good;  // candidate against the good reference
  VerdictP vs_bad;   // candidate against the bad reference
  std::optional<double> centre;  // of the candidate
  std::optional<double> good_centre, bad_centre;
  std::optional<double> median, good_median, bad_median;
  std::string decided_by;  // "test" | "nearest-median" | "" while UNKNOWN
};

// The verdict of the tests alone (never "nearest-median").
VerdictResult judge(std::span<const double> good, std::span<const double> bad,
                    std::span<const double> candidate, const VerdictOptions& options);

// The rule at the iteration cap: an UNKNOWN result becomes GOOD or BAD by
// the nearer median; GOOD and BAD results are returned as they are.
VerdictResult decide_at_cap(VerdictResult r);

// Whether the references are far enough apart to bisect between them.
struct ReferenceCheck {
  bool differ = false;
  VerdictP p;
  std::optional<double> good_centre, bad_centre;
  std::size_t n_good = 0, n_bad = 0;
  std::string describe() const;  // "good 1.000 (n=8), bad 1.200 (n=8), p = 0.0002"
};
ReferenceCheck check_references(std::span<const double> good, std::span<const double> bad,
                                const VerdictOptions& options);

}  // namespace schedlab
