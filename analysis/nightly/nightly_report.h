// The nightly report: every measured target compared with the baseline and
// with the previous target of the list, per config and variant, the
// regressions the rule finds (first), and for each regression the schedstat
// diff of the two runs when both have schedstat monitor data. Computed here
// from the store; render_nightly.cc only formats it (markdown, JSON).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/counters/schedstat_diff.h"
#include "analysis/history/history_changes.h"
#include "analysis/nightly/nightly_input.h"
#include "analysis/nightly/regression.h"
#include "results/store.h"

namespace schedlab {

// A regression with its evidence.
struct NightlyRegression {
  Regression r;
  std::string config;
  std::string variant;
  std::string reference, target;  // target names
  std::string against;            // baseline | previous
  std::int64_t reference_run = 0, target_run = 0;
  // Sums of schedstat deltas of the regressed row in both runs; empty with
  // the reason when either run has none.
  std::optional<schedstat::Comparison> schedstat;
  std::string schedstat_reason;
  // A git:PATH@BRANCH target that regressed against the baseline: the
  // commits since its last good night, the newest earlier measured night of
  // the same target and config (another commit) that does not regress
  // against this night's baseline run under the rule. Empty repo: not a
  // branch target (or against the previous target).
  std::string repo, commit;
  std::string last_good;  // empty: no good night (range_note says why)
  std::int64_t last_good_run = 0;
  std::string range_note;      // when there is no last good night
  std::string bisect_command;  // shell-quoted; empty without a last good night
};

// A change point in a target's history with one config: its measured
// nights (nightly_measurements of that target and config text), oldest
// first, one series per variant, row and parameter set of each metric,
// searched by analysis/history/history_changes.h at the rule's alpha and minimum
// effect for the metric.
struct NightlyChange {
  std::string target, config;
  std::string workload, metric, unit;
  HistoryChange change;
  // A git:PATH@BRANCH target: the repository, and the commits of the
  // nights either side (the last before the change: good; the first after:
  // bad, or the other way round for an improvement); empty otherwise.
  std::string repo, good, bad;
  std::string bisect_command;  // shell-quoted; empty without both commits
};

// One table set: a target against a reference, one config and variant.
struct NightlyComparison {
  std::string config;
  std::string variant;
  std::string reference, target;
  std::string against;  // baseline | previous
  Comparison comparison;  // with its columns' perf-profile stacks (comparison.profiles)
  std::size_t regressions = 0;
  // Why the stored profiles were not loaded (one did not load: its run,
  // variant, point and iteration); the page says it where the flame graphs
  // would be. Empty when they loaded or there were none.
  std::string profiles_error;
};

struct NightlyReport {
  NightlyReportInput input;
  std::vector<NightlyRegression> regressions;
  std::vector<NightlyComparison> comparisons;
  std::vector<std::string> failures;  // "target / config: why"
  std::vector<NightlyChange> changes;
  // Histories not searched for change points, one line each
  // ("branch / c.yaml: 5 measured nights; change points need 8").
  std::vector<std::string> change_notes;
  bool regressed() const { return !regressions.empty(); }
};

// Throws StoreError for a run that vanished from the store.
NightlyReport build_nightly_report(const Store& store, const NightlyReportInput& input);

// Markdown for people (regressions first); JSON with format_version 1
// (schema in docs/nightly-json.md). Both end with a newline.
std::string render_nightly_markdown(const NightlyReport& r);
std::string render_nightly_json(const NightlyReport& r);
// One offline page: regressions first, each with its table's plots, then
// every comparison as `schedlab report` shows it; vega_script defines `vega`.
std::string render_nightly_html(const NightlyReport& r, const std::string& vega_script);

}  // namespace schedlab
