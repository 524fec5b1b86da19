#include "analysis/render/render_sequential_design.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "base/json_data.h"

namespace schedlab {
namespace {

// A bound that rejects nothing (+infinity) is "none" in text, null in JSON.
std::string bound_text(double b) {
  return std::isfinite(b) ? fmt::format("{:.4f}", b) : "none";
}
nlohmann::json bound_json(double b) {
  return std::isfinite(b) ? nlohmann::json(b) : nlohmann::json(nullptr);
}

std::string spending_text(const gs::Spending& f) {
  switch (f.kind) {
    case gs::SpendingKind::kObf:
      return "obf (O'Brien-Fleming-type)";
    case gs::SpendingKind::kPocock:
      return "pocock (Pocock-type)";
    case gs::SpendingKind::kKimDeMets:
      break;
  }
  return fmt::format("{} (Kim-DeMets, alpha t^{:g})", gs::spending_name(f), f.rho);
}

}  // namespace

std::string render_design_text(const DesignReport& r) {
  const DesignCost& c = r.cost;
  const SequentialDesign& d = c.plan.design;
  std::string out;
  out += fmt::format(
      "design: alpha {:g} (two-sided), power {:g} at a change of {:g}% with a CV of {:g}%\n",
      d.alpha, d.power, d.min_effect_pct, c.cv_pct);
  out += fmt::format("spending {}, {} planned looks, min {} iterations a side, max {}\n",
                     spending_text(d.spending), d.planned_looks, d.min_n,
                     c.cap == 0 ? std::string("none") : std::to_string(c.cap));
  out +=
      fmt::format("\nfixed n of equal power: {} iterations a side (R's power.t.test n: {:.2f})\n",
                  c.fixed_n, c.fixed_n_exact);
  out += fmt::format("maximum n: {} iterations a side (the test's needed n at this CV: {:.2f})\n",
                     c.max_n, c.needed_n);
  if (c.capped)
    out += fmt::format(
        "note: the cap ({}) comes before the needed n: power at min_effect falls to {:.3f}\n",
        c.cap, c.power);
  out += fmt::format("\n{:>4} {:>10} {:>9} {:>10} {:>13} {:>12} {:>10}\n", "look", "iterations",
                     "n/needed", "bound |z|", "nominal alpha", "alpha spent", "same bound");
  for (std::size_t k = 0; k < c.looks.size(); ++k) {
    const PlannedLook& l = c.looks[k];
    out += fmt::format("{:>4} {:>10} {:>9.4f} {:>10} {:>13.4g} {:>12.4g} {:>10}\n", k + 1, l.n,
                       l.fraction, bound_text(l.efficacy_bound), l.nominal_alpha, l.alpha_spent,
                       bound_text(l.same_bound));
  }
  out += fmt::format("different: |z| >= bound; same: the interval z +- same bound within +-{:g}%\n",
                     d.min_effect_pct);
  // The spending fraction is the look's n over the needed n the look before
  // planned: whole iterations carry the last look past 1 (1.246 at CV 1%),
  // and that look spends all the alpha left, not more.
  out += fmt::format(
      "n/needed: the spending fraction, the look's n over the needed n the look before planned "
      "(the\nfirst's: at most 1/{} of its own); past 1 when whole iterations pass it, and the "
      "last look\nspends all the alpha left\n",
      d.planned_looks);
  if (c.min_past_needed)
    out += fmt::format(
        "note: the first look ({} iterations, --min) is past the needed n ({:.2f}): it still "
        "spends as\nthe first of {} planned looks (n/needed {:g}), and the next look spends the "
        "rest\n",
        c.looks.front().n, c.needed_n, d.planned_looks, 1.0 / d.planned_looks);
  // A test not settled at its first look spends a calibrated nominal level
  // (sequential_calibration.h): say why the last look's alpha spent is
  // below alpha, and whether that level was measured at this alpha and power.
  if (c.plan.stated) {
    // Looks fixed before any data (plan_cv_pct): one level, the looks'.
    const SequentialPlan::StatedLevel& st = *c.plan.stated;
    out += fmt::format(
        "note: the looks are planned from a stated CV of {:g}% (plan_cv_pct), whatever the samples "
        "say;\nthe bounds spend a nominal alpha of {:.4g} (alpha x {:.4g}) and plan power {:g},",
        d.plan_cv_pct, st.level.nominal_alpha, st.level.calibration.alpha_ratio,
        d.power + st.level.calibration.power_margin);
    if (st.settled)
      out += fmt::format(
          "all of alpha\n(settled: the first look has {:g} degrees of freedom or more)\n",
          d.settled_df);
    else if (st.level.calibration.calibrated)
      out += fmt::format(
          "\ncalibrated at these looks by {} seeded paths under no change (efficacy-only type I "
          "{:.4f})\n",
          st.paths, st.type1);
    else
      out += " as the design sets them (not calibrated)\n";
    out += fmt::format(
        "power at min_effect holds only near a CV of {:g}%: {:.3f} in theory at this CV ({:g}%)\n",
        d.plan_cv_pct, c.power, c.cv_pct);
  } else if (!c.looks.empty() && c.looks.back().alpha_spent < d.alpha) {
    const double first_n = static_cast<double>(c.looks.front().n);
    const SequentialPlan::UnsettledLevel& u = c.plan.unsettled_at(first_n, c.needed_n);
    out += fmt::format(
        "note: the first look has {:g} degrees of freedom (fewer than {:g}): the bounds spend a\n"
        "nominal alpha of {:.4g} (alpha x {:g}) and plan power {:g}, ",
        2 * first_n - 2, d.settled_df, u.nominal_alpha, u.calibration.alpha_ratio,
        d.power + u.calibration.power_margin);
    if (u.calibration.calibrated)
      out += "calibrated by simulation:\ntype I at most alpha, power at least power\n";
    else if (d.unsettled_alpha_ratio > 0)
      out += "as the design sets them (not calibrated)\n";
    else
      out += fmt::format(
          "not calibrated at this alpha and\npower: the level calibrated at alpha {:g}, power {:g} "
          "(type I and power here unmeasured)\n",
          u.calibration.alpha, u.calibration.power);
    // The short level (sequential_calibration.h): few looks follow the first.
    if (std::isfinite(u.calibration.below_ratio))
      out += fmt::format(
          "(the level of a short test: at the first look the needed n is below {:g} x its n)\n",
          u.calibration.below_ratio);
  }
  out += "\naverage iterations a side (normal theory, this design's looks):\n";
  out += fmt::format("  no change       {:>8.2f}\n", c.asn.h0);
  // rpact's design keeps the looks' proportions n_k / max_n at its own
  // maximum n: no reference for looks a cap or --min set (sequential_planning.h).
  const std::string reference =
      c.reference_applies
          ? fmt::format("rpact: {:.2f}; efficacy only, same spending, same n_k / max_n",
                        c.reference_asn_h1)
      : c.capped ? std::string("rpact: n/a; the cap comes before the needed n")
                 : std::string("rpact: n/a; --min is past the needed n");
  out += fmt::format("  min_effect      {:>8.2f}   ({})\n", c.asn.h1, reference);
  out += fmt::format("  2 x min_effect  {:>8.2f}\n", c.asn.h1x2);
  if (r.simulated) {
    const DesignSimulation& s = *r.simulated;
    out += fmt::format("\nsimulated: {} trials a change, {} noise, seed {}\n", s.trials,
                       r.noise == Noise::kNormal ? "normal" : "log-normal", r.seed);
    out += fmt::format("  no change       type I {:.4f}   mean iterations {:>8.2f}\n", s.type1,
                       s.mean_n_h0);
    out += fmt::format("  min_effect      power  {:.4f}   mean iterations {:>8.2f}\n", s.power,
                       s.mean_n_h1);
    out +=
        fmt::format("  2 x min_effect                  mean iterations {:>8.2f}\n", s.mean_n_h1x2);
  }
  return out;
}

std::string render_design_json(const DesignReport& r) {
  const DesignCost& c = r.cost;
  nlohmann::json looks = nlohmann::json::array();
  for (std::size_t k = 0; k < c.looks.size(); ++k) {
    const PlannedLook& l = c.looks[k];
    looks.push_back({{"look", k + 1},
                     {"n", l.n},
                     {"n_over_needed_n", l.fraction},
                     {"efficacy_bound", bound_json(l.efficacy_bound)},
                     {"nominal_alpha", l.nominal_alpha},
                     {"alpha_spent", l.alpha_spent},
                     {"same_bound", bound_json(l.same_bound)}});
  }
  nlohmann::json doc = {{"looks", looks},
                        {"fixed_n", c.fixed_n},
                        {"max_n", c.max_n},
                        {"asn", {{"h0", c.asn.h0}, {"h1", c.asn.h1}, {"h1x2", c.asn.h1x2}}}};
  // Looks planned from a stated CV: that CV and the level of its looks.
  if (c.plan.stated) {
    const SequentialPlan::StatedLevel& st = *c.plan.stated;
    doc["plan_cv_pct"] = c.plan.design.plan_cv_pct;
    doc["calibration"] = {{"nominal_alpha", st.level.nominal_alpha},
                          {"alpha_ratio", st.level.calibration.alpha_ratio},
                          {"power_margin", st.level.calibration.power_margin},
                          {"short", false},
                          {"calibrated", st.level.calibration.calibrated},
                          {"settled", st.settled},
                          {"paths", st.paths},
                          {"paths_type1", st.type1}};
  } else if (!c.looks.empty() && c.looks.back().alpha_spent < c.plan.design.alpha) {
    // A test not settled at its first look: its calibrated level, and
    // whether it was measured at this alpha and power.
    const auto& u = c.plan.unsettled_at(static_cast<double>(c.looks.front().n), c.needed_n);
    doc["calibration"] = {{"nominal_alpha", u.nominal_alpha},
                          {"alpha_ratio", u.calibration.alpha_ratio},
                          {"power_margin", u.calibration.power_margin},
                          {"short", std::isfinite(u.calibration.below_ratio)},
                          {"calibrated", u.calibration.calibrated}};
  }
  if (r.simulated) {
    const DesignSimulation& s = *r.simulated;
    doc["simulated"] = {{"trials", s.trials},       {"type1", s.type1},
                        {"power", s.power},         {"mean_n_h0", s.mean_n_h0},
                        {"mean_n_h1", s.mean_n_h1}, {"mean_n_h1x2", s.mean_n_h1x2}};
  }
  return json_output(doc) + "\n";
}

}  // namespace schedlab
