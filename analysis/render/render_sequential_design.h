// `schedlab design`'s output: a sequential design's looks, bounds and
// costs (analysis/sequential/sequential_planning.h), and with a simulation its
// measured error rates and iterations. Only formats: every number is
// already computed. Text fits 100 columns; JSON keeps its field names:
//   looks       [{look, n, fraction, efficacy_bound, nominal_alpha,
//                 alpha_spent, same_bound}] (a bound that rejects nothing
//                 is null)
//   fixed_n     the ceiling of R's power.t.test n
//   max_n       the last look's n
//   asn         {h0, h1, h1x2}: normal theory, iterations a variant
//   simulated   {trials, type1, power, mean_n_h0, mean_n_h1, mean_n_h1x2}
//               (only with a simulation)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/sequential/sequential_planning.h"

namespace schedlab {

struct DesignReport {
  DesignCost cost;
  std::optional<DesignSimulation> simulated;
  Noise noise = Noise::kNormal;  // of the simulation
  std::uint64_t seed = 0;        // of the simulation
};

std::string render_design_text(const DesignReport& r);
std::string render_design_json(const DesignReport& r);

}  // namespace schedlab
