#include "analysis/sequential/bisect_looks.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace schedlab {

RepeatedLooks::RepeatedLooks(double alpha, std::size_t n_reference, std::size_t max_samples,
                             int grid)
    : alpha_(alpha),
      n_reference_(static_cast<double>(n_reference)),
      max_samples_(static_cast<double>(max_samples)),
      paths_(0, grid) {
  if (!(alpha > 0 && alpha < 1))
    throw std::invalid_argument(fmt::format("alpha must be in (0, 1), not {}", alpha));
  if (n_reference == 0 || max_samples == 0)
    throw std::invalid_argument("repeated looks need reference samples and a sample cap");
}

LookLevel RepeatedLooks::next(std::size_t n) {
  return next(n, static_cast<std::size_t>(n_reference_));
}

LookLevel RepeatedLooks::next(std::size_t n, std::size_t n_reference_now) {
  if (!looks_.empty() && looks_.back().last)
    throw std::logic_error(
        fmt::format("the candidate's last look ({} samples) spent all of alpha", looks_.back().n));
  if (n == 0 || (!looks_.empty() && n <= looks_.back().n))
    throw std::invalid_argument(
        fmt::format("a look needs more samples than the last one ({}), not {}",
                    looks_.empty() ? 0 : looks_.back().n, n));
  const double nd = static_cast<double>(n);
  LookLevel l;
  l.look = looks_.size() + 1;
  l.n = n;
  l.last = nd >= max_samples_;
  // Information relative to the cap's; the paths' time is the information
  // itself, so looks past the cap (which is the last) keep their weight.
  if (n_reference_now == 0) throw std::invalid_argument("a look needs reference samples");
  const double info = 1 / (1 / static_cast<double>(n_reference_now) + 1 / nd);
  if (!(info > last_info_))
    throw std::invalid_argument(
        fmt::format("a look needs more information than the last one ({} candidate and {} reference samples)",
                    n, n_reference_now));
  last_info_ = info;
  const double at_cap = 1 / (1 / n_reference_ + 1 / max_samples_);
  l.fraction = info / at_cap;
  const double spent_before = looks_.empty() ? 0 : looks_.back().alpha_spent;
  l.alpha_spent = l.last ? alpha_ : gs::obf_spent(alpha_, l.fraction);
  const double bound = gs::bound_for(paths_, info, l.alpha_spent - spent_before);
  l.nominal_alpha = std::isinf(bound) ? 0 : std::erfc(bound / std::sqrt(2.0));
  paths_.advance({info, bound, 0});
  looks_.push_back(l);
  return l;
}

SequentialJudge::SequentialJudge(VerdictOptions options, std::size_t n_good, std::size_t n_bad,
                                 std::size_t max_samples)
    : options_(std::move(options)),
      vs_good_(options_.alpha, n_good, max_samples),
      vs_bad_(options_.alpha, n_bad, max_samples) {
  check_verdict_options(options_);
}

SequentialVerdict SequentialJudge::judge(std::span<const double> good, std::span<const double> bad,
                                         std::span<const double> candidate) {
  SequentialVerdict v;
  v.vs_good = vs_good_.next(candidate.size(), good.size());
  v.vs_bad = vs_bad_.next(candidate.size(), bad.size());
  v.result =
      judge_at(good, bad, candidate, options_, v.vs_good.nominal_alpha, v.vs_bad.nominal_alpha);
  if (v.vs_good.last) v.result = decide_at_cap(v.result);
  if (v.result.decided_by == "nearest-median") {
    v.error_rates = fmt::format(
        "decided by the nearer median at the cap ({} samples): no error rate holds for it",
        candidate.size());
  } else {
    v.error_rates = fmt::format(
        "at most {:g}% of GOOD verdicts on a bad candidate and of BAD verdicts on a good one, "
        "over {} looks (alpha spent {:.3g} vs good, {:.3g} vs bad)",
        options_.alpha * 100, v.vs_good.look, v.vs_good.alpha_spent, v.vs_bad.alpha_spent);
  }
  return v;
}

}  // namespace schedlab
