// The numerical core of group sequential tests: Lan-DeMets alpha spending
// (O'Brien-Fleming-type, Pocock-type and Kim-DeMets power functions), the
// two-sided boundaries it gives
// at any sequence of information fractions, and the probabilities of a
// standardised statistic's path (Z_1, ..., Z_k) that the boundaries,
// power, expected stopping time and stage-wise adjusted p-values and
// intervals are made of.
//
// The model (Jennison & Turnbull, "Group Sequential Methods with
// Applications to Clinical Trials", 2000, ch. 3 and 19): at look k the
// statistic Z_k has information I_k; with t_k = I_k / I_ref, the score
// S_k = Z_k sqrt(t_k) has independent normal increments, S_k - S_{k-1} ~
// N(eta (t_k - t_{k-1}), t_k - t_{k-1}), so E[Z_k] = eta sqrt(t_k). The
// density of Z_k on the region where the path has not stopped is carried
// from look to look on Jennison & Turnbull's grid (section 19.2: 6r - 1
// points around the mean, midpoints added, Simpson's rule), so each look
// costs one O(m^2) step however many came before. Boundaries agree with
// R's rpact (getDesignGroupSequential, typeOfDesign "asOF", "asP" and
// "asKD", sided 2): see tests/analysis/sequential/sequential_r_test.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::gs {

// A Lan-DeMets spending function: the two-sided alpha spent by information
// fraction t (0 at t <= 0, alpha at t >= 1).
//   obf     O'Brien-Fleming-type, 4 (1 - Phi(z_{1 - alpha/4} / sqrt(t))):
//           each side spends 2 (1 - Phi(z_{1 - alpha/4} / sqrt(t))), alpha/2
//           at t = 1 (rpact's asOF for sided = 2); next to nothing early.
//   pocock  Pocock-type, alpha ln(1 + (e - 1) t) (rpact's asP): much early,
//           a higher last bound.
//   kd      Kim-DeMets power family, alpha t^rho (rpact's asKD, gammaA =
//           rho): rho 1 is near Pocock, 3 near O'Brien-Fleming.
enum class SpendingKind { kObf, kPocock, kKimDeMets };
struct Spending {
  SpendingKind kind = SpendingKind::kObf;
  double rho = 2;  // kd only
};
double spent(const Spending& f, double alpha, double t);
double obf_spent(double alpha, double t);  // spent({kObf}, alpha, t)
// "obf", "pocock", "kd(rho)"; and back ("kd" alone: rho 2; rho from 0.5
// to 5), nullopt for a name not in the family.
std::string spending_name(const Spending& f);
std::optional<Spending> parse_spending(std::string_view name);

// What a path may do at one look with statistic Z: stop above `upper`
// (Z >= upper), below -upper (Z <= -upper), or inside the inner region
// (|Z| < inner, when inner > 0); otherwise it continues.
struct LookRegion {
  double t = 1;      // information fraction of the look (> the previous one's)
  double upper = 0;  // +infinity: no stop outside
  double inner = 0;  // <= 0: no inner stop
};

// Where the paths that reached a look end at it.
struct Exits {
  double above = 0;  // Z >= upper
  double below = 0;  // Z <= -upper
  double inner = 0;  // |Z| < inner
};

// The sub-density of Z at the latest look over the paths that have not
// stopped, under drift eta. Starts before the first look (S_0 = 0).
class PathDensity {
 public:
  // r: Jennison & Turnbull's grid size (16: errors below 1e-6 on the
  // boundaries; 32 for the reference tests).
  explicit PathDensity(double eta, int r = 16);

  // Probabilities, over all paths so far, of each exit at a next look at
  // fraction t with these bounds (t must exceed the current fraction).
  Exits exits(const LookRegion& next) const;
  // P(continue to a next look at fraction t and Z >= z there).
  double tail_above(double t, double z) const;
  // Moves to the next look, keeping the paths that continue.
  void advance(const LookRegion& next);

  // Mass of the paths still going (1 before the first look).
  double continuing() const;
  double fraction() const { return t_; }
  std::size_t looks() const { return looks_; }

 private:
  // P(Z_next in (lo, hi)) for each point, summed with weights.
  double mass_between(double t, double lo, double hi) const;

  double eta_;
  int r_;
  double t_ = 0;
  std::size_t looks_ = 0;
  std::vector<double> z_;  // grid points of the current look
  std::vector<double> w_;  // Simpson weight times density at each point
};

// The upper bound c at the next look such that the paths of `h` (drift 0)
// that cross +-c there have probability `spend`; +infinity when spend <= 0
// (nothing to spend: no rejection possible), 0 when spend covers every
// continuing path.
double bound_for(const PathDensity& h, double t, double spend);

// Two-sided boundaries |Z| >= c_k of spending function f at the fractions
// t (increasing; the last one spends the rest of alpha whatever its
// fraction when `last_spends_all`): rpact's criticalValues.
std::vector<double> spending_bounds(const Spending& f, double alpha, const std::vector<double>& t,
                                    bool last_spends_all = true, int r = 16);

// Probabilities of the design with bounds `regions` under drift eta: how
// paths stop, look by look.
struct PathOutcome {
  std::vector<Exits> at_look;
  double above = 0, below = 0, inner = 0;  // totals
  double expected_fraction = 0;            // E[t at stop]; continuing paths stop at the last look
};
PathOutcome path_outcome(double eta, const std::vector<LookRegion>& regions, int r = 16);

// Stage-wise ordering (Armitage, McPherson & Rowe 1969; Tsiatis, Rosner &
// Mehta 1984) for a test that stopped at the last of the looks at times
// t[0..k-1] (increasing; any scale: only ratios matter) with efficacy
// bounds bounds[0..k-2] at the earlier looks and statistic z at the last.
// Outcomes are ordered by the look they stop at, then by z; the `same`
// stop is ignored (non-binding), as rpact's final p-value and interval do.
//
// Two-sided p-value: the probability under no drift of crossing an
// earlier bound, or of reaching the last look with |Z| >= |z|.
double stagewise_p(const std::vector<double>& t, const std::vector<double>& bounds, double z,
                   int r = 16);

// The interval (two-sided `level`) and median-unbiased estimate of the
// drift at the last look, E[Z_k]: the drifts at which an outcome at least
// as extreme the observed way has probability (1 - level)/2, 1 - (1 -
// level)/2 and 1/2 (only the bound on the observed side of the earlier
// looks counts, as in rpact). Multiplied by the standard error at the last
// look it is an interval of the difference.
struct StagewiseInterval {
  double low = 0, high = 0, estimate = 0;
};
StagewiseInterval stagewise_interval(const std::vector<double>& t,
                                     const std::vector<double>& bounds, double z, double level,
                                     int r = 16);

}  // namespace schedlab::gs
