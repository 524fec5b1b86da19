#include "analysis/sequential/bisect_verdict.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "analysis/stats/summary.h"

namespace schedlab {
namespace {

// Significant, and (with a minimum effect) far enough apart; no centre on
// either side counts as not far enough.
bool differs(const PValue& p, const std::optional<double>& ref, const std::optional<double>& x,
             const VerdictOptions& o, double alpha) {
  if (!p.p || *p.p >= alpha) return false;
  if (o.min_effect_pct <= 0) return true;
  if (!ref || !x || *ref == 0) return false;
  return std::abs(*x - *ref) / std::abs(*ref) * 100 >= o.min_effect_pct;
}

Test test_of(const std::string& name) {
  const auto t = test_from_name(name);
  if (!t) throw std::invalid_argument("unknown test '" + name + "' (mwu or welch)");
  return *t;
}

PValue test_p(const std::string& test, std::span<const double> a, std::span<const double> b) {
  return p_value(test_of(test), a, b);
}

std::string centre_text(const std::optional<double>& c) {
  return c ? fmt::format("{:.6g}", *c) : std::string("n/a");
}

// The reference whose median is nearer the candidate's; UNKNOWN on a tie or
// a missing median.
Verdict nearer_reference(const VerdictResult& r) {
  if (!r.median || !r.good_median || !r.bad_median) return Verdict::kUnknown;
  const double to_good = std::abs(*r.median - *r.good_median);
  const double to_bad = std::abs(*r.median - *r.bad_median);
  if (to_good == to_bad) return Verdict::kUnknown;
  return to_good < to_bad ? Verdict::kGood : Verdict::kBad;
}

}  // namespace

void check_verdict_options(const VerdictOptions& o) {
  test_of(o.test);
}

std::string verdict_test_title(const std::string& test) { return std::string(test_title(test_of(test))); }

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kGood: return "GOOD";
    case Verdict::kBad: return "BAD";
    case Verdict::kUnknown: break;
  }
  return "UNKNOWN";
}

VerdictResult judge(std::span<const double> good, std::span<const double> bad,
                    std::span<const double> candidate, const VerdictOptions& options) {
  return judge_at(good, bad, candidate, options, options.alpha, options.alpha);
}

VerdictResult judge_at(std::span<const double> good, std::span<const double> bad,
                       std::span<const double> candidate, const VerdictOptions& options,
                       double alpha_vs_good, double alpha_vs_bad) {
  VerdictResult r;
  r.vs_good = test_p(options.test, good, candidate);
  r.vs_bad = test_p(options.test, bad, candidate);
  r.centre = centre_of(candidate, options.centre);
  r.good_centre = centre_of(good, options.centre);
  r.bad_centre = centre_of(bad, options.centre);
  r.median = centre_of(candidate, Centre::kMedian);
  r.good_median = centre_of(good, Centre::kMedian);
  r.bad_median = centre_of(bad, Centre::kMedian);
  const bool from_good = differs(r.vs_good, r.good_median, r.median, options, alpha_vs_good);
  const bool from_bad = differs(r.vs_bad, r.bad_median, r.median, options, alpha_vs_bad);
  const auto nearer = nearer_reference(r);
  if (from_bad && !from_good && nearer == Verdict::kGood) r.verdict = Verdict::kGood;
  if (from_good && !from_bad && nearer == Verdict::kBad) r.verdict = Verdict::kBad;
  if (r.verdict != Verdict::kUnknown) r.decided_by = "test";
  return r;
}

VerdictResult decide_at_cap(VerdictResult r) {
  if (r.verdict != Verdict::kUnknown) return r;
  r.verdict = nearer_reference(r);
  if (r.verdict != Verdict::kUnknown) r.decided_by = "nearest-median";
  return r;
}

ReferenceCheck check_references(std::span<const double> good, std::span<const double> bad,
                                const VerdictOptions& options) {
  ReferenceCheck c;
  c.p = test_p(options.test, good, bad);
  c.good_centre = centre_of(good, options.centre);
  c.bad_centre = centre_of(bad, options.centre);
  c.n_good = good.size();
  c.n_bad = bad.size();
  c.differ =
      differs(c.p, centre_of(good, Centre::kMedian), centre_of(bad, Centre::kMedian), options,
              options.alpha);
  return c;
}

std::string ReferenceCheck::describe() const {
  return fmt::format("good {} (n={}), bad {} (n={}), p = {}", centre_text(good_centre), n_good,
                     centre_text(bad_centre), n_bad,
                     p.p ? fmt::format("{:.4g}", *p.p) : "n/a (" + p.reason + ")");
}

}  // namespace schedlab
