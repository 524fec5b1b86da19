// The statistics options `compare` and `stats` share: one definition, so
// their names, defaults and help cannot drift apart.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analysis/compare/compare.h"
#include "analysis/stats/significance.h"
#include "runner/cli/common.h"
#include "workloads/registry.h"

namespace schedlab::cli {

struct StatsOptions {
  double alpha = 0.05;
  double level = 0.95;
  std::string test = "welch";
  bool mmtests = false;
  bool all_stats = false;

  CompareOptions to_options() const {
    return {.alpha = alpha,
            .level = level,
            .test = *test_from_name(test),  // CLI11 has checked the name
            .mmtests = mmtests,
            .all_stats = all_stats,
            .known_domain = declared_domain};
  }
};

inline void add_stats_options(CLI::App& cmd, StatsOptions& o) {
  cmd.add_option("--alpha", o.alpha, "significance level for the * marker")
      ->check(number_range(1e-9, 0.5))
      ->capture_default_str();
  cmd.add_option("--level", o.level, "confidence level of every interval")
      ->check(number_range(0.5, 0.999999))
      ->capture_default_str();
  cmd.add_option("--test", o.test,
                 "significance test: welch (Welch's t-test) or mwu (Mann-Whitney U: exact without "
                 "ties and below 50 samples a side, else normal with tie and continuity "
                 "correction)")
      ->check(CLI::IsMember(test_names()))
      ->capture_default_str();
  cmd.add_flag("--mmtests", o.mmtests,
               "mmtests' own numbers: hmean when higher is better else amean, HStddev, and its "
               "* (means differ by more than 1.96 x the sum of stddevs)");
  cmd.add_flag("--all-stats", o.all_stats,
               "add mmtests' rows Min, mean, Stddev, CoeffVar, Max, BAmean-95/BHmean-95");
}

}  // namespace schedlab::cli
