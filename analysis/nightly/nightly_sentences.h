// What the nightly report says about a regression in prose, the same in
// markdown (render_nightly.cc) and HTML (render_nightly_html.cc): each
// renderer wraps the sentences, and ESCAPE is applied to every name and
// value quoted from the targets (html_escape, or the text as it is).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "analysis/nightly/nightly_report.h"

namespace schedlab {

using NightlyEscape = std::string (*)(std::string_view);

inline std::string unescaped(std::string_view s) {
  return std::string(s);
}

// "-12.00% (p = 0.001, alpha 0.05, minimum effect 5%), runs 3 and 7."
inline std::string regression_change_sentence(const NightlyRegression& g) {
  return fmt::format("{:+.2f}% (p = {:.3g}, alpha {}, minimum effect {}%), runs {} and {}.",
                     g.r.pct, g.r.p_value, g.r.alpha, g.r.min_effect_pct, g.reference_run,
                     g.target_run);
}

// A branch target's commits: why there is no range to bisect, or the range
// and "Bisect them:" (the renderer prints the command after it). Empty for
// a target that is no branch.
inline std::string regression_commits_sentence(const NightlyRegression& g, NightlyEscape escape) {
  if (g.repo.empty()) return "";
  if (g.last_good.empty())
    return fmt::format("Commits: {} is at {}; {}, so there is no range to bisect.",
                       escape(g.target), escape(g.commit), escape(g.range_note));
  return fmt::format(
      "Commits since the last good night: {}..{} in {} (last good run {}). Bisect them:",
      escape(g.last_good), escape(g.commit), escape(g.repo), g.last_good_run);
}

}  // namespace schedlab
