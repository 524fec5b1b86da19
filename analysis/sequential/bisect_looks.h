// Bisect's repeated looks at one candidate with stated error rates.
//
// Bisect measures a candidate a batch at a time and judges it after each
// batch, up to a cap of samples. Testing every look at the same alpha
// makes the chance of a false "differs" grow with the looks (about 2.5
// alpha over five looks). Here each of the two tests (candidate against the
// good reference, and against the bad one) is a group sequential test: its
// looks spend alpha along the Lan-DeMets O'Brien-Fleming-type function
// (analysis/sequential/group_sequential.h), and a look's test says "differs" when its
// p-value is below that look's nominal level 2 (1 - Phi(c_k)). The
// information of a comparison of the candidate's n samples with a reference
// of n_ref fixed samples is proportional to 1 / (1 / n_ref + 1 / n), so the
// fraction at n is (1 / n_ref + 1 / max) / (1 / n_ref + 1 / n); the look at
// the cap spends what is left.
//
// What holds: over all the looks at one candidate, P(differs from good |
// the candidate is the good kernel) <= alpha, and the same for bad. A GOOD
// verdict needs "differs from bad", so P(GOOD | the candidate behaves as
// bad) <= alpha; likewise P(BAD | it behaves as good) <= alpha. For the
// Mann-Whitney test the nominal levels rest on its normal approximation:
// tests/analysis/sequential/bisect_looks_test.cc measures both tests' rates. A
// candidate decided at the cap by the nearer median (decide_at_cap) has no
// such bound, and the statement says so.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "analysis/sequential/bisect_verdict.h"
#include "analysis/sequential/group_sequential.h"

namespace schedlab {

struct LookLevel {
  std::size_t look = 0;      // 1-based
  std::size_t n = 0;         // the candidate's samples at this look
  double fraction = 0;       // of the information at the cap
  double nominal_alpha = 0;  // p below this: differs
  double alpha_spent = 0;    // through this look
  bool last = false;         // the look at the cap: alpha all spent
};

// The looks of one test: a candidate against a reference of n_reference
// samples, up to max_samples of the candidate's.
class RepeatedLooks {
 public:
  // Throws std::invalid_argument for alpha outside (0, 1) or no samples.
  RepeatedLooks(double alpha, std::size_t n_reference, std::size_t max_samples, int grid = 16);
  // The level of the look at n candidate samples (more than the last
  // look's; n >= max_samples is the last look). Throws std::logic_error
  // after the last look, std::invalid_argument when n does not grow.
  LookLevel next(std::size_t n);
  // The same when the reference has grown too (bisect measures each
  // candidate batch between a batch of each reference, and judges against
  // those windows): the look's information is 1 / (1 / n_reference_now +
  // 1 / n), which must grow from look to look, and the reference's size at
  // the cap is the constructor's n_reference. With n_reference_now always
  // the constructor's, this is next(n).
  LookLevel next(std::size_t n, std::size_t n_reference_now);
  const std::vector<LookLevel>& looks() const { return looks_; }

 private:
  double alpha_, n_reference_, max_samples_;
  double last_info_ = 0;
  gs::PathDensity paths_;
  std::vector<LookLevel> looks_;
};

struct SequentialVerdict {
  VerdictResult result;
  LookLevel vs_good, vs_bad;
  // E.g. "at most 5% of GOOD verdicts on a bad candidate and of BAD
  // verdicts on a good one, over 3 looks (alpha spent 0.012 vs good, 0.013
  // vs bad)"; for a nearest-median decision, that it carries no bound.
  std::string error_rates;
};

// A candidate judged after each batch (the references fixed meanwhile).
class SequentialJudge {
 public:
  // Throws what check_verdict_options and RepeatedLooks throw.
  SequentialJudge(VerdictOptions options, std::size_t n_good, std::size_t n_bad,
                  std::size_t max_samples);
  // The candidate's pooled samples after a batch; at the cap an UNKNOWN
  // result is decided by decide_at_cap. The references' current sizes are
  // those of `good` and `bad` (references measured beside each batch grow
  // with it; see RepeatedLooks::next).
  SequentialVerdict judge(std::span<const double> good, std::span<const double> bad,
                          std::span<const double> candidate);

 private:
  VerdictOptions options_;
  RepeatedLooks vs_good_, vs_bad_;
};

}  // namespace schedlab
